"""The ``mplp-models`` command: in this process through ``main(argv)`` (``run``), and as users run
it, in a subprocess through ``python -m`` (``spawn`` and the tests of pipes, terminals, exit
status 141, unwritable output, file names that are not UTF-8 and worker processes)."""

from __future__ import annotations

import argparse
import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from conftest import PAYLOADS, ROOT

import mplp_models as mm
from mplp_models._cli.main import _parser, main
from mplp_models._kinds import KINDS, kind_named

PLAN = PAYLOADS / "plan.json"


def run(*args: str, stdin: bytes = b"", cwd: Path = ROOT) -> subprocess.CompletedProcess[bytes]:
    """``mplp-models ARGS`` in this process (a subprocess costs a fresh interpreter each): the exit status
    and the bytes written to stdout and stderr, as ``spawn`` gives them."""
    data = [io.BytesIO(stdin), io.BytesIO(), io.BytesIO()]
    streams = [io.TextIOWrapper(buffer, encoding="utf-8", write_through=True) for buffer in data]
    saved, here = (sys.stdin, sys.stdout, sys.stderr), os.getcwd()
    sys.stdin, sys.stdout, sys.stderr = streams
    os.chdir(cwd)
    try:
        status = main(list(args))
    except SystemExit as stop:  # argparse's way out: --help, --version and usage errors
        status = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        os.chdir(here)
    return subprocess.CompletedProcess(["mplp-models", *args], status, data[1].getvalue(), data[2].getvalue())


def spawn(*args: str, stdin: bytes = b"", cwd: Path = ROOT) -> subprocess.CompletedProcess[bytes]:
    """``python -m mplp_models ARGS`` in a subprocess: for what needs a process of its own (worker processes)."""
    return subprocess.run(
        [sys.executable, "-m", "mplp_models", *args], input=stdin, capture_output=True, cwd=cwd, timeout=120
    )


def lines(output: bytes) -> list[str]:
    return output.decode().splitlines()


def write(path: Path, document: object) -> Path:
    path.write_text(json.dumps(document))
    return path


def plan_document() -> dict[str, object]:
    document: dict[str, object] = json.loads(PLAN.read_bytes())
    return document


@pytest.fixture
def bad_status(tmp_path: Path) -> Path:
    return write(tmp_path / "bad.json", {**plan_document(), "status": "finished"})


@pytest.fixture
def broken_rule(tmp_path: Path) -> Path:
    """Schema-valid, but a step depends on a step the plan does not have."""
    document = plan_document()
    steps = document["steps"]
    assert isinstance(steps, list)
    steps[0]["dependencies"] = ["00000000-0000-4000-8000-000000000000"]
    return write(tmp_path / "rule.json", document)


# validate, one document per file


def test_validate_names_kind_and_id_of_every_valid_payload() -> None:
    paths = sorted(str(path.relative_to(ROOT)) for path in PAYLOADS.glob("*.json"))
    result = run("validate", *paths)
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    expected = []
    for path in paths:
        instance = mm.parse((ROOT / path).read_bytes())
        ident = kind_named(type(instance).__name__).id_field
        expected.append(f"{path}: ok {type(instance).__name__} {getattr(instance, ident)}")
    assert lines(result.stdout) == expected


def test_invalid_document_gets_pointer_and_message_on_stderr(bad_status: Path) -> None:
    result = run("validate", str(PLAN), str(bad_status))
    assert result.returncode == 1
    assert lines(result.stdout) == [f"{PLAN}: ok Plan 3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11"]
    [error] = lines(result.stderr)
    assert error.startswith(f"{bad_status}: invalid Plan: /status: Input should be ")
    assert 'found "finished"' in error


def test_schema_only_skips_the_rules(broken_rule: Path) -> None:
    strict = run("validate", str(broken_rule))
    assert strict.returncode == 1
    assert "/steps/0/dependencies/0" in strict.stderr.decode()
    assert run("validate", "--schema-only", str(broken_rule)).returncode == 0


def test_unreadable_input_is_exit_2_and_the_rest_still_checked(tmp_path: Path) -> None:
    result = run("validate", str(tmp_path / "missing.json"), str(PLAN))
    assert result.returncode == 2
    assert f"{tmp_path / 'missing.json'}: unreadable: No such file or directory" in result.stderr.decode()
    assert lines(result.stdout) == [f"{PLAN}: ok Plan 3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11"]


def test_stdin_and_unparseable_input() -> None:
    assert lines(run("validate", "-", stdin=PLAN.read_bytes()).stdout) == [
        "-: ok Plan 3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11"
    ]
    result = run("validate", "-", stdin=b'{"plan_id": ')
    assert result.returncode == 1
    assert lines(result.stderr)[0].startswith("-: invalid: Invalid JSON")


@pytest.mark.parametrize(
    "args", [("validate", "-"), ("validate", "--ndjson", "-"), ("canonicalize", "-"), ("show", "-")], ids=" ".join
)
def test_a_closed_stdin_is_an_unreadable_input(args: tuple[str, ...]) -> None:
    # docs/cli.md: "-" reads standard input, and an input that cannot be read is status 2, said on stderr.
    closed = ["sh", "-c", 'exec "$@" <&-', "sh", sys.executable, "-m", "mplp_models", *args]
    result = subprocess.run(closed, capture_output=True, cwd=ROOT, timeout=120)
    assert (result.returncode, result.stdout) == (2, b"")
    assert lines(result.stderr)[0] == "mplp-models: -: unreadable: standard input is closed"
    assert b"Traceback" not in result.stderr


def test_kind_forces_the_model() -> None:
    result = run("validate", "--kind", "dialog", str(PLAN))
    assert result.returncode == 1
    assert f"{PLAN}: invalid Dialog: /dialog_id: Field required" in result.stderr.decode()
    unknown = run("validate", "--kind", "Nope", str(PLAN))
    assert unknown.returncode == 2
    assert "no model named 'Nope'" in unknown.stderr.decode()
    assert "MplpModel" not in unknown.stderr.decode()


def test_json_format_puts_every_record_on_stdout(bad_status: Path) -> None:
    result = run("validate", "--format", "json", str(PLAN), str(bad_status))
    assert result.returncode == 1
    good, bad = (json.loads(line) for line in lines(result.stdout))
    assert good == {
        "source": str(PLAN),
        "valid": True,
        "kind": "Plan",
        "id": "3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11",
        "errors": [],
    }
    assert bad["valid"] is False and bad["kind"] == "Plan" and bad["id"] is None
    assert [(entry["pointer"], entry["code"]) for entry in bad["errors"]] == [("/status", "enum")]


# validate --ndjson


@pytest.fixture
def ndjson(tmp_path: Path) -> Path:
    """200 documents of every kind, two of them bad (lines 7 and 150), and blank lines."""
    documents = [json.dumps(json.loads(path.read_bytes())) for path in sorted(PAYLOADS.glob("*.json"))]
    rows = [documents[n % len(documents)] for n in range(200)]
    rows[6] = rows[6][:-5]  # truncated: not JSON
    rows[149] = json.dumps({**plan_document(), "steps": []})
    path = tmp_path / "mixed.ndjson"
    path.write_text("\n".join(rows[:100]) + "\n\n" + "\n".join(rows[100:]) + "\n")
    return path


def test_ndjson_names_bad_lines_and_ends_with_a_summary(ndjson: Path) -> None:
    result = run("validate", "--ndjson", str(ndjson))
    assert result.returncode == 1
    assert len(lines(result.stdout)) == 198
    assert lines(result.stdout)[0].startswith(f"{ndjson}:1: ok ")
    errors = lines(result.stderr)
    assert errors[0].startswith(f"{ndjson}:7: invalid: Invalid JSON")
    # Line 101 is blank, so the 150th document is on line 151.
    assert errors[1].startswith(f"{ndjson}:151: invalid Plan: /steps: Array should have at least 1 item, not 0")
    assert errors[2].startswith("200 documents in ")
    assert errors[2].endswith(": 198 valid, 2 invalid (lines 7, 151)")
    assert "\x1b[" not in result.stderr.decode()  # no progress bar when piped


def test_ndjson_with_two_jobs_gives_the_same_output_in_order(ndjson: Path, tmp_path: Path) -> None:
    from mplp_models._cli.validate import _BLOCK_BYTES

    many = tmp_path / "many.ndjson"
    many.write_bytes(ndjson.read_bytes() * (3 * _BLOCK_BYTES // ndjson.stat().st_size + 1))  # several blocks
    one, two = run("validate", "--ndjson", str(many)), spawn("validate", "--ndjson", "--jobs", "2", str(many))
    assert (two.returncode, two.stdout) == (one.returncode, one.stdout)
    assert len(lines(one.stderr)) > 8
    assert lines(two.stderr)[:-1] == lines(one.stderr)[:-1]  # all but the timing of the summary


def test_two_jobs_check_in_both_processes_and_keep_the_order(ndjson: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # --jobs 2 is this process and one helper: with the helper's two blocks in flight, this one checks the next.
    from mplp_models._cli import validate

    settings = validate._Settings(None, True, False, False, 1 << 20)  # pyright: ignore[reportPrivateUsage]
    data = ndjson.read_bytes()
    block = validate._Block  # pyright: ignore[reportPrivateUsage]
    tasks: list[tuple[list[Any], int]] = [([block("x", 1 + n * 1000, data)], len(data)) for n in range(24)]
    here = 0
    check = validate._check_task  # pyright: ignore[reportPrivateUsage]

    def counted(task: Any, settings: Any) -> Any:
        nonlocal here
        here += 1  # in this process only: the helper, forked, counts in its own memory
        return check(task, settings)

    monkeypatch.setattr(validate, "_check_task", counted)
    serial = list(validate._reports(iter(tasks), settings, None, 1))  # pyright: ignore[reportPrivateUsage]
    here = 0
    with validate._pool(2, settings) as pool:  # pyright: ignore[reportPrivateUsage]
        both = list(validate._reports(iter(tasks), settings, pool, 2))  # pyright: ignore[reportPrivateUsage]
    assert both == serial
    assert 0 < here < len(tasks), here


def test_many_files_with_two_jobs_keep_their_order(tmp_path: Path, bad_status: Path) -> None:
    paths = [str(PLAN)] * 40 + [str(bad_status), str(tmp_path / "missing.json")] + [str(PLAN)] * 40 + [str(bad_status)]
    one, two = run("validate", *paths), spawn("validate", "--jobs", "2", *paths)
    assert one.returncode == two.returncode == 2
    assert (two.stdout, two.stderr) == (one.stdout, one.stderr)
    assert [line.split(": ")[0] for line in lines(one.stderr)] == [str(bad_status), "mplp-models", str(bad_status)]


def test_ndjson_from_stdin_in_json_format(ndjson: Path) -> None:
    result = run("validate", "--ndjson", "--format", "json", "-", stdin=ndjson.read_bytes())
    records = [json.loads(line) for line in lines(result.stdout)]
    assert len(records) == 200
    assert [(record["line"], record["valid"]) for record in records if not record["valid"]] == [
        (7, False),
        (151, False),
    ]
    assert {record["source"] for record in records} == {"-"}


def test_ndjson_all_valid_is_exit_0(tmp_path: Path) -> None:
    path = tmp_path / "ok.ndjson"
    path.write_bytes(b"\n".join(mm.Plan.from_json(PLAN.read_bytes()).to_json() for _ in range(3)))
    result = spawn("validate", "--ndjson", str(path), "--jobs", "0")
    assert result.returncode == 0
    assert lines(result.stderr)[-1].endswith(": 3 valid, 0 invalid")


def validate_on_a_terminal(ndjson: Path, stdout: Any) -> tuple[int, bytes]:
    """``validate --ndjson`` with stderr on a pseudo-terminal: its status, and what the terminal showed."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "mplp_models", "validate", "--ndjson", str(ndjson)],
        stdout=stdout,
        stderr=terminal,
        env={**os.environ, "TERM": "xterm"},
    )
    os.close(terminal)  # the child holds it now; reading ends when the child closes it
    shown = b""
    try:
        while chunk := os.read(controller, 65536):
            shown += chunk
    except OSError:  # EIO: the terminal closed
        pass
    finally:
        os.close(controller)
    return process.wait(timeout=120), shown


def test_progress_bar_shows_on_a_terminal(ndjson: Path) -> None:
    status, shown = validate_on_a_terminal(ndjson, subprocess.DEVNULL)
    assert status == 1
    assert b"validating" in shown
    assert b"200 documents in " in shown


def test_with_the_bar_on_a_terminal_the_verdicts_still_go_to_stdout(ndjson: Path, tmp_path: Path) -> None:
    # "Results go to stdout" (cli.md), also while the bar shows on stderr: `... > verdicts.txt`.
    with (tmp_path / "verdicts.txt").open("wb") as out:
        status, shown = validate_on_a_terminal(ndjson, out)
    assert status == 1
    verdicts = (tmp_path / "verdicts.txt").read_bytes().splitlines()
    assert b"validating" in shown and b": ok " not in shown
    assert verdicts and all(b": ok " in line for line in verdicts)


def test_canonicalize_quotes_a_documents_text_on_its_own_line(tmp_path: Path) -> None:
    # cli.md: a character that is not printable is written as its escape, so no document forges a line.
    path = tmp_path / "evil.json"
    path.write_bytes(b'{"evil\\n\\u001b[31mFORGED: ok Plan x": 12345678901234567890}')
    result = run("canonicalize", str(path))
    assert result.returncode == 1
    [line] = lines(result.stderr)
    assert "/evil\\n\\x1b[31mFORGED: ok Plan x" in line and "\x1b" not in line


def test_jobs_must_be_a_count() -> None:
    result = run("validate", "--jobs", "-1", str(PLAN))
    assert result.returncode == 2
    assert "--jobs" in result.stderr.decode()


def test_jobs_beyond_four_a_cpu_are_refused_before_any_process_starts() -> None:
    # docs/cli.md: at most 4 a CPU. 999999 processes would each load the models: the machine runs out of memory.
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    result = run("validate", "--jobs", str(4 * cpus + 1), str(PLAN))
    assert result.returncode == 2
    assert f"more than 4 a CPU ({4 * cpus} here)" in result.stderr.decode()


def test_the_summary_counts_one_document_in_the_singular(tmp_path: Path) -> None:
    path = tmp_path / "one.ndjson"
    path.write_bytes(PLAN.read_bytes().replace(b"\n", b"") + b"\n")
    [summary] = lines(run("validate", "--ndjson", "--no-progress", str(path)).stderr)
    assert summary.startswith("1 document in ") and summary.endswith(": 1 valid, 0 invalid")


def test_a_closed_pipe_stops_quietly(ndjson: Path) -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "mplp_models", "validate", "--ndjson", str(ndjson), str(ndjson), str(ndjson)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        process.stdout.close()
        errors = process.stderr.read()
        process.wait(timeout=120)
    assert first.startswith(str(ndjson).encode())
    assert b"Traceback" not in errors
    assert process.returncode == 141  # as for a Unix tool that SIGPIPE ended


def test_output_that_cannot_be_written_is_exit_2() -> None:
    with open("/dev/full", "wb") as full:
        result = subprocess.run(
            [sys.executable, "-m", "mplp_models", "schema", "Plan"], stdout=full, stderr=subprocess.PIPE, timeout=60
        )
    assert result.returncode == 2
    assert result.stderr.decode().startswith("mplp-models: cannot write output: No space left on device")


def test_a_file_name_that_is_not_utf8_is_shown_escaped(tmp_path: Path) -> None:
    name = os.fsencode(tmp_path) + b"/n\xffame.json"
    with open(name, "wb") as stream:
        stream.write(PLAN.read_bytes())
    shown = f"{tmp_path}/n\\xffame.json"
    command = [sys.executable, "-m", "mplp_models", "validate"]
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8"}  # strict encoding, as in a UTF-8 locale
    text = subprocess.run([*command, name], capture_output=True, timeout=60, env=environment)
    assert (text.returncode, lines(text.stdout)) == (0, [f"{shown}: ok Plan 3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11"])
    records = subprocess.run(
        [*command, "--format", "json", "--jobs", "2", name], capture_output=True, timeout=60, env=environment
    )
    assert records.returncode == 0
    assert json.loads(records.stdout)["source"] == shown


def test_ndjson_from_a_live_pipe_flows_line_by_line() -> None:
    import select

    with subprocess.Popen(
        [sys.executable, "-m", "mplp_models", "validate", "--ndjson", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(mm.Plan.from_json(PLAN.read_bytes()).to_json() + b"\n")
        process.stdin.flush()
        # The verdict arrives while the input is still open.
        assert select.select([process.stdout], [], [], 60)[0], "no verdict before the end of the input"
        assert process.stdout.readline().startswith(b"-:1: ok Plan ")
        process.stdin.close()
        assert process.wait(timeout=60) == 0


# canonicalize


@pytest.mark.parametrize("path", sorted(PAYLOADS.glob("*.json")), ids=lambda path: path.name)
def test_canonicalize_writes_rfc8785_bytes(path: Path, tmp_path: Path) -> None:
    result = run("canonicalize", str(path))
    assert result.returncode == 0
    assert result.stdout == rfc8785.dumps(json.loads(path.read_bytes()))
    canonical = tmp_path / "canonical.json"
    canonical.write_bytes(result.stdout)
    assert run("canonicalize", "--check", str(canonical)).returncode == 0
    assert run("canonicalize", "-", stdin=path.read_bytes()).stdout == result.stdout


def test_canonicalize_check_names_the_first_difference(tmp_path: Path) -> None:
    path = tmp_path / "spaced.json"
    path.write_bytes(b'{"a":1, "b":2}')
    result = run("canonicalize", "--check", str(path))
    assert (result.returncode, result.stdout) == (1, b"")
    assert f"{path}: not canonical: first difference at byte offset 7" in result.stderr.decode()
    path.write_bytes(b'{"a":1,"b":2}\n')
    assert "first difference at byte offset 13" in run("canonicalize", "--check", str(path)).stderr.decode()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b'{"a": 1, "a": 2}', "Duplicate key 'a'"),
        (b'{"a": NaN}', "Invalid JSON"),
        (b'{"big": 1152921504606846976}', "has no RFC 8785 form that reads back the same"),
    ],
)
def test_canonicalize_refuses_what_has_no_canonical_form(text: bytes, message: str) -> None:
    result = run("canonicalize", "-", stdin=text)
    assert (result.returncode, result.stdout) == (1, b"")
    assert message in result.stderr.decode()


def test_canonicalize_unreadable_is_exit_2(tmp_path: Path) -> None:
    result = run("canonicalize", str(tmp_path))
    assert result.returncode == 2
    assert "unreadable: Is a directory" in result.stderr.decode()


# schema


def test_schema_serves_the_frozen_files() -> None:
    listing = lines(run("schema", "--list").stdout)
    names = [line.split()[0] for line in listing]
    assert {"Plan", "Dialog", "InboxMessage", "Event", "LearningSample", "Metadata", "TraceBase"} <= set(names)
    for line in listing:
        name, relative, schema_id = line.split()
        result = run("schema", name.lower())
        assert result.returncode == 0
        assert result.stdout == (ROOT / "schemas" / relative).read_bytes()
        assert json.loads(result.stdout).get("$id", f"file:///{relative}") == schema_id


def test_schema_of_a_nested_model_points_to_its_file() -> None:
    result = run("schema", "PlanStep")
    assert result.returncode == 2
    assert "PlanStep is defined inside the schema of Plan" in result.stderr.decode()
    assert run("schema", "Nope").returncode == 2
    assert run("schema").returncode == 2


def test_schema_of_the_governance_block_points_to_a_module_that_writes_it_out() -> None:
    from mplp_models._schemas import schema_bytes, schema_name

    for name in ("Governance", "DialogGovernance"):
        with pytest.raises(LookupError, match=f"{name} is the governance block .* run `schema Dialog`"):
            schema_name(name)
    assert "governance" in json.loads(schema_bytes("Dialog"))["properties"]
    assert "Governance" not in json.loads(schema_bytes("CommonTypes"))["definitions"]  # only codegen's copy has it


# new


@pytest.mark.parametrize(("kind", "model"), [(kind.new, kind.model) for kind in KINDS if kind.new is not None])
def test_new_makes_valid_documents_with_fresh_ids(kind: str, model: type[mm.MplpModel]) -> None:
    first, second = run("new", kind), run("new", kind, "--canonical")
    assert first.returncode == second.returncode == 0
    one, two = model.from_json(first.stdout), model.from_json(second.stdout)
    assert second.stdout == two.to_json()
    assert one.to_dict() != two.to_dict()  # fresh ids
    assert run("validate", "-", stdin=first.stdout).returncode == 0


# the command itself


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The subcommands the parser has, by name: those argparse itself dispatches on."""
    found = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    return {name: command for action in found for name, command in action.choices.items()}


def test_every_subcommand_is_documented() -> None:
    # docs/cli.md is the command's reference: each subcommand has a row in its opening table and a section of
    # its own, and each of store's actions is shown. The names come from the parser, so a new one must be added.
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    headings = {line.removeprefix("## ") for line in text.splitlines() if line.startswith("## ")}
    table = text.split("\n\n| Command | What it does |\n", 1)[1].split("\n\n", 1)[0]
    rows = {row.split("`")[1].split()[0] for row in table.splitlines()[1:]}
    commands = _subcommands(_parser())
    assert {"validate", "canonicalize", "schema", "new", "store", "show"} <= set(commands)
    assert sorted(commands) == sorted(rows), "the table names every subcommand, and no other"
    assert set(commands) <= headings, f"no section for {sorted(set(commands) - headings)}"
    count = text.split(" subcommands:", 1)[0].rsplit(" ", 1)[1]
    assert count == {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}.get(len(commands))
    actions = _subcommands(commands["store"])
    assert set(actions) == {"ls", "show", "history", "export"}
    for action in actions:
        assert f"mplp-models store {action} " in text, f"store {action} is not shown"


def test_help_documents_exit_codes() -> None:
    for args in ((), ("validate",), ("canonicalize",)):
        text = run(*args, "--help").stdout.decode()
        assert "exit status:" in text and "2  usage error" in text


def test_usage_errors_are_exit_2() -> None:
    assert run().returncode == 2
    assert run("frobnicate").returncode == 2
    assert run("new", "spaceship").returncode == 2


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / "mplp-models"
    result = subprocess.run([str(script), "--version"], capture_output=True, timeout=60)
    assert result.stdout.decode().strip() == f"mplp-models {mm.__version__}"


def test_ndjson_lines_longer_than_a_read_block_keep_their_numbers(tmp_path: Path) -> None:
    from mplp_models._cli.validate import _BLOCK_BYTES

    huge = plan_document()
    huge["objective"] = "x" * (3 * _BLOCK_BYTES)
    rows = [json.dumps(plan_document()), json.dumps(huge), json.dumps({**huge, "status": "?"}), json.dumps(huge)]
    path = tmp_path / "long.ndjson"
    path.write_text("\n".join(rows))  # no newline after the last line
    for jobs in ("1", "2"):
        result = (run if jobs == "1" else spawn)("validate", "--ndjson", "--jobs", jobs, str(path))
        assert result.returncode == 1
        assert [line.split(": ")[0] for line in lines(result.stdout)] == [f"{path}:1", f"{path}:2", f"{path}:4"]
        assert lines(result.stderr)[0].startswith(f"{path}:3: invalid Plan: /status:")
        assert lines(result.stderr)[1].endswith(": 3 valid, 1 invalid (lines 3)")


def test_an_installed_wheel_reads_the_schemas_it_carries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mplp_models._schemas as schemas

    # pyproject puts schemas/ into the wheel at mplp_models/_schema_files ...
    assert '"schemas" = "mplp_models/_schema_files"' in (ROOT / "pyproject.toml").read_text()
    # ... and where that folder exists, it is what `schema` serves.
    packaged = tmp_path / "_schema_files" / "mplp" / "v1.0"
    packaged.mkdir(parents=True)
    (packaged / "mplp-plan.schema.json").write_bytes(b'{"packaged": true}')
    monkeypatch.setattr("mplp_models._schemas.resources.files", lambda package: tmp_path)
    assert schemas.schema_bytes("Plan") == b'{"packaged": true}'


# A document's own text in a verdict: an id with a newline and terminal codes (ids are any string).
FORGED = "e-1\nforged.ndjson:7: ok Plan forged\x1b[2J\u2028x"


def test_a_documents_text_cannot_forge_or_hide_a_verdict_line(tmp_path: Path) -> None:
    event: dict[str, object] = json.loads((PAYLOADS / "event-core.json").read_bytes())
    plan = plan_document()
    documents = [{**event, "event_id": FORGED}, {**plan, "x\ny": 1}]
    path = tmp_path / "forged.ndjson"
    path.write_bytes(b"".join(json.dumps(document).encode() + b"\n" for document in documents))
    result = run("validate", "--ndjson", str(path))
    assert result.returncode == 1
    out, err = result.stdout.decode(), result.stderr.decode()
    # One line per document (splitlines also splits at U+2028), and no terminal code.
    assert out.splitlines() == [f"{path}:1: ok EventCore e-1\\nforged.ndjson:7: ok Plan forged\\x1b[2J\\u2028x"]
    assert err.splitlines()[0] == f"{path}:2: invalid Plan: /x\\ny: Extra inputs are not permitted"
    assert len(err.splitlines()) == 2 and "\x1b" not in out + err  # the verdict, then the summary
    # The JSON records keep the text exactly.
    records = [
        json.loads(line) for line in run("validate", "--ndjson", "--format", "json", str(path)).stdout.splitlines()
    ]
    assert [record["id"] for record in records] == [FORGED, None]
    assert records[1]["errors"][0]["pointer"] == "/x\ny"
