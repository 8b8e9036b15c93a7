"""HiGHS integer programs as a list of operations, solved in this process or in a child
process that can be killed (``python -m modlights.search._highs_worker``).

HiGHS asks its interrupt callbacks and checks its time limit only between some of its
stages: presolve and the root LP of a large model can run for seconds without a check.
A large model is solved in a child process, killed at the deadline or on Ctrl-C;
smaller models run on a thread of this process and stop at HiGHS's next callback.

A model is built from plain-data operations (picklable: numbers and NumPy arrays),
kept by the parent so that a new child can be given the whole model:

- ``("vars", n, lower, upper)``: n columns with these bounds (cost 0);
- ``("integer", idx)``: those columns integer;
- ``("cost", col, value)``; ``("maximize",)``;
- ``("rows", lower, upper, starts, idx, vals)``: rows in CSR form;
- ``("start", values)``: a feasible answer (every column's value) handed to HiGHS as
  its incumbent (``setSolution``), so that its branch and bound prunes below it.

The child reads pickled messages on stdin: ``("ops", [op, ...])`` (applied, no reply),
``("solve", seconds or None)`` (replies with :func:`result`), ``("exit",)``.
"""

from __future__ import annotations

import pickle
import sys
from typing import Any

import numpy as np

#: HiGHS threads per integer program (see modlights.search.hardest.HIGHS_THREADS).
THREADS = 1


def new_highs() -> Any:
    """A silent HiGHS instance with the covering programs' options."""
    import highspy

    # the core class, options set before anything runs: highspy.Highs() prints a
    # banner to stdout on construction (it would corrupt the CLI's output)
    h = highspy._core._Highs() if hasattr(highspy, "_core") else highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 0.5)  # the optimum is an integer
    h.setOptionValue("threads", THREADS)
    return h


def apply(h: Any, ops: list) -> None:
    """Apply model operations (module docstring) to the HiGHS instance h."""
    import highspy

    for op in ops:
        kind = op[0]
        if kind == "vars":
            _, n, lower, upper = op
            h.addVars(n, np.asarray(lower, dtype=float), np.asarray(upper, dtype=float))
        elif kind == "integer":
            idx = np.asarray(op[1], dtype=np.int32)
            h.changeColsIntegrality(len(idx), idx, np.full(len(idx), highspy.HighsVarType.kInteger))
        elif kind == "cost":
            h.changeColCost(int(op[1]), float(op[2]))
        elif kind == "maximize":
            h.changeObjectiveSense(highspy.ObjSense.kMaximize)
        elif kind == "rows":
            _, lower, upper, starts, idx, vals = op
            h.addRows(
                len(lower),
                np.asarray(lower, dtype=float),
                np.asarray(upper, dtype=float),
                len(idx),
                np.asarray(starts, dtype=np.int32),
                np.asarray(idx, dtype=np.int32),
                np.asarray(vals, dtype=float),
            )
        elif kind == "start":
            sol = highspy.HighsSolution()
            sol.col_value = [float(v) for v in op[1]]
            h.setSolution(sol)
        else:
            raise ValueError(f"unknown HiGHS model operation {kind!r}")


def set_time_limit(h: Any, seconds: float | None) -> None:
    import highspy

    h.setOptionValue(
        "time_limit", highspy.kHighsInf if seconds is None else max(float(seconds), 1e-3)
    )


def result(h: Any) -> tuple[bool, float, float, bool, np.ndarray | None]:
    """(optimal, objective, dual bound, a feasible answer exists, column values or
    None) of the last run."""
    import highspy

    status = h.getModelStatus()
    info = h.getInfo()
    feasible = info.primal_solution_status == 2
    cols = np.asarray(h.getSolution().col_value, dtype=float) if feasible else None
    return (
        status == highspy.HighsModelStatus.kOptimal,
        float(info.objective_function_value),
        float(info.mip_dual_bound),
        feasible,
        cols,
    )


def run_on_thread(h: Any, stop: Any) -> None:
    """``h.run()`` on a daemon thread while this thread waits in steps of 0.05 s, so that
    Ctrl-C (KeyboardInterrupt) reaches the caller: then ``stop()`` is called (it must make
    HiGHS's interrupt callback answer True), the run is joined and the exception
    re-raised. The model's results are read with :func:`result` afterwards."""
    import threading

    finished = threading.Event()

    def work() -> None:
        h.run()
        finished.set()

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    try:
        while not finished.wait(0.05):  # Ctrl-C reaches us here
            pass
    except BaseException:
        stop()  # HiGHS stops at its next check
        worker.join()
        raise


def _exit_with_parent(parent: int) -> None:
    """Leave as soon as the parent is gone (a killed parent closes no pipe while this
    child is inside a long HiGHS run)."""
    import os
    import time

    while os.getppid() == parent:
        time.sleep(0.25)
    os._exit(0)


def main() -> int:
    """The child: apply and solve what the parent sends, until "exit" or end of input.
    Ctrl-C is the parent's to handle (it kills this process), so SIGINT is ignored."""
    import os
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    # the answers go to the parent on the original stdout; anything HiGHS or Python
    # print (a banner, say) goes to stderr instead, so it cannot corrupt them
    inp = sys.stdin.buffer
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    h = new_highs()
    while True:
        try:
            msg = pickle.load(inp)
        except EOFError:
            return 0
        if msg[0] == "ops":
            apply(h, msg[1])
        elif msg[0] == "solve":
            set_time_limit(h, msg[1])
            h.run()
            pickle.dump(result(h), out, protocol=pickle.HIGHEST_PROTOCOL)
            out.flush()
        else:
            return 0


if __name__ == "__main__":
    sys.exit(main())
