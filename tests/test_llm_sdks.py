"""mplp_models.llm with the real SDKs, offline: the openai and anthropic clients over a mock transport.

The responses are the API's JSON as the SDKs' own types define it (ChatCompletion,
Message), replayed by an httpx2 MockTransport that also records each request.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anthropic
import httpx2
import openai
import pytest
from anthropic.types import Message, ToolUseBlock
from conftest import fixture
from openai.types.chat import ChatCompletion
from pydantic import ValidationError

import mplp_models as mm
from mplp_models import llm


def plan() -> mm.Plan:
    return mm.Plan.model_validate(fixture(mm.Plan))


def broken(form: dict[str, Any]) -> dict[str, Any]:
    """The answer with its first step depending on a step the plan does not have."""
    changed = json.loads(json.dumps(form))
    changed["steps"][0]["dependencies"] = ["0b7c2b3e-8a4f-4c1d-9e2a-5f6b7c8d9e0f"]
    return changed


Handler = Callable[[httpx2.Request], httpx2.Response]


def replaying(responses: list[dict[str, Any]], requests: list[dict[str, Any]]) -> httpx2.Client:
    """A client whose transport answers each request with the next response, keeping the request bodies."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        requests.append(json.loads(request.content))
        return httpx2.Response(200, json=responses[len(requests) - 1])

    return httpx2.Client(transport=httpx2.MockTransport(handle))


# --- openai: Chat Completions with response_format ---------------------------------------------


def chat_completion(content: str | None, refusal: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-AqX1",
        "object": "chat.completion",
        "created": 1764460800,
        "model": "gpt-4o-2024-08-06",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": refusal},
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 812, "completion_tokens": 402, "total_tokens": 1214},
    }


def openai_client(responses: list[dict[str, Any]], requests: list[dict[str, Any]]) -> openai.OpenAI:
    return openai.OpenAI(
        api_key="sk-test", base_url="http://127.0.0.1:9/v1", http_client=replaying(responses, requests), max_retries=0
    )


def complete(client: openai.OpenAI, messages: list[dict[str, Any]]) -> ChatCompletion:
    """One Chat Completions request for a Plan under the strict schema."""
    request: dict[str, Any] = {
        "model": "gpt-4o-2024-08-06",
        "messages": messages,
        "response_format": llm.openai_format(mm.Plan),
    }
    completion: ChatCompletion = client.chat.completions.create(**request)
    return completion


def test_openai_chat_completion_reads_into_a_plan() -> None:
    expected = plan()
    requests: list[dict[str, Any]] = []
    client = openai_client([chat_completion(json.dumps(llm.answer(expected)))], requests)
    completion = complete(client, [{"role": "user", "content": "Plan the release."}])
    content = completion.choices[0].message.content
    assert content is not None
    assert llm.from_llm_json(mm.Plan, content) == expected
    sent = requests[0]["response_format"]
    assert sent == {
        "type": "json_schema",
        "json_schema": {"name": "Plan", "schema": llm.json_schema(mm.Plan), "strict": True},
    }


def test_openai_retry_loop_sends_the_feedback() -> None:
    expected = plan()
    first = json.dumps(broken(llm.answer(expected)))
    second = json.dumps(llm.answer(expected))
    requests: list[dict[str, Any]] = []
    client = openai_client([chat_completion(first), chat_completion(second)], requests)
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Plan the release."}]
    result = None
    for _ in range(3):
        completion = complete(client, messages)
        content = completion.choices[0].message.content or ""
        try:
            result = llm.from_llm_json(mm.Plan, content)
            break
        except ValidationError as error:
            messages += [{"role": "assistant", "content": content}, {"role": "user", "content": llm.feedback(error)}]
    assert result == expected
    assert len(requests) == 2
    retry = requests[1]["messages"][-1]["content"]
    assert "/steps/0/dependencies/0" in retry
    assert "0b7c2b3e-8a4f-4c1d-9e2a-5f6b7c8d9e0f" in retry


def test_openai_refusal_is_a_validation_error() -> None:
    client = openai_client([chat_completion(None, "I'm sorry, I cannot help with that.")], [])
    completion = complete(client, [{"role": "user", "content": "Plan something bad."}])
    message = completion.choices[0].message
    assert message.refusal is not None
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.Plan, message.content or message.refusal)
    assert caught.value.errors()[0]["type"] == "json_invalid"


# --- anthropic: a forced tool call ---------------------------------------------------------------


def tool_use_message(tool_input: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-6",
        "content": [{"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "Plan", "input": tool_input}],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 1024, "output_tokens": 512},
    }


def call_tool(client: anthropic.Anthropic) -> dict[str, Any]:
    """The input of the Plan tool that Claude is made to call."""
    request: dict[str, Any] = {
        "model": "claude-sonnet-4-6",
        "max_tokens": 4096,
        "tools": [llm.anthropic_tool(mm.Plan)],
        "tool_choice": {"type": "tool", "name": "Plan"},
        "messages": [{"role": "user", "content": "Plan the release."}],
    }
    message: Message = client.messages.create(**request)
    (block,) = [block for block in message.content if isinstance(block, ToolUseBlock)]
    assert block.name == "Plan"
    return block.input


def test_anthropic_tool_use_reads_into_a_plan() -> None:
    expected = plan()
    requests: list[dict[str, Any]] = []
    client = anthropic.Anthropic(
        api_key="test",
        base_url="http://127.0.0.1:9",
        http_client=replaying([tool_use_message(llm.answer(expected, dialect="anthropic"))], requests),
        max_retries=0,
    )
    tool_input = call_tool(client)
    assert llm.from_llm_json(mm.Plan, tool_input, dialect="anthropic") == expected
    tool = requests[0]["tools"][0]
    assert tool["input_schema"] == llm.json_schema(mm.Plan, dialect="anthropic")
    assert tool["strict"] is True


def test_anthropic_broken_rule_is_located_in_the_tool_input() -> None:
    client = anthropic.Anthropic(
        api_key="test",
        base_url="http://127.0.0.1:9",
        http_client=replaying([tool_use_message(broken(llm.answer(plan(), dialect="anthropic")))], []),
        max_retries=0,
    )
    tool_input = call_tool(client)
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.Plan, tool_input, dialect="anthropic")
    assert caught.value.errors()[0]["loc"] == ("steps", 0, "dependencies", 0)
