"""Lines per second: ``validate --ndjson`` with 1 and 2 jobs, and check_lines on a local Dask cluster of 1 and 2 workers.

    .venv/bin/python tests/benchmarks/bench_lines.py           # prints the table
    .venv/bin/python tests/benchmarks/bench_lines.py --quick   # one round

make bench runs it too (``run``), on a file of its own. The input is the mixed
NDJSON of payloads.ndjson_lines with one line in 25 made invalid (a key the
schema does not have), the same file for every case. The command's time is the
whole process (start-up included, as a user waits for it); the cluster's is one
``compute`` on a cluster that is already up and has read once (its start-up is
reported beside it), with the verdicts gathered back into this process.
Timings are medians of interleaved rounds (measure.py).
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import measure
import payloads

import mplp_models as mm

LINES = 4_000
BAD_EVERY = 25  # one line in BAD_EVERY is invalid
PARTITIONS = 8  # Dask partitions of the file: enough for two workers to share evenly


def write_input(path: Path, count: int = LINES) -> tuple[int, int]:
    """Write the NDJSON file; the number of lines and of invalid ones."""
    bad = 0
    with path.open("wb") as out:
        for n, (_, line) in enumerate(payloads.ndjson_lines(count)):
            if n % BAD_EVERY == BAD_EVERY - 1:
                line = b'{"unknown":1,' + line[1:]
                bad += 1
            out.write(line + b"\n")
    return count, bad


def cli_commands(path: Path) -> dict[str, list[str]]:
    command = [sys.executable, "-m", "mplp_models", "validate", "--ndjson", "--no-progress", str(path), "--jobs"]
    return {f"CLI --jobs {jobs}": [*command, str(jobs)] for jobs in (1, 2)}


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


def cli_counts(commands: dict[str, list[str]], lines: int, bad: int) -> None:
    for name, command in commands.items():
        done = subprocess.run(command, capture_output=True, check=False)
        summary = done.stderr.decode().strip().splitlines()[-1]
        wanted = f"{lines - bad} valid, {bad} invalid"
        assert done.returncode == 1 and wanted in summary, f"{name}: {summary!r}, not {wanted!r}"


def timed(
    commands: dict[str, list[str]], cases: dict[str, Callable[[], list[Any]]], rounds: int
) -> dict[str, measure.Samples]:
    """Seconds of every case, the commands and the computes interleaved round by round."""
    runs: dict[str, Callable[[], object]] = {name: _process(command) for name, command in commands.items()}
    runs.update(cases)
    return measure.interleaved(runs, rounds, 0)


def _process(command: list[str]) -> Callable[[], object]:
    return lambda: subprocess.run(command, capture_output=True, check=False)


def run(folder: Path, *, quick: bool) -> dict[str, Any]:
    """Measure every case on a file written in ``folder``; print the table and return the results."""
    path = folder / "lines.ndjson"
    lines, bad = write_input(path)
    commands = cli_commands(path)
    cli_counts(commands, lines, bad)
    with ExitStack() as stack:
        cases, started = dask_cases(path, stack)
        check_counts(cases, lines, bad)  # also the warm-up: each worker has imported and read once
        samples = timed(commands, cases, 1 if quick else 3)
    result: dict[str, Any] = {
        "lines": lines,
        "invalid": bad,
        "bytes": path.stat().st_size,
        "partitions": PARTITIONS,
        "cases": {
            name: {**s.summary(), "lines_per_second": lines / s.median, "start_seconds": started.get(name)}
            for name, s in samples.items()
        },
    }
    print_table(result)
    return result


def print_table(result: dict[str, Any]) -> None:
    print(
        f"\nNDJSON lines per second: {result['lines']:,} lines ({result['invalid']:,} invalid), "
        f"{result['bytes'] / 1e6:.1f} MB; Dask: {result['partitions']} partitions, cluster already up"
    )
    print(f"  {'':<18} {'lines/s':>10} {'median':>9} {'min':>9} {'max':>9} {'start-up':>9}")
    for name, case in result["cases"].items():
        start = "" if case["start_seconds"] is None else f"{case['start_seconds']:.2f} s"
        print(
            f"  {name:<18} {case['lines_per_second']:>10,.0f} {case['median']:>7.2f} s {case['min']:>7.2f} s "
            f"{case['max']:>7.2f} s {start:>9}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one round instead of three")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mplp-bench-lines-") as tmp:
        run(Path(tmp), quick=args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
