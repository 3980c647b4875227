"""The bookkeeping of fast edits: what a model is known to be, kept beside it, and models built unvalidated.

An edit of a model known to keep its rules checks only what it changes, and builds the edited model
without validation when those checks pass (each edit's proof is next to it: ``_plan``, ``_trace``,
``_dialog``). What the edit knows of the model (a plan's index of its steps, a trace's of its
segments, "sound" for a dialog) is kept here, by ``id``, for as long as the model lives, and
handed on to the model the edit makes: outside the model, so that equality, copies and pickles
never see it. A model no edit made is checked once, by every rule, the first time it is edited.

The update of one member of an array (a plan's step, a trace's segment, a collab's participant...)
is here once too (``edited_member``): each model gives only its own fast path.
"""

from __future__ import annotations

import copy
import weakref
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar, cast, get_args, get_origin

from pydantic import BaseModel, ValidationError

from mplp_models._base import MplpModel
from mplp_models._errors import validated_copy
from mplp_models._json_values import UNORDERED
from mplp_models._public import generated_kind
from mplp_models._writer import not_null_fields

__all__ = [
    "UNKNOWN",
    "constructed",
    "edited_member",
    "given_with",
    "in_order",
    "item_class",
    "of_kind",
    "recall",
    "refuse_extra",
    "remember",
    "replaced",
]

_M = TypeVar("_M")
_Owner = TypeVar("_Owner", bound=BaseModel)

UNKNOWN: Any = object()
"""What ``recall`` gives for a model of which nothing is kept."""


class _Entry(weakref.ref[Any]):
    """What is known of one model, kept while it lives; by ``id`` so that models need not hash."""

    __slots__ = ("key", "known")
    known: Any
    key: int


_ENTRIES: dict[int, _Entry] = {}


def _forget(entry: _Entry) -> None:
    if _ENTRIES.get(entry.key) is entry:
        del _ENTRIES[entry.key]


def recall(model: object) -> Any:
    """What was kept of ``model`` (by ``remember``), or ``UNKNOWN``."""
    entry = _ENTRIES.get(id(model))
    if entry is not None and entry() is model:
        return entry.known
    return UNKNOWN


def remember(model: object, known: Any) -> None:
    """Keeps ``known`` beside ``model`` while it lives (a new ``remember`` replaces it)."""
    entry = _Entry(model, _forget)
    entry.known, entry.key = known, id(model)
    _ENTRIES[entry.key] = entry


def constructed(model: _M, **changes: Any) -> _M:
    """``model`` with ``changes``, built without validation: for values the caller proves valid.

    Every field keeps its value and its given-ness (a shallow copy: pydantic's ``__copy__``, as
    ``model_copy()`` makes it, with its own ``__dict__`` and set of given fields), and the
    changed fields are given. Faster than ``model_construct``, which walks every field's aliases.
    """
    copied = copy.copy(model)
    vars(copied).update(changes)
    copied.__pydantic_fields_set__.update(changes)  # type: ignore[attr-defined]
    return copied


_ITEM_CLASSES: dict[tuple[type[BaseModel], str], Any] = {}


def item_class(model_class: type[BaseModel], field: str) -> Any:
    """The class of the items of the array ``field`` of ``model_class`` (``tuple[X, ...]``, or ``| None``)."""
    found = _ITEM_CLASSES.get((model_class, field))
    if found is None:
        array: Any = model_class.model_fields[field].annotation
        if get_origin(array) is not tuple:  # tuple[X, ...] | None
            (array, _) = get_args(array)
        (found, _) = get_args(array)
        _ITEM_CLASSES[(model_class, field)] = found
    return found


def given_with(model: MplpModel, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The given fields of ``model`` with ``changes``, as keyword arguments read them: a ``None`` for a field that
    may not be ``null`` leaves it out. For an edit to validate again as part of the document (its error located there).
    """
    unset = not_null_fields(type(model))
    merged = {**model._given_values(), **changes}  # pyright: ignore[reportPrivateUsage]
    return {name: value for name, value in merged.items() if value is not None or name not in unset}


def replaced(items: tuple[Any, ...], position: int, item: Any) -> tuple[Any, ...]:
    """``items`` with the one at ``position`` replaced by ``item``; the others shared."""
    changed = list(items)  # a copy of the references (the fastest of the ways measured)
    changed[position] = item
    return tuple(changed)


def in_order(items: Iterable[_M], name: str, what: str) -> list[_M]:
    """A builder's array argument ``name`` as a list, an iterator read once; a ``TypeError`` for a text or a set.

    As a model's array field takes it from Python (``Ordered``): a set's order is the hash order, so the
    array would differ from run to run, and a model takes no dict or dict view for an array; a text would
    be one item a character. ``what``: the items, named.
    """
    given = cast(object, items)
    kind = type(given).__name__
    if isinstance(given, (str, bytes, Mapping, *UNORDERED)):
        found = (
            f"the string {given!r:.60}"
            if isinstance(given, (str, bytes))
            else f"a {kind}, whose order the models do not take"
        )
        raise TypeError(f"{name} must be a list of {what} (or a tuple), not {found}")
    return list(items)


def of_kind(value: object, kind: str, where: str) -> None:
    """A ``TypeError`` saying ``where`` (an argument, named) must be a ``kind`` (a generated model's name), unless
    ``value`` is one.

    A subclass counts as its model; a class of the same name that is no generated one does not. The
    builders read ids off what they are given: a plan given for the context would pass unnoticed.
    """
    if generated_kind(value, (kind,)) is None:
        raise TypeError(f"{where} must be a {kind}, not {type(value).__qualname__}")


def refuse_extra(method: str, changes: Mapping[str, object], allowed: frozenset[str], why: str) -> None:
    """Raises the ``TypeError`` of edit ``method`` given a field outside ``allowed``; ``why`` says why it may not."""
    unknown = sorted(changes.keys() - allowed)
    if unknown:
        raise TypeError(f"{method}() changes {', '.join(sorted(allowed))}, not {', '.join(unknown)} ({why})")


def edited_member(
    owner: _Owner,
    field: str,
    items: tuple[Any, ...],
    position: int,
    changes: Mapping[str, Any],
    fast: Callable[[Any, Any, tuple[Any, ...]], _Owner | None] | None = None,
) -> _Owner:
    """``owner`` with the member at ``position`` of its array ``field`` (``items``) changed as ``changes`` say.

    The member is validated alone first; one that its own schema refuses is refused again as part
    of ``owner``, so that the ``EditError`` is located in it (``/steps/2/description``). ``fast``
    (given the old member, the new one and the new items) may make the edited owner without
    validating it again, or give ``None``: the owner is then validated with its new member.
    """
    old = items[position]
    try:
        new = old.model_copy(update=dict(changes))
    except ValidationError:
        return validated_copy(owner, {field: replaced(items, position, given_with(old, changes))})
    changed = replaced(items, position, new)
    made = None if fast is None else fast(old, new, changed)
    return validated_copy(owner, {field: changed}) if made is None else made
