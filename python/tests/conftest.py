# Helpers of the Python tests, which run under mpiexec at 1-4 ranks: every
# rank runs every test in the same order (so collectives match), data is
# checked against numpy on rank 0 from gathered arrays, and errors must be
# raised on every rank.  Local blocks are read through XP, the array module
# of the memory the build's arrays live in (numpy; CuPy on a GPU build), so
# the suite runs on device memory too.

import random

import numpy as np
import pytest
from mpi4py import MPI

import distarray as da

# The array module of the build's memory: numpy, or CuPy where arrays live on a GPU.
if da._core.host_memory:
    XP = np
else:
    import cupy as XP

DTYPES = [np.float32, np.float64, np.int32, np.int64, np.complex64, np.complex128]
STORED_DTYPES = [np.float32, np.float64, np.int32, np.int64, np.complex128]  # what checkpoints hold


@pytest.fixture
def comm():
    return MPI.COMM_WORLD


def values(shape, dtype, shift=0):
    """A global array whose elements differ (their row-major index, + shift);
    complex ones carry minus the index as imaginary part (the CLI's pattern)."""
    n = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape) + shift
    if np.issubdtype(dtype, np.complexfloating):
        return (n - 1j * n).astype(dtype)
    if dtype == np.float32:
        n = n % (1 << 24)
    if dtype == np.int32:
        n = n % (1 << 31)
    return n.astype(dtype)


def random_dist(rng, n, p):
    """One dimension's distribution text for extent n over p ranks."""
    kinds = ["block", "cyclic", f"cyclic({rng.randint(1, 5)})", "*"]
    m = -(-n // p) + rng.randint(0, 2)  # block(m) needs m * p >= n
    kinds.append(f"block({max(m, 1)})")
    return rng.choice(kinds)


def random_layout(rng, shape, ranks):
    """A layout of `shape` on a grid of at most `ranks` ranks (fewer: ranks owning nothing)."""
    ndim = len(shape)
    grid = [1] * ndim
    budget = rng.randint(1, ranks)
    for _ in range(4):
        d = rng.randrange(ndim)
        if grid[d] * 2 <= budget and np.prod(grid) * 2 <= budget:
            grid[d] *= 2
    if rng.random() < 0.5:  # sometimes all of it on one dimension, odd counts included
        grid = [1] * ndim
        grid[rng.randrange(ndim)] = budget
    dists = [("*" if g == 1 and rng.random() < 0.5 else random_dist(rng, n, g)) for n, g in zip(shape, grid)]
    dists = [("block" if d == "*" and g > 1 else d) for d, g in zip(dists, grid)]
    return da.Layout(",".join(dists) + " on " + "x".join(map(str, grid)), shape)


def random_shape(rng, ndim):
    """Ragged extents, some below the rank count."""
    return tuple(rng.choice([1, 2, 3, 5, 7, 13, 31]) for _ in range(ndim))


@pytest.fixture
def rng():
    return random.Random(20261126)  # the same draws on every rank


def raised_everywhere(comm, error, func):
    """Calls func on every rank; True where every rank raised `error`."""
    try:
        func()
        raised = False
    except error:
        raised = True
    return comm.allreduce(raised, op=MPI.LAND)


def block(a):
    """The local block of DistArray ``a`` as an XP array: writable, no copy."""
    return a.local if XP is np else XP.from_dlpack(a.local)


def to_numpy(x):
    """A numpy array of an XP array (a copy from device memory)."""
    return x if isinstance(x, np.ndarray) else XP.asnumpy(x)


def in_memory(x):
    """The numpy array ``x`` in the build's memory (a CuPy copy, its element order kept, on a GPU build)."""
    return x if XP is np else XP.array(x, order="K")


def data_address(x):
    """Where an XP array's first element lives."""
    return x.__array_interface__["data"][0] if isinstance(x, np.ndarray) else x.data.ptr
