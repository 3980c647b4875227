"""The rules beyond the schemas: plan integrity and status, dialog and inbox timelines."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import PAYLOADS, accepted, fixture
from fast_path_switch import fast_paths
from pydantic import ValidationError

import mplp_models as mm
from mplp_models._rules import RuleViolation

STEP = "a1000000-0000-4000-8000-00000000000{}".format


def plan_doc(*steps: dict[str, Any], status: str = "in_progress") -> dict[str, Any]:
    document = fixture(mm.Plan)
    document["status"] = status
    document["steps"] = [dict(step) for step in steps]
    return document


def step(n: int, status: str = "pending", deps: tuple[int, ...] = (), order: int | None = None) -> dict[str, Any]:
    result: dict[str, Any] = {"step_id": STEP(n), "description": f"step {n}", "status": status}
    if deps:
        result["dependencies"] = [STEP(d) for d in deps]
    if order is not None:
        result["order_index"] = order
    return result


def violations(document: dict[str, Any], model: type[mm.MplpModel] = mm.Plan) -> list[dict[str, Any]]:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(document)
    from_json = pytest.raises(ValidationError)
    with from_json as again:
        model.from_json(json.dumps(document))
    assert again.value.errors() == caught.value.errors(), "JSON and dict input are judged alike"
    return [{"loc": e["loc"], "type": e["type"], "msg": e["msg"]} for e in caught.value.errors()]


# --- step integrity ------------------------------------------------------------


def test_sound_plans_pass() -> None:
    plan = accepted(mm.Plan, fixture(mm.Plan))
    assert plan.plan_id == fixture(mm.Plan)["plan_id"]
    plan = accepted(mm.Plan, plan_doc(step(1, "completed"), step(2, "in_progress", (1,)), step(3, "pending", (1, 2))))
    assert [(s.step_id, s.status.value, s.depends_on) for s in plan.steps] == [
        (STEP(1), "completed", ()),
        (STEP(2), "in_progress", (STEP(1),)),
        (STEP(3), "pending", (STEP(1), STEP(2))),
    ]


def test_duplicate_step_ids() -> None:
    (error,) = violations(plan_doc(step(1), step(2), step(1)))
    assert error["loc"] == ("steps", 2, "step_id") and error["type"] == "duplicate_step_id"
    assert STEP(1) in error["msg"]


def test_dependency_integrity_reports_everything_at_once() -> None:
    document = plan_doc(step(1, deps=(1,)), step(2, deps=(9, 1, 1)))
    errors = violations(document)
    assert [(e["loc"], e["type"]) for e in errors] == [
        (("steps", 0, "dependencies", 0), "self_dependency"),
        (("steps", 1, "dependencies", 0), "unknown_dependency"),
        (("steps", 1, "dependencies", 2), "repeated_dependency"),
    ]
    assert STEP(9) in errors[1]["msg"] and STEP(2) in errors[1]["msg"]


def test_a_cycle_is_named_in_order() -> None:
    errors = violations(plan_doc(step(1, deps=(3,)), step(2, deps=(1,)), step(3, deps=(2,)), step(4, deps=(1,))))
    (error,) = errors
    assert error["type"] == "dependency_cycle"
    assert f"{STEP(1)} -> {STEP(3)} -> {STEP(2)} -> {STEP(1)}" in error["msg"]
    assert error["loc"] == ("steps", 0, "dependencies", 0)


def test_every_kind_of_violation_is_reported_at_once() -> None:
    document = plan_doc(
        step(1, "completed", (1, 9)), step(2, deps=(3,)), step(3, deps=(2,)), step(2, "pending"), status="completed"
    )
    types = [e["type"] for e in violations(document)]
    assert sorted(set(types)) == [
        "dependency_cycle",
        "duplicate_step_id",
        "plan_completed_early",
        "self_dependency",
        "unknown_dependency",
    ]


def test_a_long_chain_is_no_problem() -> None:
    chain = [step(0)] + [
        dict(
            step(0, deps=()),
            step_id=f"a1000000-0000-4000-8000-{n:012d}",
            dependencies=[f"a1000000-0000-4000-8000-{n - 1:012d}"],
        )
        for n in range(1, 3000)
    ]
    chain[0]["step_id"] = "a1000000-0000-4000-8000-000000000000"
    plan = mm.Plan.model_validate(plan_doc(*chain))
    assert [s.step_id for s in plan.topological_order()] == [s["step_id"] for s in chain]


# --- status rules ---------------------------------------------------------------


def test_started_steps_need_their_dependencies_done() -> None:
    errors = violations(plan_doc(step(1, "in_progress"), step(2, "completed", (1,)), step(3, "in_progress", (1,))))
    assert [(e["loc"], e["type"]) for e in errors] == [
        (("steps", 1, "status"), "dependency_not_done"),
        (("steps", 2, "status"), "dependency_not_done"),
    ]
    assert f"step {STEP(2)} is completed but its dependency {STEP(1)} is in_progress" in errors[0]["msg"]
    accepted(mm.Plan, plan_doc(step(1, "skipped"), step(2, "completed", (1,))))


def test_a_repeated_dependency_is_reported_once() -> None:
    errors = violations(plan_doc(step(1, "pending"), step(2, "in_progress", (1, 1))))
    assert [e["type"] for e in errors] == ["repeated_dependency", "dependency_not_done"]


def test_a_completed_plan_has_only_done_steps() -> None:
    errors = violations(plan_doc(step(1, "completed"), step(2, "failed"), status="completed"))
    assert [(e["loc"], e["type"]) for e in errors] == [(("steps", 1, "status"), "plan_completed_early")]
    accepted(mm.Plan, plan_doc(step(1, "completed"), step(2, "skipped"), status="completed"))


@pytest.mark.parametrize("plan_status", ["draft", "proposed", "approved"])
def test_a_plan_not_yet_running_has_no_running_steps(plan_status: str) -> None:
    errors = violations(plan_doc(step(1, "in_progress"), step(2, "failed"), step(3, "blocked"), status=plan_status))
    assert [e["loc"] for e in errors] == [("steps", 0, "status"), ("steps", 1, "status")]
    assert all(e["type"] == "plan_not_started" for e in errors)
    # Worded for a payload and for an edit alike (the step may be the one being moved): what is, and the rule.
    assert [e["msg"] for e in errors] == [
        f"step {STEP(1)} is in_progress but the plan is {plan_status}: no step starts before the plan is in_progress",
        f"step {STEP(2)} is failed but the plan is {plan_status}: no step starts before the plan is in_progress",
    ]


# --- execution order --------------------------------------------------------------


def test_topological_order_is_stable_by_order_index_then_list_order() -> None:
    plan = mm.Plan.model_validate(
        plan_doc(
            step(1, order=2),
            step(2, order=1),
            step(3),
            step(4, deps=(2,), order=0),
            step(5, deps=(1, 4)),
        )
    )
    assert [s.step_id for s in plan.topological_order()] == [STEP(n) for n in (2, 4, 1, 3, 5)]


def test_ready_steps() -> None:
    plan = mm.Plan.model_validate(
        plan_doc(
            step(1, "completed"),
            step(2, "skipped"),
            step(3, "pending", (1, 2)),
            step(4, "pending", (3,)),
            step(5, "in_progress", (1,)),
            step(6, "pending"),
        )
    )
    assert [s.step_id for s in plan.ready_steps()] == [STEP(3), STEP(6)]


def test_topological_order_names_the_problem_under_schema_only_validation() -> None:
    plan = mm.Plan.model_validate(plan_doc(step(1, deps=(2,)), step(2, deps=(1,))), context=mm.SCHEMA_ONLY)
    with pytest.raises(ValueError, match=f"{STEP(1)} -> {STEP(2)} -> {STEP(1)}"):
        plan.topological_order()
    plan = mm.Plan.model_validate(plan_doc(step(1, deps=(1,))), context=mm.SCHEMA_ONLY)
    with pytest.raises(ValueError, match="depends on itself"):
        plan.topological_order()
    plan = mm.Plan.model_validate(plan_doc(step(1), step(1, deps=(1,))), context=mm.SCHEMA_ONLY)
    with pytest.raises(ValueError, match="is used by steps 0 and 1"):
        plan.topological_order()


# --- schema-only mode and check() ---------------------------------------------------


def test_schema_only_mode_and_check() -> None:
    document = plan_doc(step(1, deps=(9,)), step(1, "completed"))
    raw = json.dumps(document)
    plan = mm.Plan.from_json(raw, semantic=False)
    assert mm.Plan.model_validate(document, context=mm.SCHEMA_ONLY) == plan
    assert type(mm.parse(raw, semantic=False)) is mm.Plan
    found = plan.check()
    assert [(v.loc, v.code) for v in found] == [
        (("steps", 1, "step_id"), "duplicate_step_id"),
        (("steps", 0, "dependencies", 0), "unknown_dependency"),
    ]
    assert mm.Plan.from_json((PAYLOADS / "plan.json").read_bytes()).check() == []


def test_schema_only_still_checks_the_schema() -> None:
    document = plan_doc(step(1))
    document["status"] = "finished"
    with pytest.raises(ValidationError):
        mm.Plan.from_json(json.dumps(document), semantic=False)


def test_rules_only_add_rejections() -> None:
    # Whatever the rules refuse, schema-only mode accepts, and the schema errors are the same in both modes.
    broken = plan_doc(step(1, "completed", (2,)), step(2, "pending"), status="draft")
    kept = accepted(mm.Plan, broken, context=mm.SCHEMA_ONLY)
    assert [(v.loc, v.code) for v in kept.check()] == [  # kept as given: the rules still find what they refuse
        (("steps", 0, "status"), "dependency_not_done"),
        (("steps", 0, "status"), "plan_not_started"),
    ]
    invalid = copy.deepcopy(broken)
    invalid["steps"][0]["order_index"] = -1
    with pytest.raises(ValidationError) as schema_errors:
        mm.Plan.model_validate(invalid, context=mm.SCHEMA_ONLY)
    with pytest.raises(ValidationError) as all_errors:
        mm.Plan.model_validate(invalid)
    assert all_errors.value.errors() == schema_errors.value.errors()


# --- dialog ---------------------------------------------------------------------------


def test_dialog_timeline_compares_instants() -> None:
    document = fixture(mm.Dialog)
    document["started_at"] = "2026-03-02T16:00:00+02:00"  # 14:00Z
    document["messages"][0]["timestamp"] = "2026-03-02T13:59:59.999Z"
    document["ended_at"] = "2026-03-02T14:00:10Z"  # message 3 is at 15:00:11+01:00, 14:00:11Z
    errors = violations(document, mm.Dialog)
    assert [(e["loc"], e["type"]) for e in errors] == [
        (("messages", 0, "timestamp"), "message_before_start"),
        (("messages", 3, "timestamp"), "message_after_end"),
    ]
    # The offsets differ: each stamp not at UTC is followed by its instant at UTC (docs/rules.md).
    assert [e["msg"] for e in errors] == [
        "message 0 at 2026-03-02T13:59:59.999Z is before started_at 2026-03-02T16:00:00+02:00 (2026-03-02T14:00:00Z)",
        "message 3 at 2026-03-02T15:00:11+01:00 (2026-03-02T14:00:11Z) is after ended_at 2026-03-02T14:00:10Z",
    ]
    document["ended_at"] = "2026-03-02T13:00:00Z"
    ended = [e["msg"] for e in violations(document, mm.Dialog) if e["loc"] == ("ended_at",)]
    assert ended == [
        "ended_at 2026-03-02T13:00:00Z is before started_at 2026-03-02T16:00:00+02:00 (2026-03-02T14:00:00Z)"
    ]


def test_timelines_are_exact_below_the_microsecond_and_take_year_zero() -> None:
    document = fixture(mm.Dialog)
    document["messages"] = document["messages"][:1]
    document["messages"][0]["timestamp"] = document["started_at"] = "2026-03-02T14:00:00.0000009Z"
    document["ended_at"] = "2026-03-02T14:00:00.0000001Z"
    assert [e["type"] for e in violations(document, mm.Dialog)] == ["ended_before_start", "message_after_end"]
    document["started_at"] = document["messages"][0]["timestamp"] = "0000-01-01T00:00:00Z"
    document["ended_at"] = "0000-12-31T23:59:59.5-01:00"
    assert mm.Dialog.model_validate(document).check() == []


# --- inbox -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "stamp"), [("read", "read_at"), ("acknowledged", "acknowledged_at"), ("archived", "archived_at")]
)
def test_inbox_status_needs_its_timestamp(status: str, stamp: str) -> None:
    document = fixture(mm.InboxMessage)
    document["status"] = status
    document[stamp] = None
    (error,) = violations(document, mm.InboxMessage)
    assert error["loc"] == (stamp,) and error["type"] == "status_stamp_missing"


def test_inbox_timestamps_not_before_creation_as_instants() -> None:
    document = fixture(mm.InboxMessage)
    document["created_at"] = "2026-03-02T15:00:00.000Z"
    document["read_at"] = "2026-03-02T16:30:00+02:00"  # 14:30Z: before, though it sorts after as text
    document["updated_at"] = "2026-03-02T14:00:00Z"
    errors = violations(document, mm.InboxMessage)
    assert [e["loc"] for e in errors] == [("updated_at",), ("read_at",)]


def test_broadcast_only_alone() -> None:
    document = fixture(mm.InboxMessage)
    document["recipient_ids"] = ["{coordinator}", "broadcast"]
    (error,) = violations(document, mm.InboxMessage)
    assert error["loc"] == ("recipient_ids", 1) and "also names {coordinator}" in error["msg"]
    document["recipient_ids"] = ["broadcast"]
    assert accepted(mm.InboxMessage, document).recipient_ids == ("broadcast",)


def test_keyword_construction_runs_the_rules() -> None:
    with pytest.raises(ValidationError, match="depends on itself"):
        mm.Plan.model_validate(plan_doc(step(1, deps=(1,))))
    steps = [mm.PlanStep(step_id=STEP(1), description="a", status="pending", dependencies=[STEP(2)])]
    with pytest.raises(ValidationError, match="not a step of this plan"):
        mm.Plan(
            meta=mm.Metadata(protocol_version="1.0.0", schema_version="1.0.0"),
            plan_id=STEP(1),
            context_id=STEP(2),
            title="t",
            objective="o",
            status="draft",
            steps=steps,
        )


class _SubjectRule(mm.InboxMessage, frozen=True):
    """A user's subclass that adds a rule of its own, and no whole-model check."""

    def _violations(self) -> Iterator[RuleViolation]:
        yield from super()._violations()
        if "!" in self.subject:
            yield RuleViolation(("subject",), "no_shouting", "the subject shouts")


@pytest.mark.parametrize("enabled", [True, False])
def test_a_rule_a_subclass_adds_is_kept_with_the_fast_paths_on(enabled: bool) -> None:
    # The inbox's whole-model check knows nothing of the subclass's rule: the subclass gets none.
    document = fixture(mm.InboxMessage) | {"subject": "Ship it!"}
    with fast_paths(enabled):
        for read in (
            lambda: _SubjectRule.model_validate(document),
            lambda: _SubjectRule.from_json(json.dumps(document)),
        ):
            with pytest.raises(ValidationError) as caught:
                read()
            assert [error["type"] for error in caught.value.errors()] == ["no_shouting"]
        assert [
            violation.code for violation in _SubjectRule.model_validate(document, context=mm.SCHEMA_ONLY).check()
        ] == ["no_shouting"]
