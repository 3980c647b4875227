"""Every model's outermost validator: its errors bounded, and each with an input, location and message JSON can write.

Python input (``json.loads``'s, so FastAPI's) may hold a NaN, an infinity or a lone surrogate anywhere, which an
error quotes and FastAPI's 422 renderer cannot write (it answers 500); hostile input may give an error for every
two bytes, or a string of megabytes to quote. ``writable_errors`` is the wrap validator ``_base`` puts around
every model's schema, in Python mode: a valid value costs one call, and the screening runs on failure only.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any, cast

from pydantic import ValidatorFunctionWrapHandler
from pydantic_core import ErrorDetails, InitErrorDetails, PydanticCustomError, PydanticKnownError, ValidationError
from pydantic_core.core_schema import ErrorType

from mplp_models import _errors, _fastpath
from mplp_models._errors import Quoted, first_entries, too_many
from mplp_models._fast_shapes import own_functions
from mplp_models._json_values import MAX_OPEN_OBJECT_DEPTH, non_finite_name, plainly_json
from mplp_models._text import encodable
from mplp_models._types import NonFinite

__all__ = ["writable_errors"]


def writable_errors(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """The value as validated, or its errors bounded and with JSON-writable inputs (see the module)."""
    try:
        return handler(value)
    except ValidationError as error:
        raise _writable_error(error, value) from None


def _writable_error(error: ValidationError, given_value: Any) -> ValidationError:
    """``error`` bounded (``first_entries``, ``too_many``), long input strings cut, and each NaN, infinity and
    lone surrogate in an input, location or message as text: itself when nothing changes, else built again.
    """
    entries, total = first_entries(error, _errors.MAX_ERRORS)
    # Fast path: an error quotes the input's own values (its keys, strings and numbers, or
    # what the model keeps of them) or the SDK's own text, which is ASCII or a repr (which
    # escapes a lone surrogate). So when orjson proves the whole input plain JSON (no NaN,
    # infinity, lone surrogate or other object: plainly_json), every error is writable.
    plain = _fastpath.on(_fastpath.VALUES) and plainly_json(given_value)
    quoted: dict[int, Any] = {}  # an object's errors may all quote it: each input is screened once
    screened: list[tuple[ErrorDetails, tuple[int | str, ...], Any, str]] = []
    changed = total > len(entries)
    for entry in entries:
        given: Any = entry["input"] if "input" in entry else _input_at(given_value, entry)
        if id(given) not in quoted:  # the entries hold every input: an id stands for one object throughout
            quoted[id(given)] = _short(given) if plain else _writable(_short(given), 0)
        value = quoted[id(given)]
        loc = entry["loc"] if plain else tuple(_writable(part, 0) for part in entry["loc"])
        message = entry["msg"] if plain else _writable(entry["msg"], 0)
        changed = changed or not (
            value is given and message is entry["msg"] and all(map(operator.is_, loc, entry["loc"]))
        )
        screened.append((entry, loc, value, message))
    if not changed:
        return error
    details = [_detail(*each) for each in screened]
    if total > len(entries):
        details.append(too_many(len(entries), total))
    return ValidationError.from_exception_data(error.title, details)


def _short(value: Any) -> Any:
    """A string longer than ``MAX_INPUT_CHARS`` as its start (a ``Quoted``, of known size), else ``value``."""
    if isinstance(value, str) and len(value) > _errors.MAX_INPUT_CHARS:
        return Quoted.of(value, _errors.MAX_INPUT_CHARS)
    return value


def _input_at(value: Any, entry: ErrorDetails) -> Any:
    """What a pydantic entry at ``entry["loc"]`` in ``value`` quotes: the value there (for ``missing``, its object).

    As deep as the location leads (a part naming a union's member or a validator is no key of the value).
    """
    loc = entry["loc"][:-1] if entry["type"] == "missing" else entry["loc"]
    found: Any = value
    for part in loc:
        if isinstance(found, dict) and part in found:
            found = cast("dict[Any, Any]", found)[part]  # type: ignore[redundant-cast]  # pyright: dict[Unknown, ...]
        elif isinstance(found, (list, tuple)) and isinstance(part, int):
            items = cast("Sequence[Any]", found)
            if not -len(items) <= part < len(items):
                break
            found = items[part]
        else:
            break
    return cast(Any, found)


def _detail(entry: ErrorDetails, loc: tuple[int | str, ...], value: Any, message: str) -> InitErrorDetails:
    """The entry built again: pydantic's own error where its context words the same message, else its final text
    (with no context, which may quote the value screened, as ``_errors.json_worded`` rebuilds an entry)."""
    kind, context = entry["type"], entry.get("ctx")
    if message is entry["msg"] and _writable(context, 0) is context:
        known = cast("ErrorType", kind)  # checked next: pydantic refuses a kind of its own it does not know
        try:
            own = PydanticKnownError(known, context)
        except (KeyError, TypeError, ValueError):
            own = None
        if own is not None and own.message() == message:
            detail: InitErrorDetails = {"type": known, "loc": loc, "input": value}
            if context:
                detail["ctx"] = context
            return detail
    error = PydanticCustomError(kind, message)  # pyright: ignore[reportArgumentType]  # built at run time
    return {"type": error, "loc": loc, "input": value}


_QUOTE_DEPTH = 2 * MAX_OPEN_OBJECT_DEPTH
"""How deep an error's input is screened; what nests deeper is quoted as ``_TOO_DEEP``."""

_TOO_DEEP = "(nested too deep to quote)"


def _writable(value: Any, depth: int) -> Any:
    """``value`` itself when JSON can write it, else a copy with NaN and infinities as ``NonFinite`` and lone
    surrogates escaped (``\\ud800``)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else NonFinite(non_finite_name(value))
    if isinstance(value, str):
        return value if value.isascii() or encodable(value) else value.encode("utf-8", "backslashreplace").decode()
    if not isinstance(value, (dict, list, tuple)) or (depth == 0 and plainly_json(value)):
        return cast(object, value)
    if depth > _QUOTE_DEPTH:
        return _TOO_DEEP
    if isinstance(value, dict):
        return _writable_members(cast(dict[Any, Any], value), depth)  # type: ignore[redundant-cast]
    items = cast(Sequence[Any], value)
    copied_items = [_writable(item, depth + 1) for item in items]
    if all(map(operator.is_, copied_items, items)):
        return items
    return tuple(copied_items) if isinstance(items, tuple) else copied_items


def _writable_members(members: dict[Any, Any], depth: int) -> dict[Any, Any]:
    """An object as ``_writable`` makes it: itself, or a copy with its keys and values made writable."""
    pairs = [(_writable(key, depth + 1), _writable(item, depth + 1)) for key, item in members.items()]
    if all(new_key is key and new is item for (new_key, new), (key, item) in zip(pairs, members.items())):
        return members
    return dict(pairs)


own_functions(writable_errors)  # it changes only the inputs its errors quote, never a value
