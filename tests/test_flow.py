"""check_flow: the documents of one session against each other; the linked builders.

The session: upstream's golden MAP flow (context, plan, collab) and upstream's
examples of the other modules, re-linked into it (each example's link fields set
to the flow's ids, written out below). Each binding is then broken by one field,
and the rule expected is written out per row, from docs/sessions.md's table.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import shared_or_skip
from hypothesis import given, settings
from hypothesis import strategies as st

import mplp_models as mm

FLOWS = ("flow-01-single-agent-plan", "sa-flow-01-basic", "map-flow-01-turn-taking")
PROFILES = {"flow-01-single-agent-plan": "sa", "sa-flow-01-basic": "sa", "map-flow-01-turn-taking": "map"}

# The golden MAP flow's ids, and the ones given to the re-linked examples.
CONTEXT = "650e8400-e29b-41d4-a716-446655443000"
PLAN = "650e8400-e29b-41d4-a716-446655443001"
COLLAB = "650e8400-e29b-41d4-a716-446655443002"
TRACE = "650e8400-e29b-41d4-a716-446655443010"
OTHER = "9b2e4c1a-7d3f-4e8a-b5c6-0d1e2f3a4b5c"  # an id no document of the session has


def _read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _flow_documents(flow: str, part: str) -> dict[str, mm.Payload]:
    folder = shared_or_skip("mplp-v1.0", "flows", flow, part)
    return {path.name: mm.parse(path.read_bytes()) for path in sorted(folder.glob("*.json"))}


@pytest.mark.parametrize("part", ["input", "expected"])
@pytest.mark.parametrize("flow", FLOWS)
def test_golden_flows_break_no_rule(flow: str, part: str) -> None:
    documents = _flow_documents(flow, part)
    assert mm.check_flow(documents) == []
    assert mm.check_flow(documents, profile=PROFILES[flow]) == []  # type: ignore[arg-type]
    report = mm.check_flow_report(documents, profile=PROFILES[flow])  # type: ignore[arg-type]
    statuses = {result.rule: result.status for result in report.rules}
    assert statuses["plan_context"] == "holds"
    assert statuses["trace_context"] == "not_applicable"  # no trace in upstream's golden flows
    assert statuses["collab_context"] == ("holds" if flow.startswith("map") else "not_applicable")


def _session_json() -> dict[str, dict[str, Any]]:
    flow = shared_or_skip("mplp-v1.0", "flows", "map-flow-01-turn-taking", "input")
    examples = shared_or_skip("mplp-v1.0", "examples")
    session = {name: _read(flow / f"{name}.json") for name in ("context", "plan", "collab")}
    session["plan"]["trace"] = {
        "trace_id": TRACE,
        "span_id": "650e8400-e29b-41d4-a716-446655443017",
        "context_id": CONTEXT,
    }
    trace = _read(examples / "trace.with-events.json")
    trace.update(trace_id=TRACE, context_id=CONTEXT, plan_id=PLAN)
    trace["root_span"].update(trace_id=TRACE, context_id=CONTEXT)
    trace["events"][0]["trace_id"] = TRACE
    session["trace"] = trace
    confirm = _read(examples / "confirm.minimal.json")
    session["confirm-plan"] = {**confirm, "confirm_id": "650e8400-e29b-41d4-a716-446655443011"}
    session["confirm-plan"].update(target_type="plan", target_id=PLAN)
    session["confirm-trace"] = {**confirm, "confirm_id": "650e8400-e29b-41d4-a716-446655443012"}
    session["confirm-trace"].update(target_type="trace", target_id=TRACE)
    for number, module in enumerate(("dialog", "extension", "network"), start=13):
        document = _read(examples / f"{module}.minimal.json")
        document.update({f"{module}_id": f"650e8400-e29b-41d4-a716-4466554430{number}", "context_id": CONTEXT})
        session[module] = document
    event = _read(examples / "event.valid.json")
    event.update(event_id="650e8400-e29b-41d4-a716-446655443016", trace_id=TRACE)
    session["event"] = event
    return session


def _parsed(session: dict[str, dict[str, Any]], **options: Any) -> dict[str, mm.Payload]:
    return {name: mm.parse(document, **options) for name, document in session.items()}


def test_the_relinked_session_holds_every_binding() -> None:
    report = mm.check_flow_report(_parsed(_session_json()))
    assert report.violations == ()
    assert report.ok
    checked = {result.rule: result.applications for result in report.rules}
    # Written out: how many times each rule applies to this session.
    assert checked == {
        "plan_context": 1,
        "collab_context": 1,
        "trace_context": 1,
        "root_span_context": 1,
        "trace_plan": 1,
        "confirm_target_plan": 1,
        "confirm_target": 1,
        "context_binding": 3,
        "span_context": 1,
        "span_trace": 1,
        "event_trace": 2,
        "segment_step": 0,  # no segment names a step
        "one_context": 1,
        "id_kind": 10,
        "document_rules": 9,  # the Event is the only document without rules of its own
    }
    statuses = {result.rule: result.status for result in report.rules}
    assert statuses.pop("segment_step") == "not_applicable" and set(statuses.values()) == {"holds"}


# (document, path, rule): each row breaks one binding with one field.
MUTATIONS = [
    ("plan", ("context_id",), "plan_context"),
    ("collab", ("context_id",), "collab_context"),
    ("trace", ("context_id",), "trace_context"),
    ("trace", ("root_span", "context_id"), "root_span_context"),
    ("trace", ("plan_id",), "trace_plan"),
    ("confirm-plan", ("target_id",), "confirm_target_plan"),
    ("confirm-trace", ("target_id",), "confirm_target"),
    ("dialog", ("context_id",), "context_binding"),
    ("extension", ("context_id",), "context_binding"),
    ("network", ("context_id",), "context_binding"),
    ("plan", ("trace", "context_id"), "span_context"),
    ("plan", ("trace", "trace_id"), "span_trace"),
    ("trace", ("events", 0, "trace_id"), "event_trace"),
    ("event", ("trace_id",), "event_trace"),
]


def _set(document: dict[str, Any], path: tuple[str | int, ...], value: object) -> object:
    *parents, last = path
    node: Any = document
    for part in parents:
        node = node[part]
    before = node[last]
    node[last] = value
    return before


@pytest.mark.parametrize(
    ("name", "path", "rule"), MUTATIONS, ids=[f"{m[0]}:{'/'.join(map(str, m[1]))}" for m in MUTATIONS]
)
def test_one_field_breaking_a_binding_is_caught(name: str, path: tuple[str | int, ...], rule: str) -> None:
    session = _session_json()
    before = _set(session[name], path, OTHER)
    violations = mm.check_flow(_parsed(session))
    assert [violation.rule for violation in violations] == [rule]
    (violation,) = violations
    first = violation.locations[0]
    assert (first.document, first.pointer) == (name, "/" + "/".join(map(str, path)))
    # The message names both ids: the one found and the one it should be.
    assert OTHER in violation.message
    assert str(before) in violation.message or (rule == "event_trace" and name == "trace")


def test_an_id_shared_by_two_kinds_is_caught() -> None:
    session = _session_json()
    session["dialog"]["dialog_id"] = PLAN
    violations = mm.check_flow(_parsed(session))
    assert [(v.rule, [(w.document, w.pointer) for w in v.locations]) for v in violations] == [
        ("id_kind", [("dialog", "/dialog_id"), ("plan", "/plan_id")])
    ]
    assert PLAN in violations[0].message


def test_a_second_context_is_caught() -> None:
    session = _session_json()
    session["context-2"] = {**session["context"], "context_id": OTHER}
    violations = mm.check_flow(_parsed(session))
    assert [violation.rule for violation in violations] == ["one_context"]
    assert CONTEXT in violations[0].message and OTHER in violations[0].message


def test_a_documents_own_rules_are_reported() -> None:
    session = _session_json()
    steps = session["plan"]["steps"]
    steps[1]["step_id"] = steps[0]["step_id"]  # read schema-only: the plan's own rule is broken
    documents = _parsed(session, semantic=False)
    violations = mm.check_flow(documents)
    assert "document_rules" in [violation.rule for violation in violations]
    found = next(v for v in violations if v.rule == "document_rules")
    assert (found.locations[0].document, found.locations[0].pointer) == ("plan", "/steps/1/step_id")


def test_absent_documents_make_a_binding_not_applicable_never_holding() -> None:
    session = _session_json()
    report = mm.check_flow_report({"plan": mm.parse(session["plan"])})
    results = {result.rule: result for result in report.rules}
    assert results["plan_context"].status == "not_applicable"
    assert results["plan_context"].applications == 0
    assert results["plan_context"].reason == "no Context in the set"
    assert results["trace_plan"].status == "not_applicable"
    assert report.violations == ()


def test_documents_in_an_iterable_are_named_by_position() -> None:
    session = _session_json()
    session["plan"]["context_id"] = OTHER
    documents = [mm.parse(session["context"]), mm.parse(session["plan"])]
    (violation,) = mm.check_flow(documents)
    assert [(w.document, w.kind, w.pointer) for w in violation.locations] == [
        (1, "Plan", "/context_id"),
        (0, "Context", "/context_id"),
    ]


def test_something_else_than_a_document_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="not a parsed payload"):
        mm.check_flow([{"plan_id": PLAN}])  # type: ignore[list-item]
    step = mm.PlanStep(step_id=PLAN, description="d", status="pending")
    with pytest.raises(TypeError, match="document 0 is not a parsed payload"):
        mm.check_flow([step])


def test_an_unknown_profile_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="'sa', 'map' or None"):
        mm.check_flow([], profile="ma")  # type: ignore[arg-type]


class MyPlan(mm.Plan, frozen=True):
    """A user's subclass of Plan."""


def test_a_subclass_of_a_model_is_its_kind() -> None:
    context = mm.Context.new("c", domain="d", environment="e")
    plan = MyPlan.new(context, title="t", objective="o", steps=["s"])
    assert mm.check_flow([context, plan]) == []
    broken = MyPlan.new(mm.Context.new("c", domain="d", environment="e"), title="t", objective="o", steps=["s"])
    (violation,) = mm.check_flow([context, broken])
    assert (violation.rule, violation.locations[0].kind) == ("plan_context", "Plan")


# --- the profiles ----------------------------------------------------------------------------------

PROFILE_BREAKS = [
    ("sa", "context", ("status",), "draft", "sa_context_must_be_active"),
    ("sa", "plan", ("steps", 0, "agent_role"), "  ", "sa_steps_agent_role_if_present"),
    ("sa", "trace", ("events",), [], "sa_trace_not_empty"),
    ("map", "collab", ("participants", 1, "participant_id"), " ", "map_participant_ids_are_non_empty"),
    ("map", "context", ("status",), "suspended", "sa_context_must_be_active"),  # MAP extends SA
]


@pytest.mark.parametrize(("profile", "name", "path", "value", "rule"), PROFILE_BREAKS)
def test_profile_rules(profile: str, name: str, path: tuple[str | int, ...], value: object, rule: str) -> None:
    session = _session_json()
    assert mm.check_flow(_parsed(session), profile=profile) == []  # type: ignore[arg-type]
    _set(session[name], path, value)
    documents = _parsed(session)
    assert mm.check_flow(documents) == []  # not a rule without the profile
    violations = mm.check_flow(documents, profile=profile)  # type: ignore[arg-type]
    assert [violation.rule for violation in violations] == [rule]


def test_map_binds_every_participant_to_a_role() -> None:
    session = _session_json()
    del session["collab"]["participants"][0]["role_id"]
    documents = _parsed(session)
    assert mm.check_flow(documents, profile="sa") == []
    (violation,) = mm.check_flow(documents, profile="map")
    assert violation.rule == "map_participants_have_role_ids"
    assert violation.locations[0].pointer == "/participants/0/role_id"


def test_sa_asks_the_trace_to_name_the_plan() -> None:
    session = _session_json()
    del session["trace"]["plan_id"]
    documents = _parsed(session)
    assert mm.check_flow(documents) == []  # plan_id is optional in the schema
    assert [v.rule for v in mm.check_flow(documents, profile="sa")] == ["sa_trace_plan_binding"]


def test_sa_asks_for_a_context() -> None:
    session = _session_json()
    documents = {name: document for name, document in _parsed(session).items() if name != "context"}
    assert mm.check_flow(documents) == []
    assert [v.rule for v in mm.check_flow(documents, profile="sa")] == ["sa_requires_context"]


# --- the linked builders -------------------------------------------------------------------------


def test_builders_link_the_documents() -> None:
    context = mm.Context.new("Demo", domain="demo", environment="test", at="2026-01-01T00:00:00Z")
    assert (context.status, context.created_at, context.root.domain) == (
        mm.ContextStatus.active,
        "2026-01-01T00:00:00Z",
        "demo",
    )
    plan = mm.Plan.new(context, title="T", objective="O", steps=["one", "two"])
    assert plan.context_id == context.context_id
    assert [(step.description, step.order_index, step.status.value) for step in plan.steps] == [
        ("one", 0, "pending"),
        ("two", 1, "pending"),
    ]
    assert plan.steps[0].step_id != plan.steps[1].step_id
    confirm = mm.Confirm.request(plan, requested_by_role="reviewer", reason="check")
    assert (confirm.target_type.value, confirm.target_id, confirm.status.value) == ("plan", plan.plan_id, "pending")
    on_context = mm.Confirm.request(context, requested_by_role="reviewer")
    assert (on_context.target_type.value, on_context.target_id) == ("context", context.context_id)
    trace = mm.Trace.start(context, plan, at="2026-01-01T00:00:01Z")
    assert (trace.context_id, trace.plan_id, trace.root_span.context_id) == (
        context.context_id,
        plan.plan_id,
        context.context_id,
    )
    assert (trace.status.value, trace.started_at) == ("running", "2026-01-01T00:00:01Z")
    assert mm.check_flow([context, plan, confirm, on_context, trace]) == []
    assert mm.Context.new("Demo", domain="d", environment="e").context_id != context.context_id


def test_a_confirm_of_something_else_is_a_type_error() -> None:
    role = mm.Role.model_validate(
        {"meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"}, "role_id": mm.new_id(), "name": "n"}
    )
    with pytest.raises(TypeError, match="not Role"):
        mm.Confirm.request(role, requested_by_role="r")  # type: ignore[arg-type]


class Plan:  # an unrelated class that only shares the model's name
    plan_id = "650e8400-e29b-41d4-a716-446655443001"


def test_a_confirm_of_a_subclass_is_of_its_model_and_a_namesake_is_refused() -> None:
    context = mm.Context.new("Demo", domain="d", environment="e")
    mine = MyPlan.new(context, title="T", objective="O", steps=["one"])
    confirm = mm.Confirm.request(mine, requested_by_role="reviewer")
    assert (confirm.target_type.value, confirm.target_id) == ("plan", mine.plan_id)
    assert mm.check_flow([context, mine, confirm]) == []
    with pytest.raises(TypeError, match="not Plan"):
        mm.Confirm.request(Plan(), requested_by_role="r")  # type: ignore[arg-type]


def test_plan_new_refuses_a_string_of_steps() -> None:
    context = mm.Context.new("Demo", domain="d", environment="e")
    with pytest.raises(TypeError, match="not the string 'Deploy'"):
        mm.Plan.new(context, title="T", objective="O", steps="Deploy")  # type: ignore[call-overload]


def test_the_builders_read_an_iterator_once_and_refuse_a_set() -> None:
    # As a model's array field from Python (docs/models.md): an iterator is read in order, and a set or
    # a dict or a dict view, as a model's array field refuses them (a set's order is the hash order).
    context = mm.Context.new("Demo", domain="d", environment="e")
    steps: Any = iter(["Build", "Test"])  # typed a list or a tuple; an untyped caller's iterator
    plan = mm.Plan.new(context, title="T", objective="O", steps=steps)
    assert [step.description for step in plan.steps] == ["Build", "Test"]
    for unordered in ({"Build", "Test"}, frozenset({"Build"}), {"Build": 1}.keys(), {"Build": 1}):
        with pytest.raises(TypeError, match="whose order the models do not take"):
            mm.Plan.new(context, title="T", objective="O", steps=unordered)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="not the string b'Build'"):
        mm.Plan.new(context, title="T", objective="O", steps=b"Build")  # type: ignore[call-overload]
    with pytest.raises(TypeError, match=r"steps\[1\], if not a description, must be a PlanStep, not int"):
        mm.Plan.new(context, title="T", objective="O", steps=["Build", 1])  # type: ignore[list-item]
    crew = [mm.CollabParticipant(participant_id=name, kind="agent") for name in ("planner", "builder")]
    participants: Any = iter(crew)
    collab = mm.Collab.new(context, title="C", purpose="P", mode="round_robin", participants=participants)
    assert collab.participants == tuple(crew)
    with pytest.raises(
        TypeError, match=r"participants must be a list of participants .*whose order the models do not take"
    ):
        mm.Collab.new(context, title="C", purpose="P", mode="round_robin", participants=set(crew))  # type: ignore[arg-type]


def test_the_builders_refuse_what_is_not_the_document_they_name() -> None:
    # The builders read ids off their arguments: a plan given as the context has a context_id too,
    # and would be taken as one. A subclass of the model counts (MyPlan, above).
    context = mm.Context.new("Demo", domain="d", environment="e")
    plan = mm.Plan.new(context, title="T", objective="O", steps=["one"]).transition("proposed")
    wrong: Any = plan
    crew = [mm.CollabParticipant(participant_id="planner", kind="agent")]
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: mm.Plan.new(wrong, title="T", objective="O", steps=["a"]), "Plan.new's context must be a Context"),
        (lambda: mm.Dialog.new(wrong), "Dialog.new's context must be a Context"),
        (lambda: mm.Trace.new(wrong), "Trace.new's context must be a Context"),
        (lambda: mm.Trace.new(context, context), "Trace.new's plan must be a Plan, not Context"),  # type: ignore[arg-type]
        (
            lambda: mm.Collab.new(wrong, title="C", purpose="P", mode="pair", participants=crew),
            "Collab.new's context must be a Context",
        ),
        (lambda: plan.approve(wrong), "approve's confirm must be a Confirm, not Plan"),
    ]
    for call, message in calls:
        with pytest.raises(TypeError, match=f"^{re.escape(message)}"):
            call()
    assert MyPlan.new(context, title="T", objective="O", steps=["one"]).context_id == context.context_id


def test_plan_new_gives_new_steps_an_order_index_no_given_step_has() -> None:
    context = mm.Context.new("Demo", domain="d", environment="e")
    given = mm.PlanStep(step_id=mm.new_id(), description="b", status="pending", order_index=1)
    unordered = mm.PlanStep(step_id=mm.new_id(), description="u", status="pending")
    rows: list[tuple[list[str | mm.PlanStep], list[tuple[str, int | None]]]] = [
        # No given step has an order_index: each new step has its position (as docs/sessions.md says).
        (["a", unordered, "c"], [("a", 0), ("u", None), ("c", 2)]),
        # A given one has: new steps come after the highest given one, in list order.
        ([given, "c", "d"], [("b", 1), ("c", 2), ("d", 3)]),
        (["a", given], [("a", 2), ("b", 1)]),
    ]
    for steps, expected in rows:
        plan = mm.Plan.new(context, title="T", objective="O", steps=steps)
        assert [(step.description, step.order_index) for step in plan.steps] == expected
    ordered = mm.Plan.new(context, title="T", objective="O", steps=[given, "c"])
    assert [step.description for step in ordered.topological_order()] == ["b", "c"]


def test_a_trace_of_a_plan_of_another_context_is_refused() -> None:
    context = mm.Context.new("A", domain="d", environment="e")
    elsewhere = mm.Plan.new(mm.Context.new("B", domain="d", environment="e"), title="T", objective="O", steps=["s"])
    with pytest.raises(ValueError, match=elsewhere.context_id):
        mm.Trace.start(context, elsewhere)


def _event(trace_id: str) -> mm.Event:
    return mm.Event.model_validate(
        {
            "event_id": mm.new_id(),
            "event_type": "step.completed",
            "source": "test",
            "timestamp": "2026-01-01T00:00:00Z",
            "trace_id": trace_id,
        }
    )


@st.composite
def _sessions(draw: st.DrawFn) -> list[mm.Payload]:
    context = mm.Context.new(draw(st.text(min_size=1, max_size=8)), domain="d", environment="e")
    plans = [
        mm.Plan.new(context, title="T", objective="O", steps=["s"] * draw(st.integers(1, 4)))
        for _ in range(draw(st.integers(1, 2)))
    ]
    traces = [mm.Trace.start(context, draw(st.sampled_from([None, *plans]))) for _ in range(draw(st.integers(0, 3)))]
    events = [_event(draw(st.sampled_from(traces)).trace_id) for _ in range(draw(st.integers(0, 4)))] if traces else []
    confirms = [
        mm.Confirm.request(draw(st.sampled_from(plans)), requested_by_role="r") for _ in range(draw(st.integers(0, 2)))
    ]
    documents: list[mm.Payload] = [context, *plans, *traces, *events, *confirms]
    return draw(st.permutations(documents))


@settings(max_examples=40, deadline=None)
@given(_sessions())
def test_drawn_linked_sessions_hold(session: list[mm.Payload]) -> None:
    assert mm.check_flow(session) == []


# What each link field of a built document is held to.
_LINKS = {"Plan": [("context_id", "plan_context")], "Confirm": [("target_id", "confirm_target_plan")]}
_TRACE_LINKS = [("context_id", "trace_context"), ("root_span", "root_span_context"), ("plan_id", "trace_plan")]


def _broken(document: mm.Payload, field: str) -> mm.Payload:
    data = copy.deepcopy(document.to_dict())
    if field == "root_span":
        data["root_span"]["context_id"] = OTHER
    else:
        data[field] = OTHER
    return type(document).model_validate(data)


@settings(max_examples=40, deadline=None)
@given(_sessions(), st.data())
def test_each_drawn_break_is_caught(session: list[mm.Payload], data: st.DataObject) -> None:
    choices = [
        (position, field, rule)
        for position, document in enumerate(session)
        for field, rule in (_TRACE_LINKS if isinstance(document, mm.Trace) else _LINKS.get(type(document).__name__, []))
        if not (field == "plan_id" and getattr(document, "plan_id", None) is None)
    ]
    choices += [(position, "trace_id", "event_trace") for position, d in enumerate(session) if isinstance(d, mm.Event)]
    position, field, rule = data.draw(st.sampled_from(choices))
    broken = list(session)
    broken[position] = _broken(session[position], field)
    assert [violation.rule for violation in mm.check_flow(broken)] == [rule]
    assert mm.check_flow(session) == []
