"""Upstream reference payloads (../shared/conformance): every one validates and dumps back unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import rfc8785
from conftest import CONFORMANCE, load, shared_or_skip
from pydantic import ValidationError

import mplp_models as mm
from mplp_models._kinds import MPLP_MODULES


def payloads() -> list[Path]:
    folders = ["mplp-v1.0/examples", "mplp-v1.0/golden", "cortex-inbox"]
    found = [path for folder in folders for path in sorted((CONFORMANCE / folder).glob("*.json"))]
    return found or [CONFORMANCE / "absent"]


def test_every_mplp_module_has_upstream_examples_and_a_model() -> None:
    examples = shared_or_skip("mplp-v1.0/examples")
    modules = {path.name.split(".")[0] for path in examples.glob("*.minimal.json")}
    assert modules == {module.lower() for module in MPLP_MODULES}
    for path in sorted(examples.glob("*.json")):
        if path.name != "event.valid.json":
            assert type(mm.parse(path.read_bytes())).__name__.lower() == path.name.split(".")[0], path.name


@pytest.mark.parametrize("path", payloads(), ids=lambda path: path.name)
def test_upstream_payload_validates_and_dumps_back(path: Path) -> None:
    path = shared_or_skip(str(path.relative_to(CONFORMANCE)))
    document = load(path)
    model = mm.parse(path.read_bytes())
    assert json.loads(model.model_dump_json(exclude_unset=True)) == document
    assert model.to_dict() == document
    assert model.to_json() == rfc8785.dumps(document)  # the canonical bytes of an independent implementation
    assert type(model).from_json(model.to_json()) == model


def test_the_golden_flows_are_all_there() -> None:
    golden = shared_or_skip("mplp-v1.0/golden")
    plans = [mm.Plan.from_json(path.read_bytes()) for path in sorted(golden.glob("*.json"))]
    assert len(plans) >= 10
    assert max(len(plan.steps) for plan in plans) >= 20
    assert any(step.dependencies for plan in plans for step in plan.steps)


def invalid_fixtures() -> list[Path]:
    return sorted((CONFORMANCE / "mplp-v1.0" / "invalid").glob("*.json")) or [CONFORMANCE / "absent"]


@pytest.mark.parametrize("path", invalid_fixtures(), ids=lambda path: path.name)
def test_upstream_invalid_fixture_is_refused(path: Path) -> None:
    path = shared_or_skip(str(path.relative_to(CONFORMANCE)))
    model = getattr(mm, path.name.split("_")[0].capitalize())  # <module>_<what>.json
    with pytest.raises(ValidationError):
        model.from_json(path.read_bytes(), semantic=False)
    with pytest.raises(ValidationError):
        mm.parse(path.read_bytes())
