"""The fast reading (``_fast_shapes.Reading``): the class's validator made for JSON text, held to the strict reading.

Its open objects take no Python call and its outermost rules are asked after
the proof, so what those calls refused must be refused by the proof instead:
NaN, infinities and overflowing numbers in open objects (the ``null`` count),
open objects nested too deep (the bracket count, or the deep validator's
check, or, for classes with open objects in models inside, the screen after
the reading), broken rules (asked after). Each case is read with the fast paths on
and off, and both readings must agree (the strict reading is the reference:
orjson, the duplicate-key walk, a validation of Python values).
"""

from __future__ import annotations

import enum
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from conftest import PAYLOADS, SCHEMAS
from fast_path_switch import fast_paths
from pydantic import ValidationError

import mplp_models as mm
from mplp_models import _reader
from mplp_models._json_values import MAX_OPEN_OBJECT_DEPTH
from mplp_models._public import is_generated
from mplp_models._writer import every_field_writer

EVENT = (PAYLOADS / "event.json").read_bytes()
TRACE_BASE = (
    b'{"trace_id": "00000003-0000-4000-8000-000000000003",'
    b' "span_id": "00000004-0000-4000-8000-000000000004", "attributes": %s}'
)
INBOX = (PAYLOADS / "inbox.json").read_bytes()
LEARNING = (PAYLOADS / "learning-sample.json").read_bytes()
CONTEXT = (PAYLOADS / "context.json").read_bytes()
DATA = b'"steps": 5'
SOURCE = b'"source": "plan"'
# Brackets in a string: the text counts more than MAX_OPEN_OBJECT_DEPTH of them, so the deep
# validator reads it, though nothing in it nests deeper than the event's own data.
MANY_BRACKETS = b'"source": "' + b"[" * (MAX_OPEN_OBJECT_DEPTH + 1) + b'"'


def nested(levels: int) -> bytes:
    """An open object's value nesting ``levels`` arrays (the object itself is one level more)."""
    return b"[" * levels + b"]" * levels


# A text too large to have its brackets counted, with too many colons to bound its depth: the deep
# validator reads it, whatever its brackets are.
LONG_SOURCE = b'"source": "' + b":" * MAX_OPEN_OBJECT_DEPTH + b"a" * 5000 + b'"'


def event(data: bytes, *, deep: bool | str = False) -> bytes:
    text = EVENT.replace(DATA, data)
    if deep == "large":
        return text.replace(SOURCE, LONG_SOURCE)
    return text.replace(SOURCE, MANY_BRACKETS) if deep else text


# Each value of an open object that the strict reading refuses or keeps, and how JSON spells it.
OPEN_VALUES = {
    "NaN": b'"steps": NaN',
    "Infinity": b'"steps": Infinity',
    "-Infinity in an array": b'"steps": [1, -Infinity]',
    "overflow": b'"steps": {"n": 1e400}',
    "overflowing digits": b'"steps": 1' + b"0" * 400 + b".5",
    "NaN beside a null": b'"steps": [null, NaN]',
    "NaN and a null in a string": b'"steps": NaN, "note": "null"',
    "NaN and an escaped null in a string": b'"steps": NaN, "note": "\\u006eull"',
    "a duplicate holding nulls, and NaN": b'"steps": [null, null], "steps": NaN',
    "a duplicate holding nulls": b'"steps": [null, null], "steps": 1',
    "null in a string": b'"steps": 5, "note": "null \\n null"',
    "newline before ull": b'"steps": 5, "note": "\\null"',
    "finite float": b'"steps": 1e300',
    "nested as deep as allowed": b'"steps": ' + nested(MAX_OPEN_OBJECT_DEPTH - 1),
    "nested one level too deep": b'"steps": ' + nested(MAX_OPEN_OBJECT_DEPTH),
    "big integer": b'"steps": 123456789012345678901234567890',
}


def reading(model: type[mm.MplpModel], data: bytes, **options: Any) -> Any:
    """What from_json gives: the model, its fields and its canonical text; or the errors, as JSON."""
    try:
        read = model.from_json(data, **options)
    except ValidationError as error:
        return mm.errors_as_json(error)
    try:
        written: bytes | str = read.to_json()
    except mm.CanonicalJSONError as error:  # an integer beyond 2**53 reads, and is refused on the way out
        written = str(error)
    return type(read), read, read.model_fields_set, written


def both_ways(model: type[mm.MplpModel], data: bytes, **options: Any) -> tuple[Any, Any]:
    with fast_paths(True):
        fast = reading(model, data, **options)
    with fast_paths(False):
        strict = reading(model, data, **options)
    return fast, strict


@pytest.mark.parametrize("deep", [False, True, "large"], ids=["few brackets", "many brackets", "large"])
@pytest.mark.parametrize("name", list(OPEN_VALUES))
def test_open_objects_read_as_the_strict_reading_reads_them(name: str, deep: bool | str) -> None:
    fast, strict = both_ways(mm.Event, event(OPEN_VALUES[name], deep=deep))
    assert fast == strict


@pytest.mark.parametrize("name", ["NaN", "overflow", "a duplicate holding nulls, and NaN"])
@pytest.mark.parametrize("deep", [False, True, "large"], ids=["few brackets", "many brackets", "large"])
def test_what_the_open_objects_checks_refused_is_refused_on_either_validator(name: str, deep: bool | str) -> None:
    # The table above compares with the strict reading; here, the refusal itself, on the validator meant.
    text = event(OPEN_VALUES[name], deep=deep)
    reader = _reader.fast_reading(mm.Event)
    assert reader is not None and reader.screen is not None  # the open objects screened after the reading
    with fast_paths(True), pytest.raises(ValidationError):
        mm.Event.from_json(text)


def nesting(kinds: str, siblings: int) -> bytes:
    """An open object holding an array.

    In the array: ``siblings`` empty objects, then one container per letter of ``kinds`` (``o`` an
    object, ``a`` an array).
    """
    text = b"1"
    for kind in reversed(kinds):
        text = b'{"k": ' + text + b"}" if kind == "o" else b"[" + text + b"]"
    return b'{"k": [' + b"{}, " * siblings + text + b"]}"


@pytest.mark.parametrize("siblings", [0, 2 * MAX_OPEN_OBJECT_DEPTH])  # many empty objects: many {, no colon
@pytest.mark.parametrize("levels", range(MAX_OPEN_OBJECT_DEPTH - 6, MAX_OPEN_OBJECT_DEPTH + 2))
@pytest.mark.parametrize("mix", ["o", "a", "oa", "aao"])
def test_nesting_near_the_limit_reads_as_the_strict_reading_reads_it(mix: str, levels: int, siblings: int) -> None:
    # The fast reading takes the shallow validator, which does not look at the depth, for a text whose
    # colons and [ together are fewer than MAX_OPEN_OBJECT_DEPTH (_reader._read_of): objects nest by
    # keys, arrays by [; empty objects add neither, which the bracket count of Reading.validator counts.
    # The trace base has few colons of its own off that way down, so a bound looser by five is caught.
    kinds = (mix * levels)[:levels]
    fast, strict = both_ways(mm.TraceBase, TRACE_BASE % nesting(kinds, siblings))
    assert fast == strict
    assert isinstance(fast, list) is (levels + 2 > MAX_OPEN_OBJECT_DEPTH)  # the attributes and the array in it


@pytest.mark.parametrize("value", [b"NaN", b"[1e400]", b'{"a": -Infinity}', nested(MAX_OPEN_OBJECT_DEPTH)])
def test_a_model_with_no_other_field_refuses_them_too(value: bytes) -> None:
    fast, strict = both_ways(mm.TraceBase, TRACE_BASE % (b'{"x": ' + value + b"}"))
    assert fast == strict
    assert isinstance(fast, list)  # the errors


def learning_with(metadata: bytes) -> bytes:
    document = json.loads(LEARNING)
    document["metadata"] = "@"
    return json.dumps(document).encode().replace(b'"@"', metadata)


@pytest.mark.parametrize(
    "metadata", [b'{"a": NaN}', b'{"a": [1, 2, {"b": 1e999}]}', b'{"a": ' + nested(MAX_OPEN_OBJECT_DEPTH) + b"}"]
)
def test_open_objects_inside_models_inside_are_screened_too(metadata: bytes) -> None:
    fast, strict = both_ways(mm.LearningSample, learning_with(metadata))
    assert fast == strict
    assert isinstance(fast, list)


EVENT_CORE = (PAYLOADS / "event-core.json").read_bytes()
LEARNING_CORE = (PAYLOADS / "learning-sample-core.json").read_bytes()


def with_extra_key(text: bytes, value: bytes, inside: str | None = None) -> bytes:
    """The document with a key that is no field holding ``value`` (JSON text): its own, or ``inside``'s."""
    document = json.loads(text)
    (document[inside] if inside else document)["no_field"] = "@"
    return json.dumps(document).encode().replace(b'"@"', value)


EXTRA_KEYS: dict[str, tuple[type[mm.MplpModel], bytes, str | None]] = {
    "an event's own": (mm.EventCore, EVENT_CORE, None),
    "a graph update's own": (mm.GraphUpdateEvent, (PAYLOADS / "graph-update-event.json").read_bytes(), None),
    "a class with no required field": (mm.SampleMeta, b"{}", None),
    "a model's inside": (mm.LearningSampleCore, LEARNING_CORE, "meta"),
}
EXTRA_VALUES = {
    "text": b'"x"',
    "NaN": b"NaN",
    "Infinity in an array": b"[1, Infinity]",
    "overflow": b'{"n": 1e400}',
    "nested as deep as allowed": nested(MAX_OPEN_OBJECT_DEPTH - 1),
    "nested one level too deep": nested(MAX_OPEN_OBJECT_DEPTH),
}


@pytest.mark.parametrize("value", list(EXTRA_VALUES))
@pytest.mark.parametrize("where", list(EXTRA_KEYS))
def test_extra_keys_read_as_the_strict_reading_reads_them(where: str, value: str) -> None:
    # The extra keys' check is left out of the fast reading too (one open object each): the screen asks it.
    model, text, inside = EXTRA_KEYS[where]
    fast, strict = both_ways(model, with_extra_key(text, EXTRA_VALUES[value], inside))
    assert fast == strict
    assert isinstance(fast, list) is (value not in ("text", "nested as deep as allowed"))


def context_with(value: bytes) -> bytes:
    """The context payload with one open value, its title holding many brackets.

    The brackets are a text, once counted (before the open objects were screened after the reading).
    """
    document = json.loads(CONTEXT)
    document["title"] = "[" * (MAX_OPEN_OBJECT_DEPTH + 1)
    document["constraints"] = {"x": "@"}
    return json.dumps(document).encode().replace(b'"@"', value)


def test_a_context_is_screened_after_the_reading() -> None:
    # Its open objects sit in models inside (its events): from_json reads every text with the shallow
    # validator and screens them after the reading (tests/test_fast_kinds.py), asking no choice of
    # validator by the text; the readings below are held to the strict one all the same.
    reader = _reader.fast_reading(mm.Context)
    assert reader is not None and reader.screen is not None


@pytest.mark.parametrize(
    "value",
    [b"1", b"NaN", b"[1, Infinity]", b'{"n": 1e400}', nested(MAX_OPEN_OBJECT_DEPTH - 1), nested(MAX_OPEN_OBJECT_DEPTH)],
)
def test_a_document_with_many_brackets_reads_as_the_strict_reading_reads_it(value: bytes) -> None:
    fast, strict = both_ways(mm.Context, context_with(value))
    assert fast == strict
    assert isinstance(fast, list) is (value not in (b"1", nested(MAX_OPEN_OBJECT_DEPTH - 1)))


# --- the rules, asked after the proof -----------------------------------------


def inbox(**changes: Any) -> bytes:
    document = json.loads(INBOX)
    document.update(changes)
    return json.dumps(document).encode()


BROKEN_INBOX = {
    "stamp missing": inbox(status="archived", archived_at=None),
    "read before created": inbox(read_at="2000-01-01T00:00:00Z"),
    "broadcast among others": inbox(recipient_ids=["broadcast", "someone"]),
}


@pytest.mark.parametrize("name", list(BROKEN_INBOX))
@pytest.mark.parametrize("semantic", [True, False])
def test_broken_rules_read_as_the_strict_reading_reads_them(name: str, semantic: bool) -> None:
    fast, strict = both_ways(mm.InboxMessage, BROKEN_INBOX[name], semantic=semantic)
    assert fast == strict
    assert isinstance(fast, list) is semantic  # refused with the rules, read without them


def test_the_model_validate_json_door_asks_the_rules_too() -> None:
    with fast_paths(True), pytest.raises(ValidationError) as caught:
        mm.InboxMessage.model_validate_json(BROKEN_INBOX["stamp missing"])
    assert [entry["code"] for entry in mm.errors_as_json(caught.value)] == ["status_stamp_missing"]
    with fast_paths(True):
        read = mm.InboxMessage.model_validate_json(BROKEN_INBOX["stamp missing"], context=mm.SCHEMA_ONLY)
    assert read.archived_at is None


# --- the UniqueItems checks of the outermost model's own arrays, asked after ---

CODE_INBOX = (PAYLOADS / "code-inbox.json").read_bytes()
INBOXES: dict[str, tuple[type[mm.MplpModel], bytes, Path]] = {
    "inbox": (mm.InboxMessage, INBOX, SCHEMAS / "cortex" / "v1" / "inbox.schema.json"),
    "code-mode inbox": (
        mm.CodeInboxMessage,
        CODE_INBOX,
        SCHEMAS / "cortex" / "v1" / "code-mode" / "inbox-message.schema.json",
    ),
}


def unique_arrays(schema: Path) -> list[str]:
    """The schema's own properties that say ``uniqueItems`` (the reference: the frozen schema, not the code)."""
    properties: dict[str, Any] = json.loads(schema.read_text())["properties"]
    return [name for name, spec in properties.items() if spec.get("uniqueItems")]


UNIQUE_CASES = [
    (inbox_name, field) for inbox_name, (_, _, schema) in INBOXES.items() for field in unique_arrays(schema)
]


def test_the_unique_arrays_are_the_schemas() -> None:
    # So that the cases below are the ones the schemas name: four in the inbox, two in the code mode.
    assert [field for name, field in UNIQUE_CASES if name == "inbox"] == [
        "recipient_ids",
        "related_decision_ids",
        "related_waitpoint_ids",
        "related_handoff_ids",
    ]
    assert [field for name, field in UNIQUE_CASES if name == "code-mode inbox"] == ["recipient_ids", "artifact_refs"]


@pytest.mark.parametrize(("inbox_name", "field"), UNIQUE_CASES)
@pytest.mark.parametrize("repeat", ["first twice", "last twice"])
def test_a_repeated_item_of_an_own_array_is_refused_as_the_strict_reading_refuses_it(
    inbox_name: str, field: str, repeat: str
) -> None:
    model, text, _ = INBOXES[inbox_name]
    document = json.loads(text)
    items = ["x-1", "x-2", "x-1"] if repeat == "first twice" else ["x-1", "x-2", "x-2"]
    if field.startswith("related_decision"):
        items = [f"D-{item}" for item in items]
    elif field.startswith("related_waitpoint"):
        items = [f"WP-{item}" for item in items]
    document[field] = items
    fast, strict = both_ways(model, json.dumps(document).encode())
    assert fast == strict
    assert isinstance(fast, list)
    assert [(entry["code"], entry["pointer"]) for entry in fast] == [("unique_items", f"/{field}")]
    document[field] = sorted(set(items))  # the same items, none twice: read
    fast, strict = both_ways(model, json.dumps(document).encode())
    assert fast == strict
    assert not isinstance(fast, list)


@pytest.mark.parametrize("inbox_name", list(INBOXES))
def test_an_inbox_is_read_with_no_unique_items_callback(inbox_name: str) -> None:
    model, text, _ = INBOXES[inbox_name]
    with fast_paths(True):
        assert "load_json" not in python_calls(lambda: model.from_json(text))  # kept by the fast reading
    reading = _reader.fast_reading(model)
    assert reading is not None
    validator = reading.validator
    called_back = python_calls(lambda: validator.validate_json(text))
    assert "_check_unique" in python_calls(lambda: model.__pydantic_validator__.validate_json(text))
    # The code mode's relations (a model inside) keep their checks in the validator.
    assert ("_check_unique" in called_back) is (inbox_name == "code-mode inbox")


# --- what the fast reading saves: the Python calls ----------------------------


def python_calls(action: Any) -> set[str]:
    """The names of the Python functions that run during ``action()``."""
    seen: set[str] = set()

    def record(frame: FrameType, event_name: str, arg: object) -> None:
        if event_name == "call":
            seen.add(frame.f_code.co_name)

    sys.setprofile(record)
    try:
        action()
    finally:
        sys.setprofile(None)
    return seen


@pytest.mark.parametrize(
    ("model", "text"),
    [
        (mm.Event, EVENT),
        (mm.LearningSample, LEARNING),
        (mm.InboxMessage, INBOX),
        (mm.EventCore, with_extra_key(EVENT_CORE, b'{"a": [1, 2.5]}')),
        (mm.LearningSampleCore, with_extra_key(LEARNING_CORE, b'"x"', "meta")),
    ],
    ids=str,
)
def test_a_valid_payload_takes_no_open_object_or_rules_callback(model: type[mm.MplpModel], text: bytes) -> None:
    model.from_json(text)  # the reading built first
    with fast_paths(True):
        fast = python_calls(lambda: model.from_json(text))
    with fast_paths(False):
        strict = python_calls(lambda: model.from_json(text))
    callbacks = {"_check_open_object", "_refuse_non_finite", "_extra_is_json", "_apply_rules"}
    assert not fast & callbacks
    assert strict & callbacks  # so the names are the right ones: the strict reading calls them


def test_the_classes_say_they_are_complete_again_after_a_reading_is_built() -> None:
    # The reading is built with pydantic-core's prebuilt validators turned off by the flag.
    named = [getattr(mm, name) for name in mm.__all__]
    generated = [kind for kind in named if isinstance(kind, type) and issubclass(kind, mm.MplpModel)]
    assert len(generated) > 20
    for kind in generated:
        _reader.fast_reading(kind)
    assert all(kind.__pydantic_complete__ for kind in generated)


def walk_models(value: Any) -> Iterator[mm.MplpModel]:
    if isinstance(value, mm.MplpModel):
        yield value
        for item in value.__dict__.values():
            yield from walk_models(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from walk_models(item)


@pytest.mark.parametrize("name", ["plan.json", "dialog.json", "trace.json", "learning-sample.json", "context.json"])
def test_every_model_inside_is_of_its_class_and_as_the_strict_reading_gives(name: str) -> None:
    text = (PAYLOADS / name).read_bytes()
    kind = type(mm.parse(text))
    fast, strict = both_ways(kind, text)
    assert fast == strict
    assert not isinstance(fast, list)
    inside = list(walk_models(fast[1]))
    assert len(inside) > 1 and all(is_generated(type(model)) for model in inside)


def every_field(value: Any) -> Any:
    """``value`` as JSON values, each model with all its fields, given or not, and its extra keys."""
    if isinstance(value, mm.MplpModel):
        fields = {name: getattr(value, name) for name in type(value).model_fields}
        return {name: every_field(item) for name, item in {**fields, **(value.model_extra or {})}.items()}
    if isinstance(value, (list, tuple)):
        return [every_field(item) for item in value]
    if isinstance(value, dict):
        return {key: every_field(item) for key, item in value.items()}
    return value.value if isinstance(value, enum.Enum) else value


@pytest.mark.parametrize("name", sorted(path.name for path in PAYLOADS.glob("*.json")))
def test_the_proofs_writing_holds_every_field_and_counts_the_unset_ones(name: str) -> None:
    # What the reading's proof (counts_agree) counts in: every field of every model, unset ones as null, and how many
    # were not given, here counted by a walk of the models and pydantic's own dump.
    model = mm.parse((PAYLOADS / name).read_bytes())
    written, unset = every_field_writer(type(model))(model)
    assert json.loads(written) == every_field(model)
    # Extra keys (an open class's) are in model_fields_set, and written: given, with the fields.
    assert unset == sum(
        len(type(inside).model_fields) + len(inside.model_extra or {}) - len(inside.model_fields_set)
        for inside in walk_models(model)
    )


def plan_of(steps: int) -> bytes:
    """The example plan with ``steps`` pending steps, every other one without its agent role or order."""
    document = json.loads((PAYLOADS / "plan.json").read_bytes())
    step = {key: value for key, value in document["steps"][0].items() if key != "dependencies"}
    listed = [
        dict(step, step_id=f"{n:08x}-0000-4000-8000-{n:012x}", status="pending")
        if n % 2
        else {key: value for key, value in step.items() if key not in ("agent_role", "order_index")}
        | {"step_id": f"{n:08x}-0000-4000-8000-{n:012x}", "status": "pending"}
        for n in range(steps)
    ]
    return json.dumps(dict(document, status="draft", steps=listed)).encode()


@pytest.mark.parametrize("steps", [1, 7, 8, 9, 40])
def test_the_proofs_writing_counts_the_unset_fields_of_short_and_long_arrays_of_models(steps: int) -> None:
    # Short arrays are left to orjson's calls, long ones copied at once: both count alike.
    model = mm.Plan.from_json(plan_of(steps))
    written, unset = every_field_writer(type(model))(model)
    assert json.loads(written) == every_field(model)
    assert unset == sum(
        len(type(inside).model_fields) + len(inside.model_extra or {}) - len(inside.model_fields_set)
        for inside in walk_models(model)
    )
    duplicated = plan_of(steps).replace(b'"status": "draft"', b'"status": "draft", "status": "draft"')
    fast, strict = both_ways(mm.Plan, duplicated)
    assert fast == strict and isinstance(fast, list)


# --- parse: the kind chosen from orjson's value, then the fast reading ---------


def parsed(data: bytes | str, **options: Any) -> Any:
    try:
        read = mm.parse(data, **options)
    except ValidationError as error:
        return mm.errors_as_json(error)
    return type(read), read, read.model_fields_set


def parsed_both_ways(data: bytes | str, **options: Any) -> tuple[Any, Any]:
    with fast_paths(True):
        fast = parsed(data, **options)
    with fast_paths(False):
        strict = parsed(data, **options)
    return fast, strict


FIXTURES = sorted(path.name for path in PAYLOADS.glob("*.json"))


@pytest.mark.parametrize("name", FIXTURES)
@pytest.mark.parametrize("semantic", [True, False])
def test_parse_reads_every_fixture_as_the_strict_reading_does(name: str, semantic: bool) -> None:
    text = (PAYLOADS / name).read_bytes()
    fast, strict = parsed_both_ways(text, semantic=semantic)
    assert fast == strict
    assert not isinstance(fast, list)
    assert parsed_both_ways(text.decode(), semantic=semantic) == (fast, fast)  # a str reads as its bytes


PARSE_TEXTS = {
    "duplicate id": EVENT.replace(SOURCE, SOURCE + b', "source": "x"'),
    "duplicate discriminator": (PAYLOADS / "graph-update-event.json")
    .read_bytes()
    .replace(b'"event_family": "graph_update"', b'"event_family": "graph_update", "event_family": "x"'),
    "NaN in an open object": event(b'"steps": NaN'),
    "a family's field missing": (PAYLOADS / "graph-update-event.json").read_bytes().replace(b'"graph_id"', b'"x_id"'),
    "no kind": b'{"a": 1}',
    "not an object": b"[1, 2]",
    "not JSON": b'{"event_id": ',
    "lone surrogate": EVENT.replace(SOURCE, b'"source": "\\ud800"'),
    "a broken rule": BROKEN_INBOX["stamp missing"],
}


@pytest.mark.parametrize("name", list(PARSE_TEXTS))
@pytest.mark.parametrize("allow_duplicate_keys", [False, True])
def test_parse_refuses_and_reads_as_the_strict_reading_does(name: str, allow_duplicate_keys: bool) -> None:
    fast, strict = parsed_both_ways(PARSE_TEXTS[name], allow_duplicate_keys=allow_duplicate_keys)
    assert fast == strict


def test_parse_takes_the_fast_reading() -> None:
    mm.parse(EVENT)
    with fast_paths(True):
        fast = python_calls(lambda: mm.parse(EVENT))
    with fast_paths(False):
        strict = python_calls(lambda: mm.parse(EVENT))
    assert "load_json" not in fast and "read_fast" in fast
    assert "load_json" in strict


@pytest.mark.parametrize("name", ["inbox.json", "plan.json", "dialog.json", "trace.json"])
def test_a_sound_payload_of_a_model_with_rules_is_kept_by_the_fast_reading(name: str) -> None:
    # The rules are asked after the proof (_rules._sound): a payload that breaks none must not be
    # read a second time by the strict reading.
    text = (PAYLOADS / name).read_bytes()
    kind = type(mm.parse(text))
    kind.from_json(text)
    with fast_paths(True):
        calls = python_calls(lambda: kind.from_json(text))
    assert "counts_agree" in calls and "load_json" not in calls  # the fast reading's proof, and no strict reading


def test_the_schema_rewrite_knows_the_installed_pydantic_cores_steps() -> None:
    # The reading's edit (_reader._JsonOnly) reads these keys of these steps, typed by pydantic-core's own
    # TypedDicts; the lowest and the newest pydantic-core the project takes run this (make test-matrix).
    import pydantic_core
    from pydantic_core import core_schema

    keys = {
        core_schema.JsonOrPythonSchema: {"json_schema", "python_schema", "ref"},
        core_schema.BeforeValidatorFunctionSchema: {"function", "schema", "ref"},
        core_schema.AfterValidatorFunctionSchema: {"function", "schema", "ref"},
        core_schema.ModelSchema: {"cls", "schema", "config", "ref"},
        core_schema.ChainSchema: {"steps", "ref"},
        core_schema.ListSchema: {"fail_fast"},
    }
    for typed, needed in keys.items():
        assert needed <= typed.__annotations__.keys(), (typed.__name__, pydantic_core.__version__)
    # That the edit finds what it takes out: test_a_valid_payload_takes_no_open_object_or_rules_callback.
