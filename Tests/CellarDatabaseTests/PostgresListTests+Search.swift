import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// Full-text search over PostgreSQL: `wines` is searched through an index over
/// `to_tsvector('simple', …)` there and an FTS5 table in SQLite; words both tokenizers read alike
/// find the same rows, in the same order, on the same pages. `articles` (PostgreSQL only, served
/// by the superuser) has a `tsvector` column in the `english` configuration.
extension PostgresListTests {
    /// Words that FTS5's unicode61 and PostgreSQL's `simple` configuration both split and fold
    /// alike: ASCII letters and digits, any case, repeated, with spaces around.
    @Test(arguments: [
        "oak", "OAK", "oak%20vanilla", "cherry%20oak", "Wine%2012", "crisp%20citrus%20finish", "drop%20table", "oak%20oak", "%20%20oak%20%20",
        "nothing", "tannins&sort=-price", "oak&vintage=2003", "oak&sort=-vintage&limit=5", "wine&sort=notes&limit=4",
    ])
    func searchesForSimpleWordsFindTheSameRows(query: String) throws {
        try expectSame("/wines.json?q=\(query)")
        try expectSame("/wines?q=\(query)")
        try expectSame("/wines.csv?q=\(query)")
    }

    @Test func aSearchWalkedByCursorIsTheSame() throws {
        let fixture = try fixture
        var next: String? = "/wines.json?q=wine&sort=-price&limit=6"
        var pages = 0
        while let target = next, pages < 50 {
            let sqlite = try fixture.sqlite.json(target)
            let postgres = try fixture.postgres.json(target)
            #expect(sqlite == postgres, "\(target)")
            next = sqlite["links"]?["next"]?.string
            pages += 1
        }
        #expect(pages > 3 && next == nil)
    }

    /// Quotes, tsquery's and FTS5's operators, NUL, 10 kB of words or of one word, too many words:
    /// an answer or a clear 400 from both engines, never a 500. Searches of several words with
    /// punctuation may find different rows (FTS5 reads `a:b` as a phrase, PostgreSQL as two words).
    @Test func hostileSearchesAreAnswersOrBadRequests() throws {
        let fixture = try fixture
        let roomy = try ListTestServer(
            serving: Database(postgres: PostgresConnectionInfo(fixture.readerURL)), connectionMemoryLimit: 512 * 1024)
        let values = [
            "'", "\"", "\"oak", "oak\"", "''", "&", "|", "!", ":*", "oak:*", "oak & cherry", "oak | cherry", "!oak", "-oak", "(oak", "oak)", "a:b",
            "oak <-> cherry", "<->", "'; DROP TABLE wines; --", "\u{0}", "oak\u{0}cherry", "\\", "\\'", "$1", "?", "%", "*", "NEAR(oak cherry)",
            "Grüner", "✨", "\u{202E}oak",
        ]
        for value in values {
            let target = "/wines.json?q=\(percentEncoded(value))"
            for (name, server) in [("SQLite", fixture.sqlite), ("PostgreSQL", fixture.postgres as ListTestServer)] {
                let answer = try server.get(target)
                #expect([200, 400].contains(answer.status), "\(name) \(target): \(answer.status) \(answer.text.prefix(300))")
            }
        }
        // Each word the same, 10 kB of them: searched for once.
        let oak = try roomy.get("/wines.json?q=\(percentEncoded(String(repeating: "oak ", count: 2_500)))&limit=1000")
        #expect(oak.status == 200)
        let oneOak = try fixture.postgres.json("/wines.json?q=oak&limit=1000")
        #expect(try JSON.parse(oak.body).ids == oneOak.ids)
        // One 10,000-letter word: longer than PostgreSQL indexes (2,047 bytes), so it finds nothing.
        let long = try roomy.get("/wines.json?q=\(String(repeating: "x", count: 10_000))")
        #expect(long.status == 200)
        #expect(try JSON.parse(long.body).rows.isEmpty)
        // More different words than a search takes: the same 400 from both.
        let many = (1...1_001).map { "w\($0)" }.joined(separator: " ")
        let tooMany = try roomy.get("/wines.json?q=\(percentEncoded(many))")
        #expect(tooMany.status == 400 && tooMany.text.contains("at most 1000 different words"), "\(tooMany.text.prefix(300))")
        let enough = try roomy.get("/wines.json?q=\(percentEncoded((1...1_000).map { "w\($0)" }.joined(separator: " ")))")
        #expect(enough.status == 200)
    }

    /// The condition is the index's own expression (as `pg_get_indexdef` writes it), which the
    /// planner matches to the index: with sequential scans off, the plan reads the index.
    @Test func theSearchUsesTheIndexExpression() throws {
        let fixture = try fixture
        let schema = try Database(postgres: PostgresConnectionInfo(fixture.readerURL)).schema
        let document = try #require(schema.table(named: "wines")?.textSearch.first)
        #expect(schema.table(named: "wines")?.textSearch.count == 1)
        #expect(document.source == .index("wines_search"))
        #expect(document.configuration == "simple")
        #expect(schema.table(named: "grapes")?.textSearch == [])
        let admin = try PostgresListFixture.superuser(database: PostgresListFixture.databaseName)
        try admin.execute("SET enable_seqscan = off", deadline: .seconds(30))
        let plan = try admin.query(
            "EXPLAIN SELECT id FROM wines WHERE (\(document.expression)) @@ plainto_tsquery($1::regconfig, $2)", ["simple", "oak"],
            deadline: .seconds(30)
        ).rows.map { "\($0)" }.joined(separator: "\n")
        #expect(plan.contains("wines_search"), "\(plan)")
    }

    /// The superuser's view of the parity database, where `articles` is readable.
    func superuserServer(_ yaml: String? = nil) throws -> ListTestServer {
        guard let cluster = PostgresTestServer.cluster, let port = PostgresTestServer.components?.port else {
            throw PostgresListFixture.FixtureError.noCluster
        }
        let database = try Database(
            postgres: PostgresConnectionInfo("host=\(cluster) port=\(port) user=postgres dbname=\(PostgresListFixture.databaseName)"))
        return try ListTestServer(serving: database, configuration: try yaml.map { try DatabaseConfiguration(yaml: $0, file: "search.yaml") })
    }

    /// A `tsvector` column is searched with the server's default configuration (the cluster's is
    /// `english`: `cellars` finds `cellar`), or the one the configuration names.
    @Test func aTsvectorColumnIsSearchedInTheConfiguredConfiguration() throws {
        let server = try superuserServer()
        let english = try server.json("/articles.json?q=cellars&limit=100")
        #expect(english.ids == (1...40).filter { $0 % 3 != 2 }.map(String.init))
        let page = try server.get("/articles?q=cellar")
        #expect(page.status == 200 && page.text.contains("<form class=\"search\""))
        #expect(try server.json("/articles.json?q=the&limit=100").ids == [], "a stop word alone finds nothing")
        #expect(
            try server.json("/articles.json?q=door%20cellar&sort=-id&limit=100").ids == stride(from: 39, to: 0, by: -3).map(String.init),
            "the rows with both words, by id descending")

        let simple = try superuserServer(
            """
            tables:
              articles:
                search: {column: document, configuration: simple}
            """)
        // The document was made in english (`cellars` → `cellar`); read in simple, `cellars` stays as written.
        #expect(try simple.json("/articles.json?q=cellars&limit=100").ids == [])
        #expect(try simple.json("/articles.json?q=cellar&limit=100").ids == (1...40).filter { $0 % 3 != 2 }.map(String.init))
    }

    @Test func searchIsConfigured() throws {
        let off = try superuserServer(
            """
            tables:
              wines:
                search: false
            """)
        #expect(try off.get("/wines.json?q=oak").status == 400)
        #expect(try !off.get("/wines").text.contains("<form class=\"search\""))
        let named = try superuserServer(
            """
            tables:
              wines:
                search: {index: wines_search}
            """)
        let reader = try fixture.postgres.json("/wines.json?q=oak&limit=100")
        #expect(try named.json("/wines.json?q=oak&limit=100").ids == reader.ids)

        for (yaml, message) in [
            ("search: {index: nope}", "wines has no index “nope” over to_tsvector(…); it has the index wines_search"),
            ("search: {column: name}", "wines has no tsvector column “name”"),
            ("search: {configuration: klingon}", "PostgreSQL has no text-search configuration “klingon”"),
            ("search: {index: wines_search, column: name}", "name an index or a column, not both"),
            ("search: maybe", "expected false, true, or a mapping"),
        ] {
            #expect {
                _ = try superuserServer("tables:\n  wines:\n    \(yaml)\n")
            } throws: { error in
                "\(error)".contains(message) && "\(error)".contains("search.yaml:")
            }
        }
    }
}
