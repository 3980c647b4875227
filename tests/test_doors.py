"""Every way in and out that pydantic offers reads and writes what from_json and to_json do.

model_dump / model_dump_json (nested in a user's model and a TypeAdapter too),
model_validate / model_validate_json, model_copy, the frozen models, the
published JSON Schema (held to the reference validator on the frozen schemas),
build order, and the small things: repr, ==, errors for Python values, enums.
"""

from __future__ import annotations

import copy
import datetime
import inspect
import json
import pickle
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    FIXTURE_OF,
    OPEN_MODELS,
    PAYLOAD_FILES,
    PAYLOADS,
    SCHEMA_OF,
    examples,
    fixture,
    published_schema_validator,
    reference_accepts,
)
from hypothesis import HealthCheck, given, settings
from pydantic import BaseModel, TypeAdapter, ValidationError
from test_differential import mutation_disagreements, verdict_word

import mplp_models as mm
from mplp_models import testing

ON_PATH = [str(Path(__file__).resolve().parent.parent / "src")]


def given_fields_only(path: Path) -> tuple[type[mm.MplpModel], mm.MplpModel, Any]:
    raw = path.read_bytes()
    model = mm.parse(raw)
    return type(model), model, json.loads(raw)


def string_places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every string value in a JSON document (object keys aside)."""
    if isinstance(value, str):
        return [path]
    if isinstance(value, dict):
        return [place for key, item in value.items() for place in string_places(item, (*path, key))]
    if isinstance(value, list):
        return [place for index, item in enumerate(value) for place in string_places(item, (*path, index))]
    return []


def with_text_at(document: Any, path: tuple[Any, ...], text: str) -> Any:
    if not path:
        return text
    changed = copy.deepcopy(document)
    node = changed
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = text
    return changed


@pytest.mark.parametrize("model", list(FIXTURE_OF), ids=lambda model: model.__name__)
def test_a_lone_surrogate_is_refused_in_every_string_from_python(model: type[mm.MplpModel]) -> None:
    # JSON text cannot carry one; Python input can, and a model holding one could not be written.
    document = fixture(model)
    places = string_places(document)
    assert places
    for path in places:
        changed = with_text_at(document, path, "ok \ud800")
        with pytest.raises(ValidationError) as refused:
            model.model_validate(changed)
        # Refused there (in an open object, at the object), not for some other reason.
        assert any(tuple(entry["loc"]) == path[: len(entry["loc"])] for entry in refused.value.errors()), path


# --- out: model_dump and model_dump_json ----------------------------------------------


@pytest.mark.parametrize("path", PAYLOAD_FILES, ids=lambda path: path.name)
def test_model_dump_writes_the_given_fields_and_reads_back(path: Path) -> None:
    kind, model, document = given_fields_only(path)
    assert json.loads(model.model_dump_json()) == document
    assert model.model_dump(mode="json") == document == model.to_dict()
    for dumped in (model.model_dump(), model.model_dump(mode="json")):
        again = kind.model_validate(dumped)
        assert again == model and again.model_fields_set == model.model_fields_set
    assert kind.model_validate_json(model.model_dump_json()) == model
    assert kind.model_validate_json(model.model_dump_json(indent=2)) == model


def test_nested_models_write_their_given_fields_in_a_users_model_and_a_type_adapter() -> None:
    plan = mm.Plan.from_json((PAYLOADS / "plan.json").read_bytes())

    class Envelope(BaseModel):
        plan: mm.Plan
        plans: list[mm.Plan]

    envelope = Envelope(plan=plan, plans=[plan])
    written = json.loads(envelope.model_dump_json())
    assert written["plan"] == written["plans"][0] == fixture(mm.Plan)
    assert Envelope.model_validate_json(envelope.model_dump_json()) == envelope
    adapter = TypeAdapter(list[mm.Plan])
    assert json.loads(adapter.dump_json([plan])) == [fixture(mm.Plan)]
    assert adapter.validate_python(adapter.dump_python([plan])) == [plan]


def test_pydantics_options_work_as_pydantic_documents_them() -> None:
    message = mm.InboxMessage.from_json((PAYLOADS / "inbox.json").read_bytes())
    document = fixture(mm.InboxMessage)
    nulls = {key for key, value in document.items() if value is None}
    assert nulls, "the inbox fixture holds explicit nulls"
    assert message.model_dump(mode="json", exclude_none=True) == {k: v for k, v in document.items() if k not in nulls}
    assert message.model_dump(mode="json", include={"message_id", "status"}) == {
        "message_id": document["message_id"],
        "status": document["status"],
    }
    assert "subject" not in message.model_dump(exclude={"subject"})
    assert message.model_dump(mode="json", exclude_unset=True) == document
    step = mm.PlanStep(step_id=mm.new_id(), description="d", status=mm.PlanStepStatus.pending)
    assert step.model_dump(exclude_defaults=True) == step.model_dump()  # nothing unset is written anyway


# --- in: model_validate_json and model_validate -----------------------------------------


def test_model_validate_json_refuses_duplicate_keys_as_from_json_does() -> None:
    raw = (PAYLOADS / "event.json").read_bytes()
    twice = raw.replace(b'"event_type":', b'"event_type": "plan.changed", "event_type":', 1)
    assert twice != raw
    for read in (mm.Event.model_validate_json, mm.Event.from_json):
        with pytest.raises(ValidationError) as caught:
            read(twice)
        (entry,) = caught.value.errors()
        assert entry["type"] == "json_duplicate_key" and entry["loc"] == ("event_type",)
        assert isinstance(entry["input"], str)  # plain text, not an internal class


def test_model_validate_json_takes_the_schema_only_context() -> None:
    document = fixture(mm.Plan)
    document["steps"][0]["dependencies"] = [document["steps"][0]["step_id"]]  # depends on itself
    raw = json.dumps(document)
    with pytest.raises(ValidationError, match="self_dependency"):
        mm.Plan.model_validate_json(raw)
    assert mm.Plan.model_validate_json(raw, context=mm.SCHEMA_ONLY).check()


def test_no_option_lets_unknown_keys_in() -> None:
    document = {**fixture(mm.Event), "unknown": 1}
    for read in (
        mm.Event.model_validate,
        lambda data, **options: mm.Event.model_validate_json(json.dumps(data), **options),
    ):
        with pytest.raises(ValueError, match="only the keys their schema allows"):
            read(document, extra="allow")
        with pytest.raises(ValidationError, match="unknown"):
            read(document, extra="forbid")


def test_json_null_is_refused_where_the_schema_refuses_it_and_none_in_python_means_absent() -> None:
    document = fixture(mm.Plan)
    document["steps"][0]["dependencies"] = None
    with pytest.raises(ValidationError, match="dependencies"):
        mm.Plan.model_validate(document)
    with pytest.raises(ValidationError, match="dependencies"):
        mm.Plan.model_validate_json(json.dumps(document))
    step = mm.PlanStep(step_id=mm.new_id(), description="d", status=mm.PlanStepStatus.pending, dependencies=None)
    assert "dependencies" not in step.model_fields_set and "dependencies" not in step.to_dict()
    event = mm.Event(
        event_id=mm.new_id(), event_type="plan.approved", source="planner", timestamp=mm.Timestamp.now(), trace_id=None
    )
    assert "trace_id" not in event.to_dict()
    # A nullable field keeps its explicit null: that is a value the schema allows.
    nulled = mm.Event(
        event_id=mm.new_id(), event_type="plan.approved", source="planner", timestamp=mm.Timestamp.now(), data=None
    )
    assert nulled.to_dict()["data"] is None


def verdict(read: Any) -> list[tuple[str, tuple[Any, ...]]] | str:
    """The error types and locations of a reading, or "accepted"."""
    try:
        read()
    except ValidationError as error:
        return [(entry["type"], tuple(entry["loc"])) for entry in error.errors()]
    return "accepted"


@pytest.mark.parametrize("model", list(FIXTURE_OF), ids=lambda model: model.__name__)
def test_strict_reads_json_shaped_input_as_without_it_on_both_doors(model: type[mm.MplpModel]) -> None:
    # pydantic's strict=True would refuse a list for an array and a string for an enum; strict=False
    # would lax the types' own strictness. Neither may change a verdict or an error.
    def judge(mutated: Any) -> str | None:
        text = json.dumps(mutated)
        for door, read in (
            ("model_validate", lambda **options: model.model_validate(mutated, **options)),
            ("model_validate_json", lambda **options: model.model_validate_json(text, **options)),
        ):
            plain = verdict(read)
            for strict in (True, False):
                if verdict(lambda: read(strict=strict)) != plain:
                    return f"{door}(strict={strict}) differs from {plain}"
        return None

    disagreements = mutation_disagreements(model, judge)
    assert not disagreements, "\n".join(disagreements[:20])


def test_strict_shows_a_dangling_dependency_as_the_only_error() -> None:
    document = fixture(mm.Plan)
    document["steps"][0]["dependencies"] = ["3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11"]  # no such step
    expected = [("unknown_dependency", ("steps", 0, "dependencies", 0))]
    for strict in (None, True, False):
        assert verdict(lambda: mm.Plan.model_validate(document, strict=strict)) == expected
        assert verdict(lambda: mm.Plan.model_validate_json(json.dumps(document), strict=strict)) == expected


def test_strict_false_does_not_lax_the_types() -> None:
    document = fixture(mm.Plan)
    document["steps"][0]["order_index"] = "1"
    for read in (
        mm.Plan.model_validate,
        lambda data, **options: mm.Plan.model_validate_json(json.dumps(data), **options),
    ):
        assert verdict(lambda: read(document, strict=False)) == [("json_integer", ("steps", 0, "order_index"))]


# --- change: frozen models, validated copies --------------------------------------------


def test_model_copy_validates_like_construction() -> None:
    plan = mm.Plan.model_validate(fixture(mm.Plan))
    with pytest.raises(ValidationError, match="status"):
        plan.model_copy(update={"status": "bogus"})
    with pytest.raises(ValidationError, match=r"extra_forbidden|Extra inputs"):
        plan.model_copy(update={"bogus": 1})
    assert plan.model_copy() == plan and plan.model_copy(deep=True) == plan
    assert plan.model_copy(update={"trace": None}) == plan.without("trace")
    assert "trace" not in plan.without("trace").to_dict()
    with pytest.raises(ValidationError, match="missing"):
        plan.without("title")
    with pytest.raises(ValueError, match="no field 'nope'"):
        plan.without("nope")


def test_nothing_changes_a_model_in_place() -> None:
    plan = mm.Plan.model_validate(fixture(mm.Plan))
    with pytest.raises(ValidationError, match="frozen"):
        plan.steps[0].dependencies = ["x"]  # type: ignore[misc, assignment]
    with pytest.raises(ValidationError, match="frozen"):
        del plan.trace
    with pytest.raises(AttributeError):
        plan.steps.append(plan.steps[0])  # type: ignore[attr-defined]
    assert isinstance(plan.steps, tuple) and all(isinstance(step.dependencies or (), tuple) for step in plan.steps)
    assert hash(plan.steps[0]) == hash(mm.PlanStep.model_validate(fixture(mm.Plan)["steps"][0]))


@pytest.mark.filterwarnings("ignore:The `copy` method is deprecated")
def test_the_deprecated_copy_validates_what_it_changes() -> None:
    plan = mm.Plan.model_validate(fixture(mm.Plan))
    with pytest.raises(ValidationError) as caught:
        plan.copy(update={"status": "bogus"})
    assert [(entry["type"], entry["loc"]) for entry in caught.value.errors()] == [("enum", ("status",))]
    for left_out in ({"exclude": {"title"}}, {"include": {"plan_id", "meta"}}):
        with pytest.raises(ValidationError, match="missing"):
            plan.copy(**left_out)  # type: ignore[arg-type]
    assert plan.copy() == plan
    assert plan.copy(exclude={"trace"}) == plan.without("trace")
    assert "trace" not in plan.copy(exclude={"trace"}).to_dict()
    renamed = plan.copy(update={"title": "Renamed"})
    assert renamed == plan.model_copy(update={"title": "Renamed"}) and renamed.to_dict()["title"] == "Renamed"
    with pytest.warns(DeprecationWarning, match="model_copy"):
        plan.copy()


def test_model_construct_validates_like_construction() -> None:
    document = fixture(mm.Plan)
    given = mm.Plan.model_validate(document)
    assert mm.Plan.model_construct(**document) == given
    assert mm.Plan.model_construct(set(document), **document) == given
    with pytest.raises(ValidationError) as caught:
        mm.Plan.model_construct(**{**document, "status": "bogus"})
    assert [(entry["type"], entry["loc"]) for entry in caught.value.errors()] == [("enum", ("status",))]
    with pytest.raises(ValidationError, match="missing"):
        mm.Plan.model_construct(**{key: value for key, value in document.items() if key != "title"})
    with pytest.raises(ValueError, match="_fields_set"):
        mm.Plan.model_construct({"title"}, **document)


def test_the_given_fields_cannot_be_changed_through_model_fields_set() -> None:
    plan = mm.Plan.model_validate(fixture(mm.Plan))
    plan.model_fields_set.discard("title")
    plan.model_fields_set.add("nothing")
    assert plan.model_fields_set == set(fixture(mm.Plan))
    assert plan.to_dict() == fixture(mm.Plan)


PROPERTY = settings(
    max_examples=examples(quick=40, deep=400), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY
@given(testing.payloads())
def test_copies_and_pickles_are_equal_and_write_the_same_bytes(model: mm.MplpModel) -> None:
    for made in (copy.copy(model), copy.deepcopy(model), pickle.loads(pickle.dumps(model))):
        assert type(made) is type(model) and made == model
        assert made.model_fields_set == model.model_fields_set and made.to_json() == model.to_json()


@PROPERTY
@given(testing.payloads())
def test_every_model_hashes_and_equal_models_hash_equal(model: mm.MplpModel) -> None:
    # Read back, open objects hold 1 for 1.0 (the canonical number): equal, so equal hashes.
    again = type(model).from_json(model.to_json())
    assert again == model and hash(again) == hash(model)
    assert hash(copy.deepcopy(model)) == hash(model)
    assert {model: 1}[again] == 1


def test_open_objects_hash_and_compare_as_json() -> None:
    document = fixture(mm.Event)

    def event(data: Any) -> mm.Event:
        return mm.Event.model_validate({**document, "data": data})

    assert hash(event({"x": [1, {"y": None}]})) == hash(event({"x": [1.0, {"y": None}]}))
    assert event({"x": 1}) == event({"x": 1.0})
    assert event({"x": True}) != event({"x": 1})  # Python's True == 1 is not JSON's
    assert event({"x": [True]}) != event({"x": [1]})
    assert event({"x": {"a": 1}}) != event({"x": [["a", 1]]})
    assert event({"x": 1}) != event({"x": 2}) and event({}) != event(None)
    plan = mm.Plan.model_validate(fixture(mm.Plan))
    assert plan.trace is not None and plan.trace.attributes is not None
    assert len({plan, mm.Plan.model_validate(fixture(mm.Plan)), plan.without("trace")}) == 2
    # An open model's own keys (ContextRoot's) compare as a JSON object's: in any order.
    context = fixture(mm.Context)
    first, second, other = (
        mm.Context.model_validate({**context, "root": {**context["root"], **keys}})
        for keys in ({"x": [1], "y": [True]}, {"y": [True], "x": [1]}, {"x": [1], "y": [1]})
    )
    assert first == second and hash(first) == hash(second) and first != other


def only_nested_lists(attributes: dict[str, Any], levels: int) -> None:
    """The object holding nothing but ``levels`` nested lists: ``levels`` + 1 levels, with the object itself."""
    attributes.clear()
    attributes["deep"] = json.loads("[" * levels + "]" * levels)


@pytest.mark.parametrize(
    "change",
    [
        lambda attributes: attributes.update(ratio=float("nan")),
        lambda attributes: attributes.update(
            deep=json.loads("[" * (mm.MAX_OPEN_OBJECT_DEPTH + 1) + "]" * (mm.MAX_OPEN_OBJECT_DEPTH + 1))
        ),
        lambda attributes: only_nested_lists(attributes, mm.MAX_OPEN_OBJECT_DEPTH),
        lambda attributes: attributes.update(bad="\ud800"),
        lambda attributes: attributes.update(thing=object()),
    ],
    ids=["NaN", "too deep", "one level too deep", "lone surrogate", "not JSON"],
)
def test_an_open_object_changed_in_place_is_never_written(change: Any) -> None:
    # Open objects stay dicts (they hold any JSON); what they are changed into is checked on the way out.
    plan = mm.Plan.model_validate(fixture(mm.Plan))
    assert plan.trace is not None
    change(plan.trace.attributes)
    with pytest.raises(mm.CanonicalJSONError):
        plan.to_json()
    with pytest.raises(Exception) as caught:  # pydantic's own serialization error
        plan.model_dump_json()
    assert not isinstance(caught.value, AssertionError)


def test_an_open_object_changed_in_place_at_the_depth_limit_is_written() -> None:
    plan = mm.Plan.model_validate(fixture(mm.Plan))
    assert plan.trace is not None and plan.trace.attributes is not None
    only_nested_lists(plan.trace.attributes, mm.MAX_OPEN_OBJECT_DEPTH - 1)
    deep = "[" * (mm.MAX_OPEN_OBJECT_DEPTH - 1) + "]" * (mm.MAX_OPEN_OBJECT_DEPTH - 1)
    assert f'"attributes":{{"deep":{deep}}}'.encode() in plan.to_json()


# --- the published JSON Schema ----------------------------------------------------------


@pytest.mark.parametrize("model", list(SCHEMA_OF), ids=lambda model: model.__name__)
def test_the_json_schema_describes_every_field(model: type[mm.MplpModel]) -> None:
    schema = model.model_json_schema()
    assert schema.get("description")
    defs = schema.get("$defs", {})
    for part in [schema, *defs.values()]:
        for name, member in part.get("properties", {}).items():
            # pydantic leaves out a description the referenced schema already carries
            referenced = defs.get(member.get("$ref", "").rpartition("/")[2], {})
            assert member.get("description") or referenced.get("description"), f"{part.get('title')}.{name}"
            assert "default" not in member, "absent is not null: no default is published"
        if part.get("type") == "object" and "properties" in part:
            assert part.get("additionalProperties") is (part.get("title") in OPEN_MODELS), part.get("title")


@pytest.mark.parametrize("model", list(SCHEMA_OF), ids=lambda model: model.__name__)
def test_the_json_schema_of_writing_is_that_of_reading(model: type[mm.MplpModel]) -> None:
    # What is written is read back: one schema, so FastAPI publishes no Plan-Input / Plan-Output pair.
    assert model.model_json_schema(mode="serialization") == model.model_json_schema(mode="validation")


def test_the_json_schema_says_unique_items_and_no_null_where_the_schema_says_so() -> None:
    text = json.dumps(mm.InboxMessage.model_json_schema())
    assert text.count('"uniqueItems": true') == 4  # recipient_ids and the three related_*_ids
    step = mm.Plan.model_json_schema()["$defs"]["PlanStep"]["properties"]
    assert step["dependencies"]["type"] == "array" and "anyOf" not in step["dependencies"]
    assert {"type": "null"} in mm.InboxMessage.model_json_schema()["properties"]["task_id"]["anyOf"]


@pytest.mark.parametrize("model", list(FIXTURE_OF), ids=lambda model: model.__name__)
def test_the_json_schema_gives_the_reference_verdict_on_every_mutation(model: type[mm.MplpModel]) -> None:
    published = published_schema_validator(model)

    def judge(mutated: Any) -> str | None:
        expected = reference_accepts(model, mutated)
        if published.is_valid(mutated) == expected:
            return None
        return f"reference {verdict_word(expected)}: {json.dumps(mutated)[:300]}"

    disagreements = mutation_disagreements(model, judge)
    assert not disagreements, "\n".join(disagreements[:20])


# --- build order, warnings: a fresh process each -----------------------------------------


def run_fresh(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-W", "error", "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        check=False,
        cwd=PAYLOADS.parent.parent,
    )


def test_a_type_adapter_built_first_refuses_nan_in_a_fresh_process() -> None:
    result = run_fresh("""
        import json, math
        from pydantic import TypeAdapter, ValidationError
        from mplp_models import Event, Plan
        events, plans = TypeAdapter(Event), TypeAdapter(list[Plan])
        event = json.load(open("examples/payloads/event.json"))
        plan = json.load(open("examples/payloads/plan.json"))
        for bad in (math.nan, math.inf):
            for check in (lambda: events.validate_python({**event, "data": {"x": bad}}),
                          lambda: events.validate_json(json.dumps({**event, "data": {"x": bad}})),
                          lambda: plans.validate_python(
                              [{**plan, "trace": {**plan["trace"], "attributes": {"x": bad}}}]
                          )):
                try:
                    check()
                except ValidationError as error:
                    assert error.errors()[0]["type"] == "finite_number", error
                else:
                    raise SystemExit("accepted a non-finite number")
        print("refused")
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "refused"


def test_a_fresh_fastapi_app_raises_no_warning() -> None:
    pytest.importorskip("fastapi")
    result = run_fresh("""
        from fastapi import FastAPI
        from fastapi.testclient import TestClient
        import mplp_models as mm
        app = FastAPI()
        @app.post("/plans")
        def create(plan: mm.Plan) -> mm.Plan:
            return plan
        @app.post("/events")
        def events(events: list[mm.Event]) -> list[mm.Event]:
            return events
        client = TestClient(app)
        body = open("examples/payloads/plan.json", "rb").read()
        first = client.post("/plans", content=body, headers={"content-type": "application/json"})
        assert first.status_code == 200, first.text
        second = client.post("/plans", content=first.content, headers={"content-type": "application/json"})
        assert second.json() == first.json()
        assert client.get("/openapi.json").status_code == 200
        print("ok")
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


# --- small things ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "member", [mm.PlanStatus.in_progress, mm.DialogMessageRole.assistant, mm.InboxMessageStatus.unread]
)
def test_status_enums_render_as_their_value(member: Any) -> None:
    assert str(member) == f"{member}" == format(member) == f"{member}" == member.value
    assert f"{member:>20}" == f"{member.value:>20}"


def test_the_repr_shows_the_given_fields_only() -> None:
    step = mm.PlanStep(step_id=mm.new_id(), description="d", status=mm.PlanStepStatus.pending)
    assert "=None" not in repr(step) and "dependencies" not in repr(step)
    message = mm.InboxMessage.from_json((PAYLOADS / "inbox.json").read_bytes())
    assert "task_id=None" in repr(message)  # an explicit null is a given value


def test_equality_tells_absent_from_null() -> None:
    absent = mm.Event.model_validate(fixture(mm.Event))
    assert "data" in absent.model_fields_set or absent.data is None
    document = {key: value for key, value in fixture(mm.Event).items() if key != "data"}
    without_data = mm.Event.model_validate(document)
    with_null = mm.Event.model_validate({**document, "data": None})
    assert without_data != with_null and without_data.data == with_null.data is None
    assert without_data == mm.Event.model_validate(document)


def test_python_values_where_text_is_wanted_say_what_to_call() -> None:
    with pytest.raises(ValidationError) as caught:
        mm.Event(
            event_id=uuid.uuid4(),  # type: ignore[arg-type]
            event_type="plan.approved",
            source="s",
            timestamp=datetime.datetime.now(datetime.timezone.utc),  # type: ignore[arg-type]
        )
    messages = {entry["loc"][0]: entry["msg"] for entry in caught.value.errors()}
    assert "str(value)" in messages["event_id"] and "new_id()" in messages["event_id"]
    assert "Timestamp.from_datetime" in messages["timestamp"]
    assert TypeAdapter(mm.MplpId).validate_python(mm.new_id()) != mm.new_id()


def test_the_signature_shows_the_fields_before_first_use() -> None:
    result = run_fresh("""
        import inspect
        import mplp_models as mm
        print(*inspect.signature(mm.PlanStep).parameters)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["step_id", "description", "status", "dependencies", "agent_role", "order_index"]
    assert list(inspect.signature(mm.Plan).parameters)[:2] == ["meta", "plan_id"]


def test_a_serializer_of_a_users_subclass_is_kept() -> None:
    from pydantic import model_serializer

    class Tagged(mm.PlanStep, frozen=True):
        @model_serializer(mode="wrap")
        def _tag(self, handler: Any) -> Any:
            return {**handler(self), "tagged": True}

    step = Tagged(step_id=mm.new_id(), description="d", status=mm.PlanStepStatus.pending)
    assert step.model_dump()["tagged"] is True


def test_an_open_models_own_keys_hold_what_they_read_as() -> None:
    # A tuple given for a key of a context's root is held as the array it reads as: the model,
    # accepted, can be written (it was refused on the way out when the tuple was kept).
    root = mm.ContextRoot(domain="d", environment="e", x=(1, 2), y={"z": (3,)})
    assert root.model_extra == {"x": [1, 2], "y": {"z": [3]}}
    assert root.to_json() == b'{"domain":"d","environment":"e","x":[1,2],"y":{"z":[3]}}'
    assert mm.ContextRoot.from_json(root.to_json()) == root


def test_an_open_models_own_keys_compare_and_hash_as_json() -> None:
    true, one, one_point_zero = (mm.ContextRoot(domain="d", environment="e", x=value) for value in (True, 1, 1.0))
    assert true.to_json() != one.to_json() and true != one  # true is not 1 in JSON
    assert one == one_point_zero and hash(one) == hash(one_point_zero)  # 1 and 1.0 are one JSON number
