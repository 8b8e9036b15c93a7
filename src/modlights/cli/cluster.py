"""The options that split a command's search over workers, the same in every command
that has them: ``--workers N`` (processes on this machine), ``--scheduler ADDRESS`` (the
workers of a dask.distributed scheduler) and, where the search keeps its finished tasks,
``--checkpoint FILE`` (:mod:`modlights.search.checkpoint`)."""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import contextlib
from collections.abc import Iterator
from typing import Any

from modlights.cli.common import _int_arg, _UserError

#: Seconds to wait for a scheduler to answer before --scheduler fails.
CONNECT_SECONDS = 30

#: Most local worker processes --workers starts.
MAX_WORKERS = 1024

_HELP_WORKERS = "split the search over N worker processes on this machine"
_HELP_SCHEDULER = (
    "split the search over the workers of a dask.distributed scheduler, e.g. "
    "tcp://10.0.0.1:8786 (needs pip install 'modlights[dask]')"
)
_HELP_CHECKPOINT = (
    "keep the split search's finished tasks in FILE: the same command run again "
    "resumes where a stopped run left off (needs --workers or --scheduler)"
)


def add_cluster_options(p: argparse.ArgumentParser, checkpoint: bool) -> None:
    """The group "workers": ``--workers``, ``--scheduler`` and, when ``checkpoint``,
    ``--checkpoint``."""
    g = p.add_argument_group("workers")
    g.add_argument(
        "--workers", metavar="N", type=_int_arg("--workers", 1, MAX_WORKERS), help=_HELP_WORKERS
    )
    g.add_argument("--scheduler", metavar="ADDRESS", help=_HELP_SCHEDULER)
    if checkpoint:
        g.add_argument("--checkpoint", metavar="FILE", help=_HELP_CHECKPOINT)


def wants_executor(args: argparse.Namespace) -> bool:
    """Whether the options ask for workers (ValueError when they name both kinds)."""
    if args.workers is not None and args.scheduler is not None:
        raise _UserError("give either --workers (this machine) or --scheduler, not both")
    if getattr(args, "checkpoint", None) is not None and not (args.workers or args.scheduler):
        raise _UserError(
            "--checkpoint keeps the tasks of a search split over workers: give --workers N "
            "or --scheduler ADDRESS too"
        )
    return args.workers is not None or args.scheduler is not None


@contextlib.contextmanager
def executor_of(args: argparse.Namespace) -> Iterator[Any]:
    """The executor the options ask for, closed after the block: a ProcessPoolExecutor
    of ``--workers`` processes, a dask.distributed Client's ``get_executor()`` for
    ``--scheduler`` (connected within CONNECT_SECONDS), or None. A scheduler that
    cannot be reached or a missing dask is a _UserError (exit 2, one line)."""
    if not wants_executor(args):
        yield None
        return
    if args.workers is not None:
        with cf.ProcessPoolExecutor(args.workers) as ex:
            yield ex
        return
    try:
        import distributed
    except ImportError:
        raise _UserError(
            "--scheduler needs dask.distributed: pip install 'modlights[dask]'"
        ) from None
    try:
        client = distributed.Client(args.scheduler, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        raise _UserError(
            f"--scheduler {args.scheduler!r}: no dask scheduler answered within "
            f"{CONNECT_SECONDS} s ({type(e).__name__}: {e})"
        ) from None
    with client:
        yield client.get_executor()
