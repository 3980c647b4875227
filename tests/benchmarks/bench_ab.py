"""This tree's ``from_json``, ``to_json`` and ``parse`` beside a commit's, in one process, round by round.

    .venv/bin/python tests/benchmarks/bench_ab.py BASE              # every payload of payloads.py
    .venv/bin/python tests/benchmarks/bench_ab.py BASE --keys event,k:Plan --rounds 31

Whole runs of ``make bench`` on two commits differ by more than the few per cent a change is judged by,
since these machines are noisy. Here the package of commit ``BASE`` (``git archive``) and this tree's are
copied under other names (``mplp_base``, ``mplp_head``) and timed in one interleaved run (measure.py), with
a second copy of the base (``mplp_control``) as the noise floor: the control's ratio says how far apart two
identical packages come out. Each row is a payload; each number, the time of the copy over the base's.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import measure
import payloads

ROOT = Path(__file__).resolve().parents[2]
COPIES = ("mplp_base", "mplp_control", "mplp_head")


def _renamed(source: Path, name: str, into: Path) -> None:
    """A copy of the package at ``source`` importable as ``name``: every ``mplp_models`` in its text renamed."""
    target = into / name
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    for path in target.rglob("*.py"):
        path.write_text(path.read_text(encoding="utf-8").replace("mplp_models", name), encoding="utf-8")


def _copies(base: str, into: Path) -> None:
    """The base commit's package (twice) and this tree's, renamed, in ``into``."""
    (into / "archive").mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", base, "src/mplp_models"], check=True, capture_output=True
    )
    subprocess.run(["tar", "-x", "-C", str(into / "archive")], input=archive.stdout, check=True)
    for name in COPIES[:2]:
        _renamed(into / "archive" / "src" / "mplp_models", name, into)
    _renamed(ROOT / "src" / "mplp_models", COPIES[2], into)


def _cases(packages: dict[str, Any], raw: bytes, with_parse: bool) -> dict[str, Callable[[], object]]:
    """Each copy's reading, writing and (for a payload of its own kind) parse of ``raw``."""
    cases: dict[str, Callable[[], object]] = {}
    for name, package in packages.items():
        model = package.parse(raw)
        cases[f"{name} read"] = functools.partial(type(model).from_json, raw)
        cases[f"{name} write"] = model.to_json
        if with_parse:
            cases[f"{name} parse"] = functools.partial(package.parse, raw)
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("base", help="the commit to compare with (e.g. main, HEAD~1)")
    parser.add_argument("--keys", help="only these payloads, comma-separated (k:Plan is one payload of a kind)")
    parser.add_argument("--rounds", type=int, default=21)
    args = parser.parse_args()
    rows = [(p.key, p.raw, True) for p in payloads.payloads()]
    rows += [(f"k:{kind}", p.raw, False) for kind, p in payloads.every_kind().items()]
    if args.keys:
        rows = [row for row in rows if row[0] in args.keys.split(",")]
    with tempfile.TemporaryDirectory() as scratch:
        _copies(args.base, Path(scratch))
        sys.path.insert(0, scratch)
        packages = {name: importlib.import_module(name) for name in COPIES}
        print(f"{'payload':24s}  {'op':5s}  control  head   (time over {args.base}'s)")
        worst: list[tuple[float, str]] = []
        for key, raw, with_parse in rows:
            times = measure.interleaved(_cases(packages, raw, with_parse), args.rounds, 0.01)
            for op in ("read", "write", "parse"):
                if f"mplp_base {op}" in times:
                    control, head = (measure.ratio(times[f"{n} {op}"], times[f"mplp_base {op}"]) for n in COPIES[1:])
                    print(f"{key:24s}  {op:5s}  {control:7.3f}  {head:5.3f}", flush=True)
                    worst.append((head, f"{key} {op}"))
        print("slowest beside the base:", ", ".join(f"{where} {ratio:.3f}" for ratio, where in sorted(worst)[-5:]))


if __name__ == "__main__":
    main()
