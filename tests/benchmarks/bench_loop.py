"""An agent's loop costs what it changes: chains of 100 and 1,000 steps driven to completion, side by side.

    .venv/bin/python tests/benchmarks/bench_loop.py           # prints the table
    .venv/bin/python tests/benchmarks/bench_loop.py --quick   # fewer rounds

make bench runs it too (``run``). Two loops over a chain (each step depending on the one
before), measured interleaved (measure.py), each from the same running plan:

- the executor loop of docs/plans.md: ``while ready := plan.ready_steps()``, each ready step
  moved to in_progress, then completed;
- the agent's loop of docs/agent-loop.md: the same, with a trace segment opened and closed per
  step (``open_segment(step=...)``, ``transition_segment``), an event and a dialog message each.

A loop that costs what it changes takes 10 times as long for 10 times the steps; one that reads
the whole plan each round, 100 times (goal: at most ``GOAL``). The numbers are reported, never
enforced; tests/test_ready_queue.py counts the steps each question looks at instead.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from typing import Any

import measure

import mplp_models as mm

SIZES = (100, 1000)
GOAL = 15.0  # a 1,000-step chain driven to completion / a 100-step one: 10 if linear, 100 if quadratic
AT = "2026-03-02T09:00:00Z"


def chain(steps: int) -> tuple[mm.Context, mm.Plan]:
    """A context and a running plan of ``steps`` pending steps, each depending on the one before."""
    context = mm.Context.new("Bench", domain="bench", environment="test", at=AT)
    made = mm.Plan.new(context, title="Chain", objective="Run", steps=[f"step {n}" for n in range(steps)], at=AT)
    document = made.to_dict()
    for position, step in enumerate(document["steps"][1:], 1):
        step["dependencies"] = [document["steps"][position - 1]["step_id"]]
    return context, mm.Plan.model_validate({**document, "status": "in_progress"})


def executor_loop(plan: mm.Plan) -> mm.Plan:
    while ready := plan.ready_steps():
        for step in ready:
            plan = plan.transition_step(step.step_id, "in_progress").transition_step(step.step_id, "completed")
    return plan.transition("completed")


def agent_loop(context: mm.Context, plan: mm.Plan) -> tuple[mm.Plan, mm.Trace, mm.Dialog]:
    trace = mm.Trace.new(context, plan, at=AT)
    dialog = mm.Dialog.new(context, at=AT)
    while ready := plan.ready_steps():
        for step in ready:
            plan = plan.transition_step(step.step_id, "in_progress")
            trace = trace.open_segment(step.description, step=step, at=AT)
            plan = plan.transition_step(step.step_id, "completed")
            trace = trace.transition_segment(trace.last_segment.segment_id, "completed", at=AT)
            trace = trace.add_event("step.completed", at=AT, data={"step_id": step.step_id})
            dialog = dialog.add_message("agent", f"{step.description}: done", at=AT)
    return plan.transition("completed"), trace.finish("completed", at=AT), dialog.transition("completed", at=AT)


def run(quick: bool) -> dict[str, Any]:
    rounds, budget = (5, 0.0) if quick else (15, 0.0)  # one loop a batch: a loop takes milliseconds already
    chains = {size: chain(size) for size in SIZES}
    for context, plan in chains.values():  # each loop makes a session that keeps the SA profile
        done, trace, dialog = agent_loop(context, plan)
        assert executor_loop(plan) == done
        assert mm.check_flow([context, done, trace, dialog], profile="sa") == []
    cases: dict[str, Callable[[], object]] = {}
    for size, (context, plan) in chains.items():
        cases[f"executor loop, {size} steps"] = functools.partial(executor_loop, plan)
        cases[f"agent loop, {size} steps"] = functools.partial(agent_loop, context, plan)
    samples = measure.interleaved(cases, rounds, budget)
    result: dict[str, Any] = {
        "rounds": rounds,
        "cases": {name: s.summary() for name, s in samples.items()},
        "goal": GOAL,
    }
    for loop in ("executor", "agent"):
        large, small = samples[f"{loop} loop, 1000 steps"], samples[f"{loop} loop, 100 steps"]
        result[f"{loop}_1000_vs_100"] = measure.ratio(large, small)
    print_loop(result)
    return result


def print_loop(result: dict[str, Any]) -> None:
    print("\nAn agent's loop over a chain (medians):")
    for name, case in result["cases"].items():
        print(f"  {name:<30} {case['median'] * 1000:9.2f} ms")
    for loop in ("executor", "agent"):
        print(f"  {loop} loop, 1,000 / 100 steps: {result[f'{loop}_1000_vs_100']:6.2f}  (goal <= {GOAL:g})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    run(parser.parse_args(argv).quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
