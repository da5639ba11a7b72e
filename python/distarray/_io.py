"""Checkpoints and series of the distarray package (imported into it)."""

from . import _core
from ._convert import address as _address
from ._convert import core_array as _core_array
from ._convert import core_layout as _core_layout
from ._convert import dtype_name as _dtype_name
from ._convert import step_number as _step_number
from ._core import CheckpointError

# The checkpoint format's element type names, to numpy's (core/element_types.hpp).
_FILE_TYPES = dict(_core.file_types)


def _array(layout, core_array, comm):
    from . import DistArray  # the package's class (this module is imported at its end)
    return DistArray._of(layout, core_array, comm)


def save(path, a, name="array", compress=None):
    """Writes ``a`` as dataset ``name`` of a new checkpoint file (replacing
    ``path`` atomically); ``compress``: a deflate level 1-9."""
    _core.save(str(path), name, _core_array(a, "a"), compress)


def _numpy_dtype(info, path, name):
    """The dtype of the array a file describes by ``info`` (checkpoint_info's dict)."""
    try:
        return _FILE_TYPES[info["element_type"]]
    except KeyError:
        raise CheckpointError(f"'{path}', array '{name}': its element type '{info['element_type']}' is none "
                              f"this module holds ({', '.join(_FILE_TYPES)})") from None


def restore(path, name, layout, dtype=None, comm=None, order="C", verify=True):
    """Dataset ``name`` of a checkpoint, in a new array of ``layout`` (any
    layout and rank count); ``dtype`` defaults to the file's; ``verify=False``
    skips the checksum."""
    target = _core_layout(layout, "layout")
    if dtype is None:
        dtype = _numpy_dtype(_core.checkpoint_info(str(path), name, _address(comm)), path, name)
    core = _core.restore(str(path), name, target, _dtype_name(dtype), _address(comm), order, bool(verify))
    return _array(layout, core, comm)


class Series:
    """A series of steps in one HDF5 file: each step's arrays become visible
    together when the step is committed, and a writer killed inside a step
    loses nothing committed.  ``with series.step(n, time=t): series.write(...)``
    commits the step, or abandons it when the block raises."""

    def __init__(self, path, comm=None):
        self.comm = comm
        self._series = _core.Series(str(path), _address(comm))

    def begin_step(self, step, **attributes):
        self._series.begin_step(_step_number(step), attributes)

    def write(self, name, a, compress=None):
        self._series.write(name, _core_array(a, "a"), compress)

    def commit_step(self):
        self._series.commit_step()

    def abandon_step(self):
        self._series.abandon_step()

    def step(self, step, **attributes):
        return _Step(self, step, attributes)

    @property
    def path(self):
        return self._series.path


class _Step:
    def __init__(self, series, step, attributes):
        self._series, self._step, self._attributes = series, step, attributes

    def __enter__(self):
        self._series.begin_step(self._step, **self._attributes)
        return self._series

    def __exit__(self, kind, value, traceback):
        if kind is None:
            self._series.commit_step()
        else:
            self._series.abandon_step()
        return False


def list_arrays(path, comm=None):
    """Every array of a checkpoint, by its path in the file: dicts of shape, element_type,
    saved_layout, storage_order and compression."""
    return _core.list_arrays(str(path), _address(comm))


def list_steps(path, comm=None):
    """The steps of a series file: dicts of step, complete, attributes, arrays and damage."""
    return _core.list_steps(str(path), _address(comm))


def restore_step(path, name, layout, dtype=None, comm=None, order="C", step=None, verify=True):
    """Array ``name`` of step ``step`` of a series (default: the latest
    complete step holding it, as the C++ restore_step chooses) in a new array
    of ``layout``; the step read is the array's ``step`` attribute.  ``dtype``
    and ``verify`` as restore's."""
    target = _core_layout(layout, "layout")
    step = None if step is None else _step_number(step)
    if dtype is None:
        step, info = _core.step_array_info(str(path), name, _address(comm), step)
        dtype = _numpy_dtype(info, path, name)
    core, chosen = _core.restore_step(str(path), name, target, _dtype_name(dtype), _address(comm), order,
                                      step, bool(verify))
    a = _array(layout, core, comm)
    a.step = chosen
    return a
