"""Checked, never run: an agent's loop in strict code, and open objects typed as people hold them.

Each line marked with an ignore comment must be an error for both checkers (both report an
ignore that is not needed): the open objects take JSON values however the caller holds them
(``dict[str, int]``, a ``list[str]`` variable, another model's attributes), and refuse what is
no JSON value (a set, a ``datetime``, an object).
"""

from __future__ import annotations

import datetime

from typing_extensions import assert_type

import mplp_models as mm


def loop(context: mm.Context) -> list[mm.Payload]:
    plan = mm.Plan.new(context, title="Ship", objective="Ship it", steps=["Tag", "Build"]).transition("proposed")
    confirm = mm.Confirm.new(plan, requested_by_role="lead").decide("approved", by_role="lead")
    plan = plan.approve(confirm).transition("in_progress")
    trace = mm.Trace.new(context, plan)
    dialog = mm.Dialog.new(context).add_message("user", "Ship it")
    while ready := plan.ready_steps():
        for step in ready:
            plan = plan.transition_step(step.step_id, "in_progress")
            trace = trace.open_segment(step.description, step=step)
            segment: mm.TraceSegment = trace.last_segment
            plan = plan.transition_step(step.step_id, "completed")
            trace = trace.transition_segment(segment.segment_id, "completed").add_event(
                "step.completed", data={"step_id": step.step_id}
            )
            dialog = dialog.add_message("agent", f"{step.description}: done")
    assert_type(trace.finish("completed"), mm.Trace)
    return [context, plan.transition("completed"), confirm, trace.finish("completed"), dialog]


def refusals(plan: mm.Plan) -> list[str]:
    found: list[str] = []
    try:
        plan.remove_step(plan.steps[0].step_id)
    except mm.UnknownPartError as error:
        assert_type(error.code, str)
        found.append(error.pointer)
    except mm.EditError as error:
        assert_type(error.errors(), list[mm.ErrorEntry])
        found.append(error.message)
    return found


def open_objects(event: mm.Event, counts: dict[str, int], names: list[str], nested: dict[str, list[int]]) -> None:
    mm.Event(event_id=mm.new_id(), event_type="a.b", source="s", timestamp="2026-01-01T00:00:00Z", data=counts)
    mm.TraceSegment(segment_id=mm.new_id(), label="x", status="running", attributes=event.data)
    mm.TraceSegment(segment_id=mm.new_id(), label="x", status="running", attributes={"names": names})
    mm.TraceSegment(segment_id=mm.new_id(), label="x", status="running", attributes=nested)
    mm.TraceBase(trace_id=mm.new_id(), span_id=mm.new_id(), attributes={"tuple": (1, "a"), "none": None})
    value: mm.JsonInputValue = {"a": [1, 2.5, True, None, {"b": "c"}]}
    given: mm.JsonObjectInput = {"value": value, "counts": counts}
    mm.TraceBase(trace_id=mm.new_id(), span_id=mm.new_id(), attributes=given)
    trace = mm.Trace.new(mm.Context.new("c", domain="d", environment="e"))
    trace.add_event("counted", data=counts).add_event("named", data={"names": names})


def not_json(moment: datetime.datetime, tags: set[str], trace: mm.Trace) -> None:
    t = mm.new_id()
    mm.TraceBase(trace_id=t, span_id=t, attributes={"at": moment})  # type: ignore[dict-item]  # pyright: ignore[reportArgumentType]
    mm.TraceBase(trace_id=t, span_id=t, attributes={"tags": tags})  # type: ignore[dict-item]  # pyright: ignore[reportArgumentType]
    trace.add_event("x", data={"o": object()})  # type: ignore[dict-item]  # pyright: ignore[reportArgumentType]
    mm.TraceBase(trace_id=t, span_id=t, attributes={1: "a"})  # type: ignore[dict-item]  # pyright: ignore[reportArgumentType]


def names(plan: mm.Plan, collab: mm.Collab, trace: mm.Trace) -> None:
    step_id = plan.steps[0].step_id
    plan.update_step(step_id=step_id, description="x")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    collab.remove_participant(participant_id="p")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    trace.update_segment("s", status="completed")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    assert_type(mm.Trace.start(mm.Context.new("c", domain="d", environment="e")), mm.Trace)  # the earlier names
    assert_type(mm.Confirm.request(plan, requested_by_role="lead"), mm.Confirm)
