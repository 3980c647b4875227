"""Every input the fuzzer has kept (its crashes and its seeds) goes through the fuzz target again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import PAYLOADS, ROOT

sys.path.insert(0, str(ROOT / "tests" / "fuzz"))
from target import check

REGRESSIONS = ROOT / "tests" / "fuzz" / "regressions"


def inputs() -> list[Path]:
    return sorted(REGRESSIONS.glob("*")) + sorted(PAYLOADS.glob("*.json"))


@pytest.mark.parametrize("path", inputs(), ids=lambda path: path.name)
def test_fuzz_input(path: Path) -> None:
    check(path.read_bytes())
