"""A 2-D FFT of an N x N complex array spread over the ranks: numpy's 1-D FFT
along the rows each rank holds, a distarray transpose (block,*) -> (*,block),
numpy's FFT along the other dimension, and a check against numpy.fft.fft2 of
the gathered input on rank 0.

    mpiexec -n 4 python3 examples/python/fft2d.py --n 1024
"""

import argparse
import sys
import time

import numpy as np
from mpi4py import MPI

import distarray as da


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=256, help="the array is N x N (default 256)")
    parser.add_argument("--repeat", type=int, default=5, help="transforms timed (default 5)")
    n, comm = parser.parse_args().n, MPI.COMM_WORLD
    p = comm.size
    rows = da.Layout(f"block,* on {p}x1", (n, n))  # whole rows on each rank
    cols = da.Layout(f"*,block on 1x{p}", (n, n))  # whole columns on each rank
    rng = np.random.default_rng(1)
    x = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))  # the same on every rank
    a = da.DistArray.from_global(rows, x, comm)
    # Column-major destination: each rank's columns are contiguous, ready for the FFT along axis 0.
    b = da.DistArray(cols, np.complex128, comm, order="F")
    transpose = da.Plan(rows, cols, np.complex128, comm, destination_order="F")

    def fft2():
        a.local[...] = np.fft.fft(a.local, axis=1)  # along the rows this rank holds
        transpose.execute(a, b)
        b.local[...] = np.fft.fft(b.local, axis=0)  # along the columns it now holds

    fft2()
    result = b.gather()
    ok = True
    if comm.rank == 0:
        error = np.max(np.abs(result - np.fft.fft2(x))) / np.max(np.abs(x))
        ok = error < 1e-12
        print(f"2-D FFT of {n}x{n} on {p} ranks: max relative error against numpy.fft.fft2 {error:.2e}")
    ok = comm.bcast(ok)
    comm.Barrier()
    start = time.perf_counter()
    for _ in range(parser.parse_args().repeat):
        a.local[...] = x[a.global_indices()]
        fft2()
    seconds = comm.allreduce(time.perf_counter() - start, op=MPI.MAX) / parser.parse_args().repeat
    if comm.rank == 0:
        print(f"{seconds * 1e3:.2f} ms per transform; the transpose: {transpose.report['method']}, "
              f"{transpose.report['exchange']}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
