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

# Functions over the budget in modules other engineers are rewriting at the same time; each is being brought
# under it there. The lead empties this list when the branches are merged: nothing is to be added to it.
PENDING: frozenset[tuple[str, str]] = frozenset(
    {
        ("_parse.py", "_kind_of"),
        ("_dialog.py", "DialogBehaviour._violations"),
        ("_llm_read.py", "_scan"),
        ("_llm_read.py", "_step"),
        ("_drafts.py", "PlanDraft._apply_to"),
        ("_cli/flow.py", "run_flow"),
    }
)


def over_budget() -> list[str]:
    """Each hand-written function above ``BUDGET``, as ``file:line name (complexity)``, but those ``PENDING``."""
    found: list[str] = []
    for path in sorted(SOURCE.rglob("*.py")):
        relative = path.relative_to(SOURCE).as_posix()
        if relative.startswith("_generated/"):
            continue
        for block in cc_visit(path.read_text(encoding="utf-8")):
            name = f"{block.classname}.{block.name}" if getattr(block, "classname", None) else block.name
            if block.complexity > BUDGET and (relative, name) not in PENDING:
                found.append(f"src/mplp_models/{relative}:{block.lineno} {name} ({block.complexity})")
    return found


def main() -> int:
    found = over_budget()
    for line in found:
        print(f"{line}: above the complexity budget of {BUDGET}; split it", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
