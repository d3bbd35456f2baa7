#ifndef CELLAR_CLIBPQ_SHIM_H
#define CELLAR_CLIBPQ_SHIM_H

// Debian's libpq (PostgreSQL's client library): Swift calls its functions directly. The one
// wrapper reads OpenSSL, which libpq-dev's headers bring and libpq5 already loads.

#include <libpq-fe.h>
#include <openssl/ssl.h>

// Bytes of a TLS record that OpenSSL has already read from the socket and decrypted for libpq, but
// libpq has not taken yet: poll(2) on the socket cannot see them, so a wait for more input checks
// them first, as libpq's own wait does (pqSocketCheck and pgtls_read_pending, fe-misc.c).
// 0 on a connection without TLS.
static inline int clibpq_tls_bytes_pending(PGconn *connection) {
    SSL *ssl = (SSL *)PQsslStruct(connection, "OpenSSL");
    return ssl == NULL ? 0 : SSL_pending(ssl);
}

#endif
