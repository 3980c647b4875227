"""What a ``Timestamp`` costs: its pattern, its ``str`` subclass, and the rules' comparisons (issue #26 item 2).

    .venv/bin/python tests/benchmarks/bench_timestamp.py           # prints the table
    .venv/bin/python tests/benchmarks/bench_timestamp.py --quick   # fewer rounds

Reading: the 1,000 messages of the bench's dialog (role, content, timestamp),
read by ``model_validate_json`` into three pydantic models that differ only in
the timestamp field: plain ``str`` (no check), text matched by ``Timestamp``'s
pattern (its core schema without the last step) and ``Timestamp`` (pattern,
then the ``str`` subclass). The differences, per timestamp, are the pattern's
and the subclass's costs inside a model, where a dialog's timestamps are read
(a bare ``list`` of them costs otherwise). Comparing: ``is_before`` and
``earliest_and_latest`` on the texts the payloads hold (one length, all ``Z``),
with the fast paths on (text order) and off (``instant()`` of each), and the
inbox rule's comparisons. Timings are medians of interleaved rounds
(measure.py); the ratios, medians of per-round ratios.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
from collections.abc import Callable
from typing import Annotated, Any

import measure
import payloads
from pydantic import BaseModel, GetCoreSchemaHandler
from pydantic_core import core_schema

import mplp_models as mm
from mplp_models import _fastpath
from mplp_models._formats import DATE_TIME_PATTERN
from mplp_models._timestamp_order import earliest_and_latest, is_before

COUNT = 1_000


class _PatternOnly:
    """``Timestamp``'s core schema without the subclass: the same custom error around the same pattern."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.custom_error_schema(
            core_schema.str_schema(strict=True, pattern=DATE_TIME_PATTERN),
            custom_error_type="date_time",
            custom_error_message="Input should be an RFC 3339 date-time text",
        )


class _PlainMessage(BaseModel):
    role: str
    content: str
    timestamp: str


class _PatternMessage(BaseModel):
    role: str
    content: str
    timestamp: Annotated[str, _PatternOnly()]


class _TimestampMessage(BaseModel):
    role: str
    content: str
    timestamp: mm.Timestamp


class _Plain(BaseModel):
    messages: list[_PlainMessage]


class _Pattern(BaseModel):
    messages: list[_PatternMessage]


class _Timestamps(BaseModel):
    messages: list[_TimestampMessage]


def _with_fast_paths(enabled: bool, fn: Callable[[], object]) -> Callable[[], object]:
    def call() -> object:
        saved, _fastpath.ENABLED = _fastpath.ENABLED, enabled
        try:
            return fn()
        finally:
            _fastpath.ENABLED = saved

    return call


def run(quick: bool) -> dict[str, Any]:
    rounds, budget = (7, 0.002) if quick else (31, 0.005)
    dialog = payloads.dialog_payload(COUNT)
    messages = dialog["messages"]
    raw = json.dumps({"messages": messages}).encode()
    dialog_raw = json.dumps(dialog).encode()
    models: dict[str, type[BaseModel]] = {"str": _Plain, "pattern": _Pattern, "Timestamp": _Timestamps}
    read = {name: model.model_validate_json(raw).model_dump() for name, model in models.items()}
    assert read["str"] == read["pattern"] == read["Timestamp"] == {"messages": messages}
    try:
        _Pattern.model_validate_json(raw.replace(b"2026-03-02T", b"2026-02-30T", 1))
        raise AssertionError("the pattern-only model takes 30 February")
    except ValueError:
        pass
    cases: dict[str, Callable[[], object]] = {
        name: functools.partial(model.model_validate_json, raw) for name, model in models.items()
    }
    cases["Dialog.from_json"] = functools.partial(mm.Dialog.from_json, dialog_raw)
    reads = measure.interleaved(cases, rounds, budget)
    values = [message.timestamp for message in _Timestamps.model_validate_json(raw).messages]
    inbox = mm.InboxMessage.from_json(json.dumps(payloads.inbox_payload()).encode())
    pairs = [(values[i], values[i + 1]) for i in range(0, COUNT - 1, 2)]

    def compare_pairs() -> None:
        for first, second in pairs:
            is_before(first, second)

    def inbox_rule() -> None:  # what _inbox's rule compares: each later stamp against created_at
        created = inbox.created_at
        for later in (inbox.updated_at, inbox.read_at, inbox.acknowledged_at, inbox.archived_at):
            if later is not None:
                is_before(later, created)

    compares = measure.interleaved(
        {
            "is_before, text (fast paths on)": _with_fast_paths(True, compare_pairs),
            "is_before, instant (fast paths off)": _with_fast_paths(False, compare_pairs),
            "inbox rule's comparisons, on": _with_fast_paths(True, inbox_rule),
            "inbox rule's comparisons, off": _with_fast_paths(False, inbox_rule),
            "earliest_and_latest, on": _with_fast_paths(True, functools.partial(earliest_and_latest, values)),
            "earliest_and_latest, off": _with_fast_paths(False, functools.partial(earliest_and_latest, values)),
        },
        rounds,
        budget,
    )

    def per_stamp(slower: str, faster: str) -> float:
        """The median over rounds of the two batches' difference, per timestamp: the noise of a round falls on both."""
        values = reads[slower].values, reads[faster].values
        return statistics.median(a - b for a, b in zip(*values)) / COUNT

    median = {name: s.median for name, s in compares.items()}
    return {
        "count": COUNT,
        "cases": {name: s.summary() for name, s in {**reads, **compares}.items()},
        "per_stamp": {
            "pattern": per_stamp("pattern", "str"),
            "subclass": per_stamp("Timestamp", "pattern"),
            "is_before, text": median["is_before, text (fast paths on)"] / len(pairs),
            "is_before, instant": median["is_before, instant (fast paths off)"] / len(pairs),
        },
        "subclass_share_of_dialog": statistics.median(
            (t - p) / d
            for t, p, d in zip(reads["Timestamp"].values, reads["pattern"].values, reads["Dialog.from_json"].values)
        ),
        "timestamp_vs_pattern": measure.ratio(reads["Timestamp"], reads["pattern"]),
        "pattern_vs_str": measure.ratio(reads["pattern"], reads["str"]),
    }


def print_table(result: dict[str, Any]) -> None:
    print(f"\nTimestamp: {result['count']:,} dialog messages read, and their timestamps compared (medians)")
    for name, case in result["cases"].items():
        print(f"  {name:<40} {case['median'] * 1e6:10.2f} µs")
    for name, value in result["per_stamp"].items():
        print(f"  per timestamp: {name:<25} {value * 1e9:8.0f} ns")
    print(
        f"  read, Timestamp / pattern only {result['timestamp_vs_pattern']:.3f}; "
        f"pattern only / str {result['pattern_vs_str']:.3f}; the subclasses' share of Dialog.from_json "
        f"{result['subclass_share_of_dialog']:.1%}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    print_table(run(parser.parse_args().quick))


if __name__ == "__main__":
    main()
