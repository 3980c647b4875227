"""``mplp-models validate``: documents in, one verdict per document out, in input order.

Documents flow in chunks so that a file of any size is read in bounded memory
and, with ``--jobs N``, validated by N worker processes while the parent reads
ahead and prints; at most a few chunks per worker are ever in flight.
"""

from __future__ import annotations

import json
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from contextlib import AbstractContextManager, nullcontext
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from pydantic import ValidationError

from mplp_models._base import MplpModel
from mplp_models._errors import ErrorEntry, errors_as_json

if TYPE_CHECKING:
    from multiprocessing.pool import AsyncResult, Pool

__all__ = ["Document", "Outcome", "Unreadable", "ValidateOptions", "check", "check_many", "model_names", "run_validate"]

_CHUNK_DOCS = 256
_CHUNK_BYTES = 1 << 20
_BAD_LINES_SHOWN = 20

# The id field that names a document of each kind in an `ok` line.
_ID_FIELD = {
    "Plan": "plan_id", "PlanStep": "step_id", "Dialog": "dialog_id", "InboxMessage": "message_id",
    "LearningSample": "sample_id", "Event": "event_id", "TraceBase": "span_id",
}  # fmt: skip


class Document(NamedTuple):
    source: str
    line: int | None  # 1-based line number in an NDJSON source
    data: bytes


class Unreadable(NamedTuple):
    source: str
    reason: str


class Outcome(NamedTuple):
    kind: str | None
    id: str | None
    errors: list[ErrorEntry]  # empty when the document is valid


class ValidateOptions(NamedTuple):
    paths: Sequence[str]
    model: str | None  # a model name, or None to tell the kind from the payload
    semantic: bool
    ndjson: bool
    json_output: bool
    jobs: int
    progress: bool


def run_validate(options: ValidateOptions) -> int:
    """Validate every document of ``options.paths``; the exit code (0 valid, 1 invalid, 2 unreadable)."""
    tally = _Tally(qualify=len(options.paths) > 1)
    started = time.perf_counter()
    items = _items(options.paths, options.ndjson)
    with _pool(options.jobs) as pool, _progress_bar(options) as advance:
        for item, outcome in _verdicts(_chunks(items), options, pool):
            _emit(item, outcome, options.json_output)
            tally.add(item, outcome)
            if advance is not None and isinstance(item, Document):
                advance(len(item.data) + 1)
    if options.ndjson:
        print(tally.summary(time.perf_counter() - started), file=sys.stderr)
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


def check_many(documents: list[bytes], model: str | None, semantic: bool) -> list[Outcome]:
    """``check`` over a chunk: the unit of work a worker process takes."""
    return [check(data, model, semantic) for data in documents]


@cache
def model_names() -> frozenset[str]:
    """The public model names, which ``--kind`` takes and error titles carry."""
    import mplp_models

    return frozenset(
        name for name in mplp_models.__all__
        if isinstance(kind := getattr(mplp_models, name), type) and issubclass(kind, MplpModel) and kind is not MplpModel
    )  # fmt: skip


def _items(paths: Sequence[str], ndjson: bool) -> Iterator[Document | Unreadable]:
    for path in paths:
        try:
            with _open(path) as stream:
                if ndjson:
                    for number, line in enumerate(stream, 1):
                        if line.strip():  # blank lines (a trailing newline, say) hold no document
                            yield Document(path, number, line)
                else:
                    yield Document(path, None, stream.read())
        except OSError as error:
            yield Unreadable(path, error.strerror or str(error))


def _open(path: str) -> AbstractContextManager[IO[bytes]]:
    if path == "-":
        return nullcontext(sys.stdin.buffer)
    return open(path, "rb")


def _chunks(items: Iterable[Document | Unreadable]) -> Iterator[list[Document | Unreadable]]:
    chunk: list[Document | Unreadable] = []
    size = 0
    for item in items:
        chunk.append(item)
        size += len(item.data) if isinstance(item, Document) else 0
        if len(chunk) >= _CHUNK_DOCS or size >= _CHUNK_BYTES:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


def _verdicts(
    chunks: Iterable[list[Document | Unreadable]], options: ValidateOptions, pool: Pool | None
) -> Iterator[tuple[Document | Unreadable, Outcome | None]]:
    in_flight: deque[tuple[list[Document | Unreadable], AsyncResult[list[Outcome]] | list[Outcome]]] = deque()
    window = 1 if pool is None else 2 * options.jobs
    for chunk in chunks:
        documents = [item.data for item in chunk if isinstance(item, Document)]
        arguments = (documents, options.model, options.semantic)
        in_flight.append((chunk, check_many(*arguments) if pool is None else pool.apply_async(check_many, arguments)))
        if len(in_flight) >= window:
            yield from _paired(*in_flight.popleft())
    while in_flight:
        yield from _paired(*in_flight.popleft())


def _paired(
    chunk: list[Document | Unreadable], result: AsyncResult[list[Outcome]] | list[Outcome]
) -> Iterator[tuple[Document | Unreadable, Outcome | None]]:
    outcomes = iter(result if isinstance(result, list) else result.get())
    for item in chunk:
        yield item, next(outcomes) if isinstance(item, Document) else None


def _pool(jobs: int) -> AbstractContextManager[Pool | None]:
    if jobs <= 1:
        return nullcontext()
    import multiprocessing

    # Made before any progress-bar thread starts, so forking is safe.
    return multiprocessing.get_context().Pool(jobs)


def _where(item: Document | Unreadable) -> str:
    return f"{item.source}:{item.line}" if isinstance(item, Document) and item.line is not None else item.source


def _emit(item: Document | Unreadable, outcome: Outcome | None, json_output: bool) -> None:
    where = _where(item)
    if outcome is None:
        print(f"{where}: unreadable: {item.reason if isinstance(item, Unreadable) else ''}", file=sys.stderr)
    elif json_output:
        print(json.dumps(_record(item, outcome), ensure_ascii=False), file=sys.stdout)
    elif not outcome.errors:
        print(f"{where}: ok {outcome.kind}{'' if outcome.id is None else ' ' + outcome.id}", file=sys.stdout)
    else:
        problems = "; ".join(f"{entry['pointer']}: {entry['message']}" if entry["pointer"] else entry["message"]
                             for entry in outcome.errors)  # fmt: skip
        print(f"{where}: invalid{'' if outcome.kind is None else ' ' + outcome.kind}: {problems}", file=sys.stderr)


def _record(item: Document | Unreadable, outcome: Outcome) -> dict[str, Any]:
    record: dict[str, Any] = {"source": item.source}
    if isinstance(item, Document) and item.line is not None:
        record["line"] = item.line
    record.update(valid=not outcome.errors, kind=outcome.kind, id=outcome.id, errors=outcome.errors)
    return record


class _Tally:
    def __init__(self, *, qualify: bool) -> None:
        self.valid = self.invalid = self.unreadable = 0
        self.bad: list[str] = []  # where the first invalid documents are
        self.qualify = qualify  # name the source of each line (more than one input)

    def add(self, item: Document | Unreadable, outcome: Outcome | None) -> None:
        if outcome is None:
            self.unreadable += 1
        elif outcome.errors:
            self.invalid += 1
            if len(self.bad) < _BAD_LINES_SHOWN and isinstance(item, Document):
                self.bad.append(_where(item) if self.qualify or item.line is None else str(item.line))
        else:
            self.valid += 1

    def summary(self, seconds: float) -> str:
        total = self.valid + self.invalid
        text = f"{total} documents in {seconds:.2f} s: {self.valid} valid, {self.invalid} invalid"
        if self.unreadable:
            text += f", {self.unreadable} unreadable sources"
        if self.bad:
            more = self.invalid - len(self.bad)
            text += f" ({'at' if self.qualify else 'lines'} {', '.join(self.bad)}{f' and {more} more' if more else ''})"
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
