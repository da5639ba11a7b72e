"""The Markdown table of each benchmark's stored record (docs/bench/*.json).

A record is what support/json_record.hpp writes: {"bench", "command",
"ranks", "date", notes..., "rows": [...]}; three other shapes are read too:
Google Benchmark's JSON (bench_schedule_build), bench_strategy_choice's, and
the report of `distarray redist --json`.
TABLES maps a record's bench to the function that makes its table from one
or more records of that bench, SUMMARIES to a shorter one (bench/tables.py
puts them into the docs).  bench_compare's own tables are
bench/compare/tables.py's; its summary is compare_summary.py's.
"""

from compare_summary import compare_summary
from md_table import header, line


def gbps(nbytes, seconds):
    return nbytes / seconds / 1e9


def schedule_build(records):
    """RemoteGrid: one rank's 1-D schedule build against the remote process count R."""
    (record,) = records
    times = {}
    for b in record["benchmarks"]:
        family, method, remote = b["name"].split("/")
        if family == "RemoteGrid":
            scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3}[b["time_unit"]]
            times.setdefault(method, {})[int(remote)] = b["real_time"] * scale

    def shown(us):
        return "%.3g ms" % (us / 1e3) if us >= 1e3 else "%.3g us" % us

    counts = (10, 10_000, 1_000_000)
    out = header(["schedule build, one rank (RemoteGrid, fixed output)"] +
                 ["R = %s" % (r if r < 1000 else "10^%d" % (len(str(r)) - 1)) for r in counts])
    for method, by_r in times.items():
        out.append(line([method] + [shown(by_r[r]) if r in by_r else "-" for r in counts]))
    return out


def executor(record):
    """What ran a kernel record: its thread count on a host backend, else the backend (a GPU's)."""
    if record.get("space", "OpenMP") in ("Serial", "OpenMP", "Threads"):
        return "%d thread%s" % (record["threads"], "" if record["threads"] == 1 else "s")
    return record["space"]


def pack_kernels(records):
    """Pack and unpack GB/s per thread count, against a copy of the same bytes in the same run."""
    by_threads = sorted(records, key=lambda r: r["threads"])
    cases = [row["case"] for row in by_threads[0]["rows"]]
    cells = ["kernel"]
    for r in by_threads:
        cells.append("%s, GB/s (x copy)" % executor(r))
    if len(by_threads) > 1:
        cells.append("%d-thread speed-up" % by_threads[-1]["threads"])
    out = header(cells)
    for case in cases:
        for side in ("pack", "unpack"):
            rows = [next(row for row in r["rows"] if row["case"] == case) for r in by_threads]
            cells = ["%s, %s" % (side, case)]
            cells += ["%.1f (%.2f)" % (gbps(row["bytes"], row[side + "_s"]), row["copy_s"] / row[side + "_s"])
                      for row in rows]
            if len(rows) > 1:
                cells.append("%.2f" % (rows[0][side + "_s"] / rows[-1][side + "_s"]))
            out.append(line(cells))
    return out


def one_rank(records):
    """A one-rank redistribution's execution against one copy of the array, per record (before, after)."""
    cases = [(row["case"], row["type"]) for row in records[0]["rows"]]
    out = header(["case", "type"] + ["%s: ms (x copy)" % r.get("build", "run %d" % i)
                                     for i, r in enumerate(records, 1)])
    for case, kind in cases:
        rows = [next(row for row in r["rows"] if (row["case"], row["type"]) == (case, kind)) for r in records]
        out.append(line([case, kind] + ["%.1f (%.2f)" % (row["execute_s"] * 1e3, row["execute_s"] / row["copy_s"])
                                        for row in rows]))
    return out


def plan_build(records):
    """Plan build ms per case and size: later plans of the process (the first one is above the table)."""
    (record,) = records
    sizes = sorted({row["n"] for row in record["rows"]})
    out = header(["case", "type"] + ["%d^2 ms" % n for n in sizes] + ["chose (largest size)"])
    keys = []
    for row in record["rows"]:
        if (row["case"], row["type"]) not in keys:
            keys.append((row["case"], row["type"]))
    for case, kind in keys:
        rows = {row["n"]: row for row in record["rows"] if (row["case"], row["type"]) == (case, kind)}
        out.append(line([case, kind] + ["%.2f" % (rows[n]["again_s"] * 1e3) if n in rows else "-" for n in sizes]
                        + [rows[max(rows)]["chose"]]))
    return out


def checkpoint_io(records):
    """Save and restore GB/s against the bare HDF5 transfers of the same run; ratio = best bare time / ours."""
    (record,) = records
    nbytes = record["bytes"]
    out = header(["operation", "distarray GB/s", "bare collective", "bare independent", "ratio"])
    for row in record["rows"]:
        if "operation" in row:
            best = min(row["bare_collective_s"], row["bare_independent_s"])
            out.append(line(["`%s`" % row["operation"].strip()] +
                            ["%.2f" % gbps(nbytes, s) for s in
                             (row["seconds"], row["bare_collective_s"], row["bare_independent_s"])] +
                            ["%.2f" % (best / row["seconds"])]))
    out += [""] + header(["deflate(4) with shuffle", "file / data", "save time / uncompressed", "restore GB/s"])
    for row in record["rows"]:
        if "compressed" in row:
            out.append(line([row["compressed"], "%.1f%%" % (100 * row["file_fraction"]),
                             "%.1fx" % (row["save_s"] / row["uncompressed_save_s"]),
                             "%.2f" % gbps(nbytes, row["restore_s"])]))
    return out


def checksum_floor(records):
    """Reads of each rank's file: bare, in bands, in bands hashed; then each hash kernel in cache."""
    (record,) = records
    nbytes = record["bytes"]
    out = header(["read", "bare GB/s", "bands GB/s", "bands + hash GB/s", "bare / (bands + hash)"])
    for row in record["rows"]:
        if "read" in row:
            out.append(line([row["read"]] + ["%.2f" % gbps(nbytes, row[k]) for k in ("bare_s", "bands_s", "bands_hash_s")]
                            + ["%.2f" % (row["bare_s"] / row["bands_hash_s"])]))
    kernels = [row for row in record["rows"] if "kernel" in row]
    out += [""] + header(["hash kernel", "GB/s per rank in cache, %d ranks at once" % record["ranks"]])
    out += [line([row["kernel"], "%.1f" % gbps(row["bytes_per_rank"], row["seconds"])]) for row in kernels]
    return out


def redist_floor(records):
    """Each stage of a plan's execution against one bare MPI_Alltoallv of the same bytes."""
    (record,) = records
    out = header(["case", "engine", "pack ms", "exchange ms", "unpack ms", "total ms", "floor ms", "total / floor"])
    for r in record["rows"]:
        out.append(line(["%s: `%s` -> `%s`" % (r["case"], r["from"], r["to"]), r["engine"]] +
                        ["%.2f" % (r[k] * 1e3) for k in ("pack_s", "exchange_s", "unpack_s", "total_s", "floor_s")]
                        + ["%.2f" % (r["total_s"] / r["floor_s"])]))
    return out


def overlap(records):
    """Batched against separate executions (speed-up = separate / batched), per engine asked for;
    then, per engine, how much of the exchange compute between start and wait hid."""
    out = header(["ranks", "n", "k", "separate / batched, auto engine", "separate / batched, alltoallv"])
    for record in sorted(records, key=lambda r: r["ranks"]):
        batched = [r for r in record["rows"] if r["measure"] == "batched" and r["k"] > 1]
        for n, k in dict.fromkeys((r["n"], r["k"]) for r in batched):
            speedup = {r["asked"]: r["separate_s"] / r["batched_s"] for r in batched if (r["n"], r["k"]) == (n, k)}
            out.append(line([record["ranks"], n, k] +
                            ["%.2fx" % speedup[e] if e in speedup else "-" for e in ("auto", "alltoallv")]))
    # Overlap: the fraction of the exchange that compute between start and wait hid.
    out += [""] + header(["ranks", "n", "engine", "hidden, test() between chunks", "hidden, no test()"])
    for record in sorted(records, key=lambda r: r["ranks"]):
        rows = [r for r in record["rows"] if r["measure"] == "overlap"]
        for n, engine in dict.fromkeys((r["n"], r["engine"]) for r in rows):
            hidden = {r["test_calls"]: (r["sequential_s"] - r["overlapped_s"]) / r["exchange_s"]
                      for r in rows if (r["n"], r["engine"]) == (n, engine)}
            out.append(line([record["ranks"], n, engine] +
                            ["%.0f%%" % (100 * hidden[t]) if t in hidden else "-" for t in (True, False)]))
    return out


def distarray_redist(records):
    """`distarray redist --json` reports: each stage's ms per execution, slowest rank."""
    stages = ("pack", "staging", "exchange", "unpack", "local", "total")  # (local: none before 2026-11-28)
    out = header(["ranks", "from", "to", "exchange"] + ["%s ms" % s for s in stages] + ["GB/s", "verified"])
    for r in records:
        out.append(line([r["ranks"], "`%s`" % r["from"], "`%s`" % r["to"], r["exchange"]] +
                        ["%.1f" % (r["seconds"].get(s, 0) * 1e3) for s in stages] +
                        ["%.1f" % r["bandwidth_gb_s"], "yes" if r["verified"] else "no"]))
    return out


def strategy_choice(records):
    """The cost model's pick against the fastest candidate measured, per case."""
    (record,) = records
    out = header(["case", "candidates", "pick", "pick's time / best time"])
    for case in record["cases"]:
        measured = {c["name"]: c["measured_s"] for c in case["candidates"]}
        out.append(line([case["case"], len(measured), case["pick"],
                         "%.2f" % (measured[case["pick"]] / min(measured.values()))]))
    return out


def mpi4py_fft_transpose(records):
    """bench/python/mpi4py_fft_transpose.py: both from Python, ms per call, slowest rank."""
    out = header(["ranks", "N", "mpi4py-fft ms", "distarray ms", "mpi4py-fft / distarray", "distarray engine"])
    for r in records:
        for c in r["cases"]:
            s = c["seconds"]
            out.append(line([r["ranks"], "%d^2" % c["n"], "%.3f" % (s["mpi4py-fft"] * 1e3),
                             "%.3f" % (s["distarray"] * 1e3), "%.2f" % (s["mpi4py-fft"] / s["distarray"]),
                             c["engine"]]))
    return out


TABLES = {"bench_schedule_build": schedule_build, "bench_pack_kernels": pack_kernels,
          "bench_plan_build": plan_build, "bench_checkpoint_io": checkpoint_io,
          "bench_checksum_floor": checksum_floor, "bench_redist_floor": redist_floor,
          "bench_overlap": overlap, "bench_strategy_choice": strategy_choice,
          "distarray redist": distarray_redist, "bench_one_rank": one_rank, "mpi4py_fft_transpose": mpi4py_fft_transpose}
# Shorter tables of the same records, for a summary (`summary table:` markers).
SUMMARIES = {"bench_compare": compare_summary}


def bench_of(record):
    """The bench that wrote a record, whichever of the three shapes it has."""
    if "bench" in record:
        return record["bench"]
    if "benchmarks" in record:
        return "bench_schedule_build"
    if "spearman_pooled" in record:
        return "bench_strategy_choice"
    if record.get("cases") and "base" in record["cases"][0]:
        return "bench_compare"
    if record.get("title", "").startswith("distarray redist"):
        return "distarray redist"
    raise ValueError("not a benchmark record this script knows")
