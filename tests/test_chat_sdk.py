"""Dialogs with the official openai and anthropic SDKs: their objects in, their params out, offline.

The SDKs' response models are built from JSON shaped as the APIs return it
(``model_validate``), or through the SDK clients over a mock HTTP transport, so
that what a dialog writes is the request body the SDK sends. The package never
imports the SDKs; these tests (and tests/typing/check_chat_sdk.py) do.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import anthropic
import httpx2
import openai
import pytest
from anthropic.types import Message, MessageParam, TextBlock
from conftest import PAYLOADS
from hypothesis import given
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionMessage,
    ChatCompletionMessageParam,
    ParsedChatCompletionMessage,
)
from pydantic import BaseModel, TypeAdapter, ValidationError

import mplp_models as mm
from mplp_models import ConversionError
from mplp_models.testing import dialogs

STAMP = "2026-03-02T14:00:00Z"
QUESTION = [{"role": "system", "content": "You are the release assistant."}, {"role": "user", "content": "Ready?"}]

# A Chat Completions response, as the API returns it.
COMPLETION: dict[str, Any] = {
    "id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
    "object": "chat.completion",
    "created": 1741569952,
    "model": "gpt-4o-mini-2024-07-18",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": "Yes: 412 checks green.",
                "refusal": None,
                "annotations": [],
            },
            "logprobs": None,
            "finish_reason": "stop",
        }
    ],
    "usage": {
        "prompt_tokens": 19,
        "completion_tokens": 10,
        "total_tokens": 29,
        "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": 0,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    },
    "service_tier": "default",
    "system_fingerprint": "fp_06737a9306",
}

# A Messages API response, as the API returns it.
MESSAGE: dict[str, Any] = {
    "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-5-5",
    "content": [{"type": "text", "text": "Yes: 412 checks green."}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {
        "input_tokens": 25,
        "output_tokens": 12,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "service_tier": "standard",
    },
}

TOOL_CALL = {"id": "call_62136354", "type": "function", "function": {"name": "run_checks", "arguments": "{}"}}
CITATION = {
    "type": "url_citation",
    "url_citation": {"start_index": 0, "end_index": 4, "title": "CI", "url": "https://ci.example.com/412"},
}
WEB_CITATION = {
    "type": "web_search_result_location",
    "cited_text": "412 checks green",
    "url": "https://ci.example.com/412",
    "title": "CI",
    "encrypted_index": "Eo8BCioIAhgBIiQyYjQ0OWJmZi1lM2M3",
}
THINKING = {"type": "thinking", "thinking": "The checks are green.", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3h"}
TOOL_USE = {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "run_checks", "input": {}}


def completion(**message: Any) -> ChatCompletion:
    """The recorded completion, its message's keys changed by ``message``."""
    recorded = copy.deepcopy(COMPLETION)
    recorded["choices"][0]["message"].update(message)
    return ChatCompletion.model_validate(recorded)


def response(*blocks: dict[str, Any], **fields: Any) -> Message:
    """The recorded Messages response with these content blocks (and fields)."""
    return Message.model_validate({**copy.deepcopy(MESSAGE), "content": list(blocks), **fields})


def question() -> mm.Dialog:
    return mm.Dialog.from_openai_messages(QUESTION, timestamps=STAMP)


def refused(call: Callable[..., Any], *args: Any, **kwargs: Any) -> ConversionError:
    with pytest.raises(ConversionError) as caught:
        call(*args, **kwargs)
    return caught.value


# --- OpenAI: the SDK's objects in ---------------------------------------------------------------


def test_from_openai_messages_takes_the_sdk_message_objects() -> None:
    reply = ChatCompletionMessage(role="assistant", content="Yes.")
    dialog = mm.Dialog.from_openai_messages([*QUESTION, reply], timestamps=STAMP)
    assert dialog.to_openai_messages() == [*QUESTION, {"role": "assistant", "content": "Yes."}]
    recorded = completion().choices[0].message
    assert mm.Dialog.from_openai_messages([recorded]).messages[0].content == "Yes: 412 checks green."


def test_append_openai_appends_the_reply_to_a_new_dialog() -> None:
    dialog = question()
    reply = completion()
    longer = dialog.append_openai(reply, timestamp="2026-03-02T14:00:02Z")
    assert len(dialog.messages) == 2  # unchanged: models are frozen
    assert longer.messages[:2] == dialog.messages
    assert longer.messages[2].to_dict() == {
        "role": "assistant",
        "content": "Yes: 412 checks green.",
        "timestamp": "2026-03-02T14:00:02Z",
    }
    assert {name: getattr(longer, name) for name in ("dialog_id", "context_id", "meta", "status")} == {
        name: getattr(dialog, name) for name in ("dialog_id", "context_id", "meta", "status")
    }
    # The completion, its message, and their JSON append the same message.
    for same in (reply.choices[0].message, COMPLETION, COMPLETION["choices"][0]["message"]):
        assert dialog.append_openai(same, timestamp="2026-03-02T14:00:02Z") == longer


def test_append_stamps_now_unless_given_and_is_validated_with_the_rules() -> None:
    before = mm.Timestamp.now().instant()
    stamped = question().append_openai(completion()).messages[-1].timestamp
    assert isinstance(stamped, mm.Timestamp) and before <= stamped.instant() <= mm.Timestamp.now().instant()
    ended = mm.Dialog.from_openai_messages(QUESTION, timestamps=STAMP, ended_at="2026-03-02T14:00:01Z")
    with pytest.raises(mm.EditError) as caught:  # an edit's refusal: its cause is the rules' ValidationError
        ended.append_openai(completion(), timestamp="2026-03-02T14:00:02Z")
    assert isinstance(caught.value.__cause__, ValidationError)
    assert [(entry["loc"], entry["type"]) for entry in caught.value.__cause__.errors()] == [
        (("messages", 2, "timestamp"), "message_after_end")
    ]
    with pytest.raises(mm.EditError):
        question().append_openai(completion(), timestamp="yesterday")


def test_append_openai_takes_any_one_message_of_the_format() -> None:
    dialog = question().append_openai({"role": "developer", "content": "Be brief."}, timestamp=STAMP)
    assert dialog.messages[-1].role is mm.DialogMessageRole.system


@pytest.mark.parametrize(
    ("reply", "path", "words"),
    [
        (
            completion(content=None, tool_calls=[TOOL_CALL]),
            ("choices", 0, "message", "tool_calls"),
            "would be lost: a dialog keeps only role and content here",
        ),
        (
            completion(content=None, refusal="I can't help with that."),
            ("choices", 0, "message", "refusal"),
            'the model refused ("I can\'t help with that."); pass refusal_as_text=True',
        ),
        (
            completion(
                content=None,
                audio={"id": "audio_1", "data": "UklGRg==", "expires_at": 1741573552, "transcript": "Yes."},
            ),
            ("choices", 0, "message", "audio"),
            "pass drop_keys=['audio']",
        ),
        (
            completion(annotations=[CITATION]),
            ("choices", 0, "message", "annotations"),
            "pass drop_keys=['annotations']",
        ),
        (
            ChatCompletion.model_validate({**COMPLETION, "choices": COMPLETION["choices"] * 2}),
            ("choices",),
            "2 choices, and a dialog appends one message",
        ),
        (
            {**COMPLETION, "choices": [{"index": 0, "finish_reason": "stop"}]},
            ("choices", 0, "message"),
            "required, and absent",
        ),
        (
            {"role": "assistant", "content": [{"type": "refusal", "refusal": "No."}]},
            ("content", 0, "type"),
            "found a 'refusal' part: pass drop_parts=['refusal'] to leave such parts out (or refusal_as_text=True",
        ),
    ],
    ids=["tool calls", "refusal", "audio", "annotations", "two choices", "no message", "refusal part"],
)
def test_append_openai_refuses_what_a_dialog_cannot_carry(reply: Any, path: tuple[Any, ...], words: str) -> None:
    error = refused(question().append_openai, reply)
    assert error.path == path
    assert words in str(error)


def test_the_openai_opt_ins_say_by_name_what_is_left_out() -> None:
    dialog = question()
    refusal = dialog.append_openai(completion(content=None, refusal="I can't help with that."), refusal_as_text=True)
    assert refusal.messages[-1].content == "I can't help with that."
    part = dialog.append_openai(
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "No."}]}, refusal_as_text=True
    )
    assert part.messages[-1].content == "No."
    cited = dialog.append_openai(completion(annotations=[CITATION]), drop_keys=["annotations"])
    assert cited.messages[-1].content == "Yes: 412 checks green."
    called = dialog.append_openai(completion(content="Running them.", tool_calls=[TOOL_CALL]), drop_keys=["tool_calls"])
    assert called.messages[-1].content == "Running them."
    # Leaving the tool calls out of a reply that has no text leaves nothing to append.
    error = refused(dialog.append_openai, completion(content=None, tool_calls=[TOOL_CALL]), drop_keys=["tool_calls"])
    assert error.path == ("choices", 0, "message", "content") and "needs text; found null" in str(error)
    both = refused(dialog.append_openai, completion(refusal="No."), refusal_as_text=True)
    assert both.path == ("choices", 0, "message", "refusal") and "the message has content too" in str(both)


class Answer(BaseModel):
    ready: bool


def test_a_parsed_reply_keeps_its_json_text_and_leaves_parsed_out_by_name() -> None:
    # client.chat.completions.parse() adds `parsed`: the content read as the caller's type.
    parsed = ParsedChatCompletionMessage[Answer](role="assistant", content='{"ready":true}', parsed=Answer(ready=True))
    error = refused(question().append_openai, parsed)
    assert error.path == ("parsed",) and "pass drop_keys=['parsed']" in str(error)
    assert question().append_openai(parsed, drop_keys=["parsed"]).messages[-1].content == '{"ready":true}'


@pytest.mark.parametrize(
    ("options", "path", "words"),
    [
        ({"drop_keys": "annotations"}, ("drop_keys",), "expected a collection of names; found the string"),
        ({"drop_keys": ["content"]}, ("drop_keys",), "'content' is read into the dialog"),
        ({"drop_parts": ["text"]}, ("drop_parts",), "'text' parts are read into the dialog"),
    ],
)
def test_the_options_name_only_what_can_be_left_out(options: dict[str, Any], path: tuple[Any, ...], words: str) -> None:
    error = refused(question().append_openai, completion(), **options)
    assert error.path == path and words in str(error)


def test_an_sdk_object_that_cannot_be_dumped_is_a_conversion_error_at_its_path() -> None:
    unchecked = ChatCompletionMessage.model_construct(role="assistant", content=object())
    error = refused(question().append_openai, unchecked)
    assert error.path == () and "could not read the SDK object" in str(error)
    error = refused(mm.Dialog.from_openai_messages, [QUESTION[1], unchecked])
    assert error.path == ("messages", 1) and "could not read the SDK object" in str(error)


# --- Anthropic: the SDK's objects in ------------------------------------------------------------


def test_append_anthropic_appends_the_text_of_the_response() -> None:
    dialog = question()
    reply = response(*MESSAGE["content"])
    longer = dialog.append_anthropic(reply, timestamp="2026-03-02T14:00:02Z")
    assert longer.messages[-1].to_dict() == {
        "role": "assistant",
        "content": "Yes: 412 checks green.",
        "timestamp": "2026-03-02T14:00:02Z",
    }
    for same in (MESSAGE, reply.to_param(), {"role": "assistant", "content": "Yes: 412 checks green."}):
        assert dialog.append_anthropic(same, timestamp="2026-03-02T14:00:02Z") == longer


def test_from_anthropic_messages_takes_params_and_the_sdk_objects() -> None:
    reply = response(*MESSAGE["content"])
    history: list[MessageParam] = [{"role": "user", "content": [{"type": "text", "text": "Ready?"}]}]
    system = [TextBlock(type="text", text="You are the release assistant.")]
    dialog = mm.Dialog.from_anthropic_messages([*history, reply.to_param(), reply], system=system)
    assert [(message.role.value, message.content) for message in dialog.messages] == [
        ("system", "You are the release assistant."),
        ("user", "Ready?"),
        ("assistant", "Yes: 412 checks green."),
        ("assistant", "Yes: 412 checks green."),
    ]


@pytest.mark.parametrize(
    ("reply", "path", "words"),
    [
        (
            response(THINKING, *MESSAGE["content"]),
            ("content", 0, "type"),
            "found a 'thinking' part: pass drop_parts=['thinking']",
        ),
        (response(TOOL_USE, stop_reason="tool_use"), ("content", 0, "type"), "found a 'tool_use' part"),
        (
            response({"type": "text", "text": "Sorry.", "citations": None}, stop_reason="refusal"),
            ("stop_reason",),
            "the model declined to answer; pass refusal_as_text=True",
        ),
        (
            response({"type": "text", "text": "Green", "citations": [WEB_CITATION]}),
            ("content", 0, "citations"),
            "would be lost: a dialog keeps only type and text here",
        ),
        (
            response({"type": "text", "text": "412 checks "}, {"type": "text", "text": "green."}),
            ("content",),
            "2 text parts, and a dialog message holds one text; pass join_parts",
        ),
    ],
    ids=["thinking", "tool use", "refusal", "citations", "two text blocks"],
)
def test_append_anthropic_refuses_what_a_dialog_cannot_carry(reply: Message, path: tuple[Any, ...], words: str) -> None:
    error = refused(question().append_anthropic, reply)
    assert error.path == path
    assert words in str(error)


def test_the_anthropic_opt_ins_say_by_name_what_is_left_out() -> None:
    dialog = question()
    thought = response(THINKING, {"type": "redacted_thinking", "data": "EmwKAhgB"}, *MESSAGE["content"])
    assert dialog.append_anthropic(thought, drop_parts=["thinking", "redacted_thinking"]).messages[-1].content == (
        "Yes: 412 checks green."
    )
    cited = response(
        {"type": "text", "text": "412 checks "}, {"type": "text", "text": "green", "citations": [WEB_CITATION]}
    )
    joined = dialog.append_anthropic(cited, join_parts="", drop_keys=["citations"])
    assert joined.messages[-1].content == "412 checks green"
    declined = dialog.append_anthropic(response(stop_reason="refusal"), refusal_as_text=True)
    assert declined.messages[-1].content == ""  # a response of no blocks says nothing
    only_tools = refused(dialog.append_anthropic, response(TOOL_USE, stop_reason="tool_use"), drop_parts=["tool_use"])
    assert only_tools.path == ("content",) and "found no text part" in str(only_tools)


# --- what a dialog writes is what the SDKs take -------------------------------------------------

OPENAI_PARAMS: TypeAdapter[list[ChatCompletionMessageParam]] = TypeAdapter(list[ChatCompletionMessageParam])
ANTHROPIC_PARAMS: TypeAdapter[list[MessageParam]] = TypeAdapter(list[MessageParam])


@given(dialogs())
def test_what_a_dialog_writes_validates_as_the_sdks_params(dialog: mm.Dialog) -> None:
    for system_role in ("system", "developer"):
        messages = dialog.to_openai_messages(agent_role="user", system_role=system_role, drop_events=True)
        assert OPENAI_PARAMS.validate_python(messages) == messages
    try:
        chat = dialog.to_anthropic_messages(agent_role="assistant", drop_events=True)
    except ConversionError:
        return  # a late system message or empty text: tests/test_interop.py holds those refusals
    assert ANTHROPIC_PARAMS.validate_python(chat["messages"]) == chat["messages"]
    if isinstance(chat.get("system"), list):
        assert TypeAdapter(list[anthropic.types.TextBlockParam]).validate_python(chat["system"]) == chat["system"]


# --- end to end, through the SDK clients over a mock transport ----------------------------------


def active(dialog: mm.Dialog) -> mm.Dialog:
    """The dialog still going on: a reply stamped now falls within it."""
    return dialog.model_copy(update={"status": "active"}).without("ended_at")


def recording(reply: dict[str, Any], bodies: list[dict[str, Any]]) -> httpx2.Client:
    """An HTTP client that keeps each request's JSON body and answers ``reply``; nothing leaves the process."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        bodies.append(json.loads(request.content))
        return httpx2.Response(200, json=reply)

    return httpx2.Client(transport=httpx2.MockTransport(handle))


def test_openai_client_sends_the_dialog_and_its_reply_appends_back() -> None:
    dialog = active(mm.Dialog.from_json((PAYLOADS / "dialog.json").read_bytes()))
    bodies: list[dict[str, Any]] = []
    client = openai.OpenAI(api_key="x", base_url="http://localhost/v1", http_client=recording(COMPLETION, bodies))
    messages = dialog.to_openai_messages(agent_role="user", drop_events=True)
    reply = client.chat.completions.create(model="gpt-4o-mini", messages=messages)
    assert bodies == [{"model": "gpt-4o-mini", "messages": messages}]
    assert bodies[0]["messages"][0] == {"role": "system", "content": "You are the release assistant."}
    assert isinstance(reply, ChatCompletion)
    longer = dialog.append_openai(reply)
    assert longer.messages[-1].content == "Yes: 412 checks green."
    client.chat.completions.create(
        model="gpt-4o-mini", messages=longer.to_openai_messages(agent_role="user", drop_events=True)
    )
    assert bodies[1]["messages"] == [*messages, {"role": "assistant", "content": "Yes: 412 checks green."}]


def test_anthropic_client_sends_the_dialog_and_its_reply_appends_back() -> None:
    dialog = active(mm.Dialog.from_json((PAYLOADS / "dialog.json").read_bytes()))
    bodies: list[dict[str, Any]] = []
    client = anthropic.Anthropic(api_key="x", base_url="http://localhost", http_client=recording(MESSAGE, bodies))
    chat = dialog.to_anthropic_messages(agent_role="user", drop_events=True)
    reply = client.messages.create(model="claude-sonnet-5-5", max_tokens=1024, **chat)
    assert bodies == [{"model": "claude-sonnet-5-5", "max_tokens": 1024, **chat}]
    assert bodies[0]["system"] == "You are the release assistant."
    assert isinstance(reply, Message)
    longer = dialog.append_anthropic(reply)
    assert longer.messages[-1].content == "Yes: 412 checks green."
    again = longer.to_anthropic_messages(agent_role="user", drop_events=True)
    assert again["messages"] == [*chat["messages"], {"role": "assistant", "content": "Yes: 412 checks green."}]


def test_the_package_never_imports_the_sdks() -> None:
    code = (
        "import sys, mplp_models as mm\n"
        "d = mm.Dialog.from_openai_messages([{'role': 'user', 'content': 'hi'}])\n"
        "d = d.append_openai({'role': 'assistant', 'content': 'yes'})\n"
        "d = d.append_anthropic({'role': 'user', 'content': '?'})\n"
        "d.to_openai_messages(); d.to_anthropic_messages()\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] in ('openai', 'anthropic', 'httpx2')))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert run.stdout.strip() == "[]"
