"""The docs describe the product as it is: no page speaks of the rounds of its work or of issue numbers.

The pages under docs/, the README, CONTRIBUTING and every docstring the API
reference shows (the public names of the package and of its public modules,
their methods included) are read for the words of a work diary: a numbered or
named round ("round four", "(round two)"), "this round", an issue number.
The history is in CHANGELOG.md and git.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
DIARY = re.compile(
    r"\bround (?:one|two|three|four|five|six|seven|eight|nine|ten|\d+)\b"
    r"|\((?:in |of |after |before )?round \w+\)|\bthis round\b|\bissues? #\d+|\(#\d+\b|\bissue \d+\b",
    re.IGNORECASE,
)
PUBLIC_MODULES = ["mplp_models", "mplp_models.literals", "mplp_models.chat", "mplp_models.llm", "mplp_models.testing"]
PUBLIC_MODULES += ["mplp_models.fastapi", "mplp_models.cortex", "mplp_models.invariants"]
MAX_PERFORMANCE_LINES = 350


def diary_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if DIARY.search(line)]


def test_the_pattern_finds_what_it_is_for() -> None:
    found = diary_lines(
        "Round four: one function\nmeasured (round two)\nas issue #26 sets\nthis round's change\nsee (#20, item 2)"
    )
    assert len(found) == 5
    assert diary_lines("a round trip\n41 interleaved rounds\nthe median of the per-round ratios\nround it") == []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_no_page_speaks_of_rounds_or_issue_numbers(page: Path) -> None:
    assert diary_lines(page.read_text(encoding="utf-8")) == []


def documented(module_name: str) -> Iterator[tuple[str, object]]:
    """Each public name of the module, and each public member of its classes, with its object."""
    module = importlib.import_module(module_name)
    yield module_name, module
    for name in getattr(module, "__all__", ()):
        value = getattr(module, name)
        yield f"{module_name}.{name}", value
        if inspect.isclass(value):
            for member, attribute in vars(value).items():
                if not member.startswith("_"):
                    yield f"{module_name}.{name}.{member}", attribute


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_no_docstring_in_the_api_reference_speaks_of_rounds_or_issue_numbers(module: str) -> None:
    found = {
        name: lines
        for name, value in documented(module)
        if (lines := diary_lines(getattr(value, "__doc__", None) or "")) and not isinstance(value, (str, int))
    }
    assert found == {}


def test_the_performance_page_is_a_reference_of_at_most_350_lines() -> None:
    lines = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_PERFORMANCE_LINES
