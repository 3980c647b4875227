"""RFC 8785 (JSON Canonicalization Scheme) output.

orjson with ``OPT_SORT_KEYS`` already writes RFC 8785 for most documents: the
same string escapes, no whitespace, integers as digits. It differs in three
places only, and only those are handled in Python:

* floats: orjson writes ``100.0``, ``1e+20`` and ``-0.0`` where ECMAScript's
  Number-to-String (which RFC 8785 requires) writes ``100``,
  ``100000000000000000000`` and ``0``; each float is replaced by an
  ``orjson.Fragment`` holding its ECMAScript text;
* key order: orjson sorts by code point, RFC 8785 by UTF-16 code unit; they
  differ only for keys with characters above U+FFFF, so only an object with
  such a key is sorted here;
* integers: RFC 8785 numbers are IEEE-754 doubles. Every integer within
  +/-(2**53 - 1) is one; beyond that, an integer is written only when its
  canonical text reads back as the same number, and refused otherwise rather
  than changed (see ``_prepare_large_integer``).

A document without floats or such keys is checked by one walk and handed to
orjson unchanged. A model is written by orjson (see ``_writer``), and its open
objects and numbers as they are where ``written_fields`` (one model's, in one
plain walk that also makes floats canonical), ``exactly_json`` or
``written_as_is`` (lists of models, large objects, at C speed) prove that
orjson's text is the canonical one (floats included: ``same_float_text``, and
the shapes of ``_SAME_NUMBER``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, compress, repeat
from operator import is_
from typing import Any, TypeVar, cast

import orjson

from mplp_models import _fastpath
from mplp_models._public import publish
from mplp_models._text import encodable, pointer, short_repr

__all__ = [
    "CanonicalJSONError",
    "Unproven",
    "canonical_json",
    "dumps",
    "es6_number",
    "exactly_json",
    "holder_of",
    "plainly_json",
    "prepare",
    "refuse_non_json",
    "relocated",
    "same_float_text",
    "written_as_is",
    "written_by_their_own_method",
    "written_fields",
    "written_object",
]

MAX_SAFE_INTEGER = 2**53 - 1

_T = TypeVar("_T")

# orjson's stubs do not declare Fragment (pre-encoded JSON that dumps embeds as is).
_Fragment = cast(Callable[[bytes], Any], orjson.Fragment)  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]


Location = tuple[object, ...]  # keys and indices from the top of the value down


class CanonicalJSONError(ValueError):
    """A value has no RFC 8785 form.

    ``pointer`` is the JSON Pointer of the value (``/steps/3/order_index``;
    ``""`` for the value itself), as in ``errors_as_json``; ``path`` is the
    same place as a JSONPath (``$.steps[3].order_index``).
    """

    def __init__(self, message: str, location: Location = ()) -> None:
        self.pointer: str = pointer(location)
        self.path: str = "$" + "".join(_segment(part) for part in location)
        self._message = message
        self._location = location
        self._holder: object = None
        super().__init__(f"{message} at {self.pointer or 'the top level'}")


def relocated(refusal: CanonicalJSONError, outer: Location, holder: object) -> CanonicalJSONError:
    """``refusal`` located from ``holder``, a value that holds the one it was located from at ``outer``."""
    # The three private attributes are this module's own: the class is public, they are not.
    error = CanonicalJSONError(refusal._message, (*outer, *refusal._location))  # pyright: ignore[reportPrivateUsage]
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


# The classes whose instances write themselves, and how: ``MplpModel`` by its ``to_json``, which
# registers here when it is defined (this module is below it, and imports nothing of it).
_writers: tuple[tuple[type, Callable[[Any], bytes]], ...] = ()


def written_by_their_own_method(kind: type[_T], write: Callable[[_T], bytes]) -> None:
    """Makes ``canonical_json`` write an instance of ``kind`` (or of a subclass) by ``write``, its own method."""
    global _writers
    _writers = (*_writers, (kind, cast(Callable[[Any], bytes], write)))


def dumps(value: Any) -> bytes:
    try:
        prepared = prepare(value)
        return orjson.dumps(prepared, option=orjson.OPT_SORT_KEYS)
    except _PathError as error:
        raise CanonicalJSONError(error.message, tuple(reversed(error.segments))) from None
    except RecursionError:
        raise CanonicalJSONError("nested too deeply to write") from None
    except (orjson.JSONEncodeError, UnicodeEncodeError) as error:
        # A lone surrogate, or nesting beyond orjson's limit, gets past prepare.
        raise CanonicalJSONError(f"not writable as JSON ({error})", _locate_bad_string(value)) from None


class _PathError(Exception):
    """Raised deep in the walk; each level adds its segment on the way out (no path work unless it fails)."""

    def __init__(self, message: str) -> None:
        self.message = message
        self.segments: list[object] = []  # innermost first


def prepare(value: Any) -> Any:
    """``value`` ready for orjson: the object itself when nothing needs changing, else a changed copy.

    Raises ``_PathError`` for what has no RFC 8785 form.
    """
    kind = value.__class__
    if kind is str or kind is bool or value is None:
        return value
    if kind is int:
        if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return value
        return _prepare_large_integer(value)
    if kind is float:
        return _Fragment(es6_number(value))
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
        return _Fragment(text)
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
                error = _PathError(f"object key {short_repr(key)} is not a string")
                error.segments.append(key)
                raise error
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
    if astral:
        return _utf16_sorted_object(result)
    return result


def _plain_keys(value: dict[Any, Any]) -> dict[Any, Any]:
    """The object with str-subclass keys (enum members, say) as the plain text they hold."""
    plain = {str.__str__(key) if isinstance(key, str) else key: item for key, item in value.items()}
    if len(plain) < len(value):
        raise _PathError("two object keys hold the same text")
    return plain


def _prepare_array(value: list[Any]) -> Any:
    changed: list[Any] | None = None
    for index, item in enumerate(value):
        try:
            prepared = prepare(item)
        except _PathError as error:
            error.segments.append(index)
            raise
        if prepared is not item:
            if changed is None:
                changed = list(value)
            changed[index] = prepared
    return value if changed is None else changed


def _prepare_other(value: Any) -> Any:
    # Subclasses of the JSON types (str-valued enums, Timestamp) are written as
    # the base value they hold: the base class's own conversion, since a
    # subclass may override __str__ (an Enum's gives "PlanStatus.draft").
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return prepare(int.__int__(value))
    if isinstance(value, float):
        return prepare(float.__float__(value))
    if isinstance(value, dict):
        return _prepare_object(dict(_members(value)))
    if isinstance(value, (list, tuple)):
        return _prepare_array(_items(value))
    raise _PathError(f"{type(value).__name__} is not a JSON value")


def _utf16_sorted_object(value: dict[str, Any]) -> Any:
    """An object whose keys need RFC 8785's UTF-16 order, written here since orjson would re-sort it."""
    items = sorted(value.items(), key=lambda item: item[0].encode("utf-16-be", "surrogatepass"))
    parts = [orjson.dumps(key) + b":" + orjson.dumps(item, option=orjson.OPT_SORT_KEYS) for key, item in items]
    return _Fragment(b"{" + b",".join(parts) + b"}")


def es6_number(value: float) -> bytes:
    """ECMAScript's Number-to-String of a finite double (the text RFC 8785 writes for it)."""
    if not math.isfinite(value):
        raise _PathError(f"{value!r} is not a JSON number")
    if value == 0:
        return b"0"
    if value.is_integer():
        if abs(value) <= MAX_SAFE_INTEGER:
            return str(int(value)).encode()
    elif _fastpath.ENABLED and 1e-4 <= abs(value) < 1e16:
        # Fast path: repr's own layout is ECMAScript's here. repr writes a
        # fraction in fixed notation, with no trailing zero, for 1e-4 <= |x| <
        # 1e16 (else an exponent), as ECMAScript does for 1e-7 <= |x| < 1e21;
        # the digits, the shortest that round-trip, are the same (as below).
        return repr(value).encode()
    # repr gives the shortest digits that round-trip, as ECMAScript does; only
    # the layout differs. Read it as 0.<digits> * 10**point.
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    raw = whole + fraction
    digits = raw.lstrip("0")
    point = len(whole) + int(exponent or "0") - (len(raw) - len(digits))
    sign = "-" if value < 0 else ""
    return (sign + _layout(digits.rstrip("0"), point)).encode()


def _layout(digits: str, point: int) -> str:
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


def _segment(part: object) -> str:
    """One step of a JSONPath: ``.name``, ``["odd key"]`` or ``[3]``."""
    if isinstance(part, int) or not isinstance(part, str):
        return f"[{short_repr(part)}]"
    if part.isidentifier():
        return "." + part
    return "[" + orjson.dumps(part).decode() + "]" if encodable(part) else f"[{part!r}]"


def _locate_bad_string(value: Any) -> Location:
    """The location of the first string or key that UTF-8 cannot encode (a lone surrogate), or the top."""
    stack: list[tuple[Location, Any]] = [((), value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            if not encodable(item):
                return where
        elif isinstance(item, dict):
            for key, child in reversed(_members(item)):
                if isinstance(key, str) and not encodable(key):
                    return (*where, key)
                stack.append(((*where, str(key)), child))
        elif isinstance(item, (list, tuple)):
            stack.extend(((*where, index), child) for index, child in reversed(list(enumerate(_items(item)))))
    return ()


def _members(value: Any) -> list[tuple[Any, Any]]:
    return list(value.items())


def _items(value: Any) -> list[Any]:
    return list(value)


def refuse_non_json(value: Any, location: Location, max_depth: int) -> None:
    """A ``CanonicalJSONError`` naming the first place in ``value`` that the reading would refuse; else nothing.

    For an open object changed in place after validation (``value``, at
    ``location``, is level 1 of ``max_depth``): refused are values that are
    not JSON (bytes, sets, ``Decimal``, datetimes, tuples, generators, which
    are never iterated...), keys that are not ``str``, NaN and infinities,
    integers beyond a double's range (a JSON reader refuses their digits),
    text with a lone surrogate, and nesting deeper than ``max_depth``: what
    the reading of an open object refuses. Subclasses of the JSON types are
    their base value, as for ``prepare``. Integers beyond +/-(2**53 - 1) are
    not refused here: they read back exactly; only RFC 8785 has no form for some.
    """
    if _fastpath.ENABLED and plainly_json(value, max_depth):
        return
    stack: list[tuple[Location, Any, int]] = [(location, value, 1)]
    while stack:
        where, item, level = stack.pop()
        problem = _json_problem(item)
        if problem is not None:
            raise CanonicalJSONError(problem, where)
        children: list[tuple[Location, Any, int]]
        if isinstance(item, dict):
            children = []
            for key, child in cast(dict[Any, Any], item).items():  # type: ignore[redundant-cast]  # pyright sees dict[Unknown, Unknown]
                if not isinstance(key, str):
                    raise CanonicalJSONError(f"object key {short_repr(key)} is not a string", (*where, key))
                if not encodable(key):
                    raise CanonicalJSONError("object key with a lone surrogate has no UTF-8 form", where)
                children.append(((*where, key), child, level + 1))
        elif isinstance(item, list):
            children = [((*where, index), child, level + 1) for index, child in enumerate(cast(list[Any], item))]  # type: ignore[redundant-cast]  # pyright sees list[Unknown]
        else:
            continue
        if level > max_depth:
            raise CanonicalJSONError(f"nests deeper than {max_depth} levels", where)
        stack.extend(reversed(children))


def _json_problem(value: Any) -> str | None:
    """Why ``value`` alone is no JSON value the reading takes, or None (arrays and objects: their items are looked at apart)."""
    if value is None or isinstance(value, (bool, dict, list)):
        return None
    if isinstance(value, str):
        return None if encodable(value) else "text with a lone surrogate has no UTF-8 form"
    if isinstance(value, int):
        try:
            float(value)
        except OverflowError:
            return f"integer {short_repr(value)} is beyond a double's range, which a JSON reader refuses"
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{_non_finite_name(value)} is not a JSON number"
    return f"{type(value).__name__} is not a JSON value"


def _non_finite_name(value: float) -> str:
    return "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"


def plainly_json(value: Any, levels: int) -> bool:
    """True only when ``refuse_non_json`` would find nothing in ``value`` (``levels`` of nesting allowed), proven at C speed.

    orjson refuses a key that is not a string, an integer beyond 64 bits (so
    within a double's range when it writes one), a lone surrogate and any type
    it does not know; what it writes of the types it knows beyond JSON's
    (datetimes, UUIDs, dataclasses, enums, Fragments) and of a NaN or an
    infinity (``null``) reads back unequal to them, and so does a tuple (as
    a list). Nesting is at most the count of ``{`` and ``[`` written (those in
    strings only add to it).
    """
    try:
        written = orjson.dumps(value)
    except orjson.JSONEncodeError:
        return False
    return written.count(b"{") + written.count(b"[") <= levels and bool(orjson.loads(written) == value)


# --- values orjson may write as they are --------------------------------------------------------

# What orjson passes through to ``default`` (there is none here: it stops) rather than writing in a
# form of its own: subclasses of str, int, dict and list, datetimes and dataclasses.
_AS_IS = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_STRICT_INTEGER
    | orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
)
# A string as orjson writes it: an escape is a backslash and the character after it (a \uXXXX
# escape's digits are plain characters), and a quote inside is escaped.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
# The lead byte of a character beyond U+FFFF in UTF-8 (orjson writes every character as UTF-8).
_ASTRAL = re.compile(rb"[\xf0-\xff]")
# The shape of a number token: each digit 1-9 as "1" (zeros kept), so that the few shapes of a
# document are checked rather than its many numbers. Any other byte splits the tokens, but "e"
# (and "E"), which may be an exponent's: true and false leave the shape "e", which no number has.
_SHAPE = bytes(byte if byte in b"0.-+eE" else ord("1") if byte in b"123456789" else ord(",") for byte in range(256))
# The shape of a number that orjson writes as RFC 8785 does: an integer, or a fraction in plain
# decimal form, not ending in 0, of at most 15 significant digits, from 0.000001 (ECMAScript
# writes an exponent below 1e-6) to below 1e14; and the empty shape and "e", which are no number.
_SAME_NUMBER = re.compile(
    rb"-?(?:0|1[01]*"  # an integer
    rb"|(?=[01.]{3,16}\Z)1[01]*\.[01]*1"  # 1 <= |x| < 1e14
    rb"|0\.0{0,5}1(?:[01]{0,13}1)?)"  # 1e-6 <= |x| < 1
    rb"|e?"
)
_SAME_SHAPES: set[bytes] = set()  # shapes _SAME_NUMBER took, up to _SAME_SHAPES_MOST of them
_SAME_SHAPES_MOST = 1024
_EMPTY_CONTAINER = re.compile(rb"\{\}|\[\]")
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"{}[]")


def written_as_is(values: list[Any], levels: int) -> bool:
    """True only when orjson writes each item of ``values`` (``OPT_SORT_KEYS``) as ``dumps`` does, and ``refuse_non_json`` finds nothing in it (``levels`` allowed).

    The items are the open objects, numbers and arrays of open objects' items
    of some models: a fast path's one screen of them all, at C speed; on False
    the exact path (``refuse_non_json``, then ``prepare``) decides each. The
    proof, over the text orjson writes of ``values`` with ``_AS_IS``:

    * Nothing it cannot write: orjson stops at a key that is not a ``str``, an
      integer beyond +/-(2**53 - 1), a lone surrogate, a type it does not know
      (bytes, sets, ``Decimal``, generators, never iterated...), nesting
      beyond 254 levels (cycles), and at what ``_AS_IS`` passes through:
      subclasses of str, int, dict and list, datetimes, dataclasses.
    * Read back equal to ``values``: what else it writes of its own (a UUID as
      text, a tuple as an array, an ``Enum`` as its value, a ``Fragment`` as
      is, NaN and infinities as ``null``) reads back unequal (a list never
      equals a tuple), but for an enum member that is a str, int or float
      holding that very value, which ``prepare`` writes as that value too.
      So the leaves are plain ``str``, ``int``, ``float``, ``bool`` and None
      (or such enum members), and the containers plain dicts and lists.
    * No character beyond U+FFFF: then sorting by code point (orjson) and by
      UTF-16 code unit (RFC 8785) agree, as ``prepare`` knows.
    * Each number as RFC 8785 writes it: outside strings, every number token
      an integer or a fraction T of at most 15 significant digits in plain
      decimal form not ending in 0 within [1e-6, 1e14) (``_SAME_NUMBER``, on
      the shapes of the tokens: digits 1-9 as "1"). orjson writes every float
      with a "." or an exponent (tests/test_open_object_writing.py), so a
      token without is an ``int``'s digits, RFC 8785's text for it.
      T reads back as the double x it was written from (the check above, by
      orjson's correctly rounded reader, the one every reading here uses),
      and ECMAScript writes x as the fewest digits S that read back as x: so S
      has at most 15, and reads back as x. Two different decimals of at most
      15 significant digits read back as two different doubles in this range
      (a double carries 15 decimal digits: DBL_DIG), so S and T are the same
      number; both are laid out in plain decimal form there (ECMAScript's for
      1e-6 <= |x| < 1e21) without leading or trailing zeros: the same text.
    * At most ``levels`` of nesting in each item (the list is one more): a
      count of brackets, or when that is too many, passes that each drop every
      empty container from the brackets outside strings, so one level.
    """
    if not _fastpath.ENABLED:
        return False
    try:
        written = orjson.dumps(values, option=_AS_IS)
    except orjson.JSONEncodeError:
        return False
    if not written.isascii() and _ASTRAL.search(written) is not None:
        return False
    outside = None
    if b"." in written or b"e" in written or b"E" in written:  # every float orjson writes has one
        outside = _outside_strings(written)
        if not _numbers_as_is(outside):
            return False
    if written.count(b"{") + written.count(b"[") > levels + 1 and not _nested_at_most(
        _outside_strings(written) if outside is None else outside, levels + 1
    ):
        return False
    return bool(orjson.loads(written) == values)


def _numbers_as_is(outside: bytes) -> bool:
    """Whether every number in ``outside`` (orjson's text without its strings) is written as RFC 8785 writes it."""
    shapes = set(outside.translate(_SHAPE).split(b","))
    shapes -= _SAME_SHAPES
    for shape in shapes:
        if _SAME_NUMBER.fullmatch(shape) is None:
            return False
        if len(_SAME_SHAPES) < _SAME_SHAPES_MOST:
            _SAME_SHAPES.add(shape)
    return True


def _outside_strings(written: bytes) -> bytes:
    """orjson's JSON text without its strings (keys too)."""
    if b"\\" in written:
        return _STRING.sub(b"", written)
    # No escape, so no quote inside a string: the quotes delimit them, from outside to in.
    return b"".join(written.split(b'"')[::2])


def _nested_at_most(outside: bytes, levels: int) -> bool:
    """Whether the JSON text ``outside`` (its strings taken out) nests at most ``levels`` deep."""
    brackets = outside.translate(None, _NOT_BRACKETS)
    for _ in range(levels):
        if not brackets:
            return True
        brackets = _EMPTY_CONTAINER.sub(b"", brackets)  # the innermost containers: one level
    return not brackets


_FLOAT_TEXT: dict[float, bool] = {}  # same_float_text's verdicts
_FLOAT_TEXT_MOST = 4096  # emptied when it reaches this size


def same_float_text(value: float) -> bool:
    """Whether orjson writes ``value`` as RFC 8785 does (``es6_number``), found by comparing the two texts, once per value.

    orjson's text of a double depends on the double alone. Equal floats are the
    same double but for 0.0 and -0.0, neither of which orjson writes as "0"
    (both False); a NaN equals nothing and is never kept: so a float found in
    the cache has that verdict.
    """
    verdict = _FLOAT_TEXT.get(value)
    if verdict is None:
        verdict = math.isfinite(value) and orjson.dumps(value) == es6_number(value)
        if len(_FLOAT_TEXT) >= _FLOAT_TEXT_MOST:
            _FLOAT_TEXT.clear()
        if value == value:
            _FLOAT_TEXT[value] = verdict
    return verdict


_JSON_KINDS = frozenset({dict, list, str, int, bool, type(None), float})
_VALUES = cast(Callable[[dict[Any, Any]], Iterable[Any]], dict.values)  # pyright: ignore[reportUnknownMemberType]


def exactly_json(values: list[Any], levels: int) -> bool:
    """True only when orjson writes each item of ``values`` (``OPT_SORT_KEYS``) as ``dumps`` does and ``refuse_non_json`` finds nothing in it, or stops.

    A walk of the items level by level, each level at C speed (no Python call
    per value): every value is exactly a dict, list, str, int, bool, None or a
    float that orjson writes as RFC 8785 does (``same_float_text``, once per
    distinct float); every key exactly a ``str`` in ASCII (orjson's order of
    keys is then RFC 8785's; a key of a str subclass joins here, but orjson
    stops at it); containers at most ``levels`` deep (the list is level 0).
    What is left is for the writing to stop at (``OPT_STRICT_INTEGER``: an
    integer beyond +/-(2**53 - 1); UTF-8: a lone surrogate), which sends
    ``to_json`` to its strict path. Those are values ``prepare`` writes as
    they are (floats aside, which orjson writes as it does), so orjson's text
    is the canonical one.
    """
    if not _fastpath.ENABLED:
        return False
    items: list[Any] = values
    for level in range(1, levels + 2):
        kinds = set(map(type, items))
        if not kinds <= _JSON_KINDS:
            return False
        if float in kinds and not all(map(same_float_text, set(_of_kind(items, float)))):
            return False
        objects: list[dict[Any, Any]] = _all_of_kind(items, kinds, dict)
        arrays: list[list[Any]] = _all_of_kind(items, kinds, list)
        if not objects and not arrays:
            return True
        if level > levels:
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


# --- one model's numbers and open objects, proven and prepared in one walk ----------------------


class Unproven(Exception):
    """``written_fields`` proves nothing of the value: the exact path (``refuse_non_json``, then ``prepare``) decides it."""


_WALKED_MOST = 16  # the most members of an object (or items of an array) walked before exactly_json is tried (measured)


def written_fields(members: dict[str, Any], names: tuple[str, ...], levels: int) -> dict[str, Any] | None:
    """The loose fields ``names`` of a model's ``members`` (each a number, an open object, or a model's own array of them) ready for orjson; else ``Unproven``.

    Returns the values to replace (None when every one is written as it is),
    never changing ``members`` nor what it holds.

    For the few values of one model, where ``exactly_json``'s C-level passes
    cost more than a plain walk. The walk admits at most what ``exactly_json``
    does (a key of a ``str`` subclass, which ``exactly_json`` leaves to orjson, it does not; plain dicts, lists, str, int, bool and None; keys plain ``str``; at
    most ``levels`` of nesting, the value at level 1, a tuple's items each at
    level 1 as ``refuse_non_json`` sees them), but for two things: keys beyond
    ASCII but not beyond U+FFFF (orjson's code point order is then RFC 8785's,
    as ``prepare`` knows), and any finite float, which it writes as
    ``prepare`` does rather than refusing:

    * a float orjson writes as RFC 8785 does (``same_float_text``): itself;
    * an integral float within +/-(2**53 - 1) (``5000.0``, ``-0.0``):
      ``int(x)``. ``es6_number`` writes such a float as ``str(int(x))`` (``0``
      for both zeros, which ``int`` makes 0), and orjson writes an ``int`` as
      its decimal digits (tests/test_fast_writing.py): the same text, with no
      ``Fragment``;
    * any other finite float: a ``Fragment`` of ``es6_number(x)``, as ``prepare``.

    NaN and infinities, keys or values of any other class (subclasses too),
    keys beyond U+FFFF (RFC 8785 sorts them by UTF-16) and deeper nesting raise
    ``Unproven``. What is left, an integer beyond +/-(2**53 - 1) or a lone
    surrogate, makes orjson stop (``OPT_STRICT_INTEGER``, UTF-8) and
    ``to_json`` take the strict path, as after ``exactly_json``. So what
    orjson writes of the result is ``dumps``'s text of the value, and
    ``refuse_non_json`` finds nothing in it.
    """
    if not _fastpath.ENABLED:
        raise Unproven
    changes: dict[str, Any] | None = None
    for name in names:
        value: Any = members.get(name)
        kind: type[Any] = type(value)  # pyright: ignore[reportUnknownVariableType]  # no cast: a call per value
        # Most fields first (unset, whole numbers, proven floats), each by identity: no call at all.
        if value is None or kind is int or kind is str or kind is bool:
            continue
        written: Any
        if kind is float:
            if _FLOAT_TEXT.get(value):  # same_float_text's cached True
                continue
            written = _written_float(value)
        elif kind is dict:
            # C-level passes beat the walk on a large object or array.
            if len(value) > _WALKED_MOST and exactly_json([value], levels):
                continue
            written = _written_object(value, 1, levels)
        elif kind is tuple:  # the model's own array (frozen): its items are open objects
            written = _written_items(value, levels)
        elif kind is list:
            if len(value) > _WALKED_MOST and exactly_json([value], levels):
                continue
            written = _written_array(value, 1, levels)
        else:
            raise Unproven
        if written is value:
            continue
        if changes is None:
            changes = {}
        changes[name] = written
    return changes


def written_object(value: dict[Any, Any], levels: int) -> dict[Any, Any]:
    """An open object (exactly a ``dict``, at level 1 of ``levels``) ready for orjson, as ``written_fields`` makes a field's; else ``Unproven``.

    For the extra keys of an open model, read as one open object. The same
    walk, so the same proof: the result (``value`` itself, or a changed copy)
    is written by orjson as ``dumps`` writes ``value``.
    """
    if not _fastpath.ENABLED:
        raise Unproven
    written: dict[Any, Any] = _written_object(value, 1, levels)
    return written


# The walk below is written out per container, with the leaves tested inline by identity (``str``,
# ``int``, ``bool``, None, and floats in same_float_text's cache): a call per leaf, or a test of
# membership in a set of classes, costs more than the work on the small objects it is for.


def _written_items(value: tuple[Any, ...], levels: int) -> Any:
    """A model's own array (a tuple; orjson writes it as an array), each item at level 1: itself, or a list of its items prepared."""
    changed: list[Any] | None = None  # a list of value's items, made at the first change
    for index, item in enumerate(value):
        written = _written(item, 1, levels)
        if written is not item:
            if changed is None:
                changed = list(value)
            changed[index] = written
    return value if changed is None else changed


def _written(value: Any, level: int, levels: int) -> Any:
    """``written_fields``'s walk of ``value`` at ``level``: any value, as the item of a model's own array."""
    kind: type[Any] = type(value)  # pyright: ignore[reportUnknownVariableType]  # no cast: a call per value
    if kind is dict:
        return _written_object(value, level, levels)
    if kind is list:
        return _written_array(value, level, levels)
    if kind is float:
        return value if _FLOAT_TEXT.get(value) else _written_float(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    raise Unproven


def _written_object(value: dict[Any, Any], level: int, levels: int) -> Any:
    """``_written`` of an object (exactly a ``dict``) at ``level``: itself, a changed copy, or ``Unproven``."""
    if level > levels:
        raise Unproven
    changed: dict[Any, Any] | None = None  # a copy of value, made at its first change
    for key, item in value.items():
        if type(key) is not str or (not key.isascii() and max(key) > "\uffff"):
            raise Unproven
        kind: type[Any] = type(item)  # pyright: ignore[reportUnknownVariableType]  # no cast: a call per value
        if kind is str or kind is int or kind is bool or item is None:
            continue
        written: Any
        if kind is float:
            if _FLOAT_TEXT.get(item):  # same_float_text's cached True
                continue
            written = _written_float(item)
        elif kind is dict:
            written = _written_object(item, level + 1, levels)
        elif kind is list:
            written = _written_array(item, level + 1, levels)
        else:
            raise Unproven
        if written is not item:
            if changed is None:
                changed = dict(value)
            changed[key] = written
    return value if changed is None else changed


def _written_array(value: list[Any], level: int, levels: int) -> Any:
    """``_written`` of an array (exactly a ``list``) at ``level``: itself, a changed copy, or ``Unproven``."""
    if level > levels:
        raise Unproven
    changed: list[Any] | None = None  # a copy of value, made at its first change
    for index, item in enumerate(value):
        kind: type[Any] = type(item)  # pyright: ignore[reportUnknownVariableType]  # no cast: a call per value
        if kind is str or kind is int or kind is bool or item is None:
            continue
        written: Any
        if kind is float:
            if _FLOAT_TEXT.get(item):  # same_float_text's cached True
                continue
            written = _written_float(item)
        elif kind is dict:
            written = _written_object(item, level + 1, levels)
        elif kind is list:
            written = _written_array(item, level + 1, levels)
        else:
            raise Unproven
        if written is not item:
            if changed is None:
                changed = list(value)
            changed[index] = written
    return value if changed is None else changed


def _written_float(value: float) -> Any:
    if same_float_text(value):
        return value
    if value.is_integer() and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        return int(value)  # es6_number's own text for it: str(int(value))
    if math.isfinite(value):
        return _Fragment(es6_number(value))
    raise Unproven


publish(__name__)  # the public classes above, shown as mplp_models.<name>
