"""Plan and step rules: step integrity, the dependency graph, status consistency, lifecycles."""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, cast, overload

from typing_extensions import Self, TypedDict, Unpack

from mplp_models import _fastpath
from mplp_models._edits import (
    UNKNOWN,
    constructed,
    edited_member,
    in_order,
    item_class,
    of_kind,
    recall,
    refuse_extra,
    remember,
    replaced,
)
from mplp_models._errors import EditError, UnknownPartError, validated_copy, validated_new
from mplp_models._fast_shapes import is_plain
from mplp_models._formats import Timestamp
from mplp_models._ids import new_id, new_meta
from mplp_models._public import generated_kind
from mplp_models._rules import LifecycleModel, RuledModel, RuleViolation, checked_move, duplicate_ids

if TYPE_CHECKING:
    from mplp_models._drafts import PlanDraft
    from mplp_models._generated.mplp.v1_0.mplp_confirm_schema import Confirm
    from mplp_models._generated.mplp.v1_0.mplp_context_schema import Context
    from mplp_models._generated.mplp.v1_0.mplp_plan_schema import (
        Plan,
        PlanStatus,
        PlanStatusValue,
        PlanStep,
        PlanStepStatus,
        PlanStepStatusValue,
    )

__all__ = ["PLAN_MOVES", "STEP_MOVES", "PlanBehaviour", "PlanStepBehaviour", "StepChanges"]

PLAN_MOVES: dict[str, tuple[str, ...]] = {
    "draft": ("proposed", "cancelled"),
    "proposed": ("approved", "draft", "cancelled"),
    "approved": ("in_progress", "cancelled"),
    "in_progress": ("completed", "failed", "cancelled"),
    "completed": (),
    "failed": (),
    "cancelled": (),
}
STEP_MOVES: dict[str, tuple[str, ...]] = {
    "pending": ("in_progress", "blocked", "skipped"),
    "blocked": ("pending", "in_progress", "skipped"),
    "in_progress": ("completed", "failed", "blocked"),
    "failed": ("pending",),
    "completed": (),
    "skipped": (),
}
DONE = ("completed", "skipped")  # a dependency in one of these no longer holds a step back
STARTED = ("in_progress", "completed")  # a step in one of these needs its dependencies done
NOT_YET_RUNNING = ("draft", "proposed", "approved")  # a plan in one of these has no step running or run
RAN = ("in_progress", "completed", "failed")  # a step in one of these is running or has run


class StepChanges(TypedDict, total=False):
    """The fields of a step that ``Plan.update_step`` may change; ``None`` leaves an optional field out.

    Not the id (other steps name it) nor the status (it moves with ``transition_step``, which keeps the lifecycle).
    """

    description: str
    dependencies: list[str] | tuple[str, ...] | None
    agent_role: str | None
    order_index: int | None


_CHANGEABLE = frozenset(StepChanges.__annotations__)


class PlanStepBehaviour(LifecycleModel, frozen=True):
    """Behaviour of ``PlanStep``: its lifecycle (its rules need the plan, so ``Plan`` checks them)."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = STEP_MOVES

    if TYPE_CHECKING:
        step_id: str
        status: PlanStepStatus
        dependencies: tuple[str, ...] | None
        order_index: int | None

    @property
    def depends_on(self) -> tuple[str, ...]:
        """The ids of the steps this one waits for: ``dependencies``, or an empty tuple when it has none."""
        return self.dependencies or ()

    def transition(self, to: PlanStepStatus | PlanStepStatusValue) -> Self:
        """The step moved to another status.

        pending -> in_progress | blocked | skipped; blocked -> pending | in_progress | skipped;
        in_progress -> completed | failed | blocked; failed -> pending (a retry).
        A step inside a plan moves with ``Plan.transition_step``, which checks the plan's rules too.

        Args:
            to: The new status, a member or its value.

        Returns:
            A new step; this one is unchanged.

        Raises:
            ValueError: If the lifecycle has no such move (the message names both states and the legal moves).
        """
        return self._with_status(self._check_move(to))

    def _with_status(self, status: PlanStepStatus) -> Self:
        # Fast path: a step of the generated class with its status replaced by a member of its own
        # status enum is a valid step: the status is a plain enum field that no rule of the step
        # reads (the plan's rules are the plan's). Any other class, and every step with the fast
        # paths off, is validated.
        if _fastpath.ENABLED and is_plain(type(self)):
            return constructed(self, status=status)
        return self.model_copy(update={"status": status})


_PLAN_STEP = ("PlanStep",)


class PlanBehaviour(RuledModel, frozen=True):
    """Behaviour of ``Plan``: step integrity and status rules, execution order, lifecycle, edits."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = PLAN_MOVES

    if TYPE_CHECKING:
        plan_id: str
        status: PlanStatus
        steps: tuple[PlanStep, ...]

    # --- reading the steps ---

    # Two signatures, as a list is invariant: a literal list of both kinds takes the first, a
    # list[str] variable the second; a str (a sequence of one-letter strings) matches neither.
    @overload
    @classmethod
    def new(
        cls,
        context: Context,
        *,
        title: str,
        objective: str,
        steps: list[str | PlanStep] | tuple[str | PlanStep, ...],
        status: PlanStatus | PlanStatusValue = "draft",
        at: str | None = None,
    ) -> Self: ...

    @overload
    @classmethod
    def new(
        cls,
        context: Context,
        *,
        title: str,
        objective: str,
        steps: list[str] | list[PlanStep],
        status: PlanStatus | PlanStatusValue = "draft",
        at: str | None = None,
    ) -> Self: ...

    @classmethod
    def new(
        cls,
        context: Context,
        *,
        title: str,
        objective: str,
        steps: list[str | PlanStep] | tuple[str | PlanStep, ...] | list[str] | list[PlanStep],
        status: PlanStatus | PlanStatusValue = "draft",
        at: str | None = None,
    ) -> Self:
        """A new plan of ``context``: a fresh ``plan_id``, ``context_id`` naming the context, stamped now.

        Args:
            context: The session's context.
            title: The plan's title.
            objective: What it should achieve.
            steps: Each a step, or a description: a pending step with a fresh ``step_id`` and an
                ``order_index``: its position when no given step has an ``order_index``, else the
                next after the highest given one (in list order), so no two steps share one.
            status: Default draft.
            at: When it was made (an RFC 3339 timestamp: ``meta.created_at``); default now.

        Raises:
            TypeError: If ``context`` is not a ``Context``, or ``steps`` is a string (a list of one
                description is ``[text]``) or a set (which has no order).
            EditError: If the plan breaks the schema (no step, say) or a rule.
        """
        of_kind(context, "Context", "Plan.new's context")
        steps = in_order(steps, "steps", "steps or descriptions")  # read twice below: an iterator once
        given: list[int] = []  # the order_index of each step given whole, in one pass that checks it is one
        for index, step in enumerate(steps):
            if isinstance(step, str):
                continue
            if generated_kind(step, _PLAN_STEP) is None:  # the message only for a refusal
                of_kind(step, "PlanStep", f"steps[{index}], if not a description,")
            if step.order_index is not None:
                given.append(step.order_index)
        # Positions could collide with a given step's order_index: then new steps come after them all.
        after_given = max(given, default=-1) + 1
        made: list[dict[str, Any] | PlanStep] = []
        for position, step in enumerate(steps):
            if not isinstance(step, str):
                made.append(step)
                continue
            index = after_given if given else position
            after_given += 1
            made.append({"step_id": new_id(), "description": step, "status": "pending", "order_index": index})
        data: dict[str, Any] = {
            "meta": new_meta(str(Timestamp.now()) if at is None else at),
            "plan_id": new_id(),
            "context_id": context.context_id,
            "title": title,
            "objective": objective,
            "status": getattr(status, "value", status),
            "steps": made,
        }
        return validated_new(cls, data)

    def step(self, step_id: str, /) -> PlanStep:
        """The step with that id (the first one, in a plan read with ``semantic=False``).

        Raises:
            UnknownPartError: If no step has that id (``unknown_step``; a ``KeyError`` too).
        """
        return self.steps[self._position(step_id)]

    @property
    def steps_by_id(self) -> Mapping[str, PlanStep]:
        """Every step by its id, in list order (the first of equal ids, in a plan read with ``semantic=False``)."""
        found: dict[str, PlanStep] = {}
        for step in self.steps:
            found.setdefault(step.step_id, step)
        return found

    # --- edits: each returns a new plan, the rules checked; this one is unchanged ---

    def transition(self, to: PlanStatus | PlanStatusValue) -> Self:
        """The plan moved to another status.

        draft -> proposed; proposed -> approved | draft; approved -> in_progress;
        in_progress -> completed | failed; any open state -> cancelled.

        Args:
            to: The new status, a member or its value.

        Returns:
            A new plan; this one is unchanged.

        Raises:
            EditError: If the lifecycle has no such move (``illegal_move``), or the moved plan
                breaks a rule (``plan_completed_early``: a pending step in a completed plan).
        """
        target = self._check_move(to)
        known = self._known()
        # Proof: the plan's status is read by two rules only, each over the steps' statuses, which
        # are unchanged: a completed plan has only done steps; a plan not yet running no step that ran.
        if known is not None:
            kinds = set(map(_STATUS, self.steps))
            if not ((target == "completed" and not kinds <= _DONE) or (target in NOT_YET_RUNNING and kinds & _RAN)):
                return self._derived(known, known.index, (), status=target)
        return validated_copy(self, {"status": target})

    def approve(self, confirm: Confirm) -> Self:
        """The plan approved by ``confirm``: moved from proposed to approved.

        Args:
            confirm: The confirm of this plan (``Confirm.new(plan, ...)``), decided: its status and
                its last decision read approved (``confirm.decide("approved", by_role=...)``).

        Returns:
            A new plan; this one is unchanged.

        Raises:
            TypeError: If ``confirm`` is not a ``Confirm``.
            EditError: If the confirm targets another document (``confirm_target_plan``), is not
                approved (``not_approved``), or the plan is not proposed (``illegal_move``).
        """
        of_kind(confirm, "Confirm", "approve's confirm")
        if confirm.target_type.value != "plan" or confirm.target_id != self.plan_id:
            raise EditError(
                "confirm_target_plan",
                f"confirm {confirm.confirm_id} is of {confirm.target_type.value} {confirm.target_id}, "
                f"not of plan {self.plan_id}",
                "/plan_id",
            )
        last = (confirm.decisions or (None,))[-1]
        if confirm.status.value != "approved" or last is None or last.status.value != "approved":
            decided = "no decision" if last is None else f"its last decision {last.status.value}"
            raise EditError(
                "not_approved",
                f"confirm {confirm.confirm_id} is {confirm.status.value} with {decided}: "
                "a plan is approved by an approved confirm (confirm.decide('approved', by_role=...))",
                "/status",
            )
        if self.status.value != "proposed":
            raise EditError(
                "illegal_move",
                f"Plan is {self.status.value}: a confirm approves a proposed plan (plan.transition('proposed') first)",
                "/status",
            )
        return self.transition("approved")

    def transition_step(self, step_id: str, /, to: PlanStepStatus | PlanStepStatusValue) -> Self:
        """The plan with one of its steps moved to another status, the plan's rules checked.

        Args:
            step_id: The id of the step.
            to: The step's new status, a member or its value.

        Returns:
            A new plan; this one is unchanged.

        Raises:
            UnknownPartError: If no step has that id (``unknown_step``).
            EditError: If the step's lifecycle has no such move (``illegal_move``), or the plan would
                break a rule (``dependency_not_done``: a step started before its dependencies are done).
        """
        position = self._position(step_id)
        step = self.steps[position]
        target = checked_move("PlanStep", step.status, to, STEP_MOVES, f"/steps/{position}/status")
        moved = step._with_status(target)  # pyright: ignore[reportPrivateUsage]  # a step of this plan
        steps = replaced(self.steps, position, moved)
        known = self._known()
        if known is not None and _status_move_holds(self.status, moved, steps, known.index):
            return self._derived(known, known.index, (step_id,), steps=steps)
        return validated_copy(self, {"steps": steps})

    def add_step(self, step: PlanStep, /, *, before: str | None = None) -> Self:
        """The plan with one more step, the plan's rules checked.

        Args:
            step: The new step; its dependencies name steps of the plan.
            before: The id of the step to insert it before; at the end when None.

        Returns:
            A new plan; this one is unchanged.

        Raises:
            UnknownPartError: If ``before`` names no step (``unknown_step``).
            EditError: If the plan would break a rule (``duplicate_step_id``, ``unknown_dependency``,
                ``dependency_not_done``...).
        """
        at = len(self.steps) if before is None else self._position(before)
        steps = (*self.steps[:at], step, *self.steps[at:])  # the steps are shared, not copied
        known = self._known()
        if (
            known is not None
            and type(step) is item_class(type(self), "steps")
            and _new_step_holds(self.status, step, self.steps, known.index)
        ):
            return self._derived(known, known.index.with_step(step, steps), (step.step_id,), steps=steps)
        return validated_copy(self, {"steps": steps})

    def update_step(self, step_id: str, /, **changes: Unpack[StepChanges]) -> Self:
        """The plan with one step's fields changed, the step and the plan's rules checked.

        ``plan.update_step(step_id, dependencies=[...], order_index=2)``. A ``None``
        leaves an optional field out; a step's status moves with ``transition_step``.

        Args:
            step_id: The id of the step.
            **changes: The new values: ``description``, ``dependencies``, ``agent_role``, ``order_index``.

        Returns:
            A new plan; this one is unchanged.

        Raises:
            UnknownPartError: If no step has that id (``unknown_step``).
            TypeError: For a field that ``update_step`` does not change (``status``, ``step_id``, a typo).
            EditError: If the step is not valid (``string_too_short``...), or the plan would break a rule
                (``dependency_cycle``...).
        """
        reason = "a step's status moves with transition_step; its id stays"
        refuse_extra("update_step", changes, _CHANGEABLE, reason)
        return edited_member(self, "steps", self.steps, self._position(step_id), changes, self._changed_step)

    def _changed_step(self, old: PlanStep, new: PlanStep, steps: tuple[PlanStep, ...]) -> Self | None:
        """The plan with ``steps``, where ``new`` replaced ``old``, built unvalidated if the fast path proves it."""
        known = self._known()
        if (
            known is not None
            and type(new) is item_class(type(self), "steps")
            and _changed_step_holds(old, new, steps, known.index)
        ):
            moved = () if new.depends_on == old.depends_on else (old.step_id,)
            return self._derived(known, known.index.with_dependencies(old, new), moved, steps=steps)
        return None

    def remove_step(self, step_id: str, /) -> Self:
        """The plan without one step, refused while another step depends on it.

        Args:
            step_id: The id of the step.

        Returns:
            A new plan; this one is unchanged.

        Raises:
            UnknownPartError: If no step has that id (``unknown_step``).
            EditError: If other steps depend on it (``has_dependents``: the message names them), or
                it is the plan's only step (``too_short``: a plan has at least one).
        """
        position = self._position(step_id)
        known = self._known()
        if known is not None:
            waiting = sorted(known.index.dependents.get(step_id, ()), key=known.index.position.__getitem__)
        else:
            waiting = [step.step_id for step in self.steps if step_id in step.depends_on]
        if waiting:
            raise EditError(
                "has_dependents",
                f"step {step_id} cannot be removed: step{'s' if len(waiting) > 1 else ''} "
                f"{', '.join(waiting)} depend{'' if len(waiting) > 1 else 's'} on it; "
                "remove them or their dependency on it first",
                f"/steps/{position}",
            )
        if len(self.steps) == 1:
            raise EditError("too_short", f"step {step_id} is the plan's only one, and a plan needs one", "/steps")
        step = self.steps[position]
        steps = (*self.steps[:position], *self.steps[position + 1 :])
        # Proof: no step depends on the one removed, so every dependency still names a step; the ids
        # stay distinct, a subgraph of a graph with no cycle has none, and every status rule reads
        # a step's own status, its dependencies' (still there, unchanged) and the plan's.
        if known is not None:
            return self._derived(known, known.index.without_step(step, steps), (step_id,), steps=steps)
        return validated_copy(self, {"steps": steps})

    def apply_draft(self, draft: PlanDraft) -> Self:
        """The plan revised to an LLM's draft of it (``PlanDraft.from_plan(plan)``, revised).

        A step of the draft whose id is a step's local id updates that step (its description,
        agent role and dependencies; its status and id are kept); a step with a new id is added,
        ``pending``, with a fresh id; a step the draft leaves out is removed (one that is
        ``in_progress`` or ``completed`` is refused). The steps take the draft's order, and so
        does ``order_index`` (the execution order's tie-break) in a plan that uses it (any step
        has one): each step's is its position in the draft; a plan with none gets none. The
        plan's title and objective are the draft's.

        Args:
            draft: The revised draft.

        Returns:
            A new plan; this one is unchanged.

        Raises:
            ValidationError: If the revised plan would break a rule (a new dependency of a started
                step that is not done, say), located in the draft with its local ids.
        """
        revised: Self = draft._apply_to(self)  # pyright: ignore[reportPrivateUsage]
        return revised

    # --- the edits' bookkeeping ---

    def _position(self, step_id: str) -> int:
        known = self._known()
        if known is not None:
            position = known.index.position.get(step_id)
        else:
            position = next((i for i, step in enumerate(self.steps) if step.step_id == step_id), None)
        if position is None:
            raise UnknownPartError("unknown_step", f"the plan has no step {step_id!r}", "/steps")
        return position

    def _known(self) -> _Known | None:
        """What the fast paths know of the plan, if they may edit it: the plan is sound and its class generated.

        A plan made by a fast edit has it already; any other is checked once here, by every
        rule, so that a plan read with ``semantic=False`` is never taken for sound (and the
        verdict is kept: None, for a plan that breaks a rule).
        """
        if not (_fastpath.ENABLED and is_plain(type(self))):
            return None
        known: _Known | None = recall(self)
        if known is UNKNOWN:
            known = None if next(self._violations(), None) is not None else _Known(_Index.of(self.steps), None)
            remember(self, known)
        return known

    def _derived(self, known: _Known, index: _Index, moved: tuple[str, ...], **changes: Any) -> Self:
        """This plan with ``changes``, built without validation: each caller proves the result valid.

        ``moved`` names the steps whose status or dependencies changed: the ready steps of the new
        plan are found from this one's by looking at those steps and their dependents only.
        """
        plan = constructed(self, **changes)
        remember(
            plan, _Known(index, known.ready if not moved else _Ready.after(known.ready, moved, len(index.position)))
        )
        return plan

    def topological_order(self) -> list[PlanStep]:
        """The steps in an order that runs every dependency first.

        Returns:
            Every step once. Among steps ready together, lower ``order_index``
            first (steps without one after those with one), then list order.

        Raises:
            ValueError: Naming the cycle, duplicate id or bad dependency, if there is
                one (possible only in a plan read with ``semantic=False``).
        """
        ids, needs = _graph(self.steps)
        first = _first_positions(ids)
        problem = next(_step_integrity(ids, needs, first), None)
        if problem is not None:  # possible only under schema-only validation
            raise ValueError(f"the steps have no execution order: {problem.message}")
        index = first
        waiting = [len(set(step.dependencies or ()) & index.keys()) for step in self.steps]
        dependents: list[list[int]] = [[] for _ in self.steps]
        for position, step in enumerate(self.steps):
            for dependency in set(step.dependencies or ()) & index.keys():
                dependents[index[dependency]].append(position)
        ready = [self._rank(position) for position, count in enumerate(waiting) if count == 0]
        heapq.heapify(ready)
        order: list[PlanStep] = []
        while ready:
            position = heapq.heappop(ready)[-1]
            order.append(self.steps[position])
            for dependent in dependents[position]:
                waiting[dependent] -= 1
                if waiting[dependent] == 0:
                    heapq.heappush(ready, self._rank(dependent))
        if len(order) < len(self.steps):
            cycle = _find_cycle(ids, needs)
            raise ValueError(f"the steps' dependencies form a cycle: {' -> '.join(cycle)}")
        return order

    def ready_steps(self) -> list[PlanStep]:
        """The steps an executor may start next: ready by their dependencies, whatever the plan's status.

        No step starts while the plan is draft, proposed or approved (``plan_not_started``); on such
        a plan, these are the steps that will come first once it is ``in_progress``.

        Costs what changed since the plan it was edited from: a plan made by an edit finds its
        ready steps from the ones its ancestor found, looking only at the steps the edits moved and
        at the steps that depend on them (so ``while ready := plan.ready_steps(): ...`` is linear
        in the plan's size). The first call on a plan that no edit made looks at every step.

        Returns:
            The pending steps whose dependencies are all completed or skipped, in list order.
        """
        known = self._known()
        if known is None:
            return _ready_steps(self.steps)
        position = known.index.position
        return [self.steps[at] for at in sorted(map(position.__getitem__, self._ready_ids(known)))]

    def _ready_ids(self, known: _Known) -> frozenset[str]:
        """The ids of the ready steps, found from what ``known`` holds, and kept there for the plans to come."""
        ready = known.ready
        if ready is not None and ready.ids is not None:
            return ready.ids
        if ready is None:
            ids = frozenset(step.step_id for step in _ready_steps(self.steps))
        else:
            ids = _ready_after_changes(self.steps, known.index, ready)
        if ready is None:
            known.ready = _Ready(ids)
        else:  # shared with the plans of the same steps (plan.transition): they have the same ready steps
            ready.ids, ready.base, ready.changed = ids, None, None
        return ids

    def _rank(self, position: int) -> tuple[bool, int, int]:
        order_index = self.steps[position].order_index
        return (order_index is None, order_index or 0, position)

    def _violations(self) -> Iterator[RuleViolation]:
        # All at once: the graph and status rules pass over dependencies that
        # the integrity rules already report. Each step's fields are read once,
        # into lists that the rules share. A sound plan, the common case, is
        # seen as such by cheap checks (_sound_graph, _statuses_agree); the
        # rules run step by step only where something may be reported. Each
        # cheap check answers True only when it proves that the rules would
        # find nothing, and False with the fast paths off (_fastpath): then
        # every rule runs, step by step.
        ids, needs = _graph(self.steps)
        first = _first_positions(ids)
        statuses: list[PlanStepStatus] = list(map(_STATUS, self.steps))
        if not _sound_graph(ids, needs, first):
            yield from _step_integrity(ids, needs, first)
            yield from _cycles(ids, needs, first)
        if not _statuses_agree(self.status, ids, needs, statuses):
            yield from _status_rules(self.status, ids, needs, statuses)

    # --- pictures (the drawing: _pictures, imported when one is called) ---

    def to_mermaid(self) -> str:
        """The plan as a Mermaid flowchart: a node per step with its status, an edge per dependency (docs/seeing.md)."""
        from mplp_models import _pictures  # here: the pictures load on first use, not with the model

        return _pictures.plan_mermaid(cast("Plan", self))

    def to_dot(self) -> str:
        """The plan as a Graphviz DOT digraph: a box per step filled by status, an edge per dependency
        (docs/seeing.md).
        """
        from mplp_models import _pictures  # here: as above

        return _pictures.plan_dot(cast("Plan", self))


_STEP_ID = attrgetter("step_id")
_STATUS = attrgetter("status")
_DEPENDENCIES = attrgetter("dependencies")
_ABSENT = repeat(-1)  # the position of an unknown dependency, for map(first.get, ...): an endless -1
# As sets, for membership tests that map() runs in C (a status enum hashes and compares as its value).
_DONE = frozenset(DONE)
_STARTED = frozenset(STARTED)
_UNFINISHED = frozenset(STEP_MOVES) - _DONE
_RAN = frozenset(RAN)


# --- the fast edits: what each change can break, checked for the changed step only ---
#
# Each edit of a sound plan (every rule holds, see PlanBehaviour._sound_index) builds the new plan
# without validation when the checks below find nothing; otherwise, and with the fast paths off,
# the new plan is validated in full, which raises the rules' errors as any input would. The rules
# (_violations) read, per step: its id and dependencies (integrity and cycles), its status, its
# dependencies' statuses and the plan's status (the status rules). Each check below is every rule
# that can read what the edit changed, over exactly the values it reads; the rest of the plan is
# shared with the old one and held before. Ids are distinct in a sound plan, so the id -> position
# index names each step once, and every dependency is in it.


@dataclass(frozen=True)
class _Index:
    """Where each step is, and who waits for whom, of one sound plan (shared with plans of the same graph)."""

    position: Mapping[str, int]  # step id -> its position
    dependents: Mapping[str, tuple[str, ...]]  # step id -> the ids of the steps that list it (only ids listed)

    @classmethod
    def of(cls, steps: Sequence[PlanStep]) -> _Index:
        ids, needs = _graph(steps)
        dependents: dict[str, list[str]] = {}
        for step_id, dependencies in zip(ids, needs):
            for dependency in dependencies:
                dependents.setdefault(dependency, []).append(step_id)
        return cls(_positions(steps), {step_id: tuple(waiting) for step_id, waiting in dependents.items()})

    def with_step(self, step: PlanStep, steps: Sequence[PlanStep]) -> _Index:
        appended = steps[-1] is step
        position = {**self.position, step.step_id: len(steps) - 1} if appended else _positions(steps)
        return _Index(position, _linked(dict(self.dependents), step.step_id, step.depends_on, ()))

    def without_step(self, step: PlanStep, steps: Sequence[PlanStep]) -> _Index:
        return _Index(_positions(steps), _linked(dict(self.dependents), step.step_id, (), step.depends_on))

    def with_dependencies(self, old: PlanStep, new: PlanStep) -> _Index:
        if old.depends_on == new.depends_on:
            return self
        added = [dependency for dependency in new.depends_on if dependency not in old.depends_on]
        dropped = [dependency for dependency in old.depends_on if dependency not in new.depends_on]
        return _Index(self.position, _linked(dict(self.dependents), new.step_id, added, dropped))


class _Known:
    """What the fast paths know of one sound plan: its index, and its ready steps (or how to find them)."""

    __slots__ = ("index", "ready")

    def __init__(self, index: _Index, ready: _Ready | None) -> None:
        self.index, self.ready = index, ready


class _Ready:
    """The ids of a plan's ready steps (``ids``); or those of an ancestor (``base``) and the steps moved since.

    ``changed`` is a linked list of the ids of the steps whose status or dependencies an edit
    changed since the ancestor, newest first (``(step_id, older)``), ``length`` long: each edit
    adds one cell in constant time, and ``ready_steps`` reads it once, then keeps ``ids``.
    """

    __slots__ = ("base", "changed", "ids", "length")

    def __init__(
        self,
        ids: frozenset[str] | None,
        base: frozenset[str] | None = None,
        changed: tuple[Any, ...] | None = None,
        length: int = 0,
    ) -> None:
        self.ids, self.base, self.changed, self.length = ids, base, changed, length

    @classmethod
    def after(cls, ready: _Ready | None, moved: tuple[str, ...], steps: int) -> _Ready | None:
        """What the plan edited from the one ``ready`` describes knows, ``moved`` being the steps it changed.

        None (found again from every step) once more steps moved than the plan has: reading
        them would cost as much, and so the chain never outgrows the plan.
        """
        if ready is None:
            return None
        base: frozenset[str] | None = ready.ids
        changed, length = None, 0
        if base is None:
            base, changed, length = ready.base, ready.changed, ready.length
        for step_id in moved:
            changed, length = (step_id, changed), length + 1
        return cls(None, base, changed, length) if length <= steps else None


def _ready_steps(steps: Sequence[PlanStep]) -> list[PlanStep]:
    """The pending steps whose dependencies are all completed or skipped, in list order: every step looked at."""
    status = {step.step_id: step.status.value for step in steps}
    return [
        step
        for step in steps
        if step.status.value == "pending" and all(status.get(dep) in DONE for dep in step.dependencies or ())
    ]


def _ready_after_changes(steps: Sequence[PlanStep], index: _Index, ready: _Ready) -> frozenset[str]:
    """The ids of the ready steps of the plan of ``steps``, from an ancestor's (``ready.base``) and the moves since.

    The proof: a step ready in the ancestor (pending, its dependencies done) is ready still
    unless an edit changed its status or its dependencies (it is in ``changed``), since a done
    step stays done (completed and skipped are final) and a step with dependents is never
    removed. A step that became ready either changed itself, or one of its dependencies became
    done, which changed that dependency. So only the changed steps and the dependents of the
    done ones need looking at; a changed id that is no step of the plan (removed) is not ready.
    """
    position, dependents = index.position, index.dependents
    candidates: set[str] = set()
    cell = ready.changed
    while cell is not None:
        step_id, cell = cell
        if step_id in candidates:
            continue
        candidates.add(step_id)
        at = position.get(step_id)
        if at is not None and steps[at].status in _DONE:
            candidates.update(dependents.get(step_id, ()))
    assert ready.base is not None  # a _Ready without ids has a base
    kept = ready.base - candidates
    return kept | {step_id for step_id in candidates if _is_ready(step_id, steps, position)}


def _is_ready(step_id: str, steps: Sequence[PlanStep], position: Mapping[str, int]) -> bool:
    at = position.get(step_id)
    if at is None or steps[at].status != "pending":
        return False
    return all(steps[position[dependency]].status in _DONE for dependency in steps[at].depends_on)


def _positions(steps: Sequence[PlanStep]) -> dict[str, int]:
    return dict(zip(map(_STEP_ID, steps), range(len(steps))))


def _linked(
    dependents: dict[str, tuple[str, ...]], step_id: str, added: Sequence[str], dropped: Sequence[str]
) -> dict[str, tuple[str, ...]]:
    """``dependents`` with ``step_id`` now waiting for ``added`` and no longer for ``dropped``."""
    for dependency in dropped:
        waiting = tuple(other for other in dependents[dependency] if other != step_id)
        if waiting:
            dependents[dependency] = waiting
        else:
            del dependents[dependency]
    for dependency in added:
        dependents[dependency] = (*dependents.get(dependency, ()), step_id)
    return dependents


def _status_move_holds(plan_status: PlanStatus, moved: PlanStep, steps: Sequence[PlanStep], index: _Index) -> bool:
    """Whether the plan with one step's status changed (to ``moved``'s) keeps every rule.

    The proof: ids and dependencies are unchanged, so are the integrity and cycle rules. The
    status rules that read this step's status: its own "started => dependencies done", the same
    rule of each step that depends on it, and the plan's two rules for this step.
    """
    status, position = moved.status, index.position
    if status in _STARTED and not all(steps[position[dependency]].status in _DONE for dependency in moved.depends_on):
        return False
    if status not in _DONE and any(
        steps[position[dependent]].status in _STARTED for dependent in index.dependents.get(moved.step_id, ())
    ):
        return False
    return _plan_status_holds(plan_status, status)


def _new_step_holds(plan_status: PlanStatus, step: PlanStep, steps: Sequence[PlanStep], index: _Index) -> bool:
    """Whether the plan of ``steps`` (and ``index``) keeps every rule with ``step`` added.

    The proof: the new step's id is new, and its dependencies are distinct, known and not
    itself (the integrity rules, for the only new id and the only new slots). No other step
    lists the new id (every dependency of the old plan names one of its steps), so no path of
    dependencies enters the new step, and a cycle through it would need one. The status rules
    of the other steps read values that did not change; the new step's: its dependencies done if
    it started, and the plan's two rules.
    """
    position, dependencies = index.position, step.depends_on
    if step.step_id in position or step.step_id in dependencies or len(set(dependencies)) < len(dependencies):
        return False
    if not all(map(position.__contains__, dependencies)):
        return False
    if step.status in _STARTED and not all(steps[position[dependency]].status in _DONE for dependency in dependencies):
        return False
    return _plan_status_holds(plan_status, step.status)


def _changed_step_holds(old: PlanStep, new: PlanStep, steps: Sequence[PlanStep], index: _Index) -> bool:
    """Whether the plan with one step's fields changed (not its id or status) keeps every rule.

    The proof: ids and statuses are unchanged, and no rule reads a description, role or order
    index. New dependencies may break the step's integrity rules (checked for its slots), make a
    cycle (only through the step: one of its dependencies would depend on it, directly or not,
    which the search of everything that waits for the step finds), or name a step not done while
    the step has started.
    """
    position, dependencies = index.position, new.depends_on
    if dependencies == old.depends_on:
        return True
    if new.step_id in dependencies or len(set(dependencies)) < len(dependencies):
        return False
    if not all(map(position.__contains__, dependencies)):
        return False
    if new.status in _STARTED and not all(steps[position[dependency]].status in _DONE for dependency in dependencies):
        return False
    return not _waits_for(new.step_id, set(dependencies), index)


def _waits_for(step_id: str, targets: set[str], index: _Index) -> bool:
    """Whether one of ``targets`` depends on ``step_id``, directly or through other steps."""
    seen = {step_id}
    pending = [step_id]
    while pending:
        for dependent in index.dependents.get(pending.pop(), ()):
            if dependent in targets:
                return True
            if dependent not in seen:
                seen.add(dependent)
                pending.append(dependent)
    return False


def _plan_status_holds(plan_status: PlanStatus, status: PlanStepStatus) -> bool:
    """The plan's two status rules, for one step."""
    if plan_status == "completed" and status not in _DONE:
        return False
    return not (plan_status in NOT_YET_RUNNING and status in _RAN)


def _graph(steps: Sequence[PlanStep]) -> tuple[list[str], list[Sequence[str]]]:
    """The step ids, and the dependencies of each step (empty when it has none)."""
    return list(map(_STEP_ID, steps)), [dependencies or () for dependencies in map(_DEPENDENCIES, steps)]


def _sound_graph(ids: list[str], needs: list[Sequence[str]], first: dict[str, int]) -> bool:
    """Whether no integrity or cycle rule has anything to report, found in one cheap pass.

    True when the ids are distinct and every dependency is a known step, listed
    once, before the step that needs it (so neither itself nor in a cycle).
    False also for some sound plans (a dependency listed after its step): the
    rules then decide, step by step. The proof: a dependency listed before its
    step is known and not the step itself; with distinct ids, edges that all
    point to earlier positions make no cycle; and no repeat was seen.
    """
    if not _fastpath.ENABLED:
        return False
    count = len(ids)
    if len(first) < count:
        return False
    position_of = first.get
    for position, dependencies in enumerate(needs):
        for dependency in dependencies:
            if position_of(dependency, count) >= position:  # unknown, itself, or later
                return False
        if len(dependencies) > 1 and len(set(dependencies)) < len(dependencies):
            return False
    return True


def _statuses_agree(
    plan_status: PlanStatus, ids: list[str], needs: list[Sequence[str]], statuses: list[PlanStepStatus]
) -> bool:
    """Whether no status rule has anything to report, by bulk checks only (False may still find nothing).

    The proof: each test is its rule over every step at once, on the same
    values (str-valued statuses hash and compare as their values), or stricter:
    an id counts as unfinished when any step with it is, itself included.
    """
    if not _fastpath.ENABLED:
        return False
    kinds = set(statuses)
    if plan_status == "completed" and not kinds <= _DONE:
        return False
    if plan_status in NOT_YET_RUNNING and not kinds.isdisjoint(RAN):
        return False
    # Every started step's dependencies done: none of them among the unfinished steps.
    unfinished = set(compress(ids, map(_UNFINISHED.__contains__, statuses)))
    return all(map(unfinished.isdisjoint, compress(needs, map(_STARTED.__contains__, statuses))))


def _first_positions(ids: list[str]) -> dict[str, int]:
    """Each step id and the position of the first step that has it."""
    # Built from the end, so that the first of equal ids is the one that stays.
    return dict(zip(reversed(ids), range(len(ids) - 1, -1, -1)))


def _step_integrity(ids: list[str], needs: list[Sequence[str]], first: dict[str, int]) -> Iterator[RuleViolation]:
    if len(first) < len(ids):
        yield from duplicate_ids(ids, "steps", "step_id", "step")
    known = first.__contains__
    fast = _fastpath.ENABLED
    for position, (step_id, dependencies) in enumerate(zip(ids, needs)):
        # Distinct, not itself, all known: then no slot has anything to report (C-speed checks,
        # each one of the three rules below over every slot; skipped with the fast paths off).
        if not dependencies or (
            fast
            and len(set(dependencies)) == len(dependencies)
            and step_id not in dependencies
            and all(map(known, dependencies))
        ):
            continue
        listed: set[str] = set()
        for slot, dependency in enumerate(dependencies):
            loc = ("steps", position, "dependencies", slot)
            if dependency == step_id:
                yield RuleViolation(loc, "self_dependency", f"step {step_id} depends on itself")
            elif dependency not in first:
                yield RuleViolation(
                    loc,
                    "unknown_dependency",
                    f"step {step_id} depends on {dependency}, which is not a step of this plan",
                )
            elif dependency in listed:
                yield RuleViolation(loc, "repeated_dependency", f"step {step_id} lists {dependency} twice")
            listed.add(dependency)


def _cycles(ids: list[str], needs: list[Sequence[str]], first: dict[str, int]) -> Iterator[RuleViolation]:
    if _listed_in_order(ids, needs, first):
        return
    cycle = _find_cycle(ids, needs)
    if not cycle:
        return
    position, slot = next(
        (i, needs[i].index(cycle[1])) for i, step_id in enumerate(ids) if step_id == cycle[0] and cycle[1] in needs[i]
    )
    yield RuleViolation(
        ("steps", position, "dependencies", slot),
        "dependency_cycle",
        f"the steps' dependencies form a cycle: {' -> '.join(cycle)}",
    )


def _listed_in_order(ids: list[str], needs: list[Sequence[str]], first: dict[str, int]) -> bool:
    """Whether, with distinct ids, every dependency is listed before its step: then there is no cycle.

    Most plans are. A duplicated id would merge two steps' edges; a step that
    depends on itself or on a later step leaves the question to ``_find_cycle``,
    and so does every plan with the fast paths off.
    """
    if not _fastpath.ENABLED or len(first) < len(ids):
        return False
    position_of = first.get
    return all(
        not dependencies or max(map(position_of, dependencies, _ABSENT)) < position
        for position, dependencies in enumerate(needs)
    )


def _find_cycle(ids: list[str], needs: list[Sequence[str]]) -> list[str]:
    """One dependency cycle as step ids, first id repeated at the end (a -> b -> c -> a); [] if none.

    Iterative depth-first search, so a chain of any length is fine.
    """
    graph: dict[str, list[str]] = {}
    for step_id, dependencies in zip(ids, needs):  # a duplicated id (reported elsewhere) keeps the edges of both steps
        graph.setdefault(step_id, []).extend(dep for dep in dependencies if dep != step_id)
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    for root in graph:
        if root in state:
            continue
        path: list[str] = [root]
        iterators = [iter(graph[root])]
        state[root] = 1
        while iterators:
            following = next(iterators[-1], None)
            if following is None:
                state[path.pop()] = 2
                iterators.pop()
            elif following in graph and state.get(following) == 1:
                return [*path[path.index(following) :], following]
            elif following in graph and following not in state:
                state[following] = 1
                path.append(following)
                iterators.append(iter(graph[following]))
    return []


def _status_rules(
    plan_status: PlanStatus, ids: list[str], needs: list[Sequence[str]], statuses: list[PlanStepStatus]
) -> Iterator[RuleViolation]:
    # The statuses are str-valued enums: they compare with, and hash as, their values.
    status = dict(zip(ids, statuses))
    completed, not_running = plan_status == "completed", plan_status in NOT_YET_RUNNING
    for position, (step_id, own, dependencies) in enumerate(zip(ids, statuses, needs)):
        if dependencies and own in STARTED:
            for dependency in dict.fromkeys(dependencies):  # a repeat is reported as such, once
                state = status.get(dependency)
                if state is not None and state not in DONE and dependency != step_id:
                    yield RuleViolation(
                        ("steps", position, "status"),
                        "dependency_not_done",
                        f"step {step_id} is {own.value} but its dependency {dependency} is {state.value}",
                    )
        if completed and own not in DONE:
            yield RuleViolation(
                ("steps", position, "status"),
                "plan_completed_early",
                f"the plan is completed but step {step_id} is {own.value}",
            )
        if not_running and own in RAN:
            yield RuleViolation(
                ("steps", position, "status"),
                "plan_not_started",
                f"step {step_id} is {own.value} but the plan is {plan_status.value}: no step starts before the plan"
                " is in_progress",
            )
