"""to_json writes open objects as they are only where RFC 8785 allows it (issue #26).

The fast path (``_writer.model_members``) lets orjson write a model's open
objects and numbers as they are (or as ``prepare`` would make them) once
``written_fields`` (one model) or ``exactly_json`` (lists of models) proves
them JSON already and in canonical form; the rest takes the
strict path. Held here to the strict path (fast paths off, the full
walk) on generated models and on open objects changed in place into
anything, valid or not: the same bytes, or the same refusal at the same
pointer, and never a disagreement.
"""

from __future__ import annotations

import enum
import json
import math
import struct
from collections.abc import Callable
from datetime import date
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

import mplp_models as mm
from mplp_models import testing
from mplp_models._json_values import MAX_OPEN_OBJECT_DEPTH, es6_number, exactly_json, same_float_text
from mplp_models._writer import written_fields


class Colour(enum.Enum):
    red = 1


class Level(enum.IntEnum):
    high = 3


class Word(str):
    pass


def written(model: mm.MplpModel) -> bytes | str:
    """What ``to_json`` gives: its bytes, or its refusal and the pointer."""
    try:
        return model.to_json()
    except mm.CanonicalJSONError as refusal:
        return f"refused: {refusal} ({refusal.pointer})"


def both_ways(model: mm.MplpModel) -> tuple[bytes | str, bytes | str]:
    with fast_paths(True):
        fast = written(model)
    with fast_paths(False):
        strict = written(model)
    return fast, strict


# --- generated models ---------------------------------------------------------------------------

models_with_open_objects = st.one_of(
    testing.events(),
    testing.trace_bases(),
    testing.trace_segments(),
    testing.traces(),
    testing.learning_samples(),
    testing.token_usages(),
    testing.contexts(),
    testing.extensions(),
    testing.roles(),
    testing.plans(max_steps=4),
)


@settings(max_examples=examples(quick=300, deep=3000), deadline=None)
@given(models_with_open_objects)
def test_generated_models_are_written_the_same_both_ways(model: mm.MplpModel) -> None:
    fast, strict = both_ways(model)
    assert fast == strict
    assert isinstance(fast, bytes)
    assert rfc8785.dumps(json.loads(fast, parse_int=float)) == fast  # canonical: its own canonical form


# --- open objects changed in place --------------------------------------------------------------

floats = st.one_of(
    st.floats(),
    st.sampled_from([0.0, -0.0, 1.0, 100.0, 0.5, 1e-6, 1e-7, 1.5e-6, 1e14 + 0.5, 1e16, 1e21, 2.0**60, 5e-324]),
    st.decimals(places=3, min_value=-(10**6), max_value=10**6, allow_nan=False).map(float),
)
keys = st.one_of(
    st.text(max_size=3),
    st.sampled_from(["é", "\ue000", "\U0001f600", "\ud800", "a\x7f"]),
    st.integers(0, 2),
    st.just(Word("w")),
)
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    floats,
    st.text(max_size=4),
    st.sampled_from(
        [
            b"x",
            Decimal(1),
            10**400,
            "\udfff",
            UUID(int=1),
            date(2026, 1, 1),
            frozenset(),
            Colour.red,
            Level.high,
            mm.PlanStatus.draft,
            Word("w"),
            mm.Timestamp("2026-01-02T03:04:05Z"),
            orjson.Fragment(b"1"),  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
        ]
    ),
)
values = st.recursive(
    leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.dictionaries(keys, children, max_size=4),
    ),
    max_leaves=16,
)

# Where an open object is in a model: its class, and how to reach the dict from the model.
HOSTS: dict[str, tuple[type[mm.MplpModel], Callable[[Any], dict[str, Any]]]] = {
    "an event's data": (mm.Event, lambda model: model.data),
    "a trace base's attributes": (mm.Plan, lambda model: model.trace.attributes),
    "a segment's attributes, among many": (mm.Trace, lambda model: model.segments[1].attributes),
    "a context's constraints": (mm.Context, lambda model: model.constraints),
    "an open model's extra keys": (mm.Context, lambda model: model.root.model_extra),
    "an item of an array of open objects": (mm.LearningSample, lambda model: model.delta_intents[0]),
    "a learning sample's metadata": (mm.LearningSample, lambda model: model.metadata),
    "an extension's config": (mm.Extension, lambda model: model.config),
}


@pytest.mark.parametrize("host", list(HOSTS))
@settings(max_examples=examples(quick=150, deep=1500), deadline=None)
@given(value=values, key=st.sampled_from(["x", "steps", "é"]))
def test_an_open_object_changed_in_place_is_written_or_refused_the_same_both_ways(
    host: str, value: Any, key: str
) -> None:
    kind, reach = HOSTS[host]
    model = kind.model_validate(fixture(kind))
    reach(model)[key] = value
    fast, strict = both_ways(model)
    assert fast == strict
    if isinstance(fast, bytes):
        assert rfc8785.dumps(json.loads(fast, parse_int=float)) == fast  # numbers as the doubles they are


def test_every_host_is_written_by_the_fast_path_when_unchanged() -> None:
    # The screens must let the fixtures through as they are: else this test file holds nothing.
    # (The switch set here: under MPLP_MODELS_NO_FAST_PATHS=1 every screen says no.)
    with fast_paths(True):
        for kind, reach in HOSTS.values():
            model = kind.model_validate(fixture(kind))
            opened = reach(model)
            assert exactly_json([opened], MAX_OPEN_OBJECT_DEPTH), kind
            assert written_fields({"x": opened}, ("x",)) is None, kind  # one model's walk


# --- the screens: true only where the strict path agrees ----------------------------------------


def canonical(value: list[Any]) -> bytes | None:
    """The strict path's verdict on a list of open values: its RFC 8785 bytes, or None if refused."""
    try:
        for index, item in enumerate(value):
            refuse_non_json(item, (index,), MAX_OPEN_OBJECT_DEPTH)
        return mm.canonical_json(value)
    except mm.CanonicalJSONError:
        return None


def orjson_writes(value: list[Any]) -> bytes | None:
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER)
    except orjson.JSONEncodeError:
        return None


@settings(max_examples=examples(quick=1500, deep=15000), deadline=None)
@given(st.lists(values, max_size=4), st.integers(1, 4))
def test_what_the_screens_let_through_orjson_writes_canonically(value: list[Any], levels: int) -> None:
    with fast_paths(True):
        by_levels = exactly_json(value, levels)
    if by_levels:
        # exactly_json leaves an integer beyond +/-(2**53 - 1) and a lone surrogate to orjson,
        # which stops: the strict path then decides.
        written_by_orjson = orjson_writes(value)
        if written_by_orjson is not None:
            assert canonical(value) == written_by_orjson
        assert not _deeper_than(value, levels)


def _deeper_than(value: list[Any], levels: int) -> bool:
    try:
        for item in value:
            refuse_non_json(item, (), levels)
    except mm.CanonicalJSONError as refusal:
        return "nests deeper" in str(refusal)
    return False


def test_the_screens_take_the_common_open_objects() -> None:
    # Not only sound, also useful: what a payload holds passes (the strict path is not the common one).
    common: list[Any] = [
        {"plan_id": "3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11", "steps": 5},
        {"ratio": 0.25, "runs": 3, "ok": True, "none": None},
        {"nested": [{"a": [1, 2.5, "x"]}], "budget_usd": 1200.5},
    ]
    with fast_paths(True):
        assert exactly_json(common, MAX_OPEN_OBJECT_DEPTH)
    with fast_paths(False):
        assert not exactly_json(common, MAX_OPEN_OBJECT_DEPTH)


@pytest.mark.parametrize(
    "value",
    [
        pytest.param([1.0], id="1.0, which orjson writes 1.0 and RFC 8785 1"),
        pytest.param([-0.0], id="-0.0"),
        pytest.param([1e16], id="1e16, 1e+16 against 10000000000000000"),
        pytest.param([1e-6], id="1e-6, 1e-6 against 0.000001"),
        pytest.param([{"\U0001f600": 1, "\ue000": 2}], id="keys whose UTF-16 order is not their code points'"),
        pytest.param([float("nan")], id="NaN"),
        pytest.param([(1, 2)], id="a tuple"),
        pytest.param([{"u": UUID(int=1)}], id="a UUID"),
        pytest.param([Colour.red], id="an enum member"),
        pytest.param([orjson.Fragment(b"1")], id="a Fragment"),  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
        pytest.param([[[[1]]]], id="three levels, two allowed"),
    ],
)
def test_the_screens_refuse_what_orjson_would_write_otherwise(value: list[Any]) -> None:
    with fast_paths(True):
        assert not exactly_json(value, 2)


# --- floats: orjson's text against ECMAScript's --------------------------------------------------


def double(hex_digits: str) -> float:
    number: float = struct.unpack(">d", bytes.fromhex(hex_digits))[0]
    return number


@settings(max_examples=examples(quick=3000, deep=30000), deadline=None)
@given(floats)
def test_same_float_text_compares_the_two_texts(value: float) -> None:
    expected = math.isfinite(value) and orjson.dumps(value) == es6_number(value)
    assert same_float_text(value) is expected
    assert same_float_text(value) is expected  # and so from the cache


def test_same_float_text_of_the_zeros_and_nan() -> None:
    assert not same_float_text(0.0)
    assert not same_float_text(-0.0)
    assert not same_float_text(float("nan"))
    assert not same_float_text(float("inf"))
    assert same_float_text(0.25)
