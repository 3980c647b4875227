"""The CPU time a hypothesis strategy takes to draw its inputs: for tests/test_strategy_cost.py and make bench."""

from __future__ import annotations

import time
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st


def first_inputs(count: int) -> settings:
    """Settings that draw the same first ``count`` inputs on every run, and nothing else (no shrinking, no database)."""
    return settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )


def draw_cpu_seconds(strategy: st.SearchStrategy[Any], count: int) -> tuple[float, int]:
    """This process's CPU time to draw the strategy's first ``count`` valid inputs (hypothesis's own work
    included), and how many it drew (fewer if the strategy has fewer distinct inputs).
    """
    drawn = [0]

    @first_inputs(count)
    @given(strategy)
    def draw(value: Any) -> None:
        drawn[0] += 1

    started = time.process_time()
    draw()
    return time.process_time() - started, drawn[0]
