"""Files that are not what they claim, written with h5py (Debian's python3-h5py).

  h5py_craft.py SAVED DATASET DIR   writes DIR/<case>.h5 for each case below,
                                    from the distarray checkpoint SAVED
"""
import sys

import h5py
import numpy as np

saved, name, out = sys.argv[1:4]
with h5py.File(saved, "r") as f:
    data = f[name][()]
    attrs = dict(f[name].attrs)

def write(case, array, attributes=None):
    with h5py.File(f"{out}/{case}.h5", "w") as f:
        f["x"] = array
        for key, value in (attributes or {}).items():
            f["x"].attrs[key] = value

pairs = np.zeros(data.shape, dtype=[("a", "f8"), ("b", "f8")])
write("compound_ab", pairs)                                    # not h5py's complex
write("compound_rx", np.zeros(data.shape, dtype=[("r", "f8"), ("x", "f8")]))
write("retyped", data.astype(np.float32), attrs)               # f32 data, attributes saying f64
write("reshaped", data.reshape(data.shape[::-1]), attrs)       # same bytes, other shape
write("no_checksum", data, {k: v for k, v in attrs.items() if k != "distarray_checksum"})
write("vlen_layout", data, {**attrs, "distarray_layout": attrs["distarray_layout"].decode()})  # h5py: variable-length
write("long_type_text", data, {**attrs, "distarray_element_type": "é" * 100})
with h5py.File(f"{out}/huge_chunked.h5", "w") as f:          # 2^40 elements, no chunk written
    f.create_dataset("x", shape=(2**20, 2**20), dtype="f8", chunks=(1024, 1024))
layout = h5py.VirtualLayout(shape=data.shape, dtype=data.dtype)
layout[...] = h5py.VirtualSource(saved, name, shape=data.shape)
with h5py.File(f"{out}/virtual.h5", "w") as f:
    f.create_virtual_dataset("x", layout)
print("crafted", out)
