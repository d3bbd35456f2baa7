#!/usr/bin/env python3
"""Allocations a request, from the two callgrind outputs instructions-per-request.sh keeps:

    KEEP=DIR Benchmarks/tools/instructions-per-request.sh BINARY PATH 300
    Benchmarks/tools/mallocs-per-request.py DIR/300.out DIR/600.out 300

Prints the calls to malloc, calloc, realloc, posix_memalign and free a request (the second run's
less the first's, divided by the requests), counted from callgrind's `calls=` lines in the threads
the server starts, as the instruction counts are.
"""
import re
import sys

NAMES = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign", "free"}


def calls(path):
    names, totals, callee = {}, {}, None
    for line in open(path, errors="replace"):
        # `fn=(id) name` and `cfn=(id) name` name a function the first time, `(id)` alone after.
        match = re.match(r"(c?)fn=\((\d+)\)(?: (.*))?", line)
        if match:
            if match.group(3):
                names[match.group(2)] = match.group(3).strip()
            callee = names.get(match.group(2)) if match.group(1) else None
            continue
        match = re.match(r"calls=(\d+)", line)
        if match and callee is not None:
            name = callee.split("'")[0]
            if name in NAMES:
                totals[name] = totals.get(name, 0) + int(match.group(1))
            callee = None
    return totals


if len(sys.argv) != 4:
    sys.exit(__doc__)
first, second, requests = calls(sys.argv[1]), calls(sys.argv[2]), int(sys.argv[3])
print(" ".join(f"{name}={(second.get(name, 0) - first.get(name, 0)) / requests:.2f}" for name in sorted(set(first) | set(second))))
