"""``from_dict``: the inverse of ``to_dict``, as strict as ``model_validate`` and ``from_json``.

The expected values are the example payloads themselves (what ``to_dict`` must
give back is the document that was read) and the schemas' own refusals.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
from conftest import FIXTURE_OF, PAYLOADS, load
from fast_path_switch import either_path  # noqa: F401  # a fixture
from pydantic import ValidationError
from test_pickle import MODELS

import mplp_models as mm

INVALID = PAYLOADS / "invalid"


@pytest.mark.usefixtures("either_path")
@pytest.mark.parametrize("model", list(FIXTURE_OF), ids=lambda model: model.__name__)
def test_from_dict_reads_a_payload_as_from_json_does(model: type[mm.MplpModel]) -> None:
    path = PAYLOADS / FIXTURE_OF[model]
    document = load(path)
    read = model.from_dict(document)
    expected = model.from_json(path.read_bytes())
    assert type(read) is model and read == expected
    assert read.model_fields_set == expected.model_fields_set
    assert read.to_dict() == document  # the document that was read, explicit nulls included
    assert read.to_json() == expected.to_json()


@pytest.mark.parametrize("name", sorted(MODELS))
def test_from_dict_is_the_inverse_of_to_dict(name: str) -> None:
    model = MODELS[name]  # every public model class, the parts included, from the example payloads
    again = type(model).from_dict(model.to_dict())
    assert again == model and again.model_fields_set == model.model_fields_set
    assert again.to_json() == model.to_json()


def test_an_explicit_null_stays_given_and_an_absent_field_absent() -> None:
    document = load(PAYLOADS / "inbox.json")
    assert document["task_id"] is None
    message = mm.InboxMessage.from_dict(document)
    assert "task_id" in message.model_fields_set and message.to_dict()["task_id"] is None
    without = {key: value for key, value in document.items() if key != "task_id"}
    assert "task_id" not in mm.InboxMessage.from_dict(without).to_dict()


def test_any_mapping_is_read() -> None:
    document = load(PAYLOADS / "plan.json")
    assert mm.Plan.from_dict(MappingProxyType(document)) == mm.Plan.from_dict(document)


def plan_with(**changes: Any) -> dict[str, Any]:
    return {**load(PAYLOADS / "plan.json"), **changes}


@pytest.mark.parametrize(
    ("data", "where"),
    [
        (plan_with(plan_id=12), ("plan_id",)),  # a number for a string (MplpId)
        (plan_with(status="Draft"), ("status",)),  # not one of the enum's values
        (plan_with(title=None), ("title",)),  # null where the schema has a string
        (plan_with(colour="red"), ("colour",)),  # a key the schema does not have
        (plan_with(meta={**load(PAYLOADS / "plan.json")["meta"], "created_at": "yesterday"}), ("meta", "created_at")),
    ],
    ids=["number-for-id", "unknown-status", "null", "unknown-key", "bad-timestamp"],
)
def test_from_dict_refuses_what_the_schema_refuses(data: dict[str, Any], where: tuple[str, ...]) -> None:
    with pytest.raises(ValidationError) as caught:
        mm.Plan.from_dict(data)
    assert where in [tuple(error["loc"]) for error in caught.value.errors()]


def test_from_dict_coerces_nothing() -> None:
    step = load(PAYLOADS / "plan.json")["steps"][0]
    with pytest.raises(ValidationError) as caught:
        mm.PlanStep.from_dict({**step, "order_index": "1"})  # a string is no integer
    assert [error["loc"] for error in caught.value.errors()] == [("order_index",)]
    with pytest.raises(ValidationError):
        mm.Plan.from_dict([load(PAYLOADS / "plan.json")])  # type: ignore[arg-type]  # not a mapping


@pytest.mark.parametrize("path", sorted(INVALID.glob("*.json")), ids=lambda path: path.name)
def test_from_dict_finds_what_from_json_finds(path: Path) -> None:
    model = type(mm.parse(path.read_bytes(), semantic=False)) if path.name == "plan-cycle.json" else mm.InboxMessage
    with pytest.raises(ValidationError) as from_json:
        model.from_json(path.read_bytes())
    with pytest.raises(ValidationError) as from_dict:
        model.from_dict(json.loads(path.read_bytes()))
    assert [error["loc"] for error in from_dict.value.errors()] == [error["loc"] for error in from_json.value.errors()]


def test_semantic_false_checks_the_schema_only() -> None:
    cycle = load(INVALID / "plan-cycle.json")  # schema-valid, its dependencies a cycle
    with pytest.raises(ValidationError, match="cycle"):
        mm.Plan.from_dict(cycle)
    assert mm.Plan.from_dict(cycle, semantic=False) == mm.Plan.from_json(
        (INVALID / "plan-cycle.json").read_bytes(), semantic=False
    )
