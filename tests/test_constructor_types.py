"""The constructors' signatures for the type checkers, against the fields the run time reads.

Each generated model declares, under ``TYPE_CHECKING`` only, an ``__init__``
that takes what the run time reads from Python (checked by mypy and pyright in
tests/typing/check_models.py). Here: it names exactly the model's fields,
keyword-only, with a default for exactly the optional ones; it is invisible at
run time; and each ``XValue`` alias holds the values of ``X`` that the schemas list.
"""

from __future__ import annotations

import ast
import inspect
import json
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
from test_unordered import MODELS

import mplp_models as mm
from mplp_models._base import MplpModel
from mplp_models._public import defined_in
from mplp_models._types import StatusEnum

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def checked_init(model: type[mm.MplpModel]) -> ast.FunctionDef:
    """The ``__init__`` that the class declares under ``if TYPE_CHECKING:``, read from its source."""
    tree = ast.parse(inspect.getsource(sys.modules[defined_in(model)]))
    (node,) = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == model.__name__]
    (guard,) = [
        statement
        for statement in node.body
        if isinstance(statement, ast.If) and ast.unparse(statement.test) == "TYPE_CHECKING"
    ]
    (init,) = guard.body
    assert isinstance(init, ast.FunctionDef) and init.name == "__init__"
    return init


@pytest.mark.parametrize("model", MODELS, ids=[model.__name__ for model in MODELS])
def test_the_checked_init_names_the_fields_keyword_only(model: type[mm.MplpModel]) -> None:
    init = checked_init(model)
    assert [argument.arg for argument in init.args.args] == ["self"]
    assert init.args.posonlyargs == [] and init.args.vararg is None
    names = [argument.arg for argument in init.args.kwonlyargs]
    assert sorted(names) == sorted(model.model_fields)
    defaults = dict(zip(names, init.args.kw_defaults))
    annotations = {
        argument.arg: ast.unparse(argument.annotation or ast.Constant("")) for argument in init.args.kwonlyargs
    }
    for name, field in model.model_fields.items():
        default = defaults[name]
        if field.is_required():
            assert default is None, name
        else:
            assert default is not None and ast.unparse(default) == "None", name
            assert annotations[name].endswith("| None"), name
    # Keys that are no field: only where the model takes them (ContextRoot's extra="allow").
    assert (init.args.kwarg is not None) == (model.model_config.get("extra") == "allow")


@pytest.mark.parametrize("model", MODELS, ids=[model.__name__ for model in MODELS])
def test_the_run_time_init_is_the_base_ones(model: type[mm.MplpModel]) -> None:
    assert "__init__" not in vars(model)
    assert model.__init__ is MplpModel.__init__


def enum_aliases() -> list[tuple[type[StatusEnum], Any]]:
    found = []
    for module in {sys.modules[defined_in(model)] for model in MODELS}:
        for name, value in vars(module).items():
            if isinstance(value, type) and issubclass(value, StatusEnum) and defined_in(value) == module.__name__:
                found.append((value, getattr(module, name + "Value")))
    return sorted(found, key=lambda pair: pair[0].__name__)


ALIASES = enum_aliases()


def test_the_plan_aliases_hold_the_spec_values() -> None:
    # Written out from the Plan schema (mplp-plan.schema.json), in its order.
    from mplp_models._generated.mplp.v1_0 import mplp_plan_schema as plan

    assert typing.get_args(plan.PlanStatusValue) == (
        "draft",
        "proposed",
        "approved",
        "in_progress",
        "completed",
        "cancelled",
        "failed",
    )
    assert typing.get_args(plan.PlanStepStatusValue) == (
        "pending",
        "in_progress",
        "completed",
        "blocked",
        "skipped",
        "failed",
    )


def schema_enums() -> list[tuple[str, ...]]:
    """Every ``enum`` list in the schemas, as written there."""
    found: list[tuple[str, ...]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("enum"), list):
                found.append(tuple(node["enum"]))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted(SCHEMAS.rglob("*.schema.json")):
        walk(json.loads(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize(("kind", "alias"), ALIASES, ids=[kind.__name__ for kind, _ in ALIASES])
def test_every_enum_has_its_value_alias_in_the_schemas_order(kind: type[StatusEnum], alias: Any) -> None:
    values = typing.get_args(alias)
    assert values in schema_enums()  # the schema's own list, in its order
    assert set(values) == {member.value for member in kind}


def test_every_enum_has_an_alias() -> None:
    # A floor: 29 str enums today, each with its alias (enum_aliases fails on a missing one).
    assert len(ALIASES) >= 25
