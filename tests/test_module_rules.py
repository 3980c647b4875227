"""The rules and lifecycles of Trace, Confirm, Collab, Core, Network, Context and Extension.

Every rule is shown broken (all its violations at once, located, ids named) and
nearly broken (a payload one step from it, accepted), and schema-only mode skips it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import accepted, fixture
from hypothesis import given, settings
from pydantic import ValidationError

import mplp_models as mm
from mplp_models.testing import traces

SEGMENT = "f6000000-0000-4000-a000-00000000000{}".format
DECISION = "e5000000-0000-4000-9000-00000000000{}".format


def nested_lists(depth: int) -> list[Any]:
    """[[[...]]]: depth lists, each holding the next."""
    nested: list[Any] = []
    for _ in range(depth):
        nested = [nested]
    return nested


def violations(model: type[mm.MplpModel], document: dict[str, Any]) -> list[tuple[tuple[Any, ...], str, str]]:
    """The (loc, type, message) of every error, the same for dict and JSON input.

    Schema-only mode is checked to accept the document.
    """
    with pytest.raises(ValidationError) as caught:
        model.model_validate(document)
    with pytest.raises(ValidationError) as again:
        model.from_json(json.dumps(document))
    assert again.value.errors() == caught.value.errors()
    skipped = model.from_json(json.dumps(document), semantic=False)
    assert [(v.loc, v.code) for v in skipped.check()] == [(e["loc"], e["type"]) for e in caught.value.errors()]  # type: ignore[attr-defined]
    return [(error["loc"], error["type"], error["msg"]) for error in caught.value.errors()]


# --- Trace ---------------------------------------------------------------------------------


def segment(n: int, parent: int | None = None, **more: Any) -> dict[str, Any]:
    found: dict[str, Any] = {"segment_id": SEGMENT(n), "label": f"segment {n}", "status": "completed", **more}
    if parent is not None:
        found["parent_segment_id"] = SEGMENT(parent)
    return found


def trace_with(*segments: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {**fixture(mm.Trace), "segments": list(segments), **fields}


def test_a_sound_forest_of_segments_listed_in_any_order_passes() -> None:
    trace = mm.Trace.model_validate(trace_with(segment(3, 2), segment(1), segment(2, 1), segment(4), segment(5, 4)))
    assert [s.segment_id for s in trace.roots()] == [SEGMENT(1), SEGMENT(4)]
    assert [s.segment_id for s in trace.children(SEGMENT(1))] == [SEGMENT(2)]
    assert trace.children(SEGMENT(3)) == []
    assert [s.segment_id for s in trace.walk()] == [SEGMENT(n) for n in (1, 2, 3, 4, 5)]


def test_children_of_an_unknown_segment_is_a_key_error() -> None:
    with pytest.raises(KeyError, match=SEGMENT(9)):
        mm.Trace.model_validate(trace_with(segment(1))).children(SEGMENT(9))


def test_duplicate_segment_ids() -> None:
    [(loc, kind, message)] = violations(mm.Trace, trace_with(segment(1), segment(2), segment(1)))
    assert (loc, kind) == (("segments", 2, "segment_id"), "duplicate_segment_id")
    assert SEGMENT(1) in message and "segments 0 and 2" in message


def test_unknown_and_self_parents_are_all_reported() -> None:
    found = violations(mm.Trace, trace_with(segment(1, 9), segment(2, 2), segment(3, 1)))
    assert [(loc, kind) for loc, kind, _ in found] == [
        (("segments", 0, "parent_segment_id"), "unknown_parent"),
        (("segments", 1, "parent_segment_id"), "self_parent"),
    ]
    assert SEGMENT(9) in found[0][2] and SEGMENT(1) in found[0][2] and SEGMENT(2) in found[1][2]


def test_a_parent_cycle_is_named_in_order_from_its_first_listed_segment() -> None:
    # 2 -> 3 -> 4 -> 2 (each -> its parent), and 5 hangs below the cycle; 1 is a sound root.
    found = violations(mm.Trace, trace_with(segment(1), segment(4, 2), segment(2, 3), segment(3, 4), segment(5, 2)))
    [(loc, kind, message)] = found
    assert (loc, kind) == (("segments", 1, "parent_segment_id"), "parent_cycle")
    assert message.endswith(" -> ".join(SEGMENT(n) for n in (4, 2, 3, 4)))


def test_two_cycles_are_two_violations() -> None:
    found = violations(mm.Trace, trace_with(segment(1, 2), segment(2, 1), segment(3, 4), segment(4, 3)))
    assert [(loc, kind) for loc, kind, _ in found] == [
        (("segments", 0, "parent_segment_id"), "parent_cycle"),
        (("segments", 2, "parent_segment_id"), "parent_cycle"),
    ]


def test_walk_refuses_what_only_schema_only_mode_reads() -> None:
    trace = mm.Trace.from_json(json.dumps(trace_with(segment(1, 2), segment(2, 1))), semantic=False)
    with pytest.raises(ValueError, match="cycle"):
        trace.walk()


def test_root_span_must_belong_to_the_trace_but_its_context_may_differ() -> None:
    document = fixture(mm.Trace)
    other = "c0000000-0000-4000-8000-000000000099"
    [(loc, kind, message)] = violations(
        mm.Trace, {**document, "root_span": {**document["root_span"], "trace_id": other}}
    )
    assert (loc, kind) == (("root_span", "trace_id"), "root_span_other_trace") and other in message
    # Upstream's own data has a root span whose context_id is not the trace's: accepted.
    kept = accepted(mm.Trace, {**document, "root_span": {**document["root_span"], "context_id": other}})
    assert kept.root_span is not None and kept.root_span.context_id == other != kept.context_id


def test_finished_before_started_for_the_trace_and_its_segments() -> None:
    early, late = "2026-03-02T14:00:00Z", "2026-03-02T15:00:00+02:00"  # late is 13:00Z: before early
    found = violations(
        mm.Trace,
        trace_with(
            segment(1, started_at=early, finished_at=late),
            segment(2, 1, started_at=early, finished_at=early),
            started_at=early,
            finished_at=late,
        ),
    )
    assert [(loc, kind) for loc, kind, _ in found] == [
        (("finished_at",), "finished_before_start"),
        (("segments", 0, "finished_at"), "finished_before_start"),
    ]
    assert SEGMENT(1) in found[1][2]
    # The offsets differ: the stamp not at UTC is followed by its instant at UTC (docs/rules.md).
    assert found[0][2] == (
        "the trace finished at 2026-03-02T15:00:00+02:00 (2026-03-02T13:00:00Z),"
        " before it started at 2026-03-02T14:00:00Z"
    )


def test_near_misses_of_the_timeline_pass() -> None:
    same = ("2026-03-02T14:00:00Z", "2026-03-02T16:00:00+02:00")  # one instant, spelled twice
    kept = accepted(
        mm.Trace,
        trace_with(segment(1, started_at=same[0], finished_at=same[1]), started_at=same[0], finished_at=same[1]),
    )
    assert (kept.started_at, kept.finished_at) == same  # each spelling kept as given
    kept = accepted(mm.Trace, {**trace_with(segment(1, finished_at=same[0]), finished_at=same[0])})
    assert kept.segment(SEGMENT(1)).started_at is None  # no start: nothing to compare


def test_trace_transitions_stamp_start_and_finish() -> None:
    trace = mm.Trace.model_validate({**fixture(mm.Trace), "status": "pending"}).without("started_at", "finished_at")
    running = trace.transition("running")
    assert running.status == "running" and running.started_at is not None and running.finished_at is None
    done = running.transition(mm.TraceStatus.completed)
    assert done.finished_at is not None and trace.status == "pending"
    with pytest.raises(ValueError, match="cannot move from completed to running"):
        done.transition("running")


# --- Confirm -------------------------------------------------------------------------------


def decision(n: int, status: str = "approved", at: str = "2026-03-02T12:00:00Z") -> dict[str, Any]:
    return {"decision_id": DECISION(n), "status": status, "decided_by_role": "reviewer", "decided_at": at}


def confirm_with(*decisions: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {**fixture(mm.Confirm), "decisions": list(decisions), **fields}


def test_duplicate_decision_ids_and_decisions_before_the_request_all_at_once() -> None:
    found = violations(
        mm.Confirm,
        confirm_with(
            decision(1),
            decision(1),
            decision(2, at="2026-03-02T11:59:59.999+00:00"),
            requested_at="2026-03-02T12:00:00Z",
        ),
    )
    assert [(loc, kind) for loc, kind, _ in found] == [
        (("decisions", 1, "decision_id"), "duplicate_decision_id"),
        (("decisions", 2, "decided_at"), "decided_before_request"),
    ]
    assert DECISION(1) in found[0][2] and DECISION(2) in found[1][2]


def test_a_decision_before_the_request_at_another_offset_is_named_with_its_instant_at_utc() -> None:
    found = violations(
        mm.Confirm, confirm_with(decision(1, at="2026-03-02T06:59:00-05:00"), requested_at="2026-03-02T12:00:00Z")
    )
    assert found == [
        (
            ("decisions", 0, "decided_at"),
            "decided_before_request",
            f"decision {DECISION(1)} at 2026-03-02T06:59:00-05:00 (2026-03-02T11:59:00Z)"
            " is before requested_at 2026-03-02T12:00:00Z",
        )
    ]


def test_a_decision_at_the_very_instant_of_the_request_passes() -> None:
    kept = accepted(
        mm.Confirm, confirm_with(decision(1, at="2026-03-02T14:00:00+02:00"), requested_at="2026-03-02T12:00:00Z")
    )
    assert kept.decisions is not None and kept.decisions[0].decided_at == "2026-03-02T14:00:00+02:00"


@pytest.mark.parametrize(
    ("status", "decisions"),
    [
        ("pending", [decision(1, "approved")]),  # already decided, not yet marked
        ("approved", [decision(1, "rejected"), decision(2, "approved", "2026-03-02T13:00:00Z")]),  # decided again
        ("approved", []),  # approved with no decision record
    ],
)
def test_upstream_facts_about_confirm_statuses_are_accepted(status: str, decisions: list[dict[str, Any]]) -> None:
    kept = accepted(mm.Confirm, confirm_with(*decisions, status=status, requested_at="2026-03-02T11:00:00Z"))
    assert kept.status == status  # not "corrected" to the last decision
    assert [(d.status.value, d.decided_at) for d in kept.decisions or ()] == [
        (d["status"], d["decided_at"]) for d in decisions
    ]


def test_a_confirm_may_target_itself() -> None:
    document = fixture(mm.Confirm)
    assert accepted(mm.Confirm, {**document, "target_id": document["confirm_id"]}).target_id == document["confirm_id"]


# --- Collab, Core, Network -----------------------------------------------------------------

UNIQUE = [
    (mm.Collab, "participants", "participant_id", lambda n: f"participant-{n}"),
    (mm.Core, "modules", "module_id", lambda n: ["context", "plan", "trace"][n]),
    (mm.Network, "nodes", "node_id", lambda n: f"eb000000-0000-4000-8000-00000000001{n}"),
]


@pytest.mark.parametrize(
    ("model", "where", "field", "ident"), UNIQUE, ids=lambda value: getattr(value, "__name__", value)
)
def test_part_ids_are_unique(model: type[mm.MplpModel], where: str, field: str, ident: Any) -> None:
    document = fixture(model)
    template = document[where][0]
    items = [{**template, field: ident(n)} for n in (0, 1, 0, 2, 1)]
    found = violations(model, {**document, where: items})
    assert [(loc, kind) for loc, kind, _ in found] == [
        ((where, 2, field), f"duplicate_{field}"),
        ((where, 4, field), f"duplicate_{field}"),
    ]
    assert str(ident(0)) in found[0][2] and f"{where} 0 and 2" in found[0][2]
    near_miss = accepted(model, {**document, where: [{**template, field: ident(n)} for n in (0, 1, 2)]})
    assert [getattr(part, field) for part in getattr(near_miss, where)] == [ident(n) for n in (0, 1, 2)]


# --- lifecycles ----------------------------------------------------------------------------
# Every pair of states of every module, against tables written out from the docs: tests/test_lifecycle.py.


def test_a_final_state_refuses_every_move() -> None:
    confirm = mm.Confirm.model_validate({**fixture(mm.Confirm), "status": "cancelled"})
    with pytest.raises(ValueError, match="from cancelled it can move to nothing"):
        confirm.transition("approved")


# --- generated traces ------------------------------------------------------------------------


@settings(max_examples=30, deadline=None, database=None)
@given(traces(max_segments=8))
def test_walk_lists_every_segment_once_parents_first(trace: mm.Trace) -> None:
    order = [segment.segment_id for segment in trace.walk()]
    assert sorted(order) == sorted(segment.segment_id for segment in trace.segments or ())
    seen: set[str] = set()
    for segment in trace.walk():
        assert segment.parent_segment_id is None or segment.parent_segment_id in seen
        seen.add(segment.segment_id)


@pytest.mark.parametrize(
    ("first", "second", "before"),
    [
        ("2026-03-02T14:00:00Z", "2026-03-02T14:00:01Z", True),  # the string comparison
        ("2026-03-02T14:00:01Z", "2026-03-02T14:00:00Z", False),
        ("2026-03-02T14:00:00Z", "2026-03-02T14:00:00Z", False),
        ("2026-03-02T14:00:00.5Z", "2026-03-02T14:00:00.25Z", False),  # lengths differ: by instant
        ("2026-03-02t14:00:00Z", "2026-03-02T13:00:00Z", False),  # a lowercase t sorts after T as text
        ("2026-12-31T23:59:60Z", "2027-01-01T00:00:00Z", False),  # a leap second is the next minute's first
        ("2026-03-02T15:00:00+02:00", "2026-03-02T14:00:00Z", True),
    ],
)
def test_is_before_compares_instants(first: str, second: str, before: bool) -> None:
    from mplp_models._timestamp_order import is_before

    assert is_before(mm.Timestamp(first), mm.Timestamp(second)) is before


# --- Context: the open root --------------------------------------------------------------------


def test_the_roots_own_keys_are_kept_and_written_back_as_given() -> None:
    document = fixture(mm.Context)
    context = mm.Context.from_json(json.dumps(document))
    assert context.root.model_extra == {"repository": {"default_branch": "main", "protected": True}}
    assert json.loads(context.to_json()) == document
    assert json.loads(context.model_dump_json()) == document  # pydantic's own door: no unset field written as null
    bare = mm.ContextRoot(domain="d", environment="e")
    assert bare.to_dict() == {"domain": "d", "environment": "e"} and bare.model_extra == {}


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (float("nan"), "finite number"),
        (object(), "JSON value"),
        ("a\ud800", "lone surrogate"),
        (nested_lists(mm.MAX_OPEN_OBJECT_DEPTH + 1), "deeper"),
    ],
)
def test_the_roots_own_keys_are_checked_as_open_json(extra: Any, says: str) -> None:
    with pytest.raises(ValidationError, match=says):
        mm.ContextRoot.model_validate({"domain": "d", "environment": "e", "extra": extra})


def entries(read: Any, document: Any) -> list[tuple[str, str]]:
    """The pointer and code of each error of ``read(document)``, which must refuse it."""
    with pytest.raises(ValidationError) as caught:
        read(document)
    return [(entry["pointer"], entry["code"]) for entry in mm.errors_as_json(caught.value)]


@pytest.mark.parametrize(
    "poison",
    [float("nan"), {1, 2}, object(), "a\ud800", nested_lists(mm.MAX_OPEN_OBJECT_DEPTH + 1)],
    ids=["NaN", "set", "not JSON", "lone surrogate", "too deep"],
)
def test_an_extra_key_is_refused_at_its_value_as_an_open_field_is(poison: Any) -> None:
    # An open model's extra keys are one open object (docs/validation.md): an error sits at the value, with the
    # code that the same object gets in a declared open field (an event's payload).
    event, context = fixture(mm.EventCore), fixture(mm.Context)
    value = {"y": poison}
    expected = [
        (pointer.replace("/payload", "", 1), code)
        for pointer, code in entries(mm.EventCore.model_validate, {**event, "payload": {"x": value}})
    ]
    assert expected[0][0].startswith("/x/y")
    assert entries(mm.EventCore.model_validate, {**event, "x": value}) == expected
    root = {**context["root"], "x": value}
    assert entries(mm.Context.model_validate, {**context, "root": root}) == [(f"/root{p}", c) for p, c in expected]


def test_an_extra_key_nested_too_deep_in_json_text_is_refused_at_its_value() -> None:
    deep = "1"
    for _ in range(mm.MAX_OPEN_OBJECT_DEPTH + 1):
        deep = '{"a":' + deep + "}"
    event = {key: value for key, value in fixture(mm.EventCore).items() if key != "payload"}
    start = json.dumps(event)[:-1]
    for read in (mm.EventCore.from_json, mm.parse, mm.EventCore.model_validate_json):
        declared = entries(read, f'{start}, "payload": {{"x": {deep}}}}}')
        assert len(declared) == 1 and declared[0][0].startswith("/payload/x/a/a") and declared[0][1] == "json_too_deep"
        assert entries(read, f'{start}, "x": {deep}}}') == [(p.replace("/payload", "", 1), c) for p, c in declared]


@pytest.mark.parametrize(
    "change",
    [
        lambda extra: extra["repository"].update(ratio=float("nan")),
        lambda extra: extra.update(deep=nested_lists(mm.MAX_OPEN_OBJECT_DEPTH + 1)),
        lambda extra: extra.update(bad="\ud800"),
        lambda extra: extra.update(thing=object()),
    ],
    ids=["NaN", "too deep", "lone surrogate", "not JSON"],
)
def test_the_roots_own_keys_changed_in_place_are_never_written(change: Any) -> None:
    context = mm.Context.model_validate(fixture(mm.Context))
    assert context.root.model_extra is not None
    change(context.root.model_extra)
    with pytest.raises(mm.CanonicalJSONError):
        context.to_json()
    with pytest.raises(Exception) as caught:  # pydantic's own serialization error
        context.model_dump_json()
    assert not isinstance(caught.value, AssertionError)


def test_copies_of_an_open_root_keep_its_own_keys() -> None:
    root = mm.ContextRoot(domain="d", environment="e", region="eu")  # an own key
    assert root.model_copy(update={"entry_point": "x"}).to_dict() == {
        "domain": "d",
        "environment": "e",
        "entry_point": "x",
        "region": "eu",
    }
    assert root.model_copy(update={"region": "us"}, deep=True).model_extra == {"region": "us"}
    assert root.without("entry_point") == root
    context = mm.Context.model_validate(fixture(mm.Context))
    assert context.transition("suspended").root == context.root
