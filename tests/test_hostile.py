"""Hostile input: nothing but a ValidationError ever comes out of from_json, parse and errors_as_json."""

from __future__ import annotations

import json

import pytest
from conftest import FIXTURE_OF, PAYLOADS, examples, load
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import mplp_models as mm

EVENT = load(PAYLOADS / "event.json")


def only_validation_errors(data: object) -> None:
    for read in (mm.parse, mm.Plan.from_json, mm.InboxMessage.from_json):
        try:
            read(data)  # type: ignore[arg-type]
        except ValidationError as error:
            for entry in mm.errors_as_json(error):
                assert entry["pointer"] == "" or entry["pointer"].startswith("/")
                # Bounded whatever the input: the longest is parse's (a key of every kind, or the keys of a tie).
                assert len(entry["message"]) < 400


@settings(max_examples=examples(quick=50, deep=400), deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes(data: bytes) -> None:
    only_validation_errors(data)


@settings(max_examples=examples(quick=50, deep=400), deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list('{}[]":,0123456789.eE+-tfnrul \\\\u') + ["\ud800", "é", "\U0001f600"]),
        max_size=60,
    )
)
def test_random_json_like_text(text: str) -> None:
    only_validation_errors(text)


@pytest.mark.parametrize("name", sorted(FIXTURE_OF.values()))
def test_every_truncation_of_a_payload(name: str) -> None:
    raw = (PAYLOADS / name).read_bytes()
    for end in range(0, len(raw), 7):
        only_validation_errors(raw[:end])


@pytest.mark.parametrize(
    "text",
    ["1e400", "-1e400", "9" * 400, "NaN", "Infinity", "-Infinity", '"\\ud800"', '{"a":1,"a":1}', "[" * 100_000],
)
def test_hostile_literals(text: str) -> None:
    document = json.dumps(dict(EVENT, data={"x": "PLACEHOLDER"})).replace('"PLACEHOLDER"', text)
    with pytest.raises(ValidationError):
        mm.Event.from_json(document)
    only_validation_errors(document)


@pytest.mark.slow
def test_a_50_mb_string_is_read_and_never_echoed_whole() -> None:
    huge = "x" * (50 * 1024 * 1024)
    event = mm.Event.from_json(json.dumps(dict(EVENT, source=huge)))
    assert len(event.source) == len(huge)
    with pytest.raises(ValidationError) as caught:
        mm.Event.from_json(json.dumps(dict(EVENT, event_type=huge.upper())))
    (entry,) = mm.errors_as_json(caught.value)
    assert entry["pointer"] == "/event_type" and len(entry["message"]) < 300


def test_a_pattern_field_with_a_1_mb_value() -> None:
    # pydantic-core's regex engine runs in linear time; a backtracking engine would not finish here.
    long_id = "IM-" + "a." * (512 * 1024)
    message = mm.InboxMessage.model_validate(dict(load(PAYLOADS / "inbox.json"), message_id=long_id))
    assert message.message_id == long_id
    with pytest.raises(ValidationError):
        mm.InboxMessage.model_validate(dict(load(PAYLOADS / "inbox.json"), message_id=long_id + "!"))


MEMORY_MULTIPLE = 4  # documented in docs/validation.md; measured at about 2


@pytest.mark.slow
def test_a_100_mb_plan_stays_within_the_documented_memory() -> None:
    # A fresh process, so that its peak resident size is this read's alone.
    script = """
import json, resource, sys
sys.path.insert(0, "tests/benchmarks")
import payloads, mplp_models as mm
payload = payloads.plan_payload(230_000)
for step in payload["steps"]:
    step["description"] *= 6
raw = json.dumps(payload).encode()
del payload
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
plan = mm.Plan.from_json(raw)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(len(raw), (after - before) * 1024, len(plan.steps))
"""
    import subprocess
    import sys

    from conftest import ROOT

    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    size, growth, steps = map(int, result.stdout.split())
    assert size > 100_000_000 and steps == 230_000
    assert growth < MEMORY_MULTIPLE * size, f"{growth / size:.1f}x the payload"
