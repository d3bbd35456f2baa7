#!/usr/bin/env python3
"""End-to-end browser test of a running Cellar, in headless Chromium.

    browser_test.py --base-url http://127.0.0.1:8080 --screenshots Tests/artifacts/screenshots

Scenarios (each reported on its own; the run fails if any fails):
  people        /people: "Load more" until >= --rows rows, live region announces them,
                the URL tracks offset/limit, no duplicate rows
  back          click a row link -> detail page; Back -> the same rows are there again
  settings      /settings: >= 2 sections with an h2.section-header and a p.section-footer
  wines         --wines-path (/db/wines), grouped by colour: Load more to the end, across the
                groups; every row under its colour's header, one section per colour (data-section
                the JSON section's id), no id twice on the page; a screenshot of a boundary
  catalog-none  search for a term with no match -> .alert and the full list
  catalog-one   search for a term matching one product -> lands on /catalog/<id>
  loading       --loading-path (/reports): the data-loading-src placeholder is replaced by rows
  xss           the hostile list (--xss-path) renders; no injected script ran (window.__xss
                stays undefined, no alert/confirm/prompt, no CSP violation, no live
                javascript:/data:/vbscript: link), also after "Load more" and on a detail page
  row-controls  a link, a button and a field inside a linked row (/people) are what a click at
                their centre reaches, above the row's stretched link
  form          --form-path (/tasting-notes/new), keyboard only, at 1280 and 390 px: mistakes give a
                422 with the summary (role=alert, focused, a link per field), each field at fault
                aria-invalid with its message tied by aria-describedby, the values kept; axe on
                that page light and dark; fixed and sent, the note is on the list it redirects to
  form-nojs     the same with the page's scripts off (no axe: it is a script)
  detail-list   --detail-list-path (/roles/engineer), a role's people, a detail that is a list: its
                way back and its rows; axe at 1280 and 390 px, light and dark: no violation at all
  axe           axe-core on /, /people, /settings, /catalog in light and dark mode: no
                violation of impact serious or critical (all violations are printed)
  screenshots   every page at 1280x900 and 390x844, light and dark, into --screenshots (the form's
                errors are photographed by the form scenario)
Every scenario also fails on a SEVERE browser console message.

Needs: apt chromium chromium-driver; pip selenium axe-selenium-python.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import sys
import time
import traceback
import urllib.request
from urllib.parse import parse_qs, quote, urlsplit

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

# Runs before any page script: records dialogs, CSP violations and uncaught errors.
SENTINEL = r"""
(() => {
  window.__dialogs = []; window.__csp = []; window.__errors = [];
  for (const name of ['alert', 'confirm', 'prompt', 'print']) {
    window[name] = function (message) { window.__dialogs.push(name + '(' + String(message) + ')'); };
  }
  document.addEventListener('securitypolicyviolation', (e) =>
    window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sample || '')));
  window.addEventListener('error', (e) => window.__errors.push(String(e.message || e)));
})();
"""
VIEWPORTS = {"desktop": (1280, 900, 1, False), "mobile": (390, 844, 2, True)}


class Failure(AssertionError):
    pass


def expect(condition, message: str):
    if not condition:
        raise Failure(message)


class Browser:
    def __init__(self, base_url: str, timeout: float, ignore_console: str | None):
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("CHROMIUM_BINARY", "/usr/bin/chromium")
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                    "--disable-gpu", "--hide-scrollbars", "--lang=en-US"):
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        options.unhandled_prompt_behavior = "ignore"
        service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.set_page_load_timeout(60)
        self.driver.set_script_timeout(120)
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SENTINEL})
        self.base = base_url.rstrip("/")
        self.timeout = timeout
        self.ignore_console = re.compile(ignore_console) if ignore_console else None
        self.expected_404: set[str] = set()  # pages whose own 404 status is the point
        self.expected_422: set[str] = set()  # forms whose 422 (mistakes sent) is the point
        self.expected_401: set[str] = set()  # sign-in pages whose 401 (a wrong password) is the point
        self.set_view("desktop", "light")

    # ---- helpers
    def url(self, path: str) -> str:
        return path if path.startswith("http") else self.base + path

    def get(self, path: str):
        self.driver.get(self.url(path))
        self.wait(lambda d: d.execute_script("return document.readyState") == "complete", f"{path} to load")

    def wait(self, condition, what: str, timeout: float | None = None):
        # A condition may read an element the page replaces between finding it and reading it
        # (a row patched in place): that poll is tried again, as one that finds nothing is.
        try:
            return WebDriverWait(self.driver, timeout or self.timeout, poll_frequency=0.05,
                                 ignored_exceptions=(StaleElementReferenceException,)).until(condition)
        except TimeoutException:
            raise Failure(f"timed out waiting for {what} (at {self.driver.current_url})") from None

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def count(self, selector: str) -> int:
        return self.js("return document.querySelectorAll(arguments[0]).length", selector)

    def set_view(self, viewport: str, scheme: str):
        width, height, scale, mobile = VIEWPORTS[viewport]
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": scheme},
            {"name": "prefers-reduced-motion", "value": "reduce"}]})

    def console_errors(self) -> list[str]:
        errors = []
        for entry in self.driver.get_log("browser"):
            if entry.get("level") == "SEVERE":
                message = entry.get("message", "")
                if message.split(" - ")[0] in self.expected_404 and "status of 404" in message:
                    continue
                if message.split(" - ")[0].split("#")[0] in self.expected_422 and "status of 422" in message:
                    continue
                if message.split(" - ")[0].split("?")[0] in self.expected_401 and "status of 401" in message:
                    continue
                if not (self.ignore_console and self.ignore_console.search(message)):
                    errors.append(message)
        return errors

    def open_dialog(self) -> str | None:
        try:
            alert = self.driver.switch_to.alert
            text = alert.text
            alert.dismiss()
            return text
        except NoAlertPresentException:
            return None

    def shot(self, directory: str | None, name: str):
        if directory:
            os.makedirs(directory, exist_ok=True)
            if not self.driver.save_screenshot(os.path.join(directory, name + ".png")):
                raise RuntimeError(f"the screenshot {name} was not saved in {directory}")

    def quit(self):
        self.driver.quit()


# ---------------------------------------------------------------- scenarios

# A list's rows in either layout: cells (<li>) or columns (<tr>), and the links to their details.
ROWS = "main li.cell, main tr.cell"
ROW_LINKS = "main li.cell a.cell-link, main tr.cell a.row-link"


def rows_ids(b: Browser) -> list[str]:
    return b.js("return [...document.querySelectorAll('main li.cell, main tr.cell')].map(row => row.id)")


def load_more_until(b: Browser, target: int) -> int:
    shown = b.count(ROWS)
    path = urlsplit(b.driver.current_url).path
    while shown < target:
        links = b.driver.find_elements(By.CSS_SELECTOR, "main a.load-more")
        expect(links, f"no a.load-more link with only {shown} rows shown")
        b.js("arguments[0].scrollIntoView({block: 'center'})", links[0])
        links[0].click()
        before = shown
        b.wait(lambda d: b.count(ROWS) > before and
               not d.execute_script("return !!document.querySelector('[aria-busy=\"true\"]')"),
               f"more rows after clicking Load more with {before} shown")
        shown = b.count(ROWS)
        expect(urlsplit(b.driver.current_url).path == path,
               f"clicking Load more navigated away to {b.driver.current_url} (app.js not active?)")
    return shown


def scenario_people(b: Browser, args, state: dict):
    b.get("/people")
    first = b.count(ROWS)
    expect(first > 0, "/people shows no li.cell rows")
    expect(b.count("main nav.pager") == 1, "/people has no nav.pager")
    shown = load_more_until(b, args.rows)
    ids = rows_ids(b)
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    expect(not duplicates, f"duplicate row ids after loading: {duplicates[:10]}")
    live = b.js("const l = document.getElementById('live'); return l ? l.textContent : null")
    expect(live is not None, "no #live region")
    expect(re.search(r"Rows [\d,]+\D+[\d,]+ of [\d,]+ loaded", live or ""),
           f"live region does not announce the rows: {live!r}")
    query = parse_qs(urlsplit(b.driver.current_url).query)
    expect(query.get("limit") == [str(shown)] and query.get("offset") == ["0"],
           f"URL not kept in step: {b.driver.current_url} with {shown} rows shown")
    active = b.js("const a = document.activeElement; return a ? (a.closest('li.cell, tr.cell') || {}).id || a.className : null")
    print(f"    {first} rows at first, {shown} after Load more; live: {live!r}; focus on: {active!r}")
    state["people_ids"] = ids


def scenario_back(b: Browser, args, state: dict):
    ids = state.get("people_ids")
    expect(ids, "needs the people scenario to have loaded rows")
    list_url = b.driver.current_url
    link = b.driver.find_element(By.CSS_SELECTOR, f"main li.cell#{ids[-10]} a.cell-link, main tr.cell#{ids[-10]} a.row-link")
    href = link.get_attribute("href")
    b.js("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    b.wait(lambda d: d.current_url == href and d.execute_script("return document.readyState") == "complete",
           f"the detail page {href}")
    expect(b.count("main h1") == 1, f"detail page {href} has no h1")
    expect(b.count("main dl.detail dt") > 0, f"detail page {href} has no dl.detail")
    b.driver.back()
    b.wait(lambda d: d.current_url == list_url and b.count(ROWS) >= len(ids),
           f"{len(ids)} rows again after Back to {list_url} (server max limit lower?)")
    after = rows_ids(b)
    expect(after == ids, f"rows differ after Back: {len(after)} rows, first difference at "
           f"{next((i for i, (x, y) in enumerate(zip(ids, after)) if x != y), min(len(ids), len(after)))}")
    print(f"    {href} and back: all {len(after)} rows present")


def scenario_settings(b: Browser, args, state: dict):
    b.get("/settings")
    counts = b.js("""const s = [...document.querySelectorAll('main section.table-section')];
        return [s.length, s.filter(x => x.querySelector('h2.section-header')).length,
                s.filter(x => x.querySelector('p.section-footer')).length,
                s.filter(x => x.querySelector('h2.section-header') && x.querySelector('p.section-footer')).length]""")
    sections, headers, footers, both = counts
    print(f"    {sections} sections, {headers} with header, {footers} with footer, {both} with both")
    expect(both >= 2, f"/settings: want >= 2 sections with h2.section-header and p.section-footer, got {both}")


def scenario_wines(b: Browser, args, state: dict):
    """/db/wines, grouped by colour, each page numbering its sections from 0: Load more to the end.
    Every row must sit in its colour's section (one per colour, in the list's order), and no id twice."""
    with urllib.request.urlopen(b.url(args.wines_path + ".json?limit=1000"), timeout=30) as response:
        data = json.load(response)
    expect(data["links"]["next"] is None, f"{args.wines_path}.json does not hold every row in one page of 1,000")
    colour_of = {"row-" + quote(row["id"], safe=""): section["header"] for section in data["sections"] for row in section["rows"]}
    colours = [section["header"] for section in data["sections"]]
    expect(len(colours) >= 2, f"{args.wines_path} has {len(colours)} colour(s): nothing to cross")
    b.get(args.wines_path)
    first = b.count(ROWS)
    clicks = 0
    while b.driver.find_elements(By.CSS_SELECTOR, "main a.load-more"):
        before = b.count(ROWS)
        load_more_until(b, before + 1)
        clicks += 1
        expect(clicks <= 100, "more than 100 Load more clicks")
    placed = b.js("""return [...document.querySelectorAll('main li.cell')].map(li => {
        const section = li.closest('section.table-section');
        const header = section && section.querySelector('h2.section-header');
        return [li.id, header ? header.textContent : null, section ? section.dataset.section : null];
    })""")
    expect([row[0] for row in placed] == list(colour_of), "the rows are not the list's rows in its order")
    misplaced = [(row_id, header, colour_of[row_id]) for row_id, header, _ in placed if header != colour_of[row_id]]
    expect(not misplaced, f"{len(misplaced)} rows under another colour's header, e.g. {misplaced[:3]}")
    sections = b.js("""return [...document.querySelectorAll('main section.table-section')].map(s =>
        [s.dataset.section, (s.querySelector('h2.section-header') || {}).textContent || null])""")
    expect([header for _, header in sections] == colours, f"the page's sections {sections} are not the colours {colours}")
    expect([key for key, _ in sections] == [section["id"] for section in data["sections"]],
           "the page's data-section values are not the JSON sections' ids")
    ids = b.js("return [...document.querySelectorAll('[id]')].map(e => e.id)")
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    expect(not duplicates, f"ids twice on the page: {duplicates[:10]}")
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)
        b.js("arguments[0].scrollIntoView({block: 'center'})",
             b.driver.find_elements(By.CSS_SELECTOR, "main section.table-section h2.section-header")[1])
        time.sleep(0.15)
        b.shot(args.screenshots, "wines-loaded-boundary")
    print(f"    {first} rows at first, {len(placed)} after {clicks} clicks, in {len(sections)} sections: "
          + ", ".join(f"{header} ({key})" for key, header in sections))


def search(b: Browser, term: str):
    b.get("/catalog")
    field = b.driver.find_element(By.CSS_SELECTOR, "form.search input[type=search]")
    field.clear()
    field.send_keys(term)
    before = b.driver.current_url
    b.driver.find_element(By.CSS_SELECTOR, "form.search button[type=submit], form.search button").click()
    b.wait(lambda d: d.current_url != before and d.execute_script("return document.readyState") == "complete",
           f"the search for {term!r} to navigate")


def scenario_catalog_none(b: Browser, args, state: dict):
    b.get("/catalog")
    full = b.count(ROWS)
    expect(full > 0, "/catalog shows no rows")
    expect(b.count("main form.search input[type=search]") == 1, "/catalog has no form.search with an input[type=search]")
    search(b, args.nomatch_term)
    expect(b.count("main .alert") >= 1, f"no .alert after searching for {args.nomatch_term!r}")
    alert = b.js("return document.querySelector('main .alert').textContent.trim()")
    shown = b.count(ROWS)
    expect(shown == full, f"search with no match shows {shown} rows, the full list has {full}")
    print(f"    alert: {alert!r}; {shown} rows (full list)")


def catalog_titles(b: Browser) -> list[str]:
    b.get("/catalog")
    return b.js("return [...document.querySelectorAll('main li.cell.product .cell-title, main li.cell .cell-title')]"
                ".filter(e => e.closest('li').querySelector('a.cell-link')).map(e => e.textContent.trim())")


def scenario_catalog_one(b: Browser, args, state: dict):
    term = args.unique_term
    if not term:
        titles = catalog_titles(b)
        lowered = [t.lower() for t in titles]
        term = next((t for t, low in zip(titles, lowered) if t and sum(low in o for o in lowered) == 1), None)
        expect(term, f"could not find a product title unique in {titles[:20]}; pass --unique-term")
    search(b, term)
    path = urlsplit(b.driver.current_url).path
    expect(re.fullmatch(r"/catalog/[^/]+", path), f"searching for {term!r} landed on {b.driver.current_url}, not /catalog/<id>")
    expect(b.count("main h1") == 1, f"{path} has no h1")
    print(f"    {term!r} -> {path}")


def injected(b: Browser) -> list[str]:
    found = []
    if b.js("return typeof window.__xss") != "undefined":
        found.append(f"window.__xss = {b.js('return window.__xss')!r}")
    dialog = b.open_dialog()
    if dialog is not None:
        found.append(f"a real dialog opened: {dialog!r}")
    unsafe = b.js("""return [...document.querySelectorAll('[href], [src], [action], [formaction]')].flatMap((el) =>
        ['href', 'src', 'action', 'formaction'].filter((name) => el.hasAttribute(name)).map((name) => {
          let protocol; try { protocol = new URL(el.getAttribute(name), location.href).protocol; } catch (e) { return null; }
          return ['http:', 'https:', 'mailto:'].includes(protocol) ? null : `<${el.localName} ${name}="${el.getAttribute(name)}">`;
        })).filter(Boolean)""")
    if unsafe:
        found.append(f"{len(unsafe)} live link(s) with a script-capable scheme (CSP is the only guard): {unsafe[:4]}")
    for key in ("__dialogs", "__csp", "__errors"):
        values = b.js(f"return window.{key} || []")
        if values:
            found.append(f"{key}: {values[:5]}")
    return found


def scenario_xss(b: Browser, args, state: dict):
    b.get(args.xss_path)
    time.sleep(0.5)  # give anything that would fire (onerror, onload, autofocus) a chance
    rows = b.count(ROWS)
    expect(rows > 0, f"{args.xss_path} shows no rows")
    problems = injected(b)
    loaded = rows
    if b.count("main a.load-more"):
        loaded = load_more_until(b, rows + 1)
        time.sleep(0.5)
        problems += [f"after Load more: {p}" for p in injected(b)]
    if b.driver.find_elements(By.CSS_SELECTOR, ROW_LINKS):
        link = b.driver.find_element(By.CSS_SELECTOR, ROW_LINKS)
        b.js("arguments[0].scrollIntoView({block: 'center'})", link)
        link.click()
        b.wait(lambda d: d.execute_script("return document.readyState") == "complete", "a hostile row's detail")
        time.sleep(0.3)
        problems += [f"on detail {b.driver.current_url}: {p}" for p in injected(b)]
    expect(not problems, "hostile data got out of its text: " + "; ".join(problems))
    print(f"    {rows} hostile rows rendered ({loaded} after Load more); nothing ran")


def scenario_loading(b: Browser, args, state: dict):
    b.get(args.loading_path)
    b.wait(lambda d: b.count("main [data-loading-src]") == 0 and b.count(ROWS) > 0,
           f"the loading placeholder on {args.loading_path} to be replaced by rows")
    pagers = b.count("main nav.pager")
    expect(pagers <= 1, f"{pagers} nav.pager elements after the placeholder was filled")
    print(f"    {b.count('main li.cell')} rows replaced the placeholder; {pagers} pager")


def drop_grouped_description_items(b: Browser, violations: list[dict]) -> list[dict]:
    """The violations without axe-core 3.1.1's false `dlitem` ones: the axe-core that
    axe-selenium-python bundles (3.1.1; 2.1.6 is its last release) wants every <dt>/<dd> to be a
    child of the <dl>, but HTML lets a <div> child of the <dl> group a name with its values
    (axe-core 3.2 accepts it: dequelabs/axe-core#1265). Nodes whose parent is such a <div> (no
    role, its parent a <dl>) are dropped, and a violation left with no node with them; every
    other dlitem node still counts. The Nu checker validates the same markup."""
    kept = []
    for v in violations:
        if v.get("id") == "dlitem":
            targets = [node.get("target", [""])[-1] for node in v.get("nodes", [])]
            grouped = b.js("""return arguments[0].map((selector) => {
                const el = document.querySelector(selector), p = el && el.parentElement;
                return !!(p && p.localName === 'div' && !p.hasAttribute('role') && p.parentElement
                          && p.parentElement.localName === 'dl'); })""", targets)
            nodes = [node for node, ok in zip(v.get("nodes", []), grouped) if not ok]
            if len(nodes) < len(v.get("nodes", [])):
                print(f"    (dlitem: {len(v['nodes']) - len(nodes)} <dt>/<dd> in a <div> of a <dl> not counted: axe-core 3.1.1 predates that HTML)")
            if not nodes:
                continue
            v = dict(v, nodes=nodes)
        kept.append(v)
    return kept


def scenario_row_controls(b: Browser, args, state: dict):
    """A row whose link covers it (.cell-link::after) still lets its other controls be clicked: a
    button and a field added to a row, and an engineer's own e-mail link, are each what the point
    at their centre hits."""
    b.get("/people")
    hits = b.js("""
        const row = [...document.querySelectorAll('main li.cell')].find(r => r.querySelector('a.cell-link[href]')
            && r.querySelector('a:not(.cell-link)'));
        if (!row) return null;
        const button = document.createElement('button'); button.type = 'button'; button.textContent = 'Act';
        const field = document.createElement('input'); field.setAttribute('aria-label', 'Note');
        row.append(button, field);
        row.scrollIntoView({block: 'center'});
        return [row.querySelector('a:not(.cell-link)'), button, field].map(e => {
            const box = e.getBoundingClientRect();
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return [e.localName, hit === e || e.contains(hit)];
        });""")
    expect(hits, "/people has no linked row with a link of its own")
    expect(all(ok for _, ok in hits), f"controls under the row's link: {hits}")


def axe_problems(b: Browser, label: str, every_impact: bool = False) -> list[str]:
    """axe-core on the page the browser shows: prints every violation, returns the serious and
    critical ones (every one with ``every_impact``) and an axe-core failure as lines."""
    from axe_selenium_python import Axe
    bad = []
    Axe(b.driver).inject()
    # Axe.run() never returns when axe-core's promise rejects; report the rejection instead.
    results = b.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run().then((r) => done(r), (e) => done({error: String(e && e.stack || e)}));")
    if results.get("error"):
        bad.append(f"{label}: axe-core failed: {results['error'][:300]}")
        print(f"    {bad[-1]}")
        return bad
    violations = drop_grouped_description_items(b, results.get("violations", []))
    for v in violations:
        targets = [" ".join(map(str, n.get("target", []))) for n in v.get("nodes", [])]
        line = f"{label} {v.get('impact')}: {v['id']} — {v.get('help')} ({len(targets)} nodes: {targets[:3]})"
        print("    " + line)
        for node in v.get("nodes", [])[:2]:
            summary = (node.get("failureSummary") or "").replace("\n", " ")
            print(f"        {summary[:300]}")
        if every_impact or v.get("impact") in ("serious", "critical"):
            bad.append(line)
    print(f"    {label}: {len(violations)} violation(s), {len(results.get('passes', []))} rules passed")
    return bad


def scenario_axe(b: Browser, args, state: dict):
    bad = []
    for scheme in ("light", "dark"):
        b.set_view("desktop", scheme)
        for path in args.axe_paths:
            b.get(path)
            bad += axe_problems(b, f"{path} [{scheme}]")
    b.set_view("desktop", "light")
    expect(not bad, f"{len(bad)} axe problem(s): serious/critical violations or axe-core failures")


def scenario_detail_list(b: Browser, args, state: dict):
    parent = args.detail_list_path.rsplit("/", 1)[0]
    b.get(parent)
    link = b.js("const a = document.querySelector(`main a.cell-link[href='${arguments[0]}']`); return a && a.getAttribute('href')",
                args.detail_list_path)
    expect(link == args.detail_list_path, f"{parent} has no row linking to {args.detail_list_path}")
    bad = []
    for viewport in VIEWPORTS:
        for scheme in ("light", "dark"):
            b.set_view(viewport, scheme)
            b.get(args.detail_list_path)
            back = b.js("const a = document.querySelector('main a[href=\"' + arguments[0] + '\"]'); return a && a.textContent", parent)
            expect(back and back.startswith("Back to "), f"no way back to {parent}: {back!r}")
            expect(b.count(ROWS) > 0, "the detail list has no rows")
            expect(b.count("main li.cell a.cell-link[href]") == 0, "a detail list's rows link to a detail of their own")
            b.shot(args.screenshots, f"detail-list-{viewport}-{scheme}")
            # Every violation counts here, whatever its impact.
            bad += axe_problems(b, f"{args.detail_list_path} [{viewport} {scheme}]", every_impact=True)
    b.set_view("desktop", "light")
    expect(not bad, f"{len(bad)} axe problem(s) on the detail list")


def keys(b: Browser, *sequence):
    """Types `sequence` into whatever has the focus, as a keyboard does."""
    ActionChains(b.driver).send_keys(*sequence).perform()


def focused(b: Browser) -> str:
    return b.js("const e = document.activeElement; return e ? (e.id || e.className || e.localName) : ''")


def tab_to(b: Browser, element_id: str, limit: int = 60, backwards: bool = False):
    """Presses Tab (or Shift+Tab) until the element with `element_id` has the focus."""
    for _ in range(limit):
        if focused(b) == element_id:
            return
        keys(b, (Keys.SHIFT + Keys.TAB) if backwards else Keys.TAB)
    raise Failure(f"Tab never reached #{element_id} (the focus is on {focused(b)!r})")


def submit_by_keyboard(b: Browser, what: str):
    for _ in range(60):
        if b.js("return document.activeElement && document.activeElement.matches('form button[type=submit]')"):
            break
        keys(b, Keys.TAB)
    else:
        raise Failure("Tab never reached the submit button")
    before = b.driver.current_url
    keys(b, Keys.ENTER)
    b.wait(lambda d: d.execute_script("return document.readyState") == "complete" and
           (d.current_url != before or d.execute_script("return !!document.querySelector('.error-summary')")), what)


def summary_takes_focus(b: Browser):
    """Waits for the error summary to have the focus: `autofocus` is applied when the page is next
    rendered, not as it loads."""
    b.wait(lambda d: d.execute_script("const e = document.activeElement; return !!(e && e.classList.contains('error-summary'))"),
           "the error summary to take the focus (autofocus)")


def form_errors(b: Browser) -> dict:
    """What the page says is wrong: the summary's links, and each field marked invalid with the
    text of the elements its aria-describedby names."""
    return b.js("""
        const summary = document.querySelector('main .error-summary');
        const links = summary ? [...summary.querySelectorAll('a')].map(a => [a.getAttribute('href'), a.textContent.trim()]) : [];
        const invalid = [...document.querySelectorAll('main [aria-invalid="true"]')].map(e => [e.id,
            (e.getAttribute('aria-describedby') || '').split(' ').filter(Boolean)
              .map(id => (document.getElementById(id) || {textContent: 'MISSING ' + id}).textContent.trim()).join(' | ')]);
        return {role: summary && summary.getAttribute('role'), heading: summary && summary.querySelector('h2') && summary.querySelector('h2').textContent,
                links: links, invalid: invalid, title: document.title,
                focused: document.activeElement === summary};""")


def scenario_form(b: Browser, args, state: dict):
    """A tasting note, keyboard only: sent with mistakes, corrected twice, then kept."""
    fill_form(b, args, with_axe=True, suffix="")


def scenario_form_without_javascript(b: Browser, args, state: dict):
    """The same with the page's scripts off (app.js included): the form needs none."""
    b.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        fill_form(b, args, with_axe=False, suffix="-nojs")
    finally:
        b.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


def fill_form(b: Browser, args, with_axe: bool, suffix: str):
    path = args.form_path
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)
    future = datetime.date.today() + datetime.timedelta(days=400)
    bad = []
    b.expected_422.add(b.url(path))
    for viewport in ("desktop", "mobile"):
        b.set_view(viewport, "light")
        wine = f"Keyboard Cuvée {viewport}{suffix} <b>bold</b>"
        b.get(path)
        expect(b.js("return document.querySelector('main form[method=post]') !== null"), f"{path} has no form posting back")
        expect(b.count("main form li.cell") == 5, f"{path} does not show its 5 field cells")
        # Round 1: nothing in Wine, no rating, a day a year ahead, a note with markup, the switch on.
        tab_to(b, "field-tasted")
        keys(b, f"{future.month:02d}{future.day:02d}{future.year}")
        tab_to(b, "field-notes")
        keys(b, "Smoke & <i>cherry</i>")
        tab_to(b, "field-buyAgain")
        keys(b, Keys.SPACE)
        submit_by_keyboard(b, "the form with mistakes to come back")
        summary_takes_focus(b)
        errors = form_errors(b)
        expect(errors["role"] == "alert", f"no error summary with role=alert: {errors}")
        expect(errors["title"].startswith("Error: "), f"the title does not start with 'Error: ': {errors['title']!r}")
        expect(errors["focused"], "the error summary does not have the focus")
        expect([href for href, _ in errors["links"]] == ["#field-wine", "#field-rating"], f"summary links: {errors['links']}")
        expect(dict(errors["invalid"]) == {"field-wine": "Error: Wine is required.",
                                           "field-rating": "Error: Rating is required."},
               f"invalid fields and their messages: {errors['invalid']}")
        kept = b.js("return [document.getElementById('field-tasted').value, document.getElementById('field-notes').value,"
                    " document.getElementById('field-buyAgain').checked]")
        expect(kept == [future.isoformat(), "Smoke & <i>cherry</i>", True], f"values not kept: {kept}")
        b.shot(args.screenshots, f"form-errors-{viewport}-light{suffix}")
        if viewport == "desktop" and with_axe:
            for scheme in ("light", "dark"):
                b.set_view(viewport, scheme)
                bad += axe_problems(b, f"{path} with errors [{scheme}]")
            b.shot(args.screenshots, f"form-errors-{viewport}-dark")
            b.set_view(viewport, "light")
        # From the summary's first link to its field, then fix what it says.
        keys(b, Keys.TAB)
        expect(b.js("return document.activeElement.getAttribute('href')") == "#field-wine", "Tab from the summary is not its first link")
        keys(b, Keys.ENTER)
        tab_to(b, "field-wine")
        keys(b, wine)
        keys(b, Keys.TAB)
        expect(focused(b) == "field-rating", f"Tab from Wine went to {focused(b)!r}")
        keys(b, "V")  # a closed select picks the option its typed letters start: "Very good (4)"
        expect(b.js("return document.getElementById('field-rating').value") == "4", "typing V did not choose Very good (4)")
        submit_by_keyboard(b, "the form with the future day to come back")
        # Round 2: the app refuses the day in the future.
        summary_takes_focus(b)
        errors = form_errors(b)
        expect([text for _, text in errors["links"]] == ["Tasted on cannot be in the future: enter today or an earlier day."],
               f"round 2 summary: {errors['links']}")
        expect(errors["focused"], "the error summary does not have the focus after the second submission")
        expect(b.js("return [document.getElementById('field-wine').value, document.getElementById('field-rating').value]") == [wine, "4"],
               "the corrected values were not kept")
        b.shot(args.screenshots, f"form-future-{viewport}-light{suffix}")
        tab_to(b, "field-tasted")
        keys(b, "01152024")
        expect(b.js("return document.getElementById('field-tasted').value") == "2024-01-15", "typing a day did not set it")
        submit_by_keyboard(b, "the kept note to redirect to its list")
        expect(urlsplit(b.driver.current_url).path == "/tasting-notes", f"not redirected to the list: {b.driver.current_url}")
        titles = b.js("return [...document.querySelectorAll('main li.cell .cell-title')].map(e => e.textContent)")
        expect(titles and titles[0] == wine, f"the new note is not first on the list: {titles[:3]}")
        b.shot(args.screenshots, f"form-kept-{viewport}-light{suffix}")
    b.set_view("desktop", "light")
    expect(not bad, f"{len(bad)} axe problem(s) on the form with errors")


def scenario_screenshots(b: Browser, args, state: dict):
    expect(args.screenshots, "no --screenshots directory")
    os.makedirs(args.screenshots, exist_ok=True)
    detail = f"/people/{state['people_ids'][0].removeprefix('row-')}" if state.get("people_ids") else "/people/1"
    pages = [("home", "/"), ("people", "/people"), ("people-detail", detail), ("settings", "/settings"),
             ("catalog", "/catalog"), ("catalog-nomatch", f"/catalog?q={args.nomatch_term}"),
             ("xss", args.xss_path), ("reports", args.loading_path), ("tasting-notes", "/tasting-notes"),
             ("tasting-note-form", args.form_path), ("roles", "/roles"), ("role-detail-list", args.detail_list_path)]
    pages += [(re.sub(r"[^a-z0-9]+", "-", p.lower()).strip("-") or "page", p) for p in args.extra_screenshots]
    pages.append(("not-found", "/no-such-list/really"))
    taken = 0
    b.expected_404.add(b.url(pages[-1][1]))
    for viewport in VIEWPORTS:
        for scheme in ("light", "dark"):
            b.set_view(viewport, scheme)
            for name, path in pages:
                b.get(path)
                time.sleep(0.15)
                b.shot(args.screenshots, f"{name}-{viewport}-{scheme}")
                taken += 1
            if viewport == "desktop":  # the load-more state, focus ring and live region
                b.get("/people")
                load_more_until(b, b.count(ROWS) + 1)
                b.js("document.activeElement && document.activeElement.scrollIntoView({block: 'center'})")
                b.shot(args.screenshots, f"people-loaded-{viewport}-{scheme}")
                taken += 1
    b.set_view("desktop", "light")
    print(f"    {taken} screenshots in {args.screenshots}")


SCENARIOS = [("people", scenario_people), ("back", scenario_back), ("settings", scenario_settings), ("wines", scenario_wines),
             ("catalog-none", scenario_catalog_none), ("catalog-one", scenario_catalog_one),
             ("xss", scenario_xss), ("loading", scenario_loading), ("row-controls", scenario_row_controls),
             ("detail-list", scenario_detail_list), ("form", scenario_form), ("form-nojs", scenario_form_without_javascript), ("axe", scenario_axe),
             ("screenshots", scenario_screenshots)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--screenshots", metavar="DIR", help="directory for screenshots (the scenario is skipped without it)")
    parser.add_argument("--xss-path", default="/xss")
    parser.add_argument("--wines-path", default="/db/wines", help="a database list grouped into sections, longer than a page")
    parser.add_argument("--loading-path", default="/reports", help="a list whose page shows a loading placeholder")
    parser.add_argument("--rows", type=int, default=300, help="rows to load on /people (default 300)")
    parser.add_argument("--nomatch-term", default="zzqx-no-such-product")
    parser.add_argument("--unique-term", help="a catalog search term matching one product (default: found on /catalog)")
    parser.add_argument("--extra-screenshots", nargs="*", default=[], metavar="PATH",
                        help="more pages to photograph (e.g. '/big?limit=200'; the real /big streams a million rows)")
    parser.add_argument("--form-path", default="/tasting-notes/new", help="the showcase's form (a tasting note)")
    parser.add_argument("--detail-list-path", default="/roles/engineer", help="a row's detail that is a list of its own")
    parser.add_argument("--axe-paths", nargs="+", default=["/", "/people", "/settings", "/catalog", "/tasting-notes", "/tasting-notes/new"])
    parser.add_argument("--only", nargs="+", choices=[n for n, _ in SCENARIOS], help="run only these scenarios")
    parser.add_argument("--ignore-console", metavar="REGEX", help="ignore SEVERE console messages matching REGEX")
    parser.add_argument("--timeout", type=float, default=15.0)
    args = parser.parse_args(argv)

    try:
        urllib.request.urlopen(args.base_url.rstrip("/") + "/", timeout=10).read()
    except Exception as error:  # noqa: BLE001 — any failure here means there is nothing to test
        print(f"browser_test: cannot reach {args.base_url}: {error}")
        return 2

    return run_scenarios(args, SCENARIOS)


def run_scenarios(args, scenarios, title: str = "browser_test") -> int:
    """Runs each scenario (name, function) not left out by ``args.only`` in one browser, and prints
    and writes (``results.json`` in ``args.screenshots``) the summary. Exit status: 1 if any failed."""
    browser = Browser(args.base_url, args.timeout, args.ignore_console)
    results, state = [], {}
    try:
        for name, scenario in scenarios:
            if args.only and name not in args.only:
                continue
            if name == "screenshots" and not args.screenshots:
                results.append((name, None, "skipped (no --screenshots)"))
                continue
            print(f"--- {name}")
            started = time.monotonic()
            try:
                browser.console_errors()  # drain what earlier scenarios left
                scenario(browser, args, state)
                errors = browser.console_errors()
                expect(not errors, "console errors: " + " | ".join(errors[:5]))
                results.append((name, True, f"{time.monotonic() - started:.1f}s"))
            except (Failure, WebDriverException) as error:
                message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
                if isinstance(error, WebDriverException) and not isinstance(error, TimeoutException):
                    traceback.print_exc(limit=3)
                results.append((name, False, message))
                print(f"    FAIL: {message}")
                if args.screenshots:
                    os.makedirs(args.screenshots, exist_ok=True)
                    try:
                        browser.shot(args.screenshots, f"FAIL-{name}")
                    except WebDriverException:
                        pass
    finally:
        browser.quit()

    print(f"\n{title} summary")
    for name, ok, message in results:
        print(f"  {'PASS' if ok else 'SKIP' if ok is None else 'FAIL'}  {name:13} {message}")
    failed = [name for name, ok, _ in results if ok is False]
    print(f"{len(results) - len(failed)}/{len(results)} scenarios passed" + (f"; failed: {', '.join(failed)}" if failed else ""))
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)
        with open(os.path.join(args.screenshots, "results.json"), "w") as f:
            json.dump([{"scenario": n, "ok": ok, "message": m} for n, ok, m in results], f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
