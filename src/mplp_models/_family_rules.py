"""Rules of the event families, integration events and learning samples that their schemas cannot say.

Each rule is taken from upstream's invariant files (``invariants/families/`` of
MPLP v1.0: observability, integration, learning, MAP), or is an order or
uniqueness the payload's own meaning requires; the docstring of each base names
its sources. Upstream's ``uuid-v4`` invariants are not applied: the schemas say
``format: uuid``, which draft-07 does not assert, and upstream's own examples
carry ids such as ``evt-flow01-intent-001``. Rules that span documents (an SA's
plan and context, a MAP session's Collab) are the session checks' business; the
MAP pairing of dispatched and completed turns, over a list of MAP events, is
``check_map_events``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from mplp_models._formats import Timestamp
from mplp_models._open_models import OpenObjectBehaviour
from mplp_models._rules import RuledModel, RuleViolation, duplicate_ids
from mplp_models._timestamp_order import as_compared, is_before

if TYPE_CHECKING:
    from mplp_models._generated.mplp.v1_0.events.mplp_map_event_schema import MAPEvent

__all__ = [
    "EventCoreBehaviour",
    "GitEventBehaviour",
    "LearningSampleCoreBehaviour",
    "PipelineStageEventBehaviour",
    "RunEventBehaviour",
    "check_map_events",
]


def _not_empty(value: str | None, loc: tuple[str | int, ...], invariant: str) -> Iterator[RuleViolation]:
    if value is None or value:
        return
    where = ".".join(map(str, loc))
    yield RuleViolation(loc, "empty_text", f"{where} is empty; upstream's {invariant} requires a non-empty string")


class EventCoreBehaviour(OpenObjectBehaviour, RuledModel, frozen=True):
    """Rules of ``EventCore`` and its families: ``event_type`` is not empty (``obs_event_type_non_empty``)."""

    if TYPE_CHECKING:
        event_type: str

    def _violations(self) -> Iterator[RuleViolation]:
        return _not_empty(self.event_type, ("event_type",), "obs_event_type_non_empty")


class PipelineStageEventBehaviour(EventCoreBehaviour, frozen=True):
    """Rules of ``PipelineStageEvent``: the core's, and ``stage_id`` is not empty
    (``obs_pipeline_stage_id_non_empty``)."""

    if TYPE_CHECKING:
        stage_id: str

    def _violations(self) -> Iterator[RuleViolation]:
        yield from super()._violations()
        yield from _not_empty(self.stage_id, ("stage_id",), "obs_pipeline_stage_id_non_empty")


class RunEventBehaviour(RuledModel, frozen=True):
    """Rules of ``CIEvent`` and ``ToolEvent``: a run or an invocation does not complete before it started.

    Upstream's integration invariants ask each of ``started_at`` and ``completed_at`` to be a
    date-time (the schema says so); their order is what the two names mean.
    """

    if TYPE_CHECKING:
        started_at: Timestamp | None
        completed_at: Timestamp | None

    def _violations(self) -> Iterator[RuleViolation]:
        started, completed = self.started_at, self.completed_at
        if started is None or completed is None or not is_before(completed, started):
            return
        completed_text, started_text = as_compared(completed, started)
        message = f"completed_at {completed_text} is before started_at {started_text}"
        yield RuleViolation(("completed_at",), "completed_before_start", message)


class GitEventBehaviour(RuledModel, frozen=True):
    """Rules of ``GitEvent``: no parent commit twice (a merge's parents are distinct commits)."""

    if TYPE_CHECKING:
        parent_commits: tuple[str, ...] | None

    def _violations(self) -> Iterator[RuleViolation]:
        return _duplicates(self.parent_commits or (), ("parent_commits",), "parent commit")


def _duplicates(values: Sequence[str], where: tuple[str, ...], noun: str) -> Iterator[RuleViolation]:
    """``duplicate_ids`` for a list of plain ids (no id field in each item): located at the repeated item."""
    for violation in duplicate_ids(values, "_", "_", noun):
        yield RuleViolation(
            (*where, violation.loc[1]), f"duplicate_{where[-1]}", violation.message.replace("_ ", "item ")
        )


class LearningSampleCoreBehaviour(OpenObjectBehaviour, RuledModel, frozen=True):
    """Rules of ``LearningSampleCore`` and its families, from upstream's learning invariants.

    ``sample_family`` is not empty (``learning_sample_family_non_empty``), nor is
    ``meta.source_flow_id`` where given (``learning_sample_source_flow_non_empty``);
    ``meta.source_event_ids`` names no event twice. The delta family's
    ``input.delta_id`` (``learning_delta_has_delta_id``) and the intent family's
    ``input.intent_id`` (``learning_intent_has_intent_id``) are not empty.
    """

    if TYPE_CHECKING:
        sample_family: str
        meta: Any
        input: Any

    _input_ids: ClassVar[tuple[tuple[str, str], ...]] = ()  # (field of input, upstream invariant), per family

    def _violations(self) -> Iterator[RuleViolation]:
        yield from _not_empty(self.sample_family, ("sample_family",), "learning_sample_family_non_empty")
        if self.meta is not None:
            flow = self.meta.source_flow_id
            yield from _not_empty(flow, ("meta", "source_flow_id"), "learning_sample_source_flow_non_empty")
            yield from _duplicates(self.meta.source_event_ids or (), ("meta", "source_event_ids"), "event")
        for name, invariant in self._input_ids:
            yield from _not_empty(getattr(self.input, name), ("input", name), invariant)


class DeltaImpactSampleBehaviour(LearningSampleCoreBehaviour, frozen=True):
    """Rules of ``DeltaImpactSample``: the core's, and ``input.delta_id`` is not empty."""

    _input_ids: ClassVar[tuple[tuple[str, str], ...]] = (("delta_id", "learning_delta_has_delta_id"),)


class IntentResolutionSampleBehaviour(LearningSampleCoreBehaviour, frozen=True):
    """Rules of ``IntentResolutionSample``: the core's, and ``input.intent_id`` is not empty."""

    _input_ids: ClassVar[tuple[tuple[str, str], ...]] = (("intent_id", "learning_intent_has_intent_id"),)


def check_map_events(events: Iterable[MAPEvent]) -> list[RuleViolation]:
    """What a list of MAP events, in the order they were emitted, breaks; empty when nothing.

    Each MAP event is a document of its own, so these rules hold over a sequence
    (a session's events, or several sessions' interleaved). Locations start with
    the event's position in the list. From upstream's ``map-invariants.yaml``:

    * ``map_turn_completion_matches_dispatch``: every ``MAPTurnDispatched`` has a
      later ``MAPTurnCompleted`` of the same ``session_id`` and ``payload.role_id``
      (and ``payload.turn_number``, where both give one) — ``turn_not_completed``;
    * ``map_broadcast_has_receivers``: a session with a ``MAPBroadcastSent`` has a
      later ``MAPBroadcastReceived`` — ``broadcast_not_received``.

    And what a sequence of events means: no ``event_id`` twice (``duplicate_event_id``),
    and within a session no event earlier than the one before it (``timestamp_out_of_order``).
    """
    listed = list(events)
    found = [
        RuleViolation((violation.loc[1], "event_id"), violation.code, violation.message)
        for violation in duplicate_ids([event.event_id for event in listed], "events", "event_id", "event")
    ]
    last: dict[str, tuple[int, Timestamp]] = {}
    for position, event in enumerate(listed):
        before = last.get(event.session_id)
        if before is not None and is_before(event.timestamp, before[1]):
            at, other = as_compared(event.timestamp, before[1])
            message = (
                f"event {event.event_id} at {at} is before event {before[0]} of session {event.session_id} at {other}"
            )
            found.append(RuleViolation((position, "timestamp"), "timestamp_out_of_order", message))
        last[event.session_id] = (position, event.timestamp)
    found += _unpaired_turns(listed) + _unreceived_broadcasts(listed)
    return sorted(found, key=lambda violation: violation.loc[0])


def _turn(event: MAPEvent) -> tuple[str, object, object]:
    payload = event.payload or {}
    return event.session_id, payload.get("role_id"), payload.get("turn_number")


def _unpaired_turns(events: list[MAPEvent]) -> list[RuleViolation]:
    found: list[RuleViolation] = []
    for position, event in enumerate(events):
        if event.event_type != "MAPTurnDispatched":
            continue
        session, role, turn = _turn(event)
        completed = any(
            later.event_type == "MAPTurnCompleted"
            and _turn(later)[:2] == (session, role)
            and (turn is None or _turn(later)[2] in (None, turn))
            for later in events[position + 1 :]
        )
        if not completed:
            message = (
                f"turn {turn} dispatched to role {role} in session {session} "
                f"by event {event.event_id} is never completed"
            )
            found.append(RuleViolation((position, "event_type"), "turn_not_completed", message))
    return found


def _unreceived_broadcasts(events: list[MAPEvent]) -> list[RuleViolation]:
    found: list[RuleViolation] = []
    for position, event in enumerate(events):
        if event.event_type != "MAPBroadcastSent":
            continue
        received = any(
            later.event_type == "MAPBroadcastReceived" and later.session_id == event.session_id
            for later in events[position + 1 :]
        )
        if not received:
            message = f"broadcast {event.event_id} in session {event.session_id} is received by no role"
            found.append(RuleViolation((position, "event_type"), "broadcast_not_received", message))
    return found
