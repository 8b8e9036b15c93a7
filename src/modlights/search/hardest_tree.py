"""The hardest board's upper-bound tree as independent tasks: the same certificate from
one process, a process pool or a dask cluster, and checkpoints, so that a proof of days
resumes where it stopped.

:func:`modlights.search.hardest_bb.group_hardest` searches best first, which needs one
queue in one process, and the tree it writes depends on the order it met the boards.
Here the tree is fixed by its target ``upper`` (a value to prove, e.g. the best board
found): a node is closed when its bound (:meth:`GroupSearch.bound`, floored) is at most
``upper``; otherwise it is split by :meth:`GroupSearch.split`; a node with every unit
fixed is one board, closed by its exact value, and a board past ``upper`` ends the run
(the caller proves the larger value next). A node's bound uses its parent's kernel
elements as the first rows and single-threaded HiGHS, so it depends on the node and
its parent only: every executor, any number of workers, a resumed run, builds the same
tree, and the certificate (its ``lp-tree``, nodes in preorder, elements numbered by
first use) is the same bytes.

Nodes are named by their path from the root, a string of child numbers ('' the root,
'0' and '1' its children): the preorder of the tree is the sorted order of the paths.
A task expands a subtree depth first from one node, up to ``TASK_NODES`` nodes, and
returns its entries ({path: ("leaf", elements, weights) | ("split", unit, cut,
elements)}) and the children it did not expand (its frontier). The driver keeps the
frontier, sends tasks (at most workers + 1 in flight, the least paths first), merges
the entries and rewrites the checkpoint file after each wait. A worker builds the
:class:`GroupSearch` of a board once per process (``_SEARCHES``).

The checkpoint: JSON ``{"format": "modlights-tree-checkpoint", "version": 1, "search":
<digest of the board, the kernel and upper>, "entries": {path: entry}}``, written to a
temporary file and moved over the old one; the frontier is what the entries' splits
name and the entries lack. A file of another search, or not a checkpoint, is refused
with a ValueError (left as it is).

Complexity: one linear program a node (see hardest_bb); the work is the tree's, the
same on any executor; a checkpoint write is O(entries).
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from modlights.search.checkpoint import write_json
from modlights.search.hardest_bb import GroupSearch
from modlights.search.minimal import _stop_tasks, _wait, check_executor, executor_workers

__all__ = ["tree_bound", "TASK_NODES", "MAX_CHECKPOINT_BYTES"]

#: Nodes a task expands at most (a few seconds of linear programs on a 19 x 19 board).
TASK_NODES = 64

#: Largest checkpoint file read (bytes).
MAX_CHECKPOINT_BYTES = 1 << 30

FORMAT = "modlights-tree-checkpoint"
VERSION = 1

#: {digest: GroupSearch} of this process (a worker builds each board's once).
_SEARCHES: dict[str, GroupSearch] = {}


def _digest(board: Any, H: np.ndarray, orders: list[int], upper: int) -> str:
    h = hashlib.sha256()
    h.update(json.dumps(board.to_dict(), sort_keys=True).encode())
    h.update(np.ascontiguousarray(H, dtype=np.uint8).tobytes())
    h.update(json.dumps([int(o) for o in orders]).encode())
    h.update(str(int(upper)).encode())
    return h.hexdigest()


def _search(key: str, board: Any, H: np.ndarray, orders: list[int]) -> GroupSearch:
    S = _SEARCHES.get(key)
    if S is None:
        S = _SEARCHES[key] = GroupSearch(board, H, orders)
    return S


def _node_of(S: GroupSearch, path: str, entries: dict) -> Any:
    """The intervals of the node at ``path`` (the splits along it applied to the root)."""
    node = S.root()
    for i in range(len(path)):
        _, u, cut, _ = entries[path[:i]]
        lo, hi = node[u]
        part = (lo, cut - 1) if path[i] == "0" else (cut, hi)
        node = node[:u] + (part,) + node[u + 1 :]
    return node


def _expand(
    key: str,
    board: Any,
    H: np.ndarray,
    orders: list[int],
    upper: int,
    path: str,
    node: Any,
    warm: Any,
    budget: int,
) -> tuple[dict, list, Any]:
    """A task: the subtree of ``node`` at ``path`` depth first, up to ``budget`` nodes.
    Returns (entries, frontier [(path, node, warm)], harder) where ``harder`` is
    (path, tap vector, value) of a board past ``upper`` (the task stops there)."""
    S = _search(key, board, H, orders)
    entries: dict[str, tuple] = {}
    stack = [(path, node, None if warm is None else np.asarray(warm, dtype=np.int64))]
    done = 0
    while stack and done < budget:
        p, nd, wm = stack.pop()
        done += 1
        bound, idx, q = S.bound(nd, wm, None)
        if bound.__floor__() <= upper:
            entries[p] = ("leaf", idx.tolist(), [int(v) for v in q])
            continue
        pick = S.split(nd, idx, q)
        if pick is None:  # one board: its exact value over the whole kernel
            x = S.realise(nd)
            weight = ((x[None, :].astype(np.int64) + S.E.values) % S.n).sum(axis=1)
            c = int(np.argmin(weight))
            if int(weight[c]) > upper:
                return entries, [], (p, x, int(weight[c]))
            entries[p] = ("leaf", [c], [1])
            continue
        u, cut = pick
        entries[p] = ("split", int(u), int(cut), idx.tolist())
        lo, hi = nd[u]
        for i, part in reversed(list(enumerate(((lo, cut - 1), (cut, hi))))):
            stack.append((p + str(i), nd[:u] + (part,) + nd[u + 1 :], idx))
    frontier = [(p, nd, None if wm is None else np.asarray(wm).tolist()) for p, nd, wm in stack]
    return entries, frontier, None


class _File:
    """The checkpoint file of one tree (see the module docstring)."""

    def __init__(self, path: Any, key: str):
        self.path, self.key = Path(path), key
        if self.path.is_dir():
            raise ValueError(f"checkpoint {str(self.path)!r} is a directory, not a file")

    def read(self) -> dict:
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return {}
        bad = ValueError(
            f"checkpoint {str(self.path)!r} is not a modlights tree checkpoint (JSON of "
            f'format "{FORMAT}", version {VERSION}); remove it or name another file'
        )
        if size > MAX_CHECKPOINT_BYTES:
            raise bad
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            raise bad from None
        if not (
            isinstance(doc, dict)
            and doc.get("format") == FORMAT
            and doc.get("version") == VERSION
            and isinstance(doc.get("search"), str)
            and isinstance(doc.get("entries"), dict)
        ):
            raise bad
        if doc["search"] != self.key:
            raise ValueError(
                f"checkpoint {str(self.path)!r} belongs to another search (a different "
                "board, kernel or upper bound); remove it or name another file"
            )
        out: dict[str, tuple] = {}
        try:
            for p, e in doc["entries"].items():
                if not (set(p) <= {"0", "1"} and isinstance(e, list) and e):
                    raise bad
                if e[0] == "leaf" and len(e) == 3:
                    out[p] = ("leaf", [int(i) for i in e[1]], [int(v) for v in e[2]])
                elif e[0] == "split" and len(e) == 4:
                    out[p] = ("split", int(e[1]), int(e[2]), [int(i) for i in e[3]])
                else:
                    raise bad
        except (TypeError, ValueError):
            raise bad from None
        return out

    def write(self, entries: dict) -> None:
        doc = {
            "format": FORMAT,
            "version": VERSION,
            "search": self.key,
            "entries": {p: list(e) for p, e in sorted(entries.items())},
        }
        write_json(self.path, doc)


def tree_bound(
    board: Any,
    H: np.ndarray,
    orders: list[int],
    upper: int,
    *,
    executor: Any = None,
    checkpoint: Any = None,
    budget: float | None = None,
) -> dict:
    """Prove that no board needs more than ``upper`` taps by the fixed tree of the
    module docstring, over ``executor`` (None: in this process) and keeping the
    expanded nodes in ``checkpoint`` (a file path) when given.

    Parameters
    ----------
    board, H, orders
        The board, its kernel generators (k x taps, entries mod n) and their orders.
    upper : int
        The value to prove (at least 0).
    executor : concurrent.futures.Executor, optional
        Where the tasks run (a ProcessPoolExecutor, a dask client's executor).
    checkpoint : str or os.PathLike, optional
        The file of the expanded nodes; an existing one of this search is resumed.
    budget : float, optional
        Seconds: past them no task is sent and the call returns unfinished (the
        checkpoint keeps what was done).

    Returns
    -------
    dict
        ``{"done": bool, "nodes": int, "harder": None or (tap vector, value),
        "upper_bound": the lp-tree dict of docs/certificates.md or None}``:
        ``upper_bound`` when the tree closed (``done``), proving ``upper``; ``harder``
        a board that needs more than ``upper`` taps (its value exactly: the tree of a
        larger target is needed; the checkpoint is then of no use).

    Raises
    ------
    ValueError
        For a kernel too large for the group search (see hardest_bb), a bad executor,
        a checkpoint of another search or not a checkpoint.
    """
    check_executor(executor)
    upper = int(upper)
    if upper < 0:
        raise ValueError(f"upper must be at least 0, got {upper}")
    H = np.ascontiguousarray(H, dtype=np.uint8)
    orders = [int(o) for o in orders]
    key = _digest(board, H, orders, upper)
    S = _search(key, board, H, orders)
    file = _File(checkpoint, key) if checkpoint is not None else None
    entries: dict[str, tuple] = file.read() if file is not None else {}
    deadline = None if budget is None else time.perf_counter() + float(budget)
    # the frontier: the children the entries' splits name and the entries lack
    frontier: list[tuple] = []
    if "" not in entries:
        frontier.append(("", S.root(), None))
    for p, e in entries.items():
        if e[0] == "split":
            for c in (p + "0", p + "1"):
                if c not in entries:
                    frontier.append((c, _node_of(S, c, entries), e[3]))
    frontier.sort(key=lambda t: t[0], reverse=True)  # pop() takes the least path
    workers = executor_workers(executor) if executor is not None else 1
    pending: dict[cf.Future, str] = {}
    harder = None
    args = (key, board, H, orders, upper)
    try:
        while (frontier or pending) and harder is None:
            stop = deadline is not None and time.perf_counter() >= deadline
            if executor is None:
                if stop or not frontier:
                    break
                p, nd, wm = frontier.pop()
                results = [_expand(*args, p, nd, wm, TASK_NODES)]
            else:
                while frontier and len(pending) <= workers and not stop:
                    p, nd, wm = frontier.pop()
                    f = executor.submit(_expand, *args, p, nd, wm, TASK_NODES)
                    pending[f] = p
                if not pending:
                    break
                done = _wait(set(pending), cf.FIRST_COMPLETED)
                results = [f.result() for f in sorted(done, key=pending.__getitem__)]
                for f in done:
                    pending.pop(f)
            for got, more, hard in results:
                entries.update(got)
                frontier.extend(more)
                if hard is not None and (harder is None or hard[2] > harder[2]):
                    harder = hard
            frontier.sort(key=lambda t: t[0], reverse=True)
            if file is not None:
                file.write(entries)
    except BaseException:
        if pending:
            _stop_tasks(set(pending), executor)
        raise
    for f in pending:
        f.cancel()
    if harder is not None:
        return {"done": False, "nodes": len(entries), "harder": harder[1:], "upper_bound": None}
    closed = not frontier and not pending
    return {
        "done": closed,
        "nodes": len(entries),
        "harder": None,
        "upper_bound": _lp_tree(S, entries) if closed else None,
    }


def _lp_tree(S: GroupSearch, entries: dict) -> dict:
    """The ``lp-tree`` of the entries: nodes in preorder (the sorted paths), kernel
    elements numbered by first use."""
    S.coeff_index = {}
    nodes: list[dict] = []
    for p in sorted(entries):
        e = entries[p]
        if e[0] == "leaf":
            idx = np.array(e[1], dtype=np.int64)
            q = np.array(e[2], dtype=object)
            nodes.append({"weights": S.weights_json(idx, q)})
        else:
            nodes.append({"branch-group": list(S.units[e[1]]), "splits": [int(e[2])]})
    order = sorted(S.coeff_index, key=S.coeff_index.__getitem__)
    return {
        "method": "lp-tree",
        "elements": [list(c) for c in order],
        "pinned": list(S.pinned),
        "nodes": nodes,
    }
