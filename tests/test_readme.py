"""The README's quickstart runs as written."""

from __future__ import annotations

import os
import re

import pytest
from conftest import ROOT


def test_quickstart_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert code is not None
    monkeypatch.chdir(ROOT.parent)  # the quickstart needs none of the repository's files
    namespace: dict[str, object] = {}
    exec(compile(code.group(1), "README.md", "exec"), namespace)
    assert type(namespace["event"]).__name__ == "Event"
    assert os.path.exists(ROOT / ".ci" / "run")


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make test" in readme.split("## ")[0]
    assert "exec make test" in (ROOT / ".ci" / "run").read_text()


def test_the_readme_links_work_on_pypi() -> None:
    # PyPI shows the README without the repository: a relative link there leads nowhere.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)]+)\)", readme)
    assert targets, "the README links its docs"
    repository = "https://github.com/mplp-models/mplp-models/blob/main/"
    for target in targets:
        assert target.startswith("https://"), target
        if target.startswith(repository):
            assert (ROOT / target.removeprefix(repository)).exists(), target
