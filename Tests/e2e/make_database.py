#!/usr/bin/env python3
"""Writes the SQLite file the end-to-end checks serve with `cellar serve --database`.

    make_database.py OUT.db [--payloads xss_payloads.json] [--articles 523]

Deterministic (a fixed seed): the same file, row for row, on every run. What it holds, and
what each part is there to exercise:

  authors          INTEGER PRIMARY KEY (rowid alias); NULL emails and ratings, a BLOB, real numbers
  articles         ~500 rows (several pages of 100): a foreign key to authors (some NULL), NULL and
                   tied scores to sort on, payloads in titles and bodies; searched by
  articles_fts     an FTS5 external-content index (content='articles', content_rowid='id')
  tags             WITHOUT ROWID, a text key with spaces, Unicode, ',', '%' and '/'
  article_tags     a compound primary key (article_id, tag), both parts foreign keys
  article_summary  a view (no key: paged by offset, no detail pages)
  HOSTILE_TABLE    a name with spaces, both quotes, Unicode, '<', '&' and SQL keywords; columns
                   named like keywords and one named rowid (its key is then _rowid_); one row per
                   hostile payload (xss_payloads.json), and extreme numbers

The constants below (HOSTILE_TABLE, ARTICLE_COUNT, SEARCH_WORD...) are what run.sh and
database_test.py rely on; `--print FACT` prints one (hostile-path, search-word, article-count,
names: a JSON array of the hostile names for check_markup.py --expect-text).
Needs: Python's sqlite3 with FTS5 (Debian's libsqlite3 has it).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import sys
from urllib.parse import quote

HERE = os.path.dirname(os.path.abspath(__file__))
ARTICLE_COUNT = 523            # 5 full pages of 100 and a partial one
AUTHOR_COUNT = 24
SEARCH_WORD = "zeppelin"       # in the body of every 7th article
HOSTILE_TABLE = "Bestellung \"order\" 'select' <from> & ünïcødé ✓"
HOSTILE_COLUMNS = ["payload", "select", "from where", "naïve \"col\"", "rowid", "<i>note</i>"]
TAGS = ["news", "with space", "café", "日本語", "a,b%c", "slash/tag", "emoji 🍷", "<b>bold</b>", "'quoted'"]
WORDS = ("cellar wine list keyset cursor page row table view index search query column value "
         "sqlite swift server markup html json csv filter sort order detail link field number").split()


def hostile_path() -> str:
    """The hostile table's list path, percent-encoded (any encoding of the name reaches it)."""
    return "/" + quote(HOSTILE_TABLE, safe="")


FACTS = {
    "hostile-path": hostile_path,
    "search-word": lambda: SEARCH_WORD,
    "article-count": lambda: str(ARTICLE_COUNT),
    # Names that must show as text on /, the hostile table's page and /tags (check_markup --expect-text).
    "names": lambda: json.dumps([HOSTILE_TABLE] + HOSTILE_COLUMNS + TAGS, ensure_ascii=False),
}


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def build(path: str, payloads: list[str], articles: int) -> None:
    if os.path.exists(path):
        os.remove(path)
    rng = random.Random(20240611)
    db = sqlite3.connect(path)
    db.execute("PRAGMA foreign_keys = ON")
    db.executescript(f"""
        CREATE TABLE authors (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            email TEXT,
            born INTEGER,
            rating REAL,
            avatar BLOB
        );
        CREATE TABLE articles (
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            body TEXT,
            author_id INTEGER REFERENCES authors(id),
            published TEXT,
            words INTEGER NOT NULL DEFAULT 0,
            score REAL
        );
        CREATE INDEX articles_score ON articles(score);
        CREATE VIRTUAL TABLE articles_fts USING fts5(title, body, content='articles', content_rowid='id');
        CREATE TABLE tags (
            slug TEXT PRIMARY KEY,
            label TEXT,
            uses INTEGER
        ) WITHOUT ROWID;
        CREATE TABLE article_tags (
            article_id INTEGER NOT NULL REFERENCES articles(id),
            tag TEXT NOT NULL REFERENCES tags(slug),
            weight REAL,
            PRIMARY KEY (article_id, tag)
        );
        CREATE VIEW article_summary AS
            SELECT articles.id AS id, articles.title AS title, authors.name AS author, articles.words AS words,
                   articles.score AS score
            FROM articles LEFT JOIN authors ON authors.id = articles.author_id;
        CREATE TABLE {quoted(HOSTILE_TABLE)} (
            {quoted(HOSTILE_COLUMNS[0])} TEXT,
            {quoted(HOSTILE_COLUMNS[1])} INTEGER,
            {quoted(HOSTILE_COLUMNS[2])} REAL,
            {quoted(HOSTILE_COLUMNS[3])} TEXT,
            {quoted(HOSTILE_COLUMNS[4])} TEXT,
            {quoted(HOSTILE_COLUMNS[5])} TEXT
        );
    """)

    first = ["Ada", "Grace", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Edsger", "Radia",
             "Søren", "Zoë", "José", "Đorđe", "Łukasz", "Ἀριστοτέλης", "李", "محمد"]
    last = ["Lovelace", "Hopper", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Allen", "Dijkstra",
            "Perlman", "O'Brien", "\"Quoted\" Name", "<b>Bold</b>", "Müller"]
    for author in range(1, AUTHOR_COUNT + 1):
        name = f"{first[author % len(first)]} {last[author % len(last)]}"
        if author == 5:
            name = payloads[0]  # a payload as an author's name: it titles the row and a foreign key's target
        email = None if author % 4 == 0 else f"author{author}@example.org"
        born = None if author % 6 == 0 else 1900 + author * 3
        rating = None if author % 5 == 0 else round(rng.uniform(-5, 5), 3)
        avatar = bytes(range(author % 7 + 1)) if author % 3 == 0 else None
        db.execute("INSERT INTO authors VALUES (?, ?, ?, ?, ?, ?)", (author, name, email, born, rating, avatar))

    for article in range(1, articles + 1):
        words = [rng.choice(WORDS) for _ in range(rng.randint(4, 14))]
        if article % 7 == 0:
            words.insert(rng.randrange(len(words) + 1), SEARCH_WORD)
        body = " ".join(words)
        title = f"Article {article}: {words[0].capitalize()} {words[1]}"
        if article % 10 == 3:  # a payload in the title: the row's link text
            title = payloads[(article // 10) % len(payloads)]
        if article % 10 == 6:  # and in the body
            body = body + " " + payloads[(article // 10 + 50) % len(payloads)]
        author_id = None if article % 11 == 0 else 1 + article % AUTHOR_COUNT
        published = None if article % 13 == 0 else f"2024-{1 + article % 12:02d}-{1 + article % 28:02d}"
        score = None if article % 9 == 0 else round(rng.uniform(0, 5), 1)  # ~50 values: many ties
        db.execute("INSERT INTO articles VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (article, title, body, author_id, published, len(words), score))
    db.execute("INSERT INTO articles_fts(articles_fts) VALUES ('rebuild')")

    for index, slug in enumerate(TAGS):
        db.execute("INSERT INTO tags VALUES (?, ?, ?)",
                   (slug, None if index % 4 == 3 else slug.title(), None if index == 2 else index * 10))
    for article in range(1, min(articles, 120) + 1):
        for tag in rng.sample(TAGS, rng.randint(0, 3)):
            weight = None if (article + len(tag)) % 5 == 0 else round(rng.random(), 2)
            db.execute("INSERT INTO article_tags VALUES (?, ?, ?)", (article, tag, weight))

    extremes = [0, -1, 2**63 - 1, -(2**63), 42, None]
    reals = [0.0, -0.0, 1e300, -2.5e-300, 3.14159, None, 1.0]
    insert = f"INSERT INTO {quoted(HOSTILE_TABLE)} VALUES (?, ?, ?, ?, ?, ?)"
    for index, payload in enumerate(payloads):
        db.execute(insert, (payload, extremes[index % len(extremes)], reals[index % len(reals)],
                            payloads[(index + 1) % len(payloads)] if index % 3 == 0 else None,
                            f"not the rowid {index}", payloads[(index + 7) % len(payloads)] if index % 2 else None))
    db.commit()
    integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    problems = db.execute("PRAGMA foreign_key_check").fetchall()
    db.close()
    if integrity != "ok" or problems:
        raise SystemExit(f"make_database: {path} is not consistent: {integrity}, {problems[:5]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", help="the database file to (over)write")
    parser.add_argument("--payloads", default=os.path.join(HERE, "xss_payloads.json"))
    parser.add_argument("--articles", type=int, default=ARTICLE_COUNT)
    parser.add_argument("--print", choices=sorted(FACTS), dest="fact", help="print what the checks rely on and exit")
    args = parser.parse_args(argv)
    if args.fact:
        print(FACTS[args.fact]())
        return 0
    if not args.out:
        parser.error("OUT.db is required")
    with open(args.payloads, encoding="utf-8") as f:
        payloads = json.load(f)
    build(args.out, payloads, args.articles)
    print(f"make_database: wrote {args.out} ({args.articles} articles, {len(payloads)} hostile rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
