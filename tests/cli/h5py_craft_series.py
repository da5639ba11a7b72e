"""Series that are not what they claim, made with h5py from a distarray series.

  h5py_craft_series.py SERIES DIR   writes DIR/<case>.h5 for each case below from
                                    SERIES (steps 3, 4, 5 of array u, complete)
"""
import shutil
import sys

import h5py
import numpy as np

series, out = sys.argv[1:3]

def crafted(case):
    path = f"{out}/{case}.h5"
    shutil.copyfile(series, path)
    return h5py.File(path, "r+")

with crafted("series_forged_step") as f:      # step 4 claims to be step 5
    f["step_4"].attrs["distarray_step"] = np.uint64(5)
with crafted("series_no_header") as f:        # step 4 lost its step number
    del f["step_4"].attrs["distarray_step"]
with crafted("series_latest_lacks_u") as f:   # a later complete step without u
    f.create_group("step_6")
    f["step_6/w"] = f["step_5/u"][()]
    f["step_6"].attrs["distarray_step"] = np.uint64(6)
    f["step_6"].attrs["distarray_complete"] = np.uint64(1)
print("crafted series in", out)
