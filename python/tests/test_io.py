# Checkpoints and series from Python: round trips into other layouts, the
# C++ CLI reading what Python wrote and the other way round (with ctest's
# python.cli_* tests), series steps, and refusals on every rank.

import os
import subprocess
import sys

import numpy as np
import pytest

import distarray as da
from conftest import STORED_DTYPES, random_layout, random_shape, raised_everywhere, values

FROM_CLI = os.environ.get("DISTARRAY_FROM_CLI")  # a file the distarray command saved (ctest)
H5PY_PYTHON = os.environ.get("DISTARRAY_H5PY_PYTHON", sys.executable)  # an interpreter with h5py


def path_for(comm, stem):
    """A file name private to this rank count (the tests run at several at once)."""
    return os.path.join(os.environ.get("DISTARRAY_TEST_DIR", "."), f"{stem}_py_np{comm.size}.h5")


def fresh_series(comm, stem):
    """path_for's name with no file there: a series appends to the file it finds (a test run again)."""
    path = path_for(comm, stem)
    if comm.rank == 0 and os.path.exists(path):
        os.remove(path)
    comm.Barrier()
    return path


@pytest.mark.parametrize("dtype", STORED_DTYPES)
def test_save_and_restore_into_other_layouts(comm, rng, dtype):
    path = path_for(comm, f"py_{np.dtype(dtype).name}")
    for ndim in (1, 2, 3):
        shape = random_shape(rng, ndim)
        source, destination = random_layout(rng, shape, comm.size), random_layout(rng, shape, comm.size)
        expected = values(shape, dtype)
        da.save(path, da.DistArray.from_global(source, expected, comm, rng.choice("CF")), "u", compress=None)
        b = da.restore(path, "u", destination, comm=comm, order=rng.choice("CF"))
        assert b.dtype == np.dtype(dtype)
        got = b.gather()
        if comm.rank == 0:
            np.testing.assert_array_equal(got, expected, err_msg=f"{source} -> {destination}")


def test_series_steps(comm):
    p = comm.size
    path = fresh_series(comm, "py_series")
    shape = (13, 6)
    layout = da.Layout(f"block,* on {p}x1", shape)
    series = da.Series(path, comm)
    for step in (1, 2, 3):
        with series.step(step, time=0.5 * step, label=f"s{step}"):
            series.write("u", da.DistArray.from_global(layout, values(shape, np.float64, step), comm))
    with pytest.raises(RuntimeError):  # a step abandoned: never visible
        with series.step(4):
            series.write("u", da.DistArray.from_global(layout, values(shape, np.float64, 4), comm))
            raise RuntimeError("the solver failed")
    del series
    steps = da.list_steps(path, comm)
    assert [s["step"] for s in steps] == [1, 2, 3] and all(s["complete"] for s in steps)
    assert steps[1]["attributes"] == {"time": 1.0, "label": "s2"}
    assert steps[0]["arrays"]["u"]["shape"] == [13, 6]
    other = da.Layout(f"*,cyclic on 1x{p}", shape)
    latest = da.restore_step(path, "u", other, comm=comm)
    first = da.restore_step(path, "u", other, comm=comm, step=1)
    assert latest.step == 3 and first.step == 1
    for a, k in ((latest, 3), (first, 1)):
        got = a.gather()
        if comm.rank == 0:
            np.testing.assert_array_equal(got, values(shape, np.float64, k))


def test_a_file_for_the_cli(comm):
    """Writes the CLI's pattern; ctest's python.cli_restores_* then restores
    and verifies it with the distarray command, in another layout."""
    p = comm.size
    shape = (29, 11)
    a = da.DistArray.from_global(da.Layout(f"cyclic(3),* on {p}x1", shape), values(shape, np.complex128), comm)
    da.save(path_for(comm, "for_cli"), a, "pattern")


@pytest.mark.skipif(FROM_CLI is None, reason="DISTARRAY_FROM_CLI names a file the distarray command saved")
def test_restores_what_the_cli_saved(comm):
    p = comm.size
    shape = (29, 11)  # distarray save --shape 29x11 --type i64 (ctest python.cli_saves)
    b = da.restore(FROM_CLI, "array", da.Layout(f"*,block on 1x{p}", shape), comm=comm)
    assert b.dtype == np.int64
    got = b.gather()
    if comm.rank == 0:
        np.testing.assert_array_equal(got, values(shape, np.int64))


def test_io_errors_on_every_rank(comm):
    layout = da.Layout("block on 1", (5,))
    path = path_for(comm, "py_errors")
    c64 = da.DistArray(layout, np.complex64, comm)
    assert raised_everywhere(comm, da.CheckpointError, lambda: da.save(path, c64, "x"))
    assert raised_everywhere(comm, da.CheckpointError, lambda: da.restore(path + ".missing", "x", layout, comm=comm))
    da.save(path, da.DistArray(layout, np.float64, comm), "x")
    assert raised_everywhere(comm, da.CheckpointError,
                             lambda: da.restore(path, "x", da.Layout("block on 1", (6,)), comm=comm))
    assert raised_everywhere(comm, da.CheckpointError, lambda: da.restore(path, "y", layout, comm=comm))
    f64 = da.DistArray(layout, np.float64, comm)
    assert raised_everywhere(comm, da.UsageError, lambda: da.save(path, f64, "x", compress=12))
    arrays = da.list_arrays(path, comm)
    assert list(arrays) == ["x"] and arrays["x"]["shape"] == [5] and arrays["x"]["element_type"] == "f64"
    # A checkpoint over a series would lose its steps: refused, the step kept.
    series_path = fresh_series(comm, "py_errors_series")
    series = da.Series(series_path, comm)
    with series.step(1):
        series.write("u", f64)
    del series
    assert raised_everywhere(comm, da.CheckpointError, lambda: da.save(series_path, f64, "x"))
    assert [s["step"] for s in da.list_steps(series_path, comm)] == [1]
    # Step numbers: whole numbers from 0 (1.5 was taken as step 1).
    series = da.Series(series_path, comm)
    with pytest.raises(TypeError, match="a step must be a whole number, not 1.5"):
        series.begin_step(1.5)
    with pytest.raises(da.UsageError, match="step -1 is outside 0 to 2"):
        series.begin_step(-1)
    with pytest.raises(TypeError):
        da.restore_step(series_path, "u", layout, comm=comm, step=1.0)
    series.begin_step(np.int64(2))  # numpy's integers are whole numbers
    series.abandon_step()
    del series
    if comm.size > 1:  # names that differ between ranks (a hang before)
        name = "x" if comm.rank == 0 else "z"
        assert raised_everywhere(comm, da.UsageError, lambda: da.save(path, f64, name))
        assert raised_everywhere(comm, da.UsageError, lambda: da.restore(path, name, layout, comm=comm))


def edit_with_h5py(comm, path, code):
    """Rank 0 runs ``code`` with ``f``, the file opened by h5py in another
    process (h5py's HDF5 is not this process's parallel one); the others wait."""
    has_h5py = ok = True
    if comm.rank == 0:
        has_h5py = subprocess.run([H5PY_PYTHON, "-c", "import h5py"]).returncode == 0
        script = f"import h5py, numpy as np\nwith h5py.File({path!r}, 'r+') as f:\n" + \
                 "".join(f"    {line}\n" for line in code.splitlines())
        ok = has_h5py and subprocess.run([H5PY_PYTHON, "-c", script]).returncode == 0
    if not comm.bcast(has_h5py):  # CI's interpreters have it (Debian's python3-h5py)
        pytest.skip(f"{H5PY_PYTHON} has no h5py (DISTARRAY_H5PY_PYTHON names one that has)")
    assert comm.bcast(ok), f"{H5PY_PYTHON} could not edit {path} with h5py"


def test_restore_step_verifies_unless_told_not_to(comm):
    p = comm.size
    path = fresh_series(comm, "py_series_verify")
    shape = (7, 5)
    layout = da.Layout(f"block,* on {p}x1", shape)
    series = da.Series(path, comm)
    with series.step(1):
        series.write("u", da.DistArray.from_global(layout, values(shape, np.int64), comm))
    del series
    edit_with_h5py(comm, path, "f['step_1/u'][2, 3] = -5")
    assert raised_everywhere(comm, da.CheckpointError, lambda: da.restore_step(path, "u", layout, comm=comm))
    unverified = da.restore_step(path, "u", layout, comm=comm, verify=False).gather()
    if comm.rank == 0:
        expected = values(shape, np.int64)
        expected[2, 3] = -5
        np.testing.assert_array_equal(unverified, expected)


def test_an_element_type_numpy_has_but_checkpoints_do_not(comm):
    """A float16 dataset (written by h5py) is refused by restore and
    restore_step without a dtype, with a CheckpointError on every rank."""
    p = comm.size
    layout = da.Layout(f"block on {p}", (6,))
    path = path_for(comm, "py_float16")
    da.save(path, da.DistArray(layout, np.float64, comm), "x")
    edit_with_h5py(comm, path, "f['h'] = np.arange(6, dtype=np.float16)")
    assert raised_everywhere(comm, da.CheckpointError, lambda: da.restore(path, "h", layout, comm=comm))
    series = fresh_series(comm, "py_series_float16")
    s = da.Series(series, comm)
    with s.step(1):
        s.write("x", da.DistArray(layout, np.float64, comm))
    del s
    edit_with_h5py(comm, series, "f['step_1/h'] = np.arange(6, dtype=np.float16)")
    assert raised_everywhere(comm, da.CheckpointError, lambda: da.restore_step(series, "h", layout, comm=comm))
    # A name the core may report that numpy's table lacks: the same error, not a KeyError.
    with pytest.raises(da.CheckpointError, match="'f16'"):
        da._io._numpy_dtype({"element_type": "f16"}, path, "h")
