"""Strict JSON input: what ``from_json`` and ``parse`` read.

orjson parses: it refuses invalid UTF-8, lone surrogate escapes, NaN and
Infinity literals, and numbers that overflow a double. Nesting deeper than
``MAX_JSON_DEPTH`` is refused here. orjson keeps the last of two equal keys, as most
parsers do, so duplicates are found here too: two parsers that read one payload
differently are a known way past a signature check.

Integers beyond 64 bits, which orjson would round to a double, are read
exactly (see ``_exact_integers``).

The duplicate check costs two C-speed passes, not a Python walk: in the input,
every ``:`` is either structural (one per key) or inside a string; orjson's
compact re-serialization of the parsed value has one structural ``:`` per key
it kept, and the same ``:`` inside strings, unless the input spelled a colon as
the escape ``\\u003a``. So, with no such escape, the input has a duplicate key
exactly when it holds more colons than the re-serialization. With the escape,
and to name the offending key, a tokenizer walks the input (``find_duplicate_key``),
in time and memory linear in it: once escapes are blanked (``_plain``), a string
is one character class repeated, which the regex engine matches without keeping
state per character, and only keys are copied out.

Every refusal names where the text went wrong (``place``: line, column, byte)
and, as its location, the value being read there (``pointer_at``).

``MplpModel.from_json`` first lets pydantic read the text itself (its JSON mode
validates while it parses, which is faster than orjson followed by a
validation of Python objects), and keeps that model only when
``read_as_strictly`` shows that the strict reading above would have given the
same one; otherwise, and whenever pydantic refuses the text, the strict reading
decides, with its own errors.

With the fast paths off (``_fastpath``), ``from_json`` takes the strict reading
only, and the strict reading itself takes no short-cut: the tokenizer looks
for duplicate keys in every text, and the standard library reads every text
a second time for exact integers.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Mapping
from typing import Any, cast

import orjson
from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from mplp_models import _fastpath
from mplp_models._errors import Quoted
from mplp_models._fast_shapes import fast_reading
from mplp_models._text import short_repr
from mplp_models._writer import every_field_writer

__all__ = [
    "MAX_DEPTH",
    "MAX_JSON_DEPTH",
    "invalid",
    "json_bytes",
    "load_json",
    "place",
    "pointer_at",
    "read_as_strictly",
    "read_fast",
]

MAX_JSON_DEPTH = 254
"""Deepest nesting of arrays and objects in a JSON text that is read (what orjson can write back).

Open objects inside a model nest no deeper than ``MAX_OPEN_OBJECT_DEPTH``.
"""

MAX_DEPTH = MAX_JSON_DEPTH
"""The earlier name of ``MAX_JSON_DEPTH``, kept so that code using it still runs (deprecated)."""

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
    """The JSON value of ``data`` (bytes, bytearray, memoryview or str); a ``ValidationError`` if it is not strict JSON.

    Each refusal names where the text went wrong: line, column and byte offset in
    its message, and the location of the value being read there.
    """
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
    # Two short-cuts, each with its proof (in _exact_integers and the module
    # docstring); with the fast paths off, the second reading and the walk run always.
    fast = _fastpath.ENABLED
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
    """orjson's refusal, worded and placed in ``raw``: orjson places a UTF-8 error at the start, and counts characters."""
    if error.msg.startswith("str is not valid UTF-8"):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as bad:
            offset, reason = bad.start, _utf8_reason(raw, bad)
        else:  # not reached: orjson and Python agree on UTF-8; kept so that the error stays an error
            offset, reason = 0, error.msg
    else:
        offset, reason = len(error.doc[: error.pos].encode("utf-8", "surrogatepass")), error.msg
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
    depth = 0
    for match in _STRUCTURE.finditer(_plain(raw)):
        byte = raw[match.start()]
        if byte in _OPENERS:
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return match.start()
        elif byte in _CLOSERS:
            depth -= 1
    return 0  # not reached for a text orjson could not write back


def _exact_integers(raw: bytes, title: str) -> Any:
    """The value again, with integers beyond 64 bits exact.

    orjson reads such an integer as the nearest double, which would round what
    the sender wrote; it then writes that double with an exponent (``e+``), so
    only a text whose value has one (or a string with ``e+`` in it) is read a
    second time, by the standard library, which keeps integers exact.
    """
    try:
        return json.loads(raw)
    except RecursionError:
        raise invalid(title, "json_invalid", "Invalid JSON: nested too deeply to read exactly", (), raw) from None


def _may_have_duplicate_keys(raw: bytes, kept_colons: int) -> bool:
    return _has_escaped_colon(raw) or raw.count(b":") != kept_colons


def _has_escaped_colon(raw: bytes) -> bool:
    # A lone byte is found at memchr speed; the escape is looked for only if some backslash is there.
    return _BACKSLASH in raw and _ESCAPED_COLON.search(raw) is not None


def read_as_strictly(raw: bytes, model: Any, screened: bool = True) -> bool:
    """Whether ``model``, which pydantic read from ``raw`` in its JSON mode, is what ``load_json`` and a validation would give.

    Both parsers accept the same texts and read the same values, but for the
    things below, each settled here, in the types or in the fast reading's validator:

    * duplicate keys, which pydantic's parser merges: ``model`` written back
      (``write_every_field``: every field, the open objects as they are) holds
      one ``:`` per key it kept, one per field not given, and every ``:`` of
      the strings; the text holds as many, counting the fields not given and
      each ``\\u003a`` too (a count that may be too high, never too low: an
      escaped backslash before ``u003a`` is counted), exactly when it has no
      duplicate key;
    * integers beyond +/-(2**53 - 1): pydantic keeps them exact, as the strict
      reading does, but refuses none beyond a double's range; written with
      ``OPT_STRICT_INTEGER``, any such integer stops the writing (then: no);
    * ``NaN``, ``Infinity`` and overflowing numbers, which pydantic's parser
      takes into open objects: ``JsonObject`` refuses them in JSON mode, or,
      where the fast reading took its check out, ``Reading.after``'s screen
      of the open objects found (``screened`` true) or else the count of
      ``null``s (below);
    * nesting beyond ``MAX_JSON_DEPTH``, which no model takes (orjson's writing
      stops at it), and, inside an open object, beyond ``MAX_OPEN_OBJECT_DEPTH``:
      ``JsonObject`` or ``_fast_shapes.Reading`` refuses it.

    The ``null`` count, once the colons have shown that no key was dropped:
    orjson writes a NaN or an infinity as ``null``. The writing holds one
    ``null`` per ``null`` of the text outside strings, one per field not given,
    one per NaN or infinity, and at least as many in strings as the text
    (orjson escapes only quotes, backslashes and control characters, and
    writes a newline as ``\\n``, so a ``null`` of a string's text, the ``n`` of
    ``\\n`` included, is written again; an escape like ``\\u006e`` only adds).
    So it holds no more than the text's and the unset fields' together
    exactly when no number was NaN or infinite. Of lone surrogates, orjson's
    writing refuses every one (then: no).

    The counts hold for plain models only (``_fast_shapes.fast_path_problems``: an
    unset field holds ``None``, every key is a field, no validator of the
    user's changes a string); ``write_every_field`` refuses any other, and
    then the answer is no.

    Checked against orjson's verdicts on malformed text (invalid UTF-8, lone
    surrogates, bad numbers, trailing data, BOM, control characters) in the tests.
    """
    try:
        kind: type = type(model)  # pyright: ignore[reportUnknownVariableType]  # any value; a TypeError below if no model
        written, unset = every_field_writer(kind)(model)  # the writing the fast reading chooses
    except TypeError:  # orjson's JSONEncodeError, or a model that is not plain
        return False
    return _counts_agree(raw, raw.count(b":"), written, unset, screened)


def _counts_agree(raw: bytes, colons: int, written: bytes, unset: int, screened: bool) -> bool:
    """The counts of ``read_as_strictly``: ``written`` is the model read from ``raw`` (with ``colons``) with every field, ``unset`` of them not given."""
    escaped = raw.count(b"\\u003a") + raw.count(b"\\u003A") if _BACKSLASH in raw else 0
    # Both counts must hold (the order is no matter): the null count's argument takes the colons' for given.
    # A writing with no more nulls than fields not given holds no NaN or infinity: the text's need no count.
    if not screened:
        nulls = written.count(b"null")
        if nulls > unset and nulls > raw.count(b"null") + unset:
            return False
    return colons + escaped + unset == written.count(b":")


def read_fast(kind: type, raw: bytes, context: Any = None, options: Mapping[str, Any] | None = None) -> Any:
    """The model of class ``kind`` read from ``raw`` by its fast reading, if ``read_as_strictly`` keeps it; else None.

    None also for a class with no fast reading (``_fast_shapes.fast_reading``)
    and for any text that reading refuses: the strict reading then decides,
    and words the errors. ``context`` and ``options`` are passed to the
    validator (pydantic-core takes ~0.7 us more for a ``context=None`` given).
    The fast paths must be on (``_fastpath``): the caller asks.
    """
    read = _READS.get(kind)
    if read is None:
        read = _READS[kind] = _read_of(kind)
    return read(raw, context, options)


_Read = Callable[[bytes, Any, "Mapping[str, Any] | None"], Any]
_READS: dict[type, _Read] = {}
"""``read_fast`` of each class read so far, its choices made once for the class (``_read_of``)."""


def _read_of(kind: type) -> _Read:
    """``read_fast`` for one class, with what depends on the class alone decided here, once.

    An event is read in a few microseconds: each call and each look-up that a
    plain payload does not need takes its share (issue #26's slim ``from_json``).
    It is ``read_as_strictly`` and ``Reading.after`` in one function. A class
    rebuilt since (``model_rebuild(force=True)``: a new core schema) is read
    by a new one.
    """
    model_class: Any = kind
    schema = model_class.__pydantic_core_schema__  # first: a rebuild meanwhile ends in _read_again
    reading = fast_reading(kind)
    if reading is None:

        def strictly(raw: bytes, context: Any, options: Mapping[str, Any] | None) -> Any:
            if model_class.__pydantic_core_schema__ is not schema:
                return _read_again(kind, raw, context, options)
            return None

        return strictly
    choose = reading.validator if reading.by_text else None
    shallow = reading.shallow
    write = every_field_writer(kind)
    after = reading.after

    def read(raw: bytes, context: Any, options: Mapping[str, Any] | None) -> Any:
        if model_class.__pydantic_core_schema__ is not schema:
            return _read_again(kind, raw, context, options)
        colons = raw.count(b":")
        validator, screened = (shallow, True) if choose is None else choose(raw, colons)
        try:
            model = (
                validator.validate_json(raw)
                if context is None and not options
                else validator.validate_json(raw, context=context, **(options or {}))
            )
            written, unset = write(model)
        except (ValidationError, TypeError):  # a refusal; orjson's JSONEncodeError (see read_as_strictly)
            return None  # the model freed before the strict reading, which may need as much memory again
        if _counts_agree(raw, colons, written, unset, screened) and (after is None or after(model, context)):
            return model
        return None

    return read


def _read_again(kind: type, raw: bytes, context: Any, options: Mapping[str, Any] | None) -> Any:
    """``read_fast`` by a new function of a rebuilt class: the one kept was made for its former core schema."""
    _READS.pop(kind, None)
    return read_fast(kind, raw, context, options)


class _Open:
    """An object or array that the tokenizer is inside of."""

    __slots__ = ("index", "keys", "path")

    def __init__(self, keys: set[str] | None, path: tuple[str | int, ...]) -> None:
        self.keys = keys  # the keys seen so far; None for an array
        self.path = path
        self.index = 0  # of the current item, in an array


# Once escapes are blanked (``_plain``), a string is a quote, no quote, a quote: one character
# class repeated, which the regex engine matches in constant memory. The optional closing quote
# lets a prefix cut inside a string end on it (``pointer_at``).
_STRUCTURE = re.compile(rb'"[^"]*"?|[{}\[\]:,]')
_QUOTE, _COLON, _COMMA = ord('"'), ord(":"), ord(",")
_OPENERS, _CLOSERS = frozenset(b"{["), frozenset(b"}]")


def _plain(raw: bytes) -> bytes:
    """``raw`` with every ``\\\\`` and ``\\"`` escape blanked to ``__``: the same length, and a ``"`` only where a string starts or ends.

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

    Iterative, so any depth that orjson reads is fine; time and memory linear in
    the input: the tokens are found in ``_plain(raw)`` and only keys are copied out.
    """
    plain = _plain(raw)
    stack: list[_Open] = []
    key: str = ""
    string = (0, 0)  # the span of the last string, a key when a colon follows
    for match in _STRUCTURE.finditer(plain):
        start = match.start()
        byte = plain[start]
        if byte == _QUOTE:
            string = (start, match.end())
        elif byte == _COLON:
            key = orjson.loads(raw[string[0] : string[1]])
            keys = stack[-1].keys
            if keys is not None and key in keys:
                return (*stack[-1].path, key), key, string[0]
            if keys is not None:
                keys.add(key)
        elif byte in _OPENERS:
            path: tuple[str | int, ...] = ()
            if stack:
                parent = stack[-1]
                path = (*parent.path, key if parent.keys is not None else parent.index)
            stack.append(_Open(set() if byte == ord("{") else None, path))
        elif byte in _CLOSERS:
            stack.pop()
        elif byte == _COMMA and stack[-1].keys is None:
            stack[-1].index += 1
    return None


def pointer_at(raw: bytes, offset: int) -> tuple[str | int, ...]:
    """The location of the value that the text was reading at byte ``offset``, where it went wrong.

    At the end of the text, the whole document: it is the document that was cut short.

    ``raw[:offset]`` is valid as far as it goes (the parser read it), but where
    the text is not UTF-8: then the walk is a best guess, which never fails. The value
    is the member whose key came last, or the array's item being read; else the
    innermost object or array; else the whole document.
    """
    if offset >= len(raw):
        return ()
    plain = _plain(raw[:offset])
    path: list[str | int] = []  # of the innermost open container
    kinds: list[bool] = []  # for each open container: is it an object
    member: str | int | None = None  # the value begun last in it, if one is
    string = (0, 0)
    for match in _STRUCTURE.finditer(plain):
        start = match.start()
        byte = plain[start]
        if byte == _QUOTE:
            string = (start, match.end())
        elif byte == _COLON:
            member = _key(raw, string)
        elif byte in _OPENERS:
            if kinds:
                path.append(member if member is not None else 0)
            kinds.append(byte == ord("{"))
            member = None if kinds[-1] else 0
        elif not kinds:  # a stray closer or comma: only a text that is not UTF-8 gets this far (see above)
            continue
        elif byte in _CLOSERS:
            kinds.pop()
            member = path.pop() if path else None
        elif byte == _COMMA:
            member = None if kinds[-1] or not isinstance(member, int) else member + 1
    if not kinds:
        return ()
    return (*path, member) if member is not None else tuple(path)


def _key(raw: bytes, span: tuple[int, int]) -> str | None:
    try:
        key: str = orjson.loads(raw[span[0] : span[1]])
    except orjson.JSONDecodeError:  # after bytes that are not UTF-8, the walk may take text for a key
        return None
    return key


def invalid(title: str, kind: str, message: str, loc: tuple[str | int, ...], data: Any) -> ValidationError:
    """A one-entry ``ValidationError`` for input that never reached the model (quoting the start of text)."""
    # Text that is not JSON is quoted by its start only: it may be megabytes, or not even UTF-8.
    found = Quoted.of(data) if isinstance(data, (bytes, str)) else data
    # The message is built at run time, which PydanticCustomError's LiteralString hint does not foresee.
    error = PydanticCustomError(kind, message)  # pyright: ignore[reportArgumentType]
    detail: InitErrorDetails = {"type": error, "loc": loc, "input": found}
    return ValidationError.from_exception_data(title, [detail])
