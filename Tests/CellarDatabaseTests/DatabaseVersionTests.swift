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

    /// A list's request reads the versions through one checkout and its rows through another: each
    /// checkout stats the path once, and the version is made from that look, in either journal mode.
    @Test(arguments: ["DELETE", "WAL"])
    func aRequestStatsTheFileOnceACheckout(journal: String) throws {
        let file = try Self.file(journal: journal)
        let database = try Database(path: file.path)
        // The connection's first look finds which file it has open.
        let before = try database.currentVersions()
        let (after, stats) = try FileStatus.counting(file.path) {
            let versions = try database.currentVersions()
            _ = try database.read { connection in try connection.integer("SELECT count(*) FROM t", []) }
            return versions
        }
        #expect(stats == 2)
        #expect(after == before)
        // A write by another connection still moves the version, through the same one stat.
        try file.writer().execute("UPDATE t SET v = 'changed' WHERE id = 1500")
        let (changed, statsAfterWrite) = try FileStatus.counting(file.path) { try database.currentVersion() }
        #expect(changed != before.data)
        #expect(statsAfterWrite == (journal == "WAL" ? 1 : 3))
        #expect(try Database(path: file.path).currentVersion() == changed)
    }

    @Test func aCheckoutLendsItsLookAtThePathAndTakesItBack() throws {
        let file = try Self.file(journal: "WAL")
        let pool = try ConnectionPool(path: file.path, maximumConnections: 2)
        let lent = try pool.withConnection { connection in
            #expect(connection.statusWhenLent == FileStatus(path: file.path))
            return connection
        }
        #expect(lent.statusWhenLent == nil)
    }

    @Test func aLentLookAtAnotherFileIsNotTakenForTheConnectionsOwn() throws {
        let file = try Self.file(journal: "WAL")
        let connection = try SQLiteConnection(path: file.path)
        let own = try #require(connection.fileStatus())
        let replacement = file.file("replacement.sqlite")
        try TemporaryDatabase.build(replacement, Self.sql)
        // The pool looked while the path named another file: the connection looks for itself.
        connection.statusWhenLent = FileStatus(path: replacement)
        #expect(connection.fileStatusWhenLent() == own)
        #expect(rename(replacement, file.path) == 0)
        #expect(connection.fileStatusWhenLent() == nil, "the path names another file than the connection's")
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
