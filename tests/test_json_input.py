"""from_json reads strict JSON only, and nothing but a ValidationError escapes it."""

from __future__ import annotations

import json

import pytest
from conftest import PAYLOADS
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
    # Inside an open object: MAX_OPEN_DEPTH levels, the open object (data) being the first.
    event = mm.Event.from_json(nested_event(mm.MAX_OPEN_DEPTH + 1))
    assert event.data is not None and "deep" in event.data
    refused(nested_event(mm.MAX_OPEN_DEPTH + 2), "json_too_deep")
    # The JSON text as a whole: MAX_DEPTH levels, and anything up to orjson's own 1024 or beyond.
    assert mm.MAX_DEPTH == 254
    refused(nested_event(mm.MAX_DEPTH), "json_too_deep")
    for depth in (mm.MAX_DEPTH + 1, 300, 1024, 1025, 100_000):
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
