"""Python's cost per plan execution: the (block,*) -> (*,block) transpose of
an N x N float64 array, plan.execute timed in a Python loop (median of
--repeat rounds of --calls executions, slowest rank), printed as JSON for
bench/python/overhead.sh, which compares it with the C++ `distarray redist`.
"""

import argparse
import json
import statistics
import time

import numpy as np
from mpi4py import MPI

import distarray as da

parser = argparse.ArgumentParser()
parser.add_argument("--n", type=int, default=4096)
parser.add_argument("--calls", type=int, default=10)
parser.add_argument("--repeat", type=int, default=5)
args = parser.parse_args()
comm, p = MPI.COMM_WORLD, MPI.COMM_WORLD.size
rows = da.Layout(f"block,* on {p}x1", (args.n, args.n))
cols = da.Layout(f"*,block on 1x{p}", (args.n, args.n))
a, b = da.DistArray(rows, np.float64, comm), da.DistArray(cols, np.float64, comm)
a.fill(lambda i, j: i * args.n + j)
plan = da.Plan(rows, cols, np.float64, comm)
plan.execute(a, b)
while not plan.report["settled"]:  # past the automatic engine's trials
    plan.execute(a, b)
rounds = []
for _ in range(args.repeat):
    comm.Barrier()
    start = time.perf_counter()
    for _ in range(args.calls):
        plan.execute(a, b)
    rounds.append(comm.allreduce((time.perf_counter() - start) / args.calls, op=MPI.MAX))
if comm.rank == 0:
    print(json.dumps({"n": args.n, "ranks": p, "seconds_per_call": statistics.median(rounds),
                      "exchange": plan.report["exchange"]}))
