"""What the fast paths need to know of a model class, found once per class: its ``Shape``.

Which fields admit a float or an open object, which hold arrays of models, and
whether the class is "plain": a generated class that meets every condition the
proofs of the fast paths rely on (``fast_path_problems``). The writer
(``_writer``) and the reader's check (``_reader``) both ask here; neither asks
the other.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, cast

from pydantic import BaseModel

from mplp_models._types import CORE_FUNCTIONS

__all__ = ["Shape", "fast_path_problems", "is_plain", "own_functions", "shape_of"]


class Shape(NamedTuple):
    """What writing a model class needs to know about its fields."""

    loose: tuple[str, ...]  # fields whose type admits a float or an open object
    many: tuple[str, ...]  # fields that hold a list of models
    # A generated class that meets every condition of fast_path_problems: its fields are its
    # schema's, with the SDK's types, unset ones hold None, and it has no validators or
    # serializers but the SDK's. Only these take the fast paths; any other class (a subclass a
    # user wrote, with a default, a serializer, extra fields or a computed field) goes through
    # model_dump and the strict reading.
    plain: bool
    # Keeps extra keys (ContextRoot's open object), in __pydantic_extra__ and counted among the
    # given fields; the writer and the reader's count take them with the fields.
    extra: bool


_GENERATED = "mplp_models._generated."


_SHAPES: dict[type, Shape] = {}


def shape_of(model: object) -> Shape:
    """The shape of the class of ``model``."""
    return _shape_of_class(type(model))


def is_plain(kind: type) -> bool:
    """Whether ``kind`` may take the fast paths: a generated model class that ``fast_path_problems`` finds nothing in."""
    return _shape_of_class(kind).plain


def _shape_of_class(kind: type) -> Shape:
    return _SHAPES.get(kind) or _shape(kind)


def _shape(kind: type) -> Shape:
    if not getattr(kind, "__pydantic_complete__", True):
        # Deferred build: until it is built, an annotation may still be a forward reference.
        kind.model_rebuild()  # type: ignore[attr-defined]
    fields: dict[str, Any] = getattr(kind, "model_fields", {})
    shape = Shape(
        loose=tuple(name for name, field in fields.items() if _admits_floats(field.annotation)),
        many=tuple(name for name, field in fields.items() if _holds_models(field.annotation)),
        # The field types are not checked: a generated class has the SDK's (the codegen maps every
        # leaf onto them), which are JSON already; a class of the user's own may hold a datetime,
        # which orjson would write otherwise than pydantic does. For a generated class, a problem
        # is a bug of the codegen: tests/test_codegen.py asserts there is none.
        plain=kind.__module__.startswith(_GENERATED) and not fast_path_problems(kind),
        extra=getattr(kind, "model_config", {}).get("extra") == "allow",
    )
    _SHAPES[kind] = shape
    return shape


def fast_path_problems(kind: type) -> list[str]:
    """What in model class ``kind`` the proofs of the fast paths do not allow, one line each (none: empty).

    ``_reader.read_as_strictly`` counts one ``:`` per unset field, written as
    ``"name":null``, and one per key read, each a field; ``model_members``
    writes a model's ``__dict__`` under its field names. So:

    * every field is required or defaults to ``None``, with no ``default_factory``
      (a default ``"0000:0000"`` would hide a duplicate key from the count);
    * no alias and no field excluded from writing;
    * ``extra="forbid"``, or ``extra="allow"`` with the extra keys checked by
      the SDK's own functions (registered with ``extra_keys``, ``_context``'s: each key's value
      an open JSON value, in both modes; ``model_members`` writes and
      ``write_every_field`` counts them) and of no declared type;
    * no computed fields, no ``model_post_init``;
    * no validator or serializer but the SDK's own (registered by ``own_functions``):
      code the proofs cannot see might change a value, read the mode, or
      write otherwise than ``model_members`` does.
    """
    fields: dict[str, Any] = getattr(kind, "__pydantic_fields__", {})
    problems = [f"field {name}: {problem}" for name, field in fields.items() for problem in _field_problems(field)]
    config: Mapping[str, Any] = getattr(kind, "model_config", {})
    schema = getattr(kind, "__pydantic_core_schema__", {})
    if config.get("extra") == "allow":
        problems += _extra_problems(kind, schema)
    elif config.get("extra") != "forbid":
        problems.append(f"extra={config.get('extra')!r}: keys that are no field")
    computed: dict[str, Any] = getattr(kind, "__pydantic_computed_fields__", None) or {}
    problems += [f"computed field {name}" for name in computed]
    if getattr(kind, "__pydantic_post_init__", None) is not None:
        problems.append("a model_post_init of its own")
    own = _own_functions()
    # Both the decorators and the built schema: MplpModel puts given_members in place of a model
    # serializer, which is then in no schema; an Annotated validator is in no decorator.
    functions = {id(function): function for function in [*_decorated_functions(kind), *_core_functions(schema)]}
    problems += [
        f"validator or serializer {function!r}" for function in functions.values() if id(_unbound(function)) not in own
    ]
    return problems


def _extra_problems(kind: type, schema: Any) -> list[str]:
    """What keeps the extra keys of an ``extra="allow"`` class off the fast paths: unchecked, or of a declared type."""
    problems: list[str] = []
    if not any(id(_unbound(function)) in _EXTRA_CHECKS for function in _decorated_functions(kind)):
        problems.append("extra='allow': keys that are no field, not checked as an open object")
    if _holds_key(schema, "extras_schema"):
        problems.append("a declared type for its extra keys (__pydantic_extra__)")
    return problems


def _unbound(function: object) -> object:
    """The function itself of a bound method (a ``@classmethod`` validator is held bound to its class)."""
    return getattr(function, "__func__", function)


def _holds_key(schema: Any, key: str) -> bool:
    """Whether some dict in a core schema has ``key``."""
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            items = cast(dict[str, Any], node)
            if key in items:
                return True
            stack.extend(items.values())
        elif isinstance(node, (list, tuple)):
            stack.extend(cast(Sequence[Any], node))
    return False


def _field_problems(field: Any) -> list[str]:
    problems: list[str] = []
    if field.default_factory is not None:
        problems.append("a default_factory")
    elif not field.is_required() and field.default is not None:
        problems.append(f"default {field.default!r} (an unset field must hold None)")
    if field.alias is not None or field.validation_alias is not None or field.serialization_alias is not None:
        problems.append("an alias")
    if field.exclude:
        problems.append("excluded from serialization")
    return problems


# The SDK's own validators and serializers, by id: the only ones a plain class may hold. Each module
# that defines one registers it when it loads (own_functions), so this module imports none of the
# modules above it; a class can hold a function only once its module has run, and so registered it.
_OWN: dict[int, object] = {}
# Those of them that check the extra keys of an extra="allow" class as an open object.
_EXTRA_CHECKS: dict[int, object] = {}


def own_functions(*functions: object, extra_keys: bool = False) -> None:
    """Registers validators and serializers as the SDK's own: ``fast_path_problems`` lets a class hold them.

    Each must do no more than the proofs of the fast paths allow (see
    ``fast_path_problems``); with ``extra_keys``, each checks the extra keys of
    an open class as one open JSON object (``_context``).
    """
    for function in functions:
        _OWN[id(function)] = function
        if extra_keys:
            _EXTRA_CHECKS[id(function)] = function


def _own_functions() -> dict[int, object]:
    return _OWN


own_functions(*CORE_FUNCTIONS)


_DECORATED = (
    "validators",
    "field_validators",
    "root_validators",
    "field_serializers",
    "model_serializers",
    "model_validators",
)


def _decorated_functions(kind: type) -> list[object]:
    """The functions of the class's ``@field_validator``, ``@model_serializer``... (its bases' included)."""
    decorators = getattr(kind, "__pydantic_decorators__", None)
    if decorators is None:
        return []
    groups: list[dict[str, Any]] = [getattr(decorators, group) for group in _DECORATED]
    return [decorator.func for group in groups for decorator in group.values()]


def _core_functions(schema: Any) -> list[object]:
    """Every function in a core schema, once: validators (``{"function": {"function": f}}``) and serializers (``{"function": f}``)."""
    found: dict[int, object] = {}
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            items = cast(dict[str, Any], node)
            function = items.get("function")
            if callable(function):
                found.setdefault(id(function), function)
            stack.extend(items.values())
        elif isinstance(node, (list, tuple)):
            stack.extend(cast(Sequence[Any], node))
    return list(found.values())


def _admits_floats(annotation: Any) -> bool:
    if annotation in (float, dict, Any) or typing.get_origin(annotation) is dict:
        return True
    return any(_admits_floats(argument) for argument in typing.get_args(annotation))


def _holds_models(annotation: Any) -> bool:
    """Whether the annotation is an array of models, ``tuple[Model, ...]`` (or such an array or None)."""
    if typing.get_origin(annotation) in (list, tuple):
        item = typing.get_args(annotation)[0]
        return isinstance(item, type) and issubclass(item, BaseModel)
    return any(_holds_models(argument) for argument in typing.get_args(annotation))
