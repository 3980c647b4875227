"""Memory held by what a reader returns, each measured in a fresh process with tracemalloc.

Run as a script (``memory.py READER FILE``), it reads FILE once to warm up
(imports, compiled patterns, caches), then starts tracemalloc, reads it again,
keeps the result, collects garbage, and prints the bytes still traced (held)
and the peak while reading, both counted from just before the read. The input
bytes themselves are read before tracing starts and are not counted.
"""

from __future__ import annotations

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


if __name__ == "__main__":
    _child(sys.argv[1], sys.argv[2])
