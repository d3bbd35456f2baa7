#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file as `stat` sees it: which file it is, how long, and when it was last written. The same
/// for every process on the machine that looks at the same file.
struct FileStatus: Hashable, Sendable {
    let identity: FileIdentity
    let size: Int64
    let modifiedSeconds: Int64
    let modifiedNanoseconds: Int64

    /// The status of the file at `path` now, or nil when there is none (or it cannot be stat'ed).
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        identity = FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        size = Int64(status.st_size)
        #if canImport(Darwin)
            modifiedSeconds = Int64(status.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int64(status.st_mtimespec.tv_nsec)
        #else
            modifiedSeconds = Int64(status.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
        #endif
    }
}
