"""Refuse, never convert, on the way out (issue #25, item 3).

A model's open objects (``JsonObject`` fields, arrays of them, an open
model's extra keys) are dicts, so they can be changed in place after
validation. Whatever they are changed into that the reading refuses (a value
that is not JSON, a key that is not a string, NaN, an integer beyond a
double) is refused by every way out, with the JSON Pointer of the value, and
never written as something else. Whatever valid JSON they are changed into is
written as the reference (the ``rfc8785`` package) writes it.
"""

from __future__ import annotations

import copy
import importlib
import json
import pkgutil
from collections.abc import Callable, Iterator
from datetime import date, datetime, timezone
from decimal import Decimal
from fractions import Fraction
from pathlib import PurePosixPath
from typing import Any
from uuid import UUID

import pytest
import rfc8785
from conftest import fixture
from fast_path_switch import either_path, fast_paths  # noqa: F401  # either_path: a fixture
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError
from pydantic_core import PydanticSerializationError
from strict_json import refuse_non_json

import mplp_models as mm
import mplp_models._generated as generated
from mplp_models._writer import open_fields

pytestmark = pytest.mark.usefixtures("either_path")  # every test with the fast paths on and off


def numbers() -> Iterator[int]:
    yield 1
    yield 2


# What each kind is, made afresh for each test, and where its pointer ends below the place it is put:
# at the value itself, or at the key that is not a string.
NOT_JSON: dict[str, tuple[Callable[[], Any], str]] = {
    "bytes": (lambda: b"xyz", ""),
    "bytearray": (lambda: bytearray(b"xyz"), ""),
    "set": (lambda: {1}, ""),
    "frozenset": (lambda: frozenset({1}), ""),
    "Decimal": (lambda: Decimal("1.10"), ""),
    "Fraction": (lambda: Fraction(1, 3), ""),
    "datetime": (lambda: datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc), ""),
    "date": (lambda: date(2026, 1, 2), ""),
    "UUID": (lambda: UUID("3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11"), ""),
    "Path": (lambda: PurePosixPath("/etc/passwd"), ""),
    "generator": (numbers, ""),
    "tuple": (lambda: (1, 2), ""),  # the reading takes arrays into open objects as lists only
    "object": (object, ""),
    "int key beside its text": (lambda: {1: "int", "1": "str"}, "/1"),
    "None key": (lambda: {None: 1}, "/None"),
    "NaN": (lambda: float("nan"), ""),
    "Infinity": (lambda: float("inf"), ""),
    "-Infinity": (lambda: float("-inf"), ""),
    "integer beyond a double": (lambda: 10**400, ""),
    "lone surrogate": (lambda: "\ud800", ""),
}

# Where an open object sits in a model: the fixture's class, the steps from the model down to the
# dict (a str: an attribute; an int: an item; "model_extra": an open model's extra keys), and the
# pointer of that dict in the model's JSON.
HOSTS: dict[str, tuple[type[mm.MplpModel], tuple[str | int, ...], str]] = {
    "a field of a model inside": (mm.Plan, ("trace", "attributes"), "/trace/attributes"),
    "a field of a model in an array": (mm.Trace, ("segments", 1, "attributes"), "/segments/1/attributes"),
    "a field of the model": (mm.Event, ("data",), "/data"),
    "an item of an array field": (mm.LearningSample, ("delta_intents", 0), "/delta_intents/0"),
    "a field of a context": (mm.Context, ("constraints",), "/constraints"),
    "the extra keys of an open model": (mm.Context, ("root", "model_extra"), "/root"),
}

# How deep in the open object the value is put, and the pointer of the place below the object.
PLACES: dict[str, tuple[Callable[[Any], Any], str]] = {
    "a member": (lambda value: value, "/x"),
    "in an array in an object": (lambda value: {"y": [0, value]}, "/x/y/1"),
    "five levels down": (lambda value: [[{"z": [[value]]}]], "/x/0/0/z/0/0"),
}


def open_object(model: mm.MplpModel, steps: tuple[str | int, ...]) -> dict[str, Any]:
    """The dict a model holds at ``steps``: its own, to change in place."""
    held: Any = model
    for step in steps:
        held = held[step] if isinstance(step, int) else getattr(held, step)
    assert isinstance(held, dict)
    return held


def changed(host: str, kind: str, place: str) -> tuple[mm.MplpModel, str]:
    """A model of ``host`` validated from its fixture, then changed in place; and the pointer of what was put."""
    model_class, steps, where = HOSTS[host]
    make, below = NOT_JSON[kind]
    nest, at = PLACES[place]
    model = model_class.model_validate(fixture(model_class))
    open_object(model, steps)["x"] = nest(make())
    return model, where + at + below


def ways_out(model: mm.MplpModel) -> dict[str, Callable[[], object]]:
    adapter: TypeAdapter[Any] = TypeAdapter(type(model))
    return {
        "to_json": model.to_json,
        "canonical_json": lambda: mm.canonical_json(model),
        "to_dict": model.to_dict,
        "model_dump": model.model_dump,
        "model_dump json": lambda: model.model_dump(mode="json"),
        "model_dump exclude_unset": lambda: model.model_dump(exclude_unset=True),
        "model_dump_json": model.model_dump_json,
        "TypeAdapter.dump_python": lambda: adapter.dump_python(model, mode="json"),
        "TypeAdapter.dump_json": lambda: adapter.dump_json(model),
    }


CANONICAL = ("to_json", "canonical_json", "to_dict")  # the SDK's own ways out: its own error


def cases() -> Iterator[Any]:
    for kind in NOT_JSON:
        for host in HOSTS:
            for place in PLACES:
                yield pytest.param(kind, host, place)


@pytest.mark.parametrize(("kind", "host", "place"), list(cases()))
def test_every_way_out_refuses_what_is_not_json_naming_its_pointer(kind: str, host: str, place: str) -> None:
    for way in ways_out(changed(host, kind, place)[0]):
        model, pointer = changed(host, kind, place)  # afresh: a generator is never consumed by a refusal
        write = ways_out(model)[way]
        if way in CANONICAL:
            with pytest.raises(mm.CanonicalJSONError) as refused:
                write()
            assert type(refused.value) is mm.CanonicalJSONError, way
            assert refused.value.pointer == pointer, way
        else:
            with pytest.raises(PydanticSerializationError) as caught:
                write()
            assert str(caught.value).endswith(f" at {pointer}"), (way, str(caught.value))
            if way.startswith("model_dump") and way != "model_dump_json":
                # model_dump keeps the writer's refusal as the cause (model_dump_json's has none).
                cause = caught.value.__cause__
                assert type(cause) is mm.CanonicalJSONError and cause.pointer == pointer, way


def test_a_refusal_does_not_consume_a_generator() -> None:
    plan = mm.Plan.model_validate(fixture(mm.Plan))
    values = numbers()
    open_object(plan, ("trace", "attributes"))["x"] = values
    for write in ways_out(plan).values():
        with pytest.raises((mm.CanonicalJSONError, PydanticSerializationError)):
            write()
    assert list(values) == [1, 2]
    with pytest.raises(mm.CanonicalJSONError, match="generator is not a JSON value at /x"):
        mm.canonical_json({"x": values})
    assert list(numbers()) == [1, 2]


def test_a_member_is_never_lost_to_a_key_that_is_not_a_string() -> None:
    # pydantic's JSON mode wrote {1: "int", "1": "str"} as {"1":"str"}: one member lost, silently.
    plan = mm.Plan.model_validate(fixture(mm.Plan))
    open_object(plan, ("trace", "attributes"))["x"] = {1: "int", "1": "str"}
    for write in ways_out(plan).values():
        with pytest.raises((mm.CanonicalJSONError, PydanticSerializationError), match="object key 1 is not a string"):
            write()


# --- no false refusals: changed in place into valid JSON, written as the reference writes it --------

VALID: dict[str, tuple[Callable[[], Any], Any]] = {
    "nested object and array": (lambda: {"a": [1, {"b": None}], "c": True}, {"a": [1, {"b": None}], "c": True}),
    "floats as ECMAScript writes them": (lambda: [100.0, 1e21, 1e-7, -0.0, 0.1], [100.0, 1e21, 1e-7, -0.0, 0.1]),
    "safe integers": (lambda: [2**53 - 1, -(2**53 - 1), 0], [2**53 - 1, -(2**53 - 1), 0]),
    "text beyond the BMP, as key and value": (
        lambda: {"\U0001f600": "\U0001f600", "\ue000": "é\n\u2028"},
        {"\U0001f600": "\U0001f600", "\ue000": "é\n\u2028"},
    ),
    "a str-valued enum is its text": (lambda: mm.PlanStatus.draft, "draft"),
    "a Timestamp is its text": (lambda: mm.Timestamp("2026-01-02T03:04:05.000Z"), "2026-01-02T03:04:05.000Z"),
    "an empty object and array": (lambda: {"o": {}, "a": []}, {"o": {}, "a": []}),
}


def set_in_json(document: Any, steps: tuple[str | int, ...], value: Any) -> None:
    """The same change, on the fixture's JSON (an open model's extra keys are members of its object)."""
    held = document
    for step in steps:
        if step != "model_extra":
            held = held[step]
    held["x"] = value


@pytest.mark.parametrize("host", list(HOSTS))
@pytest.mark.parametrize("change", list(VALID))
def test_a_change_into_valid_json_is_written_as_the_reference_writes_it(change: str, host: str) -> None:
    model_class, steps, _ = HOSTS[host]
    make, as_json = VALID[change]
    expected = copy.deepcopy(fixture(model_class))
    set_in_json(expected, steps, as_json)
    model = model_class.model_validate(fixture(model_class))
    open_object(model, steps)["x"] = make()
    reference = rfc8785.dumps(expected)
    assert model.to_json() == reference
    assert mm.canonical_json(model) == reference
    assert mm.canonical_json(model.to_dict()) == reference
    assert json.loads(model.model_dump_json()) == expected
    assert model.model_dump(mode="json") == expected
    # What was written reads back as a model that writes the same bytes.
    assert model_class.from_json(reference).to_json() == reference


@pytest.mark.parametrize("host", list(HOSTS))
def test_no_way_out_writes_other_bytes_the_second_time(host: str) -> None:
    model_class, steps, _ = HOSTS[host]
    model = model_class.model_validate(fixture(model_class))
    open_object(model, steps)["x"] = {"list": [1, 2.5, "three"], "object": {"a": None}}
    for way, write in ways_out(model).items():
        assert write() == write(), way
    refused = model_class.model_validate(fixture(model_class))
    open_object(refused, steps)["x"] = numbers()
    for way, write in ways_out(refused).items():
        with pytest.raises((mm.CanonicalJSONError, PydanticSerializationError)) as first:
            write()
        with pytest.raises((mm.CanonicalJSONError, PydanticSerializationError)) as second:
            write()
        assert str(first.value) == str(second.value), way


def test_an_integer_beyond_the_safe_range_is_written_exactly_by_model_dump_json_only() -> None:
    # The reading keeps 2**53 + 1 exactly, so model_dump_json may write its digits; RFC 8785 has no
    # form that reads back the same, so to_json refuses it rather than change it.
    plan = mm.Plan.model_validate(fixture(mm.Plan))
    open_object(plan, ("trace", "attributes"))["x"] = 2**53 + 1
    assert '"x":9007199254740993' in plan.model_dump_json()
    assert mm.Plan.model_validate_json(plan.model_dump_json()) == plan
    with pytest.raises(mm.CanonicalJSONError, match="refused rather than changed") as refused:
        plan.to_json()
    assert refused.value.pointer == "/trace/attributes/x"


# --- canonical_json of plain values: every kind, at several depths -----------------------------------


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("kind", [kind for kind in NOT_JSON if kind != "tuple"])  # a tuple is an array there
def test_canonical_json_refuses_every_kind_naming_its_pointer(kind: str, place: str) -> None:
    make, below = NOT_JSON[kind]
    nest, at = PLACES[place]
    with pytest.raises(mm.CanonicalJSONError) as refused:
        mm.canonical_json({"x": nest(make())})
    assert type(refused.value) is mm.CanonicalJSONError
    assert refused.value.pointer == at + below


# --- the fast screen of refuse_non_json gives the walk's verdict --------------------------------------

json_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(),
    st.text(max_size=4),
)
odd_leaves = st.sampled_from(
    [b"x", Decimal(1), Fraction(1, 2), 10**400, -(10**400), "\udfff", UUID(int=1), date(2026, 1, 1), frozenset()]
)
values = st.recursive(
    st.one_of(json_leaves, odd_leaves),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.dictionaries(st.one_of(st.text(max_size=3), st.integers(0, 2), st.just("\ud800")), children, max_size=4),
    ),
    max_leaves=20,
)


def verdict(value: Any, max_depth: int) -> str | None:
    try:
        refuse_non_json(value, (), max_depth)
    except mm.CanonicalJSONError as error:
        return str(error)
    return None


@settings(max_examples=300, deadline=None)
@given(values, st.integers(1, 4))
def test_the_fast_screen_agrees_with_the_walk(value: Any, max_depth: int) -> None:
    with fast_paths(True):
        fast = verdict(value, max_depth)
    with fast_paths(False):
        strict = verdict(value, max_depth)
    assert fast == strict


def test_the_walk_refuses_what_the_screen_would_let_through() -> None:
    # Each of these is written by orjson (or read back equal) in some form; the walk still refuses it.
    for value, message in [
        ({"d": datetime(2026, 1, 1)}, "datetime is not a JSON value at /d"),
        ({"u": UUID(int=1)}, "UUID is not a JSON value at /u"),
        ({"n": float("nan")}, "NaN is not a JSON number at /n"),
        ([[[]]], "nests deeper than 2 levels at /0/0"),
    ]:
        with pytest.raises(mm.CanonicalJSONError) as refused:
            refuse_non_json(value, (), 2)
        assert str(refused.value) == message


def test_every_class_with_an_open_object_writes_through_the_check() -> None:
    # The check runs in given_members, the serializer MplpModel gives every class with an optional
    # field: a class with an open object and no optional field would be written unchecked.
    checked = {kind for kind in _model_classes() if open_fields(kind) or kind.model_config.get("extra") == "allow"}
    assert {mm.TraceSegment, mm.Event, mm.LearningSample, mm.Context, mm.ContextRoot} <= checked
    for kind in checked:
        assert any(not field.is_required() for field in kind.model_fields.values()), kind.__name__


def _model_classes() -> set[type[mm.MplpModel]]:
    """Every generated model class (each generated module imported), and every subclass of theirs."""
    for module in pkgutil.walk_packages(generated.__path__, generated.__name__ + "."):
        importlib.import_module(module.name)
    found: set[type[mm.MplpModel]] = set()
    stack: list[type[mm.MplpModel]] = [mm.MplpModel]
    while stack:
        for sub in stack.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                stack.append(sub)
    return found


# --- numbers given from Python: kept exactly or refused, never rounded -------------------------------

NOT_A_JSON_NUMBER: list[Any] = [Decimal("1.10"), Decimal("0.1"), Fraction(1, 3), 10**400, -(10**400)]
NOT_A_JSON_INTEGER: list[Any] = [Decimal("2"), Fraction(2, 1), 10**400]


def short(number: Any) -> str:
    text = repr(number)
    return text if len(text) < 20 else f"{text[:6]}...({len(text)} characters)"


@pytest.mark.parametrize("number", [number for number in NOT_A_JSON_NUMBER if number > 0], ids=short)
def test_a_number_field_refuses_what_is_not_a_json_number(number: Any) -> None:
    # Decimal("1.10") was rounded to the float 1.1, silently; 10**400 was kept, and written as
    # digits that no JSON reader takes. Refused, as the reading refuses such text. (A Decimal is
    # not kept exactly: the reading never gives one, so a model holding one would compare unequal
    # to the same payload read from JSON, and it has no JSON number of its own to be written as.)
    assert mm.TokenUsage(total_tokens=1.1).total_tokens == 1.1  # the field itself takes numbers
    with pytest.raises(ValidationError):
        mm.TokenUsage(total_tokens=number)


@pytest.mark.parametrize("number", NOT_A_JSON_INTEGER, ids=short)
def test_an_integer_field_refuses_what_is_not_a_json_integer(number: Any) -> None:
    step = fixture(mm.Plan)["steps"][0]
    assert mm.PlanStep.model_validate({**step, "order_index": 2}).order_index == 2
    with pytest.raises(ValidationError):
        mm.PlanStep.model_validate({**step, "order_index": number})


@pytest.mark.parametrize(
    "number",
    NOT_A_JSON_NUMBER,
    ids=short,
)
def test_an_open_object_refuses_what_is_not_a_json_number(number: Any) -> None:
    document = fixture(mm.Plan)
    document["trace"]["attributes"]["x"] = number
    with pytest.raises(ValidationError):
        mm.Plan.model_validate(document)
