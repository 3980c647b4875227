"""``mplp-models validate``: documents in, one verdict per document out, in input order.

Input is read in blocks of whole lines (NDJSON) or whole files, so a file of any
size is read in bounded memory. With ``--jobs N``, N processes check them: this
one and N - 1 helpers. The blocks go to the helpers as bytes, two in flight per
helper, and come back as their reports, the verdicts already formatted (two
strings and the counts); whenever every helper has two, this process checks the
next block itself. So N processes keep N cores busy, with no process that only
reads and writes taking a share of them, and the output is the reports in input
order, each written as soon as those before it are (``_reports``).
"""

from __future__ import annotations

import gc
import json
import signal
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any, NamedTuple

from mplp_models._base import MplpModel
from mplp_models._cli.input import open_input, problems
from mplp_models._lines import MAX_LINE_BYTES, LineVerdict, check_document, check_lines, line_blocks
from mplp_models._text import printable

if TYPE_CHECKING:
    from multiprocessing.pool import AsyncResult, Pool

__all__ = ["ValidateOptions", "run_validate"]

_BLOCK_BYTES = 1 << 18
_BAD_SHOWN = 20  # invalid documents the summary names


class ValidateOptions(NamedTuple):
    paths: Sequence[str]
    model: str | None  # a model name, or None to tell the kind from the payload
    semantic: bool
    ndjson: bool
    json_output: bool
    jobs: int
    progress: bool
    max_line_bytes: int = MAX_LINE_BYTES  # NDJSON: a longer line is not read (line_too_long)


class _Settings(NamedTuple):
    """What every worker needs to check and format documents: sent once, when the worker starts."""

    model: str | None
    semantic: bool
    json_output: bool
    qualify: bool  # name the source on each summary entry (more than one input)
    max_line_bytes: int


class _Block(NamedTuple):
    label: str  # the source as printed
    first_line: int | None  # line number of the block's first line; None: the block is one whole document
    data: bytes


class _Unreadable(NamedTuple):
    label: str
    reason: str


_Task = list[_Block | _Unreadable]


class _Report(NamedTuple):
    """The verdicts on one task, formatted: what to write, and what to count."""

    out: str
    err: str
    valid: int
    invalid: int
    unreadable: int
    bad: list[str]  # where the first invalid documents are


def run_validate(options: ValidateOptions) -> int:
    """Validate every document of ``options.paths``; the exit code (0 valid, 1 invalid, 2 unreadable)."""
    settings = _Settings(
        options.model, options.semantic, options.json_output, len(options.paths) > 1, options.max_line_bytes
    )
    tally = _Tally()
    started = time.perf_counter()
    with _pool(options.jobs, settings) as pool, _progress_bar(options) as advance:
        for report, size in _reports(_tasks(_items(options)), settings, pool, options.jobs):
            sys.stdout.write(report.out)
            sys.stdout.flush()  # a verdict is out as soon as it is known, also into a pipe
            sys.stderr.write(report.err)
            tally.add(report)
            if advance is not None:
                advance(size)
    if options.ndjson:
        print(tally.summary(time.perf_counter() - started, qualify=settings.qualify), file=sys.stderr)
    return tally.exit_code()


def _check_task(task: _Task, settings: _Settings) -> _Report:
    """Validate and format the documents of one task, in order."""
    out: list[str] = []
    err: list[str] = []
    bad: list[str] = []
    valid = invalid = unreadable = 0
    kind = _model(settings.model)
    for item in task:
        if isinstance(item, _Unreadable):
            err.append(printable(f"mplp-models: {item.label}: unreadable: {item.reason}"))
            unreadable += 1
            continue
        for line, verdict in _verdicts(item, settings, kind):
            where = item.label if line is None else f"{item.label}:{line}"
            if verdict.ok:
                valid += 1
            else:
                invalid += 1
                if len(bad) < _BAD_SHOWN:
                    bad.append(where if settings.qualify or line is None else str(line))
            if settings.json_output:
                out.append(json.dumps(_record(item.label, line, verdict), ensure_ascii=False))
            elif verdict.ok:
                out.append(printable(f"{where}: ok {verdict.kind}{_space(verdict.id)}"))
            else:
                err.append(printable(f"{where}: invalid{_space(verdict.kind)}: {problems(verdict.errors)}"))
    return _Report(_lines(out), _lines(err), valid, invalid, unreadable, bad)


def _model(name: str | None) -> type[MplpModel] | None:
    if name is None:
        return None
    import mplp_models

    model: type[MplpModel] = getattr(mplp_models, name)
    return model


def _verdicts(
    block: _Block, settings: _Settings, kind: type[MplpModel] | None
) -> Iterator[tuple[int | None, LineVerdict]]:
    """The verdict on each document of a block, with its line number (``None`` for a whole file)."""
    if block.first_line is None:
        yield None, check_document(block.data, semantic=settings.semantic, kind=kind)
        return
    lines = block.data.split(b"\n")
    verdicts = check_lines(lines, semantic=settings.semantic, kind=kind, max_line_bytes=settings.max_line_bytes)
    for offset, verdict in enumerate(verdicts):
        if verdict is not None:  # a blank line (a trailing newline, say) holds no document
            yield block.first_line + offset, verdict


def _record(source: str, line: int | None, verdict: LineVerdict) -> dict[str, Any]:
    record: dict[str, Any] = {"source": source}
    if line is not None:
        record["line"] = line
    record.update(valid=verdict.ok, kind=verdict.kind, id=verdict.id, errors=verdict.errors)
    return record


def _counted(count: int, what: str) -> str:
    """``count`` and ``what``, plural but for 1: ``1 document``, ``2 documents``."""
    return f"{count} {what}" if count == 1 else f"{count} {what}s"


def _space(text: str | None) -> str:
    return "" if text is None else f" {text}"


def _lines(lines: list[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


def _reports(
    tasks: Iterable[tuple[_Task, int]], settings: _Settings, pool: Pool | None, jobs: int
) -> Iterator[tuple[_Report, int]]:
    """The report on every task, in input order, with the input size of each."""
    if pool is None:
        for task, size in tasks:
            yield _check_task(task, settings), size
        return
    deep = 2 * (jobs - 1)  # blocks in flight to the helpers, at most
    pending: deque[tuple[AsyncResult[_Report] | _Report, int]] = deque()
    for task, size in tasks:
        if sum(not isinstance(item, _Report) and not item.ready() for item, _ in pending) < deep:
            pending.append((pool.apply_async(_work, (task,)), size))
        else:  # every helper has its two: this process checks the block while they work
            pending.append((_check_task(task, settings), size))
        # Pass on what is done, in order; wait only when many reports are held (memory stays bounded).
        while pending and (_done(pending[0][0]) or len(pending) > _HELD * jobs):
            item, done = pending.popleft()
            yield _report(item), done
    for item, done in pending:
        yield _report(item), done


_HELD = 4  # reports held per job, at most, behind one that is not done


def _done(item: AsyncResult[_Report] | _Report) -> bool:
    return isinstance(item, _Report) or item.ready()


def _report(item: AsyncResult[_Report] | _Report) -> _Report:
    return item if isinstance(item, _Report) else item.get()


def _tasks(items: Iterable[_Block | _Unreadable]) -> Iterator[tuple[_Task, int]]:
    """Whole files grouped up to about ``_BLOCK_BYTES`` a task, so many small files cost few hand-offs; NDJSON blocks
    alone."""
    task: _Task = []
    size = 0
    for item in items:
        streamed = isinstance(item, _Block) and item.first_line is not None
        if streamed and task:
            yield task, size
            task, size = [], 0
        task.append(item)
        size += len(item.data) if isinstance(item, _Block) else 0
        if streamed or size >= _BLOCK_BYTES:
            yield task, size
            task, size = [], 0
    if task:
        yield task, size


def _items(options: ValidateOptions) -> Iterator[_Block | _Unreadable]:
    for path in options.paths:
        label = _label(path)
        try:
            with open_input(path) as stream:
                if not options.ndjson:
                    yield _Block(label, None, stream.read())
                    continue
                line = 1
                for data in line_blocks(stream, block_bytes=_BLOCK_BYTES, max_line_bytes=options.max_line_bytes):
                    yield _Block(label, line, data)
                    line += data.count(b"\n")
        except OSError as error:
            yield _Unreadable(label, error.strerror or str(error))


def _label(path: str) -> str:
    # A file name that is not UTF-8 (kept by Python as lone surrogates) is shown escaped, not crashed on.
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _pool(jobs: int, settings: _Settings) -> AbstractContextManager[Pool | None]:
    """The ``jobs - 1`` helper processes (none for one job): this process is the other one."""
    if jobs <= 1:
        return nullcontext()
    import multiprocessing

    # Made before any progress-bar thread starts, so forking is safe. Frozen, the objects made so far (the
    # models, their validators) are left alone by the helpers' garbage collector, so their pages stay shared.
    gc.freeze()
    try:
        return multiprocessing.get_context().Pool(jobs - 1, initializer=_start_worker, initargs=(settings,))
    finally:
        gc.unfreeze()


_worker_settings: _Settings | None = None


def _start_worker(settings: _Settings) -> None:
    global _worker_settings
    # Ctrl-C is the main process's to handle: it stops the pool, and the workers print nothing.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_settings = settings


def _work(task: _Task) -> _Report:
    assert _worker_settings is not None, "runs only in a pool started by _pool"
    return _check_task(task, _worker_settings)


class _Tally:
    def __init__(self) -> None:
        self.valid = self.invalid = self.unreadable = 0
        self.bad: list[str] = []

    def add(self, report: _Report) -> None:
        self.valid += report.valid
        self.invalid += report.invalid
        self.unreadable += report.unreadable
        self.bad.extend(report.bad[: _BAD_SHOWN - len(self.bad)])

    def summary(self, seconds: float, *, qualify: bool) -> str:
        count = self.valid + self.invalid
        text = f"{_counted(count, 'document')} in {seconds:.2f} s: {self.valid} valid, {self.invalid} invalid"
        if self.unreadable:
            text += f", {_counted(self.unreadable, 'unreadable input')}"
        if self.bad:
            more = self.invalid - len(self.bad)
            text += f" ({'at' if qualify else 'lines'} {', '.join(self.bad)}{f' and {more} more' if more else ''})"
        return text

    def exit_code(self) -> int:
        return 2 if self.unreadable else 1 if self.invalid else 0


def _progress_bar(options: ValidateOptions) -> AbstractContextManager[Any]:
    """A callable that advances a bar by bytes, or None: a bar only for NDJSON on a terminal with rich installed."""
    if not (options.progress and options.ndjson and sys.stderr.isatty()):
        return nullcontext()
    try:
        from mplp_models._cli.progress import bytes_progress
    except ImportError:  # rich is the optional `cli` extra
        return nullcontext()
    return bytes_progress(options.paths)
