import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension SQLiteConnection {
    /// How many virtual-machine steps SQLite runs between two looks at the clock: a few microseconds' work.
    static let progressInterval: Int32 = 1000

    /// Runs `body` with a time limit on its queries: a statement still running `seconds` from now is
    /// stopped, and its `step()` throws an error whose ``DatabaseError/isInterrupted`` is true.
    ///
    /// Only this connection is stopped (SQLite's progress handler is per connection); it is usable
    /// again at once. The wait for another connection's lock (the busy timeout) is shortened to the
    /// time left, since SQLite does not call the progress handler while it waits. Nested calls keep the
    /// earlier deadline.
    public func withDeadline<T>(seconds: Double, _ body: () throws -> T) throws -> T {
        let now = Self.monotonicNanoseconds()
        let limit = now &+ UInt64(max(0, min(seconds, 1e9)) * 1e9)
        let previous = deadline
        let effective = min(limit, previous ?? .max)
        deadline = effective
        let milliseconds = Int32(clamping: (effective &- now) / 1_000_000)
        sqlite3_busy_timeout(handle, min(Self.busyTimeout, milliseconds))
        sqlite3_progress_handler(handle, Self.progressInterval, progressHandler, Unmanaged.passUnretained(self).toOpaque())
        defer {
            deadline = previous
            if previous == nil {
                sqlite3_progress_handler(handle, 0, nil, nil)
                sqlite3_busy_timeout(handle, Self.busyTimeout)
            }
        }
        return try body()
    }

    /// `CLOCK_MONOTONIC` in nanoseconds: a change of the wall clock does not move it.
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// SQLite's progress callback: non-zero stops the running statement with SQLITE_INTERRUPT. The context is
/// the connection; `withDeadline` removes the handler before it returns, so the connection outlives every call.
private func progressHandler(_ context: UnsafeMutableRawPointer?) -> Int32 {
    guard let context else { return 0 }
    let connection = Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue()
    guard let deadline = connection.deadline else { return 0 }
    return SQLiteConnection.monotonicNanoseconds() >= deadline ? 1 : 0
}
