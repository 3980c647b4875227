"""Dialogs to and from the OpenAI and Anthropic chat formats; events to and from CloudEvents v1.0.

Round trips both ways where the mapping is lossless (with the fields that a
format lacks passed back in), the lossy options by name, and every refusal with
the path it names.
"""

from __future__ import annotations

import json
import re
import string
import subprocess
import sys
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from conftest import PAYLOADS, ROOT, load
from hypothesis import event, given
from hypothesis import strategies as st
from pydantic import BaseModel, Field, ValidationError

import mplp_models as mm
from mplp_models import ConversionError
from mplp_models._conversion import render
from mplp_models.testing import dialogs, events, json_objects, mplp_ids, timestamps

OUTSIDE_MESSAGES = ("governance", "trace", "events")  # dialog fields that no chat format has a place for
STAMP = "2026-03-02T14:00:00Z"
MPLP_ID = r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"


def refused(call: Any, *args: Any, **kwargs: Any) -> ConversionError:
    """The ConversionError that ``call`` raises; its message starts with the path it names."""
    with pytest.raises(ConversionError) as caught:
        call(*args, **kwargs)
    error = caught.value
    assert isinstance(error, ValueError)
    assert str(error).startswith(f"{render(error.path)}: " if error.path else "")
    return error


# --- dialogs and chat formats: helpers ------------------------------------------------------


def given_back(dialog: mm.Dialog) -> dict[str, Any]:
    """The keyword arguments that give a dialog back the fields that a chat format lacks."""
    return {
        "dialog_id": dialog.dialog_id,
        "context_id": dialog.context_id,
        "thread_id": dialog.thread_id,
        "status": dialog.status,
        "meta": dialog.meta,
        "timestamps": [message.timestamp for message in dialog.messages],
        "started_at": dialog.started_at,
        "ended_at": dialog.ended_at,
    }


def carried(dialog: mm.Dialog, agent_role: str = "agent") -> dict[str, Any]:
    """What a chat format carries back of a dialog.

    No fields outside the messages, no events, and agent messages as ``agent_role``.
    """
    document = {key: value for key, value in dialog.to_dict().items() if key not in OUTSIDE_MESSAGES}
    for message in document["messages"]:
        message.pop("event", None)
        if message["role"] == "agent":
            message["role"] = agent_role
    return document


def first_refusal(dialog: mm.Dialog, *, anthropic: bool) -> tuple[str | int, ...] | None:
    """Where writing the dialog must stop without the lossy options: the first message with an
    event or the agent role, or, for Anthropic, empty content (but in a final assistant message)
    or a system message after a non-system one."""
    begun = False
    last = len(dialog.messages) - 1
    for index, message in enumerate(dialog.messages):
        role = message.role.value
        if message.event is not None:
            return ("messages", index, "event")
        if role == "agent":
            return ("messages", index, "role")
        if anthropic and not message.content and not (role == "assistant" and index == last):
            return ("messages", index, "content")
        if anthropic and role == "system" and begun:
            return ("messages", index, "role")
        begun = begun or role != "system"
    return None


@st.composite
def openai_ready_dialogs(draw: st.DrawFn) -> mm.Dialog:
    """Dialogs that OpenAI's format carries: no agent message, no event (the lossless branch)."""
    document = draw(dialogs()).to_dict()
    for message in document["messages"]:
        if message["role"] == "agent":
            message["role"] = draw(st.sampled_from(["user", "assistant", "system"]))
        message.pop("event", None)
    return mm.Dialog.model_validate(document)


@st.composite
def unwritable_dialogs(draw: st.DrawFn) -> mm.Dialog:
    """Dialogs with at least one message that neither chat format carries: an agent message or an event."""
    document = draw(dialogs()).to_dict()
    if not document["messages"]:
        # At the dialog's start, or its end when it has only that: a message after the end is refused.
        at = document.get("started_at", document.get("ended_at", STAMP))
        document["messages"] = [{"role": "user", "content": "hi", "timestamp": at}]
    message = document["messages"][draw(st.integers(0, len(document["messages"]) - 1))]
    if draw(st.booleans()):
        message["role"] = "agent"
    else:
        message["event"] = draw(events()).to_dict()
    return mm.Dialog.model_validate(document)


@st.composite
def anthropic_ready_dialogs(draw: st.DrawFn) -> mm.Dialog:
    """Dialogs that Anthropic's format carries: system messages first, no agent message, no event."""
    document = draw(dialogs()).to_dict()
    roles = [message["role"] for message in document["messages"]]
    roles = [draw(st.sampled_from(["user", "assistant"])) if role == "agent" else role for role in roles]
    roles.sort(key=lambda role: role != "system")  # stable: the timestamps keep their order
    for message, role in zip(document["messages"], roles):
        message["role"] = role
        message["content"] = message["content"] or "-"
        message.pop("event", None)
    return mm.Dialog.model_validate(document)


TEXTS = st.text(st.characters(codec="utf-8"), max_size=40)


def chat_messages(roles: list[str]) -> st.SearchStrategy[list[dict[str, Any]]]:
    return st.lists(st.fixed_dictionaries({"role": st.sampled_from(roles), "content": TEXTS}), max_size=8)


# Anthropic refuses empty text (but in a final assistant message, which the table tests cover).
FILLED_TEXTS = st.text(st.characters(codec="utf-8"), min_size=1, max_size=40)
TEXT_BLOCKS = st.builds(lambda text: {"type": "text", "text": text}, FILLED_TEXTS)
ANTHROPIC_CHATS = st.fixed_dictionaries(
    {
        "messages": st.lists(
            st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant"]), "content": FILLED_TEXTS}), max_size=8
        )
    },
    # One system block reads back as a string, so a list has two blocks or more.
    optional={"system": st.one_of(FILLED_TEXTS, st.lists(TEXT_BLOCKS, min_size=2, max_size=3))},
)


# --- dialogs and chat formats: round trips ---------------------------------------------------


# Each round trip is "lossless or refused": checked on any dialog (hypothesis.event names the
# branch each one took, shown by --hypothesis-show-statistics), and on each branch apart with a
# strategy that reaches it every time, so neither branch rests on the share of draws that reach it.


def openai_lossless_or_refused(dialog: mm.Dialog) -> str:
    """Which branch the dialog took: ``refused`` (at the path expected) or ``lossless`` (the round trip checked)."""
    refusal = first_refusal(dialog, anthropic=False)
    if refusal is not None:
        assert refused(dialog.to_openai_messages).path == refusal
        return "refused"
    messages = dialog.to_openai_messages()
    assert json.loads(json.dumps(messages)) == messages
    back = mm.Dialog.from_openai_messages(messages, **given_back(dialog))
    assert back.to_dict() == carried(dialog)
    assert back == mm.Dialog.model_validate(carried(dialog))
    return "lossless"


def anthropic_lossless_or_refused(dialog: mm.Dialog) -> str:
    refusal = first_refusal(dialog, anthropic=True)
    if refusal is not None:
        assert refused(dialog.to_anthropic_messages).path == refusal
        return "refused"
    chat = dialog.to_anthropic_messages()
    back = mm.Dialog.from_anthropic_messages(**chat, **given_back(dialog))
    assert back.to_dict() == carried(dialog)
    return "lossless"


@given(dialogs())
def test_dialog_to_openai_and_back_is_lossless_or_refused(dialog: mm.Dialog) -> None:
    event(f"openai: {openai_lossless_or_refused(dialog)}")


@given(openai_ready_dialogs())
def test_a_dialog_openai_carries_goes_there_and_back_losslessly(dialog: mm.Dialog) -> None:
    assert openai_lossless_or_refused(dialog) == "lossless"


@given(unwritable_dialogs())
def test_a_dialog_openai_cannot_carry_is_refused_where_it_first_cannot(dialog: mm.Dialog) -> None:
    assert openai_lossless_or_refused(dialog) == "refused"


@given(dialogs())
def test_dialog_to_anthropic_and_back_is_lossless_or_refused(dialog: mm.Dialog) -> None:
    event(f"anthropic: {anthropic_lossless_or_refused(dialog)}")


@given(anthropic_ready_dialogs())
def test_a_dialog_anthropic_carries_goes_there_and_back_losslessly(dialog: mm.Dialog) -> None:
    assert anthropic_lossless_or_refused(dialog) == "lossless"


@given(st.one_of(unwritable_dialogs(), openai_ready_dialogs().filter(lambda d: first_refusal(d, anthropic=True))))
def test_a_dialog_anthropic_cannot_carry_is_refused_where_it_first_cannot(dialog: mm.Dialog) -> None:
    assert anthropic_lossless_or_refused(dialog) == "refused"


@given(anthropic_ready_dialogs())
def test_anthropic_takes_the_opening_system_messages_as_its_system_prompt(dialog: mm.Dialog) -> None:
    chat = dialog.to_anthropic_messages()
    assert json.loads(json.dumps(chat)) == chat
    system = [message.content for message in dialog.messages if message.role == "system"]
    if not system:
        assert "system" not in chat
    elif len(system) == 1:
        assert chat["system"] == system[0]
    else:
        assert chat["system"] == [{"type": "text", "text": text} for text in system]
    assert chat["messages"] == [
        {"role": message.role.value, "content": message.content}
        for message in dialog.messages
        if message.role != "system"
    ]
    back = mm.Dialog.from_anthropic_messages(**chat, **given_back(dialog))
    assert back.to_dict() == carried(dialog)


@given(dialogs(), st.sampled_from(["user", "assistant"]))
def test_the_lossy_options_write_every_dialog_and_say_what_reads_back(dialog: mm.Dialog, agent_role: str) -> None:
    messages = dialog.to_openai_messages(agent_role=agent_role, drop_events=True)  # type: ignore[arg-type]
    back = mm.Dialog.from_openai_messages(messages, **given_back(dialog))
    assert back.to_dict() == carried(dialog, agent_role)


@given(chat_messages(["system", "user", "assistant"]), st.sampled_from(["system", "developer"]))
def test_openai_messages_to_dialog_and_back_are_the_same(messages: list[dict[str, Any]], system_role: str) -> None:
    messages = [{**message, "role": system_role} if message["role"] == "system" else message for message in messages]
    dialog = mm.Dialog.from_openai_messages(messages)
    assert [message.role.value for message in dialog.messages] == [
        "system" if message["role"] == "developer" else message["role"] for message in messages
    ]
    assert dialog.to_openai_messages(system_role=system_role) == messages  # type: ignore[arg-type]


@given(ANTHROPIC_CHATS)
def test_anthropic_chat_to_dialog_and_back_is_the_same(chat: dict[str, Any]) -> None:
    dialog = mm.Dialog.from_anthropic_messages(**chat)
    assert dialog.to_anthropic_messages() == chat


# --- dialogs and chat formats: building the dialog ---------------------------------------------


def test_from_messages_fills_what_the_format_lacks_with_fresh_ids_and_now() -> None:
    first = mm.Dialog.from_openai_messages(
        [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    )
    second = mm.Dialog.from_openai_messages([])
    assert first.dialog_id != second.dialog_id and first.context_id != first.dialog_id
    for dialog in (first, second):
        assert re.fullmatch(MPLP_ID, dialog.dialog_id) and re.fullmatch(MPLP_ID, dialog.context_id)
        assert dialog.status is mm.DialogStatus.active
        assert dialog.meta.protocol_version == dialog.meta.schema_version == "1.0.0"
        assert isinstance(dialog.meta.created_at, mm.Timestamp)
    assert [message.timestamp for message in first.messages] == [first.meta.created_at] * 2
    assert set(first.to_dict()) == {"meta", "dialog_id", "context_id", "status", "messages"}


def test_from_messages_takes_one_timestamp_for_all_or_one_per_message() -> None:
    messages = [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]
    same = mm.Dialog.from_openai_messages(messages, timestamps="2026-03-02T14:00:00Z")
    assert [message.timestamp for message in same.messages] == ["2026-03-02T14:00:00Z"] * 2
    each = mm.Dialog.from_anthropic_messages(
        messages,
        system="Be brief.",
        timestamps=["2026-03-02T14:00:00Z", "2026-03-02T14:00:01Z", "2026-03-02T14:00:02.5Z"],
    )
    assert [(message.role.value, message.timestamp) for message in each.messages] == [
        ("system", "2026-03-02T14:00:00Z"),
        ("user", "2026-03-02T14:00:01Z"),
        ("assistant", "2026-03-02T14:00:02.5Z"),
    ]
    error = refused(
        mm.Dialog.from_anthropic_messages, messages, system="Be brief.", timestamps=["2026-03-02T14:00:00Z"] * 2
    )
    assert error.path == ("timestamps",) and "2 given for 3 messages" in str(error)


def test_from_messages_validates_the_dialog_with_its_rules() -> None:
    messages = [{"role": "user", "content": "hi"}]
    with pytest.raises(ValidationError) as caught:
        mm.Dialog.from_openai_messages(messages, timestamps="2026-03-02T14:00:00Z", started_at="2026-03-02T15:00:00Z")
    assert [(entry["loc"], entry["type"]) for entry in caught.value.errors()] == [
        (("messages", 0, "timestamp"), "message_before_start")
    ]
    with pytest.raises(ValidationError) as caught:
        mm.Dialog.from_openai_messages(messages, timestamps="yesterday", dialog_id="D-1", status="finished")  # type: ignore[arg-type]
    assert {entry["loc"] for entry in caught.value.errors()} == {
        ("messages", 0, "timestamp"),
        ("dialog_id",),
        ("status",),
    }


def test_from_messages_takes_every_given_field() -> None:
    dialog = mm.Dialog.from_json((PAYLOADS / "dialog.json").read_bytes())
    back = mm.Dialog.from_openai_messages(
        dialog.to_openai_messages(agent_role="assistant", drop_events=True), **given_back(dialog)
    )
    assert back.to_dict() == carried(dialog, "assistant")
    assert back.meta == dialog.meta and back.thread_id == "d4000000-0000-4000-b000-000000000003"


# --- dialogs and chat formats: writing refusals ------------------------------------------------

AGENT = {"role": "agent", "content": "412 checks green", "timestamp": "2026-03-02T14:00:09Z"}
EVENT = {
    "event_id": "d4000000-0000-4000-b000-000000000004",
    "event_type": "trace.span.closed",
    "source": "runtime.ael",
    "timestamp": "2026-03-02T14:00:09Z",
}


def dialog_of(*messages: dict[str, Any]) -> mm.Dialog:
    stamped = [{"timestamp": "2026-03-02T14:00:00Z", **message} for message in messages]
    return mm.Dialog.model_validate({**mm.Dialog.from_openai_messages([]).to_dict(), "messages": stamped})


@pytest.mark.parametrize("form", ["openai", "anthropic"])
@pytest.mark.parametrize(
    ("messages", "path", "words"),
    [
        (
            [{"role": "user", "content": "status?"}, AGENT],
            ("messages", 1, "role"),
            "pass agent_role='assistant' or agent_role='user'",
        ),
        ([{"role": "user", "content": "status?", "event": EVENT}], ("messages", 0, "event"), "pass drop_events=True"),
    ],
    ids=["agent", "event"],
)
def test_writing_refuses_what_the_format_cannot_carry(
    form: str, messages: list[dict[str, Any]], path: tuple[Any, ...], words: str
) -> None:
    dialog = dialog_of(*messages)
    write = dialog.to_openai_messages if form == "openai" else dialog.to_anthropic_messages
    error = refused(write)
    assert error.path == path
    assert words in str(error)
    assert ("OpenAI" if form == "openai" else "Anthropic") in str(error)


def test_anthropic_refuses_a_system_message_after_the_conversation_has_begun() -> None:
    dialog = dialog_of(
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "hi"},
        {"role": "system", "content": "Be kind."},
    )
    error = refused(dialog.to_anthropic_messages)
    assert error.path == ("messages", 2, "role") and error.pointer == "/messages/2/role"
    assert "after the conversation has begun" in str(error)
    assert dialog.to_openai_messages()[2] == {"role": "system", "content": "Be kind."}  # OpenAI has a place for it


def test_an_agent_message_mapped_to_user_counts_as_the_conversation_for_anthropic() -> None:
    dialog = dialog_of(AGENT, {"role": "system", "content": "Be brief."})
    assert refused(dialog.to_anthropic_messages, agent_role="user").path == ("messages", 1, "role")


@pytest.mark.parametrize(
    ("keyword", "value"), [("agent_role", "system"), ("agent_role", "agent"), ("system_role", "user")]
)
def test_writing_refuses_an_unknown_option(keyword: str, value: str) -> None:
    with pytest.raises(ValueError, match=f"{keyword} must be one of .*; found '{value}'"):
        dialog_of(AGENT).to_openai_messages(**{keyword: value})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"drop_keys": None}, "drop_keys must be a collection of names; found NoneType"),
        ({"drop_keys": [1]}, "drop_keys must be a collection of names (strings); found int"),
        ({"drop_parts": [1.5]}, "drop_parts must be a collection of names (strings); found float"),
        ({"drop_keys": ["name", {"a": 1}]}, "drop_keys must be a collection of names (strings); found dict"),
        ({"drop_parts": 5}, "drop_parts must be a collection of names; found int"),
        ({"join_parts": 5}, "join_parts must be a string or None; found int"),
        ({"refusal_as_text": "yes"}, "refusal_as_text must be a bool; found str"),
    ],
)
def test_reading_options_of_the_wrong_type_are_named(options: dict[str, Any], words: str) -> None:
    for read in (mm.Dialog.from_openai_messages, mm.Dialog.from_anthropic_messages):
        with pytest.raises(TypeError) as caught:
            read([{"role": "user", "content": "hi"}], **options)
        assert str(caught.value) == words


LONE = "a\ud800"
SURROGATES: list[tuple[str, dict[str, Any], tuple[Any, ...]]] = [
    ("openai", {"messages": [{"role": "user", "content": LONE}]}, ("messages", 0, "content")),
    (
        "openai",
        {"messages": [{"role": "user", "content": [{"type": "text", "text": LONE}]}]},
        ("messages", 0, "content", 0, "text"),
    ),
    (
        "openai",
        {"messages": [{"role": "assistant", "content": None, "refusal": LONE}], "refusal_as_text": True},
        ("messages", 0, "refusal"),
    ),
    ("anthropic", {"messages": [{"role": "user", "content": "hi"}], "system": LONE}, ("system",)),
    (
        "anthropic",
        {"messages": [{"role": "user", "content": "hi"}], "system": [{"type": "text", "text": LONE}]},
        ("system", 0, "text"),
    ),
    (
        "openai",
        {"messages": [{"role": "user", "content": [{"type": "text", "text": "a"}] * 2}], "join_parts": LONE},
        ("join_parts",),
    ),
]


@pytest.mark.parametrize(("form", "arguments", "path"), SURROGATES)
def test_text_utf8_cannot_encode_is_refused_at_its_path(
    form: str, arguments: dict[str, Any], path: tuple[Any, ...]
) -> None:
    read = mm.Dialog.from_openai_messages if form == "openai" else mm.Dialog.from_anthropic_messages
    error = refused(read, **arguments)
    assert error.path == path and "not text UTF-8 can encode" in str(error)


# --- dialogs and chat formats: reading refusals ------------------------------------------------

HI = {"role": "user", "content": "hi"}
IMAGE = {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}
OPENAI_REFUSALS: list[tuple[str, Any, tuple[Any, ...], str]] = [
    (
        "tool",
        [HI, {"role": "tool", "content": "42", "tool_call_id": "c1"}],
        ("messages", 1, "role"),
        "tool messages (results of tool calls) have no place",
    ),
    ("function", [{"role": "function", "name": "f", "content": "42"}], ("messages", 0, "role"), "function messages"),
    (
        "unknown role",
        [{"role": "robot", "content": "x"}],
        ("messages", 0, "role"),
        "expected one of 'system', 'developer', 'user', 'assistant'; found 'robot'",
    ),
    ("role not text", [{"role": 7, "content": "x"}], ("messages", 0, "role"), "found a number"),
    ("no role", [{"content": "x"}], ("messages", 0, "role"), "required, and absent"),
    ("agent role", [{"role": "agent", "content": "x"}], ("messages", 0, "role"), "found 'agent'"),
    (
        "name",
        [HI, {"role": "user", "content": "x", "name": "alice"}],
        ("messages", 1, "name"),
        "would be lost: a dialog keeps only role and content",
    ),
    (
        "tool calls",
        [{"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function"}]}],
        ("messages", 0, "tool_calls"),
        "would be lost",
    ),
    ("null content", [{"role": "assistant", "content": None}], ("messages", 0, "content"), "needs text; found null"),
    ("no content", [{"role": "user"}], ("messages", 0, "content"), "needs text; found absent"),
    (
        "number content",
        [{"role": "user", "content": 3}],
        ("messages", 0, "content"),
        "expected a string or a list of text parts; found a number",
    ),
    (
        "image part",
        [{"role": "user", "content": [{"type": "text", "text": "see"}, IMAGE]}],
        ("messages", 0, "content", 1, "type"),
        "holds text only; found a 'image_url' part",
    ),
    (
        "untyped part",
        [{"role": "user", "content": [{"text": "see"}]}],
        ("messages", 0, "content", 0, "type"),
        "found no type",
    ),
    (
        "part without text",
        [{"role": "user", "content": [{"type": "text", "text": None}]}],
        ("messages", 0, "content", 0, "text"),
        "expected a string; found null",
    ),
    (
        "part with more",
        [{"role": "user", "content": [{"type": "text", "text": "a", "lang": "en"}]}],
        ("messages", 0, "content", 0, "lang"),
        "would be lost: a dialog keeps only type and text",
    ),
    (
        "two parts",
        [{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}],
        ("messages", 0, "content"),
        "2 text parts, and a dialog message holds one text; pass join_parts",
    ),
    ("no parts", [{"role": "user", "content": []}], ("messages", 0, "content"), "found an empty list of parts"),
    ("message not an object", [HI, "hello"], ("messages", 1), "expected an object; found 'hello'"),
    ("messages a string", "hello", ("messages",), "expected a list of message objects; found 'hello'"),
    ("messages an object", HI, ("messages",), "expected a list of message objects; found an object"),
]


@pytest.mark.parametrize(
    ("messages", "path", "words"), [case[1:] for case in OPENAI_REFUSALS], ids=[case[0] for case in OPENAI_REFUSALS]
)
def test_reading_openai_refuses_what_a_dialog_cannot_carry(messages: Any, path: tuple[Any, ...], words: str) -> None:
    error = refused(mm.Dialog.from_openai_messages, messages)
    assert error.path == path
    assert words in str(error)


ANTHROPIC_REFUSALS: list[tuple[str, dict[str, Any], tuple[Any, ...], str]] = [
    (
        "system message",
        {"messages": [HI, {"role": "system", "content": "x"}]},
        ("messages", 1, "role"),
        "system prompt is the top-level system",
    ),
    (
        "developer",
        {"messages": [{"role": "developer", "content": "x"}]},
        ("messages", 0, "role"),
        "expected one of 'user', 'assistant'; found 'developer'",
    ),
    (
        "tool use",
        {"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]}]},
        ("messages", 0, "content", 0, "type"),
        "found a 'tool_use' part",
    ),
    (
        "tool result",
        {"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "42"}]}]},
        ("messages", 0, "content", 0, "type"),
        "found a 'tool_result' part",
    ),
    (
        "thinking",
        {"messages": [{"role": "assistant", "content": [{"type": "thinking", "thinking": "hm", "signature": "s"}]}]},
        ("messages", 0, "content", 0, "type"),
        "found a 'thinking' part",
    ),
    (
        "cache control",
        {"messages": [HI], "system": [{"type": "text", "text": "x", "cache_control": {"type": "ephemeral"}}]},
        ("system", 0, "cache_control"),
        "would be lost",
    ),
    (
        "image in system",
        {"messages": [HI], "system": [{"type": "image", "source": {}}]},
        ("system", 0, "type"),
        "found a 'image' part",
    ),
    (
        "system a number",
        {"messages": [HI], "system": 1},
        ("system",),
        "expected a string or a list of text blocks; found a number",
    ),
]


@pytest.mark.parametrize(
    ("chat", "path", "words"), [case[1:] for case in ANTHROPIC_REFUSALS], ids=[case[0] for case in ANTHROPIC_REFUSALS]
)
def test_reading_anthropic_refuses_what_a_dialog_cannot_carry(
    chat: dict[str, Any], path: tuple[Any, ...], words: str
) -> None:
    error = refused(mm.Dialog.from_anthropic_messages, **chat)
    assert error.path == path
    assert words in str(error)


def test_reading_takes_keys_that_say_nothing_as_absent() -> None:
    # The shape of a message that an OpenAI SDK returns, dumped to a dict.
    openai: dict[str, Any] = {
        "role": "assistant",
        "content": "done",
        "refusal": None,
        "tool_calls": None,
        "annotations": [],
        "audio": None,
        "function_call": None,
    }
    assert mm.Dialog.from_openai_messages([openai]).to_openai_messages() == [{"role": "assistant", "content": "done"}]
    anthropic = {"role": "assistant", "content": [{"type": "text", "text": "done", "citations": None}]}
    assert mm.Dialog.from_anthropic_messages([anthropic]).to_anthropic_messages() == {
        "messages": [{"role": "assistant", "content": "done"}]
    }


def test_reading_takes_text_parts_one_or_joined_by_request() -> None:
    parts = [{"type": "text", "text": "Look:"}, {"type": "text", "text": "green."}]
    joined = mm.Dialog.from_openai_messages([{"role": "user", "content": parts}], join_parts="\n")
    assert joined.messages[0].content == "Look:\ngreen."
    one = mm.Dialog.from_anthropic_messages([{"role": "user", "content": parts[:1]}])
    assert one.messages[0].content == "Look:"
    developer = mm.Dialog.from_openai_messages([{"role": "developer", "content": "Be brief."}])
    assert developer.messages[0].role is mm.DialogMessageRole.system


# --- dialogs and chat formats: appending, SDK-like objects, the opt-ins ---------------------------


@given(chat_messages(["system", "developer", "user", "assistant"]))
def test_appending_each_openai_message_gives_the_dialog_of_all(messages: list[dict[str, Any]]) -> None:
    whole = mm.Dialog.from_openai_messages(messages, timestamps=STAMP)
    built = mm.Dialog.from_openai_messages([], dialog_id=whole.dialog_id, context_id=whole.context_id, meta=whole.meta)
    for message in messages:
        built = built.append_openai(message, timestamp=STAMP)
    assert built == whole


@given(ANTHROPIC_CHATS)
def test_appending_each_anthropic_message_gives_the_dialog_of_all(chat: dict[str, Any]) -> None:
    whole = mm.Dialog.from_anthropic_messages(chat["messages"], timestamps=STAMP)
    built = mm.Dialog.from_anthropic_messages(
        [], dialog_id=whole.dialog_id, context_id=whole.context_id, meta=whole.meta
    )
    for message in chat["messages"]:
        built = built.append_anthropic(message, timestamp=STAMP)
    assert built == whole


class Part(BaseModel):
    kind: str = Field(alias="type")
    text: str


class Reply(BaseModel, extra="allow"):
    """A reply as an SDK models it: a pydantic model, its keys under aliases, unknown keys kept as extras."""

    role: str
    content: str | list[Part] | None = None
    refusal: str | None = None


def test_a_pydantic_model_is_read_as_the_json_it_dumps() -> None:
    reply = Reply(role="assistant", content=[Part(type="text", text="Yes.")])
    assert mm.Dialog.from_openai_messages([reply]).messages[0].content == "Yes."
    assert mm.Dialog.from_openai_messages([]).append_anthropic(reply).messages[0].content == "Yes."
    extra = Reply.model_validate({"role": "assistant", "content": "Yes.", "reasoning": "it is"})
    assert refused(mm.Dialog.from_openai_messages, [extra]).path == ("messages", 0, "reasoning")
    assert mm.Dialog.from_openai_messages([extra], drop_keys=["reasoning"]).messages[0].content == "Yes."


def test_the_opt_ins_leave_out_by_name_what_a_dialog_cannot_carry() -> None:
    shown = {"role": "user", "content": [{"type": "text", "text": "See:"}, IMAGE], "name": "alice"}
    assert refused(mm.Dialog.from_openai_messages, [shown], drop_parts=["image_url"]).path == ("messages", 0, "name")
    dialog = mm.Dialog.from_openai_messages([shown], drop_parts=["image_url"], drop_keys=["name"])
    assert dialog.messages[0].content == "See:"
    blocks = [{"type": "text", "text": "a", "cache_control": {"type": "ephemeral"}}]
    system = mm.Dialog.from_anthropic_messages([HI], system=blocks, drop_keys=["cache_control"])
    assert system.messages[0].content == "a"
    imaged = mm.Dialog.from_anthropic_messages([HI], system=[IMAGE], drop_parts=["image_url"])
    assert [(message.role.value, message.content) for message in imaged.messages] == [("user", "hi")]


# --- events and CloudEvents --------------------------------------------------------------------

URI_CHARACTERS = string.ascii_letters + string.digits + "-._~:/?#[]@!$&'()*+,;="
HEX = "0123456789abcdefABCDEF"


def is_uri_reference(text: str) -> bool:
    """Whether ``text`` is non-empty, RFC 3986 characters only, each % followed by two hex digits.

    Written apart from the package's regex.
    """
    position = 0
    while position < len(text):
        if text[position] == "%":
            escape = text[position + 1 : position + 3]
            if len(escape) != 2 or any(char not in HEX for char in escape):
                return False
            position += 3
        elif text[position] in URI_CHARACTERS:
            position += 1
        else:
            return False
    return bool(text)


def is_structured(text: str) -> bool:
    """RFC 3986's structure (written apart from the package's regex): a scheme before the first
    colon that comes before any / ? #; one # at most; [ ] only around the host of an authority;
    a port of digits; no @ in the user part."""
    first_delimiter = next((i for i, char in enumerate(text) if char in "/?#"), len(text))
    if ":" in text[:first_delimiter]:
        scheme, _, text = text.partition(":")
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9+.\-]*", scheme):
            return False
    text, _, fragment = text.partition("#")
    text, _, query = text.partition("?")
    path = text
    if text.startswith("//"):
        authority, _, path = text[2:].partition("/")
        user, _, host_port = authority.rpartition("@")
        if "@" in user or "[" in user or "]" in user:
            return False
        if host_port.startswith("["):
            host, close, port = host_port[1:].partition("]")
            if not close or "[" in host or (port and not port.startswith(":")):
                return False
            port = port[1:]
        else:
            host, _, port = host_port.partition(":")
            if "[" in host or "]" in host:
                return False
        if port and not port.isdigit():
            return False
    return "#" not in fragment and not any(char in part for char in "[]" for part in (path, query, fragment))


URI_REFERENCES = st.one_of(
    st.sampled_from(["plan", "runtime.ael", "/mycontext", "urn:mplp:runtime", "https://example.com/a?b=1#c"]),
    st.lists(
        st.one_of(
            st.sampled_from(URI_CHARACTERS),
            st.builds(lambda a, b: f"%{a}{b}", st.sampled_from(HEX), st.sampled_from(HEX)),
        ),
        min_size=1,
        max_size=20,
    )
    .map("".join)
    .filter(is_structured),
)
EVENT_TYPES = st.from_regex(r"[a-z][a-z0-9]{0,6}(\.[a-z][a-z0-9]{0,6}){0,3}", fullmatch=True)


@st.composite
def cloudevents(draw: st.DrawFn) -> dict[str, Any]:
    """CloudEvents that an Event carries.

    An MPLP id, a dotted lowercase type, a time; maybe a trace id and JSON data.
    """
    event: dict[str, Any] = {
        "specversion": "1.0",
        "id": draw(mplp_ids()),
        "source": draw(URI_REFERENCES),
        "type": draw(EVENT_TYPES),
        "time": str(draw(timestamps())),
    }
    if draw(st.booleans()):
        event["mplptraceid"] = draw(mplp_ids())
    if draw(st.booleans()):
        event["datacontenttype"] = "application/json"
        event["data"] = draw(st.one_of(st.none(), json_objects()))
    return event


def cloudevent_lossless_or_refused(drawn: mm.Event) -> str:
    """Which branch the event took: ``refused`` (a source that is no URI reference) or ``lossless``."""
    if not (is_uri_reference(drawn.source) and is_structured(drawn.source)):
        assert refused(drawn.to_cloudevent).path == ("source",)
        return "refused"
    written = drawn.to_cloudevent()
    assert json.loads(json.dumps(written)) == written
    assert set(written) >= {"specversion", "id", "source", "type", "time"}
    assert ("mplptraceid" in written) == (drawn.trace_id is not None)
    assert ("data" in written) == ("datacontenttype" in written) == ("data" in drawn.model_fields_set)
    assert all(follows_the_naming_rule(name) for name in written if name != "data")
    back = mm.Event.from_cloudevent(written)
    assert back == drawn and back.to_dict() == drawn.to_dict()
    assert mm.Event.from_cloudevent(mm.canonical_json(written)).to_dict() == drawn.to_dict()
    return "lossless"


def follows_the_naming_rule(name: str) -> bool:
    """CloudEvents 1.0, Attribute Naming Convention: lower-case letters a-z or digits 0-9 of ASCII, MUST."""
    return name != "" and set(name) <= set(string.ascii_lowercase + string.digits)


def with_source(sources: st.SearchStrategy[str]) -> st.SearchStrategy[mm.Event]:
    return st.builds(lambda drawn, source: drawn.model_copy(update={"source": source}), events(), sources)


NOT_URI_REFERENCES = st.text(min_size=0, max_size=12).filter(
    lambda text: not (is_uri_reference(text) and is_structured(text))
)


@given(events())
def test_event_to_cloudevent_and_back_is_lossless_or_refused(drawn: mm.Event) -> None:
    event(f"cloudevent: {cloudevent_lossless_or_refused(drawn)}")


@given(with_source(URI_REFERENCES))
def test_an_event_with_a_uri_reference_source_goes_there_and_back_losslessly(drawn: mm.Event) -> None:
    assert cloudevent_lossless_or_refused(drawn) == "lossless"


@given(with_source(NOT_URI_REFERENCES))
def test_an_event_whose_source_is_no_uri_reference_is_refused(drawn: mm.Event) -> None:
    assert cloudevent_lossless_or_refused(drawn) == "refused"


@given(cloudevents())
def test_cloudevent_to_event_and_back_is_the_same(written: dict[str, Any]) -> None:
    event = mm.Event.from_cloudevent(written)
    assert event.to_cloudevent() == written
    assert mm.Event.from_cloudevent(json.dumps(written)).to_cloudevent() == written
    assert mm.Event.from_cloudevent(json.dumps(written).encode()).to_cloudevent() == written


def test_the_payload_event_as_a_cloudevent() -> None:
    event = mm.Event.from_json((PAYLOADS / "event.json").read_bytes())
    written = event.to_cloudevent()
    assert written == {
        "specversion": "1.0",
        "id": "f6000000-0000-4000-9000-000000000001",
        "source": "plan",
        "type": "plan.created",
        "time": "2026-03-01T09:00:00.000Z",
        "mplptraceid": "b2000000-0000-4000-9000-000000000001",
        "datacontenttype": "application/json",
        "data": {"plan_id": "3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11", "steps": 5},
    }
    written["data"]["steps"] = 6  # type: ignore[index]  # the CloudEvent shares nothing with the event
    assert event.data == {"plan_id": "3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11", "steps": 5}


CLOUDEVENT = {
    "specversion": "1.0",
    "id": "f6000000-0000-4000-9000-000000000001",
    "source": "plan",
    "type": "plan.created",
    "time": "2026-03-01T09:00:00Z",
}
CLOUDEVENT_REFUSALS: list[tuple[str, Any, tuple[Any, ...], str]] = [
    (
        "specversion 0.3",
        {**CLOUDEVENT, "specversion": "0.3"},
        ("specversion",),
        "only CloudEvents 1.0 is read; found '0.3'",
    ),
    ("specversion a number", {**CLOUDEVENT, "specversion": 1.0}, ("specversion",), "found a number"),
    (
        "no specversion",
        {key: value for key, value in CLOUDEVENT.items() if key != "specversion"},
        ("specversion",),
        "found absent",
    ),
    (
        "data_base64",
        {**CLOUDEVENT, "datacontenttype": "image/png", "data_base64": "iVBORw0K"},
        ("data_base64",),
        "binary data has no place",
    ),
    (
        "text data",
        {**CLOUDEVENT, "datacontenttype": "text/plain", "data": "hello"},
        ("datacontenttype",),
        "'text/plain' is not JSON",
    ),
    (
        "xml data",
        {**CLOUDEVENT, "datacontenttype": "application/xml", "data": "<a/>"},
        ("datacontenttype",),
        "is not JSON",
    ),
    (
        "other JSON type",
        {**CLOUDEVENT, "datacontenttype": "application/vnd.mplp+json", "data": {}},
        ("datacontenttype",),
        "pass drop_attributes=['datacontenttype']",
    ),
    (
        "content type a number",
        {**CLOUDEVENT, "datacontenttype": 5, "data": {}},
        ("datacontenttype",),
        "expected a media type",
    ),
    ("array data", {**CLOUDEVENT, "data": [1, 2]}, ("data",), "a JSON object or null; found an array"),
    ("string data", {**CLOUDEVENT, "datacontenttype": "application/json", "data": "hello"}, ("data",), "found 'hello'"),
    ("subject", {**CLOUDEVENT, "subject": "step-1"}, ("subject",), "pass drop_attributes=['subject']"),
    (
        "dataschema",
        {**CLOUDEVENT, "dataschema": "https://example.com/s.json"},
        ("dataschema",),
        "an Event has no place for this attribute",
    ),
    (
        "W3C trace context",
        {**CLOUDEVENT, "traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"},
        ("traceparent",),
        "no place",
    ),
    ("other extension", {**CLOUDEVENT, "comexampleextension1": "value"}, ("comexampleextension1",), "no place"),
    ("no time", {key: value for key, value in CLOUDEVENT.items() if key != "time"}, ("time",), "an Event needs it"),
    ("null time", {**CLOUDEVENT, "time": None}, ("time",), "absent or null"),
    ("source with a space", {**CLOUDEVENT, "source": "runtime ael"}, ("source",), "not a URI-reference"),
    ("empty source", {**CLOUDEVENT, "source": ""}, ("source",), "not a URI-reference"),
    ("bad escape in source", {**CLOUDEVENT, "source": "/a%2"}, ("source",), "not a URI-reference"),
    ("bracket in a path", {**CLOUDEVENT, "source": "a[b"}, ("source",), "not a URI-reference"),
    ("two fragments", {**CLOUDEVENT, "source": "#a#b"}, ("source",), "not a URI-reference"),
    ("empty scheme", {**CLOUDEVENT, "source": "::"}, ("source",), "not a URI-reference"),
    ("bad scheme", {**CLOUDEVENT, "source": "1abc:x"}, ("source",), "not a URI-reference"),
    ("letters in the port", {**CLOUDEVENT, "source": "http://h:8x/"}, ("source",), "not a URI-reference"),
    ("batch", [CLOUDEVENT], (), "a batch: read each of its events"),
    ("JSON text of a number", b"5", (), "expected one CloudEvent, a JSON object; found a number"),
]


@pytest.mark.parametrize(
    ("given", "path", "words"),
    [case[1:] for case in CLOUDEVENT_REFUSALS],
    ids=[case[0] for case in CLOUDEVENT_REFUSALS],
)
def test_reading_a_cloudevent_refuses_what_an_event_cannot_carry(given: Any, path: tuple[Any, ...], words: str) -> None:
    error = refused(mm.Event.from_cloudevent, given)
    assert error.path == path
    assert words in str(error)


@pytest.mark.parametrize(
    ("drop", "words"),
    [
        (["id"], "'id' is read into the Event"),
        (["data_base64"], "'data_base64' is read into the Event (or refused)"),
    ],
)
def test_drop_attributes_names_only_attributes_an_event_has_no_place_for(drop: Any, words: str) -> None:
    error = refused(mm.Event.from_cloudevent, {**CLOUDEVENT, "subject": "s"}, drop_attributes=drop)
    assert error.path == ("drop_attributes",)
    assert words in str(error)


# Names that break the spec's MUST rule (lower-case ASCII letters a-z or digits 0-9), and names it allows.
BROKEN_NAMES = ["Subject", "my-ext", "ext_1", "mplp.traceid", "caf\u00e9", "trace id", "\u212aelvin"]
ALLOWED_NAMES = ["comexampleextension1", "1abc", "x", "knativearrivaltime"]


@pytest.mark.parametrize("name", BROKEN_NAMES)
@pytest.mark.parametrize("value", ["x", None], ids=["set", "null"])
def test_a_cloudevent_with_an_attribute_name_the_spec_forbids_is_refused_dropped_or_not(
    name: str, value: str | None
) -> None:
    assert not follows_the_naming_rule(name)
    given = {**CLOUDEVENT, name: value}
    error = refused(mm.Event.from_cloudevent, given)
    assert error.path == (name,)
    assert "is not an attribute name" in str(error) and "drop_attributes" not in str(error)
    # Naming it among the dropped ones refuses the call too: no CloudEvent has such an attribute.
    error = refused(mm.Event.from_cloudevent, given, drop_attributes=[name])
    assert error.path == ("drop_attributes",)
    assert f"{name!r} is not an attribute name" in str(error)


@pytest.mark.parametrize("name", ["", 5], ids=["empty", "a number"])
def test_an_empty_or_non_text_member_name_is_refused(name: Any) -> None:
    members: dict[Any, Any] = {**CLOUDEVENT, name: "x"}
    with pytest.raises(ConversionError, match="is not an attribute name"):
        mm.Event.from_cloudevent(members)


@pytest.mark.parametrize("name", ALLOWED_NAMES)
def test_an_attribute_name_the_spec_allows_can_be_dropped(name: str) -> None:
    assert follows_the_naming_rule(name)
    assert refused(mm.Event.from_cloudevent, {**CLOUDEVENT, name: "x"}).path == (name,)  # no place, as before
    event = mm.Event.from_cloudevent({**CLOUDEVENT, name: "x"}, drop_attributes=[name])
    assert event.event_id == CLOUDEVENT["id"]


@pytest.mark.parametrize(
    ("drop", "found"),
    [
        ("subject", "found the string 'subject'"),  # a lone str: iterable, but of letters
        (5, "found int"),
        (None, "found NoneType"),
        (["subject", 5], "found int"),
        ([b"subject"], "found bytes"),
    ],
    ids=["str", "int", "None", "an int among names", "bytes name"],
)
def test_drop_attributes_of_the_wrong_type_is_a_type_error_naming_it(drop: Any, found: str) -> None:
    # A programming mistake, not input to convert: a TypeError, not a ConversionError (a ValueError).
    with pytest.raises(TypeError) as caught:
        mm.Event.from_cloudevent({**CLOUDEVENT, "subject": "s"}, drop_attributes=drop)
    assert str(caught.value).startswith("drop_attributes must ")
    assert str(caught.value).endswith(found)


@pytest.mark.parametrize(
    "names",
    [
        lambda: iter(["subject", "traceparent"]),
        lambda: (name for name in ("subject", "traceparent")),
        lambda: {"subject": 1, "traceparent": 2}.keys(),
    ],
    ids=["iterator", "generator", "dict keys"],
)
def test_drop_attributes_takes_any_iterable_of_names_read_once(names: Callable[[], Iterable[str]]) -> None:
    given = {**CLOUDEVENT, "subject": "step-1", "traceparent": "00-ab-cd-01"}
    event = mm.Event.from_cloudevent(given, drop_attributes=names())
    assert event.event_id == CLOUDEVENT["id"] and "subject" not in event.to_dict()


@pytest.mark.parametrize(
    ("given", "drop"),
    [
        ({**CLOUDEVENT, "subject": "step-1", "traceparent": "00-ab-cd-01"}, ["subject", "traceparent"]),
        (
            {**CLOUDEVENT, "subject": None, "comexampleextension1": None, "mplptraceid": None, "datacontenttype": None},
            [],
        ),
        ({**CLOUDEVENT, "datacontenttype": "application/vnd.mplp+json"}, ["datacontenttype"]),
    ],
    ids=["dropped by name", "null is unset", "JSON media type dropped by name"],
)
def test_reading_a_cloudevent_leaves_out_what_is_unset_or_dropped_by_name(
    given: dict[str, Any], drop: list[str]
) -> None:
    event = mm.Event.from_cloudevent(given, drop_attributes=drop)
    assert event.to_dict() == {
        "event_id": CLOUDEVENT["id"],
        "event_type": "plan.created",
        "source": "plan",
        "timestamp": CLOUDEVENT["time"],
    }


def test_cloudevent_data_null_is_a_payload_and_absent_content_type_means_json() -> None:
    explicit = mm.Event.from_cloudevent({**CLOUDEVENT, "data": None})
    assert explicit.data is None and "data" in explicit.model_fields_set
    assert explicit.to_cloudevent() == {**CLOUDEVENT, "datacontenttype": "application/json", "data": None}
    implied = mm.Event.from_cloudevent({**CLOUDEVENT, "data": {"a": [1, 2.5]}})
    assert implied.data == {"a": [1, 2.5]}
    assert implied.to_cloudevent()["datacontenttype"] == "application/json"


@pytest.mark.parametrize(
    ("given", "loc", "code"),
    [
        ({**CLOUDEVENT, "id": "A234-1234-1234"}, ("id",), "mplp_id"),
        ({**CLOUDEVENT, "type": "com.example.Some_Event"}, ("type",), "string_pattern_mismatch"),
        ({**CLOUDEVENT, "time": "yesterday"}, ("time",), "date_time"),
        ({**CLOUDEVENT, "mplptraceid": "trace-1"}, ("mplptraceid",), "mplp_id"),
        ({**CLOUDEVENT, "source": 5}, ("source",), "string_type"),
        ({key: value for key, value in CLOUDEVENT.items() if key != "id"}, ("id",), "missing"),
        (b'{"specversion": "1.0",', (), "json_invalid"),
        (b'{"specversion": "1.0", "specversion": "1.0"}', ("specversion",), "json_duplicate_key"),
    ],
    ids=[
        "id not an MPLP id",
        "type not dotted lowercase",
        "time not RFC 3339",
        "trace id not an MPLP id",
        "source not text",
        "no id",
        "not JSON",
        "duplicate key",
    ],
)
def test_a_cloudevent_that_makes_no_valid_event_raises_a_validation_error_at_its_attribute(
    given: Any, loc: tuple[Any, ...], code: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        mm.Event.from_cloudevent(given)
    assert caught.value.title == "CloudEvent"
    assert [(entry["loc"], entry["type"]) for entry in caught.value.errors()] == [(loc, code)]
    assert mm.errors_as_json(caught.value)[0]["pointer"] == "".join(f"/{part}" for part in loc)


def test_writing_refuses_a_source_that_is_not_a_uri_reference() -> None:
    event = mm.Event.model_validate(
        {
            "event_id": CLOUDEVENT["id"],
            "event_type": "plan.created",
            "source": "plan module",
            "timestamp": CLOUDEVENT["time"],
        }
    )
    error = refused(event.to_cloudevent)
    assert error.path == ("source",) and "'plan module' is not a URI-reference" in str(error)


# --- the example -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "arguments", [[], ["--model", "gpt-4.1", str(PAYLOADS / "dialog.json")]], ids=["defaults", "given"]
)
def test_openai_request_example_prints_the_dialog_as_a_request_body(arguments: list[str], tmp_path: Any) -> None:
    script = ROOT / "examples" / "openai_request.py"
    run = subprocess.run(
        [sys.executable, str(script), *arguments], capture_output=True, text=True, check=True, cwd=tmp_path, timeout=60
    )
    body = json.loads(run.stdout)
    dialog = load(PAYLOADS / "dialog.json")
    assert body == {
        "model": "gpt-4.1" if arguments else "gpt-4o-mini",
        "messages": [
            {"role": "user" if message["role"] == "agent" else message["role"], "content": message["content"]}
            for message in dialog["messages"]
        ],
    }


# --- the types --------------------------------------------------------------------------------


def test_the_returned_typeddicts_say_which_keys_may_be_absent() -> None:
    # Runtime introspection (pydantic's TypeAdapter, for one) reads these sets.
    from mplp_models._chat import AnthropicChat, AnthropicChatMessage, OpenAIChatMessage
    from mplp_models._cloudevents import CloudEvent

    assert AnthropicChat.__optional_keys__ == {"system"}
    optional = {member.__name__: member.__optional_keys__ for member in OpenAIChatMessage.__args__}
    assert optional == {
        "OpenAISystemMessage": {"name"},
        "OpenAIDeveloperMessage": {"name"},
        "OpenAIUserMessage": {"name"},
        "OpenAIAssistantMessage": {"content", "name", "refusal", "tool_calls", "audio", "function_call"},
    }
    assert [member.__optional_keys__ for member in AnthropicChatMessage.__args__] == [set(), set()]
    assert CloudEvent.__optional_keys__ == {"mplptraceid", "datacontenttype", "data"}
    assert CloudEvent.__required_keys__ == {"specversion", "id", "source", "type", "time"}


# RFC 3986 section 5.4's reference examples (all but the empty one, which CloudEvents refuses), and more.
@pytest.mark.parametrize(
    "source",
    [
        "g:h",
        "g",
        "./g",
        "g/",
        "/g",
        "//g",
        "?y",
        "g?y",
        "#s",
        "g#s",
        "g?y#s",
        ";x",
        "g;x",
        "g;x?y#s",
        ".",
        "./",
        "..",
        "../",
        "../g",
        "../..",
        "../../g",
        "https://example.com/a?b=1#c",
        "urn:mplp:runtime",
        "http://[::1]:8080/x",
        "//user:pw@host:80/p",
        "a%20b",
        "mailto:a@b.example",
    ],
)
def test_cloudevent_source_takes_every_uri_reference(source: str) -> None:
    assert is_uri_reference(source) and is_structured(source)
    event = mm.Event.from_cloudevent({**CLOUDEVENT, "source": source})
    assert event.to_cloudevent()["source"] == source


def test_anthropic_refuses_empty_content_but_in_a_final_assistant_message() -> None:
    def dialog(*turns: tuple[str, str]) -> mm.Dialog:
        return mm.Dialog.from_anthropic_messages([{"role": role, "content": text} for role, text in turns])

    assert dialog(("user", "Hi"), ("assistant", "")).to_anthropic_messages()["messages"][-1] == {
        "role": "assistant",
        "content": "",
    }
    for turns, index in (
        ((("user", ""), ("assistant", "Hi")), 0),
        ((("user", "Hi"), ("assistant", ""), ("user", "?")), 1),
    ):
        error = refused(dialog(*turns).to_anthropic_messages)
        assert error.path == ("messages", index, "content")
        assert "only in a final assistant message" in str(error)
    system = mm.Dialog.from_openai_messages([{"role": "system", "content": ""}, {"role": "user", "content": "Hi"}])
    assert refused(system.to_anthropic_messages).path == ("messages", 0, "content")


def test_cloudevent_media_type_without_data_is_refused_unless_dropped() -> None:
    for media in ("application/json", "text/plain"):
        error = refused(lambda: mm.Event.from_cloudevent({**CLOUDEVENT, "datacontenttype": media}))
        assert error.path == ("datacontenttype",) and "with no data" in str(error)
        event = mm.Event.from_cloudevent({**CLOUDEVENT, "datacontenttype": media}, drop_attributes=["datacontenttype"])
        assert "data" not in event.model_fields_set


def test_cloudevent_json_media_type_is_read_in_any_case_and_with_parameters() -> None:
    given = {**CLOUDEVENT, "datacontenttype": "Application/JSON; charset=utf-8", "data": {"a": 1}}
    event = mm.Event.from_cloudevent(given)
    assert event.data == {"a": 1}
    assert event.to_cloudevent() == {**given, "datacontenttype": "application/json"}  # the same media type


def test_the_interop_names_are_public() -> None:
    import mplp_models._chat as formats
    import mplp_models._cloudevents as cloudevents
    from mplp_models import chat

    assert mm.ConversionError is ConversionError and issubclass(ConversionError, ValueError)
    assert mm.CloudEvent is cloudevents.CloudEvent and chat.OpenAIChatMessage is formats.OpenAIChatMessage
    assert {"ConversionError", "CloudEvent"} <= set(mm.__all__)
    assert {"OpenAIChatMessage", "AnthropicChat"} <= set(chat.__all__)
