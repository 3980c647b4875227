"""A mutation check: hand-picked wrong versions of the code that matters most, each caught by the tests.

Each mutant is one exact text replacement in one module, applied to a copy of the package
in a temporary folder (the checkout never changes). The test files it names then run
against the copy, in a child process whose ``PYTHONPATH`` puts the copy first; the mutant
is killed when they fail. A mutant that survives is a wrong program the tests accept: a
test is missing. An anchor the module no longer holds (exactly once) fails too, so code
that moved is noticed: update the anchor (each is one line, or a few, of the code it
breaks), or the module's name.

Chosen: the lifecycle tables and the rule that builds the open ones, the dependency and
status rules of a plan and the cheap proof that skips them, the timeline rules, the
duplicate-id rule, the canonical number writer, and the duplicate-key proof of the reader.
The mutants are slow (a pytest run each): ``make test-deep`` only; the check that every
anchor is still in the code is quick, and runs in ``make test`` too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE = ROOT / "src" / "mplp_models"
LIFECYCLE = ("tests/test_lifecycle.py",)
RULES = ("tests/test_rules.py", "tests/test_module_rules.py")
CANONICAL = ("tests/test_canonical.py",)
READER = ("tests/test_json_input.py", "tests/test_parse.py")
TIMEOUT = 600  # seconds for one mutant's test files


@dataclass(frozen=True)
class Mutant:
    name: str
    module: str  # under src/mplp_models
    anchor: str  # the exact text replaced; the module holds it exactly once
    replacement: str
    tests: tuple[str, ...]  # the test files that must catch it


MUTANTS = [
    # --- the lifecycle tables ---
    Mutant(
        "a failed step may complete",
        "_plan.py",
        '"failed": ("pending",),',
        '"failed": ("pending", "completed"),',
        LIFECYCLE,
    ),
    Mutant(
        "a draft plan may be approved",
        "_plan.py",
        '"draft": ("proposed", "cancelled"),',
        '"draft": ("proposed", "approved", "cancelled"),',
        LIFECYCLE,
    ),
    Mutant("a completed dialog may resume", "_dialog.py", '"completed": (),', '"completed": ("active",),', LIFECYCLE),
    Mutant(
        "an unread message may be acknowledged",
        "_inbox.py",
        '"unread": ("read",),',
        '"unread": ("read", "acknowledged"),',
        LIFECYCLE,
    ),
    Mutant(
        "no open lifecycle has a final state",
        "_rules.py",
        "return {state: () if state in final else",
        "return {state: () if state in () else",
        LIFECYCLE,
    ),
    # --- the plan's dependency and status rules ---
    Mutant(
        "a skipped dependency holds its step back",
        "_plan.py",
        'DONE = ("completed", "skipped")',
        'DONE = ("completed",)',
        RULES,
    ),
    Mutant(
        "a running step needs no dependency done",
        "_plan.py",
        'STARTED = ("in_progress", "completed")',
        'STARTED = ("completed",)',
        RULES,
    ),
    Mutant(
        "a step may depend on itself",
        "_plan.py",
        "if dependency == step_id:",
        "if dependency == step_id and False:",
        RULES,
    ),
    Mutant(
        "the cheap graph proof lets a step depend on itself",
        "_plan.py",
        "if position_of(dependency, count) >= position:",
        "if position_of(dependency, count) > position:",
        RULES,
    ),
    Mutant(
        "a completed plan may hold an unfinished step",
        "_plan.py",
        "if completed and own not in DONE:",
        'if completed and own not in DONE and own != "failed":',
        RULES,
    ),
    # --- the timeline rules ---
    Mutant(
        "an inbox stamp may come before created_at",
        "_inbox.py",
        "if value is not None and is_before(value, self.created_at):",
        "if value is not None and is_before(self.created_at, value):",
        RULES,
    ),
    Mutant(
        "a trace or segment may finish before it starts",
        "_trace.py",
        "if started is None or finished is None or not is_before(finished, started):",
        "if started is None or finished is None or is_before(finished, started):",
        RULES,
    ),
    Mutant(
        "a decision may come before its request",
        "_module_bases.py",
        "if is_before(decision.decided_at, self.requested_at):",
        "if is_before(self.requested_at, decision.decided_at):",
        RULES,
    ),
    Mutant(
        "one repeated id goes unseen",
        "_rules.py",
        "if len(set(ids)) == len(ids):",
        "if len(set(ids)) >= len(ids) - 1:",
        RULES,
    ),
    # --- the canonical number writer ---
    Mutant(
        "1e21 is written in full",
        "_json_values.py",
        "if count <= point <= 21:",
        "if count <= point <= 22:",
        CANONICAL,
    ),
    Mutant("1e-7 is written in full", "_json_values.py", "if -6 < point <= 0:", "if -7 < point <= 0:", CANONICAL),
    Mutant(
        "repr's layout is taken below 1e-4",
        "_json_values.py",
        "1e-4 <= abs(value) < 1e16",
        "1e-5 <= abs(value) < 1e16",
        CANONICAL,
    ),
    # --- the duplicate-key proof ---
    Mutant(
        "one duplicate key goes uncounted",
        "_json_input.py",
        'is not None) or raw.count(b":") != kept_colons',
        'is not None) or raw.count(b":") > kept_colons + 1',
        READER,
    ),
    Mutant(
        "the tokenizer finds no duplicate",
        "_json_input.py",
        "if key in keys:",
        "if key in keys and len(keys) > 1:",
        READER,
    ),
    Mutant(
        "pydantic's reading is kept with a duplicate key",
        "_reader.py",
        'return colons + escaped + unset == written.count(b":")',
        'return colons + escaped + unset >= written.count(b":")',
        READER,
    ),
]


def mutated_copy(folder: Path, mutant: Mutant | None) -> Path:
    """A copy of the package under ``folder/src`` with ``mutant`` applied (none: as it is); the copy's src."""
    source = folder / "src"
    shutil.copytree(PACKAGE, source / "mplp_models", ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "schemas").symlink_to(ROOT / "schemas")  # where a source checkout reads its schemas (_schemas._root)
    if mutant is not None:
        module = source / "mplp_models" / mutant.module
        text = module.read_text(encoding="utf-8")
        found = text.count(mutant.anchor)
        assert found == 1, f"{mutant.module} holds the anchor {mutant.anchor!r} {found} times, not once: update it"
        module.write_text(text.replace(mutant.anchor, mutant.replacement), encoding="utf-8")
    return source


def run_tests(source: Path, tests: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    environment = {
        **os.environ,
        "PYTHONPATH": str(source),
        "PYTHONDONTWRITEBYTECODE": "1",
        "MPLP_TEST_PROFILE": "quick",
    }
    environment.pop("MPLP_MODELS_NO_FAST_PATHS", None)
    where = subprocess.run(
        [sys.executable, "-c", "import mplp_models; print(mplp_models.__file__)"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    assert where.stdout.strip() == str(source / "mplp_models" / "__init__.py"), "the copy is not the one imported"
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-x",
        "-q",
        "-n",
        "0",
        "-p",
        "no:cacheprovider",
        "-m",
        "not slow",
        *tests,
    ]
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=TIMEOUT)


@pytest.mark.slow
def test_the_unmutated_copy_passes_every_chosen_test_file(tmp_path: Path) -> None:
    chosen = tuple(dict.fromkeys(test for mutant in MUTANTS for test in mutant.tests))
    result = run_tests(mutated_copy(tmp_path, None), chosen)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda mutant: mutant.name.replace(" ", "-"))
def test_each_mutant_is_killed(mutant: Mutant, tmp_path: Path) -> None:
    result = run_tests(mutated_copy(tmp_path, mutant), mutant.tests)
    assert result.returncode == 1, (
        f"mutant survived ({mutant.module}: {mutant.anchor!r} -> {mutant.replacement!r}), exit {result.returncode}:\n"
        + result.stdout[-3000:]
        + result.stderr[-3000:]
    )


def test_every_anchor_is_in_the_code_once() -> None:
    # Not slow, so in make test too: code that moved is noticed at once, not at the next make test-deep.
    for mutant in MUTANTS:
        assert (PACKAGE / mutant.module).read_text(encoding="utf-8").count(mutant.anchor) == 1, mutant.name
        assert mutant.anchor != mutant.replacement
