import Foundation
import MicroHTTP

/// A deterministic byte pattern whose period (65 521, a prime) differs from every chunk size.
enum Pattern {
    static let period = 65_521
    static let bytes: [UInt8] = (0..<period).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
    /// The pattern twice, so any window of up to `period` bytes starting at any offset is contiguous.
    static let doubled = bytes + bytes

    /// Whether `chunk` equals the pattern bytes starting at absolute offset `offset`.
    static func matches(_ chunk: ArraySlice<UInt8>, at offset: Int) -> Bool {
        var checked = 0
        while checked < chunk.count {
            let start = (offset + checked) % period
            let count = min(period, chunk.count - checked)
            let equal = chunk.withUnsafeBytes { actual in
                doubled.withUnsafeBytes { expected in
                    memcmp(actual.baseAddress! + checked, expected.baseAddress! + start, count) == 0
                }
            }
            guard equal else { return false }
            checked += count
        }
        return true
    }
}

/// Set when a producer is released; thread-safe.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    var isRaised: Bool { lock.withLock { raised } }

    func raise() {
        lock.withLock { raised = true }
    }

    /// Polls until raised or `timeout` passes.
    func wait(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !isRaised && ContinuousClock.now < deadline { usleep(10_000) }
        return isRaised
    }
}

/// Produces `total` bytes of ``Pattern`` in 64 KiB parts, optionally pausing between parts; `total == nil` never ends.
/// With a `gate`, every part after the first waits until it is raised (for at most a minute).
final class PatternProducer: ResponseBodyProducer {
    private let total: Int?
    private let pause: Duration
    private let released: Flag?
    private let gate: Flag?
    private var produced = 0

    init(total: Int?, pause: Duration = .zero, released: Flag? = nil, gate: Flag? = nil) {
        self.total = total
        self.pause = pause
        self.released = released
        self.gate = gate
    }

    deinit {
        released?.raise()
    }

    func produce(into buffer: inout [UInt8]) throws -> Bool {
        if let gate, produced > 0 { _ = gate.wait(timeout: .seconds(60)) }
        if pause > .zero { Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18 + Double(pause.components.seconds)) }
        var count = min(64 * 1024, (total ?? .max) - produced)
        while count > 0 {
            let start = produced % Pattern.period
            let take = min(count, Pattern.period - start)
            buffer.append(contentsOf: Pattern.bytes[start..<(start + take)])
            produced += take
            count -= take
        }
        return total.map { produced < $0 } ?? true
    }
}

/// Fails after a few parts.
final class FailingProducer: ResponseBodyProducer {
    private var calls = 0

    func produce(into buffer: inout [UInt8]) throws -> Bool {
        calls += 1
        if calls > 3 { throw CocoaError(.fileReadCorruptFile) }
        buffer.append(contentsOf: [UInt8](repeating: UInt8(ascii: "x"), count: 10_000))
        return true
    }
}

/// Records what the server reports.
final class RecordingObserver: ServerObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var opened = 0
    private var closed = 0
    private var summaryList: [RequestSummary] = []

    var summaries: [RequestSummary] { lock.withLock { summaryList } }
    var connections: (opened: Int, closed: Int) { lock.withLock { (opened, closed) } }

    func connectionOpened() { lock.withLock { opened += 1 } }
    func connectionClosed() { lock.withLock { closed += 1 } }
    func requestCompleted(_ summary: RequestSummary) { lock.withLock { summaryList.append(summary) } }

    func waitForSummary(where predicate: (RequestSummary) -> Bool, timeout: Duration = .seconds(30)) -> RequestSummary? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = summaries.first(where: predicate) { return found }
            usleep(10_000)
        }
        return nil
    }
}

/// Strings appended from several threads.
final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    var all: [String] { lock.withLock { items } }

    func append(_ item: String) {
        lock.withLock { items.append(item) }
    }
}

/// Lets `count` threads wait until all of them have arrived (once).
final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: Int

    init(count: Int) {
        waiting = count
    }

    func arriveAndWait() {
        condition.lock()
        defer { condition.unlock() }
        waiting -= 1
        if waiting <= 0 {
            condition.broadcast()
        } else {
            while waiting > 0 { condition.wait() }
        }
    }
}
