"""from_json reads strict JSON only, and nothing but a ValidationError escapes it."""

from __future__ import annotations

import json
from collections.abc import Sized
from typing import Any, cast

import pytest
from conftest import PAYLOADS, examples
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import mplp_models as mm

EVENT = (PAYLOADS / "event.json").read_bytes()


def refused(data: object, kind: str) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        mm.Event.from_json(data)  # type: ignore[arg-type]
    errors = caught.value.errors()
    assert errors[0]["type"] == kind, errors
    return caught.value


def test_duplicate_keys_are_refused_with_their_location() -> None:
    error = refused(b'{"event_id":"x","source":"a","source":"b"}', "json_duplicate_key")
    assert error.errors()[0]["loc"] == ("source",)
    nested = EVENT.replace(b'"steps": 5', b'"steps": 5, "steps": 6')
    assert refused(nested, "json_duplicate_key").errors()[0]["loc"] == ("data", "steps")


def test_duplicate_keys_spelled_with_escapes_are_found() -> None:
    # "\u0073ource" is "source": the same key to any parser.
    data = EVENT.replace(b'"source": "plan"', b'"source": "plan", "\\u0073ource": "x"')
    refused(data, "json_duplicate_key")


def test_escaped_colons_do_not_look_like_duplicates() -> None:
    data = EVENT.replace(b'"source": "plan"', b'"source": "a\\u003ab:c"')
    assert mm.Event.from_json(data).source == "a:b:c"


def test_trusted_input_may_skip_the_duplicate_check() -> None:
    data = EVENT.replace(b'"source": "plan"', b'"source": "first", "source": "plan"')
    assert mm.Event.from_json(data, allow_duplicate_keys=True).source == "plan"


@pytest.mark.parametrize(
    "data",
    [
        b'{"source": "\xff"}',
        b'{"source": "\xed\xa0\x80"}',  # a surrogate encoded in UTF-8
        b'{"source": "\\ud800"}',
        b'{"source": "\\udc00x"}',
        b'{"n": NaN}',
        b'{"n": Infinity}',
        b'{"n": -Infinity}',
        b'{"n": 1e400}',
        b"[" * 1025 + b"]" * 1025,
        b"",
        b'{"a": 1',
        b"\x00\x01\x02",
        b'{"a": 1} trailing',
    ],
)
def test_malformed_input_is_a_validation_error(data: bytes) -> None:
    refused(data, "json_invalid")


def nested_event(depth: int) -> str:
    """The event payload with arrays nested ``depth`` levels deep in all (the event object is level 1)."""
    inner = depth - 2  # below the event object and its data object
    document = json.loads(EVENT)
    document["data"] = {"deep": "SPLICE"}
    return json.dumps(document).replace('"SPLICE"', "[" * inner + "1" + "]" * inner)


def test_depth_limits_are_documented_and_exact() -> None:
    # Inside an open object: MAX_OPEN_OBJECT_DEPTH levels, the open object (data) being the first.
    event = mm.Event.from_json(nested_event(mm.MAX_OPEN_OBJECT_DEPTH + 1))
    assert event.data is not None and "deep" in event.data
    refused(nested_event(mm.MAX_OPEN_OBJECT_DEPTH + 2), "json_too_deep")
    # The JSON text as a whole: MAX_JSON_DEPTH levels, and anything up to orjson's own 1024 or beyond.
    assert mm.MAX_JSON_DEPTH == 254
    refused(nested_event(mm.MAX_JSON_DEPTH), "json_too_deep")
    for depth in (mm.MAX_JSON_DEPTH + 1, 300, 1024, 1025, 100_000):
        refused(nested_event(depth), "json_invalid")
    with pytest.raises(ValidationError):
        mm.parse("[" * 300 + "]" * 300)


def test_deep_python_input_is_refused_without_recursion() -> None:
    deep: list[object] = []
    for _ in range(10_000):
        deep = [deep]
    document = json.loads(EVENT)
    document["data"] = {"deep": deep}
    with pytest.raises(ValidationError, match="deeper than 128"):
        mm.Event.model_validate(document)


def test_non_json_input_types_are_validation_errors() -> None:
    refused(12, "json_type")
    refused(None, "json_type")
    # Read although from_json's signature says bytes | str (mypy 2 no longer counts these as bytes).
    assert mm.Event.from_json(bytearray(EVENT)).source == "plan"  # type: ignore[arg-type]
    assert mm.Event.from_json(memoryview(EVENT)).source == "plan"  # type: ignore[arg-type]
    assert mm.Event.from_json(EVENT.decode()).source == "plan"


def test_subclasses_of_str_and_bytes_are_read() -> None:
    class Text(str):
        pass

    class Raw(bytes):
        pass

    assert mm.Event.from_json(Text(EVENT.decode())).source == "plan"
    assert mm.Event.from_json(Raw(EVENT)).source == "plan"


def test_open_objects_from_python_refuse_lone_surrogates() -> None:
    for data in ({"\ud800": 1}, {"k": ["\udfff"]}):
        document = json.loads(EVENT)
        document["data"] = data
        with pytest.raises(ValidationError, match="lone surrogate"):
            mm.Event.model_validate(document)


def test_a_str_with_a_lone_surrogate_is_refused() -> None:
    refused('{"source": "\ud800"}', "json_invalid")


def test_integers_beyond_64_bits_are_kept_exactly() -> None:
    document = json.loads(EVENT)
    document["data"] = {"big": 12345678901234567890123, "low": -9223372036854775809, "float": 1e300, "text": "e+"}
    event = mm.Event.from_json(json.dumps(document))
    assert event.data == document["data"] and event.data is not None
    assert type(event.data["big"]) is int
    # The canonical form has no exact spelling for them: refused, not rounded.
    with pytest.raises(mm.CanonicalJSONError, match=r"at /data/big$"):
        event.to_json()


@pytest.mark.parametrize("big", [2**64, -(2**63) - 1, 2**100 + 1])
def test_an_integer_beyond_64_bits_alone_is_kept_exactly(big: int) -> None:
    # No float and no "e+" in a string beside it: the integer alone sends the text to the exact reading.
    document = json.loads(EVENT)
    document["data"] = {"big": big}
    event = mm.Event.from_json(json.dumps(document))
    assert event.data is not None
    assert type(event.data["big"]) is int and event.data["big"] == big


# Where each refusal is, worked out by hand: (pointer, line, column, byte). A column counts
# characters from 1, a byte offset bytes from 0.
PLACES = {
    "a value the grammar refuses": (b'{"a":\n [1, "\xc3\xa9\xc3\xa9", x]}', "/a/2", 2, 12, 19),
    "a Latin-1 byte on a later line": (b'{"title": "ok",\n "description": "caf\xe9"}', "/description", 2, 21, 36),
    "NaN": (b'{"a": NaN}', "/a", 1, 7, 6),
    "a number beyond a double, nested": (b'{"a": {"b":1e400}}', "/a/b", 1, 12, 11),
    "a lone surrogate escape": (b'{"a": "\\ud800"}', "/a", 1, 8, 7),
    "trailing data": (b'{"a":1} x', "", 1, 9, 8),
    "a byte order mark": (b'\xef\xbb\xbf{"a": 1}', "", 1, 1, 0),
    "cut short: the whole document": (b'{"a": [1, 2', "", 1, 12, 11),
    "nested deeper than MAX_JSON_DEPTH": (b"[" * 300 + b"]" * 300, "/0" * 254, 1, 255, 254),
    "a duplicate key after escapes": (b'{"x":[{"a":1,"b\\\\\\"":2,"a":3}]}', "/x/0/a", 1, 24, 23),
}


@pytest.mark.parametrize("name", PLACES)
@pytest.mark.parametrize("read", [mm.parse, mm.Plan.from_json], ids=["parse", "from_json"])
def test_every_refusal_names_its_line_column_byte_and_pointer(name: str, read: object) -> None:
    data, expected_pointer, line, column, byte = PLACES[name]
    with pytest.raises(ValidationError) as caught:
        read(data)  # type: ignore[operator]
    (entry,) = mm.errors_as_json(caught.value)
    assert entry["pointer"] == expected_pointer
    assert f"at line {line}, column {column} (byte {byte})" in entry["message"]


def test_text_that_is_not_utf8_is_named_so_where_it_is() -> None:
    with pytest.raises(ValidationError) as caught:
        mm.parse(PLACES["a Latin-1 byte on a later line"][0])
    message = caught.value.errors()[0]["msg"]
    assert "not UTF-8: byte 0xE9" in message and "surrogate" not in message
    # A str with a lone surrogate cannot be UTF-8 either: said in those words, at its place.
    with pytest.raises(ValidationError) as caught:
        mm.Plan.from_json('{"a": ["\ud800"]}')
    (entry,) = mm.errors_as_json(caught.value)
    assert entry["pointer"] == "/a/0"
    assert "a lone surrogate (U+D800) has no UTF-8 form at line 1, column 9 (byte 8)" in entry["message"]


# A JSON value with keys and strings that need escapes, to place a bad token at a known path in.
_TEXT = st.text(
    alphabet=st.sampled_from(["a", "é", '"', "\\", ":", "{", "]", ",", "\n", "\x01", "\U0001f600"]), max_size=5
)
_VALUES = st.recursive(
    st.one_of(st.integers(), st.booleans(), st.none(), _TEXT),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=12,
)
MARK = "\x7fMARK\x7f"


@st.composite
def with_a_marked_place(draw: st.DrawFn) -> tuple[object, tuple[str | int, ...]]:
    """A value with one of its members or items (or the whole) replaced by MARK, and the path of that place."""
    root: list[Any] = [draw(_VALUES)]
    path: list[str | int] = []
    holder: Any = root  # a list or dict holding the place
    at: Any = 0
    while True:
        current = holder[at]
        if not _nonempty_container(current) or draw(st.booleans()):
            break
        places: list[Any] = sorted(current.keys()) if hasattr(current, "keys") else list(range(len(current)))
        at = draw(st.sampled_from(places))
        path.append(at)
        holder = current
    holder[at] = MARK
    return root[0], tuple(path)


def _nonempty_container(value: object) -> bool:
    return isinstance(value, (list, dict)) and len(cast(Sized, value)) > 0


# Each bad token, and how far into it the reader finds it wrong (the sign of "-Infinity" is fine, so is
# the quote that opens a string).
BAD_TOKENS = {b"NaN": 0, b"Infinity": 0, b"-Infinity": 1, b"1e999": 0, b'"\\udc00"': 1, b'"\xff"': 1}


@settings(max_examples=examples(quick=200, deep=2000), deadline=None)
@given(with_a_marked_place(), st.sampled_from(sorted(BAD_TOKENS)), st.booleans(), st.sampled_from([None, 1]))
def test_the_place_of_a_bad_value_is_where_it_was_put(
    marked: tuple[object, tuple[str | int, ...]], bad: bytes, ascii_only: bool, indent: int | None
) -> None:
    value, path = marked
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent).encode("utf-8", "surrogatepass")
    spot = json.dumps(MARK, ensure_ascii=ascii_only).encode()
    where = text.index(spot) + BAD_TOKENS[bad]
    data = text.replace(spot, bad)
    with pytest.raises(ValidationError) as caught:
        mm.parse(data)
    (entry,) = caught.value.errors()
    assert entry["type"] == "json_invalid"
    before = data[:where]
    line = before.count(b"\n") + 1
    column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8")) + 1
    assert f"at line {line}, column {column} (byte {where})" in entry["msg"]
    assert tuple(entry["loc"]) == path


def spelled(value: Any, escape: list[bool]) -> str:
    """``value`` as JSON text, each character of a string spelled as a ``\\uXXXX`` escape or not.

    Whether to escape each one is what ``escape`` says, in turn.

    A tuple stands for an object, as its (key, member) pairs: duplicates allowed.
    """
    if isinstance(value, str):
        out: list[str] = []
        for char in value:
            plain = json.dumps(char, ensure_ascii=False)[1:-1]
            use = escape.pop() if escape else False
            out.append("".join(f"\\u{unit:04x}" for unit in _utf16(char)) if use else plain)
        return '"' + "".join(out) + '"'
    if isinstance(value, list):
        items = cast(list[object], value)
        return "[" + ",".join(spelled(item, escape) for item in items) + "]"
    if isinstance(value, tuple):
        pairs = cast(tuple[tuple[str, Any], ...], value)
        return "{" + ",".join(spelled(key, escape) + ":" + spelled(member, escape) for key, member in pairs) + "}"
    return json.dumps(value)


def _utf16(char: str) -> list[int]:
    units = char.encode("utf-16-be")
    return [int.from_bytes(units[index : index + 2], "big") for index in range(0, len(units), 2)]


_KEYS = st.text(alphabet=st.sampled_from(["a", "b", ":", '"', "\\", "é", "\U0001f600"]), max_size=3)
_MEMBERS = st.recursive(
    st.one_of(st.integers(), _KEYS),
    lambda inner: st.lists(inner, max_size=3) | st.lists(st.tuples(_KEYS, inner), max_size=3).map(tuple),
    max_leaves=10,
)


def first_duplicate(text: str) -> str | None:
    """The reference: the standard library's pairs hook sees each object's keys as written (inner objects first)."""
    found: list[str] = []

    def hook(pairs: list[tuple[str, object]]) -> dict[str, object]:
        keys = [key for key, _ in pairs]
        found.extend(key for index, key in enumerate(keys) if key in keys[:index])
        return dict(pairs)

    json.loads(text, object_pairs_hook=hook)
    return found[0] if found else None


@settings(max_examples=examples(quick=300, deep=3000), deadline=None)
@given(_MEMBERS, st.lists(st.booleans(), max_size=40), st.booleans())
def test_duplicate_keys_are_found_as_the_standard_library_sees_them(
    value: object, escape: list[bool], fast: bool
) -> None:
    from mplp_models import _fastpath
    from mplp_models._json_input import find_duplicate_key, load_json

    text = spelled(value, escape)
    expected = first_duplicate(text)
    found = find_duplicate_key(text.encode())
    assert (found is None) == (expected is None)
    saved = _fastpath.ENABLED
    _fastpath.ENABLED = fast
    try:
        if expected is None:
            assert load_json(text, "x") == json.loads(text, object_pairs_hook=lambda pairs: dict(pairs))
        else:
            with pytest.raises(ValidationError) as caught:
                load_json(text, "x")
            assert caught.value.errors()[0]["type"] == "json_duplicate_key"
    finally:
        _fastpath.ENABLED = saved
