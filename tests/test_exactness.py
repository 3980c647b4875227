"""The models accept exactly what the frozen schemas accept, and keep what they accept unchanged.

Each case changes one value of a valid repository payload. The expected verdict
is written down, and the reference draft-07 validator (conftest) must agree
with it, so a wrong expectation fails as loudly as a wrong model.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import DELETE, fixture, mutate, reference_accepts
from pydantic import ValidationError

import mplp_models as mm

ID = "550e8400-e29b-41d4-a716-446655440000"

Plan, Dialog, Inbox, Sample, Event = mm.Plan, mm.Dialog, mm.InboxMessage, mm.LearningSample, mm.Event

# (model, path into its fixture, new value or DELETE, accepted?)
CASES: list[tuple[type[mm.MplpModel], tuple[Any, ...], Any, bool]] = [
    # ids: a str with the exact pattern; nothing else, nothing rewritten
    (Plan, ("plan_id",), ID, True),
    (Plan, ("plan_id",), ID.upper(), False),
    (Plan, ("plan_id",), "{" + ID + "}", False),
    (Plan, ("plan_id",), "urn:uuid:" + ID, False),
    (Plan, ("plan_id",), ID.replace("-", ""), False),
    (Plan, ("plan_id",), "550e8400-e29b-11d4-a716-446655440000", False),  # version 1
    (Plan, ("plan_id",), "550e8400-e29b-41d4-c716-446655440000", False),  # bad variant
    (Plan, ("plan_id",), ID + "\n", False),
    (Plan, ("plan_id",), " " + ID, False),
    (Plan, ("plan_id",), 5, False),
    (Plan, ("steps", 0, "step_id"), ID.upper(), False),
    (Plan, ("steps", 1, "dependencies", 0), "not-an-id", False),
    # date-time: RFC 3339 section 5.6, exactly
    (Event, ("timestamp",), "2026-03-01T10:00:00Z", True),
    (Event, ("timestamp",), "2026-03-01t10:00:00z", True),
    (Event, ("timestamp",), "2026-03-01T10:00:00.1+05:30", True),
    (Event, ("timestamp",), "2026-03-01T10:00:00.123456789-00:00", True),
    (Event, ("timestamp",), "2024-02-29T00:00:00Z", True),
    (Event, ("timestamp",), "2000-02-29T00:00:00Z", True),
    (Event, ("timestamp",), "2016-12-31T23:59:60Z", True),
    (Event, ("timestamp",), "2026-03-01", False),
    (Event, ("timestamp",), "2026-03-01T10:00:00", False),
    (Event, ("timestamp",), "2026-03-01 10:00:00Z", False),
    (Event, ("timestamp",), "2026-03-01T10:00:00+0000", False),
    (Event, ("timestamp",), "2026-03-01T10:00Z", False),
    (Event, ("timestamp",), "2026-03-01T10:00:00.Z", False),
    (Event, ("timestamp",), "2026-03-01T10:00:00Z\n", False),
    (Event, ("timestamp",), " 2026-03-01T10:00:00Z", False),
    (Event, ("timestamp",), "2023-02-29T00:00:00Z", False),
    (Event, ("timestamp",), "1900-02-29T00:00:00Z", False),
    (Event, ("timestamp",), "2026-04-31T00:00:00Z", False),
    (Event, ("timestamp",), "2026-13-01T00:00:00Z", False),
    (Event, ("timestamp",), "2026-03-01T24:00:00Z", False),
    (Event, ("timestamp",), "2026-03-01T10:00:00+24:00", False),
    (Event, ("timestamp",), "\uff12026-03-01T10:00:00Z", False),  # a fullwidth digit
    (Event, ("timestamp",), 1700000000, False),
    (Event, ("timestamp",), None, False),
    (Dialog, ("messages", 1, "timestamp"), "2026-03-02", False),
    (Sample, ("timestamps", "started_at"), "2026-03-02T14:00:00+01:00", True),
    # strict JSON types
    (Plan, ("steps", 0, "order_index"), 1.0, True),
    (Plan, ("steps", 0, "order_index"), 1e2, True),
    (Plan, ("steps", 0, "order_index"), 1.5, False),
    (Plan, ("steps", 0, "order_index"), True, False),
    (Plan, ("steps", 0, "order_index"), "1", False),
    (Plan, ("steps", 0, "order_index"), -1, False),
    (Plan, ("steps", 0, "order_index"), 2**53 - 1, True),
    (Plan, ("steps", 0, "order_index"), 1e30, True),
    (Sample, ("token_usage", "total_tokens"), True, False),
    (Sample, ("token_usage", "total_tokens"), "1", False),
    (Sample, ("token_usage", "total_tokens"), 15000.0, True),
    (Sample, ("token_usage", "total_tokens"), -0.5, False),
    (Sample, ("impact_score",), 1, True),
    (Sample, ("impact_score",), 1.0001, False),
    (Sample, ("user_feedback", "rating"), 5, True),
    (Sample, ("user_feedback", "rating"), 5.5, False),
    (Sample, ("success_flag",), 0, False),
    (Sample, ("success_flag",), 1, False),
    (Sample, ("success_flag",), "true", False),
    (Sample, ("success_flag",), False, True),
    (Dialog, ("governance", "locked"), 1, False),
    (Dialog, ("messages", 0, "content"), 1, False),
    (Plan, ("title",), "", False),
    (Plan, ("steps",), [], False),
    # const: 1
    (Inbox, ("schema_version",), 1.0, True),
    (Inbox, ("schema_version",), True, False),
    (Inbox, ("schema_version",), "1", False),
    (Inbox, ("schema_version",), 2, False),
    (Inbox, ("schema_version",), 10**38, False),
    (Inbox, ("schema_version",), -(2**64), False),
    (Inbox, ("schema_version",), DELETE, False),
    # uniqueItems: duplicates refused, order kept
    (Plan, ("meta", "tags"), ["b", "a"], True),
    (Plan, ("meta", "tags"), ["a", "b", "a"], False),
    (Plan, ("meta", "cross_cutting"), ["security", "security"], False),
    (Plan, ("meta", "cross_cutting"), ["protocol-version"], False),
    (Inbox, ("recipient_ids",), ["x", "x"], False),
    (Inbox, ("recipient_ids",), [], False),
    (Inbox, ("recipient_ids",), [""], False),
    (Inbox, ("related_decision_ids",), ["D-1", "D-1"], False),
    (Inbox, ("related_handoff_ids",), ["h", "h"], False),
    # optional non-nullable: an explicit null is refused
    (Plan, ("trace",), None, False),
    (Plan, ("events",), None, False),
    (Plan, ("meta", "tags"), None, False),
    (Plan, ("steps", 0, "agent_role"), None, False),
    (Plan, ("steps", 1, "dependencies"), None, False),
    (Plan, ("steps", 0, "order_index"), None, False),
    (Dialog, ("thread_id",), None, False),
    (Dialog, ("started_at",), None, False),
    (Dialog, ("governance",), None, False),
    (Inbox, ("related_decision_ids",), None, False),
    # nullable: the null is kept
    (Inbox, ("task_id",), None, True),
    (Inbox, ("mission_id",), None, True),
    (Inbox, ("read_at",), None, True),
    (Inbox, ("archived_at",), None, True),
    (Event, ("data",), None, True),
    (Event, ("data",), [], False),
    # patterns: ECMA-262 `$`, no trailing newline
    (Inbox, ("message_id",), "IM-x\n", False),
    (Inbox, ("message_id",), "IM-", False),
    (Inbox, ("message_id",), "IM-a.b_c-d", True),
    (Event, ("event_type",), "plan.created\n", False),
    (Event, ("event_type",), "Plan.created", False),
    (Plan, ("meta", "protocol_version"), "1.0.0\n", False),
    (Plan, ("meta", "protocol_version"), "1.0", False),
    # lengths count code points, as JSON Schema does
    (Inbox, ("subject",), "\U0001f600" * 200, True),
    (Inbox, ("subject",), "\U0001f600" * 201, False),
    (Inbox, ("body",), "x" * 4001, False),
    # enums
    (Plan, ("status",), "done", False),
    (Plan, ("status",), "DRAFT", False),
    (Dialog, ("messages", 0, "role"), "tool", False),
    (Dialog, ("governance", "lastConfirmRef", "module"), "plans", False),
    (Sample, ("user_feedback", "decision"), "maybe", False),
    # closed objects refuse unknown keys at every level
    (Plan, ("extra",), 1, False),
    (Plan, ("steps", 0, "extra"), 1, False),
    (Plan, ("meta", "extra"), 1, False),
    (Plan, ("trace", "extra"), 1, False),
    (Plan, ("events", 0, "extra"), 1, False),
    (Dialog, ("governance", "extra"), 1, False),
    (Dialog, ("governance", "lastConfirmRef", "extra"), 1, False),
    (Dialog, ("messages", 0, "extra"), 1, False),
    (Inbox, ("extra",), 1, False),
    (Sample, ("token_usage", "extra"), 1, False),
    (Sample, ("token_usage", "by_agent", 0, "extra"), 1, False),
    (Sample, ("user_feedback", "extra"), 1, False),
    (Sample, ("error_info", "extra"), 1, False),
    (Sample, ("timestamps", "extra"), 1, False),
    # open objects keep every key and value
    (Plan, ("trace", "attributes", "nested"), {"a": [1, 1.5, None, True, {"b": "c"}], "": {}}, True),
    (Event, ("data", "n"), {"x": None, "y": -0.25, "z": 1e300}, True),
    (Sample, ("metadata", "anything"), [[], {}, "", 0], True),
    (Sample, ("vendor_extensions",), {}, True),
    (Sample, ("delta_intents", 0, "k"), {"deep": {"deeper": [1, 2]}}, True),
    (Sample, ("delta_intents", 0), "not an object", False),
    (Sample, ("plan",), [], False),
    # required fields
    (Plan, ("objective",), DELETE, False),
    (Plan, ("steps", 0, "status"), DELETE, False),
    (Dialog, ("messages", 0, "timestamp"), DELETE, False),
    (Sample, ("timestamps", "started_at"), DELETE, False),
    (Sample, ("token_usage", "by_agent", 0, "tokens"), DELETE, False),
    (Event, ("source",), DELETE, False),
]


def case_id(case: tuple[type[mm.MplpModel], tuple[Any, ...], Any, bool]) -> str:
    model, path, value, accepted = case
    shown = "DELETE" if value is DELETE else repr(value)[:30]
    return f"{model.__name__}.{'.'.join(map(str, path))}={shown}:{'ok' if accepted else 'refused'}"


@pytest.mark.parametrize("case", CASES, ids=[case_id(case) for case in CASES])
def test_verdict_matches_schema(case: tuple[type[mm.MplpModel], tuple[Any, ...], Any, bool]) -> None:
    model, path, value, accepted = case
    document = mutate(fixture(model), path, value)
    assert reference_accepts(model, document) is accepted, "the expectation disagrees with the reference validator"
    if accepted:
        from_python = model.model_validate(document)
        from_json = model.from_json(json.dumps(document))
        # Accepted means kept: the same JSON value comes back out.
        assert from_python.to_dict() == document
        assert json.loads(from_json.to_json()) == document
    else:
        with pytest.raises(ValidationError):
            model.model_validate(document)
        with pytest.raises(ValidationError):
            model.from_json(json.dumps(document))


@pytest.mark.parametrize("value", [2, 0, 10**38, -(2**64), 1e30])
def test_a_const_is_refused_as_that_const_whatever_the_integer(value: int | float) -> None:
    # const: 1 (docs/inbox.md): every other integer is the one refusal, "Input should be 1".
    payload = fixture(Inbox)
    payload["schema_version"] = value
    for read in (lambda: Inbox.from_json(json.dumps(payload)), lambda: Inbox.model_validate(payload)):
        with pytest.raises(ValidationError) as refused:
            read()
        [entry] = mm.errors_as_json(refused.value)
        assert (entry["pointer"], entry["code"]) == ("/schema_version", "literal_error")
        assert entry["message"].startswith("Input should be 1")


def test_error_points_at_the_field() -> None:
    document = mutate(fixture(Plan), ("steps", 3, "dependencies", 0), ID.upper())
    with pytest.raises(ValidationError) as caught:
        Plan.model_validate(document)
    (error,) = caught.value.errors()
    assert error["loc"] == ("steps", 3, "dependencies", 0)
    assert error["type"] == "mplp_id"
    assert (
        error["msg"].startswith("Input should be an MPLP id") and "str(value)" not in error["msg"]
    )  # JSON text: no Python advice


def test_duplicate_items_error_names_both_positions() -> None:
    document = mutate(fixture(Inbox), ("recipient_ids",), ["a", "b", "a"])
    with pytest.raises(ValidationError) as caught:
        Inbox.model_validate(document)
    (error,) = caught.value.errors()
    assert error["loc"] == ("recipient_ids",)
    assert "item 2 repeats item 0" in error["msg"]


def test_explicit_null_and_absent_are_told_apart() -> None:
    document = fixture(Inbox)
    del document["mission_id"]
    document["task_id"] = None
    message = Inbox.model_validate(document)
    assert message.task_id is None and message.mission_id is None
    dumped = message.to_dict()
    assert dumped["task_id"] is None
    assert "mission_id" not in dumped


def test_timestamps_keep_their_text() -> None:
    event = Event.model_validate(mutate(fixture(Event), ("timestamp",), "2026-03-01t10:00:00.000z"))
    assert event.timestamp == "2026-03-01t10:00:00.000z"
    assert isinstance(event.timestamp, mm.Timestamp)
    assert json.loads(event.to_json())["timestamp"] == "2026-03-01t10:00:00.000z"


def test_integral_floats_become_ints_and_numbers_keep_their_type() -> None:
    plan = Plan.model_validate(mutate(fixture(Plan), ("steps", 0, "order_index"), 3.0))
    assert plan.steps[0].order_index == 3 and type(plan.steps[0].order_index) is int
    sample = Sample.model_validate(fixture(Sample))
    assert sample.token_usage is not None
    assert type(sample.token_usage.total_tokens) is int and type(sample.token_usage.completion_tokens) is float
