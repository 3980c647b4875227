"""The registry of kinds (mplp_models._kinds): each fact in it holds for its model, schema and command."""

from __future__ import annotations

import json

import pytest
from conftest import SCHEMAS

import mplp_models as mm
from mplp_models._cli.skeletons import SKELETONS, skeleton
from mplp_models._kinds import KINDS, MPLP_MODULES, PART_ID_FIELDS, Kind
from mplp_models._schemas import SCHEMA_FILES, schema_bytes, schema_id


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_each_kind_names_its_model_schema_and_id(kind: Kind) -> None:
    assert kind.name in mm.__all__ and kind.model is getattr(mm, kind.name)
    assert (SCHEMAS / kind.schema).is_file()
    assert SCHEMA_FILES[kind.name] == kind.schema
    schema = json.loads(schema_bytes(kind.name))
    # A schema without an `$id` (the Cortex code mode's) is named by its path, its base URI on disk.
    assert schema_id(kind.name) == schema.get("$id", f"file:///{kind.schema}")
    # The integration schemas' `$id`s end in `.json` where their files end in `.schema.json`.
    file = kind.schema.rpartition("/")[2]
    assert schema_id(kind.name).rpartition("/")[2] in (file, file.replace(".schema.json", ".json"))
    # A family (allOf [core, family]) has its id field required by the core it refers to.
    cores = [branch["$ref"] for branch in schema.get("allOf", ()) if "$ref" in branch]
    required = [*schema.get("required", ())]
    for core in cores:
        required += json.loads((SCHEMAS / kind.schema).with_name(core).read_bytes())["required"]
    assert kind.id_field in required
    assert kind.model.model_fields[kind.id_field].is_required()


def test_every_mplp_module_schema_is_registered() -> None:
    files = {path.relative_to(SCHEMAS).as_posix() for path in (SCHEMAS / "mplp" / "v1.0").glob("mplp-*.schema.json")}
    assert files == {kind.schema for kind in KINDS if kind.name in MPLP_MODULES}
    assert len(MPLP_MODULES) == 10


@pytest.mark.parametrize("new", sorted(SKELETONS))
def test_every_new_kind_makes_a_valid_document_of_its_model(new: str) -> None:
    (kind,) = [kind for kind in KINDS if kind.new == new]
    document = skeleton(new)
    assert type(document) is kind.model
    assert type(mm.parse(document.to_json())) is kind.model


def test_every_module_has_a_skeleton() -> None:
    assert {kind.name for kind in KINDS if kind.new} >= set(MPLP_MODULES)


@pytest.mark.parametrize(("part", "field"), PART_ID_FIELDS.items())
def test_each_part_id_field_is_a_required_field_of_the_part(part: str, field: str) -> None:
    assert getattr(mm, part).model_fields[field].is_required()
