"""The distributed array of the distarray package (imported into it)."""

import numpy as _np
from mpi4py import MPI as _MPI

from . import _core
from ._convert import address as _address
from ._convert import core_layout as _core_layout
from ._convert import dtype_name as _dtype_name
from ._convert import host_array as _host_array
from ._convert import in_array_memory as _in_array_memory
from ._convert import whole_number as _whole_number
from ._core import Error, ShapeMismatch


class DistArray:
    """A global array of ``layout`` over the ranks of ``comm`` (mpi4py,
    default COMM_WORLD), ``dtype`` one of float32, float64, int32, int64,
    complex64, complex128; each rank's local block in ``order`` "C" or "F".
    Construction is collective. With ``node_shared=True`` the local block
    lives in memory every rank of its node maps (on a GPU build, device
    memory the node's ranks open through CUDA or HIP IPC), and
    a plan on the shared engine writes into such destination arrays in one
    pass where every rank of the node passes one of a single construction
    (docs/guide.md, the shared engine)."""

    def __init__(self, layout, dtype, comm=None, order="C", node_shared=False):
        core_array = _core.Array(_core_layout(layout, "layout"), _dtype_name(dtype), _address(comm), order,
                                 bool(node_shared))
        self._init(layout, core_array, comm)

    def _init(self, layout, core_array, comm):
        self.layout = layout
        self.comm = _MPI.COMM_WORLD if comm is None else comm
        self._array = core_array

    @classmethod
    def _of(cls, layout, core_array, comm):
        a = cls.__new__(cls)
        a._init(layout, core_array, comm)
        return a

    @classmethod
    def from_global(cls, layout, array, comm=None, order="C", node_shared=False):
        """Each rank takes its part of ``array``, the whole global array (on
        every rank; any array numpy or DLPack reads on the host); the block
        node-shared as in the constructor where ``node_shared``."""
        array = _host_array(array)
        if array.shape != layout.shape:
            raise ShapeMismatch(f"the array's shape {array.shape} is not the layout's {layout.shape}")
        a = cls(layout, array.dtype, comm, order, node_shared)
        a._assign(array[a.global_indices()])
        return a

    @classmethod
    def from_local(cls, layout, local, comm=None, order="C", node_shared=False):
        """A new array whose local block is a copy of ``local`` on each rank
        (its shape must be this rank's local shape): a DLPack array in the
        memory this build's arrays live in (a CuPy array or CUDA tensor on a
        CUDA build) is copied there directly, anything else numpy reads on
        the host; the block node-shared as in the constructor where
        ``node_shared``."""
        on_device = _in_array_memory(local)
        dtype = _core.dlpack_dtype(local) if on_device else _host_array(local).dtype
        a = cls(layout, dtype, comm, order, node_shared)
        error = None
        try:
            a._assign(local)
        except Error as e:
            error = (type(e), str(e))
        errors = [e for e in a.comm.allgather(error) if e is not None]
        if errors:  # refused on every rank, with the lowest refusing rank's error
            raise errors[0][0](errors[0][1])
        return a

    def _assign(self, values):
        """Copies ``values`` into the local block (not collective)."""
        if _in_array_memory(values):
            self._array.assign_dlpack(values)
        else:
            self._array.assign_host(_np.asarray(_host_array(values), dtype=self.dtype))

    @property
    def local(self):
        """This rank's local block, without a copy: a writable numpy array
        where the arrays live in host memory; on a GPU build an object that
        speaks DLPack (``cupy.from_dlpack(a.local)``, ``torch.from_dlpack``)."""
        return self._array.local if _core.host_memory else _DeviceBlock(self)

    def __dlpack__(self, stream=None, max_version=None):
        """The local block through DLPack (no copy), e.g. torch.from_dlpack(a).
        Device work on an array has completed when the call that wrote it
        returns (a request's, when wait returns), so ``stream`` needs no
        ordering; the capsule is DLPack's unversioned one whatever ``max_version``."""
        return self._array.dlpack()

    def __dlpack_device__(self):
        return _core.dlpack_device

    @property
    def dtype(self):
        return _np.dtype(self._array.dtype)

    @property
    def shape(self):
        return self.layout.shape

    @property
    def ndim(self):
        return self.layout.ndim

    @property
    def order(self):
        return self._array.order

    def global_indices(self):
        """Per dimension, the global index of each local element (int64 arrays of the local shape)."""
        return self._array.global_indices()

    def fill(self, func):
        """Sets each local element to ``func(i, j, ...)``, called once with the
        global indices of all local elements as arrays (as numpy.fromfunction)."""
        shape = tuple(self._array.local_shape)
        self._assign(_np.broadcast_to(_np.asarray(func(*self.global_indices()), dtype=self.dtype), shape))

    def gather(self, root=0):
        """The whole array on ``root`` (None on the other ranks); collective, for small arrays."""
        return self._array.gather(_whole_number(root, "root"))

    def __repr__(self):
        return f"DistArray({self.layout!r}, {self.dtype}, order='{self.order}')"


class _DeviceBlock:
    """A local block in GPU memory, as a DLPack producer (no copy)."""

    def __init__(self, array):
        self._array, self.shape, self.dtype = array, tuple(array._array.local_shape), array.dtype

    def __dlpack__(self, stream=None, max_version=None):
        return self._array.__dlpack__(stream, max_version)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()
