"""Building models in Python: keyword arguments, assignment, and the Timestamp type."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from conftest import examples
from hypothesis import given, settings
from pydantic import ValidationError
from test_roundtrip import date_times

import mplp_models as mm

STEP_ID = "a1000000-0000-4000-8000-000000000001"


def make_plan(**changes: object) -> mm.Plan:
    fields: dict[str, object] = dict(
        meta=mm.Metadata(protocol_version="1.0.0", schema_version="1.0.0"),
        plan_id="3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11",
        context_id="0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
        title="Ship it",
        objective="Ship the release",
        status=mm.PlanStatus.draft,
        steps=[mm.PlanStep(step_id=STEP_ID, description="Tag", status=mm.PlanStepStatus.pending)],
    )
    fields.update(changes)
    return mm.Plan(**fields)  # type: ignore[arg-type]


def test_keyword_construction_takes_enums_and_their_values() -> None:
    plan = make_plan(status="approved")
    assert plan.status is mm.PlanStatus.approved
    assert plan.status == "approved"
    assert plan.steps[0].status is mm.PlanStepStatus.pending


def test_keyword_construction_writes_only_what_was_given() -> None:
    plan = make_plan()
    assert plan.to_dict() == {
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "plan_id": "3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11",
        "context_id": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
        "title": "Ship it",
        "objective": "Ship the release",
        "status": "draft",
        "steps": [{"step_id": STEP_ID, "description": "Tag", "status": "pending"}],
    }
    assert mm.Plan.from_json(plan.to_json()) == plan


def test_keyword_construction_is_as_strict_as_json() -> None:
    with pytest.raises(ValidationError, match="plan_id"):
        make_plan(plan_id=STEP_ID.upper())
    with pytest.raises(ValidationError, match="trace"):
        mm.Plan.model_validate({**make_plan().to_dict(), "trace": None})  # JSON null: refused, as the schema says
    with pytest.raises(ValidationError, match="order_index"):
        mm.PlanStep(step_id=STEP_ID, description="x", status="pending", order_index="1")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="unknown_field"):
        mm.PlanStep(step_id=STEP_ID, description="x", status=mm.PlanStepStatus.pending, unknown_field=1)  # type: ignore[call-arg]


def test_none_in_keyword_arguments_means_not_given() -> None:
    plan = make_plan(trace=None)
    assert "trace" not in plan.model_fields_set
    assert plan == make_plan()
    step = mm.PlanStep(step_id=STEP_ID, description="x", status=mm.PlanStepStatus.pending, dependencies=None)
    assert step.to_dict() == {"step_id": STEP_ID, "description": "x", "status": "pending"}


class Audited(mm.Plan, frozen=True):
    """A user's own subclass (frozen, as docs/pydantic.md says), in a module the codegen did not write."""


def test_none_means_not_given_in_a_subclass_of_the_users_own_too() -> None:
    plan = Audited(**{**make_plan().model_dump(exclude_unset=True), "trace": None, "events": None})
    assert not {"trace", "events"} & plan.model_fields_set
    assert plan.to_dict() == make_plan().to_dict()


def test_models_are_frozen_and_change_through_validated_copies() -> None:
    plan = make_plan()
    with pytest.raises(ValidationError, match="frozen"):
        plan.status = "proposed"  # type: ignore[misc, assignment]
    with pytest.raises(ValidationError, match="frozen"):
        plan.steps[0].agent_role = "builder"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        plan.steps.append(plan.steps[0])  # type: ignore[attr-defined]
    with pytest.raises(ValidationError):
        plan.model_copy(update={"status": "finished"})
    proposed = plan.model_copy(update={"status": "proposed"})
    assert proposed.status is mm.PlanStatus.proposed and plan.status is mm.PlanStatus.draft
    step = plan.steps[0].model_copy(update={"agent_role": "builder"})
    assert step.to_dict()["agent_role"] == "builder"


def test_timestamp_to_datetime_compares_instants() -> None:
    earlier = mm.Timestamp("2026-03-01T10:00:00+02:00").to_datetime()
    later = mm.Timestamp("2026-03-01T08:30:00Z").to_datetime()
    assert earlier < later
    assert earlier.utcoffset() == timedelta(hours=2)


def test_timestamp_to_datetime_handles_every_valid_form() -> None:
    stamp = mm.Timestamp("2016-12-31t23:59:60.123456789-05:30").to_datetime()
    assert (stamp.second, stamp.microsecond) == (59, 999_999)
    assert stamp.utcoffset() == -timedelta(hours=5, minutes=30)
    assert mm.Timestamp("2026-01-02T03:04:05.5Z").to_datetime().microsecond == 500_000


def test_timestamp_from_datetime_and_now_are_valid_and_exact() -> None:
    moment = datetime(2026, 3, 1, 10, 0, 0, 250_000, tzinfo=timezone.utc)
    text = mm.Timestamp.from_datetime(moment)
    assert text == "2026-03-01T10:00:00.250000Z"
    assert text.to_datetime() == moment
    with pytest.raises(ValueError):
        mm.Timestamp.from_datetime(datetime(2026, 3, 1))
    now = mm.Timestamp.now()
    event = mm.Event(event_id=STEP_ID, event_type="plan.created", source="plan", timestamp=now)
    assert event.timestamp == now and len(now) == len("2026-01-02T03:04:05.678Z")


def test_timestamp_field_refuses_a_datetime_object() -> None:
    # A datetime has no single text form: the caller picks one with Timestamp.from_datetime.
    with pytest.raises(ValidationError):
        mm.Event(event_id=STEP_ID, event_type="a", source="s", timestamp=datetime.now(timezone.utc))  # type: ignore[arg-type]


@settings(max_examples=examples(quick=50, deep=500), deadline=None)
@given(date_times())
def test_instant_keys_agree_with_datetimes(text: str) -> None:
    stamp = mm.Timestamp(text)
    # The fast path (fromisoformat) and the text path give the same key.
    assert stamp.instant() == mm.Timestamp(text.lower()).instant()
    if ":60" not in text[16:19] and not text.startswith("0000"):
        moment = stamp.to_datetime()
        other = mm.Timestamp("2000-01-01T00:00:00Z")
        assert (stamp.instant() < other.instant()) == (moment < other.to_datetime())
