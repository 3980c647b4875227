"""``mplp-models validate``: documents in, one verdict per document out, in input order.

Input is read in blocks of whole lines (NDJSON) or whole files, so a file of any
size is read in bounded memory. With ``--jobs N`` the blocks go to N worker
processes, which also format the verdicts: the main process only reads, hands
out and writes, because on a machine with N cores every cycle it spends is taken
from the workers. At most two blocks per worker are in flight at any time.
"""

from __future__ import annotations

import json
import sys
import time
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from functools import cache
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from pydantic import ValidationError

from mplp_models._base import MplpModel
from mplp_models._errors import ErrorEntry, errors_as_json

if TYPE_CHECKING:
    from multiprocessing.pool import AsyncResult, Pool

__all__ = ["Outcome", "ValidateOptions", "check", "model_names", "run_validate"]

_BLOCK_BYTES = 1 << 18
_BAD_SHOWN = 20  # invalid documents the summary names

# The id field that names a document of each kind in an `ok` line.
_ID_FIELD = {
    "Plan": "plan_id", "PlanStep": "step_id", "Dialog": "dialog_id", "InboxMessage": "message_id",
    "LearningSample": "sample_id", "Event": "event_id", "TraceBase": "span_id",
}  # fmt: skip


class ValidateOptions(NamedTuple):
    paths: Sequence[str]
    model: str | None  # a model name, or None to tell the kind from the payload
    semantic: bool
    ndjson: bool
    json_output: bool
    jobs: int
    progress: bool


class Outcome(NamedTuple):
    kind: str | None
    id: str | None
    errors: list[ErrorEntry]  # empty when the document is valid


class _Block(NamedTuple):
    source: str
    first_line: int | None  # line number of the block's first line; None: the block is one whole document
    data: bytes


class _Report(NamedTuple):
    """The verdicts on one block, formatted: what to write, and what to count."""

    out: str
    err: str
    valid: int
    invalid: int
    bad: list[str]  # where the first invalid documents are


def run_validate(options: ValidateOptions) -> int:
    """Validate every document of ``options.paths``; the exit code (0 valid, 1 invalid, 2 unreadable)."""
    tally = _Tally()
    started = time.perf_counter()
    with _pool(options.jobs) as pool, _progress_bar(options) as advance:
        for report, size in _reports(options, pool, tally):
            sys.stdout.write(report.out)
            sys.stderr.write(report.err)
            tally.add(report)
            if advance is not None:
                advance(size)
    if options.ndjson:
        print(tally.summary(time.perf_counter() - started, qualify=len(options.paths) > 1), file=sys.stderr)
    return tally.exit_code()


def check(data: bytes, model: str | None, semantic: bool) -> Outcome:
    """The verdict on one JSON document, as ``model`` or (``None``) as the kind its keys name."""
    import mplp_models

    try:
        if model is None:
            instance: MplpModel = mplp_models.parse(data, semantic=semantic)
        else:
            instance = getattr(mplp_models, model).from_json(data, semantic=semantic)
    except ValidationError as error:
        kind = error.title if error.title in model_names() else model
        return Outcome(kind, None, errors_as_json(error))
    kind = type(instance).__name__
    field = _ID_FIELD.get(kind)
    return Outcome(kind, None if field is None else str(getattr(instance, field)), [])


@cache
def model_names() -> frozenset[str]:
    """The public model names, which ``--kind`` takes and error titles carry."""
    import mplp_models

    return frozenset(
        name for name in mplp_models.__all__
        if isinstance(kind := getattr(mplp_models, name), type) and issubclass(kind, MplpModel) and kind is not MplpModel
    )  # fmt: skip


def _check_block(block: _Block, options: ValidateOptions, qualify: bool) -> _Report:
    """Validate and format one block: the unit of work of a worker process."""
    out: list[str] = []
    err: list[str] = []
    bad: list[str] = []
    valid = invalid = 0
    for line, data in _documents(block):
        outcome = check(data, options.model, options.semantic)
        where = block.source if line is None else f"{block.source}:{line}"
        if outcome.errors:
            invalid += 1
            if len(bad) < _BAD_SHOWN:
                bad.append(where if qualify or line is None else str(line))
        else:
            valid += 1
        if options.json_output:
            out.append(json.dumps(_record(block.source, line, outcome), ensure_ascii=False))
        elif outcome.errors:
            err.append(f"{where}: invalid{_space(outcome.kind)}: {_problems(outcome.errors)}")
        else:
            out.append(f"{where}: ok {outcome.kind}{_space(outcome.id)}")
    return _Report(_lines(out), _lines(err), valid, invalid, bad)


def _documents(block: _Block) -> Iterator[tuple[int | None, bytes]]:
    if block.first_line is None:
        yield None, block.data
        return
    for offset, line in enumerate(block.data.split(b"\n")):
        if line.strip():  # blank lines (a trailing newline, say) hold no document
            yield block.first_line + offset, line


def _record(source: str, line: int | None, outcome: Outcome) -> dict[str, Any]:
    record: dict[str, Any] = {"source": source}
    if line is not None:
        record["line"] = line
    record.update(valid=not outcome.errors, kind=outcome.kind, id=outcome.id, errors=outcome.errors)
    return record


def _problems(errors: list[ErrorEntry]) -> str:
    return "; ".join(f"{entry['pointer']}: {entry['message']}" if entry["pointer"] else entry["message"] for entry in errors)


def _space(text: str | None) -> str:
    return "" if text is None else f" {text}"


def _lines(lines: list[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


def _reports(options: ValidateOptions, pool: Pool | None, tally: _Tally) -> Iterator[tuple[_Report, int]]:
    """The reports of every block, in input order, with the size of each block."""
    qualify = len(options.paths) > 1
    in_flight: deque[tuple[AsyncResult[_Report] | _Report, int]] = deque()
    window = 1 if pool is None else 2 * options.jobs
    for block in _blocks(options, tally):
        arguments = (block, options, qualify)
        report = _check_block(*arguments) if pool is None else pool.apply_async(_check_block, arguments)
        in_flight.append((report, len(block.data)))
        if len(in_flight) >= window:
            yield _ready(*in_flight.popleft())
    while in_flight:
        yield _ready(*in_flight.popleft())


def _ready(report: AsyncResult[_Report] | _Report, size: int) -> tuple[_Report, int]:
    return (report if isinstance(report, _Report) else report.get()), size


def _blocks(options: ValidateOptions, tally: _Tally) -> Iterator[_Block]:
    for path in options.paths:
        try:
            with _open(path) as stream:
                if not options.ndjson:
                    yield _Block(path, None, stream.read())
                    continue
                line = 1
                for data in _line_blocks(stream):
                    yield _Block(path, line, data)
                    line += data.count(b"\n")
        except OSError as error:
            # Reported when it happens: the blocks read before it are already on their way.
            sys.stderr.write(f"{path}: unreadable: {error.strerror or error}\n")
            tally.unreadable += 1


def _line_blocks(stream: IO[bytes]) -> Iterator[bytes]:
    """About ``_BLOCK_BYTES`` of whole lines at a time (one longer line makes a longer block)."""
    pending: list[bytes] = []
    while chunk := stream.read(_BLOCK_BYTES):
        cut = chunk.rfind(b"\n") + 1
        if not cut:
            pending.append(chunk)
            continue
        pending.append(chunk[:cut])
        yield b"".join(pending)
        pending = [chunk[cut:]] if cut < len(chunk) else []
    if pending:
        yield b"".join(pending)


def _open(path: str) -> AbstractContextManager[IO[bytes]]:
    if path == "-":
        return nullcontext(sys.stdin.buffer)
    return open(path, "rb")


def _pool(jobs: int) -> AbstractContextManager[Pool | None]:
    if jobs <= 1:
        return nullcontext()
    import multiprocessing

    # Made before any progress-bar thread starts, so forking is safe.
    return multiprocessing.get_context().Pool(jobs)


class _Tally:
    def __init__(self) -> None:
        self.valid = self.invalid = self.unreadable = 0
        self.bad: list[str] = []

    def add(self, report: _Report) -> None:
        self.valid += report.valid
        self.invalid += report.invalid
        self.bad.extend(report.bad[: _BAD_SHOWN - len(self.bad)])

    def summary(self, seconds: float, *, qualify: bool) -> str:
        text = f"{self.valid + self.invalid} documents in {seconds:.2f} s: {self.valid} valid, {self.invalid} invalid"
        if self.unreadable:
            text += f", {self.unreadable} unreadable inputs"
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
        from mplp_models._progress import bytes_progress
    except ImportError:  # rich is the optional `cli` extra
        return nullcontext()
    return bytes_progress(options.paths)
