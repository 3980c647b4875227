"""docs/architecture.md names every module of the package and every fast path, as they are in the code."""

from __future__ import annotations

import re
from pathlib import Path

from test_import_graph import LAYERS, MODULES, PACKAGE

from mplp_models import _fastpath

PAGE = (Path(__file__).resolve().parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
WORDS = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", PAGE))


def test_every_module_of_the_package_is_on_the_page() -> None:
    names = {name.removeprefix(PACKAGE + ".").split(".")[0] for name in MODULES if name != PACKAGE}
    missing = sorted(name for name in names if name not in WORDS)
    assert not missing, f"docs/architecture.md does not name {missing}"
    cli = sorted(name.rsplit(".", 1)[1] for name in MODULES if name.startswith(f"{PACKAGE}._cli."))
    assert all(name in WORDS for name in cli), cli


def test_every_layer_is_drawn_in_order() -> None:
    drawing = PAGE[PAGE.index("```text") : PAGE.index("```", PAGE.index("```text") + 3)]
    # A row's name starts one space in; a row continued on the next line starts further in.
    rows = [line.split("  ")[0].strip() for line in drawing.splitlines()[1:] if line.strip() and line[1] != " "]
    assert rows == [name for name, _ in reversed(LAYERS)]


def test_every_fast_path_is_named_with_its_switch() -> None:
    for name in _fastpath.NAMES:
        assert f"| `{name}` |" in PAGE, name
