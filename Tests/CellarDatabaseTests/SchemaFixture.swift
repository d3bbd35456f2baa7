/// A database for the schema, references, labels and migrations: defaults of each kind, indexes of
/// each origin (created, unique, on an expression, partial), foreign keys that reference a text
/// key, two from one table to another, and a table referenced by more than 10,000 rows; tables
/// whose first text column is a date, whose `name` repeats and whose `title` is date-shaped.
enum SchemaFixture {
    static let sql = """
        CREATE TABLE symbols(
            symbol TEXT PRIMARY KEY NOT NULL, listed TEXT NOT NULL, exchange TEXT DEFAULT 'NYSE', lot INTEGER NOT NULL DEFAULT 100,
            note TEXT DEFAULT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
        INSERT INTO symbols SELECT 'S' || i, '2000-01-01', CASE WHEN i % 2 = 0 THEN 'NASDAQ' ELSE NULL END, 100 * i,
            CASE i WHEN 3 THEN 'NULL' WHEN 4 THEN 'long ' || replace(hex(zeroblob(2500)), '00', 'ab') ELSE NULL END FROM n;
        INSERT INTO symbols(symbol, listed) VALUES ('-', '2000-01-02');

        CREATE TABLE stocks(
            id INTEGER PRIMARY KEY, symbol TEXT REFERENCES symbols(symbol), day TEXT NOT NULL DEFAULT (date('now')), close REAL,
            hedge TEXT REFERENCES symbols);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
        INSERT INTO stocks SELECT i, CASE WHEN i % 50 = 0 THEN NULL ELSE 'S' || (1 + i % 30) END, printf('2001-%04d', i),
            CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 13) % 90 + 0.5 END, CASE WHEN i % 5 = 0 THEN 'S1' ELSE NULL END FROM n;
        CREATE INDEX stocks_day ON stocks(day);
        CREATE UNIQUE INDEX stocks_symbol_day ON stocks(symbol, day);
        CREATE INDEX stocks_lower ON stocks(lower(symbol));
        CREATE INDEX stocks_dear ON stocks(close) WHERE close > 10;

        CREATE TABLE ticks(id INTEGER PRIMARY KEY, symbol TEXT NOT NULL REFERENCES symbols(symbol), size INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10050)
        INSERT INTO ticks SELECT i, 'S2', i % 9 FROM n;

        CREATE TABLE people(id INTEGER PRIMARY KEY, born TEXT, full_name TEXT UNIQUE, nickname TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20)
        INSERT INTO people SELECT i, printf('19%02d-05-01', i), 'Person ' || i, 'P' FROM n;

        CREATE TABLE teams(id INTEGER PRIMARY KEY, name TEXT, code TEXT UNIQUE);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10)
        INSERT INTO teams SELECT i, 'Team ' || (i % 2), 'T' || i FROM n;

        CREATE TABLE events(id INTEGER PRIMARY KEY, title TEXT NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10)
        INSERT INTO events SELECT i, printf('2021-03-%02d', i) FROM n;

        CREATE TABLE members(
            id INTEGER PRIMARY KEY, person_id INTEGER REFERENCES people(id), team_id INTEGER REFERENCES teams(id),
            event_id INTEGER REFERENCES events(id), remark TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30)
        INSERT INTO members SELECT i, 1 + i % 20, 1 + i % 10, 1 + i % 10, 'remark ' || i FROM n;
        """
}
