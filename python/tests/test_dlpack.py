# DLPack both ways: the local block exported without a copy (what CuPy and
# PyTorch read on a GPU build, through the same exporter), DLPack arrays in
# the arrays' memory copied in directly, whatever their strides (the path a
# CuPy array or CUDA tensor takes on a GPU build: here a host producer that
# speaks DLPack only), and refusals on every rank.

import numpy as np
import pytest
from mpi4py import MPI

import distarray as da
from conftest import (DTYPES, XP, block, data_address, in_memory, random_layout, random_shape, raised_everywhere,
                      to_numpy, values)


class DLPackOnly:
    """An array another library exports through DLPack only (as PyTorch or CuPy do)."""

    def __init__(self, array, device=None):
        self.array, self.device = array, device or tuple(da._core.dlpack_device)

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.device


def random_cases(rng, ranks):
    """A random shape of 1, 2 and 3 dimensions, each with a random layout."""
    for ndim in (1, 2, 3):
        shape = random_shape(rng, ndim)
        yield shape, random_layout(rng, shape, ranks)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_the_export_is_the_local_block(comm, rng, dtype, order):
    for shape, layout in random_cases(rng, comm.size):
        a = da.DistArray.from_global(layout, values(shape, dtype), comm, order)
        exported, local = XP.from_dlpack(a), block(a)
        assert exported.shape == local.shape and exported.dtype == a.dtype
        assert exported.strides == local.strides
        np.testing.assert_array_equal(to_numpy(exported), to_numpy(local))
        if exported.size:
            assert data_address(exported) == data_address(local)
        # What `a.local` is on a GPU build: the same exporter behind a small object.
        device_block = da._DeviceBlock(a)
        assert device_block.shape == local.shape and device_block.__dlpack_device__() == a.__dlpack_device__()
        np.testing.assert_array_equal(to_numpy(XP.from_dlpack(device_block)), to_numpy(local))


def test_an_export_outlives_its_array(comm):
    a = da.DistArray(da.Layout(f"cyclic on {comm.size}", (20,)), np.int64, comm)
    a.fill(lambda i: 3 * i)
    exported = XP.from_dlpack(a)
    expected = to_numpy(exported).copy()
    del a  # the export keeps the array's memory alive
    np.testing.assert_array_equal(to_numpy(exported), expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_imports_copy_any_strides(comm, rng, dtype, order):
    for _, layout in random_cases(rng, comm.size):
        mine = layout.local_shape(comm.rank)
        # Every other element of a larger block stored in the other order: strided both ways.
        larger = values(tuple(2 * n for n in mine), dtype, 5)
        every_other = tuple(slice(None, None, 2) for _ in mine)
        source = in_memory(np.asfortranarray(larger) if order == "C" else larger)[every_other]
        a = da.DistArray.from_local(layout, DLPackOnly(source), comm, order)
        assert a.dtype == dtype and a.order == order
        np.testing.assert_array_equal(to_numpy(block(a)), to_numpy(source))
        a.fill(lambda *index: 7)  # a scalar fills the block
        assert (to_numpy(block(a)) == 7).all()


def test_import_refusals_on_every_rank(comm):
    layout = da.Layout(f"block on {comm.size}", (13,))
    n = layout.local_shape(comm.rank)[0]
    elsewhere = DLPackOnly(np.zeros(n), device=(4, 0))  # OpenCL memory: no build's
    assert raised_everywhere(comm, da.UsageError, lambda: da.DistArray.from_local(layout, elsewhere, comm))
    unsupported = DLPackOnly(in_memory(np.zeros(n, np.uint8)))
    assert raised_everywhere(comm, da.UsageError, lambda: da.DistArray.from_local(layout, unsupported, comm))
    backwards = DLPackOnly(in_memory(np.arange(float(n + 1)))[::-1][:n])
    if n > 1:  # a block of one element has no direction
        with pytest.raises(da.UsageError, match="negative strides"):
            da.DistArray.from_local(da.Layout("block on 1", (n,)), backwards, MPI.COMM_SELF)
    too_long = DLPackOnly(in_memory(np.zeros(n + 1 if comm.rank == 0 else n)))  # one rank's block does not fit
    assert raised_everywhere(comm, da.ShapeMismatch, lambda: da.DistArray.from_local(layout, too_long, comm))
    a = da.DistArray(layout, np.float64, comm)
    with pytest.raises(da.UsageError, match="type code"):
        a._array.assign_dlpack(DLPackOnly(in_memory(np.zeros(n, np.float32))))


def test_host_arrays_through_dlpack(comm):
    p = comm.size
    layout = da.Layout(f"block,cyclic(2) on {p}x1", (11, 6))
    if da._core.host_memory:
        a = da.DistArray.from_global(layout, DLPackOnly(values((11, 6), np.complex128)), comm)
        got = a.gather()
        if comm.rank == 0:
            np.testing.assert_array_equal(got, values((11, 6), np.complex128))
    wrong = np.zeros((1, 1) if comm.rank == 0 else layout.local_shape(comm.rank))
    assert raised_everywhere(comm, da.ShapeMismatch, lambda: da.DistArray.from_local(layout, wrong, comm))
