"""Python arguments as the compiled core takes them."""

import numpy as np
from mpi4py import MPI


def address(comm):
    """The address of the MPI_Comm of an mpi4py communicator (COMM_WORLD for None)."""
    return MPI._addressof(MPI.COMM_WORLD if comm is None else comm)


def dtype_name(dtype):
    """numpy's name of a dtype (the core's names: float32, ..., complex128)."""
    return np.dtype(dtype).name


_DLPACK_CPU = 1  # DLDeviceType kDLCPU


def host_array(x):
    """``x`` as a numpy array: through DLPack where it speaks it (no copy:
    a PyTorch CPU tensor, say), else numpy.asarray.  Arrays in device memory
    (CuPy, CUDA tensors) are refused: this module holds host memory only."""
    if hasattr(x, "__dlpack_device__"):
        device = int(x.__dlpack_device__()[0])
        if device != _DLPACK_CPU:
            from ._core import UsageError
            raise UsageError(f"a DLPack array on device type {device}: distarray for Python holds host "
                             "memory only (copy it to the host first)")
        if not isinstance(x, np.ndarray):
            return np.from_dlpack(x)
    return np.asarray(x)
