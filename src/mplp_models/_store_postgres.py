"""``PostgresStore``: the store in a PostgreSQL database, for agents on many machines (psycopg 3, extra ``postgres``).

The tables are those of ``SqliteStore``; the row of each document also holds its
latest version as ``jsonb`` (column ``document``), for queries in SQL (``NULL``
for a document with a ``\\u0000`` in a string, which ``jsonb`` cannot hold). The
canonical bytes (``body``) stay what is read back: ``jsonb`` keeps neither the
key order nor the spelling of numbers.

Each ``put`` is one transaction at PostgreSQL's default isolation (read
committed). Its compare-and-set is the ``UPDATE ... WHERE version = ? AND
sha256 = ?`` of the document's row: a second writer of the same version waits
for the first's commit, then finds no row to update; two writers of a new
document meet at its primary key. The tables are made on first use, under an
advisory lock, so that processes starting together do not race to make them.
"""

from __future__ import annotations

import threading
from collections.abc import Generator, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import cache
from typing import TYPE_CHECKING, Any

from mplp_models._public import publish
from mplp_models._store import SCHEMA_VERSION, Entry, Head, Store, StoreConflict, StoreError, Transaction

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresStore"]

_SET_UP_LOCK = 0x6D706C70  # "mplp": the advisory lock taken while the tables are made
_TABLES = (
    "CREATE TABLE IF NOT EXISTS mplp_store (key text PRIMARY KEY, value text NOT NULL)",
    "CREATE TABLE IF NOT EXISTS mplp_documents (id text PRIMARY KEY, kind text NOT NULL, version integer NOT NULL,"
    " sha256 text NOT NULL, written_at timestamptz NOT NULL, context_id text, refers_to text, body bytea NOT NULL,"
    " document jsonb)",
    "CREATE INDEX IF NOT EXISTS mplp_documents_context ON mplp_documents (context_id)",
    "CREATE INDEX IF NOT EXISTS mplp_documents_refers_to ON mplp_documents (refers_to)",
    "CREATE TABLE IF NOT EXISTS mplp_versions (id text NOT NULL, version integer NOT NULL, kind text NOT NULL,"
    " sha256 text NOT NULL, written_at timestamptz NOT NULL, keep_start integer, keep_end integer,"
    " body bytea NOT NULL, PRIMARY KEY (id, version))",
    "INSERT INTO mplp_store (key, value) VALUES ('schema', ?) ON CONFLICT (key) DO NOTHING",
)
_JSONB = "CASE WHEN ? THEN convert_from(new.body, 'UTF8')::jsonb END"
_NUL_ESCAPE = b"\\u0000"


@cache
def _placeholders(sql: str) -> bytes:
    # The statements are written with sqlite3's `?`; none holds a `%` or a literal `?`. Each is made of
    # this package's constants only, never of values (psycopg takes a query as bytes too).
    return sql.replace("?", "%s").encode()


class _Transaction:
    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        self._connection = connection

    def rows(self, sql: str, parameters: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        return self._connection.execute(_placeholders(sql), parameters).fetchall()

    def run(self, sql: str, parameters: Sequence[object] = ()) -> int:
        return self._connection.execute(_placeholders(sql), parameters).rowcount


class PostgresStore(Store):
    """The store in the PostgreSQL database that ``conninfo`` names (its tables made if they are not there).

    Args:
        conninfo: A libpq connection string: ``postgresql://user@host/dbname`` or
            ``host=... dbname=...`` (a password is best kept in ``~/.pgpass`` or ``PGPASSWORD``).
        read_only: Only read: the session's transactions are read-only, the tables are not made,
            and every ``put`` and ``delete`` raises ``StoreError``.
        connect_timeout: Seconds to wait for the server when connecting.

    Raises:
        ImportError: psycopg 3 is not installed (``pip install 'mplp-models[postgres]'``).
        StoreError: The server cannot be reached, or the database holds no store (``read_only``)
            or a store of another layout.
    """

    def __init__(self, conninfo: str, *, read_only: bool = False, connect_timeout: float = 10.0) -> None:
        try:
            import psycopg
        except ImportError:
            raise ImportError("PostgresStore needs psycopg 3: pip install 'mplp-models[postgres]'") from None
        self._psycopg = psycopg
        self._conninfo = conninfo
        self._read_only = read_only
        self._connect_timeout = connect_timeout
        self._lock = threading.RLock()
        self.location: str = "a PostgreSQL database"
        self._connection = self._connect()
        info = self._connection.info
        self.location = f"PostgreSQL database {info.dbname} on {info.host}:{info.port}"
        try:
            self._set_up()
        except BaseException:
            self._connection.close()
            raise

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            connection = self._psycopg.connect(
                self._conninfo, autocommit=True, connect_timeout=max(1, round(self._connect_timeout))
            )
        except self._psycopg.Error as error:
            raise StoreError(f"{self.location}: cannot connect: {str(error).strip()}") from None
        if self._read_only:
            connection.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        return connection

    def _set_up(self) -> None:
        if not self._read_only:
            with self._writing() as transaction:
                transaction.rows("SELECT pg_advisory_xact_lock(?)", (_SET_UP_LOCK,))
                for statement in _TABLES:
                    transaction.run(statement, (SCHEMA_VERSION,) if "?" in statement else ())
        with self._reading() as transaction:
            exists = transaction.rows("SELECT to_regclass('mplp_store') IS NOT NULL")[0][0]
            rows = transaction.rows("SELECT value FROM mplp_store WHERE key = 'schema'") if exists else []
        if rows != [(SCHEMA_VERSION,)]:
            found = f"a store of layout {rows[0][0]!r}" if rows else "no store"
            raise StoreError(f"{self.location} holds {found}; this version reads layout {SCHEMA_VERSION!r}")

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    @contextmanager
    def _writing(self) -> Generator[Transaction, None, None]:
        with self._transaction() as transaction:
            yield transaction

    @contextmanager
    def _reading(self) -> Generator[Transaction, None, None]:
        with self._transaction() as transaction:
            yield transaction

    @contextmanager
    def _transaction(self) -> Generator[Transaction, None, None]:
        errors = self._psycopg.errors
        with self._lock:
            if self._connection.closed:  # lost before (a restarted server): connect again
                self._connection = self._connect()
            try:
                with self._connection.transaction():
                    yield _Transaction(self._connection)
            except errors.UniqueViolation:
                raise StoreConflict(
                    f"{self.location}: another writer wrote the same version first; nothing was written"
                ) from None
            except (errors.DiskFull, errors.OutOfMemory) as error:
                raise StoreError(
                    f"{self.location}: the server is out of room ({_words(error)}); nothing was written"
                ) from None
            except errors.ReadOnlySqlTransaction as error:
                raise StoreError(
                    f"{self.location}: the store is read-only ({_words(error)}); nothing was written"
                ) from None
            except self._psycopg.OperationalError as error:
                raise StoreError(
                    f"{self.location}: the connection failed ({_words(error)}); a put under way may or may not have"
                    " been written: read the document's version to know"
                ) from None
            except self._psycopg.Error as error:
                raise StoreError(f"{self.location}: {_words(error)}") from None

    def _insert_head(self, transaction: Transaction, entry: Entry, number: int, at: datetime) -> None:
        transaction.run(
            "INSERT INTO mplp_documents (id, kind, version, sha256, written_at, context_id, refers_to, body, document)"
            f" SELECT ?, ?, ?, ?, ?, ?, ?, new.body, {_JSONB} FROM (SELECT ?::bytea AS body) AS new",
            (entry.id, entry.kind, number, entry.sha256, at, entry.context_id, entry.refers_to)
            + (_NUL_ESCAPE not in entry.body, entry.body),
        )

    def _update_head(self, transaction: Transaction, entry: Entry, number: int, at: datetime, before: Head) -> bool:
        changed = transaction.run(
            "UPDATE mplp_documents SET version = ?, sha256 = ?, written_at = ?, context_id = ?, refers_to = ?,"
            f" body = new.body, document = {_JSONB} FROM (SELECT ?::bytea AS body) AS new"
            " WHERE mplp_documents.id = ? AND mplp_documents.version = ? AND mplp_documents.sha256 = ?",
            (number, entry.sha256, at, entry.context_id, entry.refers_to, _NUL_ESCAPE not in entry.body, entry.body)
            + (entry.id, before.number, before.sha256),
        )
        return changed == 1

    def _time(self, value: Any) -> datetime:
        moment: datetime = value
        return moment.astimezone(timezone.utc)

    def _stored_time(self, at: datetime) -> object:
        return at


def _words(error: Exception) -> str:
    return " ".join(str(error).split())


publish(__name__)  # the public classes above, shown as mplp_models.store.<name>
