#!/usr/bin/env python3
"""Static safety check of Cellar's HTML: nothing in the markup can run script or load
something it should not, and (optionally) every hostile string survived as plain text.

    check_markup.py page.html other.html            # files
    check_markup.py --base-url http://127.0.0.1:8080 /people '/xss?limit=500'   # paths
    check_markup.py http://127.0.0.1:8080/people     # URLs
    curl -s URL | check_markup.py -                  # stdin
    check_markup.py --expect-text xss_payloads.json --base-url URL '/xss?limit=1000'

With --expect-text, every string in the JSON array must appear in the text content of at
least one of the inputs (compared after the normalisation an HTML parser applies anyway:
CR/CRLF -> LF, and C0 controls, noncharacters and U+FFFD dropped on both sides).

Library use: ``check(html, expected_texts=()) -> list[str]`` returns the problems found.
Needs: pip html5lib.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import urllib.error
import urllib.request
from typing import Iterable

import html5lib

ALLOWED_SCRIPT = {"src": "/static/app.js", "defer": ""}
FORBIDDEN_ELEMENTS = {"iframe", "frame", "frameset", "object", "embed", "applet", "base", "style",
                      "svg", "math", "portal", "fencedframe", "xmp", "plaintext", "noembed", "listing"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "poster", "data", "background",
                  "cite", "longdesc", "usemap", "manifest", "ping", "codebase", "archive", "lowsrc",
                  "dynsrc", "profile", "icon", "srcset", "imagesrcset"}
SAFE_SCHEMES = {"http", "https", "mailto"}
FORBIDDEN_ATTRIBUTES = {"style", "srcdoc"}
ATTRIBUTE_NAME = re.compile(r"^[a-z][a-z0-9_.:-]*$")
SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):")
# What browsers ignore when they look for a URL's scheme: leading/trailing C0 controls and
# spaces, and tab/CR/LF anywhere. We also drop the invisible characters people smuggle in.
_URL_JUNK = re.compile("[\x00-\x20\x7f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
_TEXT_JUNK = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f\ufdd0-\ufdef\ufffd\ufffe\uffff]")


def _tag(element) -> str:
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag.rsplit("}", 1)[-1].lower()


def _describe(element) -> str:
    attrs = " ".join(f'{k}="{v}"' for k, v in list(element.attrib.items())[:4])
    text = f"<{_tag(element)}{' ' + attrs if attrs else ''}>"
    return text if len(text) <= 160 else text[:157] + "..."


def unsafe_scheme(value: str, srcset: bool = False) -> str | None:
    """The scheme of a URL attribute value if it is not http(s)/mailto/relative, else None."""
    candidates = [part.split()[0] for part in value.split(",") if part.split()] if srcset else [value]
    for candidate in candidates:
        match = SCHEME.match(_URL_JUNK.sub("", candidate).lower())
        if match and match.group(1) not in SAFE_SCHEMES:
            return match.group(1)
    return None


def _normalise_text(text: str) -> str:
    return _TEXT_JUNK.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def parse(html: str):
    return html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)


def text_content(document) -> str:
    """All text, as a browser's textContent of the document would give it."""
    return "".join(document.itertext())


def check(html: str, expected_texts: Iterable[str] = ()) -> list[str]:
    """Problems found in one HTML document or fragment (an empty list when it is clean)."""
    document = parse(html)
    return _check_tree(document) + missing_texts(text_content(document), expected_texts)


def missing_texts(text: str, expected_texts: Iterable[str]) -> list[str]:
    haystack = _normalise_text(text)
    problems = []
    for expected in expected_texts:
        needle = _normalise_text(expected)
        if needle.strip() and needle not in haystack:
            problems.append(f"payload not found as text: {expected[:80]!r}")
    return problems


def _check_tree(document) -> list[str]:
    problems = []
    for element in document.iter():
        tag = _tag(element)
        if not tag:
            continue  # comments
        where = _describe(element)
        if tag == "script":
            attrs = {k.lower(): v for k, v in element.attrib.items()}
            if attrs != ALLOWED_SCRIPT or (element.text or "").strip():
                problems.append(f"script element other than <script src=\"/static/app.js\" defer>: {where}")
        if tag in FORBIDDEN_ELEMENTS:
            problems.append(f"forbidden element <{tag}>: {where}")
        if tag == "meta" and any(k.lower() == "http-equiv" for k in element.attrib):
            problems.append(f"<meta http-equiv>: {where}")
        if tag == "link":
            rel = element.attrib.get("rel", "").lower().split()
            if not set(rel) <= {"stylesheet", "icon", "alternate", "canonical", "prev", "next", "preload", "manifest"}:
                problems.append(f"unexpected <link rel>: {where}")
        for name, value in element.attrib.items():
            key = name.lower() if isinstance(name, str) else str(name)
            if key.startswith("on"):
                problems.append(f"event-handler attribute {key}: {where}")
            elif not ATTRIBUTE_NAME.match(key):
                problems.append(f"malformed attribute name {key!r} (broken escaping?): {where}")
            if key in FORBIDDEN_ATTRIBUTES:
                problems.append(f"forbidden attribute {key}: {where}")
            if key in URL_ATTRIBUTES:
                scheme = unsafe_scheme(value, srcset=key.endswith("srcset"))
                if scheme:
                    problems.append(f"{key} with {scheme}: URL: {where}")
    return problems


def fetch(url: str) -> str:
    request = urllib.request.Request(url, headers={"Accept": "text/html"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.read().decode("utf-8", errors="replace")
    except urllib.error.HTTPError as error:  # error pages must be safe too
        return error.read().decode("utf-8", errors="replace")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="*", help="files, URLs, paths (with --base-url), or - for stdin")
    parser.add_argument("--base-url", help="prefix for inputs that start with /")
    parser.add_argument("--expect-text", metavar="FILE", help="JSON array of strings that must appear as text")
    args = parser.parse_args(argv)
    inputs = args.inputs or ["-"]
    expected = []
    if args.expect_text:
        with open(args.expect_text, encoding="utf-8") as f:
            expected = json.load(f)
    failures = 0
    all_text = []
    for item in inputs:
        try:
            if item == "-":
                name, html = "<stdin>", sys.stdin.read()
            elif item.startswith(("http://", "https://")):
                name, html = item, fetch(item)
            elif item.startswith("/") and args.base_url:
                name = args.base_url.rstrip("/") + item
                html = fetch(name)
            else:
                name = item
                with open(item, encoding="utf-8") as f:
                    html = f.read()
        except (OSError, urllib.error.URLError) as error:
            print(f"FAIL {item}: cannot read: {error}")
            failures += 1
            continue
        document = parse(html)
        all_text.append(text_content(document))
        problems = _check_tree(document)
        status = "FAIL" if problems else "ok  "
        print(f"{status} {name} ({len(html):,} bytes)")
        for problem in problems:
            print(f"     - {problem}")
        failures += bool(problems)
    if expected:
        missing = missing_texts("\n".join(all_text), expected)
        print(f"{'FAIL' if missing else 'ok  '} {len(expected) - len(missing)}/{len(expected)} payloads found as text")
        for problem in missing[:50]:
            print(f"     - {problem}")
        if len(missing) > 50:
            print(f"     ... and {len(missing) - 50} more")
        failures += bool(missing)
    print(f"check_markup: {len(inputs)} input(s), {failures} failing")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
