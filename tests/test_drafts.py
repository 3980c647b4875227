"""mplp_models.llm drafts: their schemas under each provider's rules, their own rules, their examples, the
documents made of them, revisions."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from conftest import fixture
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from pydantic import ValidationError
from test_llm import CHECKS, DIALECTS, anthropic_load

import mplp_models as mm
from mplp_models import llm

DRAFTS: list[type[llm.Draft]] = [
    llm.PlanDraft,
    llm.PlanStepDraft,
    llm.DialogDraft,
    llm.DialogMessageDraft,
    llm.ConfirmDecisionDraft,
    llm.LearningSampleDraft,
]
CONTEXT = "7f3c2a1e-5b4d-4c3a-9e8f-1a2b3c4d5e6f"
AT = "2026-03-01T09:00:00.000Z"


def step(local: str, description: str, *depends_on: str, role: str | None = None) -> dict[str, Any]:
    return {"id": local, "description": description, "agent_role": role, "depends_on": list(depends_on)}


def draft_answer(*steps: dict[str, Any]) -> dict[str, Any]:
    return {"title": "Ship v2", "objective": "Tag, build and publish release 2.0", "steps": list(steps)}


RELEASE = draft_answer(
    step("s1", "Tag v2.0.0", role="release-manager"),
    step("s2", "Build the wheels", "s1", role="builder"),
    step("s3", "Write the release notes", "s1"),
    step("s4", "Publish the wheels and the notes", "s2", "s3", role="release-manager"),
)


def refusal(data: dict[str, Any], model: type[llm.Draft] = llm.PlanDraft) -> list[mm.ErrorEntry]:
    with pytest.raises(ValidationError) as caught:
        model.model_validate_json(json.dumps(data))
    return mm.errors_as_json(caught.value)


# --- the schemas: the providers' documented rules (tests/test_llm.py's checkers) -----------------


@pytest.mark.parametrize("dialect", ["openai", "anthropic", "gemini"])
@pytest.mark.parametrize("model", DRAFTS, ids=lambda model: model.__name__)
def test_every_draft_schema_keeps_every_providers_rules(model: type[llm.Draft], dialect: str) -> None:
    schema = llm.json_schema(model, dialect="openai")
    CHECKS[dialect](schema)
    assert llm.json_schema(model, dialect="gemini") == schema == model.model_json_schema()  # one schema for all
    optional, unions = anthropic_load(schema)
    assert optional == 0  # every field required: nothing counts toward Anthropic's 24 optional parameters
    assert unions <= 16
    assert llm.anthropic_tool(model)["strict"] is True


def test_the_plan_draft_schema_says_nothing_a_provider_cannot_enforce() -> None:
    text = json.dumps(llm.json_schema(llm.PlanDraft))
    for keyword in ("pattern", "format", "minLength", "minItems", "uniqueItems", "minimum", "default"):
        assert f'"{keyword}"' not in text
    step_schema = llm.json_schema(llm.PlanDraft)["$defs"]["PlanStepDraft"]
    assert step_schema["required"] == ["id", "description", "agent_role", "depends_on"]
    assert step_schema["properties"]["agent_role"]["anyOf"] == [{"type": "string"}, {"type": "null"}]


def test_request_helpers_take_a_draft() -> None:
    response_format = llm.openai_format(llm.PlanDraft)
    assert response_format["json_schema"]["name"] == "PlanDraft"
    assert response_format["json_schema"]["schema"] == llm.PlanDraft.model_json_schema()
    tool = llm.anthropic_tool(llm.PlanDraft)
    assert (tool["name"], tool["input_schema"]) == ("PlanDraft", llm.PlanDraft.model_json_schema())


# --- the draft's own rules ---------------------------------------------------------------------


def test_a_valid_draft_is_read() -> None:
    draft = llm.PlanDraft.model_validate_json(json.dumps(RELEASE))
    assert [s.id for s in draft.steps] == ["s1", "s2", "s3", "s4"]
    assert draft.steps[3].depends_on == ("s2", "s3")


@pytest.mark.parametrize("as_bytes", [False, True])
def test_model_validate_json_refuses_a_duplicate_key(as_bytes: bool) -> None:
    # pydantic's own parser keeps the last "title": the answer would lose the first one silently.
    text = '{"title": "Ship", "title": "Ship v2", ' + json.dumps(RELEASE)[1:]
    data: str | bytes = text.encode() if as_bytes else text
    with pytest.raises(ValidationError) as caught:
        llm.PlanDraft.model_validate_json(data)
    (entry,) = caught.value.errors()
    assert entry["type"] == "json_duplicate_key"
    assert entry["loc"] == ("title",)


def test_model_validate_json_refuses_nan_and_keeps_pydantic_options() -> None:
    answer = {"success": False, "impact_score": 0.5, "error_code": "E1", "error_message": "It failed."}
    with pytest.raises(ValidationError) as caught:
        llm.LearningSampleDraft.model_validate_json(json.dumps(answer).replace("0.5", "NaN"))
    assert [e["type"] for e in caught.value.errors()] == ["json_invalid"]
    draft = llm.LearningSampleDraft.model_validate_json(json.dumps(answer), strict=True)
    assert draft == llm.LearningSampleDraft.model_validate(answer)


def test_unknown_dependency_names_it_and_the_ids_that_exist() -> None:
    (entry,) = refusal(draft_answer(step("s1", "Tag"), step("s2", "Build", "s1"), step("s3", "Ship", "s2", "s7")))
    assert entry["pointer"] == "/steps/2/depends_on/1"
    assert entry["code"] == "unknown_dependency"
    assert entry["message"] == (
        'step "s3" depends on "s7", which is not a step of this plan; the steps are "s1", "s2", "s3"; found "s7"'
    )


def test_a_cycle_is_named() -> None:
    (entry,) = refusal(draft_answer(step("a", "A", "c"), step("b", "B", "a"), step("c", "C", "b")))
    assert entry["code"] == "dependency_cycle"
    assert '"a" -> "c" -> "b" -> "a"' in entry["message"]
    assert entry["pointer"] == "/steps/0/depends_on/0"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (draft_answer(), [("/steps", "no_steps")]),
        (draft_answer(step("s1", "A"), step("s1", "B")), [("/steps/1/id", "duplicate_step_id")]),
        (draft_answer(step("s1", "A", "s1")), [("/steps/0/depends_on/0", "self_dependency")]),
        (
            draft_answer(step("s1", "A"), step("s2", "B", "s1", "s1")),
            [("/steps/1/depends_on/1", "repeated_dependency")],
        ),
        ({**draft_answer(step("s1", "A")), "title": "  "}, [("/title", "empty_text")]),
        (draft_answer(step("s1", "")), [("/steps/0/description", "empty_text")]),
        (draft_answer(step("", "A")), [("/steps/0/id", "empty_text")]),
        (draft_answer(step("s1", "A", role="")), [("/steps/0/agent_role", "empty_text")]),
        ({**draft_answer(step("s1", "A")), "status": "approved"}, [("/status", "extra_forbidden")]),
        (
            {"title": "T", "objective": "O", "steps": [{"id": "s1", "description": "A"}]},
            [("/steps/0/agent_role", "missing"), ("/steps/0/depends_on", "missing")],
        ),
    ],
)
def test_each_rule_is_refused_at_its_place(data: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    assert [(entry["pointer"], entry["code"]) for entry in refusal(data)] == expected


def test_a_copy_or_a_construction_is_validated_too() -> None:
    draft = llm.PlanDraft.model_validate(RELEASE)
    dangling = draft.steps[1].model_copy(update={"depends_on": ("s9",)})  # a step alone: no plan to check against
    with pytest.raises(ValidationError) as caught:
        draft.model_copy(update={"steps": (*draft.steps, dangling)})
    assert [entry["code"] for entry in mm.errors_as_json(caught.value)] == ["duplicate_step_id", "unknown_dependency"]
    with pytest.raises(ValidationError):
        llm.PlanDraft.model_construct(title="T", objective="O", steps=())
    with pytest.raises(ValidationError):
        draft.steps[0].model_copy(update={"description": " "}, deep=True)
    assert draft.model_copy(update={"title": "Ship v3"}).title == "Ship v3"
    assert draft.model_copy(deep=True) == draft


def test_arrays_take_a_list_or_a_tuple_in_order_and_refuse_a_set() -> None:
    step = llm.PlanStepDraft(id="s2", description="Test", agent_role=None, depends_on=["s1"])
    assert step.depends_on == ("s1",)
    first = llm.PlanStepDraft(id="s1", description="Build", agent_role=None, depends_on=[])
    assert [s.id for s in llm.PlanDraft(title="T", objective="O", steps=[first, step]).steps] == ["s1", "s2"]
    # A set has no order: taking one would choose the steps' order (and the dependencies') at random.
    for field, value in (("depends_on", {"s1", "s3"}), ("depends_on", frozenset({"s1"}))):
        with pytest.raises(ValidationError) as caught:
            llm.PlanStepDraft.model_validate({"id": "s2", "description": "Test", "agent_role": None, field: value})
        assert caught.value.errors()[0]["type"] == "unordered_array"
    with pytest.raises(ValidationError) as caught:
        llm.PlanDraft.model_validate({"title": "T", "objective": "O", "steps": {first}})
    assert caught.value.errors()[0]["type"] == "unordered_array"
    message = llm.DialogMessageDraft(role="user", content="Hi")
    with pytest.raises(ValidationError) as caught:
        llm.DialogDraft.model_validate({"messages": {message}})
    assert caught.value.errors()[0]["type"] == "unordered_array"


def test_the_messages_are_for_the_model_not_for_python() -> None:
    entries = refusal(draft_answer(step("s1", "", "s9"), step("s1", "B")))
    text = llm.feedback(_error(draft_answer(step("s1", "", "s9"), step("s1", "B"))))
    assert entries and "PlanDraft" in text
    for word in ("Value error", "model_validate", "Traceback", "pydantic"):
        assert word not in text


def _error(data: dict[str, Any]) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        llm.PlanDraft.model_validate(data)
    return caught.value


# --- from draft to plan ------------------------------------------------------------------------

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def test_to_plan_mints_ids_fills_meta_and_sets_new_statuses() -> None:
    draft = llm.PlanDraft.model_validate(RELEASE)
    plan = draft.to_plan(context_id=CONTEXT, created_by="agent-release", at=AT)
    assert plan.to_dict()["meta"] == {
        "protocol_version": "1.0.0",
        "schema_version": "1.0.0",
        "created_at": AT,
        "created_by": "agent-release",
    }
    assert plan.context_id == CONTEXT and plan.status == "draft"
    assert {s.status.value for s in plan.steps} == {"pending"}
    ids = [plan.plan_id, *(s.step_id for s in plan.steps)]
    assert all(UUID4.match(i) and uuid.UUID(i).version == 4 for i in ids) and len(set(ids)) == 5
    local = draft.local_ids(plan)
    assert list(local) == ["s1", "s2", "s3", "s4"]
    assert plan.step(local["s4"]).dependencies == (local["s2"], local["s3"])
    assert plan.step(local["s1"]).dependencies is None  # [] in the draft: left out, as the schema wants
    assert plan.step(local["s3"]).agent_role is None and "agent_role" not in plan.step(local["s3"]).to_dict()
    assert mm.Plan.from_json(plan.to_json()) == plan
    # A second plan from the same draft is another plan: fresh ids.
    again = draft.to_plan(context_id=CONTEXT, at=AT)
    assert not {s.step_id for s in again.steps} & set(local.values())
    assert "created_by" not in again.to_dict()["meta"]


def test_to_plan_refuses_a_bad_argument_at_its_own_field() -> None:
    draft = llm.PlanDraft.model_validate(RELEASE)
    with pytest.raises(ValidationError) as caught:
        draft.to_plan(context_id="ctx-1")
    # The caller's mistake, not the LLM's: the plan's own error, at the plan's field.
    assert caught.value.title == "Plan"
    assert [entry["pointer"] for entry in mm.errors_as_json(caught.value)] == ["/context_id"]


def test_from_plan_refuses_a_plan_that_breaks_a_rule() -> None:
    plan = llm.PlanDraft.model_validate(draft_answer(step("s1", "A"), step("s2", "B", "s1"))).to_plan(
        context_id=CONTEXT
    )
    data = plan.to_dict()
    data["steps"][0]["dependencies"] = [data["steps"][1]["step_id"]]  # a cycle
    looping = mm.Plan.from_json(json.dumps(data), semantic=False)
    with pytest.raises(
        ValueError, match="the plan breaks a rule, so it has no draft: the steps' dependencies form a cycle"
    ):
        llm.PlanDraft.from_plan(looping)


def test_from_plan_names_each_blank_text_of_a_valid_plan() -> None:
    context = mm.Context.new("T", domain="d", environment="dev", at=AT)
    anonymous = mm.PlanStep(step_id=mm.new_id(), description="Tag", status="pending", agent_role="")
    plan = mm.Plan.new(context, title="T", objective="O", steps=[anonymous, " "], at=AT)
    assert plan.check() == []  # valid: the schemas allow blank text
    first, second = (step.step_id[:8] for step in plan.steps)
    with pytest.raises(ValueError) as caught:
        llm.PlanDraft.from_plan(plan)
    assert str(caught.value) == (
        "the plan has blank text, which a draft cannot hold (it asks an LLM to write every text out): "
        f"the agent_role of step \"{first}\" is ''; the description of step \"{second}\" is ' '; "
        "write each out first (update_step; an agent_role may be left out instead)"
    )
    assert not isinstance(caught.value, ValidationError)  # the caller's plan, not an LLM's answer
    fixed = plan.update_step(plan.steps[0].step_id, agent_role=None).update_step(
        plan.steps[1].step_id, description="Build"
    )
    assert [s.agent_role for s in llm.PlanDraft.from_plan(fixed).steps] == [None, None]


def test_local_ids_refuse_a_plan_not_made_from_the_draft() -> None:
    draft = llm.PlanDraft.model_validate(RELEASE)
    other = llm.PlanDraft.model_validate(draft_answer(step("s1", "Something else"))).to_plan(context_id=CONTEXT)
    with pytest.raises(ValueError, match="not made from this draft"):
        draft.local_ids(other)


local_ids = st.text(alphabet="abcdefgs0123456789-", min_size=1, max_size=6)
texts = st.text(min_size=1, max_size=30).filter(str.strip)


@st.composite
def valid_drafts(draw: st.DrawFn) -> dict[str, Any]:
    ids = draw(st.lists(local_ids, min_size=1, max_size=12, unique=True))
    steps = []
    for position, local in enumerate(ids):
        # Dependencies on earlier steps only: no cycle; then the list is shuffled, so some point forward.
        earlier = draw(st.lists(st.sampled_from(ids[:position]), unique=True) if position else st.just([]))
        role = draw(st.none() | texts)
        steps.append(step(local, draw(texts), *earlier, role=role))
    return draft_answer(*draw(st.permutations(steps)))


@settings(max_examples=60, deadline=None)
@given(valid_drafts())
def test_every_valid_draft_makes_a_plan_that_keeps_every_rule(data: dict[str, Any]) -> None:
    draft = llm.PlanDraft.model_validate_json(json.dumps(data))
    plan = draft.to_plan(context_id=CONTEXT)
    assert mm.Plan.from_json(plan.to_json()) == plan  # the strict reader, with every rule
    assert plan.check() == []
    local = draft.local_ids(plan)
    for drafted, made in zip(draft.steps, plan.steps):
        assert made.description == drafted.description and made.agent_role == drafted.agent_role
        assert made.depends_on == tuple(local[d] for d in drafted.depends_on)
    # The draft view of the plan is the same draft, under the plan's own local ids.
    view = llm.PlanDraft.from_plan(plan)
    names = {old: view.steps[i].id for i, old in enumerate(s.id for s in draft.steps)}
    assert [(s.description, s.agent_role, s.depends_on) for s in view.steps] == [
        (s.description, s.agent_role, tuple(names[d] for d in s.depends_on)) for s in draft.steps
    ]


@st.composite
def broken_drafts(draw: st.DrawFn) -> tuple[dict[str, Any], set[str]]:
    """A valid draft broken in one way, and the local ids the refusal must name."""
    data = draw(valid_drafts())
    steps = data["steps"]
    ids = [s["id"] for s in steps]
    victim = draw(st.integers(0, len(steps) - 1))
    how = draw(st.sampled_from(["unknown", "self", "duplicate", "cycle"]))
    if how == "unknown":
        ghost = draw(local_ids.filter(lambda local: local not in ids))
        steps[victim]["depends_on"].append(ghost)
        return data, {steps[victim]["id"], ghost}
    if how == "self":
        steps[victim]["depends_on"].append(steps[victim]["id"])
        return data, {steps[victim]["id"]}
    if how == "duplicate" and len(steps) > 1:
        other = (victim + 1) % len(steps)
        steps[other]["id"] = steps[victim]["id"]
        return data, {steps[victim]["id"]}
    # A cycle: two steps made to wait for each other (drop the earlier edges to keep it the only problem).
    first = steps[victim]
    second = steps[(victim + 1) % len(steps)]
    if first is second:
        first["depends_on"] = [first["id"]]
        return data, {first["id"]}
    first["depends_on"] = [second["id"]]
    second["depends_on"] = [first["id"]]
    return data, {first["id"], second["id"]}


@settings(max_examples=60, deadline=None)
@given(broken_drafts())
def test_every_broken_draft_is_refused_naming_the_local_ids(case: tuple[dict[str, Any], set[str]]) -> None:
    data, named = case
    entries = refusal(data)
    assert entries
    assert any(all(f'"{local}"' in entry["message"] for local in named) for entry in entries), entries


# --- revisions ---------------------------------------------------------------------------------


def started_plan() -> tuple[mm.Plan, dict[str, str]]:
    """The release plan, approved and running: s1 completed, s2 in progress."""
    draft = llm.PlanDraft.model_validate(RELEASE)
    plan = draft.to_plan(context_id=CONTEXT, at=AT)
    local = draft.local_ids(plan)
    plan = plan.transition("proposed").transition("approved").transition("in_progress")
    plan = plan.transition_step(local["s1"], "in_progress").transition_step(local["s1"], "completed")
    return plan.transition_step(local["s2"], "in_progress"), local


def test_from_plan_gives_stable_local_ids_from_the_step_ids() -> None:
    plan, local = started_plan()
    view = llm.PlanDraft.from_plan(plan)
    assert [s.id for s in view.steps] == [local[k][:8] for k in ("s1", "s2", "s3", "s4")]
    assert view.steps[3].depends_on == (local["s2"][:8], local["s3"][:8])
    assert (view.title, view.objective) == (plan.title, plan.objective)
    # The same after any edit of another step: an id is derived from its own step only.
    later = plan.remove_step(local["s4"]).remove_step(local["s3"])
    assert [s.id for s in llm.PlanDraft.from_plan(later).steps] == [local["s1"][:8], local["s2"][:8]]


def test_local_ids_grow_where_two_step_ids_share_a_start() -> None:
    plan = mm.Plan.model_validate(
        {
            "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0", "created_at": AT},
            "plan_id": CONTEXT,
            "context_id": CONTEXT,
            "title": "T",
            "objective": "O",
            "status": "draft",
            "steps": [
                {"step_id": "aaaaaaaa-1111-4000-8000-000000000001", "description": "A", "status": "pending"},
                {"step_id": "aaaaaaaa-1121-4000-8000-000000000002", "description": "B", "status": "pending"},
                {"step_id": "bbbbbbbb-0000-4000-8000-000000000003", "description": "C", "status": "pending"},
            ],
        }
    )
    assert [s.id for s in llm.PlanDraft.from_plan(plan).steps] == ["aaaaaaaa-111", "aaaaaaaa-112", "bbbbbbbb"]


def revise(plan: mm.Plan, change: Any) -> llm.PlanDraft:
    data = llm.PlanDraft.from_plan(plan).model_dump(mode="json")
    change(data)
    return llm.PlanDraft.model_validate(data)


def test_apply_draft_adds_removes_updates_and_keeps_statuses() -> None:
    plan, local = started_plan()
    s2, s3 = (local[k][:8] for k in ("s2", "s3"))

    def change(data: dict[str, Any]) -> None:
        data["title"] = "Ship v2, tested"
        data["steps"][1]["description"] = "Build the wheels for 3.10 to 3.13"
        data["steps"].pop(2)  # the release notes, pending: dropped
        data["steps"].insert(2, step("t1", "Test the wheels", s2, role="tester"))
        data["steps"][3]["depends_on"] = ["t1"]

    revised = plan.apply_draft(revise(plan, change))
    rows = [(s.step_id, s.description, s.status.value, s.dependencies, s.agent_role) for s in revised.steps]
    new_id = revised.steps[2].step_id
    assert UUID4.match(new_id) and new_id not in local.values()
    assert rows == [
        (local["s1"], "Tag v2.0.0", "completed", None, "release-manager"),
        (local["s2"], "Build the wheels for 3.10 to 3.13", "in_progress", (local["s1"],), "builder"),
        (new_id, "Test the wheels", "pending", (local["s2"],), "tester"),
        (local["s4"], "Publish the wheels and the notes", "pending", (new_id,), "release-manager"),
    ]
    assert revised.title == "Ship v2, tested" and revised.status == plan.status and revised.plan_id == plan.plan_id
    assert revised.meta == plan.meta and s3 not in [s.id for s in llm.PlanDraft.from_plan(revised).steps]
    assert mm.Plan.from_json(revised.to_json()) == revised
    assert plan.apply_draft(llm.PlanDraft.from_plan(plan)) == plan  # the plan's own view changes nothing


def test_apply_draft_refuses_to_drop_a_step_that_ran() -> None:
    plan, local = started_plan()
    with pytest.raises(ValidationError) as caught:
        plan.apply_draft(revise(plan, lambda data: data["steps"].pop(1) and data["steps"][2].update(depends_on=[])))
    (entry,) = mm.errors_as_json(caught.value)
    assert (entry["pointer"], entry["code"]) == ("/steps", "step_still_needed")
    assert f'step "{local["s2"][:8]}" is in_progress' in entry["message"]


def test_apply_draft_refusal_points_into_the_draft_with_local_ids() -> None:
    plan, local = started_plan()
    s1 = local["s1"][:8]

    def change(data: dict[str, Any]) -> None:  # the completed step made to wait for a new one
        data["steps"].append(step("s9", "Check the tag first"))
        data["steps"][0]["depends_on"] = ["s9"]

    with pytest.raises(ValidationError) as caught:
        plan.apply_draft(revise(plan, change))
    (entry,) = mm.errors_as_json(caught.value)
    assert caught.value.title == "PlanDraft"
    assert (entry["pointer"], entry["code"]) == ("/steps/0", "dependency_not_done")
    assert entry["message"].startswith(f'step "{s1}" is completed but its dependency "s9" is pending')
    assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}", llm.feedback(caught.value))  # no minted id reaches the model


def test_apply_draft_refusal_quotes_the_drafts_own_value() -> None:
    plan, _ = started_plan()

    def change(data: dict[str, Any]) -> None:  # the completed step made to wait for a new one
        data["steps"].append(step("s9", "Check the tag first"))
        data["steps"][0]["depends_on"] = ["s9"]

    revision = revise(plan, change)
    with pytest.raises(ValidationError) as caught:
        plan.apply_draft(revision)
    (entry,) = caught.value.errors(include_url=False)
    # /steps/0 of the answer is the step object the LLM wrote, not the step's status in the plan.
    assert entry["loc"] == ("steps", 0)
    assert entry["input"] == revision.model_dump(mode="json")["steps"][0]
    assert llm.feedback(caught.value).endswith("is pending; found an object")


def test_apply_draft_gives_the_drafts_order_to_order_index() -> None:
    context = mm.Context.new("T", domain="d", environment="dev", at=AT)
    plan = mm.Plan.new(context, title="p", objective="o", steps=["a", "b", "c"], at=AT)
    a, b, c = (step.step_id for step in plan.steps)

    def change(data: dict[str, Any]) -> None:  # a new first step, then c, a, b
        data["steps"] = [step("n1", "new"), data["steps"][2], data["steps"][0], data["steps"][1]]

    revised = plan.apply_draft(revise(plan, change))
    new = revised.steps[0].step_id
    assert [(s.step_id, s.order_index) for s in revised.steps] == [(new, 0), (c, 1), (a, 2), (b, 3)]
    assert [s.description for s in revised.topological_order()] == ["new", "c", "a", "b"]
    # A plan with no order_index at all gets none: the list order is the order.
    unordered, _ = started_plan()
    reordered = unordered.apply_draft(revise(unordered, lambda data: data["steps"].reverse()))
    assert [s.order_index for s in reordered.steps] == [None] * 4
    # One step with an order_index is enough: then every step takes its place in the draft.
    one = unordered.update_step(unordered.steps[2].step_id, order_index=7)
    assert [s.order_index for s in one.apply_draft(revise(one, lambda data: None)).steps] == [0, 1, 2, 3]


def test_apply_draft_refuses_a_new_step_in_a_completed_plan() -> None:
    draft = llm.PlanDraft.model_validate(draft_answer(step("s1", "Tag")))
    plan = draft.to_plan(context_id=CONTEXT, at=AT)
    only = plan.steps[0].step_id
    plan = plan.transition("proposed").transition("approved").transition("in_progress")
    plan = plan.transition_step(only, "in_progress").transition_step(only, "completed").transition("completed")
    with pytest.raises(ValidationError) as caught:
        plan.apply_draft(revise(plan, lambda data: data["steps"].append(step("s2", "More"))))
    (entry,) = mm.errors_as_json(caught.value)
    assert (entry["pointer"], entry["code"]) == ("/steps/1", "plan_completed_early")
    assert '"s2"' in entry["message"]


# --- the other drafts --------------------------------------------------------------------------


def test_dialog_draft_makes_an_active_dialog() -> None:
    draft = llm.DialogDraft.model_validate(
        {"messages": [{"role": "user", "content": "Ship v2?"}, {"role": "assistant", "content": "Tagging now."}]}
    )
    dialog = draft.to_dialog(context_id=CONTEXT, at=AT)
    assert dialog.status == "active" and dialog.started_at == AT and dialog.context_id == CONTEXT
    assert [(m.role.value, m.content, m.timestamp) for m in dialog.messages] == [
        ("user", "Ship v2?", AT),
        ("assistant", "Tagging now.", AT),
    ]
    assert UUID4.match(dialog.dialog_id) and mm.Dialog.from_json(dialog.to_json()) == dialog
    message = draft.messages[1].to_message(at=AT)
    assert message == dialog.messages[1]
    assert [(e["pointer"], e["code"]) for e in refusal({"messages": []}, llm.DialogDraft)] == [
        ("/messages", "no_messages")
    ]
    bad = {"messages": [{"role": "bot", "content": " "}]}
    assert [e["pointer"] for e in refusal(bad, llm.DialogDraft)] == ["/messages/0/role"]


def test_confirm_decision_draft_decides_a_confirm() -> None:
    draft = llm.ConfirmDecisionDraft.model_validate({"decision": "approved", "reason": "The tests pass."})
    record = draft.to_decision(by_role="reviewer", at=AT)
    assert (record.status.value, record.reason, record.decided_by_role, record.decided_at) == (
        "approved",
        "The tests pass.",
        "reviewer",
        AT,
    )
    confirm = mm.Confirm.model_validate(
        {
            "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0", "created_at": AT},
            "confirm_id": "c1000000-0000-4000-8000-000000000001",
            "target_type": "plan",
            "target_id": CONTEXT,
            "status": "pending",
            "requested_by_role": "planner",
            "requested_at": AT,
        }
    )
    decided = draft.decide(confirm, by_role="reviewer", at="2026-03-01T09:05:00.000Z")
    assert decided.status == "approved" and decided.decisions is not None
    assert decided.decisions[0].reason == "The tests pass."
    assert [
        (e["pointer"], e["code"]) for e in refusal({"decision": "maybe", "reason": ""}, llm.ConfirmDecisionDraft)
    ] == [("/decision", "literal_error")]
    assert [
        (e["pointer"], e["code"]) for e in refusal({"decision": "rejected", "reason": ""}, llm.ConfirmDecisionDraft)
    ] == [("/reason", "empty_text")]


def test_learning_sample_draft_makes_a_sample() -> None:
    plan = llm.PlanDraft.model_validate(RELEASE).to_plan(context_id=CONTEXT, at=AT)
    draft = llm.LearningSampleDraft.model_validate(
        {"success": False, "impact_score": 0.75, "error_code": "E_BUILD", "error_message": "The build failed on 3.13."}
    )
    sample = draft.to_learning_sample(
        project_id="release", started_at=AT, completed_at="2026-03-01T10:00:00.000Z", plan=plan
    )
    data = sample.to_dict()
    assert data["success_flag"] is False and data["impact_score"] == 0.75
    assert data["error_info"] == {"error_code": "E_BUILD", "error_message": "The build failed on 3.13."}
    assert data["plan"] == plan.to_dict() and data["project_id"] == "release"
    assert data["timestamps"] == {"started_at": AT, "completed_at": "2026-03-01T10:00:00.000Z"}
    assert mm.LearningSample.from_json(sample.to_json()) == sample
    plain = llm.LearningSampleDraft.model_validate(
        {"success": True, "impact_score": None, "error_code": None, "error_message": None}
    ).to_learning_sample(project_id="release", started_at=AT)
    assert set(plain.to_dict()) == {"sample_id", "project_id", "success_flag", "timestamps"}
    out = {"success": True, "impact_score": 1.5, "error_code": None, "error_message": None}
    assert [(e["pointer"], e["code"]) for e in refusal(out, llm.LearningSampleDraft)] == [
        ("/impact_score", "out_of_range")
    ]
    assert [e["code"] for e in refusal({**out, "impact_score": None, "success": "yes"}, llm.LearningSampleDraft)] == [
        "bool_type"
    ]


# --- examples: a valid answer of each draft, for tests (pydantic-ai's TestModel) and prompts -----


@pytest.mark.parametrize("model", DRAFTS, ids=lambda model: model.__name__)
def test_every_draft_has_an_example_that_answers_its_own_schema(model: type[llm.Draft]) -> None:
    example = model.example()
    assert type(example) is model and model.example() == example
    answer = json.loads(example.model_dump_json())
    # What the providers are sent is what the example answers: the reference validator says so.
    assert list(Draft202012Validator(llm.json_schema(model)).iter_errors(answer)) == []
    assert model.model_validate_json(json.dumps(answer)) == example


def test_the_examples_make_documents_that_keep_every_rule() -> None:
    draft = llm.PlanDraft.example()
    plan = draft.to_plan(context_id=CONTEXT, at=AT)
    ids = draft.local_ids(plan)
    # The example of docs/llm.md: three steps, each waiting for the one before it.
    assert list(ids) == ["s1", "s2", "s3"]
    assert [step.depends_on for step in plan.steps] == [(), (ids["s1"],), (ids["s2"],)]
    assert mm.Plan.from_json(plan.to_json()) == plan and [step.step_id for step in plan.ready_steps()] == [ids["s1"]]
    assert llm.PlanStepDraft.example() == draft.steps[0]
    dialog = llm.DialogDraft.example().to_dialog(context_id=CONTEXT, at=AT)
    assert mm.Dialog.from_json(dialog.to_json()) == dialog
    assert llm.DialogMessageDraft.example().to_message(at=AT) == dialog.messages[0]
    decision = llm.ConfirmDecisionDraft.example().to_decision(by_role="reviewer", at=AT)
    assert decision.status == "approved"
    sample = llm.LearningSampleDraft.example().to_learning_sample(project_id="release", started_at=AT, plan=plan)
    assert mm.LearningSample.from_json(sample.to_json()) == sample


def test_a_draft_without_an_example_says_so() -> None:
    with pytest.raises(TypeError, match="Draft has no example"):
        llm.Draft.example()

    class ReviewedPlanDraft(llm.PlanDraft):
        reviewer: str

    with pytest.raises(ValidationError) as caught:
        ReviewedPlanDraft.example()
    assert [(e["pointer"], e["code"]) for e in mm.errors_as_json(caught.value)] == [("/reviewer", "missing")]


@pytest.mark.parametrize("dependencies", [None, [], "kept"])
def test_an_unchanged_draft_gives_the_plan_back_byte_for_byte(dependencies: list[str] | str | None) -> None:
    # No data changed that the draft did not change: an empty list of dependencies stays written.
    data = fixture(mm.Plan)
    for item in data["steps"]:
        item.pop("order_index", None)  # a plan that uses it has it renumbered by the draft's order
    if dependencies != "kept":
        data["steps"][0].pop("dependencies", None)
        if dependencies is not None:
            data["steps"][0]["dependencies"] = dependencies
    plan = mm.Plan.model_validate(data)
    assert plan.apply_draft(llm.PlanDraft.from_plan(plan)).to_json() == plan.to_json()


@pytest.mark.parametrize("draft", DRAFTS, ids=lambda kind: kind.__name__)
@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_draft_is_read_as_its_own_door_reads_it(draft: type[llm.Draft], dialect: llm.Dialect) -> None:
    # json_schema(draft) is the draft's own schema: its answer reads back as the draft's model_validate_json.
    text = draft.example().model_dump_json()
    assert llm.from_llm_json(draft, text, dialect=dialect) == draft.model_validate_json(text) == draft.example()
    broken = text.replace("{", '{"unknown": 1, ', 1)
    with pytest.raises(ValidationError):
        draft.model_validate_json(broken)
    with pytest.raises(ValidationError):
        llm.from_llm_json(draft, broken, dialect=dialect)
