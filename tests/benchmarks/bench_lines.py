"""Lines per second on a mixed stream of every kind: per kind and overall, one job and two, against the floors.

    .venv/bin/python tests/benchmarks/bench_lines.py           # prints the tables
    .venv/bin/python tests/benchmarks/bench_lines.py --quick   # fewer rounds

make bench runs it too (``run``). The stream cycles through every kind's example
(examples/payloads; the trace context from the plan's), each line with its id
made unique, and an inbox message whose stamps mix offsets (``+02:00``,
``-05:00`` and ``Z``) as a kind of its own.

* In process, per kind and overall: ``orjson.loads`` (the floor: JSON to dicts,
  nothing checked), the kind's ``from_json``, ``mm.parse`` (which also tells the
  kind) and the naive models' ``model_validate_json`` (naive.py: datamodel-codegen's
  defaults, told each line's kind beforehand), one call per line; overall also
  ``check_lines`` of all the lines at once (which checks the lines that look
  alike side by side). A naive model
  that cannot import (the git event's needs email-validator) or refuses the
  example (ids read as UUIDs) leaves its kind out of the naive column and out of
  the overall comparison with it.
* The command, whole processes (start-up included, as a user waits for it):
  ``validate --ndjson`` with ``--jobs 1`` and ``--jobs 2`` on 40,000 lines (one
  in 25 made invalid), beside two ceilings: the same ``check_lines`` split over
  two processes that already hold the lines (a forked pool, no reading, no
  output, no hand-off), and over two whole processes that each read the file
  and check half of it (start-up included, no output, no hand-off).
* ``check_lines`` on a local Dask cluster of 1 and 2 workers, over the same file:
  one ``compute`` on a cluster that is already up and has read once (its
  start-up reported beside it), the verdicts gathered back into this process.

Timings are medians of interleaved rounds (measure.py); a ratio is the median
of the per-round ratios.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import multiprocessing
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import measure
import naive
import orjson

import mplp_models as mm
from mplp_models._kinds import KINDS

LINES = 40_000  # the command's file
BAD_EVERY = 25  # one line in BAD_EVERY of the file is invalid
PER_KIND = 64  # distinct lines of each kind in process
PARTITIONS = 8  # Dask partitions of the file: enough for two workers to share evenly
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "payloads"
MIXED_OFFSETS = "InboxMessage, mixed offsets"


def examples() -> dict[str, tuple[type[mm.MplpModel], str, dict[str, Any]]]:
    """Label -> (model, id field, example document): every kind, and the inbox message with mixed offsets."""
    found: dict[str, tuple[type[mm.MplpModel], str, dict[str, Any]]] = {}
    for kind in KINDS:
        path = EXAMPLES / f"{kind.slug}.json"
        if path.exists():
            found[kind.name] = (kind.model, kind.id_field, json.loads(path.read_bytes()))
    trace = json.loads((EXAMPLES / "plan.json").read_bytes())["trace"]
    found["TraceBase"] = (mm.TraceBase, "span_id", trace)
    inbox = json.loads((EXAMPLES / "inbox.json").read_bytes())
    found[MIXED_OFFSETS] = (
        mm.InboxMessage,
        "message_id",
        {**inbox, "created_at": "2026-03-02T17:00:00.000+02:00", "read_at": "2026-03-02T10:10:00.000-05:00"},
    )
    return found


def line_of(document: dict[str, Any], id_field: str, n: int) -> bytes:
    """The document as one line, its id made unique where its rules allow (a trace's root span repeats its id)."""
    if not _unique_ids_valid(id_field, orjson.dumps(document)):
        return orjson.dumps(document)
    return orjson.dumps({**document, id_field: _unique(document[id_field], n)})


def _unique(given: str, n: int) -> str:
    # A UUID stays a UUID: the naive models read some ids as UUIDs, and the tool event's pattern asks for one.
    return f"{given[:-8]}{n:08x}" if len(given) == 36 and given.count("-") == 4 else f"{given}-{n}"


@functools.cache
def _unique_ids_valid(id_field: str, example: bytes) -> bool:
    document = orjson.loads(example)
    try:
        for n in (0, 1):  # one of them differs from the example's own id
            mm.parse(orjson.dumps({**document, id_field: _unique(document[id_field], n)}))
    except ValueError:  # pydantic's ValidationError
        return False
    return True


def stream(count: int) -> list[tuple[str, bytes]]:
    """(label, line): ``count`` lines, the labels of ``examples`` in turn."""
    documents = list(examples().items())
    return [
        (label, line_of(document, field, n))
        for n, (label, (_, field, document)) in ((n, documents[n % len(documents)]) for n in range(count))
    ]


def naive_readers(folder: Path) -> tuple[dict[str, Callable[[bytes], object]], dict[str, str]]:
    """The naive reader of each label whose naive model imports and reads its example; why the others have none."""
    naive.generate(folder)
    models = naive.models(folder)
    readers: dict[str, Callable[[bytes], object]] = {}
    missing: dict[str, str] = {}
    for label, (model, field, document) in examples().items():
        peer = models.get(model.__name__)
        if peer is None:
            missing[label] = "the naive model does not import"
            continue
        try:
            peer.model_validate_json(line_of(document, field, 0))
        except ValueError:
            missing[label] = "the naive model refuses the example"
            continue
        readers[label] = peer.model_validate_json
    return readers, missing


def _each(read: Callable[[bytes], object], lines: list[bytes]) -> Callable[[], None]:
    def run() -> None:
        for line in lines:
            read(line)

    return run


def _each_of(reads: list[Callable[[bytes], object]], lines: list[bytes]) -> Callable[[], None]:
    pairs = list(zip(reads, lines))

    def run() -> None:
        for read, line in pairs:
            read(line)

    return run


def in_process(folder: Path, rounds: int, budget: float) -> dict[str, Any]:
    """Per kind and overall: lines per second of the floors and the SDK, and the ratios per line."""
    readers, missing = naive_readers(folder)
    table = examples()
    kinds: dict[str, Any] = {}
    for label, (model, field, document) in table.items():
        lines = [line_of(document, field, n) for n in range(PER_KIND)]
        assert type(mm.parse(lines[0])) is model, label
        cases: dict[str, Callable[[], object]] = {
            "orjson.loads": _each(orjson.loads, lines),
            "from_json": _each(model.from_json, lines),
            "parse": _each(mm.parse, lines),
        }
        if label in readers:
            cases["naive"] = _each(readers[label], lines)
        kinds[label] = _rates_and_ratios(measure.interleaved(cases, rounds, budget), len(lines))
    mixed = stream(len(table) * PER_KIND)
    comparable = [(label, line) for label, line in mixed if label in readers]
    every = [line for _, line in mixed]
    cases = {
        "orjson.loads": _each(orjson.loads, every),
        "parse": _each(mm.parse, every),
        "check_lines": functools.partial(mm.check_lines, every),
        "orjson.loads, the naive's lines": _each(orjson.loads, [line for _, line in comparable]),
        "parse, the naive's lines": _each(mm.parse, [line for _, line in comparable]),
        "naive": _each_of([readers[label] for label, _ in comparable], [line for _, line in comparable]),
    }
    samples = measure.interleaved(cases, rounds, budget)
    overall = {
        "lines": len(every),
        "naive_lines": len(comparable),
        "lines_per_second": {
            name: (len(comparable) if "naive" in name else len(every)) / found.median for name, found in samples.items()
        },
        "parse_vs_orjson": measure.ratio(samples["parse"], samples["orjson.loads"]),
        "check_lines_vs_orjson": measure.ratio(samples["check_lines"], samples["orjson.loads"]),
        "naive_vs_orjson": measure.ratio(samples["naive"], samples["orjson.loads, the naive's lines"]),
        "parse_vs_orjson_on_the_naive_lines": measure.ratio(
            samples["parse, the naive's lines"], samples["orjson.loads, the naive's lines"]
        ),
        "parse_vs_naive": measure.ratio(samples["parse, the naive's lines"], samples["naive"]),
    }
    return {"kinds": kinds, "overall": overall, "without_naive": missing}


def _rates_and_ratios(samples: dict[str, measure.Samples], count: int) -> dict[str, Any]:
    floor = samples["orjson.loads"]
    found: dict[str, Any] = {
        "lines_per_second": {name: count / s.median for name, s in samples.items()},
        "parse_vs_orjson": measure.ratio(samples["parse"], floor),
        "from_json_vs_orjson": measure.ratio(samples["from_json"], floor),
    }
    if "naive" in samples:
        found["naive_vs_orjson"] = measure.ratio(samples["naive"], floor)
        found["parse_vs_naive"] = measure.ratio(samples["parse"], samples["naive"])
        found["from_json_vs_naive"] = measure.ratio(samples["from_json"], samples["naive"])
    return found


# --- the command, and its ceilings ----------------------------------------------------------------


def write_input(path: Path, count: int = LINES) -> tuple[int, int]:
    """Write the NDJSON file of the command; the number of lines and of invalid ones (closed kinds refuse the key)."""
    bad = 0
    with path.open("wb") as out:
        for n, (label, line) in enumerate(stream(count)):
            if n % BAD_EVERY == BAD_EVERY - 1:
                line = b'{"unknown":1,' + line[1:]
                bad += examples()[label][0].model_config.get("extra") == "forbid"
            out.write(line + b"\n")
    return count, bad


# A whole process that checks the file's lines, split over N processes forked once the file is read:
# start-up included, but no hand-off and no output (the ceiling of the command on this machine).
_SPLIT = """
import os, sys
import mplp_models as mm
lines = open(sys.argv[1], "rb").read().split(b"\\n")
jobs = int(sys.argv[2])
children = []
for share in range(1, jobs):
    pid = os.fork()
    if pid == 0:
        mm.check_lines(lines[share::jobs])
        os._exit(0)
    children.append(pid)
mm.check_lines(lines[0::jobs])
for pid in children:
    os.waitpid(pid, 0)
"""


def commands(path: Path) -> dict[str, list[str]]:
    validate = [sys.executable, "-m", "mplp_models", "validate", "--ndjson", "--no-progress", str(path), "--jobs"]
    found = {f"validate --jobs {jobs}": [*validate, str(jobs)] for jobs in (1, 2)}
    found.update(
        {f"ceiling, {jobs} whole processes": [sys.executable, "-c", _SPLIT, str(path), str(jobs)] for jobs in (1, 2)}
    )
    return found


def cli_counts(path: Path, lines: int, bad: int) -> None:
    for jobs in (1, 2):
        command = commands(path)[f"validate --jobs {jobs}"]
        done = subprocess.run(command, capture_output=True, check=False)
        summary = done.stderr.decode().strip().splitlines()[-1]
        wanted = f"{lines - bad} valid, {bad} invalid"
        assert done.returncode == 1 and wanted in summary, f"--jobs {jobs}: {summary!r}, not {wanted!r}"


def _process(command: list[str]) -> Callable[[], object]:
    return lambda: subprocess.run(command, capture_output=True, check=False)


_HELD: list[bytes] = []  # the file's lines, for the forked processes of the in-process ceiling


def _check_share(share: int) -> None:
    mm.check_lines(_HELD[share::2])


def held_ceiling(path: Path, rounds: int) -> dict[str, Any]:
    """check_lines of every line in this process, and split over two forked processes that already hold them."""
    _HELD[:] = path.read_bytes().split(b"\n")
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(_check_share, [0, 1])  # warm: each process has read each kind once
        mm.check_lines(_HELD)
        samples = measure.interleaved(
            {
                "check_lines, 1 process": functools.partial(mm.check_lines, _HELD),
                "check_lines, 2 processes holding the lines": functools.partial(pool.map, _check_share, [0, 1]),
            },
            rounds,
            0,
        )
    _HELD.clear()
    return {
        "cases": {name: s.summary() for name, s in samples.items()},
        "speedup": measure.ratio(
            samples["check_lines, 1 process"], samples["check_lines, 2 processes holding the lines"]
        ),
    }


def dask_cases(path: Path, stack: ExitStack) -> tuple[dict[str, Callable[[], list[Any]]], dict[str, float]]:
    """A compute of check_lines over the file on each cluster (1 and 2 workers); the start-up seconds of each."""
    import dask.bag
    from distributed import Client, LocalCluster

    blocksize = math.ceil(path.stat().st_size / PARTITIONS)
    cases: dict[str, Callable[[], list[Any]]] = {}
    started: dict[str, float] = {}
    for workers in (1, 2):
        name = f"Dask, {workers} worker{'s' if workers > 1 else ''}"
        start = time.perf_counter()
        cluster = stack.enter_context(
            LocalCluster(
                n_workers=workers,
                processes=True,
                threads_per_worker=1,
                host="127.0.0.1",
                dashboard_address="127.0.0.1:0",
            )
        )
        client = stack.enter_context(Client(cluster, set_as_default=False))
        started[name] = time.perf_counter() - start
        bag = dask.bag.read_text(
            str(path), blocksize=blocksize, encoding="utf-8", errors="surrogateescape", linedelimiter="\n"
        )
        parts = bag.map_partitions(mm.check_lines).to_delayed()

        def compute(client: Client = client, parts: list[Any] = parts) -> list[Any]:
            return [verdict for part in client.gather(client.compute(parts)) for verdict in part]

        cases[name] = compute
    return cases, started


def check_counts(cases: dict[str, Callable[[], list[Any]]], lines: int, bad: int) -> None:
    """Each cluster gives a verdict on every line, and finds exactly the invalid ones."""
    for name, compute in cases.items():
        verdicts = compute()
        found = (len(verdicts), sum(not verdict.ok for verdict in verdicts))
        assert found == (lines, bad), f"{name}: {found} verdicts and invalid ones, not {(lines, bad)}"


def run(folder: Path, *, quick: bool) -> dict[str, Any]:
    """Measure every case (files and the naive models in ``folder``); print the tables and return the results."""
    rounds, budget = (5, 0.005) if quick else (15, 0.01)
    result: dict[str, Any] = {"in_process": in_process(folder / "naive", rounds, budget)}
    path = folder / "every-kind.ndjson"
    lines, bad = write_input(path)
    cli_counts(path, lines, bad)
    # The commands exit 1 (the file has invalid lines, as cli_counts checked): timed whatever their status.
    runs = {name: _process(command) for name, command in commands(path).items()}
    samples = measure.interleaved(runs, 3 if quick else 7, 0)
    command: dict[str, Any] = {
        "lines": lines,
        "invalid": bad,
        "bytes": path.stat().st_size,
        "cases": {name: {**s.summary(), "lines_per_second": lines / s.median} for name, s in samples.items()},
        "jobs2_speedup": measure.ratio(samples["validate --jobs 1"], samples["validate --jobs 2"]),
        "whole_process_ceiling": measure.ratio(
            samples["ceiling, 1 whole processes"], samples["ceiling, 2 whole processes"]
        ),
        "held_ceiling": held_ceiling(path, 3 if quick else 7),
    }
    with ExitStack() as stack:
        cases, started = dask_cases(path, stack)
        check_counts(cases, lines, bad)  # also the warm-up: each worker has imported and read once
        dask = measure.interleaved(cases, 1 if quick else 3, 0)
    command["dask"] = {
        name: {**s.summary(), "lines_per_second": lines / s.median, "start_seconds": started[name]}
        for name, s in dask.items()
    }
    result["command"] = command
    print_tables(result)
    return result


def print_tables(result: dict[str, Any]) -> None:
    found = result["in_process"]
    print("\nMixed stream, in process: lines per second per kind, and time per line over orjson.loads")
    print(
        f"  {'':<30} {'orjson.loads':>12} {'from_json':>10} {'parse':>10} {'naive':>10}"
        f" {'parse/orjson':>12} {'naive/orjson':>12} {'parse/naive':>11} {'from_json/naive':>15}"
    )
    for label, kind in found["kinds"].items():
        rates = kind["lines_per_second"]
        print(
            f"  {label:<30} {rates['orjson.loads']:>12,.0f} {rates['from_json']:>10,.0f} {rates['parse']:>10,.0f}"
            f" {_or_dash(rates.get('naive'), ',.0f'):>10} {kind['parse_vs_orjson']:>12.1f}"
            f" {_or_dash(kind.get('naive_vs_orjson'), '.1f'):>12} {_or_dash(kind.get('parse_vs_naive'), '.2f'):>11}"
            f" {_or_dash(kind.get('from_json_vs_naive'), '.2f'):>15}"
        )
    overall = found["overall"]
    print(f"  overall, {overall['lines']:,} lines of every kind in turn:")
    for name, rate in overall["lines_per_second"].items():
        print(f"    {name:<34} {rate:>10,.0f} lines/s")
    print(
        f"    per line: parse / orjson.loads {overall['parse_vs_orjson']:.1f}, check_lines (the lines alike checked"
        f" side by side) / orjson.loads {overall['check_lines_vs_orjson']:.1f}; on the {overall['naive_lines']:,} lines"
        f" the naive models read: parse / orjson.loads {overall['parse_vs_orjson_on_the_naive_lines']:.1f},"
        f" naive / orjson.loads {overall['naive_vs_orjson']:.1f}, parse / naive {overall['parse_vs_naive']:.2f}"
    )
    for label, why in found["without_naive"].items():
        print(f"    (no naive {label}: {why})")
    command = result["command"]
    print(
        f"\nMixed stream, the command: {command['lines']:,} lines ({command['invalid']:,} invalid),"
        f" {command['bytes'] / 1e6:.1f} MB; whole processes, start-up included"
    )
    print(f"  {'':<34} {'lines/s':>10} {'median':>9} {'min':>9} {'max':>9}")
    for name, case in {**command["cases"], **command["dask"]}.items():
        print(
            f"  {name:<34} {case['lines_per_second']:>10,.0f} {case['median']:>7.2f} s {case['min']:>7.2f} s"
            f" {case['max']:>7.2f} s"
        )
    held = command["held_ceiling"]
    print(
        f"  --jobs 2 over --jobs 1: {command['jobs2_speedup']:.2f}x; ceilings: two whole processes that each read"
        f" the file and check half {command['whole_process_ceiling']:.2f}x, two processes that already hold the"
        f" lines {held['speedup']:.2f}x"
    )
    for name, case in command["dask"].items():
        print(f"  {name}: cluster start-up {case['start_seconds']:.2f} s (not in its time)")


def _or_dash(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mplp-bench-lines-") as tmp:
        run(Path(tmp), quick=args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
