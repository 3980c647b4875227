"""mplp_models.store on SQLite and PostgreSQL side by side: puts and gets per second, a long plan's versions, session().

    .venv/bin/python tests/benchmarks/bench_store.py           # prints the table
    .venv/bin/python tests/benchmarks/bench_store.py --quick   # smaller counts

Both backends run on this machine, durably as shipped: SQLite in WAL mode with
synchronous=FULL (one fsync a put), PostgreSQL with its default settings (fsync,
synchronous_commit on), on a server this bench starts (tests/postgres_server.py)
and reaches by a unix socket. The rounds alternate the backends, so that both see
the same machine load. The floors are the backend alone: a plain INSERT of the
same bytes in one transaction (sqlite3, psycopg), which the store's put does and
more (its row read, the compare-and-set, the version row, the sha256).

* put and get: a 20-step plan, one step moved per put (read-modify-write with the
  version read); get of the latest version, and of one 40 changes past a whole copy.
* a 1,000-step plan's 2,000 versions (one step's description changed a version): the
  bytes the store takes per version, against a whole copy and a zlib-compressed one.
* session(): a context and 9,999 documents naming it (quick: 999).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the server set-up

import postgres_server

import mplp_models as mm
from mplp_models.store import KEYFRAME_EVERY, PostgresStore, SqliteStore, Store

AT = "2026-01-01T00:00:00Z"


def _context() -> mm.Context:
    return mm.Context.new("Bench", domain="bench", environment="test", at=AT)


def _plan(context: mm.Context, steps: int) -> mm.Plan:
    return mm.Plan.new(context, title="Plan", objective="Measure", steps=[f"step {i}" for i in range(steps)], at=AT)


@contextmanager
def stores(folder: Path) -> Iterator[dict[str, Callable[[], Store]]]:
    """Makers of new, empty stores, by backend."""
    with postgres_server.running_server(durable=True) as conninfo:
        counter = iter(range(1_000_000))

        def sqlite() -> Store:
            return SqliteStore(folder / f"bench-{next(counter)}.sqlite")

        def postgres() -> Store:
            return PostgresStore(postgres_server.fresh_schema(conninfo))

        yield {"SQLite": sqlite, "PostgreSQL": postgres}


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds else float("inf")


def puts_and_gets(make: dict[str, Callable[[], Store]], rounds: int, count: int) -> dict[str, dict[str, float]]:
    """Operations per second (the best round of each: the least disturbed by other load)."""
    best: dict[str, dict[str, float]] = {name: {} for name in make}
    opened = {name: maker() for name, maker in make.items()}
    plans: dict[str, tuple[mm.Plan, mm.store.Version]] = {}
    for name, store in opened.items():
        plan = _plan(_context(), 20)
        plans[name] = (plan, store.put(plan))
    for _ in range(rounds):
        for name, store in opened.items():
            plan, version = plans[name]
            start = time.perf_counter()
            for number in range(count):
                plan = plan.update_step(plan.steps[number % 20].step_id, description=f"moved {version.number}")
                version = store.put(plan, expected=version)
            puts = time.perf_counter() - start
            plans[name] = (plan, version)
            start = time.perf_counter()
            for _ in range(count):
                store.get(mm.Plan, plan.plan_id)
            gets = time.perf_counter() - start
            older = version.number - version.number % KEYFRAME_EVERY + 40  # 40 changes past a whole copy
            older = older if older < version.number else older - KEYFRAME_EVERY
            start = time.perf_counter()
            for _ in range(count):
                store.get(mm.Plan, plan.plan_id, version=older)
            old = time.perf_counter() - start
            for key, seconds in (("put", puts), ("get latest", gets), ("get old version", old)):
                best[name][key] = max(best[name].get(key, 0.0), _rate(count, seconds))
    for store in opened.values():
        store.close()
    return best


def floors(folder: Path, conninfo_store: PostgresStore, rounds: int, count: int) -> dict[str, float]:
    """Inserts per second of the same kind of bytes, one transaction each, by the backends alone."""
    body = _plan(_context(), 20).to_json()
    connection = sqlite3.connect(folder / "floor.sqlite", isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)")
    postgres = conninfo_store._connection  # the store's own connection: the same socket and session
    postgres.execute("CREATE TABLE floor_t (id serial PRIMARY KEY, body bytea)")
    best = {"SQLite": 0.0, "PostgreSQL": 0.0}
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(count):
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("INSERT INTO t (body) VALUES (?)", (body,))
            connection.execute("COMMIT")
        best["SQLite"] = max(best["SQLite"], _rate(count, time.perf_counter() - start))
        start = time.perf_counter()
        for _ in range(count):
            with postgres.transaction():
                postgres.execute("INSERT INTO floor_t (body) VALUES (%s)", (body,))
        best["PostgreSQL"] = max(best["PostgreSQL"], _rate(count, time.perf_counter() - start))
    connection.close()
    return best


def long_plan(make: dict[str, Callable[[], Store]], versions: int) -> dict[str, dict[str, float]]:
    """A 1,000-step plan's ``versions`` versions: seconds to write them, bytes the store took per version."""
    found: dict[str, dict[str, float]] = {}
    plan = _plan(_context(), 1000)
    chain = [plan]
    for number in range(1, versions):
        chain.append(chain[-1].update_step(chain[-1].steps[number % 1000].step_id, description=f"step, take {number}"))
    whole = sum(len(document.to_json()) for document in chain) / versions
    compressed = sum(len(zlib.compress(document.to_json(), 6)) for document in chain[:50]) / 50
    for name, maker in make.items():
        with maker() as store:
            before = _size(store)
            start = time.perf_counter()
            version = store.put(chain[0])
            for document in chain[1:]:
                version = store.put(document, expected=version)
            seconds = time.perf_counter() - start
            size = (_size(store) - before) / versions
            start = time.perf_counter()
            for number in range(1, versions + 1, max(1, versions // 100)):
                store.get_json(mm.Plan, plan.plan_id, version=number)
            reads = time.perf_counter() - start
        found[name] = {
            "seconds": seconds,
            "puts_per_second": versions / seconds,
            "bytes_per_version": size,
            "ms_per_old_version_read": reads / len(range(1, versions + 1, max(1, versions // 100))) * 1000,
        }
    found["whole copy"] = {"bytes_per_version": whole}
    found["zlib (level 6) of a copy"] = {"bytes_per_version": compressed}
    return found


def _size(store: Store) -> float:
    """The bytes the store takes (SQLite: the file's used pages after a checkpoint; PostgreSQL: its rows as stored)."""
    if isinstance(store, SqliteStore):
        store._connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = store._connection.execute("PRAGMA page_count").fetchone()[0]
        free = store._connection.execute("PRAGMA freelist_count").fetchone()[0]
        size = store._connection.execute("PRAGMA page_size").fetchone()[0]
        return float((pages - free) * size)
    assert isinstance(store, PostgresStore)
    # The bytes of the rows as stored (values over 2 kB compressed by PostgreSQL's TOAST), not the files: each
    # put leaves the document row's older copy behind until a vacuum makes its room reusable.
    row = store._connection.execute(
        "SELECT (SELECT coalesce(sum(pg_column_size(v.*)), 0) FROM mplp_versions v)"
        " + (SELECT coalesce(sum(pg_column_size(d.*)), 0) FROM mplp_documents d)"
    ).fetchone()
    assert row is not None
    return float(row[0])


def session_reads(make: dict[str, Callable[[], Store]], documents: int, rounds: int) -> dict[str, dict[str, float]]:
    """session() of a context with ``documents`` documents: the best of ``rounds`` reads."""
    context = _context()
    members: list[mm.Payload] = [context]
    members += [_plan(context, 1) for _ in range(documents - 1)]
    found: dict[str, dict[str, float]] = {}
    for name, maker in make.items():
        with maker() as store:
            start = time.perf_counter()
            for document in members:
                store.put(document)
            filled = time.perf_counter() - start
            best = float("inf")
            for _ in range(rounds):
                start = time.perf_counter()
                read = store.session(context.context_id)
                best = min(best, time.perf_counter() - start)
            assert len(read) == documents
        found[name] = {
            "seconds": best,
            "documents_per_second": documents / best,
            "fill_puts_per_second": documents / filled,
        }
    return found


def run(quick: bool) -> dict[str, Any]:
    rounds, count = (3, 50) if quick else (5, 200)
    with tempfile.TemporaryDirectory(prefix="mplp-bench-store-") as tmp, stores(Path(tmp)) as make:
        result: dict[str, Any] = {"puts_and_gets": puts_and_gets(make, rounds, count)}
        with make["PostgreSQL"]() as postgres:
            assert isinstance(postgres, PostgresStore)
            result["floors_inserts_per_second"] = floors(Path(tmp), postgres, rounds, count)
        result["long_plan"] = long_plan(make, 200 if quick else 2000)
        result["session"] = session_reads(make, 1000 if quick else 10_000, rounds)
    print_table(result)
    return result


def print_table(result: dict[str, Any]) -> None:
    print("\nmplp_models.store, SQLite and PostgreSQL (best round; both durable; local unix socket):")
    floor = result["floors_inserts_per_second"]
    for name, rates in result["puts_and_gets"].items():
        cells = "  ".join(f"{key} {rate:8.0f}/s" for key, rate in rates.items())
        print(f"  {name:<11} {cells}  (backend alone: {floor[name]:6.0f} inserts/s)")
    print("  a 1,000-step plan, one step changed a version:")
    for name, case in result["long_plan"].items():
        extra = (
            f"  {case['puts_per_second']:6.0f} puts/s, an old version read in {case['ms_per_old_version_read']:.2f} ms"
            if "seconds" in case
            else ""
        )
        print(f"    {name:<26} {case['bytes_per_version']:10.0f} bytes a version{extra}")
    for name, case in result["session"].items():
        print(
            f"  session() of {name:<11} {case['seconds'] * 1000:8.1f} ms"
            f" ({case['documents_per_second']:8.0f} documents/s;"
            f" filled at {case['fill_puts_per_second']:6.0f} puts/s)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts")
    run(parser.parse_args(argv).quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
