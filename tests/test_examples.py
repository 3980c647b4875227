"""The repository's own payloads: one per top-level model, every part of each model present."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import mplp_models as mm
from conftest import FIXTURE_OF, PAYLOADS, ROOT, load, reference_accepts


@pytest.mark.parametrize("model", list(FIXTURE_OF), ids=lambda model: model.__name__)
def test_fixture_is_schema_valid_and_round_trips(model: type[mm.MplpModel]) -> None:
    path = PAYLOADS / FIXTURE_OF[model]
    document = load(path)
    assert reference_accepts(model, document)
    instance = model.from_json(path.read_bytes())
    assert json.loads(instance.model_dump_json(exclude_unset=True)) == document
    assert instance.to_dict() == document


def test_fixtures_cover_every_part() -> None:
    plan = mm.Plan.from_json((PAYLOADS / "plan.json").read_bytes())
    assert plan.trace is not None and plan.trace.attributes
    assert plan.events and plan.meta.cross_cutting and plan.meta.tags
    assert any(step.dependencies for step in plan.steps)
    dialog = mm.Dialog.from_json((PAYLOADS / "dialog.json").read_bytes())
    assert dialog.governance is not None and dialog.governance.lastConfirmRef is not None
    assert {message.role for message in dialog.messages} == set(mm.DialogMessageRole)
    assert any(message.event is not None for message in dialog.messages)
    sample = mm.LearningSample.from_json((PAYLOADS / "learning-sample.json").read_bytes())
    assert all(
        getattr(sample, name) is not None for name in mm.LearningSample.model_fields
    ), "the learning-sample fixture should carry every optional field"
    assert sample.token_usage is not None and sample.token_usage.by_agent
    inbox = mm.InboxMessage.from_json((PAYLOADS / "inbox.json").read_bytes())
    assert inbox.task_id is None and "task_id" in inbox.model_fields_set


def test_demo_prints_a_typed_summary_of_every_payload() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "demo.py"), str(PAYLOADS)], capture_output=True, text=True, check=True
    )
    lines = [line for line in result.stdout.splitlines() if not line.startswith("  canonical: ")]
    assert len(lines) == len(list(PAYLOADS.glob("*.json")))
    assert any(line.startswith("plan.json: Plan ") and "5 steps" in line for line in lines)
    assert any(line.startswith("inbox.json: InboxMessage IM-release-2.0-ready") for line in lines)
    canonical = [line.removeprefix("  canonical: ") for line in result.stdout.splitlines() if line.startswith("  canonical: ")]
    assert len(canonical) == len(lines)
    for text in canonical:
        assert mm.canonical_json(json.loads(text)) == text.encode()


def test_demo_fails_on_an_invalid_payload(tmp_path: pytest.TempPathFactory) -> None:
    bad = dict(load(PAYLOADS / "event.json"), timestamp="yesterday")
    (tmp_path / "bad.json").write_text(json.dumps(bad))  # type: ignore[operator]
    result = subprocess.run([sys.executable, str(ROOT / "examples" / "demo.py"), str(tmp_path)], capture_output=True, text=True)
    assert result.returncode == 1
    assert "bad.json: INVALID" in result.stdout and "timestamp" in result.stdout
