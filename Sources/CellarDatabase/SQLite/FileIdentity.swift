/// Which file a path names: its device and inode. A file replaced by a rename (how a new database is
/// usually deployed) has a new identity under the same path; one changed in place keeps its identity,
/// and SQLite itself sees that change (``SQLiteConnection/dataVersion``).
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity of the file at `path` now, or nil when there is none (or it cannot be stat'ed).
    init?(path: String) {
        guard let status = FileStatus(path: path) else { return nil }
        self = status.identity
    }
}
