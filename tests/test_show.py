"""``mplp-models show``: a plan's steps in dependency order, a trace's tree with durations, pictures, summaries.

The expected lines are read off the example payloads by hand: plan.json's steps and dependencies,
trace.json's segments and their times (durations worked out from the timestamps' texts).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PAYLOADS

import mplp_models as mm
from mplp_models._cli.main import main
from mplp_models._cli.show import _show_text, duration


def show(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["show", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_plans_steps_in_dependency_order_with_their_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = show(capsys, str(PAYLOADS / "plan.json"))
    assert status == 0
    assert out.splitlines() == [
        "Plan 3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11 in_progress: Ship the 2.0 release",
        "    1. [completed] Freeze the main branch and tag v2.0.0",
        "    2. [completed] Build wheels for every platform  (after 1)",
        "    3. [in_progress] Run the full test matrix on the built wheels  (after 2)",
        "    4. [pending] Write the release notes  (after 1)",
        "    5. [pending] Publish the wheels and the notes  (after 3, 4)",
    ]


def test_a_trace_as_its_segment_tree_with_durations(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = show(capsys, str(PAYLOADS / "trace.json"))
    assert status == 0
    assert out.splitlines() == [
        "Trace c0000000-0000-4000-8000-000000000001 completed"
        " from 2026-03-02T14:00:00Z to 2026-03-02T14:20:30.125Z (20m 30.125s)",
        "  release  [completed]  20m 30s",  # 14:00:00 to 14:20:30
        "    build  [completed]  14m 0s",  # 14:01 to 14:15
        "      upload wheels  [completed]  1m 5s",  # 14:12:00Z to 15:13:05+01:00
        "    announce  [skipped]  -",  # never started
    ]


@pytest.mark.parametrize(
    ("nanos", "text"),
    [(850_000_000, "850 ms"), (1_500_000, "1.5 ms"), (12_500_000_000, "12.5 s"), (7_380 * 10**9, "2h 03m 00s")],
)
def test_durations_read_as_people_write_them(nanos: int, text: str) -> None:
    assert duration(nanos) == text


def test_any_other_kind_is_its_summary(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = show(capsys, str(PAYLOADS / "confirm.json"))
    lines = out.splitlines()
    assert status == 0 and lines[0] == "Confirm d4000000-0000-4000-b000-000000000001"
    assert "  status: approved" in lines and "  decisions: 2 items" in lines and "  target_type: plan" in lines


def test_the_pictures_are_the_models_own(capsys: pytest.CaptureFixture[str]) -> None:
    plan = mm.Plan.from_json((PAYLOADS / "plan.json").read_bytes())
    trace = mm.Trace.from_json((PAYLOADS / "trace.json").read_bytes())
    assert show(capsys, "--format", "mermaid", str(PAYLOADS / "plan.json"))[1] == plan.to_mermaid()
    assert show(capsys, "--format", "dot", str(PAYLOADS / "plan.json"))[1] == plan.to_dot()
    assert show(capsys, "--format", "mermaid", str(PAYLOADS / "trace.json"))[1] == trace.to_mermaid()
    status, out, err = show(capsys, "--format", "dot", str(PAYLOADS / "trace.json"))
    assert (status, out) == (2, "") and "no dot picture of a Trace" in err


def test_an_invalid_or_unreadable_document_says_why(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"plan_id": 3}')
    status, _, err = show(capsys, str(bad))
    assert status == 1 and "/plan_id: Input should be an MPLP id" in err
    status, _, err = show(capsys, str(tmp_path / "missing.json"))
    assert status == 2 and "unreadable" in err


@pytest.mark.parametrize("text", ["[1]", "{}", '"a plan"'])
def test_a_problem_at_the_root_reads_as_validate_writes_it(
    text: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # docs/cli.md: a problem is its JSON Pointer and its message; the root's pointer is "" (RFC 6901), so that
    # validate writes the message alone. show writes the same text, not a made-up "/" (the pointer of key "").
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    status, out, err = show(capsys, str(bad))
    assert (status, out) == (1, "")
    assert main(["validate", str(bad)]) == 1
    validated = capsys.readouterr().err
    assert validated.startswith(f"{bad}: invalid: ") and err.startswith(f"mplp-models: {bad}: invalid: ")
    message = validated.removeprefix(f"{bad}: invalid: ")
    assert err == f"mplp-models: {bad}: invalid: {message}"
    assert not message.startswith(("/", ":"))


def test_on_a_terminal_rich_draws_a_table_and_a_tree(capsys: pytest.CaptureFixture[str]) -> None:
    plan = mm.Plan.from_json((PAYLOADS / "plan.json").read_bytes())
    hostile = plan.update_step(plan.steps[0].step_id, description="Tag [bold]v2[/bold]")
    _show_text(hostile, fancy=True)
    out = capsys.readouterr().out
    assert "┃ # ┃ status" in out and "Tag [bold]v2[/bold]" in out  # rich's markup in a description stays text
    _show_text(mm.Trace.from_json((PAYLOADS / "trace.json").read_bytes()), fancy=True)
    out = capsys.readouterr().out
    assert "└── release  completed  20m 30s" in out and "│   └── upload wheels  completed  1m 5s" in out


def test_the_command_runs_as_installed() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mplp_models", "show", str(PAYLOADS / "plan.json")], capture_output=True, text=True
    )
    assert done.returncode == 0 and "5. [pending] Publish the wheels and the notes  (after 3, 4)" in done.stdout


@pytest.mark.parametrize("form", ["mermaid", "dot"])
def test_a_picture_is_written_in_utf8_whatever_the_terminals_encoding(form: str, tmp_path: Path) -> None:
    plan = mm.Plan.from_json((PAYLOADS / "plan.json").read_bytes())
    path = tmp_path / "plan.json"
    path.write_bytes(plan.update_step(plan.steps[0].step_id, description="Café naïve").to_json())
    environment = {**os.environ, "PYTHONIOENCODING": "ascii", "LC_ALL": "C"}
    done = subprocess.run(
        [sys.executable, "-m", "mplp_models", "show", str(path), "--format", form], capture_output=True, env=environment
    )
    assert done.returncode == 0, done.stderr
    assert "Café naïve".encode() in done.stdout  # the title's own characters, as UTF-8
    assert b"\\x" not in done.stdout and b"\\u" not in done.stdout  # no escapes in their place


def test_a_plans_own_text_stays_on_its_lines(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # A title or description is any string: a newline or a terminal code in it is shown escaped, not obeyed.
    plan = mm.Plan.from_json((PAYLOADS / "plan.json").read_bytes())
    changed = plan.model_copy(update={"title": "Ship\x1b[2J it\u2028now"})
    path = tmp_path / "plan.json"
    path.write_bytes(changed.to_json())
    status, out, _ = show(capsys, str(path))
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Plan 3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11 in_progress: Ship\\x1b[2J it\\u2028now"
    assert len(lines) == 6 and "\x1b" not in out
