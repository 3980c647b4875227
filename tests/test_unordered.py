"""Python input that JSON has no exact form for: unordered collections, tuples in open objects, another enum's member.

An array keeps its order, so a ``set``, a ``frozenset`` or a dict view (whose
iteration order is the hash order, which ``PYTHONHASHSEED`` changes) is refused
for every array field and inside every open object. A tuple inside an open
object is the JSON array it writes as, and is held as the list that reading
the written bytes gives. An enum field takes its own member or its value, never
another enum's member that shares the value.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
import types
import typing
from collections.abc import Iterator, Set
from typing import Any

import pytest
from fast_path_switch import either_path  # noqa: F401  # a fixture
from pydantic import ValidationError

import mplp_models as mm
from mplp_models import _generated
from mplp_models._public import defined_in
from mplp_models._types import StatusEnum

ID = "a1000000-0000-4000-8000-000000000001"
OTHER_ID = "a1000000-0000-4000-8000-000000000002"

# Written out from the issue (#20, item 2), not read from the code.
UNORDERED_MESSAGE = (
    "Input should be a list or a tuple, not a {kind}: an array keeps its order"
    " (pass sorted(...) if the order does not matter)"
)


def generated_models() -> list[type[mm.MplpModel]]:
    """Every model class that the codegen writes, found by walking the generated package."""
    found: dict[str, type[mm.MplpModel]] = {}
    for info in pkgutil.walk_packages(_generated.__path__, _generated.__name__ + "."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, mm.MplpModel) and defined_in(value) == module.__name__:
                found[f"{module.__name__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


MODELS = generated_models()


def without_none(annotation: Any) -> list[Any]:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return [argument for argument in typing.get_args(annotation) if argument is not type(None)]
    return [annotation]


def array_fields() -> Iterator[tuple[type[mm.MplpModel], str]]:
    for model in MODELS:
        for name, field in model.model_fields.items():
            if any(typing.get_origin(kind) is tuple for kind in without_none(field.annotation)):
                yield model, name


ARRAY_FIELDS = list(array_fields())


def test_the_models_have_array_fields_to_check() -> None:
    # A floor, so that a change in how arrays are annotated cannot empty the table below unnoticed.
    assert len(MODELS) >= 30
    assert (mm.PlanStep, "dependencies") in ARRAY_FIELDS
    assert (mm.Metadata, "tags") in ARRAY_FIELDS
    assert (mm.LearningSample, "delta_intents") in ARRAY_FIELDS  # an array of open objects
    assert len(ARRAY_FIELDS) >= 30


class Ordered(Set[str]):
    """A ``collections.abc.Set`` of the user's own: unordered as far as the models can know."""

    def __init__(self, items: list[str]) -> None:
        self._items = items

    def __contains__(self, item: object) -> bool:
        return item in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


UNORDERED: dict[str, Any] = {
    "set": set(),
    "frozenset": frozenset(),
    "dict_keys": {}.keys(),
    "dict_values": {}.values(),
    "dict_items": {}.items(),
    "Ordered": Ordered([]),
}


@pytest.mark.parametrize(("model", "name"), ARRAY_FIELDS, ids=[f"{m.__name__}.{n}" for m, n in ARRAY_FIELDS])
@pytest.mark.parametrize("kind", list(UNORDERED))
def test_every_array_field_refuses_every_unordered_kind(model: type[mm.MplpModel], name: str, kind: str) -> None:
    with pytest.raises(ValidationError) as caught:
        model.model_validate({name: UNORDERED[kind]})
    mine = [error for error in caught.value.errors() if error["loc"] == (name,)]
    assert len(mine) == 1, caught.value.errors()
    assert mine[0]["type"] == "unordered_array"
    assert mine[0]["msg"] == UNORDERED_MESSAGE.format(kind=kind)


@pytest.mark.parametrize(("model", "name"), ARRAY_FIELDS, ids=[f"{m.__name__}.{n}" for m, n in ARRAY_FIELDS])
def test_every_array_field_takes_a_list_and_a_tuple(model: type[mm.MplpModel], name: str) -> None:
    # Empty ones: an error may say the array is too short, never that it should be a list or a tuple.
    given: list[str] | tuple[str, ...]
    for given in ([], ()):
        assert all(error["type"] != "unordered_array" for error in _errors_at(model, {name: given}, name))


def test_non_empty_sets_are_refused_by_keyword_too() -> None:
    with pytest.raises(ValidationError, match=r"not a set: an array keeps its order \(pass sorted"):
        mm.PlanStep(step_id=ID, description="d", status="pending", dependencies={OTHER_ID})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    with pytest.raises(ValidationError, match="not a frozenset"):
        mm.Metadata(protocol_version="1.0.0", schema_version="1.0.0", tags=frozenset({"a", "b"}))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


def test_generators_stay_accepted_in_their_order() -> None:
    step = mm.PlanStep(
        step_id=ID,
        description="d",
        status="pending",
        dependencies=(item for item in [OTHER_ID, "a1000000-0000-4000-8000-000000000003"]),  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    )
    assert step.dependencies == (OTHER_ID, "a1000000-0000-4000-8000-000000000003")


def test_json_input_is_read_as_before() -> None:
    step = mm.PlanStep.from_json(
        f'{{"step_id":"{ID}","description":"d","status":"pending","dependencies":["{OTHER_ID}"]}}'
    )
    assert step.dependencies == (OTHER_ID,)


PROGRAM = """
import hashlib
import mplp_models as mm
tags = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}
outcome = []
for given in (tags, frozenset(tags), dict.fromkeys(tags).keys()):
    try:
        mm.Metadata(protocol_version="1.0.0", schema_version="1.0.0", tags=given)
        outcome.append("accepted")
    except Exception as error:
        outcome.append(type(error).__name__)
meta = mm.Metadata(protocol_version="1.0.0", schema_version="1.0.0", tags=sorted(tags))
outcome.append(hashlib.sha256(meta.to_json()).hexdigest())
print(outcome)
"""


def test_the_written_bytes_do_not_depend_on_the_hash_seed() -> None:
    # The measurement: the same program under PYTHONHASHSEED=1..4 wrote 4 different sha256.
    outputs: set[str] = set()
    for seed in ("1", "2", "3", "4"):
        environment = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [sys.executable, "-c", PROGRAM], capture_output=True, text=True, check=True, env=environment
        )
        outputs.add(result.stdout)
    assert len(outputs) == 1
    (output,) = outputs
    assert output.startswith("['ValidationError', 'ValidationError', 'ValidationError', '")


# --- open objects -------------------------------------------------------------------------------------


def trace_base(attributes: Any) -> mm.TraceBase:
    return mm.TraceBase(trace_id=ID, span_id=OTHER_ID, attributes=attributes)


@pytest.mark.usefixtures("either_path")
def test_open_objects_take_tuples_as_the_arrays_they_write_as() -> None:
    meta = mm.Metadata(protocol_version="1.0.0", schema_version="1.0.0", tags=["a", "b"])
    assert meta.tags is not None
    given = trace_base({"tags": meta.tags, "n": [1, (2, {"x": ()})]})
    # Held as the JSON value: lists, as a reading of the written bytes holds them.
    assert given.attributes == {"tags": ["a", "b"], "n": [1, [2, {"x": []}]]}
    assert given.to_json() == (
        b'{"attributes":{"n":[1,[2,{"x":[]}]],"tags":["a","b"]},'
        b'"span_id":"a1000000-0000-4000-8000-000000000002","trace_id":"a1000000-0000-4000-8000-000000000001"}'
    )
    read = mm.TraceBase.from_json(given.to_json())
    assert read == given
    assert read.model_dump() == given.model_dump()
    assert json.loads(read.model_dump_json()) == json.loads(given.model_dump_json())


@pytest.mark.usefixtures("either_path")
def test_open_objects_leave_plain_json_as_given() -> None:
    attributes = {"a": [1, {"b": None}], "c": "text"}
    assert trace_base(attributes).attributes == attributes


BAD_INSIDE: list[tuple[Any, str, tuple[str | int, ...], str]] = [
    # (attributes, error type, location inside the object, message) written out by hand
    (
        {"a": {"b": {1, 2}}},
        "unordered_array",
        ("a", "b"),
        "Input should be a list or a tuple, not a set: an array keeps its order"
        " (pass sorted(...) if the order does not matter)",
    ),
    (
        {"c": [0, {"d": {"x": 1}.values()}]},
        "unordered_array",
        ("c", 1, "d"),
        "Input should be a list or a tuple, not a dict_values: an array keeps its order"
        " (pass sorted(...) if the order does not matter)",
    ),
    (
        {"c": [0, {"d/e~": object()}]},
        "invalid-json-value",
        ("c", 1, "d/e~"),
        "Input should be a JSON value (a dict, list, tuple, str, int, float, bool or None), not object",
    ),
    (
        {"a": ({1: "x"},)},
        "invalid_key",
        ("a", 0),
        "Keys should be strings, not int (1)",
    ),
]

# The examples (#20, item 5): errors_as_json said /attributes/a/dict/b and /attributes/c/list/1/dict/d.
POINTERS = [
    ({"a": {"b": {1}}}, "/attributes/a/b"),
    ({"c": [0, {"d": object()}]}, "/attributes/c/1/d"),
    ({"c": [0, {"d/e~": object()}]}, "/attributes/c/1/d~1e~0"),
]


@pytest.mark.usefixtures("either_path")
@pytest.mark.parametrize(("attributes", "kind", "where", "message"), BAD_INSIDE)
def test_open_objects_refuse_what_json_cannot_hold_where_it_is(
    attributes: Any, kind: str, where: tuple[str | int, ...], message: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        trace_base(attributes)
    (error,) = caught.value.errors()
    assert error["loc"] == ("attributes", *where)  # no union tag ("dict", "list") in the location
    assert error["type"] == kind
    assert error["msg"] == message


@pytest.mark.usefixtures("either_path")
@pytest.mark.parametrize(("attributes", "pointer"), POINTERS)
def test_open_object_errors_are_json_pointers_into_the_value(attributes: Any, pointer: str) -> None:
    with pytest.raises(ValidationError) as caught:
        trace_base(attributes)
    assert [entry["pointer"] for entry in mm.errors_as_json(caught.value)] == [pointer]


def test_open_objects_in_arrays_take_tuples_too() -> None:
    # LearningSample.delta_intents is an array of open objects.
    assert (mm.LearningSample, "delta_intents") in ARRAY_FIELDS
    with pytest.raises(ValidationError) as caught:
        mm.LearningSample.model_validate({"delta_intents": [{"a": ("x",)}, {"a": {1}}]})
    located = [error for error in caught.value.errors() if error["loc"][0] == "delta_intents"]
    assert [(error["loc"], error["type"]) for error in located] == [(("delta_intents", 1, "a"), "unordered_array")]


# --- enums --------------------------------------------------------------------------------------------


def enum_fields() -> Iterator[tuple[type[mm.MplpModel], str, type[StatusEnum]]]:
    for model in MODELS:
        for name, field in model.model_fields.items():
            for kind in without_none(field.annotation):
                if isinstance(kind, type) and issubclass(kind, StatusEnum):
                    yield model, name, kind


ENUM_FIELDS = list(enum_fields())
ENUMS = sorted({kind for _, _, kind in ENUM_FIELDS}, key=lambda kind: kind.__name__)


def test_the_plan_step_refuses_the_plans_status() -> None:
    # The example: in_progress is a value of both enums.
    with pytest.raises(ValidationError) as caught:
        mm.PlanStep(step_id=ID, description="d", status=mm.PlanStatus.in_progress)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    (error,) = caught.value.errors()
    assert error["loc"] == ("status",)
    assert error["type"] == "enum"
    assert error["msg"] == "Input should be 'pending', 'in_progress', 'completed', 'blocked', 'skipped' or 'failed'"
    assert mm.PlanStep(step_id=ID, description="d", status="in_progress").status is mm.PlanStepStatus.in_progress
    own = mm.PlanStep(step_id=ID, description="d", status=mm.PlanStepStatus.in_progress)
    assert own.status is mm.PlanStepStatus.in_progress


@pytest.mark.parametrize(("model", "name", "kind"), ENUM_FIELDS, ids=[f"{m.__name__}.{n}" for m, n, _ in ENUM_FIELDS])
def test_every_enum_field_refuses_every_other_enums_member(
    model: type[mm.MplpModel], name: str, kind: type[StatusEnum]
) -> None:
    values = {member.value for member in kind}
    for other in ENUMS:
        if other is kind:
            continue
        for member in other:
            with pytest.raises(ValidationError) as caught:
                model.model_validate({name: member})
            mine = [error for error in caught.value.errors() if error["loc"] == (name,)]
            assert [error["type"] for error in mine] == ["enum"], (other, member)
        shared = [member for member in other if member.value in values]
        for member in shared:  # the value alone is still taken
            errors = _errors_at(model, {name: member.value}, name)
            assert errors == []


@pytest.mark.parametrize(("model", "name", "kind"), ENUM_FIELDS, ids=[f"{m.__name__}.{n}" for m, n, _ in ENUM_FIELDS])
def test_every_enum_field_takes_its_members_and_their_values(
    model: type[mm.MplpModel], name: str, kind: type[StatusEnum]
) -> None:
    for member in kind:
        assert _errors_at(model, {name: member}, name) == []
        assert _errors_at(model, {name: str(member.value)}, name) == []


def _errors_at(model: type[mm.MplpModel], data: dict[str, Any], name: str) -> list[Any]:
    try:
        model.model_validate(data)
    except ValidationError as error:
        return [entry for entry in error.errors() if entry["loc"] == (name,)]
    return []


def test_json_enum_errors_are_unchanged() -> None:
    with pytest.raises(ValidationError) as caught:
        mm.PlanStep.model_validate_json(f'{{"step_id":"{ID}","description":"d","status":"bogus"}}')
    (error,) = caught.value.errors()
    assert error["type"] == "enum"
    assert error["msg"] == "Input should be 'pending', 'in_progress', 'completed', 'blocked', 'skipped' or 'failed'"
