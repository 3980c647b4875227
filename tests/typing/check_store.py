"""What a type checker sees of mplp_models.store and save_flow / load_flow (checked, never run: see check_models.py)."""

from __future__ import annotations

from pathlib import Path

from typing_extensions import assert_type

import mplp_models as mm
from mplp_models.store import PostgresStore, SqliteStore, Store, Version, open_store


def to_context(plan: mm.Plan) -> mm.Context:
    """A change that returns another kind than it was given."""
    return mm.Context.new(plan.title, domain="d", environment="production")


def store_types(path: Path, plan: mm.Plan, context: mm.Context) -> None:
    with SqliteStore(path) as store:
        assert_type(store, SqliteStore)
        version = store.put(plan)
        assert_type(version, Version)
        assert_type(store.get(mm.Plan, plan.plan_id), mm.Plan)
        assert_type(store.get(mm.Context, context.context_id, version=2), mm.Context)
        assert_type(store.read(mm.Plan, plan.plan_id), tuple[mm.Plan, Version])
        assert_type(store.update(mm.Plan, plan.plan_id, lambda p: p.transition("proposed")), Version)
        assert_type(store.history(mm.Plan, plan.plan_id), list[Version])
        assert_type(store.session(context.context_id), list[mm.Payload])
        assert_type(store.get_json(None, plan.plan_id), bytes)
        store.put(plan.to_dict())  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
        store.put(plan.steps[0])  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
        store.get(mm.PlanStep, "x")  # type: ignore[type-var]  # pyright: ignore[reportArgumentType]
        store.update(mm.Plan, plan.plan_id, to_context)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    with PostgresStore("dbname=agents") as shared:
        assert_type(shared, PostgresStore)
    assert_type(open_store("agents.sqlite"), Store)


def flow_types(folder: Path, plan: mm.Plan, context: mm.Context) -> None:
    assert_type(mm.save_flow([context, plan], folder), list[Path])
    assert_type(mm.save_flow({"plan.json": plan, "context.json": context}, folder, overwrite=True), list[Path])
    assert_type(mm.load_flow(folder), dict[str, mm.Payload])
    step = plan.steps[0]
    mm.save_flow([step], folder)  # type: ignore[list-item]  # pyright: ignore[reportArgumentType, reportCallIssue]
