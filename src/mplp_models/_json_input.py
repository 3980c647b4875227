"""The strict reading of JSON text: what ``from_json`` and ``parse`` read, and the errors that say where it went wrong.

orjson parses: it refuses invalid UTF-8, lone surrogate escapes, NaN and Infinity literals, and numbers that
overflow a double. Here are refused nesting deeper than ``MAX_JSON_DEPTH`` and duplicate keys (orjson keeps the
last, as most parsers do: two parsers that read one payload differently are a known way past a signature
check); integers beyond 64 bits, which orjson rounds to a double, are read exactly (``_exact_integers``).

The fast path of this reading (``_fastpath.LOADING``) finds duplicates by two C-speed passes: every ``:`` of
the input is structural (one per key) or inside a string; orjson's compact writing of the value read has one
structural ``:`` per key it kept, and the same ``:`` inside strings, unless the input spelled one as the escape
``\\u003a``. So, with no such escape, the input has a duplicate key exactly when it holds more colons than the
writing. Its strict function (for a text with the escape, to name the key, and for every text with the fast
path off, when the standard library also reads every text again for exact integers) is a tokenizer
(``find_duplicate_key``), linear in time and memory: once escapes are blanked (``_plain``), a string is one
character class repeated, which the regex engine matches without state per character.

Every refusal names where the text went wrong (``place``: line, column, byte) and, as its location, the value
being read there (``pointer_at``).
"""

from __future__ import annotations

import codecs
import json
import re
from typing import Any, cast

import orjson
from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from mplp_models import _fastpath
from mplp_models._errors import Quoted
from mplp_models._json_values import MAX_JSON_DEPTH
from mplp_models._text import short_repr

__all__ = ["find_duplicate_key", "invalid", "json_bytes", "load_json", "place", "pointer_at"]

_ESCAPED_COLON = re.compile(rb"\\u003[aA]")
_BACKSLASH = ord("\\")  # an int: `in` looks for one byte at once, where it tries a one-byte bytes as an int first


def json_bytes(data: Any, title: str) -> bytes:
    """``data`` (bytes, bytearray, memoryview or str) as the one representation every reading checks: UTF-8 bytes.

    A lone surrogate in a str passes into them, and the parsers then refuse it as invalid UTF-8.
    """
    if isinstance(data, str):
        return data.encode("utf-8", "surrogatepass")
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(cast(bytes, data))  # also a subclass, which orjson refuses
    raise invalid(title, "json_type", f"JSON input should be bytes or str, not {type(data).__name__}", (), data)


def load_json(data: Any, title: str, *, allow_duplicate_keys: bool = False) -> Any:
    """The JSON value of ``data`` (bytes, bytearray, memoryview or str), or a ``ValidationError``: not strict JSON."""
    raw = json_bytes(data, title)
    try:
        value = orjson.loads(raw)
        # orjson reads 1024 levels but writes 254: the checks below need the
        # writing, and no model takes anything nested that deep anyway.
        compact = orjson.dumps(value)
    except orjson.JSONDecodeError as error:
        raise _syntax_error(raw, error, title) from None
    except orjson.JSONEncodeError:
        offset = _too_deep(raw)
        message = f"Invalid JSON: nested deeper than {MAX_JSON_DEPTH} levels at {place(raw, offset)}"
        raise invalid(title, "json_invalid", message, pointer_at(raw, offset), raw) from None
    # Two short-cuts, each with its proof (in _exact_integers and the module docstring).
    fast = _fastpath.on(_fastpath.LOADING)
    if not fast or (b"+" in compact and b"e+" in compact):  # the lone byte first: it is found at memchr speed
        value = _exact_integers(raw, title)
    kept_colons = compact.count(b":")
    del compact  # as large as the input: not kept while the tokenizer runs
    if not allow_duplicate_keys and (not fast or _may_have_duplicate_keys(raw, kept_colons)):
        found = find_duplicate_key(raw)
        if found is not None:
            loc, key, offset = found
            message = f"Duplicate key {short_repr(key)} in one object, at {place(raw, offset)}"
            raise invalid(title, "json_duplicate_key", message, loc, raw)
    return value


def place(raw: bytes, offset: int) -> str:
    """Where byte ``offset`` of ``raw`` is, for a message: ``line 2, column 7 (byte 12)``.

    Lines end at ``\\n``; a column counts characters from 1 (what an editor shows),
    each byte that is not UTF-8 as one; the byte offset counts from 0.
    """
    line = raw.count(b"\n", 0, offset) + 1
    line_start = raw.rfind(b"\n", 0, offset) + 1
    return f"line {line}, column {_characters(raw, line_start, offset) + 1} (byte {offset})"


_CHUNK = 1 << 20


def _characters(raw: bytes, start: int, end: int) -> int:
    """How many characters ``raw[start:end]`` decodes to, in chunks: a line may be all of a 100 MB input."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    view = memoryview(raw)
    count = 0
    for chunk in range(start, end, _CHUNK):
        count += len(decoder.decode(view[chunk : min(chunk + _CHUNK, end)]))
    return count + len(decoder.decode(b"", final=True))


def _syntax_error(raw: bytes, error: orjson.JSONDecodeError, title: str) -> ValidationError:
    """orjson's refusal, worded and placed in ``raw``: orjson puts a UTF-8 error at the start, and counts characters."""
    offset, reason = len(error.doc[: error.pos].encode("utf-8", "surrogatepass")), error.msg
    if error.msg.startswith("str is not valid UTF-8"):  # which Python then finds too, and places
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as bad:
            offset, reason = bad.start, _utf8_reason(raw, bad)
    message = f"Invalid JSON: {reason} at {place(raw, offset)}"
    return invalid(title, "json_invalid", message, pointer_at(raw, offset), raw)


def _utf8_reason(raw: bytes, bad: UnicodeDecodeError) -> str:
    first = raw[bad.start]
    if first == 0xED:  # a lone surrogate that a str carried (json_bytes keeps it) is ED A0..BF 80..BF
        try:
            surrogate = raw[bad.start : bad.start + 3].decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            pass
        else:
            return f"text is not UTF-8: a lone surrogate (U+{ord(surrogate):04X}) has no UTF-8 form"
    return f"text is not UTF-8: byte 0x{first:02X} ({bad.reason})"


def _too_deep(raw: bytes) -> int:
    """The offset of the first ``[`` or ``{`` nested more than ``MAX_JSON_DEPTH`` deep in a valid text (one is)."""
    walk = _Walk(raw)
    for match in _STRUCTURE.finditer(_plain(raw)):
        walk.step(match)
        if len(walk.keys) > MAX_JSON_DEPTH:
            return match.start()
    return 0  # not reached for a text orjson could not write back


def _exact_integers(raw: bytes, title: str) -> Any:
    """The value again, with integers beyond 64 bits exact (the standard library's reading).

    orjson reads such an integer as the nearest double and writes that with an exponent (``e+``), so only a
    text whose writing has one (maybe in a string) needs this second reading.
    """
    try:
        return json.loads(raw)
    except RecursionError:
        raise invalid(title, "json_invalid", "Invalid JSON: nested too deeply to read exactly", (), raw) from None


def _may_have_duplicate_keys(raw: bytes, kept_colons: int) -> bool:
    # A lone byte is found at memchr speed; the escape is looked for only if some backslash is there.
    return (_BACKSLASH in raw and _ESCAPED_COLON.search(raw) is not None) or raw.count(b":") != kept_colons


# Once escapes are blanked (``_plain``), a string is a quote, no quote, a quote: one character
# class repeated, which the regex engine matches in constant memory. The optional closing quote
# lets a prefix cut inside a string end on it (``pointer_at``).
_STRUCTURE = re.compile(rb'"[^"]*"?|[{}\[\]:,]')
_QUOTE, _COLON, _COMMA = ord('"'), ord(":"), ord(",")
_OPENERS, _CLOSERS = frozenset(b"{["), frozenset(b"}]")


def _plain(raw: bytes) -> bytes:
    """``raw`` with every ``\\\\`` and ``\\"`` escape blanked to ``__``: a ``"`` only where a string begins or ends.

    In JSON text a backslash occurs only inside a string, where it starts a
    two-character escape (``\\uXXXX`` has no quote or backslash after its
    first two); so pairing backslashes from the left, as ``bytes.replace``
    does, pairs them as the parser does, and what is left of ``\\"`` after
    that is an escaped quote. No byte of a multi-byte UTF-8 sequence is ASCII.
    Offsets in the result are offsets in ``raw``.
    """
    if _BACKSLASH not in raw:  # the common case: no copy
        return raw
    return raw.replace(b"\\\\", b"__").replace(b'\\"', b"__")


def find_duplicate_key(raw: bytes) -> tuple[tuple[str | int, ...], str, int] | None:
    """The location of the first duplicated key of a valid JSON text, the key, and its byte offset; or None.

    Iterative (any depth orjson reads); linear: the tokens are found in ``_plain(raw)``, only keys copied out.
    """
    walk = _Walk(raw)
    for match in _STRUCTURE.finditer(_plain(raw)):
        if walk.step(match):
            return (*walk.path, cast(str, walk.member)), cast(str, walk.member), walk.string[0]
    return None


def pointer_at(raw: bytes, offset: int) -> tuple[str | int, ...]:
    """The location of the value that the text was reading at byte ``offset``, where it went wrong.

    The member whose key came last, or the array's item being read; else the innermost container; else (and at
    the end of the text, which was cut short) the whole document. ``raw[:offset]`` is valid as far as it goes,
    but where it is not UTF-8: then the walk is a best guess, which never fails.
    """
    if offset >= len(raw):
        return ()
    walk = _Walk(raw)
    for match in _STRUCTURE.finditer(_plain(raw[:offset])):
        walk.step(match)
    if not walk.keys:
        return ()
    return (*walk.path, walk.member) if walk.member is not None else tuple(walk.path)


class _Walk:
    """Where a walk of a text's tokens is: the open containers, and the value begun last in the innermost."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.path: list[str | int] = []  # of the innermost open container
        self.keys: list[set[str | None] | None] = []  # for each open container: its keys so far, None for an array
        self.member: str | int | None = None  # the value begun last in it, if one is
        self.string = (0, 0)

    def step(self, match: re.Match[bytes]) -> bool:
        """The walk past one token (a string, a colon, an opener, a closer or a comma): whether it ends a duplicate
        key."""
        byte = match.group()[0]  # of the text with its escapes blanked: a quote only where a string starts
        if byte == _QUOTE:
            self.string = (match.start(), match.end())
        elif byte == _COLON:
            return self._keyed()
        elif byte in _OPENERS:
            if self.keys:
                self.path.append(self.member if self.member is not None else 0)
            self.keys.append(set() if byte == ord("{") else None)
            self.member = None if byte == ord("{") else 0
        elif not self.keys:  # a stray closer or comma: only a text that is not UTF-8 gets this far (see above)
            return False
        elif byte in _CLOSERS:
            self.keys.pop()
            self.member = self.path.pop() if self.path else None
        elif byte == _COMMA:
            self.member = None if self.keys[-1] is not None or not isinstance(self.member, int) else self.member + 1
        return False

    def _keyed(self) -> bool:
        """The walk past a colon: the string before it is the member's key; whether its object had it already."""
        key = self.member = _key(self.raw, self.string)
        keys = self.keys[-1] if self.keys else None
        if keys is None:
            return False
        if key in keys:
            return True
        keys.add(key)
        return False


def _key(raw: bytes, span: tuple[int, int]) -> str | None:
    try:
        key: str = orjson.loads(raw[span[0] : span[1]])
    except orjson.JSONDecodeError:  # after bytes that are not UTF-8, the walk may take text for a key
        return None
    return key


def invalid(title: str, kind: str, message: str, loc: tuple[str | int, ...], data: Any) -> ValidationError:
    """A one-entry ``ValidationError`` for input that never reached the model (quoting the start of text)."""
    # Text that is not JSON is quoted by its start only: it may be megabytes, or not even UTF-8.
    found = Quoted.of(data) if isinstance(data, (bytes, str)) and not isinstance(data, Quoted) else data
    # The message is built at run time, which PydanticCustomError's LiteralString hint does not foresee.
    error = PydanticCustomError(kind, message)  # pyright: ignore[reportArgumentType]
    detail: InitErrorDetails = {"type": error, "loc": loc, "input": found}
    return ValidationError.from_exception_data(title, [detail])
