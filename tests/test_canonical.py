"""canonical_json: RFC 8785 bytes for any JSON value and any model."""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from conftest import CONFORMANCE, PAYLOADS, examples, shared_or_skip
from fast_path_switch import either_path, fast_paths  # noqa: F401  # either_path: a fixture
from hypothesis import given, settings
from hypothesis import strategies as st

import mplp_models as mm
from mplp_models._json_values import es6_number


def vector_names() -> list[str]:
    names = sorted(path.name for path in (CONFORMANCE / "rfc8785" / "input").glob("*.json"))
    return names or ["absent.json"]


@pytest.mark.parametrize("name", vector_names())
def test_published_vectors(name: str) -> None:
    source = shared_or_skip("rfc8785", "input", name)
    expected = shared_or_skip("rfc8785", "output", name).read_bytes()
    assert mm.canonical_json(json.loads(source.read_text(encoding="utf-8"))) == expected


def double(hex_digits: str) -> float:
    value: float = struct.unpack(">d", bytes.fromhex(hex_digits.rjust(16, "0")))[0]
    return value


@pytest.mark.usefixtures("either_path")  # repr's own layout in the fast path's range, the digits laid out otherwise
def test_es6_numbers_100k() -> None:
    path = shared_or_skip("rfc8785", "es6-numbers-100k.txt")
    lines = path.read_text().splitlines()
    assert len(lines) == 100_000
    wrong = []
    for line in lines:
        hex_digits, expected = line.split(",")
        value = double(hex_digits)
        if math.isfinite(value) and es6_number(value).decode() != expected:
            wrong.append(line)
    assert not wrong, wrong[:10]


@given(
    st.one_of(
        st.floats(allow_nan=False, allow_infinity=False),
        st.floats(1e-4, 1e16).flatmap(lambda value: st.sampled_from([value, -value])),
        st.sampled_from([1e-4, 1e16, 0.0001000000000000001, 9999999999999998.0, 1e16 - 2, 0.00009999999999999999]),
    )
)
@settings(max_examples=examples(quick=2000, deep=20000))
def test_es6_number_takes_repr_where_its_layout_is_ecmascripts(value: float) -> None:
    with fast_paths(True):
        fast = es6_number(value)
    with fast_paths(False):
        assert fast == es6_number(value)


# RFC 8785, Appendix B: number serialization samples (IEEE-754 hex, expected text).
APPENDIX_B = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@pytest.mark.parametrize(("hex_digits", "expected"), APPENDIX_B)
def test_appendix_b_numbers(hex_digits: str, expected: str) -> None:
    assert mm.canonical_json(double(hex_digits)) == expected.encode()
    assert mm.canonical_json([double(hex_digits)]) == b"[" + expected.encode() + b"]"


@pytest.mark.parametrize("hex_digits", ["7fffffffffffffff", "7ff0000000000000", "fff0000000000000"])
def test_appendix_b_nan_and_infinities_are_refused(hex_digits: str) -> None:
    with pytest.raises(mm.CanonicalJSONError, match=r"at /x$"):
        mm.canonical_json({"x": double(hex_digits)})


def test_what_orjson_gets_wrong_is_fixed() -> None:
    assert (
        mm.canonical_json([100.0, 1e20, 1e-6, -0.0, 1e21, 1e-7]) == b"[100,100000000000000000000,0.000001,0,1e+21,1e-7]"
    )
    # UTF-16 order: U+1F600 is a surrogate pair (D83D DE00), which sorts before U+E000.
    assert mm.canonical_json({"\ue000": 1, "\U0001f600": 2, "a": 3}) == '{"a":3,"\U0001f600":2,"\ue000":1}'.encode()


@pytest.mark.parametrize(
    ("value", "path", "pointer"),
    [
        ({"a": [1, {"b": 2**53 + 1}]}, "$.a[1].b", "/a/1/b"),
        ({"a": -(2**53) - 1}, "$.a", "/a"),
        ({"a": 10**400}, "$.a", "/a"),
        ({"a": {1: "x"}}, "$.a[1]", "/a/1"),
        ({"a": ["\ud800"]}, "$.a[0]", "/a/0"),
        ({"\udfff": 1}, "$", ""),
        ({"a": {"b": {1, 2}}}, "$.a.b", "/a/b"),
        ({"a": b"bytes"}, "$.a", "/a"),
        ({"weird key": [float("nan")]}, '$["weird key"][0]', "/weird key/0"),
        ({"a/b~c": None, "x": [float("nan")]}, "$.x[0]", "/x/0"),
        (float("inf"), "$", ""),
    ],
)
def test_errors_name_the_json_pointer_and_path(value: Any, path: str, pointer: str) -> None:
    with pytest.raises(mm.CanonicalJSONError) as caught:
        mm.canonical_json(value)
    assert caught.value.path.startswith(path)
    assert caught.value.pointer.startswith(pointer) and str(caught.value).endswith(
        f"at {caught.value.pointer or 'the top level'}"
    )
    assert isinstance(caught.value, ValueError)


def test_a_pointer_escapes_slash_and_tilde() -> None:
    with pytest.raises(mm.CanonicalJSONError) as caught:
        mm.canonical_json({"a/b~c": [float("nan")]})
    assert caught.value.pointer == "/a~1b~0c/0"


def test_subclasses_are_written_as_the_value_they_hold() -> None:
    assert mm.canonical_json({"status": mm.PlanStatus.draft}) == b'{"status":"draft"}'
    assert mm.canonical_json({mm.PlanStepStatus.pending: mm.Timestamp("2026-01-01T00:00:00Z")}) == (
        b'{"pending":"2026-01-01T00:00:00Z"}'
    )
    assert mm.canonical_json((1, 2.0)) == b"[1,2]"
    plan = mm.parse((PAYLOADS / "plan.json").read_bytes())
    assert mm.canonical_json(plan.model_dump(exclude_unset=True)) == plan.to_json()

    class Key(str):
        def __hash__(self) -> int:
            return 0

        def __eq__(self, other: object) -> bool:
            return other is self

    with pytest.raises(mm.CanonicalJSONError, match="same text"):
        mm.canonical_json({Key("a"): 1, "a": 2})


def test_integer_policy() -> None:
    assert mm.canonical_json([2**53 - 1, -(2**53 - 1)]) == b"[9007199254740991,-9007199254740991]"
    # Beyond the safe range an integer is written only when its digits are a double's canonical text,
    # so that it reads back unchanged.
    assert mm.canonical_json([2**53, -(2**53)]) == b"[9007199254740992,-9007199254740992]"
    assert mm.canonical_json(45935306307942570) == b"45935306307942570" == mm.canonical_json(4.593530630794257e16)
    # An exponent form reads back as the double, which must then hold the integer exactly.
    assert mm.canonical_json(2**70) == b"1.1805916207174113e+21" == mm.canonical_json(2.0**70)
    for changed in (2**53 + 1, 2**60, 10**30, 10**400):
        with pytest.raises(mm.CanonicalJSONError, match="refused rather than changed"):
            mm.canonical_json(changed)


@pytest.mark.usefixtures("either_path")
def test_an_integer_field_holds_an_integral_floats_exact_value() -> None:
    # docs/canonical-json.md: an integer field takes an integral float and holds its exact value; beyond
    # 2**53 a value whose digits are not its RFC 8785 text is then refused by to_json, as the integer is.
    event = json.loads((PAYLOADS / "tool-event.json").read_bytes())
    for sent, held in (("1e20", 10**20), ("9007199254740993.0", 2**53), ("1152921504606846976.0", 2**60)):
        text = json.dumps({**event, "exit_code": 0}).replace('"exit_code": 0', f'"exit_code": {sent}')
        model = mm.ToolEvent.from_json(text)
        assert type(model.exit_code) is int and model.exit_code == held
        if held == 2**60:
            with pytest.raises(mm.CanonicalJSONError) as caught:
                model.to_json()
            assert caught.value.pointer == "/exit_code"
        else:
            assert model.to_json() == rfc8785.dumps(json.loads(text))


def test_deep_values_are_errors_not_crashes() -> None:
    deep: list[object] = []
    for _ in range(300):
        deep = [deep]
    with pytest.raises(mm.CanonicalJSONError):
        mm.canonical_json(deep)
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(mm.CanonicalJSONError, match="nested too deeply"):
        mm.canonical_json(deep)


def test_models_and_their_dicts_give_the_same_bytes(tmp_path: Path) -> None:
    from conftest import FIXTURE_OF, PAYLOADS

    for model, name in FIXTURE_OF.items():
        raw = (PAYLOADS / name).read_bytes()
        instance = model.from_json(raw)
        assert mm.canonical_json(instance) == instance.to_json() == rfc8785.dumps(json.loads(raw))
        assert model.from_json(instance.to_json()) == instance
        assert model.from_json(instance.to_json()).to_json() == instance.to_json()


# --- property tests against the rfc8785 package (a test oracle only) ----------

tricky_text = st.text(
    alphabet=st.one_of(
        st.characters(min_codepoint=0x10000, max_codepoint=0x10FFFF),
        st.characters(min_codepoint=0xE000, max_codepoint=0xFFFF),
        st.characters(max_codepoint=0x1F),
        st.sampled_from(['"', "\\", "/", "\u2028", "\u2029", "\x7f", "a", "Z", "é"]),
    ),
    max_size=8,
)
numbers = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1),
    st.sampled_from([0.0, -0.0, 1e21, 1e-7, 1e-6, 5e-324, 1.7976931348623157e308, 123456789012345680000.0]),
)
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), numbers, tricky_text),
    lambda children: st.one_of(st.lists(children, max_size=5), st.dictionaries(tricky_text, children, max_size=5)),
    max_leaves=40,
)


@settings(max_examples=examples(quick=200, deep=2000), deadline=None)
@given(json_values)
def test_same_bytes_as_the_reference_implementation(value: Any) -> None:
    assert mm.canonical_json(value) == rfc8785.dumps(value)


@settings(max_examples=examples(quick=50, deep=300), deadline=None)
@given(json_values)
def test_canonical_form_is_a_fixed_point(value: Any) -> None:
    once = mm.canonical_json(value)
    assert mm.canonical_json(json.loads(once)) == once
