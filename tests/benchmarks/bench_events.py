"""Lines per second: a 10,000-event NDJSON of mixed families, this SDK's ``parse`` against the naive models.

    .venv/bin/python tests/benchmarks/bench_events.py           # prints the table
    .venv/bin/python tests/benchmarks/bench_events.py --quick   # fewer rounds

The file cycles through the repository's fixtures of the ten event kinds and the three
learning-sample kinds (examples/payloads), each line with a fresh id. ``parse`` reads each line
and chooses its model by its own keys and discriminator, with the rules on; the naive models
(naive.py: datamodel-codegen's defaults) are told each line's kind beforehand, which they could
not find out themselves. A naive model that cannot be imported is reported as such: the naive
git event needs email-validator (``format: email`` becomes ``EmailStr``). Timings are medians
of interleaved rounds (measure.py).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import measure
import naive

import mplp_models as mm
from mplp_models._kinds import KINDS, Kind

LINES = 10_000
FAMILIES = [
    kind
    for kind in KINDS
    if kind.schema.startswith(("mplp/v1.0/events/", "mplp/v1.0/integration/", "mplp/v1.0/learning/"))
]
PAYLOADS = Path(__file__).resolve().parents[2] / "examples" / "payloads"


def lines(count: int = LINES) -> list[tuple[Kind, bytes]]:
    """``count`` NDJSON lines, the families in turn, each with its id field made unique."""
    documents = [(kind, json.loads((PAYLOADS / f"{kind.slug}.json").read_bytes())) for kind in FAMILIES]
    found = []
    for n in range(count):
        kind, document = documents[n % len(documents)]
        given = document[kind.id_field]
        # A UUID stays one (the naive models read ids as UUIDs, the tool event's pattern asks for one).
        unique = f"{given[:-8]}{n:08x}" if len(given) == 36 and given.count("-") == 4 else f"{given}-{n}"
        line = {**document, kind.id_field: unique}
        found.append((kind, json.dumps(line, ensure_ascii=False).encode()))
    return found


def naive_readers(folder: Path) -> tuple[dict[str, Callable[[bytes], object]], dict[str, str]]:
    """The naive model's reader of each family, and why a family has none."""
    naive.generate(folder)
    sys.path.insert(0, str(folder))
    readers: dict[str, Callable[[bytes], object]] = {}
    missing: dict[str, str] = {}
    for kind in FAMILIES:
        try:
            module = importlib.import_module(naive.module_name(kind))
        except ImportError as error:
            missing[kind.name] = str(error)
            continue
        readers[kind.name] = naive.model_of(module, kind).model_validate_json
    return readers, missing


def run(folder: Path, *, quick: bool) -> dict[str, Any]:
    data = lines()
    readers, missing = naive_readers(folder)
    for kind, line in data:  # the file is valid: every line reads as its own kind
        assert type(mm.parse(line)).__name__ == kind.name
    comparable = [(kind, line) for kind, line in data if kind.name in readers and _reads(readers[kind.name], line)]
    refused = sorted(
        {kind.name for kind, line in data if kind.name in readers and not _reads(readers[kind.name], line)}
    )

    def sdk() -> None:
        for _, line in comparable:
            mm.parse(line)

    def naive_models() -> None:
        for kind, line in comparable:
            readers[kind.name](line)

    samples = measure.interleaved({"mplp_models.parse": sdk, "naive models": naive_models}, 3 if quick else 9, 0.5)
    count = len(comparable)
    return {
        "lines": count,
        "lines_per_second": {name: count / found.median for name, found in samples.items()},
        "sdk_over_naive_time": measure.ratio(samples["mplp_models.parse"], samples["naive models"]),
        "without_naive_model": missing,
        # Valid lines a naive model refuses (a `format: uuid` read as UUID: upstream's own ids like evt-flow05-...).
        "naive_refuses_valid": refused,
    }


def _reads(reader: Callable[[bytes], object], line: bytes) -> bool:
    try:
        reader(line)
    except ValueError:  # pydantic's ValidationError
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="naive-") as tmp:
        results = run(Path(tmp), quick=args.quick)
    print_table(results)


def print_table(results: dict[str, Any]) -> None:
    print(f"{results['lines']} lines of mixed event and learning-sample families, read by both")
    for name, rate in results["lines_per_second"].items():
        print(f"  {name:<20} {rate:>10,.0f} lines/s")
    print(f"  time, SDK over naive: {results['sdk_over_naive_time']:.2f}")
    for name in results["naive_refuses_valid"]:
        print(f"  (the naive {name} refuses valid lines: left out of both)")
    for name, why in results["without_naive_model"].items():
        print(f"  (no naive {name}, left out of both: {why})")


if __name__ == "__main__":
    main()
