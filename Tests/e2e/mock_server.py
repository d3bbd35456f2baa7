#!/usr/bin/env python3
"""A stand-in for the Cellar server that emits the agreed page markup, for front-end work.

It serves /static/ from Public/, the lists /people, /settings, /catalog, /xss and /big (page,
``?fragment=rows`` / ``HX-Request: true`` fragment, and ``.json``), row details, and an
error page, with the same Content-Security-Policy the real server sends. The e2e scripts
can run against it before the Swift server exists:

    python3 Tests/e2e/mock_server.py --port 8098 &
    python3 Tests/e2e/browser_test.py --base-url http://127.0.0.1:8098 --screenshots /tmp/shots

``--write-fixtures DIR`` writes the static fixtures people.html and people-fragment.html.
Only the standard library is needed.
"""
from __future__ import annotations

import argparse
import json
import mimetypes
import os
import sys
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, urlencode, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xss_payloads import PAYLOADS  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PUBLIC = os.path.join(ROOT, "Public")
# The files Cellar holds in its binary, kept in Sources/Cellar/Site/Assets/ (app.css is app.css and
# then its parts app+*.css in name order, app.js likewise); served when Public/ has no file of that name, as the real server does.
ASSETS = os.path.join(ROOT, "Sources", "Cellar", "Site", "Assets")
BUILT_IN = ("app.css", "app.js", "favicon.svg")
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
ROLES = ["Engineer", "Designer", "Product Manager", "Engineer", "Support", "Researcher", "Writer"]
NAV = [("/people", "People"), ("/settings", "Settings"), ("/catalog", "Catalog"), ("/big", "Big list"), ("/reports", "Reports")]


def e(text) -> str:
    return escape(str(text), quote=True)


def fmt(n: int) -> str:
    return f"{n:,}"


# ---------------------------------------------------------------- cells

def person(i: int) -> dict:
    return {"id": i, "name": f"Person {i}", "role": ROLES[i % len(ROLES)],
            "email": f"person{i}@example.com", "bio": f"Person {i} has been with the team for {i % 9 + 1} years."}


def person_cell(p: dict) -> str:
    if p["role"] == "Engineer":
        return (f'<li class="cell engineer" id="row-{p["id"]}"><a class="cell-link" href="/people/{p["id"]}">'
                f'<span class="cell-title">{e(p["name"])}</span> <span class="badge">Engineer</span></a> '
                f'<a href="mailto:{e(p["email"])}">{e(p["email"])}</a> <p class="cell-bio">{e(p["bio"])}</p></li>')
    return (f'<li class="cell subtitle" id="row-{p["id"]}"><a class="cell-link" href="/people/{p["id"]}">'
            f'<span class="cell-title">{e(p["name"])}</span> <span class="cell-subtitle">{e(p["role"])}</span></a></li>')


def value_cell(rid, title, value) -> str:
    return (f'<li class="cell value" id="row-{e(rid)}"><span class="cell-title">{e(title)}</span> '
            f'<span class="cell-detail">{e(value)}</span></li>')


def toggle_cell(rid, title, on: bool) -> str:
    state = "On" if on else "Off"
    return (f'<li class="cell toggle" id="row-{e(rid)}"><span class="cell-title">{e(title)}</span> '
            f'<span class="switch" data-on="{"true" if on else "false"}"><span class="visually-hidden">{state}</span></span></li>')


def link_cell(rid, title, href) -> str:
    return f'<li class="cell link" id="row-{e(rid)}"><a class="cell-link" href="{e(href)}"><span class="cell-title">{e(title)}</span></a></li>'


PRODUCTS = [(i, name, price) for i, (name, price) in enumerate([
    ("Oak barrel", "249.00"), ("Wine rack", "89.50"), ("Corkscrew", "12.99"), ("Decanter", "45.00"),
    ("Thermometer", "9.95"), ("Cork set", "6.50"), ("Tasting glasses", "32.00"), ("Bottle labels", "4.25"),
    ("Cellar ladder", "129.00"), ("Humidity meter", "27.75"), ("Wine cooler", "399.00"), ("Funnel", "7.80"),
], start=1)]


def product_cell(p) -> str:
    pid, name, price = p
    return (f'<li class="cell product" id="row-{pid}"><a class="cell-link" href="/catalog/{pid}">'
            f'<span class="cell-title">{e(name)}</span> <span class="cell-subtitle">Item #{pid}</span> '
            f'<span class="cell-detail">€{e(price)}</span></a></li>')


def note_cell(rid, title, body) -> str:
    body_html = f'<p class="cell-subtitle">{e(body)}</p>' if body else ""
    return f'<li class="cell note" id="row-{e(rid)}"><p class="cell-title">{e(title)}</p>{body_html}</li>'


# ---------------------------------------------------------------- page pieces

def section(index: int, rows: list[str], header: str | None = None, footer: str | None = None,
            identifier: str | None = None) -> str:
    """A section as TableKit's HTMLTableSink writes it: its identifier (its number unless given, as
    TableController.identifier(forSection:)) escaped in data-section, percent-encoded in its ids."""
    key = str(index) if identifier is None else identifier
    ident = quote(key, safe="")
    labelled = f' aria-labelledby="section-{ident}-header"' if header else ""
    out = [f'<section class="table-section" data-section="{e(key)}"{labelled}>']
    if header:
        out.append(f'<h2 class="section-header" id="section-{ident}-header">{e(header)}</h2>')
    out.append(f'<ul class="rows" id="section-{ident}-rows" data-section="{e(key)}">')
    out.extend(rows)
    out.append("</ul>")
    if footer:
        out.append(f'<p class="section-footer" id="section-{ident}-footer">{e(footer)}</p>')
    out.append("</section>")
    return "\n".join(out)


def pager(path: str, offset: int, limit: int, count: int, total: int, query: dict) -> str:
    def href(o, fragment=False):
        q = dict(query, offset=o, limit=limit)
        if fragment:
            q["fragment"] = "rows"
        return e(f"{path}?{urlencode(q)}")
    first, last = (offset + 1, offset + count) if count else (0, 0)
    parts = [f'<nav class="pager" id="list-pager" aria-label="Pages" data-first="{first}" data-last="{last}" data-total="{total}">']
    if offset > 0:
        parts.append(f'<a rel="prev" href="{href(max(0, offset - limit))}">Previous</a> ')
    parts.append(f'<span aria-current="page">Rows {fmt(first)}–{fmt(last)} of {fmt(total)}</span>')
    if offset + count < total:
        parts.append(f' <a class="load-more" rel="next" href="{href(offset + count)}" '
                     f'data-fragment-url="{href(offset + count, True)}">Load more</a>')
    parts.append("</nav>")
    return "".join(parts)


def page(title: str, body: str, main_class: str = "table-view", main_attrs: str = "", current: str = "") -> str:
    mark = ' aria-current="page"'
    nav = "<ul>" + "".join(f'<li><a href="{h}"{mark if h == current else ""}>{t}</a></li>' for h, t in NAV) + "</ul>"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)} · Cellar</title><link rel="stylesheet" href="/static/app.css"><link rel="icon" href="/static/favicon.svg" type="image/svg+xml"><script src="/static/app.js" defer></script></head>
<body><a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><a class="brand" href="/">Cellar</a><nav aria-label="Lists">{nav}</nav></header>
<main id="main" class="{main_class}"{main_attrs}>
<h1>{e(title)}</h1>
{body}
</main>
<footer class="site-footer"><p>Rendered by Cellar with recycled cells.</p></footer></body></html>
"""


LIVE = '<p id="live" class="visually-hidden" role="status" aria-live="polite"></p>'


# ---------------------------------------------------------------- lists

def clamp_paging(query, default=50, maximum=500):
    try:
        offset = max(0, int(query.get("offset", 0)))
        limit = int(query.get("limit", default))
    except ValueError:
        raise BadRequest("offset and limit must be whole numbers")
    return offset, min(max(1, limit), maximum)


class BadRequest(Exception):
    pass


class Redirect(Exception):
    pass


def list_people(q):
    total = 10_000
    offset, limit = clamp_paging(q)
    ids = range(offset + 1, min(total, offset + limit) + 1)
    rows = [person_cell(person(i)) for i in ids]
    return "People", [section(0, rows, "Everyone", f"{fmt(total)} people")], (offset, limit, len(rows), total), ""


def list_settings(q):
    sections = [
        section(0, [toggle_cell("wifi", "Wi-Fi", True), toggle_cell("bluetooth", "Bluetooth", False),
                    value_cell("network", "Network", "Cellar-5G")], "Connectivity",
                "Wi-Fi is used for syncing the catalog."),
        section(1, [value_cell("theme", "Appearance", "Automatic"), value_cell("text-size", "Text size", "Default"),
                    toggle_cell("reduce-motion", "Reduce motion", False)], "Display",
                "Appearance follows the system setting."),
        section(2, [link_cell("about", "About Cellar", "/settings/about"), value_cell("version", "Version", "1.0.0")]),
    ]
    return "Settings", sections, (0, 8, 8, 8), ""


def list_catalog(q):
    term = q.get("q", "").strip()
    products = PRODUCTS
    extra = ""
    if term:
        matches = [p for p in PRODUCTS if term.lower() in p[1].lower()]
        if len(matches) == 1:
            raise Redirect(f"/catalog/{matches[0][0]}")
        if matches:
            products = matches
        else:
            extra = f'<div class="alert alert-warning" role="alert">No product matches “{e(term)}”. Showing all products.</div>\n'
    form = ('<form class="search" role="search" method="get" action="/catalog"><label for="q">Search the catalog</label>'
            f'<input type="search" id="q" name="q" value="{e(term)}"><button type="submit">Search</button></form>')
    sections = [section(0, [product_cell(p) for p in products], "Products", f"{len(products)} products"),
                section(1, [note_cell("shipping", "Shipping", "Orders ship within two working days."),
                            note_cell("returns", "Returns", "")], "Notes")]
    return "Catalog", sections, (0, len(products), len(products), len(products)), extra + form


def list_xss(q):
    total = len(PAYLOADS)
    offset, limit = clamp_paging(q)
    rows = []
    for i in range(offset, min(total, offset + limit)):
        rows.append(f'<li class="cell subtitle" id="row-{i}"><a class="cell-link" href="/xss/{i}">'
                    f'<span class="cell-title">{e(PAYLOADS[i])}</span> <span class="cell-subtitle">{e(PAYLOADS[i])}</span></a></li>')
    return "Hostile data", [section(0, rows, "Payloads", f"{total} payloads")], (offset, limit, len(rows), total), ""


def list_big(q):
    total = 100_000
    offset, limit = clamp_paging(q, 100, 1000)
    rows = [f'<li class="cell index" id="row-{i}"><span class="cell-title">Row {fmt(i)}</span> '
            f'<span class="cell-detail">#{i}</span></li>' for i in range(offset + 1, min(total, offset + limit) + 1)]
    return "Big list", [section(0, rows)], (offset, limit, len(rows), total), ""


def list_reports(q):
    offset, limit = clamp_paging(q, 20, 100)
    rows = [value_cell(f"r{i}", f"Report {i}", f"{i * 37 % 500} bottles") for i in range(offset + 1, min(60, offset + limit) + 1)]
    return "Reports", [section(0, rows, "Inventory", "Counted just now")], (offset, limit, len(rows), 60), ""


LISTS = {"reports": list_reports, "people": list_people, "settings": list_settings, "catalog": list_catalog, "xss": list_xss, "big": list_big}


def detail(name: str, rid: str):
    if name == "people" and rid.isdigit() and 1 <= int(rid) <= 10_000:
        p = person(int(rid))
        fields = [("Name", p["name"]), ("Role", p["role"]), ("Email", p["email"]), ("Bio", p["bio"])]
        back = ("/people", "People")
    elif name == "catalog" and rid.isdigit() and 1 <= int(rid) <= len(PRODUCTS):
        _, pname, price = PRODUCTS[int(rid) - 1]
        fields = [("Name", pname), ("Price", f"€{price}"), ("Item", f"#{rid}")]
        back = ("/catalog", "Catalog")
    elif name == "xss" and rid.isdigit() and int(rid) < len(PAYLOADS):
        fields = [("Payload", PAYLOADS[int(rid)])]
        back = ("/xss", "Hostile data")
    else:
        return None
    title = fields[0][1]
    dl = "".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in fields)
    body = f'<dl class="detail">{dl}</dl><p><a href="{back[0]}">Back to {e(back[1])}</a></p>'
    return page(title, body, "detail-view", current=back[0])


def home() -> str:
    rows = [link_cell(h.strip("/"), t, h) for h, t in NAV + [("/xss", "Hostile data")]]
    return page("Cellar", section(0, rows, "Lists", "Every list is also JSON: add .json or send Accept: application/json."))


def error_page(status: int, message: str) -> str:
    body = f'<p>{e(message)}</p><p><a href="/">Go to the start page</a></p>'
    return page(f"{status} {'Not found' if status == 404 else 'Bad request'}", body, "error-page")


# ---------------------------------------------------------------- HTTP

class Handler(BaseHTTPRequestHandler):
    server_version = "cellar-mock"

    def log_message(self, fmt_, *args):
        if self.server.verbose:
            super().log_message(fmt_, *args)

    def send(self, status: int, body: str | bytes, ctype="text/html; charset=utf-8", headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        url = urlsplit(self.path)
        q = {k: v[-1] for k, v in parse_qs(url.query).items()}
        parts = [p for p in url.path.split("/") if p]
        try:
            if url.path == "/":
                return self.send(200, home())
            if url.path == "/healthz":
                return self.send(200, "ok\n", "text/plain")
            if parts and parts[0] == "static" and len(parts) >= 2:
                return self.static("/".join(parts[1:]))
            name = parts[0] if parts else ""
            as_json = name.endswith(".json") or "application/json" in self.headers.get("Accept", "")
            name = name.removesuffix(".json")
            if name in LISTS and len(parts) == 1:
                return self.list_response(name, q, url.path, as_json)
            if name in LISTS and len(parts) == 2:
                html = detail(name, parts[1])
                if html:
                    return self.send(200, html)
            self.send(404, error_page(404, f"There is nothing at {url.path}."))
        except Redirect as r:
            self.send(303, "", headers=[("Location", str(r))])
        except BadRequest as b:
            self.send(400, error_page(400, str(b)))

    def list_response(self, name, q, path, as_json):
        title, sections, (offset, limit, count, total), extra = LISTS[name](q)
        query = {k: v for k, v in q.items() if k in ("q",)}
        nav = pager("/" + name, offset, limit, count, total, query)
        if as_json:
            return self.send(200, json.dumps(self.to_json(name, q)), "application/json")
        if q.get("fragment") == "rows" or self.headers.get("HX-Request") == "true":
            return self.send(200, "\n".join(sections) + "\n" + nav + "\n")
        attrs = ' data-list="%s"' % name + (" data-infinite-scroll" if name == "big" else "")
        if name == "reports":  # a list that shows a loading placeholder first, as the real /reports does
            src = e(f"/reports?offset={offset}&limit={limit}&fragment=rows")
            sections = [f'<div class="loading" aria-busy="true" data-loading-src="{src}"><p>Counting the bottles…</p>'
                        f'<noscript><p><a href="{src}">Show the rows</a></p></noscript></div>']
        body = extra + "\n".join(sections) + "\n" + nav + "\n" + LIVE
        self.send(200, page(title, body, "table-view", attrs, current="/" + name))

    @staticmethod
    def to_json(name, q):
        if name == "catalog":
            rows = [{"id": pid, "cell": "ProductCell", "title": t, "price": p} for pid, t, p in PRODUCTS]
            return {"title": "Catalog", "sections": [{"header": "Products", "footer": None, "rows": rows}],
                    "meta": {"offset": 0, "limit": len(rows), "total": len(rows)}}
        return {"title": name, "sections": [], "meta": {}}

    def static(self, rel):
        root = os.path.realpath(PUBLIC)
        path = os.path.realpath(os.path.join(root, rel))
        ctype = mimetypes.guess_type(path)[0] or "application/octet-stream"
        if ctype.startswith("text/") or ctype.endswith(("javascript", "svg+xml")):
            ctype += "; charset=utf-8"
        if not os.path.lexists(os.path.join(root, rel)) and rel in BUILT_IN:
            return self.send(200, built_in(rel).encode(), ctype, headers=[("Cache-Control", "no-cache")])
        if not path.startswith(root + os.sep) or not os.path.isfile(path):
            return self.send(404, error_page(404, "No such file."))
        with open(path, "rb") as f:
            self.send(200, f.read(), ctype, headers=[("Cache-Control", "no-cache")])


def built_in(name: str) -> str:
    """The text of a built-in file as the server sends it: for app.css and app.js, every part in its order."""
    names = [name]
    if name in ("app.css", "app.js"):
        extension = os.path.splitext(name)[1]
        names += sorted(n for n in os.listdir(ASSETS) if n.startswith("app+") and n.endswith(extension))
    text = ""
    for part in names:
        with open(os.path.join(ASSETS, part), encoding="utf-8") as f:
            text += f.read()
    return text


def write_fixtures(directory: str):
    os.makedirs(directory, exist_ok=True)
    title, sections, (offset, limit, count, total), extra = list_people({})
    nav = pager("/people", offset, limit, count, total, {})
    # The static fixture points "Load more" at the fragment file so it works under http.server.
    nav = nav.replace("/people?offset=50&amp;limit=50&amp;fragment=rows", "people-fragment.html")
    body = "\n".join(sections) + "\n" + nav + "\n" + LIVE
    with open(os.path.join(directory, "people.html"), "w") as f:
        f.write(page(title, body, "table-view", ' data-list="people"', current="/people"))
    _, sections, (offset, limit, count, total), _ = list_people({"offset": "50"})
    with open(os.path.join(directory, "people-fragment.html"), "w") as f:
        f.write("\n".join(sections) + "\n" + pager("/people", offset, limit, count, total, {}) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8098)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--write-fixtures", metavar="DIR")
    args = parser.parse_args()
    if args.write_fixtures:
        write_fixtures(args.write_fixtures)
        return
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.verbose = args.verbose
    print(f"mock Cellar on http://{args.host}:{server.server_port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
