import CellarDatabase
import Foundation
import Testing

/// A mounted database is one of `/readyz`'s checks: ready while the file can be read, 503 with
/// `Retry-After` while another process holds it locked past the query time limit, ready again after.
@Suite struct DatabaseReadinessTests {
    static let sql = """
        PRAGMA journal_mode = DELETE;
        CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
        INSERT INTO notes (body) VALUES ('one'), ('two');
        """

    @Test func aDatabaseLockedByAnotherProcessIsNotReadyUntilItIsReleased() throws {
        var options = DatabaseOptions()
        options.timeLimit = 0.3
        let server = try DatabaseTestServer(TemporaryDatabase(Self.sql, name: "notes.db"), options: options)
        let ready = try server.get("/readyz")
        #expect(ready.status == 200)
        #expect(ready.text.contains("\"name\":\"database notes.db\",\"ok\":true"))
        // The file's directory is not shown: /readyz is public.
        #expect(!ready.text.contains(server.database.directory.path))

        let writer = try server.database.writer()
        try writer.execute("BEGIN EXCLUSIVE")
        let locked = try server.get("/readyz")
        #expect(locked.status == 503)
        #expect(locked.headers["Retry-After"] == "5")
        #expect(locked.text.contains("\"ok\":false"))
        #expect(try server.get("/notes").status == 503)
        #expect(try server.get("/healthz").status == 200)

        try writer.execute("COMMIT")
        #expect(try server.get("/readyz").status == 200)
        #expect(try server.get("/notes").status == 200)
    }
}
