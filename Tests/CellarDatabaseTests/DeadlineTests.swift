import CellarDatabase
import Foundation
import Testing

/// The deadline stops a runaway query. The tests check what kind of error it is, never how long
/// anything took: they must pass on a machine busy with other builds.
struct DeadlineTests {
    static let runaway = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
    /// A query that ends: 200 000 rows counted.
    static let bounded = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) SELECT count(*) FROM c"

    @Test func theDeadlineInterruptsARunawayQueryAndTheConnectionWorksAfterwards() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(x); INSERT INTO t VALUES (1);")
        let connection = try SQLiteConnection(path: database.path)
        let error = try #require(throws: DatabaseError.self) {
            try connection.withDeadline(seconds: 0.2) {
                _ = try connection.rows(Self.runaway)
            }
        }
        #expect(error.isInterrupted, "\(error)")
        #expect(error.description.contains("interrupt"), "\(error)")
        #expect(error.sql == Self.runaway)
        // The same connection, with no deadline and with a generous one, runs queries again.
        #expect(try connection.scalar(Self.bounded) == .integer(200_000))
        #expect(try connection.withDeadline(seconds: 600) { try connection.scalar("SELECT count(*) FROM t") } == .integer(1))
    }

    @Test func anInterruptedReadRollsBackAndTheConnectionReadsAgain() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(x); INSERT INTO t VALUES (1);")
        let connection = try SQLiteConnection(path: database.path)
        let error = try #require(throws: DatabaseError.self) {
            try connection.withDeadline(seconds: 0.2) {
                try connection.read {
                    _ = try connection.scalar("SELECT count(*) FROM t")
                    _ = try connection.rows(Self.runaway)
                }
            }
        }
        #expect(error.isInterrupted, "\(error)")
        #expect(!connection.isInTransaction)
        #expect(try connection.read { try connection.scalar("SELECT count(*) FROM t") } == .integer(1))
    }

    @Test func anotherConnectionIsNotInterrupted() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(x);")
        let path = database.path
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            do {
                let connection = try SQLiteConnection(path: path)
                if index == 0 {
                    try connection.withDeadline(seconds: 0.2) { _ = try connection.rows(Self.runaway) }
                    results.append("runaway finished")
                } else {
                    // Several bounded queries, so some of them run while the other connection is being interrupted.
                    for _ in 0..<5 {
                        results.append(try connection.scalar(Self.bounded) == .integer(200_000) ? "bounded ok" : "bounded wrong")
                    }
                }
            } catch let error as DatabaseError where error.isInterrupted {
                results.append("runaway interrupted")
            } catch {
                results.append("\(error)")
            }
        }
        #expect(results.sorted == ["bounded ok", "bounded ok", "bounded ok", "bounded ok", "bounded ok", "runaway interrupted"])
    }

    @Test func nestedDeadlinesKeepTheEarlierOneAndAreRemovedAfterwards() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(x);")
        let connection = try SQLiteConnection(path: database.path)
        let error = try #require(throws: DatabaseError.self) {
            try connection.withDeadline(seconds: 0.2) {
                try connection.withDeadline(seconds: 3600) { _ = try connection.rows(Self.runaway) }
            }
        }
        #expect(error.isInterrupted)
        // No deadline is left behind: a query after both runs to its end.
        #expect(try connection.scalar(Self.bounded) == .integer(200_000))
    }

    /// Strings appended from several threads.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String] = []
        func append(_ value: String) { lock.withLock { values.append(value) } }
        var sorted: [String] { lock.withLock { values.sorted() } }
    }
}
