#!/usr/bin/env python3
"""The tables of the stored benchmark records, made from them and only them.

A Markdown file marks where a table goes:
    <!-- table: bench/plan_build_np4.json -->
    ...generated: when and how the records were measured, then the table...
    <!-- end table -->
(the records' paths relative to that file; several records of one bench make
one table, e.g. pack kernels at 1 and 2 threads); `summary table:` marks a
bench's shorter table.  bench/record_tables.py makes each bench's tables.
A figure of comparison records (bench/figures.py) is marked the same way:
    <!-- figure: bench/compare_np4.json -> figures/compare_np4.svg -->
    ![its title](figures/compare_np4.svg)
    <!-- end figure -->

    bench/tables.py docs/bench/X.json ...         print the records' table
    bench/tables.py --update FILE.md   rewrite every marked table of FILE.md
                                       and draw its figures (matplotlib)
    bench/tables.py --check FILE.md    exit 1 where a marked table, or the
                                       points a figure holds, differ from
                                       their records (no matplotlib needed)
"""
import json
import os
import re
import sys

import figures
import record_tables

BLOCK = re.compile(r"(<!-- (table|summary table): ([^>]*?) -->\n)(.*?)(<!-- end table -->)", re.S)
FIGURE = re.compile(r"(<!-- figure: ([^>]*?) -> ([^>]*?) -->\n)(.*?)(<!-- end figure -->)", re.S)


def provenance(record):
    """When and how a record was measured, from the record itself."""
    if "context" in record:  # Google Benchmark's own
        return "%s: `%s`" % (record["context"]["date"][:10], record["context"]["executable"])
    if "date" not in record:
        return None
    launch = "mpiexec -n %d " % record["ranks"] if record["ranks"] > 1 else ""
    on = " (%s)" % record_tables.executor(record) if "threads" in record else ""
    return "%s%s: `%s%s`" % (record["date"], on, launch, record["command"])


def table(paths, kinds=record_tables.TABLES):
    records = []
    for path in paths:
        with open(path) as f:
            records.append(json.load(f))
    benches = {record_tables.bench_of(r) for r in records}
    if len(benches) != 1:
        raise ValueError("one table takes records of one bench, not %s" % sorted(benches))
    made = [p for p in map(provenance, records) if p]
    lines = ["Measured " + "; ".join(made) + ".", ""] if made else []
    return "\n".join(lines + kinds[benches.pop()](records)) + "\n"


def blocks_made(text, folder):
    """`text` with every marked table made again from its records."""
    def made(match):
        paths = [os.path.join(folder, p) for p in match.group(3).split()]
        kinds = record_tables.SUMMARIES if match.group(2) == "summary table" else record_tables.TABLES
        return match.group(1) + table(paths, kinds) + match.group(5)
    return BLOCK.sub(made, text)


def figures_made(text, folder, draw):
    """`text` with every marked figure's image line made again; draw: the SVGs too.
    Returns the text and the figures whose SVG is missing or holds other points."""
    stale = []

    def made(match):
        records = figures.load([os.path.join(folder, p) for p in match.group(2).split()])
        svg = os.path.join(folder, match.group(3))
        if draw:
            os.makedirs(os.path.dirname(svg), exist_ok=True)
            figures.draw(records, svg)
        shown, title = figures.points(records)
        if not os.path.exists(svg) or figures.drawn(svg) != shown:
            stale.append(match.group(3))
        return match.group(1) + "![%s](%s)\n" % (title, match.group(3)) + match.group(5)
    return FIGURE.sub(made, text), stale


def check_or_update(mode, path):
    with open(path) as f:
        text = f.read()
    folder = os.path.dirname(os.path.abspath(path))
    made, stale = figures_made(blocks_made(text, folder), folder, draw=mode == "--update")
    if mode == "--check":
        if made != text or stale:
            sys.stderr.write("%s: %s differ from the records (bench/tables.py --update %s)\n"
                             % (path, ", ".join(stale) or "a table or an image line", path))
            return 1
        print("%s: %d tables and %d figures match their records"
              % (path, len(BLOCK.findall(text)), len(FIGURE.findall(text))))
    elif made != text:
        with open(path, "w") as f:
            f.write(made)
    return 0


def main(argv):
    if len(argv) == 2 and argv[0] in ("--update", "--check"):
        return check_or_update(*argv)
    if not argv or argv[0].startswith("--"):
        sys.stderr.write(__doc__)
        return 2
    sys.stdout.write(table(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
