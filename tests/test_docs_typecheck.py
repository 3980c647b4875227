"""Every Python code block of README.md and docs/ passes mypy --strict and pyright strict.

A page is checked as one module: its ```python blocks in order, every other line blank, so that a
checker's line numbers are the page's own. A block that is deliberately wrong (it shows what the
checkers refuse) is marked by the comment ``<!-- type-error -->`` on the line before its fence; each
checker must then report an error inside it, and nowhere else on the page. Blocks marked
``<!-- no-run -->`` (test_docs.py) are type-checked too: not running is not the same as not
compiling.

Both checkers run once over all the pages (about half a minute each on a cold cache).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT
from test_docs import FENCE, NO_RUN

TYPE_ERROR = "<!-- type-error -->"
MARKS = (NO_RUN, TYPE_ERROR)
PYRIGHT = ROOT / ".venv" / "bin" / "pyright"


@dataclass(frozen=True)
class Page:
    """One page as a module: its source, and the line ranges (1-based, inclusive) of its wrong blocks."""

    path: Path
    source: str
    wrong: tuple[tuple[int, int], ...]

    @property
    def module(self) -> str:
        relative = self.path.relative_to(ROOT).with_suffix("").as_posix()
        return "page_" + re.sub(r"\W", "_", relative)

    def in_wrong_block(self, line: int) -> bool:
        return any(first <= line <= last for first, last in self.wrong)


def page(path: Path) -> Page | None:
    """The page as a module, or None if it has no Python block."""
    text = path.read_text(encoding="utf-8")
    lines = [""] * (text.count("\n") + 1)
    wrong: list[tuple[int, int]] = []
    found = False
    for match in FENCE.finditer(text):
        if match.group(1) != "python":
            continue
        found = True
        first = text.count("\n", 0, match.start(2)) + 1
        code = match.group(2).rstrip("\n").split("\n")
        lines[first - 1 : first - 1 + len(code)] = code
        marks = text[: match.start()].rstrip("\n").rsplit("\n", 2)[-2:]
        if TYPE_ERROR in (mark.strip() for mark in marks):
            wrong.append((first, first + len(code) - 1))
    return Page(path, "\n".join(lines) + "\n", tuple(wrong)) if found else None


def pages() -> list[Page]:
    paths = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [found for found in map(page, paths) if found is not None]


@dataclass(frozen=True)
class Finding:
    checker: str
    module: str
    line: int
    message: str


def mypy_findings(folder: Path, modules: list[str]) -> Iterator[Finding]:
    command = [
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--python-version",
        "3.10",
        "--config-file",
        str(ROOT / "pyproject.toml"),
        "--cache-dir",
        str(ROOT / ".mypy_cache"),
        "--no-error-summary",
        "--show-error-codes",
        *(f"{module}.py" for module in modules),
    ]
    result = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    for text in result.stdout.splitlines():
        match = re.match(r"(\w+)\.py:(\d+): error: (.*)", text)
        if match:
            yield Finding("mypy", match.group(1), int(match.group(2)), match.group(3))


def pyright_findings(folder: Path) -> Iterator[Finding]:
    config = {
        "include": ["."],
        "venvPath": str(ROOT),
        "venv": ".venv",
        "typeCheckingMode": "strict",
        "pythonVersion": "3.10",
        "reportUnnecessaryTypeIgnoreComment": "error",
    }
    (folder / "pyrightconfig.json").write_text(json.dumps(config), encoding="utf-8")
    environment = {**os.environ, "PATH": f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run(
        [str(PYRIGHT), "--outputjson", "-p", str(folder)],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        env=environment,
    )
    assert result.returncode in (0, 1), result.stdout[-2000:] + result.stderr
    for diagnostic in json.loads(result.stdout)["generalDiagnostics"]:
        if diagnostic["severity"] == "error":
            module = Path(diagnostic["file"]).stem
            yield Finding("pyright", module, diagnostic["range"]["start"]["line"] + 1, diagnostic["message"])


@pytest.fixture(scope="module")
def findings(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Page], list[Finding]]:
    folder = tmp_path_factory.mktemp("pages")
    checked = pages()
    for each in checked:
        (folder / f"{each.module}.py").write_text(each.source, encoding="utf-8")
    modules = [each.module for each in checked]
    return checked, [*mypy_findings(folder, modules), *pyright_findings(folder)]


def test_every_block_type_checks(findings: tuple[list[Page], list[Finding]]) -> None:
    checked, found = findings
    by_module = {each.module: each for each in checked}
    unexpected = [
        f"{by_module[item.module].path.relative_to(ROOT)}:{item.line}: {item.checker}: {item.message}"
        for item in found
        if not by_module[item.module].in_wrong_block(item.line)
    ]
    assert not unexpected, "\n".join(unexpected)


def test_every_wrong_block_is_refused_by_both_checkers(findings: tuple[list[Page], list[Finding]]) -> None:
    checked, found = findings
    missed = [
        f"{each.path.relative_to(ROOT)}:{first}-{last}: {checker} reports nothing"
        for each in checked
        for first, last in each.wrong
        for checker in ("mypy", "pyright")
        if not any(
            item.checker == checker and item.module == each.module and first <= item.line <= last for item in found
        )
    ]
    assert not missed, "\n".join(missed)


def test_the_page_module_keeps_line_numbers(tmp_path: Path) -> None:
    markdown = tmp_path / "page.md"
    markdown.write_text(
        "# Title\n\n```python\nx: int = 1\n```\n\ntext\n\n"
        f"{TYPE_ERROR}\n```python\ny: str = x\n```\n\n```sh\nmake\n```\n",
        encoding="utf-8",
    )
    found = page(markdown)
    assert found is not None
    assert found.source.split("\n")[3] == "x: int = 1"
    assert found.source.split("\n")[10] == "y: str = x"
    assert found.wrong == ((11, 11),)
    assert "make" not in found.source
