"""The docs do not rot: their Python examples run, every page is in the site's nav, and the API
reference names every public name.

Each page's ```python blocks run in order, in one namespace, from the repository root (so they
can read examples/payloads). A block that cannot run (a fragment, or one that needs a network
or a service) is marked by the comment ``<!-- no-run -->`` on the line before its fence.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import ROOT

import mplp_models as mm

DOCS = ROOT / "docs"
NO_RUN = "<!-- no-run -->"
FENCE = re.compile(r"^```(\S*)[^\n]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)


def python_blocks(path: Path) -> list[tuple[int, str]]:
    """The runnable ```python blocks of a page: the line of each block's first line of code, and the code."""
    text = path.read_text(encoding="utf-8")
    blocks = []
    for match in FENCE.finditer(text):
        if match.group(1) != "python":
            continue
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        if before.strip() == NO_RUN:
            continue
        blocks.append((text.count("\n", 0, match.start(2)) + 1, match.group(2)))
    return blocks


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def pages_with_code() -> list[Path]:
    return [path for path in pages() if python_blocks(path)]


class _CountedAsserts(ast.NodeTransformer):
    """Each ``assert`` followed by a note of its line in ``__asserts_run__``: which of a page's checks ran."""

    def visit_Assert(self, node: ast.Assert) -> list[ast.stmt]:
        noted = ast.parse(f"__asserts_run__.add({node.lineno})").body
        return [node, *(ast.copy_location(statement, node) for statement in noted)]


@pytest.mark.parametrize("page", pages_with_code(), ids=lambda path: path.relative_to(DOCS).as_posix())
def test_python_blocks_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    ran: set[int] = set()
    namespace: dict[str, Any] = {"__name__": f"docs.{page.stem}", "__asserts_run__": ran}
    for line, code in python_blocks(page):
        # Leading newlines put the code at its own line numbers: a traceback names the page's line.
        tree = _CountedAsserts().visit(ast.parse("\n" * (line - 1) + code, str(page)))
        exec(compile(ast.fix_missing_locations(tree), str(page), "exec"), namespace)
    # The examples check what they show: running without an error is not all, their asserts held.
    assert ran, f"{page.name}: no assert of its examples ran"


def test_the_block_finder_skips_only_marked_blocks(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n```python\nx = 1\n```\n\n"
        f"{NO_RUN}\n```python\nnot python at all\n```\n\n"
        "```sh\nmake docs\n```\n\n```python\ny = x + 1\n```\n",
        encoding="utf-8",
    )
    assert python_blocks(page) == [(4, "x = 1\n"), (17, "y = x + 1\n")]


def test_no_run_marks_only_python_blocks() -> None:
    for page in pages():
        lines = page.read_text(encoding="utf-8").splitlines()
        for number, text in enumerate(lines):
            if text.strip() == NO_RUN:
                following = lines[number + 1] if number + 1 < len(lines) else ""
                assert following.startswith("```python"), f"{page.name}:{number + 1}: {NO_RUN} marks no python block"


class _Loader(yaml.SafeLoader):
    """Reads mkdocs.yml: its `!!python/name:` tags (mermaid's fence) are read as plain text."""


_Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: suffix)


def nav_pages(entries: Any) -> set[str]:
    if isinstance(entries, str):
        return {entries}
    if isinstance(entries, list):
        return set().union(*(nav_pages(entry) for entry in entries))
    if isinstance(entries, dict):
        return set().union(*(nav_pages(value) for value in entries.values()))
    return set()


def config() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
    return loaded


def test_every_page_is_in_the_nav() -> None:
    listed = nav_pages(config()["nav"])
    missing = [path.relative_to(DOCS).as_posix() for path in pages() if path.relative_to(DOCS).as_posix() not in listed]
    assert missing == [], f"pages not in mkdocs.yml's nav: {missing}"


def test_the_site_builds_offline() -> None:
    site = config()
    assert site["theme"]["name"] == "material"
    assert site["theme"]["font"] is False  # no web fonts fetched when a page is read
    plugin_names = {next(iter(p)) if isinstance(p, dict) else p for p in site["plugins"]}
    assert plugin_names <= {"search", "mkdocstrings"}  # privacy and social fetch from the network
    extensions = {next(iter(e)) if isinstance(e, dict) else e for e in site["markdown_extensions"]}
    highlight = next(
        e["pymdownx.highlight"]
        for e in site["markdown_extensions"]
        if isinstance(e, dict) and "pymdownx.highlight" in e
    )
    assert highlight["use_pygments"] is True  # coloured at build time, no script from a CDN
    assert {"admonition", "pymdownx.superfences"} <= extensions


def test_the_api_reference_names_every_public_name() -> None:
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    documented = re.findall(r"^::: mplp_models\.(\w+)\s*$", text, re.MULTILINE)
    public = [name for name in mm.__all__ if not name.startswith("__")]
    assert sorted(set(public) - set(documented)) == [], "add these to docs/api.md"
    modules = {
        name for name in documented if not name.startswith("_") and importlib.util.find_spec(f"mplp_models.{name}")
    }
    assert sorted(set(documented) - set(public) - modules) == [], "docs/api.md names these, which are not public"
    assert len(documented) == len(set(documented)), "docs/api.md names one object twice"
