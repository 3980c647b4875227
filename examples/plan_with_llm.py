"""Plan with an LLM through PlanDraft, run some steps, and revise the plan mid-way with apply_draft.

    python examples/plan_with_llm.py

The LLM writes only what it is good at: the title, the objective, the steps with
short local ids ("s1") and which step waits for which. The SDK mints the ids,
fills meta, sets the statuses and checks every rule. Here a scripted stand-in
plays the LLM (no network, no key): its first plan names a step it forgot to
write, the draft's own message goes back, and it answers again. Any provider's
structured outputs take ``PlanDraft`` as it is (``llm.json_schema(llm.PlanDraft)``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

import mplp_models as mm
from mplp_models import llm

Ask = Callable[[list[str]], str]


def ask_for(model: type[llm.PlanDraft], ask: Ask, prompt: str, *, tries: int = 3) -> llm.PlanDraft:
    """The LLM's draft, its problems sent back to it until it is valid."""
    conversation = [prompt]
    for _ in range(tries):
        answer = ask(conversation)
        try:
            return model.model_validate_json(answer)
        except ValidationError as error:
            print(f"Refused, sent back:\n{llm.feedback(error)}")
            conversation += [answer, llm.feedback(error)]
    raise RuntimeError(f"no valid {model.__name__} in {tries} tries")


def scripted_llm() -> Ask:
    """A stand-in for the model: two answers to the first request, then a revision of the draft it is shown."""

    def step(local: str, description: str, role: str | None, *depends_on: str) -> dict[str, Any]:
        return {"id": local, "description": description, "agent_role": role, "depends_on": list(depends_on)}

    plan: dict[str, Any] = {
        "title": "Ship the 2.0 release",
        "objective": "Tag, build and publish release 2.0 with its notes",
        "steps": [
            step("s1", "Tag v2.0.0", "release-manager"),
            step("s2", "Build the wheels", "builder", "s1"),
            step("s4", "Publish the wheels and the notes", "release-manager", "s2", "s3"),
        ],
    }
    forgot = json.dumps(plan)  # s4 waits for s3, which it never wrote
    plan["steps"].insert(2, step("s3", "Write the release notes", "writer", "s1"))
    answers = iter([forgot, json.dumps(plan)])

    def ask(conversation: list[str]) -> str:
        if conversation[0].startswith("Revise"):
            return revised(json.loads(conversation[0].split("\n", 1)[1]))
        return next(answers)

    def revised(draft: dict[str, Any]) -> str:
        # The build found that the wheels need a test run before they are published.
        build = next(s["id"] for s in draft["steps"] if s["description"] == "Build the wheels")
        publish = next(s for s in draft["steps"] if s["description"].startswith("Publish"))
        draft["steps"].insert(draft["steps"].index(publish), step("t1", "Test the wheels", "tester", build))
        publish["depends_on"] = ["t1", *(d for d in publish["depends_on"] if d != build)]
        return json.dumps(draft)

    return ask


def show(plan: mm.Plan) -> None:
    view = llm.PlanDraft.from_plan(plan)
    print(f"Plan {plan.title!r} [{plan.status.value}]")
    for drafted, step in zip(view.steps, plan.steps):
        after = f", after {', '.join(drafted.depends_on)}" if drafted.depends_on else ""
        print(f"  {drafted.id} {step.description} [{step.status.value}]{after}")


def main() -> int:
    ask = scripted_llm()
    draft = ask_for(llm.PlanDraft, ask, "Plan the 2.0 release as a PlanDraft.")
    plan = draft.to_plan(context_id=mm.new_id(), created_by="agent-release")
    assert plan.check() == [], "a plan made from a valid draft keeps every rule"
    local = draft.local_ids(plan)  # the LLM's "s1" is this step id
    print(f"Accepted: {len(plan.steps)} steps, s1 is step {local['s1']}")
    show(plan)

    plan = plan.transition("proposed").transition("approved").transition("in_progress")
    for name in ("s1", "s2"):  # tag, then start the build
        plan = plan.transition_step(local[name], "in_progress")
        if name == "s1":
            plan = plan.transition_step(local[name], "completed")
    print("Running:")
    show(plan)

    current = llm.PlanDraft.from_plan(plan)
    revision = ask_for(
        llm.PlanDraft, ask, "Revise this plan; keep the ids of the steps you keep:\n" + current.model_dump_json()
    )
    plan = plan.apply_draft(revision)
    assert mm.Plan.from_json(plan.to_json()) == plan
    print("Revised (statuses kept, the new step pending):")
    show(plan)
    print("Ready to start: " + ", ".join(step.description for step in plan.ready_steps()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
