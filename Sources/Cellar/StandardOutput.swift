import TableKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
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
    // A pthread mutex and condition (TableKit's), not Foundation's, which would load all of
    // Foundation and ICU into the server for one lock: ThreadSanitizer sees their ordering.
    private let lock = Lock()
    private let condition = Condition()
    // Guarded by `lock`. A writer, so that a line can be written straight into it (see
    // ``write(deferred:_:)``) instead of made as an array of its own and copied.
    private var pending = JSONWriter()
    private var flusherStarted = false

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Writes `line` now, with every deferred line before it, or (`deferred`) soon.
    func write(_ line: [UInt8], deferred: Bool) {
        write(deferred: deferred) { pending in line.withUnsafeBytes { pending.append($0) } }
    }

    /// Has `writeLine` append one whole line to the pending output, then writes it as
    /// ``write(_:deferred:)`` would: the access log's path, with no array made per line. The
    /// lock is held while the line is written, so `writeLine` must not log.
    func write(deferred: Bool, _ writeLine: (inout JSONWriter) -> Void) {
        lock.withLock {
            let wasEmpty = pending.count == 0
            writeLine(&pending)
            // Written now, or made sure it will be.
            guard deferred, pending.count < Self.flushSize else {
                writePending()
                return
            }
            if !flusherStarted {
                flusherStarted = startFlusher()
                // No thread (no memory, a thread limit): write now rather than never.
                if !flusherStarted { writePending() }
            }
            if wasEmpty { condition.signal() }
        }
    }

    /// Writes what is deferred.
    func flush() {
        lock.withLock { writePending() }
    }

    /// Starts the thread that writes deferred lines; whether it could be made.
    private func startFlusher() -> Bool {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self)
        let created = pthread_create(
            &thread, nil,
            { context in
                let output = Unmanaged<StandardOutput>.fromOpaque(context!).takeRetainedValue()
                output.runFlusher()
                return nil
            }, context.toOpaque())
        guard created == 0 else {
            context.release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// Writes and empties `pending`; the lock is held.
    private func writePending() {
        guard pending.count > 0 else { return }
        let count = pending.count
        pending.withUnsafeBytes { bytes in
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
        // Memory taken by a burst (lines written while a write blocked) is given back.
        pending.removeAll(keepingCapacity: count <= 4 * Self.flushSize)
    }

    /// Waits for a first deferred line, lets more gather for ``flushInterval``, writes them; forever.
    private func runFlusher() {
        let interval = Self.flushInterval.components
        let microseconds = UInt32(interval.seconds * 1_000_000 + interval.attoseconds / 1_000_000_000_000)
        while true {
            lock.withLock {
                while pending.count == 0 { lock.wait(for: condition) }
            }
            usleep(microseconds)
            flush()
        }
    }
}
