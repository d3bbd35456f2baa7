/// The databases the HTTP suites serve, as SQL. Rows are generated with recursive CTEs from
/// their number, so every value is known and reference queries can be written against them.
enum CellarFixture {
    /// Wines and what refers to them: an integer key, a text key, a compound key, a
    /// `WITHOUT ROWID` table, a rowid table, a view, an FTS5 external-content index, foreign keys,
    /// NULLs and ties in most columns, mixed types, blobs, markup and Unicode in the data, and
    /// columns named `limit`, `select` and `we"ird col`.
    static let sql = """
        CREATE TABLE producers(id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT);
        INSERT INTO producers VALUES
            (1, 'Domaine A', 'France'), (2, 'Weingut Ä', 'Österreich'), (3, '<b>Bold</b> & Co', 'USA'),
            (4, 'Bodega "Q"', 'España'), (5, 'Cantina, 100%', 'Italia');

        CREATE TABLE wines(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            producer_id INTEGER REFERENCES producers(id),
            vintage INTEGER,
            price REAL,
            notes TEXT,
            label BLOB,
            mixed,
            "limit" INTEGER,
            "select" TEXT,
            "we""ird col" TEXT
        );
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150)
        INSERT INTO wines SELECT
            i,
            CASE i WHEN 3 THEN '<b>x</b> Château "Ünïcødé" ''quoted''' WHEN 4 THEN 'Grüner, 100% / x' ELSE 'Wine ' || i END,
            CASE WHEN i % 9 = 0 THEN NULL ELSE 1 + i % 5 END,
            CASE WHEN i % 7 = 0 THEN NULL ELSE 2000 + (i * 37) % 6 END,
            CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 53) % 40 + 0.25 END,
            CASE i % 4 WHEN 0 THEN 'crisp citrus finish' WHEN 1 THEN 'dark cherry and oak'
                WHEN 2 THEN 'oak, vanilla and <b>bold</b> tannins' ELSE NULL END,
            CASE WHEN i % 10 = 0 THEN x'00ff10' WHEN i % 10 = 5 THEN x'' ELSE NULL END,
            CASE i % 4 WHEN 0 THEN i % 13 WHEN 1 THEN 'm' || (i % 5) WHEN 2 THEN (i % 13) + 0.5 ELSE NULL END,
            i % 3,
            CASE WHEN i % 2 = 0 THEN 'yes' ELSE 'no' END,
            'v' || (i % 4)
        FROM n;

        CREATE VIRTUAL TABLE wines_search USING fts5(name, notes, content='wines', content_rowid='id');
        INSERT INTO wines_search(wines_search) VALUES ('rebuild');

        CREATE TABLE grapes(name TEXT PRIMARY KEY NOT NULL, color TEXT);
        INSERT INTO grapes VALUES
            ('Pinot Noir', 'red'), ('a,b', 'white'), ('100%', 'red'), ('x/y', 'white'), ('Grüner Veltliner', 'white'),
            ('<b>x</b>', 'red'), (' lead space', 'red'), ('50%2C', 'red'), ('q?a#b&c=d', 'white'), ('%', 'red'), ('7', 'white');

        CREATE TABLE stock(
            cellar TEXT NOT NULL, bin INTEGER NOT NULL, wine_id INTEGER REFERENCES wines(id), bottles INTEGER,
            PRIMARY KEY (cellar, bin));
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
        INSERT INTO stock SELECT
            CASE i % 5 WHEN 0 THEN 'North, 1' WHEN 1 THEN '100%' WHEN 2 THEN 'a/b' WHEN 3 THEN 'Cave ✨' ELSE '%2C,%25' END,
            i % 12, 1 + (i * 7) % 150, CASE WHEN i % 6 = 0 THEN NULL ELSE i % 4 END
        FROM n;

        CREATE TABLE regions(country TEXT NOT NULL, code TEXT NOT NULL, label TEXT, PRIMARY KEY (country, code)) WITHOUT ROWID;
        INSERT INTO regions VALUES
            ('France', 'BDX', 'Bordeaux'), ('France', 'BGY', 'Bourgogne'), ('Italia', 'PIE', 'Piemonte'),
            ('España', 'RIO', 'La Rioja'), ('a,b', 'c%d', 'comma & percent'), ('x/y', 'z,', 'slash'), ('日本', '山梨', 'Yamanashi');
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
        INSERT INTO regions SELECT 'C' || (i % 4), 'R' || i, CASE WHEN i % 5 = 0 THEN NULL ELSE 'Region ' || (i % 7) END FROM n;

        CREATE TABLE tasting_notes(wine_id INTEGER REFERENCES wines(id), score INTEGER, note TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
        INSERT INTO tasting_notes SELECT 1 + i % 150, i % 5, CASE WHEN i % 3 = 0 THEN NULL ELSE 'note ' || i END FROM n;

        CREATE VIEW cheap_wines AS SELECT id, name, price, vintage FROM wines WHERE price < 20;

        CREATE TABLE bottles(wine_id INTEGER REFERENCES wines(id), opened INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
        INSERT INTO bottles SELECT 1 + i % 150, CASE WHEN i % 3 = 0 THEN NULL ELSE i % 17 END FROM n;

        CREATE TABLE samples(id INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, n, b BLOB, big INTEGER, far REAL, nul TEXT, bad TEXT);
        INSERT INTO samples VALUES
            (1, 42, 2.5, 'text "quoted" <b>x</b> é 🍷', NULL, x'00ff10fe', 9007199254740993, -1.0e300, 'a' || char(0) || 'b', CAST(x'41c3' AS TEXT)),
            (2, -7, 0.1, '', NULL, x'', -9223372036854775808, 3.0, NULL, NULL);
        """

    /// The tables every walk is checked on: its name, and a reference query of its ids in its default order.
    static let defaultOrders: [(path: String, reference: String)] = [
        ("/wines", "SELECT id FROM wines ORDER BY id"),
        ("/grapes", "SELECT name FROM grapes ORDER BY name"),
        ("/stock", "SELECT cellar, bin FROM stock ORDER BY cellar, bin"),
        ("/regions", "SELECT country, code FROM regions ORDER BY country, code"),
        ("/tasting_notes", "SELECT rowid FROM tasting_notes ORDER BY rowid"),
        ("/producers", "SELECT id FROM producers ORDER BY id"),
    ]

    /// Tables and views whose names, and columns, are SQL keywords, quotes, spaces, Unicode, markup,
    /// percent signs, the server's own paths and names a route cannot hold. Each has the row
    /// `(1, '<name> marker')` or its like, so a test can tell which list answered.
    static let names = """
        CREATE TABLE "select"("order" INTEGER PRIMARY KEY, "from" TEXT, "group" TEXT);
        INSERT INTO "select" VALUES (1, 'select marker', '<b>x</b>'), (2, 'a"b', NULL);
        CREATE VIEW "order" AS SELECT "order" AS "by", "from" FROM "select";
        CREATE TABLE "my table"("col umn" TEXT, "a""b" TEXT);
        INSERT INTO "my table" VALUES ('my table marker', '"'), ('x', NULL);
        CREATE TABLE "we""ird"(id INTEGER PRIMARY KEY, "x""y" TEXT);
        INSERT INTO "we""ird" VALUES (1, 'we"ird marker');
        CREATE TABLE "café ☕"(id INTEGER PRIMARY KEY, "prix €" REAL, "名前" TEXT);
        INSERT INTO "café ☕" VALUES (1, 9.5, 'café ☕ marker');
        CREATE TABLE "<b>x</b>"(id INTEGER PRIMARY KEY, "<i>c</i>" TEXT);
        INSERT INTO "<b>x</b>" VALUES (1, '<b>x</b> marker'), (2, '<script>alert(1)</script>');
        CREATE TABLE "100%"(id INTEGER PRIMARY KEY, v TEXT);
        INSERT INTO "100%" VALUES (1, '100% marker');
        CREATE TABLE "%41"(id INTEGER PRIMARY KEY, v TEXT);
        INSERT INTO "%41" VALUES (1, '%41 marker');
        CREATE TABLE "static"(id INTEGER PRIMARY KEY, v TEXT);
        INSERT INTO "static" VALUES (1, 'static marker');
        CREATE TABLE "healthz"(id INTEGER PRIMARY KEY, v TEXT);
        INSERT INTO "healthz" VALUES (1, 'healthz marker');
        CREATE TABLE "-"(id INTEGER PRIMARY KEY, v TEXT);
        INSERT INTO "-" VALUES (1, '- marker');
        CREATE TABLE "t"(id INTEGER PRIMARY KEY, v TEXT);
        INSERT INTO "t" VALUES (1, 't marker');
        CREATE TABLE "t.json"(id INTEGER PRIMARY KEY, v TEXT);
        INSERT INTO "t.json" VALUES (1, 't.json marker');
        CREATE TABLE "a/b"(id INTEGER PRIMARY KEY, v TEXT);
        INSERT INTO "a/b" VALUES (1, 'a/b marker');
        CREATE TABLE ":colon"(id INTEGER PRIMARY KEY, v TEXT);
        INSERT INTO ":colon" VALUES (1, ':colon marker');
        CREATE TABLE "*star"(id INTEGER PRIMARY KEY, v TEXT);
        INSERT INTO "*star" VALUES (1, '*star marker');
        CREATE TABLE "a?b#c"(id INTEGER PRIMARY KEY, v TEXT);
        INSERT INTO "a?b#c" VALUES (1, 'a?b#c marker');
        CREATE TABLE " "(id INTEGER PRIMARY KEY, v TEXT);
        INSERT INTO " " VALUES (1, '  marker');
        """
}
