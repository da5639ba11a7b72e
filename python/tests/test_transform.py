# transform against numpy: every op, scalars, windows, dtypes and orders.

import numpy as np
import pytest

import distarray as da
from conftest import DTYPES, random_layout, raised_everywhere, values


@pytest.mark.parametrize("dtype", DTYPES)
def test_transform_matches_numpy(comm, rng, dtype):
    complex_type = np.issubdtype(dtype, np.complexfloating)
    for _ in range(6):
        m, n = rng.randint(1, 9), rng.randint(1, 9)
        op = rng.choice("NTC")
        a_shape = (m + rng.randint(0, 3), n + rng.randint(0, 3)) if op == "N" else (n + rng.randint(0, 3),
                                                                                     m + rng.randint(0, 3))
        b_shape = (m + rng.randint(0, 3), n + rng.randint(0, 3))
        a_at = (rng.randint(0, a_shape[0] - (m if op == "N" else n)), rng.randint(0, a_shape[1] - (n if op == "N" else m)))
        b_at = (rng.randint(0, b_shape[0] - m), rng.randint(0, b_shape[1] - n))
        alpha, beta = (2 - 1j, 0.5j) if complex_type else (3, rng.choice([0, 1, 2]))
        x, y = values(a_shape, dtype), values(b_shape, dtype, 5)
        a = da.DistArray.from_global(random_layout(rng, a_shape, comm.size), x, comm, rng.choice("CF"))
        b = da.DistArray.from_global(random_layout(rng, b_shape, comm.size), y, comm, rng.choice("CF"))
        da.transform(alpha, op, a, a_at, beta, b, b_at, (m, n))
        window = x[a_at[0]:, a_at[1]:]
        window = window[:m, :n] if op == "N" else window[:n, :m].T
        if op == "C":
            window = window.conj()
        expected = y.copy()
        expected[b_at[0]:b_at[0] + m, b_at[1]:b_at[1] + n] = (alpha * window + beta * y[b_at[0]:b_at[0] + m,
                                                                                        b_at[1]:b_at[1] + n]).astype(dtype)
        got = b.gather()
        if comm.rank == 0:
            np.testing.assert_allclose(got, expected, rtol=1e-6, err_msg=f"op {op}, {m}x{n}")


def test_transform_errors_on_every_rank(comm):
    layout = da.Layout("block,* on 1x1", (4, 4))
    a, b = da.DistArray(layout, np.float64, comm), da.DistArray(layout, np.float32, comm)
    assert raised_everywhere(comm, da.ShapeMismatch, lambda: da.transform(1, "N", a, (0, 0), 0, b, (0, 0), (2, 2)))
    assert raised_everywhere(comm, da.UsageError, lambda: da.transform(1, "X", a, (0, 0), 0, a, (0, 0), (2, 2)))
    assert raised_everywhere(comm, da.Error, lambda: da.transform(1, "N", a, (3, 3), 0, a, (0, 0), (2, 2)))
    if comm.size > 1:  # alpha = 0 on rank 0 alone (a hang before)
        alpha = 0 if comm.rank == 0 else 1
        assert raised_everywhere(comm, da.UsageError, lambda: da.transform(alpha, "N", a, (0, 0), 0, a, (0, 0), (2, 2)))
