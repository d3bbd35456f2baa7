import Benchmark
import Cellar
import MicroHTTP
import Showcase
import TableKit

// Per-row costs of the hot path, in-process (no sockets): a page of the listbench list rendered
// through cells (class and prototype), the same rows as JSON, and a whole request through the
// router. `scalingFactor: .kilo` reports per 1,000 iterations; each iteration renders one page,
// so divide by the page's row count for per-row figures (BENCHMARKS.md does).

nonisolated(unsafe) let benchmarks = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions, .peakMemoryResident],
        warmupIterations: 5,
        maxDuration: .seconds(3),
        maxIterations: 2_000
    )

    let people = PeopleDirectory.listbench(count: 10_000)
    let registry = ReuseRegistry()
    do {
        try registry.register(EngineerCell.self)
        try registry.registerPrototypes(in: publicDirectory + "/prototypes")
    } catch {
        // A benchmark of rows that cannot render would measure the error path.
        fatalError("The benchmark's cells could not be registered: \(error)")
    }

    for rows in [100, 10_000] {
        let controller = PeopleController(title: "Listbench", people: Array(people.prefix(rows)))
        Benchmark("HTML rows: mixed cells, \(rows) rows") { benchmark in
            var html = HTMLWriter(capacity: rows * 300)
            for _ in benchmark.scaledIterations {
                html.removeAll()
                var renderer = TableRenderer(controller: controller, tableView: TableView(registry: registry, selectionBase: "/listbench"))
                _ = try renderer.render(into: &html)
                blackHole(html.count)
            }
        }
    }

    // The floor under the cells: the same bytes as the mixed-cells page of 100 rows, written
    // straight from the people with the same HTMLWriter, no cells, providers or pool. The gap
    // between the two is what the cell machinery costs per row.
    let hundred = Array(people.prefix(100))
    do {
        var cells = HTMLWriter()
        var renderer = TableRenderer(
            controller: PeopleController(title: "Listbench", people: hundred), tableView: TableView(registry: registry, selectionBase: "/listbench"))
        _ = try renderer.render(into: &cells)
        var direct = HTMLWriter()
        writeRowsDirectly(hundred, into: &direct)
        guard cells.takeBytes() == direct.takeBytes() else {
            fatalError("The rows written directly differ from the cells' rows: update writeRowsDirectly to the cells' markup.")
        }
    } catch {
        fatalError("The cells could not render: \(error)")
    }
    Benchmark("HTML rows: written directly (no cells), 100 rows") { benchmark in
        var html = HTMLWriter(capacity: 100 * 300)
        for _ in benchmark.scaledIterations {
            html.removeAll()
            writeRowsDirectly(hundred, into: &html)
            blackHole(html.count)
        }
    }

    let engineers = PeopleController(title: "Engineers", people: people.filter { $0.role == .engineer }.prefix(1_000).map { $0 })
    Benchmark("HTML rows: class cell only, 1000 rows") { benchmark in
        var html = HTMLWriter(capacity: 400_000)
        for _ in benchmark.scaledIterations {
            html.removeAll()
            var renderer = TableRenderer(controller: engineers, tableView: TableView(registry: registry, selectionBase: "/listbench"))
            _ = try renderer.render(into: &html)
            blackHole(html.count)
        }
    }

    let others = PeopleController(title: "Others", people: people.filter { $0.role != .engineer }.prefix(1_000).map { $0 })
    Benchmark("HTML rows: prototype cell only, 1000 rows") { benchmark in
        var html = HTMLWriter(capacity: 400_000)
        for _ in benchmark.scaledIterations {
            html.removeAll()
            var renderer = TableRenderer(controller: others, tableView: TableView(registry: registry, selectionBase: "/listbench"))
            _ = try renderer.render(into: &html)
            blackHole(html.count)
        }
    }

    // Whole requests through the router, as the server runs them (minus the socket).
    let app = App(publicDirectory: publicDirectory)
    try? Showcase.install(in: app, peopleCount: 1_000, listbenchCount: 100_000, bigCount: 1_000)
    let router = app.makeRouter()
    for (name, target) in [
        ("request: /listbench?limit=100", "/listbench?limit=100"),
        ("request: /listbench.json?limit=100", "/listbench.json?limit=100"),
        ("request: /listbench?limit=10000", "/listbench?limit=10000"),
        ("request: /listbench.json?limit=10000", "/listbench.json?limit=10000"),
        ("request: /healthz", "/healthz"),
    ] {
        Benchmark(name) { benchmark in
            for _ in benchmark.scaledIterations {
                var request = try Request(target: target)
                request.route = nil
                let response = try router.respond(to: request)
                blackHole(try drain(response.body))
            }
        }
    }
}

/// The section and rows `TableRenderer` writes for `people` with `EngineerCell` and the
/// `SubtitleCell` prototype, written by hand: the benchmark checks that the bytes are the same.
func writeRowsDirectly(_ people: [Person], into html: inout HTMLWriter) {
    html.raw("<section class=\"table-section\" data-section=\"0\">\n<ul class=\"rows\" id=\"section-0-rows\" data-section=\"0\">\n")
    for person in people {
        let engineer = person.role == .engineer
        html.raw(engineer ? "<li class=\"cell engineer\" id=\"row-" : "<li class=\"cell subtitle\" id=\"row-")
        html.pathSegment(person.identifier)
        html.raw("\"><a class=\"cell-link\" href=\"/listbench/")
        html.pathSegment(person.identifier)
        html.raw("\"><span class=\"cell-title\">")
        html.text(person.name)
        html.raw(engineer ? "</span> <span class=\"badge\">" : "</span> <span class=\"cell-subtitle\">")
        html.text(person.role.rawValue)
        if engineer {
            html.raw("</span></a> <a class=\"cell-email\" href=\"mailto:")
            html.text(person.email)
            html.raw("\">")
            html.text(person.email)
            html.raw("</a> <p class=\"cell-bio\">")
            html.text(person.bio)
            html.raw("</p></li>\n")
        } else {
            html.raw("</span></a></li>\n")
        }
    }
    html.raw("</ul>\n</section>\n")
}

/// The body's size, pulling a stream to its end like the server would.
func drain(_ body: ResponseBody) throws -> Int {
    switch body {
    case .empty: return 0
    case .bytes(let bytes): return bytes.count
    case .storage(let storage): return storage.count
    // An event stream has no end to pull to; no list page is one.
    case .events: return 0
    case .stream(let producer):
        var buffer: [UInt8] = []
        var total = 0
        var more = true
        while more {
            buffer.removeAll(keepingCapacity: true)
            more = try producer.produce(into: &buffer)
            total += buffer.count
        }
        return total
    }
}

/// `Public/` of the repository this package sits in.
let publicDirectory: String = {
    var path = #filePath
    for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path + "/Public"
}()
