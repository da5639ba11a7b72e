# DLPack both ways: the local block exported without a copy (what CuPy and
# PyTorch read on a GPU build, through the same exporter), DLPack arrays in
# the arrays' memory copied in directly, whatever their strides (the path a
# CuPy array or CUDA tensor takes on a GPU build: here a host producer that
# speaks DLPack only), and refusals on every rank.

import numpy as np
import pytest
from mpi4py import MPI

import distarray as da
from conftest import DTYPES, random_layout, random_shape, raised_everywhere, values


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
        exported = np.from_dlpack(a)
        assert exported.shape == a.local.shape and exported.dtype == a.dtype
        assert exported.strides == a.local.strides
        np.testing.assert_array_equal(exported, a.local)
        if exported.size:
            assert np.shares_memory(exported, a.local)
        # What `a.local` is on a GPU build: the same exporter behind a small object.
        block = da._DeviceBlock(a)
        assert block.shape == a.local.shape and block.__dlpack_device__() == a.__dlpack_device__()
        np.testing.assert_array_equal(np.from_dlpack(block), a.local)


def test_an_export_outlives_its_array(comm):
    a = da.DistArray(da.Layout(f"cyclic on {comm.size}", (20,)), np.int64, comm)
    a.fill(lambda i: 3 * i)
    exported = np.from_dlpack(a)
    expected = exported.copy()
    del a  # the export keeps the array's memory alive
    np.testing.assert_array_equal(exported, expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_imports_copy_any_strides(comm, rng, dtype, order):
    for _, layout in random_cases(rng, comm.size):
        mine = layout.local_shape(comm.rank)
        # Every other element of a larger block stored in the other order: strided both ways.
        larger = values(tuple(2 * n for n in mine), dtype, 5)
        every_other = tuple(slice(None, None, 2) for _ in mine)
        source = (np.asfortranarray(larger) if order == "C" else larger)[every_other]
        a = da.DistArray.from_local(layout, DLPackOnly(source), comm, order)
        assert a.dtype == dtype and a.order == order
        np.testing.assert_array_equal(a.local, source)
        a.fill(lambda *index: 7)  # a scalar fills the block
        assert (a.local == 7).all()


def test_import_refusals_on_every_rank(comm):
    layout = da.Layout(f"block on {comm.size}", (13,))
    n = layout.local_shape(comm.rank)[0]
    elsewhere = DLPackOnly(np.zeros(n), device=(2, 0) if da._core.host_memory else (1, 0))
    assert raised_everywhere(comm, da.UsageError, lambda: da.DistArray.from_local(layout, elsewhere, comm))
    unsupported = DLPackOnly(np.zeros(n, np.uint8))
    assert raised_everywhere(comm, da.UsageError, lambda: da.DistArray.from_local(layout, unsupported, comm))
    backwards = DLPackOnly(np.arange(float(n + 1))[::-1][:n])
    if n > 1:  # a block of one element has no direction
        with pytest.raises(da.UsageError, match="negative strides"):
            da.DistArray.from_local(da.Layout("block on 1", (n,)), backwards, MPI.COMM_SELF)
    too_long = DLPackOnly(np.zeros(n + 1 if comm.rank == 0 else n))  # one rank's block does not fit
    assert raised_everywhere(comm, da.ShapeMismatch, lambda: da.DistArray.from_local(layout, too_long, comm))
    a = da.DistArray(layout, np.float64, comm)
    with pytest.raises(da.UsageError, match="type code"):
        a._array.assign_dlpack(DLPackOnly(np.zeros(n, np.float32)))


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
