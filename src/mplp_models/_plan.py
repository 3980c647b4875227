"""Plan and step rules: step integrity, the dependency graph, status consistency, lifecycles."""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from typing_extensions import Self

from mplp_models._semantic import LifecycleModel, RuledModel, RuleViolation

if TYPE_CHECKING:
    from mplp_models._generated.mplp.v1_0.mplp_plan_schema import PlanStatus, PlanStep, PlanStepStatus

__all__ = ["PLAN_MOVES", "STEP_MOVES", "PlanBase", "PlanStepBase"]

OPEN_PLAN = ("draft", "proposed", "approved", "in_progress")
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


class PlanStepBase(LifecycleModel):
    """Behaviour of ``PlanStep``: its lifecycle (its rules need the plan, so ``Plan`` checks them)."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = STEP_MOVES

    if TYPE_CHECKING:
        step_id: str
        status: PlanStepStatus
        dependencies: list[str] | None
        order_index: int | None

    def transition(self, to: PlanStepStatus | str) -> Self:
        """Move the step to ``to`` and return it; a ``ValueError`` if the move is not legal.

        pending -> in_progress | blocked | skipped; blocked -> pending | in_progress | skipped;
        in_progress -> completed | failed | blocked; failed -> pending (a retry).
        """
        self.status = self._check_move(self.status, to, type(self.status))
        return self


class PlanBase(RuledModel):
    """Behaviour of ``Plan``: step integrity and status rules, execution order, lifecycle."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = PLAN_MOVES

    if TYPE_CHECKING:
        status: PlanStatus
        steps: list[PlanStep]

    def transition(self, to: PlanStatus | str) -> Self:
        """Move the plan to ``to`` and return it; a ``ValueError`` if the move is not legal.

        draft -> proposed; proposed -> approved | draft; approved -> in_progress;
        in_progress -> completed | failed; any open state -> cancelled. The status
        rules still apply: a plan with a pending step cannot become completed.
        """
        self.status = self._check_move(self.status, to, type(self.status))
        return self

    def topological_order(self) -> list[PlanStep]:
        """The steps in an order that runs every dependency first.

        Among steps that are ready together, lower ``order_index`` first (steps
        without one after those with one), then list order. A ``ValueError`` names
        the cycle, duplicate id or bad dependency if there is one (possible only
        under schema-only validation).
        """
        first = _first_positions(self.steps)
        problems = _step_integrity(self.steps, first)
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
            cycle = _find_cycle(self.steps)
            raise ValueError(f"the steps' dependencies form a cycle: {' -> '.join(cycle)}")
        return order

    def ready_steps(self) -> list[PlanStep]:
        """The pending steps whose dependencies are all completed or skipped, in list order."""
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
        # the integrity rules already report.
        steps = self.steps
        first = _first_positions(steps)
        return _step_integrity(steps, first) + _cycles(steps, first) + _status_rules(self.status.value, steps)


def _first_positions(steps: list[PlanStep]) -> dict[str, int]:
    """Each step id and the position of the first step that has it."""
    first: dict[str, int] = {}
    for position, step in enumerate(steps):
        first.setdefault(step.step_id, position)
    return first


def _step_integrity(steps: list[PlanStep], first: dict[str, int]) -> list[RuleViolation]:
    found: list[RuleViolation] = []
    if len(first) < len(steps):
        for position, step in enumerate(steps):
            if first[step.step_id] != position:
                found.append(RuleViolation(
                    ("steps", position, "step_id"), "duplicate_step_id",
                    f"step id {step.step_id} is used by steps {first[step.step_id]} and {position}",
                ))  # fmt: skip
    for position, step in enumerate(steps):
        dependencies = step.dependencies
        if not dependencies:
            continue
        listed: set[str] = set()
        for slot, dependency in enumerate(dependencies):
            loc = ("steps", position, "dependencies", slot)
            if dependency == step.step_id:
                found.append(RuleViolation(loc, "self_dependency", f"step {step.step_id} depends on itself"))
            elif dependency not in first:
                found.append(RuleViolation(
                    loc, "unknown_dependency", f"step {step.step_id} depends on {dependency}, which is not a step of this plan"
                ))  # fmt: skip
            elif dependency in listed:
                found.append(RuleViolation(loc, "repeated_dependency", f"step {step.step_id} lists {dependency} twice"))
            listed.add(dependency)
    return found


def _cycles(steps: list[PlanStep], first: dict[str, int]) -> list[RuleViolation]:
    # Most plans list every step after the steps it depends on: then there is
    # no cycle to look for (with distinct ids; a duplicate merges two steps' edges).
    if len(first) == len(steps) and all(
        first.get(dependency, -1) < position
        for position, step in enumerate(steps)
        for dependency in step.dependencies or ()
        if dependency != step.step_id
    ):
        return []
    cycle = _find_cycle(steps)
    if not cycle:
        return []
    position, slot = next(
        (i, (step.dependencies or []).index(cycle[1]))
        for i, step in enumerate(steps)
        if step.step_id == cycle[0] and cycle[1] in (step.dependencies or ())
    )
    return [RuleViolation(
        ("steps", position, "dependencies", slot), "dependency_cycle",
        f"the steps' dependencies form a cycle: {' -> '.join(cycle)}",
    )]  # fmt: skip


def _find_cycle(steps: list[PlanStep]) -> list[str]:
    """One dependency cycle as step ids, first id repeated at the end (a -> b -> c -> a); [] if none.

    Iterative depth-first search, so a chain of any length is fine.
    """
    graph: dict[str, list[str]] = {}
    for step in steps:  # a duplicated id (reported elsewhere) keeps the edges of both steps
        graph.setdefault(step.step_id, []).extend(dep for dep in step.dependencies or () if dep != step.step_id)
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
                return path[path.index(following) :] + [following]
            elif following in graph and following not in state:
                state[following] = 1
                path.append(following)
                iterators.append(iter(graph[following]))
    return []


def _status_rules(plan_status: str, steps: list[PlanStep]) -> list[RuleViolation]:
    # The statuses are str-valued enums: they compare with, and hash as, their values.
    found: list[RuleViolation] = []
    status = {step.step_id: step.status for step in steps}
    completed, not_running = plan_status == "completed", plan_status in NOT_YET_RUNNING
    for position, step in enumerate(steps):
        own = step.status
        if own in STARTED and step.dependencies:
            for dependency in dict.fromkeys(step.dependencies):  # a repeat is reported as such, once
                if dependency in status and dependency != step.step_id and status[dependency] not in DONE:
                    found.append(RuleViolation(
                        ("steps", position, "status"), "dependency_not_done",
                        f"step {step.step_id} is {own.value} but its dependency {dependency} is {status[dependency].value}",
                    ))  # fmt: skip
        if completed and own not in DONE:
            found.append(RuleViolation(
                ("steps", position, "status"), "plan_completed_early",
                f"the plan is completed but step {step.step_id} is {own.value}",
            ))  # fmt: skip
        if not_running and own in ("in_progress", "completed", "failed"):
            found.append(RuleViolation(
                ("steps", position, "status"), "plan_not_started",
                f"the plan is {plan_status} but step {step.step_id} is already {own.value}",
            ))  # fmt: skip
    return found
