"""schemas/: the seeds verbatim, and every constraint the same as upstream's frozen files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import SCHEMAS, SHARED, load, shared_or_skip
from jsonschema import Draft7Validator, Draft202012Validator

COMMON = ["identifiers", "metadata", "common-types", "trace-base", "events", "learning-sample"]
SEEDS = {
    "mplp/v1.0/mplp-plan.schema.json": "001_56ecde30aa5f148b.txt",
    "mplp/v1.0/mplp-dialog.schema.json": "000_fb540d529ef7877f.txt",
    "cortex/v1/inbox.schema.json": "004_c2c9c2b1325681fc.txt",
}
# Words, not constraints: these may differ from upstream.
PROSE = {"description", "title", "examples", "$comment", "x-mplp-meta"}


def all_schemas() -> list[Path]:
    return sorted(SCHEMAS.rglob("*.schema.json"))


# The Cortex client's code mode is draft 2020-12; every other file is draft-07.
CODE_MODE = SCHEMAS / "cortex" / "v1" / "code-mode"


@pytest.mark.parametrize("path", all_schemas(), ids=lambda path: path.name)
def test_schema_is_valid_under_its_draft(path: Path) -> None:
    schema = load(path)
    if path.parent == CODE_MODE:
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(schema)
    else:
        assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
        Draft7Validator.check_schema(schema)


@pytest.mark.parametrize("path", sorted(CODE_MODE.glob("*.schema.json")), ids=lambda path: path.name)
def test_code_mode_schemas_are_the_clients_verbatim(path: Path) -> None:
    recorded = shared_or_skip("cortex-inbox", "code-mode", path.name)
    assert path.read_bytes() == recorded.read_bytes()


@pytest.mark.parametrize("name", COMMON)
def test_common_schema_ids(name: str) -> None:
    schema = load(SCHEMAS / "mplp" / "v1.0" / "common" / f"{name}.schema.json")
    assert schema["$id"] == f"https://schemas.mplp.dev/v1.0/common/{name}.schema.json"


@pytest.mark.parametrize("ours", list(SEEDS))
def test_seed_schemas_are_verbatim(ours: str) -> None:
    seed = SHARED / "seeds" / SEEDS[ours]
    if not seed.exists():
        pytest.skip("../shared is absent")
    assert (SCHEMAS / ours).read_bytes() == seed.read_bytes()


def constraints(node: Any) -> Any:
    """The schema with its prose removed; a oneOf/anyOf branch's prose too."""
    if isinstance(node, dict):
        return {key: constraints(value) for key, value in node.items() if key not in PROSE}
    if isinstance(node, list):
        return [constraints(value) for value in node]
    return node


UPSTREAM = ["mplp-plan", "mplp-dialog", *(f"common/{name}" for name in COMMON)]


@pytest.mark.parametrize("name", UPSTREAM)
def test_constraints_match_upstream(name: str) -> None:
    upstream = shared_or_skip("mplp-v1.0", "schemas", f"{name}.schema.json")
    ours = SCHEMAS / "mplp" / "v1.0" / f"{name}.schema.json"
    assert constraints(load(ours)) == constraints(load(upstream))


def test_the_comparison_sees_a_changed_constraint() -> None:
    schema = load(SCHEMAS / "mplp" / "v1.0" / "common" / "metadata.schema.json")
    changed = json.loads(json.dumps(schema))
    changed["properties"]["cross_cutting"]["items"]["enum"].pop()
    assert constraints(changed) != constraints(schema)
    described = json.loads(json.dumps(schema))
    described["properties"]["tags"]["description"] = "other words"
    assert constraints(described) == constraints(schema)
