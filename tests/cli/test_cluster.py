"""The options that split a command's search over workers (modlights.cli.cluster):
``modlights solve --workers N / --scheduler ADDRESS [--checkpoint FILE]`` answer as the
library's split search, resume from the file, and every misuse is exit 2 with one line."""

from __future__ import annotations

import concurrent.futures as cf
import json

import numpy as np
import pytest

import modlights as ml
from modlights.cli import cluster, main

GRID = "9x9"  # the all-on 9 x 9 cross: a kernel of 2^8 elements


def _lines(out: str) -> dict:
    return dict(ln.split(":", 1) for ln in out.splitlines() if ":" in ln)


def _json(args, capsys) -> dict:
    rc = main(["solve", "--json", *args])
    out, err = capsys.readouterr()
    assert rc == 0, err
    return json.loads(out)


def _split_answer(board, state, target):
    s = ml.Solver(board)
    with cf.ThreadPoolExecutor(2) as ex:
        return s.solve(state, target, budget=s.kernel_size, executor=ex)


@pytest.mark.parametrize("states,pattern", [(2, "cross"), (3, "square"), (5, "knight")])
def test_workers_and_checkpoint_answer_as_the_split_search(tmp_path, capsys, states, pattern):
    board = ml.Board.grid(6, 6, states=states, pattern=pattern)
    if ml.Solver(board).kernel_size == 1:
        board = ml.Board.grid(5, 5, states=states, pattern=pattern, wrap=True)
    state = board.random_state(rng=states, solvable=True)
    text = " ".join(str(v) for v in state.reshape(-1))
    path = tmp_path / "cp.json"
    args = [
        "--grid",
        "x".join(map(str, board.shape)),
        "--states",
        str(states),
        "--pattern",
        pattern,
        "--state",
        text,
        "--workers",
        "2",
        "--checkpoint",
        str(path),
    ]
    if board.wrap:
        args.append("--wrap")
    first = _json(args, capsys)
    assert path.exists() and json.loads(path.read_text())["format"] == "modlights-checkpoint"
    again = _json(args, capsys)  # every task in the file: the same answer
    want = _split_answer(board, state, 0)
    for doc in (first, again):
        assert doc["length"] == want.length and doc["proven_minimal"] == want.proven_minimal
        assert np.array_equal(np.asarray(doc["taps"]), want.taps)


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "not both"),
        (["--checkpoint", "cp.json"], "give --workers N or --scheduler ADDRESS too"),
        (["--workers", "2", "--budget", "3s"], "give --budget as a count of at least 256"),
        (["--workers", "2", "--budget", "255"], "give --budget as a count of at least 256"),
        (["--workers", "2", "--no-minimal"], "leave out --no-minimal"),
        (["--workers", "2", "--backend", "reference"], "leave out --backend reference"),
        (["--workers", "0"], "--workers"),
    ],
)
def test_misuse_is_one_line_and_exit_2(capsys, tmp_path, monkeypatch, extra, message):
    monkeypatch.chdir(tmp_path)
    rc = main(["solve", "--grid", GRID, "--state", "1" * 81, *extra])
    out, err = capsys.readouterr()
    assert rc == 2
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "cp.json").exists()


def test_a_board_with_one_solution_has_nothing_to_split(capsys):
    rc = main(["solve", "--grid", "6x6", "--states", "3", "--state", "1" * 36, "--workers", "2"])
    _, err = capsys.readouterr()
    assert rc == 2 and "nothing to search" in err


def test_a_scheduler_that_does_not_answer_is_exit_2(capsys, monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    pytest.importorskip("distributed")
    rc = main(["solve", "--grid", GRID, "--state", "1" * 81, "--scheduler", "tcp://127.0.0.1:9"])
    _, err = capsys.readouterr()
    assert rc == 2 and "no dask scheduler answered within 1 s" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.heavy  # a dask LocalCluster of two worker processes: 10-20 s to start
def test_scheduler_runs_the_search_on_a_dask_cluster(capsys, tmp_path, dask_cluster):
    board = ml.Board.grid(30, 30)  # a kernel of 2^20 elements
    path = tmp_path / "cp.json"
    args = [
        "--grid",
        "30x30",
        "--state",
        "0" * 900,
        "--target",
        "1",
        "--scheduler",
        dask_cluster.scheduler_address,
        "--checkpoint",
        str(path),
    ]
    doc = _json(args, capsys)
    want = _split_answer(board, np.zeros(board.shape, np.uint8), 1)
    assert doc["length"] == want.length and doc["proven_minimal"]
    assert np.array_equal(np.asarray(doc["taps"]), want.taps)
    assert len(json.loads(path.read_text())["answers"]) == json.loads(path.read_text())["tasks"]


def test_hardest_groups_on_workers_settles_with_a_checkpoint(capsys, tmp_path):
    """``modlights hardest --groups S --workers N --checkpoint FILE``: the fixed tree of
    hardest_tree over a process pool proves the search's value; the certificate holds;
    the same command again finds every node in the file."""
    cert, cp = tmp_path / "h.json", tmp_path / "tree.json"
    args = [
        "hardest",
        "--grid",
        "4x3",
        "--states",
        "3",
        "--pattern",
        "knight",
        "--wrap",
        "--groups",
        "60s",
        "--workers",
        "2",
        "--checkpoint",
        str(cp),
        "--json",
        "--certificate",
        str(cert),
    ]
    for _ in range(2):
        rc = main(args)
        out, err = capsys.readouterr()
        assert rc == 0, err
        doc = json.loads(out)
        assert doc["groups"]["settled"] and doc["certificate_upper"] == doc["min_taps"]
        assert ml.verify(json.loads(cert.read_text()), max_work=None)
    assert json.loads(cp.read_text())["format"] == "modlights-tree-checkpoint"


def test_hardest_workers_need_groups(capsys):
    rc = main(["hardest", "--grid", "4x4", "--workers", "2"])
    _, err = capsys.readouterr()
    assert rc == 2 and "give --groups SECONDSs too" in err
