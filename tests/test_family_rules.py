"""Rules of the event families, integration events and learning samples (upstream's invariants/families/).

Each case breaks one rule of a real fixture and expects its code and location, written out from
the invariant files; the schema alone accepts every broken document (semantic=False).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import PAYLOADS, load, reference_accepts
from pydantic import ValidationError

import mplp_models as mm

# (model, fixture, path to change, new value, expected code, expected location)
BROKEN: list[tuple[type[mm.MplpModel], str, tuple[str, ...], Any, str, tuple[str | int, ...]]] = [
    (mm.EventCore, "event-core", ("event_type",), "", "empty_text", ("event_type",)),  # obs_event_type_non_empty
    (mm.GraphUpdateEvent, "graph-update-event", ("event_type",), "", "empty_text", ("event_type",)),
    (mm.RuntimeExecutionEvent, "runtime-execution-event", ("event_type",), "", "empty_text", ("event_type",)),
    (mm.PipelineStageEvent, "pipeline-stage-event", ("stage_id",), "", "empty_text", ("stage_id",)),
    (mm.CIEvent, "ci-event", ("completed_at",), "2026-03-01T09:09:59Z", "completed_before_start", ("completed_at",)),
    (
        mm.ToolEvent,
        "tool-event",
        ("completed_at",),
        "2026-03-01T08:30:00Z",
        "completed_before_start",
        ("completed_at",),
    ),
    (
        mm.GitEvent,
        "git-event",
        ("parent_commits",),
        ["1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"] * 2,
        "duplicate_parent_commits",
        ("parent_commits", 1),
    ),
    (mm.LearningSampleCore, "learning-sample-core", ("sample_family",), "", "empty_text", ("sample_family",)),
    (
        mm.LearningSampleCore,
        "learning-sample-core",
        ("meta", "source_flow_id"),
        "",
        "empty_text",
        ("meta", "source_flow_id"),
    ),
    (
        mm.IntentResolutionSample,
        "intent-resolution-sample",
        ("meta", "source_event_ids"),
        ["evt-1", "evt-2", "evt-1"],
        "duplicate_source_event_ids",
        ("meta", "source_event_ids", 2),
    ),
    (mm.DeltaImpactSample, "delta-impact-sample", ("input", "delta_id"), "", "empty_text", ("input", "delta_id")),
    (
        mm.IntentResolutionSample,
        "intent-resolution-sample",
        ("input", "intent_id"),
        "",
        "empty_text",
        ("input", "intent_id"),
    ),
]


def changed(name: str, path: tuple[str, ...], value: Any) -> dict[str, Any]:
    document: dict[str, Any] = load(PAYLOADS / f"{name}.json")
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return document


@pytest.mark.parametrize(("model", "name", "path", "value", "code", "loc"), BROKEN)
def test_each_rule_refuses_what_the_schema_accepts(
    model: type[mm.MplpModel], name: str, path: tuple[str, ...], value: Any, code: str, loc: tuple[str | int, ...]
) -> None:
    document = changed(name, path, value)
    assert reference_accepts(model, document)
    text = json.dumps(document)
    lenient = model.from_json(text, semantic=False)
    assert [(violation.code, violation.loc) for violation in lenient.check()] == [(code, loc)]  # type: ignore[attr-defined]
    with pytest.raises(ValidationError) as caught:
        model.from_json(text)
    assert [(error["type"], error["loc"]) for error in caught.value.errors()] == [(code, loc)]
    with pytest.raises(ValidationError):
        mm.parse(text)


def test_the_fixtures_keep_every_rule() -> None:
    for model, name, *_ in BROKEN:
        assert model.from_json((PAYLOADS / f"{name}.json").read_bytes()).check() == []  # type: ignore[attr-defined]


def test_equal_start_and_completion_and_other_spellings_are_in_order() -> None:
    # The same instant in two spellings is no completion before the start.
    document = changed("tool-event", ("started_at",), "2026-03-01T10:30:02.250+01:00")
    assert mm.ToolEvent.from_json(json.dumps(document)).check() == []
    document = changed("ci-event", ("completed_at",), "2026-03-01T10:09:59+01:00")  # 09:09:59Z, before 09:10Z
    found = mm.CIEvent.from_json(json.dumps(document), semantic=False).check()
    assert [(violation.code, violation.message) for violation in found] == [
        (
            "completed_before_start",  # the offsets differ: the stamp not at UTC is followed by its instant at UTC
            "completed_at 2026-03-01T10:09:59+01:00 (2026-03-01T09:09:59Z) is before started_at 2026-03-01T09:10:00Z",
        )
    ]


# --- the MAP pairing, over a list of MAP events (map-invariants.yaml) ----------------------------

SESSION = "a7600000-0000-4000-9000-0000000000ee"
OTHER = "a7600000-0000-4000-9000-0000000000ff"


def map_event(number: int, kind: str, *, session: str = SESSION, **payload: Any) -> mm.MAPEvent:
    return mm.MAPEvent(
        event_id=f"a7600000-0000-4000-9000-{number:012d}",
        event_type=kind,  # type: ignore[arg-type]
        timestamp=f"2026-03-01T09:{number:02d}:00Z",
        session_id=session,
        payload=payload or None,
    )


def codes(events: list[mm.MAPEvent]) -> list[tuple[str, tuple[str | int, ...]]]:
    return [(violation.code, violation.loc) for violation in mm.check_map_events(events)]


def test_a_turn_taking_session_in_order_keeps_every_rule() -> None:
    events = [
        map_event(1, "MAPSessionStarted"),
        map_event(2, "MAPTurnDispatched", role_id="planner", turn_number=1),
        map_event(3, "MAPTurnCompleted", role_id="planner", turn_number=1),
        map_event(4, "MAPBroadcastSent", broadcaster_role_id="planner", target_count=2),
        map_event(5, "MAPBroadcastReceived", receiver_role_id="reviewer"),
        map_event(6, "MAPSessionCompleted"),
    ]
    assert codes(events) == []


def test_a_dispatched_turn_must_be_completed_later_by_the_same_role_in_the_same_session() -> None:
    dispatched = map_event(2, "MAPTurnDispatched", role_id="planner", turn_number=1)
    assert codes([dispatched]) == [("turn_not_completed", (0, "event_type"))]
    by_other_role = map_event(3, "MAPTurnCompleted", role_id="reviewer", turn_number=1)
    in_other_session = map_event(4, "MAPTurnCompleted", session=OTHER, role_id="planner", turn_number=1)
    other_turn = map_event(5, "MAPTurnCompleted", role_id="planner", turn_number=2)
    assert codes([dispatched, by_other_role, in_other_session, other_turn]) == [
        ("turn_not_completed", (0, "event_type"))
    ]
    completed_before = map_event(1, "MAPTurnCompleted", role_id="planner", turn_number=1)
    assert codes([completed_before, dispatched]) == [("turn_not_completed", (1, "event_type"))]


def test_a_broadcast_must_be_received_in_its_session() -> None:
    sent = map_event(4, "MAPBroadcastSent", broadcaster_role_id="planner", target_count=2)
    elsewhere = map_event(5, "MAPBroadcastReceived", session=OTHER, receiver_role_id="reviewer")
    assert codes([sent, elsewhere]) == [("broadcast_not_received", (0, "event_type"))]
    assert codes([sent, map_event(6, "MAPBroadcastReceived", receiver_role_id="reviewer")]) == []


def test_a_sequence_names_each_event_once_and_in_time_order_per_session() -> None:
    first, second = map_event(1, "MAPSessionStarted"), map_event(2, "MAPRolesAssigned")
    assert codes([second, first]) == [("timestamp_out_of_order", (1, "timestamp"))]
    other_session_earlier = map_event(1, "MAPSessionStarted", session=OTHER).model_copy(
        update={"event_id": "a7600000-0000-4000-9000-000000000099"}
    )
    assert codes([second, other_session_earlier]) == []  # sessions interleave
    assert codes([first, first]) == [("duplicate_event_id", (1, "event_id"))]


def test_an_event_out_of_order_at_another_offset_is_named_with_its_instant_at_utc() -> None:
    first = map_event(1, "MAPSessionStarted")  # 09:01:00Z
    second = map_event(2, "MAPRolesAssigned").model_copy(
        update={"timestamp": mm.Timestamp("2026-03-01T10:00:30+01:00")}
    )
    assert [violation.message for violation in mm.check_map_events([first, second])] == [
        f"event {second.event_id} at 2026-03-01T10:00:30+01:00 (2026-03-01T09:00:30Z) is before event 0"
        f" of session {SESSION} at 2026-03-01T09:01:00Z"
    ]
