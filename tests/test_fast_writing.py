"""The writer's one-walk proof of a model's loose fields (``_writer.written_fields``, issue #26).

``written_fields`` proves and prepares the numbers and open objects of one
model in a single walk, writing an integral float such as ``5000.0`` as the
integer ``5000`` (RFC 8785's text for it) instead of sending the model down the
strict path. Held here to the strict path (``refuse_non_json`` and
``canonical_json``, the full walk) on generated values, to ECMAScript's texts
written out by hand, and to ``to_json`` with the strict path forbidden.
"""

from __future__ import annotations

import copy
import json
import math
from decimal import Decimal
from typing import Any
from uuid import UUID

import orjson
import pytest
import rfc8785
from conftest import examples, fixture
from fast_path_switch import fast_paths
from hypothesis import given, settings
from hypothesis import strategies as st
from strict_json import refuse_non_json
from test_open_object_writing import Word  # a str subclass: orjson stops at a key of one

import mplp_models as mm
from mplp_models import _writer
from mplp_models._json_values import MAX_OPEN_OBJECT_DEPTH
from mplp_models._writer import Unproven, written_fields, written_object

# to_json's options on its fast path (_writer._FAST).
FAST = orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER


def strict(value: Any) -> bytes | None:
    """The strict path's verdict on a loose field's value (fast paths off): its RFC 8785 bytes, or None if refused."""
    items = list(value) if isinstance(value, tuple) else [value]  # a model's own array: each item an open object
    try:
        with fast_paths(False):
            for index, item in enumerate(items):
                refuse_non_json(item, (index,), MAX_OPEN_OBJECT_DEPTH)
            return mm.canonical_json(items if isinstance(value, tuple) else value)
    except mm.CanonicalJSONError:
        return None


def fast(value: Any, enabled: bool = True) -> bytes | type[Unproven] | None:
    """What the walk makes of ``value`` as the field ``x``.

    That is orjson's bytes of it, None where orjson stops, or ``Unproven``.
    """
    members = {"x": value}
    try:
        with fast_paths(enabled):
            changes = written_fields(members, ("x",))
    except Unproven:
        return Unproven
    written = value if changes is None else changes["x"]
    try:
        return orjson.dumps(written, option=FAST)
    except orjson.JSONEncodeError:  # to_json then takes the strict path
        return None


# --- integral floats: ECMAScript's texts, written out ------------------------------------------

ECMASCRIPT_TEXTS = [
    (5000.0, b"5000"),
    (1.0, b"1"),
    (100.0, b"100"),
    (-3.0, b"-3"),
    (0.0, b"0"),
    (-0.0, b"0"),  # Number::toString(-0) is "0"
    (9007199254740991.0, b"9007199254740991"),  # 2**53 - 1
    (-9007199254740991.0, b"-9007199254740991"),
    (1e15, b"1000000000000000"),
    (1e21, b"1e+21"),  # beyond 2**53: not an int, an ECMAScript text
    (9007199254740992.0, b"9007199254740992"),  # 2**53: written as its text, not as an int (orjson would stop)
    (0.5, b"0.5"),
    (1234.5, b"1234.5"),
    (1e-7, b"1e-7"),
    (1.5e300, b"1.5e+300"),
]


@pytest.mark.parametrize(("value", "text"), ECMASCRIPT_TEXTS)
def test_a_float_is_written_as_ecmascript_writes_it(value: float, text: bytes) -> None:
    assert fast(value) == text
    assert fast({"n": value}) == b'{"n":' + text + b"}"
    assert fast([value, 1]) == b"[" + text + b",1]"
    assert fast(({"n": value},)) == b'[{"n":' + text + b"}]"


@pytest.mark.parametrize("value", [5000.0, 1.0, -0.0, 9007199254740991.0, -9007199254740991.0])
def test_an_integral_float_within_the_safe_range_becomes_an_int(value: float) -> None:
    with fast_paths(True):
        changes = written_fields({"x": value}, ("x",))
    assert changes is not None
    assert type(changes["x"]) is int
    assert changes["x"] == value


@settings(max_examples=examples(quick=2000, deep=20000), deadline=None)
@given(st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1))
def test_orjson_writes_an_int_as_its_decimal_digits(value: int) -> None:
    # The proof's one fact about orjson: an int within the safe range is written as str(int).
    assert orjson.dumps(value, option=FAST) == str(value).encode()
    assert orjson.dumps(float(value), option=FAST) != str(value).encode()  # ...where its float is not


@settings(max_examples=examples(quick=2000, deep=20000), deadline=None)
@given(st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1))
def test_an_integral_float_is_written_as_rfc8785_does(value: int) -> None:
    assert fast(float(value)) == rfc8785.dumps(float(value))


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_floats_are_left_to_the_exact_path(value: float) -> None:
    assert fast(value) is Unproven
    assert fast({"n": [value]}) is Unproven


# --- the walk against the strict path -----------------------------------------------------------

floats = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(min_value=-(2**54), max_value=2**54).map(float),
    st.sampled_from([0.0, -0.0, 5000.0, 1e16, 1e21, 2.0**53, 2.0**60, 5e-324, 0.1]),
)


keys = st.one_of(  # beyond U+FFFF only among the poison below
    st.text(st.characters(max_codepoint=0xFFFF, exclude_categories=["Cs"]), max_size=3),
    st.sampled_from(["é", "\ue000", "\uffff"]),
)
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    floats,
    st.text(max_size=4),
)
values = st.recursive(
    leaves,
    lambda children: st.one_of(st.lists(children, max_size=20), st.dictionaries(keys, children, max_size=20)),
    max_leaves=24,  # up to 20 members: past _WALKED_MOST (16), where exactly_json is tried first
)
# What no open object read from JSON holds, one at a time, so that most values reach the walk's end:
# a value or a key of another class (orjson stops at a key of a str subclass; a tuple is no open
# object's), NaN and infinities, a lone surrogate, a key beyond U+FFFF (RFC 8785 sorts by UTF-16).
poison = st.sampled_from(
    [b"x", Decimal(1), UUID(int=1), mm.PlanStatus.draft, frozenset(), (1,), "\udfff", Word("w"), math.nan, -math.inf]
)
bad_keys = st.sampled_from(["\U0001f600", "\ud800", 0, Word("w")])
poisoned = st.one_of(
    st.builds(lambda value, bad: {"v": value, "bad": bad}, values, poison),
    st.builds(lambda value, key: {key: value, "v": 1}, values, bad_keys),
)
fields = st.one_of(values, values, poisoned, st.lists(st.dictionaries(keys, values, max_size=4), max_size=3).map(tuple))


@settings(max_examples=examples(quick=200, deep=3000), deadline=None)
@given(fields)
def test_the_walk_writes_what_the_strict_path_writes(value: Any) -> None:
    before = repr(value)
    written = fast(value)
    assert repr(value) == before  # the value itself is never changed
    if written is Unproven or written is None:
        return  # the strict path decides
    assert written == strict(value)
    try:
        canonical = rfc8785.dumps(json.loads(written))  # the reference's own canonical form of the text
    except rfc8785.IntegerDomainError:  # an integer beyond 2**53, which rfc8785 does not write
        return
    assert written == canonical


@pytest.mark.parametrize(
    "value",
    [
        {"\U0001f600": 1, "\ue000": 2},  # UTF-16 order (RFC 8785) is not code point order (orjson)
        [{"a": {"\U0001f600": 1, "\uffff": 2}}],
        {"x": (1, 2)},  # a tuple inside an open object is no JSON array
        {"x": mm.PlanStatus.draft},
        {1: "a"},
    ],
)
def test_what_orjson_would_write_otherwise_is_left_to_the_exact_path(value: Any) -> None:
    assert fast(value) is Unproven


def test_keys_beyond_ascii_within_the_bmp_are_written_as_they_are() -> None:
    assert fast({"\ue000": 1, "é": 2.0, "a": [0.0]}) == strict({"\ue000": 1, "é": 2.0, "a": [0.0]})
    assert fast({"\ue000": 1, "é": 2.0}) == '{"é":2,"\ue000":1}'.encode()


def test_deep_nesting_is_left_to_the_exact_path() -> None:
    deep: Any = 1
    for _ in range(MAX_OPEN_OBJECT_DEPTH):
        deep = {"a": deep}
    assert fast(deep) == strict(deep) != None  # noqa: E711  # 128 levels: written
    assert fast({"a": deep}) is Unproven  # 129: refused by the strict path
    assert strict({"a": deep}) is None


def test_with_the_fast_paths_off_nothing_is_proven() -> None:
    assert fast({"n": 1}, enabled=False) is Unproven
    assert fast({"n": 1}) == b'{"n":1}'


# --- to_json: the walk, not the strict path -----------------------------------------------------


def test_a_learning_sample_with_integral_floats_is_written_without_the_strict_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    payload = copy.deepcopy(fixture(mm.LearningSample))
    payload["token_usage"] = {"total_tokens": 15000, "completion_tokens": 5000.0, "prompt_tokens": 10000}
    payload["metadata"] = {"weights": {"speed": 1.0, "quality": 0.5}, "runs": [2.0, -0.0]}
    payload["execution_time_ms"] = 1200.0
    sample = mm.LearningSample.model_validate(payload)
    # Recorded, not raised: orjson would turn an error in its hook into the strict path's writing.
    exact: list[object] = []
    strictly = _writer.strictly_written

    def recorded(*args: Any) -> Any:
        exact.append(args)
        return strictly(*args)

    monkeypatch.setattr(_writer, "strictly_written", recorded)
    with fast_paths(True):
        written = sample.to_json()
    assert exact == []
    assert b'"completion_tokens":5000,' in written
    assert b'"weights":{"quality":0.5,"speed":1}' in written
    assert b'"runs":[2,0]' in written
    assert b'"execution_time_ms":1200,' in written
    assert written == rfc8785.dumps(json.loads(written))  # canonical: its own canonical form
    monkeypatch.undo()
    with fast_paths(False):
        assert sample.to_json() == written


@pytest.mark.parametrize("count", [1, 2, 7, 8, 9, 20])
def test_lists_of_models_short_and_long_are_written_the_same_both_ways(count: int) -> None:
    # Fewer than _writer._BULK_LEAST items are left to model_members one by one; more are taken in bulk.
    payload = copy.deepcopy(fixture(mm.LearningSample))
    payload["token_usage"] = {
        "total_tokens": 10.0,
        "by_agent": [
            {"agent_id": f"a{i}", "tokens": float(i)} if i % 2 else {"agent_id": f"a{i}", "role": "r", "tokens": i}
            for i in range(count)
        ],
    }
    sample = mm.LearningSample.model_validate(payload)
    with fast_paths(True):
        written = sample.to_json()
    with fast_paths(False):
        assert sample.to_json() == written
    assert written == rfc8785.dumps(json.loads(written))


# --- an open model's extra keys: the same walk, over one open object -----------------------------


@settings(max_examples=examples(quick=200, deep=3000), deadline=None)
@given(st.one_of(st.dictionaries(keys, values, max_size=20), poisoned))
def test_extra_keys_are_walked_as_the_strict_path_writes_them(value: dict[Any, Any]) -> None:
    before = repr(value)
    try:
        with fast_paths(True):
            prepared = written_object(value)
    except Unproven:
        return  # the strict path decides
    assert repr(value) == before  # the value itself is never changed
    try:
        written = orjson.dumps(prepared, option=FAST)
    except orjson.JSONEncodeError:
        return  # the strict path decides
    assert written == strict(value)


@pytest.mark.parametrize("value", [{"\U0001f600": 1}, {"x": (1,)}, {"x": math.nan}, {Word("w"): 1}])
def test_extra_keys_the_walk_cannot_prove_are_left_to_the_exact_path(value: dict[Any, Any]) -> None:
    with fast_paths(True), pytest.raises(Unproven):
        written_object(value)
    with fast_paths(False), pytest.raises(Unproven):
        written_object({"n": 1})


def test_a_context_roots_extra_keys_are_written_the_same_both_ways() -> None:
    payload = copy.deepcopy(fixture(mm.Context))
    payload["root"] = {**payload["root"], "budget": 1200.0, "ratio": 0.1, "nested": {"b": [2.0, -0.0], "a": None}}
    context = mm.Context.model_validate(payload)
    with fast_paths(True):
        written = context.to_json()
    with fast_paths(False):
        assert context.to_json() == written
    assert b'"budget":1200,' in written
    assert b'"nested":{"a":null,"b":[2,0]}' in written
    assert written == rfc8785.dumps(json.loads(written))


# --- the given fields: the optional ones dropped, the count proving the rest ---------------------


TRACE, SPAN = "3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11", "3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c12"


def test_a_field_not_given_is_not_written_though_it_is_required() -> None:
    # The plan drops the optional fields not given, then counts: a required field not among the
    # given (a fields set changed in place) sends the model to the field-by-field drop.
    span = mm.TraceBase.model_validate({"trace_id": TRACE, "span_id": SPAN, "attributes": {"a": 1.0}})
    span.__pydantic_fields_set__.discard("trace_id")
    with fast_paths(True):
        written = span.to_json()
    with fast_paths(False):
        assert span.to_json() == written
    assert written == b'{"attributes":{"a":1},"span_id":"' + SPAN.encode() + b'"}'


def test_a_name_put_in_the_fields_set_in_place_does_not_count_for_a_field() -> None:
    # As many names as before, one of them no field's: the plan's check compares the names, not their count.
    span = mm.TraceBase.model_validate({"trace_id": TRACE, "span_id": SPAN, "attributes": {"a": 1}})
    span.__pydantic_fields_set__.discard("trace_id")
    span.__pydantic_fields_set__.add("bogus")
    with fast_paths(True):
        written = span.to_json()
    with fast_paths(False):
        assert span.to_json() == written
    assert written == b'{"attributes":{"a":1},"span_id":"' + SPAN.encode() + b'"}'


@pytest.mark.parametrize("count", [8, 9, 20])
def test_items_given_as_many_but_different_fields_are_written_each_with_its_own(count: int) -> None:
    # The bulk path compares each item's given fields with the first's (one set comparison per
    # item): here every participant gives three fields, half of them other ones.
    payload = copy.deepcopy(fixture(mm.Collab))
    payload["participants"] = [
        {"participant_id": f"p{i}", "kind": "agent", "display_name": f"P {i}"}
        if i % 2
        else {"participant_id": f"p{i}", "kind": "human", "role_id": f"r{i}"}
        for i in range(count)
    ]
    collab = mm.Collab.model_validate(payload)
    with fast_paths(True):
        written = collab.to_json()
    with fast_paths(False):
        assert collab.to_json() == written
    participants = json.loads(written)["participants"]
    assert participants == payload["participants"]  # given fields only, none written as null
