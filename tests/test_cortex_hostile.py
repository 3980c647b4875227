"""mplp_models.cortex on a hostile inbox folder: links, pipes, huge files, racing writers and killed ones.

The cases that could hang or exhaust memory run in a child process under a memory cap
(``RLIMIT_AS``) and a timeout, so a regression fails the test instead of the machine.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import PAYLOADS
from pydantic import ValidationError

import mplp_models as mm
from mplp_models.cortex import (
    MAX_FILE_BYTES,
    InboxEntry,
    message_file_bytes,
    message_path,
    read_inbox,
    transition,
    write_message,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX links, pipes, locks and signals")

CODE_INBOX = PAYLOADS / "code-inbox.json"
MESSAGE_ID = "IM-M001-MS002-handoff"  # the fixture's
SECRET = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"
MIB = 1 << 20
# Room for the interpreter, pydantic and the package (about 40 MB mapped at start), and no more than
# a small multiple of the size limit: a reader that loaded a 1 GiB file would hit it.
MEMORY_CAP = 512 * MIB
TIMEOUT = 60  # seconds; a case that is not over by then hangs (a pipe opened blocking waits forever)


def handoff() -> mm.CodeInboxMessage:
    return mm.CodeInboxMessage.from_json(CODE_INBOX.read_bytes())


def codes(entry: InboxEntry) -> list[tuple[str, str]]:
    assert entry.error is not None
    return [(item["pointer"], item["code"]) for item in mm.errors_as_json(entry.error)]


def by_name(entries: list[InboxEntry]) -> dict[str, InboxEntry]:
    return {entry.path.name: entry for entry in entries}


def everything_said(entry: InboxEntry) -> str:
    """Every text an error of the entry shows: its message, its JSON form, its repr."""
    assert entry.error is not None
    return "\n".join((str(entry.error), repr(entry.error), json.dumps(mm.errors_as_json(entry.error))))


def names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def in_a_child(script: str, *, memory: int = MEMORY_CAP, timeout: float = TIMEOUT) -> Any:
    """Run ``script`` in a child Python under a memory cap and a timeout; the JSON it prints last."""
    prelude = textwrap.dedent(f"""
        import json, os, resource, sys
        resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))
        sys.path.insert(0, {str(Path(__file__).parent)!r})
    """)
    done = subprocess.run(  # our own interpreter and script
        [sys.executable, "-c", prelude + textwrap.dedent(script)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


# --- links ------------------------------------------------------------------------------


def test_a_link_is_an_entry_that_says_so_and_what_it_leads_to_is_never_read_nor_quoted(tmp_path: Path) -> None:
    inbox, outside = tmp_path / "inbox", tmp_path / "home"
    inbox.mkdir()
    outside.mkdir()
    key = outside / "id_ed25519"
    key.write_text(SECRET + "\n", encoding="utf-8")
    real = write_message(inbox, handoff())
    (inbox / "key.json").symlink_to(key)
    (inbox / "alias.json").symlink_to(real.name)  # the same message under a second name
    (inbox / "home.json").symlink_to(outside)  # a folder
    links = {"key.json", "alias.json", "home.json"}
    if Path("/proc/self/environ").exists():
        (inbox / "environ.json").symlink_to("/proc/self/environ")
        links.add("environ.json")
    entries = read_inbox(inbox)
    assert [entry.path.name for entry in entries if entry.message is not None] == [real.name]  # listed once
    found = by_name(entries)
    assert set(found) == {real.name, *links}
    environment = "\n".join(f"{name}={value}" for name, value in os.environ.items())
    for name in links:
        assert codes(found[name]) == [("", "file_link")], name
        said = everything_said(found[name])
        assert "symbolic link" in said
        for secret in (SECRET[:20], "b3Blbn", str(key), str(outside)):
            assert secret not in said, (name, secret)
        assert not any(line and line in said for line in environment.splitlines() if len(line) > 12), name


def test_no_write_goes_through_a_link_nor_takes_its_targets_mode(tmp_path: Path) -> None:
    inbox, outside = tmp_path / "inbox", tmp_path / "elsewhere"
    inbox.mkdir()
    outside.mkdir()
    target = outside / "tool"
    target.write_bytes(b"#!/bin/sh\n")
    target.chmod(0o4755)  # setuid
    link = message_path(inbox, MESSAGE_ID)
    link.symlink_to(target)
    message = handoff()
    with pytest.raises(FileExistsError):
        write_message(inbox, message)
    with pytest.raises(OSError, match="symbolic link") as caught:
        write_message(inbox, message, overwrite=True)
    assert caught.value.errno == errno.ELOOP
    with pytest.raises(ValidationError) as refused:
        transition(inbox, MESSAGE_ID, "archived")
    assert [e["code"] for e in mm.errors_as_json(refused.value)] == ["file_link"]
    # Nothing changed: the link, what it leads to, its mode; no temporary file is left.
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_bytes() == b"#!/bin/sh\n" and stat.S_IMODE(target.stat().st_mode) == 0o4755
    assert names(inbox) == [link.name]


@pytest.mark.parametrize("mode", [0o4755, 0o2750, 0o1644, 0o6777])
def test_a_replaced_file_keeps_its_permission_bits_but_never_setuid_setgid_or_sticky(tmp_path: Path, mode: int) -> None:
    message = handoff()
    path = write_message(tmp_path, message)
    path.chmod(mode)
    write_message(tmp_path, message.model_copy(update={"subject": "changed"}), overwrite=True)
    assert stat.S_IMODE(path.stat().st_mode) == mode & 0o777
    path.chmod(mode)
    transition(tmp_path, MESSAGE_ID, "archived")
    assert stat.S_IMODE(path.stat().st_mode) == mode & 0o777


# --- pipes and sizes --------------------------------------------------------------------


def test_a_pipe_in_the_folder_is_left_out_without_waiting(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    write_message(tmp_path, handoff())
    found = in_a_child(f"""
        from mplp_models.cortex import read_inbox
        print(json.dumps([entry.path.name for entry in read_inbox({str(tmp_path)!r})]))
    """)
    assert found == [f"{MESSAGE_ID}.json"]


def test_a_pipe_put_in_a_files_place_after_the_listing_is_an_entry_not_a_hang(tmp_path: Path) -> None:
    write_message(tmp_path, handoff())
    (tmp_path / "swapped.json").write_text("{}", encoding="utf-8")
    # The child swaps the file for a pipe just before the reader opens it: after the listing.
    found = in_a_child(f"""
        import mplp_models as mm
        from mplp_models.cortex import read_inbox
        real_open = os.open
        def swapping_open(path, flags, *rest, **named):
            if str(path).endswith("swapped.json") and not os.path.exists(str(path) + ".done"):
                os.unlink(path)
                os.mkfifo(path)
                open(str(path) + ".done", "w").close()
            return real_open(path, flags, *rest, **named)
        os.open = swapping_open
        entries = read_inbox({str(tmp_path)!r})
        print(json.dumps([[entry.path.name, entry.error and mm.errors_as_json(entry.error)[0]["code"]]
                          for entry in entries]))
    """)
    assert found == [[f"{MESSAGE_ID}.json", None], ["swapped.json", "file_not_regular"]]


def test_a_file_over_the_limit_is_an_entry_and_no_more_than_the_limit_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with (tmp_path / "huge.json").open("wb") as file:
        file.truncate(1 << 30)  # 1 GiB, sparse: no disk used
    read: list[int] = []
    real_read = os.read

    def counting_read(handle: int, size: int) -> bytes:
        chunk = real_read(handle, size)
        read.append(len(chunk))
        return chunk

    monkeypatch.setattr(os, "read", counting_read)
    (entry,) = read_inbox(tmp_path)
    assert codes(entry) == [("", "file_too_large")]
    assert str(MAX_FILE_BYTES) in str(entry.error)
    assert sum(read) == MAX_FILE_BYTES + 1


def test_the_size_limit_is_inclusive_and_configurable(tmp_path: Path) -> None:
    raw = message_file_bytes(handoff())
    (tmp_path / "message.json").write_bytes(raw)
    (entry,) = read_inbox(tmp_path, max_file_bytes=len(raw))
    assert entry.message == handoff()
    (entry,) = read_inbox(tmp_path, max_file_bytes=len(raw) - 1)
    assert entry.message is None and codes(entry) == [("", "file_too_large")]
    assert f"limit of {len(raw) - 1} bytes" in str(entry.error)


def test_a_huge_file_is_read_in_bounded_memory(tmp_path: Path) -> None:
    with (tmp_path / "sparse.json").open("wb") as file:
        file.truncate(1 << 30)
    (tmp_path / "dense.json").write_bytes(b'{"message_id": "' + b"a" * (20 * MIB) + b'"}')
    found = in_a_child(f"""
        import mplp_models as mm
        from mplp_models.cortex import read_inbox
        entries = read_inbox({str(tmp_path)!r})
        print(json.dumps({{e.path.name: mm.errors_as_json(e.error)[0]["code"] for e in entries}}))
    """)
    assert found == {"sparse.json": "file_too_large", "dense.json": "file_too_large"}


# Files within the size limit that are hostile to a JSON reader: each is an entry with its error,
# found within the memory cap and the timeout.
HOSTILE: dict[str, tuple[bytes, str]] = {
    "deep.json": (b"[" * (MAX_FILE_BYTES - 1), "json_invalid"),
    "deep-objects.json": (b'{"a":' * (MAX_FILE_BYTES // 5 - 1), "json_invalid"),
    "duplicate.json": (b'{"subject": "' + b"a" * (MAX_FILE_BYTES - 64) + b'", "subject": "x"}', "json_duplicate_key"),
    "surrogate.json": (b'{"message_id": "IM-\\ud800"}', "json_invalid"),
    "not-utf8.json": (b'{"message_id": "IM-\xff"}', "json_invalid"),
    "nan.json": (b'{"message_id": NaN}', "json_invalid"),
    "infinity.json": (b'{"message_id": -Infinity}', "json_invalid"),
    "huge-number.json": (b'{"message_id": 1e400}', "json_invalid"),
    "long-number.json": (b'{"message_id": ' + b"9" * (MAX_FILE_BYTES - 32) + b"}", "json_invalid"),
    "bom.json": (b"\xef\xbb\xbf" + CODE_INBOX.read_bytes(), "json_bom"),
    "trailing.json": (CODE_INBOX.read_bytes() + b"{}", "json_invalid"),
    "many-items.json": (b'{"artifact_refs": [' + b'"a",' * (MAX_FILE_BYTES // 4 - 16) + b'"a"]}', "missing"),
    "empty.json": (b"", "json_invalid"),
}


def test_hostile_contents_within_the_limit_are_entries_with_their_error(tmp_path: Path) -> None:
    for name, (raw, _) in HOSTILE.items():
        assert len(raw) <= MAX_FILE_BYTES, name
        (tmp_path / name).write_bytes(raw)
    found = in_a_child(f"""
        import mplp_models as mm
        from mplp_models.cortex import read_inbox
        entries = read_inbox({str(tmp_path)!r})
        said = {{e.path.name: mm.errors_as_json(e.error) for e in entries}}
        print(json.dumps({{name: [errors[0]["code"], len(json.dumps(errors))] for name, errors in said.items()}}))
    """)
    assert {name: code for name, (code, _) in found.items()} == {name: code for name, (_, code) in HOSTILE.items()}
    # What an entry says is a quotation of its file, not the file.
    assert all(size < 64 * 1024 for _, size in found.values()), found


@pytest.mark.slow
def test_a_folder_of_many_large_files_is_read_in_bounded_memory(tmp_path: Path) -> None:
    chunk = b'{"subject": "' + b"a" * (MAX_FILE_BYTES - 64) + b'", "subject": "x"}'
    for index in range(200):  # 200 MiB in all, each just under the limit
        (tmp_path / f"IM-{index:03}.json").write_bytes(chunk)
    found = in_a_child(
        f"""
        import mplp_models as mm
        from mplp_models.cortex import read_inbox
        entries = read_inbox({str(tmp_path)!r})
        print(json.dumps(sorted({{mm.errors_as_json(e.error)[0]["code"] for e in entries}}) + [len(entries)]))
    """,
        timeout=600,
    )
    assert found == ["json_duplicate_key", 200]
