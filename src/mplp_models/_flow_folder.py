"""``save_flow`` / ``load_flow``: a session as a folder of documents, the folder ``validate --flow`` reads.

One file a document, named ``<name>.json``, holding the document's ``to_json()``
bytes. Each file is written whole or not at all: into a temporary file of the
folder (named ``.mplp-<hex>.tmp``, which no reader of ``*.json`` takes), synced,
then renamed over its name, and the folder synced after the last rename. Nothing
is followed through a symbolic link: neither a file to replace nor one to read,
nor the folder itself.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import cast, overload

from pydantic import ValidationError

from mplp_models._base import MplpModel
from mplp_models._folders import sync_folder
from mplp_models._kinds import Kind
from mplp_models._parse import Payload, parse
from mplp_models._store import kind_of_class

__all__ = ["json_entries", "load_flow", "regular_file_bytes", "save_flow", "write_flow"]

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\.json")
_OUTSIDE_NAME = re.compile(r"[^A-Za-z0-9_.-]+")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)


@overload
def save_flow(
    documents: Mapping[str, Payload], folder: str | os.PathLike[str], *, overwrite: bool = False
) -> list[Path]: ...


@overload
def save_flow(
    documents: Iterable[Payload], folder: str | os.PathLike[str], *, overwrite: bool = False
) -> list[Path]: ...


def save_flow(
    documents: Mapping[str, Payload] | Iterable[Payload],
    folder: str | os.PathLike[str],
    *,
    overwrite: bool = False,
) -> list[Path]:
    """Write the documents of a session into ``folder``, one ``*.json`` file each; the files written.

    Args:
        documents: A mapping of file names (``plan.json``: letters, digits, ``_.-``, ending in
            ``.json``) to documents, or the documents alone: each is then named by its kind
            (``plan.json``), or by its kind and id where the set holds several of that kind
            (``plan-<id>.json``).
        folder: The folder, made if it does not exist.
        overwrite: Replace files of the same names. A folder holding any other ``*.json`` entry (a
            file, or a folder so named) is refused even then (it would be loaded with the session):
            nothing is removed.

    Raises:
        FileExistsError: The folder holds ``*.json`` entries (without ``overwrite``), or one the session
            does not name; nothing was written.
        OSError: The folder, or a file to replace, is a symbolic link or not a regular file (nothing was
            written); or writing failed (each file already renamed into place is whole).
        TypeError: A value is not a document of a top-level kind.
        ValueError: A file name is not of the form above, or two documents would have one name.
    """
    return write_flow(documents, folder, overwrite=overwrite, overwrite_option="overwrite=True")


def write_flow(
    documents: Mapping[str, Payload] | Iterable[Payload],
    folder: str | os.PathLike[str],
    *,
    overwrite: bool,
    overwrite_option: str,
) -> list[Path]:
    """``save_flow``, whose refusal of a folder already holding ``*.json`` files names ``overwrite_option``.

    The option is the caller's way to say "replace": ``overwrite=True`` for ``save_flow``'s callers,
    ``--overwrite`` for the command line's ``store export``.
    """
    named = _named(documents)
    bodies = {name: document.to_json() for name, document in named.items()}
    place = Path(folder)
    made = _folder_for_writing(place)
    _check_room(place, set(bodies), overwrite, overwrite_option)
    written: list[Path] = []
    for name, body in bodies.items():
        _write_whole(place, name, body)
        written.append(place / name)
    sync_folder(place)
    if made:
        sync_folder(place.absolute().parent)
    return written


def load_flow(folder: str | os.PathLike[str], *, semantic: bool = True) -> dict[str, Payload]:
    """The documents of the session in ``folder``, by file name: every ``*.json`` file, each read as ``parse`` does.

    All or nothing: one ``*.json`` entry that is not a valid document (or a symbolic link, a
    folder, or unreadable) and nothing is returned. ``validate --flow`` reads the same entries and
    reports the same ones, but for a symbolic link, which it follows.

    Args:
        folder: The folder.
        semantic: Check each document's rules beyond its schema (``False``: the schema alone).

    Raises:
        ValueError: A ``*.json`` entry is not a valid document, is a symbolic link or a folder, or
            cannot be read: the message names every such entry and why.
        OSError: The folder cannot be read (or is a symbolic link).
    """
    place = Path(folder)
    if place.is_symlink():
        raise OSError(errno.ELOOP, "is a symbolic link, which load_flow does not follow", str(place))
    documents: dict[str, Payload] = {}
    problems: list[str] = []
    first: ValidationError | None = None
    for name in sorted(json_entries(place)):
        try:
            documents[name] = parse(regular_file_bytes(place / name), semantic=semantic)
        except ValidationError as error:
            first = first or error
            problems.append(f"{name}: {_first_problem(error)}")
        except OSError as error:
            problems.append(f"{name}: {error.strerror or error}")
    if problems:
        raise ValueError(f"{place}: nothing loaded: {'; '.join(problems)}") from first
    return documents


def _named(documents: Mapping[str, Payload] | Iterable[Payload]) -> dict[str, MplpModel]:
    if not isinstance(documents, Mapping):
        return _names_by_kind(list[MplpModel](documents))
    given = dict(cast("Mapping[object, object]", documents))  # the types are the caller's word: checked here
    for name, document in given.items():
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise ValueError(f"{name!r} is no file name save_flow writes (letters, digits, _.- and .json at the end)")
        _kind_of(document, name)
    return cast("dict[str, MplpModel]", given)


def _kind_of(document: object, name: str) -> Kind:
    kind = kind_of_class(type(document))
    if kind is None or not isinstance(document, MplpModel):
        raise TypeError(f"{name}: save_flow writes documents of a top-level kind, not {type(document).__name__}")
    return kind


def _names_by_kind(documents: list[MplpModel]) -> dict[str, MplpModel]:
    keys: list[tuple[str, str]] = []
    for position, document in enumerate(documents):
        kind = _kind_of(document, f"document {position}")
        keys.append((kind.slug, str(getattr(document, kind.id_field))))
    counts = Counter(slug for slug, _ in keys)
    named: dict[str, MplpModel] = {}
    for (slug, id), document in zip(keys, documents):
        name = f"{slug}.json" if counts[slug] == 1 else f"{slug}-{_OUTSIDE_NAME.sub('-', id)}.json"
        if name in named:
            raise ValueError(f"two documents would be written as {name}: pass a mapping of names to documents")
        named[name] = document
    return named


def _folder_for_writing(place: Path) -> bool:
    """Make sure ``place`` is a real folder (made if missing, with its parents); whether it was made."""
    try:
        info = os.lstat(place)
    except FileNotFoundError:
        place.mkdir(parents=True)
        return True
    if stat.S_ISLNK(info.st_mode):
        raise OSError(
            errno.ELOOP, "is a symbolic link, which save_flow does not follow; nothing was written", str(place)
        )
    if not stat.S_ISDIR(info.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, "is not a folder; nothing was written", str(place))
    return False


def _check_room(place: Path, names: set[str], overwrite: bool, overwrite_option: str) -> None:
    """Refuse, before writing anything, a folder whose ``*.json`` files the session would not replace exactly."""
    present = set(json_entries(place))
    if present and not overwrite:
        raise FileExistsError(
            errno.EEXIST,
            f"holds {', '.join(sorted(present))}; nothing was written ({overwrite_option} replaces)",
            str(place),
        )
    others = sorted(present - names)
    if others:
        raise FileExistsError(
            errno.EEXIST,
            f"holds {', '.join(others)}, which the session does not name (it would be loaded with it);"
            " nothing was written",
            str(place),
        )
    for name in sorted(present & names):
        info = os.lstat(place / name)
        if not stat.S_ISREG(info.st_mode):
            what = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a regular file"
            raise OSError(errno.EEXIST, f"is {what}, which is never replaced; nothing was written", str(place / name))


def json_entries(place: Path) -> list[str]:
    """The names of the folder's ``*.json`` entries: files, links, folders and all (a folder is no document)."""
    with os.scandir(place) as entries:
        return [entry.name for entry in entries if entry.name.endswith(".json")]


def _write_whole(place: Path, name: str, body: bytes) -> None:
    """Put ``body`` at ``place / name``: a synced temporary file renamed over the name."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _BINARY
    while True:
        temporary = place / f".mplp-{secrets.token_hex(8)}.tmp"
        try:
            handle = os.open(temporary, flags, 0o666)
            break
        except FileExistsError:  # drawn twice: draw another name
            continue
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(body)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, place / name)
    finally:
        temporary.unlink(missing_ok=True)


def regular_file_bytes(path: Path, *, follow: bool = False) -> bytes:
    """The bytes of the regular file ``path``; an ``OSError`` for a folder, a pipe or a device (never waited on),
    and, unless ``follow``, for a symbolic link (never followed)."""
    nofollow = 0 if follow else _NOFOLLOW
    if not follow and not _NOFOLLOW and path.is_symlink():  # pragma: no cover - where no open refuses a link
        raise OSError(errno.ELOOP, "a symbolic link, which load_flow does not follow")
    try:
        handle = os.open(path, os.O_RDONLY | nofollow | _BINARY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        if not follow and error.errno in (errno.ELOOP, errno.EMLINK) and path.is_symlink():
            raise OSError(errno.ELOOP, "a symbolic link, which load_flow does not follow") from None
        raise
    mode = os.fstat(handle).st_mode
    if not stat.S_ISREG(mode):
        os.close(handle)
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "a folder, not a document file")
        raise OSError(errno.EINVAL, "not a regular file (a pipe or a device)")
    with os.fdopen(handle, "rb") as file:
        return file.read()


def _first_problem(error: ValidationError) -> str:
    entry = error.errors()[0]
    where = "/".join(str(part) for part in entry["loc"])
    more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return f"invalid {error.title}: {'/' + where + ': ' if where else ''}{entry['msg']}{more}"
