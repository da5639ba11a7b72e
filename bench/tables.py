#!/usr/bin/env python3
"""The tables of the stored benchmark records, made from them and only them.

A Markdown file marks where a table goes:
    <!-- table: bench/plan_build_np4.json -->
    ...generated: when and how the records were measured, then the table...
    <!-- end table -->
(the records' paths relative to that file; several records of one bench make
one table, e.g. pack kernels at 1 and 2 threads); `summary table:` marks a
bench's shorter table.  bench/record_tables.py makes each bench's tables.

    bench/tables.py docs/bench/X.json ...         print the records' table
    bench/tables.py --update FILE.md   rewrite every marked table of FILE.md
    bench/tables.py --check FILE.md    exit 1 where a marked table differs
                                       from its records
"""
import json
import os
import re
import sys

import record_tables

BLOCK = re.compile(r"(<!-- (table|summary table): ([^>]*?) -->\n)(.*?)(<!-- end table -->)", re.S)


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


def main(argv):
    if len(argv) == 2 and argv[0] in ("--update", "--check"):
        with open(argv[1]) as f:
            text = f.read()
        made = blocks_made(text, os.path.dirname(os.path.abspath(argv[1])))
        if argv[0] == "--check":
            if made != text:
                sys.stderr.write("%s: a table differs from its records (bench/tables.py --update %s)\n"
                                 % (argv[1], argv[1]))
                return 1
            print("%s: %d tables match their records" % (argv[1], len(BLOCK.findall(text))))
        elif made != text:
            with open(argv[1], "w") as f:
                f.write(made)
        return 0
    if not argv or argv[0].startswith("--"):
        sys.stderr.write(__doc__)
        return 2
    sys.stdout.write(table(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
