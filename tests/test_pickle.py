"""Pickles of the public models: a round trip keeps every model as it was, and an older pickle still loads.

The instances are those of the example payloads (every public model class is
among them, the parts included); the older pickle, tests/data/plan-0.x.pickle,
was made by the tree before the public surface changed (classes pickled under
their ``mplp_models._generated...`` module path), from examples/payloads/plan.json;
tests/data/models-f7615b1.pickle by the tree before the classes reported ``mplp_models``
as their module (commit f7615b1), from every example payload and every enum member.
"""

from __future__ import annotations

import enum
import inspect
import pickle
from pathlib import Path
from typing import Any

import pytest

import mplp_models as mm
from mplp_models._public import model_names

ROOT = Path(__file__).resolve().parents[1]
PAYLOADS = sorted((ROOT / "examples" / "payloads").glob("*.json"))
OLD_PICKLE = ROOT / "tests" / "data" / "plan-0.x.pickle"
PRIVATE_PATH_PICKLE = ROOT / "tests" / "data" / "models-f7615b1.pickle"


def models_in(value: Any, found: dict[str, mm.MplpModel]) -> None:
    """Every model held in ``value``, the first of each class by name."""
    if isinstance(value, mm.MplpModel):
        found.setdefault(type(value).__name__, value)
        for item in (*value.__dict__.values(), *(value.__pydantic_extra__ or {}).values()):
            models_in(item, found)
    elif isinstance(value, (tuple, list)):
        for item in value:
            models_in(item, found)


def example_models() -> dict[str, mm.MplpModel]:
    found: dict[str, mm.MplpModel] = {}
    for path in PAYLOADS:
        models_in(mm.parse(path.read_bytes()), found)
    return found


MODELS = example_models()
ENUMS = [value for name in mm.__all__ if inspect.isclass(value := getattr(mm, name)) and issubclass(value, enum.Enum)]


def test_the_examples_hold_every_public_model() -> None:
    assert model_names() == set(MODELS)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
@pytest.mark.parametrize("name", sorted(MODELS))
def test_a_model_round_trips_through_pickle(name: str, protocol: int) -> None:
    model = MODELS[name]
    again = pickle.loads(pickle.dumps(model, protocol))
    assert type(again) is type(model) and again == model
    # The given fields (absent vs explicit null) and the bytes, not only equality.
    assert again.model_fields_set == model.model_fields_set
    assert again.to_json() == model.to_json()


@pytest.mark.parametrize("kind", ENUMS, ids=lambda kind: kind.__name__)
def test_every_member_of_a_public_enum_round_trips(kind: type[enum.Enum]) -> None:
    for member in kind:
        assert pickle.loads(pickle.dumps(member, pickle.HIGHEST_PROTOCOL)) is member


def test_a_pickle_made_under_the_generated_module_path_still_loads() -> None:
    raw = OLD_PICKLE.read_bytes()
    assert b"mplp_models._generated.mplp.v1_0.mplp_plan_schema" in raw  # the path it was made with
    data = pickle.loads(raw)  # the repository's own file
    expected = mm.Plan.from_json(data["json"])
    assert data["json"] == (ROOT / "examples" / "payloads" / "plan.json").read_bytes()
    assert type(data["plan"]) is mm.Plan and data["plan"] == expected
    assert data["plan"].to_json() == expected.to_json()
    assert data["status"] is mm.PlanStatus.approved


def test_a_new_pickle_names_the_package_not_the_private_module() -> None:
    for model in MODELS.values():
        raw = pickle.dumps(model, pickle.HIGHEST_PROTOCOL)
        assert b"mplp_models._generated" not in raw and b"mplp_models" in raw, type(model).__name__


def test_the_pickles_made_under_the_private_module_paths_still_load() -> None:
    raw = PRIVATE_PATH_PICKLE.read_bytes()
    assert b"mplp_models._generated.mplp.v1_0.mplp_plan_schema" in raw  # the paths it was made with
    data = pickle.loads(raw)  # the repository's own file
    assert sorted(data["json"]) == sorted(path.stem for path in PAYLOADS)
    for slug, text in data["json"].items():
        assert text == (ROOT / "examples" / "payloads" / f"{slug}.json").read_bytes(), slug
        expected = mm.parse(text)
        loaded = data["models"][slug]
        assert type(loaded) is type(expected) and type(loaded).__module__ == "mplp_models", slug
        assert loaded == expected and loaded.model_fields_set == expected.model_fields_set, slug
        assert loaded.to_json() == expected.to_json(), slug
    members = [member for kind in ENUMS for member in kind]
    assert len(data["enums"]) == len(members) and all(a is b for a, b in zip(data["enums"], members))
