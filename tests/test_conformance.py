"""Upstream reference payloads (../shared/conformance): every one validates and dumps back unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

import mplp_models as mm
from conftest import CONFORMANCE, load, shared_or_skip


# Upstream's examples of the modules that have no model yet (issue 13 brings them).
UNMODELLED = ("collab", "confirm", "context", "core", "extension", "network", "role", "trace")


def unmodelled(path: Path) -> bool:
    return path.name.split(".")[0] in UNMODELLED


def payloads() -> list[Path]:
    folders = ["mplp-v1.0/examples", "mplp-v1.0/golden", "cortex-inbox"]
    found = [path for folder in folders for path in sorted((CONFORMANCE / folder).glob("*.json")) if not unmodelled(path)]
    return found or [CONFORMANCE / "absent"]


def test_the_modules_without_a_model_are_refused_by_parse() -> None:
    examples = shared_or_skip("mplp-v1.0/examples")
    paths = [path for path in sorted(examples.glob("*.json")) if unmodelled(path)]
    assert {path.name.split(".")[0] for path in paths} == set(UNMODELLED)
    for path in paths:
        with pytest.raises(ValidationError):
            mm.parse(path.read_bytes())


@pytest.mark.parametrize("path", payloads(), ids=lambda path: path.name)
def test_upstream_payload_validates_and_dumps_back(path: Path) -> None:
    path = shared_or_skip(str(path.relative_to(CONFORMANCE)))
    document = load(path)
    model = mm.parse(path.read_bytes())
    assert json.loads(model.model_dump_json(exclude_unset=True)) == document
    assert model.to_dict() == document
    assert type(model).from_json(model.to_json()) == model


def test_the_golden_flows_are_all_there() -> None:
    golden = shared_or_skip("mplp-v1.0/golden")
    plans = [mm.Plan.from_json(path.read_bytes()) for path in sorted(golden.glob("*.json"))]
    assert len(plans) >= 10
    assert max(len(plan.steps) for plan in plans) >= 20
    assert any(step.dependencies for plan in plans for step in plan.steps)
