#!/usr/bin/env python3
"""Parses an HTML fragment the way a browser does and prints its tree as JSON.

Used by HostileDataTests.swift: the Swift test renders a table into a file, runs
`python3 parse_html.py FILE`, and checks the tree, so escaping is judged by an
HTML5 parser (html5lib implements the WHATWG parsing algorithm), not by string
comparison.

Output: {"tag": "#fragment", "attributes": {}, "text": "", "children": [...]}, where
every element is {"tag", "attributes", "text", "children"}: `text` is the element's
own text nodes joined (not its descendants'), and comments are {"tag": "#comment", ...}.
Exit status 2 with a message on stderr when html5lib is missing.
"""

import json
import sys

try:
    import html5lib
except ImportError:
    sys.stderr.write(
        "parse_html.py needs the Python package html5lib, which is not installed for "
        f"{sys.executable}. Install it with `make` or `python3 -m pip install html5lib`.\n"
    )
    sys.exit(2)


def node(element):
    if not isinstance(element.tag, str):  # ElementTree comments have a function as their tag
        return {"tag": "#comment", "attributes": {}, "text": element.text or "", "children": []}
    texts = [element.text or ""]
    children = []
    for child in element:
        children.append(node(child))
        texts.append(child.tail or "")
    tag = "#fragment" if element.tag == "DOCUMENT_FRAGMENT" else element.tag
    return {"tag": tag, "attributes": dict(element.attrib), "text": "".join(texts), "children": children}


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: parse_html.py FILE\n")
        sys.exit(64)
    with open(sys.argv[1], "rb") as file:
        source = file.read().decode("utf-8")
    fragment = html5lib.parseFragment(source, container="div", treebuilder="etree", namespaceHTMLElements=False)
    json.dump(node(fragment), sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
