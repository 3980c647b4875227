"""The tools the tests of pictures and OpenTelemetry run beyond the venv: Graphviz's dot, mermaid's own parser
under node, and the OTLP backend (Arize Phoenix), installed into .tools/ by tests/tools/setup.sh.

``make test`` starts that script in the background before the lint; ``tools()`` runs it again, which waits
for that run (it takes turns by a lock) and then finds everything installed. If a tool cannot be installed
or started the tests that need it fail, saying why; ``MPLP_SKIP_TEST_TOOLS=1`` skips them instead (for a
machine without the registries, say: CONTRIBUTING.md).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

SKIP_VARIABLE = "MPLP_SKIP_TEST_TOOLS"
TOOLS = ROOT / ".tools"


@dataclass(frozen=True)
class Tools:
    mermaid: Path  # the folder of check.mjs and its node_modules
    phoenix: Path  # the backend's venv


def tools() -> Tools:
    """The installed tools; a skip with ``MPLP_SKIP_TEST_TOOLS=1``, else a failure that says what went wrong."""
    if os.environ.get(SKIP_VARIABLE) == "1":
        pytest.skip(f"{SKIP_VARIABLE}=1: the tests that need dot, mermaid's parser or the OTLP backend are skipped")
    setup = subprocess.run(
        [str(ROOT / "tests" / "tools" / "setup.sh")], capture_output=True, text=True, timeout=600, check=False
    )
    if setup.returncode != 0:
        pytest.fail(f"tests/tools/setup.sh failed ({setup.returncode}):\n{setup.stderr[-4000:]}", pytrace=False)
    return Tools(TOOLS / "mermaid", TOOLS / "phoenix")


class MermaidParser:
    """mermaid's own parser in one node process: ``read(text)`` is what it read from a diagram (check.mjs)."""

    def __init__(self, folder: Path) -> None:
        self._process = subprocess.Popen(
            ["node", str(folder / "check.mjs")],
            cwd=folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def read(self, text: str) -> dict[str, Any]:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps(text) + "\n")
        self._process.stdin.flush()
        answer = self._process.stdout.readline()
        assert answer, "mermaid's parser (node) stopped"
        read: dict[str, Any] = json.loads(answer)
        return read

    def close(self) -> None:
        for stream in (self._process.stdin, self._process.stdout):
            if stream is not None:
                stream.close()
        self._process.wait(timeout=30)


@pytest.fixture(scope="session", name="mermaid")
def mermaid_parser() -> Iterator[MermaidParser]:
    """mermaid's parser, one node process for the test process (import ``mermaid_parser``; ask for ``mermaid``)."""
    parser = MermaidParser(tools().mermaid)
    yield parser
    parser.close()
