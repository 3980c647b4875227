"""Dialog messages to and from the chat formats of OpenAI (Chat Completions) and Anthropic (Messages).

Both formats carry a role and text per message, and nothing of what else a
dialog holds; the mapping is in docs/interop.md. What a format cannot carry is
refused with a ``ConversionError`` naming its path, unless the caller opts into
the lossy mapping by name (``agent_role``, ``drop_events``, ``join_parts``).
"""

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, cast

# No `from __future__ import annotations` here: TypedDict reads NotRequired only from
# evaluated annotations. typing_extensions' TypedDict reads it on Python 3.10 too.
from typing_extensions import NotRequired, TypedDict

from mplp_models._conversion import ConversionError, carries_nothing, describe
from mplp_models._ids import new_id, new_meta
from mplp_models._types import Timestamp

if TYPE_CHECKING:
    from mplp_models._generated.mplp.v1_0.common.metadata_schema import Metadata
    from mplp_models._generated.mplp.v1_0.mplp_dialog_schema import DialogMessage, DialogStatus

__all__ = [
    "AgentRole",
    "AnthropicChat",
    "AnthropicChatMessage",
    "AnthropicTextBlock",
    "DialogFields",
    "OpenAIChatMessage",
    "dialog_document",
    "read_anthropic",
    "read_openai",
    "to_anthropic",
    "to_openai",
]

AgentRole = Literal["user", "assistant"]
"""The chat role that MPLP ``agent`` messages are written as, when the caller opts into that lossy mapping."""

Turn = tuple[str, str]  # an MPLP role and the message's text
Path = tuple[str | int, ...]


class OpenAIChatMessage(TypedDict):
    """One message of an OpenAI Chat Completions ``messages`` list, as a dialog writes it."""

    role: Literal["system", "developer", "user", "assistant"]
    content: str


class AnthropicChatMessage(TypedDict):
    """One message of an Anthropic Messages API ``messages`` list, as a dialog writes it."""

    role: Literal["user", "assistant"]
    content: str


class AnthropicTextBlock(TypedDict):
    """A text block of an Anthropic ``system`` prompt: one per system message when a dialog has several."""

    type: Literal["text"]
    text: str


class AnthropicChat(TypedDict):
    """The ``system`` and ``messages`` of an Anthropic Messages API request body.

    ``system`` is absent when the dialog has no system message, a string for
    one, and a list of text blocks (one per message) for several.
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
        written.append(
            {
                "role": "developer" if role == "system" and system_role == "developer" else role,
                "content": message.content,
            }
        )
    return written


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
        if role != "system":
            chat.append({"role": role, "content": message.content})
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
_OPENAI_ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant"}
_ANTHROPIC_ROLES = {"user": "user", "assistant": "assistant"}


def read_openai(messages: object, *, join_parts: str | None) -> list[Turn]:
    """The role and text of each OpenAI message; a ``ConversionError`` for what a dialog cannot carry."""
    return _read_messages(messages, _OPENAI_ROLES, join_parts)


def read_anthropic(messages: object, system: object, *, join_parts: str | None) -> list[Turn]:
    """The system prompt, then the role and text of each message; a ``ConversionError`` for what a dialog cannot carry."""
    return [("system", text) for text in _system_texts(system)] + _read_messages(messages, _ANTHROPIC_ROLES, join_parts)


def _read_messages(messages: object, roles: Mapping[str, str], join_parts: str | None) -> list[Turn]:
    turns: list[Turn] = []
    for index, message in enumerate(_sequence(("messages",), messages, "a list of message objects")):
        path: Path = ("messages", index)
        entry = _object(path, message)
        turns.append((_role(path, entry, roles), _content(path, entry, join_parts)))
    return turns


def _system_texts(system: object) -> list[str]:
    """A string is one system message; a list of text blocks is one message per block."""
    if system is None:
        return []
    if isinstance(system, str):
        return [system]
    blocks = _sequence(("system",), system, "a string or a list of text blocks")
    return [_text_part(("system", index), block) for index, block in enumerate(blocks)]


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


def _content(path: Path, entry: Mapping[str, Any], join_parts: str | None) -> str:
    """The text of a message: a string, or its text parts; every other key must carry nothing."""
    _only(path, entry, ("role", "content"))
    where = (*path, "content")
    content = entry.get("content", _MISSING)
    if isinstance(content, str):
        return content
    if content is _MISSING or content is None:
        found = "absent" if content is _MISSING else "null"
        raise ConversionError(where, f"a dialog message needs text; found {found}")
    parts = _sequence(where, content, "a string or a list of text parts")
    texts = [_text_part((*where, index), part) for index, part in enumerate(parts)]
    if not texts:
        raise ConversionError(where, "a dialog message needs text; found an empty list of parts")
    if len(texts) > 1 and join_parts is None:
        raise ConversionError(
            where,
            f"{len(texts)} text parts, and a dialog message holds one text; pass join_parts (such as '\\n\\n') to join them",
        )
    return (join_parts or "").join(texts)


def _text_part(path: Path, part: object) -> str:
    """The text of a ``{"type": "text", "text": ...}`` part or block; other kinds are refused."""
    entry = _object(path, part)
    kind = entry.get("type", _MISSING)
    if kind != "text":
        found = "no type" if kind is _MISSING else f"a {describe(kind)} part"
        raise ConversionError((*path, "type"), f"a dialog message holds text only; found {found}")
    text = entry.get("text", _MISSING)
    if not isinstance(text, str):
        raise ConversionError(
            (*path, "text"), f"expected a string; found {'nothing' if text is _MISSING else describe(text)}"
        )
    _only(path, entry, ("type", "text"))
    return text


def _only(path: Path, entry: Mapping[str, Any], kept: tuple[str, ...]) -> None:
    # A key that says nothing (null, []) is what SDKs write for unused options:
    # reading past it loses nothing. Anything else would be lost.
    for key, value in entry.items():
        if key not in kept and not carries_nothing(value):
            names = " and ".join(kept)
            raise ConversionError(
                (*path, str(key)), f"would be lost: a dialog keeps only {names} here (null or [] is read as absent)"
            )


def _object(path: Path, value: object) -> Mapping[str, Any]:
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
