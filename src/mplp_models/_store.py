"""The store's one implementation: every version of every document, over a backend's SQL (``mplp_models.store``).

A document is named by its kind and its id (the kind's id field: ``plan_id``...);
an id names one document, as in a session (``check_flow``'s ``id_kind`` rule).
Two tables hold it:

* ``mplp_documents``, one row a document: its latest version whole (the
  canonical JSON bytes, their sha256, when it was written) and what ``session``
  looks it up by (the context it names; the document a confirm or an event names);
* ``mplp_versions``, one row a version: its number, sha256 and time, and its
  bytes either whole or as its change from the version before (the bytes kept
  at the start and at the end, and those between). Every ``KEYFRAME_EVERY``-th
  version is whole, so reading any version applies at most that many changes.

A version is kept as its change because agents edit a document a little at a
time: moving one step of a 1,000-step plan (132 kB) changes 11 bytes, and
whole copies would make its 2,000 versions 264 MB. A change is the one range
between what the two versions share at their start and at their end: found
by comparing bytes (no JSON walk), applied by two slices, never larger than
the version itself. A damaged row is found as any is: by the sha256 of the
bytes it gives.

``put`` is one transaction: it reads the document's row, compares it with the
version the writer read (``expected``), and writes the next version with an
``UPDATE ... WHERE version = ? AND sha256 = ?`` of that row, or the row's
``INSERT`` for a new document. Two writers of one version cannot both succeed:
the second's update finds no row, or its insert breaks the primary key, and it
gets ``StoreConflict`` with nothing written. Every read checks the sha256 of
the bytes it returns.

The backends (``_store_sqlite``, ``_store_postgres``) give a transaction, the
row writes of ``mplp_documents`` (PostgreSQL's also fill a ``jsonb`` column) and
their error words; everything else is here, once.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timezone
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from pydantic import ValidationError
from typing_extensions import Self

from mplp_models._base import MplpModel
from mplp_models._kinds import KINDS, Kind
from mplp_models._public import publish
from mplp_models._text import encodable

if TYPE_CHECKING:
    from mplp_models._parse import Payload

__all__ = [
    "KEYFRAME_EVERY",
    "DocumentNotFound",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoreIntegrityError",
    "Version",
]

_D = TypeVar("_D", bound="Payload")  # a document of a top-level kind (or of a subclass of one)

KEYFRAME_EVERY = 64
"""Versions 1, 65, 129... are kept whole; the others as their change from the version before."""

SCHEMA_VERSION = "1"
"""The layout of the tables, kept in ``mplp_store``; a store of another layout is refused, never rewritten."""

_ORDER = {kind.name: position for position, kind in enumerate(KINDS)}
_KINDS = {kind.name: kind for kind in KINDS}
_NUL_ESCAPE = b"\\u0000"


class StoreError(Exception):
    """The store could not do what was asked (full disk, read-only file, lost connection...); the message says why."""


class StoreConflict(StoreError):
    """A ``put`` whose ``expected`` version is not the document's latest: another writer wrote first.

    Nothing was written. Read the document again, make the change anew, and put it
    with the version just read (``Store.update`` does this loop).
    """


class StoreIntegrityError(StoreError):
    """Stored bytes that do not match their sha256, or that are no longer a valid document: never returned."""


class DocumentNotFound(StoreError, LookupError):
    """No document of that kind under that id (or no such version of it)."""


@dataclass(frozen=True)
class Version:
    """One version of a stored document: its kind and id, its number (1, 2, ...), the sha256 of its bytes, its time.

    Attributes:
        kind: The model's name (``"Plan"``).
        id: The document's id (the value of its kind's id field, ``plan_id`` for a plan).
        number: 1 for the first version of the document, then one more for each ``put``.
        sha256: The hex sha256 of the version's canonical JSON bytes (``document.to_json()``).
        written_at: When the writer's ``put`` wrote it (the writer's clock, UTC).
    """

    kind: str
    id: str
    number: int
    sha256: str
    written_at: datetime


class Transaction(Protocol):
    """One transaction of a backend: statements with ``?`` placeholders."""

    def rows(self, sql: str, parameters: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """The rows of a query."""
        ...

    def run(self, sql: str, parameters: Sequence[object] = ()) -> int:
        """Run a statement; the number of rows it changed."""
        ...


@dataclass(frozen=True)
class Entry:
    """What ``put`` writes of a document: its key, bytes and hash, and what ``session`` finds it by."""

    kind: str
    id: str
    body: bytes
    sha256: str
    context_id: str | None
    refers_to: str | None


@dataclass(frozen=True)
class Head:
    """A document's row: its kind, latest version (number, sha256, time as stored) and that version's bytes."""

    kind: str
    number: int
    sha256: str
    written_at: Any
    body: bytes


def kind_of_class(model: type[Any]) -> Kind | None:
    """The registered kind of a model class (or of the nearest such class it derives from); ``None`` if none."""
    for klass in getattr(model, "__mro__", ()):
        kind = _KINDS.get(klass.__name__)
        if kind is not None and kind.model is klass:
            return kind
    return None


def model_named(name: str) -> type[Payload]:
    """The model class of the top-level kind ``name`` (``"Plan"``); a ``KeyError`` for another name."""
    return cast("type[Payload]", _KINDS[name].model)


def _whole(value: object, name: str) -> None:
    """A ``TypeError`` naming ``name`` for a count that is no int: a bool, a float, a text (an IntEnum member is)."""
    if isinstance(value, bool) or not isinstance(value, int):  # True and 1.0 would compare equal to 1
        raise TypeError(f"{name} must be an int or None, not {type(value).__name__}")


def _kind_asked(model: type[Any]) -> Kind:
    kind = kind_of_class(model)
    if kind is None:
        name = getattr(model, "__name__", repr(model))
        raise TypeError(f"a store holds whole documents (Plan, Trace, Context...); {name} is not such a kind")
    return kind


def entry_of(document: object) -> Entry:
    """The entry of a document to ``put``; a ``TypeError`` for anything but a model of a top-level kind."""
    kind = kind_of_class(type(document))
    if kind is None or not isinstance(document, MplpModel):
        if isinstance(document, (dict, str, bytes)):
            given = type(document).__name__  # pyright: ignore[reportUnknownArgumentType]
            raise TypeError(
                f"put takes a document (a model such as mm.Plan), not a {given}: "
                "read it first (mm.parse(...), or Plan.from_json(...))"
            )
        raise TypeError(f"put takes a document of a top-level kind (Plan, Trace, Context...), not {document!r:.80}")
    identifier = getattr(document, kind.id_field)
    body = document.to_json()
    context_id, refers_to = _session_keys(kind.name, document)
    return Entry(kind.name, str(identifier), body, hashlib.sha256(body).hexdigest(), context_id, refers_to)


def _session_keys(kind: str, document: MplpModel) -> tuple[str | None, str | None]:
    """The context a document names, and the document it belongs to when it names no context (``session``'s keys)."""
    fields = document.__dict__
    if kind == "Confirm":
        target = fields["target_id"]
        return (target, None) if getattr(fields["target_type"], "value", None) == "context" else (None, target)
    if kind == "Event":
        return None, fields.get("trace_id")
    context = fields.get("context_id")
    return (context if isinstance(context, str) else None), None


def stored_form(number: int, before: bytes | None, after: bytes) -> tuple[int | None, int | None, bytes]:
    """How version ``number`` is kept: ``(None, None, after)`` whole, or ``(kept at start, kept at end, between)``."""
    if before is None or (number - 1) % KEYFRAME_EVERY == 0:
        return None, None, after
    limit = min(len(before), len(after))
    start = _shared_start(before, after, limit)
    end = _shared_end(before, after, limit - start)
    if start + end == 0:
        return None, None, after
    return start, end, after[start : len(after) - end]


def _shared_start(before: bytes, after: bytes, limit: int) -> int:
    """The length of the longest shared start (at most ``limit``): a binary search comparing each byte about twice."""
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if before[low:middle] == after[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _shared_end(before: bytes, after: bytes, limit: int) -> int:
    low, high = 0, limit
    size_before, size_after = len(before), len(after)
    while low < high:
        middle = (low + high + 1) // 2
        if before[size_before - middle : size_before - low] == after[size_after - middle : size_after - low]:
            low = middle
        else:
            high = middle - 1
    return low


def as_bytes(value: object) -> bytes:
    """A stored body as bytes: a text one (a row changed in SQL by hand) as its UTF-8, which its sha256 then judges."""
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    if isinstance(value, bytes):
        return value
    if isinstance(value, memoryview):
        return value.tobytes()
    raise StoreIntegrityError(f"a stored body is a {type(value).__name__}, not bytes (a row changed by hand)")


def rebuilt(rows: Sequence[tuple[Any, ...]]) -> bytes:
    """The bytes of the last of ``rows`` (``(number, kept at start, kept at end, bytes)``, a whole one first)."""
    body = b""
    for number, start, end, data in rows:
        if start is None:
            body = as_bytes(data)
        elif type(start) is not int or type(end) is not int or min(start, end) < 0:
            raise StoreIntegrityError(f"version {number} is kept as a change whose bounds are damaged")
        elif not body or start + end > len(body):
            raise StoreIntegrityError(f"version {number} is kept as a change from a version that is not there")
        else:
            body = body[:start] + as_bytes(data) + body[len(body) - end :]
    return body


def _searchable(id: object) -> bool:
    """Whether ``id`` may name a stored document: a ``str`` with a UTF-8 form (one with a lone surrogate, as a
    command line's undecodable bytes give, names none; every stored id is a valid model's)."""
    return not isinstance(id, str) or encodable(id)


class Store(ABC):
    """Every version of every document, on one backend: ``SqliteStore`` or ``PostgresStore``.

    The methods are the same on both, and so is what they do: ``put`` appends a
    version (compare-and-set on the version the writer read), ``get`` / ``read``
    give a version back as its model, every read checks the sha256 of the bytes.
    A store is a context manager (``with SqliteStore(path) as store:``); it may be
    used by several threads, and each process opens its own.
    """

    location: str
    """The file or the server the store is in (never a password)."""

    # --- what a backend gives -------------------------------------------------------------------

    @abstractmethod
    def _writing(self) -> AbstractContextManager[Transaction]:
        """A write transaction, committed at the end: each backend error a ``StoreError`` (a lost race a conflict)."""

    @abstractmethod
    def _reading(self) -> AbstractContextManager[Transaction]:
        """A read transaction (one snapshot)."""

    @abstractmethod
    def _insert_head(self, transaction: Transaction, entry: Entry, number: int, at: datetime) -> None:
        """Write the row of a new document (a conflict if the id is taken meanwhile)."""

    @abstractmethod
    def _update_head(self, transaction: Transaction, entry: Entry, number: int, at: datetime, before: Head) -> bool:
        """Move the row of a document from ``before`` to version ``number``; whether it still was ``before``."""

    @abstractmethod
    def _time(self, value: Any) -> datetime:
        """A stored time as an aware ``datetime`` in UTC."""

    @abstractmethod
    def _stored_time(self, at: datetime) -> object:
        """A ``datetime`` as the backend stores it."""

    @abstractmethod
    def close(self) -> None:
        """Close the store's connection; the store can no longer be used."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    # --- writing ----------------------------------------------------------------------------------

    def put(self, document: Payload, *, expected: Version | None = None) -> Version:
        """Append ``document`` as the next version of its kind and id; that version.

        Args:
            document: A model of a top-level kind (``Plan``, ``Trace``, ``Context``...). Its bytes are its
                ``to_json()``.
            expected: The version the writer read and changed (``None`` for a document not stored yet). If
                it is not the document's latest version, nothing is written.

        Raises:
            StoreConflict: ``expected`` is not the latest version (another writer wrote first), or ``None``
                for a document that is stored.
            StoreError: The id names a document of another kind; or the backend failed (a full disk, a
                read-only file): nothing was written.
            TypeError: ``document`` is not a model of a top-level kind (a dict, a ``PlanStep``...).
            ValueError: ``expected`` is a version of another document.
        """
        entry = entry_of(document)
        if expected is not None and (expected.kind, expected.id) != (entry.kind, entry.id):
            raise ValueError(f"expected is a version of {expected.kind} {expected.id}, not of {entry.kind} {entry.id}")
        at = datetime.now(timezone.utc)
        with self._writing() as transaction:
            head = self._head(transaction, entry.id)
            number = _next_number(entry, head, None if head is None else self._read_time(head.written_at), expected)
            if head is None:
                self._insert_head(transaction, entry, number, at)
            elif not self._update_head(transaction, entry, number, at, head):
                raise _conflict(entry, expected, "another writer wrote it meanwhile")
            self._insert_version(transaction, entry, number, at, None if head is None else head.body)
        return Version(entry.kind, entry.id, number, entry.sha256, at)

    def update(self, kind: type[_D], id: str, change: Callable[[_D], _D], *, attempts: int | None = None) -> Version:
        """Read the latest version, apply ``change`` to it, put the result; again on each ``StoreConflict``.

        ``change`` may be called several times (once per attempt), each time with the
        latest document: it must compute the new document from its argument alone.
        Each conflict means another writer's version landed, so the writers as a whole
        always move on.

        Args:
            kind: The model class (``mm.Plan``).
            id: The document's id.
            change: The edit: the latest document in, the new document out.
            attempts: At most this many puts, one or more (``None``: until one lands); the last conflict is
                raised then. A count below 1 is a ``ValueError``, one that is no int a ``TypeError``, before
                anything is read.

        Returns:
            The version written.
        """
        if attempts is not None:
            _whole(attempts, "attempts")
            if attempts < 1:
                raise ValueError(f"attempts must be 1 or more, or None (until one lands); found {attempts!r}")
        tried = 0
        while True:
            document, seen = self.read(kind, id)
            try:
                return self.put(change(document), expected=seen)
            except StoreConflict:
                tried += 1
                if attempts is not None and tried >= attempts:
                    raise

    def delete(self, kind: type[Payload], id: str) -> int:
        """Forget the document: remove every version of it; how many there were (0 if it is not stored).

        Its history goes with it: ``history`` is then empty, ``get`` raises
        ``DocumentNotFound``, and a later ``put`` (with ``expected=None``) starts a new
        history at version 1. A writer holding a version of it gets ``StoreConflict``.

        Raises:
            DocumentNotFound: The id names a document of another kind (which is not removed).
        """
        asked = _kind_asked(kind)
        with self._writing() as transaction:
            head = self._head(transaction, id)
            if head is None:
                return 0
            if head.kind != asked.name:
                raise DocumentNotFound(f"{id} names a {head.kind} in {self.location}, not a {asked.name}")
            removed = transaction.run("DELETE FROM mplp_versions WHERE id = ?", (id,))
            transaction.run("DELETE FROM mplp_documents WHERE id = ?", (id,))
        return removed

    def copy_from(self, source: Store) -> int:
        """Copy every version of every document of ``source`` here, with its number, bytes and time; how many.

        Each version read from ``source`` is checked (its sha256) before it is written;
        each document is copied in one transaction, so a failed copy leaves whole
        documents only. The way from SQLite to PostgreSQL (and back).

        Raises:
            StoreConflict: This store already holds one of the documents (those before it are copied).
        """
        copied = 0
        for head in source.latest():
            history = source._history(head.kind, head.id)
            versions = [(version, source._bytes_of(version.kind, version.id, version.number)[1]) for version in history]
            self._write_copy(versions)
            copied += len(versions)
        return copied

    def _write_copy(self, versions: Sequence[tuple[Version, bytes]]) -> None:
        first, last = versions[0][0], versions[-1][0]
        model = _KINDS[first.kind].model
        entry = entry_of(model.from_json(versions[-1][1]))
        with self._writing() as transaction:
            head = self._head(transaction, first.id)
            if head is not None:
                raise StoreConflict(f"{head.kind} {first.id} is in {self.location} already; nothing of it copied")
            before: bytes | None = None
            for version, body in versions:
                kept = Entry(version.kind, version.id, body, version.sha256, None, None)
                self._insert_version(transaction, kept, version.number, version.written_at, before)
                before = body
            self._insert_head(transaction, entry, last.number, last.written_at)

    def _insert_version(
        self, transaction: Transaction, entry: Entry, number: int, at: datetime, before: bytes | None
    ) -> None:
        start, end, data = stored_form(number, before, entry.body)
        transaction.run(
            "INSERT INTO mplp_versions (id, version, kind, sha256, written_at, keep_start, keep_end, body)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (entry.id, number, entry.kind, entry.sha256, self._stored_time(at), start, end, data),
        )

    def _head(self, transaction: Transaction, id: str) -> Head | None:
        if not _searchable(id):
            return None
        rows = transaction.rows(
            "SELECT kind, version, sha256, written_at, body FROM mplp_documents WHERE id = ?", (id,)
        )
        if not rows:
            return None
        kind, number, sha256, written_at, body = rows[0]
        return Head(kind, number, sha256, written_at, as_bytes(body))

    # --- reading ----------------------------------------------------------------------------------

    def get(self, kind: type[_D], id: str, *, version: int | None = None) -> _D:
        """The document ``id`` of ``kind``: its latest version, or version number ``version``.

        Raises:
            DocumentNotFound: No such document (or no such version of it); the message says if the id
                names a document of another kind.
            TypeError: ``version`` is neither an int nor None (a bool, a float, a string).
            StoreIntegrityError: Its stored bytes do not match their sha256 (a damaged row): not returned.
        """
        return self.read(kind, id, version=version)[0]

    def read(self, kind: type[_D], id: str, *, version: int | None = None) -> tuple[_D, Version]:
        """The document and its version, read together: pass the version to ``put`` as ``expected``.

        As ``get``, which it is with the version beside the document.
        """
        asked = _kind_asked(kind)
        found, body = self._bytes_of(asked.name, id, version)
        return _document(kind, body, found), found

    def get_json(self, kind: type[Payload] | None, id: str, *, version: int | None = None) -> bytes:
        """The canonical JSON bytes of a version (checked against its sha256); ``kind`` ``None`` for any kind."""
        name = None if kind is None else _kind_asked(kind).name
        return self._bytes_of(name, id, version)[1]

    def version(self, kind: type[Payload], id: str) -> Version:
        """The latest version of the document (its number, sha256 and time), without reading its bytes.

        Raises:
            DocumentNotFound: No such document.
        """
        asked = _kind_asked(kind)
        rows: list[tuple[Any, ...]] = []
        if _searchable(id):
            with self._reading() as transaction:
                query = "SELECT kind, version, sha256, written_at FROM mplp_documents WHERE id = ?"
                rows = transaction.rows(query, (id,))
        if not rows or rows[0][0] != asked.name:
            raise self._not_found(asked.name, id, rows[0][0] if rows else None)
        return Version(asked.name, id, rows[0][1], rows[0][2], self._read_time(rows[0][3]))

    def history(self, kind: type[Payload], id: str) -> list[Version]:
        """Every version of the document, first to latest; empty if the store holds no such document."""
        return self._history(_kind_asked(kind).name, id)

    def _history(self, kind: str, id: str) -> list[Version]:
        if not _searchable(id):
            return []
        with self._reading() as transaction:
            rows = transaction.rows(
                "SELECT version, sha256, written_at FROM mplp_versions WHERE id = ? AND kind = ? ORDER BY version",
                (id, kind),
            )
        return [Version(kind, id, number, sha256, self._read_time(at)) for number, sha256, at in rows]

    def latest(self, kind: type[Payload] | None = None) -> list[Version]:
        """The latest version of every document (of ``kind``, if given), by kind then id."""
        query = "SELECT kind, id, version, sha256, written_at FROM mplp_documents"
        parameters: tuple[str, ...] = ()
        if kind is not None:
            query, parameters = query + " WHERE kind = ?", (_kind_asked(kind).name,)
        with self._reading() as transaction:
            rows = transaction.rows(query, parameters)
        found = [Version(name, id, number, sha256, self._read_time(at)) for name, id, number, sha256, at in rows]
        return sorted(found, key=lambda version: (_ORDER.get(version.kind, len(_ORDER)), version.id))

    def session(self, context_id: str) -> list[Payload]:
        """The latest version of every document of the context ``context_id``, by kind then id.

        Those are the documents that name the context (the context itself, and those
        whose ``context_id`` it is; a confirm whose target it is), and the confirms and
        events that name one of them (a confirm's ``target_id``, an event's ``trace_id``):
        the set that ``check_flow`` and ``save_flow`` take.
        """
        if not _searchable(context_id):
            return []
        with self._reading() as transaction:
            rows = transaction.rows(
                "SELECT kind, id, version, sha256, written_at, body FROM mplp_documents WHERE context_id = ?"
                " UNION ALL SELECT kind, id, version, sha256, written_at, body FROM mplp_documents"
                " WHERE context_id IS NULL AND refers_to IN (SELECT id FROM mplp_documents WHERE context_id = ?)",
                (context_id, context_id),
            )
        rows.sort(key=lambda row: (_ORDER.get(row[0], len(_ORDER)), row[1]))
        documents: list[Payload] = []
        for kind, id, number, sha256, at, body in rows:
            version = Version(kind, id, number, sha256, self._read_time(at))
            data = _checked(as_bytes(body), version, self.location)
            documents.append(_document(_KINDS[kind].model, data, version))
        return documents

    def _bytes_of(self, kind: str | None, id: str, number: int | None) -> tuple[Version, bytes]:
        """The version ``number`` (the latest if ``None``) of the document ``id`` and its checked bytes."""
        if number is not None:
            _whole(number, "version")
        with self._reading() as transaction:
            head = self._head(transaction, id)
            if head is None or (kind is not None and head.kind != kind):
                raise self._not_found(kind, id, None if head is None else head.kind)
            if number is None or number == head.number:
                version = Version(head.kind, id, head.number, head.sha256, self._read_time(head.written_at))
                return version, _checked(head.body, version, self.location)
            if not 1 <= number <= head.number:
                raise DocumentNotFound(
                    f"{head.kind} {id} has versions 1 to {head.number} in {self.location}: no version {number}"
                )
            first = number - (number - 1) % KEYFRAME_EVERY
            rows = transaction.rows(
                "SELECT version, keep_start, keep_end, body, sha256, written_at FROM mplp_versions"
                " WHERE id = ? AND version BETWEEN ? AND ? ORDER BY version",
                (id, first, number),
            )
        if len(rows) != number - first + 1 or rows[-1][0] != number:
            raise StoreIntegrityError(
                f"{head.kind} {id}: rows of versions {first} to {number} are missing from {self.location}"
            )
        version = Version(head.kind, id, number, rows[-1][4], self._read_time(rows[-1][5]))
        try:
            body = rebuilt([row[:4] for row in rows])
        except StoreIntegrityError as error:
            raise StoreIntegrityError(f"{head.kind} {id} in {self.location}: {error}") from None
        return version, _checked(body, version, self.location)

    def _read_time(self, value: Any) -> datetime:
        """A stored time (``_time``); a ``StoreIntegrityError`` for one that is no time (a damaged row)."""
        try:
            return self._time(value)
        except (ValueError, TypeError, OverflowError) as error:
            raise StoreIntegrityError(f"{self.location}: a stored time is damaged ({value!r:.60}: {error})") from None

    def _not_found(self, kind: str | None, id: str, found: str | None) -> DocumentNotFound:
        if found is None:
            return DocumentNotFound(f"no {kind or 'document'} {id} in {self.location}")
        return DocumentNotFound(f"{id} names a {found} in {self.location}, not a {kind}")


def _next_number(entry: Entry, head: Head | None, written_at: datetime | None, expected: Version | None) -> int:
    """The number of the version to write; a conflict if ``expected`` is not the latest."""
    if head is not None and head.kind != entry.kind:
        raise StoreError(
            f"{entry.id} names a {head.kind} in the store: a {entry.kind} cannot be stored under it"
            " (an id names one document)"
        )
    if expected is None:
        if head is not None:
            raise _conflict(entry, expected, f"it is stored already (latest version {head.number})")
        return 1
    if head is None:
        raise _conflict(entry, expected, "it is no longer stored (deleted)")
    if (head.number, head.sha256, written_at) != (expected.number, expected.sha256, expected.written_at):
        # The time too: a document deleted and put again starts at version 1, maybe with the same bytes.
        raise _conflict(entry, expected, f"the latest version is {head.number}")
    return head.number + 1


def _conflict(entry: Entry, expected: Version | None, why: str) -> StoreConflict:
    read = "as a new document" if expected is None else f"on version {expected.number}"
    return StoreConflict(
        f"{entry.kind} {entry.id} was not written {read}: {why}; nothing was written"
        " (read it again and redo the change)"
    )


def _checked(body: bytes, version: Version, location: str) -> bytes:
    found = hashlib.sha256(body).hexdigest()
    if found != version.sha256:
        raise StoreIntegrityError(
            f"{version.kind} {version.id} version {version.number} in {location}: its bytes have sha256 {found},"
            f" not the {version.sha256} written with them (a damaged row): not returned"
        )
    return body


def _document(model: type[Any], body: bytes, version: Version) -> Any:
    try:
        return model.from_json(body)
    except ValidationError as error:
        raise StoreIntegrityError(
            f"{version.kind} {version.id} version {version.number}: its stored bytes are no valid {model.__name__}"
            f" ({error.error_count()} errors; first: {error.errors()[0]['msg']})"
        ) from None


publish(__name__)  # StoreConflict shown as mplp_models.StoreConflict, the rest as mplp_models.store.<name>
