"""Plan edits cost what they change: one step moved in plans of 100 and 1,000 steps, and a plan driven to completion.

    .venv/bin/python tests/benchmarks/bench_edits.py           # prints the table
    .venv/bin/python tests/benchmarks/bench_edits.py --quick   # fewer rounds

make bench runs it too (``run``). Measured side by side in one run (measure.py):
``transition_step`` of the first pending step (pending -> in_progress, its
dependencies done) of payloads.plan_payload's 100- and 1,000-step plans, the
same move with the fast paths off (which validates the whole plan, as every
edit did before), and one ``Plan.from_json`` of the 1,000-step plan. Then
the time to drive a 1,000-step plan whose every step is pending to completion
(each step pending -> in_progress -> completed, in dependency order: 2,000
moves), with the fast paths on, and once with them off.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import measure
import orjson
import payloads

import mplp_models as mm
from mplp_models import _fastpath

MOVE_GOAL_SIZE = 3.0  # moving a step of a 1,000-step plan / of a 100-step plan
MOVE_GOAL_READ = 0.1  # moving a step of a 1,000-step plan / Plan.from_json of it


@contextmanager
def fast_paths(enabled: bool) -> Iterator[None]:
    saved = _fastpath.ENABLED
    _fastpath.ENABLED = enabled
    try:
        yield
    finally:
        _fastpath.ENABLED = saved


def first_move(plan: mm.Plan) -> Callable[[], mm.Plan]:
    """The move measured: the first ready step of ``plan`` started.

    The plan itself is kept, so every call is the same.
    """
    step_id = plan.ready_steps()[0].step_id
    return functools.partial(plan.transition_step, step_id, "in_progress")


def strict(fn: Callable[[], object]) -> Callable[[], object]:
    def call() -> object:
        with fast_paths(False):
            return fn()

    return call


def all_pending(steps: int) -> mm.Plan:
    document = payloads.plan_payload(steps)
    for step in document["steps"]:
        step["status"] = "pending"
    return mm.Plan.model_validate(document)


def drive(plan: mm.Plan) -> mm.Plan:
    """Every step started and completed, in dependency order; then the plan completed."""
    for step in plan.topological_order():
        plan = plan.transition_step(step.step_id, "in_progress").transition_step(step.step_id, "completed")
    return plan.transition("completed")


def run(quick: bool) -> dict[str, Any]:
    rounds, budget = (7, 0.002) if quick else (41, 0.005)
    small = mm.Plan.model_validate(payloads.plan_payload(100))
    raw = orjson.dumps(payloads.plan_payload(1000))
    large = mm.Plan.from_json(raw)
    cases: dict[str, Callable[[], object]] = {
        "move, 100 steps": first_move(small),
        "move, 1,000 steps": first_move(large),
        "move, 1,000 steps, fast paths off": strict(first_move(large)),
        "Plan.from_json, 1,000 steps": functools.partial(mm.Plan.from_json, raw),
    }
    samples = measure.interleaved(cases, rounds, budget)
    result: dict[str, Any] = {
        "rounds": rounds,
        "cases": {name: s.summary() for name, s in samples.items()},
        "move_1000_vs_100": measure.ratio(samples["move, 1,000 steps"], samples["move, 100 steps"]),
        "move_1000_vs_from_json": measure.ratio(samples["move, 1,000 steps"], samples["Plan.from_json, 1,000 steps"]),
        "move_1000_fast_vs_off": measure.ratio(
            samples["move, 1,000 steps"], samples["move, 1,000 steps, fast paths off"]
        ),
    }
    pending = all_pending(1000)
    drives = 3 if quick else 7
    timed = []
    for _ in range(drives):
        start = time.perf_counter()
        done = drive(pending)
        timed.append(time.perf_counter() - start)
    assert done.status == "completed" and done.check() == []
    with fast_paths(False):
        start = time.perf_counter()
        off = drive(pending)
        strict_seconds = time.perf_counter() - start
    assert off == done
    result["drive_1000"] = {"runs": drives, "median": sorted(timed)[drives // 2], "moves": 2001}
    result["drive_1000_fast_paths_off"] = {"runs": 1, "seconds": strict_seconds}
    print_edits(result)
    return result


def print_edits(result: dict[str, Any]) -> None:
    print("\nPlan edits (transition_step of one step; medians):")
    for name, case in result["cases"].items():
        print(f"  {name:<38} {case['median'] * 1e6:10.1f} µs")
    print(f"  move 1,000 / move 100:            {result['move_1000_vs_100']:6.2f}  (goal <= {MOVE_GOAL_SIZE})")
    print(f"  move 1,000 / from_json 1,000:     {result['move_1000_vs_from_json']:6.3f}  (goal <= {MOVE_GOAL_READ})")
    print(f"  move 1,000 / fast paths off:      {result['move_1000_fast_vs_off']:6.3f}")
    drive = result["drive_1000"]
    off = result["drive_1000_fast_paths_off"]
    print(
        f"  drive a 1,000-step plan to completion ({drive['moves']} moves): {drive['median'] * 1000:.1f} ms "
        f"({drive['median'] / drive['moves'] * 1e6:.1f} µs a move); fast paths off: {off['seconds'] * 1000:.0f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    run(parser.parse_args(argv).quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
