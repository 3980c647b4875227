"""``mplp_models.store`` on both backends: SQLite, and a real PostgreSQL server (tests/postgres_server.py).

Expected values come from the docs (docs/sessions.md, the module's docstrings) and from the
documents themselves: a version's sha256 is ``hashlib.sha256(document.to_json())``.
"""

from __future__ import annotations

import enum
import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from postgres_server import fresh_schema

import mplp_models as mm
from mplp_models.store import (
    KEYFRAME_EVERY,
    DocumentNotFound,
    PostgresStore,
    SqliteStore,
    Store,
    StoreConflict,
    StoreError,
    StoreIntegrityError,
    open_store,
)

AT = "2026-03-01T09:00:00Z"


@pytest.fixture(params=["sqlite", "postgres"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite")
    conninfo: str = request.getfixturevalue("postgres_conninfo")
    return fresh_schema(conninfo)


@pytest.fixture
def store(location: str) -> Iterator[Store]:
    with open_store(location) as opened:
        yield opened


def session() -> tuple[mm.Context, mm.Plan]:
    context = mm.Context.new("Release", domain="release", environment="production", at=AT)
    plan = mm.Plan.new(context, title="Ship", objective="Release it", steps=["Build", "Test"], at=AT)
    return context, plan


def step(description: str) -> mm.PlanStep:
    return mm.PlanStep(step_id=mm.new_id(), description=description, status="pending")


def sha(document: mm.MplpModel) -> str:
    return hashlib.sha256(document.to_json()).hexdigest()


def raw(location: str, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run SQL on the store's tables behind its back (to damage a row, or read the jsonb column)."""
    if location.endswith(".sqlite"):
        with sqlite3.connect(location) as connection:
            return connection.execute(sql, parameters).fetchall()
    import psycopg

    with psycopg.connect(location, autocommit=True) as connection:
        cursor = connection.execute(sql.replace("?", "%s"), parameters)
        return cursor.fetchall() if cursor.description else []


def test_201_versions_read_back_byte_for_byte(store: Store) -> None:
    _, plan = session()
    written = [plan]
    versions = [store.put(plan)]
    for number in range(2, 202):
        changed = (
            written[-1].add_step(step(f"Step {number}"))
            if number % 3
            else written[-1].update_step(written[-1].steps[0].step_id, description=f"Build, take {number}")
        )
        versions.append(store.put(changed, expected=versions[-1]))
        written.append(changed)
    assert [version.number for version in versions] == list(range(1, 202))
    assert store.history(mm.Plan, plan.plan_id) == versions
    for document, version in zip(written, versions):
        assert version.sha256 == sha(document)
        body = store.get_json(mm.Plan, plan.plan_id, version=version.number)
        assert body == document.to_json() and hashlib.sha256(body).hexdigest() == version.sha256
        assert store.get(mm.Plan, plan.plan_id, version=version.number) == document
    latest, seen = store.read(mm.Plan, plan.plan_id)
    assert (latest, seen) == (written[-1], versions[-1]) and store.version(mm.Plan, plan.plan_id) == versions[-1]


def test_a_stale_version_is_a_conflict_and_nothing_is_written(store: Store) -> None:
    _, plan = session()
    first = store.put(plan)
    mine, theirs = plan.add_step(step("Mine")), plan.add_step(step("Theirs"))
    second = store.put(theirs, expected=first)
    with pytest.raises(StoreConflict, match="the latest version is 2"):
        store.put(mine, expected=first)
    with pytest.raises(StoreConflict, match="stored already"):
        store.put(mine)  # expected=None: only for a new document
    assert store.history(mm.Plan, plan.plan_id) == [first, second]
    assert store.get(mm.Plan, plan.plan_id) == theirs
    assert isinstance(StoreConflict("x"), mm.StoreConflict) and mm.StoreConflict is StoreConflict


def test_the_same_number_with_other_bytes_is_a_conflict(store: Store) -> None:
    # A version is its number and its hash: one read before a delete and a new history is stale.
    _, plan = session()
    first = store.put(plan)
    assert store.delete(mm.Plan, plan.plan_id) == 1
    store.put(plan.add_step(step("Again")))  # version 1 again, other bytes
    with pytest.raises(StoreConflict):
        store.put(plan.add_step(step("Late")), expected=first)


def test_update_redoes_the_change_on_a_conflict(store: Store, location: str) -> None:
    _, plan = session()
    store.put(plan)
    calls: list[int] = []

    def add(latest: mm.Plan) -> mm.Plan:
        calls.append(len(latest.steps))
        if len(calls) == 1:  # another agent writes between this read and its put
            with open_store(location) as other:
                other.update(mm.Plan, plan.plan_id, lambda p: p.add_step(step("Other agent")))
        return latest.add_step(step("This agent"))

    version = store.update(mm.Plan, plan.plan_id, add)
    assert calls == [2, 3] and version.number == 3
    assert [s.description for s in store.get(mm.Plan, plan.plan_id).steps] == [
        "Build",
        "Test",
        "Other agent",
        "This agent",
    ]
    calls.clear()  # the other agent writes again: one attempt only, and its conflict is raised
    with pytest.raises(StoreConflict):
        store.update(mm.Plan, plan.plan_id, add, attempts=1)
    assert len(store.history(mm.Plan, plan.plan_id)) == 4


class Count(enum.IntEnum):
    ONE = 1


@pytest.mark.parametrize(
    ("attempts", "error", "message"),
    [
        (0, ValueError, "attempts must be 1 or more"),
        (-1, ValueError, "attempts must be 1 or more"),
        (True, TypeError, "attempts must be an int or None, not bool"),
        (1.5, TypeError, "attempts must be an int or None, not float"),
        ("2", TypeError, "attempts must be an int or None, not str"),
    ],
)
def test_update_refuses_a_count_of_attempts_that_is_no_count(
    store: Store, attempts: Any, error: type[Exception], message: str
) -> None:
    # "At most this many puts" (docs/sessions.md): no count of zero puts or fewer, no bool, float or text.
    _, plan = session()
    store.put(plan)
    with pytest.raises(error, match=message):
        store.update(mm.Plan, plan.plan_id, lambda p: p.transition("proposed"), attempts=attempts)
    assert len(store.history(mm.Plan, plan.plan_id)) == 1  # nothing was written
    one = Count.ONE  # an int: taken as the number it is
    assert store.update(mm.Plan, plan.plan_id, lambda p: p.transition("proposed"), attempts=one).number == 2
    assert store.get(mm.Plan, plan.plan_id, version=one) == plan


@pytest.mark.parametrize("version", [True, 1.0, "1"])
def test_a_version_that_is_no_int_is_a_type_error(store: Store, version: Any) -> None:
    # True and 1.0 compare equal to version 1: taken as it, they would read a version no caller named.
    _, plan = session()
    store.put(plan)
    for read in (store.get, store.read, store.get_json):
        with pytest.raises(TypeError, match="version must be an int or None, not "):
            read(mm.Plan, plan.plan_id, version=version)


def test_an_empty_sqlite_path_is_refused(tmp_path: Path) -> None:
    # SQLite takes "" as a temporary file deleted at close: every document put there would be lost.
    for opened in (lambda: SqliteStore(""), lambda: open_store("")):
        with pytest.raises(StoreError, match="the path is empty"):
            opened()


def test_bad_input_is_refused_clearly(store: Store) -> None:
    context, plan = session()
    store.put(plan)
    with pytest.raises(TypeError, match="not a dict"):
        store.put(plan.to_dict())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="top-level kind"):
        store.put(plan.steps[0])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="PlanStep is not such a kind"):
        store.get(mm.PlanStep, plan.plan_id)  # type: ignore[type-var]
    # A document of another kind under an id the store holds.
    impostor = context.model_copy(update={"context_id": plan.plan_id})
    with pytest.raises(StoreError, match=f"{plan.plan_id} names a Plan in the store: a Context cannot be stored"):
        store.put(impostor)
    with pytest.raises(DocumentNotFound, match=f"{plan.plan_id} names a Plan in .*, not a Context"):
        store.get(mm.Context, plan.plan_id)
    with pytest.raises(ValueError, match="expected is a version of Plan"):
        store.put(context, expected=store.version(mm.Plan, plan.plan_id))
    with pytest.raises(DocumentNotFound, match="no version 7"):
        store.get(mm.Plan, plan.plan_id, version=7)
    with pytest.raises(DocumentNotFound, match="no Trace"):
        store.version(mm.Trace, mm.new_id())
    assert store.latest() == [store.version(mm.Plan, plan.plan_id)]


def test_session_is_the_context_and_what_names_it(store: Store) -> None:
    context, plan = session()
    confirm = mm.Confirm.request(plan, requested_by_role="release-manager", at=AT)
    trace = mm.Trace.start(context, plan, at=AT)
    event = mm.Event(
        event_id=mm.new_id(), event_type="step.done", source="agent", timestamp=AT, trace_id=trace.trace_id
    )
    context_confirm = mm.Confirm.request(context, requested_by_role="owner", at=AT)
    elsewhere, other_plan = session()
    stray = mm.Confirm.request(other_plan, requested_by_role="owner", at=AT)
    for document in (context, plan, confirm, trace, event, context_confirm, elsewhere, other_plan, stray):
        store.put(document)
    newer = store.update(mm.Plan, plan.plan_id, lambda p: p.add_step(step("Deploy")))
    found = store.session(context.context_id)
    assert sorted((type(d).__name__, d.to_json()) for d in found) == sorted(
        (type(d).__name__, d.to_json())
        for d in (context, store.get(mm.Plan, plan.plan_id), confirm, trace, event, context_confirm)
    )
    assert newer.number == 2 and store.get(mm.Plan, plan.plan_id) in found  # the latest version
    assert mm.check_flow(found) == []
    assert store.session(mm.new_id()) == []


def test_delete_forgets_the_history(store: Store) -> None:
    context, plan = session()
    store.put(context)
    first = store.put(plan)
    store.put(plan.add_step(step("More")), expected=first)
    with pytest.raises(DocumentNotFound, match="names a Plan"):
        store.delete(mm.Context, plan.plan_id)
    assert store.delete(mm.Plan, plan.plan_id) == 2
    assert store.history(mm.Plan, plan.plan_id) == [] and store.delete(mm.Plan, plan.plan_id) == 0
    with pytest.raises(DocumentNotFound):
        store.get(mm.Plan, plan.plan_id)
    assert store.put(plan).number == 1  # a new history
    assert [v.kind for v in store.latest()] == ["Plan", "Context"]


def test_a_writer_holding_a_version_of_a_deleted_document_gets_a_conflict(store: Store) -> None:
    # delete's docstring: a writer holding a version of it gets StoreConflict, also when the document is put
    # again, as version 1 with the very bytes that writer read.
    _, plan = session()
    held = store.put(plan)
    store.delete(mm.Plan, plan.plan_id)
    again = store.put(plan)
    assert (again.number, again.sha256) == (held.number, held.sha256)
    with pytest.raises(StoreConflict):
        store.put(plan.add_step(step("Late")), expected=held)
    assert store.put(plan.add_step(step("On time")), expected=again).number == 2


def test_an_id_with_no_utf8_form_names_no_document(store: Store) -> None:
    # What a command line gives for bytes that are not UTF-8 ("\udcff"); no model holds such an id.
    odd = "\udcff"
    for read in (store.get, store.read, store.version, store.get_json):
        with pytest.raises(DocumentNotFound):
            read(mm.Plan, odd)
    assert store.history(mm.Plan, odd) == [] and store.delete(mm.Plan, odd) == 0 and store.session(odd) == []


def test_a_damaged_time_or_change_is_a_damaged_row(store: Store, location: str) -> None:
    _, plan = session()
    version = store.put(plan)
    for number in range(2, 4):
        version = store.put(plan.add_step(step(f"Step {number}")), expected=version)
    raw(location, "UPDATE mplp_versions SET keep_start = -5 WHERE id = ? AND version = 2", (plan.plan_id,))
    with pytest.raises(StoreIntegrityError, match="version 2"):
        store.get(mm.Plan, plan.plan_id, version=2)
    if location.endswith(".sqlite"):  # PostgreSQL's columns hold a time and an integer only
        raw(location, "UPDATE mplp_versions SET keep_start = 'x' WHERE id = ? AND version = 3", (plan.plan_id,))
        raw(
            location, "UPDATE mplp_documents SET written_at = '2026-13-07T00:00:00+00:00' WHERE id = ?", (plan.plan_id,)
        )
        for read in (lambda: store.latest(), lambda: store.get(mm.Plan, plan.plan_id)):
            with pytest.raises(StoreIntegrityError, match="a stored time is damaged"):
                read()
        raw(location, "UPDATE mplp_documents SET version = 4 WHERE id = ?", (plan.plan_id,))
        raw(
            location,
            "UPDATE mplp_versions SET written_at = 'x', version = 4 WHERE id = ? AND version = 3",
            (plan.plan_id,),
        )
        with pytest.raises(StoreIntegrityError):
            store.history(mm.Plan, plan.plan_id)


def _damage(location: str, table: str, id: str, where: str = "") -> None:
    # Flip the first byte of a stored body: the row still reads, its bytes no longer match their sha256.
    body = raw(location, f"SELECT body FROM {table} WHERE id = ? {where}", (id,))[0][0]
    damaged = bytes([body[0] ^ 1]) + bytes(body[1:])
    raw(location, f"UPDATE {table} SET body = ? WHERE id = ? {where}", (damaged, id))


def test_a_damaged_row_is_never_returned(store: Store, location: str) -> None:
    context, plan = session()
    store.put(context)
    version = store.put(plan)
    for number in range(2, 5):
        version = store.put(plan.add_step(step(f"Step {number}")), expected=version)
    _damage(location, "mplp_documents", plan.plan_id)
    with pytest.raises(StoreIntegrityError, match=f"Plan {plan.plan_id} version 4 .*a damaged row"):
        store.get(mm.Plan, plan.plan_id)
    with pytest.raises(StoreIntegrityError):
        store.session(context.context_id)
    assert store.get(mm.Plan, plan.plan_id, version=3).steps[-1].description == "Step 3"
    _damage(location, "mplp_versions", plan.plan_id, "AND version = 1")  # the whole copy the others are changes of
    for number in (1, 2, 3):
        with pytest.raises(StoreIntegrityError, match=f"version {number}"):
            store.get(mm.Plan, plan.plan_id, version=number)
    raw(
        location,
        "UPDATE mplp_documents SET body = ?, sha256 = ? WHERE id = ?",
        (b"{}", hashlib.sha256(b"{}").hexdigest(), context.context_id),
    )
    with pytest.raises(StoreIntegrityError, match="no valid Context"):
        store.get(mm.Context, context.context_id)


def test_versions_are_kept_as_changes_between_whole_copies(store: Store, location: str) -> None:
    _, plan = session()
    plan = plan.model_copy(update={"steps": [step(f"Step {i}") for i in range(1000)]})
    version = store.put(plan)
    for number in range(2, 2 * KEYFRAME_EVERY + 2):
        plan = plan.update_step(plan.steps[number].step_id, description=f"Step {number}, done")
        version = store.put(plan, expected=version)
    rows = raw(
        location,
        "SELECT version, keep_start, length(body) FROM mplp_versions WHERE id = ? ORDER BY version",
        (plan.plan_id,),
    )
    whole = [number for number, start, _ in rows if start is None]
    assert whole == [1, KEYFRAME_EVERY + 1, 2 * KEYFRAME_EVERY + 1]  # docs: versions 1, 65, 129... whole
    size = len(plan.to_json())
    assert all(length < 100 for number, start, length in rows if start is not None), "one step's change"
    assert sum(length for *_, length in rows) < 4 * size
    assert store.get(mm.Plan, plan.plan_id, version=KEYFRAME_EVERY).steps[KEYFRAME_EVERY].description.endswith("done")


def test_copy_from_sqlite_to_postgres_keeps_every_version(tmp_path: Path, postgres_conninfo: str) -> None:
    context, plan = session()
    with SqliteStore(tmp_path / "source.sqlite") as source:
        source.put(context)
        version = source.put(plan)
        for number in range(2, 80):
            version = source.put(plan.add_step(step(f"Step {number}")), expected=version)
            plan = source.get(mm.Plan, plan.plan_id)
        with PostgresStore(fresh_schema(postgres_conninfo)) as target:
            assert target.copy_from(source) == 80
            for head in source.latest():
                model = mm.Context if head.kind == "Context" else mm.Plan
                assert target.history(model, head.id) == source.history(model, head.id)
                for each in source.history(model, head.id):
                    assert target.get_json(model, head.id, version=each.number) == source.get_json(
                        model, head.id, version=each.number
                    )
            assert target.session(context.context_id) == source.session(context.context_id)
            with pytest.raises(StoreConflict, match="already"):
                target.copy_from(source)


def test_postgres_keeps_the_latest_version_as_jsonb(postgres_conninfo: str) -> None:
    location = fresh_schema(postgres_conninfo)
    context, plan = session()
    with PostgresStore(location) as store:
        store.put(plan)
        odd = context.model_copy(update={"title": "Nul \x00 inside"})
        store.put(odd)
        assert store.get(mm.Context, context.context_id).title == "Nul \x00 inside"
    rows = raw(
        location,
        "SELECT kind, document->>'title', document->'steps'->1->>'description' FROM mplp_documents ORDER BY kind",
    )
    assert rows == [("Context", None, None), ("Plan", "Ship", "Test")]  # jsonb holds no \u0000: NULL there


def test_read_only_stores_refuse_writes(location: str) -> None:
    _, plan = session()
    with open_store(location) as store:
        store.put(plan)
    with open_store(location, read_only=True) as store:
        assert store.get(mm.Plan, plan.plan_id) == plan
        with pytest.raises(StoreError, match="nothing was written"):
            store.put(plan.add_step(step("No")), expected=store.version(mm.Plan, plan.plan_id))
    with open_store(location) as store:
        assert len(store.history(mm.Plan, plan.plan_id)) == 1


def test_open_store_takes_a_path_object(tmp_path: Path) -> None:
    # A pathlib.Path is a SQLite file, as SqliteStore takes it; anything but text or a path is a TypeError.
    _, plan = session()
    with open_store(tmp_path / "session.sqlite") as store:
        assert isinstance(store, SqliteStore)
        store.put(plan)
    with open_store(str(tmp_path / "session.sqlite"), read_only=True) as store:
        assert store.get(mm.Plan, plan.plan_id) == plan
    with pytest.raises(TypeError, match="not bytes"):
        open_store(b"session.sqlite")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


def test_opening_what_is_no_store(tmp_path: Path, postgres_conninfo: str) -> None:
    with pytest.raises(StoreError, match="cannot open"):
        SqliteStore(tmp_path / "missing.sqlite", read_only=True)
    (tmp_path / "notes.sqlite").write_bytes(b"not a database, just text " * 100)
    with pytest.raises(StoreError, match="not a store"):
        SqliteStore(tmp_path / "notes.sqlite")
    with pytest.raises(StoreError, match="holds no store"):
        PostgresStore(fresh_schema(postgres_conninfo), read_only=True)
    with pytest.raises(StoreError, match="cannot connect"):
        PostgresStore(f"host={tmp_path} port=5432 dbname=postgres user=postgres", connect_timeout=2)
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE users (id INTEGER)")
    with pytest.raises(StoreError, match=r"not a store: an SQLite database of other tables \(users\)"):
        SqliteStore(foreign)
    with sqlite3.connect(foreign) as connection:  # left as it was: no table added, its journal mode kept
        tables = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        assert tables == [("users",)] and connection.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    with SqliteStore(tmp_path / "newer.sqlite"):
        pass
    raw(str(tmp_path / "newer.sqlite"), "UPDATE mplp_store SET value = '2' WHERE key = 'schema'")
    with pytest.raises(StoreError, match="layout '2'"):
        SqliteStore(tmp_path / "newer.sqlite")
