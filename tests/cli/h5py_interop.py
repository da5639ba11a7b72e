"""Interop with h5py (Debian's python3-h5py, run with /usr/bin/python3).

  h5py_interop.py check FILE DATASET   the dataset equals the distarray pattern
  h5py_interop.py write FILE DATASET   writes the pattern as h5py would, 37x23 f64
"""
import sys

import h5py
import numpy as np

mode, path, name = sys.argv[1:4]
if mode == "check":
    with h5py.File(path, "r") as f:
        data = f[name][()]
        expected = np.arange(data.size).reshape(data.shape)
        if np.iscomplexobj(data):
            expected = expected - 1j * expected
        if not np.array_equal(data, expected.astype(data.dtype)):
            sys.exit(f"{path}:{name} differs from the pattern in {np.count_nonzero(data != expected)} elements")
        print(f"h5py read {name}: {data.dtype} {data.shape}, equal to the pattern;",
              "layout attribute:", f[name].attrs["distarray_layout"].decode())
elif mode == "write":
    with h5py.File(path, "w") as f:
        f[name] = np.arange(37 * 23, dtype=np.float64).reshape(37, 23)
    print(f"h5py wrote {name}")
else:
    sys.exit("usage: h5py_interop.py check|write FILE DATASET")
