"""Upstream reference payloads (../shared/conformance): every one validates and dumps back unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mplp_models as mm
from conftest import CONFORMANCE, load, shared_or_skip


def payloads() -> list[Path]:
    folders = ["mplp-v1.0/examples", "mplp-v1.0/golden", "cortex-inbox"]
    found = [path for folder in folders for path in sorted((CONFORMANCE / folder).glob("*.json"))]
    return found or [CONFORMANCE / "absent"]


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
