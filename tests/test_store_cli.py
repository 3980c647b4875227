"""``mplp-models store ls|show|history|export`` over a SQLite path and a PostgreSQL connection string."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from postgres_server import fresh_schema

import mplp_models as mm
from mplp_models._cli.main import main
from mplp_models.store import open_store

AT = "2026-03-01T09:00:00Z"


@pytest.fixture(params=["sqlite", "postgres"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite")
    conninfo: str = request.getfixturevalue("postgres_conninfo")
    return fresh_schema(conninfo)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        status = main(list(args))
    except SystemExit as stop:  # argparse's usage errors
        status = stop.code if isinstance(stop.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def stored_session(location: str) -> tuple[mm.Context, mm.Plan, mm.Plan, mm.Confirm, mm.Context]:
    context = mm.Context.new("Release", domain="release", environment="production", at=AT)
    plan = mm.Plan.new(context, title="Ship", objective="Release it", steps=["Build"], at=AT)
    confirm = mm.Confirm.request(plan, requested_by_role="owner", at=AT)
    other = mm.Context.new("Other", domain="other", environment="development", at=AT)
    with open_store(location) as store:
        for document in (context, plan, confirm, other):
            store.put(document)
        store.update(mm.Plan, plan.plan_id, lambda p: p.transition("proposed"))
        latest = store.get(mm.Plan, plan.plan_id)
    return context, plan, latest, confirm, other


def test_ls_show_history(location: str, capsys: pytest.CaptureFixture[str]) -> None:
    context, plan, latest, confirm, other = stored_session(location)
    with open_store(location) as store:
        versions = store.history(mm.Plan, plan.plan_id)
        heads = store.latest()
    status, out, err = run(capsys, "store", "ls", location)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert [line.split()[:3] for line in lines] == [
        ["Plan", plan.plan_id, "v2"],
        ["Context", *sorted([f"{context.context_id} v1", f"{other.context_id} v1"])[0].split()],
        ["Context", *sorted([f"{context.context_id} v1", f"{other.context_id} v1"])[1].split()],
        ["Confirm", confirm.confirm_id, "v1"],
    ]
    assert lines[0].split()[3] == versions[1].sha256 and lines[0].endswith("Z")
    status, out, _ = run(capsys, "store", "ls", location, "--kind", "Context", "--format", "json")
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["kind"], r["version"]) for r in records] == [("Context", 1), ("Context", 1)]
    assert {r["sha256"] for r in records} == {v.sha256 for v in heads if v.kind == "Context"}
    status, out, _ = run(capsys, "store", "ls", location, "--context", context.context_id)
    assert sorted(line.split()[1] for line in out.splitlines()) == sorted(
        [plan.plan_id, context.context_id, confirm.confirm_id]
    )
    status, out, _ = run(capsys, "store", "history", location, plan.plan_id)
    assert out.splitlines() == [
        f"v{v.number} {v.sha256} {v.written_at.isoformat().replace('+00:00', 'Z')}" for v in versions
    ]
    status, out, _ = run(capsys, "store", "show", location, plan.plan_id)
    assert (status, out) == (0, latest.to_json().decode())
    status, out, _ = run(capsys, "store", "show", location, plan.plan_id, "--version", "1")
    assert out == plan.to_json().decode()


def test_export_writes_a_folder_validate_flow_accepts(
    location: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    context, _, latest, confirm, _ = stored_session(location)
    folder = tmp_path / "session"
    status, out, err = run(capsys, "store", "export", location, str(folder), "--context", context.context_id)
    assert (status, err) == (0, "")
    assert out.splitlines() == [str(folder / name) for name in ("plan.json", "context.json", "confirm.json")]
    assert mm.load_flow(folder) == {"plan.json": latest, "context.json": context, "confirm.json": confirm}
    status, out, err = run(capsys, "validate", "--flow", str(folder))
    assert (status, err) == (0, "")
    assert "flow confirm_target_plan: holds (1 checked)" in out.splitlines()
    status, _, err = run(capsys, "store", "export", location, str(folder))  # every document: two contexts
    assert status == 2 and "nothing was written" in err
    status, out, _ = run(capsys, "store", "export", location, str(tmp_path / "all"))
    assert len(out.splitlines()) == 4 and "context-" in out


def test_export_into_a_folder_it_wrote_names_the_option(
    location: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # docs/cli.md: export replaces the files with --overwrite, the command's option (save_flow's: overwrite=True).
    context, *_ = stored_session(location)
    folder = str(tmp_path / "session")
    assert run(capsys, "store", "export", location, folder, "--context", context.context_id)[0] == 0
    status, out, err = run(capsys, "store", "export", location, folder, "--context", context.context_id)
    assert (status, out) == (2, "")
    assert err.startswith(f"mplp-models: store export: {folder}: holds ") and err.endswith("(--overwrite replaces)\n")
    assert "overwrite=True" not in err
    with pytest.raises(FileExistsError, match=r"\(overwrite=True replaces\)"):  # the Python API keeps its own word
        mm.save_flow([context], folder)
    status, out, err = run(capsys, "store", "export", location, folder, "--context", context.context_id, "--overwrite")
    assert (status, err) == (0, "") and len(out.splitlines()) == 3


def test_export_onto_an_entry_it_never_replaces_names_that_entry(
    location: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    context, *_ = stored_session(location)
    folder = tmp_path / "session"
    (folder / "plan.json").mkdir(parents=True)  # where export would write the plan
    args = ("store", "export", location, str(folder), "--context", context.context_id, "--overwrite")
    status, out, err = run(capsys, *args)
    assert (status, out) == (2, "")
    entry = folder / "plan.json"
    assert (
        err
        == f"mplp-models: store export: {entry}: is not a regular file, which is never replaced; nothing was written\n"
    )


def test_errors(location: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, plan, *_ = stored_session(location)
    missing = mm.new_id()
    for action in ("show", "history"):
        status, out, err = run(capsys, "store", action, location, missing)
        assert (status, out) == (2, "") and err.startswith("mplp-models: no document ") and missing in err
    status, _, err = run(capsys, "store", "show", location, plan.plan_id, "--version", "9")
    assert status == 2 and "no version 9" in err
    status, _, err = run(capsys, "store", "show", location, plan.plan_id, "--version", "0")
    assert status == 2 and "must be 1 or more" in err
    status, _, err = run(capsys, "store", "ls", str(tmp_path / "typo.sqlite"))
    assert status == 2 and "cannot open the store" in err and not (tmp_path / "typo.sqlite").exists()
    status, _, err = run(capsys, "store", "ls", location, "--kind", "PlanStep")
    assert status == 2 and "invalid choice" in err
    # docs/cli.md: a path that is no store is status 2; an id the command line could not decode names no document.
    (tmp_path / "notes.txt").write_text("hello\n")
    status, _, err = run(capsys, "store", "ls", str(tmp_path / "notes.txt"))
    assert status == 2 and "not a store" in err
    status, out, err = run(capsys, "store", "show", location, "\udcff")
    assert (status, out) == (2, "") and err.startswith("mplp-models: no document ")
    status, out, err = run(capsys, "store", "ls", location, "--context", "\udcff")
    assert (status, out) == (2, "") and err.startswith("mplp-models: no context ")


def test_an_unknown_context_is_exit_2(location: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # docs/cli.md: status 2 for no such store, document or context; an empty listing would read as an empty session.
    context, *_ = stored_session(location)
    missing = mm.new_id()
    status, out, err = run(capsys, "store", "ls", location, "--context", missing)
    assert (status, out) == (2, "") and err.startswith("mplp-models: no context ") and missing in err
    folder = tmp_path / "session"
    status, out, err = run(capsys, "store", "export", location, str(folder), "--context", missing)
    assert (status, out) == (2, "") and err.startswith("mplp-models: no context ") and missing in err
    assert not folder.exists()  # nothing was written, not even the folder
    # A known context whose session has no document of the kind asked is an empty listing, not an error.
    assert run(capsys, "store", "ls", location, "--context", context.context_id, "--kind", "Role") == (0, "", "")


def test_a_damaged_document_is_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    location = str(tmp_path / "store.sqlite")
    _, plan, *_ = stored_session(location)
    with sqlite3.connect(location) as connection:
        connection.execute("UPDATE mplp_documents SET body = body || ' ' WHERE id = ?", (plan.plan_id,))
    status, out, err = run(capsys, "store", "show", location, plan.plan_id)
    assert (status, out) == (1, "") and "a damaged row" in err
    status, out, _ = run(capsys, "store", "show", location, plan.plan_id, "--version", "1")
    assert (status, out) == (0, plan.to_json().decode())
