"""What using one model costs a fresh process: the package's modules it loads, and the time, per use.

    .venv/bin/python tests/benchmarks/bench_import.py                 # this tree
    .venv/bin/python tests/benchmarks/bench_import.py --quick         # fewer rounds
    .venv/bin/python tests/benchmarks/bench_import.py --src OTHER/src # another tree (a checkout of main: before/after)

make bench runs it too (``run``). Each use is a fresh ``python -c``: the
modules are counted once (hand-written and generated apart, with the names of
the hand-written ones), the time over interleaved rounds with bytecode caches,
net of ``python -c pass`` (measure.py). No assertion: tests/test_performance_paths.py
holds which integrations a model may not load; the times are for reading.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import measure

ROOT = Path(__file__).resolve().parents[2]
PLAN = ROOT / "examples" / "payloads" / "plan.json"
DIALOG = ROOT / "examples" / "payloads" / "dialog.json"

USES: dict[str, str] = {
    "python -c pass": "pass",
    "import mplp_models": "import mplp_models",
    "mm.Role": "import mplp_models as mm; mm.Role",
    "mm.Event": "import mplp_models as mm; mm.Event",
    "mm.Plan": "import mplp_models as mm; mm.Plan",
    "mm.Dialog": "import mplp_models as mm; mm.Dialog",
    "Plan.from_json(plan.json)": f"import mplp_models as mm; mm.Plan.from_json(open({str(PLAN)!r}, 'rb').read())",
    "Dialog.from_json(...).to_openai_messages()": (
        f"import mplp_models as mm; mm.Dialog.from_json(open({str(DIALOG)!r}, 'rb').read())"
        ".to_openai_messages(agent_role='assistant', drop_events=True)"
    ),
}

_LIST = "\nimport sys; print(' '.join(sorted(m for m in sys.modules if m.startswith('mplp_models'))))"


def _env(src: Path, caches: Path) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(src)
    env["PYTHONPYCACHEPREFIX"] = str(caches)
    return env


def modules_loaded(code: str, env: dict[str, str]) -> dict[str, Any]:
    """The package's modules in ``sys.modules`` once ``code`` has run in a fresh process."""
    out = subprocess.run([sys.executable, "-c", code + _LIST], capture_output=True, text=True, env=env, check=True)
    names = out.stdout.split()
    own = sorted(name.removeprefix("mplp_models.") for name in names if "._generated" not in name and "." in name)
    return {"hand_written": own, "generated": sum("._generated." in name for name in names)}


def run(folder: Path, *, quick: bool, src: Path = ROOT / "src") -> dict[str, Any]:
    env = _env(src, folder / "pycache")
    loaded = {name: modules_loaded(code, env) for name, code in USES.items() if name != "python -c pass"}
    commands = {name: [sys.executable, "-c", code] for name, code in USES.items()}
    samples, failed = measure.processes(commands, 5 if quick else 30, env)
    if failed:
        raise SystemExit(f"a use failed: {failed}")
    bare = samples["python -c pass"].values
    net = {
        name: measure.Samples([t - b for t, b in zip(s.values, bare)], 1).summary()["median"]
        for name, s in samples.items()
        if name != "python -c pass"
    }
    return {
        "src": str(src),
        "rounds": len(bare),
        "uses": {name: {**loaded[name], "net_ms": round(net[name] * 1000, 1)} for name in loaded},
    }


def print_table(result: dict[str, Any]) -> None:
    print(
        f"\nmodules loaded and import time per use, fresh processes ({result['rounds']} rounds; net of python -c pass)"
    )
    print(f"  {'use':<44} {'hand-written':>12} {'generated':>9} {'net ms':>7}")
    for name, row in result["uses"].items():
        print(f"  {name:<44} {len(row['hand_written']):>12} {row['generated']:>9} {row['net_ms']:>7}")
    for name, row in result["uses"].items():
        print(f"  {name}: {' '.join(row['hand_written'])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="5 rounds rather than 30")
    parser.add_argument(
        "--src", type=Path, default=ROOT / "src", help="the folder that holds the mplp_models to measure"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        print_table(run(Path(tmp), quick=args.quick, src=args.src.resolve()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
