"""Python arguments as the compiled core takes them."""

import numpy as np
from mpi4py import MPI


def address(comm):
    """The address of the MPI_Comm of an mpi4py communicator (COMM_WORLD for None)."""
    return MPI._addressof(MPI.COMM_WORLD if comm is None else comm)


def dtype_name(dtype):
    """numpy's name of a dtype (the core's names: float32, ..., complex128)."""
    return np.dtype(dtype).name
