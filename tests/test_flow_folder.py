"""``mm.save_flow`` / ``mm.load_flow``: a session as the folder that ``mplp-models validate --flow`` reads."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import mplp_models as mm
from mplp_models._cli.main import main

AT = "2026-03-01T09:00:00Z"


def linked_session() -> tuple[mm.Context, mm.Plan, mm.Confirm, mm.Trace]:
    context = mm.Context.new("Release", domain="release", environment="production", at=AT)
    plan = mm.Plan.new(context, title="Ship", objective="Release it", steps=["Build", "Test"], at=AT)
    return (
        context,
        plan,
        mm.Confirm.request(plan, requested_by_role="owner", at=AT),
        mm.Trace.start(context, plan, at=AT),
    )


def test_a_session_round_trips_and_validate_flow_accepts_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    documents = linked_session()
    folder = tmp_path / "made" / "session"  # made, with its parent
    written = mm.save_flow(documents, folder)
    names = ["context.json", "plan.json", "confirm.json", "trace.json"]
    assert written == [folder / name for name in names]
    assert sorted(os.listdir(folder)) == sorted(names)  # no temporary file left
    for name, document in zip(names, documents):
        assert (folder / name).read_bytes() == document.to_json()
    loaded = mm.load_flow(folder)
    assert loaded == dict(zip(names, documents)) and list(loaded) == sorted(names)
    assert mm.check_flow(loaded) == []
    # Trace.start records trace.started, so the builders' session meets the single-agent profile
    assert main(["validate", "--flow", str(folder), "--profile", "sa"]) == 0
    capsys.readouterr()
    assert main(["validate", "--flow", str(folder)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and f"{folder / 'plan.json'}: ok Plan {documents[1].plan_id}" in out.splitlines()


def test_documents_of_one_kind_are_named_by_their_ids(tmp_path: Path) -> None:
    context, plan, *_ = linked_session()
    other = mm.Plan.new(context, title="Other", objective="Another plan", steps=["One"], at=AT)
    mm.save_flow([context, plan, other], tmp_path)
    assert sorted(os.listdir(tmp_path)) == sorted(
        ["context.json", f"plan-{plan.plan_id}.json", f"plan-{other.plan_id}.json"]
    )
    mm.save_flow({"a.json": context, "b-2.json": plan}, tmp_path / "named")
    assert mm.load_flow(tmp_path / "named") == {"a.json": context, "b-2.json": plan}


@pytest.mark.parametrize("name", ["plan", "../plan.json", ".hidden.json", "a/b.json", "plan.JSON", ""])
def test_a_name_that_is_no_file_name_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match="no file name save_flow writes"):
        mm.save_flow({name: linked_session()[0]}, tmp_path / "out")
    assert not (tmp_path / "out").exists() or os.listdir(tmp_path / "out") == []


def test_what_is_no_document_is_refused(tmp_path: Path) -> None:
    _, plan, *_ = linked_session()
    with pytest.raises(TypeError, match="not dict"):
        mm.save_flow({"plan.json": plan.to_dict()}, tmp_path)  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="not PlanStep"):
        mm.save_flow([plan.steps[0]], tmp_path)  # type: ignore[list-item]
    assert os.listdir(tmp_path) == []


def test_a_folder_with_documents_is_replaced_only_when_asked_and_never_beyond_the_session(tmp_path: Path) -> None:
    context, plan, *_ = linked_session()
    mm.save_flow([context, plan], tmp_path)
    moved = plan.transition("proposed")
    with pytest.raises(FileExistsError, match=r"holds context.json, plan.json; nothing was written"):
        mm.save_flow([context, moved], tmp_path)
    assert (tmp_path / "plan.json").read_bytes() == plan.to_json()
    mm.save_flow([context, moved], tmp_path, overwrite=True)
    assert mm.load_flow(tmp_path) == {"context.json": context, "plan.json": moved}
    (tmp_path / "notes.json").write_text("{}", encoding="utf-8")
    with pytest.raises(FileExistsError, match=r"holds notes.json, which the session does not name"):
        mm.save_flow([context, plan], tmp_path, overwrite=True)
    assert (tmp_path / "plan.json").read_bytes() == moved.to_json()  # nothing written


def test_no_symbolic_link_is_followed(tmp_path: Path) -> None:
    context, plan, *_ = linked_session()
    outside = tmp_path / "outside.json"
    outside.write_bytes(b"kept")
    folder = tmp_path / "session"
    folder.mkdir()
    (folder / "plan.json").symlink_to(outside)
    with pytest.raises(OSError, match="is a symbolic link, which is never replaced"):
        mm.save_flow([context, plan], folder, overwrite=True)
    assert outside.read_bytes() == b"kept" and sorted(os.listdir(folder)) == ["plan.json"]
    with pytest.raises(ValueError, match=r"plan.json: a symbolic link"):
        mm.load_flow(folder)
    (tmp_path / "link").symlink_to(folder)
    with pytest.raises(OSError, match="symbolic link"):
        mm.save_flow([context], tmp_path / "link", overwrite=True)
    with pytest.raises(OSError, match="symbolic link"):
        mm.load_flow(tmp_path / "link")


def test_a_folder_named_json_is_no_room_for_a_session(tmp_path: Path) -> None:
    # load_flow would refuse the folder written beside it: save_flow refuses first, writing nothing.
    context, plan, *_ = linked_session()
    (tmp_path / "notes.json").mkdir()
    with pytest.raises(FileExistsError, match=r"holds notes.json; nothing was written \(overwrite=True replaces\)"):
        mm.save_flow([context, plan], tmp_path)
    with pytest.raises(FileExistsError, match=r"holds notes.json, which the session does not name"):
        mm.save_flow([context, plan], tmp_path, overwrite=True)
    (tmp_path / "notes.json").rmdir()
    (tmp_path / "plan.json").mkdir()
    with pytest.raises(OSError, match="is not a regular file, which is never replaced"):
        mm.save_flow([context, plan], tmp_path, overwrite=True)
    assert os.listdir(tmp_path) == ["plan.json"]


def test_load_flow_is_all_or_nothing(tmp_path: Path) -> None:
    context, plan, *_ = linked_session()
    mm.save_flow([context, plan], tmp_path)
    (tmp_path / "broken.json").write_text('{"plan_id": "x"}', encoding="utf-8")
    (tmp_path / "junk.json").write_bytes(b"\xff not json")
    (tmp_path / "folder.json").mkdir()  # a folder named *.json is no document, as validate --flow says too
    (tmp_path / "notes.txt").write_text("not read", encoding="utf-8")
    with pytest.raises(ValueError) as raised:
        mm.load_flow(tmp_path)
    message = str(raised.value)
    assert message.startswith(f"{tmp_path}: nothing loaded: broken.json: invalid Plan: ")
    assert "; folder.json: a folder, not a document file; junk.json: invalid " in message
    assert "context.json" not in message
    (tmp_path / "broken.json").unlink()
    (tmp_path / "junk.json").unlink()
    assert mm.load_flow(tmp_path / "folder.json") == {}
    with pytest.raises(ValueError, match=r"nothing loaded: folder.json: a folder, not a document file$"):
        mm.load_flow(tmp_path)
    (tmp_path / "folder.json").rmdir()
    assert mm.load_flow(tmp_path) == {"context.json": context, "plan.json": plan}
    with pytest.raises(FileNotFoundError):
        mm.load_flow(tmp_path / "missing")
