"""How orjson writes a model: ``model_members``, its ``default`` hook, in place of a ``model_dump``.

The values of a validated model are JSON already: str-valued enums and
``Timestamp`` are str subclasses, which orjson writes as their text; fields
hold str, bool, int, None, lists and other models. So a model is handed over
as its own ``__dict__`` (not copied) when every field was given, or as a copy
without the fields that were not. Only the fields whose type admits a float or
an open object go through ``prepare`` (floats get their RFC 8785 text; open
objects their checks). orjson calls the hook again for each model inside.

A list of models of one class, all with the same fields given, is turned into
their member dicts in bulk, by C-level maps: a plan's steps and a dialog's
messages are most of what is written, and a Python call per item would
dominate the writing.

Used by ``MplpModel.to_json`` (with ``OPT_SORT_KEYS``). Whatever has no form
here (an integer beyond +/-(2**53 - 1) under ``OPT_STRICT_INTEGER``, a lone
surrogate, a value that is not JSON) makes orjson raise ``JSONEncodeError``.

``write_every_field`` is the cheaper writing that the check of ``from_json``'s
fast path counts colons in (see ``_decode.read_as_strictly``).

Both writings rely on what ``fast_path_problems`` checks of each class, once,
when its shape is first needed: a class that fails any of it is not "plain",
and takes the strict paths (``model_dump``; orjson and a validation).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping, Sequence
from itertools import repeat
from operator import attrgetter, is_
from typing import Any, NamedTuple, cast

import orjson
from pydantic import BaseModel

from mplp_models._canonical import prepare
from mplp_models._types import CORE_FUNCTIONS, NotNull, open_object_problem

__all__ = ["fast_path_problems", "given_members", "is_plain", "model_members", "not_null_fields", "write_every_field"]

_DICT = attrgetter("__dict__")
_COPY: Callable[[dict[str, Any]], dict[str, Any]] = dict[str, Any].copy
_GIVEN = attrgetter("__pydantic_fields_set__")


class _Shape(NamedTuple):
    """What writing a model class needs to know about its fields."""

    loose: tuple[str, ...]  # fields whose type admits a float or an open object
    many: tuple[str, ...]  # fields that hold a list of models
    # A generated class that meets every condition of fast_path_problems: its fields are its
    # schema's, with the SDK's types, unset ones hold None, and it has no validators or
    # serializers but the SDK's. Only these take the fast paths; any other class (a subclass a
    # user wrote, with a default, a serializer, extra fields or a computed field) goes through
    # model_dump and the strict reading.
    plain: bool


_GENERATED = "mplp_models._generated."


_SHAPES: dict[type, _Shape] = {}


def model_members(model: Any) -> Any:
    """orjson's ``default`` for a model: its given fields (explicit nulls included), ready to write."""
    try:
        given = model.__pydantic_fields_set__
    except AttributeError:
        raise TypeError(f"{type(model).__name__} is not a JSON value") from None
    shape = _shape_of(model)
    if not shape.plain:
        raise TypeError(f"{type(model).__name__} is written by model_dump")
    values: dict[str, Any] = model.__dict__
    members = values if len(given) == len(values) else _without_unset(values, given)
    if not (shape.loose or shape.many):
        return members
    if members is values:
        members = dict(values)  # the model's own __dict__ is never changed
    for name in shape.loose:
        if name in members:
            value = members[name]
            if _changed_open_object(value):
                raise TypeError(f"{type(model).__name__}.{name} holds an open object changed after validation")
            members[name] = prepare(value)
    for name in shape.many:
        items = members.get(name)
        if items:
            members[name] = _members_of_many(items)
    return members


def _changed_open_object(value: Any) -> bool:
    """Whether an open object (or an array of them) holds what the reading refuses: changed in place since."""
    if isinstance(value, dict):
        return open_object_problem(value) is not None
    if isinstance(value, (tuple, list)):
        return any(
            isinstance(item, dict) and open_object_problem(item) is not None for item in cast(Sequence[Any], value)
        )
    return False


def _without_unset(values: dict[str, Any], given: set[str]) -> dict[str, Any]:
    members = values.copy()  # then dropping the few unset keys: the cheapest way, measured
    for name in values:
        if name not in given:
            del members[name]
    return members


def given_members(model: BaseModel | None, handler: Callable[[Any], Any]) -> Any:
    """pydantic's serialization of a model (``handler``) without the fields that were not given.

    The wrap serializer of every model with optional fields: pydantic would
    write an absent field as ``null``, which the schema refuses for most of them.
    """
    if model is None:
        # An unset field that may not be null holds None; pydantic serializes
        # it with the model's serializer before the parent drops it.
        return None
    members = handler(model)
    given = model.__pydantic_fields_set__
    fields = type(model).__pydantic_fields__
    # An open model counts its extra keys among the given: then its fields are looked at one by one.
    if (len(given) < len(fields) or model.__pydantic_extra__) and isinstance(members, dict):
        written = cast(dict[str, Any], members)
        for name in fields:
            if name not in given:
                written.pop(name, None)
    return cast(Any, members)


_NOT_NULL: dict[type, frozenset[str]] = {}


def not_null_fields(kind: type) -> frozenset[str]:
    """The optional fields of a model class that may not be ``null`` (marked ``NotNull``)."""
    names = _NOT_NULL.get(kind)
    if names is None:
        fields: dict[str, Any] = getattr(kind, "__pydantic_fields__", {})
        names = _NOT_NULL[kind] = frozenset(
            name for name, field in fields.items() if any(marker is NotNull for marker in field.metadata)
        )
    return names


def _members_of_many(items: Sequence[Any]) -> Sequence[Any]:
    """The members of a list of models in bulk, when they are of one class and share their given fields; else the list.

    Items whose class has loose fields are left to ``model_members``, one by one.
    """
    first: object = items[0]
    kind = type(first)
    given: set[str] | None = getattr(first, "__pydantic_fields_set__", None)
    if given is None:
        return items
    shape = _shape_of(first)
    if shape.loose or not shape.plain:
        return items
    if not all(map(is_, map(type, items), repeat(kind))) or not all(map(given.__eq__, map(_GIVEN, items))):
        return items
    dicts: list[dict[str, Any]] = list(map(_DICT, items))
    unset = [name for name in dicts[0] if name not in given]
    if unset:
        dicts = list(map(_COPY, dicts))
        for members in dicts:
            for name in unset:
                del members[name]
    # Nested lists of models (none in these schemas' list items today) are written item by item.
    return dicts


def write_every_field(model: Any) -> tuple[bytes, int]:
    """``model`` written with every field, given or not (``OPT_STRICT_INTEGER``), and how many were not given.

    Nothing is copied or converted: each model is its own ``__dict__``, and a
    list of models the list of theirs. An unset field holds its default,
    ``None`` here, and is written as ``"name":null``; so the text has one
    ``:`` per given key, one per unset field, and those of the strings.
    """
    unset = 0

    def every_field(item: Any) -> Any:
        nonlocal unset
        try:
            given = item.__pydantic_fields_set__
        except AttributeError:
            raise TypeError(f"{type(item).__name__} is not a JSON value") from None
        shape = _shape_of(item)
        if not shape.plain:  # an unset field might hold a default with colons of its own
            raise TypeError(f"{type(item).__name__} is not a generated model")
        values: dict[str, Any] = item.__dict__
        unset += len(values) - len(given)
        many = shape.many
        if not many:
            return values
        members = dict(values)
        for name in many:
            items = members[name]
            if items:
                members[name] = dicts = list(map(_DICT, items))
                unset += sum(map(len, dicts)) - sum(map(len, map(_GIVEN, items)))
        return members

    written = orjson.dumps(model, default=every_field, option=orjson.OPT_STRICT_INTEGER)
    return written, unset


def _shape_of(model: object) -> _Shape:
    return _shape_of_class(type(model))


def is_plain(kind: type) -> bool:
    """Whether ``kind`` may take the fast paths: a generated model class that ``fast_path_problems`` finds nothing in."""
    return _shape_of_class(kind).plain


def _shape_of_class(kind: type) -> _Shape:
    return _SHAPES.get(kind) or _shape(kind)


def _shape(kind: type) -> _Shape:
    if not getattr(kind, "__pydantic_complete__", True):
        # Deferred build: until it is built, an annotation may still be a forward reference.
        kind.model_rebuild()  # type: ignore[attr-defined]
    fields: dict[str, Any] = getattr(kind, "model_fields", {})
    shape = _Shape(
        loose=tuple(name for name, field in fields.items() if _admits_floats(field.annotation)),
        many=tuple(name for name, field in fields.items() if _holds_models(field.annotation)),
        # The field types are not checked: a generated class has the SDK's (the codegen maps every
        # leaf onto them), which are JSON already; a class of the user's own may hold a datetime,
        # which orjson would write otherwise than pydantic does. For a generated class, a problem
        # is a bug of the codegen: tests/test_codegen.py asserts there is none.
        plain=kind.__module__.startswith(_GENERATED) and not fast_path_problems(kind),
    )
    _SHAPES[kind] = shape
    return shape


def fast_path_problems(kind: type) -> list[str]:
    """What in model class ``kind`` the proofs of the fast paths do not allow, one line each (none: empty).

    ``_decode.read_as_strictly`` counts one ``:`` per unset field, written as
    ``"name":null``, and one per key read, each a field; ``model_members``
    writes a model's ``__dict__`` under its field names. So:

    * every field is required or defaults to ``None``, with no ``default_factory``
      (a default ``"0000:0000"`` would hide a duplicate key from the count);
    * no alias and no field excluded from writing;
    * ``extra="forbid"``, no computed fields, no ``model_post_init``;
    * no validator or serializer but the SDK's own (``_own_functions``):
      code the proofs cannot see might change a value, read the mode, or
      write otherwise than ``model_members`` does.
    """
    fields: dict[str, Any] = getattr(kind, "__pydantic_fields__", {})
    problems = [f"field {name}: {problem}" for name, field in fields.items() for problem in _field_problems(field)]
    config: Mapping[str, Any] = getattr(kind, "model_config", {})
    if config.get("extra") != "forbid":
        problems.append(f"extra={config.get('extra')!r}: keys that are no field")
    computed: dict[str, Any] = getattr(kind, "__pydantic_computed_fields__", None) or {}
    problems += [f"computed field {name}" for name in computed]
    if getattr(kind, "__pydantic_post_init__", None) is not None:
        problems.append("a model_post_init of its own")
    own = _own_functions()
    schema = getattr(kind, "__pydantic_core_schema__", {})
    # Both the decorators and the built schema: MplpModel puts given_members in place of a model
    # serializer, which is then in no schema; an Annotated validator is in no decorator.
    functions = {id(function): function for function in [*_decorated_functions(kind), *_core_functions(schema)]}
    problems += [f"validator or serializer {function!r}" for key, function in functions.items() if key not in own]
    return problems


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


def _own_functions() -> dict[int, object]:
    """The validators and serializers of the SDK's own, each named, by ``id``: the only ones a plain class may hold."""
    from mplp_models._semantic import RuledModel  # here: _semantic builds on _base, which builds on this module

    rules = RuledModel.__pydantic_decorators__.model_validators["_apply_rules"].func  # the same in both modes
    # given_members: every model's wrap serializer, which model_members does the work of.
    return {id(function): function for function in (rules, given_members, *CORE_FUNCTIONS)}


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
