"""What a type checker sees of the chat formats used with the openai and anthropic SDKs: no cast.

Never run, only checked (``make typecheck``, as check_models.py): what
``to_openai_messages`` and ``to_anthropic_messages`` return goes into the SDKs'
``create`` as it is, and what the SDKs return goes back into a dialog. The SDKs
are dev dependencies; the package itself never imports them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import anthropic
import openai
from anthropic.types import Message, MessageParam, TextBlockParam
from openai.types.chat import ChatCompletion, ChatCompletionMessage, ChatCompletionMessageParam
from typing_extensions import assert_type

import mplp_models as mm
from mplp_models import llm


def openai_chat(client: openai.OpenAI, dialog: mm.Dialog) -> mm.Dialog:
    completion = client.chat.completions.create(model="gpt-4o-mini", messages=dialog.to_openai_messages())
    assert_type(completion, ChatCompletion)
    client.chat.completions.create(
        model="gpt-4o-mini", messages=dialog.to_openai_messages(agent_role="user", system_role="developer")
    )
    message = completion.choices[0].message
    assert_type(message, ChatCompletionMessage)
    assert_type(dialog.append_openai(completion), mm.Dialog)
    return dialog.append_openai(message, drop_keys=["annotations"], refusal_as_text=True)


async def openai_chat_async(client: openai.AsyncOpenAI, dialog: mm.Dialog) -> mm.Dialog:
    completion = await client.chat.completions.create(model="gpt-4o-mini", messages=dialog.to_openai_messages())
    return dialog.append_openai(completion)


def openai_messages_in(history: list[ChatCompletionMessageParam], reply: ChatCompletionMessage) -> None:
    assert_type(mm.Dialog.from_openai_messages(history), mm.Dialog)
    assert_type(mm.Dialog.from_openai_messages([*history, reply]), mm.Dialog)
    assert_type(mm.Dialog.from_openai_messages(history, status="completed"), mm.Dialog)
    mm.Dialog.from_openai_messages(history, status="bogus")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    # The SDK's own param type holds what a dialog writes.
    written: list[ChatCompletionMessageParam] = [*mm.Dialog.from_openai_messages(history).to_openai_messages()]
    assert_type(written, list[ChatCompletionMessageParam])


def anthropic_chat(client: anthropic.Anthropic, dialog: mm.Dialog) -> mm.Dialog:
    chat = dialog.to_anthropic_messages()
    reply = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, **chat)
    assert_type(reply, Message)
    client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=chat["messages"])
    if "system" in chat:
        client.messages.create(
            model="claude-sonnet-4-5", max_tokens=1024, system=chat["system"], messages=chat["messages"]
        )
    return dialog.append_anthropic(reply, join_parts="", drop_parts=["thinking", "redacted_thinking"])


async def anthropic_chat_async(client: anthropic.AsyncAnthropic, dialog: mm.Dialog) -> mm.Dialog:
    reply = await client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, **dialog.to_anthropic_messages())
    return dialog.append_anthropic(reply)


def anthropic_messages_in(history: list[MessageParam], system: list[TextBlockParam], reply: Message) -> None:
    assert_type(mm.Dialog.from_anthropic_messages(history, system=system), mm.Dialog)
    mm.Dialog.from_anthropic_messages(history, status="finished")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    assert_type(mm.Dialog.from_anthropic_messages([*history, reply.to_param(), reply]), mm.Dialog)
    written: list[MessageParam] = [*mm.Dialog.from_anthropic_messages(history).to_anthropic_messages()["messages"]]
    assert_type(written, list[MessageParam])


def the_written_content_type(dialog: mm.Dialog) -> None:
    # The SDKs' content types, as their TypedDicts are invariant; a dialog writes a string.
    first = dialog.to_openai_messages()[0]
    if first["role"] == "user":
        assert_type(first["content"], str | Iterable[Any])
    text = dialog.to_openai_messages()[0].get("content")  # every role has it (an assistant's maybe not)
    if isinstance(text, str):
        assert_type(text, str)
    message = dialog.to_anthropic_messages()["messages"][0]
    assert_type(message["content"], str | Iterable[Any])


def structured_outputs(openai_client: openai.OpenAI, anthropic_client: anthropic.Anthropic, dialog: mm.Dialog) -> None:
    # llm's request parts go into the SDKs' create as they are, like the chat conversions.
    openai_client.chat.completions.create(
        model="gpt-4o-mini", messages=dialog.to_openai_messages(), response_format=llm.openai_format(mm.Plan)
    )
    tool = llm.anthropic_tool(mm.Plan)
    anthropic_client.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        tools=[tool, llm.anthropic_tool(mm.Trace, strict=False)],
        tool_choice={"type": "tool", "name": tool["name"]},
        **dialog.to_anthropic_messages(),
    )
    assert_type(llm.openai_format(mm.Plan)["json_schema"]["name"], str)
    assert_type(tool["input_schema"], Any)
