"""Checkpoints of split searches (modlights.search.checkpoint, through
``Solver.solve(checkpoint=...)``): a search stopped part way and resumed with its file
gives the answer and certificate of a run that never stopped, runs only the tasks the
file lacks, and a file of another search, or not a checkpoint, is refused untouched."""

from __future__ import annotations

import concurrent.futures as cf
import json

import numpy as np
import pytest

import modlights as ml
from modlights.search import checkpoint as checkpoint_module
from modlights.search import minimal
from modlights.search.checkpoint import Checkpoint
from strategies import random_masks

PATTERNS = ["cross", "square", "diagonal", "horizontal", "knight"]


def random_boards(seed: int, count: int, lo: int = 1 << 6, hi: int = 1 << 14):
    """Random grid boards (n 2..7, sides 3..9, locks, holes, wrap) whose kernel has
    between ``lo`` and ``hi`` elements: split into several tasks, searched fast."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        n = int(rng.integers(2, 8))
        shape = (int(rng.integers(3, 10)), int(rng.integers(3, 10)))
        locked, holes = random_masks(rng, shape, 0.1, 0.1)
        b = ml.Board.grid(
            *shape,
            states=n,
            pattern=str(rng.choice(PATTERNS)),
            locked=locked,
            holes=holes,
            wrap=bool(rng.integers(2)),
        )
        if lo <= ml.Solver(b).kernel_size <= hi:
            out.append(b)
    return out


class _Counting(cf.ThreadPoolExecutor):
    """A thread pool that counts the tasks submitted to it."""

    def __init__(self, workers: int = 2):
        super().__init__(workers)
        self.submitted = 0

    def submit(self, fn, /, *args, **kwargs):
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


def _stop_after(waits: int):
    """A progress callback that raises KeyboardInterrupt at its ``waits``-th call after
    the first (the split search calls it after each wait that merged tasks)."""
    calls = [0]

    def progress(done, total):
        calls[0] += 1
        if calls[0] == waits + 1:
            raise KeyboardInterrupt("stopped by the test")

    return progress


def _stopped_search(s, state, ex, path, waits: int) -> None:
    """The search of the all-ones target from ``state`` over ``ex`` keeping ``path``,
    stopped (KeyboardInterrupt, as Ctrl-C) after ``waits`` waits."""
    with pytest.raises(KeyboardInterrupt):
        s.solve(
            state,
            1,
            budget=s.kernel_size,
            executor=ex,
            checkpoint=path,
            progress=_stop_after(waits),
        )


def _answers(path) -> dict:
    return json.loads(path.read_text())["answers"]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_stopped_search_resumes_to_the_uninterrupted_answer(tmp_path, seed):
    rng = np.random.default_rng(seed)
    resumed_part_way = 0
    for i, b in enumerate(random_boards(seed, 5)):
        s = ml.Solver(b)
        state = b.random_state(rng=rng, solvable=True)
        ks = s.kernel_size
        with cf.ThreadPoolExecutor(2) as ex:
            whole = s.solve(state, budget=ks, executor=ex)
        path = tmp_path / f"cp{i}.json"
        with _Counting() as ex:
            try:
                s.solve(state, budget=ks, executor=ex, checkpoint=path, progress=_stop_after(1))
            except KeyboardInterrupt:
                pass
        kept = _answers(path) if path.exists() else {}
        tasks = json.loads(path.read_text())["tasks"] if path.exists() else 0
        with _Counting() as ex:
            got = s.solve(state, budget=ks, executor=ex, checkpoint=path)
            assert ex.submitted <= tasks - len(kept) or not path.exists()
        resumed_part_way += 0 < len(kept) < tasks
        assert got.proven_minimal and got.length == whole.length
        np.testing.assert_array_equal(got.taps, whole.taps)
        assert got.certificate() == whole.certificate()
        assert ml.verify(got.certificate())
        assert got.length == s.solve(state, budget=ks).length  # the one-process search
        assert len(_answers(path)) <= json.loads(path.read_text())["tasks"]
    assert resumed_part_way  # some file held part of a search when it resumed


def test_the_resumed_run_submits_only_the_missing_tasks(tmp_path, monkeypatch):
    monkeypatch.setattr(minimal, "TASKS_PER_WORKER", 8)
    b = ml.Board.grid(30, 30)  # kernel 2^20, 32 tasks on 2 workers (the transform search)
    s = ml.Solver(b)
    state = np.zeros(b.shape, np.uint8)
    path = tmp_path / "cp.json"
    with _Counting() as ex:
        _stopped_search(s, state, ex, path, 2)
    doc = json.loads(path.read_text())
    kept = len(doc["answers"])
    assert 0 < kept < doc["tasks"]
    with _Counting(workers=3) as ex:  # another pool size: the file's split is kept
        got = s.solve(state, 1, budget=s.kernel_size, executor=ex, checkpoint=path)
        assert ex.submitted == doc["tasks"] - kept
    with _Counting() as ex:
        whole = s.solve(state, 1, budget=s.kernel_size, executor=ex)
    assert got.certificate() == whole.certificate()
    with _Counting() as ex:  # a finished file: nothing left to run
        again = s.solve(state, 1, budget=s.kernel_size, executor=ex, checkpoint=path)
        assert ex.submitted == 0
    np.testing.assert_array_equal(again.taps, whole.taps)


def test_a_file_of_another_search_is_refused_untouched(tmp_path):
    b = ml.Board.grid(9, 9)
    s = ml.Solver(b)
    path = tmp_path / "cp.json"
    with cf.ThreadPoolExecutor(2) as ex:
        s.solve(np.ones(b.shape, int), budget=s.kernel_size, executor=ex, checkpoint=path)
        before = path.read_bytes()
        with pytest.raises(ValueError, match="belongs to another search"):
            s.solve(
                b.random_state(rng=1), budget=s.kernel_size, executor=ex, checkpoint=path
            )  # another state
        with pytest.raises(ValueError, match="belongs to another search"):
            s.solve(
                np.ones(b.shape, int),
                budget=s.kernel_size,
                executor=ex,
                checkpoint=path,
                target=np.eye(9, dtype=int),
            )
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"format": "modlights-certificate", "version": 1}',
        '{"format": "modlights-checkpoint", "version": 2, "search": "", "split": 1, '
        '"tasks": 1, "answers": {}, "best": null}',
        '{"format": "modlights-checkpoint", "version": 1, "search": "", "split": 1, '
        '"tasks": 1, "answers": {"3": [1, 1, 1, 1, 1]}, "best": null}',
        '{"format": "modlights-checkpoint", "version": 1, "search": "", "split": 1, '
        '"tasks": 1, "answers": {"0": [1, 1, 1, 1, 1]}, "best": {"task": 0, "taps": "zz"}}',
        '{"format": "modlights-checkpoint", "version": 1, "search": "", "split": 1, '
        '"tasks": 1, "answers": {"0": [1, 1, 1, 1]}, "best": null}',
        "[" * 100000,
    ],
)
def test_what_is_not_a_checkpoint_is_refused(tmp_path, text):
    path = tmp_path / "cp.json"
    path.write_text(text)
    with pytest.raises(ValueError, match="is not a modlights checkpoint"):
        Checkpoint(path).split_of()
    assert path.read_text() == text


def test_a_file_past_the_size_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(checkpoint_module, "MAX_BYTES", 10)
    path = tmp_path / "cp.json"
    path.write_text("x" * 11)
    with pytest.raises(ValueError, match="more than a checkpoint holds"):
        Checkpoint(path).split_of()
    with pytest.raises(ValueError, match="is a directory"):
        Checkpoint(tmp_path)


def test_checkpoint_needs_the_split_search(tmp_path):
    b = ml.Board.grid(9, 9)
    s = ml.Solver(b)
    state = np.ones(b.shape, int)
    path = tmp_path / "cp.json"
    ks = s.kernel_size
    with cf.ThreadPoolExecutor(1) as ex:
        for kwargs in (
            dict(budget=ks),  # no executor
            dict(budget=ks, executor=ex, minimal=False),
            dict(budget=ks - 1, executor=ex),  # a count short of the coset
            dict(budget=5.0, executor=ex),  # seconds
        ):
            with pytest.raises(ValueError, match="checkpoint= keeps the tasks"):
                s.solve(state, checkpoint=path, **kwargs)
        with pytest.raises(ValueError, match="checkpoint= keeps the tasks"):
            ml.Solver(b, backend="reference").solve(state, budget=ks, executor=ex, checkpoint=path)
        with pytest.raises(ValueError, match="must be a file path"):
            s.solve(state, budget=ks, executor=ex, checkpoint=3)
    assert not path.exists()


@pytest.mark.heavy  # a dask LocalCluster of two worker processes: 10-20 s to start
def test_a_search_stopped_on_a_dask_cluster_resumes_there(tmp_path, dask_executor):
    b = ml.Board.grid(30, 30)
    s = ml.Solver(b)
    state = np.zeros(b.shape, np.uint8)
    path = tmp_path / "cp.json"
    ex = dask_executor
    _stopped_search(s, state, ex, path, 1)
    assert 0 < len(_answers(path))
    got = s.solve(state, 1, budget=s.kernel_size, executor=ex, checkpoint=path)
    whole = s.solve(state, 1, budget=s.kernel_size, executor=ex)
    assert got.proven_minimal and got.certificate() == whole.certificate()
    assert got.length == s.solve(state, 1, budget=s.kernel_size).length
