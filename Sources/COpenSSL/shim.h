#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

// Debian's OpenSSL (libcrypto), for sign-in: HMAC-SHA256, scrypt, a constant-time compare and
// random bytes. Only Cellar's SignIn/Crypto.swift imports it.
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

/// An HMAC-SHA256 context holding `key`, to be duplicated for each message (OpenSSL 3's one-shot
/// HMAC() fetches its algorithms again on every call: 5 µs against 0.7 µs for a duplicate); NULL
/// on failure. Free it with EVP_MAC_CTX_free.
static inline EVP_MAC_CTX *copenssl_hmac_sha256_new(const unsigned char *key, size_t key_length) {
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (mac == NULL) return NULL;
    EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac);
    if (context == NULL) return NULL;
    char digest[] = "SHA256";
    OSSL_PARAM parameters[2] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0), OSSL_PARAM_construct_end()};
    if (EVP_MAC_init(context, key, key_length, parameters) != 1) {
        EVP_MAC_CTX_free(context);
        return NULL;
    }
    return context;
}

/// The 32-byte HMAC of `message` under the key `keyed` holds, through a duplicate of it; 1 on success.
static inline int copenssl_hmac_sha256(const EVP_MAC_CTX *keyed, const unsigned char *message, size_t length, unsigned char *out) {
    EVP_MAC_CTX *context = EVP_MAC_CTX_dup(keyed);
    if (context == NULL) return 0;
    size_t written = 0;
    int ok = EVP_MAC_update(context, message, length) == 1 && EVP_MAC_final(context, out, &written, 32) == 1 && written == 32;
    EVP_MAC_CTX_free(context);
    return ok;
}

#endif
