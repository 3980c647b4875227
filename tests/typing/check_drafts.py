"""What a type checker sees of the LLM drafts, held under mypy --strict and pyright strict (never run).

Each ``assert_type`` fails the check if a type drifts; each line that must be an error
carries an ignore comment for exactly that error, which the checkers report when it is
not needed.
"""

from __future__ import annotations

from typing import Any, Literal

from typing_extensions import assert_type

import mplp_models as mm
from mplp_models import llm


def drafts(draft: llm.PlanDraft, plan: mm.Plan, confirm: mm.Confirm) -> None:
    assert_type(draft.steps, tuple[llm.PlanStepDraft, ...])
    assert_type(draft.steps[0].depends_on, tuple[str, ...])
    assert_type(draft.steps[0].agent_role, str | None)
    assert_type(draft.to_plan(context_id=plan.context_id), mm.Plan)
    assert_type(draft.local_ids(plan), dict[str, str])
    assert_type(llm.PlanDraft.from_plan(plan), llm.PlanDraft)
    assert_type(plan.apply_draft(draft), mm.Plan)
    assert_type(llm.json_schema(llm.PlanDraft, dialect="anthropic"), dict[str, Any])
    assert_type(llm.openai_format(llm.DialogDraft), llm.OpenAIResponseFormat)
    assert_type(llm.anthropic_tool(llm.ConfirmDecisionDraft), llm.AnthropicTool)
    assert_type(llm.from_llm_json(llm.PlanDraft, "{}", dialect="json-schema"), llm.PlanDraft)
    message = llm.DialogMessageDraft(role="agent", content="Done.")
    assert_type(message.role, Literal["user", "assistant", "system", "agent"])
    assert_type(message.to_message(), mm.DialogMessage)
    assert_type(llm.DialogDraft(messages=(message,)).to_dialog(context_id=plan.context_id), mm.Dialog)
    verdict = llm.ConfirmDecisionDraft(decision="approved", reason="The tests pass.")
    assert_type(verdict.to_decision(by_role="reviewer"), mm.ConfirmDecision)
    assert_type(verdict.decide(confirm, by_role="reviewer"), mm.Confirm)
    judged = llm.LearningSampleDraft(success=True, impact_score=None, error_code=None, error_message=None)
    assert_type(
        judged.to_learning_sample(project_id="p", started_at="2026-03-01T09:00:00Z", plan=plan), mm.LearningSample
    )
    # Arrays take a list or a tuple, as the run time does; a set (no order) is refused by both.
    step = llm.PlanStepDraft(id="s2", description="Test", agent_role=None, depends_on=["s1"])
    llm.PlanDraft(title="T", objective="O", steps=[step])
    llm.DialogDraft(messages=[message])
    llm.PlanStepDraft(id="s3", description="D", agent_role=None, depends_on={"s1"})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    llm.ConfirmDecisionDraft(decision="maybe", reason="?")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    plan.apply_draft(llm.DialogDraft(messages=()))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


class MyPlan(mm.Plan, frozen=True):
    """A user's subclass: ``Confirm.request`` takes it as a plan, as its type says."""


def builders(context: mm.Context, step: mm.PlanStep) -> None:
    # steps: a list or a tuple of steps and descriptions; a str (a sequence of letters) is refused by both.
    assert_type(mm.Plan.new(context, title="T", objective="O", steps=[step, "Test"]), mm.Plan)
    assert_type(MyPlan.new(context, title="T", objective="O", steps=("Build",)), MyPlan)
    descriptions: list[str] = ["Build", "Test"]  # a list of one kind, held in a variable (a list is invariant)
    mm.Plan.new(context, title="T", objective="O", steps=descriptions)
    mm.Plan.new(context, title="T", objective="O", steps=[step])
    mm.Plan.new(context, title="T", objective="O", steps="Deploy")  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]
    mine = MyPlan.new(context, title="T", objective="O", steps=["Build"])
    assert_type(mm.Confirm.request(mine, requested_by_role="reviewer"), mm.Confirm)
