"""Sessions that outlive the process: every version of every document, on SQLite or PostgreSQL.

One interface, two backends: ``SqliteStore(path)``, the embedded default (the
standard library's ``sqlite3``, nothing to install), and ``PostgresStore(conninfo)``
for agents on many machines sharing one session (the ``postgres`` extra:
``pip install 'mplp-models[postgres]'``, psycopg 3).

``put(document, expected=version_read)`` appends a version, compare-and-set: a
writer that read a version another writer has replaced since gets
``StoreConflict``, with nothing written, so no update is ever lost silently.
``get`` / ``read`` give a version back as its model, ``history`` lists them all,
``session(context_id)`` gives the latest of every document of a context; every
read checks the sha256 of the canonical JSON bytes it returns. See the docs page
"Sessions".
"""

from __future__ import annotations

import os
from typing import cast

from mplp_models._store import (
    KEYFRAME_EVERY,
    DocumentNotFound,
    Store,
    StoreConflict,
    StoreError,
    StoreIntegrityError,
    Version,
)
from mplp_models._store_postgres import PostgresStore
from mplp_models._store_sqlite import SqliteStore

__all__ = [
    "KEYFRAME_EVERY",
    "DocumentNotFound",
    "PostgresStore",
    "SqliteStore",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoreIntegrityError",
    "Version",
    "open_store",
]


def open_store(location: str | os.PathLike[str], *, read_only: bool = False) -> Store:
    """The store at ``location``: a PostgreSQL connection string, or else the path of a SQLite file.

    A connection string is a URI (``postgresql://...``, ``postgres://...``) or libpq's
    ``key=value`` form (``host=/run/postgresql dbname=agents``); a path object
    (``pathlib.Path``) is always a SQLite file. ``read_only`` as for
    ``SqliteStore`` and ``PostgresStore``.

    Raises:
        TypeError: ``location`` is neither text nor a path object.
    """
    if isinstance(location, os.PathLike):
        return SqliteStore(location, read_only=read_only)
    if not isinstance(cast(object, location), str):  # what the types refuse, from an untyped caller
        raise TypeError(
            f"open_store takes a connection string or a SQLite path (str or os.PathLike), not {type(location).__name__}"
        )
    if location.startswith(("postgresql://", "postgres://")) or _is_key_value(location):
        return PostgresStore(location, read_only=read_only)
    return SqliteStore(location, read_only=read_only)


def _is_key_value(location: str) -> bool:
    first = location.split(maxsplit=1)[0] if location.strip() else ""
    key, equals, _ = first.partition("=")
    return bool(equals) and key in _LIBPQ_KEYS


_LIBPQ_KEYS = frozenset(
    {"host", "hostaddr", "port", "dbname", "user", "password", "service", "sslmode", "options", "application_name"}
)
