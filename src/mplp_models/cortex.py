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

See the docs page "Cortex inbox" for the client's other deviations.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union, cast

from pydantic import ValidationError

from mplp_models._base import MplpModel
from mplp_models._conversion import relocated
from mplp_models._decode import invalid, load_json
from mplp_models._generated.cortex.v1.code_mode.inbox_message_schema import CodeInboxMessage, CodeInboxMessageStatus
from mplp_models._generated.cortex.v1.inbox_schema import InboxMessage, InboxMessageStatus
from mplp_models._parse import parse
from mplp_models._text import encoding_problem
from mplp_models._types import Timestamp

__all__ = [
    "WORKFLOW_GATE",
    "CortexMessage",
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

_OUTSIDE_NAME = re.compile(r"[^A-Za-z0-9_.:-]+")
_BOM = b"\xef\xbb\xbf"


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


def read_inbox(directory: str | os.PathLike[str]) -> list[InboxEntry]:
    """Every message file of an inbox folder, newest first.

    Every ``*.json`` file of the folder is read, whatever its name (the client
    skips names ending in ``.schema.json``, and so would hide a message whose id
    ends in ``.schema``); what is a message is decided by the content. The
    client's index (an object whose only key is ``messages``) and a JSON Schema
    (an object with ``$schema`` and no ``message_id``) are not messages and are
    left out. Every other file is an entry: its message, or its error (not
    JSON, a byte order mark, not an object, a field outside the schemas, a
    broken schema or rule, a file that cannot be read, such as a dangling
    symbolic link or a loop of them). One bad file never stops the listing.

    Args:
        directory: The inbox folder (``<project>/.agent/inbox``).

    Returns:
        The messages, newest first by the instant of ``updated_at`` (not its
        text, by which the client sorts); then the files in error; each group
        by file name where it ties.

    Raises:
        OSError: If the folder cannot be listed.
    """
    with os.scandir(directory) as listing:  # raises for a folder that is missing, unlike Path.glob
        paths = sorted(Path(item.path) for item in listing if item.name.endswith(".json") and _is_listed(item))
    entries = [entry for path in paths if (entry := _read_message_file(path)) is not None]
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
) -> Path:
    """Write ``message`` where and as the Cortex client keeps it.

    The file is the one ``message_path`` names, written as the client writes
    (2-space indented JSON, the schema's field order, ``workflow_gate`` after ``updated_at``,
    non-ASCII as is, a final newline), so the client finds it, reads it, and
    re-writes it byte for byte. The file appears whole or not at all: a
    temporary file in the same folder takes its place. A file replaced keeps
    its permissions; a new one gets those of any new file (0o666 less the umask).

    Args:
        directory: The inbox folder (``<project>/.agent/inbox``); it must exist.
        message: The message.
        workflow_gate: The client's ``workflow_gate`` to write with it (none if ``None``).
        overwrite: Replace a file that holds a different message (or no message); without
            it, only a file holding this very message (and gate) is replaced.

    Returns:
        The path of the file.

    Raises:
        ValidationError: If ``workflow_gate`` is not a string UTF-8 can encode (the rule
            ``read_inbox`` applies to a file's gate), before anything is written.
        FileExistsError: If the file holds something else and ``overwrite`` is false.
        OSError: If the file cannot be written.
    """
    path = message_path(directory, message.message_id)
    data = message_file_bytes(message, workflow_gate)
    if overwrite:
        _replace(path, data)
        return path
    try:
        _create(path, data)
    except FileExistsError:
        if _same_message(path, message, workflow_gate):
            _replace(path, data)
        else:
            raise FileExistsError(
                f"{path} holds a different message (or no message); pass overwrite=True to replace it"
            ) from None
    return path


def transition(
    directory: str | os.PathLike[str],
    message_id: str,
    to: InboxMessageStatus | CodeInboxMessageStatus | str,
    *,
    at: Timestamp | None = None,
    workflow_gate: str | None = None,
) -> InboxEntry:
    """Move the message ``message_id`` of an inbox folder to another status, as the client's ``inbox transition``.

    The lifecycle is the SDK's (unread -> read -> acknowledged -> archived, and
    read -> archived). ``updated_at`` and the status's ``*_at`` are both set to
    ``at``, by default now to the millisecond in UTC (``...T15:25:29.998Z``), as
    the client stamps them. The file's ``workflow_gate`` is kept unchanged
    unless one is given (the client's own ``inbox transition`` wrote
    ``recipient`` in every move it was recorded making).

    Args:
        directory: The inbox folder (``<project>/.agent/inbox``).
        message_id: The message's id; its file is the one ``message_path`` names.
        to: The new status, a member or its value.
        at: The time of the move (default: now).
        workflow_gate: The ``workflow_gate`` to write (default: the file's, or none).

    Returns:
        The entry of the re-written file.

    Raises:
        FileNotFoundError: If the folder has no file for the message.
        ValidationError: If the file holds no valid message of that id, the moved message breaks a
            rule, or ``workflow_gate`` is not a string UTF-8 can encode; the file is then left as it was.
        ValueError: If the lifecycle has no such move.
    """
    path = message_path(directory, message_id)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no file for message {message_id!r}")
    entry = _read_message_file(path)
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
    _replace(path, message_file_bytes(moved, gate))
    return InboxEntry(path, moved, None, gate)


def message_file_bytes(message: CortexMessage, workflow_gate: str | None = None) -> bytes:
    """The bytes of a message file as the Cortex client writes them (see ``write_message``).

    Args:
        message: The message.
        workflow_gate: The client's ``workflow_gate``, written after ``updated_at`` (none if ``None``).

    Returns:
        UTF-8 JSON: 2-space indent, the schema's field order, non-ASCII as is, a final newline.

    Raises:
        ValidationError: If ``workflow_gate`` is not a string UTF-8 can encode.
    """
    document = _in_field_order(message, json.loads(message.to_json()))
    if workflow_gate is not None:
        _checked_gate(workflow_gate, WORKFLOW_GATE)
        # Where the client puts it: it adds the gate at a send (after updated_at, the
        # last field a send writes) and the status's stamp after it at a move.
        members = list(document.items())
        after = [name for name, _ in members].index("updated_at") + 1
        document = dict([*members[:after], (WORKFLOW_GATE, workflow_gate), *members[after:]])
    # What JavaScript's JSON.stringify(value, null, 2) writes, which the client uses.
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _in_field_order(model: MplpModel, given: dict[str, Any]) -> dict[str, Any]:
    """The members of ``given`` (the model's JSON) in the order of the model's fields, at every level."""
    ordered: dict[str, Any] = {}
    for name in type(model).model_fields:
        if name in given:
            value = getattr(model, name)
            ordered[name] = _in_field_order(value, given[name]) if isinstance(value, MplpModel) else given[name]
    return ordered


def _read_message_file(path: Path) -> InboxEntry | None:
    """The entry of one file; ``None`` if its content is the client's index or a JSON Schema."""
    title = str(path)
    try:
        raw = path.read_bytes()
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
    except OSError as error:
        return InboxEntry(path, None, invalid(title, "file_unreadable", f"Cannot read the file: {error}", (), ""))
    if not isinstance(message, (InboxMessage, CodeInboxMessage)):
        kind = type(message).__name__
        return InboxEntry(path, None, invalid(title, "payload_kind", f"The file holds a {kind}, not a message", (), {}))
    return InboxEntry(path, message, None, gate)


def _is_listed(item: os.DirEntry[str]) -> bool:
    """Whether a folder entry is read: a file, or a name that leads nowhere (its entry then says why)."""
    try:
        item.stat()  # follows a symbolic link: fails for a dangling one or a loop
    except OSError:
        return True
    return item.is_file()  # not a folder, a pipe or a device, whose reading would fail or never end


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


def _same_message(path: Path, message: CortexMessage, workflow_gate: str | None) -> bool:
    entry = _read_message_file(path)
    return entry is not None and entry.message == message and entry.workflow_gate == workflow_gate


def _temporary(path: Path, data: bytes) -> Path:
    """A new file beside ``path`` holding ``data``, with the mode ``path`` has, or a new file would have.

    It is created with mode 0o666, from which the system takes the umask, as for
    any file the client creates; so the umask is never read (``os.umask`` can
    only be read by setting it, for the whole process, a race with other threads).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    while True:
        name = path.parent / f".{path.name}.{secrets.token_hex(8)}.tmp"
        try:
            handle = os.open(name, flags, 0o666)
        except FileExistsError:  # another writer's temporary file: draw another name
            continue
        break
    try:
        with os.fdopen(handle, "wb") as file:
            mode = _mode_of(path)
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(file.fileno(), mode)
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except BaseException:
        os.unlink(name)
        raise
    return name


def _mode_of(path: Path) -> int | None:
    """The permission bits of the file ``path`` replaces, or ``None`` if there is none."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return None


def _replace(path: Path, data: bytes) -> None:
    temporary = _temporary(path, data)
    try:
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _create(path: Path, data: bytes) -> None:
    """Write ``path`` whole, only if it does not exist (a ``FileExistsError`` otherwise)."""
    temporary = _temporary(path, data)
    try:
        # A hard link appears whole and fails if the name is taken: no window between a check and a write.
        os.link(temporary, path)
    except FileExistsError:
        raise
    except OSError:
        # A file system without hard links: the name is taken empty, then the whole file replaces it.
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
