"""A release agent whose whole state is mplp-models documents, edited as it works.

    python examples/agent.py

An LLM (scripted here, so the example runs offline) writes the plan; its first answer names a
step that does not exist, and the SDK's own feedback makes it try again. The agent then runs the
steps in dependency order, keeping a trace segment per step, talks in a dialog, adds a step it
found it needs, asks for a confirmation before publishing, and records a learning sample. Every
change is one call that returns a new, valid document; nothing is re-read as a whole.
"""

from __future__ import annotations

import json

from pydantic import ValidationError

import mplp_models as mm
from mplp_models import llm

CONTEXT_ID = mm.new_id()
TAG, BUILD, TEST, PUBLISH = (mm.new_id() for _ in range(4))


def scripted_llm(prompt: str) -> str:
    """The LLM's answer: the first names a dependency that is no step; the answer to feedback mends it."""
    publish_needs = [TEST, "a9000000-0000-4000-8000-000000000099"] if "feedback" not in prompt else [TEST]
    steps = [
        {"step_id": TAG, "description": "Tag v2.0.0", "status": "pending", "agent_role": "release-manager"},
        {"step_id": BUILD, "description": "Build the wheels", "status": "pending", "dependencies": [TAG]},
        {"step_id": TEST, "description": "Test the wheels", "status": "pending", "dependencies": [BUILD]},
        {"step_id": PUBLISH, "description": "Publish the wheels", "status": "pending", "dependencies": publish_needs},
    ]
    plan = {
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "plan_id": mm.new_id(),
        "context_id": CONTEXT_ID,
        "title": "Release 2.0",
        "objective": "Tag, build, test and publish release 2.0",
        "status": "draft",
        "steps": steps,
    }
    return "Here is the plan:\n" + json.dumps(plan)


def ask_for_plan(goal: str, attempts: int = 3) -> mm.Plan:
    """A plan from the LLM, its mistakes sent back to it in the SDK's own words until it gets one right."""
    prompt = goal
    for _ in range(attempts):
        try:
            return llm.from_llm_json(mm.Plan, scripted_llm(prompt), dialect="json-schema")
        except ValidationError as error:
            prompt = f"{goal}\n\nYour last answer was refused; feedback:\n{llm.feedback(error)}"
    raise RuntimeError(f"no valid plan after {attempts} attempts")


def new_trace(plan: mm.Plan) -> mm.Trace:
    meta = mm.Metadata(protocol_version="1.0.0", schema_version="1.0.0", created_at=mm.Timestamp.now())
    root = mm.TraceBase(trace_id=mm.new_id(), span_id=mm.new_id(), context_id=CONTEXT_ID)
    return mm.Trace(
        meta=meta,
        trace_id=root.trace_id,
        context_id=CONTEXT_ID,
        plan_id=plan.plan_id,
        root_span=root,
        status="running",
        started_at=mm.Timestamp.now(),
    )


def new_dialog() -> mm.Dialog:
    return mm.Dialog(
        meta=mm.Metadata(protocol_version="1.0.0", schema_version="1.0.0"),
        dialog_id=mm.new_id(),
        context_id=CONTEXT_ID,
        status="active",
        messages=[mm.DialogMessage(role="user", content="Please release 2.0.", timestamp=mm.Timestamp.now())],
    )


def ask_to_publish(plan: mm.Plan) -> mm.Confirm:
    return mm.Confirm(
        meta=mm.Metadata(protocol_version="1.0.0", schema_version="1.0.0"),
        confirm_id=mm.new_id(),
        target_type="plan",
        target_id=plan.plan_id,
        status="pending",
        requested_by_role="release-agent",
        requested_at=mm.Timestamp.now(),
        reason="Publishing cannot be undone",
    )


def run_step(plan: mm.Plan, trace: mm.Trace, step: mm.PlanStep) -> tuple[mm.Plan, mm.Trace]:
    """One step: moved to in progress, done, and traced in a segment of its own."""
    segment = mm.TraceSegment(segment_id=mm.new_id(), label=step.description, status="pending")
    trace = trace.add_segment(segment).transition_segment(segment.segment_id, "running")
    plan = plan.transition_step(step.step_id, "in_progress")
    plan = plan.transition_step(step.step_id, "completed")
    trace = trace.transition_segment(segment.segment_id, "completed")
    return plan, trace


def main() -> dict[str, mm.MplpModel]:
    plan = ask_for_plan("Plan the 2.0 release.")
    plan = plan.transition("proposed").transition("approved").transition("in_progress")
    trace, dialog = new_trace(plan), new_dialog()
    dialog = dialog.append("agent", f"Plan {plan.title!r} has {len(plan.steps)} steps.")

    # Mid-way the agent finds it must write release notes, and that publishing waits for them too.
    notes = mm.PlanStep(step_id=mm.new_id(), description="Write the release notes", status="pending")
    plan = plan.add_step(notes, before=PUBLISH)
    plan = plan.update_step(PUBLISH, dependencies=[*plan.step(PUBLISH).depends_on, notes.step_id])

    confirm: mm.Confirm | None = None
    while ready := plan.ready_steps():
        for step in ready:
            if step.step_id == PUBLISH and confirm is None:
                confirm = ask_to_publish(plan).decide("approved", by_role="release-manager", reason="Tests green")
            plan, trace = run_step(plan, trace, step)
            dialog = dialog.append("agent", f"Done: {step.description}.")

    plan = plan.transition("completed")
    trace = trace.finish("completed")
    dialog = dialog.transition("completed")
    assert confirm is not None
    sample = mm.LearningSample(
        sample_id=mm.new_id(),
        project_id="release-bot",
        success_flag=True,
        pipeline_path=[step.description for step in plan.topological_order()],
        plan={"plan_id": plan.plan_id, "steps": len(plan.steps), "tags": ("release", "2.0")},
        timestamps=mm.LearningSampleTimestamps(started_at=trace.started_at or mm.Timestamp.now()),
    )
    return {"plan": plan, "trace": trace, "dialog": dialog, "confirm": confirm, "sample": sample}


if __name__ == "__main__":
    for name, document in main().items():
        same = type(document).from_json(document.to_json())  # every document is a valid payload as it stands
        assert same == document
        print(f"{name}: {type(document).__name__}, {len(document.to_json())} canonical bytes")
