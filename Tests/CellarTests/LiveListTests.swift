import Cellar
import Foundation
import HTTPTestSupport
import Synchronization
import TableKit
import Testing

/// Watching a list: its URL with `Accept: text/event-stream` sends, for each change published
/// through `listDidChange(at:)`, one batch of `<turbo-stream>` elements (or JSON operations) that
/// turns the window the client has into the new one.
@Suite struct LiveListTests {
    /// The rows of the watched list, changed by the tests.
    final class Store: @unchecked Sendable {
        private let lock = NSLock()
        private var rows: [(id: String, name: String)]
        private var footer: String?

        init(_ rows: [(String, String)], footer: String? = nil) {
            self.rows = rows.map { (id: $0.0, name: $0.1) }
            self.footer = footer
        }

        var current: [(id: String, name: String)] { lock.withLock { rows } }
        var currentFooter: String? { lock.withLock { footer } }
        func set(_ rows: [(String, String)], footer: String? = nil) {
            lock.withLock {
                self.rows = rows.map { (id: $0.0, name: $0.1) }
                self.footer = footer
            }
        }
    }

    final class Name: Sendable {
        let text: String
        init(_ text: String) { self.text = text }
    }

    final class NameCell: ItemCell<Name> {
        override func render(_ name: Name, into html: inout HTMLWriter) {
            html.element("span", class: "cell-title", text: name.text)
        }
    }

    struct StoreController: TableController {
        let rows: [(id: String, name: String)]
        let footer: String?
        func numberOfRows(inSection section: Int) -> Int { rows.count }
        func identifier(forRowAt indexPath: IndexPath) -> String { rows[indexPath.row].id }
        func titleForHeader(inSection section: Int) -> String? { "Names" }
        func titleForFooter(inSection section: Int) -> String? { footer }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            let name = Name(rows[indexPath.row].name)
            return DataCellProvider(for: indexPath) { (cell: NameCell) in cell.item = name }
        }
        func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { ["name": rows[indexPath.row].name] }
    }

    static func server(_ store: Store) throws -> TestServer {
        try TestServer { app in
            try app.register(NameCell.self)
            app.list("/names", title: "Names") { _ in StoreController(rows: store.current, footer: store.currentFooter) }
        }
    }

    static let letters = ["a", "b", "c", "d", "e"].map { ($0, $0.uppercased()) }

    /// The next event that carries data (the first event of a new watcher has only an id).
    static func nextBatch(_ client: EventStreamClient) throws -> EventStreamClient.Event {
        while true {
            guard let event = try client.nextEvent(timeout: .seconds(30)) else { throw StreamEnded() }
            if !Self.isGreeting(event.data) { return event }
        }
    }

    struct StreamEnded: Error {}

    /// The empty batch a new watcher gets first, with the sequence it starts from.
    static func isGreeting(_ data: String) -> Bool {
        data.hasPrefix("<!-- watching from ") || data.hasSuffix("\"operations\":[]}")
    }

    @Test func insertsDeletesMovesAndUpdatesArriveAsTurboStreamElements() throws {
        let store = Store(Self.letters)
        let server = try Self.server(store)
        let client = try EventStreamClient(port: server.port, target: "/names")
        #expect(client.status == 200)
        #expect(client.header("Content-Type") == "text/event-stream")

        // An insert between b and c, and one at the end (the pager counts them).
        store.set([("a", "A"), ("b", "B"), ("x", "X"), ("c", "C"), ("d", "D"), ("e", "E"), ("y", "Y")])
        server.app.listDidChange(at: "/names")
        var batch = try TurboStream.parse(try Self.nextBatch(client).data)
        #expect(batch.map(\.summary) == ["before row-c", "after row-e", "replace list-pager"])
        #expect(batch[0].template?.contains("id=\"row-x\"") == true)
        #expect(batch[0].template?.contains(">X<") == true)
        #expect(batch[1].template?.contains("id=\"row-y\"") == true)

        // A delete and an update.
        store.set([("a", "A"), ("x", "X"), ("c", "C2"), ("d", "D"), ("e", "E"), ("y", "Y")])
        server.app.listDidChange(at: "/names")
        batch = try TurboStream.parse(try Self.nextBatch(client).data)
        #expect(batch.map(\.summary) == ["remove row-b", "replace row-c", "replace list-pager"])
        #expect(batch[1].template?.contains(">C2<") == true)

        // A move: e to the front (the pager, which counts the rows, stays).
        store.set([("e", "E"), ("a", "A"), ("x", "X"), ("c", "C2"), ("d", "D"), ("y", "Y")])
        server.app.listDidChange(at: "/names")
        batch = try TurboStream.parse(try Self.nextBatch(client).data)
        #expect(batch.map(\.summary) == ["remove row-e", "before row-a"])

        // A footer that changes text; one that appears cannot be patched and is a refresh.
        store.set(store.current.map { ($0.id, $0.name) }, footer: nil)
        server.app.listDidChange(at: "/names")
        store.set(store.current.map { ($0.id, $0.name) }, footer: "6 names")
        server.app.listDidChange(at: "/names")
        batch = try TurboStream.parse(try Self.nextBatch(client).data)
        #expect(batch.map(\.summary) == ["refresh"])
    }

    @Test func rowsEnteringAndLeavingAWindowArePatched() throws {
        let store = Store(Self.letters)
        let server = try Self.server(store)
        let client = try EventStreamClient(port: server.port, target: "/names?offset=1&limit=2")
        // The window shows b and c; a new first row pushes c out and a in.
        store.set([("z", "Z")] + Self.letters)
        server.app.listDidChange(at: "/names")
        let batch = try TurboStream.parse(try Self.nextBatch(client).data)
        #expect(batch.map(\.summary) == ["remove row-c", "before row-b", "replace list-pager"])
        #expect(batch[1].template?.contains("id=\"row-a\"") == true)
    }

    @Test func jsonWatchersGetTheSameBatchAsJSON() throws {
        let store = Store(Self.letters)
        let server = try Self.server(store)
        let client = try EventStreamClient(port: server.port, target: "/names.json")
        store.set([("a", "A"), ("c", "C"), ("d", "D"), ("b", "B2"), ("e", "E"), ("f", "F")])
        server.app.listDidChange(at: "/names")
        let event = try Self.nextBatch(client)
        let batch = try JSONValue.parse(Array(event.data.utf8))
        #expect(batch["sequence"] == .integer(Int(event.lastEventID) ?? -1))
        let operations = batch["operations"]?.array ?? []
        let summary = operations.map { operation -> String in
            let op = operation["op"]?.string ?? "?"
            let id = operation["id"]?.string ?? operation["row"]?["id"]?.string ?? operation["meta"]?["total"].map { "total \($0)" } ?? "?"
            let before = operation["before"].map { $0 == .null ? "end" : $0.string ?? "?" }
            return [op, id, before].compactMap { $0 }.joined(separator: " ")
        }
        // b moved after d (removed and inserted again, with its new name), f appended.
        // and the page's meta and links, which count the rows.
        #expect(summary == ["remove b", "insert b e", "insert f end", "page total 6"])
        #expect(operations[3]["links"]?["self"] == .string("/names.json?offset=0&limit=50"))
        #expect(operations[1]["row"]?["item"]?["name"] == .string("B2"))
        #expect(operations[1]["row"]?["href"] == .string("/names/b"))
        #expect(operations[1]["section"] == .integer(0))
    }

    /// The `<nav id="list-pager">` of a page, as its bytes.
    static func pager(of page: String) throws -> String {
        let start = try #require(page.range(of: "<nav class=\"pager\" id=\"list-pager\""))
        let end = try #require(page.range(of: "</nav>\n", range: start.lowerBound..<page.endIndex))
        return String(page[start.lowerBound..<end.upperBound])
    }

    @Test func thePagerIsReplacedWhenTheRowsItCountsChangeAndOnlyThen() throws {
        let store = Store(Self.letters)
        let server = try Self.server(store)
        // The window shows a and b of five; `_` items are the stream's own, not the pager's links'.
        let client = try EventStreamClient(port: server.port, target: "/names?limit=2&_=1")
        #expect(try Self.pager(of: server.get("/names?limit=2").text).contains("Rows 1–2 of 5"))

        // A row added after the window: no row of the window changed, but its pager did, to what a reload shows.
        store.set(Self.letters + [("f", "F")])
        server.app.listDidChange(at: "/names")
        var batch = try TurboStream.parse(try Self.nextBatch(client).data)
        #expect(batch.map(\.summary) == ["replace list-pager"])
        let reloaded = try Self.pager(of: server.get("/names?limit=2").text)
        #expect(batch[0].template == reloaded)
        #expect(reloaded.contains("Rows 1–2 of 6") && reloaded.contains("href=\"/names?offset=2&amp;limit=2\""))
        #expect(try #require(batch[0].template).contains("_=") == false)

        // A row changed: the rows counted are the same, and so is the pager.
        store.set([("a", "A2")] + Self.letters.dropFirst() + [("f", "F")])
        server.app.listDidChange(at: "/names")
        batch = try TurboStream.parse(try Self.nextBatch(client).data)
        #expect(batch.map(\.summary) == ["replace row-a"])

        // The window reaching the end of the list: its Load more link goes.
        store.set([("a", "A2"), ("b", "B")])
        server.app.listDidChange(at: "/names")
        batch = try TurboStream.parse(try Self.nextBatch(client).data)
        #expect(batch.map(\.summary) == ["replace list-pager"])
        let pager = try #require(batch[0].template)
        #expect(pager == (try Self.pager(of: server.get("/names?limit=2").text)))
        #expect(pager.contains("Rows 1–2 of 2") && !pager.contains("load-more"))
    }

    /// Two sections of the store's rows: the first `split` rows, and the others, each with a
    /// header and a footer that counts them.
    struct TwoSectionController: TableController {
        let rows: [(id: String, name: String)]
        let split: Int
        var numberOfSections: Int { 2 }
        func numberOfRows(inSection section: Int) -> Int { section == 0 ? min(split, rows.count) : max(rows.count - split, 0) }
        func identifier(forRowAt indexPath: IndexPath) -> String { rows[flat(indexPath)].id }
        func titleForHeader(inSection section: Int) -> String? { section == 0 ? "First" : "Later" }
        func titleForFooter(inSection section: Int) -> String? { "\(numberOfRows(inSection: section)) names" }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            let name = Name(rows[flat(indexPath)].name)
            return DataCellProvider(for: indexPath) { (cell: NameCell) in cell.item = name }
        }
        private func flat(_ indexPath: IndexPath) -> Int { indexPath.section == 0 ? indexPath.row : split + indexPath.row }
    }

    @Test func aRowAppendedToAnEmptySectionTargetsThatSectionsListAlone() throws {
        let store = Store(Array(Self.letters.prefix(3)))
        let server = try TestServer { app in
            try app.register(NameCell.self)
            app.list("/names", title: "Names") { _ in TwoSectionController(rows: store.current, split: 3) }
        }
        let client = try EventStreamClient(port: server.port, target: "/names")
        // The page (and its rows fragment, which "Load more" merges) has each section's list and footer once, by id.
        for target in ["/names", "/names?fragment=rows"] {
            let ids = try HTMLInspector.elements(try server.get(target).body).compactMap { $0.attributes["id"] }
            #expect(ids.filter { $0 == "section-1-rows" }.count == 1, "\(target)")
            #expect(ids.filter { $0 == "section-1-footer" }.count == 1, "\(target)")
            #expect(Set(ids).count == ids.count, "\(target): an id twice")
        }

        // The second section, empty, gets a row: it is appended to that section's list, by its id.
        store.set(Array(Self.letters.prefix(4)))
        server.app.listDidChange(at: "/names")
        let batch = try TurboStream.parse(try Self.nextBatch(client).data)
        #expect(batch.map(\.summary) == ["append section-1-rows", "update section-1-footer", "replace list-pager"])
        #expect(batch[0].template?.hasPrefix("<li class=\"cell") == true && batch[0].template?.contains("id=\"row-d\"") == true)
        #expect(batch[1].template == "1 names")
        // Every element targets one id of the page as it now is.
        let ids = Set(try HTMLInspector.elements(try server.get("/names").body).compactMap { $0.attributes["id"] })
        #expect(batch.allSatisfy { $0.targets == nil && ids.contains($0.target ?? "") })
    }

    // MARK: Changes the app states

    @Test func rowsStatedReloadedAreSentEvenWhenTheirBytesDidNotChange() throws {
        let store = Store(Self.letters)
        let server = try Self.server(store)
        let client = try EventStreamClient(port: server.port, target: "/names")
        // Nothing changed in the rows' bytes: a plain change sends nothing, a stated reload sends the row.
        server.app.listDidChange(at: "/names")
        server.app.listDidChange(at: "/names", try ListChanges(reloaded: ["b", "not-in-the-list"]))
        var batch = try TurboStream.parse(try Self.nextBatch(client).data)
        #expect(batch.map(\.summary) == ["replace row-b"])
        #expect(batch[0].template?.contains(">B<") == true)
        // A reload of a row whose bytes changed too is sent once.
        store.set([("a", "A"), ("b", "B2")] + Self.letters.dropFirst(2))
        server.app.listDidChange(at: "/names", try ListChanges(reloaded: ["b"]))
        batch = try TurboStream.parse(try Self.nextBatch(client).data)
        #expect(batch.map(\.summary) == ["replace row-b"])
        #expect(batch[0].template?.contains(">B2<") == true)
    }

    @Test func aChangeThatOnlyReloadsRowsSkipsTheWindowsWithoutThem() throws {
        let store = Store(Self.letters)
        let asked = CountingController.Counts()
        let server = try TestServer { app in
            try app.register(NameCell.self)
            app.list("/names", title: "Names") { _ in
                CountingController(inner: StoreController(rows: store.current, footer: nil), asked: asked)
            }
        }
        let first = try EventStreamClient(port: server.port, target: "/names?limit=2")
        let second = try EventStreamClient(port: server.port, target: "/names?offset=2&limit=2")
        let rendered = asked.providers.load(ordering: .relaxed)
        store.set([("a", "A"), ("b", "B"), ("c", "C2"), ("d", "D"), ("e", "E")])
        server.app.listDidChange(at: "/names", try ListChanges(reloaded: ["c"]))
        #expect(try TurboStream.parse(try Self.nextBatch(second).data).map(\.summary) == ["replace row-c"])
        // Only the window that holds c was rendered again: its two rows.
        #expect(asked.providers.load(ordering: .relaxed) - rendered == 2)
        // The first window was told nothing: its next batch is the next change's.
        store.set([("a", "A2"), ("b", "B"), ("c", "C2"), ("d", "D"), ("e", "E")])
        server.app.listDidChange(at: "/names", try ListChanges(reloaded: ["a"]))
        #expect(try TurboStream.parse(try Self.nextBatch(first).data).map(\.summary) == ["replace row-a"])
    }

    @Test func statedChangesTheListContradictsAreLoggedAndTheWatchersGetTheListAsItIs() throws {
        let store = Store(Self.letters)
        let server = try Self.server(store)
        let client = try EventStreamClient(port: server.port, target: "/names")
        // Stated: a reloaded. Done: a renamed and f inserted.
        store.set([("a", "A2")] + Self.letters.dropFirst() + [("f", "F")])
        server.app.listDidChange(at: "/names", try ListChanges(reloaded: ["a"]))
        let batch = try TurboStream.parse(try Self.nextBatch(client).data)
        #expect(batch.map(\.summary) == ["after row-e", "replace row-a", "replace list-pager"])
        let logged = server.logs.waitForEntry { $0.level == .error && $0.metadata["list"] == "/names" }
        #expect(logged?.metadata["contradictions"]?.contains("reloads only") == true)

        // Stated deleted, still there.
        store.set(Self.letters)
        server.app.listDidChange(at: "/names", try ListChanges(deleted: ["f", "a"]))
        #expect(try TurboStream.parse(try Self.nextBatch(client).data).map(\.summary).contains("remove row-f"))
        let deleted = server.logs.waitForEntry { $0.metadata["contradictions"]?.contains("stated deleted are still in the list: [\"a\"]") == true }
        #expect(deleted != nil)
    }

    @Test func anIdentityStatedTwiceIsAClearError() throws {
        #expect(throws: ListChangesError.identityStatedTwice("a")) { try ListChanges(inserted: ["a"], deleted: ["a"]) }
        #expect(throws: ListChangesError.identityStatedTwice("b")) { try ListChanges(reloaded: ["b", "b"]) }
        #expect(ListChangesError.identityStatedTwice("a").description.contains("moved"))
        #expect(try ListChanges(inserted: ["a"], reloaded: ["b"]).reloadedRows == ["b"])
    }

    @Test func changesFromOneSnapshotToTheNextAreStatedByIdentity() throws {
        var old = TableSnapshot<String>()
        try old.appendItems([("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")])
        var new = TableSnapshot<String>()
        try new.appendItems([("d", "D2"), ("a", "A"), ("b", "B2"), ("e", "E")])
        let changes = try ListChanges(from: old, to: new)
        #expect(changes.insertedRows == ["e"] && changes.deletedRows == ["c"])
        #expect(changes.movedRows == ["d"] && changes.reloadedRows == ["b"])
        var twice = TableSnapshot<String>()
        #expect(throws: SnapshotError.duplicateIdentifier("a", inOldVersion: false)) {
            try twice.appendItems([("a", "A"), ("a", "A")])
        }
    }

    @Test func aReconnectGetsExactlyTheMissedBatchesOrARefreshWhenTooOld() throws {
        let store = Store(Self.letters)
        let server = try Self.server(store)
        let watcher = try EventStreamClient(port: server.port, target: "/names")
        var ids: [String] = []
        for step in 1...3 {
            store.set(Self.letters + [("n\(step)", "N\(step)")])
            server.app.listDidChange(at: "/names")
            ids.append(try Self.nextBatch(watcher).lastEventID)
        }
        #expect(ids.compactMap(Int.init) == ids.compactMap(Int.init).sorted() && Set(ids).count == 3)

        let replayed = try EventStreamClient(port: server.port, target: "/names", headers: [("Last-Event-ID", ids[0])])
        let first = try Self.nextBatch(replayed)
        let second = try Self.nextBatch(replayed)
        #expect([first.lastEventID, second.lastEventID] == [ids[1], ids[2]])
        #expect(try TurboStream.parse(second.data).map(\.summary) == ["remove row-n2", "after row-e"])
        // A script's EventSource cannot send the header: the same in the query.
        let scripted = try EventStreamClient(port: server.port, target: "/names?_last-event-id=\(ids[1])")
        #expect(try Self.nextBatch(scripted).lastEventID == ids[2])
        // A new watcher learns where it starts from an empty batch.
        let fresh = try EventStreamClient(port: server.port, target: "/names")
        let greeting = try #require(try fresh.nextEvent(timeout: .seconds(30)))
        #expect(Self.isGreeting(greeting.data) && greeting.lastEventID == ids[2])

        // More changes than the log keeps: the first id is too old to replay.
        for step in 4...(4 + 70) {
            store.set(Self.letters + [("n\(step)", "N\(step)")])
            server.app.listDidChange(at: "/names")
        }
        let stale = try EventStreamClient(port: server.port, target: "/names", headers: [("Last-Event-ID", ids[0])])
        #expect(try TurboStream.parse(try Self.nextBatch(stale).data).map(\.summary) == ["refresh"])
        let future = try EventStreamClient(port: server.port, target: "/names", headers: [("Last-Event-ID", "999999")])
        #expect(try TurboStream.parse(try Self.nextBatch(future).data).map(\.summary) == ["refresh"])
    }

    @Test func aLargerWindowOfAListWatchedAllAlongContinuesWithoutARefresh() throws {
        let store = Store(Self.letters)
        let other = Store(Self.letters)
        let server = try TestServer { app in
            try app.register(NameCell.self)
            app.list("/names", title: "Names") { _ in StoreController(rows: store.current, footer: nil) }
            app.list("/other", title: "Other") { _ in StoreController(rows: other.current, footer: nil) }
            app.list("/third", title: "Third") { _ in StoreController(rows: other.current, footer: nil) }
        }
        let small = try EventStreamClient(port: server.port, target: "/names?limit=2")
        store.set([("a", "A1")] + Self.letters.dropFirst())
        server.app.listDidChange(at: "/names")
        let seen = try Self.nextBatch(small).lastEventID
        // Another list's changes move the sequence on.
        let otherWatcher = try EventStreamClient(port: server.port, target: "/other")
        other.set(Self.letters.dropLast())
        server.app.listDidChange(at: "/other")
        _ = try Self.nextBatch(otherWatcher)

        // "Load more": the same list with a larger window, from the last event seen.
        let larger = try EventStreamClient(port: server.port, target: "/names?limit=4&_last-event-id=\(seen)")
        store.set(Self.letters.map { ($0.0, $0.1 + "2") })
        server.app.listDidChange(at: "/names")
        let batch = try TurboStream.parse(try Self.nextBatch(larger).data)
        #expect(batch.map(\.summary) == ["replace row-a", "replace row-b", "replace row-c", "replace row-d"])

        // A list not watched until now may have changed unseen: an old id gets a refresh.
        let stale = try EventStreamClient(port: server.port, target: "/third?_last-event-id=\(seen)")
        #expect(try TurboStream.parse(try Self.nextBatch(stale).data).map(\.summary) == ["refresh"])
    }

    @Test func vanishedWatchersLeaveTheirWindow() throws {
        let store = Store(Self.letters)
        let server = try Self.server(store)
        var clients = try (0..<5).map { _ in try EventStreamClient(port: server.port, target: "/names") }
        #expect(server.app.watchers.watcherCount == 5)
        for client in clients.prefix(3) { client.close() }
        clients.removeFirst(3)
        // A vanished client is noticed when a write to it fails: the next batches.
        let deadline = ContinuousClock.now + .seconds(30)
        var step = 0
        while server.app.watchers.watcherCount > 2 && ContinuousClock.now < deadline {
            step += 1
            store.set(Self.letters + [("s\(step)", "S")])
            server.app.listDidChange(at: "/names")
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(server.app.watchers.watcherCount == 2)
        #expect(server.app.watchers.windowCount == 1)
        #expect(try Self.nextBatch(clients[0]).data.contains("row-s1"))
    }

    @Test func unwatchedWindowsAreCappedTheLongestIdleFirst() throws {
        let store = Store(Self.letters)
        let server = try TestServer { app in
            app.watchers = ListWatchers(idleWindowLimit: 2)
            try app.register(NameCell.self)
            app.list("/names", title: "Names") { _ in StoreController(rows: store.current, footer: store.currentFooter) }
        }
        // Five windows (five queries), each left by its only watcher.
        for limit in 1...5 { try EventStreamClient(port: server.port, target: "/names?limit=\(limit)").close() }
        // A vanished client is noticed when a write to it fails: change the list until no one watches.
        let deadline = ContinuousClock.now + .seconds(30)
        var step = 0
        while server.app.watchers.watcherCount > 0 && ContinuousClock.now < deadline {
            step += 1
            store.set([("s\(step)", "S")] + Self.letters)  // first: every window changes
            server.app.listDidChange(at: "/names")
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(server.app.watchers.watcherCount == 0)
        server.app.listDidChange(at: "/names")
        #expect(server.app.watchers.windowCount == 2)
    }

    @Test func aWatcherThatReadsTooSlowlyGetsARefreshNotAGrowingQueue() throws {
        // Forty rows of 20 KB each, all changed at each step: a batch is 800 KB, more than a stream
        // queues (256 KiB), and twenty of them more than the sockets' buffers hold.
        let wide = String(repeating: "w", count: 20_000)
        let store = Store((0..<40).map { ("r\($0)", wide + "0") })
        let server = try Self.server(store)
        let slow = try EventStreamClient(port: server.port, target: "/names?limit=40", receiveBuffer: 4096)
        for step in 1...20 {
            store.set((0..<40).map { ("r\($0)", wide + "\(step)") })
            server.app.listDidChange(at: "/names")
        }
        var sawRefresh = false
        while let event = try slow.nextEvent(timeout: .seconds(30)) {
            if event.data.contains("action=\"refresh\"") {
                sawRefresh = true
                break
            }
        }
        #expect(sawRefresh)
    }

    @Test func hostileIdentifiersAndTextsTargetTheRowsThePageWrites() throws {
        let hostile = [("a\"b", "<script>alert(1)</script>"), ("<x>", "</template><img src=x onerror=alert(2)>"), ("é/ü ?#", "&amp;")]
        let store = Store(hostile)
        let server = try Self.server(store)
        let client = try EventStreamClient(port: server.port, target: "/names")
        store.set(hostile.map { ($0.0, $0.1 + " changed") } + [("new\u{202E}", "</turbo-stream><turbo-stream action=\"refresh\">")])
        server.app.listDidChange(at: "/names")
        let data = try Self.nextBatch(client).data
        let batch = try TurboStream.parse(data)
        #expect(batch.map(\.action) == ["after", "replace", "replace", "replace", "replace"])
        // Every target is an id the page has (its rows', its pager's), as an HTML parser reads both.
        let page = try HTMLInspector.elements(try server.get("/names").body)
        let ids = Set(page.filter { $0.tag == "li" || $0.tag == "nav" }.compactMap { $0.attributes["id"] })
        let streams = try HTMLInspector.elements(Array(data.utf8)).filter { $0.tag == "turbo-stream" }
        #expect(streams.count == 5)
        #expect(streams.allSatisfy { ids.contains($0.attributes["target"] ?? "") })
        #expect(try HTMLInspector.checkMarkup([Array(data.utf8)]) == nil)
    }

    @Test func duplicateRowIdentitiesAreAClearErrorNotACorruptStream() throws {
        let store = Store([("a", "A"), ("a", "A again")])
        let server = try Self.server(store)
        let refused = try server.get("/names", headers: [("Accept", "text/event-stream")])
        #expect(refused.status == 500)
        #expect(refused.text.contains("appears more than once"))

        // A list that gains a duplicate while watched: the watchers' streams end, the log says why.
        store.set(Self.letters)
        let client = try EventStreamClient(port: server.port, target: "/names")
        store.set(Self.letters + [("a", "A again")])
        server.app.listDidChange(at: "/names")
        let events = try client.eventsUntilEnd(timeout: .seconds(30))
        #expect(events.allSatisfy { Self.isGreeting($0.data) })
        #expect(client.ended)
        let logged = server.logs.waitForEntry { $0.level == .error && $0.metadata["list"] == "/names" }
        #expect(logged?.metadata["error"]?.contains("appears more than once") == true)
    }

    @Test func watchersOfOneWindowShareItAndOtherQueriesGetTheirOwn() throws {
        let store = Store(Self.letters)
        let server = try Self.server(store)
        let one = try EventStreamClient(port: server.port, target: "/names?limit=3&_=1")
        let two = try EventStreamClient(port: server.port, target: "/names?_=2&limit=3")
        let other = try EventStreamClient(port: server.port, target: "/names?limit=4")
        #expect(server.app.watchers.windowCount == 2)
        store.set([("a", "A1")] + Self.letters.dropFirst())
        server.app.listDidChange(at: "/names")
        let events = try [one, two, other].map { try Self.nextBatch($0) }
        #expect(events[0] == events[1])
        #expect(try TurboStream.parse(events[2].data).map(\.summary) == ["replace row-a"])
    }

    /// ``StoreController``, counting the cell providers and identities it is asked for.
    struct CountingController: TableController {
        let inner: StoreController
        let asked: Counts
        final class Counts: Sendable {
            let providers = Atomic(0)
            let identifiers = Atomic(0)
        }
        func numberOfRows(inSection section: Int) -> Int { inner.numberOfRows(inSection: section) }
        func identifier(forRowAt indexPath: IndexPath) -> String {
            asked.identifiers.add(1, ordering: .relaxed)
            return inner.identifier(forRowAt: indexPath)
        }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            asked.providers.add(1, ordering: .relaxed)
            return inner.cellProvider(forRowAt: indexPath)
        }
    }

    @Test(arguments: ["/names", "/names.json"])
    func aWatchedWindowIsWalkedOnceARender(target: String) throws {
        let store = Store(Self.letters)
        let asked = CountingController.Counts()
        let server = try TestServer { app in
            try app.register(NameCell.self)
            app.list("/names", title: "Names") { _ in
                CountingController(inner: StoreController(rows: store.current, footer: nil), asked: asked)
            }
        }
        // Start-up validation renders the list too: count from here.
        let before = (asked.providers.load(ordering: .relaxed), asked.identifiers.load(ordering: .relaxed))
        let client = try EventStreamClient(port: server.port, target: target)
        store.set(Self.letters.dropFirst().map { ($0.0, $0.1) })
        server.app.listDidChange(at: "/names")
        _ = try Self.nextBatch(client)
        // Two renders (the first version and the changed one) of five rows and then four: each
        // row's provider and identity asked for once a render.
        #expect(asked.providers.load(ordering: .relaxed) - before.0 == 9)
        #expect(asked.identifiers.load(ordering: .relaxed) - before.1 == 9)
    }

    @Test func theShowcaseSensorsChangeWhileWatched() throws {
        let server = try TestServer.showcase(people: 10, listbench: 10, big: 10)
        let unwatched = try server.get("/sensors").body
        #expect(try server.get("/sensors").body == unwatched)
        let client = try EventStreamClient(port: server.port, target: "/sensors")
        let batch = try TurboStream.parse(try Self.nextBatch(client).data)
        #expect(batch.count == 1 && batch[0].action == "replace" && batch[0].target == "row-humidity")
        #expect(batch[0].template?.contains("class=\"cell-detail\"") == true)
    }
}

/// Hotwire Turbo's stream format, checked strictly: a batch is `<turbo-stream>` elements and
/// nothing else, each with an `action` Turbo knows, a `target` or `targets`, and exactly one
/// `<template>` for every action but `remove` and `refresh` (which have none).
struct TurboStream: Equatable {
    var action: String
    var target: String?
    var targets: String?
    var template: String?

    var summary: String { [action, target ?? targets].compactMap { $0 }.joined(separator: " ") }

    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    static let actions: Set<String> = ["append", "prepend", "replace", "update", "remove", "before", "after", "refresh"]

    static func parse(_ data: String) throws -> [TurboStream] {
        let pattern = try NSRegularExpression(
            pattern: #"<turbo-stream action="([a-z]+)"(?: (target|targets)="([^"]*)")?>(.*?)</turbo-stream>"#, options: [.dotMatchesLineSeparators])
        var streams: [TurboStream] = []
        var position = data.startIndex
        for match in pattern.matches(in: data, range: NSRange(data.startIndex..., in: data)) {
            let range = Range(match.range, in: data)!
            guard data[position..<range.lowerBound].allSatisfy(\.isWhitespace) else {
                throw FormatError(description: "text outside <turbo-stream>: \(data[position..<range.lowerBound])")
            }
            position = range.upperBound
            func group(_ index: Int) -> String? { Range(match.range(at: index), in: data).map { String(data[$0]) } }
            let action = group(1) ?? ""
            guard actions.contains(action) else { throw FormatError(description: "unknown action \(action)") }
            var stream = TurboStream(action: action)
            if group(2) == "target" { stream.target = group(3) } else if group(2) == "targets" { stream.targets = group(3) }
            let content = group(4) ?? ""
            if action == "remove" || action == "refresh" {
                guard content.isEmpty else { throw FormatError(description: "\(action) with content") }
                guard action == "refresh" || stream.target != nil else { throw FormatError(description: "remove without a target") }
            } else {
                guard stream.target != nil || stream.targets != nil else { throw FormatError(description: "\(action) without a target") }
                guard content.hasPrefix("<template>"), content.hasSuffix("</template>"),
                    content.components(separatedBy: "<template>").count == 2
                else { throw FormatError(description: "\(action) without exactly one <template>: \(content)") }
                stream.template = String(content.dropFirst(10).dropLast(11))
            }
            streams.append(stream)
        }
        guard data[position...].allSatisfy(\.isWhitespace) else { throw FormatError(description: "text after the last element") }
        guard !streams.isEmpty else { throw FormatError(description: "no <turbo-stream> in \(data)") }
        return streams
    }
}
