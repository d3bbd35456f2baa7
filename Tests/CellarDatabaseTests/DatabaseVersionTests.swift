import Foundation
import Testing

@testable import CellarDatabase

/// Validators come from the file alone: two `Database`s over one file stand for two replicas (or a
/// replica before and after a restart) and must agree on every version, in both journal modes.
struct DatabaseVersionTests {
    static let sql = """
        CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
        INSERT INTO t SELECT i, 'value ' || i FROM n;
        """

    static func file(journal: String) throws -> TemporaryDatabase {
        let database = try TemporaryDatabase(sql)
        try database.writer().execute("PRAGMA journal_mode = \(journal)")
        return database
    }

    @Test(arguments: ["DELETE", "WAL"])
    func replicasAgreeOnEveryVersionAndARestartKeepsIt(journal: String) throws {
        let file = try Self.file(journal: journal)
        let first = try Database(path: file.path)
        let second = try Database(path: file.path)
        let before = try first.currentVersion()
        #expect(try second.currentVersion() == before)
        // A restart: a new process sees the same file, and the same version.
        #expect(try Database(path: file.path).currentVersion() == before)

        // One row updated in the middle of the table: the header's page (page 1) is not written,
        // so in WAL mode the file's change counter stays as it was.
        let writer = try file.writer()
        try writer.execute("UPDATE t SET v = 'changed' WHERE id = 1500")
        let after = try first.currentVersion()
        #expect(after != before)
        #expect(try second.currentVersion() == after)
        #expect(try Database(path: file.path).currentVersion() == after)

        try writer.execute("UPDATE t SET v = 'changed again' WHERE id = 1500")
        let again = try second.currentVersion()
        #expect(again != after && again != before)
        #expect(try first.currentVersion() == again)
    }

    @Test func aCheckpointThatStartsTheLogOverLeavesReplicasAgreeingWithANewOne() throws {
        let file = try Self.file(journal: "WAL")
        let writer = try file.writer()
        let first = try Database(path: file.path)
        try writer.execute("UPDATE t SET v = 'changed' WHERE id = 7")
        let changed = try first.currentVersion()
        try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        // The same contents under a new WAL-index header: a replica started now and one that
        // served before agree (a validator may change with a checkpoint, but alike everywhere).
        let restarted = try Database(path: file.path).currentVersion()
        #expect(try first.currentVersion() == restarted)
        try writer.execute("UPDATE t SET v = 'changed' WHERE id = 8")
        let later = try first.currentVersion()
        #expect(later != changed && later != restarted)
        #expect(try Database(path: file.path).currentVersion() == later)
    }

    @Test func aFileReplacedByOneWithTheSameHeaderHasAnotherVersion() throws {
        // Built by the same statements, so the change counter and the page count are equal; only
        // the data and the file differ.
        let file = try TemporaryDatabase(Self.sql)
        let replacement = file.file("replacement.sqlite")
        try TemporaryDatabase.build(replacement, Self.sql.replacing("'value '", with: "'other '"))
        let database = try Database(path: file.path)
        let before = try database.currentVersion()
        #expect(rename(replacement, file.path) == 0)
        let after = try Database(path: file.path).currentVersion()
        #expect(after != before)
        // The database that served the old file opens the new one at its next checkout.
        #expect(try database.currentVersion() == after)
    }
}
