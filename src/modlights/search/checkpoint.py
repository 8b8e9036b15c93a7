"""Checkpoints of split searches: a search of days over a cluster resumes where it stopped.

A :class:`Checkpoint` is a JSON file that keeps, for one split search of one coset (the C
library's ``ml_search``, driven by :func:`modlights.search.split.split_search`), the
answers of the tasks merged so far. :func:`~modlights.search.split.split_search` given
one merges the kept answers first, submits only the other tasks, and rewrites the file
after each wait that merged a task. The merge rule of csrc/api/search.c makes the answer
independent of the order tasks are merged in (the least length wins, the lowest task on
ties), so a run that stopped (Ctrl-C, a lost scheduler, a reboot) and was resumed gives
the same taps, length, proof and certificate as one that never stopped, on any number
of workers: the split is the one the file records, not the new run's.

The file:

    {"format": "modlights-checkpoint", "version": 1,
     "search": "<sha256 of the exported search>", "split": S, "tasks": T,
     "answers": {"<task>": [found, complete, length, examined, pruned], ...},
     "best": {"task": t, "taps": "<hex of the best answer's taps>"} or null}

Only the best answer's taps are kept: the others can never win the merge (the same rule
picks the best whatever the order). The file is written to a temporary file beside it
and moved over it (``os.replace``), so a stop while writing leaves the previous one.

A file of another search (a different board, state, target or kernel; the digest of the
exported bytes tells) or one that is not a checkpoint is refused with a ValueError that
names it; it is never overwritten.

Complexity: O(T + L) a write (T tasks, L taps); reading is bounded by ``MAX_BYTES``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["Checkpoint", "MAX_BYTES"]

FORMAT = "modlights-checkpoint"
VERSION = 1

#: Largest checkpoint file read (bytes): far above what T tasks and L taps need.
MAX_BYTES = 1 << 26

Answer = tuple  # (found, complete, length, examined, pruned, best taps) as CSearch.run
ZERO = np.zeros(1, np.uint8)


class Checkpoint:
    """The checkpoint file ``path`` of a split search (see the module docstring).

    Parameters
    ----------
    path : str or os.PathLike
        Where the answers are kept; it need not exist (a new search starts).

    Raises
    ------
    ValueError
        When ``path`` names a directory.
    """

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        if self.path.is_dir():
            raise ValueError(f"checkpoint {str(self.path)!r} is a directory, not a file")
        self._key: str | None = None
        self._split = 0
        self._tasks = 0
        self._answers: dict[int, list[int]] = {}
        self._best: tuple[int, bytes] | None = None

    def __repr__(self) -> str:
        return f"Checkpoint({str(self.path)!r})"

    @staticmethod
    def digest(data: bytes) -> str:
        """The identity of an exported search (``CSearch.export``): its SHA-256, hex."""
        return hashlib.sha256(data).hexdigest()

    def split_of(self) -> int | None:
        """The split (the count asked of ``CSearch.split``) the file records, or None
        when there is no file yet. Raises ValueError for a file that is not a
        checkpoint."""
        doc = self._read()
        return None if doc is None else doc["split"]

    def start(self, data: bytes, split: int, tasks: int) -> dict[int, Answer]:
        """Bind to the search whose exported bytes are ``data``, split by ``split`` into
        ``tasks`` tasks, and return the answers kept for it ({task: answer} as
        ``CSearch.merge`` takes them: the best's taps a uint8 array, the others not
        found, with one zero tap that the merge ignores). A file of another search
        raises ValueError (left as it is)."""
        key = self.digest(data)
        doc = self._read()
        self._key, self._split, self._tasks = key, int(split), int(tasks)
        self._answers, self._best = {}, None
        if doc is None:
            return {}
        if doc["search"] != key or doc["split"] != split or doc["tasks"] != tasks:
            raise ValueError(
                f"checkpoint {str(self.path)!r} belongs to another search (a different "
                "board, state, target or kernel); remove it or name another file"
            )
        out: dict[int, Answer] = {}
        best = doc["best"]
        for t, a in doc["answers"].items():
            task = int(t)
            won = best is not None and best["task"] == task
            taps = np.frombuffer(bytes.fromhex(best["taps"]), np.uint8) if won else ZERO
            # a loser's taps are not kept: it is merged as not found (it cannot win)
            out[task] = (bool(a[0]) and won, bool(a[1]), int(a[2]), int(a[3]), int(a[4]), taps)
            self._answers[task] = [int(v) for v in a]
        if best is not None:
            self._best = (int(best["task"]), bytes.fromhex(best["taps"]))
        return out

    def record(self, merged: list[tuple[int, Answer]]) -> None:
        """Add the answers just merged ([(task, answer)]) and rewrite the file."""
        if self._key is None:
            raise ValueError("Checkpoint.record before Checkpoint.start")
        for t, a in merged:
            found, complete, length, examined, pruned, taps = a
            self._answers[int(t)] = [
                int(found),
                int(complete),
                int(length),
                int(examined),
                int(pruned),
            ]
            if found and length >= 0:
                key = (int(length), int(t))
                if self._best is None or key < (self._answers[self._best[0]][2], self._best[0]):
                    self._best = (int(t), np.asarray(taps, np.uint8).tobytes())
        self._write()

    # ------------------------------------------------------------------ the file
    def _read(self) -> dict | None:
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return None
        except OSError as e:
            raise ValueError(
                f"cannot read checkpoint {str(self.path)!r}: {e.strerror or e}"
            ) from None
        if size > MAX_BYTES:
            raise ValueError(
                f"checkpoint {str(self.path)!r} has {size} bytes, more than a checkpoint "
                f"holds (at most {MAX_BYTES}); it is not one of modlights'"
            )
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
            ok = (
                isinstance(doc, dict)
                and doc.get("format") == FORMAT
                and doc.get("version") == VERSION
                and isinstance(doc.get("search"), str)
                and all(type(doc.get(f)) is int for f in ("split", "tasks"))
                and isinstance(doc.get("answers"), dict)
                and all(
                    isinstance(a, list) and len(a) == 5 and all(type(v) is int for v in a)
                    for a in doc["answers"].values()
                )
                and all(t.isdigit() and int(t) < doc["tasks"] for t in doc["answers"])
            )
            best = doc.get("best") if ok else None
            if ok and best is not None:
                ok = (
                    isinstance(best, dict)
                    and type(best.get("task")) is int
                    and str(best["task"]) in doc["answers"]
                    and isinstance(best.get("taps"), str)
                )
                if ok:
                    bytes.fromhex(best["taps"])  # a ValueError when it is not hex
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, ValueError, RecursionError):
            ok = False
        if not ok:
            raise ValueError(
                f"checkpoint {str(self.path)!r} is not a modlights checkpoint (JSON of "
                f'format "{FORMAT}", version {VERSION}); remove it or name another file'
            )
        return doc

    def _write(self) -> None:
        doc: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "search": self._key,
            "split": self._split,
            "tasks": self._tasks,
            "answers": {str(t): a for t, a in sorted(self._answers.items())},
            "best": None
            if self._best is None
            else {"task": self._best[0], "taps": self._best[1].hex()},
        }
        write_json(self.path, doc)


def write_json(path: Path, doc: Any) -> None:
    """Write ``doc`` as compact JSON (UTF-8) to the checkpoint file ``path``, atomically:
    to ``<name>.tmp`` beside it, then moved over it (``os.replace``), so a stop while
    writing leaves the previous file. Used by :class:`Checkpoint` and the tree
    checkpoints of :mod:`modlights.search.hardest_tree`. O(size of the JSON).

    Raises
    ------
    ValueError
        "cannot write checkpoint ...", with the system's reason, when either step fails.
    """
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(doc, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        raise ValueError(f"cannot write checkpoint {str(path)!r}: {e.strerror or e}") from None
