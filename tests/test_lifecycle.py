"""Lifecycle transitions: legal moves only, and the timestamps that go with them.

The expected moves are written out here from the docs' lifecycle sections (docs/plans.md,
docs/dialogs.md, docs/inbox.md, and for the modules whose moves upstream does not define,
the final states that docs/contexts.md, confirms.md, traces.md and collaboration.md name),
never read from the tables the code uses: every pair of states of every model is tried and
must be allowed or refused as written here. The states themselves are upstream's enums,
checked against the frozen schemas in ../shared where it is present.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from conftest import ROOT, fixture, shared_or_skip
from pydantic import ValidationError

import mplp_models as mm

Moves = dict[str, frozenset[str]]


def moves(**table: tuple[str, ...]) -> Moves:
    return {state: frozenset(targets) for state, targets in table.items()}


# docs/plans.md, "The legal moves".
PLAN = moves(
    draft=("proposed", "cancelled"),
    proposed=("approved", "draft", "cancelled"),
    approved=("in_progress", "cancelled"),
    in_progress=("completed", "failed", "cancelled"),
    completed=(),
    cancelled=(),
    failed=(),
)
STEP = moves(
    pending=("in_progress", "blocked", "skipped"),
    in_progress=("completed", "failed", "blocked"),
    completed=(),
    blocked=("pending", "in_progress", "skipped"),
    skipped=(),
    failed=("pending",),  # a retry
)
# docs/dialogs.md, "Lifecycle".
DIALOG = moves(
    active=("paused", "completed", "cancelled"),
    paused=("active", "completed", "cancelled"),
    completed=(),
    cancelled=(),
)
# docs/inbox.md, "Lifecycle": read before acknowledged, archived straight after reading.
INBOX = moves(unread=("read",), read=("acknowledged", "archived"), acknowledged=("archived",), archived=())


def open_moves(states: tuple[str, ...], final: tuple[str, ...]) -> Moves:
    """Upstream defines no moves: any move to another state, but out of the final ones."""
    return {state: frozenset() if state in final else frozenset(states) - {state} for state in states}


# States in upstream's enum order; final states as each docs page names them.
CONTEXT = open_moves(("draft", "active", "suspended", "archived", "closed"), final=("closed",))  # contexts.md
CONFIRM = open_moves(("pending", "approved", "rejected", "cancelled"), final=("cancelled",))  # confirms.md
TRACE = open_moves(  # traces.md
    ("pending", "running", "completed", "failed", "cancelled"), final=("completed", "failed", "cancelled")
)
SEGMENT = open_moves(  # traces.md: a segment's ending states, skipped among them
    ("pending", "running", "completed", "failed", "cancelled", "skipped"),
    final=("completed", "failed", "cancelled", "skipped"),
)
COLLAB = open_moves(  # collaboration.md
    ("draft", "active", "suspended", "completed", "cancelled"), final=("completed", "cancelled")
)
CORE = open_moves(("draft", "active", "deprecated", "archived"), final=("archived",))  # collaboration.md
NETWORK = open_moves(  # collaboration.md
    ("draft", "provisioning", "active", "degraded", "maintenance", "retired"), final=("retired",)
)
EXTENSION = open_moves(("registered", "active", "inactive", "deprecated"), final=())  # contexts.md: none is final

# Where upstream's frozen schema (../shared) lists each lifecycle's states.
UPSTREAM_STATES = [
    ("mplp-v1.0/schemas/mplp-plan.schema.json", "/properties/status", PLAN),
    ("mplp-v1.0/schemas/mplp-plan.schema.json", "/$defs/plan_step_core/properties/status", STEP),
    ("mplp-v1.0/schemas/mplp-dialog.schema.json", "/properties/status", DIALOG),
    ("mplp-v1.0/schemas/mplp-context.schema.json", "/properties/status", CONTEXT),
    ("mplp-v1.0/schemas/mplp-confirm.schema.json", "/properties/status", CONFIRM),
    ("mplp-v1.0/schemas/mplp-trace.schema.json", "/properties/status", TRACE),
    ("mplp-v1.0/schemas/mplp-trace.schema.json", "/$defs/trace_segment_core/properties/status", SEGMENT),
    ("mplp-v1.0/schemas/mplp-collab.schema.json", "/properties/status", COLLAB),
    ("mplp-v1.0/schemas/mplp-core.schema.json", "/properties/status", CORE),
    ("mplp-v1.0/schemas/mplp-network.schema.json", "/properties/status", NETWORK),
    ("mplp-v1.0/schemas/mplp-extension.schema.json", "/properties/status", EXTENSION),
    ("cortex-inbox/code-mode/inbox-message.schema.json", "/properties/status", INBOX),
]


@pytest.mark.parametrize(
    ("path", "pointer", "table"),
    [pytest.param(*case, id=f"{case[0].rpartition('/')[2]}#{case[1]}") for case in UPSTREAM_STATES],
)
def test_the_tables_have_upstreams_states(path: str, pointer: str, table: Moves) -> None:
    schema = json.loads(shared_or_skip(*path.split("/")).read_text(encoding="utf-8"))
    for part in pointer.strip("/").split("/"):
        schema = schema[part]
    assert sorted(schema["enum"]) == sorted(table)


# --- the docs' tables say the same as the ones written out here ---------------------------------


def states_in(cell: str) -> set[str]:
    """The states a table cell names: ``draft``, `draft`, not what is in parentheses ("(final)", "(a retry)")."""
    return set(re.findall(r"[a-z_]+", re.sub(r"\(.*?\)", "", cell)))


def docs_table(page: str, header: str, nth: int = 0) -> Moves:
    """The moves of the ``nth`` Markdown table of ``page`` whose header row starts with ``header``."""
    lines = (ROOT / "docs" / page).read_text(encoding="utf-8").splitlines()
    start = [i for i, line in enumerate(lines) if line.startswith(header)][nth]
    found: dict[str, set[str]] = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = line.split("|")[1:-1]
        for state in states_in(cells[0]):
            found.setdefault(state, set()).update(states_in(cells[1]))
    return {state: frozenset(targets) for state, targets in found.items()}


@pytest.mark.parametrize(
    ("page", "header", "nth", "table"),
    [
        ("plans.md", "| `Plan` from", 0, PLAN),
        ("plans.md", "| `PlanStep` from", 0, STEP),
        ("dialogs.md", "| from | to |", 0, DIALOG),
        ("inbox.md", "| from | to | sets |", 0, INBOX),
        ("rules.md", "| from | to |", 0, PLAN),
        ("rules.md", "| from | to |", 1, STEP),
        ("rules.md", "| from | to |", 2, DIALOG),
    ],
)
def test_the_docs_tables_are_the_ones_tested(page: str, header: str, nth: int, table: Moves) -> None:
    assert docs_table(page, header, nth) == table


# --- every pair of states: allowed or refused, as written above ---------------------------------


def plan_in(status: str, step_status: str = "pending") -> mm.Plan:
    document = fixture(mm.Plan)
    document["status"] = status
    for step in document["steps"]:
        step["status"] = step_status
    return mm.Plan.model_validate(document)


def plan_from(start: str, target: str) -> mm.Plan:
    # Steps that let the plan be in ``start`` and, the move being legal, reach ``target`` under the rules.
    if start == "completed":
        return plan_in(start, "completed")
    return plan_in(start, "skipped" if target == "completed" else "pending")


def step_in(status: str) -> mm.PlanStep:
    return mm.PlanStep(step_id="a1000000-0000-4000-8000-000000000001", description="d", status=status)  # type: ignore[arg-type]


def dialog_in(status: str) -> mm.Dialog:
    document = fixture(mm.Dialog)
    document["status"] = status
    del document["ended_at"]
    return mm.Dialog.model_validate(document)


STAMP_OF = {"read": "read_at", "acknowledged": "acknowledged_at", "archived": "archived_at"}  # docs/inbox.md


# The stamps a message in each status holds, by the shortest way there (archived straight after read).
STAMPED_ON_THE_WAY = {
    "unread": (),
    "read": ("read_at",),
    "acknowledged": ("read_at", "acknowledged_at"),
    "archived": ("read_at", "archived_at"),
}


def inbox_in(model: type[mm.InboxMessage] | type[mm.CodeInboxMessage], status: str) -> Any:
    document = fixture(model)
    document.update(status=status, read_at=None, acknowledged_at=None, archived_at=None)
    for stamp in STAMPED_ON_THE_WAY[status]:
        document[stamp] = document["updated_at"]
    return model.model_validate(document)


def module_in(model: type[Any]) -> Callable[[str], Any]:
    def build(status: str) -> Any:
        document = fixture(model)
        document["status"] = status
        if model is mm.Trace:  # stamps that fit any status: started, not yet finished
            document.pop("finished_at", None)
            document["segments"] = []
        return model.model_validate(document)

    return build


# (the model's name in its refusals, its moves, the model in a given state)
LIFECYCLES: list[tuple[str, Moves, Callable[[str], Any]]] = [
    ("Dialog", DIALOG, dialog_in),
    ("InboxMessage", INBOX, lambda status: inbox_in(mm.InboxMessage, status)),
    ("CodeInboxMessage", INBOX, lambda status: inbox_in(mm.CodeInboxMessage, status)),
    ("PlanStep", STEP, step_in),
    ("Context", CONTEXT, module_in(mm.Context)),
    ("Confirm", CONFIRM, module_in(mm.Confirm)),
    ("Trace", TRACE, module_in(mm.Trace)),
    ("Collab", COLLAB, module_in(mm.Collab)),
    ("Core", CORE, module_in(mm.Core)),
    ("Network", NETWORK, module_in(mm.Network)),
    ("Extension", EXTENSION, module_in(mm.Extension)),
]
PAIRS = [
    pytest.param(name, table, build, start, target, id=f"{name}-{start}-{target}")
    for name, table, build in LIFECYCLES
    for start in table
    for target in table
]


def legal_moves_named(error: ValueError) -> frozenset[str]:
    """The moves a refusal names as legal from its state: ``...; from X it can move to a, b``."""
    listed = str(error).rpartition(" it can move to ")[2]
    if listed == "nothing (it is final)":
        return frozenset()
    return frozenset(listed.partition(" (")[0].split(", "))  # a hint may follow, in parentheses


@pytest.mark.parametrize(("name", "table", "build", "start", "target"), PAIRS)
def test_every_pair_of_states_is_allowed_or_refused_as_the_docs_say(
    name: str, table: Moves, build: Callable[[str], Any], start: str, target: str
) -> None:
    item = build(start)
    before = item.to_dict() if hasattr(item, "to_dict") else item.model_dump()
    if target in table[start]:
        moved = item.transition(target)
        assert moved.status == target and item.status == start
    else:
        with pytest.raises(ValueError, match=f"^{name} cannot move from {start} to {target};") as caught:
            item.transition(target)
        assert legal_moves_named(caught.value) == table[start]
    assert (item.to_dict() if hasattr(item, "to_dict") else item.model_dump()) == before  # frozen: unchanged


@pytest.mark.parametrize("start", list(PLAN))
@pytest.mark.parametrize("target", list(PLAN))
def test_plan_moves(start: str, target: str) -> None:
    plan = plan_from(start, target)
    if target in PLAN[start]:
        moved = plan.transition(mm.PlanStatus(target))
        assert moved.status == target and plan.status == start
        assert moved.steps == plan.steps and moved.plan_id == plan.plan_id
    else:
        with pytest.raises(ValueError, match=f"^Plan cannot move from {start} to {target};") as caught:
            plan.transition(mm.PlanStatus(target))
        assert legal_moves_named(caught.value) == PLAN[start]
        assert plan.status == start


@pytest.mark.parametrize("start", list(SEGMENT))
@pytest.mark.parametrize("target", list(SEGMENT))
def test_segment_moves(start: str, target: str) -> None:
    segment = {"segment_id": "f6000000-0000-4000-a000-000000000001", "label": "s", "status": start}
    trace = mm.Trace.model_validate({**fixture(mm.Trace), "segments": [segment]})
    if target in SEGMENT[start]:
        moved = trace.transition_segment(segment["segment_id"], target)  # type: ignore[arg-type]
        assert moved.segment(segment["segment_id"]).status == target
    else:
        with pytest.raises(ValueError, match=f"^TraceSegment cannot move from {start} to {target};") as caught:
            trace.transition_segment(segment["segment_id"], target)  # type: ignore[arg-type]
        assert legal_moves_named(caught.value) == SEGMENT[start]
    assert trace.segment(segment["segment_id"]).status == start


# --- timestamps that go with the moves ------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "target"), [(s, t) for s, targets in DIALOG.items() for t in sorted(targets & {"completed", "cancelled"})]
)
def test_a_dialog_that_ends_gets_ended_at(start: str, target: str) -> None:
    moved = dialog_in(start).transition(target, at=mm.Timestamp("2099-01-01T00:00:00Z"))  # type: ignore[arg-type]
    assert moved.ended_at == "2099-01-01T00:00:00Z"
    assert dialog_in(start).transition("paused" if start == "active" else "active").ended_at is None


@pytest.mark.parametrize(("start", "target"), [(s, t) for s, targets in INBOX.items() for t in sorted(targets)])
def test_inbox_moves_set_their_timestamps(start: str, target: str) -> None:
    message = inbox_in(mm.InboxMessage, start)
    when = mm.Timestamp("2026-03-03T09:00:00Z")
    moved = message.transition(mm.InboxMessageStatus(target), at=when)
    assert getattr(moved, STAMP_OF[target]) == when and moved.updated_at == when
    assert moved.to_dict()[STAMP_OF[target]] == "2026-03-03T09:00:00Z"
    for other in set(STAMP_OF.values()) - {STAMP_OF[target]}:
        assert getattr(moved, other) == getattr(message, other)  # the other stamps are kept


def test_the_documented_plan_lifecycle() -> None:
    plan = plan_in("draft")
    for status in ("proposed", "draft", "proposed", "approved", "in_progress"):
        plan = plan.transition(status)
    assert plan.status is mm.PlanStatus.in_progress


def test_a_legal_move_still_obeys_the_rules_and_leaves_the_plan_unchanged() -> None:
    plan = plan_in("in_progress")
    with pytest.raises(mm.EditError, match="plan is completed but step") as caught:
        plan.transition("completed")
    assert caught.value.code == "plan_completed_early" and isinstance(caught.value.__cause__, ValidationError)
    assert plan.status is mm.PlanStatus.in_progress
    assert plan.check() == []


def test_unknown_states_are_named() -> None:
    with pytest.raises(ValueError, match="Plan has no state 'done'"):
        plan_in("draft").transition("done")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


def test_a_copy_that_breaks_a_rule_is_refused_and_the_original_stays() -> None:
    document = fixture(mm.InboxMessage)
    message = mm.InboxMessage.model_validate(document)
    with pytest.raises(ValidationError, match="acknowledged_at is not set"):
        message.model_copy(update={"acknowledged_at": None})
    with pytest.raises(ValidationError, match="acknowledged_at is not set"):
        message.without("acknowledged_at")
    assert message.acknowledged_at == document["acknowledged_at"]
    del document["archived_at"]
    message = mm.InboxMessage.model_validate(document)
    with pytest.raises(ValidationError):
        message.model_copy(update={"archived_at": mm.Timestamp("2020-01-01T00:00:00Z")})  # before created_at
    assert message.archived_at is None and "archived_at" not in message.to_dict()


def test_transition_step_moves_one_step_and_checks_the_plan() -> None:
    plan = plan_in("in_progress")
    first, second = plan.steps[0], plan.steps[1]
    assert second.dependencies and first.step_id in second.dependencies
    with pytest.raises(mm.EditError, match="dependency") as caught:
        plan.transition_step(second.step_id, "in_progress")  # its dependency is still pending
    assert (caught.value.code, caught.value.pointer) == ("dependency_not_done", "/steps/1/status")
    moved = plan.transition_step(first.step_id, "in_progress")
    assert moved.steps[0].status is mm.PlanStepStatus.in_progress and moved.steps[1:] == plan.steps[1:]
    assert plan.steps[0].status is mm.PlanStepStatus.pending
    with pytest.raises(ValueError, match="PlanStep cannot move from pending to completed") as illegal:
        plan.transition_step(first.step_id, "completed")
    assert isinstance(illegal.value, mm.EditError)
    assert (illegal.value.code, illegal.value.pointer) == ("illegal_move", "/steps/0/status")
    with pytest.raises(KeyError, match="no step"):
        plan.transition_step("00000000-0000-4000-8000-000000000000", "in_progress")


def test_every_model_with_a_lifecycle_is_tested() -> None:
    tested = {name for name, _, _ in LIFECYCLES} | {"Plan", "TraceSegment"}
    with_transition = {
        name
        for name in mm.__all__
        if isinstance(getattr(mm, name), type) and callable(getattr(getattr(mm, name), "transition", None))
    }
    assert with_transition <= tested, with_transition - tested
