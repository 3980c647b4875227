"""Plan and step rules: step integrity, the dependency graph, status consistency, lifecycles."""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from itertools import compress, repeat
from operator import attrgetter
from typing import TYPE_CHECKING, ClassVar

from typing_extensions import Self

from mplp_models import _fastpath
from mplp_models._semantic import LifecycleModel, RuledModel, RuleViolation, duplicate_ids

if TYPE_CHECKING:
    from mplp_models._generated.mplp.v1_0.mplp_plan_schema import PlanStatus, PlanStep, PlanStepStatus

__all__ = ["PLAN_MOVES", "STEP_MOVES", "PlanBase", "PlanStepBase"]

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


class PlanStepBase(LifecycleModel, frozen=True):
    """Behaviour of ``PlanStep``: its lifecycle (its rules need the plan, so ``Plan`` checks them)."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = STEP_MOVES

    if TYPE_CHECKING:
        step_id: str
        status: PlanStepStatus
        dependencies: tuple[str, ...] | None
        order_index: int | None

    def transition(self, to: PlanStepStatus | str) -> Self:
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
        return self.model_copy(update={"status": self._check_move(to)})


class PlanBase(RuledModel, frozen=True):
    """Behaviour of ``Plan``: step integrity and status rules, execution order, lifecycle."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = PLAN_MOVES

    if TYPE_CHECKING:
        status: PlanStatus
        steps: tuple[PlanStep, ...]

    def transition(self, to: PlanStatus | str) -> Self:
        """The plan moved to another status.

        draft -> proposed; proposed -> approved | draft; approved -> in_progress;
        in_progress -> completed | failed; any open state -> cancelled.

        Args:
            to: The new status, a member or its value.

        Returns:
            A new plan; this one is unchanged.

        Raises:
            ValueError: If the lifecycle has no such move.
            ValidationError: If the moved plan breaks a rule (a pending step in a completed plan).
        """
        return self.model_copy(update={"status": self._check_move(to)})

    def transition_step(self, step_id: str, to: PlanStepStatus | str) -> Self:
        """The plan with one of its steps moved to another status, the plan's rules checked.

        Args:
            step_id: The id of the step (the first step with it).
            to: The step's new status, a member or its value.

        Returns:
            A new plan; this one is unchanged.

        Raises:
            KeyError: If no step has that id.
            ValueError: If the step's lifecycle has no such move.
            ValidationError: If the plan would break a rule (a step started before its dependencies are done, say).
        """
        position = next((index for index, step in enumerate(self.steps) if step.step_id == step_id), None)
        if position is None:
            raise KeyError(f"the plan has no step {step_id!r}")
        moved = self.steps[position].transition(to)
        steps = (*self.steps[:position], moved, *self.steps[position + 1 :])
        return self.model_copy(update={"steps": steps})

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
        problems = _step_integrity(ids, needs, first)
        if problems:  # possible only under schema-only validation
            raise ValueError(f"the steps have no execution order: {problems[0].message}")
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
        """What an executor may start now.

        Returns:
            The pending steps whose dependencies are all completed or skipped, in list order.
        """
        status = {step.step_id: step.status.value for step in self.steps}
        return [
            step
            for step in self.steps
            if step.status.value == "pending" and all(status.get(dep) in DONE for dep in step.dependencies or ())
        ]

    def _rank(self, position: int) -> tuple[bool, int, int]:
        order_index = self.steps[position].order_index
        return (order_index is None, order_index or 0, position)

    def _violations(self) -> list[RuleViolation]:
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
        found = (
            [] if _sound_graph(ids, needs, first) else _step_integrity(ids, needs, first) + _cycles(ids, needs, first)
        )
        if not _statuses_agree(self.status, ids, needs, statuses):
            found += _status_rules(self.status, ids, needs, statuses)
        return found


_STEP_ID = attrgetter("step_id")
_STATUS = attrgetter("status")
_DEPENDENCIES = attrgetter("dependencies")
_ABSENT = repeat(-1)  # the position of an unknown dependency, for map(first.get, ...): an endless -1
# As sets, for membership tests that map() runs in C (a status enum hashes and compares as its value).
_DONE = frozenset(DONE)
_STARTED = frozenset(STARTED)
_UNFINISHED = frozenset(STEP_MOVES) - _DONE


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


def _step_integrity(ids: list[str], needs: list[Sequence[str]], first: dict[str, int]) -> list[RuleViolation]:
    found = duplicate_ids(ids, "steps", "step_id", "step") if len(first) < len(ids) else []
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
                found.append(RuleViolation(loc, "self_dependency", f"step {step_id} depends on itself"))
            elif dependency not in first:
                found.append(
                    RuleViolation(
                        loc,
                        "unknown_dependency",
                        f"step {step_id} depends on {dependency}, which is not a step of this plan",
                    )
                )
            elif dependency in listed:
                found.append(RuleViolation(loc, "repeated_dependency", f"step {step_id} lists {dependency} twice"))
            listed.add(dependency)
    return found


def _cycles(ids: list[str], needs: list[Sequence[str]], first: dict[str, int]) -> list[RuleViolation]:
    if _listed_in_order(ids, needs, first):
        return []
    cycle = _find_cycle(ids, needs)
    if not cycle:
        return []
    position, slot = next(
        (i, needs[i].index(cycle[1])) for i, step_id in enumerate(ids) if step_id == cycle[0] and cycle[1] in needs[i]
    )
    return [
        RuleViolation(
            ("steps", position, "dependencies", slot),
            "dependency_cycle",
            f"the steps' dependencies form a cycle: {' -> '.join(cycle)}",
        )
    ]


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
) -> list[RuleViolation]:
    # The statuses are str-valued enums: they compare with, and hash as, their values.
    found: list[RuleViolation] = []
    status = dict(zip(ids, statuses))
    completed, not_running = plan_status == "completed", plan_status in NOT_YET_RUNNING
    for position, (step_id, own, dependencies) in enumerate(zip(ids, statuses, needs)):
        if dependencies and own in STARTED:
            for dependency in dict.fromkeys(dependencies):  # a repeat is reported as such, once
                state = status.get(dependency)
                if state is not None and state not in DONE and dependency != step_id:
                    found.append(
                        RuleViolation(
                            ("steps", position, "status"),
                            "dependency_not_done",
                            f"step {step_id} is {own.value} but its dependency {dependency} is {state.value}",
                        )
                    )
        if completed and own not in DONE:
            found.append(
                RuleViolation(
                    ("steps", position, "status"),
                    "plan_completed_early",
                    f"the plan is completed but step {step_id} is {own.value}",
                )
            )
        if not_running and own in RAN:
            found.append(
                RuleViolation(
                    ("steps", position, "status"),
                    "plan_not_started",
                    f"the plan is {plan_status.value} but step {step_id} is already {own.value}",
                )
            )
    return found
