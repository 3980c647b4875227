"""RFC 8785 (JSON Canonicalization Scheme) output.

orjson with ``OPT_SORT_KEYS`` already writes RFC 8785 for most documents (the same string escapes, no
whitespace, integers as digits). It differs in three places only, handled here:

* floats: orjson writes ``100.0``, ``1e+20`` and ``-0.0`` where ECMAScript's Number-to-String writes ``100``,
  ``100000000000000000000`` and ``0``; each float becomes an ``orjson.Fragment`` of its ECMAScript text;
* key order: orjson sorts by code point, RFC 8785 by UTF-16 code unit; they differ only for keys with
  characters above U+FFFF, so only an object with such a key is sorted here;
* integers: RFC 8785 numbers are IEEE-754 doubles; beyond +/-(2**53 - 1), an integer is written only when
  its canonical text reads back as the same number, and refused otherwise (``_prepare_large_integer``).

``canonical_json`` writes any JSON value so, and a model by its own ``to_json`` (``_writer``). What is no
JSON value (``first_problem``, tuples being arrays here) is refused, with the pointer of the value.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

import orjson

from mplp_models._json_values import FRAGMENT, MAX_JSON_DEPTH, MAX_SAFE_INTEGER, Location, es6_number, first_problem
from mplp_models._public import publish
from mplp_models._text import encodable, pointer, short_repr

__all__ = [
    "CanonicalJSONError",
    "canonical_json",
    "dumps",
    "holder_of",
    "prepare",
    "relocated",
    "written_by_their_own_method",
]


class CanonicalJSONError(ValueError):
    """A value has no RFC 8785 form.

    ``pointer`` is the JSON Pointer of the value (``/steps/3/order_index``;
    ``""`` for the value itself), as in ``errors_as_json``; ``path`` is the
    same place as a JSONPath (``$.steps[3].order_index``); ``message`` says
    what is wrong, without the place.
    """

    def __init__(self, message: str, location: Location = ()) -> None:
        self.pointer: str = pointer(location)
        self.path: str = "$" + "".join(_segment(part) for part in location)
        self.message = message
        self._location = location
        self._holder: object = None
        super().__init__(f"{message} at {self.pointer or 'the top level'}")


def relocated(refusal: CanonicalJSONError, outer: Location, holder: object) -> CanonicalJSONError:
    """``refusal`` located from ``holder``, a value that holds the one it was located from at ``outer``."""
    # The two private attributes are this module's own: the class is public, they are not.
    error = CanonicalJSONError(refusal.message, (*outer, *refusal._location))  # pyright: ignore[reportPrivateUsage]
    error._holder = holder  # pyright: ignore[reportPrivateUsage]
    return error


def holder_of(refusal: CanonicalJSONError) -> object:
    """The value ``refusal`` is located from, when ``relocated`` said so (else None)."""
    return refusal._holder  # pyright: ignore[reportPrivateUsage]


def canonical_json(value: Any) -> bytes:
    """The RFC 8785 bytes of a JSON value or of a model.

    Args:
        value: dict, list or tuple, str, int, float, bool, None (subclasses
            written as the base value they hold), or a model of this SDK.

    Returns:
        The canonical bytes: keys in UTF-16 order, no whitespace, numbers as ECMAScript writes them.

    Raises:
        CanonicalJSONError: For NaN and infinities, integers beyond +/-(2**53 - 1)
            whose canonical text would not read back the same, keys that are not
            ``str``, lone surrogates, nesting deeper than orjson writes (254
            levels), and values that are not JSON; ``pointer`` names the value.
    """
    for kind, write in _writers:
        if isinstance(value, kind):
            return write(value)
    return dumps(value)


# The classes whose instances write themselves: ``MplpModel`` registers its ``to_json`` (it is above this module).
_writers: tuple[tuple[type, Callable[[Any], bytes]], ...] = ()


def written_by_their_own_method(kind: type, write: Callable[[Any], bytes]) -> None:
    """Makes ``canonical_json`` write an instance of ``kind`` (or of a subclass) by ``write``, its own method."""
    global _writers
    _writers = (*_writers, (kind, write))


def dumps(value: Any) -> bytes:
    """The RFC 8785 bytes of a JSON value (tuples as arrays); a ``CanonicalJSONError`` naming what has none."""
    try:
        return orjson.dumps(prepare(value), option=orjson.OPT_SORT_KEYS)
    except RecursionError:
        raise CanonicalJSONError("nested too deeply to write") from None
    except _PathError as error:  # what prepare came to first refuses: an integer, two keys of one text
        raise CanonicalJSONError(error.message, tuple(reversed(error.segments))) from None
    except (ValueError, TypeError) as error:  # orjson's JSONEncodeError is a TypeError; first_problem names why
        problem = first_problem(value, MAX_JSON_DEPTH, tuples=True)
        if problem is not None:
            raise CanonicalJSONError(problem.message(), problem.location) from None
        raise CanonicalJSONError(f"not writable as JSON ({error})") from None


class _PathError(Exception):
    """Raised deep in ``prepare``; each level adds its segment on the way out (no path work unless it fails)."""

    def __init__(self, message: str) -> None:
        self.message = message
        self.segments: list[object] = []  # innermost first


def prepare(value: Any) -> Any:
    """A JSON value ready for orjson (see the module): the object itself when nothing needs changing, else a
    changed copy, subclasses of the JSON types as the base value they hold. What is no JSON value raises."""
    kind = value.__class__
    if kind is str or kind is bool or value is None:
        return value
    if kind is int:
        if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return value
        return _prepare_large_integer(value)
    if kind is float:
        return FRAGMENT(es6_number(value))
    if kind is dict:
        return _prepare_object(value)
    if kind is list:
        return _prepare_array(value)
    return _prepare_other(value)


def _prepare_large_integer(value: int) -> Any:
    """An integer beyond +/-(2**53 - 1), written as a double's canonical text only if it reads back the same.

    Digits read back as that integer: ``9007199254740992`` (2**53), or
    ``45935306307942570`` (how RFC 8785 writes the double 4.593530630794257e16).
    An exponent form reads back as the double, so it must hold the integer
    exactly: ``2**70`` writes ``1.1805916207174113e+21``. Anything else would be
    changed: ``2**60``, a double, is written ``1152921504606847000``, other
    digits; ``2**53 + 1`` would be rounded. Those are refused.
    """
    try:
        double = float(value)
        text = es6_number(double)
    except OverflowError:  # beyond a double: no canonical text at all
        double, text = math.nan, b""
    if text == str(value).encode() or (b"e" in text and double == value):
        return FRAGMENT(text)
    raise _PathError(
        f"integer {short_repr(value)} has no RFC 8785 form that reads back the same "
        "(its numbers are IEEE-754 doubles); refused rather than changed"
    )


def _prepare_object(value: dict[Any, Any]) -> Any:
    changed: dict[str, Any] | None = None
    astral = False
    for key, item in value.items():
        if type(key) is not str:
            if not isinstance(key, str):
                raise TypeError("a key that is not a str")
            return _prepare_object(_plain_keys(value))
        if not key.isascii() and max(key) > "\uffff":
            astral = True
        try:
            prepared = prepare(item)
        except _PathError as error:
            error.segments.append(key)
            raise
        if prepared is not item:
            if changed is None:
                changed = dict(value)
            changed[key] = prepared
    result = value if changed is None else changed
    return _utf16_sorted_object(result) if astral else result


def _plain_keys(value: dict[Any, Any]) -> dict[Any, Any]:
    """The object with str-subclass keys (enum members, say) as the plain text they hold."""
    plain = {str.__str__(key): item for key, item in value.items()}
    if len(plain) < len(value):
        raise _PathError("two object keys hold the same text")
    return plain


def _prepare_array(value: list[Any]) -> Any:
    changed: list[Any] | None = None
    index = 0
    try:
        for index, item in enumerate(value):
            prepared = prepare(item)
            if prepared is not item:
                if changed is None:
                    changed = list(value)
                changed[index] = prepared
    except _PathError as error:  # only prepare(item) raises it: the problem is in that item
        error.segments.append(index)
        raise
    return value if changed is None else changed


def _prepare_other(value: Any) -> Any:
    # A subclass of a JSON type (an enum, Timestamp) by its base's conversion: an Enum's str() is "PlanStatus.draft".
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return prepare(int.__int__(value))
    if isinstance(value, float):
        return prepare(float.__float__(value))
    if isinstance(value, dict):
        return _prepare_object(dict(cast(dict[Any, Any], value)))  # type: ignore[redundant-cast]
    if isinstance(value, (list, tuple)):
        return _prepare_array(list(cast(list[Any], value)))
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def _utf16_sorted_object(value: dict[str, Any]) -> Any:
    """An object whose keys need RFC 8785's UTF-16 order, written here since orjson would re-sort it."""
    items = sorted(value.items(), key=lambda item: item[0].encode("utf-16-be", "surrogatepass"))
    parts = [orjson.dumps(key) + b":" + orjson.dumps(item, option=orjson.OPT_SORT_KEYS) for key, item in items]
    return FRAGMENT(b"{" + b",".join(parts) + b"}")


def _segment(part: object) -> str:
    """One step of a JSONPath: ``.name``, ``["odd key"]`` or ``[3]``."""
    if isinstance(part, int) or not isinstance(part, str):
        return f"[{short_repr(part)}]"
    if part.isidentifier():
        return "." + part
    return "[" + orjson.dumps(part).decode() + "]" if encodable(part) else f"[{part!r}]"


publish(__name__)  # the public classes above, shown as mplp_models.<name>
