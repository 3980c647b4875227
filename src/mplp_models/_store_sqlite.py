"""``SqliteStore``: the store in one SQLite file, with the standard library's ``sqlite3`` (nothing to install).

The file is in WAL mode with ``synchronous=FULL``: a ``put`` that returned is on
disk, and a process killed at any point leaves the file as the last committed
transaction left it. Each ``put`` is one ``BEGIN IMMEDIATE`` transaction, which
takes the file's write lock at once: writers of several processes take turns
(each waits up to ``timeout`` seconds), readers never wait for them.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Generator, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from mplp_models._public import publish
from mplp_models._store import (
    SCHEMA_VERSION,
    Entry,
    Head,
    Store,
    StoreConflict,
    StoreError,
    StoreIntegrityError,
    Transaction,
)

__all__ = ["SqliteStore"]

# sqlite3 raises UnicodeDecodeError where SQLite's message about a damaged file quotes bytes that are not UTF-8
# (a table's name in "malformed database schema (...)").
_ERRORS = (sqlite3.Error, UnicodeDecodeError)


_TABLES = """
CREATE TABLE IF NOT EXISTS mplp_store (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS mplp_documents (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, version INTEGER NOT NULL, sha256 TEXT NOT NULL,
    written_at TEXT NOT NULL, context_id TEXT, refers_to TEXT, body BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS mplp_documents_context ON mplp_documents (context_id);
CREATE INDEX IF NOT EXISTS mplp_documents_refers_to ON mplp_documents (refers_to);
CREATE TABLE IF NOT EXISTS mplp_versions (
    id TEXT NOT NULL, version INTEGER NOT NULL, kind TEXT NOT NULL, sha256 TEXT NOT NULL, written_at TEXT NOT NULL,
    keep_start INTEGER, keep_end INTEGER, body BLOB NOT NULL, PRIMARY KEY (id, version)
);
"""


class _Transaction:
    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    def rows(self, sql: str, parameters: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        return self._connection.execute(sql, parameters).fetchall()

    def run(self, sql: str, parameters: Sequence[object] = ()) -> int:
        return self._connection.execute(sql, parameters).rowcount


class SqliteStore(Store):
    """The store in the SQLite file ``path`` (made with its tables if it does not exist).

    Args:
        path: The file (``":memory:"`` for a store that lives as long as the object).
        read_only: Open an existing file for reading only: every ``put`` and ``delete`` raises
            ``StoreError``, and a missing file is an error rather than a new store.
        timeout: How long a writer waits for another process's write to end, in seconds.

    Raises:
        StoreError: The path is empty (SQLite would keep the store in a temporary file, deleted at
            close), or the file cannot be opened, is not a store (or not SQLite), or is a store of
            another layout.
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False, timeout: float = 30.0) -> None:
        self.location: str = os.fspath(path)
        self._read_only = read_only
        self._lock = threading.RLock()
        if not self.location:  # SQLite's temporary file, deleted at close: every put would be lost
            raise StoreError("SqliteStore needs the path of a file (or ':memory:'): the path is empty")
        try:
            if read_only:
                uri = f"{Path(path).absolute().as_uri()}?mode=ro"
                self._connection = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            else:
                self._connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=timeout)
        except _ERRORS as error:
            raise StoreError(f"{self.location}: cannot open the store: {error}") from None
        try:
            self._set_up(timeout)
        except BaseException:
            self._connection.close()
            raise

    def _set_up(self, timeout: float) -> None:
        connection = self._connection
        try:
            self._refuse_foreign()
            if not self._read_only:
                _to_wal(connection, timeout)
            connection.execute("PRAGMA synchronous=FULL")
        except _ERRORS as error:
            raise _failure(self.location, error) from None
        if not self._read_only:
            with self._writing() as transaction:
                for statement in _TABLES.split(";"):
                    if statement.strip():
                        transaction.run(statement)
                transaction.run("INSERT OR IGNORE INTO mplp_store (key, value) VALUES ('schema', ?)", (SCHEMA_VERSION,))
        with self._reading() as transaction:
            rows = transaction.rows("SELECT value FROM mplp_store WHERE key = 'schema'")
        if rows != [(SCHEMA_VERSION,)]:
            layout = rows[0][0] if rows else None
            raise StoreError(
                f"{self.location}: a store of layout {layout!r}; this version reads layout {SCHEMA_VERSION!r}"
            )

    def _refuse_foreign(self) -> None:
        """A ``StoreError`` for a database that holds tables and no store's, before anything in it is changed."""
        names = {name for (name,) in self._connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if names and "mplp_store" not in names:
            shown = ", ".join(sorted(names)[:5]) + (", ..." if len(names) > 5 else "")
            raise StoreError(f"{self.location}: not a store: an SQLite database of other tables ({shown}), left as is")

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    @contextmanager
    def _writing(self) -> Generator[_Transaction, None, None]:
        with self._transaction("BEGIN IMMEDIATE") as transaction:
            yield transaction

    @contextmanager
    def _reading(self) -> Generator[_Transaction, None, None]:
        with self._transaction("BEGIN") as transaction:
            yield transaction

    @contextmanager
    def _transaction(self, begin: str) -> Generator[_Transaction, None, None]:
        with self._lock:
            connection = self._connection
            try:
                connection.execute(begin)
            except _ERRORS as error:
                raise _failure(self.location, error) from None
            try:
                yield _Transaction(connection)
                connection.execute("COMMIT")
            except BaseException as error:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
                if isinstance(error, _ERRORS):
                    raise _failure(self.location, error) from None
                raise

    def _insert_head(self, transaction: Transaction, entry: Entry, number: int, at: datetime) -> None:
        transaction.run(
            "INSERT INTO mplp_documents (id, kind, version, sha256, written_at, context_id, refers_to, body)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (entry.id, entry.kind, number, entry.sha256, at.isoformat(), entry.context_id, entry.refers_to, entry.body),
        )

    def _update_head(self, transaction: Transaction, entry: Entry, number: int, at: datetime, before: Head) -> bool:
        changed = transaction.run(
            "UPDATE mplp_documents SET version = ?, sha256 = ?, written_at = ?, context_id = ?, refers_to = ?, body = ?"
            " WHERE id = ? AND version = ? AND sha256 = ?",
            (number, entry.sha256, at.isoformat(), entry.context_id, entry.refers_to, entry.body)
            + (entry.id, before.number, before.sha256),
        )
        return changed == 1

    def _time(self, value: Any) -> datetime:
        return datetime.fromisoformat(value).astimezone(timezone.utc)

    def _stored_time(self, at: datetime) -> object:
        return at.astimezone(timezone.utc).isoformat()


def _to_wal(connection: sqlite3.Connection, timeout: float) -> None:
    """The file in WAL mode; waiting up to ``timeout`` seconds, as every writer does, for another process that is
    making it (the change of journal mode takes no turn in SQLite's busy wait: it fails at once)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as error:
            if not ("locked" in str(error) or "busy" in str(error)) or time.monotonic() >= deadline:
                raise
            time.sleep(0.005)
        else:
            return


def _failure(location: str, error: sqlite3.Error | UnicodeDecodeError) -> StoreError:
    """The ``StoreError`` that says what went wrong, in the words a user acts on."""
    if isinstance(error, UnicodeDecodeError):
        return StoreIntegrityError(f"{location}: a damaged store (SQLite's message: {error.object!r:.120})")
    text = str(error)
    if isinstance(error, sqlite3.IntegrityError) and "UNIQUE" in text:
        return StoreConflict(f"{location}: another writer wrote the same version first; nothing was written")
    if "disk is full" in text or "disk I/O error" in text:
        return StoreError(
            f"{location}: the disk is full, or the file reached its size limit ({text}); nothing was written"
        )
    if getattr(error, "sqlite_errorname", "") == "SQLITE_READONLY_DIRECTORY":  # Python 3.11+ names it
        return StoreError(
            f"{location}: cannot be read from a folder this process cannot write while the store's -wal and -shm"
            " files are absent (SQLite's WAL mode): open it where the folder is writable, or copy it"
        )
    if "readonly" in text or "read-only" in text:
        return StoreError(
            f"{location}: the store cannot be written (a read-only file, folder or opening: {text});"
            " nothing was written"
        )
    if "locked" in text or "busy" in text:
        return StoreError(
            f"{location}: another process held the store's write lock too long ({text}); nothing was written"
        )
    if "not a database" in text:
        return StoreError(f"{location}: not a store: not an SQLite file, or one damaged from its first page ({text})")
    if "malformed" in text:
        return StoreIntegrityError(f"{location}: a damaged store ({text})")
    return StoreError(f"{location}: {text}")


publish(__name__)  # the public classes above, shown as mplp_models.store.<name>
