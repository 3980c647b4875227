"""make bench: this SDK's JSON paths against the floor and the peers, measured side by side in one run.

    .venv/bin/python tests/benchmarks/bench.py             # full run: writes results/latest.json, docs/performance.md
    .venv/bin/python tests/benchmarks/bench.py --quick     # a quick look: fewer rounds, writes nothing unless --out
    .venv/bin/python tests/benchmarks/bench.py --markdown  # only rewrite the table of docs/performance.md from the JSON

Measured on fixed payloads built in code (payloads.py): reading (orjson.loads as
the floor; from_json with and without the rules, parse; msgspec, fastjsonschema,
jsonschema-rs and jsonschema on the same bytes), writing canonical JSON (to_json
against rfc8785 and orjson's sorted dump), a 10,000-line NDJSON file (in
process, and through ``python -m mplp_models validate --ndjson``), import time
and the memory a 2,000-step plan holds, with the strict readers' peak memory per
input byte (valid, duplicate-key and error-heavy input). Timings are medians of interleaved
rounds (measure.py); the targets are reported, never enforced. A benchmark, not
a test: it fails only when a contender is set up wrong (peers.check).
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import importlib.metadata
import json
import multiprocessing
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bench_edits
import bench_events
import bench_flow
import bench_import
import bench_lines
import bench_loop
import bench_stages
import bench_store
import bench_strategy_cost
import bench_timestamp
import measure
import memory
import naive
import naive_goals
import orjson
import payloads
import peers
import report
import rfc8785

import mplp_models as mm
from mplp_models._kinds import kind_named

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS = HERE / "results" / "latest.json"
DOCS = ROOT / "docs" / "performance.md"
PACKAGES = (
    "mplp-models",
    "pydantic",
    "pydantic-core",
    "orjson",
    "msgspec",
    "fastjsonschema",
    "jsonschema-rs",
    "jsonschema",
    "referencing",
    "rfc8785",
)


BIG = 100_000  # bytes: payloads above this get fewer rounds (jsonschema takes 0.1 s or more on them)


class Settings:
    def __init__(self, quick: bool) -> None:
        self.mode = "quick" if quick else "full"
        self.rounds = 7 if quick else 41  # timing rounds in process
        self.big_rounds = 3 if quick else 15  # rounds for the payloads over BIG bytes
        self.budget = 0.002 if quick else 0.005  # seconds per batch: short, so that a round's batches share its noise
        self.ndjson_rounds = 1 if quick else 5
        self.cli_rounds = 1 if quick else 7
        self.import_rounds = 5 if quick else 30
        self.memory_runs = 1 if quick else 3

    def as_dict(self) -> dict[str, Any]:
        return {**vars(self), "big_bytes": BIG}


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    info: dict[str, Any] = {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "cores_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "load_average_at_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        )
        info["commit"] = commit.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        info["commit"] = None
    return info


def versions() -> dict[str, str]:
    found = {}
    for name in PACKAGES:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = "absent"
    return found


def bench_reads(
    timed: list[payloads.Payload], contenders: list[peers.Contender], settings: Settings
) -> list[dict[str, Any]]:
    rows = []
    for payload in timed:
        raw = payload.raw
        cases: dict[str, Callable[[], object]] = {"orjson.loads": functools.partial(orjson.loads, raw)}
        cases.update({c.name: functools.partial(c.readers[payload.kind], raw) for c in contenders})
        rounds = settings.big_rounds if len(raw) > BIG else settings.rounds
        samples = measure.interleaved(cases, rounds, settings.budget)
        floor = samples["orjson.loads"]
        row = {
            "payload": payload.key,
            "name": payload.name,
            "kind": payload.kind,
            "bytes": len(raw),
            "cases": {name: {**s.summary(), "vs_orjson_loads": measure.ratio(s, floor)} for name, s in samples.items()},
            "from_json_speedup": {
                c.name: measure.ratio(samples[c.name], samples["from_json"]) for c in contenders if not c.sdk
            },
        }
        report.print_reads(row)
        rows.append(row)
    return rows


def bench_writes(timed: list[payloads.Payload], settings: Settings) -> list[dict[str, Any]]:
    rows = []
    for payload in timed:
        instance = peers.MODEL[payload.kind].from_json(payload.raw)
        data = orjson.loads(payload.raw)
        canonical = instance.to_json()
        assert canonical == rfc8785.dumps(data), f"to_json and rfc8785 differ on the {payload.name}"
        cases: dict[str, Callable[[], object]] = {
            "orjson.dumps sorted": functools.partial(orjson.dumps, data, option=orjson.OPT_SORT_KEYS),
            "to_json": instance.to_json,
            # pydantic's door: the given fields only, by a wrap serializer per model (docs/pydantic.md)
            "model_dump_json": instance.model_dump_json,
            "canonical_json(dict)": functools.partial(mm.canonical_json, data),
            "rfc8785.dumps": functools.partial(rfc8785.dumps, data),
        }
        rounds = settings.big_rounds if len(payload.raw) > BIG else settings.rounds
        samples = measure.interleaved(cases, rounds, settings.budget)
        floor = samples["orjson.dumps sorted"]
        row = {
            "payload": payload.key,
            "name": payload.name,
            "bytes": len(canonical),
            "cases": {
                name: {**s.summary(), "vs_orjson_sorted": measure.ratio(s, floor)} for name, s in samples.items()
            },
            "to_json_speedup_vs_rfc8785": measure.ratio(samples["rfc8785.dumps"], samples["to_json"]),
        }
        report.print_writes(row)
        rows.append(row)
    return rows


def with_bytecode_caches(folder: Path) -> dict[str, str]:
    """This environment, with bytecode caches read and written (under ``folder``), as an installed package has them.

    Without them (PYTHONDONTWRITEBYTECODE with a source tree that has none),
    every fresh process would compile the package again, which no installed
    copy does.
    """
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder)
    return env


# The lines of the NDJSON file, for the worker processes of the parallel ceiling (inherited by fork).
_NDJSON_TEXTS: list[bytes] = []


def _parse_share(share: int) -> None:
    for line in _NDJSON_TEXTS[share::2]:
        mm.parse(line)


def bench_ndjson(path: Path, lines: list[tuple[str, bytes]], settings: Settings) -> dict[str, Any]:
    texts = [line for _, line in lines]

    def floor() -> None:
        for line in texts:
            orjson.loads(line)

    def parse_all() -> None:
        for line in texts:
            mm.parse(line)

    # The ceiling of --jobs 2 on this machine: the same parse calls split over two
    # forked processes that already hold the lines (no reading, no output, no hand-off).
    _NDJSON_TEXTS[:] = texts
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(_parse_share, [0, 1])  # warm: the models' validators are built in each process

        def parse_in_two() -> None:
            pool.map(_parse_share, [0, 1])

        cases = {
            "orjson.loads per line": floor,
            "parse per line": parse_all,
            "parse per line, 2 processes": parse_in_two,
        }
        samples = measure.interleaved(cases, settings.ndjson_rounds, 0)
    kinds: dict[str, int] = {}
    for kind, _ in lines:
        kinds[kind] = kinds.get(kind, 0) + 1
    command = [sys.executable, "-m", "mplp_models", "validate", "--ndjson", str(path), "--jobs"]
    refused = cli_refuses_a_bad_line(path.with_name("bad.ndjson"), lines)
    if refused is None:
        commands = {"--jobs 1": [*command, "1"], "--jobs 2": [*command, "2"]}
        env = with_bytecode_caches(path.with_name("pycache"))
        cli, failed = measure.processes(commands, settings.cli_rounds, env)
    else:
        cli, failed = {}, {"--jobs 1": refused, "--jobs 2": refused}
    result: dict[str, Any] = {
        "lines": len(lines),
        "bytes": path.stat().st_size,
        "kinds": kinds,
        "in_process": {
            name: {**s.summary(), "vs_orjson_loads": measure.ratio(s, samples["orjson.loads per line"])}
            for name, s in samples.items()
        },
        "cli": {
            "command": "python -m mplp_models validate --ndjson FILE --jobs N",
            "cases": {},
            "unavailable": failed,
        },
    }
    result["two_process_speedup"] = measure.ratio(samples["parse per line"], samples["parse per line, 2 processes"])
    result["cli"]["cases"] = {name: s.summary() for name, s in cli.items()}
    if len(cli) == 2:
        result["cli"]["jobs2_speedup"] = measure.ratio(cli["--jobs 1"], cli["--jobs 2"])
    report.print_ndjson(result)
    return result


def cli_refuses_a_bad_line(path: Path, lines: list[tuple[str, bytes]]) -> str | None:
    """None when the command exits 0 on valid lines and not 0 on a file with one bad line; else what went wrong."""
    good = [line for _, line in lines[:8]]
    bad = [*good[:4], good[4].replace(b'"plan_id":"', b'"plan_id":"X', 1), *good[5:]]
    assert bad != good, "the bad line should differ"
    for content, wanted in ((good, True), (bad, False)):
        path.write_bytes(b"".join(line + b"\n" for line in content))
        done = subprocess.run(
            [sys.executable, "-m", "mplp_models", "validate", "--ndjson", str(path), "--jobs", "1"],
            capture_output=True,
            check=False,
        )
        if (done.returncode == 0) != wanted:
            output = (done.stderr or done.stdout).decode(errors="replace").strip().splitlines()
            what = "valid lines" if wanted else "a file with an invalid line"
            return f"exit status {done.returncode} on {what}: {output[-1] if output else 'no output'}"
    return None


IMPORTS = {
    "python -c pass": "pass",
    "from pydantic import BaseModel": "from pydantic import BaseModel",
    "import mplp_models": "import mplp_models",
    "from mplp_models import Plan": "from mplp_models import Plan",
}


def bench_imports(folder: Path, settings: Settings) -> dict[str, Any]:
    commands = {name: [sys.executable, "-c", code] for name, code in IMPORTS.items()}
    samples, failed = measure.processes(commands, settings.import_rounds, with_bytecode_caches(folder / "pycache"))
    if failed:
        raise SystemExit(f"an import failed: {failed}")
    bare = samples["python -c pass"]
    net = {name: [t - b for t, b in zip(s.values, bare.values)] for name, s in samples.items() if s is not bare}
    pydantic = net["from pydantic import BaseModel"]
    result = {
        "rounds": settings.import_rounds,
        "raw": {name: s.summary() for name, s in samples.items()},
        "net": {name: measure.Samples(values, 1).summary() for name, values in net.items()},
        "net_vs_pydantic": {
            name: measure.ratio(measure.Samples(values, 1), measure.Samples(pydantic, 1))
            for name, values in net.items()
        },
    }
    report.print_imports(result)
    return result


def bench_naive(folder: Path, settings: Settings) -> dict[str, Any]:
    """Every kind against the naive generated models, side by side.

    Reading, writing, and a fresh process's first plan.
    """
    generated = naive.generate(folder / "naive")
    models = naive.models(generated)
    kinds: dict[str, Any] = {}
    for name, payload in payloads.every_kind().items():
        if name not in models:  # its naive module needs an extra (naive.models)
            kinds[name] = {"payload": payload.key, "skipped": "the naive model does not import"}
            report.print_naive_kind(name, kinds[name])
            continue
        goal = naive_goals.GOALS.get(name)
        if goal is None:
            raise SystemExit(f"no goal for {name}: add one to tests/benchmarks/naive_goals.py's GOALS")
        raw, ours, theirs = payload.raw, getattr(mm, name), models[name]
        try:
            peer = theirs.model_validate_json(raw)
        except ValueError:  # the generator's defaults read ids and URIs otherwise (uuid.UUID, AnyUrl)
            kinds[name] = {"payload": payload.key, "skipped": "the naive model refuses the payload"}
            report.print_naive_kind(name, kinds[name])
            continue
        instance = ours.from_json(raw)
        cases: dict[str, Callable[[], object]] = {
            "from_json": functools.partial(ours.from_json, raw),
            "naive model_validate_json": functools.partial(theirs.model_validate_json, raw),
            "to_json": instance.to_json,
            "naive model_dump_json": functools.partial(peer.model_dump_json, exclude_unset=True),
        }
        rounds = settings.big_rounds if len(raw) > BIG else settings.rounds
        samples = measure.interleaved(cases, rounds, settings.budget)
        read = measure.ratio(samples["from_json"], samples["naive model_validate_json"])
        write = measure.ratio(samples["to_json"], samples["naive model_dump_json"])
        kinds[name] = {
            "payload": payload.key,
            "name": payload.name,
            "bytes": len(raw),
            "cases": {case: s.summary() for case, s in samples.items()},
            "read_ratio": read,
            "read_goal": goal.read,
            "read_goal_source": goal.source,
            "read_met": read <= goal.read,
            "write_ratio": write,
            "write_goal": goal.write,
            "write_met": write <= goal.write,
        }
        report.print_naive_kind(name, kinds[name])
    result: dict[str, Any] = {
        "generator": f"datamodel-code-generator {versions_of('datamodel-code-generator')}",
        "kinds": kinds,
        "first_plan": bench_first_plan(folder, generated, settings),
    }
    report.print_first_plan(result["first_plan"])
    return result


def versions_of(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def bench_first_plan(folder: Path, generated: Path, settings: Settings) -> dict[str, Any]:
    """Wall clock of fresh processes that import a plan model and read one 200-step plan.

    Measured for this SDK and for the naive peer.
    """
    plan = Path(folder, "plan-200.json")
    plan.write_bytes(payloads.every_kind()["Plan"].raw)
    kind = kind_named("Plan")
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "mplp_models": [
            sys.executable,
            "-c",
            "import sys; from mplp_models import Plan; Plan.from_json(open(sys.argv[1], 'rb').read())",
            str(plan),
        ],
        "naive": [sys.executable, "-c", naive.first_read_code(generated, kind), str(plan)],
    }
    samples, failed = measure.processes(commands, settings.import_rounds, with_bytecode_caches(folder / "pycache"))
    if failed:
        raise SystemExit(f"a first read failed: {failed}")
    ratio = measure.ratio(samples["mplp_models"], samples["naive"])
    return {
        "rounds": settings.import_rounds,
        "cases": {name: s.summary() for name, s in samples.items()},
        "ratio": ratio,
        "goal": naive_goals.FIRST_READ,
        "met": ratio <= naive_goals.FIRST_READ,
    }


def bench_memory(path: Path, settings: Settings) -> dict[str, Any]:
    # reader -> input (valid, duplicate key, error-heavy, ...) -> peak resident growth / input bytes
    per_input_byte = memory.per_byte(path, settings.memory_runs)
    result = {
        "payload": "plan-2000",
        "bytes": path.stat().st_size,
        "readers": memory.measure(path, settings.memory_runs),
        "per_input_byte": per_input_byte,
    }
    report.print_memory(result)
    memory.print_per_byte(per_input_byte)
    return result


def bench_strategies(settings: Settings) -> dict[str, float]:
    """CPU milliseconds per example of each top-level strategy of mplp_models.testing.

    Hypothesis's own work is included.
    """
    from strategy_timing import draw_cpu_seconds  # tests/, on the path since peers

    from mplp_models import testing

    strategies: dict[str, Any] = {
        "plans(max_steps=20)": testing.plans(max_steps=20),
        **{
            name: getattr(testing, name)()
            for name in ("plans", "dialogs", "learning_samples", "inbox_messages", "traces", "contexts", "events")
        },
    }
    examples = 10 if settings.mode == "quick" else 30
    found: dict[str, float] = {}
    print("\nmplp_models.testing, CPU ms per example:")
    for name, strategy in strategies.items():
        # Warm-up: the models' validators, the strategy's validation and hypothesis's scan of newly
        # imported modules for constants (in the first few examples, not the first) are paid once, not per example.
        draw_cpu_seconds(strategy, 10)
        seconds, drawn = draw_cpu_seconds(strategy, examples)
        found[name] = round(seconds * 1000 / max(drawn, 1), 2)
        print(f"  {name:<24} {found[name]:7.2f}")
    return found


def stages_of_from_json(settings: Settings) -> dict[str, Any]:
    """The per-stage breakdown of from_json for the event, the inbox message and the dialog (bench_stages.py)."""
    found: dict[str, Any] = bench_stages.stages(quick=settings.mode == "quick")
    bench_stages.print_stages(found)
    return found


def targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    reads = next(row for row in results["reads"] if row["payload"] == "plan-200")
    writes = next(row for row in results["writes"] if row["payload"] == "plan-200")
    found = []

    def target(name: str, value: float | None, goal: str, holds: bool | None) -> None:
        found.append({"target": name, "value": value, "goal": goal, "pass": holds})

    x = reads["cases"]["from_json"]["vs_orjson_loads"]
    target("Plan.from_json (rules), 200 steps: time / orjson.loads", x, "<= 3.5", x <= 3.5)
    x = reads["from_json_speedup"]["jsonschema"]
    target("Plan.from_json (rules), 200 steps: speed-up over jsonschema", x, ">= 40", x >= 40)
    x = reads["from_json_speedup"]["msgspec"]
    target("Plan.from_json (rules), 200 steps: speed-up over msgspec typed decode", x, "> 1", x > 1)
    x = writes["to_json_speedup_vs_rfc8785"]
    target("to_json, 200-step plan: speed-up over rfc8785.dumps", x, ">= 10", x >= 10)
    x = writes["cases"]["to_json"]["vs_orjson_sorted"]
    target("to_json, 200-step plan: time / orjson.dumps(OPT_SORT_KEYS)", x, "<= 5", x <= 5)
    x = results["imports"]["net_vs_pydantic"]["import mplp_models"]
    target("import mplp_models / from pydantic import BaseModel (net of python -c pass)", x, "<= 1.5", x <= 1.5)
    readers = results["memory"]["readers"]
    x = readers["Plan.from_json"]["held_bytes"] / readers["orjson.loads"]["held_bytes"]
    target("Plan memory, 2,000 steps: held / orjson.loads tree", x, "<= 2", x <= 2)
    speedup = results["ndjson"]["cli"].get("jobs2_speedup")
    kinds = {name: k for name, k in results["naive"]["kinds"].items() if "skipped" not in k}
    for way, call in (
        ("read", "from_json (rules) / naive model_validate_json"),
        ("write", "to_json / naive model_dump_json"),
    ):
        over = {name: k[f"{way}_ratio"] / k[f"{way}_goal"] for name, k in kinds.items()}
        worst = max(over, key=over.__getitem__)
        met = sum(k[f"{way}_met"] for k in kinds.values())
        what = f"{call}, over each kind's own goal ({met} of {len(kinds)} kinds met; the furthest: {worst})"
        target(what, over[worst], "<= 1", met == len(kinds))
    x = results["naive"]["first_plan"]["ratio"]
    goal = naive_goals.FIRST_READ
    target(
        "fresh process, import and read a 200-step plan / the same with the naive models",
        x,
        f"<= {goal:g}",
        x <= goal,
    )
    edits = results.get("plan_edits")
    if edits is not None:
        x = edits["move_1000_vs_100"]
        goal = bench_edits.MOVE_GOAL_SIZE
        target("transition_step, one step: 1,000-step plan / 100-step plan", x, f"<= {goal:g}", x <= goal)
        x = edits["move_1000_vs_from_json"]
        goal = bench_edits.MOVE_GOAL_READ
        target("transition_step, one step of a 1,000-step plan / Plan.from_json of it", x, f"<= {goal:g}", x <= goal)
    loop = results.get("agent_loop")
    if loop is not None:
        for name in ("executor", "agent"):
            x = loop[f"{name}_1000_vs_100"]
            what = f"the {name} loop over a chain driven to completion: 1,000 steps / 100 steps"
            target(what, x, f"<= {bench_loop.GOAL:g}", x <= bench_loop.GOAL)
    mixed = results["lines_per_second"]
    x = mixed["in_process"]["overall"]["parse_vs_orjson"]
    target("parse per line / orjson.loads, a mixed stream of every kind", x, "<= 8", x <= 8)
    x = mixed["in_process"]["kinds"][bench_lines.MIXED_OFFSETS].get("from_json_vs_naive")
    target(
        "InboxMessage with mixed offsets: from_json / naive model_validate_json",
        x,
        "<= 2",
        None if x is None else x <= 2,
    )
    x = mixed["command"]["jobs2_speedup"]
    target("validate --ndjson, 40,000 lines of every kind: --jobs 2 speed-up over --jobs 1", x, ">= 1.7", x >= 1.7)
    target(
        "validate --ndjson: --jobs 2 speed-up over --jobs 1",
        speedup,
        ">= 1.7",
        None if speedup is None else speedup >= 1.7,
    )
    return found


def run(settings: Settings) -> dict[str, Any]:
    start = time.perf_counter()
    results: dict[str, Any] = {
        "format": 1,
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "mode": settings.mode,
        "settings": settings.as_dict(),
        "machine": machine(),
        "versions": versions(),
    }
    report.print_header(results)
    timed = payloads.payloads()
    lines = list(payloads.ndjson_lines())
    contenders, notes = peers.contenders()
    peers.check(contenders, timed, lines)
    results["contenders"] = {"orjson.loads": "the floor: JSON text to dicts and lists, nothing checked"}
    results["contenders"].update({c.name: c.what for c in contenders})
    results["peer_setup"] = notes
    results["exactness"] = peers.exactness(contenders, payloads.probes())
    report.print_exactness(results["exactness"], [c.name for c in contenders])
    with tempfile.TemporaryDirectory(prefix="mplp-bench-") as tmp:
        plan_2000 = Path(tmp, "plan-2000.json")
        plan_2000.write_bytes(next(p.raw for p in timed if p.key == "plan-2000"))
        ndjson = Path(tmp, "mixed.ndjson")
        ndjson.write_bytes(b"".join(line + b"\n" for _, line in lines))
        results["reads"] = bench_reads(timed, contenders, settings)
        results["writes"] = bench_writes(timed, settings)
        results["ndjson"] = bench_ndjson(ndjson, lines, settings)
        results["lines_per_second"] = bench_lines.run(Path(tmp), quick=settings.mode == "quick")
        results["imports"] = bench_imports(Path(tmp), settings)
        results["import_per_use"] = bench_import.run(Path(tmp), quick=settings.mode == "quick")
        bench_import.print_table(results["import_per_use"])
        results["memory"] = bench_memory(plan_2000, settings)
        results["naive"] = bench_naive(Path(tmp), settings)
        results["stages"] = stages_of_from_json(settings)
        results["timestamp"] = bench_timestamp.run(quick=settings.mode == "quick")
        bench_timestamp.print_table(results["timestamp"])
        results["event_families"] = bench_events.run(Path(tmp, "naive-events"), quick=settings.mode == "quick")
        bench_events.print_table(results["event_families"])
    results["plan_edits"] = bench_edits.run(quick=settings.mode == "quick")
    results["flow"] = bench_flow.run(quick=settings.mode == "quick")
    results["store"] = bench_store.run(quick=settings.mode == "quick")
    results["agent_loop"] = bench_loop.run(quick=settings.mode == "quick")
    results["strategies_ms_per_example"] = bench_strategies(settings)
    results["strategy_cost"] = bench_strategy_cost.run(quick=settings.mode == "quick")
    results["targets"] = targets(results)
    results["machine"]["load_average_at_end"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    results["run_seconds"] = round(time.perf_counter() - start, 1)
    report.print_targets(results)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds; writes no file unless --out is given")
    parser.add_argument("--out", type=Path, help=f"where to write the results (full run: {RESULTS.relative_to(ROOT)})")
    parser.add_argument(
        "--markdown",
        action="store_true",
        help="measure nothing: rewrite the table of docs/performance.md from the results JSON",
    )
    parser.add_argument("--results", type=Path, default=RESULTS, help="the results JSON that --markdown reads")
    parser.add_argument(
        "--naive", action="store_true", help="only the comparison with the naive generated models; writes nothing"
    )
    parser.add_argument(
        "--stages", action="store_true", help="only from_json stage by stage (bench_stages.py); writes nothing"
    )
    parser.add_argument("--no-docs", action="store_true", help="full run: do not rewrite docs/performance.md")
    args = parser.parse_args(argv)
    if args.markdown:
        report.update_docs(DOCS, json.loads(args.results.read_text(encoding="utf-8")))
        print(f"rewrote the generated section of {DOCS.relative_to(ROOT)} from {args.results}")
        return 0
    if args.naive:
        with tempfile.TemporaryDirectory(prefix="mplp-bench-") as tmp:
            bench_naive(Path(tmp), Settings(args.quick))
        return 0
    if args.stages:
        stages_of_from_json(Settings(args.quick))
        return 0
    results = run(Settings(args.quick))
    out = args.out or (None if args.quick else RESULTS)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"\nwrote {out}")
    if not args.quick and not args.no_docs:
        report.update_docs(DOCS, results)
        print(f"rewrote the generated section of {DOCS.relative_to(ROOT)}")
    print(f"run time: {results['run_seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
