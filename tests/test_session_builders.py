"""A whole session built with the builders alone keeps upstream's profiles; each builder does what docs say.

The session is the loop of docs/agent-loop.md: a context, a plan proposed and approved by a
confirm, a trace with one segment per step (``open_segment(step=...)``), a dialog, and for the
multi-agent profile a collaboration. The expected verdicts are upstream's: every rule of
``check_flow(..., profile="sa")`` and ``"map"`` holds or does not apply, and upstream's own SA
and MAP invariant files (``../shared``, when present) find nothing that fails.
"""

from __future__ import annotations

import re

import pytest
from conftest import shared_or_skip
from fast_path_switch import fast_paths
from pydantic import ValidationError

import mplp_models as mm
from mplp_models import invariants

T0 = "2026-03-02T09:00:00Z"
NOW_ISH = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")  # what Timestamp.now() writes


def session(*, with_collab: bool = False) -> dict[str, mm.Payload]:
    """The documents of one agent's session, each made and edited by the builders only."""
    context = mm.Context.new("Release 2.0", domain="release", environment="production", at=T0)
    plan = mm.Plan.new(context, title="Ship 2.0", objective="Tag, build, publish", steps=["Tag", "Build", "Publish"])
    tag, build, publish = (step.step_id for step in plan.steps)
    plan = plan.update_step(build, dependencies=[tag]).update_step(publish, dependencies=[build])
    plan = plan.transition("proposed")
    confirm = mm.Confirm.new(plan, requested_by_role="release-manager", at=T0)
    confirm = confirm.decide("approved", by_role="release-manager", at="2026-03-02T09:01:00Z")
    plan = plan.approve(confirm).transition("in_progress")
    trace = mm.Trace.new(context, plan, at="2026-03-02T09:02:00Z")
    dialog = mm.Dialog.new(context, at="2026-03-02T09:02:00Z").add_message("user", "Ship it", at=T0[:11] + "09:02:01Z")
    while ready := plan.ready_steps():
        for step in ready:
            plan = plan.transition_step(step.step_id, "in_progress")
            trace = trace.open_segment(step.description, step=step)
            trace = trace.add_event("step.started", data={"step_id": step.step_id})
            plan = plan.transition_step(step.step_id, "completed")
            trace = trace.transition_segment(trace.last_segment.segment_id, "completed")
            dialog = dialog.add_message("agent", f"{step.description}: done")
    documents: dict[str, mm.Payload] = {
        "context": context,
        "plan": plan.transition("completed"),
        "confirm": confirm,
        "trace": trace.finish("completed"),
        "dialog": dialog.transition("completed"),
    }
    if with_collab:
        participants = [
            mm.CollabParticipant(participant_id="planner", role_id=mm.new_id(), kind="agent"),
            mm.CollabParticipant(participant_id="maria", role_id=mm.new_id(), kind="human"),
        ]
        documents["collab"] = mm.Collab.new(
            context, title="Release crew", purpose="Ship 2.0", mode="round_robin", participants=participants, at=T0
        )
    return documents


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "strict"])
def test_a_session_of_builders_keeps_the_sa_profile(fast: bool) -> None:
    with fast_paths(fast):
        documents = session()
    report = mm.check_flow_report(documents, profile="sa")
    assert report.ok, report.violations
    verdicts = {result.rule: result.status for result in report.rules}
    for rule in (
        "sa_requires_context",
        "sa_context_must_be_active",
        "sa_plan_has_steps",
        "sa_trace_not_empty",
        "sa_trace_plan_binding",
        "plan_context",
        "trace_context",
        "trace_plan",
        "confirm_target_plan",
        "context_binding",
        "segment_step",
        "event_trace",
    ):
        assert verdicts[rule] == "holds", rule


def test_a_collab_session_of_builders_keeps_the_map_profile() -> None:
    documents = session(with_collab=True)
    report = mm.check_flow_report(documents, profile="map")
    assert report.ok, report.violations
    verdicts = {result.rule: result.status for result in report.rules}
    assert verdicts["map_participants_have_role_ids"] == verdicts["map_participant_ids_are_non_empty"] == "holds"
    assert verdicts["collab_context"] == verdicts["sa_trace_not_empty"] == "holds"


def test_upstreams_own_profile_files_find_nothing_failing() -> None:
    folder = shared_or_skip("mplp-v1.0", "invariants", "families")
    documents = session(with_collab=True)
    for name in ("sa-invariants.yaml", "map-invariants.yaml"):
        verdicts = invariants.evaluate(invariants.load(folder / name), documents)
        assert [v for v in verdicts if v.status == "fails"] == [], name
        assert any(v.status == "holds" for v in verdicts), name


def test_trace_new_records_the_event_the_sa_profile_asks_for() -> None:
    context = mm.Context.new("C", domain="d", environment="test", at=T0)
    plan = mm.Plan.new(context, title="P", objective="O", steps=["one"])
    trace = mm.Trace.new(context, plan, at="2026-03-02T09:05:00Z")
    assert (trace.status, trace.started_at, trace.plan_id) == ("running", "2026-03-02T09:05:00Z", plan.plan_id)
    [event] = trace.events or ()
    assert (event.event_type, event.source, event.timestamp, event.trace_id) == (
        "trace.started",
        "trace",
        "2026-03-02T09:05:00Z",
        trace.trace_id,
    )
    assert mm.check_flow([context, plan, trace], profile="sa") == []
    assert mm.Trace.start(context, plan).events is not None  # the earlier name makes the same trace


def test_starting_a_running_trace_says_what_to_do() -> None:
    trace = mm.Trace.new(mm.Context.new("C", domain="d", environment="test"))
    with pytest.raises(mm.EditError) as caught:
        trace.transition("running")
    assert caught.value.code == "illegal_move" and caught.value.pointer == "/status"
    assert str(caught.value).startswith("Trace cannot move from running to running;")
    assert "Trace.new and Trace.start make a running trace" in str(caught.value)


def test_open_segment_makes_a_running_stamped_segment_linked_to_its_step() -> None:
    context = mm.Context.new("C", domain="d", environment="test", at=T0)
    plan = mm.Plan.new(context, title="P", objective="O", steps=["one", "two"])
    trace = mm.Trace.new(context, plan, at=T0)
    outer = trace.open_segment("all", at="2026-03-02T09:00:01Z")
    parent = outer.last_segment
    inner = outer.open_segment("two", step=plan.steps[1], parent=parent, at="2026-03-02T09:00:02Z")
    segment = inner.last_segment
    assert segment.to_dict() == {
        "segment_id": segment.segment_id,
        "parent_segment_id": parent.segment_id,
        "label": "two",
        "status": "running",
        "started_at": "2026-03-02T09:00:02Z",
        "attributes": {"step_id": plan.steps[1].step_id},
    }
    assert segment.segment_id not in (parent.segment_id, trace.trace_id)
    assert inner.open_segment("one", step=plan.steps[0].step_id).last_segment.attributes == {
        "step_id": plan.steps[0].step_id
    }
    assert NOW_ISH.match(trace.open_segment("now").last_segment.started_at or "")
    with pytest.raises(mm.EditError) as caught:
        trace.open_segment("orphan", parent=mm.new_id())
    assert (caught.value.code, caught.value.pointer) == ("unknown_parent", "/segments/0/parent_segment_id")
    with pytest.raises(mm.UnknownPartError):
        trace.last_segment  # noqa: B018  # the property raises


def test_segment_step_names_a_step_of_the_traces_plan() -> None:
    context = mm.Context.new("C", domain="d", environment="test", at=T0)
    plan = mm.Plan.new(context, title="P", objective="O", steps=["one"])
    trace = mm.Trace.new(context, plan, at=T0).open_segment("stray", step=mm.new_id())
    (violation,) = mm.check_flow({"plan.json": plan, "trace.json": trace, "context.json": context})
    assert violation.rule == "segment_step"
    assert [(place.document, place.pointer) for place in violation.locations] == [
        ("trace.json", "/segments/0/attributes/step_id"),
        ("plan.json", "/steps"),
    ]
    report = mm.check_flow_report([context, plan, trace])
    (failing,) = [result for result in report.rules if result.status == "fails"]
    assert failing.rule == "segment_step" and failing.reason == f"it fails; the first: {violation.message}"


def test_every_failing_rule_says_why() -> None:
    context = mm.Context.new("C", domain="d", environment="test", status="draft", at=T0)
    bare = [mm.Trace.new(context).model_copy(update={"events": []}) for _ in range(2)]
    report = mm.check_flow_report([context, *bare], profile="sa")
    failing = {result.rule: result.reason for result in report.rules if result.status == "fails"}
    assert failing["sa_context_must_be_active"].startswith("it fails; the first: context ")
    assert failing["sa_trace_not_empty"].startswith("2 of its 2 applications fail; the first: trace ")
    assert all(reason for reason in failing.values())
    assert all(result.reason == "" for result in report.rules if result.status == "holds")


def test_a_plan_is_approved_by_its_approved_confirm_only() -> None:
    context = mm.Context.new("C", domain="d", environment="test", at=T0)
    plan = mm.Plan.new(context, title="P", objective="O", steps=["one"]).transition("proposed")
    asked = mm.Confirm.new(plan, requested_by_role="lead", at=T0)
    approved = asked.decide("approved", by_role="lead", at=T0)
    assert plan.approve(approved).status == "approved" and plan.status == "proposed"
    other = mm.Confirm.new(context, requested_by_role="lead", at=T0).decide("approved", by_role="lead", at=T0)
    refusals = {
        "confirm_target_plan": (plan, other),
        "not_approved": (plan, asked),
        "illegal_move": (plan.transition("draft"), approved),
    }
    for code, (target, confirm) in refusals.items():
        with pytest.raises(mm.EditError) as caught:
            target.approve(confirm)
        assert caught.value.code == code
    rejected_last = approved.decide("rejected", by_role="lead", reason="not yet", at=T0)
    with pytest.raises(mm.EditError, match="its last decision rejected"):
        plan.approve(rejected_last.transition("approved"))  # the status says approved, the last decision does not


def test_dialog_new_and_add_message() -> None:
    context = mm.Context.new("C", domain="d", environment="test", at=T0)
    dialog = mm.Dialog.new(context, at=T0)
    assert dialog.to_dict() == {
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0", "created_at": T0},
        "dialog_id": dialog.dialog_id,
        "context_id": context.context_id,
        "status": "active",
        "messages": [],
        "started_at": T0,
    }
    longer = dialog.add_message("user", "Hello", at="2026-03-02T09:00:01Z")
    assert longer.append("assistant", "Hi", at="2026-03-02T09:00:02Z") == longer.add_message(
        "assistant", "Hi", at="2026-03-02T09:00:02Z"
    )
    with pytest.raises(mm.EditError) as caught:
        longer.add_message("user", "early", at="2026-03-02T08:59:59Z")
    assert (caught.value.code, caught.value.pointer) == ("message_before_start", "/messages/1/timestamp")
    assert isinstance(caught.value.__cause__, ValidationError)


def test_add_event_and_the_segment_edits() -> None:
    context = mm.Context.new("C", domain="d", environment="test", at=T0)
    trace = mm.Trace.new(context, at=T0).add_event("step.completed", at=T0, data={"count": 2})
    event = (trace.events or ())[-1]
    assert event.to_dict() == {
        "event_id": event.event_id,
        "event_type": "step.completed",
        "source": "trace",
        "timestamp": T0,
        "trace_id": trace.trace_id,
        "data": {"count": 2},
    }
    with pytest.raises(mm.EditError) as caught:
        trace.add_event("Step.Completed")  # the schema's pattern: dotted lowercase words
    assert (caught.value.code, caught.value.pointer) == ("string_pattern_mismatch", "/events/2/event_type")
    parent = trace.open_segment("parent", at=T0)
    child = parent.open_segment("child", parent=parent.last_segment, at=T0)
    renamed = child.update_segment(child.last_segment.segment_id, label="renamed", attributes={"tries": 1})
    assert renamed.last_segment.label == "renamed" and renamed.last_segment.attributes == {"tries": 1}
    with pytest.raises(mm.EditError) as cycle:
        child.update_segment(parent.last_segment.segment_id, parent_segment_id=child.last_segment.segment_id)
    assert cycle.value.code == "parent_cycle"
    with pytest.raises(mm.EditError) as refused:
        child.remove_segment(parent.last_segment.segment_id)
    assert (refused.value.code, refused.value.pointer) == ("has_dependents", "/segments/0")
    assert child.remove_segment(child.last_segment.segment_id).segments == parent.segments
    with pytest.raises(KeyError, match="the trace has no segment 'x'"):
        child.remove_segment("x")
