import ByteWriters
import MicroHTTP
import TableKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Standard output for log lines: whole lines, never interleaved, in the order they were written.
///
/// Lines written as deferred — access lines, one per request — wait in a queue and go out
/// together in one `write(2)`, ``flushInterval`` after the first of them or as soon as
/// ``flushCount`` are waiting, as nginx's `access_log … buffer= flush=` does, instead of a
/// system call per request. An access line waits as its request's summary (an ``AccessRecord``)
/// and is formatted by the thread that writes the queue, so a request's thread only stamps the
/// time and queues the record (on a machine with a spare core, the formatting is off the
/// requests' path altogether). Any other line writes the queue and itself at once, so the order
/// holds and a `stopping` line pushes out the requests before it. If the process is killed, at
/// most ``flushInterval`` of access lines are lost. When more than ``queueLimit`` lines wait (the
/// output blocks, or the writer cannot keep up), the thread that queues one writes the queue
/// itself: requests slow down rather than memory grow.
final class StandardOutput: @unchecked Sendable {
    static let shared = StandardOutput(fileDescriptor: STDOUT_FILENO)
    /// Deferred lines are written as soon as this many wait.
    static let flushCount = 256
    /// Deferred lines are written at the latest this long after the first of them.
    static let defaultFlushInterval: Duration = .milliseconds(50)
    /// The most deferred lines that wait before a thread that queues one writes them itself.
    static let queueLimit = 4 * flushCount
    /// The most memory the bytes to write keep between batches: more, taken by a burst, is given back.
    static let keptCapacity = 256 * 1024

    private let fileDescriptor: Int32
    let flushInterval: Duration
    // A pthread mutex and condition (TableKit's), not Foundation's, which would load all of
    // Foundation and ICU into the server for one lock: ThreadSanitizer sees their ordering.
    /// Guards `queue` and `flusherStarted`: held only to queue a line or take the queue.
    private let queueLock = Lock()
    private let condition = Condition()
    /// The deferred lines, in the order they were written. It holds at most ``queueLimit`` and a
    /// line per thread queueing at once, so its storage is kept from batch to batch.
    private var queue: [Deferred] = []
    private var flusherStarted = false

    /// A deferred line: its bytes, or an access line to format.
    private enum Deferred {
        case bytes([UInt8])
        case access(AccessRecord)
    }

    /// Held while lines are formatted and written (taken before `queueLock`, never after): the
    /// order of the output. Guards `formatting` and `pending`.
    private let outputLock = Lock()
    /// The queue taken to be formatted: swapped with `queue`, so that the two arrays' storage is
    /// reused from batch to batch.
    private var formatting: [Deferred] = []
    /// Bytes to write. A writer, so that a line can be formatted straight into it.
    private var pending = ByteBuffer()

    init(fileDescriptor: Int32, flushInterval: Duration = defaultFlushInterval) {
        self.fileDescriptor = fileDescriptor
        self.flushInterval = flushInterval
    }

    /// Writes `line` now, with every deferred line before it, or (`deferred`) soon.
    func write(_ line: [UInt8], deferred: Bool) {
        if deferred {
            enqueue(.bytes(line))
        } else {
            outputLock.withLock {
                formatQueue()
                line.withUnsafeBytes { pending.append($0) }
                writePending()
            }
        }
    }

    /// Queues the access line of `record`, to be formatted and written soon.
    func write(deferred record: AccessRecord) {
        enqueue(.access(record))
    }

    /// Appends one deferred line to the queue (see the type's description).
    private func enqueue(_ line: Deferred) {
        let writeNow = queueLock.withLock {
            queue.append(line)
            let waiting = queue.count
            if !flusherStarted {
                flusherStarted = startFlusher()
            }
            // The flusher waits for a first line, then for the interval or a full batch.
            if flusherStarted && (waiting == 1 || waiting == Self.flushCount) { condition.signal() }
            // No flusher (no memory, a thread limit): written now rather than never.
            return waiting > Self.queueLimit || !flusherStarted
        }
        if writeNow { flush() }
    }

    /// Writes what is deferred.
    func flush() {
        outputLock.withLock {
            formatQueue()
            writePending()
        }
    }

    /// Formats the waiting lines into `pending`; `outputLock` is held.
    private func formatQueue() {
        queueLock.withLock { swap(&queue, &formatting) }
        guard !formatting.isEmpty else { return }
        for line in formatting {
            switch line {
            case .bytes(let bytes): bytes.withUnsafeBytes { pending.append($0) }
            case .access(let record): record.writeLine(into: &pending)
            }
        }
        formatting.removeAll(keepingCapacity: true)
    }

    /// Starts the thread that writes deferred lines; whether it could be made.
    private func startFlusher() -> Bool {
        Threads.detach { self.runFlusher() }
    }

    /// Writes and empties `pending`; `outputLock` is held.
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
        pending.removeAll(keepingCapacity: count <= Self.keptCapacity)
    }

    /// Waits for a first deferred line, then for ``flushInterval`` or ``flushCount`` lines, and
    /// writes them; forever.
    private func runFlusher() {
        while true {
            queueLock.withLock {
                while queue.isEmpty { queueLock.wait(for: condition) }
                let deadline = Condition.deadline(after: flushInterval)
                while queue.count < Self.flushCount {
                    if !queueLock.wait(for: condition, until: deadline) { break }
                }
            }
            flush()
        }
    }
}
