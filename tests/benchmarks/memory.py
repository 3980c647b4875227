"""Memory held by what a reader returns, each measured in a fresh process with tracemalloc.

Run as a script (``memory.py READER FILE``), it reads FILE once to warm up
(imports, compiled patterns, caches), then starts tracemalloc, reads it again,
keeps the result, collects garbage, and prints the bytes still traced (held)
and the peak while reading, both counted from just before the read. The input
bytes themselves are read before tracing starts and are not counted.

``per_byte`` measures the peak memory per input byte of the strict readers:
the growth of the resident set's high-water mark over one read, in a fresh
process (``memory.py --per-byte READER INPUT FILE``), for a valid input, the
same with a duplicate key, one with an error at every step (2,000 of them:
past ``MAX_ERRORS``, so the bounded listing is measured too), the worst
case, as long as the payload: a step array of zeros, a problem every two bytes
(past ``_bounded.FULL_ERRORS_MAX_VALUES``, so checked up to its first bad item),
and every step in progress (each of its dependencies is a rule's problem, counted,
not kept, past the listed ones). The resident set,
not tracemalloc: orjson asks for more than it touches, and pydantic-core
collects errors in Rust, which tracemalloc does not see. ``bench.py`` stores
and prints them (``make bench``).
"""

from __future__ import annotations

import contextlib
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

READERS = {
    "orjson.loads": "dict tree of orjson.loads",
    "Plan.from_json": "Plan.from_json (rules on)",
    "Plan.from_json schema-only": "Plan.from_json(semantic=False)",
    "msgspec": "msgspec Structs (msgspec.json.decode)",
}


def measure(path: Path, runs: int) -> dict[str, dict[str, Any]]:
    """Held and peak bytes for each reader: the median over ``runs`` fresh processes each, interleaved."""
    found: dict[str, dict[str, list[int]]] = {name: {"held": [], "peak": []} for name in READERS}
    for _ in range(runs):
        for name in READERS:
            done = subprocess.run(
                [sys.executable, __file__, name, str(path)], capture_output=True, check=True, text=True
            )
            result = json.loads(done.stdout)
            found[name]["held"].append(result["held"])
            found[name]["peak"].append(result["peak"])
    return {
        name: {
            "what": READERS[name],
            "held_bytes": int(statistics.median(v["held"])),
            "peak_bytes": int(statistics.median(v["peak"])),
            "runs": runs,
        }
        for name, v in found.items()
    }


def _child(name: str, path: str) -> None:
    import gc
    import tracemalloc

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    raw = Path(path).read_bytes()
    if name == "orjson.loads":
        import orjson

        def read() -> object:
            return orjson.loads(raw)
    elif name == "msgspec":
        import msgspec
        import msgspec_models

        decoder = msgspec.json.Decoder(msgspec_models.Plan)

        def read() -> object:
            return decoder.decode(raw)
    else:
        import mplp_models as mm

        semantic = not name.endswith("schema-only")

        def read() -> object:
            return mm.Plan.from_json(raw, semantic=semantic)

    read()  # warm up
    gc.collect()
    tracemalloc.start()
    before, _ = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    kept = read()
    gc.collect()
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert kept is not None
    print(json.dumps({"held": held - before, "peak": peak - before}))


# The strict readers, each as it reads one input (bytes) in the child.
STRICT_READERS = {
    "parse": "mm.parse(raw)",
    "Plan.from_json": "mm.Plan.from_json(raw)",
    "check_lines": "mm.check_lines([raw])",
    "llm.from_llm_json": 'llm.from_llm_json(mm.Plan, raw, dialect="json-schema")',
}


def variant(raw: bytes, name: str) -> bytes:
    """The input of each row: the payload, the same with a duplicate key, or with an error at every step."""
    if name == "valid":
        return raw
    if name == "duplicate key":  # the last key of the document again: the whole text is walked
        return raw[: raw.rindex(b"}")] + b', "title": "again"}'
    if name == "error-heavy":  # every status out of its enum
        return raw.replace(b'"status": "', b'"status": "not-')
    if name == "0 for every step":  # the worst case of #25: a problem every two bytes, as long as the payload
        head = b'{"plan_id": "p", "steps": ['
        return head + b"0," * ((len(raw) - len(head)) // 2 - 1) + b"0]}"
    if name == "every step in progress":  # the rules' worst case: each dependency is a problem
        return raw.replace(b'"status": "completed"', b'"status": "in_progress"').replace(
            b'"status": "pending"', b'"status": "in_progress"'
        )
    raise ValueError(name)


VARIANTS = ("valid", "duplicate key", "error-heavy", "0 for every step", "every step in progress")


def per_byte(path: Path, runs: int) -> dict[str, dict[str, float]]:
    """For each strict reader and input, the median over ``runs`` fresh processes of peak growth / input bytes."""
    found: dict[str, dict[str, float]] = {}
    for reader in STRICT_READERS:
        for name in VARIANTS:
            ratios = []
            for _ in range(runs):
                done = subprocess.run(
                    [sys.executable, __file__, "--per-byte", reader, name, str(path)],
                    capture_output=True,
                    check=True,
                    text=True,
                )
                result = json.loads(done.stdout)
                ratios.append(result["growth"] / result["size"])
            found.setdefault(reader, {})[name] = statistics.median(ratios)
    return found


def print_per_byte(found: dict[str, dict[str, float]]) -> None:
    print("\npeak memory per input byte (resident set's growth over one read, a fresh process each)")
    widths = [max(18, len(name) + 2) for name in VARIANTS]
    print(f"  {'reader':<20}" + "".join(f"{name:>{width}}" for name, width in zip(VARIANTS, widths)))
    for reader, row in found.items():
        print(f"  {reader:<20}" + "".join(f"{row[name]:>{width - 1}.2f}x" for name, width in zip(VARIANTS, widths)))


def _per_byte_child(reader: str, name: str, path: str) -> None:
    import resource

    from pydantic import ValidationError

    import mplp_models as mm
    from mplp_models import llm

    raw = variant(Path(path).read_bytes(), name)
    names = {"mm": mm, "llm": llm, "raw": raw}
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with contextlib.suppress(ValidationError):
        eval(STRICT_READERS[reader], names)  # one of the expressions above
    growth = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024  # KiB on Linux
    print(json.dumps({"size": len(raw), "growth": growth}))


if __name__ == "__main__":
    if sys.argv[1] == "--per-byte":
        _per_byte_child(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        _child(sys.argv[1], sys.argv[2])
