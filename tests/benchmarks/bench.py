"""make bench: this SDK's JSON paths against the reference points, measured side by side in one run.

Prints medians and ratios for the canonical writer (against the pure-Python
``rfc8785`` package and orjson's sorted dump) and for reading (against
``orjson.loads``), on fixed payloads built here: a 200-step plan and a
1,000-message dialog. Timings are medians of interleaved rounds, since one
machine's noise hits both sides of a ratio alike. A benchmark, not a test.
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import orjson
import rfc8785

import mplp_models as mm


def uuid(n: int) -> str:
    return f"{n:08x}-0000-4000-8000-{n:012x}"


def plan_payload(steps: int) -> dict[str, Any]:
    return {
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0", "created_at": "2026-03-01T09:00:00.000Z",
                 "tags": ["bench", "large"], "cross_cutting": ["observability", "transaction"]},
        "plan_id": uuid(1), "context_id": uuid(2), "title": "Benchmark plan", "objective": "Measure the codec",
        "status": "in_progress",
        "steps": [
            {"step_id": uuid(100 + i), "description": f"Step {i}: do the work of stage {i % 7}",
             "status": "completed" if i < steps // 2 else "pending",
             "dependencies": [uuid(100 + j) for j in range(max(0, i - 2), i)],
             "agent_role": f"agent-{i % 5}", "order_index": i}
            for i in range(steps)
        ],
        "trace": {"trace_id": uuid(3), "span_id": uuid(4), "attributes": {"ratio": 0.25, "runs": 3}},
    }  # fmt: skip


def dialog_payload(messages: int) -> dict[str, Any]:
    roles = ["user", "assistant", "agent", "system"]
    return {
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "dialog_id": uuid(5), "context_id": uuid(6), "status": "active",
        "messages": [
            {"role": roles[i % 4], "content": f"Message {i}: what about the next step? \u00e9\u4e2d\U0001f600",
             "timestamp": f"2026-03-02T{10 + i // 3600 % 10:02d}:{i // 60 % 60:02d}:{i % 60:02d}.{i % 1000:03d}Z"}
            for i in range(messages)
        ],
        "started_at": "2026-03-02T10:00:00Z",
    }  # fmt: skip


def measure(cases: dict[str, Callable[[], object]], rounds: int = 15, budget: float = 0.02) -> dict[str, float]:
    """Median seconds per call of each case, measured in interleaved rounds."""
    loops = {name: max(1, int(budget / max(_once(fn), 1e-7))) for name, fn in cases.items()}
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(rounds):
        for name, fn in cases.items():
            start = time.perf_counter()
            for _ in range(loops[name]):
                fn()
            samples[name].append((time.perf_counter() - start) / loops[name])
    return {name: statistics.median(values) for name, values in samples.items()}


def _once(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def report(title: str, results: dict[str, float], baseline: str) -> None:
    print(f"\n{title}")
    for name, seconds in results.items():
        print(f"  {name:<44} {seconds * 1e6:10.1f} us   {seconds / results[baseline]:7.2f}x {baseline}")


def main() -> int:
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}")
    summary = {}
    for name, payload, model in (("plan, 200 steps", plan_payload(200), mm.Plan),
                                 ("dialog, 1,000 messages", dialog_payload(1000), mm.Dialog)):  # fmt: skip
        raw = json.dumps(payload).encode()
        instance = model.from_json(raw)
        data = instance.to_dict()
        assert instance.to_json() == rfc8785.dumps(payload)
        writes = measure({
            "to_json (model -> RFC 8785 bytes)": instance.to_json,
            "canonical_json(dict)": lambda: mm.canonical_json(data),
            "rfc8785.dumps(dict)": lambda: rfc8785.dumps(data),
            "orjson.dumps(dict, OPT_SORT_KEYS)": lambda: orjson.dumps(data, option=orjson.OPT_SORT_KEYS),
        })  # fmt: skip
        report(f"write: {name}", writes, "orjson.dumps(dict, OPT_SORT_KEYS)")
        reads = measure({
            "orjson.loads": lambda: orjson.loads(raw),
            "from_json": lambda: model.from_json(raw),
            "from_json(allow_duplicate_keys=True)": lambda: model.from_json(raw, allow_duplicate_keys=True),
            "model_validate_json (pydantic alone)": lambda: model.model_validate_json(raw),
        })  # fmt: skip
        report(f"read: {name}", reads, "orjson.loads")
        speedup = writes["rfc8785.dumps(dict)"] / writes["to_json (model -> RFC 8785 bytes)"]
        summary[name] = speedup
        print(f"  to_json is {speedup:.1f}x faster than rfc8785.dumps (goal: 10x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
