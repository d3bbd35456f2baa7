import Cellar
import CellarDatabase
import FoundationEssentials

/// `/db/wines` and `/db/regions`: a small wine cellar in a SQLite file, served through
/// CellarDatabase's Swift API with a configuration — wines grouped by colour, a prototype cell for
/// the bottles out of stock, each wine's region linked by name, full-text search over the notes.
///
/// The file is written at start-up into the temporary folder (its name follows its contents, so a
/// restart reuses it) and then only read, as any database Cellar serves. In development, where
/// the demo account exists, a copy made afresh at each start is served `--writable` instead, and
/// that account alone may change the wines in editing mode; everyone else sees no controls.
enum SampleDatabase {
    /// The lists' configuration, as a `.yaml` file beside a database would hold it.
    /// `sql: false`: the showcase shows lists, and `/db/-/query` would run any visitor's statement on
    /// a public demo; `cellar serve --database` has the SQL page.
    static let configuration = """
        sql: false
        tables:
          wines:
            title: Wine cellar
            description: Bottles in the cellar, by colour, with their regions; search the tasting notes
            columns: [name, vintage, region_id, price, rating, in_stock]
            labels: {region_id: Region, in_stock: Bottles, price: Price (€)}
            sort: [name]
            page_size: 25
            sections: colour
            cells:
              column: in_stock
              when: {"0": OutOfStockCell}
          regions:
            title: Regions
            description: Where the wines come from
            sort: [country, name]
        """

    /// The database's tables and rows: deterministic, a few hundred wines.
    static let schema = """
        PRAGMA journal_mode = DELETE;
        CREATE TABLE regions (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            country TEXT NOT NULL
        );
        CREATE TABLE wines (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            colour TEXT NOT NULL,
            vintage INTEGER,
            region_id INTEGER REFERENCES regions(id),
            price REAL NOT NULL,
            rating INTEGER,
            in_stock INTEGER NOT NULL,
            notes TEXT
        );
        CREATE INDEX wines_colour ON wines (colour, name);
        CREATE VIRTUAL TABLE wines_fts USING fts5 (name, notes, content='wines', content_rowid='id');
        INSERT INTO regions (id, name, country) VALUES
            (1, 'Bordeaux', 'France'), (2, 'Burgundy', 'France'), (3, 'Champagne', 'France'), (4, 'Loire', 'France'),
            (5, 'Rioja', 'Spain'), (6, 'Priorat', 'Spain'), (7, 'Piedmont', 'Italy'), (8, 'Tuscany', 'Italy'),
            (9, 'Mosel', 'Germany'), (10, 'Douro', 'Portugal'), (11, 'Marlborough', 'New Zealand'), (12, 'Napa Valley', 'United States');
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 360)
        INSERT INTO wines (id, name, colour, vintage, region_id, price, rating, in_stock, notes)
        SELECT i,
            (SELECT value FROM json_each('["Château","Domaine","Clos","Tenuta","Bodega","Quinta","Weingut","Estate"]') WHERE key = i % 8)
                || ' ' || (SELECT value FROM json_each('["des Pins","Rouge","Belle Vue","La Croix","del Sole","Alta","Vieilles Vignes","Saint-Jean","Hill","Les Roches","Dorada","Sonnenuhr"]') WHERE key = (i / 8) % 12)
                || CASE WHEN i >= 96 THEN ' No. ' || (i / 96 + 1) ELSE '' END,
            (SELECT value FROM json_each('["red","white","rosé","sparkling"]') WHERE key = (i * 5) % 4),
            CASE WHEN i % 17 = 0 THEN NULL ELSE 1995 + (i * 13) % 29 END,
            1 + (i * 11) % 12,
            round(8 + ((i * 37) % 900) / 10.0, 2),
            CASE WHEN i % 11 = 0 THEN NULL ELSE 80 + (i * 7) % 20 END,
            CASE WHEN i % 6 = 0 THEN 0 ELSE (i * 3) % 48 + 1 END,
            (SELECT value FROM json_each('["Black cherry, cedar and a long, dry finish.","Citrus, white flowers and a flinty edge.","Strawberry and rose petals; crisp and light.","Fine bubbles, brioche and green apple.","Plum, tobacco and firm tannins.","Honey, apricot and a touch of petrol."]') WHERE key = i % 6)
        FROM n;
        INSERT INTO wines_fts (rowid, name, notes) SELECT id, name, notes FROM wines;
        CREATE TRIGGER wines_ai AFTER INSERT ON wines BEGIN
            INSERT INTO wines_fts (rowid, name, notes) VALUES (new.id, new.name, new.notes);
        END;
        CREATE TRIGGER wines_ad AFTER DELETE ON wines BEGIN
            INSERT INTO wines_fts (wines_fts, rowid, name, notes) VALUES ('delete', old.id, old.name, old.notes);
        END;
        CREATE TRIGGER wines_au AFTER UPDATE ON wines BEGIN
            INSERT INTO wines_fts (wines_fts, rowid, name, notes) VALUES ('delete', old.id, old.name, old.notes);
            INSERT INTO wines_fts (rowid, name, notes) VALUES (new.id, new.name, new.notes);
        END;
        """

    /// Writes the sample database if it is not there yet, and returns its path.
    static func write() throws -> String {
        var hash = 5381
        for byte in schema.utf8 { hash = (hash &* 33) &+ Int(byte) }
        let folder = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let path = "\(folder)/cellar-showcase-\(String(UInt(bitPattern: hash), radix: 16)).db"
        if FileManager.default.fileExists(atPath: path) { return path }
        // Written beside, then moved into place: a server starting at the same moment never reads half a file.
        let partial = path + ".\(ProcessInfo.processInfo.processIdentifier).partial"
        try? FileManager.default.removeItem(atPath: partial)
        do {
            let connection = try SQLiteConnection(path: partial, readOnly: false)
            try connection.execute(schema)
        }
        do {
            try FileManager.default.moveItem(atPath: partial, toPath: path)
        } catch  where FileManager.default.fileExists(atPath: path) {
            // Another server starting at the same moment wrote it first: the same bytes.
            try? FileManager.default.removeItem(atPath: partial)
        }
        return path
    }

    /// A copy of the sample at `path` that edits may change, this process's own (two servers in
    /// development never share one), so that each start begins from the sample as written. The
    /// copies of processes that have ended are removed.
    static func writeEditableCopy(of path: String) throws -> String {
        let base = String(path.dropLast(".db".count)) + "-editable-"
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let file = folder + "/" + name
            guard file.hasPrefix(base), let pid = Int(file.dropFirst(base.count).prefix { $0.isNumber }) else { continue }
            if !FileManager.default.fileExists(atPath: "/proc/\(pid)") { try? FileManager.default.removeItem(atPath: file) }
        }
        let copy = base + "\(ProcessInfo.processInfo.processIdentifier).db"
        for file in [copy, copy + "-wal", copy + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        return copy
    }

    /// Mounts the sample's lists under `/db`. Where the temporary folder cannot be written (a
    /// container started with `--read-only` and no `/tmp` of its own), the showcase starts without
    /// them and the log says why.
    ///
    /// - Parameter editor: the account that may insert, update and delete wines (the demo
    ///   account, in development); nil serves the file read-only.
    static func install(in app: App, editableBy editor: String? = nil) throws {
        let path: String
        do {
            path = try write()
        } catch {
            app.logger.warning(
                "the sample database could not be written: the showcase starts without /db/wines and /db/regions (set TMPDIR to a writable folder)",
                metadata: ["error": "\(error)"])
            return
        }
        var options = DatabaseOptions()
        var served = path
        if let editor {
            served = try writeEditableCopy(of: path)
            options.writable = true
            for action in [Action.insert, .update, .delete] { app.access.permissions.grant(action, on: "/db/wines", to: editor) }
        }
        let database = try Database(path: served, options: options)
        try app.mount(database, at: "/db", configuration: try DatabaseConfiguration(yaml: configuration, file: "SampleDatabase.configuration"))
    }
}
