"""The hand-written behaviour bases declare, for the type checkers only, fields that the generated classes define.

A base such as ``PlanBehaviour`` names ``status: PlanStatus`` and ``steps:
tuple[PlanStep, ...]`` under ``TYPE_CHECKING``, so that its methods type-check;
the field itself is the generated class's. Nothing but this test keeps the two
in step: each stub must be a field of every generated class built on the base,
and its type take every value that field holds at run time (a base shared by several
classes may declare a wider one: ``StatusEnum``; ``Any`` declares nothing).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import types
import typing
from typing import Any

import pytest

import mplp_models._generated as generated
from mplp_models._base import MplpModel
from mplp_models._public import defined_in


def generated_classes() -> list[type[MplpModel]]:
    found: list[type[MplpModel]] = []
    for info in pkgutil.walk_packages(generated.__path__, generated.__name__ + "."):
        module = importlib.import_module(info.name)
        found += [
            value
            for value in vars(module).values()
            if inspect.isclass(value) and issubclass(value, MplpModel) and defined_in(value) == module.__name__
        ]
    return found


CLASSES = generated_classes()
NAMESPACE: dict[str, Any] = {
    **vars(typing),
    **{name: value for kind in CLASSES for name, value in vars(importlib.import_module(defined_in(kind))).items()},
}


def stubs(base: type) -> dict[str, str]:
    """The annotations a class declares in its body under ``if TYPE_CHECKING:``, as source text."""
    # The module that defines it: a published class's __module__ names the package, where no source is.
    tree = ast.parse(inspect.getsource(importlib.import_module(defined_in(base))))
    body = next(node for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.name == base.__name__)
    found: dict[str, str] = {}
    for statement in body.body:
        if isinstance(statement, ast.If) and ast.unparse(statement.test) == "TYPE_CHECKING":
            for inner in statement.body:
                if isinstance(inner, ast.AnnAssign) and isinstance(inner.target, ast.Name):
                    found[inner.target.id] = ast.unparse(inner.annotation)
    return found


def atoms(annotation: Any) -> set[Any]:
    """What a value of ``annotation`` is at run time, each member of a union apart: aliases and markers taken off.

    A class stands for itself, an array for ``("tuple", item atoms)``, a ``Literal`` for its values.
    """
    annotation = getattr(annotation, "__value__", annotation)  # a type alias
    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return atoms(arguments[0])
    if origin in (typing.Union, types.UnionType):
        return set().union(*(atoms(argument) for argument in arguments))
    if origin is tuple:
        return {("tuple", frozenset(atoms(arguments[0])))}
    if origin is typing.Literal:
        return {("literal", value) for value in arguments}
    return {annotation}


def covers(declared: Any, actual: Any) -> bool:
    """Whether the stub's type ``declared`` takes every value of ``actual`` (a subclass, a literal's value...)."""
    if declared == actual:
        return True
    if isinstance(actual, tuple) and actual[0] == "literal":
        return isinstance(declared, type) and isinstance(actual[1], declared)
    if isinstance(actual, tuple) and isinstance(declared, tuple) and actual[0] == declared[0] == "tuple":
        return all(any(covers(outer, inner) for outer in declared[1]) for inner in actual[1])
    return isinstance(declared, type) and isinstance(actual, type) and issubclass(actual, declared)


PAIRS = [
    (kind, base)
    for kind in CLASSES
    for base in kind.__mro__[1:]
    if defined_in(base).startswith("mplp_models.")
    and not defined_in(base).startswith("mplp_models._generated")
    and stubs(base)
]


def test_some_bases_declare_fields() -> None:
    assert len({base for _, base in PAIRS}) >= 10


@pytest.mark.parametrize(("kind", "base"), PAIRS, ids=[f"{kind.__name__}-{base.__name__}" for kind, base in PAIRS])
def test_each_stub_is_the_generated_field_it_stands_for(kind: type[MplpModel], base: type) -> None:
    fields = kind.model_fields
    for name, text in stubs(base).items():
        declared = eval(text, NAMESPACE)  # the package's own source
        if declared is Any:
            continue
        assert name in fields, f"{base.__name__}.{name}: no field of {kind.__name__}"
        field = fields[name]
        actual = atoms(field.annotation) | (set() if field.is_required() else {type(None)})  # absent is None
        wider = atoms(declared)
        assert all(any(covers(outer, inner) for outer in wider) for inner in actual), (
            f"{base.__name__}.{name}: {text} does not take every value of {kind.__name__}.{name}"
        )
