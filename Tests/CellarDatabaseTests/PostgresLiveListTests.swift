import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

@testable import CellarDatabase

/// Live lists over PostgreSQL across replicas: two in-process servers over one database (two
/// replicas), the change log `cellar database install-triggers` puts in place, and writes made
/// by another connection — the test's own, as the superuser that owns the tables — reaching the
/// watchers of both. Without the log, watched lists are polled.
///
/// Against the cluster `make test-postgres` starts; skipped without it. Every wait is generous
/// (30 s for an event): no assertion measures time.
@Suite(.serialized, .enabled(if: PostgresTestServer.url != nil, "CELLAR_TEST_POSTGRES is not set (make test-postgres sets it)"))
final class PostgresLiveListTests {
    static let databaseName = "cellar_live"
    static let readerRole = "cellar_live_reader"

    /// The superuser, in the test's database: owns the tables, installs the triggers, writes.
    let admin: PostgresConnection
    /// The reader role's URL: SELECT rights alone.
    let readerURL: String

    init() throws {
        let postgres = try PostgresListFixture.superuser(database: "postgres")
        let password = "pw-" + UUID().uuidString.lowercased()
        for statement in [
            "DROP DATABASE IF EXISTS \(Self.databaseName) WITH (FORCE)", "DROP ROLE IF EXISTS \(Self.readerRole)",
            "CREATE ROLE \(Self.readerRole) LOGIN PASSWORD '\(password)'", "CREATE DATABASE \(Self.databaseName)",
        ] {
            try postgres.execute(statement, deadline: .seconds(60))
        }
        admin = try PostgresListFixture.superuser(database: Self.databaseName)
        try admin.execute(
            """
            CREATE TABLE items(id int8 PRIMARY KEY, name text NOT NULL);
            CREATE TABLE others(id int8 PRIMARY KEY);
            CREATE VIEW item_names AS SELECT id, name FROM items;
            INSERT INTO items VALUES (1, 'one'), (2, 'two'), (3, 'three');
            GRANT SELECT ON items, others, item_names TO \(Self.readerRole);
            """, deadline: .seconds(60))
        var components = try #require(PostgresTestServer.components)
        components.user = Self.readerRole
        components.password = password
        components.path = "/" + Self.databaseName
        readerURL = try #require(components.string)
    }

    /// A replica: a server of its own over the database, as the reader role.
    func replica() throws -> ListTestServer {
        try ListTestServer(serving: Database(postgres: PostgresConnectionInfo(readerURL)))
    }

    func install() throws -> [String] {
        try PostgresChangeLog.install(on: admin, deadline: .seconds(60))
    }

    /// The log's newest id, as the superuser reads it.
    func newestChange() throws -> String {
        guard case .integer(let id)? = try admin.query("SELECT coalesce(max(id), 0) FROM cellar_changes", deadline: .seconds(30)).rows.first?.first
        else { return "none" }
        return String(id)
    }

    /// The first event, waiting up to 30 s.
    static func firstEvent(_ client: EventStreamClient) throws -> EventStreamClient.Event? {
        try client.nextEvent(timeout: .seconds(30))
    }

    static let refresh = #"<turbo-stream action="refresh">"#

    // MARK: The triggers

    @Test func installingTwiceIsFineAndUninstallingRemovesEverything() throws {
        #expect(try install() == ["items", "others"])
        #expect(try install() == ["items", "others"], "installing again changes nothing")
        let objects =
            "SELECT (SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal)::int8, to_regclass('cellar_changes')::text, to_regproc('cellar_note_change')::text"
        #expect(try admin.query(objects, deadline: .seconds(30)).rows.first == [.integer(2), .text("cellar_changes"), .text("cellar_note_change")])
        // Writers need no rights on the log, and readers may read it.
        try admin.execute("INSERT INTO items VALUES (4, 'four'); UPDATE items SET name = 'ONE' WHERE id = 1; TRUNCATE others", deadline: .seconds(30))
        let reader = try PostgresConnection(PostgresConnectionInfo(readerURL), deadline: .seconds(30))
        let logged = try reader.query("SELECT table_name FROM cellar_changes ORDER BY id", deadline: .seconds(30)).rows
        #expect(logged == [[.text("items")], [.text("items")], [.text("others")]])
        // The log is Cellar's own: not served as a list.
        let server = try replica()
        #expect(!server.mounted.map(\.table).contains("cellar_changes"))

        #expect(try PostgresChangeLog.uninstall(on: admin, deadline: .seconds(30)))
        #expect(try admin.query(objects, deadline: .seconds(30)).rows.first == [.integer(0), .null, .null])
        #expect(try !PostgresChangeLog.uninstall(on: admin, deadline: .seconds(30)), "uninstalling again finds nothing")
    }

    /// `cellar database install-triggers` and `uninstall-triggers`, as an operator runs them.
    @Test func theCommandInstallsAndUninstalls() throws {
        let url = try ownerURL()
        let installed = try Self.cellar(["database", "install-triggers", "--database", url])
        #expect(installed.status == 0, "\(installed.output)")
        #expect(installed.output.contains("on 2 table(s): items, others"), "\(installed.output)")
        #expect(try Self.cellar(["database", "install-triggers", "--database", url]).status == 0)
        let removed = try Self.cellar(["database", "uninstall-triggers"], environment: ["CELLAR_DATABASE": url])
        #expect(removed.status == 0 && removed.output.contains("Removed"), "\(removed.output)")
        let sqlite = try Self.cellar(["database", "install-triggers", "--database", "shop.db"])
        #expect(sqlite.status == 64, "a SQLite file needs no triggers: \(sqlite.output)")
        // The reader role may not create the log: said in a line, with the role to use, without the
        // command's SQL or the password.
        let reader = try Self.cellar(["database", "install-triggers", "--database", readerURL])
        #expect(reader.status == 1, "\(reader.output)")
        #expect(reader.output.contains("42501") && reader.output.contains("owns the tables"), "\(reader.output)")
        let password = try #require(URLComponents(string: readerURL)?.password)
        #expect(!reader.output.contains("CREATE TABLE") && !reader.output.contains(password), "\(reader.output)")
    }

    /// The superuser's URL through the cluster's socket, where it logs in without a password.
    func ownerURL() throws -> String {
        let cluster = try #require(PostgresTestServer.cluster)
        let port = try #require(PostgresTestServer.components?.port)
        let socket = cluster.replacingOccurrences(of: "/", with: "%2F")
        return "postgresql://postgres@\(socket):\(port)/\(Self.databaseName)"
    }

    /// Runs the `cellar` executable built beside the test bundle.
    static func cellar(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("cellar")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    // MARK: Watchers on two replicas

    /// Event ids are the log's positions, not a process's sequence: three changes are logged
    /// before the replicas start, so a greeting says 3 (a process would say 0). A batch is numbered
    /// by the position read before its render: the write's own id when the render followed its
    /// notification, or the one before it when the write committed during the render every
    /// replica makes as it starts listening (changes may have been missed until then).
    @Test func aWriteReachesTheWatchersOfBothReplicasNumberedByTheLog() throws {
        _ = try install()
        for name in ["uno", "dos", "tres"] {
            try admin.execute("UPDATE items SET name = '\(name)' WHERE id = 1", deadline: .seconds(30))
        }
        let before = try newestChange()
        #expect(before == "3")
        let (first, second) = (try replica(), try replica())
        defer { [first, second].forEach { $0.app.watchers.closeAll() } }
        let a = try EventStreamClient(port: first.server.port, target: "/items?limit=10")
        let b = try EventStreamClient(port: second.server.port, target: "/items?limit=10")
        let view = try EventStreamClient(port: second.server.port, target: "/item_names?limit=10")
        for client in [a, b, view] {
            let greeting = try #require(try Self.firstEvent(client))
            #expect(LiveDatabaseListTests.isGreeting(greeting.data))
            #expect(greeting.lastEventID == before, "the log's position")
        }

        try admin.execute("INSERT INTO items VALUES (4, 'four')", deadline: .seconds(30))
        let id = try newestChange()
        for (name, client) in [("first", a), ("second", b), ("the view's", view)] {
            let batch = try #require(try LiveDatabaseListTests.nextBatch(client), "\(name) replica")
            #expect(LiveDatabaseListTests.summary(batch.data) == ["after row-3", "replace list-pager"], "\(name): \(batch.data)")
            #expect(batch.data.contains("four"))
            #expect([id, before].contains(batch.lastEventID ?? ""), "\(name): a position of the log, \(batch.lastEventID ?? "none")")
        }
    }

    @Test func aClientResumingOnTheOtherReplicaIsRefreshedOnlyWhenItsListChanged() throws {
        _ = try install()
        let (first, second) = (try replica(), try replica())
        defer { [first, second].forEach { $0.app.watchers.closeAll() } }
        let a = try EventStreamClient(port: first.server.port, target: "/items?limit=10")
        #expect(try Self.firstEvent(a) != nil)
        // Watches the same window on the first replica throughout: its batches say when that
        // replica has rendered a change (the next write then cannot land inside that render).
        let keeper = try EventStreamClient(port: first.server.port, target: "/items?limit=10")
        defer { keeper.close() }
        #expect(try Self.firstEvent(keeper) != nil)
        try admin.execute("INSERT INTO items VALUES (4, 'four')", deadline: .seconds(30))
        #expect(try LiveDatabaseListTests.nextBatch(a)?.data.contains("four") == true)
        #expect(try LiveDatabaseListTests.nextBatch(keeper)?.data.contains("four") == true)
        // What the client has seen, as the log numbers it. (A batch is numbered by the position read
        // before its render, which may be the one before a write that committed during the render:
        // such a client is refreshed when it resumes, which is safe but not what this test is about.)
        let seen = try newestChange()
        a.close()

        // Another table changed since: the list did not, so no refresh on the other replica.
        try admin.execute("INSERT INTO others VALUES (1)", deadline: .seconds(30))
        #expect(try newestChange() != seen)
        let resumed = try EventStreamClient(port: second.server.port, target: "/items?limit=10", headers: [("Last-Event-ID", seen)])
        let greeting = try #require(try Self.firstEvent(resumed))
        #expect(LiveDatabaseListTests.isGreeting(greeting.data), "\(greeting.data)")
        #expect(!greeting.data.contains(Self.refresh))
        // It follows the list from there.
        try admin.execute("UPDATE items SET name = 'TWO' WHERE id = 2", deadline: .seconds(30))
        let updated = try #require(try LiveDatabaseListTests.nextBatch(resumed))
        #expect(LiveDatabaseListTests.summary(updated.data) == ["replace row-2"], "\(updated.data)")
        #expect(try LiveDatabaseListTests.nextBatch(keeper)?.data.contains("TWO") == true)
        let last = try newestChange()
        resumed.close()

        // The list changed since: on the first replica, a window made now (another query) cannot
        // replay what the client missed, so it is refreshed; the window the first client watched,
        // kept up to date meanwhile, replays it.
        try admin.execute("DELETE FROM items WHERE id = 1", deadline: .seconds(30))
        let stale = try EventStreamClient(port: first.server.port, target: "/items?limit=11", headers: [("Last-Event-ID", last)])
        let refreshed = try #require(try Self.firstEvent(stale))
        #expect(refreshed.data.contains(Self.refresh), "\(refreshed.data)")
        // Replayed, or, when the first replica has not heard of the delete yet, sent as it does.
        let replayed = try EventStreamClient(port: first.server.port, target: "/items?limit=10", headers: [("Last-Event-ID", last)])
        let missed = try #require(try Self.firstEvent(replayed))
        #expect(missed.data.contains(#"<turbo-stream action="remove" target="row-1">"#), "\(missed.data)")
    }

    /// Without the log, the snapshot is looked at every `changePollInterval`: a write moves it.
    @Test func withoutTheTriggersWatchedListsArePolled() throws {
        let server = try replica()
        defer { server.app.watchers.closeAll() }
        let client = try EventStreamClient(port: server.server.port, target: "/items?limit=10")
        #expect(try Self.firstEvent(client) != nil)
        try admin.execute("INSERT INTO items VALUES (4, 'four')", deadline: .seconds(30))
        let batch = try #require(try LiveDatabaseListTests.nextBatch(client))
        #expect(LiveDatabaseListTests.summary(batch.data) == ["after row-3", "replace list-pager"], "\(batch.data)")
    }

    /// What the poller without the log looks at: the snapshot stays while nothing is written
    /// (tried a few times: autovacuum's ANALYZE takes a transaction id too) and moves on a write.
    @Test func withoutTheTriggersTheSnapshotSaysWhenToRenderAgain() throws {
        let database = try Database(postgres: PostgresConnectionInfo(readerURL))
        let monitor = DatabaseChangeMonitor { try database.read { reader in try reader.snapshotVersion() } }
        var stayed = false
        for _ in 0..<5 where !stayed { stayed = !monitor.versionMoved() }
        #expect(stayed, "no write: the snapshot stays")
        try admin.execute("UPDATE items SET name = 'uno' WHERE id = 1", deadline: .seconds(30))
        #expect(monitor.versionMoved(), "a write moves it")
        #expect(!monitor.versionMoved() || !monitor.versionMoved(), "and it stays again")
    }

    /// The reader's listening connections.
    static let listening = """
        SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND usename = '\(readerRole)' AND query LIKE 'LISTEN %'
        """

    /// A replica whose `/items` a client watches, once its connection listens, and a first write
    /// that the client has been sent. The caller closes the replica's watchers.
    func watchedItemsAfterAWrite() throws -> (server: ListTestServer, client: EventStreamClient) {
        _ = try install()
        let server = try replica()
        let client = try EventStreamClient(port: server.server.port, target: "/items?limit=10")
        #expect(try Self.firstEvent(client) != nil)
        // Listening before the write, so that it is heard (a write before would be read instead).
        for _ in 0..<600 where try admin.query(Self.listening, deadline: .seconds(30)).rows.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        try admin.execute("INSERT INTO items VALUES (4, 'four')", deadline: .seconds(30))
        #expect(try LiveDatabaseListTests.nextBatch(client)?.data.contains("four") == true, "heard")
        return (server, client)
    }

    /// Terminates the listening connection's backend, as a restart or a network cut would end it.
    func terminateListener() throws {
        let killed = try admin.query("SELECT pg_terminate_backend(pid) FROM (\(Self.listening)) AS l", deadline: .seconds(30)).rows
        #expect(killed == [[.integer(1)]], "one listening connection, terminated")
    }

    @Test func aKilledListeningConnectionIsMadeAgainAndLaterWritesArrive() throws {
        let (server, client) = try watchedItemsAfterAWrite()
        defer { server.app.watchers.closeAll() }
        try terminateListener()
        try admin.execute("INSERT INTO items VALUES (5, 'five')", deadline: .seconds(30))
        #expect(try LiveDatabaseListTests.nextBatch(client)?.data.contains("five") == true, "after the drop: missed, or heard")
        try admin.execute("INSERT INTO items VALUES (6, 'six')", deadline: .seconds(30))
        #expect(try LiveDatabaseListTests.nextBatch(client)?.data.contains("six") == true, "heard on the new connection")
        #expect(try admin.query(Self.listening, deadline: .seconds(30)).rows.count == 1, "listening again")
    }

    /// A change made while the listening connection is down (the role may not log in for a while,
    /// so it cannot be made again) reaches the watchers once it is back: the log is read after
    /// the `LISTEN`.
    @Test func aChangeMadeWhileNotListeningArrivesOnceListeningAgain() throws {
        let (server, client) = try watchedItemsAfterAWrite()
        defer { server.app.watchers.closeAll() }
        try admin.execute("ALTER ROLE \(Self.readerRole) NOLOGIN", deadline: .seconds(30))
        defer { try? admin.execute("ALTER ROLE \(Self.readerRole) LOGIN", deadline: .seconds(30)) }
        try terminateListener()
        try admin.execute("INSERT INTO items VALUES (5, 'five')", deadline: .seconds(30))
        // Some attempts to listen again fail meanwhile (not needed for what is checked: the role
        // may log in again only after the write, so the write comes before any new LISTEN).
        Thread.sleep(forTimeInterval: 0.5)
        try admin.execute("ALTER ROLE \(Self.readerRole) LOGIN", deadline: .seconds(30))
        #expect(try LiveDatabaseListTests.nextBatch(client)?.data.contains("five") == true, "read from the log after listening again")
    }

    /// After a lost listening connection, the log says which lists to render again: those over
    /// the tables changed since the newest change heard, and the views' on any change.
    @Test func theLogSaysWhichListsChangedSinceAPosition() throws {
        _ = try install()
        let database = try Database(postgres: PostgresConnectionInfo(readerURL))
        let feed = PostgresChangeFeed(
            database: database, info: try PostgresConnectionInfo(readerURL),
            lists: [("/items", "items", false), ("/others", "others", false), ("/item_names", "item_names", true)], warn: { _ in })
        try admin.execute("INSERT INTO items VALUES (10, 'ten')", deadline: .seconds(30))
        let afterItems = try #require(UInt64(try newestChange()))
        try admin.execute("INSERT INTO others VALUES (1)", deadline: .seconds(30))
        let afterOthers = try #require(UInt64(try newestChange()))
        #expect(afterOthers > afterItems)
        #expect(feed.listsChanged(since: 0) == ["/items", "/others", "/item_names"], "nothing heard: every list")
        #expect(feed.listsChanged(since: afterItems) == ["/others", "/item_names"])
        #expect(feed.listsChanged(since: afterOthers) == [])
        try admin.execute("UPDATE items SET name = 'dix' WHERE id = 10", deadline: .seconds(30))
        #expect(feed.listsChanged(since: afterOthers) == ["/items", "/item_names"])
        #expect(feed.listsChanged(since: afterOthers + 1_000) == ["/items", "/others", "/item_names"], "a position not in the log: every list")
    }

    // MARK: Counts

    /// A list's total is counted once per snapshot of the data (``DatabaseReader/snapshotVersion()``):
    /// a second request with no write between takes it from the cache, and a write is counted.
    /// (Anything that takes a transaction id moves the snapshot — autovacuum's ANALYZE too — so a
    /// pair of requests is tried a few times before a cache answer is expected.)
    @Test func totalsAreCountedAgainOnlyAfterAWrite() throws {
        let database = try Database(postgres: PostgresConnectionInfo(readerURL))
        let server = try ListTestServer(serving: database)
        func total() throws -> Int? {
            let answer = try server.get("/items.json")
            let json = try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any]
            return (json?["meta"] as? [String: Any])?["total"] as? Int
        }
        #expect(try total() == 3)
        var answeredFromCache = false
        for _ in 0..<5 where !answeredFromCache {
            let before = database.counts.hits
            #expect(try total() == 3)
            answeredFromCache = database.counts.hits > before
        }
        #expect(answeredFromCache, "a second count with no write between comes from the cache")
        try admin.execute("INSERT INTO items VALUES (4, 'four')", deadline: .seconds(30))
        #expect(try total() == 4, "a write moves the snapshot: the total is counted again")
        try admin.execute("DELETE FROM items WHERE id IN (1, 2)", deadline: .seconds(30))
        #expect(try total() == 2)
    }
}
