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
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {}
    exec(compile(code.group(1), "README.md", "exec"), namespace)
    assert type(namespace["event"]).__name__ == "Event"
    assert os.path.exists(ROOT / ".ci" / "run")


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make test" in readme.split("## ")[0]
    assert "exec make test" in (ROOT / ".ci" / "run").read_text()
