"""Python arguments as the compiled core takes them."""

import operator

import numpy as np
from mpi4py import MPI


def address(comm):
    """The address of the MPI_Comm of an mpi4py communicator (COMM_WORLD for None)."""
    return MPI._addressof(MPI.COMM_WORLD if comm is None else comm)


def core_array(x, what):
    """The compiled array behind DistArray ``x``; TypeError naming ``what`` otherwise."""
    return _core_of(x, "_array", "DistArray", what)


def core_layout(x, what):
    """The compiled layout behind Layout ``x``; TypeError naming ``what`` otherwise."""
    return _core_of(x, "_layout", "Layout", what)


def _core_of(x, attribute, kind, what):
    try:
        return getattr(x, attribute)
    except AttributeError:
        raise TypeError(f"{what} must be a distarray.{kind}, not {type(x).__name__}") from None


def whole_number(value, what):
    """``value`` as an int: a whole number (numpy's too); anything else, a
    float included (it would be truncated), is a TypeError naming ``what``."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be a whole number, not {value!r}") from None


def whole_numbers(values, what):
    """The whole numbers of an index, a shape or an extent (whole_number)."""
    return [whole_number(v, what) for v in values]


def step_number(step):
    """A series step as the core takes it: a whole number from 0 to 2^64 - 1."""
    from ._core import UsageError
    n = whole_number(step, "a step")
    if not 0 <= n < 1 << 64:
        raise UsageError(f"step {n} is outside 0 to 2^64 - 1")
    return n


def dtype_name(dtype):
    """numpy's name of a dtype (the core's names: float32, ..., complex128)."""
    return np.dtype(dtype).name


_DLPACK_CPU = 1  # DLDeviceType kDLCPU


def in_array_memory(x):
    """Whether ``x`` is a DLPack array in the memory this build's arrays live
    in (the GPU of a CUDA build; the host's on other builds, but not numpy's
    own arrays, which take the host path): the core copies it directly."""
    from . import _core
    if isinstance(x, np.ndarray) or not hasattr(x, "__dlpack_device__"):
        return False
    return tuple(int(v) for v in x.__dlpack_device__()) == tuple(_core.dlpack_device)


def host_array(x):
    """``x`` as a numpy array: through DLPack where it speaks it (no copy:
    a PyTorch CPU tensor, say), else numpy.asarray.  Arrays in other memory
    (CuPy, CUDA tensors on a host build) are refused."""
    if hasattr(x, "__dlpack_device__") and not isinstance(x, np.ndarray):
        device = tuple(int(v) for v in x.__dlpack_device__())
        if device[0] != _DLPACK_CPU:
            from ._core import UsageError, dlpack_device
            raise UsageError(f"a DLPack array on device {device}, but numpy reads host memory only"
                             f" (this build's arrays live on device {tuple(dlpack_device)}; from_local takes"
                             " arrays there)")
        return np.from_dlpack(x)
    return np.asarray(x)
