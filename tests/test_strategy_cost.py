"""mplp_models.testing stays cheap: each public strategy draws its first ten inputs, valid and small.

What this costs in CPU time is a benchmark (tests/benchmarks/bench_strategy_cost.py, in
make bench), not a test: a timing is no pass or fail. What is checked here is what makes a
strategy cheap whatever the machine: it draws the ten inputs that hypothesis's ``too_slow``
health check times without filtering them away, and the inputs it starts with are small.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from pydantic import BaseModel
from strategy_timing import first_values, public_strategies

import mplp_models as mm

FIRST = 10  # the valid inputs that too_slow times
FIRST_SIZE = 8 * 1024  # bytes of JSON: the largest of the first ten was 6 KB (plans(max_steps=20)), most under 2 KB
STRATEGIES = public_strategies()


def json_size(value: Any) -> int:
    if isinstance(value, mm.MplpModel):
        return len(value.to_json())
    if isinstance(value, BaseModel):
        return len(value.model_dump_json())
    return len(orjson.dumps(value))


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_the_first_inputs_are_drawn_valid_and_small(name: str) -> None:
    values = first_values(STRATEGIES[name], FIRST)
    assert len(values) == FIRST  # none lost to filters or to a strategy with too few inputs
    sizes = [json_size(value) for value in values]
    assert max(sizes) <= FIRST_SIZE, sizes
    model = getattr(mm, name, None)
    if isinstance(model, type) and issubclass(model, BaseModel):
        for value in values:
            assert type(value) is model
            assert model.model_validate(value.model_dump(exclude_unset=True)) == value  # a valid instance


def test_plans_keep_to_their_step_limit() -> None:
    plans = first_values(STRATEGIES["plans(max_steps=20)"], 50)
    assert all(1 <= len(plan.steps) <= 20 for plan in plans)
    assert max(len(plan.steps) for plan in plans) > 1  # the limit is reached for, not one step each time
