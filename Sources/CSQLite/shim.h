#ifndef CELLAR_CSQLITE_SHIM_H
#define CELLAR_CSQLITE_SHIM_H

// Debian's libsqlite3, plus `static inline` wrappers for what Swift cannot call itself: SQLite's
// destructor constants are macros that cast -1 or 0 to a function pointer, which Swift does not
// import. Every wrapper is prefixed `csqlite_`.

#include <sqlite3.h>

/// Binds `length` bytes of UTF-8 (NULs included) as text; SQLite copies them. A NULL pointer
/// (an empty Swift buffer may have none) binds the empty string, not SQL NULL.
static inline int csqlite_bind_text(sqlite3_stmt *statement, int index, const void *text, sqlite3_uint64 length) {
    return sqlite3_bind_text64(statement, index, text ? (const char *)text : "", length, SQLITE_TRANSIENT, SQLITE_UTF8);
}

/// Binds `length` bytes as a blob; SQLite copies them. An empty blob is bound as a zero-length
/// blob (sqlite3_bind_blob with a NULL pointer would bind SQL NULL).
static inline int csqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, sqlite3_uint64 length) {
    if (length == 0) return sqlite3_bind_zeroblob(statement, index, 0);
    return sqlite3_bind_blob64(statement, index, bytes, length, SQLITE_TRANSIENT);
}

#endif
