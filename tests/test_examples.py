"""The repository's own payloads (one per top-level model, every part of each model present) and the example scripts."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from conftest import FIXTURE_OF, PAYLOADS, ROOT, load, reference_accepts

import mplp_models as mm
from mplp_models._kinds import KINDS, kind_named


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
    assert all(getattr(sample, name) is not None for name in mm.LearningSample.model_fields), (
        "the learning-sample fixture should carry every optional field"
    )
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
    # Every kind says more than its name: its id or subject, and what the payload is about.
    kinds = {line.split(": ", 1)[1].split(" ", 1)[0] for line in lines}
    assert kinds == {model.__name__ for model in FIXTURE_OF}
    for line in lines:
        assert len(line.split(": ", 1)[1].split()) >= 4 and "None" not in line, line
    said = dict(line.split(": ", 1) for line in lines)  # what the fixtures hold, as the demo shows it
    assert said["git-event.json"].startswith("GitEvent merge 0f1e2d3c4b5a on refs/heads/main")
    assert "'ruff-0.8.0 check --output-format concise src/' [failed] exit 1" in said["tool-event.json"]
    assert "stages: build succeeded, test failed, deploy skipped" in said["ci-event.json"]
    assert "+3 nodes, -1 edges" in said["graph-update-event.json"]
    assert said["file-update-event.json"].startswith("FileUpdateEvent renamed src/main.py -> src/app/main.py (+14 -0)")
    canonical = [
        line.removeprefix("  canonical: ") for line in result.stdout.splitlines() if line.startswith("  canonical: ")
    ]
    assert len(canonical) == len(lines)
    for text in canonical:
        assert mm.canonical_json(json.loads(text)) == text.encode()


def test_the_demo_has_a_summary_for_every_kind() -> None:
    # TraceBase has no payload file of its own: a plan's trace is one.
    demo = example_module("demo.py")
    plan = mm.Plan.from_json((PAYLOADS / "plan.json").read_bytes())
    assert plan.trace is not None
    assert demo.summary(plan.trace).startswith(f"TraceBase {plan.trace.trace_id} span {plan.trace.span_id}")
    described = {kind for kind, _ in demo._SUMMARIES}
    assert {kind.model for kind in KINDS} <= described


def test_demo_fails_on_an_invalid_payload(tmp_path: pytest.TempPathFactory) -> None:
    bad = dict(load(PAYLOADS / "event.json"), timestamp="yesterday")
    (tmp_path / "bad.json").write_text(json.dumps(bad))  # type: ignore[operator]
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "demo.py"), str(tmp_path)], capture_output=True, text=True
    )
    assert result.returncode == 1
    assert "bad.json: INVALID" in result.stdout and "timestamp" in result.stdout


# --- the example scripts ------------------------------------------------------

EXAMPLES = ROOT / "examples"
INVALID = PAYLOADS / "invalid"


def run_example(script: str, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        input=stdin.decode() if stdin is not None else None,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_build_plan_prints_an_execution_order_and_the_canonical_json() -> None:
    result = run_example("build_plan.py")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Plan 'Ship the 2.0 release' [draft]: 5 steps, valid"
    # The last line is the plan itself: valid, canonical, and what the header's size and hash describe.
    body = lines[-1].encode()
    plan = mm.Plan.from_json(body)
    assert plan.to_json() == body
    assert rfc8785.dumps(json.loads(body)) == body
    assert lines[-2] == f"Canonical JSON ({len(body)} bytes, sha256 {hashlib.sha256(body).hexdigest()}):"
    # The order lists every step once, each after the steps it depends on.
    order = [line.split(". ", 1)[1].split(" (")[0] for line in lines if line[:3].strip().rstrip(".").isdigit()]
    name = {step.step_id: step.description for step in plan.steps}
    assert sorted(order) == sorted(name.values())
    for step in plan.steps:
        for dependency in step.dependencies or ():
            assert order.index(name[dependency]) < order.index(step.description)
    assert order[0] == "Tag v2.0.0" and order[-1] == "Publish the wheels and the notes"
    assert f"Ready to start: {', '.join(step.description for step in plan.ready_steps())}" in lines
    assert any(line.startswith("Refused: /steps/5/dependencies/0 self_dependency: ") for line in lines)
    assert len(plan.steps) == 5  # the refused step was not added


def example_module(script: str) -> Any:
    """The example program ``script`` loaded as a module (its ``main`` not run)."""
    spec = importlib.util.spec_from_file_location(script.removesuffix(".py"), EXAMPLES / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_validate_inbound_accepts_a_payload_as_a_program() -> None:
    result = run_example("validate_inbound.py", "examples/payloads/plan.json")
    assert (result.returncode, result.stdout) == (
        0,
        f"ok: examples/payloads/plan.json: Plan {load(PAYLOADS / 'plan.json')['plan_id']}\n",
    )


@pytest.mark.parametrize("name", sorted(path.name for path in PAYLOADS.glob("*.json")))
def test_validate_inbound_accepts_every_payload(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its main in this process (a program per payload cost half a second each); the test above and
    # those below run it as a program.
    monkeypatch.chdir(ROOT)
    document = load(PAYLOADS / name)
    kind = type(mm.parse(document))
    identifier = document[kind_named(kind.__name__).id_field]
    code = example_module("validate_inbound.py").main([f"examples/payloads/{name}"])
    assert (code, capsys.readouterr().out) == (0, f"ok: examples/payloads/{name}: {kind.__name__} {identifier}\n")


def problems_printed(stdout: str) -> list[tuple[str, str]]:
    """The (pointer, code) of each problem line of validate_inbound.py."""
    return [tuple(line.strip().split(": ", 2)[:2]) for line in stdout.splitlines()[1:]]  # type: ignore[misc]


def test_the_invalid_samples_are_invalid_as_described() -> None:
    inbox = load(INVALID / "inbox.json")
    assert not reference_accepts(mm.InboxMessage, inbox)  # against the schema itself
    cycle = load(INVALID / "plan-cycle.json")
    assert reference_accepts(mm.Plan, cycle)  # schema-valid: only the rules refuse it
    assert sorted(path.name for path in INVALID.iterdir()) == ["inbox.json", "plan-cycle.json"]


def test_validate_inbound_lists_schema_errors_with_pointers() -> None:
    result = run_example("validate_inbound.py", "examples/payloads/invalid/inbox.json")
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == "invalid: examples/payloads/invalid/inbox.json: 6 problems"
    assert problems_printed(result.stdout) == [
        ("/message_id", "string_pattern_mismatch"),
        ("/type", "enum"),
        ("/recipient_ids", "unique_items"),
        ("/body", "missing"),
        ("/created_at", "date_time"),
        ("/priority", "extra_forbidden"),
    ]
    assert 'found "im-42"' in result.stdout and "item 1 repeats item 0 ('coordinator')" in result.stdout


def test_validate_inbound_lists_rule_violations_and_reads_stdin() -> None:
    raw = (INVALID / "plan-cycle.json").read_bytes()
    result = run_example("validate_inbound.py", stdin=raw)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == "invalid: <stdin>: 2 problems"
    assert problems_printed(result.stdout) == [
        ("/steps/3/dependencies/0", "unknown_dependency"),
        ("/steps/0/dependencies/0", "dependency_cycle"),
    ]
    cycle = (
        "a2000000-0000-4000-8000-000000000001 -> a2000000-0000-4000-8000-000000000003"
        " -> a2000000-0000-4000-8000-000000000002 -> a2000000-0000-4000-8000-000000000001"
    )
    assert cycle in result.stdout
    as_json = run_example("validate_inbound.py", "--json", "-", stdin=raw)
    assert as_json.returncode == 1
    assert [(entry["pointer"], entry["code"]) for entry in json.loads(as_json.stdout)] == problems_printed(
        result.stdout
    )
    schema_only = run_example("validate_inbound.py", "--schema-only", "examples/payloads/invalid/plan-cycle.json")
    assert (schema_only.returncode, schema_only.stdout.split(": ")[0]) == (0, "ok")


def test_validate_inbound_reports_input_that_is_not_json_or_not_there() -> None:
    broken = run_example("validate_inbound.py", stdin=b'{"event_id": ')
    assert broken.returncode == 1 and "(whole payload): json_invalid: Invalid JSON" in broken.stdout
    missing = run_example("validate_inbound.py", "examples/payloads/no-such-file.json")
    assert missing.returncode == 2 and "cannot read examples/payloads/no-such-file.json" in missing.stderr


def test_hash_payload_hashes_the_rfc8785_bytes(tmp_path: Path) -> None:
    paths = sorted(PAYLOADS.glob("*.json"))
    # The same plan, spaced and ordered otherwise: the same canonical bytes, so the same hash.
    plan = load(PAYLOADS / "plan.json")
    reordered = tmp_path / "plan-reordered.json"
    reordered.write_text(json.dumps(dict(reversed(list(plan.items()))), indent=4, ensure_ascii=True), encoding="utf-8")
    result = run_example("hash_payload.py", *map(str, paths), str(reordered))
    assert result.returncode == 0, result.stderr
    printed = {name: digest for digest, name in (line.split("  ", 1) for line in result.stdout.splitlines())}
    assert len(printed) == len(paths) + 1
    for path in paths:
        # Computed independently: the rfc8785 package over what the standard library parses.
        assert printed[str(path)] == hashlib.sha256(rfc8785.dumps(load(path))).hexdigest(), path.name
    assert printed[str(reordered)] == printed[str(PAYLOADS / "plan.json")]
    stdin = run_example("hash_payload.py", "-", stdin=(PAYLOADS / "event.json").read_bytes())
    assert stdin.stdout == f"{printed[str(PAYLOADS / 'event.json')]}  -\n"


def test_hash_payload_refuses_an_invalid_payload() -> None:
    result = run_example("hash_payload.py", "examples/payloads/event.json", "examples/payloads/invalid/inbox.json")
    assert result.returncode == 1
    assert result.stdout.endswith("  examples/payloads/event.json\n") and "invalid" not in result.stdout
    assert "examples/payloads/invalid/inbox.json: not hashed: /message_id: string_pattern_mismatch" in result.stderr


def test_the_agent_example_builds_its_state_through_the_edit_operations() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "agent.py")], capture_output=True, text=True, check=True
    )
    kinds = [line.split(":")[0] for line in result.stdout.splitlines()]
    assert kinds == ["plan", "trace", "dialog", "confirm", "sample"]
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import agent  # type: ignore[import-not-found]  # examples/ is not a package
    finally:
        sys.path.remove(str(ROOT / "examples"))
    state = agent.main()
    plan, trace, dialog, confirm = state["plan"], state["trace"], state["dialog"], state["confirm"]
    assert isinstance(plan, mm.Plan) and isinstance(trace, mm.Trace)
    assert isinstance(dialog, mm.Dialog) and isinstance(confirm, mm.Confirm)
    # The LLM's second answer was taken (the first named a step that does not exist), one step was
    # added mid-way before publishing, and everything ran: five steps, five finished segments.
    assert plan.status == "completed" and [step.status for step in plan.steps] == ["completed"] * 5
    assert [step.description for step in plan.steps] == [
        "Tag v2.0.0",
        "Build the wheels",
        "Test the wheels",
        "Write the release notes",
        "Publish the wheels",
    ]
    publish = plan.steps[4]
    assert publish.dependencies == (plan.steps[2].step_id, plan.steps[3].step_id)
    assert trace.status == "completed" and trace.finished_at is not None
    segments = trace.segments or ()
    assert len(segments) == 5
    assert all(s.status == "completed" and s.started_at and s.finished_at for s in segments)
    assert [m.content for m in dialog.messages][-1] == "Done: Publish the wheels."
    assert (
        confirm.status == "approved" and confirm.decisions and confirm.decisions[0].decided_by_role == "release-manager"
    )
    for document in state.values():
        assert type(document).from_json(document.to_json()) == document


def test_plan_with_llm_retries_runs_and_revises_mid_way() -> None:
    result = run_example("plan_with_llm.py")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    # The first answer named a step it never wrote: refused with the draft's own message.
    assert lines[2] == (
        '- /steps/2/depends_on/1 [unknown_dependency]: step "s4" depends on "s3", which is not a step of this '
        'plan; the steps are "s1", "s2", "s4"; found "s3"'
    )
    revised = lines[lines.index("Revised (statuses kept, the new step pending):") + 1 :]
    assert revised[0] == "Plan 'Ship the 2.0 release' [in_progress]"
    rows = [re.fullmatch(r"  ([0-9a-f]{8}) (.+?) \[(\w+)\](?:, after (.+))?", line) for line in revised[1:6]]
    assert all(rows), revised
    table = [(row[2], row[3]) for row in rows if row]
    assert table == [
        ("Tag v2.0.0", "completed"),
        ("Build the wheels", "in_progress"),
        ("Write the release notes", "pending"),
        ("Test the wheels", "pending"),
        ("Publish the wheels and the notes", "pending"),
    ]
    ids = {row[2]: row[1] for row in rows if row}
    after = {row[2]: row[4] for row in rows if row}
    assert after["Test the wheels"] == ids["Build the wheels"]
    assert after["Publish the wheels and the notes"] == f"{ids['Test the wheels']}, {ids['Write the release notes']}"
    # The steps that were kept kept their ids through the revision.
    running = lines[lines.index("Running:") + 2 : lines.index("Running:") + 6]
    assert [line.split()[0] for line in running] == [
        ids[name] for name in [row[0] for row in table if row[0] != "Test the wheels"]
    ]
    assert revised[-1] == "Ready to start: Write the release notes"
