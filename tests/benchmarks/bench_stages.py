"""Where ``from_json``'s time goes, stage by stage, beside the naive models' ``model_validate_json``.

    .venv/bin/python tests/benchmarks/bench_stages.py           # prints the table
    .venv/bin/python tests/benchmarks/bench_stages.py --quick   # fewer rounds

For an event, an inbox message and a 1,000-message dialog (payloads.py), one
interleaved run (measure.py) times: the whole ``from_json``; each stage of its
fast path on its own (the fast reading's validator, the proof and its writing,
the rules and the model's own UniqueItems checks, asked after); the class's own validator, whose Python callbacks the
fast reading leaves out; the strict reading (the fast paths off); ``orjson.loads``
as the floor; and the naive models (naive.py). "Wrapper" is what ``from_json``
takes beyond its stages: the calls between them. bench.py calls ``stages`` and
``print_stages``.
"""

from __future__ import annotations

import argparse
import functools
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import measure
import naive
import orjson
import payloads

import mplp_models as mm
from mplp_models import _fastpath, _reader
from mplp_models._writer import every_field_writer

KINDS = ("Event", "InboxMessage", "Dialog")
STAGES = (
    "from_json",
    "naive",
    "validator",
    "own validator",
    "proof",
    "proof's writing",
    "rules",
    "strict reading",
    "orjson.loads",
)


def _strictly(model: type[mm.MplpModel], raw: bytes) -> Callable[[], object]:
    def read() -> object:
        _fastpath.ENABLED = False
        try:
            return model.from_json(raw)
        finally:
            _fastpath.ENABLED = True

    return read


def _proof(raw: bytes, model: object) -> bool:
    """The reading's proof as ``_reader.read_fast`` asks it: the counts of the model written with every field."""
    written, unset = every_field_writer(type(model))(model)
    return _reader.counts_agree(raw, raw.count(b":"), written, unset)


def _cases(model: type[mm.MplpModel], peer: Any, raw: bytes) -> dict[str, Callable[[], object]]:
    reading = _reader.fast_reading(model)
    assert reading is not None, f"{model.__name__} takes no fast reading"
    validator = reading.validator
    read = model.from_json(raw)
    assert _proof(raw, read), f"{model.__name__}: the proof does not hold"
    after = reading.after  # the unique arrays, the open objects' screen, the rules
    return {
        "from_json": functools.partial(model.from_json, raw),
        "naive": functools.partial(peer.model_validate_json, raw),
        "validator": functools.partial(validator.validate_json, raw),
        "own validator": functools.partial(model.__pydantic_validator__.validate_json, raw),
        "proof": functools.partial(_proof, raw, read),
        "proof's writing": functools.partial(every_field_writer(type(read)), read),
        "rules": functools.partial(after, read, None) if after is not None else (lambda: None),
        "strict reading": _strictly(model, raw),
        "orjson.loads": functools.partial(orjson.loads, raw),
    }


def stages(quick: bool) -> dict[str, Any]:
    """Microseconds per call of each stage, per kind, with ``from_json``'s ratio to the naive model (paired rounds)."""
    rounds, budget = (5, 0.02) if quick else (15, 0.05)
    every = payloads.every_kind()
    with tempfile.TemporaryDirectory() as folder:
        peers = naive.models(naive.generate(Path(folder) / "naive"))
        found: dict[str, Any] = {}
        for name in KINDS:
            payload = every[name]
            raw = payload.raw
            samples = measure.interleaved(_cases(getattr(mm, name), peers[name], raw), rounds, budget)
            micro = {stage: samples[stage].median * 1e6 for stage in STAGES}
            accounted = micro["validator"] + micro["proof"] + micro["rules"]
            found[name] = {
                "payload": payload.name,
                "bytes": len(raw),
                "us": micro,
                "wrapper_us": micro["from_json"] - accounted,
                "ratio": measure.ratio(samples["from_json"], samples["naive"]),
                "rounds": rounds,
            }
    return found


def print_stages(result: dict[str, Any]) -> None:
    """The table: one column per kind, µs per call, and from_json's ratio to the naive model."""
    names = list(result)
    rows = [("stage", *(f"{name} ({result[name]['bytes']:,} B)" for name in names))]
    for stage in STAGES:
        rows.append((stage, *(_us(result[name]["us"][stage]) for name in names)))
    rows.append(("wrapper (from_json - validator - proof - rules)", *(_us(result[n]["wrapper_us"]) for n in names)))
    rows.append(("from_json / naive", *(f"{result[name]['ratio']:.2f}x" for name in names)))
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for index, row in enumerate(rows):
        print(" | ".join(cell.ljust(width) for cell, width in zip(row, widths)))
        if index == 0:
            print("-+-".join("-" * width for width in widths))


def _us(value: float) -> str:
    return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer, shorter rounds")
    print_stages(stages(parser.parse_args().quick))


if __name__ == "__main__":
    main()
