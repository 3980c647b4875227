"""What JSON values the models accept: one strict walker that names the first problem, and two screens at C speed.

An open object (``JsonObject``, an open model's own keys) holds JSON values as
the reading gives them: dicts with ``str`` keys, lists, ``str``, ``int``,
finite ``float``, ``bool`` and None (subclasses of these are the value they
hold), nested at most ``MAX_OPEN_OBJECT_DEPTH`` levels, the object itself being
level 1. Refused are every other value (bytes, sets, ``Decimal``, datetimes,
generators, which are never iterated...), tuples (the reading makes arrays
lists), keys that are not ``str``, NaN and infinities, integers beyond a
double's range (no JSON reader takes their digits), and text with a lone
surrogate (it has no UTF-8 form).

``first_problem`` is the definition: every reading and writing of an open object, and ``canonical_json``, asks
it, or first one of two screens that answer True only where it would find nothing (tests/test_json_values.py
holds both to it on random Python values of every kind): ``plainly_json``, one orjson round trip, for values of
any size; ``exactly_json``, level by level in C-level passes, for many values or a large one, and true only where
orjson also writes them as RFC 8785 does (``same_float_text``, which needs ``es6_number``, here too).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, ItemsView, Iterable, Iterator, KeysView, ValuesView
from collections.abc import Set as AbstractSet
from itertools import chain, compress, repeat
from operator import is_
from typing import Any, NamedTuple, cast

import orjson

from mplp_models import _fastpath
from mplp_models._text import encodable, short_repr

__all__ = [
    "FLOAT_TEXT",
    "FRAGMENT",
    "MAX_JSON_DEPTH",
    "MAX_OPEN_OBJECT_DEPTH",
    "MAX_SAFE_INTEGER",
    "UNORDERED",
    "Location",
    "Problem",
    "es6_number",
    "exactly_json",
    "first_problem",
    "non_finite_name",
    "plainly_json",
    "same_float_text",
    "screened_problem",
    "within_double",
]

MAX_OPEN_OBJECT_DEPTH = 128
"""How deep arrays and objects may nest inside an open object (the object itself is level 1).

pydantic-core stops at a fixed recursion depth with a ``TypeError``; this limit keeps open objects well inside it.
"""

MAX_JSON_DEPTH = 254
"""Deepest nesting of arrays and objects in a JSON text that is read (what orjson can write back)."""

MAX_SAFE_INTEGER = 2**53 - 1

# orjson's stubs do not declare Fragment (pre-encoded JSON that dumps embeds as is).
FRAGMENT = cast(Callable[[bytes], Any], orjson.Fragment)  # pyright: ignore[reportAttributeAccessIssue]

Location = tuple[object, ...]  # keys and indices from the top of the value down


class Problem(NamedTuple):
    """The first value that is no JSON value the models accept: where, what kind of problem, and the value."""

    location: Location
    kind: str  # not_json, unordered, key, non_finite, too_deep, beyond_double, surrogate or surrogate_key
    value: object

    def message(self) -> str:
        """What is wrong, in a sentence that names the value (``bytes is not a JSON value``)."""
        kind = self.kind
        if kind in ("not_json", "unordered"):
            return f"{type(self.value).__name__} is not a JSON value"
        if kind == "key":
            return f"object key {short_repr(self.value)} is not a string"
        if kind == "non_finite":
            return f"{non_finite_name(cast(float, self.value))} is not a JSON number"
        if kind == "too_deep":
            return f"nests deeper than {self.value} levels"
        if kind == "beyond_double":
            return f"integer {short_repr(self.value)} is beyond a double's range, which a JSON reader refuses"
        return f"{'object key' if kind == 'surrogate_key' else 'text'} with a lone surrogate has no UTF-8 form"


def non_finite_name(value: float) -> str:
    """``NaN``, ``Infinity`` or ``-Infinity``: JSON-style names of what JSON has no number for."""
    return "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"


UNORDERED = (AbstractSet, KeysView, ValuesView, ItemsView)
"""What an array is refused as: a set, a frozenset, a dict view, any other ``collections.abc.Set``.

Their iteration order is the hash order (which ``PYTHONHASHSEED`` changes for text), so the written bytes would
vary from run to run.
"""


def first_problem(value: Any, levels: int = MAX_OPEN_OBJECT_DEPTH, *, tuples: bool = False) -> Problem | None:
    """The first problem in ``value`` (document order, a container before what it holds), or None for a JSON value.

    ``levels``: the deepest nesting allowed, ``value`` itself at level 1 (a
    container deeper is the problem, even an empty one). ``tuples``: whether a
    tuple is an array (Python input, ``canonical_json``) or refused (what an
    open object holds). The one definition; the screens are held to it.
    """
    stack: list[tuple[Location, Any, int]] = [((), value, 1)]
    while stack:
        where, item, level = stack.pop()
        if isinstance(item, dict):
            children = _members(cast(dict[Any, Any], item), where, level)  # type: ignore[redundant-cast]
        elif isinstance(item, list) or (tuples and isinstance(item, tuple)):
            children = [((*where, index), child, level + 1) for index, child in enumerate(cast(list[Any], item))]
        else:
            kind = _leaf_problem(item)
            if kind is not None:
                return Problem(where, kind, item)
            continue
        if isinstance(children, Problem):
            return children
        if level > levels:
            return Problem(where, "too_deep", levels)  # the value: the limit, for the message
        stack.extend(reversed(children))
    return None


def _members(item: dict[Any, Any], where: Location, level: int) -> list[tuple[Location, Any, int]] | Problem:
    """The members of an object as walk items, or the problem of its first key."""
    children: list[tuple[Location, Any, int]] = []
    for key, child in item.items():
        if not isinstance(key, str):
            return Problem((*where, key), "key", key)
        if not key.isascii() and not encodable(key):
            return Problem(where, "surrogate_key", key)
        children.append(((*where, key), child, level + 1))
    return children


def _leaf_problem(value: Any) -> str | None:
    """The kind of problem of a value that is no object or array, or None (``bool`` is an ``int``)."""
    if value is None:
        return None
    if isinstance(value, str):
        return None if value.isascii() or encodable(value) else "surrogate"
    if isinstance(value, int):
        return None if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER or within_double(value) else "beyond_double"
    if isinstance(value, float):
        return None if math.isfinite(value) else "non_finite"
    return "unordered" if isinstance(value, UNORDERED) else "not_json"


def within_double(value: int) -> bool:
    """Whether an integer is within a double's range (a JSON reader takes its digits)."""
    try:
        float(value)
    except OverflowError:
        return False
    return True


# --- the screen of any size: one orjson round trip -------------------------------------------------


def plainly_json(value: Any, levels: int = MAX_OPEN_OBJECT_DEPTH, *, parsed: bool = False) -> bool:
    """True only when ``first_problem(value, levels)`` is None, shown at C speed (False: no verdict).

    orjson refuses a key that is not a ``str``, an integer beyond 64 bits (so
    within a double's range when it writes one), a lone surrogate and the
    types it does not know; what it writes of the others it knows beyond JSON
    (a tuple, datetimes, UUIDs, dataclasses, enums, ``Fragment``) and of a NaN
    or an infinity (``null``) reads back unequal to them. Nesting: a text
    of at most ``2 * levels + 1`` bytes nests no deeper (a level takes an
    opener and a closer); else the brackets outside strings are taken apart
    level by level (counting the openers first cost more than it saved).
    ``parsed``: ``value`` came from a JSON parser (dicts, lists, str, int,
    float, bool, None only), so that only a NaN or an infinity can read back
    unequal, and without a ``null`` written there is none.
    """
    try:
        written = orjson.dumps(value)
    except orjson.JSONEncodeError:
        return False
    if len(written) > 2 * levels + 1 and not _nested_at_most(written, levels):  # deeper takes two bytes a level
        return False
    if parsed and b"null" not in written:
        return True
    return bool(orjson.loads(written) == value)


def screened_problem(value: Any, *, parsed: bool = False) -> Problem | None:
    """``first_problem(value)``, None at once where ``plainly_json`` passes it (with the values fast path on)."""
    if _fastpath.on(_fastpath.VALUES) and plainly_json(value, parsed=parsed):
        return None
    return first_problem(value)


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')  # a string as orjson writes it: an escape is \ and a character
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"{}[]")
_NOT_BRACKETS_OR_QUOTES = bytes(byte for byte in range(256) if byte not in b'{}[]"')
_AS_SQUARE = bytes.maketrans(b"{}", b"[]")  # the depth is the same whatever the kind of the containers


def _nested_at_most(written: bytes, levels: int) -> bool:
    """Whether orjson's text ``written`` nests at most ``levels`` deep: innermost containers dropped, level by level.

    The brackets outside strings, each kind as ``[ ]``; ``bytes.replace`` drops every ``[]`` of the text it is
    given and none that the dropping makes, so one pass is one level.
    """
    if b"\\" in written:
        outside = _STRING.sub(b"", written).translate(_AS_SQUARE, _NOT_BRACKETS)
    else:  # no escape, so no quote inside a string: strings are what lies between two quotes
        # Brackets and quotes only: a string with no bracket is then "". Counted left to right, the pairs "" are
        # the strings' own up to the first string that holds a bracket, whose opening quote is in none: so every
        # quote is in a pair exactly when no string holds a bracket (then the quotes alone go; else the strings).
        kept = written.translate(_AS_SQUARE, _NOT_BRACKETS_OR_QUOTES)
        plain = 2 * kept.count(b'""') == kept.count(b'"')
        outside = kept.translate(None, b'"') if plain else b"".join(kept.split(b'"')[::2])
    for _ in range(levels):
        if not outside:
            return True
        outside = outside.replace(b"[]", b"")
    return not outside


# --- the screen of many small values: level by level, each level at C speed -------------------------

_JSON_KINDS = frozenset({dict, list, str, int, bool, type(None), float})
_VALUES = cast(Callable[[dict[Any, Any]], Iterable[Any]], dict.values)  # pyright: ignore[reportUnknownMemberType]


def exactly_json(values: list[Any], levels: int = MAX_OPEN_OBJECT_DEPTH) -> bool:
    """True only when ``first_problem`` finds nothing in any item of ``values`` and orjson writes each as RFC 8785 does.

    Or orjson stops: what is left for it is an integer beyond +/-(2**53 - 1)
    (``OPT_STRICT_INTEGER``) and a lone surrogate (UTF-8), which send the
    writing to its strict path. Level by level, with no Python call per value:
    every value exactly a dict, list, str, int, bool, None or a float that
    orjson writes as ``es6_number`` does (``same_float_text``, once per
    distinct float); every key exactly a ``str`` in ASCII (orjson's order of
    keys is then RFC 8785's); each item at most ``levels`` deep.
    """
    if not _fastpath.ENABLED:  # the writing's screen, asked only on its fast path (which asks by name)
        return False
    items: list[Any] = values
    for level in range(levels + 1):
        kinds = set(map(type, items))
        if not kinds <= _JSON_KINDS:
            return False
        if float in kinds and not all(map(same_float_text, set(_of_kind(items, float)))):
            return False
        objects: list[dict[Any, Any]] = _all_of_kind(items, kinds, dict)
        arrays: list[list[Any]] = _all_of_kind(items, kinds, list)
        if not objects and not arrays:
            return True
        if level == levels:
            return False
        try:
            if objects and not "".join(chain.from_iterable(objects)).isascii():
                return False
        except TypeError:  # a key that is not a str
            return False
        items = [*chain.from_iterable(map(_VALUES, objects)), *chain.from_iterable(arrays)]
    return False


def _all_of_kind(items: list[Any], kinds: set[type], kind: type) -> list[Any]:
    """The items of exactly the class ``kind`` (``kinds``: the classes of all of them)."""
    if kind not in kinds:
        return []
    return items if len(kinds) == 1 else list(_of_kind(items, kind))


def _of_kind(items: list[Any], kind: object) -> Iterator[Any]:
    """The items of exactly the class ``kind``, in order."""
    return compress(items, map(is_, map(type, items), repeat(kind)))


# --- numbers as RFC 8785 writes them ---------------------------------------------------------------


def es6_number(value: float) -> bytes:
    """ECMAScript's Number-to-String of a finite double (RFC 8785's text for it); a ``ValueError`` for any other."""
    if not math.isfinite(value):
        raise ValueError(f"{non_finite_name(value)} is not a JSON number")
    if value == 0:
        return b"0"
    if value.is_integer():
        if abs(value) <= MAX_SAFE_INTEGER:
            return str(int(value)).encode()
    elif _fastpath.on(_fastpath.WRITING) and 1e-4 <= abs(value) < 1e16:
        # Fast path: repr writes a fraction in fixed notation, with no trailing zero, for 1e-4 <= |x| < 1e16
        # (else an exponent), as ECMAScript does for 1e-7 <= |x| < 1e21; the digits, the shortest that
        # round-trip, are the same (as below). Checked against the layout below in tests/test_canonical.py.
        return repr(value).encode()
    # repr gives the shortest digits that round-trip, as ECMAScript does; only the layout differs.
    # Read it as 0.<digits> * 10**point.
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    raw = whole + fraction
    digits = raw.lstrip("0")
    point = len(whole) + int(exponent or "0") - (len(raw) - len(digits))
    sign = "-" if value < 0 else ""
    return (sign + layout(digits.rstrip("0"), point)).encode()


def layout(digits: str, point: int) -> str:
    """ECMA-262 Number::toString layout of ``0.<digits> * 10**point``."""
    count = len(digits)
    if count <= point <= 21:
        return digits + "0" * (point - count)
    if 0 < point <= 21:
        return digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return "0." + "0" * -point + digits
    exponent = point - 1
    head = digits[0] + ("." + digits[1:] if count > 1 else "")
    return f"{head}e{'+' if exponent > 0 else '-'}{abs(exponent)}"


FLOAT_TEXT: dict[float, bool] = {}  # same_float_text's verdicts
_FLOAT_TEXT_MOST = 4096  # emptied when it reaches this size


def same_float_text(value: float) -> bool:
    """Whether orjson writes ``value`` as RFC 8785 does (``es6_number``), by comparing the two texts, once per value.

    orjson's text of a double depends on the double alone. Equal floats are the
    same double but for 0.0 and -0.0, neither of which orjson writes as "0"
    (both False); a NaN equals nothing and is never kept: so a float found in
    ``FLOAT_TEXT`` has that verdict.
    """
    verdict = FLOAT_TEXT.get(value)
    if verdict is None:
        verdict = math.isfinite(value) and orjson.dumps(value) == es6_number(value)
        if len(FLOAT_TEXT) >= _FLOAT_TEXT_MOST:
            FLOAT_TEXT.clear()
        if value == value:
            FLOAT_TEXT[value] = verdict
    return verdict
