"""``mplp-models store ls|show|history|export``: what a store holds, read only.

STORE is the path of a SQLite store or a PostgreSQL connection string
(``postgresql://...`` or ``host=... dbname=...``); it is opened read-only, so that
no command here writes to it (nor makes a new store of a mistyped path).
"""

from __future__ import annotations

import json
import sys
from typing import NamedTuple

from mplp_models._flow_folder import write_flow
from mplp_models._parse import Payload
from mplp_models._store import (
    DocumentNotFound,
    Store,
    StoreError,
    StoreIntegrityError,
    Version,
    kind_of_class,
    model_named,
)
from mplp_models._text import printable
from mplp_models.store import open_store

__all__ = ["StoreOptions", "run_store"]

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class StoreOptions(NamedTuple):
    action: str  # ls, show, history, export
    store: str
    id: str | None = None
    version: int | None = None
    kind: str | None = None
    context: str | None = None
    folder: str | None = None
    overwrite: bool = False
    json_output: bool = False


def run_store(options: StoreOptions) -> int:
    """Run one ``store`` command; the exit status (0 done, 1 a damaged document, 2 no such store, document or
    context)."""
    try:
        with open_store(options.store, read_only=True) as store:
            return _ACTIONS[options.action](store, options)
    except StoreIntegrityError as error:
        _error(str(error))
        return EXIT_INVALID
    except (StoreError, ImportError) as error:  # DocumentNotFound among them
        _error(str(error))
        return EXIT_USAGE


def _ls(store: Store, options: StoreOptions) -> int:
    versions = store.latest(None if options.kind is None else model_named(options.kind))
    if options.context is not None:
        members = {(type(document).__name__, _id_of(document)) for document in _session(store, options.context)}
        versions = [version for version in versions if (version.kind, version.id) in members]
    for version in versions:
        _print_version(version, options.json_output, with_key=True)
    return EXIT_OK


def _show(store: Store, options: StoreOptions) -> int:
    assert options.id is not None
    sys.stdout.buffer.write(store.get_json(None, options.id, version=options.version))
    return EXIT_OK


def _history(store: Store, options: StoreOptions) -> int:
    assert options.id is not None
    head = next((version for version in store.latest() if version.id == options.id), None)
    if head is None:
        raise DocumentNotFound(f"no document {options.id} in {store.location}")
    for version in store.history(model_named(head.kind), options.id):
        _print_version(version, options.json_output, with_key=False)
    return EXIT_OK


def _export(store: Store, options: StoreOptions) -> int:
    assert options.folder is not None
    documents: list[Payload]
    if options.context is not None:
        documents = _session(store, options.context)
    else:
        documents = [_latest(store, version) for version in store.latest()]
    try:
        written = write_flow(documents, options.folder, overwrite=options.overwrite, overwrite_option="--overwrite")
    except (OSError, ValueError) as error:
        where = getattr(error, "filename", None) or options.folder  # the entry refused, where the error names one
        _error(f"store export: {where}: {getattr(error, 'strerror', None) or error}")
        return EXIT_USAGE
    for path in written:
        print(path)
    return EXIT_OK


def _session(store: Store, context_id: str) -> list[Payload]:
    """The documents of the context's session; ``DocumentNotFound`` if no stored document names the context."""
    documents = store.session(context_id)
    if not documents:  # the context is in its own session: none means no such context, not an empty one
        raise DocumentNotFound(f"no context {context_id} in {store.location}: no stored document names it")
    return documents


def _latest(store: Store, version: Version) -> Payload:
    return store.get(model_named(version.kind), version.id)


def _id_of(document: Payload) -> str:
    kind = kind_of_class(type(document))
    assert kind is not None  # the store holds documents of top-level kinds only
    return str(getattr(document, kind.id_field))


def _print_version(version: Version, json_output: bool, *, with_key: bool) -> None:
    at = version.written_at.isoformat().replace("+00:00", "Z")
    if json_output:
        record: dict[str, object] = {"kind": version.kind, "id": version.id} if with_key else {}
        record |= {"version": version.number, "sha256": version.sha256, "written_at": at}
        print(json.dumps(record))
    elif with_key:
        print(printable(f"{version.kind} {version.id} v{version.number} {version.sha256} {at}"))
    else:
        print(f"v{version.number} {version.sha256} {at}")


_ACTIONS = {"ls": _ls, "show": _show, "history": _history, "export": _export}


def _error(message: str) -> None:
    print(printable(f"mplp-models: {message}"), file=sys.stderr)
