import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// PostgreSQL's refusals outside the ones Cellar tells as a 4xx: a 500 whose page and log line
/// carry no value of the row — not the error's DETAIL, where PostgreSQL and triggers put them.
extension PostgresWriteTests {
    @Test func anUnmappedErrorsDetailReachesNeitherTheAnswerNorTheLog() throws {
        let log = LogLines()
        let served = try PostgresWriteTestServer.fresh(log: log)
        let secret = "0badc0de-5ec7-4e75-9a1e-5ec7e7a1c0de"
        try served.admin.execute(
            """
            CREATE FUNCTION refuse_vault() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'vault refuses this row' USING DETAIL = 'the token was ' || NEW.token::text; END $$;
            CREATE TRIGGER vault_refuses BEFORE INSERT OR UPDATE ON vault FOR EACH ROW EXECUTE FUNCTION refuse_vault();
            """, deadline: .seconds(30))
        let refused = try served.post("/vault/-/insert", #"{"row": {"id": 7, "token": "\#(secret)"}}"#)
        #expect(refused.status == 500, "\(refused.text)")
        #expect(!refused.text.contains(secret) && !refused.text.contains("the token was"), "\(refused.text)")
        // The form's answer too.
        let alice = try served.signIn("alice")
        let form = try served.postForm("/vault/-/new", "id=8&token=\(secret)", cookie: alice)
        #expect(form.status >= 400, "\(form.status)")
        #expect(!form.text.contains(secret) && !form.text.contains("the token was"))
        // The log says what failed, where, and PostgreSQL's SQLSTATE: never the detail.
        #expect(log.text.contains("P0001") && log.text.contains("vault refuses this row"), "\(log.text)")
        #expect(!log.text.contains(secret) && !log.text.contains("the token was"), "\(log.text)")
        #expect(try served.rows("SELECT count(*) FROM vault") == [[.integer(0)]])
    }
}

/// `/-/query` over PostgreSQL with a secret column: on when the serving role may not SELECT it
/// (then no statement can read it), off with the statements that would make it so when it may;
/// and Cellar's own reads and writes as such a role.
extension PostgresWriteTests {
    static let token = "5ec7e7a1-0000-4000-8000-00000000c0de"

    @Test func theSQLPageIsOffWhileTheRoleMayReadASecretAndSaysWhatToRun() throws {
        let log = LogLines()
        let served = try PostgresWriteTestServer.fresh(log: log)
        #expect(try served.get("/-/query?sql=SELECT%201").status == 404)
        #expect(log.text.contains("/-/query is off"), "\(log.text)")
        let role = PostgresWriteTestServer.role
        #expect(
            log.text.contains(#"REVOKE SELECT ON "vault" FROM "\#(role)"; GRANT SELECT ("id") ON "vault" TO "\#(role)";"#), "\(log.text)")
        // Run as the log says, the next start keeps the page on.
        try served.admin.execute("REVOKE SELECT ON vault FROM \(role); GRANT SELECT (id) ON vault TO \(role)", deadline: .seconds(30))
        let after = LogLines()
        let again = try PostgresWriteTestServer(sharing: served, log: after)
        #expect(!after.text.contains("/-/query is off"), "\(after.text)")
        #expect(try again.get("/-/query?sql=SELECT%201").status == 200)
    }

    @Test func aRoleThatMayNotReadTheSecretWritesAndReadsEverythingElse() throws {
        let first = try PostgresWriteTestServer.fresh()
        let role = PostgresWriteTestServer.role
        try first.admin.execute(
            "REVOKE SELECT ON vault FROM \(role); GRANT SELECT (id) ON vault TO \(role); INSERT INTO vault VALUES (1, '\(Self.token)')",
            deadline: .seconds(30))
        let log = LogLines()
        let served = try PostgresWriteTestServer(sharing: first, log: log)
        // The SQL page is on, and PostgreSQL keeps the secret from whatever it runs.
        #expect(try served.get("/-/query.json?sql=SELECT%20id%20FROM%20vault").status == 200)
        for sql in ["SELECT%20token%20FROM%20vault", "SELECT%20*%20FROM%20vault", "SELECT%20row_to_json(v)%20FROM%20vault%20AS%20v"] {
            let refused = try served.get("/-/query.json?sql=\(sql)")
            #expect(refused.status == 400 && refused.text.contains("permission denied"), "\(sql): \(refused.status) \(refused.text.prefix(300))")
            #expect(!refused.text.contains(Self.token))
        }
        // Lists and rows.
        for target in ["/vault", "/vault.json", "/vault.csv", "/vault/1", "/vault/1.json"] {
            let page = try served.get(target)
            #expect(page.status == 200, "\(target): \(page.status) \(page.text.prefix(300))")
            #expect(!page.text.contains(Self.token), "\(target)")
        }
        // Insert (RETURNING), update and delete from a version (FOR UPDATE), upsert, replace.
        let secondToken = "5ec7e7a1-0000-4000-8000-000000000002"
        let inserted = try served.post("/vault/-/insert", #"{"row": {"id": 2, "token": "\#(secondToken)"}, "return": true}"#)
        #expect(inserted.status == 201, "\(inserted.text)")
        #expect(!inserted.text.contains(secondToken))
        let tag = try #require(try served.get("/vault/2").headers["ETag"])
        let updated = try served.post(
            "/vault/2/-/update", #"{"update": {"token": "\#(Self.token)"}, "return": true}"#, headers: [("If-Match", tag)])
        #expect(updated.status == 200, "\(updated.text)")
        #expect(!updated.text.contains(Self.token))
        let upserted = try served.post(
            "/vault/-/upsert", #"{"rows": [{"id": 3, "token": "\#(secondToken)"}, {"id": 2, "token": "\#(secondToken)"}]}"#)
        #expect(upserted.status == 200, "\(upserted.text)")
        let replaced = try served.post("/vault/-/insert", #"{"row": {"id": 3, "token": "\#(Self.token)"}, "replace": true}"#)
        #expect(replaced.status == 201, "\(replaced.text)")
        #expect(
            try served.rows("SELECT id, token::text FROM vault ORDER BY id") == [
                [.integer(1), .text(Self.token)], [.integer(2), .text(secondToken)], [.integer(3), .text(Self.token)],
            ])
        let now = try #require(try served.get("/vault/3").headers["ETag"])
        #expect(try served.post("/vault/3/-/delete", "{}", headers: [("If-Match", now)]).status == 200)
        // Editing mode: saved in place with the secret's field empty keeps it; a delete.
        let alice = try served.signIn("alice")
        let page = try served.get("/vault?editing=1&_edit=1", headers: [("Cookie", alice), ("Accept", "text/html")])
        #expect(page.status == 200 && !page.text.contains(Self.token), "\(page.status)")
        let version = try served.version("/vault/1")
        let saved = try served.postForm("/vault/-/editing", "_do=save&_row=1&_version=\(version)&token=", cookie: alice)
        #expect(saved.status == 303, "\(saved.text.prefix(400))")
        let deleted = try served.postForm("/vault/-/editing", "_do=delete&_row=2&_version=\(try served.version("/vault/2"))", cookie: alice)
        #expect(deleted.status == 303, "\(deleted.text.prefix(400))")
        #expect(try served.rows("SELECT id, token::text FROM vault ORDER BY id") == [[.integer(1), .text(Self.token)]])
        #expect(!log.text.contains(Self.token) && !log.text.contains(secondToken) && !log.text.contains("/-/query is off"), "\(log.text)")
    }
}
