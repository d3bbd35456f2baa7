import CSQLite

/// What the file under a connection holds, read through SQLite's own open file: for validators
/// that depend on the file alone (``DatabaseVersion``).
extension SQLiteConnection {
    /// The database header, the file's first 100 bytes (SQLite's "Database File Format", 1.3), or
    /// nil when it cannot be read. Inside a read transaction in rollback-journal mode, no writer can
    /// change it meanwhile.
    func databaseHeader() -> [UInt8]? {
        var header = [UInt8](repeating: 0, count: 100)
        let result = header.withUnsafeMutableBytes { csqlite_read_main_file(handle, $0.baseAddress, 100, 0) }
        return result == SQLITE_OK ? header : nil
    }

    /// The WAL-index header (48 bytes) as every process that has the file open sees it now, or nil
    /// when it cannot be read. Only on a connection in WAL mode (see `csqlite_wal_index_header`).
    func walIndexHeader() -> [UInt8]? {
        var header = [UInt8](repeating: 0, count: 48)
        let result = header.withUnsafeMutableBufferPointer { csqlite_wal_index_header(handle, $0.baseAddress) }
        return result == SQLITE_OK ? header : nil
    }

    /// The status of the file this connection reads, or nil when its path names another file now
    /// (replaced by a rename, or removed) or cannot be stat'ed.
    func fileStatus() -> FileStatus? {
        guard let status = FileStatus(path: path) else { return nil }
        var moved: Int32 = 0
        guard csqlite_file_has_moved(handle, &moved) == SQLITE_OK, moved == 0 else { return nil }
        // The path's file was the connection's at the check: unless it was swapped away and back
        // in between, the status is of the connection's file; a second look tells.
        guard FileStatus(path: path)?.identity == status.identity else { return nil }
        fileIdentity = status.identity
        return status
    }

    /// The status of the file this connection reads: the pool's look when it lent the connection,
    /// when that was of this file, without a stat of its own; else ``fileStatus()``.
    func fileStatusWhenLent() -> FileStatus? {
        if let lent = statusWhenLent, lent.identity == fileIdentity { return lent }
        return fileStatus()
    }
}
