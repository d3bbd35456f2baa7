import CellarDatabase
import Foundation
import Testing

struct SQLiteConnectionTests {
    @Test func aReadOnlyConnectionRefusesWritesAndLeavesTheFileAsItWas() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(x); INSERT INTO t VALUES (1);")
        let before = try Data(contentsOf: URL(fileURLWithPath: database.path))
        let connection = try SQLiteConnection(path: database.path)
        #expect(connection.isReadOnly)
        for sql in ["INSERT INTO t VALUES (2)", "CREATE TABLE u(y)", "DELETE FROM t"] {
            let error = try #require(throws: DatabaseError.self) { try connection.execute(sql) }
            #expect(error.isReadOnly, "\(error)")
            let statement = try connection.statement(sql)
            let stepped = try #require(throws: DatabaseError.self) { try statement.step() }
            #expect(stepped.isReadOnly, "\(stepped)")
        }
        #expect(try connection.scalar("SELECT count(*) FROM t") == .integer(1))
        #expect(try Data(contentsOf: URL(fileURLWithPath: database.path)) == before)
    }

    @Test func aMissingFileIsAClearError() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(x);")
        let missing = database.file("missing.sqlite")
        let error = try #require(throws: DatabaseError.self) { try SQLiteConnection(path: missing) }
        #expect(error.isCantOpen)
        #expect(error.message.contains(missing))
        #expect(error.message.contains("No such file"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: missing), "a read-only open creates no file")
    }

    @Test func aDirectoryIsAClearError() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(x);")
        let error = try #require(throws: DatabaseError.self) { try SQLiteConnection(path: database.directory.path) }
        #expect(error.isCantOpen, "\(error)")
        #expect(error.message.contains(database.directory.path))
    }

    @Test func aFileThatIsNotSQLiteIsAClearError() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(x);")
        let text = database.file("notes.txt")
        try Data(String(repeating: "These are notes, not a database.\n", count: 100).utf8).write(to: URL(fileURLWithPath: text))
        let error = try #require(throws: DatabaseError.self) { try SQLiteConnection(path: text) }
        #expect(error.isNotADatabase, "\(error)")
        #expect(error.message.contains(text))
        #expect(error.description.contains("not a database"), "\(error)")
    }

    @Test func boundValuesRoundTripExactly() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(v);")
        let writer = try database.writer()
        let values: [DatabaseValue] = [
            .text("it's \"quoted\" ''; DROP TABLE t; --"),
            .text("<b>markup</b> & <script>alert(1)</script>"),
            .text("before\u{0}after"),
            .text(""),
            .text("Ünïcødé 🍷 \u{2028}"),
            .blob([0, 1, 0, 255, 39, 34]),
            .blob([]),
            .integer(.min),
            .integer(.max),
            .real(-0.5),
            .null,
        ]
        for value in values {
            let insert = try writer.statement("INSERT INTO t(v) VALUES (?)")
            try insert.bind([value])
            #expect(try insert.step() == false)
        }
        let reader = try SQLiteConnection(path: database.path)
        #expect(try reader.rows("SELECT v FROM t ORDER BY rowid").map { $0[0] } == values)
        for value in values {
            #expect(try reader.scalar("SELECT count(*) FROM t WHERE v IS ?", [value]) == .integer(1), "\(value)")
        }
        let text = try reader.statement("SELECT v FROM t WHERE rowid = 3")
        #expect(try text.step())
        #expect(text.withText(0) { Array($0) } == Array("before\u{0}after".utf8))
        #expect(text.columnType(0) == .text)
    }

    @Test func bindingTheWrongNumberOfValuesThrows() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(a, b);")
        let connection = try SQLiteConnection(path: database.path)
        let statement = try connection.statement("SELECT * FROM t WHERE a = ? AND b = ?")
        let error = try #require(throws: DatabaseError.self) { try statement.bind(["secret value"]) }
        #expect(!error.description.contains("secret value"))
    }

    @Test func errorsNameTheSQLButNeverTheBoundValues() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(a TEXT NOT NULL);")
        let writer = try database.writer()
        let insert = try writer.statement("INSERT INTO t(a) VALUES (?) RETURNING a / 0 + abs(-9223372036854775807 - 1)")
        try insert.bind([.text("secret value")])
        let error = try #require(throws: DatabaseError.self) { try insert.step() }
        #expect(error.sql == insert.sql)
        #expect(!error.description.contains("secret value"), "\(error)")
        let syntax = try #require(throws: DatabaseError.self) { try writer.statement("SELEC 1") }
        #expect(syntax.description.contains("SELEC"))
    }

    @Test func statementsAreCachedAndHandedOutReset() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3);")
        let connection = try SQLiteConnection(path: database.path)
        let first = try connection.statement("SELECT x FROM t WHERE x >= ? ORDER BY x")
        try first.bind([.integer(2)])
        #expect(try first.step())
        #expect(first.int64(0) == 2)
        let again = try connection.statement("SELECT x FROM t WHERE x >= ? ORDER BY x")
        #expect(first === again)
        // Reset, with the binding cleared: NULL matches no row.
        #expect(try again.step() == false)
        #expect(again.columnCount == 1)
        #expect(again.columnName(0) == "x")
    }

    @Test func dataVersionChangesAfterAnotherConnectionCommitsAndNotOtherwise() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(x);")
        let reader = try SQLiteConnection(path: database.path)
        let writer = try database.writer()
        let start = try reader.dataVersion
        #expect(try reader.dataVersion == start)
        _ = try writer.rows("SELECT count(*) FROM t")
        #expect(try reader.dataVersion == start, "a read by another connection is no change")
        try writer.execute("BEGIN; INSERT INTO t VALUES (1); ROLLBACK;")
        #expect(try reader.dataVersion == start, "a rolled-back write is no change")
        try writer.execute("INSERT INTO t VALUES (1)")
        let afterCommit = try reader.dataVersion
        #expect(afterCommit != start)
        #expect(try reader.dataVersion == afterCommit)
    }

    @Test func schemaVersionChangesWithTheSchema() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(x);")
        let reader = try SQLiteConnection(path: database.path)
        let start = try reader.schemaVersion
        try database.writer().execute("CREATE TABLE u(y)")
        #expect(try reader.schemaVersion != start)
    }

    @Test func readSeesOneSnapshot() throws {
        let database = try TemporaryDatabase("PRAGMA journal_mode = WAL; CREATE TABLE t(x); INSERT INTO t VALUES (1);")
        let reader = try SQLiteConnection(path: database.path)
        let writer = try database.writer()
        let (before, during) = try reader.read {
            let before = try reader.scalar("SELECT count(*) FROM t")
            try writer.execute("INSERT INTO t VALUES (2)")
            let during = try reader.scalar("SELECT count(*) FROM t")
            #expect(reader.isInTransaction)
            return (before, during)
        }
        #expect(before == .integer(1))
        #expect(during == .integer(1), "the second read is in the first's snapshot")
        #expect(!reader.isInTransaction)
        #expect(try reader.scalar("SELECT count(*) FROM t") == .integer(2))
    }

    @Test func readCommitsWithAStatementLeftOnARow() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2);")
        let reader = try SQLiteConnection(path: database.path)
        let first = try reader.read {
            let statement = try reader.statement("SELECT x FROM t ORDER BY x")
            _ = try statement.step()
            return statement.int64(0)
        }
        #expect(first == 1)
        #expect(!reader.isInTransaction)
        reader.resetStatements()
        try database.writer().execute("INSERT INTO t VALUES (3)")
        #expect(try reader.scalar("SELECT count(*) FROM t") == .integer(3))
    }

    @Test func readRollsBackWhenItsBodyThrows() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(x);")
        let reader = try SQLiteConnection(path: database.path)
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try reader.read {
                _ = try reader.scalar("SELECT count(*) FROM t")
                throw Failure()
            }
        }
        #expect(!reader.isInTransaction)
        // With no read left open, a writer can commit (rollback journal: a reader's lock would block it).
        try database.writer().execute("INSERT INTO t VALUES (1)")
        #expect(try reader.scalar("SELECT count(*) FROM t") == .integer(1))
    }
}

/// The statement cache is bounded: queries whose text depends on the request cannot grow it without end.
struct StatementCacheTests {
    @Test func manyDistinctStatementsStayUsableAndTheOneInHandIsNotFinalized() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');")
        let connection = try SQLiteConnection(path: database.path)
        let held = try connection.statement("SELECT v FROM t ORDER BY id")
        #expect(try held.step())
        for limit in 1...(SQLiteConnection.statementLimit * 3) {
            let statement = try connection.statement("SELECT count(*) FROM (SELECT 1 FROM t LIMIT \(limit))")
            #expect(try statement.step())
            #expect(statement.int64(0) == Int64(min(limit, 3)))
            statement.reset()
        }
        // The first statement was dropped from the cache long ago, but it is still in hand: it goes on.
        #expect(try held.step())
        #expect(held.text(0) == "b")
        connection.resetStatements()
    }
}
