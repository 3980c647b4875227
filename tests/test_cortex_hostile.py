"""mplp_models.cortex on a hostile inbox folder: links, pipes, huge files, racing writers and killed ones.

The cases that could hang or exhaust memory run in a child process under a memory cap
(``RLIMIT_AS``) and a timeout, so a regression fails the test instead of the machine.
"""

from __future__ import annotations

import errno
import json
import multiprocessing
import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import PAYLOADS
from pydantic import ValidationError

import mplp_models as mm
from mplp_models.cortex import (
    MAX_FILE_BYTES,
    InboxChangedError,
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


def unread() -> mm.CodeInboxMessage:
    document = json.loads(CODE_INBOX.read_bytes())
    del document["read_at"]
    return mm.CodeInboxMessage.model_validate({**document, "status": "unread", "updated_at": document["created_at"]})


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
        if sys.platform.startswith("linux"):  # macOS does not enforce, and may refuse, RLIMIT_AS
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
    os.mkfifo(outside / "pipe")
    real = write_message(inbox, handoff())
    targets = {
        "key.json": key,
        "alias.json": Path(real.name),  # the same message under a second name
        "home.json": outside,  # a folder
        "pipe.json": outside / "pipe",  # opening it blocking would wait for ever
        "zero.json": Path("/dev/zero"),  # reading it whole would never end
        "environ.json": Path("/proc/self/environ"),  # the reader's own environment
        "dangling.json": outside / "gone",
    }
    for name, target in targets.items():
        (inbox / name).symlink_to(target)
    # In a child: a reader that followed a link could block, or read without end.
    found = in_a_child(f"""
        import mplp_models as mm
        from mplp_models.cortex import read_inbox
        said = {{}}
        for entry in read_inbox({str(inbox)!r}):
            if entry.error is None:
                said[entry.path.name] = "message"
            else:
                errors = mm.errors_as_json(entry.error)
                texts = (str(entry.error), repr(entry.error), json.dumps(errors))
                said[entry.path.name] = [[e["code"] for e in errors], "\\n".join(texts)]
        print(json.dumps(said))
    """)
    assert found.pop(real.name) == "message"  # listed once, under its own name
    assert set(found) == set(targets)
    environment = [f"{name}={value}" for name, value in os.environ.items()]
    for name, (codes_found, said) in found.items():
        assert codes_found == ["file_link"], name
        assert "symbolic link" in said
        for secret in (SECRET[:20], "b3Blbn", str(targets[name]), "\\u0000"):
            assert secret not in said, (name, secret)
        assert not any(line in said for line in environment if len(line) > 12), name


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


def test_each_writer_takes_its_own_size_limit(tmp_path: Path) -> None:
    raw = message_file_bytes(unread())
    with pytest.raises(ValueError, match=f"{len(raw)} bytes, over the limit of {len(raw) - 1} bytes"):
        write_message(tmp_path, unread(), max_file_bytes=len(raw) - 1)
    assert list(tmp_path.iterdir()) == []  # nothing written
    path = write_message(tmp_path, unread(), max_file_bytes=len(raw))
    assert path.read_bytes() == raw
    assert write_message(tmp_path, unread(), max_file_bytes=len(raw)) == path  # the same message again
    at = mm.Timestamp("2026-08-02T10:00:00.000Z")
    with pytest.raises(ValidationError, match=f"limit of {len(raw) - 1} bytes") as caught:
        transition(tmp_path, MESSAGE_ID, "read", at=at, max_file_bytes=len(raw) - 1)
    assert caught.value.errors()[0]["type"] == "file_too_large"
    with pytest.raises(ValueError, match=f"over the limit of {len(raw)} bytes"):  # the moved file has read_at
        transition(tmp_path, MESSAGE_ID, "read", at=at, max_file_bytes=len(raw))
    assert path.read_bytes() == raw  # left as it was
    moved = transition(tmp_path, MESSAGE_ID, "read", at=at, max_file_bytes=len(raw) + 64)
    assert moved.message is not None and moved.message.read_at == at
    for call in (
        lambda: read_inbox(tmp_path, max_file_bytes=-1),
        lambda: write_message(tmp_path, unread(), max_file_bytes=-1),
        lambda: transition(tmp_path, MESSAGE_ID, "archived", max_file_bytes=-1),
    ):
        with pytest.raises(ValueError, match="max_file_bytes must be 0 or more, not -1"):
            call()
    assert read_inbox(tmp_path)[0].message == moved.message  # no refused call wrote anything


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


# --- names ------------------------------------------------------------------------------


def longest_name(folder: Path) -> int:
    return os.pathconf(folder, "PC_NAME_MAX")


def test_an_id_whose_file_name_fits_is_written_read_and_moved(tmp_path: Path) -> None:
    # The longest name the file system allows (255 on most): the temporary name must not add to it.
    message_id = "IM-" + "a" * (longest_name(tmp_path) - len("IM-.json"))
    message = mm.CodeInboxMessage.model_validate({**handoff().to_dict(), "message_id": message_id})
    path = write_message(tmp_path, message)
    assert len(path.name) == longest_name(tmp_path)
    assert read_inbox(tmp_path)[0].message == message
    moved = transition(tmp_path, message_id, "archived")
    assert read_inbox(tmp_path)[0].message == moved.message
    assert names(tmp_path) == [path.name]


def test_an_id_whose_file_name_does_not_fit_is_the_systems_error_and_leaves_nothing(tmp_path: Path) -> None:
    message_id = "IM-" + "a" * (longest_name(tmp_path) - len("IM-.json") + 1)
    message = mm.CodeInboxMessage.model_validate({**handoff().to_dict(), "message_id": message_id})
    with pytest.raises(OSError) as caught:
        write_message(tmp_path, message)
    assert caught.value.errno == errno.ENAMETOOLONG
    assert names(tmp_path) == []


# --- killed writers ---------------------------------------------------------------------

ARCHIVED_AT = "2026-08-03T00:00:00.000Z"
WRITE = "write_message(FOLDER, mm.CodeInboxMessage.from_json(CODE_INBOX.read_bytes()))"
TRANSITION = f"transition(FOLDER, {MESSAGE_ID!r}, 'archived', at=mm.Timestamp({ARCHIVED_AT!r}))"


def killed_while(folder: Path, action: str, function: str, nth: int, *, links: bool) -> None:
    """Run ``action`` in a child that is killed (SIGKILL) at its ``nth`` call of ``os.<function>``."""
    script = textwrap.dedent(f"""
        import os, signal
        from pathlib import Path
        import mplp_models as mm
        from mplp_models.cortex import transition, write_message
        FOLDER, CODE_INBOX = {str(folder)!r}, Path({str(CODE_INBOX)!r})
        real, calls = os.{function}, []
        def dying(*args, **named):
            calls.append(args)
            if len(calls) == {nth}:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*args, **named)
        os.{function} = dying
        if not {links}:
            def no_links(*args, **named):
                raise PermissionError("hard links are not supported here")
            os.link = no_links
        {action}
        print("not killed")
    """)
    done = subprocess.run(  # our own interpreter and script
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    assert done.returncode == -signal.SIGKILL, done.stdout + done.stderr[-3000:]


# (the action, the os function at whose call the writer dies, which call, hard links?, is the
# file's new content in place when it dies?)
KILLS = [
    (WRITE, "fsync", 1, True, False),  # writing its temporary file
    (WRITE, "link", 1, True, False),  # about to link it in
    (WRITE, "fsync", 2, True, True),  # syncing the folder
    (WRITE, "replace", 1, False, False),  # no hard links: about to rename it in
    (WRITE, "fsync", 2, False, True),
    (TRANSITION, "fsync", 1, True, False),
    (TRANSITION, "replace", 1, True, False),
    (TRANSITION, "fsync", 2, True, True),
]


@pytest.mark.parametrize(("action", "function", "nth", "links", "done"), KILLS)
def test_a_killed_writer_leaves_the_old_file_or_the_new_one_whole_and_the_next_write_sweeps_up(
    tmp_path: Path, action: str, function: str, nth: int, links: bool, done: bool
) -> None:
    path = message_path(tmp_path, MESSAGE_ID)
    moving = action == TRANSITION
    if moving:
        write_message(tmp_path, handoff())
    before = path.read_bytes() if moving else None
    moved = handoff().transition("archived", mm.Timestamp(ARCHIVED_AT))
    after = message_file_bytes(moved if moving else handoff())
    killed_while(tmp_path, action, function, nth, links=links)
    assert (path.read_bytes() if path.exists() else None) == (after if done else before)
    # Never an empty message file (the placeholder of a file system without hard links).
    assert all(item.stat().st_size > 0 for item in tmp_path.glob("*.json"))
    if moving and not done:
        assert transition(tmp_path, MESSAGE_ID, "archived", at=mm.Timestamp(ARCHIVED_AT)).message == moved
    else:
        write_message(tmp_path, moved if moving else handoff())  # the same message: it is replaced
    assert path.read_bytes() == after
    assert names(tmp_path) == [path.name]  # the killed writer's temporary file is gone


def test_a_writer_killed_holding_the_lock_does_not_block_the_next(tmp_path: Path) -> None:
    killed_while(tmp_path, WRITE, "fsync", 1, links=True)  # killed inside the lock
    found = in_a_child(
        f"""
        from pathlib import Path
        import mplp_models as mm
        from mplp_models.cortex import write_message
        message = mm.CodeInboxMessage.from_json(Path({str(CODE_INBOX)!r}).read_bytes())
        print(json.dumps(write_message({str(tmp_path)!r}, message).name))
    """,
        timeout=30,
    )
    assert found == f"{MESSAGE_ID}.json"
    assert names(tmp_path) == [found]


def test_what_an_earlier_version_left_is_swept_up(tmp_path: Path) -> None:
    path = message_path(tmp_path, MESSAGE_ID)
    path.touch()  # the empty placeholder a killed writer of an earlier version left
    stale = tmp_path / f".{path.name}.0123456789abcdef.tmp"  # and its temporary file
    stale.write_bytes(b'{"message_id": "IM-M0')
    kept = [".notes.tmp", ".mplp-0123.tmp", "IM-x.json.0123456789abcdef.tmp"]  # not names it ever used
    for name in kept:
        (tmp_path / name).write_bytes(b"mine")
    write_message(tmp_path, handoff())  # not refused: an empty file holds nothing to lose
    assert path.read_bytes() == CODE_INBOX.read_bytes()
    assert names(tmp_path) == sorted([path.name, *kept])


def test_a_rename_is_followed_by_a_sync_of_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []

    def recording(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **named: Any) -> Any:
            if name == "fsync":
                events.append("fsync folder" if stat.S_ISDIR(os.fstat(args[0]).st_mode) else "fsync file")
            else:
                events.append(name)
            return real(*args, **named)

        return call

    for name in ("fsync", "replace", "link"):
        monkeypatch.setattr(os, name, recording(name, getattr(os, name)))
    write_message(tmp_path, handoff())
    assert events == ["fsync file", "link", "fsync folder"]
    events.clear()
    transition(tmp_path, MESSAGE_ID, "archived")
    assert events == ["fsync file", "replace", "fsync folder"]


# --- racing writers ---------------------------------------------------------------------

RUNNERS = 20


def race(attempt: Callable[[int], tuple[str, str, str]], how: str) -> list[tuple[str, str, str]]:
    """``attempt(0)`` ... ``attempt(19)`` at once, in processes or threads; what each reported."""
    if how == "threads":
        barrier = threading.Barrier(RUNNERS)
        reported: list[tuple[str, str, str]] = []

        def in_a_thread(index: int) -> None:
            barrier.wait()
            reported.append(attempt(index))

        threads = [threading.Thread(target=in_a_thread, args=(index,)) for index in range(RUNNERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(TIMEOUT)
        assert len(reported) == RUNNERS
        return reported
    context = multiprocessing.get_context("fork")
    start, queue = context.Barrier(RUNNERS), context.Queue()

    def in_a_process(index: int) -> None:
        start.wait()
        queue.put(attempt(index))

    processes = [context.Process(target=in_a_process, args=(index,)) for index in range(RUNNERS)]
    with warnings.catch_warnings():
        # Python 3.12+ warns of a fork in a process with threads (pytest-xdist's): a child that
        # deadlocked on a lock a thread held would fail the test at the timeout below, not hang it.
        warnings.simplefilter("ignore", DeprecationWarning)
        for process in processes:
            process.start()
    outcomes: list[tuple[str, str, str]] = [queue.get(timeout=TIMEOUT) for _ in processes]
    for process in processes:
        process.join(TIMEOUT)
        assert process.exitcode == 0
    return outcomes


def moving_to(folder: Path, target: str) -> tuple[str, str, str]:
    try:
        moved = transition(folder, MESSAGE_ID, mm.InboxMessageStatus(target))
    except InboxChangedError as error:
        return ("changed", target, str(error))
    except ValidationError as error:
        return ("invalid", target, str(error))
    except ValueError as error:  # the lifecycle has no move from where the message is
        return ("lifecycle", target, str(error))
    except BaseException as error:  # reported, so the test says what it was
        return ("crashed", target, repr(error))
    assert moved.message is not None
    return ("ok", target, moved.message.updated_at)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="processes by fork")
@pytest.mark.parametrize("how", ["processes", "threads"])
def test_racing_moves_lose_no_update(tmp_path: Path, how: str) -> None:
    write_message(tmp_path, unread())
    targets = ("read", "acknowledged", "archived")
    outcomes = race(lambda index: moving_to(tmp_path, targets[index % len(targets)]), how)
    # Each failure is the lifecycle's refusal of a move from the state the previous moves left.
    assert {kind for kind, _, _ in outcomes} <= {"ok", "lifecycle"}, outcomes
    for kind, target, said in outcomes:
        if kind == "lifecycle":
            assert target in said, said
    successes = {target: stamp for kind, target, stamp in outcomes if kind == "ok"}
    assert len(successes) == sum(kind == "ok" for kind, _, _ in outcomes)  # each status reached once
    assert "read" in successes  # every other move starts from it
    (entry,) = read_inbox(tmp_path)
    final = entry.message
    assert final is not None
    # Every reported success survives in the final state: its stamp is there.
    assert {target: getattr(final, f"{target}_at") for target in successes} == successes
    assert final.status in successes and final.updated_at == successes[final.status]
    assert names(tmp_path) == [entry.path.name]


def writing(folder: Path, index: int) -> tuple[str, str, str]:
    message = handoff().model_copy(update={"subject": f"subject {index}"})
    try:
        write_message(folder, message)
    except FileExistsError as error:
        return ("exists", str(index), str(error))
    except BaseException as error:  # reported, so the test says what it was
        return ("crashed", str(index), repr(error))
    return ("ok", str(index), "")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="processes by fork")
@pytest.mark.parametrize("how", ["processes", "threads"])
def test_racing_new_writes_of_one_id_have_one_winner(tmp_path: Path, how: str) -> None:
    outcomes = race(lambda index: writing(tmp_path, index), how)
    winners = [index for kind, index, _ in outcomes if kind == "ok"]
    assert len(winners) == 1, outcomes
    assert sorted(kind for kind, _, _ in outcomes) == ["exists"] * (RUNNERS - 1) + ["ok"]
    (entry,) = read_inbox(tmp_path)
    assert entry.message is not None and entry.message.subject == f"subject {winners[0]}"
    assert names(tmp_path) == [entry.path.name]


def test_a_move_computed_from_a_state_another_writer_changed_fails_and_can_be_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mplp_models import cortex

    path = write_message(tmp_path, handoff())
    # The client (which takes no lock) acknowledges the message while the SDK is archiving it.
    theirs = message_file_bytes(handoff().transition("acknowledged", mm.Timestamp("2026-08-02T12:00:00.000Z")))
    real_temporary = cortex._temporary  # pyright: ignore[reportPrivateUsage]

    def client_writes_meanwhile(*args: Any) -> Path:
        path.write_bytes(theirs)
        return real_temporary(*args)

    monkeypatch.setattr(cortex, "_temporary", client_writes_meanwhile)
    with pytest.raises(InboxChangedError, match="read it again and retry"):
        transition(tmp_path, MESSAGE_ID, "archived")
    assert path.read_bytes() == theirs  # left as the client wrote it
    assert names(tmp_path) == [path.name]
    monkeypatch.undo()
    moved = transition(tmp_path, MESSAGE_ID, "archived")  # the retry starts from the client's move
    assert moved.message is not None and moved.message.acknowledged_at == "2026-08-02T12:00:00.000Z"


@pytest.mark.skipif(not hasattr(os, "O_DIRECTORY"), reason="the lock is a flock on the folder")
def test_a_writer_that_keeps_the_lock_makes_the_others_time_out_not_hang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fcntl

    from mplp_models import cortex

    path = write_message(tmp_path, handoff())
    before = path.read_bytes()
    monkeypatch.setattr(cortex, "_LOCK_TIMEOUT", 0.2)
    holder = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)  # anyone who can open the folder can lock it
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)
        with pytest.raises(TimeoutError, match="nothing was written"):
            transition(tmp_path, MESSAGE_ID, "archived")
        with pytest.raises(TimeoutError):
            write_message(tmp_path, handoff().model_copy(update={"subject": "changed"}), overwrite=True)
        assert path.read_bytes() == before
    finally:
        os.close(holder)
    assert names(tmp_path) == [path.name]
    transition(tmp_path, MESSAGE_ID, "archived")  # the lock released, writers go on


def test_a_message_whose_file_would_be_over_the_limit_is_not_written(tmp_path: Path) -> None:
    # read_inbox and transition refuse a file over MAX_FILE_BYTES: write_message never makes one.
    with pytest.raises(ValueError, match=f"over the limit of {MAX_FILE_BYTES} bytes"):
        write_message(tmp_path, handoff(), workflow_gate="g" * MAX_FILE_BYTES)
    assert list(tmp_path.iterdir()) == []
    path = write_message(tmp_path, handoff(), workflow_gate="g" * 1000)
    assert [entry.path for entry in read_inbox(tmp_path)] == [path]


def test_a_negative_size_limit_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="max_file_bytes must be 0 or more"):
        read_inbox(tmp_path, max_file_bytes=-1)


def test_writing_what_is_no_inbox_message_is_a_type_error(tmp_path: Path) -> None:
    # An untyped caller's plan has no message_id: refused by name, with nothing written.
    plan: Any = mm.Plan.model_validate_json((PAYLOADS / "plan.json").read_bytes())
    with pytest.raises(TypeError, match="write_message writes an InboxMessage or a CodeInboxMessage, not Plan"):
        write_message(tmp_path, plan)
    assert list(tmp_path.iterdir()) == []
