"""The rules' fast checks (issue #26) give every verdict and every violation the plain rules give.

Every rules path first asks the model's cheap check whether it is plainly sound
(``RuledModel._plainly_sound``) and returns at once when it is; otherwise, and always with the
fast paths off, the plain rules (``_violations``) decide alone. The reference is ``check()`` with
the fast paths off: the same violations (place, code, message), in the same order, on generated
models built around the edges the fast checks
decide on (timestamps one field apart, of other widths and forms, equal ones; missing stamps;
repeated, unknown and self parents, cycles, parents listed before and after their children).
Zero disagreements; and the fast checks do fire, on the example trace and on a
good share of the generated ones (else they would be tested only on paper).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest
from conftest import fixture
from fast_path_switch import fast_paths
from hypothesis import given, settings
from hypothesis import strategies as st
from test_timestamp_order import draw_parts, near, text, uniform

import mplp_models as mm
from mplp_models import _rules, _trace
from mplp_models._rules import RuledModel, RuleViolation


def both_ways(model: RuledModel) -> tuple[list[RuleViolation], list[RuleViolation]]:
    with fast_paths(True):
        fast = model.check()
        assert _rules._sound(model, None) is (not fast)  # pyright: ignore[reportPrivateUsage]
    with fast_paths(False):
        plain = model.check()
    return fast, plain


def stamp_pool(rng: random.Random) -> list[mm.Timestamp]:
    """Timestamps around one instant: mostly in the form the fast checks compare as text, of one width."""
    base = uniform(draw_parts(rng))
    same_form = [text(base)] + [text(uniform(near(base, rng))) for _ in range(5)]
    other_forms = [text(near(base, rng)) for _ in range(2)]
    return same_form * 3 + other_forms


def maybe(rng: random.Random, pool: list[mm.Timestamp], none: float = 0.2) -> str | None:
    return None if rng.random() < none else rng.choice(pool)


# --- inbox messages ---

INBOX_STATUSES = ("unread", "read", "acknowledged", "archived")


def inbox_document(rng: random.Random, base: dict[str, Any]) -> dict[str, Any]:
    pool = stamp_pool(rng)
    document = copy.deepcopy(base)
    document["status"] = rng.choice(INBOX_STATUSES)
    document["created_at"] = rng.choice(pool)
    document["updated_at"] = rng.choice(pool)
    for name in ("read_at", "acknowledged_at", "archived_at"):
        document[name] = maybe(rng, pool, none=0.3)
    document["recipient_ids"] = rng.choice([["coordinator"], ["broadcast"], ["a", "broadcast"], ["broadcast", "b"]])
    return document


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_inbox_rules_agree_with_the_plain_rules(seed: int) -> None:
    rng = random.Random(seed)
    for kind in (mm.InboxMessage, mm.CodeInboxMessage):
        base = fixture(kind)
        for _ in range(10):
            # The code mode has no broadcast rule; its whole-model check, shared, says no verdict for one.
            document = inbox_document(rng, base)
            model = kind.model_validate(document, context=mm.SCHEMA_ONLY)
            fast, plain = both_ways(model)
            assert fast == plain


def test_the_inbox_fixture_is_plainly_sound() -> None:
    for kind in (mm.InboxMessage, mm.CodeInboxMessage):
        model = kind.model_validate(fixture(kind))
        with fast_paths(True):
            assert model._plainly_sound()  # pyright: ignore[reportPrivateUsage]
        with fast_paths(False):
            assert model.check() == []


def test_an_inbox_stamp_equal_to_created_at_is_sound_and_one_before_is_not() -> None:
    base = fixture(mm.InboxMessage) | {
        "status": "read",
        "created_at": "2026-03-02T15:00:00.000Z",
        "updated_at": "2026-03-02T16:00:00.000Z",
        "acknowledged_at": None,
        "archived_at": None,
    }
    for read_at, found in [
        ("2026-03-02T15:00:00.000Z", []),
        ("2026-03-02T14:59:59.999Z", [("read_at",)]),
        ("2026-03-02T15:00:00Z", []),  # another width: the plain rules decide, by instant
        ("2026-03-02T14:59:59.999999Z", [("read_at",)]),
        ("2026-03-02T15:00:00.000+00:00", []),
        ("2026-03-02T14:59:60.000Z", []),  # a leap second counts as the next minute's first
        ("2026-03-02t14:59:59.999Z", [("read_at",)]),
    ]:
        model = mm.InboxMessage.model_validate(base | {"read_at": read_at}, context=mm.SCHEMA_ONLY)
        for enabled in (True, False):
            with fast_paths(enabled):
                assert [violation.loc for violation in model.check()] == found, (read_at, enabled)


# --- traces ---


def trace_document(rng: random.Random, base: dict[str, Any]) -> dict[str, Any]:
    pool = stamp_pool(rng)
    ids = [f"{n:08x}-0000-4000-8000-{n:012x}" for n in range(1, 9)]
    count = rng.randint(0, 7)
    chosen = [rng.choice(ids) if rng.random() < 0.05 else ids[i] for i in range(count)]  # sometimes a repeat
    tree = rng.random() < 0.7  # a forest listed one way: the case the fast check proves
    after = rng.random() < 0.5  # parents listed after their children, or before
    segments = []
    parent: str | None
    for position, segment_id in enumerate(chosen):
        if tree:
            others = chosen[position + 1 :] if after else chosen[:position]
            parent = rng.choice(others) if others and rng.random() < 0.8 else None
        else:
            parent = rng.choice([None, segment_id, rng.choice(ids), *chosen])
        segment: dict[str, Any] = {
            "segment_id": segment_id,
            "label": f"segment {position}",
            "status": "completed",
            "started_at": maybe(rng, pool, none=0.1),
            "finished_at": maybe(rng, pool, none=0.1),
        }
        if parent is not None:
            segment["parent_segment_id"] = parent
        segments.append({key: value for key, value in segment.items() if value is not None})
    document = copy.deepcopy(base)
    document["segments"] = segments
    for name in ("started_at", "finished_at"):
        document.pop(name, None)
        value = maybe(rng, pool)
        if value is not None:
            document[name] = value
    if rng.random() < 0.1:
        document["root_span"]["trace_id"] = ids[0]
    return document


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_trace_rules_agree_with_the_plain_rules(seed: int) -> None:
    rng = random.Random(seed)
    base = fixture(mm.Trace)
    for _ in range(10):
        model = mm.Trace.model_validate(trace_document(rng, base), context=mm.SCHEMA_ONLY)
        fast, plain = both_ways(model)
        assert fast == plain


def inbox_plainly_sound(model: Any) -> bool:
    return bool(model._plainly_sound())  # pyright: ignore[reportPrivateUsage]


FAST_CHECKS: dict[
    str, tuple[type[RuledModel], Callable[[random.Random, dict[str, Any]], dict[str, Any]], Callable[[Any], bool]]
] = {
    "inbox": (mm.InboxMessage, inbox_document, inbox_plainly_sound),
    "trace": (mm.Trace, trace_document, _trace._plainly_sound),  # pyright: ignore[reportPrivateUsage]
}


@pytest.mark.parametrize("name", list(FAST_CHECKS))
def test_the_fast_check_fires_and_tells_apart_on_generated_payloads(name: str) -> None:
    kind, document_of, plainly_sound = FAST_CHECKS[name]
    rng, fired = random.Random(26), {True: 0, False: 0}
    base = fixture(kind)
    for _ in range(600):
        model = kind.model_validate(document_of(rng, base), context=mm.SCHEMA_ONLY)
        with fast_paths(True):
            fired[plainly_sound(model)] += 1
    assert fired[True] > 40 and fired[False] > 40, fired  # the inbox's also says no to a broadcast among others


def chain(count: int, parents_after: bool) -> dict[str, Any]:
    """A trace whose segments are one chain, listed parents last (``parents_after``) or first."""
    ids = [f"{n:08x}-0000-4000-8000-{n:012x}" for n in range(1, count + 1)]
    order = list(reversed(ids)) if parents_after else ids
    segments = [
        {"segment_id": segment_id, "label": "s", "status": "completed"}
        | ({"parent_segment_id": ids[ids.index(segment_id) - 1]} if segment_id != ids[0] else {})
        for segment_id in order
    ]
    return fixture(mm.Trace) | {"segments": segments}


def test_a_chain_listed_either_way_is_plainly_sound_and_a_cycle_is_not() -> None:
    for parents_after in (True, False):
        model = mm.Trace.model_validate(chain(6, parents_after))
        assert _trace._plainly_sound(model)  # pyright: ignore[reportPrivateUsage]
    document = chain(6, parents_after=False)
    document["segments"][0]["parent_segment_id"] = document["segments"][-1]["segment_id"]  # the root joins a loop
    model = mm.Trace.model_validate(document, context=mm.SCHEMA_ONLY)
    assert not _trace._plainly_sound(model)  # pyright: ignore[reportPrivateUsage]
    fast, plain = both_ways(model)
    assert [v.code for v in fast] == [v.code for v in plain] == ["parent_cycle"]


def test_a_tree_listed_in_mixed_order_is_plainly_sound_and_a_cycle_in_it_is_not() -> None:
    document = chain(3, parents_after=False)
    segments = document["segments"]
    document["segments"] = [segments[1], segments[0], segments[2]]  # child, root, grandchild
    model = mm.Trace.model_validate(document)
    assert _trace._plainly_sound(model)  # pyright: ignore[reportPrivateUsage]
    segments[0]["parent_segment_id"] = segments[2]["segment_id"]  # root -> grandchild -> child -> root
    model = mm.Trace.model_validate(document, context=mm.SCHEMA_ONLY)
    assert not _trace._plainly_sound(model)  # pyright: ignore[reportPrivateUsage]
    fast, plain = both_ways(model)
    assert [v.code for v in fast] == [v.code for v in plain] == ["parent_cycle"]


def test_the_example_trace_is_plainly_sound() -> None:
    model = mm.Trace.model_validate(fixture(mm.Trace))
    assert _trace._plainly_sound(model)  # pyright: ignore[reportPrivateUsage]


def test_an_inbox_message_with_mixed_offsets_is_plainly_sound_and_one_before_created_is_not() -> None:
    # created_at at +02:00 (15:00Z), the others in Z or at -05:00: the fast check compares them by their fields.
    base = fixture(mm.InboxMessage) | {"created_at": "2026-03-02T17:00:00.000+02:00"}
    for read_at, sound in [("2026-03-02T10:10:00.000-05:00", True), ("2026-03-02T09:59:59.999-05:00", False)]:
        model = mm.InboxMessage.model_validate(base | {"read_at": read_at}, context=mm.SCHEMA_ONLY)
        with fast_paths(True):
            assert model._plainly_sound() is sound  # pyright: ignore[reportPrivateUsage]
        fast, plain = both_ways(model)
        assert fast == plain == ([] if sound else [RuleViolation(("read_at",), "before_created", fast[0].message)])
