"""The drafts with the real SDKs, offline: openai's ``chat.completions.create``, an anthropic strict tool.

In each, the first answer depends on a step the draft does not have; the draft's own
validation refuses it, the retry carries the draft's message, and the second answer
becomes a valid Plan. The responses are the APIs' JSON replayed by an httpx2 MockTransport
(tests/test_llm_sdks.py).
"""

from __future__ import annotations

import json
from typing import Any

import anthropic
import openai
import pytest
from anthropic.types import Message, ToolUseBlock
from openai.types.chat import ChatCompletionMessageParam
from pydantic import ValidationError
from test_llm_sdks import chat_completion, replaying, tool_use_message

import mplp_models as mm
from mplp_models import llm

CONTEXT = "7f3c2a1e-5b4d-4c3a-9e8f-1a2b3c4d5e6f"
GOOD: dict[str, Any] = {
    "title": "Ship v2",
    "objective": "Tag, build and publish release 2.0",
    "steps": [
        {"id": "s1", "description": "Tag v2.0.0", "agent_role": "release-manager", "depends_on": []},
        {"id": "s2", "description": "Build the wheels", "agent_role": "builder", "depends_on": ["s1"]},
        {"id": "s3", "description": "Publish the wheels", "agent_role": None, "depends_on": ["s2"]},
    ],
}
DANGLING: dict[str, Any] = json.loads(json.dumps(GOOD))
DANGLING["steps"][2]["depends_on"] = ["s2", "s7"]
# The draft's own message, as its validator words it (written out here, not taken from the code).
MESSAGE = 'step "s3" depends on "s7", which is not a step of this plan; the steps are "s1", "s2", "s3"'


def check_plan(plan: mm.Plan) -> None:
    assert mm.Plan.from_json(plan.to_json()) == plan
    assert plan.status == "draft" and [s.description for s in plan.steps] == [s["description"] for s in GOOD["steps"]]
    assert plan.steps[2].depends_on == (plan.steps[1].step_id,)


# --- openai: chat.completions.create with the draft's format, the answer kept for the retry -------


def openai_client(answers: list[dict[str, Any]], requests: list[dict[str, Any]]) -> openai.OpenAI:
    return openai.OpenAI(
        api_key="sk-test", base_url="http://127.0.0.1:9/v1", http_client=replaying(answers, requests), max_retries=0
    )


def propose(client: openai.OpenAI, request: str, *, tries: int = 3) -> llm.PlanDraft:
    """docs/llm.md's loop: create with the draft's format, the answer and the feedback sent back on a refusal."""
    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": request}]
    refusals: list[ValidationError] = []
    for _ in range(tries):
        completion = client.chat.completions.create(
            model="gpt-4o-2024-08-06", messages=messages, response_format=llm.openai_format(llm.PlanDraft)
        )
        message = completion.choices[0].message
        answer = message.content or message.refusal or ""
        try:
            return llm.PlanDraft.model_validate_json(answer)
        except ValidationError as error:
            messages.append({"role": "assistant", "content": answer})
            messages.append({"role": "user", "content": llm.feedback(error)})
            refusals.append(error)
    raise refusals[-1]


def test_openai_parse_raises_before_the_completion_comes_back() -> None:
    # Why the docs' loop does not use parse: the draft refuses the answer inside the call, and the
    # completion (the text the model wrote, to put back in the conversation) is never returned.
    requests: list[dict[str, Any]] = []
    client = openai_client([chat_completion(json.dumps(DANGLING))], requests)
    with pytest.raises(ValidationError) as caught:
        client.chat.completions.parse(
            model="gpt-4o-2024-08-06",
            messages=[{"role": "user", "content": "Plan the release of v2."}],
            response_format=llm.PlanDraft,
        )
    assert len(requests) == 1 and MESSAGE in llm.feedback(caught.value)
    assert json.dumps(DANGLING) not in str(caught.value)  # the error holds the bad value ("s7"), not the answer


def test_openai_create_sends_what_parse_sends() -> None:
    requests: list[dict[str, Any]] = []
    client = openai_client([chat_completion(json.dumps(GOOD))] * 2, requests)
    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": "Plan the release of v2."}]
    parsed = client.chat.completions.parse(model="gpt-4o-2024-08-06", messages=messages, response_format=llm.PlanDraft)
    assert propose(client, "Plan the release of v2.") == parsed.choices[0].message.parsed
    by_parse, by_create = requests
    assert by_parse.pop("stream") is False  # parse says what create leaves to the default
    assert by_create == by_parse  # the SDK's strict conversion of the draft is the draft's own schema
    assert by_create["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "PlanDraft", "schema": llm.json_schema(llm.PlanDraft), "strict": True},
    }


def test_openai_create_loop_gives_the_model_its_own_answer_back() -> None:
    requests: list[dict[str, Any]] = []
    first = json.dumps(DANGLING, indent=1)  # as the model wrote it, white space and all
    client = openai_client([chat_completion(first), chat_completion(json.dumps(GOOD))], requests)
    draft = propose(client, "Plan the release of v2.")
    check_plan(draft.to_plan(context_id=CONTEXT))
    assert len(requests) == 2
    user, assistant, retry = requests[1]["messages"]
    assert user == {"role": "user", "content": "Plan the release of v2."}
    assert assistant == {"role": "assistant", "content": first}
    assert retry["role"] == "user" and "/steps/2/depends_on/1 [unknown_dependency]" in retry["content"]
    assert MESSAGE in retry["content"]


def test_openai_create_loop_reads_a_refusal_as_an_answer_to_fix() -> None:
    requests: list[dict[str, Any]] = []
    refusal = "I'm sorry, I can't help with that."
    client = openai_client([chat_completion(None, refusal), chat_completion(json.dumps(GOOD))], requests)
    check_plan(propose(client, "Plan the release of v2.").to_plan(context_id=CONTEXT))
    _, assistant, retry = requests[1]["messages"]
    assert assistant == {"role": "assistant", "content": refusal}
    assert "[json_invalid]" in retry["content"]


def test_openai_create_loop_gives_up_with_the_last_refusal() -> None:
    client = openai_client([chat_completion(json.dumps(DANGLING))] * 2, [])
    with pytest.raises(ValidationError) as caught:
        propose(client, "Plan the release of v2.", tries=2)
    assert MESSAGE in llm.feedback(caught.value)


# --- anthropic: a strict tool whose input is the draft ------------------------------------------


def draft_tool_message(tool_input: dict[str, Any]) -> dict[str, Any]:
    message = tool_use_message(tool_input)
    message["content"][0]["name"] = "PlanDraft"
    return message


def test_anthropic_strict_tool_retries_with_the_drafts_message() -> None:
    requests: list[dict[str, Any]] = []
    client = anthropic.Anthropic(
        api_key="test",
        base_url="http://127.0.0.1:9",
        http_client=replaying([draft_tool_message(DANGLING), draft_tool_message(GOOD)], requests),
        max_retries=0,
    )
    messages: list[Any] = [{"role": "user", "content": "Plan the release of v2."}]
    draft = None
    for _ in range(3):
        request: dict[str, Any] = {
            "model": "claude-sonnet-4-6",
            "max_tokens": 4096,
            "tools": [llm.anthropic_tool(llm.PlanDraft)],
            "tool_choice": {"type": "tool", "name": "PlanDraft"},
            "messages": messages,
        }
        message: Message = client.messages.create(**request)
        (block,) = [block for block in message.content if isinstance(block, ToolUseBlock)]
        try:
            draft = llm.PlanDraft.model_validate(block.input)
            break
        except ValidationError as error:
            messages += [
                {"role": "assistant", "content": [block.model_dump()]},
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": block.id,
                            "is_error": True,
                            "content": llm.feedback(error),
                        }
                    ],
                },
            ]
    assert draft is not None
    check_plan(draft.to_plan(context_id=CONTEXT))
    tool = requests[0]["tools"][0]
    assert (tool["name"], tool["strict"], tool["input_schema"]) == ("PlanDraft", True, llm.json_schema(llm.PlanDraft))
    _, assistant, user = requests[1]["messages"]
    (call,) = assistant["content"]  # the model's own tool call, then the feedback as its result
    assert (assistant["role"], call["type"], call["input"]) == ("assistant", "tool_use", DANGLING)
    (result,) = user["content"]
    assert result["tool_use_id"] == call["id"] and result["is_error"] is True and MESSAGE in result["content"]


def test_a_plan_refused_by_pydantic_gets_the_same_message_from_both_sdks() -> None:
    with pytest.raises(ValidationError) as from_text:
        llm.PlanDraft.model_validate_json(json.dumps(DANGLING))
    with pytest.raises(ValidationError) as from_object:
        llm.PlanDraft.model_validate(DANGLING)
    assert llm.feedback(from_text.value) == llm.feedback(from_object.value)
