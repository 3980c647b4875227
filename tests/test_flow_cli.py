"""``mplp-models validate --flow DIR`` and ``mplp-models new flow DIR``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import shared_or_skip

import mplp_models as mm
from mplp_models._cli.main import main

MAP_FLOW = ("mplp-v1.0", "flows", "map-flow-01-turn-taking")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        status = main(list(args))
    except SystemExit as stop:  # argparse's usage errors
        status = stop.code if isinstance(stop.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def test_a_golden_flow_holds(capsys: pytest.CaptureFixture[str]) -> None:
    folder = shared_or_skip(*MAP_FLOW, "input")
    invariants = shared_or_skip(*MAP_FLOW, "invariants.yaml")
    status, out, err = _run(
        capsys, "validate", "--flow", str(folder), "--profile", "map", "--invariants", str(invariants)
    )
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[:3] == [
        f"{folder / 'collab.json'}: ok Collab 650e8400-e29b-41d4-a716-446655443002",
        f"{folder / 'context.json'}: ok Context 650e8400-e29b-41d4-a716-446655443000",
        f"{folder / 'plan.json'}: ok Plan 650e8400-e29b-41d4-a716-446655443001",
    ]
    assert "flow plan_context: holds (1 checked)" in lines
    assert "flow trace_context: not applicable (no Trace in the set)" in lines
    assert "flow map_participants_have_role_ids: holds (2 checked)" in lines
    assert "invariant map01_collab_mode_round_robin: collab.json/mode holds: enum(round_robin)" in lines


def _broken_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "session"
    shutil.copytree(shared_or_skip(*MAP_FLOW, "input"), folder)
    plan = json.loads((folder / "plan.json").read_text(encoding="utf-8"))
    plan["context_id"] = "9b2e4c1a-7d3f-4e8a-b5c6-0d1e2f3a4b5c"
    (folder / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    return folder


def test_a_broken_binding_fails_with_both_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _broken_copy(tmp_path)
    status, out, err = _run(capsys, "validate", "--flow", str(folder))
    assert status == 1
    assert "flow plan_context: fails (1 of 1)" in out.splitlines()
    assert err.splitlines() == [
        "flow plan_context: plan.json/context_id: plan 650e8400-e29b-41d4-a716-446655443001 has context_id "
        "9b2e4c1a-7d3f-4e8a-b5c6-0d1e2f3a4b5c, but the session's context is 650e8400-e29b-41d4-a716-446655443000"
    ]


def test_json_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _broken_copy(tmp_path)
    invariants = shared_or_skip(*MAP_FLOW, "invariants.yaml")
    status, out, _ = _run(
        capsys, "validate", "--flow", str(folder), "--format", "json", "--invariants", str(invariants)
    )
    assert status == 1
    records = [json.loads(line) for line in out.splitlines()]
    assert {r["record"] for r in records} == {"document", "rule", "invariant"}
    documents = [r for r in records if r["record"] == "document"]
    assert [(r["kind"], r["valid"]) for r in documents] == [("Collab", True), ("Context", True), ("Plan", True)]
    rules = {r["rule"]: r for r in records if r["record"] == "rule"}
    assert rules["plan_context"]["status"] == "fails"
    assert rules["plan_context"]["violations"][0]["locations"][0] == {
        "document": "plan.json",
        "kind": "Plan",
        "pointer": "/context_id",
    }
    assert rules["trace_plan"] == {
        "record": "rule",
        "rule": "trace_plan",
        "source": "stated",
        "status": "not_applicable",
        "applications": 0,
        "failures": 0,
        "reason": "no Trace with a plan_id",
        "violations": [],
    }
    bound = [r for r in records if r.get("invariant") == "map01_plan_context_binding"]
    assert [(r["status"], r["pointer"], r["value"]) for r in bound] == [
        ("fails", "/context_id", "9b2e4c1a-7d3f-4e8a-b5c6-0d1e2f3a4b5c")
    ]


def test_an_invalid_document_is_reported_and_left_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "session"
    shutil.copytree(shared_or_skip(*MAP_FLOW, "input"), folder)
    (folder / "plan.json").write_text('{"plan_id": "x"}', encoding="utf-8")
    status, out, err = _run(capsys, "validate", "--flow", str(folder))
    assert status == 1
    assert err.startswith(f"{folder / 'plan.json'}: invalid Plan: ")
    assert "flow plan_context: not applicable (no Plan in the set)" in out.splitlines()


@pytest.mark.parametrize(
    "args",
    [
        ("validate", "--profile", "sa", "x.json"),
        ("validate", "--invariants", "x.yaml", "x.json"),
        ("validate", "--flow", ".", "x.json"),
        ("validate", "--flow", ".", "--ndjson"),
        ("validate",),
        ("validate", "--flow", "/nonexistent/folder"),
        ("new", "plan", "somewhere"),
        ("new", "flow"),
    ],
)
def test_usage_errors(args: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(capsys, *args)
    assert status == 2
    assert err.startswith("mplp-models: ")


def test_a_folder_without_documents_is_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # docs/cli.md: 0 means every document is valid; with none read, that is not said (status 2, as for a missing file).
    (tmp_path / "notes.txt").write_text("{}", encoding="utf-8")
    status, out, err = _run(capsys, "validate", "--flow", str(tmp_path))
    assert (status, out) == (2, "")
    assert err == f"mplp-models: {tmp_path}: no *.json document\n"


def test_an_entry_named_json_that_is_no_file_is_unreadable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # docs/cli.md: status 2 when a file of the folder cannot be read; a folder named sub.json is read as one, and fails.
    assert _run(capsys, "new", "flow", str(tmp_path))[0] == 0
    (tmp_path / "sub.json").mkdir()
    status, out, err = _run(capsys, "validate", "--flow", str(tmp_path))
    assert status == 2
    assert err == f"mplp-models: {tmp_path / 'sub.json'}: unreadable: a folder, not a document file\n"
    assert f"{tmp_path / 'plan.json'}: ok Plan " in out  # the other documents are still checked
    (tmp_path / "sub.json").rename(tmp_path / "sub")  # no longer named *.json: not read
    assert _run(capsys, "validate", "--flow", str(tmp_path))[0] == 0
    only = tmp_path / "only"
    (only / "sub.json").mkdir(parents=True)
    status, _, err = _run(capsys, "validate", "--flow", str(only))
    assert (status, err) == (2, f"mplp-models: {only / 'sub.json'}: unreadable: a folder, not a document file\n")


def test_the_command_reads_the_entries_load_flow_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # docs/sessions.md: validate --flow reads the folder load_flow reads; a file named just ".json" is one of them.
    assert _run(capsys, "new", "flow", str(tmp_path))[0] == 0
    (tmp_path / ".json").write_text("{}", encoding="utf-8")
    with pytest.raises(ValueError, match=r"nothing loaded: \.json: invalid"):
        mm.load_flow(tmp_path)
    status, _, err = _run(capsys, "validate", "--flow", str(tmp_path))
    assert status == 1 and f"{tmp_path / '.json'}: invalid" in err


def test_an_unreadable_invariant_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text("- id: r\n  scope: plan\n  path: x\n  rule: uuid-v7\n", encoding="utf-8")
    status, _, err = _run(capsys, "validate", "--flow", str(tmp_path), "--invariants", str(rules))
    assert status == 2
    assert "unknown rule form 'uuid-v7'" in err


def test_an_invariant_file_that_is_not_utf8_is_unreadable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # docs/cli.md: an --invariants file that cannot be read is status 2; YAML is text, so Latin-1 bytes are unreadable.
    (tmp_path / "plan.json").write_text("{}", encoding="utf-8")
    rules = tmp_path / "rules.yaml"
    rules.write_bytes("# r\u00e9gles\n- id: r\n  scope: plan\n  path: x\n  rule: required\n".encode("latin-1"))
    status, out, err = _run(capsys, "validate", "--flow", str(tmp_path), "--invariants", str(rules))
    assert (status, out) == (2, "")
    assert err == f"mplp-models: --invariants {rules}: unreadable: not UTF-8 text (byte 0xe9 at offset 3)\n"


def test_new_flow_writes_a_linked_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "made"
    status, out, _ = _run(capsys, "new", "flow", str(folder))
    assert status == 0
    names = ["context.json", "plan.json", "confirm.json", "trace.json", "collab.json"]
    assert out.splitlines() == [str(folder / name) for name in names]
    read = {name: json.loads((folder / name).read_text(encoding="utf-8")) for name in names}
    context_id = read["context.json"]["context_id"]
    assert {read[name]["context_id"] for name in ("plan.json", "trace.json", "collab.json")} == {context_id}
    assert read["confirm.json"]["target_id"] == read["plan.json"]["plan_id"]
    assert read["trace.json"]["plan_id"] == read["plan.json"]["plan_id"]
    assert [event["trace_id"] for event in read["trace.json"]["events"]] == [read["trace.json"]["trace_id"]]
    for profile in ("sa", "map"):
        status, out, err = _run(capsys, "validate", "--flow", str(folder), "--profile", profile)
        assert (status, err) == (0, "")
        assert "flow confirm_target_plan: holds (1 checked)" in out.splitlines()
        assert "flow event_trace: holds (1 checked)" in out.splitlines()
    # Written twice into one folder: nothing is overwritten.
    status, _, err = _run(capsys, "new", "flow", str(folder))
    assert status == 2
    assert "already holds context.json" in err
