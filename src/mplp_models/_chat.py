"""Dialog messages to and from the chat formats of OpenAI (Chat Completions) and Anthropic (Messages).

Both formats carry a role and text per message, and nothing of what else a
dialog holds; the mapping is in docs/interop.md. What a format cannot carry is
refused with a ``ConversionError`` naming its path, unless the caller opts into
the lossy mapping by name (``agent_role``, ``drop_events``, ``join_parts``,
``drop_keys``, ``drop_parts``, ``refusal_as_text``). The SDKs' objects are read
as the pydantic models they are; the SDKs themselves are never imported.
"""

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast

# No `from __future__ import annotations` here: TypedDict reads NotRequired only from
# evaluated annotations. typing_extensions' TypedDict reads it on Python 3.10 too.
from pydantic import BaseModel
from typing_extensions import NotRequired, TypedDict

from mplp_models._conversion import ConversionError, carries_nothing, describe
from mplp_models._formats import Timestamp
from mplp_models._ids import new_id, new_meta
from mplp_models._public import publish
from mplp_models._text import encoding_problem

if TYPE_CHECKING:
    from mplp_models._generated.mplp.v1_0.common.metadata_schema import Metadata
    from mplp_models._generated.mplp.v1_0.mplp_dialog_schema import DialogMessage, DialogStatus

__all__ = [
    "AgentRole",
    "AnthropicAssistantMessage",
    "AnthropicChat",
    "AnthropicChatMessage",
    "AnthropicTextBlock",
    "AnthropicUserMessage",
    "DialogFields",
    "OpenAIAssistantMessage",
    "OpenAIChatMessage",
    "OpenAIDeveloperMessage",
    "OpenAISystemMessage",
    "OpenAIUserMessage",
    "Reading",
    "dialog_document",
    "read_anthropic",
    "read_anthropic_reply",
    "read_openai",
    "read_openai_reply",
    "reading",
    "to_anthropic",
    "to_openai",
]

AgentRole = Literal["user", "assistant"]
"""The chat role that MPLP ``agent`` messages are written as, when the caller opts into that lossy mapping."""

Turn = tuple[str, str]  # an MPLP role and the message's text
Path = tuple[str | int, ...]

# The SDKs type a request's messages as TypedDicts whose items are mutable, so a
# type checker holds them invariant: a dict type is accepted only if it has every
# key of the SDK's type, each with an equivalent type. The types below therefore
# declare the SDKs' keys (openai 3.57, anthropic 2.14), and Any where the SDK's
# type is one of its own; a dialog writes role and content only, content a string.


class OpenAISystemMessage(TypedDict):
    """A system message of an OpenAI Chat Completions ``messages`` list; ``content`` is a string.

    Assignable to the openai SDK's ``ChatCompletionSystemMessageParam``.
    """

    role: Literal["system"]
    content: str | Iterable[Any]
    name: NotRequired[str]


class OpenAIDeveloperMessage(TypedDict):
    """A developer message (``system_role="developer"``); ``content`` is a string.

    Assignable to the openai SDK's ``ChatCompletionDeveloperMessageParam``.
    """

    role: Literal["developer"]
    content: str | Iterable[Any]
    name: NotRequired[str]


class OpenAIUserMessage(TypedDict):
    """A user message of an OpenAI Chat Completions ``messages`` list; ``content`` is a string.

    Assignable to the openai SDK's ``ChatCompletionUserMessageParam``.
    """

    role: Literal["user"]
    content: str | Iterable[Any]
    name: NotRequired[str]


class OpenAIAssistantMessage(TypedDict):
    """An assistant message of an OpenAI Chat Completions ``messages`` list; ``content`` is a string.

    Assignable to the openai SDK's ``ChatCompletionAssistantMessageParam``, where
    ``content`` may be absent; a dialog always writes it, and none of the other
    optional keys.
    """

    role: Literal["assistant"]
    content: NotRequired[str | Iterable[Any] | None]
    name: NotRequired[str]
    refusal: NotRequired[str | None]
    tool_calls: NotRequired[Iterable[Any]]
    audio: NotRequired[Any]
    function_call: NotRequired[Any]


OpenAIChatMessage: TypeAlias = OpenAISystemMessage | OpenAIDeveloperMessage | OpenAIUserMessage | OpenAIAssistantMessage
"""One message of an OpenAI Chat Completions ``messages`` list, as a dialog writes it:
``{"role": ..., "content": "..."}``.

A list of them is assignable to the openai SDK's ``Iterable[ChatCompletionMessageParam]``.
"""


class AnthropicUserMessage(TypedDict):
    """A user message of an Anthropic Messages API ``messages`` list; ``content`` is a string.

    Assignable to the anthropic SDK's ``UserMessageParam``.
    """

    role: Literal["user"]
    content: str | Iterable[Any]


class AnthropicAssistantMessage(TypedDict):
    """An assistant message of an Anthropic Messages API ``messages`` list; ``content`` is a string.

    Assignable to the anthropic SDK's ``AssistantMessageParam``.
    """

    role: Literal["assistant"]
    content: str | Iterable[Any]


AnthropicChatMessage: TypeAlias = AnthropicUserMessage | AnthropicAssistantMessage
"""One message of an Anthropic Messages API ``messages`` list, as a dialog writes it.

A list of them is assignable to the anthropic SDK's ``Iterable[MessageParam]``.
"""


class AnthropicTextBlock(TypedDict):
    """A text block of an Anthropic ``system`` prompt: one per system message when a dialog has several.

    Assignable to the anthropic SDK's ``TextBlockParam``; a dialog writes ``type`` and ``text`` only.
    """

    type: Literal["text"]
    text: str
    cache_control: NotRequired[Any]
    citations: NotRequired[Iterable[Any] | None]


class AnthropicChat(TypedDict):
    """The ``system`` and ``messages`` of an Anthropic Messages API request body.

    ``system`` is absent when the dialog has no system message, a string for
    one, and a list of text blocks (one per message) for several. Splatted into
    the anthropic SDK's ``messages.create(**chat)``, both type-check.
    """

    system: NotRequired[str | list[AnthropicTextBlock]]
    messages: list[AnthropicChatMessage]


class DialogFields(TypedDict):
    """The dialog fields that a chat format lacks, as the ``from_*`` methods take them (``None``: the default)."""

    dialog_id: str | None
    context_id: str | None
    thread_id: str | None
    status: "DialogStatus | str"
    meta: "Metadata | Mapping[str, Any] | None"
    timestamps: str | Sequence[str] | None
    started_at: str | None
    ended_at: str | None


# --- writing -------------------------------------------------------------------------------


def to_openai(
    messages: "Sequence[DialogMessage]", *, agent_role: AgentRole | None, system_role: str, drop_events: bool
) -> list[OpenAIChatMessage]:
    """The messages in OpenAI's form; see ``Dialog.to_openai_messages``."""
    _check_option("agent_role", agent_role, (None, "user", "assistant"))
    _check_option("system_role", system_role, ("system", "developer"))
    written: list[OpenAIChatMessage] = []
    for index, message in enumerate(messages):
        role = _written_role(index, message, "OpenAI", agent_role, drop_events)
        written.append(_openai_message(role, message.content, system_role))
    return written


def _openai_message(role: Literal["system", "user", "assistant"], content: str, system_role: str) -> OpenAIChatMessage:
    # One literal per role: a type checker then knows which TypedDict each is.
    if role == "user":
        return {"role": "user", "content": content}
    if role == "assistant":
        return {"role": "assistant", "content": content}
    if system_role == "developer":
        return {"role": "developer", "content": content}
    return {"role": "system", "content": content}


def to_anthropic(
    messages: "Sequence[DialogMessage]", *, agent_role: AgentRole | None, drop_events: bool
) -> AnthropicChat:
    """The system prompt and messages in Anthropic's form; see ``Dialog.to_anthropic_messages``."""
    _check_option("agent_role", agent_role, (None, "user", "assistant"))
    system: list[str] = []
    chat: list[AnthropicChatMessage] = []
    for index, message in enumerate(messages):
        role = _written_role(index, message, "Anthropic", agent_role, drop_events)
        # Anthropic refuses empty text everywhere but in a final assistant message (a prefill).
        if not message.content and not (role == "assistant" and index == len(messages) - 1):
            raise ConversionError(
                ("messages", index, "content"),
                "empty: Anthropic takes empty content only in a final assistant message",
            )
        if role == "user":
            chat.append({"role": "user", "content": message.content})
        elif role == "assistant":
            chat.append({"role": "assistant", "content": message.content})
        elif chat:
            raise ConversionError(
                ("messages", index, "role"),
                "a system message after the conversation has begun: Anthropic takes system text only as the "
                "top-level system prompt, which comes before every message",
            )
        else:
            system.append(message.content)
    if not system:
        return {"messages": chat}
    prompt: str | list[AnthropicTextBlock] = (
        system[0] if len(system) == 1 else [{"type": "text", "text": text} for text in system]
    )
    return {"system": prompt, "messages": chat}


def _written_role(
    index: int, message: "DialogMessage", form: str, agent_role: AgentRole | None, drop_events: bool
) -> Literal["system", "user", "assistant"]:
    """The chat role of the message; a ``ConversionError`` for what the format cannot carry."""
    if message.event is not None and not drop_events:
        raise ConversionError(
            ("messages", index, "event"),
            f"the {form} format has no place for a message's event; pass drop_events=True to leave events out",
        )
    role = message.role.value
    if role == "agent":
        if agent_role is None:
            raise ConversionError(
                ("messages", index, "role"),
                f"the {form} format has no agent role; pass agent_role='assistant' or agent_role='user' "
                "to write agent messages as that role (they read back as it)",
            )
        return agent_role
    if role == "system":
        return "system"
    return "user" if role == "user" else "assistant"


def _check_option(name: str, value: object, allowed: tuple[object, ...]) -> None:
    if value not in allowed:
        options = ", ".join(repr(option) for option in allowed)
        raise ValueError(f"{name} must be one of {options}; found {value!r}")


# --- reading -------------------------------------------------------------------------------

_MISSING: Any = object()
Form = Literal["openai", "anthropic"]
_ROLES: dict[Form, Mapping[str, str]] = {
    "openai": {"system": "system", "developer": "system", "user": "user", "assistant": "assistant"},
    "anthropic": {"user": "user", "assistant": "assistant"},
}
_READ_KEYS = frozenset({"role", "content", "type", "text"})  # what drop_keys cannot name: a dialog reads them


@dataclass(frozen=True)
class Reading:
    """The lossy mappings that the caller of a reading asked for by name."""

    join_parts: str | None = None
    drop_keys: frozenset[str] = frozenset()
    drop_parts: frozenset[str] = frozenset()
    refusal_as_text: bool = False


def reading(
    *, join_parts: str | None, drop_keys: Collection[str], drop_parts: Collection[str], refusal_as_text: bool
) -> Reading:
    """The options of a reading; a ``ConversionError`` for a name that cannot be dropped.

    A ``TypeError`` names an option of the wrong type: a programming mistake, not input to convert.
    """
    if join_parts is not None and not isinstance(join_parts, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"join_parts must be a string or None; found {type(join_parts).__name__}")
    if not isinstance(refusal_as_text, bool):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"refusal_as_text must be a bool; found {type(refusal_as_text).__name__}")
    if join_parts is not None:
        _text(("join_parts",), join_parts)
    keys = _names("drop_keys", drop_keys)
    read = sorted(keys & _READ_KEYS)
    if read:
        raise ConversionError(("drop_keys",), f"{read[0]!r} is read into the dialog (or refused), never dropped")
    parts = _names("drop_parts", drop_parts)
    if "text" in parts:
        raise ConversionError(("drop_parts",), "'text' parts are read into the dialog, never dropped")
    return Reading(join_parts, keys, parts, refusal_as_text)


def _names(option: str, names: Collection[str]) -> frozenset[str]:
    if isinstance(names, str):
        raise ConversionError((option,), f"expected a collection of names; found the string {names!r}")
    if not isinstance(names, Iterable):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"{option} must be a collection of names; found {type(names).__name__}")
    listed = list(names)  # each looked at before the set, which a dict or a list among them would stop
    for name in listed:
        if not isinstance(name, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"{option} must be a collection of names (strings); found {type(name).__name__}")
    return frozenset(listed)


def read_openai(messages: object, options: Reading) -> list[Turn]:
    """The role and text of each OpenAI message; a ``ConversionError`` for what a dialog cannot carry."""
    return _read_messages(messages, "openai", options)


def read_anthropic(messages: object, system: object, options: Reading) -> list[Turn]:
    """The system prompt, then the role and text of each message; a ``ConversionError`` for what a dialog
    cannot carry.
    """
    return [("system", text) for text in _system_texts(system, options)] + _read_messages(
        messages, "anthropic", options
    )


def read_openai_reply(reply: object, options: Reading) -> Turn:
    """The role and text of one OpenAI message, or of the one choice of a chat completion."""
    entry = _object((), reply)
    if "choices" not in entry or "role" in entry:
        return _read_message((), entry, "openai", options)
    choices = _sequence(("choices",), entry["choices"], "a list of choices")
    if len(choices) != 1:
        raise ConversionError(
            ("choices",),
            f"{len(choices)} choices, and a dialog appends one message: pass the one to keep, "
            "completion.choices[i].message",
        )
    choice = _object(("choices", 0), choices[0])
    if "message" not in choice:
        raise ConversionError(("choices", 0, "message"), "required, and absent")
    return _read_message(("choices", 0, "message"), choice["message"], "openai", options)


def read_anthropic_reply(reply: object, options: Reading) -> Turn:
    """The role and text of one Anthropic message: a response (``Message``) or a ``MessageParam``."""
    return _read_message((), reply, "anthropic", options)


def _read_messages(messages: object, form: Form, options: Reading) -> list[Turn]:
    listed = _sequence(("messages",), messages, "a list of message objects")
    return [_read_message(("messages", index), message, form, options) for index, message in enumerate(listed)]


def _read_message(path: Path, message: object, form: Form, options: Reading) -> Turn:
    entry = _object(path, message)
    if form == "anthropic" and entry.get("type") == "message":
        entry = _response_message(path, entry, options)
    role = _role(path, entry, _ROLES[form])
    if form == "anthropic":
        _only(path, entry, ("role", "content"), options.drop_keys)
        return role, _content(path, entry, options)
    _only(path, entry, ("role", "content"), options.drop_keys | {"refusal"})  # a refusal is read next
    refusal = _refusal(path, entry, options)
    return role, _content(path, entry, options) if refusal is None else refusal


def _response_message(path: Path, response: Mapping[str, Any], options: Reading) -> Mapping[str, Any]:
    """The message of an Anthropic response: its role and content. The rest (id, model, usage,
    stop_reason...) tells of the request, not of the conversation, as the SDK's ``Message.to_param()`` has it."""
    if response.get("stop_reason") == "refusal" and not options.refusal_as_text:
        raise ConversionError(
            (*path, "stop_reason"),
            "'refusal': the model declined to answer; pass refusal_as_text=True to append the text it gave",
        )
    message = {key: response[key] for key in ("role", "content") if key in response}
    if message.get("content") == []:
        message["content"] = ""  # a reply of no blocks says nothing: its text is empty
    return message


def _refusal(path: Path, entry: Mapping[str, Any], options: Reading) -> str | None:
    """The text of an OpenAI refusal, when the caller takes it as the message's text; None for none."""
    refusal = entry.get("refusal")
    if refusal is None or "refusal" in options.drop_keys:
        return None
    where = (*path, "refusal")
    if not options.refusal_as_text:
        raise ConversionError(
            where,
            f"the model refused ({describe(refusal)}); pass refusal_as_text=True to append the refusal as the "
            "message's text",
        )
    if not isinstance(refusal, str):
        raise ConversionError(where, f"expected a string; found {describe(refusal)}")
    if not carries_nothing(entry.get("content")):
        raise ConversionError(where, "would be lost: the message has content too, and a dialog message holds one text")
    return _text(where, refusal)


def _system_texts(system: object, options: Reading) -> list[str]:
    """A string is one system message; a list of text blocks is one message per block."""
    if system is None:
        return []
    if isinstance(system, str):
        return [_text(("system",), system)]
    blocks = _sequence(("system",), system, "a string or a list of text blocks")
    texts = [_text_part(("system", index), block, options) for index, block in enumerate(blocks)]
    return [text for text in texts if text is not None]


def _role(path: Path, entry: Mapping[str, Any], roles: Mapping[str, str]) -> str:
    role = entry.get("role", _MISSING)
    where = (*path, "role")
    if role is _MISSING:
        raise ConversionError(where, "required, and absent")
    if isinstance(role, str) and role in roles:
        return roles[role]
    if role == "system":
        raise ConversionError(
            where, "Anthropic's system prompt is the top-level system, not a message; pass it as system"
        )
    if role in ("tool", "function"):
        raise ConversionError(where, f"{role} messages (results of tool calls) have no place in a dialog")
    expected = ", ".join(repr(name) for name in roles)
    raise ConversionError(where, f"expected one of {expected}; found {describe(role)}")


def _content(path: Path, entry: Mapping[str, Any], options: Reading) -> str:
    """The text of a message: a string, or its text parts."""
    where = (*path, "content")
    content = entry.get("content", _MISSING)
    if isinstance(content, str):
        return _text(where, content)
    if content is _MISSING or content is None:
        found = "absent" if content is _MISSING else "null"
        raise ConversionError(where, f"a dialog message needs text; found {found}")
    parts = _sequence(where, content, "a string or a list of text parts")
    read = [_text_part((*where, index), part, options) for index, part in enumerate(parts)]
    texts = [text for text in read if text is not None]
    if not texts:
        found = "an empty list of parts" if not parts else "no text part (the others are dropped by drop_parts)"
        raise ConversionError(where, f"a dialog message needs text; found {found}")
    if len(texts) > 1 and options.join_parts is None:
        raise ConversionError(
            where,
            f"{len(texts)} text parts, and a dialog message holds one text; "
            "pass join_parts (such as '\\n\\n') to join them",
        )
    return (options.join_parts or "").join(texts)


def _text_part(path: Path, part: object, options: Reading) -> str | None:
    """The text of a ``{"type": "text", "text": ...}`` part or block; None for a part of a type to drop.

    Other kinds are refused, but for a refusal part when the caller takes refusals as text.
    """
    entry = _object(path, part)
    kind = entry.get("type", _MISSING)
    if isinstance(kind, str) and kind in options.drop_parts:
        return None
    field = "refusal" if kind == "refusal" and options.refusal_as_text else "text"
    if kind != field:
        raise ConversionError((*path, "type"), f"a dialog message holds text only; found {_part_kind(kind)}")
    text = entry.get(field, _MISSING)
    if not isinstance(text, str):
        raise ConversionError(
            (*path, field), f"expected a string; found {'nothing' if text is _MISSING else describe(text)}"
        )
    _only(path, entry, ("type", field), options.drop_keys)
    return _text((*path, field), text)


def _text(path: Path, text: str) -> str:
    """``text``, if UTF-8 can encode it: a lone surrogate would make a dialog that cannot be written as JSON."""
    problem = encoding_problem(text)
    if problem is not None:
        raise ConversionError(path, f"not text UTF-8 can encode: {problem}")
    return text


def _part_kind(kind: object) -> str:
    if kind is _MISSING:
        return "no type"
    if not isinstance(kind, str):
        return f"a {describe(kind)} part"
    also = " (or refusal_as_text=True to read it as text)" if kind == "refusal" else ""
    return f"a {describe(kind)} part: pass drop_parts=[{kind!r}] to leave such parts out{also}"


def _only(path: Path, entry: Mapping[str, Any], kept: tuple[str, ...], dropped: frozenset[str]) -> None:
    # A key that says nothing (null, []) is what SDKs write for unused options:
    # reading past it loses nothing. Anything else would be lost, but by request.
    for key, value in entry.items():
        if key not in kept and key not in dropped and not carries_nothing(value):
            names = " and ".join(kept)
            raise ConversionError(
                (*path, str(key)),
                f"would be lost: a dialog keeps only {names} here (null or [] is read as absent); "
                f"pass drop_keys=[{str(key)!r}] to leave it out",
            )


def _object(path: Path, value: object) -> Mapping[str, Any]:
    if isinstance(value, BaseModel):
        # An SDK's object (a pydantic model) is read as the JSON it stands for, under the API's names.
        try:
            return value.model_dump(mode="json", by_alias=True, warnings=False)
        except Exception as error:  # built unchecked (model_construct), or an SDK's own bug: whatever it raises
            raise ConversionError(path, f"could not read the SDK object: {error}") from error
    if not isinstance(value, Mapping):
        raise ConversionError(path, f"expected an object; found {describe(value)}")
    return cast("Mapping[str, Any]", value)


def _sequence(path: Path, value: object, expected: str) -> Sequence[object]:
    if isinstance(value, (str, bytes, bytearray)) or not isinstance(value, Sequence):
        raise ConversionError(path, f"expected {expected}; found {describe(value)}")
    return cast("Sequence[object]", value)


# --- the dialog ------------------------------------------------------------------------------


def dialog_document(turns: list[Turn], fields: DialogFields) -> dict[str, Any]:
    """The dialog to validate: the turns as messages, with the given fields and the defaults of the others."""
    now = Timestamp.now()
    stamps = _stamps(fields["timestamps"], len(turns), now)
    meta = fields["meta"]
    document: dict[str, Any] = {
        "meta": new_meta(now) if meta is None else meta,
        "dialog_id": _given_or_new(fields["dialog_id"]),
        "context_id": _given_or_new(fields["context_id"]),
        "status": fields["status"],
        "messages": [{"role": role, "content": text, "timestamp": stamp} for (role, text), stamp in zip(turns, stamps)],
    }
    optional = {"thread_id": fields["thread_id"], "started_at": fields["started_at"], "ended_at": fields["ended_at"]}
    document.update({name: value for name, value in optional.items() if value is not None})
    return document


def _given_or_new(value: str | None) -> str:
    return new_id() if value is None else value


def _stamps(given: str | Sequence[str] | None, count: int, now: Timestamp) -> list[str]:
    if given is None:
        return [now] * count
    if isinstance(given, str):
        return [given] * count
    _sequence(("timestamps",), given, "a timestamp or a list of them")
    stamps = list(given)  # each is checked as its message's timestamp
    if len(stamps) != count:
        raise ConversionError(
            ("timestamps",), f"{len(stamps)} given for {count} messages; give one per message, in order"
        )
    return stamps


publish(__name__)  # the public classes above, shown as mplp_models.chat.<name>
