"""Inbox message rules (both Cortex modes): timestamps that match the status, a sane timeline; the lifecycle.

The general mode (``InboxMessage``) also has the broadcast rule; the code mode
(``CodeInboxMessage``) has no such recipient.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, ClassVar

from typing_extensions import Self

from mplp_models._errors import validated_copy
from mplp_models._formats import Timestamp
from mplp_models._rules import RuledModel, RuleViolation
from mplp_models._timestamp_order import as_compared, is_before, none_given_before

if TYPE_CHECKING:
    from mplp_models._generated.cortex.v1.code_mode.inbox_message_schema import (
        CodeInboxMessageStatus,
    )
    from mplp_models._generated.cortex.v1.inbox_schema import InboxMessageStatus, InboxMessageStatusValue
    from mplp_models._types import StatusEnum

__all__ = ["INBOX_MOVES", "STAMP_OF_STATUS", "CodeInboxMessageBehaviour", "InboxMessageBehaviour"]

INBOX_MOVES: dict[str, tuple[str, ...]] = {
    "unread": ("read",),
    "read": ("acknowledged", "archived"),
    "acknowledged": ("archived",),
    "archived": (),
}
STAMP_OF_STATUS = {"read": "read_at", "acknowledged": "acknowledged_at", "archived": "archived_at"}
BROADCAST = "broadcast"
_LATER = ("updated_at", "read_at", "acknowledged_at", "archived_at")  # each not before created_at
_LATER_STAMPS = attrgetter(*_LATER)
_STAMP_POSITION = {status: _LATER.index(stamp) for status, stamp in STAMP_OF_STATUS.items()}


class _InboxRules(RuledModel, frozen=True):
    """What both inbox modes share: status timestamps, the timeline, the lifecycle."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = INBOX_MOVES

    if TYPE_CHECKING:
        status: StatusEnum
        recipient_ids: tuple[str, ...]
        created_at: Timestamp
        updated_at: Timestamp
        read_at: Timestamp | None
        acknowledged_at: Timestamp | None
        archived_at: Timestamp | None

    def transition(
        self, to: InboxMessageStatus | CodeInboxMessageStatus | InboxMessageStatusValue, at: str | None = None
    ) -> Self:
        """The message moved to another status and stamped.

        unread -> read -> acknowledged -> archived, and read -> archived.

        Args:
            to: The new status, a member (of either mode's status enum: both
                modes share this lifecycle and its four values) or its value.
            at: The time of the move, set as the status's ``*_at`` and as
                ``updated_at`` (an RFC 3339 timestamp, as text or ``Timestamp``; default: now).

        Returns:
            A new message; this one is unchanged.

        Raises:
            EditError: If the lifecycle has no such move (``illegal_move``), or the moved message breaks
                the schema or a rule (``at`` not a timestamp, or before ``created_at``, say).
        """
        target = self._check_move(to)
        moment = at if at is not None else Timestamp.now()
        return validated_copy(self, {"status": target, "updated_at": moment, STAMP_OF_STATUS[target.value]: moment})

    def _violations(self) -> Iterator[RuleViolation]:
        return self._stamp_violations()

    def _plainly_sound(self) -> bool:
        """Whether the message breaks no rule, shown in a few C-level steps; ``False`` is no verdict.

        It says "sound" only where ``_violations`` yields nothing: no ``broadcast`` among other
        recipients (InboxMessage's rule; a code-mode message naming it is asked of its
        ``_violations``, which have no such rule), the status's stamp is
        set (``str`` of a ``StatusEnum`` member is its value), and each later stamp passes
        ``is_before``'s own fast test against ``created_at`` (one length, both ending in ``Z``,
        a ``T``, no ``:60``), under which ``is_before(value, created)`` is ``value < created``
        (its proof is in _timestamp_order), false exactly when ``created <= value``. The test of form is
        ``is_before``'s, written out: ``none_before`` or a call per stamp takes half again as
        long as this whole check. Stamps of other forms (offsets that differ) are asked of
        ``none_given_before``, which compares them by their fields. tests/test_rules_speed.py holds
        it to the plain rules (fast paths off) on generated messages, and fails if a part of
        the test of form is dropped.
        """
        recipients = self.recipient_ids
        if len(recipients) > 1 and BROADCAST in recipients:  # InboxMessage's _among_others, written out
            return False
        later = _LATER_STAMPS(self)
        position = _STAMP_POSITION.get(str(self.status))
        if position is not None and later[position] is None:
            return False
        created = self.created_at
        width = len(created)
        if created[-1] != "Z" or created[10] != "T" or ":60" in created:
            return none_given_before(later, created)
        for value in later:
            if value is not None and not (
                len(value) == width
                and value[-1] == "Z"
                and value[10] == "T"
                and ":60" not in value
                and created <= value
            ):
                return none_given_before(later, created)
        return True

    def _stamp_violations(self) -> Iterator[RuleViolation]:
        stamp = STAMP_OF_STATUS.get(self.status.value)
        if stamp is not None and getattr(self, stamp) is None:
            yield RuleViolation(
                (stamp,), "status_stamp_missing", f"status is {self.status.value} but {stamp} is not set"
            )
        for name in _LATER:
            value: Timestamp | None = getattr(self, name)
            if value is not None and is_before(value, self.created_at):
                later, created = as_compared(value, self.created_at)
                yield RuleViolation((name,), "before_created", f"{name} {later} is before created_at {created}")


class InboxMessageBehaviour(_InboxRules, frozen=True):
    """Behaviour of ``InboxMessage``: status timestamps, timeline and broadcast rules; its lifecycle."""

    if TYPE_CHECKING:
        status: InboxMessageStatus

    _plainly_sound = _InboxRules._plainly_sound  # its own: it holds the broadcast test (_among_others)

    def _among_others(self) -> bool:
        return BROADCAST in self.recipient_ids and len(self.recipient_ids) > 1

    def _violations(self) -> Iterator[RuleViolation]:
        yield from self._stamp_violations()
        if self._among_others():
            position = self.recipient_ids.index(BROADCAST)
            yield RuleViolation(
                ("recipient_ids", position),
                "broadcast_not_alone",
                "'broadcast' must be the only recipient, but the message also names "
                + ", ".join(r for r in self.recipient_ids if r != BROADCAST),
            )


class CodeInboxMessageBehaviour(_InboxRules, frozen=True):
    """Behaviour of ``CodeInboxMessage``: status timestamps and timeline rules; its lifecycle."""

    if TYPE_CHECKING:
        status: CodeInboxMessageStatus
