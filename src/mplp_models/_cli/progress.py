"""The progress bar of ``validate --ndjson`` on a terminal (needs rich, the ``cli`` extra)."""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

__all__ = ["bytes_progress"]


@contextmanager
def bytes_progress(paths: Sequence[str]) -> Generator[Callable[[int], None]]:
    """A bar over the bytes of ``paths`` (no total when one is stdin); yields the function that advances it."""
    total = None if "-" in paths else sum(_size(path) for path in paths)
    progress = Progress(
        TextColumn("validating"),
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        # rich's default sends whatever is printed meanwhile to the bar's console: the verdicts on stdout
        # would reach the terminal instead of the file or pipe they were sent to.
        redirect_stdout=False,
        redirect_stderr=False,
    )
    task = progress.add_task("validate", total=total)
    with progress:
        yield lambda size: progress.advance(task, size)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0  # reported as unreadable when it is read
