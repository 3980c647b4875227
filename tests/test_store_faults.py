"""The store under faults, on both backends: concurrent writers, writers killed mid-stream, a full disk, read-only.

The writers are real processes (tests/store_writer.py) against a real SQLite file and a real
PostgreSQL server. What must hold is what the docs promise: no update is lost (every writer's
every change is in the final document), a version that a put returned is never lost, and
every listed version reads back with its sha256.
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import examples
from postgres_server import fresh_schema

import mplp_models as mm
from mplp_models.store import SqliteStore, Store, StoreIntegrityError, Version, open_store

WRITER = Path(__file__).with_name("store_writer.py")
AT = "2026-03-01T09:00:00Z"


@pytest.fixture(params=["sqlite", "postgres"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite")
    conninfo: str = request.getfixturevalue("postgres_conninfo")
    return fresh_schema(conninfo)


def new_plan(location: str) -> mm.Plan:
    context = mm.Context.new("Shared", domain="agents", environment="production", at=AT)
    plan = mm.Plan.new(context, title="Shared plan", objective="Edited by many", steps=["First"], at=AT)
    with open_store(location) as store:
        store.put(plan)
    return plan


def writer(*arguments: str, **options: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WRITER), *arguments],
        stdout=subprocess.PIPE,
        text=True,
        **options,  # type: ignore[call-overload]
    )


def assert_every_version_intact(store: Store, plan_id: str) -> list[Version]:
    history = store.history(mm.Plan, plan_id)
    assert [version.number for version in history] == list(range(1, len(history) + 1))
    for version in history:
        body = store.get_json(mm.Plan, plan_id, version=version.number)
        assert hashlib.sha256(body).hexdigest() == version.sha256
        assert mm.Plan.from_json(body).to_json() == body
    return history


def test_concurrent_writers_lose_no_update(location: str, tmp_path: Path) -> None:
    plan = new_plan(location)
    writers, count = 8, examples(quick=12, deep=100)
    go = tmp_path / "go"
    processes = [writer("append", location, plan.plan_id, f"w{n}", str(count), str(go)) for n in range(writers)]
    time.sleep(0.3)  # most have started; each waits for the file
    go.touch()
    conflicts = []
    for process in processes:
        out, _ = process.communicate(timeout=300)
        assert process.returncode == 0
        conflicts.append(int(out))
    with open_store(location) as store:
        final = store.get(mm.Plan, plan.plan_id)
        history = assert_every_version_intact(store, plan.plan_id)
    added = sorted(step.description for step in final.steps[1:])
    assert added == sorted(f"w{n}-{i}" for n in range(writers) for i in range(count)), "an update was lost"
    assert len(history) == 1 + writers * count
    print(f"conflicts retried: {sum(conflicts)} ({conflicts})")


def test_a_writer_killed_mid_stream_loses_nothing_committed(location: str) -> None:
    plan = new_plan(location)
    committed: dict[int, str] = {1: hashlib.sha256(plan.to_json()).hexdigest()}
    chance = random.Random(20260301)
    for _ in range(examples(quick=8, deep=40)):
        process = writer("stream", location, plan.plan_id)
        assert process.stdout is not None
        for _ in range(chance.randint(1, 15)):  # some versions put and reported
            number, sha256 = process.stdout.readline().split()
            committed[int(number)] = sha256
        time.sleep(chance.random() * 0.01)  # then killed anywhere, in a put or between two
        process.send_signal(signal.SIGKILL)
        rest, _ = process.communicate()
        for line in rest.splitlines(keepends=True):  # reported before the kill, read after it
            if line.endswith("\n"):  # a report the kill cut short stands for the one uncounted put
                number, sha256 = line.split()
                committed[int(number)] = sha256
        assert process.returncode == -signal.SIGKILL
        with open_store(location) as store:
            history = assert_every_version_intact(store, plan.plan_id)
        found = {version.number: version.sha256 for version in history}
        assert {number: found.get(number) for number in committed} == committed, "a committed version was lost"
        assert len(found) - max(committed) in (0, 1)  # at most the one put whose report the kill cut off


def _fill_until_it_fails(location: str, plan_id: str, **options: object) -> tuple[list[str], str]:
    process = writer("fill", location, plan_id, **options)
    out, _ = process.communicate(timeout=300)
    assert process.returncode == 0, out
    *written, failure = out.splitlines()
    return written, failure


def _limit_file_size(size: int) -> None:
    import resource

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) rather than killing
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_file_that_cannot_grow_is_a_clear_error_and_the_store_is_unchanged(tmp_path: Path) -> None:
    location = str(tmp_path / "store.sqlite")
    plan = new_plan(location)
    written, failure = _fill_until_it_fails(location, plan.plan_id, preexec_fn=lambda: _limit_file_size(1 << 20))
    assert failure.startswith(f"failed: {location}: the disk is full, or the file reached its size limit")
    assert failure.endswith("nothing was written")
    _check_written_and_no_more(location, plan.plan_id, written)


def _check_written_and_no_more(location: str, plan_id: str, written: list[str]) -> None:
    with open_store(location) as store:
        history = assert_every_version_intact(store, plan_id)
    assert [f"{version.number} {version.sha256}" for version in history[1:]] == written
    assert len(written) >= 3  # some versions fitted before the failure


@contextmanager
def small_tmpfs(size: str) -> Iterator[Path]:
    """A real file system of ``size``, mounted for the test (root only)."""
    folder = Path(tempfile.mkdtemp(prefix="mplp-full-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
        folder.rmdir()


needs_root = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="mounting a small file system needs root (CI has it)"
)


@needs_root
def test_a_full_disk_is_a_clear_error_and_the_sqlite_store_is_unchanged() -> None:
    with small_tmpfs("1m") as folder:
        location = str(folder / "store.sqlite")
        plan = new_plan(location)
        written, failure = _fill_until_it_fails(location, plan.plan_id)
        assert failure.startswith(f"failed: {location}: the disk is full"), failure
        _check_written_and_no_more(location, plan.plan_id, written)


@needs_root
def test_a_full_disk_is_a_clear_error_and_the_postgres_store_is_unchanged(postgres_conninfo: str) -> None:
    import psycopg

    with small_tmpfs("2m") as folder, psycopg.connect(postgres_conninfo, autocommit=True) as admin:
        space = f"full_{os.getpid()}_{random.randrange(1 << 30)}"
        os.chown(folder, *_postgres_ids())
        admin.execute(f"CREATE TABLESPACE {space} LOCATION '{folder}'")  # the tables on the small disk, the WAL not
        location = fresh_schema(postgres_conninfo, f"default_tablespace={space}")
        try:
            plan = new_plan(location)
            written, failure = _fill_until_it_fails(location, plan.plan_id)
            assert "the server is out of room" in failure and failure.endswith("nothing was written"), failure
            _check_written_and_no_more(location, plan.plan_id, written)
        finally:
            schema = location.split("search_path=")[1].split()[0].rstrip("'")
            admin.execute(f"DROP SCHEMA {schema} CASCADE")
            admin.execute(f"DROP TABLESPACE {space}")


def _postgres_ids() -> tuple[int, int]:
    import pwd

    account = pwd.getpwnam("postgres")
    return account.pw_uid, account.pw_gid


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_read_only_file_is_a_clear_error_and_the_store_is_unchanged() -> None:
    # As root, permissions do not stop the writer: it runs as nobody. Its folder must be one nobody can enter.
    folder = Path(tempfile.mkdtemp(prefix="mplp-readonly-"))
    try:
        location = str(folder / "store.sqlite")
        plan = new_plan(location)
        with open_store(location) as store:
            before = store.history(mm.Plan, plan.plan_id)
        os.chmod(location, 0o444)
        os.chmod(folder, 0o555)
        user = ["65534"] if os.geteuid() == 0 else []
        process = writer("readonly", location, plan.plan_id, *user)
        out, _ = process.communicate(timeout=60)
        assert out.startswith(f"failed: {location}: the store cannot be written (a read-only file"), out
        assert out.rstrip().endswith("nothing was written")
        with open_store(location, read_only=True) as store:
            assert store.history(mm.Plan, plan.plan_id) == before
            assert store.get(mm.Plan, plan.plan_id) == plan
    finally:
        os.chmod(folder, 0o755)
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()


def test_a_new_store_opened_while_another_process_holds_its_lock_waits_for_it(tmp_path: Path) -> None:
    # The module's docstring: writers of several processes take turns, each waiting up to `timeout` seconds.
    # Making the file a store changes its journal mode, which SQLite's busy wait skips: it must wait all the same.
    path = tmp_path / "new.sqlite"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # another process making the file a store, say: its write lock held
    release = threading.Timer(0.3, lambda: holder.execute("ROLLBACK"))
    release.start()
    try:
        with SqliteStore(path, timeout=30) as store:
            assert store.latest() == []
    finally:
        release.join()
        holder.close()


def test_a_store_whose_schema_is_damaged_is_a_damaged_store(tmp_path: Path) -> None:
    # SQLite names the damaged table in its message, in the file's bytes: here not UTF-8.
    path = tmp_path / "damaged.sqlite"
    with SqliteStore(path):
        pass
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA journal_mode=DELETE")  # the whole store in the one file
    data = path.read_bytes()
    name, sql = b"mplp_documents_refers_to", b"CREATE INDEX mplp_documents_refers_to"
    assert data.count(name) == 2 and data.count(sql) == 1  # in the schema's page: the index's name, then its SQL
    data = data.replace(sql, b"CREATE INDEZ mplp_documents_refers_to").replace(name, b"mplp_\x90ocuments_refers_to", 1)
    path.write_bytes(data)
    for read_only in (True, False):
        with pytest.raises(StoreIntegrityError, match="a damaged store"):
            SqliteStore(path, read_only=read_only).latest()
