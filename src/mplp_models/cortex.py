"""The inbox of a Cortex project as the Cortex agent client holds it: a folder of message files.

The client keeps each message in ``<project>/.agent/inbox/<name>.json``, where
``<name>`` is the message id with every run of characters outside
``[A-Za-z0-9_.:-]`` replaced by ``-``, written as 2-space indented JSON with a
final newline. Its files hold messages of either inbox mode: the general one
(``InboxMessage``) and the code mode (``CodeInboxMessage``), the one its
``inbox send`` writes. It adds a ``workflow_gate`` field, which neither of its
schemas allows, to every message it sends or moves: this module reads it as a
documented extension, keeps it beside the message (``InboxEntry.workflow_gate``)
and writes it back unchanged. The plain models still refuse it, and this module
refuses every other field outside the schemas.

The folder is an untrusted place: anyone who can write in it may put a
symbolic link, a pipe or a huge file there, or write a file while the SDK
moves it. So a file is opened without following a link and read only if it
is a regular file, at most ``MAX_FILE_BYTES`` of it (or the ``max_file_bytes``
a call is given); the SDK's writers take
turns (a lock on the folder), check that the file is still what a move was
computed from, and never write through a link.

See the docs page "Cortex inbox" for the client's other deviations.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import stat
import sys
import time
from collections.abc import Generator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union, cast

from pydantic import ValidationError

from mplp_models._base import MplpModel
from mplp_models._conversion import relocated
from mplp_models._folders import sync_folder
from mplp_models._generated.cortex.v1.code_mode.inbox_message_schema import CodeInboxMessage, CodeInboxMessageStatus
from mplp_models._generated.cortex.v1.inbox_schema import InboxMessage, InboxMessageStatus, InboxMessageStatusValue
from mplp_models._json_input import invalid, load_json
from mplp_models._parse import parse
from mplp_models._text import encoding_problem

__all__ = [
    "MAX_FILE_BYTES",
    "WORKFLOW_GATE",
    "CortexMessage",
    "InboxChangedError",
    "InboxEntry",
    "message_file_bytes",
    "message_path",
    "read_inbox",
    "transition",
    "write_message",
]

CortexMessage = Union[InboxMessage, CodeInboxMessage]  # noqa: UP007  # one name in hovers and docs
"""A message of either Cortex inbox mode."""

WORKFLOW_GATE = "workflow_gate"
"""The field the Cortex client adds to every message it sends or moves (in neither of its schemas)."""

MAX_FILE_BYTES = 1 << 20
"""The default size limit of a message file (1 MiB): a larger one is an entry whose error says so.

Each of ``read_inbox``, ``write_message`` and ``transition`` takes its own limit (``max_file_bytes=``).

The largest file the client was recorded writing is under 1 KiB, and the code
mode caps a message's body at 4,000 characters (24 KiB at most as JSON text).
"""

_OUTSIDE_NAME = re.compile(r"[^A-Za-z0-9_.:-]+")
_BOM = b"\xef\xbb\xbf"
# A temporary file's name does not grow with the message's: an id whose file name fits has a
# temporary file that fits. The second form is the one earlier versions used, swept up as well.
_TEMPORARY = re.compile(r"\.mplp-[0-9a-f]{16}\.tmp|\..+\.json\.[0-9a-f]{16}\.tmp", re.DOTALL)
# Where the system has them: a link is never followed, and opening a pipe never waits for a writer.
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_READ_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_CHUNK = 1 << 16
# How long a writer waits for the folder's lock, which writers hold for milliseconds.
_LOCK_TIMEOUT = 30.0


class InboxChangedError(RuntimeError):
    """A message file changed between its reading and its writing: another writer moved it meanwhile.

    The file is left as the other writer wrote it. Reading it again and computing the
    change anew (calling ``transition`` or ``write_message`` again) is safe.
    """


@dataclass(frozen=True, eq=False)
class InboxEntry:
    """One message file of an inbox folder: its message, or why it is not one.

    Attributes:
        path: The file.
        message: The message it holds, or ``None`` if it holds none.
        error: Why it holds none (a ``ValidationError`` titled with the file's path, whose
            locations are JSON Pointers into the file's JSON), or ``None``.
        workflow_gate: The client's ``workflow_gate`` of the message, or ``None`` if the file has none.
    """

    path: Path
    message: CortexMessage | None = None
    error: ValidationError | None = None
    workflow_gate: str | None = None


def message_path(directory: str | os.PathLike[str], message_id: str) -> Path:
    """The file in which the Cortex client keeps (and looks for) the message ``message_id``.

    Args:
        directory: The inbox folder (``<project>/.agent/inbox``).
        message_id: The message's id.

    Returns:
        ``directory/<message_id with each run of characters outside [A-Za-z0-9_.:-] made "-">.json``.
    """
    return Path(directory) / f"{_OUTSIDE_NAME.sub('-', message_id)}.json"


def read_inbox(directory: str | os.PathLike[str], *, max_file_bytes: int = MAX_FILE_BYTES) -> list[InboxEntry]:
    """Every message file of an inbox folder, newest first.

    Every ``*.json`` file of the folder is read, whatever its name (the client
    skips names ending in ``.schema.json``, and so would hide a message whose id
    ends in ``.schema``); what is a message is decided by the content. The
    client's index (an object whose only key is ``messages``) and a JSON Schema
    (an object with ``$schema`` and no ``message_id``) are not messages and are
    left out. Every other file is an entry: its message, or its error (not
    JSON, a byte order mark, not an object, a field outside the schemas, a
    broken schema or rule, larger than ``max_file_bytes``, a file that cannot
    be read). One bad file never stops the listing.

    The folder is read as an untrusted place. A symbolic link is an entry whose
    error says it is one (``file_link``): what it leads to is never opened, so
    never quoted. Only regular files are read: a folder, a pipe or a device is
    left out, and one put in a file's place after the listing is an entry whose
    error says so (``file_not_regular``), found without waiting on it. No more
    than ``max_file_bytes + 1`` bytes of a file are read (``file_too_large``).

    Args:
        directory: The inbox folder (``<project>/.agent/inbox``).
        max_file_bytes: The size limit of a file, in bytes (default ``MAX_FILE_BYTES``, 1 MiB; 0 or more).

    Returns:
        The messages, newest first by the instant of ``updated_at`` (not its
        text, by which the client sorts); then the files in error; each group
        by file name where it ties.

    Raises:
        ValueError: If ``max_file_bytes`` is negative.
        OSError: If the folder cannot be listed.
    """
    _check_limit(max_file_bytes)
    with os.scandir(directory) as listing:  # raises for a folder that is missing, unlike Path.glob
        paths = sorted(Path(item.path) for item in listing if item.name.endswith(".json") and _is_listed(item))
    entries = [entry for path in paths if (entry := _read_message_file(path, max_file_bytes)) is not None]
    messages = [entry for entry in entries if entry.message is not None]
    messages.sort(key=lambda entry: entry.path.name)
    messages.sort(key=_updated_instant, reverse=True)
    return messages + [entry for entry in entries if entry.message is None]


def write_message(
    directory: str | os.PathLike[str],
    message: CortexMessage,
    *,
    workflow_gate: str | None = None,
    overwrite: bool = False,
    max_file_bytes: int = MAX_FILE_BYTES,
) -> Path:
    """Write ``message`` where and as the Cortex client keeps it.

    The file is the one ``message_path`` names, written as the client writes
    (2-space indented JSON, the schema's field order, ``workflow_gate`` after ``updated_at``,
    non-ASCII as is, a final newline), so the client finds it, reads it, and
    re-writes it byte for byte. A file that already holds this very message keeps its
    key order (see ``message_file_bytes``'s ``previous``). The file appears whole or not at all: a
    temporary file in the same folder takes its place, and the folder is
    synced after. A file replaced keeps its permission bits (never a setuid,
    setgid or sticky bit); a new one gets those of any new file (0o666 less the
    umask). A symbolic link in the file's place is never written through nor
    replaced. Writers of this module take turns (a lock on the folder), and
    the first one to write removes the temporary files a killed writer left.

    Args:
        directory: The inbox folder (``<project>/.agent/inbox``); it must exist.
        message: The message.
        workflow_gate: The client's ``workflow_gate`` to write with it (none if ``None``).
        overwrite: Replace a file that holds a different message (or no message); without
            it, only a file holding this very message (and gate), or an empty file, is replaced.
        max_file_bytes: The size limit of the file, in bytes (default ``MAX_FILE_BYTES``, 1 MiB;
            0 or more): a larger message is not written, and a larger file in its place is
            not read (it holds no message this one could be the same as).

    Returns:
        The path of the file.

    Raises:
        ValidationError: If ``workflow_gate`` is not a string UTF-8 can encode (the rule
            ``read_inbox`` applies to a file's gate), before anything is written.
        FileExistsError: If the file holds something else (or is a symbolic link) and
            ``overwrite`` is false.
        InboxChangedError: If another writer changed the file between its reading and its
            replacing; the file is left as that writer wrote it.
        TimeoutError: If another writer held the folder's lock for over 30 seconds; nothing is written.
        ValueError: If the file would be larger than ``max_file_bytes``, which ``read_inbox`` and
            ``transition`` refuse to read with the same limit; nothing is written. If
            ``max_file_bytes`` is negative.
        OSError: If the file cannot be written, or ``overwrite`` is true and the file is a
            symbolic link or not a regular file.
        TypeError: If ``message`` is neither an ``InboxMessage`` nor a ``CodeInboxMessage`` (an untyped
            caller's plan, say).
    """
    _check_limit(max_file_bytes)
    if not isinstance(message, (InboxMessage, CodeInboxMessage)):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"write_message writes an InboxMessage or a CodeInboxMessage, not {type(message).__name__}")
    path = message_path(directory, message.message_id)
    data = _sized(message_file_bytes(message, workflow_gate), max_file_bytes)
    with _writing(path.parent):
        if overwrite:
            _replace(path, data)
            return path
        try:
            _create(path, data)
        except FileExistsError:
            previous = _previous_bytes(path, max_file_bytes)  # an empty file is what a crash left
            if previous is None or (previous != b"" and not _same_message(path, previous, message, workflow_gate)):
                raise FileExistsError(
                    f"{path} holds a different message (or no message); pass overwrite=True to replace it"
                    " (a symbolic link is never replaced)"
                ) from None
            if previous:  # the same message: written in the file's own key order, so its bytes stay
                data = message_file_bytes(message, workflow_gate, previous=previous)
            _replace(path, data, previous, max_file_bytes)  # the same message, or an empty file a crash left
    return path


def transition(
    directory: str | os.PathLike[str],
    message_id: str,
    to: InboxMessageStatus | CodeInboxMessageStatus | InboxMessageStatusValue,
    *,
    at: str | None = None,
    workflow_gate: str | None = None,
    max_file_bytes: int = MAX_FILE_BYTES,
) -> InboxEntry:
    """Move the message ``message_id`` of an inbox folder to another status, as the client's ``inbox transition``.

    The lifecycle is the SDK's (unread -> read -> acknowledged -> archived, and
    read -> archived). ``updated_at`` and the status's ``*_at`` are both set to
    ``at``, by default now to the millisecond in UTC (``...T15:25:29.998Z``), as
    the client stamps them. The file's ``workflow_gate`` is kept unchanged
    unless one is given (the client's own ``inbox transition`` wrote
    ``recipient`` in every move it was recorded making).

    Moves made by this module take turns (a lock on the folder): each is
    computed from the file as the previous one left it. The file is written as
    ``write_message`` writes, and only if it still holds the bytes the move was
    computed from (a writer that takes no lock, such as the client, may have
    moved it meanwhile). The file keeps its key order, and the members it gains
    (the gate, the status's stamp) go at its end, as the client moves a file
    (see ``message_file_bytes``'s ``previous``).

    Args:
        directory: The inbox folder (``<project>/.agent/inbox``).
        message_id: The message's id; its file is the one ``message_path`` names.
        to: The new status, a member or its value.
        at: The time of the move, an RFC 3339 timestamp as text or ``Timestamp`` (default: now).
        workflow_gate: The ``workflow_gate`` to write (default: the file's, or none).
        max_file_bytes: The size limit of the file, read and written, in bytes (default
            ``MAX_FILE_BYTES``, 1 MiB; 0 or more).

    Returns:
        The entry of the re-written file.

    Raises:
        FileNotFoundError: If the folder has no file for the message.
        ValidationError: If the file holds no valid message of that id (a symbolic link holds
            none, nor a file larger than ``max_file_bytes``: ``file_too_large``), or
            ``workflow_gate`` is not a string UTF-8 can encode; the file is then left as it was.
        EditError: If the lifecycle has no such move, or the moved message breaks a rule (``at``
            before ``created_at``): the message's own ``transition`` refused; the file is left as it was.
        ValueError: If the moved message's file would be larger than ``max_file_bytes`` (the
            file is then left as it was), or ``max_file_bytes`` is negative.
        InboxChangedError: If another writer changed the file while it was being moved; the
            file is left as that writer wrote it, and calling ``transition`` again is safe.
        TimeoutError: If another writer held the folder's lock for over 30 seconds; nothing is written.
    """
    _check_limit(max_file_bytes)
    path = message_path(directory, message_id)
    with _writing(path.parent):
        if not os.path.lexists(path):
            raise FileNotFoundError(f"{path}: no file for message {message_id!r}")
        raw = _file_bytes(path, max_file_bytes)
        entry = _entry_of(path, raw)
        if entry is None:
            raise invalid(str(path), "payload_kind", "The file holds no inbox message", (), {})
        if entry.error is not None:
            raise entry.error
        message = entry.message
        assert message is not None  # an entry without an error has its message
        if message.message_id != message_id:
            raise invalid(
                str(path), "message_id_mismatch", f"The file holds message {message.message_id!r}", ("message_id",), {}
            )
        moved: CortexMessage = message.transition(to, at)
        gate = entry.workflow_gate if workflow_gate is None else workflow_gate
        data = _sized(message_file_bytes(moved, gate, previous=raw), max_file_bytes)
        _replace(path, data, raw, max_file_bytes)
    return InboxEntry(path, moved, None, gate)


def message_file_bytes(
    message: CortexMessage, workflow_gate: str | None = None, *, previous: bytes | None = None
) -> bytes:
    """The bytes of a message file as the Cortex client writes them (see ``write_message``).

    Args:
        message: The message.
        workflow_gate: The client's ``workflow_gate``, written after ``updated_at`` (none if ``None``).
        previous: The bytes of the file that this one replaces, if any: its members keep
            their places in it, at every level, and those it lacks follow them in the order
            they have without it (so the gate, then the status's stamp), which is how the
            client re-writes a file it moves (it keeps what it read and appends what it adds).

    Returns:
        UTF-8 JSON: 2-space indent, the schema's field order (or ``previous``'s), non-ASCII as
        is, a final newline.

    Raises:
        ValidationError: If ``workflow_gate`` is not a string UTF-8 can encode.
        ValueError: If ``previous`` is not a JSON object.
    """
    document = _in_field_order(message, json.loads(message.to_json()))
    if workflow_gate is not None:
        _checked_gate(workflow_gate, WORKFLOW_GATE)
        # Where the client puts it: it adds the gate at a send (after updated_at, the
        # last field a send writes) and the status's stamp after it at a move.
        members = list(document.items())
        after = [name for name, _ in members].index("updated_at") + 1
        document = dict([*members[:after], (WORKFLOW_GATE, workflow_gate), *members[after:]])
    if previous is not None:
        kept: object = json.loads(previous)
        if not isinstance(kept, dict):
            raise ValueError(f"previous should hold a JSON object, not {type(kept).__name__}")
        document = cast("dict[str, Any]", _in_order_of(cast("dict[str, object]", kept), document))
    # What JavaScript's JSON.stringify(value, null, 2) writes, which the client uses.
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _in_order_of(previous: object, document: object) -> object:
    """``document`` with the members that ``previous`` has too in ``previous``'s order, then its others.

    What a JavaScript object does when the client assigns to it: a member set again keeps its
    place, a new one goes last. Lists are matched item by item (the client keeps them whole).
    """
    if isinstance(previous, dict) and isinstance(document, dict):
        old = cast("dict[str, object]", previous)
        new = cast("dict[str, object]", document)
        ordered = {name: _in_order_of(old[name], new[name]) for name in old if name in new}
        return {**ordered, **{name: value for name, value in new.items() if name not in ordered}}
    if isinstance(previous, list) and isinstance(document, list):
        old_items = cast("list[object]", previous)
        new_items = cast("list[object]", document)
        return [_in_order_of(*pair) for pair in zip(old_items, new_items)] + new_items[len(old_items) :]
    return document


def _check_limit(max_file_bytes: int) -> None:
    if max_file_bytes < 0:
        raise ValueError(f"max_file_bytes must be 0 or more, not {max_file_bytes}")


def _sized(data: bytes, limit: int) -> bytes:
    """``data``, if a reader with the size limit ``limit`` reads it: a file it would refuse is never written."""
    if len(data) > limit:
        raise ValueError(f"the message's file would be {len(data)} bytes, over the limit of {limit} bytes")
    return data


def _in_field_order(model: MplpModel, given: dict[str, Any]) -> dict[str, Any]:
    """The members of ``given`` (the model's JSON) in the order of the model's fields, at every level."""
    ordered: dict[str, Any] = {}
    for name in type(model).model_fields:
        if name in given:
            value = getattr(model, name)
            ordered[name] = _in_field_order(value, given[name]) if isinstance(value, MplpModel) else given[name]
    return ordered


def _read_message_file(path: Path, limit: int) -> InboxEntry | None:
    """The entry of one file; ``None`` if its content is the client's index or a JSON Schema."""
    try:
        raw = _file_bytes(path, limit)
    except ValidationError as error:
        return InboxEntry(path, None, error)
    return _entry_of(path, raw)


def _file_bytes(path: Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, never followed if it is a link, nor read past ``limit + 1`` bytes.

    Raises:
        ValidationError: If it is a link, not a regular file, larger than ``limit`` or unreadable.
    """
    title = str(path)
    try:
        if not _NOFOLLOW and os.path.islink(path):  # where no open refuses a link (Windows): checked first
            raise _refused_link(title)
        try:
            handle = os.open(path, _READ_FLAGS)
        except OSError as error:
            # ELOOP on Linux and macOS, EMLINK on FreeBSD: the one sign of a refused link.
            if error.errno in (errno.ELOOP, errno.EMLINK) and os.path.islink(path):
                raise _refused_link(title) from None
            raise
        try:
            return _bounded_read(handle, title, limit)
        finally:
            os.close(handle)
    except OSError as error:
        # Only the error's own words: the file name is the title already.
        raise invalid(title, "file_unreadable", f"Cannot read the file: {error.strerror or error}", (), "") from None


def _bounded_read(handle: int, title: str, limit: int) -> bytes:
    """The bytes of the open file ``handle``: a regular file of at most ``limit`` bytes."""
    info = os.fstat(handle)  # of what was opened, whatever the listing saw at that name
    if not stat.S_ISREG(info.st_mode):
        message = "Not a regular file (a folder, a pipe or a device took the file's place): it is not read"
        raise invalid(title, "file_not_regular", message, (), "")
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = os.read(handle, min(_CHUNK, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    raise invalid(title, "file_too_large", f"The file is larger than the limit of {limit} bytes", (), "")


def _refused_link(title: str) -> ValidationError:
    message = "A symbolic link: what it leads to is not read (an inbox file must be a regular file)"
    return invalid(title, "file_link", message, (), "")


def _entry_of(path: Path, raw: bytes) -> InboxEntry | None:
    """The entry of a file holding ``raw``; ``None`` if it is the client's index or a JSON Schema."""
    title = str(path)
    try:
        if raw.startswith(_BOM):
            raise invalid(
                title, "json_bom", "The file starts with a UTF-8 byte order mark, which JSON forbids", (), raw
            )
        loaded: object = load_json(raw, title)
        if not isinstance(loaded, dict):
            raise invalid(title, "payload_type", "A message file should hold a JSON object", (), loaded)
        value = cast("dict[str, Any]", loaded)
        if _is_not_a_message(value):
            return None
        gate: str | None = None
        if WORKFLOW_GATE in value:
            gate = _checked_gate(value.pop(WORKFLOW_GATE), title)
        try:
            message = parse(value)
        except ValidationError as error:
            raise relocated(error, title, {}) from None
    except ValidationError as error:
        return InboxEntry(path, None, error)
    if not isinstance(message, (InboxMessage, CodeInboxMessage)):
        kind = type(message).__name__
        return InboxEntry(path, None, invalid(title, "payload_kind", f"The file holds a {kind}, not a message", (), {}))
    return InboxEntry(path, message, None, gate)


def _is_listed(item: os.DirEntry[str]) -> bool:
    """Whether a folder entry is read: a regular file, or a link (its entry then says it is one).

    A folder, a pipe or a device is left out: its reading would fail or never end.
    """
    try:
        return item.is_symlink() or item.is_file(follow_symlinks=False)
    except OSError:  # gone since the listing: its entry says why it cannot be read
        return True


def _checked_gate(found: object, title: str) -> str:
    """``found`` as a ``workflow_gate``: a string, as the client writes it, of text UTF-8 can encode."""
    if not isinstance(found, str):  # a null or a number would be lost on the way back
        raise invalid(title, "string_type", "workflow_gate should be a string", (WORKFLOW_GATE,), found)
    problem = encoding_problem(found)  # a lone surrogate, which no JSON file can hold
    if problem is not None:
        message = f"workflow_gate should be text UTF-8 can encode: {problem}"
        raise invalid(title, "string_unicode", message, (WORKFLOW_GATE,), found)
    return found


def _is_not_a_message(value: Mapping[str, Any]) -> bool:
    if "message_id" in value:
        return False
    return set(value) == {"messages"} or "$schema" in value


def _updated_instant(entry: InboxEntry) -> tuple[int, str]:
    assert entry.message is not None  # only messages are sorted by it
    return entry.message.updated_at.instant()


def _same_message(path: Path, raw: bytes, message: CortexMessage, workflow_gate: str | None) -> bool:
    entry = _entry_of(path, raw)
    return entry is not None and entry.message == message and entry.workflow_gate == workflow_gate


def _previous_bytes(path: Path, limit: int) -> bytes | None:
    """The bytes of the regular file ``path``; ``None`` if it is none (a link, say), is over ``limit`` or cannot be
    read."""
    try:
        return _file_bytes(path, limit)
    except ValidationError:
        return None


@contextmanager
def _writing(folder: Path) -> Generator[None, None, None]:
    """Hold the folder's lock (the writers of this module take turns), and sweep up what killed writers left.

    The lock is an advisory ``flock`` on the folder itself, so no lock file is left in
    it; the system drops it when its holder dies, so a killed writer never blocks the
    next one. Under it, no writer of this module is between creating a temporary file
    and renaming it: every temporary file found is one a killed writer left.
    """
    handle = _lock_handle(folder)
    try:
        _wait_for_lock(handle, folder)
        for name in os.listdir(folder):
            if _TEMPORARY.fullmatch(name):
                with suppress(OSError):  # already gone, or not a file (a folder of that name is not ours)
                    os.unlink(folder / name)
        yield
    finally:
        os.close(handle)  # closing it releases the lock


def _wait_for_lock(handle: int, folder: Path) -> None:
    """Take the lock of ``handle``, waiting ``_LOCK_TIMEOUT`` seconds at most.

    Whoever can open the folder can take its lock and keep it: a writer then fails with a
    ``TimeoutError`` after a while rather than wait for ever.
    """
    deadline = time.monotonic() + _LOCK_TIMEOUT
    pause = 0.001
    while not _try_lock(handle):
        if time.monotonic() >= deadline:
            raise TimeoutError(
                f"{folder}: another writer has held the inbox's lock for over {_LOCK_TIMEOUT:g} s; nothing was written"
            )
        time.sleep(pause)
        pause = min(2 * pause, 0.05)


if sys.platform == "win32":  # pragma: no cover - a folder cannot be opened there; a lock file's first byte is locked
    import msvcrt

    _LOCK_FILE = ".mplp-models.lock"

    def _lock_handle(folder: Path) -> int:
        return os.open(folder / _LOCK_FILE, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o666)

    def _try_lock(handle: int) -> bool:
        try:
            msvcrt.locking(handle, msvcrt.LK_NBLCK, 1)
        except OSError as error:
            if error.errno in (errno.EACCES, errno.EDEADLK):  # held by another writer
                return False
            raise
        return True

else:
    import fcntl

    def _lock_handle(folder: Path) -> int:
        return os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))

    def _try_lock(handle: int) -> bool:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # held by another writer
            return False
        return True


def _temporary(folder: Path, data: bytes, mode: int | None) -> Path:
    """A new file in ``folder`` holding ``data``, with the permission bits ``mode``, or those of a new file.

    It is created with mode 0o666, from which the system takes the umask, as for
    any file the client creates; so the umask is never read (``os.umask`` can
    only be read by setting it, for the whole process, a race with other threads).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_BINARY", 0)
    while True:
        name = folder / f".mplp-{secrets.token_hex(8)}.tmp"
        try:
            handle = os.open(name, flags, 0o666)
        except FileExistsError:  # drawn twice: draw another name
            continue
        break
    try:
        with os.fdopen(handle, "wb") as file:
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(file.fileno(), mode)
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except BaseException:
        os.unlink(name)
        raise
    return name


def _mode_to_keep(path: Path) -> int | None:
    """The permission bits of the file ``path`` replaces (never setuid, setgid or sticky), ``None`` if none.

    Raises:
        OSError: If ``path`` is a symbolic link (what it leads to lends nothing, not even its
            mode) or not a regular file.
    """
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        message = "is a symbolic link, which the inbox's writers never write through nor replace"
        raise OSError(errno.ELOOP, message, str(path))
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EEXIST, "is not a regular file, which the inbox's writers never replace", str(path))
    return stat.S_IMODE(info.st_mode) & 0o777


def _replace(path: Path, data: bytes, previous: bytes | None = None, limit: int = MAX_FILE_BYTES) -> None:
    """Put ``data`` in ``path``'s place; if ``previous`` is given, only if the file still holds it (read up to
    ``limit``)."""
    temporary = _temporary(path.parent, data, _mode_to_keep(path))
    try:
        # A writer that takes no lock (the client) may have written the file since it was read.
        if previous is not None and _previous_bytes(path, limit) != previous:
            raise InboxChangedError(
                f"{path} changed while it was being written (another writer moved it): "
                "it is left as that writer wrote it; read it again and retry"
            )
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    sync_folder(path.parent)


def _create(path: Path, data: bytes) -> None:
    """Write ``path`` whole, only if nothing has that name (a ``FileExistsError`` otherwise)."""
    temporary = _temporary(path.parent, data, None)
    try:
        try:
            # A hard link appears whole and fails if the name is taken, even by a writer that takes no lock.
            os.link(temporary, path)
        except FileExistsError:
            raise
        except OSError:
            # A file system without hard links: under the lock, no writer of this module
            # takes the name between this look and the rename (no empty placeholder either).
            if os.path.lexists(path):
                raise FileExistsError(errno.EEXIST, "File exists", str(path)) from None
            os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    sync_folder(path.parent)
