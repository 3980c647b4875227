"""Every way out refuses an open object changed in place into what the reading refuses (docs/canonical-json.md).

The promise, from "Refuse, never convert": the open objects of a model (its
``JsonObject`` fields, required or optional, the items of an array of them,
and the extra keys of an open model), at any depth of the model, are dicts
that can be changed in place; whatever they are changed into that the reading
refuses is refused by every way out, never written as something else.
``to_json``, ``to_dict`` and ``canonical_json`` raise ``CanonicalJSONError`` whose
``pointer`` names the value from the top of the model; ``model_dump`` (both
modes), ``model_dump_json`` and every other pydantic
serialization (a ``TypeAdapter``, FastAPI's responses) raise
``PydanticSerializationError`` whose message ends with the same
``at <pointer>``; the fast paths and the strict paths refuse alike.

Each open object of every example payload, and of a learning-sample core (the
only class whose open objects are required fields), is changed into each kind
of non-JSON value in turn.
"""

from __future__ import annotations

import datetime
import fractions
import json
import uuid
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from conftest import PAYLOAD_FILES
from fast_path_switch import either_path
from pydantic import BaseModel, TypeAdapter
from pydantic_core import PydanticSerializationError

import mplp_models as mm

__all__ = ["either_path"]  # the fixture, used by name


def too_deep() -> Any:
    """Arrays nested so that the open object holding them nests one level deeper than ``MAX_OPEN_OBJECT_DEPTH``."""
    return json.loads("[" * mm.MAX_OPEN_OBJECT_DEPTH + "]" * mm.MAX_OPEN_OBJECT_DEPTH)


# Each non-JSON value, and the pointer of the refused value below the key it is put under.
NOT_JSON: dict[str, tuple[Callable[[], Any], str]] = {
    "bytes": (lambda: b"x", ""),
    "bytearray": (lambda: bytearray(b"x"), ""),
    "set": (lambda: {1}, ""),
    "frozenset": (lambda: frozenset({"a"}), ""),
    "Decimal": (lambda: Decimal("1.5"), ""),
    "Fraction": (lambda: fractions.Fraction(1, 3), ""),
    "tuple": (lambda: (1, 2), ""),
    "datetime": (lambda: datetime.datetime(2026, 1, 2, tzinfo=datetime.timezone.utc), ""),
    "UUID": (lambda: uuid.UUID(int=1), ""),
    "object": (object, ""),
    "NaN": (lambda: float("nan"), ""),
    "infinity": (lambda: float("inf"), ""),
    "minus infinity": (lambda: float("-inf"), ""),
    "integer beyond a double": (lambda: 10**400, ""),
    "lone surrogate": (lambda: "a\ud800", ""),
    "int key": (lambda: {1: "one"}, "/1"),
    "tuple key": (lambda: {(1, 2): "pair"}, "/(1, 2)"),
    "lone surrogate key": (lambda: {"\udfff": 1}, ""),
    "bytes in an array": (lambda: [1, b"x"], "/1"),
    "set in an object": (lambda: {"a": {"b": {2}}}, "/a/b"),
    # Named at the array that nests one level too deep: the open object is level 1, "x" level 2.
    "too deep": (too_deep, "/0" * (mm.MAX_OPEN_OBJECT_DEPTH - 1)),
}


def open_places(model: BaseModel, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every open object a model holds (its own and its models'), with its JSON Pointer from ``model``.

    A dict held by a field, or by an item of a field's array, is an open object; so are the extra
    keys of an open model, whose pointer is the model's own.
    """
    extra = model.__pydantic_extra__
    if extra is not None:
        yield where, extra
    for name, value in model.__dict__.items():
        items = (
            [(f"{where}/{name}/{index}", item) for index, item in enumerate(value)]
            if isinstance(value, tuple)
            else [(f"{where}/{name}", value)]
        )
        for place, item in items:
            if isinstance(item, dict):
                yield place, item
            elif isinstance(item, BaseModel):
                yield from open_places(item, place)


def learning_sample_core() -> mm.MplpModel:
    """A learning-sample core, whose ``input`` and ``output`` are required open objects."""
    from mplp_models._generated.mplp.v1_0.learning.mplp_learning_sample_core_schema import LearningSampleCore

    return LearningSampleCore.model_validate(
        {
            "sample_id": "s-1",
            "sample_family": "intent_resolution",
            "created_at": "2026-01-02T03:04:05Z",
            "input": {"a": 1},
            "output": {"b": [1, 2]},
            "state": {"c": {"d": None}},
            "meta": {"project_id": "p", "tag": "t"},
            "extra_key": {"e": 1},
        }
    )


def hosts() -> list[tuple[str, Callable[[], mm.MplpModel]]]:
    made: list[tuple[str, Callable[[], mm.MplpModel]]] = [("learning-sample-core (made)", learning_sample_core)]

    def reader(path: Path) -> Callable[[], mm.MplpModel]:
        return lambda: mm.parse(path.read_bytes())

    made += [(path.name, reader(path)) for path in PAYLOAD_FILES]
    return made


PLACES = [
    (f"{name} {place or '(extra keys)'}", make, place) for name, make in hosts() for place, _ in open_places(make())
]


def test_the_places_cover_every_kind_of_open_object() -> None:
    names = {name for name, _, _ in PLACES}
    assert any("/input" in name for name in names)  # required
    assert any("/data" in name for name in names)  # optional, the model's own
    assert any("/trace/attributes" in name for name in names)  # in a model inside
    assert any("/segments/" in name for name in names)  # in an array of models
    assert any("/delta_intents/0" in name for name in names)  # an item of an array of open objects
    assert any("(extra keys)" in name for name in names)  # an open model's own keys
    assert any("/meta" in name and name.startswith("learning-sample-core") for name in names)  # a model's extras


def refusals(model: mm.MplpModel) -> dict[str, str]:
    """What each way out gives: the pointer or message it refuses with, or ``"written"``."""
    kind = type(model)
    doors: dict[str, Callable[[], object]] = {
        "to_json": model.to_json,
        "canonical_json": lambda: mm.canonical_json(model),
        "model_dump_json": model.model_dump_json,
        "to_dict": model.to_dict,
        "model_dump": model.model_dump,
        "model_dump json mode": lambda: model.model_dump(mode="json"),
        "TypeAdapter dump_json": lambda: TypeAdapter(list[kind]).dump_json([model]),  # type: ignore[valid-type]
        "TypeAdapter dump_python": lambda: TypeAdapter(kind).dump_python(model, mode="json"),
    }
    found: dict[str, str] = {}
    for door, write in doors.items():
        try:
            write()
        except mm.CanonicalJSONError as error:
            found[door] = f"CanonicalJSONError at {error.pointer}"
        except PydanticSerializationError as error:
            found[door] = f"PydanticSerializationError {error}"
        else:
            found[door] = "written"
    return found


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("value", list(NOT_JSON))
@pytest.mark.parametrize(("host", "make", "place"), PLACES, ids=[name for name, _, _ in PLACES])
def test_a_non_json_value_put_in_place_is_refused_by_every_door(
    either_path: bool, host: str, make: Callable[[], mm.MplpModel], place: str, value: str
) -> None:
    model = make()
    objects = dict(open_places(model))
    build, below = NOT_JSON[value]
    objects[place]["x"] = build()
    pointer = f"{place}/x{below}"
    found = refusals(model)
    for door, verdict in found.items():
        if door in ("to_json", "to_dict", "canonical_json"):  # the SDK's own ways out
            assert verdict == f"CanonicalJSONError at {pointer}", (door, verdict)
        else:
            assert verdict.startswith("PydanticSerializationError"), (door, verdict)
            assert verdict.endswith(f" at {pointer}"), (door, verdict)


def test_a_fastapi_response_holding_a_non_json_value_is_refused(either_path: bool) -> None:
    pytest.importorskip("fastapi")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    app = FastAPI()
    held: list[mm.MplpModel] = []

    @app.get("/sample")
    def sample() -> mm.LearningSample:
        return held[0]  # type: ignore[return-value]

    model = mm.LearningSample.from_json((PAYLOAD_FILES[0].parent / "learning-sample.json").read_bytes())
    assert model.metadata is not None
    model.metadata["x"] = b"bytes"  # type: ignore[assignment]
    held.append(model)
    with TestClient(app) as client, pytest.raises(PydanticSerializationError, match=r"at /metadata/x$"):
        client.get("/sample")
