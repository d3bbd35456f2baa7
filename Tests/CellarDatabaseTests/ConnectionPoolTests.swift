import CellarDatabase
import Foundation
import Testing

struct ConnectionPoolTests {
    static let oldFile = "CREATE TABLE t(v); INSERT INTO t VALUES ('old');"
    static let newFile = "CREATE TABLE t(v); INSERT INTO t VALUES ('new');"

    static func value(_ connection: SQLiteConnection) throws -> DatabaseValue? {
        try connection.scalar("SELECT v FROM t")
    }

    @Test func startUpErrorsSurfaceInInit() throws {
        let database = try TemporaryDatabase(Self.oldFile)
        let missing = try #require(throws: DatabaseError.self) { try ConnectionPool(path: database.file("missing.sqlite"), maximumConnections: 4) }
        #expect(missing.isCantOpen)
        let text = database.file("text.txt")
        try Data(String(repeating: "not a database\n", count: 64).utf8).write(to: URL(fileURLWithPath: text))
        let notADatabase = try #require(throws: DatabaseError.self) { try ConnectionPool(path: text, maximumConnections: 4) }
        #expect(notADatabase.isNotADatabase)
    }

    @Test func connectionsAreReadOnlyAndReused() throws {
        let database = try TemporaryDatabase(Self.oldFile)
        let pool = try ConnectionPool(path: database.path, maximumConnections: 2)
        #expect(pool.idleCount == 1)
        let first = try pool.withConnection { connection in
            #expect(connection.isReadOnly)
            return ObjectIdentifier(connection)
        }
        let second = try pool.withConnection { ObjectIdentifier($0) }
        #expect(first == second)
    }

    @Test func beyondTheMaximumACheckoutGetsATemporaryConnection() throws {
        let database = try TemporaryDatabase(Self.oldFile)
        let pool = try ConnectionPool(path: database.path, maximumConnections: 1)
        let values = try pool.withConnection { outer in
            try pool.withConnection { inner in
                #expect(outer !== inner)
                return [try Self.value(outer), try Self.value(inner)]
            }
        }
        #expect(values == [.text("old"), .text("old")])
        #expect(pool.idleCount == 1, "the temporary connection is closed, not kept")
    }

    @Test func aConnectionComesBackWithNoReadLeftOpen() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(v); INSERT INTO t VALUES (1), (2);")
        let pool = try ConnectionPool(path: database.path, maximumConnections: 1)
        try pool.withConnection { connection in
            let statement = try connection.statement("SELECT v FROM t")
            #expect(try statement.step())
            // Left on its first row: without a reset, the shared lock would keep the writer below out.
        }
        try database.writer().execute("INSERT INTO t VALUES (3)")
        #expect(try pool.withConnection { try $0.scalar("SELECT count(*) FROM t") } == .integer(3))
    }

    @Test func aFileReplacedByRenameIsServedFromNewConnections() throws {
        let database = try TemporaryDatabase(Self.oldFile)
        let pool = try ConnectionPool(path: database.path, maximumConnections: 4)
        #expect(try pool.withConnection(Self.value) == .text("old"))
        let replacement = database.file("replacement.sqlite")
        try TemporaryDatabase.build(replacement, Self.newFile)
        #expect(rename(replacement, database.path) == 0)
        #expect(try pool.withConnection(Self.value) == .text("new"))
        #expect(pool.idleCount == 1, "the connection on the old file was closed")
    }

    @Test func aConnectionInUseDuringAReplacementFinishesOnTheOldFile() throws {
        let database = try TemporaryDatabase(Self.oldFile)
        let pool = try ConnectionPool(path: database.path, maximumConnections: 4)
        let (during, inner) = try pool.withConnection { connection in
            let replacement = database.file("replacement.sqlite")
            try TemporaryDatabase.build(replacement, Self.newFile)
            #expect(rename(replacement, database.path) == 0)
            let inner = try pool.withConnection(Self.value)
            return (try Self.value(connection), inner)
        }
        #expect(during == .text("old"))
        #expect(inner == .text("new"))
        #expect(try pool.withConnection(Self.value) == .text("new"))
        #expect(pool.idleCount == 1, "the old file's connection was closed when it came back")
    }

    @Test func aVanishedFileIsServedFromOpenConnectionsAndNewOnesFailClearly() throws {
        let database = try TemporaryDatabase(Self.oldFile)
        let pool = try ConnectionPool(path: database.path, maximumConnections: 4)
        #expect(unlink(database.path) == 0)
        #expect(try pool.withConnection(Self.value) == .text("old"))
        let error = try #require(throws: DatabaseError.self) {
            try pool.withConnection { _ in try pool.withConnection(Self.value) }
        }
        #expect(error.isCantOpen, "\(error)")
        #expect(error.message.contains(database.path))
        // A file moved into place is served again.
        try TemporaryDatabase.build(database.file("replacement.sqlite"), Self.newFile)
        #expect(rename(database.file("replacement.sqlite"), database.path) == 0)
        #expect(try pool.withConnection(Self.value) == .text("new"))
    }

    @Test func severalThreadsUseThePoolAtOnce() throws {
        let database = try TemporaryDatabase(
            "CREATE TABLE t(v INTEGER); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000) INSERT INTO t SELECT x FROM c;"
        )
        let pool = try ConnectionPool(path: database.path, maximumConnections: 4)
        let results = DeadlineTests.Results()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            do {
                for _ in 0..<20 {
                    let sum = try pool.withConnection { connection in
                        try connection.read { try connection.scalar("SELECT sum(v) FROM t WHERE v > ?", [.integer(Int64(index))]) }
                    }
                    let expected = Int64(500_500 - index * (index + 1) / 2)
                    if sum != .integer(expected) { results.append("task \(index): \(String(describing: sum))") }
                }
                results.append("ok")
            } catch {
                results.append("task \(index): \(error)")
            }
        }
        #expect(results.sorted == Array(repeating: "ok", count: 8))
        #expect((1...4).contains(pool.idleCount))
    }
}
