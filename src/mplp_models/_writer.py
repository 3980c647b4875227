"""The writing fast path: ``write_json`` by orjson through ``model_members``, and the strict writing it must equal.

``write_json`` is what ``to_json`` gives. Its strict function, ``strictly_written``, is ``model_dump`` (with
``given_members`` as every model's serializer) and ``canonical_json``'s walk of the dict. Its fast function hands
the model to orjson, whose ``default`` is ``model_members``:

* a model is handed over as its own ``__dict__`` (a copy without the fields not given): its values are JSON
  already (enums and ``Timestamp`` are str subclasses) and field names ASCII, so orjson's key order is RFC 8785's;
* the fields that may hold a float or an open object (``Facts.prepared``) are proven canonical, and made so,
  by ``written_fields``; what it cannot prove (``Unproven``) is left to the strict function;
* a list of ``_BULK_LEAST`` or more models of one plain class is turned into member dicts by C-level maps,
  and their prepared fields proven at once (``exactly_json``);
* ``OPT_STRICT_INTEGER`` stops at an integer beyond +/-(2**53 - 1), and UTF-8 at a lone surrogate: the strict
  function then writes what has an exact form and names the pointer of what has not.

Any model that is not plain (``_fast_shapes.is_plain``) makes ``model_members`` raise ``TypeError``, which stops
orjson. ``every_field_writer`` is the writing that ``_reader``'s proof counts: every field as read.
"""

from __future__ import annotations

import functools
import typing
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from itertools import chain, repeat
from operator import attrgetter, is_
from typing import Annotated, Any, cast

import orjson
from pydantic import BaseModel
from pydantic_core import PydanticSerializationError

from mplp_models import _fastpath
from mplp_models._canonical import CanonicalJSONError, dumps, holder_of, relocated
from mplp_models._fast_shapes import NO_FACTS, as_dict_fields, facts_of, is_plain, own_functions
from mplp_models._json_values import (
    FLOAT_TEXT,
    FRAGMENT,
    MAX_OPEN_OBJECT_DEPTH,
    MAX_SAFE_INTEGER,
    es6_number,
    exactly_json,
    same_float_text,
    screened_problem,
)
from mplp_models._types import OPEN_OBJECT_CHECK, NotNull

__all__ = [
    "Unproven",
    "every_field_writer",
    "given_members",
    "json_members",
    "model_members",
    "not_null_fields",
    "open_fields",
    "refuse_changed_open_objects",
    "strictly_written",
    "write_json",
    "written_fields",
    "written_object",
]

_FAST = orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER
_WRITING = _fastpath.WRITING
_DICT = attrgetter("__dict__")
_COPY: Callable[[dict[str, Any]], dict[str, Any]] = dict[str, Any].copy
_POP: Callable[[dict[str, Any], str], Any] = dict[str, Any].pop
_GET: Callable[[dict[str, Any], str], Any] = dict[str, Any].get
_GIVEN = attrgetter("__pydantic_fields_set__")


def write_json(model: BaseModel) -> bytes:
    """The RFC 8785 bytes of ``model``'s given fields: the fast function where it writes, else ``strictly_written``."""
    if _fastpath.ENABLED and _WRITING not in _fastpath.OFF:  # _fastpath.on, without the call
        try:
            return orjson.dumps(model, default=model_members, option=_FAST)
        except orjson.JSONEncodeError:
            pass
    return strictly_written(model)


def strictly_written(model: BaseModel) -> bytes:
    """The RFC 8785 bytes of ``model``'s given fields, by ``model_dump`` and ``canonical_json``'s walk of the dict."""
    return dumps(json_members(model))


def json_members(model: BaseModel) -> dict[str, Any]:
    """``model``'s given fields as JSON-compatible Python values (``to_dict``); a ``CanonicalJSONError`` where
    ``model_dump`` refuses (pydantic wraps a serializer's error in its own)."""
    try:
        return model.model_dump(mode="json", exclude_unset=True)
    except PydanticSerializationError as error:
        refusal = error.__cause__
        if isinstance(refusal, CanonicalJSONError):  # given_members's, located from this model
            raise relocated(refusal, (), None) from None
        raise CanonicalJSONError(str(error)) from None


# --- the fast function: orjson's default for a model ----------------------------------------------

_Plan = tuple[tuple[str, ...], tuple[str, ...], bool, tuple[str, ...]]
_PLANS: dict[type, _Plan] = {}
"""A plain class's prepared fields, arrays of models, extra keys and optional fields: one C-level look per model.

The given fields are those of ``__dict__`` (every field's, unset ones
``None``) that are in ``__pydantic_fields_set__``: so when every optional
field not given is dropped from a copy and the keys left are the fields set,
they are the given ones; else (a required field taken out of the fields set
in place, or a name put in that is no field's) each field is looked at.
"""


def model_members(model: Any) -> Any:
    """orjson's ``default`` for a model: its given fields (explicit nulls included), ready to write."""
    plan = _PLANS.get(model.__class__)  # one C call per model; a class seen first, or not plain, is checked
    if plan is None:
        plan = _plan_of(model)
    prepared, many, extra, optional = plan
    values: dict[str, Any] = model.__dict__
    given: set[str] = model.__pydantic_fields_set__
    if extra:
        return _with_extra(model, values, given)
    members = values
    if len(given) != len(values):
        # _without_unset over the optional fields only, inline: its call is 5% of a small model's to_json.
        members = values.copy()
        for name in optional:
            if name not in given:
                del members[name]
        if members.keys() != given:  # a required field not given, or a name no field's (the set changed in place)
            members = _without_unset(values, given)
    if prepared:
        changes = written_fields(members, prepared)
        if changes is not None:
            members = dict(values) if members is values else members  # never the model's own __dict__
            members.update(changes)
    return _with_model_arrays(members, values, many) if many else members


def _with_model_arrays(members: dict[str, Any], values: dict[str, Any], many: tuple[str, ...]) -> dict[str, Any]:
    """``members`` with the arrays of models ``many`` written as ``_members_of_many`` gives; a copy if any changes."""
    for name in many:
        items = members.get(name)
        if items:
            listed = _members_of_many(items)
            if listed is not items:
                members = dict(values) if members is values else members  # never the model's own __dict__
                members[name] = listed
    return members


def _plan_of(model: Any) -> _Plan:
    """``model_members``'s plan for the class of ``model``, once; a ``TypeError`` (orjson stops) for any other value."""
    kind: type = type(model)  # pyright: ignore[reportUnknownVariableType]  # any value
    if not isinstance(model, BaseModel):
        raise TypeError(f"{kind.__name__} is not a JSON value")
    if not is_plain(kind):  # an unset field might hold a default, a serializer write otherwise...
        raise TypeError(f"{kind.__name__} is written by model_dump")
    facts = facts_of(kind)
    plan = _PLANS[kind] = (facts.prepared, facts.model_arrays, facts.extra, facts.optional)
    return plan


def _without_unset(values: dict[str, Any], given: set[str]) -> dict[str, Any]:
    """A copy of ``values`` without the keys that are not ``given`` (``values`` itself when every field is given)."""
    if len(given) == len(values):
        return values
    members = values.copy()  # then dropping the few unset keys: the cheapest way, measured
    for name in values:
        if name not in given:
            del members[name]
    return members


def _with_extra(model: Any, values: dict[str, Any], given: set[str]) -> dict[str, Any]:
    """The given fields of an open model (``ContextRoot``) and its extra keys, checked and prepared as one open object.

    Left to ``model_dump``: a class with floats, open objects or models in fields, and keys in UTF-16 order.
    """
    kind: type = type(model)  # pyright: ignore[reportUnknownVariableType]  # a model: model_members said so
    facts = facts_of(kind)
    if facts.prepared or facts.model_arrays or facts.models:
        raise TypeError(f"{type(model).__name__} is written by model_dump")
    members = {name: value for name, value in values.items() if name in given}
    extra: dict[str, Any] | None = model.__pydantic_extra__
    if extra:
        members.update(written_object(extra))  # a few keys: the walk beats orjson's screen
    return members


_BULK_LEAST = 8  # the fewest items of a list taken in bulk: below, a call per item costs less (measured)


def _members_of_many(items: Sequence[Any]) -> Sequence[Any]:
    """The members of a list of models in bulk, their prepared fields screened at once (``exactly_json``),
    when they are of one plain class; else the list, left to ``model_members`` item by item."""
    if len(items) < _BULK_LEAST:
        return items
    first: object = items[0]
    kind = type(first)
    plan = _PLANS.get(kind) or (_plan_of(first) if is_plain(kind) else None)
    if plan is None or plan[2] or not all(map(is_, map(type, items), repeat(kind))):  # [2]: extra keys
        return items
    prepared = plan[0]
    given: set[str] = cast(Any, first).__pydantic_fields_set__
    dicts: list[dict[str, Any]] = list(map(_DICT, items))
    if not all(map(given.__eq__, map(_GIVEN, items))):  # measured no slower than any C-level screen of fewer looks
        # Fields given in some items and not in others (a trace's segments, one with a parent):
        # each item's members dropped one by one.
        dicts = list(map(_without_unset, dicts, map(_GIVEN, items)))
    else:
        unset = [name for name in dicts[0] if name not in given]
        if unset:
            dicts = list(map(_COPY, dicts))
            for name in unset:  # dropped from every copy by a C-level map, consumed in place
                deque(map(_POP, dicts, repeat(name)), maxlen=0)
    # exactly_json takes no tuple (a model's own array of open objects): no list of models in these schemas
    # holds one, and a list that did would be written item by item. Arrays of models in the items are
    # left to orjson, which calls model_members for each.
    if prepared and not exactly_json(_prepared_values(dicts, prepared)):
        return items
    return dicts


def _prepared_values(dicts: list[dict[str, Any]], names: tuple[str, ...]) -> list[Any]:
    """The values of the fields ``names`` in ``dicts`` (None where not given): C-level maps, one per field."""
    if len(names) == 1:
        return list(map(_GET, dicts, repeat(names[0])))
    return list(chain.from_iterable(map(_GET, dicts, repeat(name)) for name in names))


# --- one model's numbers and open objects, proven and prepared in one walk --------------------------


class Unproven(TypeError):
    """``written_fields`` proves nothing of the value: orjson stops, and the strict function decides."""


_WALKED_MOST = 16  # the most members of a field's open object walked before exactly_json is tried (measured)


def written_fields(members: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any] | None:
    """The values to put in place of the fields ``names`` of ``members`` to write them (None: none), or ``Unproven``.

    Each field a number, an open object, or a model's own array of them;
    ``members`` and what it holds are never changed. For the few values of one
    model, where ``exactly_json``'s C-level passes cost more than a plain walk.
    The walk admits at most what ``first_problem`` does (plain dicts, lists,
    str, int, bool and None; keys plain ``str`` up to U+FFFF, whose code point
    order is RFC 8785's; at most ``MAX_OPEN_OBJECT_DEPTH`` levels, each open
    object at level 1), and any finite float, which it writes as ``prepare`` does:

    * a float orjson writes as RFC 8785 does (``same_float_text``): itself;
    * an integral float within +/-(2**53 - 1) (``5000.0``, ``-0.0``): ``int(x)``,
      whose digits orjson writes, ``es6_number``'s text for it (``0`` for both zeros);
    * any other finite float: a ``Fragment`` of ``es6_number(x)``, as ``prepare``.

    Anything else raises ``Unproven``. What is left, an integer beyond
    +/-(2**53 - 1) or a lone surrogate, makes orjson stop (``OPT_STRICT_INTEGER``,
    UTF-8) and ``write_json`` take the strict function. So what orjson writes of
    the result is ``dumps``'s text of the value.
    """
    if not _fastpath.ENABLED:  # write_json asks for this fast path by its name; the tests ask here
        raise Unproven
    changes: dict[str, Any] | None = None
    for name in names:
        value: Any = members.get(name)
        if value is None:  # not given (most optional fields): no look at all
            continue
        kind: type[Any] = type(value)  # pyright: ignore[reportUnknownVariableType]  # no cast: a call per value
        # Then whole numbers and proven floats: no call.
        if kind in _AS_IS or (kind is float and FLOAT_TEXT.get(value)):
            continue
        if kind is dict:  # an open object: C-level passes beat the walk on a large one
            written = value if len(value) > _WALKED_MOST and exactly_json([value]) else _written_object(value, 1)
        elif kind is tuple:  # the model's own array (frozen): its items are open objects
            written = _written_array(value, 0)  # its items at level 1, each an open object
        else:
            written = _written_float(value) if kind is float else _WALK.get(kind, _unproven)(value, 1)
        if written is not value:
            changes = {} if changes is None else changes
            changes[name] = written
    return changes


_AS_IS = frozenset({int, str, bool})
"""The classes of the values a model's prepared field holds that orjson writes as RFC 8785 does (field values)."""


def written_object(value: dict[Any, Any]) -> dict[Any, Any]:
    """An open object (exactly a ``dict``) ready for orjson, as ``written_fields`` makes a field's; else ``Unproven``.

    For the extra keys of an open model, read as one open object: the same walk, so the same proof.
    """
    if not _fastpath.ENABLED or type(value) is not dict:
        raise Unproven
    written: dict[Any, Any] = _written_object(value, 1)
    return written


# The walk is written with the leaves tested inline by identity (``str``, ``int``, ``bool``, None, and
# floats in same_float_text's cache), and any other float, object or array handed to its own walk by _WALK
# (a field's float at once): a call per leaf, or a second call per value, costs more than the work on the
# small objects it is for (a learning sample's floats, 5% of its to_json).


def _unproven(value: Any, level: int) -> Any:
    """The walk of a value of no class it knows (each walk takes the JSON leaves inline): ``Unproven``."""
    raise Unproven


def _written_object(value: dict[Any, Any], level: int) -> Any:
    if level > MAX_OPEN_OBJECT_DEPTH:
        raise Unproven
    changed: dict[Any, Any] | None = None  # a copy of value, made at its first change
    for key, item in value.items():
        if type(key) is not str or (not key.isascii() and max(key) > "\uffff"):
            raise Unproven
        kind: type[Any] = type(item)  # pyright: ignore[reportUnknownVariableType]  # no cast: a call per value
        if kind is str or kind is int or kind is bool or item is None or (kind is float and FLOAT_TEXT.get(item)):
            continue
        written = _WALK.get(kind, _unproven)(item, level + 1)  # a float's, an object's or an array's own walk
        if written is not item:
            changed = dict(value) if changed is None else changed
            changed[key] = written
    return value if changed is None else changed


def _written_array(value: Sequence[Any], level: int) -> Any:
    if level > MAX_OPEN_OBJECT_DEPTH:
        raise Unproven
    changed: list[Any] | None = None  # a copy of value, made at its first change
    for index, item in enumerate(value):
        kind: type[Any] = type(item)  # pyright: ignore[reportUnknownVariableType]  # no cast: a call per value
        if kind is str or kind is int or kind is bool or item is None or (kind is float and FLOAT_TEXT.get(item)):
            continue
        written = _WALK.get(kind, _unproven)(item, level + 1)  # a float's, an object's or an array's own walk
        if written is not item:
            changed = list(value) if changed is None else changed
            changed[index] = written
    return value if changed is None else changed


def _written_float(value: float, level: int = 0) -> Any:  # level: as _WALK calls it, unused
    if same_float_text(value):
        return value
    if value.is_integer() and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        return int(value)  # es6_number's own text for it: str(int(value))
    try:
        return FRAGMENT(es6_number(value))
    except ValueError:  # NaN and infinities
        raise Unproven from None


_WALK: dict[type, Callable[[Any, int], Any]] = {dict: _written_object, list: _written_array, float: _written_float}


# --- the strict function's serializer: pydantic's, without the fields not given -------------------


def given_members(model: BaseModel | None, handler: Callable[[Any], Any]) -> Any:
    """pydantic's serialization of a model (``handler``) without the fields not given (which it writes as null)."""
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
    """A ``CanonicalJSONError`` naming the first value of an open object of ``model`` that is no JSON value.

    Its own open fields (not its models') and an open model's extra keys, as one open object.
    """
    values = model.__dict__
    places: list[tuple[tuple[object, ...], Any]] = []
    for name in open_fields(type(model)):
        value = values.get(name)
        if isinstance(value, tuple):  # the model's own array (frozen): its items are open objects
            items = cast(tuple[Any, ...], value)  # type: ignore[redundant-cast]  # pyright: tuple[Unknown, ...]
            places += [((name, index), item) for index, item in enumerate(items)]
        elif isinstance(value, dict):
            places.append(((name,), cast(dict[str, Any], value)))
    if model.__pydantic_extra__:
        places.append(((), model.__pydantic_extra__))
    for location, value in places:
        problem = screened_problem(value)
        if problem is not None:
            raise CanonicalJSONError(problem.message(), (*location, *problem.location))


def _located_from(model: BaseModel, refusal: CanonicalJSONError) -> CanonicalJSONError:
    """``refusal``, raised by a model that ``model`` holds in a field (or in an array field), located from ``model``."""
    inner = holder_of(refusal)
    for name, value in model.__dict__.items():
        if value is inner:
            return relocated(refusal, (name,), model)
        if isinstance(value, tuple):
            for index, item in enumerate(cast(tuple[Any, ...], value)):  # type: ignore[redundant-cast]
                if item is inner:
                    return relocated(refusal, (name, index), model)
    return refusal  # held otherwise (a class of the user's own): located from the model that refused


@functools.cache
def open_fields(kind: type) -> tuple[str, ...]:
    """The fields of a model class that hold an open object or an array of them: its facts, else its fields'."""
    facts = facts_of(kind)
    if facts is not NO_FACTS:
        return (*facts.open, *facts.open_arrays)
    fields: dict[str, Any] = getattr(kind, "__pydantic_fields__", {})
    return tuple(name for name, field in fields.items() if _holds_open(field))


def _holds_open(field: Any) -> bool:
    """Whether a field holds an open object or an array of them (a required field's check is in its metadata:
    pydantic takes the outermost ``Annotated`` apart)."""
    return _is_open(field.metadata) or _mentions_open(field.annotation)


def _is_open(markers: Iterable[Any]) -> bool:
    return any(getattr(marker, "func", None) is OPEN_OBJECT_CHECK for marker in markers)


def _mentions_open(annotation: Any) -> bool:
    if typing.get_origin(annotation) is Annotated and _is_open(annotation.__metadata__):
        return True
    return any(_mentions_open(argument) for argument in typing.get_args(annotation))


@functools.cache
def not_null_fields(kind: type) -> frozenset[str]:
    """The optional fields of a model class that may not be ``null`` (``NotNull``): its facts, else its fields'."""
    facts = facts_of(kind)
    if facts is not NO_FACTS:
        return frozenset(facts.not_null)
    fields: dict[str, Any] = getattr(kind, "__pydantic_fields__", {})
    return frozenset(name for name, field in fields.items() if any(marker is NotNull for marker in field.metadata))


# --- the writing the reader's proof counts ---------------------------------------------------------


def every_field_writer(kind: type) -> Callable[[Any], tuple[bytes, int]]:
    """How a model of class ``kind`` is written with every field, given or not (``OPT_STRICT_INTEGER``), and
    how many were not given: chosen once for the class.

    Each model is written as its own ``__dict__``, an unset field as ``"name":null``, which the reader's proof
    counts (``_reader.counts_agree``). Plain models only: a ``TypeError`` (as orjson's ``JSONEncodeError``) else.
    """
    if not is_plain(kind):
        return _refused
    facts = facts_of(kind)
    return _write_flat if not (facts.models or facts.model_arrays or facts.extra) else _write_nested


def _refused(model: Any) -> tuple[bytes, int]:
    raise TypeError(f"{type(model).__name__} is not a plain model")


def _write_flat(model: Any) -> tuple[bytes, int]:
    # A plain model that can hold no model and no extra key is written as its own __dict__, with no callback.
    values: dict[str, Any] = model.__dict__
    return orjson.dumps(values, option=orjson.OPT_STRICT_INTEGER), len(values) - len(model.__pydantic_fields_set__)


def _write_nested(model: Any) -> tuple[bytes, int]:
    unset = 0

    def every_field(item: Any) -> Any:
        nonlocal unset
        fields = as_dict_fields(type(item))  # pyright: ignore[reportUnknownArgumentType]  # no cast: a call per model
        if fields is not None:  # most models inside: no copy, no walk
            unset += fields - len(item.__pydantic_fields_set__)
            return item.__dict__
        members, missing = _every_member(item)
        unset += missing
        return members

    written = orjson.dumps(every_field(model), default=every_field, option=orjson.OPT_STRICT_INTEGER)
    return written, unset


def _every_member(item: Any) -> tuple[dict[str, Any], int]:
    """A plain model's every field (and extra keys) for ``every_field_writer``, and how many were not given."""
    plan = _PLANS.get(item.__class__)  # model_members' plan: a class seen first, or not plain, is checked
    if plan is None:
        plan = _plan_of(item)
    _, arrays, extra, _ = plan
    values: dict[str, Any] = item.__dict__
    given: set[str] = item.__pydantic_fields_set__
    if extra:  # its extra keys are counted among the given and written with the fields
        keys: dict[str, Any] = item.__pydantic_extra__ or {}
        return {**values, **keys}, len(values) + len(keys) - len(given)
    unset = len(values) - len(given)
    members = values
    for name in arrays:
        items = values[name]
        # A short array's items are left to orjson's call back: the copies below cost more than a few calls.
        inner: type = type(items[0]) if items else type(None)  # pyright: ignore[reportUnknownVariableType]
        if items and len(items) >= _BULK_LEAST and not facts_of(inner).extra:
            members = dict(values) if members is values else members
            members[name] = dicts = list(map(_DICT, items))
            unset += sum(map(len, dicts)) - sum(map(len, map(_GIVEN, items)))
    return members, unset
