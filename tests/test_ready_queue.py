"""``plan.ready_steps()`` costs what changed: held to its definition over random edits, and its work counted.

The definition is docs/plans.md's: the ``pending`` steps whose dependencies are all ``completed``
or ``skipped``, in list order. Plans made by edits find theirs from an ancestor's (``_plan``'s
``_ready_after_changes``); the differential test asks at random points of random edit sequences,
so that the chains of changes it reads are of every length, and holds each answer to the
definition, with the fast paths on and off. The count test drives the docs' executor loop over
a chain of 1,000 steps and counts the steps looked at: a constant number per move, not the plan.
"""

from __future__ import annotations

from typing import Any

import pytest
from fast_path_switch import fast_paths
from hypothesis import given, settings
from hypothesis import strategies as st
from test_plan_edits import edits, outcome

import mplp_models as mm
from mplp_models import _plan
from mplp_models.testing import plans

DONE = {"completed", "skipped"}


def ready_by_definition(plan: mm.Plan) -> list[str]:
    status = {step.step_id: step.status.value for step in plan.steps}
    return [
        step.step_id
        for step in plan.steps
        if step.status.value == "pending" and all(status[dependency] in DONE for dependency in step.depends_on)
    ]


@settings(max_examples=100)
@given(st.data(), plans(max_steps=8))
def test_the_ready_steps_of_edited_plans_are_the_definitions(data: st.DataObject, plan: mm.Plan) -> None:
    for fast in (True, False):
        current = plan
        with fast_paths(fast):
            for _ in range(data.draw(st.integers(1, 12))):
                edited = outcome(current, data.draw(edits(current)))
                if isinstance(edited, mm.Plan):
                    current = edited
                if data.draw(st.booleans()):  # asked now and then: the changes since the last answer pile up
                    assert [step.step_id for step in current.ready_steps()] == ready_by_definition(current)
            assert [step.step_id for step in current.ready_steps()] == ready_by_definition(current)


def chain(steps: int) -> mm.Plan:
    """A running plan of ``steps`` pending steps, each depending on the one before."""
    context = mm.Context.new("Chain", domain="test", environment="test", at="2026-01-01T00:00:00Z")
    made = mm.Plan.new(context, title="Chain", objective="Run", steps=[f"step {n}" for n in range(steps)])
    ids = [step.step_id for step in made.steps]
    document = made.to_dict()
    for position, step in enumerate(document["steps"][1:], 1):
        step["dependencies"] = [ids[position - 1]]
    return mm.Plan.model_validate({**document, "status": "in_progress"})


def drive(plan: mm.Plan) -> tuple[mm.Plan, int]:
    """The docs' executor loop (docs/plans.md): each round's ready steps started and completed; and its rounds."""
    rounds = 0
    while ready := plan.ready_steps():
        for step in ready:
            plan = plan.transition_step(step.step_id, "in_progress").transition_step(step.step_id, "completed")
        rounds += 1
    return plan.transition("completed"), rounds


def test_the_executor_loop_looks_at_a_constant_number_of_steps_a_move(monkeypatch: pytest.MonkeyPatch) -> None:
    counts = {"every step": 0, "one step": 0}
    every, one = _plan._ready_steps, _plan._is_ready  # pyright: ignore[reportPrivateUsage]

    def counted_every(steps: Any) -> Any:
        counts["every step"] += len(steps)
        return every(steps)

    def counted_one(*args: Any) -> bool:
        counts["one step"] += 1
        return one(*args)

    monkeypatch.setattr(_plan, "_ready_steps", counted_every)
    monkeypatch.setattr(_plan, "_is_ready", counted_one)
    for steps in (100, 1000):
        counts.update({"every step": 0, "one step": 0})
        done, rounds = drive(chain(steps))
        assert rounds == steps and done.status == "completed"
        # The first question looks at every step; each one after it at the step the round before
        # moved (twice) and at its one dependent: 2 a round, whatever the plan's size, and 1 for the
        # last question, after the last step.
        assert counts == {"every step": steps, "one step": 2 * (steps - 1) + 1}


def test_with_the_fast_paths_off_every_question_looks_at_every_step(monkeypatch: pytest.MonkeyPatch) -> None:
    looked = 0
    every = _plan._ready_steps  # pyright: ignore[reportPrivateUsage]

    def counted(steps: Any) -> Any:
        nonlocal looked
        looked += len(steps)
        return every(steps)

    monkeypatch.setattr(_plan, "_ready_steps", counted)
    with fast_paths(False):
        _, rounds = drive(chain(50))
    assert looked == 50 * (rounds + 1)  # the strict path: the definition itself, every round and the last


def test_a_plan_moved_as_a_whole_shares_what_its_steps_say() -> None:
    plan = chain(3)
    first = plan.ready_steps()
    cancelled = plan.transition("cancelled")
    assert cancelled.ready_steps() == first == [plan.steps[0]]
