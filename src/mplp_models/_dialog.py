"""Dialog rules: its timeline; and its lifecycle."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from typing_extensions import Self

from mplp_models._semantic import RuledModel, RuleViolation
from mplp_models._types import Timestamp

if TYPE_CHECKING:
    from mplp_models._generated.mplp.v1_0.mplp_dialog_schema import DialogMessage, DialogStatus

__all__ = ["DIALOG_MOVES", "DialogBase"]

DIALOG_MOVES: dict[str, tuple[str, ...]] = {
    "active": ("paused", "completed", "cancelled"),
    "paused": ("active", "completed", "cancelled"),
    "completed": (),
    "cancelled": (),
}


class DialogBase(RuledModel):
    """Behaviour of ``Dialog``: messages fall within its start and end; its lifecycle."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = DIALOG_MOVES

    if TYPE_CHECKING:
        status: DialogStatus
        messages: list[DialogMessage]
        started_at: Timestamp | None
        ended_at: Timestamp | None

    def transition(self, to: DialogStatus | str) -> Self:
        """Move the dialog to ``to`` and return it; a ``ValueError`` if the move is not legal.

        active -> paused | completed | cancelled; paused -> active | completed | cancelled.
        Completing or cancelling sets ``ended_at`` to now when it is not set.
        """
        target = self._check_move(self.status, to, type(self.status))
        if target.value in ("completed", "cancelled") and self.ended_at is None:
            self.ended_at = Timestamp.now()
        self.status = target
        return self

    def _violations(self) -> list[RuleViolation]:
        found: list[RuleViolation] = []
        start = self.started_at.instant() if self.started_at is not None else None
        end = self.ended_at.instant() if self.ended_at is not None else None
        if start is not None and end is not None and end < start:
            found.append(RuleViolation(
                ("ended_at",), "ended_before_start", f"ended_at {self.ended_at} is before started_at {self.started_at}"
            ))  # fmt: skip
        for position, message in enumerate(self.messages):
            moment = message.timestamp.instant()
            loc = ("messages", position, "timestamp")
            if start is not None and moment < start:
                found.append(RuleViolation(
                    loc, "message_before_start", f"message {position} at {message.timestamp} is before started_at {self.started_at}"
                ))  # fmt: skip
            if end is not None and moment > end:
                found.append(RuleViolation(
                    loc, "message_after_end", f"message {position} at {message.timestamp} is after ended_at {self.ended_at}"
                ))  # fmt: skip
        return found
