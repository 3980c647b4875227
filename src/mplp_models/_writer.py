"""How orjson writes a model: ``model_members``, its ``default`` hook, in place of a ``model_dump``.

The values of a validated model are JSON already: str-valued enums and
``Timestamp`` are str subclasses, which orjson writes as their text; fields
hold str, bool, int, None, lists and other models. So a model is handed over
as its own ``__dict__`` (not copied) when every field was given, or as a copy
without the fields that were not. The fields whose type admits a float or an
open object are proven canonical, and made so, by one walk of the model's own
(``_canonical.written_fields``: as they are, but an integral float as its
``int`` and another float whose orjson text differs as a ``Fragment`` of its
RFC 8785 text); what the walk cannot prove takes the exact path,
``refuse_non_json`` then ``prepare``, for every such field of the model (floats
get their RFC 8785 text; open objects their checks and their pointer).
orjson calls the hook again for each model inside.

A list of ``_BULK_LEAST`` or more models of one class is turned into their
member dicts in bulk, by C-level maps, and their loose fields proven canonical
at once (``exactly_json`` and then ``written_as_is``): a plan's steps, a
dialog's messages, a trace's segments and a document's events are most of what
is written, and a Python call per item would dominate the writing. A shorter
list is left to the hook, item by item.

The one model walker: ``MplpModel.to_json`` writes with it (with
``OPT_SORT_KEYS``), and so does the reader's proof (``write_every_field``,
every field as read, for ``_reader.read_as_strictly`` to count). Whatever has no form
here (an integer beyond +/-(2**53 - 1) under ``OPT_STRICT_INTEGER``, a lone
surrogate, a value that is not JSON) makes orjson raise ``JSONEncodeError``.

The writing relies on what ``_fast_shapes.fast_path_problems`` checks of each class,
once, when its shape is first needed: a class that fails any of it is not
"plain", and takes the strict path (``model_dump``).
"""

from __future__ import annotations

import typing
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from itertools import chain, repeat
from operator import attrgetter, is_
from typing import Annotated, Any, cast

import orjson
from pydantic import BaseModel
from pydantic_core import PydanticSerializationError

from mplp_models._canonical import (
    CanonicalJSONError,
    Unproven,
    exactly_json,
    holder_of,
    prepare,
    refuse_non_json,
    relocated,
    written_as_is,
    written_fields,
    written_object,
)
from mplp_models._fast_shapes import Shape, as_dict_fields, own_functions, shape_of, shape_of_class
from mplp_models._types import MAX_OPEN_OBJECT_DEPTH, OPEN_OBJECT_CHECK, NotNull

__all__ = [
    "every_field_writer",
    "given_members",
    "model_members",
    "not_null_fields",
    "refuse_changed_open_objects",
    "write_every_field",
]

_DICT = attrgetter("__dict__")
_COPY: Callable[[dict[str, Any]], dict[str, Any]] = dict[str, Any].copy
_POP: Callable[[dict[str, Any], str], Any] = dict[str, Any].pop
_GET: Callable[[dict[str, Any], str], Any] = dict[str, Any].get
_GIVEN = attrgetter("__pydantic_fields_set__")


def _plain_model(model: Any) -> tuple[set[str], Shape]:
    """The given fields and the shape of a model the fast paths may write; a ``TypeError`` (orjson stops) for any other value.

    The one precondition of both walkers (``model_members``, ``write_every_field``):
    a plain class (``_fast_shapes.fast_path_problems`` finds nothing in it), whose
    ``__dict__`` holds its fields under their names, unset ones as ``None``.
    """
    try:
        given: set[str] = model.__pydantic_fields_set__
    except AttributeError:
        raise TypeError(f"{type(model).__name__} is not a JSON value") from None
    shape = shape_of(model)
    if not shape.plain:  # an unset field might hold a default, a serializer write otherwise...
        raise TypeError(f"{type(model).__name__} is written by model_dump")
    return given, shape


def model_members(model: Any) -> Any:
    """orjson's ``default`` for a model: its given fields (explicit nulls included), ready to write."""
    plan = _PLANS.get(model.__class__)  # one C call per model; a class seen first, or not plain, is checked
    if plan is None:
        plan = _plan_of(model)
    loose, many, extra, optional = plan
    values: dict[str, Any] = model.__dict__
    given: set[str] = model.__pydantic_fields_set__
    if extra:
        return _with_extra(model, values, given)
    members = values
    if len(given) != len(values):
        members = _without_unset(values, given, optional)
        if members.keys() != given:  # a required field not given, or a name no field's (the set changed in place)
            members = _without_unset(values, given)
    if loose:
        try:
            changes = written_fields(members, loose, MAX_OPEN_OBJECT_DEPTH)
        except Unproven:
            members = _prepared_loose(members, values, loose)
        else:
            if changes is not None:
                if members is values:  # never the model's own __dict__
                    members = dict(values)
                members.update(changes)
    for name in many:
        items = members.get(name)
        if items:
            listed = _members_of_many(items)
            if listed is not items:
                if members is values:
                    members = dict(values)
                members[name] = listed
    return members


_Plan = tuple[tuple[str, ...], tuple[str, ...], bool, tuple[str, ...]]
_PLANS: dict[type, _Plan] = {}
"""A plain class's ``Shape.loose``, ``Shape.many``, ``Shape.extra`` and optional fields, by class: ``model_members`` unpacks a tuple (C level) where a ``Shape``'s fields are three attribute looks.

The given fields are those of ``__dict__`` (every field's, unset ones
``None``) that are in ``__pydantic_fields_set__``: so when every optional
field not given is dropped from a copy and the keys left are the fields set,
they are the given ones; else (a required field taken out of the fields set
in place, or a name put in that is no field's) each field is looked at.
"""


def _plan_of(model: Any) -> _Plan:
    """``model_members``'s plan for the class of ``model``, kept when the class is plain; a ``TypeError`` (orjson stops) for any other value."""
    shape = _plain_model(model)[1]
    kind: type = type(model)  # pyright: ignore[reportUnknownVariableType]  # a model: _plain_model said so
    fields: dict[str, Any] = getattr(kind, "__pydantic_fields__", {})
    optional = tuple(name for name, field in fields.items() if not field.is_required())
    plan = _PLANS[kind] = (shape.loose, shape.many, shape.extra, optional)
    return plan


def _prepared_loose(members: dict[str, Any], values: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """The exact path for the loose fields ``names`` of ``members``: each checked and prepared on its own (its error names it).

    ``values`` is the model's own ``__dict__``, never changed.
    """
    if members is values:
        members = dict(values)
    _prepare_loose(members, names)
    return members


def _loose_as_is(dicts: list[dict[str, Any]], names: tuple[str, ...]) -> bool:
    """Whether orjson writes the loose fields ``names`` of the members ``dicts`` (of models of one class) as they are.

    ``exactly_json`` decides most at C speed; what it cannot (a key beyond
    ASCII, a float it finds not the same text) goes to ``written_as_is``.
    When neither proves them JSON already, the exact path writes them.
    """
    values = _loose_values(dicts, names)
    if exactly_json(values, MAX_OPEN_OBJECT_DEPTH):  # most often; a tuple is no JSON value to it, so there is none
        return True
    flat = _flattened(values)
    return (flat is not values and exactly_json(flat, MAX_OPEN_OBJECT_DEPTH)) or written_as_is(
        flat, MAX_OPEN_OBJECT_DEPTH
    )


def _loose_values(dicts: list[dict[str, Any]], names: tuple[str, ...]) -> list[Any]:
    """The values of the loose fields ``names`` in ``dicts`` (None where not given): C-level maps, one per field."""
    if len(names) == 1:
        return list(map(_GET, dicts, repeat(names[0])))
    return list(chain.from_iterable(map(_GET, dicts, repeat(name)) for name in names))


def _flattened(values: list[Any]) -> list[Any]:
    """``values`` with a model's own array of open objects (a tuple) as its items: each is an open object on its own, as ``refuse_changed_open_objects`` sees it."""
    if tuple in set(map(type, values)):
        flat: list[Any] = []
        for value in values:
            if type(value) is tuple:
                flat.extend(cast(tuple[Any, ...], value))  # type: ignore[redundant-cast]  # pyright sees tuple[Unknown, ...]
            else:
                flat.append(value)
        return flat
    return values


def _with_extra(model: Any, values: dict[str, Any], given: set[str]) -> dict[str, Any]:
    """The given fields of an open model (``ContextRoot``) and its extra keys, checked and prepared as one open object.

    Its fields are never floats, open objects or models (``Shape.loose`` and
    ``many`` empty, else refused here). The extra keys are counted among the
    given ones and are no field names; an object whose keys need RFC 8785's
    UTF-16 order (``prepare`` writes it whole) is left to ``model_dump``.
    """
    shape = shape_of(model)
    if shape.loose or shape.many:
        raise TypeError(f"{type(model).__name__} is written by model_dump")
    members = {name: value for name, value in values.items() if name in given}
    extra: dict[str, Any] | None = model.__pydantic_extra__
    if extra:
        try:
            members.update(written_object(extra, MAX_OPEN_OBJECT_DEPTH))  # a few keys: the walk beats orjson's screen
        except Unproven:
            prepared = _prepared_open_object(extra)
            if not isinstance(prepared, dict):
                raise TypeError(
                    f"{type(model).__name__} has extra keys written in UTF-16 order by model_dump"
                ) from None
            members.update(cast(dict[str, Any], prepared))
    return members


def _prepare_loose(members: dict[str, Any], names: tuple[str, ...]) -> None:
    """The given loose fields of ``members`` prepared in place, each as ``_prepared_open_object`` does."""
    for name in names:
        if name in members:
            members[name] = _prepared_open_object(members[name])


def _prepared_open_object(value: Any) -> Any:
    """A number or open object (or an array of them) ready for orjson; a ``CanonicalJSONError`` if changed into what the reading refuses.

    ``refuse_non_json`` says what that is (its fast screen costs one orjson
    round trip of the object); ``prepare`` then refuses what has no RFC 8785
    form. Either makes orjson stop, and ``to_json`` take the strict path,
    which names the place.
    """
    _refuse_changed(value, ())
    return prepare(value)


def _given_members_of(values: dict[str, Any], given: set[str]) -> dict[str, Any]:
    return values if len(given) == len(values) else _without_unset(values, given)


def _without_unset(values: dict[str, Any], given: set[str], names: Iterable[str] | None = None) -> dict[str, Any]:
    """A copy of ``values`` without the keys of ``names`` (default: every key) that are not ``given``."""
    members = values.copy()  # then dropping the few unset keys: the cheapest way, measured
    for name in values if names is None else names:
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
    try:
        # Before pydantic sees them: it would write bytes, a set, a Decimal...
        # as something else, in both modes, with a warning at most.
        refuse_changed_open_objects(model)
        members = handler(model)
    except CanonicalJSONError as refusal:
        raise relocated(refusal, (), model) from None
    except PydanticSerializationError as error:
        inner = error.__cause__
        if not isinstance(inner, CanonicalJSONError):
            raise
        # A model inside refused, located from itself; located from here, it
        # is what model_dump's error names (pydantic keeps it as the cause).
        raise _located_from(model, inner) from None
    given = model.__pydantic_fields_set__
    fields = type(model).__pydantic_fields__
    # An open model counts its extra keys among the given: then its fields are looked at one by one.
    if (len(given) < len(fields) or model.__pydantic_extra__) and isinstance(members, dict):
        written = cast(dict[str, Any], members)
        for name in fields:
            if name not in given:
                written.pop(name, None)
    return cast(Any, members)


own_functions(given_members)  # every model's wrap serializer, which model_members does the work of


def refuse_changed_open_objects(model: BaseModel) -> None:
    """A ``CanonicalJSONError`` if an open object of ``model`` (its own, not its models') was changed in place into what the reading refuses.

    Its open fields (``JsonObject``, or an array of them) and the extra keys of
    an open model, which are read as one open object. ``refuse_non_json``
    says what is refused; the pointer starts at ``model``.
    """
    values = model.__dict__
    for name in open_fields(type(model)):
        _refuse_changed(values.get(name), (name,))
    extra = model.__pydantic_extra__
    if extra:
        _refuse_changed(extra, ())


def _refuse_changed(value: Any, location: tuple[object, ...]) -> None:
    """``refuse_non_json`` for the value of an open field (or the extra keys) at ``location``: an open object, an array of them, or else nothing to check."""
    if isinstance(value, tuple):  # the model's own array (frozen): its items are open objects
        for index, item in enumerate(cast(tuple[Any, ...], value)):  # type: ignore[redundant-cast]  # pyright sees tuple[Unknown, ...]
            refuse_non_json(item, (*location, index), MAX_OPEN_OBJECT_DEPTH)
    elif isinstance(value, dict):
        refuse_non_json(value, location, MAX_OPEN_OBJECT_DEPTH)


def _located_from(model: BaseModel, refusal: CanonicalJSONError) -> CanonicalJSONError:
    """``refusal``, raised by a model that ``model`` holds in a field (or in an array field), located from ``model``."""
    inner = holder_of(refusal)
    for name, value in model.__dict__.items():
        if value is inner:
            return relocated(refusal, (name,), model)
        if isinstance(value, tuple):
            for index, item in enumerate(cast(tuple[Any, ...], value)):  # type: ignore[redundant-cast]  # pyright sees tuple[Unknown, ...]
                if item is inner:
                    return relocated(refusal, (name, index), model)
    return refusal  # held otherwise (a class of the user's own): located from the model that refused


_OPEN_FIELDS: dict[type, tuple[str, ...]] = {}


def open_fields(kind: type) -> tuple[str, ...]:
    """The fields of a model class that hold an open object (``JsonObject``) or an array of them."""
    names = _OPEN_FIELDS.get(kind)
    if names is None:
        fields: dict[str, Any] = getattr(kind, "__pydantic_fields__", {})
        names = _OPEN_FIELDS[kind] = tuple(name for name, field in fields.items() if _holds_open(field))
    return names


def _holds_open(field: Any) -> bool:
    """Whether a field holds an open object or an array of them.

    A required field's annotation is no longer ``JsonObject`` (pydantic takes the outermost
    ``Annotated`` apart into ``metadata``): its open object's check is then among the field's markers.
    """
    return _is_open(field.metadata) or _mentions_open(field.annotation)


def _is_open(markers: Iterable[Any]) -> bool:
    return any(getattr(marker, "func", None) is OPEN_OBJECT_CHECK for marker in markers)


def _mentions_open(annotation: Any) -> bool:
    if typing.get_origin(annotation) is Annotated and _is_open(annotation.__metadata__):
        return True
    return any(_mentions_open(argument) for argument in typing.get_args(annotation))


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


_BULK_LEAST = 8  # the fewest items of a list taken in bulk, by model_members and write_every_field: below, a call per item costs less (measured)


def _members_of_many(items: Sequence[Any]) -> Sequence[Any]:
    """The members of a list of models in bulk, when they are of one plain class; else the list.

    The loose fields of all the items are screened at once (``written_as_is``);
    when that fails, the list is left to ``model_members``, item by item, which
    screens each and takes the exact path for those that need it.
    """
    if len(items) < _BULK_LEAST:
        return items
    first: object = items[0]
    kind = type(first)
    given: set[str] | None = getattr(first, "__pydantic_fields_set__", None)
    if given is None:
        return items
    shape = shape_of(first)
    if shape.extra or not shape.plain:
        return items
    if not all(map(is_, map(type, items), repeat(kind))):
        return items
    dicts: list[dict[str, Any]] = list(map(_DICT, items))
    if not all(map(given.__eq__, map(_GIVEN, items))):  # measured no slower than any C-level screen of fewer look-ups
        # Fields given in some items and not in others (a trace's segments, one with a parent):
        # each item's members dropped one by one.
        dicts = list(map(_given_members_of, dicts, map(_GIVEN, items)))
    else:
        unset = [name for name in dicts[0] if name not in given]
        if unset:
            dicts = list(map(_COPY, dicts))
            for name in unset:  # dropped from every copy by a C-level map, consumed in place
                deque(map(_POP, dicts, repeat(name)), maxlen=0)
    if shape.loose and not _loose_as_is(dicts, shape.loose):
        return items
    # Nested lists of models (none in these schemas' list items today) are written item by item.
    return dicts


def write_every_field(model: Any) -> tuple[bytes, int]:
    """``model`` written with every field, given or not (``OPT_STRICT_INTEGER``), and how many were not given.

    The reader's proof (``_reader.read_as_strictly``) counts colons in it.
    Nothing is copied or converted: each model is its own ``__dict__``, and a
    list of models the list of theirs. An unset field holds its default,
    ``None`` here, and is written as ``"name":null``; so the text has one
    ``:`` per given key, one per unset field, and those of the strings. The
    same precondition as ``model_members`` (``_plain_model``: a ``TypeError``,
    which orjson's ``JSONEncodeError`` is, for any other value), but every
    field, no preparing (the counts need the values as read). The outermost
    model is handed over as its members: orjson calls back only for the models inside,
    and a model with no field that may hold one is written with no callback at all.
    """
    if _written_flat(shape_of(model)):
        return _write_flat(model)
    unset = 0
    fields_of = as_dict_fields

    def every_field(item: Any) -> Any:
        nonlocal unset
        fields = fields_of(type(item))  # pyright: ignore[reportUnknownArgumentType]  # no cast: a call per model
        if fields is not None:  # most models inside: no copy, no walk
            unset += fields - len(item.__pydantic_fields_set__)
            return item.__dict__
        given, shape = _plain_model(item)
        values = item.__dict__
        if shape.extra:  # its extra keys are counted among the given and written with the fields
            extra: dict[str, Any] = item.__pydantic_extra__ or {}
            unset += len(values) + len(extra) - len(given)
            return {**values, **extra}
        unset += len(values) - len(given)
        members = values
        for name in shape.many:
            items = values[name]
            # A short array's items are left to orjson's call back (each a leaf, most often): the
            # copies below cost more than a few calls.
            if (
                items and len(items) >= _BULK_LEAST and not shape_of(items[0]).extra
            ):  # of the field's class (read from JSON)
                if members is values:
                    members = dict(values)
                members[name] = dicts = list(map(_DICT, items))
                unset += sum(map(len, dicts)) - sum(map(len, map(_GIVEN, items)))
        return members

    written = orjson.dumps(every_field(model), default=every_field, option=orjson.OPT_STRICT_INTEGER)
    return written, unset


def every_field_writer(kind: type) -> Callable[[Any], tuple[bytes, int]]:
    """``write_every_field`` for the models of class ``kind``, with the choice below made once for the class."""
    return _write_flat if _written_flat(shape_of_class(kind)) else write_every_field


def _written_flat(shape: Shape) -> bool:
    # A plain model that can hold no model and no extra key is written as its own __dict__, with no callback.
    return shape.plain and not (shape.nested or shape.extra)


def _write_flat(model: Any) -> tuple[bytes, int]:
    values: dict[str, Any] = model.__dict__
    return orjson.dumps(values, option=orjson.OPT_STRICT_INTEGER), len(values) - len(model.__pydantic_fields_set__)
