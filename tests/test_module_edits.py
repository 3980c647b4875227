"""Edit operations of Trace, Confirm, Dialog, Collab, Network and Core.

Tested on examples written out by hand, and by the differential.

The differential holds each edit to building the edited document from scratch:
the edit is refused exactly when ``Model.model_validate`` of the edited JSON
document (made here by hand, not by the code under test) is refused, and when
it succeeds the two agree, and the result reads back from its own JSON.
Lifecycle refusals (a move out of a final state) are no document rule: they
are checked against the tables written out below.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from conftest import fixture
from fast_path_switch import fast_paths
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

import mplp_models as mm
from mplp_models import testing as mt

M = TypeVar("M", bound=mm.MplpModel)

# The final states, from docs/traces.md and docs/confirms.md (upstream defines no moves: any
# move but out of these, and not to the state itself).
SEGMENT_FINAL = {"completed", "failed", "cancelled", "skipped"}
TRACE_FINAL = {"completed", "failed", "cancelled"}
SEGMENT_STATES = ["pending", "running", "completed", "failed", "cancelled", "skipped"]
NOW_ISH = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")  # what Timestamp.now() writes


def document(model: mm.MplpModel) -> Any:
    return json.loads(model.to_json())


def codes(error: mm.EditError) -> list[str]:
    """The codes of a refusal that stands for a rule's or the schema's error: the entries of its cause."""
    assert isinstance(error.__cause__, ValidationError) and error.errors() == mm.errors_as_json(error.__cause__)
    assert (error.code, error.pointer) == (error.errors()[0]["code"], error.errors()[0]["pointer"])
    return [entry["code"] for entry in error.errors()]


def places(entries: list[mm.ErrorEntry]) -> list[tuple[str, str]]:
    return [(entry["code"], entry["pointer"]) for entry in entries]


def same_as_scratch(edit: Callable[[], M], kind: type[M], expected: Any) -> None:
    """``edit()`` succeeds exactly when ``kind.model_validate(expected)`` does, and then gives the same model.

    The reference validates with the fast paths off (every rule step by step); the
    edit runs with them on and off. ``expected`` is read after the edit too, so an
    edit may write into it what it makes fresh.
    """
    refused: list[tuple[str, str]] = []
    with fast_paths(False):
        try:
            kind.model_validate(expected)
        except ValidationError as error:
            refused = places(mm.errors_as_json(error))
    for enabled in (True, False):
        with fast_paths(enabled):
            if refused:
                with pytest.raises(mm.EditError) as caught:
                    edit()
                assert places(caught.value.errors()) == refused  # the same problems, at the same places
                assert codes(caught.value)
                continue
            result = edit()
        with fast_paths(False):  # again: an edit may fill in what it makes fresh (a decision's id)
            assert result.to_json() == kind.model_validate(expected).to_json()
            assert result == kind.from_json(result.to_json())


# --- Trace ----------------------------------------------------------------------------------


def trace() -> mm.Trace:
    return mm.Trace.model_validate(fixture(mm.Trace))


def pending_trace() -> mm.Trace:
    return mm.Trace.model_validate({**fixture(mm.Trace), "status": "pending", "segments": []}).without(
        "started_at", "finished_at"
    )


def test_add_segment_appends_and_keeps_the_old_trace() -> None:
    old = trace()
    segment = mm.TraceSegment(
        segment_id="f6000000-0000-4000-a000-000000000009",
        parent_segment_id="f6000000-0000-4000-a000-000000000001",
        label="sign",
        status=mm.TraceSegmentStatus.pending,
    )
    new = old.add_segment(segment)
    assert [s.label for s in new.walk()] == ["release", "build", "upload wheels", "announce", "sign"]
    assert document(new)["segments"][-1] == {
        "segment_id": "f6000000-0000-4000-a000-000000000009",
        "parent_segment_id": "f6000000-0000-4000-a000-000000000001",
        "label": "sign",
        "status": "pending",
    }
    assert len(old.segments or ()) == 4
    assert new.segment("f6000000-0000-4000-a000-000000000009") == segment


def test_add_segment_to_a_trace_without_segments() -> None:
    new = pending_trace().add_segment(
        mm.TraceSegment(segment_id=mm.new_id(), label="only", status=mm.TraceSegmentStatus.running)
    )
    assert [s.label for s in new.roots()] == ["only"]


@pytest.mark.parametrize(
    ("segment_id", "parent", "code"),
    [
        ("f6000000-0000-4000-a000-000000000002", None, "duplicate_segment_id"),
        ("f6000000-0000-4000-a000-000000000009", "f6000000-0000-4000-a000-00000000000f", "unknown_parent"),
        ("f6000000-0000-4000-a000-000000000009", "f6000000-0000-4000-a000-000000000009", "self_parent"),
    ],
)
def test_add_segment_refuses_what_breaks_a_rule(segment_id: str, parent: str | None, code: str) -> None:
    segment = mm.TraceSegment(
        segment_id=segment_id, parent_segment_id=parent, label="x", status=mm.TraceSegmentStatus.pending
    )
    with pytest.raises(mm.EditError) as caught:
        trace().add_segment(segment)
    assert codes(caught.value) == [code]


def test_transition_segment_stamps_the_start_and_the_finish() -> None:
    segment_id = "f6000000-0000-4000-a000-000000000009"
    start = pending_trace().add_segment(
        mm.TraceSegment(segment_id=segment_id, label="work", status=mm.TraceSegmentStatus.pending)
    )
    running = start.transition_segment(segment_id, "running", at="2026-03-02T14:05:00Z")
    assert document(running.segment(segment_id)) == {
        "segment_id": segment_id,
        "label": "work",
        "status": "running",
        "started_at": "2026-03-02T14:05:00Z",
    }
    done = running.transition_segment(segment_id, mm.TraceSegmentStatus.completed, at="2026-03-02T15:06:00+01:00")
    assert document(done.segment(segment_id)) == {
        "segment_id": segment_id,
        "label": "work",
        "status": "completed",
        "started_at": "2026-03-02T14:05:00Z",
        "finished_at": "2026-03-02T15:06:00+01:00",
    }
    assert start.segment(segment_id).status == "pending"  # unchanged
    now = running.transition_segment(segment_id, "failed").segment(segment_id)
    assert now.started_at == "2026-03-02T14:05:00Z" and NOW_ISH.match(now.finished_at or "")
    skipped = start.transition_segment(segment_id, "skipped").segment(segment_id)
    assert skipped.started_at is None and NOW_ISH.match(skipped.finished_at or "")
    with pytest.raises(ValueError, match="a move to pending stamps no time"):  # at= would be dropped
        running.transition_segment(segment_id, "pending", at="2026-03-02T15:00:00Z")
    back = running.transition_segment(segment_id, "pending").segment(segment_id)
    assert document(back) == {
        "segment_id": segment_id,
        "label": "work",
        "status": "pending",
        "started_at": "2026-03-02T14:05:00Z",
    }


def test_transition_segment_keeps_a_stamp_unless_told_when() -> None:
    segment_id = "f6000000-0000-4000-a000-000000000009"
    given_start = mm.TraceSegment(
        segment_id=segment_id,
        label="w",
        status=mm.TraceSegmentStatus.pending,
        started_at=mm.Timestamp("2026-03-02T14:01:00Z"),
    )
    base = pending_trace().add_segment(given_start)
    assert base.transition_segment(segment_id, "running").segment(segment_id).started_at == "2026-03-02T14:01:00Z"
    told = base.transition_segment(segment_id, "running", at="2026-03-02T14:02:00Z").segment(segment_id)
    assert told.started_at == "2026-03-02T14:02:00Z"


def test_transition_segment_refusals() -> None:
    old = trace()
    with pytest.raises(KeyError, match="the trace has no segment 'nope'"):
        old.transition_segment("nope", "running")
    with pytest.raises(ValueError, match=r"TraceSegment cannot move from completed to running; .* nothing"):
        old.transition_segment("f6000000-0000-4000-a000-000000000001", "running")
    with pytest.raises(ValueError, match="TraceSegment cannot move from skipped to pending"):
        old.transition_segment("f6000000-0000-4000-a000-000000000004", "pending")
    with pytest.raises(ValueError, match="TraceSegment has no state 'done'"):
        old.transition_segment("f6000000-0000-4000-a000-000000000004", "done")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    segment_id = "f6000000-0000-4000-a000-000000000009"
    running = pending_trace().add_segment(
        mm.TraceSegment(
            segment_id=segment_id,
            label="w",
            status=mm.TraceSegmentStatus.running,
            started_at=mm.Timestamp("2026-03-02T14:01:00Z"),
        )
    )
    with pytest.raises(mm.EditError) as caught:
        running.transition_segment(segment_id, "completed", at="2026-03-02T14:00:59Z")
    [entry] = caught.value.errors()
    assert (entry["code"], entry["pointer"]) == ("finished_before_start", "/segments/0/finished_at")


def test_segment_lookup() -> None:
    assert trace().segment("f6000000-0000-4000-a000-000000000002").label == "build"
    with pytest.raises(KeyError, match="the trace has no segment 'x'"):
        pending_trace().segment("x")


def test_finish_and_transition_with_a_time() -> None:
    running = pending_trace().transition("running", at="2026-03-02T14:00:00Z")
    assert (running.status, running.started_at, running.finished_at) == ("running", "2026-03-02T14:00:00Z", None)
    done = running.finish("failed", at="2026-03-02T14:30:00Z")
    assert (done.status, done.started_at, done.finished_at) == (
        "failed",
        "2026-03-02T14:00:00Z",
        "2026-03-02T14:30:00Z",
    )
    cancelled = running.finish(mm.TraceStatus.cancelled)
    assert cancelled.status == "cancelled" and NOW_ISH.match(cancelled.finished_at or "")
    assert running.status == "running"
    with pytest.raises(ValueError, match="a trace finishes as completed, failed, cancelled, not 'running'"):
        running.finish("running")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    with pytest.raises(ValueError, match="Trace cannot move from failed to completed"):
        done.finish("completed")
    with pytest.raises(mm.EditError, match=r"before it started"):
        running.finish("completed", at="2026-03-02T13:59:59Z")


@given(mt.traces(), st.data())
def test_segment_edits_are_building_from_scratch(old: mm.Trace, data: st.DataObject) -> None:
    before = document(old)
    segments = before.get("segments", [])
    at = data.draw(mt.timestamps())
    if segments and data.draw(st.booleans()):
        position = data.draw(st.integers(0, len(segments) - 1))
        current = segments[position]["status"]
        target = data.draw(st.sampled_from(SEGMENT_STATES))
        segment_id = segments[position]["segment_id"]
        if current in SEGMENT_FINAL or target == current:
            with pytest.raises(ValueError, match=f"cannot move from {current} to {target}"):
                old.transition_segment(segment_id, target)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
            return
        if target == "pending":  # a move that stamps no time: a time given for it would be dropped
            with pytest.raises(ValueError, match="stamps no time"):
                old.transition_segment(segment_id, target, at=at)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
            return
        expected = json.loads(json.dumps(before))
        moved = expected["segments"][position]
        moved["status"] = target
        if target == "running":
            moved["started_at"] = at
        elif target in SEGMENT_FINAL:
            moved["finished_at"] = at
        same_as_scratch(
            lambda: old.transition_segment(segment_id, target, at=at),  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
            mm.Trace,
            expected,
        )
    else:
        segment = data.draw(mt.trace_segments())
        if segments and data.draw(st.booleans()):  # a parent of the trace, or a taken id
            other = data.draw(st.sampled_from(segments))["segment_id"]
            field = data.draw(st.sampled_from(["segment_id", "parent_segment_id"]))
            segment = segment.model_copy(update={field: other})
        expected = {**before, "segments": [*segments, document(segment)]}
        same_as_scratch(lambda: old.add_segment(segment), mm.Trace, expected)
    assert document(old) == before


@given(mt.traces(), st.sampled_from(["pending", "running", "completed", "failed", "cancelled"]), mt.timestamps())
def test_trace_moves_are_building_from_scratch(old: mm.Trace, target: str, at: str) -> None:
    current = old.status.value
    if current in TRACE_FINAL or target == current:
        with pytest.raises(ValueError, match=f"cannot move from {current} to {target}"):
            old.transition(target, at=at)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
        return
    if target == "pending":  # a move that stamps no time: a time given for it would be dropped
        with pytest.raises(ValueError, match="stamps no time"):
            old.transition(target, at=at)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
        return
    expected = {**document(old), "status": target}
    if target == "running":
        expected["started_at"] = at
    elif target in TRACE_FINAL:
        expected["finished_at"] = at
    same_as_scratch(lambda: old.transition(target, at=at), mm.Trace, expected)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


# --- Confirm --------------------------------------------------------------------------------


def pending_confirm() -> mm.Confirm:
    return mm.Confirm.model_validate({**fixture(mm.Confirm), "status": "pending"}).without("decisions")


def test_decide_appends_a_decision_and_moves_the_status() -> None:
    old = pending_confirm()
    new = old.decide("rejected", by_role="security-reviewer", reason="unsigned", at="2026-03-02T11:30:00Z")
    assert new.status is mm.ConfirmStatus.rejected and old.status is mm.ConfirmStatus.pending and old.decisions is None
    [decision] = document(new)["decisions"]
    decision_id = decision.pop("decision_id")
    assert uuid.UUID(decision_id).version == 4 and str(uuid.UUID(decision_id)) == decision_id
    assert decision == {
        "status": "rejected",
        "decided_by_role": "security-reviewer",
        "decided_at": "2026-03-02T11:30:00Z",
        "reason": "unsigned",
    }
    again = new.decide(mm.ConfirmDecisionStatus.approved, by_role="security-reviewer")
    assert again.status is mm.ConfirmStatus.approved
    first, second = document(again)["decisions"]
    assert "reason" not in second and NOW_ISH.match(second["decided_at"])
    assert first["decision_id"] != second["decision_id"]


def test_a_second_approval_keeps_the_status() -> None:
    approved = mm.Confirm.model_validate(fixture(mm.Confirm))
    twice = approved.decide("approved", by_role="release-manager", at="2026-03-02T14:00:00Z")
    assert twice.status is mm.ConfirmStatus.approved
    assert [d.decided_by_role for d in twice.decisions or ()] == [
        "security-reviewer",
        "security-reviewer",
        "release-manager",
    ]


def test_decide_refusals() -> None:
    cancelled = pending_confirm().decide("cancelled", by_role="planner", at="2026-03-02T12:00:00Z")
    assert cancelled.status is mm.ConfirmStatus.cancelled
    for status in (mm.ConfirmDecisionStatus.approved, mm.ConfirmDecisionStatus.cancelled):
        with pytest.raises(ValueError, match="Confirm is cancelled, which is final: it takes no more decisions"):
            cancelled.decide(status, by_role="planner")
    with pytest.raises(mm.EditError) as caught:
        pending_confirm().decide("approved", by_role="planner", at="2026-03-02T10:59:59Z")
    [entry] = caught.value.errors()
    assert (entry["code"], entry["pointer"]) == ("decided_before_request", "/decisions/0/decided_at")
    with pytest.raises(ValueError, match="is not a decision"):
        pending_confirm().decide("pending", by_role="planner")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@given(
    mt.confirms(),
    st.sampled_from(["approved", "rejected", "cancelled"]),
    st.text(max_size=8),
    st.none() | st.text(max_size=8),
    mt.timestamps(),
)
def test_decide_is_building_from_scratch(old: mm.Confirm, status: str, role: str, reason: str | None, at: str) -> None:
    current = old.status.value
    if current == "cancelled":
        with pytest.raises(ValueError, match="which is final"):
            old.decide(status, by_role=role, at=at)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
        return
    before = document(old)
    decision = {"decision_id": mm.new_id(), "status": status, "decided_by_role": role, "decided_at": at}
    if reason is not None:
        decision["reason"] = reason
    expected = {**before, "status": status, "decisions": [*before.get("decisions", []), decision]}

    def decide() -> mm.Confirm:
        result = old.decide(status, by_role=role, reason=reason, at=at)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
        assert result.decisions is not None
        decision["decision_id"] = result.decisions[-1].decision_id  # fresh: taken from the result
        return result

    same_as_scratch(decide, mm.Confirm, expected)
    assert document(old) == before


# --- Dialog ---------------------------------------------------------------------------------


def open_dialog() -> mm.Dialog:
    return mm.Dialog.model_validate({**fixture(mm.Dialog), "status": "active"}).without("ended_at")


def test_append_a_message() -> None:
    old = open_dialog()
    new = old.append("user", "And the changelog?", at="2026-03-02T14:02:00Z")
    assert document(new)["messages"][-1] == {
        "role": "user",
        "content": "And the changelog?",
        "timestamp": "2026-03-02T14:02:00Z",
    }
    assert len(new.messages) == len(old.messages) + 1 and new.messages[:-1] == old.messages
    reply = new.append(mm.DialogMessageRole.assistant, "Written.")
    assert reply.messages[-1].role is mm.DialogMessageRole.assistant and NOW_ISH.match(reply.messages[-1].timestamp)


def test_append_refusals_and_an_ended_dialog() -> None:
    with pytest.raises(mm.EditError) as caught:
        open_dialog().append("user", "too early", at="2026-03-02T13:59:59Z")
    assert codes(caught.value) == ["message_before_start"]
    ended = open_dialog().transition("completed", at="2026-03-02T16:00:00Z")
    assert ended.ended_at == "2026-03-02T16:00:00Z"
    with pytest.raises(mm.EditError) as caught:
        ended.append("assistant", "late", at="2026-03-02T16:00:01Z")
    assert codes(caught.value) == ["message_after_end"]
    with pytest.raises(mm.EditError):
        open_dialog().append("tool", "x")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@given(mt.dialogs(), st.sampled_from(["user", "assistant", "system", "agent"]), st.text(max_size=8), mt.timestamps())
def test_append_is_building_from_scratch(old: mm.Dialog, role: str, content: str, at: str) -> None:
    before = document(old)
    expected = {**before, "messages": [*before["messages"], {"role": role, "content": content, "timestamp": at}]}
    same_as_scratch(lambda: old.append(role, content, at=at), mm.Dialog, expected)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    assert document(old) == before


# --- Collab, Network, Core ------------------------------------------------------------------


def collab() -> mm.Collab:
    return mm.Collab.model_validate(fixture(mm.Collab))


def test_participants_added_changed_removed() -> None:
    old = collab()
    added = old.add_participant(mm.CollabParticipant(participant_id="ci", kind=mm.CollabParticipantKind.system))
    assert [p.participant_id for p in added.participants] == ["planner", "tester", "maria", "ci"]
    changed = added.update_participant("planner", kind="human", display_name=None)
    assert document(changed)["participants"][0] == {
        "participant_id": "planner",
        "role_id": "a7000000-0000-4000-8000-000000000001",
        "kind": "human",
    }
    renamed = changed.update_participant("tester", participant_id="qa")
    assert renamed.participant("qa").kind is mm.CollabParticipantKind.agent
    removed = renamed.remove_participant("maria")
    assert [p.participant_id for p in removed.participants] == ["planner", "qa", "ci"]
    assert [p.participant_id for p in old.participants] == ["planner", "tester", "maria"]
    assert removed.participants[0] is renamed.participants[0]  # untouched items are shared


def test_participant_refusals() -> None:
    old = collab()
    with pytest.raises(mm.EditError) as caught:
        old.add_participant(mm.CollabParticipant(participant_id="tester", kind=mm.CollabParticipantKind.human))
    assert codes(caught.value) == ["duplicate_participant_id"]
    with pytest.raises(mm.EditError) as caught:
        old.update_participant("maria", participant_id="planner")
    assert codes(caught.value) == ["duplicate_participant_id"]
    with pytest.raises(KeyError, match="the collab has no participant 'bob'"):
        old.update_participant("bob", kind="human")
    with pytest.raises(KeyError, match="the collab has no participant 'bob'"):
        old.remove_participant("bob")
    with pytest.raises(mm.EditError):
        old.update_participant("maria", kind="robot")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    alone = old.remove_participant("tester").remove_participant("maria")
    with pytest.raises(ValueError, match="participant 'planner' is the collab's only one"):
        alone.remove_participant("planner")


def test_nodes_added_changed_removed() -> None:
    old = mm.Network.model_validate(fixture(mm.Network))
    ids = [node.node_id for node in old.nodes or ()]
    changed = old.update_node(ids[2], status="active", name=None)
    assert document(changed.node(ids[2])) == {"node_id": ids[2], "kind": "external", "status": "active"}
    emptied = changed.remove_node(ids[0]).remove_node(ids[1]).remove_node(ids[2])
    assert emptied.nodes == () and document(emptied)["nodes"] == []
    bare = mm.Network.model_validate(fixture(mm.Network)).without("nodes")
    one = bare.add_node(
        mm.NetworkNode(node_id=ids[0], kind=mm.NetworkNodeKind.agent, status=mm.NetworkNodeStatus.inactive)
    )
    assert document(one)["nodes"] == [{"node_id": ids[0], "kind": "agent", "status": "inactive"}]
    with pytest.raises(mm.EditError) as caught:
        one.add_node(mm.NetworkNode(node_id=ids[0], kind=mm.NetworkNodeKind.queue, status=mm.NetworkNodeStatus.active))
    assert codes(caught.value) == ["duplicate_node_id"]
    with pytest.raises(KeyError, match="the network has no node"):
        bare.remove_node(ids[0])


def test_modules_added_changed_removed() -> None:
    old = mm.Core.model_validate(fixture(mm.Core))
    assert [m.module_id.value for m in old.modules] == ["context", "plan", "confirm", "trace", "network"]
    added = old.add_module(
        mm.ModuleDescriptor(
            module_id=mm.ModuleId.dialog, version="1.0.0", status=mm.ModuleDescriptorStatus.experimental
        )
    )
    assert document(added.module("dialog")) == {"module_id": "dialog", "version": "1.0.0", "status": "experimental"}
    changed = added.update_module(mm.ModuleId.plan, status="disabled", required=None)
    assert (
        changed.module("plan").status is mm.ModuleDescriptorStatus.disabled and changed.module("plan").required is None
    )
    removed = changed.remove_module("trace")
    assert [m.module_id.value for m in removed.modules] == ["context", "plan", "confirm", "network", "dialog"]
    with pytest.raises(mm.EditError) as caught:
        old.add_module(
            mm.ModuleDescriptor(module_id=mm.ModuleId.plan, version="2.0.0", status=mm.ModuleDescriptorStatus.enabled)
        )
    assert codes(caught.value) == ["duplicate_module_id"]
    with pytest.raises(KeyError, match="the core describes no module 'dialog'"):
        old.remove_module("dialog")
    with pytest.raises(mm.EditError):
        old.update_module("plan", version="")
    alone = mm.Core.model_validate({**fixture(mm.Core), "modules": fixture(mm.Core)["modules"][:1]})
    with pytest.raises(ValueError, match="module 'context' is the core's only one"):
        alone.remove_module("context")


def item_edit(
    data: st.DataObject, items: list[Any], key: str, drawn: Any, changes: dict[str, Any], minimum: int
) -> tuple[str, Any, list[Any] | None]:
    """An edit of ``items`` drawn.

    It is (operation, argument, the items it gives, or None if it is refused before validation).
    """
    operation = data.draw(st.sampled_from(["add", "update", "remove"] if items else ["add"]))
    if operation == "add":
        item = document(drawn)
        taken: bool = data.draw(st.booleans())
        if items and taken:
            item[key] = data.draw(st.sampled_from(items))[key]  # a taken id
        return operation, item, [*items, item]
    wanted = data.draw(st.sampled_from(items))[key]
    position = next(i for i, item in enumerate(items) if item[key] == wanted)
    if operation == "update":
        edited = {**items[position]}
        for name, value in changes.items():
            if value is None:
                edited.pop(name, None)
            else:
                edited[name] = value
        return operation, (items[position][key], changes), [*items[:position], edited, *items[position + 1 :]]
    rest = [*items[:position], *items[position + 1 :]]
    return operation, items[position][key], rest if len(rest) >= minimum else None


def run_item_edit(
    model: mm.MplpModel,
    field: str,
    key: str,
    kind: type[Any],
    data: st.DataObject,
    changes: dict[str, Any],
    minimum: int,
) -> None:
    before = document(model)
    drawn = data.draw(_ITEMS[kind]())
    operation, argument, items = item_edit(data, before.get(field, []), key, drawn, changes, minimum)
    name = {"participants": "participant", "nodes": "node", "modules": "module"}[field]
    edit: Callable[[], mm.MplpModel]
    if operation == "add":
        edit = lambda: getattr(model, f"add_{name}")(kind.model_validate(argument))  # noqa: E731
    elif operation == "update":
        edit = lambda: getattr(model, f"update_{name}")(argument[0], **argument[1])  # noqa: E731
    else:
        edit = lambda: getattr(model, f"remove_{name}")(argument)  # noqa: E731
    if items is None:
        with pytest.raises(ValueError, match="only one"):
            edit()
    else:
        same_as_scratch(edit, type(model), {**before, field: items})
    assert document(model) == before


_ITEMS: dict[type[Any], Callable[[], st.SearchStrategy[Any]]] = {
    mm.CollabParticipant: mt.collab_participants,
    mm.NetworkNode: mt.network_nodes,
    mm.ModuleDescriptor: mt.module_descriptors,
}


@given(mt.collabs(), st.data())
def test_participant_edits_are_building_from_scratch(old: mm.Collab, data: st.DataObject) -> None:
    changes = data.draw(
        st.fixed_dictionaries(
            {},
            optional={
                "participant_id": st.sampled_from([p.participant_id for p in old.participants]) | st.text(max_size=6),
                "role_id": st.none() | st.text(max_size=6),
                "kind": st.sampled_from(["agent", "human", "system", "external"]),
                "display_name": st.none() | st.text(max_size=6),
            },
        )
    )
    run_item_edit(old, "participants", "participant_id", mm.CollabParticipant, data, changes, minimum=1)


@given(mt.networks(), st.data())
def test_node_edits_are_building_from_scratch(old: mm.Network, data: st.DataObject) -> None:
    changes = data.draw(
        st.fixed_dictionaries(
            {},
            optional={
                "node_id": st.sampled_from([n.node_id for n in old.nodes or ()] or ["x"]) | mt.mplp_ids(),
                "name": st.none() | st.text(max_size=6),
                "kind": st.sampled_from(["agent", "service", "database", "queue", "external", "other"]),
                "role_id": st.none() | st.text(max_size=6),
                "status": st.sampled_from(["active", "inactive", "degraded", "unreachable", "retired"]),
            },
        )
    )
    run_item_edit(old, "nodes", "node_id", mm.NetworkNode, data, changes, minimum=0)


@given(mt.cores(), st.data())
def test_module_edits_are_building_from_scratch(old: mm.Core, data: st.DataObject) -> None:
    changes = data.draw(
        st.fixed_dictionaries(
            {},
            optional={
                "version": st.text(max_size=4),
                "status": st.sampled_from(["enabled", "disabled", "experimental", "deprecated"]),
                "required": st.none() | st.booleans(),
                "description": st.none() | st.text(max_size=6),
            },
        )
    )
    run_item_edit(old, "modules", "module_id", mm.ModuleDescriptor, data, changes, minimum=1)


@pytest.mark.parametrize("status", ["pending", "bogus", "draft"])
def test_decide_refuses_what_is_not_a_decision_naming_the_decisions(status: str) -> None:
    confirm = mm.Confirm.model_validate(fixture(mm.Confirm))
    with pytest.raises(ValueError, match=r"is not a decision \(decisions: approved, rejected, cancelled\)"):
        confirm.decide(status, by_role="reviewer")  # type: ignore[arg-type]


def test_a_time_given_for_a_move_that_stamps_none_is_refused() -> None:
    # It would be dropped: the moves that stamp are to running and to a final state (a dialog: its end).
    running = {key: value for key, value in fixture(mm.Trace).items() if key != "finished_at"}
    trace = mm.Trace.model_validate({**running, "status": "running"})
    with pytest.raises(ValueError, match="stamps no time"):
        trace.transition("pending", at="2026-03-02T15:00:00Z")
    active = {key: value for key, value in fixture(mm.Dialog).items() if key != "ended_at"}
    dialog = mm.Dialog.model_validate({**active, "status": "active"})
    with pytest.raises(ValueError, match="stamps no time"):
        dialog.transition("paused", at="2026-03-02T15:00:00Z")


@given(mt.traces(), st.data())
def test_the_other_segment_edits_and_events_are_building_from_scratch(old: mm.Trace, data: st.DataObject) -> None:
    """update_segment, remove_segment, open_segment and add_event, each held to building the trace anew."""
    before = document(old)
    segments = before.get("segments", [])
    at = data.draw(mt.timestamps())
    ids = [segment["segment_id"] for segment in segments]
    kind = data.draw(st.sampled_from(["update", "remove", "open", "event"] if segments else ["open", "event"]))
    expected = json.loads(json.dumps(before))
    if kind == "update":
        position = data.draw(st.integers(0, len(segments) - 1))
        changes: dict[str, Any] = data.draw(
            st.fixed_dictionaries(
                {},
                optional={
                    "label": st.text(max_size=4),
                    "parent_segment_id": st.none() | st.sampled_from([*ids, mm.new_id()]),
                    "attributes": st.none() | st.just({"tries": 2}),
                },
            )
        )
        for name, value in changes.items():
            if value is None:
                expected["segments"][position].pop(name, None)
            else:
                expected["segments"][position][name] = value
        same_as_scratch(lambda: old.update_segment(ids[position], **changes), mm.Trace, expected)
    elif kind == "remove":
        position = data.draw(st.integers(0, len(segments) - 1))
        if any(segment.get("parent_segment_id") == ids[position] for segment in segments):
            with pytest.raises(mm.EditError) as caught:
                old.remove_segment(ids[position])
            assert caught.value.code == "has_dependents"
            return
        del expected["segments"][position]
        same_as_scratch(lambda: old.remove_segment(ids[position]), mm.Trace, expected)
    elif kind == "open":
        parent = data.draw(st.none() | st.sampled_from([*ids, mm.new_id()]))
        segment = {"segment_id": mm.new_id(), "label": "work", "status": "running", "started_at": at}
        if parent is not None:
            segment["parent_segment_id"] = parent
        made_fresh(lambda: old.open_segment("work", parent=parent, at=at), "segments", "segment_id", before, segment)
    else:
        event_type = data.draw(st.sampled_from(["step.completed", "Not.Dotted"]))
        event: dict[str, Any] = {"event_id": mm.new_id(), "event_type": event_type, "source": "trace"}
        event.update(timestamp=at, trace_id=old.trace_id, data={"n": 1})
        made_fresh(lambda: old.add_event(event_type, at=at, data={"n": 1}), "events", "event_id", before, event)
    assert document(old) == before


def made_fresh(edit: Callable[[], mm.Trace], field: str, key: str, before: Any, item: dict[str, Any]) -> None:
    """``edit()`` appends ``item`` to ``field`` (with a fresh ``key`` of its own), as building the trace anew does."""
    expected = {**before, field: [*before.get(field, []), item]}
    refused: list[tuple[str, str]] = []
    with fast_paths(False):
        try:
            mm.Trace.model_validate(expected)
        except ValidationError as error:
            refused = places(mm.errors_as_json(error))
    for enabled in (True, False):
        with fast_paths(enabled):
            if refused:
                with pytest.raises(mm.EditError) as caught:
                    edit()
                assert places(caught.value.errors()) == refused
                continue
            result = edit()
        made = document(result)[field][-1]
        assert made[key] != item[key] and uuid.UUID(made[key]).version == 4
        with fast_paths(False):
            again = {**before, field: [*before.get(field, []), {**item, key: made[key]}]}
            assert result.to_json() == mm.Trace.model_validate(again).to_json()
