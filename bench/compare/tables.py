#!/usr/bin/env python3
"""The Markdown tables of bench_compare's JSON results (docs/bench/compare_np*.json).

The JSON is the one stored form of a comparison run; docs/performance.md
shows these tables (bench/compare/run.sh puts them there).  Two tables per
file: the redistributions (distarray's plan against the peers; each peer
column is peer time / distarray time, a column of several methods takes its
fastest) and the ScaLAPACK routines (peer time / distarray's drop-in).
    bench/compare/tables.py docs/bench/compare_np2.json ...
"""
import json
import sys

PEERS = [("FFTW-MPI", ["fftw-mpi"]), ("heFFTe", ["heffte-alltoallv", "heffte-p2p", "heffte-p2p-plined"]),
         ("pdgemr2d", ["pdgemr2d"]), ("COSTA", ["costa-transform"]), ("Alltoallw", ["alltoallw", "alltoallw-vector"])]
ROUTINES = [("ScaLAPACK", ["scalapack"]), ("COSTA wrapper", ["costa-wrapper"])]


def cell(row, methods):
    """A peer column's cell: its fastest method's time over the row's base time, or why there is none."""
    times = [row["seconds"][m] for m in methods if m in row["seconds"]]
    listed = lambda key: any(m in row[key] for m in methods)
    if times:
        return "%.2f%s" % (min(times) / row["seconds"][row["base"]], "*" if listed("wrong") else "")
    if listed("wrong"):
        return "wrong"
    if listed("not_built"):
        return "not built"
    if listed("crashes"):
        return "crashes"
    return "-"


def head(row):
    size_type = "%d^2 | %s" % (row["n"], "f64" if row["type"] == "double" else "c128")
    return "| %s | %d | %s |" % (row["case"], row["ranks"], size_type)


def tables(results):
    rows = [r for r in results["cases"] if r["base"] == "distarray"]
    routines = [r for r in results["cases"] if r["base"] != "distarray"]
    out = ["| case | ranks | size | type | distarray ms | plan ms |" + "".join(" %s |" % t for t, _ in PEERS) +
           " distarray / floor |", "|---|---|---|---|---|---|" + "---|" * len(PEERS) + "---|"]
    for r in rows:
        s = r["seconds"]
        out.append(head(r) + " %.3f | %.2f |" % (s["distarray"] * 1e3, r["distarray_stages"]["plan"] * 1e3) +
                   "".join(" %s |" % cell(r, m) for _, m in PEERS) + " %.2f |" % (s["distarray"] / s["floor"]))
    out += ["", "| routine, case | ranks | size | type | drop-in ms |" + "".join(" %s |" % t for t, _ in ROUTINES),
            "|---|---|---|---|---|" + "---|" * len(ROUTINES)]
    for r in routines:
        out.append(head(r) + " %.3f |" % (r["seconds"][r["base"]] * 1e3) +
                   "".join(" %s |" % cell(r, m) for _, m in ROUTINES))
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    for i, path in enumerate(sys.argv[1:]):
        with open(path) as f:
            sys.stdout.write(("\n" if i else "") + tables(json.load(f)))
