// A fixed amount of rendering for instruction-level profiling, which is repeatable on a shared
// machine where wall-clock time is not:
//   valgrind --tool=callgrind .build/release/RenderProfile html 20
import Cellar
import MicroHTTP
import Showcase
import TableKit

let arguments = CommandLine.arguments
let mode = arguments.count > 1 ? arguments[1] : "html"
let pages = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20
let target: String
switch mode {
case "json": target = "/listbench.json?limit=1000"
case "html": target = "/listbench?limit=1000"
case "healthz": target = "/healthz"
default: target = mode
}

var path = #filePath
for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
let app = App(publicDirectory: path + "/Public")
try Showcase.install(in: app, peopleCount: 100, listbenchCount: 10_000, bigCount: 100)
let router = app.makeRouter()

var total = 0
for _ in 0..<pages {
    let response = try router.respond(to: try Request(target: target))
    switch response.body {
    case .bytes(let bytes): total += bytes.count
    case .storage(let storage): total += storage.count
    case .stream(let producer):
        var buffer: [UInt8] = []
        while try producer.produce(into: &buffer) { total += buffer.count; buffer.removeAll(keepingCapacity: true) }
        total += buffer.count
    case .empty, .events: break
    }
}
print("\(pages) × \(target): \(total) bytes")
