"""mplp_models.llm: each dialect's schemas against the provider's documented rules, round trips, bad answers."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import examples, fixture
from hypothesis import event, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from pydantic import ValidationError

import mplp_models as mm
from mplp_models import llm
from mplp_models._kinds import KINDS
from mplp_models._llm_schema import CHECKED_ON_RETURN, strict_load
from mplp_models.testing import instances

MODELS = [kind.model for kind in KINDS]
STRICT: tuple[llm.Dialect, ...] = ("openai", "anthropic", "gemini")
DIALECTS: tuple[llm.Dialect, ...] = (*STRICT, "json-schema")


# --- the providers' rules, as their pages state them ------------------------------------------
# Each rule is quoted from the provider's page; where a page is silent, the comment says whose
# practice the rule follows.


def nodes(schema: Any, depth: int = 0) -> Iterator[tuple[dict[str, Any], int]]:
    """Every subschema with its object nesting depth (the root object is level 1)."""
    if not isinstance(schema, dict):
        return
    level = depth + (1 if schema.get("type") == "object" else 0)
    yield schema, level
    for member in schema.get("properties", {}).values():
        yield from nodes(member, level)
    for key in ("items", "additionalProperties"):
        yield from nodes(schema.get(key), level)
    for member in schema.get("anyOf", ()):
        yield from nodes(member, depth)
    for member in schema.get("$defs", {}).values():
        yield from nodes(member, 0)


def inlined(schema: dict[str, Any]) -> Any:
    """The schema with every $ref replaced by its definition (fails on a recursive schema)."""
    defs = schema.get("$defs", {})

    def expand(node: Any, seen: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [expand(member, seen) for member in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            assert name not in seen, f"recursive schema through {name}"
            return expand(defs[name], (*seen, name))
        return {key: expand(value, seen) for key, value in node.items() if key != "$defs"}

    return expand(schema, ())


def max_depth(schema: dict[str, Any]) -> int:
    """The deepest nesting of objects, a definition counted where it is used."""
    return max(level for _, level in nodes(inlined(schema)))


def check_common(schema: dict[str, Any]) -> None:
    # All three: the root is an object (not anyOf); every $ref is local, to a definition that exists.
    assert schema["type"] == "object"
    assert "anyOf" not in schema
    defs = schema.get("$defs", {})
    for node, _ in nodes(schema):
        if "$ref" in node:
            assert node["$ref"].startswith("#/$defs/"), node
            assert node["$ref"].removeprefix("#/$defs/") in defs
        if node.get("type") == "object":
            # Closed: OpenAI "additionalProperties: false must always be set in objects"; Anthropic
            # "required and additionalProperties (must be set to false for objects)"; Gemini takes it.
            assert node.get("additionalProperties") is False, node
            assert set(node.get("required", ())) <= set(node["properties"])
    inlined(schema)  # Anthropic, not supported: "Recursive schemas"; Gemini unrolls them "to a limited degree"


# https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
OPENAI_KEYWORDS = {
    # "Supported types: String, Number, Boolean, Integer, Object, Array, Enum, anyOf"; "Definitions are
    # supported" ($defs, $ref); the page's own examples use description.
    *("type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const"),
    *("$ref", "$defs", "description", "title"),
    # "Supported string properties: pattern, format"
    *("pattern", "format"),
    # "Supported number properties: multipleOf, maximum, exclusiveMaximum, minimum, exclusiveMinimum"
    *("multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"),
    # "Supported array properties: minItems, maxItems"
    *("minItems", "maxItems"),
}
# "format — Predefined formats for strings. Currently supported: date-time, time, date, duration,
# email, hostname, ipv4, ipv6, uuid"
OPENAI_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
# "A schema may have up to 5000 object properties total, with up to 10 levels of nesting."
OPENAI_MAX_DEPTH = 10
OPENAI_MAX_PROPERTIES = 5000
# "total string length of all property names, definition names, enum values, and const values cannot
# exceed 120,000 characters"
OPENAI_MAX_STRING = 120_000
# "A schema may have up to 1000 enum values across all enum properties."
OPENAI_MAX_ENUM_VALUES = 1000


def check_openai(schema: dict[str, Any]) -> None:
    check_common(schema)
    enum_values = text = 0
    for node, _ in nodes(schema):
        node_enum_values, node_text = check_openai_node(node)
        enum_values += node_enum_values
        text += node_text
    # Properties and depth as the answer holds them: a definition counts where it is used.
    properties = sum(len(node.get("properties", {})) for node, _ in nodes(inlined(schema)))
    text += sum(map(len, schema.get("$defs", {})))
    assert max_depth(schema) <= OPENAI_MAX_DEPTH
    assert properties <= OPENAI_MAX_PROPERTIES
    assert enum_values <= OPENAI_MAX_ENUM_VALUES
    assert text <= OPENAI_MAX_STRING


def check_openai_node(node: dict[str, Any]) -> tuple[int, int]:
    """One node of a schema under OpenAI's rules; its enum values and the length of its names and values."""
    assert set(node) <= OPENAI_KEYWORDS, set(node) - OPENAI_KEYWORDS
    enum_values = text = 0
    if node.get("type") == "object":
        # "all fields or function parameters must be specified as required"; "it is possible to
        # emulate an optional parameter by using a union type with null"
        assert node["required"] == list(node["properties"])
        text += sum(map(len, node["properties"]))
    if "$ref" in node:
        # The page is silent; openai-python's to_strict_json_schema inlines a $ref with other keys.
        assert set(node) == {"$ref"}, node
    if "format" in node:
        assert node["format"] in OPENAI_FORMATS
    if "enum" in node:
        enum_values += len(node["enum"])
        text += sum(len(str(value)) for value in node["enum"])
    assert any(key in node for key in ("type", "anyOf", "$ref")), node
    return enum_values, text


# https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations
# (strict tool use: "For the supported JSON Schema subset, see JSON Schema limitations").
# "Supported features: All basic types: object, array, string, integer, number, boolean, null; enum
# (strings, numbers, bools, or nulls only - no complex types); const; anyOf and allOf (with limitations
# - allOf with $ref not supported); $ref, $def, and definitions (external $ref not supported); default
# property for all supported types; required and additionalProperties (must be set to false for
# objects); String formats: [below]; Array minItems (only values 0 and 1 supported)". Not supported:
# "Numerical constraints (minimum, maximum, multipleOf, etc.)", "String constraints (minLength,
# maxLength)", "Array constraints beyond minItems of 0 or 1". pattern takes "simple regex patterns"
# only ("Complex patterns may result in 400 errors"): we send none, so it is not allowed here.
ANTHROPIC_KEYWORDS = {
    *("type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "allOf"),
    *("$ref", "$defs", "definitions", "default", "description", "title", "format", "minItems"),
}
ANTHROPIC_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
# https://platform.claude.com/docs/en/build-with-claude/structured-outputs#schema-complexity-limits:
# "Optional parameters | 24 | Total optional parameters across all strict tool schemas and JSON output
# schemas. Each parameter not listed in required counts toward this limit." "Parameters with union
# types | 16 | Total parameters that use anyOf or type arrays [...] across all strict schemas."
ANTHROPIC_MAX_OPTIONAL = 24
ANTHROPIC_MAX_UNIONS = 16


def anthropic_load(schema: dict[str, Any]) -> tuple[int, int]:
    """Optional parameters and union-typed places of a strict schema, a definition counted at each use."""
    optional = unions = 0
    for node, _ in nodes(inlined(schema)):
        optional += len(set(node.get("properties", {})) - set(node.get("required", ())))
        unions += "anyOf" in node or isinstance(node.get("type"), list)
    return optional, unions


def check_anthropic(schema: dict[str, Any]) -> None:
    check_common(schema)
    for node, _ in nodes(schema):
        assert set(node) <= ANTHROPIC_KEYWORDS, set(node) - ANTHROPIC_KEYWORDS
        assert node.get("minItems", 0) in (0, 1)
        if "format" in node:
            assert node["format"] in ANTHROPIC_FORMATS
        if "enum" in node:
            assert all(value is None or isinstance(value, (str, int, float, bool)) for value in node["enum"])


# https://ai.google.dev/api/generate-content#FIELDS.response_json_schema: "only the following
# properties are supported: $id, $defs, $ref, $anchor, type, format, title, description, enum (for
# strings and numbers), items, prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf
# (interpreted the same as anyOf), properties, additionalProperties, required. The non-standard
# propertyOrdering property may also be set." "If $ref is set on a sub-schema, no other properties,
# except for than those starting as a $, may be set."
GEMINI_KEYWORDS = {
    *("$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum", "items"),
    *("prefixItems", "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf", "properties"),
    *("additionalProperties", "required", "propertyOrdering"),
}
# https://ai.google.dev/gemini-api/docs/structured-output: "format: Specifies a syntax for the string,
# such as date-time, date, time."
GEMINI_FORMATS = {"date-time", "date", "time"}


def check_gemini(schema: dict[str, Any]) -> None:
    check_common(schema)
    for node, _ in nodes(schema):
        assert set(node) <= GEMINI_KEYWORDS, set(node) - GEMINI_KEYWORDS
        if "$ref" in node:
            assert all(key.startswith("$") for key in node), node
        if "format" in node:
            assert node["format"] in GEMINI_FORMATS
        if "enum" in node:
            numbers_or_strings = (str, int, float)
            assert all(isinstance(v, numbers_or_strings) and not isinstance(v, bool) for v in node["enum"])


CHECKS = {"openai": check_openai, "anthropic": check_anthropic, "gemini": check_gemini}


@pytest.mark.parametrize("dialect", STRICT)
@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_schema_keeps_to_the_providers_rules(model: type[mm.MplpModel], dialect: llm.Dialect) -> None:
    CHECKS[dialect](llm.json_schema(model, dialect=dialect))


def test_checkers_refuse_what_the_models_own_schema_has() -> None:
    # The checkers can fail: the models' own schema breaks each provider's rules.
    own = llm.json_schema(mm.Trace, dialect="json-schema")
    for check in CHECKS.values():
        with pytest.raises(AssertionError):
            check(own)


@pytest.mark.parametrize(
    ("check", "node"),
    [
        (check_openai, {"type": "string", "minLength": 1}),
        (check_openai, {"type": "string", "format": "uri"}),
        (check_openai, {"$ref": "#/$defs/Step", "description": "a step"}),
        (check_anthropic, {"type": "integer", "minimum": 0}),
        (check_anthropic, {"type": "string", "pattern": "^a$"}),
        (check_anthropic, {"type": "array", "items": {"type": "string"}, "minItems": 2}),
        (check_gemini, {"type": "string", "format": "uuid"}),
        (check_gemini, {"type": "boolean", "enum": [True]}),
        (check_gemini, {"type": "string", "maxLength": 3}),
    ],
)
def test_checkers_refuse_each_rule(check: Any, node: dict[str, Any]) -> None:
    step = {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"], "additionalProperties": False}
    schema = {"type": "object", "properties": {"a": node}, "required": ["a"], "additionalProperties": False}
    schema["$defs"] = {"Step": step}
    with pytest.raises(AssertionError):
        check(schema)
    check({**schema, "properties": {"a": {"type": "string"}}})  # the same schema without the broken rule


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_anthropic_strict_tool_within_the_limits_or_refused(model: type[mm.MplpModel]) -> None:
    schema = llm.json_schema(model, dialect="anthropic")
    optional, unions = anthropic_load(schema)
    if optional <= ANTHROPIC_MAX_OPTIONAL and unions <= ANTHROPIC_MAX_UNIONS:
        assert llm.anthropic_tool(model)["strict"] is True
    else:
        with pytest.raises(ValueError, match="over Anthropic's limits on strict schemas") as refused:
            llm.anthropic_tool(model)
        assert f"{optional} optional parameters" in str(refused.value) or f"{unions} parameters" in str(refused.value)
    loose = llm.anthropic_tool(model, strict=False)
    assert loose["strict"] is False
    assert loose["input_schema"] == schema


def test_the_largest_models_are_refused_strict_and_sent_loose() -> None:
    # Context, Trace and LearningSample have 26 optional fields: over the 24 a request takes.
    for model in (mm.Context, mm.Trace, mm.LearningSample):
        with pytest.raises(ValueError, match="26 optional parameters, where a request takes at most 24"):
            llm.anthropic_tool(model)
        assert llm.anthropic_tool(model, strict=False)["strict"] is False
    assert llm.anthropic_tool(mm.Plan)["strict"] is True


def test_union_typed_places_count_toward_the_limit() -> None:
    nullable = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    schema = {
        "type": "object",
        "properties": {f"f{n}": nullable for n in range(ANTHROPIC_MAX_UNIONS)} | {"g": {"type": ["string", "null"]}},
        "required": [*(f"f{n}" for n in range(ANTHROPIC_MAX_UNIONS)), "g"],
        "additionalProperties": False,
    }
    assert anthropic_load(schema) == (0, ANTHROPIC_MAX_UNIONS + 1)
    assert strict_load(schema) == {"optional parameters": 0, "parameters with union types": ANTHROPIC_MAX_UNIONS + 1}


def test_every_constraint_of_the_models_is_carried_or_said() -> None:
    # A keyword a dialect leaves out must be one whose absence is said in words (or an annotation).
    seen: set[str] = set()
    for model in MODELS:
        for node, _ in nodes(llm.json_schema(model, dialect="json-schema")):
            seen |= set(node)
    annotations = {"title", "description", "default", "$defs"}
    structure = {"type", "properties", "required", "additionalProperties", "items", "anyOf", "$ref"}
    carried = {"enum", "const", "format"}  # const as a one-value enum; a format dropped is said
    assert seen <= annotations | structure | carried | set(CHECKED_ON_RETURN), seen


def test_json_schema_dialect_is_the_models_own() -> None:
    assert llm.json_schema(mm.Plan, dialect="json-schema") == mm.Plan.model_json_schema()


def test_unknown_dialect_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="no dialect 'mistral'"):
        llm.json_schema(mm.Plan, dialect="mistral")  # type: ignore[arg-type]


def test_what_is_no_model_class_or_no_validation_error_is_a_type_error() -> None:
    # Untyped callers: a model's name for its class, a dict class, a ValueError for feedback's error.
    text = llm.PlanDraft.example().model_dump_json()
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: llm.json_schema("Plan"), r"json_schema takes a model class .*, not the string 'Plan'"),  # type: ignore[arg-type]
        (lambda: llm.openai_format(dict), r"json_schema takes a model class .*, not the class dict"),  # type: ignore[arg-type]
        (lambda: llm.from_llm_json(dict, text), r"from_llm_json takes a model class .*, not the class dict"),  # type: ignore[type-var]
        (
            lambda: llm.answer(llm.PlanDraft.example()),  # type: ignore[arg-type]
            r"answer takes a model .*, not PlanDraft \(a draft's answer is its model_dump\(\)\)",
        ),
        (lambda: llm.feedback(ValueError("no")), "feedback takes a pydantic ValidationError"),  # type: ignore[arg-type]
    ]
    for call, message in calls:
        with pytest.raises(TypeError, match=message):
            call()


def test_what_a_dialect_cannot_carry_is_said_in_the_description() -> None:
    schema = llm.json_schema(mm.InboxMessage, dialect="gemini")
    assert "maxLength 200" in schema["properties"]["subject"]["description"]
    assert "no item twice" in schema["properties"]["recipient_ids"]["description"]
    trace = llm.json_schema(mm.TraceBase, dialect="openai")["properties"]["attributes"]
    assert trace["anyOf"][0]["type"] == "string"
    assert "JSON text" in trace["description"]


# --- round trips ------------------------------------------------------------------------------


def validator(model: type[mm.MplpModel], dialect: llm.Dialect) -> Draft202012Validator:
    return Draft202012Validator(llm.json_schema(model, dialect=dialect))


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_round_trip_through_each_dialect(model: type[mm.MplpModel], dialect: llm.Dialect) -> None:
    check = validator(model, dialect)

    @settings(max_examples=examples(quick=8, deep=1000), deadline=None)
    @given(instances(model))
    def round_trip(instance: mm.MplpModel) -> None:
        if instance.model_extra and dialect != "json-schema":
            # An open root's own keys: the strict dialects ask for the declared fields only.
            event("refused: keys beyond an open root's fields")
            with pytest.raises(ValueError, match="cannot be carried"):
                llm.answer(instance, dialect=dialect)
            extra = instance.model_extra
            instance = type(instance).model_validate({k: v for k, v in instance.to_dict().items() if k not in extra})
        form = llm.answer(instance, dialect=dialect)
        errors = [error.message for error in check.iter_errors(form)]
        assert not errors
        back = llm.from_llm_json(model, json.dumps(form), dialect=dialect)
        assert back == instance
        assert back.to_json() == instance.to_json()

    round_trip()


@pytest.mark.parametrize("dialect", DIALECTS)
def test_fixture_round_trip(dialect: llm.Dialect) -> None:
    plan = mm.Plan.model_validate(fixture(mm.Plan))
    form = llm.answer(plan, dialect=dialect)
    assert llm.from_llm_json(mm.Plan, form, dialect=dialect) == plan


# --- absent and null --------------------------------------------------------------------------


def inbox(**changes: Any) -> dict[str, Any]:
    document = llm.answer(mm.InboxMessage.model_validate(fixture(mm.InboxMessage)), dialect="openai")
    return {**document, **changes}


def test_openai_wrapper_tells_absent_from_null() -> None:
    absent = llm.from_llm_json(mm.InboxMessage, inbox(task_id={"present": False, "value": None}))
    null = llm.from_llm_json(mm.InboxMessage, inbox(task_id={"present": True, "value": None}))
    given_ = llm.from_llm_json(mm.InboxMessage, inbox(task_id={"present": True, "value": "T-1"}))
    assert "task_id" not in absent.model_fields_set
    assert "task_id" in null.model_fields_set and null.task_id is None
    assert given_.task_id == "T-1"


def test_openai_null_is_absent_for_a_field_that_may_not_be_null() -> None:
    plan = fixture(mm.Plan)
    form = llm.answer(mm.Plan.model_validate(plan), dialect="openai")
    form["steps"][0]["dependencies"] = None
    form["trace"] = None
    read = llm.from_llm_json(mm.Plan, json.dumps(form))
    assert "dependencies" not in read.steps[0].model_fields_set
    assert "trace" not in read.model_fields_set


def test_present_false_with_a_value_is_refused() -> None:
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.InboxMessage, inbox(task_id={"present": False, "value": "T-1"}))
    assert caught.value.errors()[0]["loc"] == ("task_id", "value")


def test_error_inside_a_wrapper_points_at_its_value() -> None:
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.InboxMessage, inbox(read_at={"present": True, "value": "yesterday"}))
    assert [error["loc"] for error in caught.value.errors()] == [("read_at", "value")]


# --- open objects as JSON text ----------------------------------------------------------------


def span(**changes: Any) -> dict[str, Any]:
    base = {"trace_id": mm.new_id(), "span_id": mm.new_id(), "parent_span_id": None, "context_id": None}
    return {**base, "attributes": None, **changes}


def test_json_text_is_read_into_the_open_object() -> None:
    read = llm.from_llm_json(mm.TraceBase, span(attributes='{"a": [1, 2.5, null]}'))
    assert read.attributes == {"a": [1, 2.5, None]}
    assert read.model_fields_set == {"trace_id", "span_id", "attributes"}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"a": 1, "a": 2}', "Duplicate key"),
        ('{"a": NaN}', "Invalid JSON"),
        ('{"a": 1', "Invalid JSON"),
    ],
)
def test_json_text_is_read_strictly(text: str, words: str) -> None:
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.TraceBase, span(attributes=text))
    (error,) = caught.value.errors()
    assert error["loc"] == ("attributes",)
    assert words in error["msg"]


def test_json_text_that_is_not_an_object_is_refused_at_the_field() -> None:
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.TraceBase, span(attributes="[1, 2]"))
    assert [error["loc"] for error in caught.value.errors()] == [("attributes",)]


def test_an_object_where_json_text_belongs_is_refused() -> None:
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.TraceBase, span(attributes={"a": 1}))
    assert caught.value.errors()[0]["type"] == "llm_json_text"


# --- bad answers: always a ValidationError, with feedback -------------------------------------


def plan_answer() -> dict[str, Any]:
    return llm.answer(mm.Plan.model_validate(fixture(mm.Plan)), dialect="openai")


def test_truncated_json() -> None:
    text = json.dumps(plan_answer())[:-40]
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.Plan, text)
    assert caught.value.errors()[0]["type"] == "json_invalid"
    assert "(the whole answer) [json_invalid]" in llm.feedback(caught.value)


def test_prose_around_json_is_refused_in_strict_dialects_and_read_under_json_schema() -> None:
    plan = mm.Plan.model_validate(fixture(mm.Plan))
    body = json.dumps(llm.answer(plan, dialect="json-schema"), indent=2)
    texts = (
        f"Here is the plan:\n```json\n{body}\n```\nAnything else?",
        f"Sure! {body} Hope it helps.",
        f"{body}\n\nThe steps run in order {{1, 2}}.",
        f"\ufeff{body}",  # a byte order mark is prose like any other
    )
    for text in texts:
        with pytest.raises(ValidationError):
            llm.from_llm_json(mm.Plan, text, dialect="openai")
        assert llm.from_llm_json(mm.Plan, text, dialect="json-schema") == plan
        assert llm.from_llm_json(mm.Plan, text.encode(), dialect="json-schema") == plan


@pytest.mark.parametrize(
    ("prefix", "code"), [('{"x": NaN, ', "json_invalid"), ('{"title": "a", ', "json_duplicate_key")]
)
def test_a_leading_object_with_prose_after_it_is_still_read_strictly(prefix: str, code: str) -> None:
    body = json.dumps(plan_answer())
    text = prefix + body[1:] + "\nHope it helps."
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.Plan, text, dialect="json-schema")
    assert caught.value.errors()[0]["type"] == code


def test_json_too_deep_for_pythons_reader_is_refused_not_raised() -> None:
    for text in ('{"a":' * 100_000 + "1" + "}" * 100_000, 'See: {"a":' * 100_000):
        with pytest.raises(ValidationError):
            llm.from_llm_json(mm.Plan, text, dialect="json-schema")


def test_refusal() -> None:
    refusal = "I'm sorry, but I can't help with that request."
    for dialect in DIALECTS:
        with pytest.raises(ValidationError) as caught:
            llm.from_llm_json(mm.Plan, refusal, dialect=dialect)
        assert caught.value.errors()[0]["type"] in ("json_invalid", "llm_no_json")
        assert llm.feedback(caught.value).startswith("Your answer is not a valid Plan.")


def test_unknown_key() -> None:
    form = plan_answer()
    form["steps"][1]["priority"] = "high"
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.Plan, form)
    assert [(e["loc"], e["type"]) for e in caught.value.errors()] == [(("steps", 1, "priority"), "extra_forbidden")]


def test_null_where_required() -> None:
    form = plan_answer()
    form["title"] = None
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.Plan, form)
    assert [e["loc"] for e in caught.value.errors()] == [("title",)]
    assert "- /title [string_type]: Input should be a valid string; found null" in llm.feedback(caught.value)


def cyclic_plan() -> dict[str, Any]:
    form = plan_answer()
    first, second = form["steps"][0], form["steps"][1]
    first["dependencies"] = [second["step_id"]]
    second["dependencies"] = [first["step_id"]]
    for step in form["steps"]:
        step["status"] = "pending"
    form["status"] = "draft"
    return form


def test_dependency_cycle_names_the_steps() -> None:
    form = cyclic_plan()
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.Plan, json.dumps(form))
    message = llm.feedback(caught.value)
    assert "cycle" in message
    assert form["steps"][0]["step_id"] in message and form["steps"][1]["step_id"] in message


def test_dependency_on_a_missing_step_names_it() -> None:
    form = plan_answer()
    ghost = mm.new_id()
    form["steps"][0]["dependencies"] = [ghost]
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.Plan, form)
    message = llm.feedback(caught.value)
    assert "/steps/0/dependencies/0" in message
    assert ghost in message


def test_feedback_is_short() -> None:
    form = plan_answer()
    form["steps"] = [{"step_id": "x"} for _ in range(30)]
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.Plan, form)
    lines = llm.feedback(caught.value).splitlines()
    assert len(lines) == 22
    assert lines[-1].startswith("- and ")


@pytest.mark.parametrize("found", ["\ud800", "caf\u00e9 \udfff"])
def test_feedback_on_a_lone_surrogate_can_be_sent_as_utf8(found: str) -> None:
    # An SDK's parsed answer may hold one; the retry sends feedback as UTF-8 (JSON of a request body).
    form = plan_answer()
    form["title"] = found
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.Plan, form)
    message = llm.feedback(caught.value)
    message.encode("utf-8")
    assert json.dumps(found) in message  # the value as JSON escapes it: "\ud800"
    assert mm.errors_as_json(caught.value)[0]["message"].endswith(json.dumps(found))


@settings(max_examples=examples(quick=50, deep=2000), deadline=None)
@given(st.text(max_size=200) | st.binary(max_size=200), st.sampled_from(DIALECTS))
def test_any_text_is_a_model_or_a_validation_error(text: str | bytes, dialect: llm.Dialect) -> None:
    try:
        llm.from_llm_json(mm.Plan, text, dialect=dialect)
    except ValidationError as error:
        assert llm.feedback(error)


def test_helpers_for_the_sdks() -> None:
    response_format = llm.openai_format(mm.Plan)
    assert response_format["json_schema"]["strict"] is True
    assert response_format["json_schema"]["schema"] == llm.json_schema(mm.Plan)
    tool = llm.anthropic_tool(mm.Plan)
    assert tool["input_schema"] == llm.json_schema(mm.Plan, dialect="anthropic")
    assert tool["name"] == "Plan"


def test_json_text_nested_too_deep_is_refused_as_from_json_refuses_it() -> None:
    deep = '{"a": ' * (mm.MAX_OPEN_OBJECT_DEPTH + 1) + "1" + "}" * (mm.MAX_OPEN_OBJECT_DEPTH + 1)
    with pytest.raises(ValidationError) as direct:
        mm.TraceBase.from_json(
            json.dumps({"trace_id": mm.new_id(), "span_id": mm.new_id(), "attributes": json.loads(deep)})
        )
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.TraceBase, span(attributes=deep))
    assert [e["type"] for e in caught.value.errors()] == [e["type"] for e in direct.value.errors()]
    assert [e["loc"] for e in caught.value.errors()] == [("attributes",)]


def test_error_inside_json_text_names_its_place_in_the_text() -> None:
    context = llm.answer(mm.Context.model_validate(fixture(mm.Context)), dialect="openai")
    root = json.loads(context["root"])
    del root["domain"]
    context["root"] = json.dumps(root)
    with pytest.raises(ValidationError) as caught:
        llm.from_llm_json(mm.Context, context)
    (error,) = caught.value.errors()
    assert error["loc"] == ("root",)
    assert error["msg"] == "In the JSON text, at /domain: Field required"


def test_a_parsed_answer_with_text_utf8_cannot_encode_is_refused_at_its_place() -> None:
    for dialect in DIALECTS:
        form = llm.answer(mm.Dialog.model_validate(fixture(mm.Dialog)), dialect=dialect)
        form["messages"][0]["content"] = "a\ud800"
        with pytest.raises(ValidationError) as caught:
            llm.from_llm_json(mm.Dialog, form, dialect=dialect)
        found = [(item["pointer"], item["code"]) for item in mm.errors_as_json(caught.value)]
        assert found == [("/messages/0/content", "string_unicode")], dialect
        assert "/messages/0/content [string_unicode]" in llm.feedback(caught.value)
