#!/usr/bin/env python3
"""End-to-end test of live lists in headless Chromium: a database list open in the browser follows
rows inserted, changed and deleted by another process (the `sqlite3` command line) without a reload.

    live_test.py --base-url http://127.0.0.1:8081 --database items.db

The server must serve `--database` (made by this script's --make first). Scenarios:
  follow     /items open, scrolled to its middle with a row's link focused; sqlite3 inserts a row
             above the viewport, updates the focused row's neighbour and deletes a row above: each
             appears, changes or disappears without a reload (a marker set on the window survives),
             the focused link keeps focus (its row replaced), the rows on screen stay where they were, the live region
             announces each batch, the pager counts the rows, a changed row is marked (and not under
             reduced motion)
  hidden     the tab hidden closes its stream; a row inserted meanwhile appears when it is shown again,
             replayed (not a refresh)
  more       after "Load more" the stream follows the larger window: a row inserted among the
             loaded rows appears, without a refresh, and the pager counts it
  refresh    /groups, in sections by kind: a row of a new kind needs a new section, which rows
             cannot patch; the batch is a refresh and app.js fetches the window's rows again in
             place (no reload), announcing it
Every scenario also fails on a SEVERE browser console message. Turbo itself is not used: app.js
applies the <turbo-stream> elements (Turbo's script cannot be installed here from Debian or PyPI).
"""
from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test  # noqa: E402
from browser_test import ROWS, Browser, expect  # noqa: E402


def make(path: str):
    """A table of 60 items, enough to scroll, and one of 6 rows in two sections."""
    if os.path.exists(path):
        os.remove(path)
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL, note TEXT)")
        connection.executemany("INSERT INTO items VALUES (?, ?, ?)",
                               [(i * 10, f"Item {i * 10}", f"note {i}") for i in range(1, 61)])
        # Rows in sections by kind (items.yaml beside the file): a new kind is a new section.
        connection.execute("CREATE TABLE groups(id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL)")
        connection.executemany("INSERT INTO groups VALUES (?, ?, ?)", [(i, f"Group row {i}", "alpha" if i < 4 else "beta") for i in range(1, 7)])
    with open(os.path.splitext(path)[0] + ".yaml", "w") as configuration:
        configuration.write("tables:\n  groups:\n    sections: kind\n")


def sqlite3_cli(args, sql: str):
    subprocess.run(["sqlite3", args.database, sql], check=True)


def wait_stream_open(b: Browser):
    b.wait(lambda d: d.execute_script("return document.documentElement.dataset.liveStream") == "open", "the live stream to open")


def row_top(b: Browser, row_id: str):
    return b.js("const r = document.getElementById(arguments[0]); return r ? r.getBoundingClientRect().top : null", row_id)


def live_text(b: Browser) -> str:
    return b.js("return document.getElementById('live').textContent")


def item_count(args) -> int:
    with sqlite3.connect(args.database) as connection:
        return connection.execute("SELECT count(*) FROM items").fetchone()[0]


def pager_text(b: Browser) -> str:
    return b.js("const p = document.querySelector('#list-pager [aria-current]'); return p ? p.textContent : ''")


def scenario_follow(b: Browser, args, state: dict):
    b.get("/items?limit=100")
    wait_stream_open(b)
    b.js("window.__notReloaded = true")
    # Scroll so that row 300 is near the top, and focus the link of the row below it (which will be replaced).
    b.js("document.getElementById('row-300').scrollIntoView({block: 'start'}); window.scrollBy(0, -100)")
    b.js("document.querySelector('#row-310 a').focus({preventScroll: true})")
    top = row_top(b, "row-300")

    sqlite3_cli(args, "INSERT INTO items VALUES (15, 'Inserted fifteen', 'new');")
    b.wait(lambda d: d.execute_script("return !!document.getElementById('row-15')"), "row 15 to appear")
    expect(b.js("return document.getElementById('row-15').previousElementSibling.id") == "row-10",
           "row 15 is not after row 10")
    b.wait(lambda d: "1 row added" in live_text(b), "the live region to announce the insert")
    total = item_count(args)
    b.wait(lambda d: pager_text(b).endswith(f"of {total}"), f"the pager to count {total} rows (it says {pager_text(b)!r})")
    expect(b.count("main nav.pager") == 1, "the pager is not there once")
    moved = row_top(b, "row-300")
    expect(moved is not None and abs(moved - top) <= 2, f"a row inserted above moved the rows on screen: from {top}px to {moved}px")

    sqlite3_cli(args, "UPDATE items SET name = 'Renamed 310' WHERE id = 310;")
    b.wait(lambda d: "Renamed 310" in d.execute_script("return document.getElementById('row-310').textContent"),
           "row 310 to change")
    b.wait(lambda d: "1 row changed" in live_text(b), "the live region to announce the change")

    sqlite3_cli(args, "DELETE FROM items WHERE id = 20;")
    b.wait(lambda d: d.execute_script("return !document.getElementById('row-20')"), "row 20 to disappear")
    b.wait(lambda d: "1 row removed" in live_text(b), "the live region to announce the removal")

    expect(b.js("return window.__notReloaded === true"), "the page was reloaded")
    expect(b.js("return document.activeElement && document.activeElement.closest('li, tr') && document.activeElement.closest('li, tr').id")
           == "row-310", "the focused link lost focus when its row was replaced")
    after = row_top(b, "row-300")
    expect(top is not None and after is not None and abs(after - top) <= 2,
           f"the rows on screen moved: row 300 was at {top}px, is at {after}px")

    # Changed rows are marked, unless the reader asked for reduced motion (Browser asks for it).
    expect(b.count("li.row-changed") == 0, "rows are marked under prefers-reduced-motion: reduce")
    b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-reduced-motion", "value": "no-preference"}]})
    sqlite3_cli(args, "UPDATE items SET name = 'Renamed 320' WHERE id = 320;")
    b.wait(lambda d: d.execute_script("const r = document.getElementById('row-320'); return r && r.classList.contains('row-changed')"),
           "row 320 to be marked")
    b.set_view("desktop", "light")


def scenario_hidden(b: Browser, args, state: dict):
    b.get("/items?limit=100")
    wait_stream_open(b)
    b.js("window.__notReloaded = true")
    b.driver.execute_cdp_cmd("Emulation.setFocusEmulationEnabled", {"enabled": False})
    b.js("Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});"
         "document.dispatchEvent(new Event('visibilitychange'))")
    expect(b.js("return document.documentElement.dataset.liveStream") == "closed", "the hidden tab kept its stream open")
    sqlite3_cli(args, "INSERT INTO items VALUES (25, 'While hidden', 'new');")
    b.js("Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});"
         "document.dispatchEvent(new Event('visibilitychange'))")
    b.wait(lambda d: d.execute_script("return !!document.getElementById('row-25')"), "the row inserted while hidden to appear")
    expect(b.js("return window.__notReloaded === true"), "the page was reloaded")
    expect("1 row added" in live_text(b), "the missed batch was not replayed (a refresh instead?)")


def scenario_more(b: Browser, args, state: dict):
    b.get("/items?limit=20")
    wait_stream_open(b)
    b.js("window.__notReloaded = true")
    b.js("document.querySelector('main a.load-more').click()")
    b.wait(lambda d: b.count(ROWS) >= 40, "Load more to add rows 21-40")
    # Every id the patches target (rows, each section's list and footer, the pager) is on the page once.
    duplicates = b.js("const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);"
                      "return ids.filter((id, i) => ids.indexOf(id) !== i)")
    expect(not duplicates, f"ids on the page twice after Load more: {duplicates}")
    # The stream reopens for the larger window; a row inserted among the loaded rows appears.
    wait_stream_open(b)
    sqlite3_cli(args, "INSERT INTO items VALUES (355, 'Among the loaded rows', 'new');")
    b.wait(lambda d: d.execute_script("return !!document.getElementById('row-355')"), "row 355 to appear among the loaded rows")
    expect(b.js("return document.getElementById('row-355').previousElementSibling.id") == "row-350", "row 355 is not after row 350")
    # The pager counts the new row, for the rows on the page (1-40), and still loads more.
    total = item_count(args)
    b.wait(lambda d: pager_text(b) == f"Rows 1–40 of {total}", f"the pager to read Rows 1–40 of {total} (it says {pager_text(b)!r})")
    expect(b.count("main nav.pager a.load-more") == 1, "the replaced pager has no Load more link")
    expect("1 row added" in live_text(b) and "changed" not in live_text(b), f"the pager was announced as a row: {live_text(b)!r}")
    expect(b.js("return window.__notReloaded === true"), "the page was reloaded")
    expect("updated" not in live_text(b), "the larger window was refreshed rather than followed")


# A list's sections in either layout: <section> elements (cells) or a table's <tbody class="rows"> (columns).
SECTIONS = "main section.table-section, main tbody.rows"


def scenario_refresh(b: Browser, args, state: dict):
    b.get("/groups")
    wait_stream_open(b)
    b.js("window.__notReloaded = true")
    sections = b.count(SECTIONS)
    sqlite3_cli(args, "INSERT INTO groups VALUES (7, 'First of a new kind', 'gamma');")
    # A section cannot be patched in row by row: the batch is a refresh, and the rows come again in place.
    b.wait(lambda d: d.execute_script("return !!document.getElementById('row-7')"), "row 7 to appear in a new section")
    expect(b.count(SECTIONS) == sections + 1, "the new section is not there once")
    expect(b.count(ROWS) == 7, "rows are missing or doubled after the refresh")
    b.wait(lambda d: "updated" in live_text(b), "the live region to announce the update")
    expect(b.js("return window.__notReloaded === true"), "the page was reloaded")


SCENARIOS = [("follow", scenario_follow), ("hidden", scenario_hidden), ("more", scenario_more), ("refresh", scenario_refresh)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url")
    parser.add_argument("--database", required=True)
    parser.add_argument("--make", action="store_true", help="only write the database and exit")
    parser.add_argument("--only", nargs="+", choices=[n for n, _ in SCENARIOS])
    parser.add_argument("--ignore-console", metavar="REGEX")
    parser.add_argument("--screenshots", metavar="DIR")
    parser.add_argument("--timeout", type=float, default=15.0)
    args = parser.parse_args(argv)
    if args.make:
        make(args.database)
        return 0
    return browser_test.run_scenarios(args, SCENARIOS, title="live_test")


if __name__ == "__main__":
    sys.exit(main())
