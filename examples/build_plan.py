"""Build a plan for an agent in code, validate it, and print its execution order and canonical JSON.

    python examples/build_plan.py

The plan is checked as it is built (keyword arguments are validated like any input,
the rules beyond the schema included), and it is frozen after, so a plan that exists is
one an executor can run.
"""

from __future__ import annotations

import hashlib

from pydantic import ValidationError

import mplp_models as mm


def release_plan() -> mm.Plan:
    """The plan a release agent makes: five steps, each after the steps it needs."""
    tag, build, test, notes, publish = (mm.new_id() for _ in range(5))

    def step(step_id: str, description: str, role: str, order: int, *dependencies: str) -> mm.PlanStep:
        return mm.PlanStep(
            step_id=step_id,
            description=description,
            status=mm.PlanStepStatus.pending,
            agent_role=role,
            order_index=order,
            dependencies=dependencies
            or None,  # None: not given, so absent rather than [] (or null, which the schema refuses)
        )

    steps = (
        step(tag, "Tag v2.0.0", "release-manager", 0),
        step(build, "Build the wheels", "builder", 1, tag),
        step(test, "Test the wheels", "tester", 2, build),
        step(notes, "Write the release notes", "writer", 2, tag),
        step(publish, "Publish the wheels and the notes", "release-manager", 3, test, notes),
    )
    return mm.Plan(
        meta=mm.Metadata(
            protocol_version="1.0.0",
            schema_version="1.0.0",
            created_at=mm.Timestamp.now(),
            created_by="agent-release",
            tags=("release",),
        ),
        plan_id=mm.new_id(),
        context_id=mm.new_id(),
        title="Ship the 2.0 release",
        objective="Tag, build, test and publish release 2.0 with release notes",
        status=mm.PlanStatus.draft,
        steps=steps,
    )


def main() -> int:
    plan = release_plan()
    assert plan.check() == [], "built plans keep the rules"
    names = {step.step_id: step.description for step in plan.steps}

    print(f"Plan {plan.title!r} [{plan.status.value}]: {len(plan.steps)} steps, valid")
    print("Execution order:")
    for number, step in enumerate(plan.topological_order(), start=1):
        after = ", ".join(names[dependency] for dependency in step.dependencies or ())
        print(f"  {number}. {step.description} ({step.agent_role})" + (f", after: {after}" if after else ""))
    print("Ready to start: " + ", ".join(step.description for step in plan.ready_steps()))
    first = plan.ready_steps()[0].step_id
    started = (
        plan.transition("proposed")
        .transition("approved")
        .transition("in_progress")
        .transition_step(first, "in_progress")
    )
    print(f"Started: {started.steps[0].description} [{started.steps[0].status}]")

    # A mistake is refused where it is made: here a step that waits for itself.
    looping = mm.new_id()
    loop = mm.PlanStep(step_id=looping, description="Loop", status=mm.PlanStepStatus.pending, dependencies=(looping,))
    try:
        plan.model_copy(update={"steps": (*plan.steps, loop)})
    except ValidationError as error:
        for entry in mm.errors_as_json(error):
            print(f"Refused: {entry['pointer']} {entry['code']}: {entry['message']}")

    body = plan.to_json()
    print(f"Canonical JSON ({len(body)} bytes, sha256 {hashlib.sha256(body).hexdigest()}):")
    print(body.decode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
