"""A release agent whose whole state is mplp-models documents, edited as it works.

    python examples/agent.py

An LLM (scripted here, so the example runs offline) writes the plan; its first answer names a
step that does not exist, and the SDK's own feedback makes it try again. A confirm approves the
plan; the agent then runs the steps in dependency order, a trace segment per step (linked to its
step), talks in a dialog, adds a step it found it needs, records a learning sample, and checks the
session against upstream's single-agent profile. Every document is made by a builder and every
change is one call that returns a new, valid document; nothing is re-read as a whole.
"""

from __future__ import annotations

import json

from pydantic import ValidationError

import mplp_models as mm
from mplp_models import llm

CONTEXT = mm.Context.new("Release 2.0", domain="release", environment="production")
CONTEXT_ID = CONTEXT.context_id
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


def run_step(plan: mm.Plan, trace: mm.Trace, step: mm.PlanStep) -> tuple[mm.Plan, mm.Trace]:
    """One step: moved to in progress, done, and traced in a segment of its own that names the step."""
    plan = plan.transition_step(step.step_id, "in_progress")
    trace = trace.open_segment(step.description, step=step)
    # ... the work of step.agent_role ...
    plan = plan.transition_step(step.step_id, "completed")
    trace = trace.transition_segment(trace.last_segment.segment_id, "completed")
    return plan, trace.add_event("step.completed", data={"step_id": step.step_id})


def main() -> dict[str, mm.MplpModel]:
    plan = ask_for_plan("Plan the 2.0 release.").transition("proposed")
    confirm = mm.Confirm.new(plan, requested_by_role="release-agent", reason="Publishing cannot be undone")
    confirm = confirm.decide("approved", by_role="release-manager", reason="The plan is sound")
    plan = plan.approve(confirm).transition("in_progress")
    trace = mm.Trace.new(CONTEXT, plan)
    dialog = mm.Dialog.new(CONTEXT).add_message("user", "Please release 2.0.")
    dialog = dialog.add_message("agent", f"Plan {plan.title!r} has {len(plan.steps)} steps.")

    # Mid-way the agent finds it must write release notes, and that publishing waits for them too.
    notes = mm.PlanStep(step_id=mm.new_id(), description="Write the release notes", status="pending")
    plan = plan.add_step(notes, before=PUBLISH)
    plan = plan.update_step(PUBLISH, dependencies=[*plan.step(PUBLISH).depends_on, notes.step_id])

    while ready := plan.ready_steps():  # each call costs what changed since the last
        for step in ready:
            plan, trace = run_step(plan, trace, step)
            dialog = dialog.add_message("agent", f"Done: {step.description}.")

    plan = plan.transition("completed")
    trace = trace.finish("completed")
    dialog = dialog.transition("completed")
    sample = mm.LearningSample(
        sample_id=mm.new_id(),
        project_id="release-bot",
        success_flag=True,
        pipeline_path=[step.description for step in plan.topological_order()],
        plan={"plan_id": plan.plan_id, "steps": len(plan.steps), "tags": ("release", "2.0")},
        timestamps=mm.LearningSampleTimestamps(started_at=trace.started_at or mm.Timestamp.now()),
    )
    session = {"context": CONTEXT, "plan": plan, "confirm": confirm, "trace": trace, "dialog": dialog}
    problems = mm.check_flow(session, profile="sa")  # the documents name each other, as the profile asks
    assert problems == [], problems
    return {"plan": plan, "trace": trace, "dialog": dialog, "confirm": confirm, "sample": sample}


if __name__ == "__main__":
    for name, document in main().items():
        same = type(document).from_json(document.to_json())  # every document is a valid payload as it stands
        assert same == document
        print(f"{name}: {type(document).__name__}, {len(document.to_json())} canonical bytes")
