import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Standard output for log lines: whole lines, never interleaved, in the order they were written.
///
/// Lines written as `deferred` — access lines, one per request — wait in a buffer that goes out
/// in one `write(2)` when it holds ``flushSize`` bytes or ``flushInterval`` after its first line,
/// as nginx's `access_log … buffer= flush=` does: a system call per request cost about a tenth of
/// a small response. Any other line writes the buffer and itself at once, so the order holds and a
/// `stopping` line pushes out the requests before it. If the process is killed, at most
/// ``flushInterval`` of access lines are lost.
final class StandardOutput: @unchecked Sendable {
    static let shared = StandardOutput(fileDescriptor: STDOUT_FILENO)
    /// Deferred lines are written once they add up to this many bytes.
    static let flushSize = 32 * 1024
    /// Deferred lines are written at the latest this long after the first of them.
    static let flushInterval: Duration = .milliseconds(50)

    private let fileDescriptor: Int32
    // NSCondition is pthread-based: ThreadSanitizer sees its ordering (see DESIGN.md on Mutex).
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var pending: [UInt8] = []
    private var flusherStarted = false

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Writes `line` now, with every deferred line before it, or (`deferred`) soon.
    func write(_ line: [UInt8], deferred: Bool) {
        condition.lock()
        defer { condition.unlock() }
        let wasEmpty = pending.isEmpty
        pending.append(contentsOf: line)
        guard deferred, pending.count < Self.flushSize else {
            writePending()
            return
        }
        if !flusherStarted {
            flusherStarted = true
            let thread = Thread { [self] in runFlusher() }
            thread.name = "cellar-log-flush"
            thread.start()
        }
        if wasEmpty { condition.signal() }
    }

    /// Writes what is deferred.
    func flush() {
        condition.lock()
        defer { condition.unlock() }
        writePending()
    }

    /// Writes and empties `pending`; the lock is held.
    private func writePending() {
        guard !pending.isEmpty else { return }
        pending.withUnsafeBufferPointer { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fileDescriptor, bytes.baseAddress.unsafelyUnwrapped + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // the output is gone: drop the lines rather than fail requests
                }
                offset += written
            }
        }
        pending.removeAll(keepingCapacity: pending.capacity <= 4 * Self.flushSize)
    }

    /// Waits for a first deferred line, lets more gather for ``flushInterval``, writes them; forever.
    private func runFlusher() {
        let interval = Self.flushInterval.components
        let microseconds = UInt32(interval.seconds * 1_000_000 + interval.attoseconds / 1_000_000_000_000)
        while true {
            condition.lock()
            while pending.isEmpty { condition.wait() }
            condition.unlock()
            usleep(microseconds)
            flush()
        }
    }
}
