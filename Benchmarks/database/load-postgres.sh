#!/usr/bin/env bash
# Copies make-bench-db.py's tables (`categories`, `items`) from a SQLite file into PostgreSQL, so
# that both databases hold the same rows: the scale rehearsal and the PostgreSQL benchmark serve them.
#
#   Benchmarks/database/load-postgres.sh BENCH.db [PSQL_ARGS...]
#
# PSQL_ARGS say where (a URL, or -h/-p/-U/-d; libpq's PG* variables work too); the role needs
# CREATE on the database's public schema. Existing tables of those names are replaced. Column types
# are the ones SQLite's values read back as: bigint, double precision and text (`created` stays
# text, as in the SQLite file, so both answer the same JSON). One COPY a table, in one transaction.
set -euo pipefail
db=${1:?usage: load-postgres.sh BENCH.db [PSQL_ARGS...]}
shift
[ -f "$db" ] || { echo "load-postgres: no file $db" >&2; exit 66; }
command -v psql >/dev/null || [ -x /usr/lib/postgresql/15/bin/psql ] || { echo "load-postgres: psql is not installed" >&2; exit 69; }
psql=$(command -v psql || echo /usr/lib/postgresql/15/bin/psql)

# csv_of TABLE: its rows as CSV, NULL an empty field (which COPY's CSV reads as NULL; no text is
# empty here), reals in the shortest digits that read back exactly (Python's repr; the sqlite3
# shell's 15 digits may not).
csv_of() {
    python3 - "$db" "$1" <<'PY'
import csv, sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
writer = csv.writer(sys.stdout, lineterminator="\n")
for row in db.execute("SELECT * FROM %s ORDER BY 1" % sys.argv[2]):
    writer.writerow(["" if v is None else repr(v) if isinstance(v, float) else v for v in row])
PY
}
{
    cat <<'SQL'
\set ON_ERROR_STOP on
SET client_min_messages = warning;
BEGIN;
DROP TABLE IF EXISTS items;
DROP TABLE IF EXISTS categories;
CREATE TABLE categories (id bigint PRIMARY KEY, name text NOT NULL UNIQUE);
CREATE TABLE items (
    id bigint PRIMARY KEY,
    sku text NOT NULL,
    title text NOT NULL,
    name text NOT NULL,
    category_id bigint NOT NULL REFERENCES categories (id),
    status text NOT NULL,
    quantity bigint NOT NULL,
    rank bigint NOT NULL,
    price double precision NOT NULL,
    weight double precision NOT NULL,
    rating double precision NOT NULL,
    created text NOT NULL,
    discount double precision,
    in_stock bigint NOT NULL,
    description text NOT NULL
);
COPY categories FROM STDIN (FORMAT csv);
SQL
    csv_of categories
    echo '\.'
    echo 'COPY items FROM STDIN (FORMAT csv);'
    csv_of items
    echo '\.'
    cat <<'SQL'
CREATE INDEX items_price ON items (price);
COMMIT;
ANALYZE categories;
ANALYZE items;
SQL
} | "$psql" -X -q "$@" >/dev/null
