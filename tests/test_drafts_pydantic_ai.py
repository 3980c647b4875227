"""A draft as pydantic-ai's ``output_type``: its own validation drives the retry (FunctionModel); TestModel's answers.

pydantic-ai needs Python 3.11 or newer: on 3.10 this module is skipped.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pydantic_ai", reason="pydantic-ai needs Python 3.11 or newer")
from pydantic_ai import Agent, UnexpectedModelBehavior, capture_run_messages
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel
from test_drafts import DRAFTS
from test_drafts_sdks import CONTEXT, DANGLING, GOOD, MESSAGE, check_plan

from mplp_models import llm

pytestmark = pytest.mark.usefixtures("closes_run_sync_loop")


def test_output_type_plan_draft_is_retried_with_the_drafts_message() -> None:
    seen: list[list[ModelMessage]] = []
    answers = [DANGLING, GOOD]

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        (tool,) = info.output_tools
        assert tool.parameters_json_schema["required"] == ["title", "objective", "steps"]
        return ModelResponse(parts=[ToolCallPart(tool.name, json.dumps(answers[len(seen) - 1]))])

    agent = Agent(FunctionModel(model), output_type=llm.PlanDraft)
    result = agent.run_sync("Plan the release of v2.")
    assert isinstance(result.output, llm.PlanDraft)
    check_plan(result.output.to_plan(context_id=CONTEXT))
    assert len(seen) == 2
    answered, last = seen[1][-2:]  # the model's own answer, then the retry
    assert isinstance(answered, ModelResponse) and isinstance(last, ModelRequest)
    (call,) = answered.parts
    assert isinstance(call, ToolCallPart) and call.args_as_dict() == DANGLING
    # This pydantic-ai sends an output tool's retry as the tool's return, marked "retried": pydantic's error list.
    (retry,) = [part for part in last.parts if isinstance(part, ToolReturnPart) and part.outcome == "retried"]
    assert retry.content == [
        {"type": "unknown_dependency", "loc": ["steps", 2, "depends_on", 1], "msg": MESSAGE, "input": "s7"}
    ]


# --- TestModel: pydantic-ai's model for tests, which calls the output tool with made-up arguments --------


@pytest.mark.parametrize("draft", DRAFTS, ids=lambda draft: draft.__name__)
def test_test_model_answers_the_drafts_example(draft: type[llm.Draft]) -> None:
    agent = Agent(TestModel(custom_output_args=draft.example()), output_type=draft)
    assert agent.run_sync("Plan the release of v2.").output == draft.example()


def test_test_model_with_the_example_drives_an_agent_to_a_plan() -> None:
    # docs/llm.md's test of an agent of one's own, offline.
    planner = Agent(TestModel(custom_output_args=llm.PlanDraft.example()), output_type=llm.PlanDraft)
    plan = planner.run_sync("Plan the release of v2.").output.to_plan(context_id=CONTEXT)
    assert [step.description for step in plan.steps] == [
        "Tag the release v2.0.0",
        "Build the wheels",
        "Publish the wheels",
    ]
    assert plan.steps[2].depends_on == (plan.steps[1].step_id,)


def test_a_plain_test_model_writes_a_step_that_depends_on_itself() -> None:
    # What docs/llm.md says a plain TestModel() does: every string "a", so step "a" depends on "a".
    with capture_run_messages() as messages, pytest.raises(UnexpectedModelBehavior):
        Agent(TestModel(), output_type=llm.PlanDraft).run_sync("Plan the release of v2.")
    retries = [
        part
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart) and part.outcome == "retried"
    ]
    assert retries and retries[0].content == [
        {
            "type": "self_dependency",
            "loc": ["steps", 0, "depends_on", 0],
            "msg": 'step "a" depends on itself: remove "a"',
            "input": "a",
        }
    ]
