# Layouts and arrays: local blocks as views (numpy's, or CuPy's on a GPU build), fill, from_global, gather.

import numpy as np
import pytest

import distarray as da
from conftest import DTYPES, block, random_layout, random_shape, raised_everywhere, values


def test_layout_describes_its_blocks(comm):
    p = comm.size
    layout = da.Layout(f"block,* on {p}x1", (10, 3))
    assert layout.shape == (10, 3) and layout.ndim == 2 and layout.grid_size == p
    assert str(layout) == f"block,* on {p}x1"
    rows = sum(layout.local_shape(r)[0] for r in range(p))
    assert rows == 10
    assert layout.local_shape(p + 5) == (0, 0)  # a rank outside the grid owns nothing
    assert layout.owner((0, 0)) == 0 and layout.owner((9, 2)) == 9 // -(-10 // p)  # blocks of ceil(10/p)
    assert layout == da.Layout(f"block,* on {p}x1", (10, 3))


def test_layout_errors_on_every_rank(comm):
    assert raised_everywhere(comm, da.LayoutError, lambda: da.Layout("blok on 1", (4,)))
    assert raised_everywhere(comm, da.LayoutError, lambda: da.Layout("block on 1", (4, 4)))
    assert raised_everywhere(comm, da.ShapeMismatch, lambda: da.Layout("block on 1", (4,)).owner((4,)))
    assert raised_everywhere(comm, da.UsageError, lambda: da.Layout("block,*,*,* on 1x1x1x1", (2, 2, 2, 2)))
    assert issubclass(da.LayoutError, da.Error) and issubclass(da.Error, RuntimeError)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_from_global_and_gather_round_trip(comm, rng, dtype, order):
    for ndim in (1, 2, 3):
        for _ in range(3):
            shape = random_shape(rng, ndim)
            layout = random_layout(rng, shape, comm.size)
            expected = values(shape, dtype)
            a = da.DistArray.from_global(layout, expected, comm, order)
            local = block(a)
            assert local.shape == layout.local_shape(comm.rank)
            assert local.flags.f_contiguous if order == "F" else local.flags.c_contiguous
            got = a.gather(root=0)
            if comm.rank == 0:
                np.testing.assert_array_equal(got, expected, err_msg=str(layout))
            else:
                assert got is None


def test_local_is_a_writable_view_of_the_array(comm):
    p = comm.size
    a = da.DistArray(da.Layout(f"cyclic(2),* on {p}x1", (9, 4)), np.float64, comm)
    a.fill(lambda i, j: 10.0 * i + j)
    local = block(a)
    local *= -1  # written through the view
    del local
    got = a.gather()
    if comm.rank == 0:
        np.testing.assert_array_equal(got, -np.fromfunction(lambda i, j: 10.0 * i + j, (9, 4)))


def test_unsupported_dtype_and_order_are_refused_on_every_rank(comm):
    layout = da.Layout("block on 1", (4,))
    assert raised_everywhere(comm, da.UsageError, lambda: da.DistArray(layout, np.uint8, comm))
    assert raised_everywhere(comm, da.UsageError, lambda: da.DistArray(layout, np.float64, comm, order="K"))
    big = da.Layout("block on 1", (1 << 62,))
    assert raised_everywhere(comm, da.Error, lambda: da.DistArray(big, np.float64, comm))


def test_arguments_of_the_wrong_kind_are_type_errors(comm):
    # A layout's text for a Layout, a numpy array for a DistArray: a
    # TypeError naming the argument, not an AttributeError from inside.
    layout = da.Layout(f"block on {comm.size}", (6,))
    a = da.DistArray(layout, np.float64, comm)
    text = f"block on {comm.size}"
    calls = {
        "layout must be a distarray.Layout, not str": [
            lambda: da.DistArray(text, np.float64, comm),
            lambda: da.restore("x.h5", "u", text, comm=comm),
            lambda: da.restore_step("x.h5", "u", text, comm=comm)],
        "source must be a distarray.Layout, not str": [lambda: da.Plan(text, layout, np.float64, comm)],
        "destination must be a distarray.Layout, not str": [lambda: da.Plan(layout, text, np.float64, comm)],
        "a must be a distarray.DistArray, not ndarray": [
            lambda: da.Plan(layout, layout, np.float64, comm).execute(np.zeros(6), a),
            lambda: da.redistribute(np.zeros(6), layout),
            lambda: da.save("x.h5", np.zeros(6))],
        "b must be a distarray.DistArray, not list": [
            lambda: da.Plan(layout, layout, np.float64, comm).start(a, [[a]])],
        "a must be a distarray.DistArray, not str": [lambda: da.save("x.h5", "u", a)],
    }
    # Floats where whole numbers go (they were truncated: a shape of 6.7 was 6).
    calls["a shape's extents must be a whole number, not 6.7"] = [lambda: da.Layout(text, (6.7,))]
    calls["an index must be a whole number, not 1.5"] = [lambda: layout.owner((1.5,))]
    calls["root must be a whole number, not 0.0"] = [lambda: a.gather(root=0.0)]
    for message, refused in calls.items():
        for call in refused:
            with pytest.raises(TypeError, match=message):
                call()
