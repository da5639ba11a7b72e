# Plans against numpy: random layout pairs of every dtype and rank, batches,
# non-blocking executions (a request dropped before wait() included),
# report and explain, redistribute; node-shared arrays (the one pass); errors on every rank.

import gc

import numpy as np
import pytest

import distarray as da
from conftest import DTYPES, random_layout, random_shape, raised_everywhere, values


def check(comm, array, expected, what):
    got = array.gather()
    if comm.rank == 0:
        np.testing.assert_array_equal(got, expected, err_msg=what)


@pytest.mark.parametrize("dtype", DTYPES)
def test_random_plans_match_numpy(comm, rng, dtype):
    for ndim in (1, 2, 3):
        for _ in range(4):
            shape = random_shape(rng, ndim)
            source, destination = random_layout(rng, shape, comm.size), random_layout(rng, shape, comm.size)
            orders = (rng.choice("CF"), rng.choice("CF"))
            expected = values(shape, dtype)
            a = da.DistArray.from_global(source, expected, comm, orders[0])
            b = da.DistArray(destination, dtype, comm, orders[1])
            plan = da.Plan(source, destination, dtype, comm, *orders)
            plan.execute(a, b)
            check(comm, b, expected, f"{source} -> {destination}, orders {orders}")


def test_engines_and_methods_by_name(comm):
    p = comm.size
    shape = (37, 23)
    source, destination = da.Layout(f"block,* on {p}x1", shape), da.Layout(f"*,cyclic(3) on 1x{p}", shape)
    expected = values(shape, np.complex128)
    a = da.DistArray.from_global(source, expected, comm)
    for exchange in ("alltoallv", "p2p", "encoded", "datatype", "shared"):
        for method in ("direct", "auto"):
            b = da.DistArray(destination, np.complex128, comm)
            plan = da.Plan(source, destination, np.complex128, comm, exchange=exchange, method=method)
            plan.execute(a, b)
            check(comm, b, expected, exchange)
            assert plan.report["executions"] == 1
            assert exchange in plan.report["exchange"]
            assert plan.report["settled"]  # a forced engine tries nothing
            assert plan.report["trial_executions"] == 0
            assert plan.report["method"] in plan.explain()


def test_batches_start_test_wait(comm):
    p = comm.size
    shape = (40, 17)
    source, destination = da.Layout(f"cyclic,* on {p}x1", shape), da.Layout(f"*,block on 1x{p}", shape)
    plan = da.Plan(source, destination, np.float64, comm)
    inputs = [da.DistArray.from_global(source, values(shape, np.float64, k), comm) for k in range(3)]
    outputs = [da.DistArray(destination, np.float64, comm) for _ in range(3)]
    plan.execute(inputs, outputs)  # one batch of three
    for k in range(3):
        check(comm, outputs[k], values(shape, np.float64, k), f"batch array {k}")
    request = plan.start(inputs[1], outputs[0])
    while not request.test():
        pass
    request.wait()  # waiting again on a completed request is fine
    check(comm, outputs[0], values(shape, np.float64, 1), "started")
    # A request dropped before wait(): the execution completes first, and its
    # arrays live until then even where Python let them go.
    b = da.DistArray(destination, np.float64, comm)
    request = plan.start(da.DistArray.from_global(source, values(shape, np.float64, 7), comm), b)
    del request
    gc.collect()
    check(comm, b, values(shape, np.float64, 7), "dropped request")


def test_redistribute(comm):
    p = comm.size
    shape = (7, 5, 3)
    a = da.DistArray.from_global(da.Layout(f"block,*,* on {p}x1x1", shape), values(shape, np.int32), comm)
    b = da.redistribute(a, da.Layout(f"*,*,cyclic on 1x1x{p}", shape), order="F")
    assert b.order == "F" and b.dtype == np.int32
    check(comm, b, values(shape, np.int32), "redistribute")


def test_plan_errors_on_every_rank(comm):
    p = comm.size
    rows, cols = da.Layout(f"block,* on {p}x1", (8, 8)), da.Layout(f"*,block on 1x{p}", (8, 8))
    plan = da.Plan(rows, cols, np.float64, comm)
    a = da.DistArray(rows, np.float64, comm)
    wrong_type = da.DistArray(cols, np.float32, comm)
    assert raised_everywhere(comm, da.ShapeMismatch, lambda: plan.execute(a, wrong_type))
    assert raised_everywhere(comm, da.ShapeMismatch, lambda: plan.execute(a, a))  # a is not of layout cols
    assert raised_everywhere(comm, da.UsageError, lambda: da.Plan(rows, cols, np.float64, comm, exchnage="p2p"))
    assert raised_everywhere(comm, da.UsageError, lambda: da.Plan(rows, cols, np.float64, comm, exchange="fast"))
    assert raised_everywhere(comm, da.ShapeMismatch,
                             lambda: da.Plan(rows, da.Layout("block on 1", (64,)), np.float64, comm))
    assert raised_everywhere(comm, da.UsageError,
                             lambda: plan.execute([a, a], [da.DistArray(cols, np.float64, comm)]))
    if p > 1:  # ranks passing different options (a hang before: their engines met in mismatched collectives)
        engine = "p2p" if comm.rank == 0 else "alltoallv"
        assert raised_everywhere(comm, da.UsageError, lambda: da.Plan(rows, cols, np.float64, comm, exchange=engine))


def test_node_shared_destinations_go_in_one_pass(comm):
    p = comm.size
    shape = (45, 67)  # ragged at every rank count
    source, destination = da.Layout(f"block,* on {p}x1", shape), da.Layout(f"*,cyclic(4) on 1x{p}", shape)
    for dtype, order in ((np.float64, "F"), (np.complex64, "C")):
        plan = da.Plan(source, destination, dtype, comm, destination_order=order, exchange="shared")
        b = da.DistArray(destination, dtype, comm, order, node_shared=True)
        for k in range(3):
            a = da.DistArray.from_global(source, values(shape, dtype, k), comm)
            b.local[...] = -1
            plan.execute(a, b)
            check(comm, b, values(shape, dtype, k), f"node-shared {dtype.__name__} {order}, execution {k}")
        # Every rank of the one node passed a node-shared destination: nothing unpacked.
        assert plan.report["unpack_launches"] == 0
        private = da.DistArray(destination, dtype, comm, order)
        plan.execute(da.DistArray.from_global(source, values(shape, dtype, 9), comm), private)
        check(comm, private, values(shape, dtype, 9), "private destination after node-shared ones")
        # The numpy view keeps the node-shared block alive after the array object goes.
        view = b.local
        del b
        gc.collect()
        view[...] = 0


def test_node_shared_from_global_from_local_and_redistribute(comm):
    p = comm.size
    shape = (23, 41)
    source, destination = da.Layout(f"block,* on {p}x1", shape), da.Layout(f"*,cyclic(5) on 1x{p}", shape)
    expected = values(shape, np.float64, 3)
    plan = da.Plan(source, destination, np.float64, comm, destination_order="F", exchange="shared")
    a = da.DistArray.from_global(source, expected, comm, node_shared=True)
    made = {
        "from_global": da.DistArray.from_global(destination, np.zeros(shape), comm, "F", node_shared=True),
        "from_local": da.DistArray.from_local(
            destination, np.full(destination.local_shape(comm.rank), 7.0), comm, "F", node_shared=True
        ),
        "redistribute": da.redistribute(a, destination, order="F", node_shared=True, exchange="shared"),
    }
    check(comm, a, expected, "from_global, node-shared source")
    check(comm, made["redistribute"], expected, "redistribute into a node-shared array")
    for how, b in made.items():
        before = plan.report["unpack_launches"]
        plan.execute(a, b)
        check(comm, b, expected, f"into the node-shared array of {how}")
        assert plan.report["unpack_launches"] == before, f"{how}: its array is not node-shared"
