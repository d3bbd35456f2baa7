import CellarDatabase
import Testing

struct DatabaseSchemaTests {
    static func schema(_ sql: String) throws -> DatabaseSchema {
        let database = try TemporaryDatabase(sql)
        return try DatabaseSchema(connection: SQLiteConnection(path: database.path))
    }

    @Test func aCompoundPrimaryKeyIsInKeyOrderNotColumnOrder() throws {
        let schema = try Self.schema("CREATE TABLE stock(shelf TEXT, wine TEXT NOT NULL, bottles INTEGER, PRIMARY KEY (wine, shelf));")
        let stock = try #require(schema.table(named: "stock"))
        #expect(stock.kind == .table)
        #expect(stock.columns.map(\.name) == ["shelf", "wine", "bottles"])
        #expect(stock.primaryKey == ["wine", "shelf"])
        #expect(stock.key == ["wine", "shelf"])
        #expect(!stock.keyIsRowID)
        #expect(!stock.withoutRowID)
        #expect(stock.columns.map(\.primaryKeyPosition) == [2, 1, 0])
        #expect(stock.column(named: "wine")?.notNull == true)
        #expect(stock.column(named: "WINE")?.name == "wine")
    }

    @Test func withoutRowIDTables() throws {
        let schema = try Self.schema("CREATE TABLE codes(region TEXT, code TEXT, label, PRIMARY KEY (region, code)) WITHOUT ROWID;")
        let codes = try #require(schema.table(named: "codes"))
        #expect(codes.withoutRowID)
        #expect(codes.key == ["region", "code"])
        #expect(!codes.keyIsRowID)
    }

    @Test func aTableWithoutAPrimaryKeyIsKeyedByItsRowID() throws {
        let schema = try Self.schema("CREATE TABLE notes(body TEXT);")
        let notes = try #require(schema.table(named: "notes"))
        #expect(notes.primaryKey.isEmpty)
        #expect(notes.key == ["rowid"])
        #expect(notes.keyIsRowID)
    }

    @Test func columnsThatShadowTheRowIDMoveTheKeyToAnotherName() throws {
        let schema = try Self.schema(
            """
            CREATE TABLE a(rowid TEXT, body);
            CREATE TABLE b(ROWID, _rowid_, body);
            CREATE TABLE c(rowid, _ROWID_, Oid);
            CREATE TABLE d(id INTEGER PRIMARY KEY, rowid);
            """)
        #expect(schema.table(named: "a")?.key == ["_rowid_"])
        #expect(schema.table(named: "b")?.key == ["oid"])
        #expect(schema.table(named: "c")?.key == [])
        #expect(schema.table(named: "c")?.keyIsRowID == false)
        #expect(schema.table(named: "d")?.key == ["id"])
        // The key names reach the row: "_rowid_" is the rowid, not the text column "rowid".
        let database = try TemporaryDatabase("CREATE TABLE a(rowid TEXT, body); INSERT INTO a VALUES ('text', 'x');")
        let connection = try SQLiteConnection(path: database.path)
        let key = try #require(DatabaseSchema(connection: connection).table(named: "a")?.key.first)
        #expect(try connection.scalar("SELECT \(quotedIdentifier(key)) FROM a") == .integer(1))
    }

    @Test func viewsHaveColumnsAndNoKey() throws {
        let schema = try Self.schema(
            """
            CREATE TABLE wines(id INTEGER PRIMARY KEY, name TEXT, year INT);
            CREATE VIEW recent AS SELECT id, name FROM wines WHERE year > 2000;
            """)
        let recent = try #require(schema.table(named: "recent"))
        #expect(recent.kind == .view)
        #expect(recent.columns.map(\.name) == ["id", "name"])
        #expect(recent.primaryKey.isEmpty)
        #expect(recent.key.isEmpty)
        #expect(!recent.keyIsRowID)
        #expect(recent.foreignKeys.isEmpty)
    }

    @Test func columnsHaveTheirDeclaredTypeAndAffinity() throws {
        let schema = try Self.schema(
            """
            CREATE TABLE t(
                a INTEGER, b VARCHAR(20), c, d BLOB, e DOUBLE PRECISION, f DECIMAL(10,5), g FLOATING POINT, h STRING,
                i TEXT GENERATED ALWAYS AS (b || 'x') VIRTUAL, j REAL AS (e * 2) STORED);
            """)
        let columns = try #require(schema.table(named: "t")).columns
        #expect(
            columns.map(\.declaredType) == [
                "INTEGER", "VARCHAR(20)", "", "BLOB", "DOUBLE PRECISION", "DECIMAL(10,5)", "FLOATING POINT", "STRING", "TEXT", "REAL",
            ])
        #expect(columns.map(\.affinity) == [.integer, .text, .blob, .blob, .real, .numeric, .integer, .numeric, .text, .real])
        #expect(columns.map(\.isGenerated) == [false, false, false, false, false, false, false, false, true, true])
    }

    @Test func affinityFollowsSQLitesRules() {
        let cases: [(String, ColumnAffinity)] = [
            ("int", .integer), ("BIGINT", .integer), ("UNSIGNED BIG INT", .integer), ("point", .integer),
            ("NATIVE CHARACTER(70)", .text), ("clob", .text), ("NVARCHAR(100)", .text),
            ("", .blob), ("blob", .blob),
            ("REAL", .real), ("Float", .real), ("DOUBLE", .real),
            ("NUMERIC", .numeric), ("BOOLEAN", .numeric), ("DATETIME", .numeric), ("ıNT", .numeric),
        ]
        for (type, affinity) in cases {
            #expect(ColumnAffinity(declaredType: type) == affinity, "\(type)")
        }
    }

    @Test func foreignKeysWithAndWithoutReferencedColumns() throws {
        let schema = try Self.schema(
            """
            CREATE TABLE producers(id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE regions(country TEXT, name TEXT, PRIMARY KEY (country, name));
            CREATE TABLE wines(
                id INTEGER PRIMARY KEY,
                producer INTEGER REFERENCES producers,
                maker INTEGER REFERENCES producers(id),
                country TEXT, region TEXT,
                lost INTEGER REFERENCES nowhere,
                FOREIGN KEY (country, region) REFERENCES regions,
                FOREIGN KEY (region, country) REFERENCES regions(name, country));
            """)
        let wines = try #require(schema.table(named: "wines"))
        #expect(
            wines.foreignKeys == [
                ForeignKey(columns: ["producer"], referencedTable: "producers", referencedColumns: ["id"]),
                ForeignKey(columns: ["maker"], referencedTable: "producers", referencedColumns: ["id"]),
                ForeignKey(columns: ["lost"], referencedTable: "nowhere", referencedColumns: []),
                ForeignKey(columns: ["country", "region"], referencedTable: "regions", referencedColumns: ["country", "name"]),
                ForeignKey(columns: ["region", "country"], referencedTable: "regions", referencedColumns: ["name", "country"]),
            ])
        #expect(schema.table(named: "producers")?.foreignKeys == [])
    }

    @Test func anFTS5TableWithExternalContentIsTheTablesSearchIndexAndIsHidden() throws {
        let schema = try Self.schema(
            """
            CREATE TABLE docs(id INTEGER PRIMARY KEY, title TEXT, body TEXT, secret TEXT);
            CREATE VIRTUAL TABLE search USING fts5(title, "body", secret UNINDEXED, content='docs', content_rowid = 'id', tokenize = 'porter unicode61');
            """)
        #expect(schema.tables.map(\.name) == ["docs"])
        let index = try #require(schema.table(named: "docs")?.searchIndex)
        #expect(index == SearchIndex(table: "search", columns: ["title", "body"], contentTable: "docs", contentRowID: "id"))
    }

    @Test func theSearchIndexJoinsOnTheContentRowID() throws {
        let database = try TemporaryDatabase(
            """
            CREATE TABLE docs(id INTEGER PRIMARY KEY, title TEXT);
            INSERT INTO docs VALUES (10, 'red wine'), (20, 'white wine'), (30, 'cheese');
            CREATE VIRTUAL TABLE docs_search USING fts5(title, content='docs', content_rowid='id');
            INSERT INTO docs_search(docs_search) VALUES ('rebuild');
            """)
        let connection = try SQLiteConnection(path: database.path)
        let docs = try #require(DatabaseSchema(connection: connection).table(named: "docs"))
        let index = try #require(docs.searchIndex)
        let fts = quotedIdentifier(index.table)
        let sql = """
            SELECT t.title FROM \(quotedIdentifier(docs.name)) AS t JOIN \(fts) ON t.\(quotedIdentifier(index.contentRowID)) = \(fts).rowid
            WHERE \(fts) MATCH ? ORDER BY t.\(quotedIdentifier(docs.key[0]))
            """
        #expect(try connection.rows(sql, ["wine"]) == [["red wine"], ["white wine"]])
    }

    @Test func anFTS5TableNamedAfterATableIsItsSearchIndex() throws {
        let schema = try Self.schema(
            """
            CREATE TABLE Notes(body TEXT);
            CREATE VIRTUAL TABLE notes_fts USING FTS5(body);
            CREATE TABLE other(x);
            """)
        #expect(schema.tables.map(\.name) == ["Notes", "other"])
        #expect(schema.table(named: "Notes")?.searchIndex == SearchIndex(table: "notes_fts", columns: ["body"], contentTable: nil))
        #expect(schema.table(named: "other")?.searchIndex == nil)
    }

    @Test func theFTS5DeclarationIsReadWithQuotesAndComments() throws {
        let schema = try Self.schema(
            """
            CREATE TABLE "we""ird"(content TEXT, [x y] TEXT, "a,b" TEXT);
            CREATE VIRTUAL TABLE IF NOT EXISTS "index, of (it)" USING fts5(
                "content",  -- a column called content, not the option
                [x y] UNINDEXED,
                `a,b`, /* a comma in a name */
                content = "we""ird", prefix = '2 3'
            );
            """)
        #expect(schema.tables.map(\.name) == ["we\"ird"])
        let index = try #require(schema.table(named: "we\"ird")?.searchIndex)
        #expect(index == SearchIndex(table: "index, of (it)", columns: ["content", "a,b"], contentTable: "we\"ird", contentRowID: "rowid"))
    }

    @Test func externalContentWinsOverTheName() throws {
        let schema = try Self.schema(
            """
            CREATE TABLE docs(title TEXT, body TEXT);
            CREATE VIRTUAL TABLE docs_fts USING fts5(title);
            CREATE VIRTUAL TABLE "by content" USING fts5(body, content=[docs]);
            """)
        #expect(schema.table(named: "docs")?.searchIndex?.table == "by content")
    }

    @Test func internalAndShadowTablesAreHidden() throws {
        let schema = try Self.schema(
            """
            CREATE TABLE docs(id INTEGER PRIMARY KEY, body TEXT);
            CREATE INDEX docs_body ON docs(body);
            CREATE VIRTUAL TABLE docs_fts USING fts5(body, content='docs', content_rowid='id');
            CREATE VIRTUAL TABLE own USING fts5(text);
            CREATE VIRTUAL TABLE boxes USING rtree(id, minX, maxX);
            CREATE TABLE t(x INTEGER PRIMARY KEY AUTOINCREMENT);
            ANALYZE;
            """)
        // sqlite_sequence, sqlite_stat1, the FTS5 tables and their shadows, rtree's shadows: gone.
        #expect(schema.tables.map(\.name) == ["boxes", "docs", "t"])
        #expect(schema.table(named: "boxes")?.isVirtual == true)
        #expect(schema.table(named: "boxes")?.columns.map(\.name) == ["id", "minX", "maxX"])
        #expect(schema.table(named: "docs_fts_data") == nil)
    }

    @Test func tablesAreSortedByNameIgnoringCase() throws {
        let schema = try Self.schema("CREATE TABLE b(x); CREATE TABLE A(x); CREATE TABLE c(x); CREATE VIEW Ab AS SELECT 1 AS one;")
        #expect(schema.tables.map(\.name) == ["A", "Ab", "b", "c"])
    }

    @Test func hostileNamesAreListedExactlyAndQueryableQuoted() throws {
        let names = ["we\"ird", "select", "with spaces", "Ünïcødé 🍷", "<b>markup</b>", "semi;colon --", "quote's"]
        let sql = names.map { name in
            "CREATE TABLE \(quotedIdentifier(name))(\(quotedIdentifier(name + " column")) TEXT PRIMARY KEY); "
                + "INSERT INTO \(quotedIdentifier(name)) VALUES ('row of ' || \(quotedIdentifier(name + " column")) IS NULL);"
        }.joined(separator: "\n")
        let database = try TemporaryDatabase(sql)
        let connection = try SQLiteConnection(path: database.path)
        let schema = try DatabaseSchema(connection: connection)
        #expect(Set(schema.tables.map(\.name)) == Set(names))
        for name in names {
            let table = try #require(schema.table(named: name))
            #expect(table.columns.map(\.name) == [name + " column"])
            #expect(table.primaryKey == [name + " column"])
            let count = try connection.scalar("SELECT count(\(quotedIdentifier(table.key[0]))) FROM \(quotedIdentifier(table.name))")
            #expect(count == .integer(1), "\(name)")
        }
        #expect(quotedIdentifier("we\"ird") == "\"we\"\"ird\"")
    }

    @Test func aViewThatCannotBeReadIsReportedNotFatal() throws {
        let schema = try Self.schema("CREATE TABLE a(x); CREATE VIEW broken AS SELECT x FROM a; CREATE TABLE b(y); DROP TABLE a;")
        #expect(schema.tables.map(\.name) == ["b"])
        #expect(schema.unreadable["broken"]?.contains("no such table") == true)
    }
}
