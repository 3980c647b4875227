"""make lint's complexity budget: no hand-written function of the package above cyclomatic complexity 15 (radon).

    .venv/bin/python tests/complexity_budget.py   # exit 1, naming each function over the budget

The generated models are the codegen's own and left out.
"""

from __future__ import annotations

import sys
from pathlib import Path

from radon.complexity import cc_visit

BUDGET = 15
SOURCE = Path(__file__).resolve().parents[1] / "src" / "mplp_models"


def over_budget() -> list[str]:
    """Each hand-written function above ``BUDGET``, as ``file:line name (complexity)``."""
    found: list[str] = []
    for path in sorted(SOURCE.rglob("*.py")):
        relative = path.relative_to(SOURCE).as_posix()
        if relative.startswith("_generated/"):
            continue
        for block in cc_visit(path.read_text(encoding="utf-8")):
            name = f"{block.classname}.{block.name}" if getattr(block, "classname", None) else block.name
            if block.complexity > BUDGET:
                found.append(f"src/mplp_models/{relative}:{block.lineno} {name} ({block.complexity})")
    return found


def main() -> int:
    found = over_budget()
    for line in found:
        print(f"{line}: above the complexity budget of {BUDGET}; split it", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
