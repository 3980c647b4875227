"""mplp_models.llm with pydantic-ai: an output validator that asks for a retry with ``feedback``, on a FunctionModel.

pydantic-ai needs Python 3.11 or newer: on 3.10 this module is skipped.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("pydantic_ai", reason="pydantic-ai needs Python 3.11 or newer")
from conftest import fixture
from pydantic import ValidationError
from pydantic_ai import Agent, ModelRetry, StructuredDict
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

import mplp_models as mm
from mplp_models import llm

pytestmark = pytest.mark.usefixtures("closes_run_sync_loop")

GHOST = "0b7c2b3e-8a4f-4c1d-9e2a-5f6b7c8d9e0f"


def plan_agent(answers: list[dict[str, Any]], seen: list[list[ModelMessage]]) -> Agent[None, dict[str, Any]]:
    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        (tool,) = info.output_tools
        # pydantic-ai inlines the $defs and adds a title; the object is ours: every key required, none other.
        given = llm.json_schema(mm.Plan)
        assert tool.parameters_json_schema["required"] == given["required"] == list(given["properties"])
        return ModelResponse(parts=[ToolCallPart(tool.name, json.dumps(answers[len(seen) - 1]))])

    agent = Agent(FunctionModel(model), output_type=StructuredDict(llm.json_schema(mm.Plan), name="Plan"))

    @agent.output_validator
    def valid_plan(answer: dict[str, Any]) -> dict[str, Any]:
        try:
            llm.from_llm_json(mm.Plan, answer)
        except ValidationError as error:
            raise ModelRetry(llm.feedback(error)) from None
        return answer

    return agent


def test_a_broken_rule_is_retried_with_feedback_and_the_second_answer_accepted() -> None:
    expected = mm.Plan.model_validate(fixture(mm.Plan))
    good = llm.answer(expected)
    bad = json.loads(json.dumps(good))
    bad["steps"][0]["dependencies"] = [GHOST]
    seen: list[list[ModelMessage]] = []
    result = plan_agent([bad, good], seen).run_sync("Plan the release.")
    assert llm.from_llm_json(mm.Plan, result.output) == expected
    assert len(seen) == 2
    last = seen[1][-1]
    assert isinstance(last, ModelRequest)
    # This pydantic-ai sends an output tool's retry as the tool's return, marked "retried".
    (retry,) = [part for part in last.parts if isinstance(part, ToolReturnPart) and part.outcome == "retried"]
    assert isinstance(retry.content, str)
    assert retry.content == llm.feedback(rule_error(bad))
    assert "/steps/0/dependencies/0" in retry.content
    assert GHOST in retry.content


def rule_error(answer: dict[str, Any]) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.Plan, answer)
    return caught.value
