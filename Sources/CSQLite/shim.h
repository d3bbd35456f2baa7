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

/// Turns on SQLITE_DBCONFIG_DEFENSIVE (no writes to the schema tables, no `writable_schema`, no
/// shadow-table writes) and turns off the C API's extension loading, for a connection that runs
/// SQL a client wrote; `sqlite3_db_config` is variadic, which Swift cannot call.
static inline int csqlite_defend(sqlite3 *db) {
    int result = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
    if (result == SQLITE_OK) result = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)0);
    return result;
}

// What a database file holds, read through SQLite's own open file (the VFS methods sqlite3.h
// declares), never through a second descriptor: closing one would drop the POSIX locks SQLite
// holds on the file for the whole process.

/// The connection's main database file, or NULL.
static inline sqlite3_file *csqlite_main_file(sqlite3 *db) {
    sqlite3_file *file = 0;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK) return 0;
    return file && file->pMethods ? file : 0;
}

/// Reads `length` bytes at `offset` of the main database file (the first 100 are its header).
static inline int csqlite_read_main_file(sqlite3 *db, void *buffer, int length, sqlite3_int64 offset) {
    sqlite3_file *file = csqlite_main_file(db);
    if (!file) return SQLITE_ERROR;
    return file->pMethods->xRead(file, buffer, length, offset);
}

/// 1 when the path the file was opened by names another file now (renamed or unlinked), 0 when not.
static inline int csqlite_file_has_moved(sqlite3 *db, int *moved) {
    *moved = 0;
    return sqlite3_file_control(db, "main", SQLITE_FCNTL_HAS_MOVED, moved);
}

/// Copies the WAL-index header (the first 48 bytes of the `-shm` file, laid out in SQLite's
/// "WAL-mode file format" document) from the shared memory every connection to the file maps.
/// A writer updates the header's second copy, then the first; a reader takes the first, then the
/// second, and trusts them when they agree (SQLite's own `walIndexTryHdr`). Call it only on a
/// connection in WAL mode: on another, mapping the shared memory would create a `-shm` file.
/// SQLITE_BUSY when the copies never agreed (a writer kept updating them), another code when the
/// memory cannot be mapped.
static inline int csqlite_wal_index_header(sqlite3 *db, unsigned char header[48]) {
    sqlite3_file *file = csqlite_main_file(db);
    if (!file || file->pMethods->iVersion < 2 || !file->pMethods->xShmMap) return SQLITE_ERROR;
    volatile void *region = 0;
    // 32 KiB: the size of the regions SQLite maps the wal-index in (WALINDEX_PGSZ).
    int result = file->pMethods->xShmMap(file, 0, 32768, 0, &region);
    // A `-shm` opened read-only maps with SQLITE_READONLY; the header is still there to read.
    if ((result != SQLITE_OK && (result & 0xff) != SQLITE_READONLY) || !region) return result == SQLITE_OK ? SQLITE_ERROR : result;
    const volatile unsigned char *shared = (const volatile unsigned char *)region;
    for (int attempt = 0; attempt < 1000; attempt++) {
        unsigned char second[48];
        for (int i = 0; i < 48; i++) header[i] = shared[i];
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        for (int i = 0; i < 48; i++) second[i] = shared[48 + i];
        int same = 1;
        for (int i = 0; i < 48; i++) same &= header[i] == second[i];
        // Byte 12 is isInit: 0 while the header is being rebuilt from the WAL file.
        if (same && header[12]) return SQLITE_OK;
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
    return SQLITE_BUSY;
}

#endif
