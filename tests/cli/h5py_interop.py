"""Interop with h5py (Debian's python3-h5py, run with /usr/bin/python3).

  h5py_interop.py check FILE DATASET   the dataset equals the distarray pattern
  h5py_interop.py write FILE DATASET   writes the pattern as h5py would, 37x23 f64
  h5py_interop.py series-check FILE ARRAY   every complete step s of a distarray series
                                            holds ARRAY = the pattern of index + s, with its attributes
  h5py_interop.py series-write FILE ARRAY   writes a series as h5py would: steps 0 and 1
                                            complete (ARRAY f64 29x17, z complex, k int32), step 2
                                            without its completion marker
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
elif mode == "series-check":
    with h5py.File(path, "r") as f:
        steps = sorted((g for g in f.values() if "distarray_step" in g.attrs), key=lambda g: g.attrs["distarray_step"])
        if not steps:
            sys.exit(f"{path}: no steps")
        for g in steps:
            s = int(g.attrs["distarray_step"])
            if g.attrs.get("distarray_complete") != 1:
                sys.exit(f"{path}: step {s} is not complete")
            data = g[name][()]
            expected = np.arange(data.size).reshape(data.shape) + s
            if np.iscomplexobj(data):
                expected = expected - 1j * expected
            if not np.array_equal(data, expected.astype(data.dtype)):
                sys.exit(f"{path}: step {s} {name} differs from the pattern + {s}")
            print(f"h5py read step {s}: {name} {data.dtype} {data.shape} equal to the pattern + {s};",
                  "attributes", {k: v for k, v in g.attrs.items() if not k.startswith("distarray_")},
                  "compression", g[name].compression)
elif mode == "series-write":
    with h5py.File(path, "w") as f:
        f.attrs["distarray_series"] = np.uint64(1)
        for s in range(3):
            g = f.create_group(f"step_{s}")
            g.attrs["distarray_step"] = np.uint64(s)
            g.attrs["time"] = 0.25 * s
            g.attrs["note"] = "written by h5py"
            g.create_dataset(name, data=np.arange(29 * 17, dtype=np.float64).reshape(29, 17) + s,
                             compression="gzip", shuffle=True, chunks=(8, 17))
            g["z"] = ((np.arange(11) + s) * (1 - 1j)).astype(np.complex128)
            g["k"] = np.arange(13, dtype=np.int32) + s
            if s < 2:
                g.attrs["distarray_complete"] = np.uint64(1)
    print(f"h5py wrote series {path}: steps 0, 1 complete, step 2 incomplete")
else:
    sys.exit("usage: h5py_interop.py check|write|series-check|series-write FILE NAME")
