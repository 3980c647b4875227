"""check_flow costs linear time: sessions of 250, 500, 1,000 and 2,000 documents, time per document.

    .venv/bin/python tests/benchmarks/bench_flow.py           # prints the table
    .venv/bin/python tests/benchmarks/bench_flow.py --quick   # fewer rounds

Each session is a context, a plan (5 steps), 4 traces of the plan, a confirm of
the plan and events (Event documents, each naming one of the traces) up to the
size: the 1,000-document session of the issue holds 993 events. ``check_flow``
and ``check_flow_report`` with the SA profile are measured side by side
(measure.py); linear time shows as a time per document that stays flat as the
session grows, and as a time for 2,000 documents about twice that for 1,000
(goal: at most ``DOUBLING_GOAL``; quadratic time would give 4).
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from typing import Any

import measure

import mplp_models as mm

SIZES = (250, 500, 1000, 2000)
DOUBLING_GOAL = 2.5  # time for 2,000 documents / for 1,000: 2 if linear, 4 if quadratic


def _event(trace_id: str) -> dict[str, Any]:
    return {
        "event_id": mm.new_id(),
        "event_type": "step.completed",
        "source": "bench",
        "timestamp": "2026-01-01T00:00:02Z",
        "trace_id": trace_id,
    }


def _with_event(trace: mm.Trace) -> mm.Trace:
    # The SA profile asks every trace for an event of its own.
    return mm.Trace.model_validate({**trace.to_dict(), "events": [_event(trace.trace_id)]})


def session(size: int) -> list[mm.Payload]:
    """A linked session of ``size`` documents (at least 8)."""
    context = mm.Context.new("Bench", domain="bench", environment="test", at="2026-01-01T00:00:00Z")
    plan = mm.Plan.new(context, title="Plan", objective="Measure", steps=[f"step {i}" for i in range(5)])
    traces = [_with_event(mm.Trace.start(context, plan, at="2026-01-01T00:00:01Z")) for _ in range(4)]
    confirm = mm.Confirm.request(plan, requested_by_role="bench", at="2026-01-01T00:00:00Z")
    documents: list[mm.Payload] = [context, plan, *traces, confirm]
    for number in range(size - len(documents)):
        documents.append(mm.Event.model_validate(_event(traces[number % len(traces)].trace_id)))
    return documents


def run(quick: bool) -> dict[str, Any]:
    rounds, budget = (7, 0.002) if quick else (31, 0.005)
    sessions = {size: session(size) for size in SIZES}
    for documents in sessions.values():
        assert mm.check_flow(documents, profile="sa") == []
    cases: dict[str, Callable[[], object]] = {
        f"check_flow, {size} documents": functools.partial(mm.check_flow, sessions[size]) for size in SIZES
    }
    cases |= {
        f"check_flow_report sa, {size} documents": functools.partial(mm.check_flow_report, sessions[size], profile="sa")
        for size in SIZES
    }
    samples = measure.interleaved(cases, rounds, budget)
    per_document = {name: samples[name].median / int(name.split(", ")[1].split()[0]) for name in cases}
    result: dict[str, Any] = {
        "rounds": rounds,
        "cases": {name: s.summary() for name, s in samples.items()},
        "per_document": per_document,
        "doubling": measure.ratio(samples["check_flow, 2000 documents"], samples["check_flow, 1000 documents"]),
    }
    print_flow(result)
    return result


def print_flow(result: dict[str, Any]) -> None:
    print("\ncheck_flow over linked sessions (medians):")
    for name, case in result["cases"].items():
        each = result["per_document"][name]
        print(f"  {name:<42} {case['median'] * 1000:9.2f} ms  {each * 1e6:6.2f} µs a document")
    print(f"  2,000 documents / 1,000:          {result['doubling']:6.2f}  (goal <= {DOUBLING_GOAL}; linear: 2)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    run(parser.parse_args(argv).quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
