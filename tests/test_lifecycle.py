"""Lifecycle transitions: legal moves only, and the timestamps that go with them."""

from __future__ import annotations

import pytest
from conftest import fixture
from pydantic import ValidationError

import mplp_models as mm
from mplp_models._dialog import DIALOG_MOVES
from mplp_models._inbox import INBOX_MOVES
from mplp_models._plan import PLAN_MOVES, STEP_MOVES


def plan_in(status: str, step_status: str = "pending") -> mm.Plan:
    document = fixture(mm.Plan)
    document["status"] = status
    for step in document["steps"]:
        step["status"] = step_status
    return mm.Plan.model_validate(document)


@pytest.mark.parametrize("start", list(PLAN_MOVES))
@pytest.mark.parametrize("target", list(PLAN_MOVES))
def test_plan_moves(start: str, target: str) -> None:
    step_status = "completed" if start == "completed" else "skipped" if target == "completed" else "pending"
    plan = plan_in(start, step_status)
    if target in PLAN_MOVES[start]:
        moved = plan.transition(mm.PlanStatus(target))
        assert moved.status == target and plan.status == start
        assert moved.steps == plan.steps and moved.plan_id == plan.plan_id
    else:
        with pytest.raises(ValueError, match=f"cannot move from {start} to {target}"):
            plan.transition(mm.PlanStatus(target))
        assert plan.status == start


def test_the_documented_plan_lifecycle() -> None:
    plan = plan_in("draft")
    for status in ("proposed", "draft", "proposed", "approved", "in_progress"):
        plan = plan.transition(status)
    assert plan.status is mm.PlanStatus.in_progress
    assert {state for state, moves in PLAN_MOVES.items() if "cancelled" in moves} == {
        "draft",
        "proposed",
        "approved",
        "in_progress",
    }


def test_a_legal_move_still_obeys_the_rules_and_leaves_the_plan_unchanged() -> None:
    plan = plan_in("in_progress")
    with pytest.raises(ValidationError, match="plan is completed but step"):
        plan.transition("completed")
    assert plan.status is mm.PlanStatus.in_progress
    assert plan.check() == []


def test_unknown_states_are_named() -> None:
    with pytest.raises(ValueError, match="Plan has no state 'done'"):
        plan_in("draft").transition("done")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@pytest.mark.parametrize("start", list(STEP_MOVES))
@pytest.mark.parametrize("target", list(STEP_MOVES))
def test_step_moves(start: str, target: str) -> None:
    step = mm.PlanStep(step_id="a1000000-0000-4000-8000-000000000001", description="d", status=start)  # type: ignore[arg-type]
    if target in STEP_MOVES[start]:
        assert step.transition(mm.PlanStepStatus(target)).status == target
    else:
        with pytest.raises(ValueError, match=f"PlanStep cannot move from {start} to {target}"):
            step.transition(mm.PlanStepStatus(target))


@pytest.mark.parametrize("start", list(DIALOG_MOVES))
@pytest.mark.parametrize("target", list(DIALOG_MOVES))
def test_dialog_moves(start: str, target: str) -> None:
    document = fixture(mm.Dialog)
    document["status"] = start
    del document["ended_at"]
    dialog = mm.Dialog.model_validate(document)
    if target in DIALOG_MOVES[start]:
        moved = dialog.transition(mm.DialogStatus(target))
        assert moved.status == target and dialog.status == start
        assert (moved.ended_at is not None) == (target in ("completed", "cancelled"))
    else:
        with pytest.raises(ValueError, match=f"from {start} to {target}"):
            dialog.transition(mm.DialogStatus(target))


@pytest.mark.parametrize("start", list(INBOX_MOVES))
@pytest.mark.parametrize("target", list(INBOX_MOVES))
def test_inbox_moves_set_their_timestamps(start: str, target: str) -> None:
    document = fixture(mm.InboxMessage)
    document.update(status=start, read_at=None, acknowledged_at=None, archived_at=None)
    stamp = {"read": "read_at", "acknowledged": "acknowledged_at", "archived": "archived_at"}
    if start in stamp:
        document[stamp[start]] = document["updated_at"]
    message = mm.InboxMessage.model_validate(document)
    when = mm.Timestamp("2026-03-03T09:00:00Z")
    if target in INBOX_MOVES[start]:
        moved = message.transition(mm.InboxMessageStatus(target), at=when)
        assert moved.status == target and message.status == start
        assert getattr(moved, stamp[target]) == when and moved.updated_at == when
        assert moved.to_dict()[stamp[target]] == "2026-03-03T09:00:00Z"
    else:
        with pytest.raises(ValueError, match=f"InboxMessage cannot move from {start} to {target}"):
            message.transition(mm.InboxMessageStatus(target), at=when)
        assert message.to_dict() == mm.InboxMessage.model_validate(document).to_dict()


def test_a_copy_that_breaks_a_rule_is_refused_and_the_original_stays() -> None:
    document = fixture(mm.InboxMessage)
    message = mm.InboxMessage.model_validate(document)
    with pytest.raises(ValidationError, match="acknowledged_at is not set"):
        message.model_copy(update={"acknowledged_at": None})
    with pytest.raises(ValidationError, match="acknowledged_at is not set"):
        message.without("acknowledged_at")
    assert message.acknowledged_at == document["acknowledged_at"]
    del document["archived_at"]
    message = mm.InboxMessage.model_validate(document)
    with pytest.raises(ValidationError):
        message.model_copy(update={"archived_at": mm.Timestamp("2020-01-01T00:00:00Z")})  # before created_at
    assert message.archived_at is None and "archived_at" not in message.to_dict()


def test_transition_step_moves_one_step_and_checks_the_plan() -> None:
    plan = plan_in("in_progress")
    first, second = plan.steps[0], plan.steps[1]
    assert second.dependencies and first.step_id in second.dependencies
    with pytest.raises(ValidationError, match="dependency"):
        plan.transition_step(second.step_id, "in_progress")  # its dependency is still pending
    moved = plan.transition_step(first.step_id, "in_progress")
    assert moved.steps[0].status is mm.PlanStepStatus.in_progress and moved.steps[1:] == plan.steps[1:]
    assert plan.steps[0].status is mm.PlanStepStatus.pending
    with pytest.raises(ValueError, match="PlanStep cannot move from pending to completed"):
        plan.transition_step(first.step_id, "completed")
    with pytest.raises(KeyError, match="no step"):
        plan.transition_step("00000000-0000-4000-8000-000000000000", "in_progress")
