import Foundation
import HTTPTestSupport
import MicroHTTP
import Synchronization
import TableKit
import Testing

@testable import Cellar

#if canImport(Glibc)
    import Glibc
#endif

/// Small responses are buffered with an `ETag` (and 304 on `If-None-Match`), large ones too while the
/// large-page budget has room; beyond it they stream
/// chunked, in memory bounded by the chunk size.
extension CellarHTTPTests {
    @Suite struct CachingAndStreaming {
        @Test func smallResponsesHaveAnETagAnd304OnIfNoneMatch() throws {
            let server = try TestServer.showcase()
            for target in ["/settings", "/settings.json", "/settings?fragment=rows", "/people?offset=50"] {
                let first = try server.get(target)
                #expect(first.status == 200)
                #expect(first.headers["Content-Length"] == String(first.body.count))
                #expect(first.headers["Transfer-Encoding"] == nil)
                let etag = try #require(first.headers["ETag"], "\(target) has an ETag")
                #expect(etag.count == 18 && etag.hasPrefix("\"") && etag.hasSuffix("\""))
                // The same bytes give the same validator.
                #expect(try server.get(target).headers["ETag"] == etag)

                for header in [etag, "W/" + etag, "*", "\"0000000000000000\", " + etag, "\"x\",W/\(etag)  "] {
                    let cached = try server.get(target, headers: [("If-None-Match", header)])
                    #expect(cached.status == 304, "If-None-Match: \(header)")
                    #expect(cached.body.isEmpty)
                    #expect(cached.headers["ETag"] == etag)
                    #expect(cached.headers["Vary"] == "Accept, HX-Request")
                }
                for header in ["\"0000000000000000\"", "W/\"nope\"", "\"" + etag, etag + "x", ""] where header != etag {
                    let fresh = try server.get(target, headers: [("If-None-Match", header)])
                    #expect(fresh.status == 200, "If-None-Match: \(header)")
                    #expect(fresh.body == first.body)
                }
            }
        }

        @Test func differentPagesAndFormatsHaveDifferentETags() throws {
            let server = try TestServer.showcase()
            let targets = ["/settings", "/settings?limit=3", "/settings.json", "/settings?fragment=rows", "/people", "/people?offset=50"]
            let etags = try targets.map { try #require(try server.get($0).headers["ETag"]) }
            #expect(Set(etags).count == targets.count)
            // An ETag of one page does not validate another.
            #expect(try server.get("/settings?limit=3", headers: [("If-None-Match", etags[0])]).status == 200)
        }

        @Test func aPageWhoseRowsChangeGetsANewETag() throws {
            let version = Atomic<Int>(1)
            let server = try TestServer { app in
                try app.register(PlainTextCell.self)
                app.list("/changing") { _ in ChangingController(version: version.load(ordering: .relaxed)) }
            }
            let before = try server.get("/changing")
            let etag = try #require(before.headers["ETag"])
            #expect(try server.get("/changing", headers: [("If-None-Match", etag)]).status == 304)
            version.store(2, ordering: .relaxed)
            let after = try server.get("/changing", headers: [("If-None-Match", etag)])
            #expect(after.status == 200)
            #expect(after.text.contains("version 2"))
            let newETag = try #require(after.headers["ETag"])
            #expect(newETag != etag)
            #expect(try server.get("/changing", headers: [("If-None-Match", newETag)]).status == 304)
        }

        @Test func largeResponsesArriveChunkedAndWholeWithoutABudget() throws {
            let server = try TestServer.showcase(listbench: 10_000, largePageBudget: 0)
            let page = try server.get("/listbench?limit=10000")
            #expect(page.status == 200)
            #expect(page.headers["Transfer-Encoding"] == "chunked")
            #expect(page.headers["Content-Length"] == nil)
            // Listbench has a content version: its stream carries the validator it was given before
            // the first row, and a client holding it gets a 304 without the rows being written.
            let streamedTag = try #require(page.headers["ETag"], "a versioned stream has a validator")
            let cached = try server.get("/listbench?limit=10000", headers: [("If-None-Match", streamedTag)])
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)
            #expect(page.headers["Vary"] == "Accept, HX-Request")
            #expect(page.body.count > 1 << 20)
            #expect(page.body.occurrences(of: "<li class=\"cell ") == 10_000)
            #expect(page.body.occurrences(of: " id=\"row-") == 10_000)
            #expect(
                page.text.contains("<li class=\"cell subtitle\" id=\"row-1\">") || page.text.contains("<li class=\"cell engineer\" id=\"row-1\">"))
            #expect(page.text.contains("id=\"row-10000\""))
            #expect(page.text.hasSuffix("</html>\n"))
            #expect(page.text.contains("Rows 1–10,000 of 10,000"))

            let json = try server.get("/listbench.json?limit=10000")
            #expect(json.status == 200)
            #expect(json.headers["Transfer-Encoding"] == "chunked")
            #expect(json.headers["Content-Length"] == nil)
            let list = try ListJSON(parsing: json.body)
            #expect(list.rows.map(\.id) == (1...10_000).map(String.init))
            #expect(list.meta.limit == 10_000)

            let fragment = try server.get("/listbench?limit=10000", headers: [("HX-Request", "true")])
            #expect(fragment.headers["Transfer-Encoding"] == "chunked")
            #expect(fragment.body.occurrences(of: "<li class=\"cell ") == 10_000)
            #expect(!fragment.text.contains("<html"))

            // A small page of the same list is one buffer.
            let small = try server.get("/listbench?limit=10")
            #expect(small.headers["Content-Length"] == String(small.body.count))
        }

        /// Without a content version, a stream has no validator: its bytes are not all known when its
        /// head is sent.
        @Test func anUnversionedStreamHasNoValidator() throws {
            let server = try TestServer { app in
                app.largePageBudget = 0
                try app.register(PlainTextCell.self)
                app.list("/changing", paging: .unpaged) { _ in ChangingController(version: 1, rows: 2_000) }
            }
            let page = try server.get("/changing")
            #expect(page.status == 200)
            #expect(page.headers["Transfer-Encoding"] == "chunked")
            #expect(page.headers["ETag"] == nil)
            #expect(page.body.occurrences(of: "<li class=\"cell ") == 2_000)
        }

        /// A list whose controller names its content version is validated before anything is
        /// rendered: a matching `If-None-Match` costs no row, and a new version a new validator.
        @Test func aVersionedListAnswers304WithoutRendering() throws {
            let version = Atomic<Int>(1)
            let rendered = Atomic<Int>(0)
            let server = try TestServer { app in
                try app.register(PlainTextCell.self)
                app.list("/versioned") { _ in
                    VersionedController(version: version.load(ordering: .relaxed), rendered: { rendered.add(1, ordering: .relaxed) })
                }
            }
            let first = try server.get("/versioned?limit=2")
            #expect(first.status == 200)
            #expect(first.text.contains("row 1 at version 1"))
            let etag = try #require(first.headers["ETag"])
            #expect(etag.count == 18 && etag.hasPrefix("\"") && etag.hasSuffix("\""))
            let rows = rendered.load(ordering: .relaxed)
            #expect(rows == 2)
            #expect(try server.get("/versioned?limit=2").headers["ETag"] == etag)
            #expect(rendered.load(ordering: .relaxed) == 4)

            for header in [etag, "W/" + etag, "*", "\"x\", " + etag] {
                let cached = try server.get("/versioned?limit=2", headers: [("If-None-Match", header)])
                #expect(cached.status == 304, "If-None-Match: \(header)")
                #expect(cached.body.isEmpty)
                #expect(cached.headers["ETag"] == etag)
                #expect(cached.headers["Vary"] == "Accept, HX-Request")
                #expect(cached.headers["Link"] == first.headers["Link"])
            }
            #expect(rendered.load(ordering: .relaxed) == 4, "a 304 renders no row")
            #expect(try server.get("/versioned?limit=2", headers: [("If-None-Match", "\"0000000000000000\"")]).status == 200)

            version.store(2, ordering: .relaxed)
            let after = try server.get("/versioned?limit=2", headers: [("If-None-Match", etag)])
            #expect(after.status == 200)
            #expect(after.text.contains("row 1 at version 2"))
            let newETag = try #require(after.headers["ETag"])
            #expect(newETag != etag)
            #expect(try server.get("/versioned?limit=2", headers: [("If-None-Match", newETag)]).status == 304)
        }

        /// A versioned validator names the list, the format, the JSON path and the query: every
        /// different answer gets a different one, and the same answer the same.
        @Test func versionedValidatorsFollowTheURLAndFormat() throws {
            let server = try TestServer.showcase()
            let requests: [(String, [(String, String)])] = [
                ("/listbench", []), ("/listbench?limit=3", []), ("/listbench?limit=30", []), ("/listbench?offset=1&limit=3", []),
                ("/listbench?limit=3&offset=1", []), ("/listbench.json", []), ("/listbench", [("Accept", "application/json")]),
                ("/listbench?fragment=rows", []), ("/listbench", [("HX-Request", "true")]), ("/people", []), ("/settings", []),
                ("/catalog", []), ("/catalog?q=ros%C3%A9", []), ("/big", []), ("/", []), ("/index.json", []),
            ]
            var tags: [String] = []
            for (target, headers) in requests {
                let response = try server.get(target, headers: headers)
                #expect(response.status == 200, "\(target)")
                let tag = try #require(response.headers["ETag"], "\(target) \(headers)")
                #expect(try server.get(target, headers: headers).headers["ETag"] == tag, "\(target)")
                tags.append(tag)
            }
            #expect(Set(tags).count == tags.count)
            // The JSON of a page asked for by `Accept` and by path hold different links: different tags.
            #expect(try server.get("/listbench.json").body != server.get("/listbench", headers: [("Accept", "application/json")]).body)
        }

        /// What every page is made with besides its controller is in the validator: here, a
        /// prototype template edited between two starts of the same build.
        @Test func anEditedPrototypeChangesVersionedValidators() throws {
            func tag(template: String) throws -> String {
                let server = try TestServer { app in
                    try app.registry.registerPrototype("Line", template: template)
                    app.list("/lines") { _ in PrototypeLinesController() }
                }
                return try #require(try server.get("/lines").headers["ETag"])
            }
            let plain = try tag(template: "<span>{{name}}</span>")
            #expect(try tag(template: "<span>{{name}}</span>") == plain, "the same build and templates: the same tag")
            #expect(try tag(template: "<em>{{name}}</em>") != plain)
        }

        /// Within the large-page budget a page of megabytes is one buffer: a length, a validator, the
        /// same bytes as the stream, and the budget back to nothing once it is sent.
        @Test func largePagesWithinTheBudgetAreOneBuffer() throws {
            let streamed = try TestServer.showcase(listbench: 10_000, largePageBudget: 0)
            let server = try TestServer.showcase(listbench: 10_000)
            for target in ["/listbench?limit=10000", "/listbench.json?limit=10000", "/listbench?limit=10000&fragment=rows"] {
                let page = try server.get(target)
                #expect(page.status == 200)
                #expect(page.headers["Transfer-Encoding"] == nil, "\(target)")
                #expect(page.headers["Content-Length"] == String(page.body.count))
                #expect(page.body.count > 1 << 20)
                let etag = try #require(page.headers["ETag"])
                #expect(try server.get(target, headers: [("If-None-Match", etag)]).status == 304)
                #expect(try streamed.get(target).body == page.body, "a stream and a buffer carry the same page")
            }
            // Sent: nothing is held for it any more (the count drops when libmicrohttpd lets go, just
            // after the client has the last byte). The count is the app's: no other test's pages are in it.
            let deadline = ContinuousClock.now + .seconds(30)
            while server.app.bufferedResponseBytes.count > 0 && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.01)
            }
            #expect(server.app.bufferedResponseBytes.count == 0)
            #expect(streamed.app.bufferedResponseBytes.count == 0, "streams are not counted")
        }

        /// The choice itself: small pages get the buffer limit, large ones their largest size if it
        /// fits in what is left of the budget, and one chunk (then a stream) otherwise.
        @Test func theFirstLimitFollowsTheBudget() throws {
            let app = App(publicDirectory: Repository.publicDirectory)
            app.bufferLimit = 256 * 1024
            app.largePageBudget = 8 << 20
            app.streamChunkSize = 64 * 1024
            let snapshot = app.snapshot()
            #expect(ListResponder.firstLimit(rows: 100, app: snapshot, awaitingSend: 0) == 256 * 1024)
            #expect(ListResponder.firstLimit(rows: 100, app: snapshot, awaitingSend: 100 << 20) == 256 * 1024)
            let largest = 16 * 1024 + 10_000 * 320
            #expect(ListResponder.largestSize(rows: 10_000) == largest)
            #expect(ListResponder.firstLimit(rows: 10_000, app: snapshot, awaitingSend: 0) == largest)
            #expect(ListResponder.firstLimit(rows: 10_000, app: snapshot, awaitingSend: (8 << 20) - largest) == largest)
            #expect(ListResponder.firstLimit(rows: 10_000, app: snapshot, awaitingSend: (8 << 20) - largest + 1) == 64 * 1024)
            #expect(ListResponder.firstLimit(rows: 1_000_000, app: snapshot, awaitingSend: 0) == 64 * 1024)
            app.largePageBudget = 0
            #expect(ListResponder.firstLimit(rows: 10_000, app: app.snapshot(), awaitingSend: 0) == 64 * 1024)
        }

        /// A million rows in one response, while the server (this process) grows by less than 64 MiB.
        @Test func aMillionRowsArriveWholeInBoundedMemory() throws {
            let server = try TestServer.showcase(people: 10, listbench: 10, big: 1_000_000)
            // Warm up: threads, pools, buffers.
            let warm = try server.get("/big?limit=20000")
            #expect(warm.body.occurrences(of: "<li class=\"cell ") == 20_000)

            let resetPeak = ProcessMemory.resetPeak()
            let before = try #require(ProcessMemory.residentBytes())
            var sampledPeak = before
            var received = 0
            var rows = OccurrenceCounter("<li class=\"cell bigrow\"")
            var tail: [UInt8] = []
            let response = try server.stream("/big") { piece in
                rows.feed(piece)
                if received / (4 << 20) != (received + piece.count) / (4 << 20) {
                    sampledPeak = max(sampledPeak, ProcessMemory.residentBytes() ?? 0)
                }
                received += piece.count
                tail.append(contentsOf: piece)
                if tail.count > 64 * 1024 { tail.removeFirst(tail.count - 4096) }
            }
            let peak = max(sampledPeak, resetPeak ? ProcessMemory.peakResidentBytes() ?? 0 : 0)

            #expect(response.failure == nil)
            #expect(response.head.status == 200)
            #expect(response.head.headers["Transfer-Encoding"] == "chunked")
            #expect(response.head.headers["Content-Length"] == nil)
            #expect(rows.count == 1_000_000)
            #expect(received > 100 << 20)
            let end = String(decoding: tail.suffix(2048), as: UTF8.self)
            #expect(
                end.contains(
                    "<li class=\"cell bigrow\" id=\"row-1000000\"><a class=\"cell-link\" href=\"/big/1000000\"><span class=\"cell-title\">Row 1,000,000</span>"
                ))
            #expect(end.contains("All 1,000,000 rows"))
            #expect(end.hasSuffix("</html>\n"))
            if !Sanitizers.isAddressSanitizerActive {
                #expect(peak - before < 64 << 20, "the process grew by \((peak - before) >> 20) MiB while streaming \(received >> 20) MiB")
            }
            // And the server goes on.
            #expect(try server.get("/big/1000000").status == 200)
        }
    }
}

extension ProcessMemory {
    /// Resets `VmHWM` to the current resident size (Linux: `echo 5 > /proc/self/clear_refs`), so the
    /// peak measures what follows. False when the kernel does not allow it.
    static func resetPeak() -> Bool {
        guard let file = fopen("/proc/self/clear_refs", "w") else { return false }
        defer { fclose(file) }
        return fputs("5", file) >= 0
    }
}

/// A cell that writes one line of text.
final class PlainTextCell: TableViewCell, ConfigurableCell {
    var line = ""

    func configure(with data: String) { line = data }
    override func prepareForReuse() { line = "" }
    override func render(into html: inout HTMLWriter) throws {
        html.raw("<span class=\"cell-title\">")
        html.text(line)
        html.raw("</span>")
    }
}

/// Rows whose text depends on a version number that a test changes.
struct ChangingController: TableController {
    let version: Int
    var rows = 3
    var title: String { "Changing" }
    func numberOfRows(inSection section: Int) -> Int { rows }
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        DataCellProvider(for: indexPath, cell: PlainTextCell.self, data: "row \(indexPath.row) at version \(version)")
    }
}

/// Rows that name their version, and report each row they make.
struct VersionedController: TableController {
    let version: Int
    let rendered: @Sendable () -> Void
    var title: String { "Versioned" }
    var contentVersion: String? { "v\(version)" }
    func numberOfRows(inSection section: Int) -> Int { 10 }
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        rendered()
        return DataCellProvider(for: indexPath, cell: PlainTextCell.self, data: "row \(indexPath.row) at version \(version)")
    }
}

/// Two rows of a prototype named `Line`, with a constant version.
struct PrototypeLinesController: TableController {
    var title: String { "Lines" }
    var contentVersion: String? { "1" }
    func numberOfRows(inSection section: Int) -> Int { 2 }
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        DataCellProvider(prototype: "Line", for: indexPath, data: ["name": "line \(indexPath.row)"])
    }
}

/// Derived validators keep their parts apart.
@Suite struct DerivedETagTests {
    @Test func partsDoNotRunTogether() {
        func tag(_ version: String, _ route: String, _ query: String?, format: ListFormat = .page, json: Bool = false) -> String {
            ETag.derived(seed: 7, version: version, route: route, format: format, path: json ? .json : .page, query: query)
        }
        let tags = [
            tag("1", "/a", "b"), tag("1/", "a", "b"), tag("1", "/ab", nil), tag("1", "/a", ""), tag("1", "/a", "b", format: .json),
            tag("1", "/a", "b", format: .json, json: true), tag("1", "/a", "b", format: .fragment), tag("2", "/a", "b"),
        ]
        // A missing query and an empty one name the same answer.
        #expect(tag("1", "/a", nil) == tag("1", "/a", ""))
        #expect(Set(tags).count == tags.count)
        #expect(ETag.derived(seed: 8, version: "1", route: "/a", format: .page, path: .page, query: "b") != tags[0])
        for tag in tags { #expect(tag.utf8.count == 18 && tag.hasPrefix("\"") && tag.hasSuffix("\"")) }
    }
}

/// The entity tag's text, written digit by digit, against `printf`'s.
@Suite struct ETagTextTests {
    @Test func sixteenLowercaseHexDigitsInQuotes() {
        var generator = SystemRandomNumberGenerator()
        let samples: [UInt64] = [0, 1, 0xF, 0x10, 0xABC, 0x0123_4567_89AB_CDEF, .max, 1 << 63] + (0..<10_000).map { _ in generator.next() }
        for hash in samples {
            #expect(EntityTag.quoted(hash) == String(format: "\"%016llx\"", hash))
        }
    }

    @Test func differentBodiesHaveDifferentTags() {
        let bodies = (0..<1_000).map { Array("row \($0) <b>&</b>".utf8) } + [[], [0], [0, 0]]
        #expect(Set(bodies.map(ETag.of)).count == bodies.count)
    }
}
