#!/usr/bin/env python3
"""The SQLite file Benchmarks/database/run.sh serves with Cellar and with Datasette.

    Benchmarks/database/make-bench-db.py OUT.db [ROWS]     # ROWS defaults to 1,000,000

`items`: ROWS rows, 15 columns of mixed types: an INTEGER PRIMARY KEY `id`, short texts (sku,
title, name), a foreign key to `categories` (12 rows), a status with five values, integers,
reals, an ISO date, a nullable real (NULL in about two rows of three), a 0/1 flag and a longer
text (80-200 characters). `price` is indexed (the sorted case). The content is deterministic:
every value is a function of `id` (multiplicative hashes, no random source), so two runs write
the same rows. Written by one INSERT ... SELECT over a recursive CTE inside SQLite: a few
seconds for a million rows. The file is replaced atomically (written as OUT.db.tmp, renamed).
"""

import os
import sqlite3
import sys
import time

CATEGORIES = [
    "Books", "Music", "Film", "Games", "Garden", "Kitchen",
    "Tools", "Toys", "Sports", "Health", "Office", "Travel",
]
ADJECTIVES = [
    "Amber", "Brisk", "Calm", "Dusty", "Eager", "Faded", "Gentle", "Hollow", "Ivory", "Jolly",
    "Keen", "Lucid", "Mellow", "Nimble", "Olive", "Proud", "Quiet", "Rustic", "Silver", "Tidy",
    "Umber", "Vivid", "Woven", "Young", "Zesty", "Bold", "Crisp", "Deep", "Early", "Fine",
    "Grand", "Humble",
]
NOUNS = [
    "Anchor", "Basket", "Candle", "Drum", "Easel", "Flask", "Globe", "Hammer", "Inkwell", "Jar",
    "Kettle", "Lantern", "Mirror", "Needle", "Oar", "Pillow", "Quill", "Rope", "Saddle", "Teapot",
    "Umbrella", "Violin", "Wagon", "Xylophone", "Yarn", "Zither", "Bucket", "Compass", "Dial",
    "Envelope", "Fiddle", "Goblet", "Harp", "Kite", "Ladle", "Mallet", "Notebook", "Orb",
    "Paddle", "Rattle", "Spindle", "Thimble", "Urn", "Vase", "Whistle",
]
SURNAMES = [
    "Abbott", "Baker", "Castillo", "Dubois", "Eriksen", "Fischer", "García", "Haddad", "Ito",
    "Jensen", "Kowalski", "Laurent", "Moreau", "Nakamura", "O'Brien", "Petrov", "Quinn",
    "Rossi", "Schmidt", "Tanaka", "Újvári", "Varga", "Weber", "Xu", "Yilmaz", "Zhang",
]
GIVEN = [
    "Ada", "Bruno", "Chloé", "Dmitri", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas",
    "Kira", "Luca", "Mei", "Nils", "Olga", "Pablo", "Rosa", "Sven", "Talia", "Uma", "Viktor",
    "Wen", "Yara", "Zoë",
]
# The longer text is a window of this (with "&" and "<" in it: escaping is part of the work).
PROSE = (
    "A sturdy piece for everyday use, made to last & easy to clean. Ships flat; assembly takes "
    "ten minutes with the included key. Colours may vary slightly from the photographs <as "
    "always>. Keep away from open flames and direct sunlight for long periods. Each one is "
    "checked by hand before it leaves the workshop, and returns are accepted within thirty days "
    "if it comes back unused. Pairs well with the rest of the range; see the catalogue for sizes "
    "and finishes. Customers say it is \"better than expected\" and \"worth the wait\". "
)


def words_table(db, name, words):
    db.execute(f"CREATE TEMP TABLE {name} (i INTEGER PRIMARY KEY, w TEXT NOT NULL)")
    db.executemany(f"INSERT INTO {name} VALUES (?, ?)", enumerate(words))
    return len(words)


def build(path, rows):
    tmp = path + ".tmp"
    for leftover in (tmp, tmp + "-journal"):
        if os.path.exists(leftover):
            os.remove(leftover)
    db = sqlite3.connect(tmp, isolation_level=None)
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA page_size = 4096")
    db.execute("BEGIN")
    db.execute("CREATE TABLE categories (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
    db.executemany("INSERT INTO categories VALUES (?, ?)", [(i + 1, n) for i, n in enumerate(CATEGORIES)])
    db.execute(
        """CREATE TABLE items (
            id INTEGER PRIMARY KEY,
            sku TEXT NOT NULL,
            title TEXT NOT NULL,
            name TEXT NOT NULL,
            category_id INTEGER NOT NULL REFERENCES categories(id),
            status TEXT NOT NULL,
            quantity INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            price REAL NOT NULL,
            weight REAL NOT NULL,
            rating REAL NOT NULL,
            created TEXT NOT NULL,
            discount REAL,
            in_stock INTEGER NOT NULL,
            description TEXT NOT NULL
        )"""
    )
    na = words_table(db, "adj", ADJECTIVES)
    nn = words_table(db, "noun", NOUNS)
    ng = words_table(db, "given", GIVEN)
    ns = words_table(db, "surname", SURNAMES)
    nc = len(CATEGORIES)
    prose_len = len(PROSE)
    # h1..h3: multiplicative hashes of id (Knuth's constant and two other odd ones) mod 2^32,
    # without their low 8 bits (which follow id's own low bits): 0 <= h < 2^24. The products
    # stay below 2^63 for ids up to a few billion.
    db.execute(
        f"""
        WITH RECURSIVE seq(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM seq WHERE id < ?),
        h(id, h1, h2, h3) AS (
            SELECT id, (id * 2654435761) % 4294967296 / 256, (id * 2246822519) % 4294967296 / 256,
                   (id * 3266489917) % 4294967296 / 256 FROM seq)
        INSERT INTO items
        SELECT h.id,
               printf('SKU-%07d-%s', h.id, char(65 + h1 % 26, 65 + h2 % 26)),
               adj.w || ' ' || noun.w || ' No. ' || (h3 % 1000),
               given.w || ' ' || surname.w,
               1 + (h2 / 7) % {nc},
               CASE h3 % 10 WHEN 0 THEN 'draft' WHEN 1 THEN 'retired' WHEN 2 THEN 'backorder'
                            WHEN 3 THEN 'preorder' ELSE 'active' END,
               (h1 / 13) % 500,
               h.id % 9973,
               ((h1 / 11) % 100000) / 100.0,
               ((h2 / 17) % 50000) / 1000.0,
               ((h3 / 19) % 41) / 10.0 + 1.0,
               date('2015-01-01', '+' || ((h1 / 23) % 3650) || ' days'),
               CASE WHEN h2 % 3 = 0 THEN ((h3 / 29) % 50) / 100.0 END,
               (h1 / 31) % 4 <> 0,
               substr(?, 1 + (h2 / 37) % ({prose_len} - 200), 80 + (h3 / 41) % 121)
        FROM h
        JOIN adj ON adj.i = h1 % {na}
        JOIN noun ON noun.i = h2 % {nn}
        JOIN given ON given.i = h3 % {ng}
        JOIN surname ON surname.i = (h1 / 3) % {ns}
        """,
        (rows, PROSE),
    )
    db.execute("CREATE INDEX items_price ON items (price)")
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.close()
    os.replace(tmp, path)


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[1].startswith("-"):
        sys.stderr.write(__doc__)
        return 2
    path = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) == 3 else 1_000_000
    if rows < 1:
        sys.stderr.write("ROWS must be at least 1\n")
        return 2
    t0 = time.monotonic()
    build(path, rows)
    size = os.path.getsize(path) / 1048576
    print(f"{path}: items: {rows:,} rows, 15 columns; categories: {len(CATEGORIES)} rows; "
          f"{size:.0f} MiB; {time.monotonic() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
