"""A draft as pydantic-ai's ``output_type``, on a FunctionModel: its own validation drives the agent's retry.

pydantic-ai needs Python 3.11 or newer: on 3.10 this module is skipped.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pydantic_ai", reason="pydantic-ai needs Python 3.11 or newer")
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
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
    last = seen[1][-1]
    assert isinstance(last, ModelRequest)
    # This pydantic-ai sends an output tool's retry as the tool's return, marked "retried": pydantic's error list.
    (retry,) = [part for part in last.parts if isinstance(part, ToolReturnPart) and part.outcome == "retried"]
    assert retry.content == [
        {"type": "unknown_dependency", "loc": ["steps", 2, "depends_on", 1], "msg": MESSAGE, "input": "s7"}
    ]
