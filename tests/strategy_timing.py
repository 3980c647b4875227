"""What a hypothesis strategy draws first, and the CPU time it takes: for tests/test_strategy_cost.py and make bench."""

from __future__ import annotations

import inspect
import time
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import mplp_models as mm
from mplp_models import testing


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


def first_values(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    """The strategy's first ``count`` valid inputs, the same on every run (fewer if it has fewer distinct inputs)."""
    drawn: list[Any] = []

    @first_inputs(count)
    @given(strategy)
    def draw(value: Any) -> None:
        drawn.append(value)

    draw()
    return drawn


def public_strategies() -> dict[str, st.SearchStrategy[Any]]:
    """Every public strategy of mplp_models.testing: one per public model, and the others."""
    models = sorted(
        (
            value
            for value in (getattr(mm, name) for name in mm.__all__)
            if inspect.isclass(value) and issubclass(value, BaseModel) and value is not mm.MplpModel
        ),
        key=lambda model: model.__name__,
    )
    return {
        **{model.__name__: testing.instances(model) for model in models},
        "timestamps": testing.timestamps(),
        "json_objects": testing.json_objects(),
        "mplp_ids": testing.mplp_ids(),
        "plans(max_steps=20)": testing.plans(max_steps=20),
    }
