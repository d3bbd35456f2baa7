// The server side of the live lists' fan-out benchmark (Benchmarks/tools/fanout.py drives it):
// a list of 200 rows whose first row holds the time of the last change, changed every
// INTERVAL_MS through the Swift API (`listDidChange(at:)`) for SECONDS once `/start` is asked.
//   PORT=8460 EVENT_STREAMS=6000 [CONNECTION_MEMORY=bytes] .build/release/LiveFanout
import Cellar
import Foundation
import Glibc
import MicroHTTP
import Synchronization
import TableKit

final class Value: Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}

final class ValueCell: ItemCell<Value> {
    override func render(_ value: Value, into html: inout HTMLWriter) {
        html.element("span", class: "cell-title", text: value.text)
    }
}

/// The rows: row 0 is `t=<CLOCK_MONOTONIC ns at the change>;n=<change number>`, the others fixed.
let rows = Mutex<[String]>((0..<200).map { "row \($0)" })
let published = Atomic<Int>(0)

struct TicksController: TableController {
    let values: [String]
    func numberOfRows(inSection section: Int) -> Int { values.count }
    func cellProvider(forRowAt indexPath: TableKit.IndexPath) -> DataCellProvider {
        let value = Value(values[indexPath.row])
        return DataCellProvider(for: indexPath) { (cell: ValueCell) in cell.item = value }
    }
}

func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

let environment = ProcessInfo.processInfo.environment
let port = Int(environment["PORT"] ?? "") ?? 8460
let interval = Int(environment["INTERVAL_MS"] ?? "") ?? 100

var path = #filePath
for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
let app = App(publicDirectory: path + "/Public")
try app.register(ValueCell.self)
app.list("/ticks", title: "Ticks", paging: .pages(defaultLimit: 20, maxLimit: 200)) { _ in
    TicksController(values: rows.withLock { $0 })
}
let watchers = app.watchers
app.route(.get, "/start") { request in
    let seconds = Int(request.query["seconds"] ?? "") ?? 30
    let changes = seconds * 1000 / interval
    let thread = Thread {
        for number in 1...changes {
            var pause = timespec(tv_sec: interval / 1000, tv_nsec: (interval % 1000) * 1_000_000)
            nanosleep(&pause, nil)
            rows.withLock { $0[0] = "t=\(monotonicNanoseconds());n=\(number)" }
            watchers.listDidChange(at: "/ticks")
            published.store(number, ordering: .relaxed)
        }
    }
    thread.start()
    return .text("publishing \(changes) changes\n")
}
app.route(.get, "/published") { _ in .text("\(published.load(ordering: .relaxed))\n") }

var configuration = ServerConfiguration(
    host: "127.0.0.1", port: port, errorRenderer: app.errorRenderer, bufferedResponseBytes: app.bufferedResponseBytes)
if let limit = Int(environment["EVENT_STREAMS"] ?? "") { configuration.eventStreamLimit = limit }
if let memory = Int(environment["CONNECTION_MEMORY"] ?? "") { configuration.connectionMemoryLimit = memory }
let server = Server(configuration: configuration, responder: app.makeRouter(), logger: app.logger, observer: app.metrics)
let signals = try StopSignals.install()
try server.start()
print("LiveFanout on \(port), changes every \(interval) ms")
_ = signals.wait()
server.stop(gracePeriod: .seconds(5))
