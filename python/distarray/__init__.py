"""distarray: multidimensional distributed arrays on MPI, from Python.

The Python face of the C++ library: layouts such as ``"block,* on 4x1"``,
arrays whose local blocks are numpy arrays (no copy; on a CUDA build they
live on the GPU and go to CuPy or PyTorch through DLPack), plans that move an
array from one layout to another (``(block,*)`` to ``(*,block)``, block-cyclic
matrices between process grids), and HDF5 checkpoints and series that
restore into any layout on any number of ranks.  Communicators are mpi4py's;
every call is collective over the array's or plan's communicator, and an
error is raised on every rank with the C++ library's message.

    from mpi4py import MPI
    import numpy as np
    import distarray as da

    p = MPI.COMM_WORLD.size
    rows = da.Layout(f"block,* on {p}x1", (1024, 1024))
    cols = da.Layout(f"*,block on 1x{p}", (1024, 1024))
    a = da.DistArray(rows, np.complex128)
    a.fill(lambda i, j: i + 1j * j)
    b = da.redistribute(a, cols)
"""

from . import _core
from ._core import (AllocationError, CheckpointError, Error, LayoutError, MpiError, ScheduleError,
                    ShapeMismatch, UsageError)
from ._array import DistArray, _DeviceBlock  # noqa: F401 (_DeviceBlock: what .local is on a GPU build)
from ._convert import address as _address
from ._convert import core_array as _core_array
from ._convert import core_layout as _core_layout
from ._convert import dtype_name as _dtype_name
from ._convert import whole_number as _whole_number
from ._convert import whole_numbers as _whole_numbers

__all__ = ["Layout", "DistArray", "Plan", "Request", "redistribute", "transform", "save", "restore", "Series",
           "list_arrays", "list_steps", "restore_step", "Error", "LayoutError", "ShapeMismatch", "MpiError",
           "ScheduleError", "CheckpointError", "AllocationError", "UsageError"]

class Layout:
    """How a global array of ``shape`` is spread over a process grid: ``text``
    is the library's notation, one of ``block``, ``block(m)``, ``cyclic``,
    ``cyclic(b)``, ``*`` per dimension and the grid, e.g. ``"cyclic(64),cyclic(64) on 2x2"``."""

    def __init__(self, text, shape):
        self._layout = _core.Layout(str(text), _whole_numbers(shape, "a shape's extents"))

    @classmethod
    def _of(cls, core_layout):
        layout = cls.__new__(cls)
        layout._layout = core_layout
        return layout

    @property
    def ndim(self):
        return self._layout.ndim

    @property
    def shape(self):
        return tuple(self._layout.shape)

    @property
    def grid_size(self):
        """The number of ranks of the process grid."""
        return self._layout.grid_size

    def local_shape(self, rank):
        """The shape of the local block of ``rank`` ((0, ...) outside the grid)."""
        return tuple(self._layout.local_shape(_whole_number(rank, "a rank")))

    def owner(self, index):
        """The rank that owns the element at global ``index``."""
        return self._layout.owner(_whole_numbers(index, "an index"))

    def __str__(self):
        return str(self._layout)

    def __repr__(self):
        return f"Layout('{self._layout}', {self.shape})"

    def __eq__(self, other):
        return isinstance(other, Layout) and self._layout == other._layout


def _arrays(x, what):
    """The compiled arrays of DistArray ``x`` or of a list of them."""
    return [_core_array(e, what) for e in (x if isinstance(x, (list, tuple)) else [x])]


class Request:
    """An execution started by Plan.start: ``test()`` progresses it and says
    whether it is done, ``wait()`` completes it.  It keeps its arrays alive;
    dropped before completion, it completes the execution first."""

    def __init__(self, core_request):
        self._request = core_request

    def test(self):
        return self._request.test()

    def wait(self):
        self._request.wait()


class Plan:
    """The redistribution of ``dtype`` arrays from layout ``source`` to layout
    ``destination`` over ``comm``, planned once and executed any number of
    times.  ``options`` as the C++ PlanOptions, by name: method, schedule,
    exchange, staging (strings, as the CLI takes them), max_message_bytes,
    wisdom, candidate."""

    def __init__(self, source, destination, dtype, comm=None, source_order="C", destination_order="C",
                 **options):
        self.source, self.destination, self.comm = source, destination, comm
        self._plan = _core.Plan(_core_layout(source, "source"), _core_layout(destination, "destination"),
                                _dtype_name(dtype), _address(comm), source_order, destination_order, options)

    def execute(self, a, b):
        """Moves ``a`` into ``b``; lists of arrays execute as one batch."""
        self._plan.execute(_arrays(a, "a"), _arrays(b, "b"))

    def start(self, a, b):
        """Starts moving ``a`` into ``b`` (or lists of them) and returns a Request."""
        return Request(self._plan.start(_arrays(a, "a"), _arrays(b, "b")))

    @property
    def report(self):
        """What the plan chose and its time per activity, in seconds, summed over executions (a dict)."""
        return self._plan.report

    def explain(self):
        """The candidate strategies with their modelled costs, and the one chosen (text)."""
        return self._plan.explain()


def redistribute(a, layout, order=None, node_shared=False, **options):
    """A new array of ``layout`` holding ``a``'s values (a one-off Plan),
    node-shared where ``node_shared`` (with ``exchange="shared"`` it is
    written in one pass)."""
    _core_array(a, "a")  # (TypeError where it is no DistArray)
    order = a.order if order is None else order
    b = DistArray(layout, a.dtype, a.comm, order, node_shared)
    Plan(a.layout, layout, a.dtype, a.comm, a.order, order, **options).execute(a, b)
    return b


def transform(alpha, op, a, a_at, beta, b, b_at, extent):
    """sub(B) = alpha * op(sub(A)) + beta * sub(B) for 2-D arrays of one dtype
    (ScaLAPACK's p?gemr2d, p?tran, p?geadd): sub(B) is the ``extent`` (m, n)
    window of ``b`` at ``b_at`` (0-based), sub(A) the window of ``a`` at
    ``a_at`` that ``op`` ("N", "T" or "C", the conjugate transpose) maps onto it."""
    _core.transform(alpha, op, _core_array(a, "a"), _whole_numbers(a_at, "a_at"), beta, _core_array(b, "b"),
                    _whole_numbers(b_at, "b_at"), _whole_numbers(extent, "extent"))


from ._io import Series, list_arrays, list_steps, restore, restore_step, save  # noqa: E402 (they use the classes above)
