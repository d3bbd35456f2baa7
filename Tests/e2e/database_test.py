#!/usr/bin/env python3
"""End-to-end browser test of `cellar serve --database` on the file make_database.py writes,
in headless Chromium (the same Browser, xss and axe checks as browser_test.py).

    database_test.py --base-url http://127.0.0.1:8081 --screenshots Tests/artifacts/database-screenshots

Scenarios (each reported on its own; the run fails if any fails):
  explore        at 1280 and 390 px: clicking headers sorts (aria-sort, the status line, rows equal
                 the JSON's), the filter form adds a filter (303 to column__op=value, a chip, "N rows
                 match"), the chip's link removes it
  paging         /articles, /articles?sort=-score (NULLs and ties), a search (q=) and the view:
                 "Load more" until the last page. Before each click the link's href and
                 data-fragment-url must carry cursor= (offset= for the view), and the fragment
                 it names must hold only rows not yet shown; after it, the page's rows must be
                 the old ones followed by exactly those. At the end every row id is there once,
                 in the order the JSON form gives in one page, and nothing injected ran
  back           a row near the end of the loaded list -> detail -> Back: every row is there again
  xss            the hostile table (--xss-path) as browser_test's xss scenario, then pages that
                 show payloads in titles, bodies, detail pages and a foreign key's target
  axe            axe-core on --axe-paths, light and dark: no serious or critical violation
  screenshots    a table page, a detail page, the hostile table, the view and the compound-key
                 table at 1280x900 and 390x844, light and dark, into --screenshots
Every scenario also fails on a SEVERE browser console message.

Needs: what browser_test.py needs, and html5lib.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import urllib.request
from urllib.parse import parse_qs, parse_qsl, quote, urlencode, urlsplit

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test  # noqa: E402
import make_database  # noqa: E402
from browser_test import Browser, expect, injected, rows_ids  # noqa: E402
from check_markup import parse  # noqa: E402

HOSTILE_PATH = make_database.hostile_path()


def fetch_json(b: Browser, path: str):
    with urllib.request.urlopen(b.url(path), timeout=30) as response:
        return json.load(response)


def fragment_row_ids(b: Browser, url: str) -> list[str]:
    """The row ids of the fragment at `url`, as the server sends it (app.js skips rows already on
    the page, so a server that repeats a row would go unseen in the page alone)."""
    request = urllib.request.Request(b.url(url), headers={"Accept": "text/html", "HX-Request": "true"})
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read().decode("utf-8")
    # A columns-layout fragment's sections are <tbody> elements: parsed in a table, as app.js adds them.
    document = parse("<table>" + text + "</table>" if text.lstrip().startswith("<tbody") else text)
    return [row.get("id") for row in document.iter() if row.tag in ("li", "tr") and "cell" in (row.get("class") or "").split()]


def expected_row_ids(b: Browser, path: str) -> list[str]:
    """Every row of the list at `path`, in order, from its JSON form in one page."""
    parts = urlsplit(path)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "limit"] + [("limit", "1000")]
    data = fetch_json(b, f"{parts.path}.json?{urlencode(query)}")
    expect(data["meta"]["totalIsExact"] and data["links"]["next"] is None,
           f"{path}: the JSON form does not hold every row in one page of 1,000")
    return ["row-" + quote(row["id"], safe="") for section in data["sections"] for row in section["rows"]]


def page_through(b: Browser, path: str, by_cursor: bool) -> list[str]:
    """Opens `path` and clicks "Load more" until there is none, checking each step. Returns the rows' ids."""
    expected = expected_row_ids(b, path)
    b.get(path)
    ids = rows_ids(b)
    expect(ids and ids == expected[:len(ids)], f"{path}: the first page's rows are not the list's first rows")
    anchor = "cursor" if by_cursor else "offset"
    clicks = 0
    while True:
        links = b.driver.find_elements(By.CSS_SELECTOR, "main a.load-more")
        if not links:
            break
        link = links[0]
        href, fragment_url = link.get_attribute("href"), link.get_attribute("data-fragment-url")
        for name, url in (("href", href), ("data-fragment-url", fragment_url)):
            expect(url and anchor in parse_qs(urlsplit(url).query),
                   f"{path}: Load more after {len(ids)} rows: its {name} has no {anchor}=: {url!r}")
        expect(parse_qs(urlsplit(fragment_url).query).get("fragment") == ["rows"],
               f"{path}: data-fragment-url does not ask for fragment=rows: {fragment_url!r}")
        new = fragment_row_ids(b, fragment_url)
        expect(new, f"{path}: the fragment after {len(ids)} rows has no rows: {fragment_url}")
        repeated = sorted(set(new) & set(ids))
        expect(not repeated, f"{path}: the fragment after {len(ids)} rows repeats rows already shown: {repeated[:10]}")
        b.js("arguments[0].scrollIntoView({block: 'center'})", link)
        link.click()
        b.wait(lambda d: expected_conditions.staleness_of(link)(d) and
               not d.execute_script("return !!document.querySelector('main[aria-busy=\"true\"]')"),
               f"{path}: the pager to be replaced after clicking Load more with {len(ids)} rows shown")
        after = rows_ids(b)
        expect(after == ids + new,
               f"{path}: after Load more the rows are not the {len(ids)} shown followed by the fragment's {len(new)} "
               f"(got {len(after)}; ids {after[len(ids):len(ids) + 5]}..., wanted {new[:5]}...)")
        expect(urlsplit(b.driver.current_url).path == urlsplit(b.url(path)).path,
               f"{path}: clicking Load more navigated to {b.driver.current_url} (app.js not active?)")
        ids = after
        clicks += 1
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    expect(not duplicates, f"{path}: row ids shown more than once: {duplicates[:10]}")
    expect(ids == expected, f"{path}: after {clicks} Load more the page shows {len(ids)} rows, the list has "
           f"{len(expected)}; first difference at {next((i for i, (x, y) in enumerate(zip(ids, expected)) if x != y), min(len(ids), len(expected)))}")
    live = b.js("const l = document.getElementById('live'); return l ? l.textContent : null")
    if clicks:
        total = f"{len(expected):,}"
        expect(re.search(rf"Rows [\d,]+\D+{total} of {total} loaded", live or ""),
               f"{path}: the live region does not announce the last rows: {live!r}")
    query = parse_qs(urlsplit(b.driver.current_url).query)
    if clicks:
        expect(query.get("limit") == [str(len(ids))], f"{path}: URL not kept in step: {b.driver.current_url}")
    problems = injected(b)
    expect(not problems, f"{path}: data got out of its text: " + "; ".join(problems))
    print(f"    {path}: {len(ids)} rows in {clicks + 1} page(s), each once and in order; live: {live!r}")
    return ids


def scenario_paging(b: Browser, args, state: dict):
    for path, by_cursor in [("/articles", True), ("/articles?sort=-score", True),
                            (f"/articles?q={make_database.SEARCH_WORD}&limit=20", True),
                            ("/article_summary", False)]:
        ids = page_through(b, path, by_cursor)
        if path == "/articles":
            expect(len(ids) == make_database.ARTICLE_COUNT, f"/articles: {len(ids)} rows, the file has {make_database.ARTICLE_COUNT}")
            state["people_ids"] = ids  # for browser_test's back scenario
            state["list_url"] = b.driver.current_url
    # Leave the browser on the fully loaded /articles for the back scenario.
    b.get(state["list_url"])
    expect(rows_ids(b) == state["people_ids"], f"reloading {state['list_url']} does not show the same rows")


def expected_ids_of(b: Browser, url: str) -> list[str]:
    """The rows of the list the browser shows at `url`, in order, from the JSON form of that URL."""
    parts = urlsplit(url)
    return expected_row_ids(b, parts.path + ("?" + parts.query if parts.query else ""))


def scenario_explore(b: Browser, args, state: dict):
    """Sort by clicking headers, add a filter with the form, remove it by its chip: at desktop and
    phone width, each page's rows equal the JSON form of its URL, and every step is a plain link or
    GET form (what JavaScript adds is only Load more)."""
    for viewport in ("desktop", "mobile"):
        b.set_view(viewport, "light")
        b.get("/articles?limit=1000")
        for column, order in [("score", "ascending"), ("score", "descending"), ("published", "ascending")]:
            header = b.driver.find_element(
                By.XPATH, f"//table[@class='columns']/thead//th[a[starts-with(normalize-space(.), '{column}')]]")
            link = header.find_element(By.TAG_NAME, "a")
            b.js("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", link)
            link.click()
            b.wait(lambda d: f"sort={'-' if order == 'descending' else ''}{column}" in d.current_url, f"sorting by {column} {order}")
            header = b.driver.find_element(
                By.XPATH, f"//table[@class='columns']/thead//th[a[starts-with(normalize-space(.), '{column}')]]")
            expect(header.get_attribute("aria-sort") == order, f"{column} header says {header.get_attribute('aria-sort')}, not {order}")
            expect(rows_ids(b) == expected_ids_of(b, b.driver.current_url), f"{b.driver.current_url}: rows not in the JSON's order")
            status = b.driver.find_element(By.CSS_SELECTOR, "main .list-status").text
            expect(f"sorted by {column}" in status, f"the status line says {status!r}")
        # A filter from the form: the URL names it, the rows are the JSON's, a chip shows it.
        from selenium.webdriver.support.ui import Select
        # The conditions follow the chosen column's kind: text conditions for a text column, and
        # the numbers' group alone for a number column (the script hides the others).
        Select(b.driver.find_element(By.NAME, "filter_column")).select_by_value("title")
        shown = b.js("return [...document.querySelectorAll('select[name=filter_op] optgroup')].filter((g) => !g.disabled).map((g) => g.dataset.kind)")
        expect(shown == ["text"], f"a text column is offered the conditions of {shown}")
        chosen = Select(b.driver.find_element(By.NAME, "filter_op")).first_selected_option.get_attribute("value")
        expect(chosen == "icontains", f"a text column's first condition is {chosen!r}, not contains (any case)")
        Select(b.driver.find_element(By.NAME, "filter_column")).select_by_value("words")
        shown = b.js("return [...document.querySelectorAll('select[name=filter_op] optgroup')].filter((g) => !g.disabled).map((g) => g.dataset.kind)")
        expect(shown == ["number"], f"a number column is offered the conditions of {shown}")
        Select(b.driver.find_element(By.NAME, "filter_op")).select_by_value("gte")
        value = b.driver.find_element(By.NAME, "filter_value")
        value.send_keys("12")
        value.submit()
        b.wait(lambda d: "words__gte=12" in d.current_url, "the filter form's redirect to words__gte=12")
        expect("sort=published" in b.driver.current_url, f"the filter form lost the sort: {b.driver.current_url}")
        expect(rows_ids(b) == expected_ids_of(b, b.driver.current_url), f"{b.driver.current_url}: rows differ from the JSON's")
        chips = [c.text for c in b.driver.find_elements(By.CSS_SELECTOR, "main .chip")]
        expect(any("words ≥" in c and "12" in c for c in chips), f"no chip for the filter: {chips}")
        matching = b.driver.find_element(By.CSS_SELECTOR, "main .list-status").text
        expect(" match" in matching, f"the status line does not say how many rows match: {matching!r}")
        b.driver.find_element(By.CSS_SELECTOR, "main .chip a").click()
        b.wait(lambda d: "words__gte" not in d.current_url, "the chip's link to remove the filter")
        expect(b.count("main .chip") == 0, "a chip is left after removing the only filter")
        expect(rows_ids(b) == expected_ids_of(b, b.driver.current_url), f"{b.driver.current_url}: rows differ from the JSON's")
    b.set_view("desktop", "light")
    print("    headers sort (aria-sort, status line), the filter form (conditions by column kind) and its chip, at 1280 and 390 px")


def scenario_xss(b: Browser, args, state: dict):
    browser_test.scenario_xss(b, args, state)
    problems = []
    for path in ["/authors/5", "/articles/3", "/articles?q=script", "/articles?author_id=5", f"{HOSTILE_PATH}/2",
                 f"{HOSTILE_PATH}?limit=1000"]:
        b.get(path)
        time.sleep(0.3)
        problems += [f"{path}: {p}" for p in injected(b)]
    expect(not problems, "hostile data got out of its text: " + "; ".join(problems))
    print("    and nothing ran on the detail, search and filtered pages")


def scenario_screenshots(b: Browser, args, state: dict):
    expect(args.screenshots, "no --screenshots directory")
    os.makedirs(args.screenshots, exist_ok=True)
    pages = [("db-index", "/"), ("db-articles", "/articles"), ("db-articles-detail", "/articles/3"),
             ("db-authors", "/authors"), ("db-author-detail", "/authors/5"), ("db-view", "/article_summary"),
             ("db-compound", "/article_tags"), ("db-hostile", HOSTILE_PATH)]
    taken = 0
    for viewport in browser_test.VIEWPORTS:
        for scheme in ("light", "dark"):
            b.set_view(viewport, scheme)
            for name, path in pages:
                b.get(path)
                time.sleep(0.15)
                b.shot(args.screenshots, f"{name}-{viewport}-{scheme}")
                taken += 1
    b.set_view("desktop", "light")
    print(f"    {taken} screenshots in {args.screenshots}")


SCENARIOS = [("paging", scenario_paging), ("back", browser_test.scenario_back), ("explore", scenario_explore), ("xss", scenario_xss),
             ("axe", browser_test.scenario_axe), ("screenshots", scenario_screenshots)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--screenshots", metavar="DIR", help="directory for screenshots (the scenario is skipped without it)")
    parser.add_argument("--xss-path", default=HOSTILE_PATH)
    parser.add_argument("--axe-paths", nargs="+", default=[
        "/", "/articles", "/articles?author_id__lte=10&score__isnull=0&sort=-score", f"/articles?q={make_database.SEARCH_WORD}",
        "/articles/3", "/authors", "/authors/5", "/article_summary", "/article_tags", "/article_tags/2%2Ca%252Cb%2525c",
        "/tags", HOSTILE_PATH, f"{HOSTILE_PATH}/2", "/articles/-/schema", "/articles?facet=author_id&facet=words&words=10",
        "/-/query?sql=select+id,+title,+author_id+from+articles+where+id+%3C+6"])
    parser.add_argument("--only", nargs="+", choices=[n for n, _ in SCENARIOS], help="run only these scenarios")
    parser.add_argument("--ignore-console", metavar="REGEX", help="ignore SEVERE console messages matching REGEX")
    parser.add_argument("--timeout", type=float, default=15.0)
    args = parser.parse_args(argv)
    try:
        urllib.request.urlopen(args.base_url.rstrip("/") + "/", timeout=10).read()
    except Exception as error:  # noqa: BLE001 — any failure here means there is nothing to test
        print(f"database_test: cannot reach {args.base_url}: {error}")
        return 2
    return browser_test.run_scenarios(args, SCENARIOS, title="database_test")


if __name__ == "__main__":
    sys.exit(main())
