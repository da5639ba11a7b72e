"""distarray against mpi4py-fft (Debian's python3-mpi4py-fft) on the
transpose of a 2-D FFT, both from Python: mpi4py-fft's pencil Transfer
(forward: axis 1 local -> axis 0 local, MPI_Alltoallw of subarray types)
and a distarray plan (block,*) -> (*,block), N x N complex128, checked equal,
each timed over --calls executions (median of --repeat rounds, slowest rank).
Prints one table row per size; ratio = mpi4py-fft time / distarray time;
--json PATH also writes the record docs/performance.md's table is made of
(bench/tables.py).

    mpiexec -n 4 python3 bench/python/mpi4py_fft_transpose.py --sizes 256 1024 4096
"""

import argparse
import datetime
import json
import statistics
import sys
import time

import numpy as np
from mpi4py import MPI
from mpi4py_fft.pencil import Pencil, Subcomm

import distarray as da


def seconds_per_call(comm, calls, repeat, run):
    rounds = []
    for _ in range(repeat):
        comm.Barrier()
        start = time.perf_counter()
        for _ in range(calls):
            run()
        rounds.append(comm.allreduce((time.perf_counter() - start) / calls, op=MPI.MAX))
    return statistics.median(rounds)


def compare(comm, n, calls, repeat):
    p = comm.size
    # mpi4py-fft: rows split over the ranks (axis 1 whole), then columns split (axis 0 whole).
    rows_pencil = Pencil(Subcomm(comm, [0, 1]), (n, n), axis=1)
    cols_pencil = rows_pencil.pencil(0)
    transfer = rows_pencil.transfer(cols_pencil, np.complex128)
    x = np.zeros(rows_pencil.subshape, np.complex128)
    y = np.zeros(cols_pencil.subshape, np.complex128)
    # distarray: the same split (mpi4py-fft's block rule is distarray's block(m) only where
    # n % p == 0; the sizes here are multiples of the rank counts).
    rows, cols = da.Layout(f"block,* on {p}x1", (n, n)), da.Layout(f"*,block on 1x{p}", (n, n))
    a = da.DistArray(rows, np.complex128, comm)
    b = da.DistArray(cols, np.complex128, comm)
    a.fill(lambda i, j: i * n + j - 1j * j)
    x[...] = a.local if x.shape == a.local.shape else np.nan
    plan = da.Plan(rows, cols, np.complex128, comm)
    plan.execute(a, b)
    transfer.forward(x, y)
    assert comm.allreduce(y.shape == b.local.shape and np.array_equal(y, b.local), op=MPI.LAND), \
        "mpi4py-fft and distarray disagree"
    t_mpi4py_fft = seconds_per_call(comm, calls, repeat, lambda: transfer.forward(x, y))
    t_distarray = seconds_per_call(comm, calls, repeat, lambda: plan.execute(a, b))
    return t_mpi4py_fft, t_distarray, plan.report["exchange"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 1024, 4096])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", help="also write the results as a record to this file")
    args = parser.parse_args()
    comm = MPI.COMM_WORLD
    if comm.rank == 0:
        print(f"transpose (block,*) -> (*,block), complex128, {comm.size} ranks, ms per call")
        print(f"{'N':>6} {'mpi4py-fft':>11} {'distarray':>10} {'ratio':>7}  distarray engine")
    cases = []
    for n in args.sizes:
        calls = max(2, int(2e7 // (n * n)))
        t_fft, t_da, engine = compare(comm, n, calls, args.repeat)
        cases.append({"n": n, "calls": calls, "engine": engine, "seconds": {"mpi4py-fft": t_fft, "distarray": t_da}})
        if comm.rank == 0:
            print(f"{n:>6} {t_fft * 1e3:>11.3f} {t_da * 1e3:>10.3f} {t_fft / t_da:>7.2f}  {engine}")
    if args.json and comm.rank == 0:
        record = {"bench": "mpi4py_fft_transpose", "date": datetime.date.today().isoformat(), "ranks": comm.size,
                  "command": "python3 " + " ".join(sys.argv), "repeat": args.repeat, "cases": cases}
        with open(args.json, "w") as f:
            json.dump(record, f, indent=1)


if __name__ == "__main__":
    main()
