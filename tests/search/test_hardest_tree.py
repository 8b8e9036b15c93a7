"""The hardest board's upper-bound tree as tasks (modlights.search.hardest_tree): the
same certificate in one process, on threads, on processes and on a dask cluster; a run
stopped part way and resumed from its checkpoint gives it too; a target below the value
yields a harder board with its exact value; files of another tree are refused."""

from __future__ import annotations

import concurrent.futures as cf
import json

import numpy as np
import pytest

import modlights as ml
from modlights.native import _core
from modlights.search import hardest_tree
from modlights.search.hardest_tree import tree_bound


def _board_with_a_tree():
    """A board whose tree has 13 nodes (its root LP bound is above its value)."""
    return ml.Board.grid(4, 3, states=3, pattern="knight", wrap=True)


def _boards():
    return [
        _board_with_a_tree(),
        ml.Board.grid(5, 5),
        ml.Board.grid(4, 4, states=3),
        ml.Board.grid(3, 4, states=4, pattern="square", wrap=True),
        ml.Board.grid(4, 4, states=2, pattern="diagonal", locked=[(0, 0)], holes=[(3, 3)]),
    ]


def _brute_value(b) -> int:
    """max over x of min over c of weight(x + c), by enumerating every x (small)."""
    s = ml.Solver(b)
    n, r = b.states, b.n_taps
    H = s.kernel().astype(np.int64)
    orders = s.kernel_orders
    coeffs = np.stack(np.meshgrid(*[np.arange(o) for o in orders], indexing="ij"), -1).reshape(
        -1, len(orders)
    )
    K = (coeffs @ H) % n
    best = 0
    xs = np.stack(np.meshgrid(*[np.arange(n)] * r, indexing="ij"), -1).reshape(-1, r)
    for lo in range(0, len(xs), 4096):
        X = xs[lo : lo + 4096]
        w = ((X[:, None, :] + K[None, :, :]) % n).sum(axis=2).min(axis=1)
        best = max(best, int(w.max()))
    return best


def _certificate(b, upper_bound: dict, value: int) -> dict:
    cert = ml.Solver(b).hardest().certificate()
    assert cert["lower"] == value
    return {**cert, "upper": value, "upper_bound": upper_bound}


@pytest.mark.parametrize("b", _boards(), ids=lambda b: f"{b.shape}/{b.states}")
def test_the_tree_proves_the_value_with_the_same_certificate_everywhere(b, monkeypatch):
    s = ml.Solver(b)
    value = s.hardest().min_taps
    if b.states**b.n_taps <= 1 << 16:
        assert value == _brute_value(b)
    H, orders = s.kernel(), s.kernel_orders
    one = tree_bound(b, H, orders, value)
    assert one["done"] and one["harder"] is None
    cert = _certificate(b, one["upper_bound"], value)
    assert ml.verify(cert, max_work=None)
    assert _core.verify_json(json.dumps(cert))[0] is True
    monkeypatch.setattr(hardest_tree, "TASK_NODES", 1)  # a task a node
    with cf.ThreadPoolExecutor(3) as ex:
        threads = tree_bound(b, H, orders, value, executor=ex)
    assert threads["upper_bound"] == one["upper_bound"]
    assert threads["nodes"] == one["nodes"]


def test_processes_give_the_same_certificate():
    b = _board_with_a_tree()
    s = ml.Solver(b)
    value = s.hardest().min_taps
    one = tree_bound(b, s.kernel(), s.kernel_orders, value)
    assert one["nodes"] > 3
    with cf.ProcessPoolExecutor(2) as ex:
        procs = tree_bound(b, s.kernel(), s.kernel_orders, value, executor=ex)
    assert procs["upper_bound"] == one["upper_bound"]


def test_a_target_below_the_value_finds_a_harder_board():
    for b in _boards()[:3]:
        s = ml.Solver(b)
        value = s.hardest().min_taps
        got = tree_bound(b, s.kernel(), s.kernel_orders, value - 1)
        assert not got["done"] and got["upper_bound"] is None
        x, v = got["harder"]
        assert v == value  # no board needs more than the value
        state = b.apply(
            np.zeros(b.shape, np.uint8), b.from_tap_vector((-x.astype(np.int64)) % b.states)
        )
        assert s.solve(state, budget=s.kernel_size).length == v


class _StopAfter(cf.ThreadPoolExecutor):
    """A pool that raises KeyboardInterrupt at its ``k``-th submit (a stopped run)."""

    def __init__(self, k: int):
        super().__init__(2)
        self.k, self.submitted = k, 0

    def submit(self, fn, /, *args, **kwargs):
        self.submitted += 1
        if self.submitted == self.k:
            raise KeyboardInterrupt("stopped by the test")
        return super().submit(fn, *args, **kwargs)


def test_a_stopped_tree_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    monkeypatch.setattr(hardest_tree, "TASK_NODES", 1)
    b = _board_with_a_tree()
    s = ml.Solver(b)
    H, orders = s.kernel(), s.kernel_orders
    value = s.hardest().min_taps
    whole = tree_bound(b, H, orders, value)
    path = tmp_path / "tree.json"
    with _StopAfter(6) as ex, pytest.raises(KeyboardInterrupt):
        tree_bound(b, H, orders, value, executor=ex, checkpoint=path)
    kept = json.loads(path.read_text())["entries"]
    assert 0 < len(kept) < whole["nodes"]
    with cf.ThreadPoolExecutor(2) as ex:
        got = tree_bound(b, H, orders, value, executor=ex, checkpoint=path)
    assert got["done"] and got["upper_bound"] == whole["upper_bound"]
    again = tree_bound(b, H, orders, value, checkpoint=path)  # nothing left to do
    assert again["upper_bound"] == whole["upper_bound"]
    with pytest.raises(ValueError, match="belongs to another search"):
        tree_bound(b, H, orders, value + 1, checkpoint=path)  # another target
    for text in (
        "[",
        "{}",
        '{"format": "modlights-tree-checkpoint", "version": 1, '
        f'"search": "{json.loads(path.read_text())["search"]}", '
        '"entries": {"2": ["leaf", [], []]}}',
    ):
        bad = tmp_path / "bad.json"
        bad.write_text(text)
        with pytest.raises(ValueError, match="is not a modlights tree checkpoint"):
            tree_bound(b, H, orders, value, checkpoint=bad)
        assert bad.read_text() == text


def test_bad_arguments_are_refused(tmp_path):
    b = ml.Board.grid(5, 5)
    s = ml.Solver(b)
    with pytest.raises(ValueError, match="upper must be at least 0"):
        tree_bound(b, s.kernel(), s.kernel_orders, -1)
    with pytest.raises(ValueError, match="executor"):
        tree_bound(b, s.kernel(), s.kernel_orders, 3, executor=object())
    with pytest.raises(ValueError, match="is a directory"):
        tree_bound(b, s.kernel(), s.kernel_orders, 3, checkpoint=tmp_path)


@pytest.mark.heavy  # a dask LocalCluster of two worker processes: 10-20 s to start
def test_a_dask_cluster_gives_the_same_certificate(monkeypatch, dask_executor):
    monkeypatch.setattr(hardest_tree, "TASK_NODES", 2)
    b = _board_with_a_tree()
    s = ml.Solver(b)
    value = s.hardest().min_taps
    one = tree_bound(b, s.kernel(), s.kernel_orders, value)
    got = tree_bound(b, s.kernel(), s.kernel_orders, value, executor=dask_executor)
    assert got["upper_bound"] == one["upper_bound"]
