"""mplp_models.testing stays cheap: each public strategy draws its first ten inputs within a CPU budget.

Hypothesis's ``too_slow`` health check fails a test whose first ten valid inputs
take more than a second to draw (at its default settings). It times them by
the wall clock, so on a busy machine it fails strategies that are fine: the
test profiles (conftest.py) suppress it. This file keeps what it guards, and
more: the strategies are meant for users' own tests, so each must draw its
first ten inputs in BUDGET, a twentieth of that second. The time is this
process's CPU time, which the load of other processes hardly changes. The
slowest strategy (Trace) takes about 20 ms for its first ten, so the budget
leaves room for a slower machine; strategies that drew a hypothesis value for
every small choice took 70 to 170 ms for the modules (Plan 96, Trace 170,
LearningSample 160) and fail it. A strategy over budget gets two more tries (the
same ten inputs: the runs are derandomized), so that a stray pause is not a
failure.
"""

from __future__ import annotations

import inspect
import time
from typing import Any

import pytest
from hypothesis import strategies as st
from pydantic import BaseModel
from strategy_timing import draw_cpu_seconds

import mplp_models as mm
from mplp_models import testing

BUDGET = 0.05  # seconds of CPU for the first ten valid inputs (too_slow allows 1 s of wall clock)
FIRST = 10  # the valid inputs that too_slow times
TRIES = 3

MODELS = sorted(
    (
        value
        for value in (getattr(mm, name) for name in mm.__all__)
        if inspect.isclass(value) and issubclass(value, BaseModel) and value is not mm.MplpModel
    ),
    key=lambda model: model.__name__,
)
STRATEGIES: dict[str, st.SearchStrategy[Any]] = {
    **{model.__name__: testing.instances(model) for model in MODELS},
    "timestamps": testing.timestamps(),
    "json_objects": testing.json_objects(),
    "mplp_ids": testing.mplp_ids(),
    "plans(max_steps=20)": testing.plans(max_steps=20),
}


def cpu_seconds(strategy: st.SearchStrategy[Any], count: int = FIRST) -> float:
    """This process's CPU time to draw the strategy's first ``count`` valid inputs (hypothesis's own work included)."""
    return draw_cpu_seconds(strategy, count)[0]


def burn(seconds: float) -> None:
    started = time.process_time()
    while time.process_time() - started < seconds:
        pass


def test_the_measure_counts_the_time_spent_drawing() -> None:
    # 5 ms of CPU in each of ten draws: at least 50 ms, whatever else hypothesis spends.
    def burned(value: int) -> int:
        burn(0.005)
        return value

    assert cpu_seconds(st.integers().map(burned)) >= 10 * 0.005


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_first_inputs_are_drawn_within_the_budget(name: str) -> None:
    strategy = STRATEGIES[name]
    # The first uses build the models' validators and the strategy, and hypothesis scans newly
    # imported modules for constants: once per process, not the strategy's cost.
    cpu_seconds(strategy)
    spent = []
    for _ in range(TRIES):
        spent.append(cpu_seconds(strategy))
        if spent[-1] < BUDGET:
            return
    pytest.fail(
        f"{name}: the first {FIRST} inputs took {', '.join(f'{s:.2f}' for s in spent)} s of CPU (budget {BUDGET} s)"
    )
