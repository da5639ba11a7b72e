# Device arrays end to end on a GPU build (scripts/check-gpu.sh runs it
# there; host builds skip it): a CuPy array and a PyTorch CUDA tensor become
# DistArrays, are transposed across the ranks and come back through DLPack,
# never through host memory, also into a node-shared destination (the shared
# engine's one pass through CUDA IPC).  Every value is checked on the device.

import numpy as np
import pytest
from mpi4py import MPI

import distarray as da

pytestmark = pytest.mark.skipif(da._core.host_memory, reason="arrays live in host memory in this build")


def transposed_round_trip(comm, to_device, from_dlpack, pointer, **options):
    """A (block,*) array made from device blocks, moved to (*,block) (`options`
    to redistribute), read back without a copy."""
    p, shape = comm.size, (37, 29)  # ragged over every rank count
    rows = da.Layout(f"block,* on {p}x1", shape)
    cols = da.Layout(f"*,block on 1x{p}", shape)
    start = sum(rows.local_shape(r)[0] for r in range(comm.rank))
    mine = rows.local_shape(comm.rank)
    local = to_device(np.arange(start * shape[1], (start + mine[0]) * shape[1], dtype=np.float64).reshape(mine))
    a = da.DistArray.from_local(rows, local, comm)
    b = da.redistribute(a, cols, **options)
    assert tuple(b.__dlpack_device__()) == tuple(da._core.dlpack_device)
    result = from_dlpack(b)
    assert pointer(result) == pointer(from_dlpack(b))  # the array's own memory, not a copy
    first = sum(cols.local_shape(r)[1] for r in range(comm.rank))
    width = cols.local_shape(comm.rank)[1]
    i, j = np.meshgrid(np.arange(shape[0]), np.arange(first, first + width), indexing="ij")
    expected = to_device((i * shape[1] + j).astype(np.float64))
    return bool((result == expected).all())


def test_cupy_round_trip(comm):
    cupy = pytest.importorskip("cupy")
    ok = transposed_round_trip(comm, cupy.asarray, cupy.from_dlpack, lambda x: x.data.ptr)
    assert comm.allreduce(ok, op=MPI.LAND)


def test_pytorch_round_trip(comm):
    torch = pytest.importorskip("torch")
    ok = transposed_round_trip(comm, lambda x: torch.from_numpy(x).cuda(), torch.from_dlpack,
                               lambda x: x.data_ptr())
    assert comm.allreduce(ok, op=MPI.LAND)


def test_cupy_into_node_shared_destination(comm):
    cupy = pytest.importorskip("cupy")
    ok = transposed_round_trip(comm, cupy.asarray, cupy.from_dlpack, lambda x: x.data.ptr,
                               node_shared=True, exchange="shared")
    assert comm.allreduce(ok, op=MPI.LAND)
