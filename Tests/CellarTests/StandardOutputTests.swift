import Synchronization
import Testing

@testable import Cellar

#if canImport(Glibc)
    import Glibc
#endif

/// Log lines reach the output whole and in order; access lines may wait a moment to go out together.
@Suite struct StandardOutputTests {
    /// A temporary file: the output appends to it, and a second descriptor reads what has arrived.
    final class Pipe: @unchecked Sendable {
        let read: Int32
        let write: Int32
        let output: StandardOutput

        init(flushInterval: Duration = StandardOutput.defaultFlushInterval) throws {
            var template = Array("/tmp/cellar-output-XXXXXX".utf8CString)
            write = mkstemp(&template)
            try #require(write >= 0)
            read = open(template, O_RDONLY)
            unlink(template)
            try #require(read >= 0)
            output = StandardOutput(fileDescriptor: write, flushInterval: flushInterval)
        }

        deinit {
            close(read)
            close(write)
        }

        /// What can be read now.
        func available() -> String {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = Glibc.read(read, &chunk, chunk.count)
                if count <= 0 { break }
                bytes += chunk[..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    static func line(_ text: String) -> [UInt8] { Array((text + "\n").utf8) }

    @Test func aPlainLineGoesOutAtOnceWithTheDeferredOnesBeforeIt() throws {
        let pipe = try Pipe()
        pipe.output.write(Self.line("GET /a 200"), deferred: true)
        pipe.output.write(Self.line("GET /b 200"), deferred: true)
        pipe.output.write(Self.line("stopping"), deferred: false)
        #expect(pipe.available() == "GET /a 200\nGET /b 200\nstopping\n")
    }

    @Test func deferredLinesGoOutOnTheirOwnSoon() throws {
        let pipe = try Pipe()
        pipe.output.write(Self.line("GET /a 200"), deferred: true)
        var seen = ""
        let deadline = ContinuousClock.now + .seconds(10)
        while seen.isEmpty && ContinuousClock.now < deadline {
            usleep(10_000)
            seen = pipe.available()
        }
        #expect(seen == "GET /a 200\n")
    }

    @Test func aFullBatchGoesOutWithoutWaitingForTheInterval() throws {
        // An interval no test waits for: the lines must go out because there are enough of them.
        let pipe = try Pipe(flushInterval: .seconds(600))
        let line = Self.line(String(repeating: "x", count: 99))
        pipe.output.write(line, deferred: true)
        // The writer is now waiting for the interval or the rest of the batch.
        usleep(100_000)
        for _ in 1..<StandardOutput.flushCount { pipe.output.write(line, deferred: true) }
        var seen = 0
        let deadline = ContinuousClock.now + .seconds(10)
        while seen < StandardOutput.flushCount * line.count && ContinuousClock.now < deadline {
            usleep(10_000)
            seen += pipe.available().utf8.count
        }
        #expect(seen == StandardOutput.flushCount * line.count)
    }

    @Test func accessLinesAreFormattedInTheirPlaceAmongTheOthers() throws {
        let pipe = try Pipe(flushInterval: .seconds(600))
        let time = WallTime(seconds: 1_795_000_000, milliseconds: 42)
        let log = LineAccessLog(label: "cellar", format: .logfmt)
        let summaries = LineAccessLogTests.summaries
        pipe.output.write(Self.line("starting"), deferred: true)
        for summary in summaries { pipe.output.write(deferred: AccessRecord(summary: summary, time: time, label: log.label, format: log.format)) }
        pipe.output.write(Self.line("between"), deferred: true)
        let longLabel = LineAccessLog(label: "a longer label than fifteen bytes", format: .json)
        pipe.output.write(deferred: AccessRecord(summary: summaries[0], time: time, label: longLabel.label, format: longLabel.format))
        pipe.output.write(Self.line("stopping"), deferred: false)
        let expected =
            "starting\n" + summaries.map { String(decoding: log.line(for: $0, at: time), as: UTF8.self) }.joined() + "between\n"
            + String(decoding: longLabel.line(for: summaries[0], at: time), as: UTF8.self)
            + "stopping\n"
        #expect(pipe.available() == expected)
        #expect(expected.contains("ts=2026-11-18T") && expected.contains("\"logger\":\"a longer label than fifteen bytes\""))
    }

    @Test func anOutputThatBlocksHoldsUpTheWritersInsteadOfGrowingTheQueue() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let output = StandardOutput(fileDescriptor: ends[1], flushInterval: .milliseconds(1))
        // More lines than the pipe (64 KiB) and the queue hold together; nobody reads yet.
        let count = 65_536 / 100 + StandardOutput.queueLimit + 1_000
        final class Flag: Sendable { let isSet = Atomic<Bool>(false) }
        let finished = Flag()
        let writer = TestThread {
            for index in 0..<count { output.write(Array(String(padded: index, width: 99).utf8) + [10], deferred: true) }
            finished.isSet.store(true, ordering: .sequentiallyConsistent)
        }
        usleep(1_000_000)
        let finishedEarly = finished.isSet.load(ordering: .sequentiallyConsistent)
        #expect(!finishedEarly, "the writer should wait for the output, not queue without bound")
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while received.count < count * 100 {
            let read = Glibc.read(ends[0], &chunk, chunk.count)
            if read <= 0 { break }
            received += chunk[..<read]
        }
        writer.join()
        close(ends[1])
        let lines = received.split(separator: 10)
        #expect(lines.count == count)
        #expect(lines.enumerated().allSatisfy { index, line in String(decoding: line, as: UTF8.self) == String(padded: index, width: 99) })
    }

    @Test func linesFromManyThreadsStayWhole() throws {
        let pipe = try Pipe()
        let threads = 8
        let perThread = 500
        DispatchGroupless.concurrentPerform(threads) { thread in
            for index in 0..<perThread {
                pipe.output.write(Self.line("thread=\(thread) line=\(index) " + String(repeating: "y", count: index % 97)), deferred: index % 3 != 0)
            }
        }
        pipe.output.flush()
        let lines = pipe.available().split(separator: "\n")
        #expect(lines.count == threads * perThread)
        for line in lines {
            #expect(line.hasPrefix("thread=") && line.hasSuffix(String(repeating: "y", count: Int(line.split(separator: " ")[1].dropFirst(5))! % 97)))
        }
    }
}

extension String {
    /// `index` in decimal, padded with dots to `width` characters.
    init(padded index: Int, width: Int) {
        let digits = String(index)
        self = digits + String(repeating: ".", count: width - digits.count)
    }
}

/// One thread running `body`, joined with ``join()``.
final class TestThread: @unchecked Sendable {
    private var thread = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) {
        final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, box)
    }

    func join() { pthread_join(thread, nil) }
}

/// Runs `body` on `count` threads at once and waits for them (no Dispatch or Foundation needed).
enum DispatchGroupless {
    static func concurrentPerform(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        var threads: [pthread_t] = []
        final class Box: @unchecked Sendable {
            let body: @Sendable (Int) -> Void
            let index: Int
            init(_ body: @escaping @Sendable (Int) -> Void, _ index: Int) {
                self.body = body
                self.index = index
            }
        }
        for index in 0..<count {
            var thread = pthread_t()
            let box = Unmanaged.passRetained(Box(body, index)).toOpaque()
            pthread_create(
                &thread, nil,
                { raw in
                    let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                    box.body(box.index)
                    return nil
                }, box)
            threads.append(thread)
        }
        for thread in threads { pthread_join(thread, nil) }
    }
}
