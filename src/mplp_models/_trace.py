"""Trace rules: unique segments whose parent links form a forest, the root span's trace id, the timelines; walks; edits; lifecycle."""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping, Sequence
from operator import attrgetter, le, lt
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias, cast

from typing_extensions import Self

from mplp_models._ids import new_id, new_meta
from mplp_models._rules import RuledModel, RuleViolation, checked_move, duplicate_ids, permissive_moves
from mplp_models._types import Timestamp, in_text_order, is_before

if TYPE_CHECKING:
    from mplp_models._generated.mplp.v1_0.common.trace_base_schema import TraceBase
    from mplp_models._generated.mplp.v1_0.mplp_context_schema import Context
    from mplp_models._generated.mplp.v1_0.mplp_plan_schema import Plan
    from mplp_models._generated.mplp.v1_0.mplp_trace_schema import (
        Trace,
        TraceSegment,
        TraceSegmentStatus,
        TraceSegmentStatusValue,
        TraceStatus,
        TraceStatusValue,
    )

__all__ = ["SEGMENT_MOVES", "TRACE_MOVES", "TraceBehaviour", "TraceEnd"]

_FINISHED = ("completed", "failed", "cancelled")
# Upstream defines no moves between the Trace states: any move but out of a final state.
TRACE_MOVES = permissive_moves(("pending", "running", *_FINISHED), final=_FINISHED)
# Nor between a segment's: the same, with skipped as one more way to end.
_ENDED = (*_FINISHED, "skipped")
SEGMENT_MOVES = permissive_moves(("pending", "running", *_ENDED), final=_ENDED)

TraceEnd: TypeAlias = Literal["completed", "failed", "cancelled"]
"""The states that end a trace: what ``Trace.finish`` takes."""


class TraceBehaviour(RuledModel, frozen=True):
    """Behaviour of ``Trace``: segment integrity, the root span, timelines, walks over the segments, lifecycle."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = TRACE_MOVES

    if TYPE_CHECKING:
        trace_id: str
        status: TraceStatus
        root_span: TraceBase
        started_at: Timestamp | None
        finished_at: Timestamp | None
        segments: tuple[TraceSegment, ...] | None

    @classmethod
    def start(cls, context: Context, plan: Plan | None = None, *, at: str | None = None) -> Self:
        """A running trace of ``context`` (and of ``plan``): fresh trace and root span ids, started now.

        The trace, its root span and the plan all name ``context``; ``plan_id`` names ``plan``.

        Args:
            context: The session's context.
            plan: The plan the trace records the execution of; default none (no ``plan_id``).
            at: When it started (an RFC 3339 timestamp: ``started_at`` and ``meta.created_at``); default now.

        Raises:
            ValueError: If ``plan`` belongs to another context (its ``context_id`` is not ``context``'s).
        """
        if plan is not None and plan.context_id != context.context_id:
            raise ValueError(
                f"plan {plan.plan_id} belongs to context {plan.context_id}, not to context {context.context_id}"
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
        }
        if plan is not None:
            data["plan_id"] = plan.plan_id
        return cls.model_validate(data)

    def transition(self, to: TraceStatus | TraceStatusValue, *, at: str | None = None) -> Self:
        """The trace moved to ``to`` (a new trace); a ``ValueError`` if the move is not legal.

        Any state may move to any other but completed, failed and cancelled, which
        are final (upstream defines no moves). Moving to running stamps ``started_at``,
        and to a final state ``finished_at``: with ``at`` when given, else with now
        when the stamp is not set (a set one is kept); ``at`` for another move is a ``ValueError``.
        """
        target = self._check_move(to)
        return self.model_copy(update={"status": target, **_stamps(target, self.started_at, self.finished_at, at)})

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
            ValueError: If ``status`` does not end a trace, or the trace has already ended.
            ValidationError: If the trace breaks a rule (``at`` before ``started_at``, say).
        """
        value = status.value if isinstance(status, enum.Enum) else status
        if value not in _FINISHED:
            raise ValueError(f"a trace finishes as {', '.join(_FINISHED)}, not {value!r} (use transition)")
        return self.transition(status, at=at)

    def segment(self, segment_id: str) -> TraceSegment:
        """The segment with id ``segment_id`` (the first, if several have it); a ``KeyError`` if none has it."""
        return self._segments[self._segment_position(segment_id)]

    def add_segment(self, segment: TraceSegment) -> Self:
        """The trace with ``segment`` appended to its segments (a new trace; this one is unchanged).

        Raises:
            ValidationError: If the trace breaks a rule with it: its id already used
                (``duplicate_segment_id``), a parent that is no segment of the trace...
        """
        return self.model_copy(update={"segments": (*self._segments, segment)})

    def transition_segment(
        self, segment_id: str, to: TraceSegmentStatus | TraceSegmentStatusValue, *, at: str | None = None
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
            KeyError: If no segment has that id.
            ValueError: If the move is not legal (the message names both states), or ``at`` is
                given for a move that stamps no time (to pending).
            ValidationError: If the trace breaks a rule (``at`` before the segment's ``started_at``, say).
        """
        segments = self._segments
        position = self._segment_position(segment_id)
        segment = segments[position]
        target = _check_segment_move(segment.status, to)
        moved = segment.model_copy(
            update={"status": target, **_stamps(target, segment.started_at, segment.finished_at, at)}
        )
        return self.model_copy(update={"segments": (*segments[:position], moved, *segments[position + 1 :])})

    @property
    def _segments(self) -> tuple[TraceSegment, ...]:
        return self.segments or ()

    def _segment_position(self, segment_id: str) -> int:
        for position, segment in enumerate(self._segments):
            if segment.segment_id == segment_id:
                return position
        raise KeyError(f"the trace has no segment {segment_id!r}")

    def roots(self) -> list[TraceSegment]:
        """The segments without a parent, in list order."""
        return [segment for segment in self.segments or () if segment.parent_segment_id is None]

    def children(self, segment_id: str) -> list[TraceSegment]:
        """The segments whose parent is ``segment_id``, in list order; a ``KeyError`` if the trace has no such segment."""
        segments = self.segments or ()
        if all(segment.segment_id != segment_id for segment in segments):
            raise KeyError(f"the trace has no segment {segment_id!r}")
        return [segment for segment in segments if segment.parent_segment_id == segment_id]

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
    """Whether following ``up`` (each place's parent; ``count``, past the list, its own) from every place reaches ``count``.

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


def _stamps(target: enum.Enum, started: Timestamp | None, finished: Timestamp | None, at: str | None) -> dict[str, Any]:
    """The stamps a move to ``target`` sets: ``started_at`` on running, ``finished_at`` on a final state.

    ``at`` when given (the caller says when), else now for a stamp that is not set; ``at`` for a
    move that stamps nothing is a ``ValueError`` (it would be dropped).
    """
    if target.value == "running":
        name, current = "started_at", started
    elif target.value in _ENDED:
        name, current = "finished_at", finished
    else:
        if at is not None:
            raise ValueError(f"at= is the time a move starts or ends: a move to {target.value} stamps no time")
        return {}
    if at is not None:
        return {name: at}
    return {} if current is not None else {name: Timestamp.now()}


def _check_segment_move(current: TraceSegmentStatus, to: object) -> TraceSegmentStatus:
    """``to`` as a member of the segment's status enum; a ``ValueError`` naming both states if the move is not legal."""
    target: TraceSegmentStatus = checked_move("TraceSegment", current, to, SEGMENT_MOVES)
    return target


def _finished_before_start(
    where: tuple[str | int, ...], started: Timestamp | None, finished: Timestamp | None, what: str
) -> Iterator[RuleViolation]:
    if started is None or finished is None or not is_before(finished, started):
        return
    yield RuleViolation(
        (*where, "finished_at"),
        "finished_before_start",
        f"{what} finished at {finished}, before it started at {started}",
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
            yield RuleViolation(
                loc,
                "unknown_parent",
                f"segment {segment.segment_id} has parent {parent}, which is not a segment of this trace",
            )
    yield from _parent_cycles(segments, first)


def _parent_cycles(segments: Sequence[TraceSegment], first: dict[str, int]) -> Iterator[RuleViolation]:
    """One violation per cycle of parent links, naming it from its first-listed segment: ``a -> b -> a`` (each -> its parent).

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
