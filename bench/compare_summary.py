"""bench_compare's records summed up: per peer, the ratios of its time to
distarray's over the cases (the README's summary table and the figures)."""

from md_table import header, line

# The peers of bench_compare: (short name, what, which table's rows, the
# methods that count, the fastest of them), for the README's summary and the figures.
COMPARE_SUMMARY = [
    ("FFTW-MPI", "FFTW-MPI's transpose (row- and column-major output)", "plan", ["fftw-mpi"]),
    ("heFFTe", "heFFTe's reshapes (the fastest of three)", "plan",
     ["heffte-alltoallv", "heffte-p2p", "heffte-p2p-plined"]),
    ("pdgemr2d", "ScaLAPACK `pdgemr2d`", "plan", ["pdgemr2d"]),
    ("COSTA", "COSTA `transform`", "plan", ["costa-transform"]),
    ("MPI_Alltoallw", "a hand-written `MPI_Alltoallw` of derived datatypes", "plan",
     ["alltoallw", "alltoallw-vector"]),
    ("ScaLAPACK", "ScaLAPACK's `p?gemr2d` / `p?tran`, against the drop-in", "routine", ["scalapack"]),
    ("COSTA wrappers", "COSTA's ScaLAPACK wrappers, against the drop-in", "routine", ["costa-wrapper"]),
]


def compare_ratios(cases):
    """(short peer name, case, peer time / distarray's time) for each case a peer ran: the
    plan's time on the plan rows, the ScaLAPACK drop-in's on the routine rows."""
    for short, _, table, methods in COMPARE_SUMMARY:
        for c in cases:
            times = [c["seconds"][m] for m in methods if m in c["seconds"]]
            if times and (c["base"] == "distarray") == (table == "plan"):
                yield short, c, min(times) / c["seconds"][c["base"]]


def compare_summary(records):
    """Per peer: the median and range over the cases of peer time / distarray's time; last,
    distarray's time over the floor (a bare MPI_Alltoallv of the same bytes)."""
    cases = [c for r in records for c in r["cases"]]

    def summary(label, ratios):
        ratios = sorted(ratios)
        middle = (ratios[(len(ratios) - 1) // 2] + ratios[len(ratios) // 2]) / 2
        return line([label, len(ratios), "%.2f" % middle, "%.2f - %.2f" % (ratios[0], ratios[-1])])

    out = header(["against", "cases", "median", "range"])
    ratios = list(compare_ratios(cases))
    for short, label, _, _ in COMPARE_SUMMARY:
        mine = [ratio for peer, _, ratio in ratios if peer == short]
        if mine:
            out.append(summary(label, mine))
    plans = [c for c in cases if c["base"] == "distarray"]
    out.append(summary("distarray time / one bare `MPI_Alltoallv` of the same bytes (the floor)",
                       [c["seconds"]["distarray"] / c["seconds"]["floor"] for c in plans]))
    return out
