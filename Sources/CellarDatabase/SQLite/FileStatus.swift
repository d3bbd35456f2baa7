import ByteWriters
import Synchronization

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
        if Self.countedPaths.load(ordering: .relaxed) > 0 { Self.counts.withLock { $0[path]? += 1 } }
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

    /// How many paths are counted now: while none is, a stat costs one atomic load more.
    private static let countedPaths = Atomic<Int>(0)
    /// The stats made of each counted path so far.
    private static let counts = Locked<[String: Int]>([:])

    /// Runs `body` and counts the stats this type makes of `path` meanwhile, on any thread (for
    /// tests; SQLite's own stats are not counted). One count of a path at a time.
    static func counting<T>(_ path: String, _ body: () throws -> T) rethrows -> (result: T, stats: Int) {
        counts.withLock { $0[path] = 0 }
        countedPaths.add(1, ordering: .sequentiallyConsistent)
        defer {
            countedPaths.subtract(1, ordering: .sequentiallyConsistent)
            _ = counts.withLock { $0.removeValue(forKey: path) }
        }
        let result = try body()
        return (result, counts.withLock { $0[path] ?? 0 })
    }
}
