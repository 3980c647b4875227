"""Trace rules: unique segments whose parent links form a forest, the root span's trace id, the timelines; walks; lifecycle."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from typing_extensions import Self

from mplp_models._semantic import RuledModel, RuleViolation, duplicate_ids, permissive_moves
from mplp_models._types import Timestamp, is_before

if TYPE_CHECKING:
    from mplp_models._generated.mplp.v1_0.common.trace_base_schema import TraceBase
    from mplp_models._generated.mplp.v1_0.mplp_trace_schema import TraceSegment, TraceStatus

__all__ = ["TRACE_MOVES", "TraceModuleBase"]

_FINISHED = ("completed", "failed", "cancelled")
# Upstream defines no moves between the Trace states: any move but out of a final state.
TRACE_MOVES = permissive_moves(("pending", "running", *_FINISHED), final=_FINISHED)


class TraceModuleBase(RuledModel, frozen=True):
    """Behaviour of ``Trace``: segment integrity, the root span, timelines, walks over the segments, lifecycle."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = TRACE_MOVES

    if TYPE_CHECKING:
        trace_id: str
        status: TraceStatus
        root_span: TraceBase
        started_at: Timestamp | None
        finished_at: Timestamp | None
        segments: tuple[TraceSegment, ...] | None

    def transition(self, to: TraceStatus | str) -> Self:
        """The trace moved to ``to`` (a new trace); a ``ValueError`` if the move is not legal.

        Any state may move to any other but completed, failed and cancelled, which
        are final (upstream defines no moves). Moving to running sets ``started_at``
        to now, and to a final state sets ``finished_at`` to now, when it is not set.
        """
        target = self._check_move(to)
        update: dict[str, Any] = {"status": target}
        if target.value == "running" and self.started_at is None:
            update["started_at"] = Timestamp.now()
        if target.value in _FINISHED and self.finished_at is None:
            update["finished_at"] = Timestamp.now()
        return self.model_copy(update=update)

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
        problems = _segment_integrity(segments)
        if problems:
            raise ValueError(f"the segments cannot be walked: {problems[0].message}")
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

    def _violations(self) -> list[RuleViolation]:
        found = _segment_integrity(self.segments or ())
        if self.root_span.trace_id != self.trace_id:
            found.append(
                RuleViolation(
                    ("root_span", "trace_id"),
                    "root_span_other_trace",
                    f"root_span.trace_id {self.root_span.trace_id} is not the trace's trace_id {self.trace_id}",
                )
            )
        found += _finished_before_start((), self.started_at, self.finished_at, "the trace")
        for position, segment in enumerate(self.segments or ()):
            found += _finished_before_start(
                ("segments", position), segment.started_at, segment.finished_at, f"segment {segment.segment_id}"
            )
        return found


def _finished_before_start(
    where: tuple[str | int, ...], started: Timestamp | None, finished: Timestamp | None, what: str
) -> list[RuleViolation]:
    if started is None or finished is None or not is_before(finished, started):
        return []
    return [
        RuleViolation(
            (*where, "finished_at"),
            "finished_before_start",
            f"{what} finished at {finished}, before it started at {started}",
        )
    ]


def _segment_integrity(segments: Sequence[TraceSegment]) -> list[RuleViolation]:
    """Unique ids; every parent a segment of the trace, not the segment itself; no cycle of parent links."""
    ids = [segment.segment_id for segment in segments]
    found = duplicate_ids(ids, "segments", "segment_id", "segment")
    first: dict[str, int] = {}  # each id and its first position, in list order
    for position, segment_id in enumerate(ids):
        first.setdefault(segment_id, position)
    for position, segment in enumerate(segments):
        parent = segment.parent_segment_id
        loc = ("segments", position, "parent_segment_id")
        if parent is None:
            continue
        if parent == segment.segment_id:
            found.append(RuleViolation(loc, "self_parent", f"segment {parent} is its own parent"))
        elif parent not in first:
            found.append(
                RuleViolation(
                    loc,
                    "unknown_parent",
                    f"segment {segment.segment_id} has parent {parent}, which is not a segment of this trace",
                )
            )
    return found + _parent_cycles(segments, first)


def _parent_cycles(segments: Sequence[TraceSegment], first: dict[str, int]) -> list[RuleViolation]:
    """One violation per cycle of parent links, naming it from its first-listed segment: ``a -> b -> a`` (each -> its parent).

    Each segment has one parent, so following the links from every segment,
    and stopping at one already seen, visits each segment once.
    """
    parent_of = {segment_id: segments[position].parent_segment_id for segment_id, position in first.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    found: list[RuleViolation] = []
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
            found.append(
                RuleViolation(
                    ("segments", first[head], "parent_segment_id"),
                    "parent_cycle",
                    f"the segments' parent links form a cycle: {' -> '.join(named)}",
                )
            )
        for visited in path:
            state[visited] = 2
    return found
