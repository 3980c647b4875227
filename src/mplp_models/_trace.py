"""Trace rules: unique segments whose parent links form a forest, the root span's trace id, the timelines; walks;
edits; lifecycle.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping, Sequence
from operator import attrgetter, le, lt
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias, cast

from pydantic import ValidationError
from typing_extensions import Self, TypedDict, Unpack

from mplp_models import _fastpath
from mplp_models._edits import (
    UNKNOWN,
    constructed,
    edited_member,
    item_class,
    of_kind,
    recall,
    refuse_extra,
    remember,
)
from mplp_models._errors import EditError, UnknownPartError, validated_copy, validated_new
from mplp_models._fast_shapes import is_plain
from mplp_models._formats import Timestamp
from mplp_models._ids import new_id, new_meta
from mplp_models._rules import RuledModel, RuleViolation, checked_move, duplicate_ids, permissive_moves
from mplp_models._timestamp_order import as_compared, in_text_order, is_before

if TYPE_CHECKING:
    from mplp_models._generated.mplp.v1_0.common.events_schema import Event
    from mplp_models._generated.mplp.v1_0.common.trace_base_schema import TraceBase
    from mplp_models._generated.mplp.v1_0.mplp_context_schema import Context
    from mplp_models._generated.mplp.v1_0.mplp_plan_schema import Plan, PlanStep
    from mplp_models._generated.mplp.v1_0.mplp_trace_schema import (
        Trace,
        TraceSegment,
        TraceSegmentStatus,
        TraceSegmentStatusValue,
        TraceStatus,
        TraceStatusValue,
    )
    from mplp_models._types import JsonObjectInput

__all__ = ["SEGMENT_MOVES", "STEP_ATTRIBUTE", "TRACE_MOVES", "SegmentChanges", "TraceBehaviour", "TraceEnd"]

_FINISHED = ("completed", "failed", "cancelled")
# Upstream defines no moves between the Trace states: any move but out of a final state.
TRACE_MOVES = permissive_moves(("pending", "running", *_FINISHED), final=_FINISHED)
# Nor between a segment's: the same, with skipped as one more way to end.
_ENDED = (*_FINISHED, "skipped")
SEGMENT_MOVES = permissive_moves(("pending", "running", *_ENDED), final=_ENDED)

TraceEnd: TypeAlias = Literal["completed", "failed", "cancelled"]
"""The states that end a trace: what ``Trace.finish`` takes."""

STEP_ATTRIBUTE = "step_id"
"""The key of a segment's ``attributes`` that names the plan step it runs (``open_segment(step=...)``).

Named as upstream's SA events name the step (``SAStepStarted``'s payload, ``step_id``);
``check_flow``'s rule ``segment_step`` holds it to a step of the trace's plan.
"""

STARTED = "trace.started"
"""The ``event_type`` of the event ``Trace.new`` records: the SA profile asks every trace for one event."""


class TraceBehaviour(RuledModel, frozen=True):
    """Behaviour of ``Trace``: segment integrity, the root span, timelines, walks, lifecycle, edits."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = TRACE_MOVES

    if TYPE_CHECKING:
        trace_id: str
        context_id: str
        plan_id: str | None
        status: TraceStatus
        root_span: TraceBase
        started_at: Timestamp | None
        finished_at: Timestamp | None
        segments: tuple[TraceSegment, ...] | None
        events: tuple[Event, ...] | None

    @classmethod
    def new(cls, context: Context, plan: Plan | None = None, *, at: str | None = None) -> Self:
        """A running trace of ``context`` (and of ``plan``): fresh trace and root span ids, started now.

        The trace, its root span and the plan all name ``context``; ``plan_id`` names ``plan``. The
        trace records one event, ``trace.started`` at its start (source ``trace``, its ``trace_id``):
        the SA profile asks every trace for at least one (``check_flow(..., profile="sa")``).

        Args:
            context: The session's context.
            plan: The plan the trace records the execution of; default none (no ``plan_id``).
            at: When it started (an RFC 3339 timestamp: ``started_at``, ``meta.created_at`` and the
                event's ``timestamp``); default now.

        Raises:
            TypeError: If ``context`` is not a ``Context``, or ``plan`` neither a ``Plan`` nor None.
            EditError: If ``plan`` belongs to another context (``plan_context``), or ``at`` is no timestamp.
        """
        of_kind(context, "Context", "Trace.new's context")
        if plan is not None:
            of_kind(plan, "Plan", "Trace.new's plan")
        if plan is not None and plan.context_id != context.context_id:
            raise EditError(
                "plan_context",
                f"plan {plan.plan_id} belongs to context {plan.context_id}, not to context {context.context_id}",
                "/context_id",
            )
        now = str(Timestamp.now()) if at is None else at
        trace_id = new_id()
        data: dict[str, Any] = {
            "meta": new_meta(now),
            "trace_id": trace_id,
            "context_id": context.context_id,
            "root_span": {"trace_id": trace_id, "span_id": new_id(), "context_id": context.context_id},
            "status": "running",
            "started_at": now,
            "events": [_event(trace_id, STARTED, now, None, "trace")],
        }
        if plan is not None:
            data["plan_id"] = plan.plan_id
        return validated_new(cls, data)

    @classmethod
    def start(cls, context: Context, plan: Plan | None = None, *, at: str | None = None) -> Self:
        """``Trace.new``, under the name it had first: a running trace of ``context`` (and of ``plan``)."""
        return cls.new(context, plan, at=at)

    def transition(self, to: TraceStatus | TraceStatusValue, *, at: str | None = None) -> Self:
        """The trace moved to ``to`` (a new trace); an ``EditError`` (``illegal_move``) if the move is not legal.

        Any state may move to any other but completed, failed and cancelled, which
        are final (upstream defines no moves). Moving to running stamps ``started_at``,
        and to a final state ``finished_at``: with ``at`` when given, else with now
        when the stamp is not set (a set one is kept); ``at`` for another move is an
        ``EditError`` (``nothing_to_stamp``). ``Trace.new`` makes a running trace already.
        """
        try:
            target = self._check_move(to)
        except EditError as error:
            if self.status.value != "running" or getattr(to, "value", to) != "running":
                raise
            hint = " (Trace.new and Trace.start make a running trace, started_at stamped: end it with finish)"
            raise EditError(error.code, error.message + hint, error.pointer) from None
        return validated_copy(self, {"status": target, **_stamps(target, self.started_at, self.finished_at, at)})

    def finish(
        self,
        status: Literal[TraceStatus.completed, TraceStatus.failed, TraceStatus.cancelled] | TraceEnd,
        *,
        at: str | None = None,
    ) -> Self:
        """The trace ended: moved to completed, failed or cancelled, ``finished_at`` stamped as ``transition`` does.

        Args:
            status: How it ended.
            at: When (an RFC 3339 timestamp); default now, unless ``finished_at`` is set.

        Returns:
            A new trace; this one is unchanged.

        Raises:
            EditError: If ``status`` does not end a trace (``not_an_end``), the trace has already ended
                (``illegal_move``), or it breaks a rule (``finished_before_start``: ``at`` before ``started_at``).
        """
        value = status.value if isinstance(status, enum.Enum) else status
        if value not in _FINISHED:
            raise EditError(
                "not_an_end", f"a trace finishes as {', '.join(_FINISHED)}, not {value!r} (use transition)", "/status"
            )
        return self.transition(status, at=at)

    # --- the segments ---

    def segment(self, segment_id: str, /) -> TraceSegment:
        """The segment with id ``segment_id`` (the first, if several have it).

        Raises:
            UnknownPartError: If no segment has it (``unknown_segment``; a ``KeyError`` too).
        """
        return self._segments[self._segment_position(segment_id)]

    @property
    def last_segment(self) -> TraceSegment:
        """The segment listed last: the one ``open_segment`` or ``add_segment`` added last.

        Raises:
            UnknownPartError: If the trace has no segment (``unknown_segment``).
        """
        if not self.segments:
            raise UnknownPartError("unknown_segment", "the trace has no segment", "/segments")
        return self.segments[-1]

    def open_segment(
        self,
        label: str,
        *,
        step: PlanStep | str | None = None,
        parent: TraceSegment | str | None = None,
        at: str | None = None,
    ) -> Self:
        """The trace with one more segment, running: a fresh ``segment_id``, ``started_at`` stamped.

        ``trace.last_segment`` is the new segment; ``transition_segment`` ends it.

        Args:
            label: What the segment is, for humans and agents.
            step: The plan step it runs (a ``PlanStep`` or its id): written as the segment's
                ``attributes["step_id"]`` (``STEP_ATTRIBUTE``), which ``check_flow`` holds to a
                step of the trace's plan (rule ``segment_step``).
            parent: The segment it is part of (a ``TraceSegment`` or its id); default none (a root).
            at: When it started (an RFC 3339 timestamp); default now.

        Returns:
            A new trace; this one is unchanged.

        Raises:
            EditError: If the segment breaks the schema (an empty ``label`` is allowed; ``at`` no timestamp)
                or a rule (``unknown_parent``: ``parent`` is no segment of the trace).
        """
        segment: dict[str, Any] = {
            "segment_id": new_id(),
            "label": label,
            "status": "running",
            "started_at": str(Timestamp.now()) if at is None else at,
        }
        if parent is not None:
            segment["parent_segment_id"] = parent if isinstance(parent, str) else parent.segment_id
        if step is not None:
            segment["attributes"] = {STEP_ATTRIBUTE: step if isinstance(step, str) else step.step_id}
        made = self._new_segment(segment)
        return self.add_segment(made)

    def add_segment(self, segment: TraceSegment, /) -> Self:
        """The trace with ``segment`` appended to its segments (a new trace; this one is unchanged).

        Raises:
            EditError: If the trace breaks a rule with it: its id already used
                (``duplicate_segment_id``), a parent that is no segment of the trace (``unknown_parent``)...
        """
        segments = (*self._segments, segment)
        known = self._known()
        if known is not None and type(segment) is item_class(type(self), "segments") and known.takes(segment):
            return self._derived(known.with_segment(segment), segments=segments)
        return validated_copy(self, {"segments": segments})

    def update_segment(self, segment_id: str, /, **changes: Unpack[SegmentChanges]) -> Self:
        """The trace with one segment's ``label``, ``parent_segment_id`` or ``attributes`` changed.

        ``None`` leaves an optional field out; the status and the stamps move with ``transition_segment``.

        Raises:
            UnknownPartError: If no segment has that id (``unknown_segment``).
            TypeError: For a field that ``update_segment`` does not change (``status``, a typo).
            EditError: If the segment breaks the schema, or the trace a rule (``parent_cycle``...).
        """
        reason = "a segment's status moves with transition_segment; its id stays"
        refuse_extra("update_segment", changes, _SEGMENT_CHANGES, reason)
        position = self._segment_position(segment_id)
        return edited_member(self, "segments", self._segments, position, changes, self._relabelled)

    def _relabelled(self, old: TraceSegment, new: TraceSegment, segments: tuple[TraceSegment, ...]) -> Self | None:
        """The trace with ``segments``, where ``new`` replaced ``old``, built unvalidated if its parent is kept."""
        known = self._known()
        if known is not None and new.parent_segment_id == old.parent_segment_id:
            # Proof: ids, parents and stamps are unchanged; no rule reads a label or the attributes.
            return self._derived(known, segments=segments)
        return None

    def transition_segment(
        self, segment_id: str, /, to: TraceSegmentStatus | TraceSegmentStatusValue, *, at: str | None = None
    ) -> Self:
        """The trace with one of its segments moved to status ``to``, and stamped.

        Any state may move to any other but completed, failed, cancelled and
        skipped, which are final (upstream defines no moves). Moving to running
        stamps the segment's ``started_at``, and to a final state its
        ``finished_at``: with ``at`` when given, else with now when the stamp is
        not set (a set one is kept).

        Args:
            segment_id: The segment's id (the first segment with it).
            to: Its new status, a member or its value.
            at: The time of the move (an RFC 3339 timestamp); default now.

        Returns:
            A new trace; this one is unchanged.

        Raises:
            UnknownPartError: If no segment has that id (``unknown_segment``).
            EditError: If the move is not legal (``illegal_move``: the message names both states), ``at``
                is given for a move that stamps no time (``nothing_to_stamp``), or the trace breaks a rule
                (``finished_before_start``: ``at`` before the segment's ``started_at``).
        """
        segments = self._segments
        position = self._segment_position(segment_id)
        segment = segments[position]
        where = f"/segments/{position}/status"
        target = checked_move("TraceSegment", segment.status, to, SEGMENT_MOVES, where)
        stamps = _stamps(target, segment.started_at, segment.finished_at, at, where)
        # An ``at`` that is no timestamp is refused again by the trace, located in it.
        return edited_member(self, "segments", segments, position, {"status": target, **stamps}, self._restamped)

    def _restamped(self, old: TraceSegment, new: TraceSegment, segments: tuple[TraceSegment, ...]) -> Self | None:
        """The trace with ``segments``, where ``new`` is ``old`` moved, built unvalidated if its stamps are in order."""
        known = self._known()
        # Proof: the ids and parents are unchanged; the one rule that reads a segment's stamps reads its own two.
        if known is not None and not _ended_before_start(new.started_at, new.finished_at):
            return self._derived(known, segments=segments)
        return None

    def remove_segment(self, segment_id: str, /) -> Self:
        """The trace without the segment of that id (the first, if several have it).

        Raises:
            UnknownPartError: If no segment has that id (``unknown_segment``).
            EditError: If other segments have it as their parent (``has_dependents``: the message names them).
        """
        position = self._segment_position(segment_id)
        children = [segment.segment_id for segment in self._segments if segment.parent_segment_id == segment_id]
        if children:
            raise EditError(
                "has_dependents",
                f"segment {segment_id} cannot be removed: it is the parent of {', '.join(children)}; "
                "remove them or move them to another parent first",
                f"/segments/{position}",
            )
        segments = (*self._segments[:position], *self._segments[position + 1 :])
        known = self._known()
        # Proof: no segment names the one removed, so every parent is still a segment; fewer links make no cycle.
        if known is not None:
            return self._derived(_TraceKnown.of(segments), segments=segments)
        return validated_copy(self, {"segments": segments})

    def add_event(
        self,
        event_type: str,
        *,
        at: str | None = None,
        data: JsonObjectInput | None = None,
        source: str = "trace",
    ) -> Self:
        """The trace with one more event: a fresh ``event_id``, this trace's ``trace_id``, stamped now.

        Args:
            event_type: Dotted lowercase words (``step.completed``): the schema's pattern.
            at: When it happened (an RFC 3339 timestamp); default now.
            data: Its payload, a JSON object; default none (no ``data``).
            source: The module or component that emitted it; default ``trace``.

        Returns:
            A new trace; this one is unchanged.

        Raises:
            EditError: If the event breaks the schema (an ``event_type`` of capitals, ``at`` no timestamp...).
        """
        document = _event(self.trace_id, event_type, str(Timestamp.now()) if at is None else at, data, source)
        try:
            event = item_class(type(self), "events").model_validate(document)
        except ValidationError:  # refused again by the trace, so that the error is located in it
            return validated_copy(self, {"events": (*(self.events or ()), document)})
        events = (*(self.events or ()), event)
        known = self._known()
        if known is not None:  # Proof: no rule of a trace reads its events.
            return self._derived(known, events=events)
        return validated_copy(self, {"events": events})

    # --- the edits' bookkeeping ---

    @property
    def _segments(self) -> tuple[TraceSegment, ...]:
        return self.segments or ()

    def _segment_position(self, segment_id: str) -> int:
        known = self._known()
        if known is not None:
            position = known.position.get(segment_id)
        else:
            position = next((i for i, segment in enumerate(self._segments) if segment.segment_id == segment_id), None)
        if position is None:
            raise UnknownPartError("unknown_segment", f"the trace has no segment {segment_id!r}", "/segments")
        return position

    def _new_segment(self, segment: dict[str, Any]) -> TraceSegment:
        try:
            made: TraceSegment = item_class(type(self), "segments").model_validate(segment)
        except ValidationError as error:  # refused again by the trace, so that the error is located in it
            validated_copy(self, {"segments": (*self._segments, segment)})
            raise EditError.of(error) from error  # not reached: the trace refuses what its segment refuses
        return made

    def _known(self) -> _TraceKnown | None:
        """What the fast paths know of the trace, if they may edit it: it is sound and its class generated.

        A trace made by a fast edit has it already; any other is checked once here, by every rule,
        so that a trace read with ``semantic=False`` is never taken for sound.
        """
        if not (_fastpath.ENABLED and is_plain(type(self))):
            return None
        known: _TraceKnown | None = recall(self)
        if known is UNKNOWN:
            known = None if next(self._broken(), None) is not None else _TraceKnown.of(self._segments)
            remember(self, known)
        return known

    def _derived(self, known: _TraceKnown, **changes: Any) -> Self:
        """This trace with ``changes``, built without validation: each caller proves the result valid."""
        trace = constructed(self, **changes)
        remember(trace, known)
        return trace

    # --- reading the segments ---

    def roots(self) -> list[TraceSegment]:
        """The segments without a parent, in list order."""
        return [segment for segment in self.segments or () if segment.parent_segment_id is None]

    def children(self, segment_id: str, /) -> list[TraceSegment]:
        """The segments whose parent is ``segment_id``, in list order.

        Raises:
            UnknownPartError: If the trace has no such segment (``unknown_segment``; a ``KeyError`` too).
        """
        self._segment_position(segment_id)
        return [segment for segment in self._segments if segment.parent_segment_id == segment_id]

    def walk(self) -> list[TraceSegment]:
        """Every segment, parents before children: depth first from each root, siblings in list order.

        A ``ValueError`` names the problem if the parent links do not form a
        forest (possible only under schema-only validation).
        """
        segments = self.segments or ()
        problem = next(_segment_integrity(segments), None)
        if problem is not None:
            raise ValueError(f"the segments cannot be walked: {problem.message}")
        below: dict[str | None, list[TraceSegment]] = {}
        for segment in segments:
            below.setdefault(segment.parent_segment_id, []).append(segment)
        order: list[TraceSegment] = []
        stack = list(reversed(below.get(None, [])))
        while stack:  # iterative, so a chain of any depth is fine
            segment = stack.pop()
            order.append(segment)
            stack.extend(reversed(below.get(segment.segment_id, [])))
        return order

    def _plainly_sound(self) -> bool:
        return _plainly_sound(self)

    def _violations(self) -> Iterator[RuleViolation]:
        yield from _segment_integrity(self.segments or ())
        if self.root_span.trace_id != self.trace_id:
            yield RuleViolation(
                ("root_span", "trace_id"),
                "root_span_other_trace",
                f"root_span.trace_id {self.root_span.trace_id} is not the trace's trace_id {self.trace_id}",
            )
        yield from _finished_before_start((), self.started_at, self.finished_at, "the trace")
        for position, segment in enumerate(self.segments or ()):
            yield from _finished_before_start(
                ("segments", position), segment.started_at, segment.finished_at, f"segment {segment.segment_id}"
            )

    # --- pictures (the drawing: _pictures, imported when one is called) ---

    def to_mermaid(self) -> str:
        """The trace as a Mermaid gantt chart: a bar per segment that started, nested by parent (docs/seeing.md)."""
        from mplp_models import _pictures  # here: the pictures load on first use, not with the model

        return _pictures.trace_mermaid(cast("Trace", self))


class SegmentChanges(TypedDict, total=False):
    """The fields of a segment that ``Trace.update_segment`` may change; ``None`` leaves an optional field out.

    Not the id (other segments name it), the status or the stamps (they move with ``transition_segment``).
    """

    label: str
    parent_segment_id: str | None
    attributes: JsonObjectInput | None


_SEGMENT_CHANGES = frozenset(SegmentChanges.__annotations__)


_SEGMENT_FIELDS = attrgetter("segment_id", "parent_segment_id", "started_at", "finished_at")


def _plainly_sound(trace: TraceBehaviour) -> bool:
    """Whether the trace breaks no rule, shown in C-speed passes over its segments; ``False`` is no verdict.

    It says "sound" only where the plain ``_violations`` yields nothing: ids unique
    (as many as the positions they map to), every parent a listed segment, no cycle of
    parent links and no self-parent (``_a_forest``), the root span's trace id the trace's,
    and no finish before its start (``_in_order``: texts ``in_text_order`` order as their
    instants do, so there ``is_before(finished, started)`` is ``finished < started``,
    false exactly when ``started <= finished``; other texts get ``is_before`` itself).
    Checked against the plain rules, fast paths off, on generated traces in
    tests/test_rules_speed.py.
    """
    if trace.root_span.trace_id != trace.trace_id:
        return False
    starts: tuple[Timestamp | None, ...] = ()
    finishes: tuple[Timestamp | None, ...] = ()
    if trace.segments:
        fields: Iterator[tuple[Any, ...]] = zip(*map(_SEGMENT_FIELDS, trace.segments))
        ids, parents, starts, finishes = fields
        if not _a_forest(ids, parents):
            return False
    return _in_order((*starts, trace.started_at), (*finishes, trace.finished_at))


def _in_order(starts: Sequence[Timestamp | None], finishes: Sequence[Timestamp | None]) -> bool:
    """Whether no finish is before its start, where both are set: in C-speed passes when the texts allow."""
    begun, ended = cast("Sequence[Timestamp]", starts), cast("Sequence[Timestamp]", finishes)
    if not (all(starts) and all(finishes)):  # the pairs with both set (a Timestamp is never empty: never false)
        pairs = [(start, end) for start, end in zip(starts, finishes) if start is not None and end is not None]
        begun, ended = [start for start, _ in pairs], [end for _, end in pairs]
    if not begun:
        return True
    if in_text_order([*begun, *ended]):
        return all(map(le, begun, ended))
    return not any(map(is_before, ended, begun))  # the plain rule's own test, pair by pair


def _a_forest(ids: Sequence[str], parents: Sequence[str | None]) -> bool:
    """Whether ``ids`` are unique, every parent is a listed segment and the parent links have no cycle."""
    count = len(ids)
    position: dict[str | None, int] = dict(zip(ids, range(count)))
    if len(position) != count or not position.keys() >= set(parents) - {None}:
        return False
    position[None] = count  # a root's parent: the place just past the list
    above = list(map(position.__getitem__, parents))
    # Each parent listed after its child: following the links moves strictly down the list.
    return all(map(lt, range(count), above)) or _chains_end([*above, count], count)


def _chains_end(up: list[int], count: int) -> bool:
    """Whether following ``up`` (each place's parent; ``count``, past the list, its own) from every place reaches
    ``count``.

    By pointer doubling: after ``k`` rounds ``up[i]`` is ``i``'s ``2**k``-th ancestor, at
    C speed per round. Without a cycle a chain ends within ``count`` links, so every
    place is at ``count`` once ``2**k >= count``; a place on (or leading to) a cycle,
    a self-parent among them, never gets there. ``log2`` of the deepest chain rounds.
    """
    reach = 1
    while up.count(count) != len(up):
        if reach >= count:
            return False
        up = list(map(up.__getitem__, up))
        reach *= 2
    return True


def _stamps(
    target: enum.Enum, started: Timestamp | None, finished: Timestamp | None, at: str | None, pointer: str = "/status"
) -> dict[str, Any]:
    """The stamps a move to ``target`` sets: ``started_at`` on running, ``finished_at`` on a final state.

    ``at`` when given (the caller says when), else now for a stamp that is not set; ``at`` for a
    move that stamps nothing is an ``EditError`` (it would be dropped), at ``pointer``.
    """
    if target.value == "running":
        name, current = "started_at", started
    elif target.value in _ENDED:
        name, current = "finished_at", finished
    else:
        if at is not None:
            raise EditError(
                "nothing_to_stamp",
                f"at= is the time a move starts or ends: a move to {target.value} stamps no time",
                pointer,
            )
        return {}
    if at is not None:
        return {name: at}
    return {} if current is not None else {name: Timestamp.now()}


def _ended_before_start(started: Timestamp | None, finished: Timestamp | None) -> bool:
    return started is not None and finished is not None and is_before(finished, started)


def _event(trace_id: str, event_type: str, at: str, data: Mapping[str, Any] | None, source: str) -> dict[str, Any]:
    """The JSON of an event of the trace ``trace_id``, with a fresh id."""
    event: dict[str, Any] = {
        "event_id": new_id(),
        "event_type": event_type,
        "source": source,
        "timestamp": at,
        "trace_id": trace_id,
    }
    if data is not None:
        event["data"] = data
    return event


class _TraceKnown:
    """What the fast paths know of one sound trace: where each segment is (its ids are unique)."""

    __slots__ = ("position",)

    def __init__(self, position: dict[str, int]) -> None:
        self.position = position

    @classmethod
    def of(cls, segments: Sequence[TraceSegment]) -> _TraceKnown:
        return cls({segment.segment_id: at for at, segment in enumerate(segments)})

    def takes(self, segment: TraceSegment) -> bool:
        """Whether the trace, with ``segment`` appended, keeps every rule.

        The proof: the new id is not taken (``duplicate_segment_id``); its parent is a listed
        segment (``unknown_parent``), not itself, since its id is new (``self_parent``); no
        listed segment names the new id (each parent names a listed segment), so no chain of
        parents passes through it, and a cycle would need one (``parent_cycle``); the one rule of
        stamps that reads it reads its own two (``finished_before_start``).
        """
        parent = segment.parent_segment_id
        if segment.segment_id in self.position or (parent is not None and parent not in self.position):
            return False
        return not _ended_before_start(segment.started_at, segment.finished_at)

    def with_segment(self, segment: TraceSegment) -> _TraceKnown:
        return _TraceKnown({**self.position, segment.segment_id: len(self.position)})


def _finished_before_start(
    where: tuple[str | int, ...], started: Timestamp | None, finished: Timestamp | None, what: str
) -> Iterator[RuleViolation]:
    if started is None or finished is None or not is_before(finished, started):
        return
    finished_text, started_text = as_compared(finished, started)
    yield RuleViolation(
        (*where, "finished_at"),
        "finished_before_start",
        f"{what} finished at {finished_text}, before it started at {started_text}",
    )


def _segment_integrity(segments: Sequence[TraceSegment]) -> Iterator[RuleViolation]:
    """Unique ids; every parent a segment of the trace, not the segment itself; no cycle of parent links."""
    ids = [segment.segment_id for segment in segments]
    yield from duplicate_ids(ids, "segments", "segment_id", "segment")
    first: dict[str, int] = {}  # each id and its first position, in list order
    for position, segment_id in enumerate(ids):
        first.setdefault(segment_id, position)
    for position, segment in enumerate(segments):
        parent = segment.parent_segment_id
        loc = ("segments", position, "parent_segment_id")
        if parent is None:
            continue
        if parent == segment.segment_id:
            yield RuleViolation(loc, "self_parent", f"segment {parent} is its own parent")
        elif parent not in first:
            text = f"segment {segment.segment_id} has parent {parent}, which is not a segment of this trace"
            yield RuleViolation(loc, "unknown_parent", text)
    yield from _parent_cycles(segments, first)


def _parent_cycles(segments: Sequence[TraceSegment], first: dict[str, int]) -> Iterator[RuleViolation]:
    """One violation per cycle of parent links, naming it from its first-listed segment: ``a -> b -> a`` (each -> its
    parent).

    Each segment has one parent, so following the links from every segment,
    and stopping at one already seen, visits each segment once.
    """
    parent_of = {segment_id: segments[position].parent_segment_id for segment_id, position in first.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in first:
        path: list[str] = []
        node: str | None = start
        while node is not None and node in parent_of and node not in state:
            state[node] = 1
            path.append(node)
            following = parent_of[node]
            node = None if following == node else following  # a self-parent is reported on its own
        if node is not None and state.get(node) == 1:
            cycle = path[path.index(node) :]
            head = min(cycle, key=first.__getitem__)
            turn = cycle.index(head)
            named = [*cycle[turn:], *cycle[:turn], head]
            yield RuleViolation(
                ("segments", first[head], "parent_segment_id"),
                "parent_cycle",
                f"the segments' parent links form a cycle: {' -> '.join(named)}",
            )
        for visited in path:
            state[visited] = 2
