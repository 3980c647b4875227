"""mplp_models.cortex: a Cortex project's inbox folder, on files the real client wrote and on generated messages."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CONFORMANCE, PAYLOADS, examples, shared_or_skip
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import mplp_models as mm
from mplp_models.cortex import (
    InboxEntry,
    message_file_bytes,
    message_path,
    read_inbox,
    transition,
    write_message,
)
from mplp_models.testing import code_inbox_messages, inbox_messages

CLIENT = ("cortex-inbox", "client-output")
CODE_INBOX = PAYLOADS / "code-inbox.json"
# What the client's `inbox send` and `inbox transition` wrote from a file in its own format.
CLIENT_FORMAT = ("send.json", "send-over-existing.json", "transition-read-of-sample.json")
ROUND_TRIP = settings(
    max_examples=examples(quick=25, deep=300),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def client_name(message_id: str) -> str:
    """The client's naming rule, written out independently of the module's."""
    return re.sub(r"[^A-Za-z0-9_.:-]+", "-", message_id) + ".json"


def as_the_client_rewrites(raw: bytes) -> bytes:
    """What the client writes back after reading a file: JSON.stringify(value, null, 2) and a newline."""
    return (json.dumps(json.loads(raw), indent=2, ensure_ascii=False) + "\n").encode()


def canonical(value: Any) -> bytes:
    return mm.canonical_json(value)


@pytest.fixture
def client_inbox(tmp_path: Path) -> Path:
    source = shared_or_skip(*CLIENT)
    for path in source.iterdir():
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


def by_name(entries: list[InboxEntry]) -> dict[str, InboxEntry]:
    return {entry.path.name: entry for entry in entries}


def problems(entry: InboxEntry) -> list[tuple[str, str]]:
    assert entry.error is not None
    return [(item["pointer"], item["code"]) for item in mm.errors_as_json(entry.error)]


# --- what the client wrote ---------------------------------------------------------------


def test_every_client_message_file_is_an_entry_and_the_index_is_not(client_inbox: Path) -> None:
    entries = by_name(read_inbox(client_inbox))
    assert set(entries) == {path.name for path in client_inbox.iterdir()} - {"index-after-transition.json"}
    kinds = {name: type(entry.message).__name__ for name, entry in entries.items() if entry.message is not None}
    assert kinds == {
        "send.json": "CodeInboxMessage",
        "send-over-existing.json": "CodeInboxMessage",
        "transition-read-of-sample.json": "InboxMessage",
        "transition-read-of-canonical-sample.json": "InboxMessage",
    }


def test_each_client_message_reads_back_losslessly_with_its_workflow_gate(client_inbox: Path) -> None:
    for entry in read_inbox(client_inbox):
        if entry.message is None:
            continue
        document = json.loads(entry.path.read_bytes())
        assert entry.workflow_gate == document["workflow_gate"]
        written = message_file_bytes(entry.message, entry.workflow_gate)
        assert canonical(json.loads(written)) == canonical(document), entry.path.name


def test_files_in_the_clients_format_are_written_back_byte_for_byte(client_inbox: Path) -> None:
    entries = by_name(read_inbox(client_inbox))
    for name in CLIENT_FORMAT:
        entry = entries[name]
        assert entry.message is not None
        assert message_file_bytes(entry.message, entry.workflow_gate) == (client_inbox / name).read_bytes()


def test_the_alert_without_artifact_refs_is_a_clear_error(client_inbox: Path) -> None:
    entry = by_name(read_inbox(client_inbox))["subagent-fanout-fail.json"]
    assert entry.message is None
    assert problems(entry) == [("/artifact_refs", "missing")]
    assert str(entry.error).startswith(f"1 validation error for {entry.path}")


def test_the_plain_models_still_refuse_the_workflow_gate(client_inbox: Path) -> None:
    with pytest.raises(ValidationError) as caught:
        mm.CodeInboxMessage.from_json((client_inbox / "send.json").read_bytes())
    assert [(e["loc"], e["type"]) for e in caught.value.errors()] == [(("workflow_gate",), "extra_forbidden")]
    with pytest.raises(ValidationError):
        mm.InboxMessage.from_json((client_inbox / "transition-read-of-sample.json").read_bytes())


def test_parse_tells_the_two_inbox_modes_apart(client_inbox: Path) -> None:
    sample = shared_or_skip("cortex-inbox", "sample.json").read_bytes()
    assert type(mm.parse(sample)) is mm.InboxMessage
    sent = json.loads((client_inbox / "send.json").read_bytes())
    del sent["workflow_gate"]
    assert type(mm.parse(sent)) is mm.CodeInboxMessage
    # Any key of the code mode's own makes it a code-mode message: the error names what it lacks.
    alert = json.loads((client_inbox / "subagent-fanout-fail.json").read_bytes())
    with pytest.raises(ValidationError) as caught:
        mm.parse(alert)
    assert caught.value.title == "CodeInboxMessage"


def test_a_client_transition_of_the_sdk_file_is_read(tmp_path: Path) -> None:
    # The client moved the shipped sample from its canonical bytes: sorted keys, its stamps appended.
    source = CONFORMANCE.joinpath(*CLIENT, "transition-read-of-canonical-sample.json")
    if not source.exists():
        pytest.skip("../shared is absent")
    shutil.copy(source, tmp_path / client_name("IM-M001-MS001-decision-request"))
    (entry,) = read_inbox(tmp_path)
    assert entry.message is not None and entry.message.status == "archived"
    assert entry.message.archived_at == entry.message.updated_at == "2026-11-30T15:27:18.941Z"


# --- what the SDK writes -----------------------------------------------------------------


@ROUND_TRIP
@given(message=st.one_of(code_inbox_messages(), inbox_messages()), gate=st.sampled_from([None, "workflow", "x"]))
def test_write_read_write_is_byte_for_byte(message: mm.CodeInboxMessage | mm.InboxMessage, gate: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = write_message(folder, message, workflow_gate=gate)
        assert path.name == client_name(message.message_id)
        raw = path.read_bytes()
        assert raw == as_the_client_rewrites(raw)  # the client's re-write changes nothing
        (entry,) = read_inbox(folder)
        assert (entry.path, entry.message, entry.workflow_gate, entry.error) == (path, message, gate, None)
        assert canonical(json.loads(raw)) == canonical(
            {**json.loads(message.to_json()), **({} if gate is None else {"workflow_gate": gate})}
        )
        assert message_file_bytes(message, entry.workflow_gate) == raw


def test_the_fixture_is_written_as_it_is_kept() -> None:
    assert message_file_bytes(mm.CodeInboxMessage.from_json(CODE_INBOX.read_bytes())) == CODE_INBOX.read_bytes()


def test_a_file_name_follows_the_clients_rule(tmp_path: Path) -> None:
    for message_id in ("IM-a.b_c-d", "IM-x:y", "a/b  c\u00e9", "IM-1.schema"):
        assert message_path(tmp_path, message_id) == tmp_path / client_name(message_id)


def test_a_message_whose_id_ends_in_schema_is_listed(tmp_path: Path) -> None:
    message = mm.CodeInboxMessage.from_json(CODE_INBOX.read_bytes())
    hidden = message.model_copy(update={"message_id": "IM-release.schema"})
    path = write_message(tmp_path, hidden)
    assert path.name == "IM-release.schema.json"  # a name the client skips
    assert [entry.message for entry in read_inbox(tmp_path)] == [hidden]


def test_a_copied_file_is_an_entry_of_its_own_not_an_error(tmp_path: Path) -> None:
    # docs/cortex-inbox.md: the same message id in two files is listed twice, and a move touches one file.
    message = mm.CodeInboxMessage.from_json((PAYLOADS / "code-inbox.json").read_bytes())
    path = write_message(tmp_path, message, workflow_gate="workflow")
    copy = shutil.copy(path, tmp_path / f"{path.stem} copy.json")
    entries = read_inbox(tmp_path)
    assert sorted(entry.path for entry in entries) == sorted([path, Path(copy)])
    assert all(entry.error is None and entry.message == message for entry in entries)
    assert [entry.workflow_gate for entry in entries] == ["workflow", "workflow"]
    moved = transition(tmp_path, message.message_id, "archived", at=message.updated_at)
    assert moved.path == path and Path(copy).read_bytes() != path.read_bytes()
    statuses = {entry.path.name: entry.message.status for entry in read_inbox(tmp_path) if entry.message is not None}
    assert statuses == {path.name: "archived", Path(copy).name: "read"}


def test_write_refuses_a_different_message_of_the_same_id(tmp_path: Path) -> None:
    message = mm.CodeInboxMessage.from_json(CODE_INBOX.read_bytes())
    path = write_message(tmp_path, message)
    assert write_message(tmp_path, message) == path  # the same message again
    other = message.model_copy(update={"subject": "changed"})
    with pytest.raises(FileExistsError, match="overwrite=True"):
        write_message(tmp_path, other)
    with pytest.raises(FileExistsError):
        write_message(tmp_path, message, workflow_gate="workflow")  # the gate is part of what the file holds
    assert read_inbox(tmp_path)[0].message == message
    write_message(tmp_path, other, overwrite=True)
    assert read_inbox(tmp_path)[0].message == other
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temporary file left behind


# --- transition --------------------------------------------------------------------------


def test_transition_takes_the_moment_as_plain_text(tmp_path: Path) -> None:
    # at= is RFC 3339 text, as the message's own transition takes it; kept as written, a Timestamp when read.
    at = "2026-12-01T09:00:00+01:00"
    message = mm.CodeInboxMessage.from_json((PAYLOADS / "code-inbox.json").read_bytes())
    assert message.status == "read"
    write_message(tmp_path, message)
    moved = transition(tmp_path, message.message_id, "acknowledged", at=at)
    assert moved.message is not None and type(moved.message.acknowledged_at) is mm.Timestamp
    assert (moved.message.updated_at, moved.message.acknowledged_at) == (at, at)
    assert json.loads(moved.path.read_bytes())["acknowledged_at"] == at
    with pytest.raises(ValueError):  # text that is no RFC 3339 date-time, refused as the message refuses it
        transition(tmp_path, message.message_id, "archived", at="yesterday")
    assert json.loads(moved.path.read_bytes())["status"] == "acknowledged"  # the file left as it was


def test_transition_stamps_as_the_client_and_keeps_the_gate(client_inbox: Path) -> None:
    at = mm.Timestamp("2026-12-01T08:00:00.000Z")
    name = client_name("IM-M001-MS001-decision-request")
    shutil.copy(client_inbox / "send.json", client_inbox / name)  # a code-mode message, unread
    moved = transition(client_inbox, "IM-M001-MS001-decision-request", "read", at=at)
    assert moved.path.name == name and moved.workflow_gate == "workflow"
    assert moved.message is not None
    assert (moved.message.status, moved.message.updated_at, moved.message.read_at) == ("read", at, at)
    raw = moved.path.read_bytes()
    assert json.loads(raw)["workflow_gate"] == "workflow" and raw == as_the_client_rewrites(raw)
    shutil.copy(client_inbox / "transition-read-of-sample.json", client_inbox / name)  # general mode, read
    moved = transition(client_inbox, "IM-M001-MS001-decision-request", "archived")
    assert moved.workflow_gate == "recipient" and isinstance(moved.message, mm.InboxMessage)
    stamp = moved.message.updated_at
    assert moved.message.archived_at == stamp and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", stamp)
    assert by_name(read_inbox(client_inbox))[name].message == moved.message
    shutil.copy(shared_or_skip("cortex-inbox", "sample.json"), client_inbox / name)  # no gate, as shipped
    moved = transition(client_inbox, "IM-M001-MS001-decision-request", "read", workflow_gate="recipient")
    assert moved.message is not None and moved.workflow_gate == "recipient"
    # What the client wrote when it moved the same file, but for the moment of the move.
    recorded = json.loads((client_inbox / "transition-read-of-sample.json").read_bytes())
    stamped = {**recorded, "updated_at": moved.message.updated_at, "read_at": moved.message.read_at}
    assert moved.path.read_bytes() == as_the_client_rewrites(json.dumps(stamped).encode())


def test_transition_refuses_what_the_lifecycle_or_the_folder_does_not_have(tmp_path: Path) -> None:
    message = mm.CodeInboxMessage.from_json(CODE_INBOX.read_bytes())
    write_message(tmp_path, message)
    with pytest.raises(ValueError, match="read"):
        transition(tmp_path, message.message_id, "unread")
    with pytest.raises(FileNotFoundError):
        transition(tmp_path, "IM-nobody", "read")
    (tmp_path / "IM-broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(ValidationError):
        transition(tmp_path, "IM-broken", "read")


# --- the key order of a moved file -------------------------------------------------------


def as_the_client_moves(raw: bytes, to: str, at: str, gate: str | None) -> bytes:
    """What the client's ``inbox transition`` writes, written out from its recorded files: it assigns
    to the object it read (a member it had keeps its place, a new one goes last; a Python dict does
    the same), the gate before the status's stamp, and writes it as it writes every file."""
    document = json.loads(raw)
    document["status"] = to
    document["updated_at"] = at
    if gate is not None:
        document["workflow_gate"] = gate
    document[f"{to}_at"] = at
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode()


def test_the_clients_moves_are_reproduced_byte_for_byte(tmp_path: Path) -> None:
    name = client_name("IM-M001-MS001-decision-request")
    sample = shared_or_skip("cortex-inbox", "sample.json").read_bytes()
    recorded = CONFORMANCE.joinpath(*CLIENT)
    # The shipped sample moved to read; the same sample as canonical JSON (sorted keys) moved
    # to read and then archived, with the moments the client stamped.
    moves = [
        (sample, [("read", "2026-11-30T15:25:29.998Z")], "transition-read-of-sample.json"),
        (
            canonical(json.loads(sample)),
            [("read", "2026-11-30T15:25:31.788Z"), ("archived", "2026-11-30T15:27:18.941Z")],
            "transition-read-of-canonical-sample.json",
        ),
    ]
    for start, steps, expected in moves:
        (tmp_path / name).write_bytes(start)
        for to, at in steps:
            transition(tmp_path, "IM-M001-MS001-decision-request", to, at=mm.Timestamp(at), workflow_gate="recipient")  # type: ignore[arg-type]
        assert (tmp_path / name).read_bytes() == (recorded / expected).read_bytes(), expected


KEY_ORDERS = settings(max_examples=examples(quick=25, deep=300), deadline=None, database=None)


@KEY_ORDERS
@given(
    order=st.permutations(list(json.loads(CODE_INBOX.read_bytes()))),
    stamps=st.sampled_from([{}, {"read_at": None}, {"read_at": None, "archived_at": None}]),
    gate=st.sampled_from([None, "workflow"]),
    given_gate=st.sampled_from([None, "recipient"]),
)
def test_a_move_keeps_the_files_key_order_and_appends_as_the_client(
    order: list[str], stamps: dict[str, None], gate: str | None, given_gate: str | None
) -> None:
    fixture = json.loads(CODE_INBOX.read_bytes())
    document = {key: fixture[key] for key in order if key not in ("read_at", "acknowledged_at", "archived_at")}
    document.update(status="unread", updated_at=document["created_at"], **stamps)
    if gate is not None:
        document["workflow_gate"] = gate
    raw = json.dumps(document, indent=2, ensure_ascii=False).encode() + b"\n"
    at = "2026-08-03T10:00:00.000Z"
    with tempfile.TemporaryDirectory() as folder:
        path = message_path(folder, document["message_id"])
        path.write_bytes(raw)
        moved = transition(folder, document["message_id"], "read", at=mm.Timestamp(at), workflow_gate=given_gate)
        assert path.read_bytes() == as_the_client_moves(raw, "read", at, given_gate or gate)
        assert moved.message is not None
        assert message_file_bytes(moved.message, moved.workflow_gate, previous=raw) == path.read_bytes()
        # A file that already holds the message is written back as it is, whatever its order.
        assert write_message(folder, moved.message, workflow_gate=moved.workflow_gate) == path
        assert path.read_bytes() == as_the_client_moves(raw, "read", at, given_gate or gate)


# What the client's `inbox send` was measured to accept against its own schema (docs/cortex-inbox.md):
# each is a file that read_inbox lists with the schema's error at its pointer, not a message.
CLIENT_SENDS_AGAINST_ITS_SCHEMA: dict[str, tuple[dict[str, Any], tuple[str, str]]] = {
    "id-without-prefix": ({"message_id": "M-001-handoff"}, ("/message_id", "string_pattern_mismatch")),
    "duplicate-recipient": ({"recipient_ids": ["coordinator", "coordinator"]}, ("/recipient_ids", "unique_items")),
    "long-subject": ({"subject": "s" * 201}, ("/subject", "string_too_long")),
    "duplicate-artifact": ({"artifact_refs": ["a.md", "a.md"]}, ("/artifact_refs", "unique_items")),
    "long-body": ({"body": "b" * 4001}, ("/body", "string_too_long")),
}


def test_what_the_client_sends_against_its_schema_is_an_entry_with_the_schemas_error(tmp_path: Path) -> None:
    base = json.loads(CODE_INBOX.read_bytes())
    for name, (change, _) in CLIENT_SENDS_AGAINST_ITS_SCHEMA.items():
        (tmp_path / f"{name}.json").write_text(json.dumps({**base, **change}), encoding="utf-8")
    found = {entry.path.stem: problems(entry) for entry in read_inbox(tmp_path)}
    assert found == {name: [problem] for name, (_, problem) in CLIENT_SENDS_AGAINST_ITS_SCHEMA.items()}


def test_body_length_counts_characters_not_utf16_units() -> None:
    base = json.loads(CODE_INBOX.read_bytes())
    emoji = "\U0001f600"  # one character, two UTF-16 units: the client counts 8,000 for the body below
    message = mm.CodeInboxMessage.model_validate({**base, "body": emoji * 4000})
    assert len(message.body) == 4000 and len(message.body.encode("utf-16-le")) // 2 == 8000
    with pytest.raises(ValidationError, match="at most 4000 characters"):
        mm.CodeInboxMessage.model_validate({**base, "body": emoji * 4001})


def test_a_move_stamped_before_the_message_was_created_is_refused_and_the_file_kept(tmp_path: Path) -> None:
    # Another machine's clock ahead of this one's: the message was created "in the future".
    document = json.loads(CODE_INBOX.read_bytes())
    del document["read_at"]
    future = "2099-01-01T00:00:00.000Z"
    document.update(status="unread", created_at=future, updated_at=future)
    path = write_message(tmp_path, mm.CodeInboxMessage.model_validate(document))
    raw = path.read_bytes()
    with pytest.raises(mm.EditError) as caught:  # a move is an edit: refused as every edit is
        transition(tmp_path, document["message_id"], "read")  # stamped with this machine's now
    assert [(item["pointer"], item["code"]) for item in caught.value.errors()] == [
        ("/updated_at", "before_created"),
        ("/read_at", "before_created"),
    ]
    assert path.read_bytes() == raw
    moved = transition(tmp_path, document["message_id"], "read", at=mm.Timestamp(future))  # a stamp of its own
    assert moved.message is not None and moved.message.read_at == future


def test_previous_must_hold_a_json_object() -> None:
    message = mm.CodeInboxMessage.from_json(CODE_INBOX.read_bytes())
    fresh = message_file_bytes(message)
    assert message_file_bytes(message, previous=b"{}") == fresh  # nothing to keep: the client's send order
    assert message_file_bytes(message, previous=b'{"zzz": 1, "body": 2}').startswith(b'{\n  "body"')
    for previous in (b"[]", b"1", b"not json"):
        with pytest.raises(ValueError):
            message_file_bytes(message, previous=previous)


# --- bad input ---------------------------------------------------------------------------

BAD_FILES: dict[str, tuple[bytes, list[tuple[str, str]]]] = {
    "not-json.json": (b"IM-1 read", [("", "json_invalid")]),
    "bom.json": (b"\xef\xbb\xbf{}", [("", "json_bom")]),
    "array.json": (b"[{}]", [("", "payload_type")]),
    "duplicate.json": (b'{"message_id": "IM-a", "message_id": "IM-b"}', [("/message_id", "json_duplicate_key")]),
    "gate.json": (b'{"message_id": "IM-a", "workflow_gate": 3}', [("/workflow_gate", "string_type")]),
    "null-gate.json": (b'{"message_id": "IM-a", "workflow_gate": null}', [("/workflow_gate", "string_type")]),
    "plan.json": ((PAYLOADS / "plan.json").read_bytes(), [("", "payload_kind")]),
}


def test_bad_files_are_entries_with_their_file_and_pointer(tmp_path: Path) -> None:
    base = json.loads(CODE_INBOX.read_bytes())
    files = {
        **BAD_FILES,
        "extra.json": (json.dumps({**base, "priority": "high"}).encode(), [("/priority", "extra_forbidden")]),
        "rule.json": (json.dumps({**base, "read_at": None}).encode(), [("/read_at", "status_stamp_missing")]),
        "schema.json": (json.dumps({**base, "subject": ""}).encode(), [("/subject", "string_too_short")]),
    }
    for name, (raw, _) in files.items():
        (tmp_path / name).write_bytes(raw)
    entries = read_inbox(tmp_path)
    assert len(entries) == len(files)
    for entry in entries:
        assert entry.message is None and entry.error is not None
        assert problems(entry) == files[entry.path.name][1], entry.path.name
        assert entry.error.title == str(entry.path)


def test_schemas_and_the_index_are_not_messages(tmp_path: Path) -> None:
    shutil.copy(shared_or_skip("cortex-inbox", "code-mode", "index.schema.json"), tmp_path / "index.schema.json")
    (tmp_path / "index.json").write_text('{"messages": []}\n', encoding="utf-8")
    assert read_inbox(tmp_path) == []


# --- order -------------------------------------------------------------------------------


def test_newest_first_by_the_instant_not_the_text(tmp_path: Path) -> None:
    message = mm.CodeInboxMessage.from_json(CODE_INBOX.read_bytes())
    created = "2026-08-02T00:00:00Z"
    # 10:00+05:00 is 05:00Z: earlier than 06:00Z, though its text sorts after it.
    stamps = {"IM-early": "2026-08-02T10:00:00+05:00", "IM-late": "2026-08-02T06:00:00Z"}
    for message_id, stamp in stamps.items():
        moved = message.model_copy(
            update={"message_id": message_id, "created_at": created, "updated_at": stamp, "read_at": stamp}
        )
        write_message(tmp_path, mm.CodeInboxMessage.model_validate(moved.model_dump()))
    (tmp_path / "IM-bad.json").write_text("[]", encoding="utf-8")
    assert [entry.path.name for entry in read_inbox(tmp_path)] == ["IM-late.json", "IM-early.json", "IM-bad.json"]


def test_code_mode_rules_hold() -> None:
    document = json.loads(CODE_INBOX.read_bytes())
    with pytest.raises(ValidationError, match="read_at is not set"):
        mm.CodeInboxMessage.model_validate({**document, "read_at": None})
    with pytest.raises(ValidationError, match="before created_at"):
        mm.CodeInboxMessage.model_validate({**document, "updated_at": "2026-08-01T00:00:00Z"})
    message = mm.CodeInboxMessage.model_validate(document)
    assert message.transition("archived", at=mm.Timestamp("2026-08-03T00:00:00Z")).archived_at == "2026-08-03T00:00:00Z"
    # The code mode has no broadcast rule: "broadcast" may stand beside other recipients.
    assert mm.CodeInboxMessage.model_validate({**document, "recipient_ids": ["broadcast", "coordinator"]})


def test_without_hard_links_a_new_file_is_still_written_whole_and_never_over_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_links(source: object, target: object) -> None:
        raise PermissionError("hard links are not supported here")

    monkeypatch.setattr("os.link", no_links)
    message = mm.CodeInboxMessage.from_json(CODE_INBOX.read_bytes())
    path = write_message(tmp_path, message)
    assert path.read_bytes() == CODE_INBOX.read_bytes()
    with pytest.raises(FileExistsError):
        write_message(tmp_path, message.model_copy(update={"subject": "changed"}))
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_a_missing_folder_is_an_error_not_an_empty_inbox(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_inbox(tmp_path / "nowhere")


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32", reason="needs POSIX symbolic links")
def test_links_that_lead_nowhere_are_entries_that_say_they_are_links(tmp_path: Path) -> None:
    message = mm.CodeInboxMessage.from_json(CODE_INBOX.read_bytes())
    write_message(tmp_path, message)
    (tmp_path / "loop.json").symlink_to(tmp_path / "loop.json")
    (tmp_path / "dangling.json").symlink_to(tmp_path / "gone.json")
    (tmp_path / "folder.json").mkdir()
    entries = by_name(read_inbox(tmp_path))
    assert set(entries) == {message_path(tmp_path, message.message_id).name, "loop.json", "dangling.json"}
    for name in ("loop.json", "dangling.json"):
        error = entries[name].error
        assert error is not None and error.title == str(tmp_path / name)
        assert problems(entries[name]) == [("", "file_link")]  # never followed, so never found dangling


@pytest.fixture
def umask_027() -> Iterator[None]:
    before = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(before)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
@pytest.mark.usefixtures("umask_027")
def test_written_files_have_the_mode_of_any_new_file_or_keep_the_one_they_replace(tmp_path: Path) -> None:
    message = mm.CodeInboxMessage.from_json(CODE_INBOX.read_bytes())
    path = write_message(tmp_path, message)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    path.chmod(0o644)
    write_message(tmp_path, message.model_copy(update={"subject": "changed"}), overwrite=True)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    path.chmod(0o604)
    transition(tmp_path, message.message_id, "archived")
    assert stat.S_IMODE(path.stat().st_mode) == 0o604
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


@pytest.mark.parametrize(
    ("gate", "code"), [(3, "string_type"), (b"gate", "string_type"), ("a\ud800", "string_unicode")]
)
def test_a_gate_the_reader_would_refuse_is_refused_before_anything_is_written(
    tmp_path: Path, gate: object, code: str
) -> None:
    message = mm.CodeInboxMessage.from_json(CODE_INBOX.read_bytes())
    path = write_message(tmp_path, message, workflow_gate="recipient")
    before = path.read_bytes()
    writes = [
        lambda: write_message(tmp_path, message, workflow_gate=gate, overwrite=True),  # type: ignore[arg-type]
        lambda: transition(tmp_path, message.message_id, "archived", workflow_gate=gate),  # type: ignore[arg-type]
    ]
    for write in writes:
        with pytest.raises(ValidationError) as caught:
            write()
        assert [(item["pointer"], item["code"]) for item in mm.errors_as_json(caught.value)] == [
            ("/workflow_gate", code)
        ]
        assert path.read_bytes() == before
        assert [p.name for p in tmp_path.iterdir()] == [path.name]
