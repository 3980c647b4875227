"""What JSON values the models accept (``_json_values``): the strict walker, and the two screens held to it.

``first_problem`` is the definition (docs/canonical-json.md, "Refuse, never
convert"): JSON values as the reading gives them, subclasses being the value
they hold, nested at most ``levels`` deep. Each screen answers True only where
``first_problem`` finds nothing; ``exactly_json`` also only where orjson
writes the values as RFC 8785 does. Held to it here on random Python values of
every kind, JSON or not.
"""

from __future__ import annotations

import enum
import json
import math
from datetime import date, datetime, timezone
from decimal import Decimal
from fractions import Fraction
from typing import Any
from uuid import UUID

import orjson
import pytest
import rfc8785
from conftest import PAYLOAD_FILES, examples
from fast_path_switch import fast_paths
from hypothesis import given, settings
from hypothesis import strategies as st
from test_unordered import Ordered

import mplp_models as mm
from mplp_models._json_values import MAX_OPEN_OBJECT_DEPTH, exactly_json, first_problem, plainly_json


class Colour(enum.Enum):
    red = 1


class Level(enum.IntEnum):
    high = 3


class Word(str):
    pass


NOT_JSON = [
    b"x",
    bytearray(b"x"),
    {1, 2},
    frozenset({"a"}),
    Decimal("1.5"),
    Fraction(1, 3),
    datetime(2026, 1, 2, tzinfo=timezone.utc),
    date(2026, 1, 2),
    UUID(int=1),
    Colour.red,
    object(),
    orjson.Fragment(b"1"),  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
    float("nan"),
    float("inf"),
    -float("inf"),
    10**400,
    "a\ud800",
    {}.keys(),
]

leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(),
    st.text(max_size=4),
    st.text(st.characters(codec=None, exclude_categories=()), max_size=3),  # lone surrogates included
    st.sampled_from([*NOT_JSON, Level.high, Word("w"), mm.PlanStatus.draft, mm.Timestamp("2026-01-02T03:04:05Z")]),
)
keys = st.one_of(
    st.text(max_size=3),
    st.sampled_from(["é", "\U0001f600", "\ud800", Word("k")]),
    st.integers(0, 2),
    st.none(),
    st.just((1, 2)),
)
values = st.recursive(
    leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.dictionaries(keys, children, max_size=4),
    ),
    max_leaves=20,
)
parsed = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(), st.text(max_size=4)),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=4),
    max_leaves=20,
)


def nested(levels: int) -> Any:
    """Arrays nested ``levels`` deep (the outermost is level 1)."""
    return json.loads("[" * levels + "]" * levels)


PROPERTY = settings(max_examples=examples(quick=500, deep=5000), deadline=None)


@PROPERTY
@given(values, st.integers(1, 4))
def test_plainly_json_says_yes_only_where_the_walker_finds_nothing(value: Any, levels: int) -> None:
    if plainly_json(value, levels):
        assert first_problem(value, levels) is None


@PROPERTY
@given(parsed, st.integers(1, 4))
def test_plainly_json_of_parsed_values_says_yes_only_where_the_walker_finds_nothing(value: Any, levels: int) -> None:
    if plainly_json(value, levels, parsed=True):
        assert first_problem(value, levels) is None


@PROPERTY
@given(st.lists(values, max_size=4), st.integers(1, 4))
def test_exactly_json_says_yes_only_where_the_walker_finds_nothing_and_orjson_writes_rfc_8785(
    items: list[Any], levels: int
) -> None:
    if not exactly_json(items, levels):
        return
    for item in items:
        assert first_problem(item, levels) is None or _stops_orjson(item)
        try:
            written = orjson.dumps(item, option=orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER)
        except orjson.JSONEncodeError:
            continue  # the writing then takes its strict path
        assert written == mm.canonical_json(item) == rfc8785.dumps(item)


def _stops_orjson(value: Any) -> bool:
    try:
        orjson.dumps(value, option=orjson.OPT_STRICT_INTEGER)
    except orjson.JSONEncodeError:
        return True
    return False


@PROPERTY
@given(values)
def test_what_the_walker_accepts_is_json_that_reads_back_the_same(value: Any) -> None:
    if first_problem(value, MAX_OPEN_OBJECT_DEPTH) is not None:
        return
    written = json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8")  # raises for what JSON cannot hold
    assert json.loads(written) == value


@pytest.mark.parametrize("bad", NOT_JSON, ids=lambda value: type(value).__name__)
def test_the_walker_refuses_every_kind_and_names_its_place(bad: Any) -> None:
    value = {"a": [0, {"b": bad}]}
    problem = first_problem(value)
    assert problem is not None and problem.location == ("a", 1, "b")
    assert not plainly_json(value)
    assert not exactly_json([value]) or _stops_orjson(value)  # an integer beyond 64 bits, a lone surrogate


@pytest.mark.parametrize(
    ("value", "location", "kind"),
    [
        ({"a": {1: "one"}}, ("a", 1), "key"),
        ({"a": {(1, 2): "pair"}}, ("a", (1, 2)), "key"),
        ({"a": {"\udfff": 1}}, ("a",), "surrogate_key"),
        ({"a": (1, 2)}, ("a",), "not_json"),
        ({"a": {2}}, ("a",), "unordered"),
        ({"a": {"k": 1}.keys()}, ("a",), "unordered"),
        ({"a": Ordered(["x"])}, ("a",), "unordered"),  # any collections.abc.Set: no order to keep
    ],
)
def test_keys_tuples_and_sets_are_refused_where_they_are(value: Any, location: tuple[Any, ...], kind: str) -> None:
    problem = first_problem(value)
    assert problem is not None and (problem.location, problem.kind) == (location, kind)


def test_tuples_are_arrays_where_asked() -> None:
    assert first_problem({"a": (1, [2, (3,)])}, tuples=True) is None
    assert first_problem({"a": (1, b"x")}, tuples=True) == (("a", 1), "not_json", b"x")


@pytest.mark.parametrize("levels", [1, 2, 5, MAX_OPEN_OBJECT_DEPTH])
def test_nesting_is_refused_one_level_past_the_limit_even_when_empty(levels: int) -> None:
    assert first_problem(nested(levels), levels) is None
    with fast_paths(True):  # exactly_json, the writing's screen, says no with its fast path off
        assert plainly_json(nested(levels), levels) and exactly_json([nested(levels)], levels)
    problem = first_problem(nested(levels + 1), levels)
    assert problem is not None and problem.kind == "too_deep" and problem.location == (0,) * levels
    assert not plainly_json(nested(levels + 1), levels) and not exactly_json([nested(levels + 1)], levels)


def test_brackets_in_strings_do_not_hide_the_depth() -> None:
    # Many brackets in text, few levels: the count alone says no more than "look again".
    value = {"a": "[[[[[[", "b": ["{{{{", ["]]]]"]]}
    assert plainly_json(value, 3) and first_problem(value, 3) is None
    assert not plainly_json({"a": "x", "b": nested(3)}, 3)


bracketed = st.recursive(  # strings of brackets, quotes and escapes: what could hide a level or fake one
    st.one_of(st.none(), st.integers(-5, 5), st.text('[]{}"\\a', max_size=4)),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text('[]{}"a', max_size=2), children, max_size=3)
    ),
    max_leaves=12,
)


@PROPERTY
@given(bracketed, st.integers(1, 4))
def test_brackets_and_quotes_in_strings_leave_the_depth_as_it_is(value: Any, levels: int) -> None:
    # Parsed JSON with no float and no wide integer: nothing but the depth can make the screen say no.
    assert plainly_json(value, levels, parsed=True) == (first_problem(value, levels) is None)


def test_subclasses_are_the_value_they_hold() -> None:
    for value in (Level.high, Word("w"), mm.PlanStatus.draft, mm.Timestamp("2026-01-02T03:04:05Z"), True):
        assert first_problem({"x": value}) is None
    assert first_problem({Word("k"): 1}) is None


def test_the_screens_take_every_example_payload() -> None:
    # Not vacuous: the common documents are let through at C speed.
    for path in PAYLOAD_FILES:
        document = json.loads(path.read_bytes())
        assert first_problem(document) is None, path.name
        assert plainly_json(document) and plainly_json(document, parsed=True), path.name


def test_numbers_at_the_edges() -> None:
    assert first_problem(2**1000) is None and first_problem(10**400) is not None
    assert first_problem(-(10**400)) is not None
    assert first_problem(1e308) is None and first_problem(math.inf) is not None
    with fast_paths(True):
        assert exactly_json([0.5, 1, True]) and not exactly_json([5000.0])  # orjson writes 5000.0, RFC 8785 5000
