"""Dialog rules: its timeline; and its lifecycle."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias, cast

from pydantic import BaseModel, ValidationError
from typing_extensions import Self, TypedDict

from mplp_models import _fastpath
from mplp_models._edits import UNKNOWN, constructed, item_class, of_kind, recall, remember
from mplp_models._errors import EditError, validated_copy, validated_new
from mplp_models._fast_shapes import is_plain
from mplp_models._formats import Timestamp
from mplp_models._generated.mplp.v1_0.common.common_types_schema import Governance
from mplp_models._ids import new_id, new_meta
from mplp_models._rules import RuledModel, RuleViolation
from mplp_models._timestamp_order import as_compared, earliest_and_latest, is_before

if TYPE_CHECKING:
    from mplp_models._chat import AgentRole, AnthropicChat, OpenAIChatMessage
    from mplp_models._generated.mplp.v1_0.common.metadata_schema import Metadata
    from mplp_models._generated.mplp.v1_0.mplp_context_schema import Context
    from mplp_models._generated.mplp.v1_0.mplp_dialog_schema import (
        Dialog,
        DialogMessage,
        DialogMessageRole,
        DialogMessageRoleValue,
        DialogStatus,
        DialogStatusValue,
    )

__all__ = ["DIALOG_MOVES", "DialogBehaviour", "DialogGovernance"]

_TIMESTAMP = attrgetter("timestamp")  # a message's, at C speed
_Bound: TypeAlias = "tuple[Timestamp, tuple[int, str]] | None"  # started_at or ended_at with its instant(), if set

DialogGovernance = Governance
"""The governance block of a ``Dialog``: the ``Governance`` that every module shares, under the name it had first."""

DIALOG_MOVES: dict[str, tuple[str, ...]] = {
    "active": ("paused", "completed", "cancelled"),
    "paused": ("active", "completed", "cancelled"),
    "completed": (),
    "cancelled": (),
}


class DialogBehaviour(RuledModel, frozen=True):
    """Behaviour of ``Dialog``: messages fall within its start and end; its lifecycle."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = DIALOG_MOVES

    if TYPE_CHECKING:
        status: DialogStatus
        messages: tuple[DialogMessage, ...]
        started_at: Timestamp | None
        ended_at: Timestamp | None

    @classmethod
    def new(
        cls,
        context: Context,
        *,
        thread_id: str | None = None,
        status: DialogStatus | DialogStatusValue = "active",
        at: str | None = None,
    ) -> Self:
        """A dialog of ``context``, without messages yet: a fresh ``dialog_id``, ``context_id`` naming the context.

        ``add_message`` (and ``add_openai_reply``, ``add_anthropic_reply``) add its messages.

        Args:
            context: The session's context.
            thread_id: The thread of dialogs it belongs to; default none.
            status: Default active.
            at: When it started (an RFC 3339 timestamp: ``started_at`` and ``meta.created_at``); default now.

        Raises:
            TypeError: If ``context`` is not a ``Context``.
            EditError: If a value breaks the schema (``thread_id`` no MPLP id, ``at`` no timestamp).
        """
        of_kind(context, "Context", "Dialog.new's context")
        now = str(Timestamp.now()) if at is None else at
        data: dict[str, Any] = {
            "meta": new_meta(now),
            "dialog_id": new_id(),
            "context_id": context.context_id,
            "status": getattr(status, "value", status),
            "messages": [],
            "started_at": now,
        }
        if thread_id is not None:
            data["thread_id"] = thread_id
        return validated_new(cls, data)

    def transition(self, to: DialogStatus | DialogStatusValue, *, at: str | None = None) -> Self:
        """The dialog moved to another status.

        active -> paused | completed | cancelled; paused -> active | completed | cancelled.
        Completing or cancelling sets ``ended_at``: to ``at`` when given, else to
        now when it is not set (a set one is kept).

        Args:
            to: The new status, a member or its value.
            at: When the dialog ended, for a move to completed or cancelled (an RFC 3339 timestamp).

        Returns:
            A new dialog; this one is unchanged.

        Raises:
            EditError: If the lifecycle has no such move (``illegal_move``), ``at`` is given for a move
                that stamps no time (``nothing_to_stamp``), or the moved dialog breaks a rule.
        """
        target = self._check_move(to)
        update: dict[str, Any] = {"status": target}
        ends = target.value in ("completed", "cancelled")
        if at is not None and not ends:
            raise EditError(
                "nothing_to_stamp",
                f"at= is the time a dialog ended: a move to {target.value} stamps no time",
                "/status",
            )
        if ends and at is not None:
            update["ended_at"] = at
        elif ends and self.ended_at is None:
            update["ended_at"] = Timestamp.now()
        return validated_copy(self, update)

    def add_message(
        self, role: DialogMessageRole | DialogMessageRoleValue, content: str, *, at: str | None = None
    ) -> Self:
        """The dialog with one more message.

        Args:
            role: Who speaks: user, assistant, system or agent.
            content: The message's text.
            at: Its timestamp (an RFC 3339 timestamp); default now.

        Returns:
            A new dialog; this one is unchanged.

        Raises:
            EditError: If the message breaks the schema, or the dialog a rule (``message_after_end``: a
                completed dialog takes no message later than its end).
        """
        return self._appended((role, content), at)

    def append(self, role: DialogMessageRole | DialogMessageRoleValue, content: str, *, at: str | None = None) -> Self:
        """``add_message``, under the name it had first: the dialog with one more message."""
        return self._appended((role, content), at)

    def _violations(self) -> Iterator[RuleViolation]:
        started, ended = self.started_at, self.ended_at
        if started is not None and ended is not None and is_before(ended, started):
            end_text, start_text = as_compared(ended, started)
            said = f"ended_at {end_text} is before started_at {start_text}"
            yield RuleViolation(("ended_at",), "ended_before_start", said)
        if not self.messages or (started is None and ended is None) or self._all_within(started, ended):
            return  # nothing for a message to fall outside of
        start = (started, started.instant()) if started is not None else None
        end = (ended, ended.instant()) if ended is not None else None
        for position, message in enumerate(self.messages):
            yield from self._outside(position, message, start, end)

    def _all_within(self, started: Timestamp | None, ended: Timestamp | None) -> bool:
        """Whether every message falls within the start and the end, found at C speed; ``False`` is no verdict.

        Fast path, the common case: the earliest and the latest message fall within, so every
        message does. It relies on ``earliest_and_latest`` and ``is_before`` ordering by instant
        (tested against ``instant()`` in tests/test_performance_paths.py and
        tests/test_timestamp_order.py). Off (``_fastpath``): False, and each message is checked.
        """
        if not _fastpath.ENABLED:
            return False
        earliest, latest = earliest_and_latest(list(map(_TIMESTAMP, self.messages)))
        return (started is None or not is_before(earliest, started)) and (ended is None or not is_before(ended, latest))

    def _outside(self, position: int, message: DialogMessage, start: _Bound, end: _Bound) -> Iterator[RuleViolation]:
        """The timeline rules of one message: not before ``started_at``, not after ``ended_at`` (each with its
        instant, read once for every message)."""
        moment = message.timestamp.instant()
        loc = ("messages", position, "timestamp")
        if start is not None and moment < start[1]:
            at, other = as_compared(message.timestamp, start[0])
            yield RuleViolation(loc, "message_before_start", f"message {position} at {at} is before started_at {other}")
        if end is not None and moment > end[1]:
            at, other = as_compared(message.timestamp, end[0])
            yield RuleViolation(loc, "message_after_end", f"message {position} at {at} is after ended_at {other}")

    # --- chat formats (the mapping: docs/interop.md; the work: _chat, imported when one is called) ---

    def to_openai_messages(
        self,
        *,
        agent_role: AgentRole | None = None,
        system_role: Literal["system", "developer"] = "system",
        drop_events: bool = False,
    ) -> list[OpenAIChatMessage]:
        """The messages as an OpenAI Chat Completions ``messages`` list: ``[{"role": ..., "content": ...}, ...]``.

        system, user and assistant messages keep their role (system is written
        ``developer`` with ``system_role="developer"``) and their text. The
        timestamps and every field outside the messages are left out: the format
        has no place for them (``from_openai_messages`` takes them back).
        A ``ConversionError`` (a ``ValueError``) names the first message that the
        format cannot carry: an ``agent`` message, unless ``agent_role`` says
        which role to write it as (it then reads back as that role), and a
        message with an ``event``, unless ``drop_events=True`` leaves events out.
        The list goes into the openai SDK's ``chat.completions.create(messages=...)``
        as it is, typed: no cast.
        """
        from mplp_models import _chat  # here: the chat formats load on first use, not with the model

        return _chat.to_openai(self.messages, agent_role=agent_role, system_role=system_role, drop_events=drop_events)

    def to_anthropic_messages(self, *, agent_role: AgentRole | None = None, drop_events: bool = False) -> AnthropicChat:
        """The ``system`` and ``messages`` of an Anthropic Messages API request, to splat into its body.

        The system messages that open the dialog make the top-level ``system``: a
        string for one, a list of ``{"type": "text", "text": ...}`` blocks for
        several, absent for none. The other messages keep their role and text.
        A ``ConversionError`` (a ``ValueError``) names the first message that the
        format cannot carry: a system message after the conversation has begun,
        and, as in ``to_openai_messages``, an ``agent`` message unless
        ``agent_role`` is given and a message with an ``event`` unless
        ``drop_events=True``. The timestamps and the fields outside the messages
        are left out (``from_anthropic_messages`` takes them back).
        The dict goes into the anthropic SDK's ``messages.create(**chat, ...)`` as
        it is, typed: no cast.
        """
        from mplp_models import _chat  # here: the chat formats load on first use, not with the model

        return _chat.to_anthropic(self.messages, agent_role=agent_role, drop_events=drop_events)

    @classmethod
    def from_openai_messages(
        cls,
        messages: Sequence[Mapping[str, Any] | BaseModel],
        *,
        dialog_id: str | None = None,
        context_id: str | None = None,
        thread_id: str | None = None,
        status: DialogStatus | DialogStatusValue = "active",
        meta: Metadata | Mapping[str, Any] | None = None,
        timestamps: str | Sequence[str] | None = None,
        started_at: str | None = None,
        ended_at: str | None = None,
        join_parts: str | None = None,
        drop_keys: Collection[str] = (),
        drop_parts: Collection[str] = (),
        refusal_as_text: bool = False,
    ) -> Self:
        """A validated dialog of an OpenAI Chat Completions ``messages`` list.

        Roles system (and ``developer``, read as system), user and assistant;
        content a string, or a list of text parts (one, or several joined with
        ``join_parts``). A message is a dict or an SDK object, such as the
        ``ChatCompletionMessage`` of ``completion.choices[0].message``. What a
        dialog cannot carry is refused: tool and function messages, other parts
        than text, a refusal, and any other key that says something (``name``,
        ``tool_calls``, ``audio``...; ``null`` and ``[]`` are read as absent).

        The fields the format lacks: ``dialog_id`` and ``context_id`` default to
        fresh UUID v4 ids, ``status`` to active, ``meta`` to protocol and schema
        version 1.0.0 created now; ``thread_id``, ``started_at`` and ``ended_at``
        are left out unless given.

        Args:
            messages: The messages, dicts or pydantic models (the SDK's objects).
            dialog_id: The dialog's id; default a fresh one.
            context_id: The context's id; default a fresh one.
            thread_id: The thread's id; default none.
            status: The dialog's status; default active.
            meta: The dialog's metadata; default version 1.0.0 created now.
            timestamps: One per message in order, or one for all; default now.
            started_at: When the dialog started; default not given.
            ended_at: When the dialog ended; default not given.
            join_parts: The separator that joins several text parts of a message into its text.
            drop_keys: Keys of a message or part to leave out when they say something (``"annotations"``...).
            drop_parts: Types of content parts to leave out (``"image_url"``, ``"refusal"``...).
            refusal_as_text: Read a refusal (the ``refusal`` key, or a refusal part) as the message's text.

        Returns:
            The dialog, validated with its rules.

        Raises:
            ConversionError: For what a dialog cannot carry; it names its path (``messages[2].tool_calls``).
            ValidationError: If the dialog breaks the schema or a rule (a timestamp before ``started_at``...).
            TypeError: For an option of the wrong type (``drop_keys=None``...).
        """
        from mplp_models import _chat  # here: the chat formats load on first use, not with the model

        options = _chat.reading(
            join_parts=join_parts, drop_keys=drop_keys, drop_parts=drop_parts, refusal_as_text=refusal_as_text
        )
        fields: _chat.DialogFields = {
            "dialog_id": dialog_id,
            "context_id": context_id,
            "thread_id": thread_id,
            "status": status,
            "meta": meta,
            "timestamps": timestamps,
            "started_at": started_at,
            "ended_at": ended_at,
        }
        return cls.model_validate(_chat.dialog_document(_chat.read_openai(messages, options), fields))

    @classmethod
    def from_anthropic_messages(
        cls,
        messages: Sequence[Mapping[str, Any] | BaseModel],
        *,
        system: str | Sequence[Mapping[str, Any] | BaseModel] | None = None,
        dialog_id: str | None = None,
        context_id: str | None = None,
        thread_id: str | None = None,
        status: DialogStatus | DialogStatusValue = "active",
        meta: Metadata | Mapping[str, Any] | None = None,
        timestamps: str | Sequence[str] | None = None,
        started_at: str | None = None,
        ended_at: str | None = None,
        join_parts: str | None = None,
        drop_keys: Collection[str] = (),
        drop_parts: Collection[str] = (),
        refusal_as_text: bool = False,
    ) -> Self:
        """A validated dialog of an Anthropic Messages API ``system`` and ``messages``
        (``from_anthropic_messages(**chat)``).

        ``system`` opens the dialog: a string is one system message, a list of
        text blocks one system message per block. Roles user and assistant;
        content a string, or a list of text blocks (one, or several joined with
        ``join_parts``). A message is a ``MessageParam`` dict (its blocks dicts or
        SDK objects, as ``Message.to_param()`` gives them) or a response
        ``Message``, whose role and content are read (its id, model, usage and
        stop reason tell of the request). What a dialog cannot carry is refused:
        a system role in ``messages``, other blocks than text (images, tool use,
        tool results, thinking...), a response whose stop reason is
        ``refusal``, and any other key that says something (``cache_control``,
        ``citations`` with entries...; ``null`` and ``[]`` are read as absent).

        Args:
            messages: The messages, dicts or pydantic models (the SDK's objects).
            system: The system prompt: a string, or a list of text blocks.
            dialog_id: As in ``from_openai_messages``.
            context_id: As in ``from_openai_messages``.
            thread_id: As in ``from_openai_messages``.
            status: As in ``from_openai_messages``.
            meta: As in ``from_openai_messages``.
            timestamps: One per message in order, the system messages first, or one for all; default now.
            started_at: As in ``from_openai_messages``.
            ended_at: As in ``from_openai_messages``.
            join_parts: The separator that joins several text blocks of a message into its text.
            drop_keys: Keys of a message or block to leave out when they say something (``"citations"``...).
            drop_parts: Types of blocks to leave out (``"thinking"``, ``"redacted_thinking"``...).
            refusal_as_text: Read a response whose stop reason is ``refusal`` for the text it has.

        Returns:
            The dialog, validated with its rules.

        Raises:
            ConversionError: For what a dialog cannot carry; it names its path (``messages[1].content[0].type``).
            ValidationError: If the dialog breaks the schema or a rule.
            TypeError: For an option of the wrong type (``drop_keys=None``...).
        """
        from mplp_models import _chat  # here: the chat formats load on first use, not with the model

        options = _chat.reading(
            join_parts=join_parts, drop_keys=drop_keys, drop_parts=drop_parts, refusal_as_text=refusal_as_text
        )
        fields: _chat.DialogFields = {
            "dialog_id": dialog_id,
            "context_id": context_id,
            "thread_id": thread_id,
            "status": status,
            "meta": meta,
            "timestamps": timestamps,
            "started_at": started_at,
            "ended_at": ended_at,
        }
        return cls.model_validate(_chat.dialog_document(_chat.read_anthropic(messages, system, options), fields))

    def add_openai_reply(
        self,
        reply: Mapping[str, Any] | BaseModel,
        *,
        at: str | None = None,
        join_parts: str | None = None,
        drop_keys: Collection[str] = (),
        drop_parts: Collection[str] = (),
        refusal_as_text: bool = False,
    ) -> Self:
        """The dialog with one more message: an OpenAI reply, or any one message of the format.

        ``reply`` is a ``ChatCompletion`` of one choice (its message is appended;
        its id, model and usage tell of the request), a ``ChatCompletionMessage``,
        or a message dict; SDK objects or their JSON. It is read as
        ``from_openai_messages`` reads a message, with the same options.

        Args:
            reply: The completion or the message.
            at: The new message's timestamp (an RFC 3339 timestamp); default now.
            join_parts: As in ``from_openai_messages``.
            drop_keys: As in ``from_openai_messages`` (``["annotations"]`` leaves web search citations out).
            drop_parts: As in ``from_openai_messages``.
            refusal_as_text: Append a refusal as the assistant's text (refused otherwise).

        Returns:
            A new dialog; this one is unchanged.

        Raises:
            ConversionError: For what a dialog cannot carry (``tool_calls``, a refusal, audio...), or a
                completion of several choices; it names the path in ``reply`` (``choices[0].message.tool_calls``).
            EditError: If the dialog with the message breaks a rule (``message_after_end``...).
            TypeError: For an option of the wrong type (``drop_keys=None``...).
        """
        from mplp_models import _chat  # here: the chat formats load on first use, not with the model

        options = _chat.reading(
            join_parts=join_parts, drop_keys=drop_keys, drop_parts=drop_parts, refusal_as_text=refusal_as_text
        )
        return self._appended(_chat.read_openai_reply(reply, options), at)

    def add_anthropic_reply(
        self,
        reply: Mapping[str, Any] | BaseModel,
        *,
        at: str | None = None,
        join_parts: str | None = None,
        drop_keys: Collection[str] = (),
        drop_parts: Collection[str] = (),
        refusal_as_text: bool = False,
    ) -> Self:
        """The dialog with one more message: an Anthropic reply, or any one message of the format.

        ``reply`` is the ``Message`` that ``client.messages.create`` returns (its
        text blocks make an assistant message; its id, model, usage and stop
        reason tell of the request), or a ``MessageParam``; SDK objects or their
        JSON. It is read as ``from_anthropic_messages`` reads a message, with the
        same options: a reply of several text blocks (with citations, say) needs
        ``join_parts=""``, and one with thinking blocks
        ``drop_parts=["thinking", "redacted_thinking"]``.

        Args:
            reply: The response or the message.
            at: The new message's timestamp (an RFC 3339 timestamp); default now.
            join_parts: As in ``from_anthropic_messages``.
            drop_keys: As in ``from_anthropic_messages``.
            drop_parts: As in ``from_anthropic_messages``.
            refusal_as_text: Append the text of a reply whose stop reason is ``refusal`` (refused otherwise).

        Returns:
            A new dialog; this one is unchanged.

        Raises:
            ConversionError: For what a dialog cannot carry (tool use, thinking, a refusal...); it names the
                path in ``reply`` (``content[0].type``).
            EditError: If the dialog with the message breaks a rule.
            TypeError: For an option of the wrong type (``drop_keys=None``...).
        """
        from mplp_models import _chat  # here: the chat formats load on first use, not with the model

        options = _chat.reading(
            join_parts=join_parts, drop_keys=drop_keys, drop_parts=drop_parts, refusal_as_text=refusal_as_text
        )
        return self._appended(_chat.read_anthropic_reply(reply, options), at)

    def append_openai(
        self,
        reply: Mapping[str, Any] | BaseModel,
        *,
        timestamp: str | None = None,
        join_parts: str | None = None,
        drop_keys: Collection[str] = (),
        drop_parts: Collection[str] = (),
        refusal_as_text: bool = False,
    ) -> Self:
        """``add_openai_reply``, under the name it had first (its ``timestamp`` is ``at``)."""
        options: _ReplyOptions = {
            "join_parts": join_parts,
            "drop_keys": drop_keys,
            "drop_parts": drop_parts,
            "refusal_as_text": refusal_as_text,
        }
        return self.add_openai_reply(reply, at=timestamp, **options)

    def append_anthropic(
        self,
        reply: Mapping[str, Any] | BaseModel,
        *,
        timestamp: str | None = None,
        join_parts: str | None = None,
        drop_keys: Collection[str] = (),
        drop_parts: Collection[str] = (),
        refusal_as_text: bool = False,
    ) -> Self:
        """``add_anthropic_reply``, under the name it had first (its ``timestamp`` is ``at``)."""
        options: _ReplyOptions = {
            "join_parts": join_parts,
            "drop_keys": drop_keys,
            "drop_parts": drop_parts,
            "refusal_as_text": refusal_as_text,
        }
        return self.add_anthropic_reply(reply, at=timestamp, **options)

    def _appended(self, turn: tuple[DialogMessageRole | str, str], at: str | None) -> Self:
        role, text = turn
        message = {"role": role, "content": text, "timestamp": Timestamp.now() if at is None else at}
        if self._sound():
            try:
                made = item_class(type(self), "messages").model_validate(message)
            except ValidationError:
                pass  # refused again by the dialog, so that the error is located in it
            else:
                if _within(made.timestamp, self.started_at, self.ended_at):
                    # Proof: the dialog keeps its rules; the ones that read a message read its own
                    # timestamp, against the start and the end, which did not change.
                    dialog = constructed(self, messages=(*self.messages, made))
                    remember(dialog, True)
                    return dialog
        return validated_copy(self, {"messages": (*self.messages, message)})

    def _sound(self) -> bool:
        """Whether the fast paths may add to the dialog: it keeps its rules (checked once), its class is generated."""
        if not (_fastpath.ENABLED and is_plain(type(self))):
            return False
        known: bool = recall(self)
        if known is UNKNOWN:
            known = next(self._broken(), None) is None
            remember(self, known)
        return known

    # --- pictures (the drawing: _pictures, imported when one is called) ---

    def to_mermaid(self) -> str:
        """The dialog as a Mermaid sequence diagram: a participant per role, an arrow per message (docs/seeing.md)."""
        from mplp_models import _pictures  # here: the pictures load on first use, not with the model

        return _pictures.dialog_mermaid(cast("Dialog", self))


class _ReplyOptions(TypedDict):
    join_parts: str | None
    drop_keys: Collection[str]
    drop_parts: Collection[str]
    refusal_as_text: bool


def _within(moment: Timestamp, start: Timestamp | None, end: Timestamp | None) -> bool:
    """Whether ``moment`` is not before ``start`` nor after ``end`` (where set), as instants."""
    instant = moment.instant()
    return (start is None or instant >= start.instant()) and (end is None or instant <= end.instant())
