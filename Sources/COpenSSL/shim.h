#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

// Debian's OpenSSL (libcrypto), for sign-in: HMAC-SHA256, scrypt, a constant-time compare and
// random bytes. Only Cellar's SignIn/Crypto.swift imports it.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#endif
