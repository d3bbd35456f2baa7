#!/usr/bin/env python3
"""Medians of Cellar's ratios to its peers over several side-by-side runs, and the bar.

Each side-by-side run (../shared/peers/run.sh) measures every server once and writes a results
file whose ratios are only comparable within that run. On this shared machine one run's ratios
swing by a fifth from the next run's, so `make bench` runs it several times and this script
reads the results files and reports, per endpoint and peer, the median of the per-run ratios
(with the lowest and highest), the median p99 ratio, the errors and Cellar's peak RSS, and
whether issue #6's bar is met against c-mhd:

    Benchmarks/ratios.py .build/listbench/results-A.md .build/listbench/results-B.md ...
    Benchmarks/ratios.py --self-test

The bar: Cellar >= 0.8x c-mhd's req/s on the four list endpoints and >= 0.9x on /healthz
(against /hello), p99 <= 2x c-mhd's on each, 0 errors, peak RSS <= 64 MiB.
"""

import re
import statistics
import sys
import tempfile
from pathlib import Path

# The workload's endpoint names (as run.sh prints them for every peer) and what they are.
ENDPOINTS = [
    ("/hello", "`/healthz` vs `/hello`", 0.9),
    ("/people?limit=100", "HTML, 100 rows", 0.8),
    ("/people?limit=10000", "HTML, 10,000 rows", 0.8),
    ("/api/people?limit=100", "JSON, 100 rows", 0.8),
    ("/api/people?limit=10000", "JSON, 10,000 rows", 0.8),
]
P99_BAR = 2.0
RSS_BAR_MIB = 64.0
UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0}


class ResultsError(Exception):
    pass


def seconds(text):
    match = re.fullmatch(r"([0-9.]+)(us|ms|s)", text.strip())
    if not match:
        raise ResultsError(f"not a latency: {text!r}")
    return float(match.group(1)) * UNITS[match.group(2)]


def parse(path):
    """{peer: {endpoint: (req/s, p99 seconds, errors, peak RSS MiB or None)}} from one results file."""
    rows = {}
    in_table = False
    for line in Path(path).read_text().splitlines():
        if line.startswith("## "):
            in_table = line.strip() == "## Throughput and latency"
            continue
        if not in_table or not line.startswith("| ") or line.startswith("| peer "):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 9:
            continue
        peer, endpoint = cells[0], cells[1].strip("`")
        try:
            rps = float(cells[2])
            p99 = seconds(cells[4])
            errors = int(cells[7])
        except (ValueError, ResultsError):
            continue  # a peer that was not measured ("-")
        rss = float(cells[8]) if re.fullmatch(r"[0-9.]+", cells[8]) else None
        rows.setdefault(peer, {})[endpoint] = (rps, p99, errors, rss)
    if "cellar" not in rows:
        raise ResultsError(f"{path}: no Cellar rows in its 'Throughput and latency' table")
    return rows


def ratio_text(values):
    middle = statistics.median(values)
    if len(values) == 1:
        return f"{middle:.2f}×"
    return f"{middle:.2f}× ({min(values):.2f}–{max(values):.2f})"


def summarise(paths):
    """The markdown summary and whether the bar is met against c-mhd in the medians."""
    runs = [parse(path) for path in paths]
    peers = []
    for run in runs:
        for peer in run:
            if peer != "cellar" and peer not in peers:
                peers.append(peer)
    out = [f"## Medians over {len(runs)} side-by-side run{'s' if len(runs) != 1 else ''}", ""]
    out.append("Files: " + ", ".join(f"`{Path(p).name}`" for p in paths))
    out.append("")
    header = "| endpoint | Cellar req/s |" + "".join(f" ÷ {peer} |" for peer in peers)
    header += " p99 ÷ c-mhd's | errors | Cellar peak RSS MiB |"
    out.append(header)
    out.append("|---|---:|" + "---:|" * len(peers) + "---:|---:|---:|")
    met = True
    failures = []
    have_cmhd = "c-mhd" in peers
    for endpoint, label, floor in ENDPOINTS:
        cellar = [run["cellar"][endpoint] for run in runs if endpoint in run["cellar"]]
        if not cellar:
            met = False
            failures.append(f"{label}: Cellar not measured")
            continue
        cells = [f"{statistics.median(r[0] for r in cellar):,.0f}"]
        for peer in peers:
            ratios = [
                run["cellar"][endpoint][0] / run[peer][endpoint][0]
                for run in runs
                if endpoint in run["cellar"] and endpoint in run.get(peer, {}) and run[peer][endpoint][0] > 0
            ]
            cells.append(ratio_text(ratios) if ratios else "-")
            if peer == "c-mhd":
                if not ratios or statistics.median(ratios) < floor:
                    met = False
                    failures.append(f"{label}: {ratio_text(ratios) if ratios else 'no ratio'} of c-mhd, the bar is {floor}×")
        p99 = [
            run["cellar"][endpoint][1] / run["c-mhd"][endpoint][1]
            for run in runs
            if endpoint in run["cellar"] and endpoint in run.get("c-mhd", {}) and run["c-mhd"][endpoint][1] > 0
        ]
        cells.append(ratio_text(p99) if p99 else "-")
        if have_cmhd and (not p99 or statistics.median(p99) > P99_BAR):
            met = False
            failures.append(f"{label}: p99 {ratio_text(p99) if p99 else 'not measured'} of c-mhd's, the bar is ≤ {P99_BAR}×")
        errors = sum(r[2] for r in cellar)
        cells.append(str(errors))
        if errors:
            met = False
            failures.append(f"{label}: {errors} errors")
        rss = [r[3] for r in cellar if r[3] is not None]
        cells.append(f"{max(rss):.1f}" if rss else "-")
        if rss and max(rss) > RSS_BAR_MIB:
            met = False
            failures.append(f"{label}: peak RSS {max(rss):.1f} MiB, the bar is ≤ {RSS_BAR_MIB:.0f} MiB")
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out.append("")
    out.append(
        "Each ratio is the median of the per-run ratios (Cellar's req/s ÷ the peer's in the same run), "
        "lowest–highest in brackets; req/s and p99 ratios are never taken across runs. "
        "Errors are summed and the peak RSS is the largest, over all runs."
    )
    out.append("")
    if not have_cmhd:
        out.append("Bar (issue #6): not judged, c-mhd was not measured.")
        met = False
    elif met:
        out.append("Bar (issue #6, against c-mhd, in the medians): **met**.")
    else:
        out.append("Bar (issue #6, against c-mhd, in the medians): **not met**:")
        out.extend(f"- {failure}" for failure in failures)
    return "\n".join(out) + "\n", met


SAMPLE = """# listbench results

## Throughput and latency

| peer | endpoint | req/s | p50 | p99 | transfer/s | requests | errors | peak RSS MiB |
|---|---|---:|---:|---:|---:|---:|---:|---:|
| cellar | `/hello` | {h} | 1ms | 2.00ms | 1MB | 1 | 0 | 50.0 |
| cellar | `/people?limit=100` | 900 | 1ms | 3.00ms | 1MB | 1 | 0 | 50.0 |
| cellar | `/people?limit=10000` | 9 | 1ms | 900.00ms | 1MB | 1 | 0 | {rss} |
| cellar | `/api/people?limit=100` | 800 | 1ms | 1.00ms | 1MB | 1 | 0 | 50.0 |
| cellar | `/api/people?limit=10000` | 8 | 1ms | 1.00s | 1MB | 1 | {errors} | 50.0 |
| c-mhd | `/hello` | 1000 | 1ms | 1.00ms | 1MB | 1 | 0 | 20.0 |
| c-mhd | `/people?limit=100` | 1000 | 1ms | 2000us | 1MB | 1 | 0 | 20.0 |
| c-mhd | `/people?limit=10000` | 10 | 1ms | 400.00ms | 1MB | 1 | 0 | 20.0 |
| c-mhd | `/api/people?limit=100` | 1000 | 1ms | 1.00ms | 1MB | 1 | 0 | 20.0 |
| c-mhd | `/api/people?limit=10000` | 10 | 1ms | 1.00s | 1MB | 1 | 0 | 20.0 |
| nginx | `/hello` | - | - | - | - | - | - | - |

## Response check
"""


def self_test():
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for index, (h, rss, errors) in enumerate([(950, "60.0", 0), (850, "63.0", 0), (990, "61.5", 0)]):
            path = Path(folder) / f"results-{index}.md"
            path.write_text(SAMPLE.format(h=h, rss=rss, errors=errors))
            paths.append(str(path))
        text, met = summarise(paths)
        # Medians: /healthz 0.95x (0.85-0.99), HTML 100 rows 0.90x, 10,000 rows 0.90x with p99 2.25x.
        assert "| `/healthz` vs `/hello` | 950 | 0.95× (0.85–0.99) | 2.00× (2.00–2.00) | 0 | 50.0 |" in text, text
        assert "| HTML, 100 rows | 900 | 0.90× (0.90–0.90) | 1.50× (1.50–1.50) | 0 | 50.0 |" in text, text
        assert "| HTML, 10,000 rows | 9 | 0.90× (0.90–0.90) | 2.25× (2.25–2.25) | 0 | 63.0 |" in text, text
        assert "- HTML, 10,000 rows: p99 2.25×" in text and text.count("\n- ") == 1, text
        assert "nginx" not in text, text  # a peer with no numbers adds no column
        assert not met
        # The same runs with the p99 of the large HTML page halved: every median clears the bar.
        for path in paths:
            Path(path).write_text(Path(path).read_text().replace("900.00ms", "700.00ms"))
        text, met = summarise(paths)
        assert met and "**met**" in text, text
        # One error in one run, or a peak RSS over 64 MiB in one run, fails it again.
        Path(paths[1]).write_text(SAMPLE.format(h=850, rss="63.0", errors=1).replace("900.00ms", "700.00ms"))
        text, met = summarise(paths)
        assert not met and "JSON, 10,000 rows: 1 errors" in text, text
        Path(paths[1]).write_text(SAMPLE.format(h=850, rss="64.5", errors=0).replace("900.00ms", "700.00ms"))
        text, met = summarise(paths)
        assert not met and "peak RSS 64.5 MiB" in text, text
        # A file that is not a results file is an error, not an empty table.
        bad = Path(folder) / "bad.md"
        bad.write_text("# nothing here\n")
        try:
            summarise([str(bad)])
        except ResultsError:
            pass
        else:
            raise AssertionError("a file without Cellar rows was accepted")
    print("ratios.py self-test: ok")


def main(argv):
    if argv[1:] == ["--self-test"]:
        self_test()
        return 0
    if len(argv) < 2 or argv[1].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        text, _ = summarise(argv[1:])
    except (OSError, ResultsError) as error:
        print(f"ratios.py: {error}", file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
