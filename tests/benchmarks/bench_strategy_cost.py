"""mplp_models.testing stays cheap: the CPU time each public strategy takes to draw its first ten inputs.

    .venv/bin/python tests/benchmarks/bench_strategy_cost.py           # prints the table
    .venv/bin/python tests/benchmarks/bench_strategy_cost.py --quick   # one try each

make bench runs it too (``run``). Hypothesis's ``too_slow`` health check fails a
test whose first ten valid inputs take more than a second to draw (at its default
settings), timed by the wall clock, so on a busy machine it fails strategies that
are fine: the test profiles (tests/conftest.py) suppress it. This report keeps
what it guards, and more: the strategies are meant for users' own tests, so each
should draw its first ten inputs in ``BUDGET``, a twentieth of that second. The
time is this process's CPU time, which the load of other processes hardly changes.
The slowest strategy (Trace) took about 20 ms for its first ten; strategies that
drew a hypothesis value for every small choice took 70 to 170 ms for the modules
(Plan 96, Trace 170, LearningSample 160). A strategy over budget gets two more
tries (the same ten inputs: the runs are derandomized), so that a stray pause is
not reported. A report, not a test: the budget is a target, never enforced
(tests/test_strategy_cost.py checks what is not a timing: how many inputs are drawn,
and their sizes).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: strategy_timing
from strategy_timing import draw_cpu_seconds, public_strategies

BUDGET = 0.05  # seconds of CPU for the first ten valid inputs (too_slow allows 1 s of wall clock)
FIRST = 10  # the valid inputs that too_slow times
TRIES = 3


def measure_is_sound() -> bool:
    """Whether the measure counts the time spent drawing: ten draws burning 5 ms of CPU each take 50 ms or more."""

    def burned(value: int) -> int:
        started = time.process_time()
        while time.process_time() - started < 0.005:
            pass
        return value

    return draw_cpu_seconds(st.integers().map(burned), FIRST)[0] >= FIRST * 0.005


def run(quick: bool = False) -> dict[str, Any]:
    """The CPU milliseconds of each strategy's first ten inputs, and which are over budget.

    Each is the best of up to ``TRIES``.
    """
    if not measure_is_sound():
        raise SystemExit("strategy cost: the CPU measure missed time spent drawing; its numbers would be wrong")
    found: dict[str, float] = {}
    print(f"\nmplp_models.testing, CPU ms for the first {FIRST} inputs (budget {BUDGET * 1000:.0f} ms):")
    for name, strategy in public_strategies().items():
        # The first uses build the models' validators and the strategy, and hypothesis scans newly
        # imported modules for constants: once per process, not the strategy's cost.
        draw_cpu_seconds(strategy, FIRST)
        best = float("inf")
        for _ in range(1 if quick else TRIES):
            best = min(best, draw_cpu_seconds(strategy, FIRST)[0])
            if best < BUDGET:
                break
        found[name] = round(best * 1000, 2)
        print(f"  {name:<32} {found[name]:8.2f}{'' if best < BUDGET else '  over budget'}")
    over = sorted(name for name, ms in found.items() if ms >= BUDGET * 1000)
    return {"budget_ms": BUDGET * 1000, "first": FIRST, "ms": found, "over_budget": over}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one try for each strategy")
    result = run(parser.parse_args(argv).quick)
    print(f"over budget: {', '.join(result['over_budget']) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
