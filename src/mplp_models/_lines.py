"""``check_lines``: a verdict per NDJSON line, for ``validate --ndjson`` and for any engine that maps over
partitions."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import IO, NamedTuple

from pydantic import ValidationError

from mplp_models import _fastpath
from mplp_models._base import MplpModel
from mplp_models._errors import ErrorEntry, Quoted, errors_as_json
from mplp_models._json_input import invalid
from mplp_models._kinds import KINDS, PART_ID_FIELDS
from mplp_models._parse import parse
from mplp_models._public import model_names, publish

__all__ = ["MAX_LINE_BYTES", "LineVerdict", "check_document", "check_lines", "line_blocks"]

MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest line (in UTF-8 bytes, without its ``\\n``) that ``check_lines`` and ``validate --ndjson`` read.

A longer line gets an invalid verdict (``line_too_long``) and is never held whole by
``line_blocks``: memory stays bounded by this, whatever the stream (one with ``\\r`` alone
between its documents is one long line). ``None`` where it is taken lifts the limit.
"""

# JSON's whitespace (RFC 8259, section 2): a line of nothing else is blank. Any other character (a form feed,
# U+00A0) makes it a bad document, as it would be before or after one; a str line or its bytes alike.
_SPACE = " \t\n\r"
_SPACE_BYTES = _SPACE.encode()

# The id field that names a document of each kind (and of a part, for a PlanStep checked as such).
_ID_FIELD = {**{kind.name: kind.id_field for kind in KINDS}, **PART_ID_FIELDS}


class LineVerdict(NamedTuple):
    """The verdict on one document: small, immutable and picklable, to send between processes and machines.

    Attributes:
        ok: Whether the document is valid.
        kind: The model it was read as (``"Plan"``, ...); ``None`` when that could not be
            told (not JSON, or no key that names a kind).
        id: The value of the document's id field (``plan_id``, ...) when it is valid, else ``None``.
        errors: Empty when it is valid; else one entry per problem, as ``errors_as_json`` gives
            them: a JSON Pointer into the document, a code and a message.
    """

    ok: bool
    kind: str | None
    id: str | None
    errors: tuple[ErrorEntry, ...]


def check_lines(
    lines: Iterable[bytes | str],
    *,
    semantic: bool = True,
    kind: type[MplpModel] | None = None,
    max_line_bytes: int | None = MAX_LINE_BYTES,
) -> list[LineVerdict | None]:
    """The verdict on each line of NDJSON, in order: what ``mplp-models validate --ndjson`` reports.

    A pure function of its input, for ``map_partitions`` (Dask), ``mapPartitions`` (Spark) and the
    like. Each line is read as strictly as ``parse`` reads a document. A line may keep its ``\\n``
    (as ``dask.bag.read_text`` leaves it on): it is taken off, so that the verdict, and the text an
    error message quotes, is the one the command gives on the same file. The lines are taken up to
    1,024 documents (1 MiB) at a time, and the ones that look alike are checked one after another,
    which is faster on a stream that mixes kinds; the verdicts are in line order all the same.

    Args:
        lines: The lines, as bytes or str (a str is read as its UTF-8 encoding).
        semantic: Whether the rules beyond the schemas are checked too (``validate --schema-only``
            is ``False``).
        kind: Read every line as this model (``validate --kind``); by default each line is read
            as the kind its keys name, as ``parse`` does.
        max_line_bytes: A line longer than this (UTF-8 bytes, its ``\\n`` off) is not read: its
            verdict is invalid, code ``line_too_long``. ``None``: no limit.

    Returns:
        One item per line: its ``LineVerdict``, or ``None`` for a line of nothing but JSON's
        whitespace (space, tab, CR, LF), which holds no document (the command skips it). The position of an
        item is that of its line, so ``enumerate`` gives line numbers.

    Raises:
        TypeError: ``lines`` is one str or bytes (pass ``text.splitlines()``), a line is
            neither bytes nor str, or ``kind`` is not a model class. A bad document is never
            raised: it gets a verdict with its errors.
        ValueError: ``max_line_bytes`` is negative.
    """
    if isinstance(lines, (str, bytes, bytearray)):
        # Iterating it would check each character as a line.
        raise TypeError(
            f"check_lines takes an iterable of lines, not one {type(lines).__name__}: pass text.splitlines()"
        )
    _check_kind(kind)
    if max_line_bytes is not None and max_line_bytes < 0:
        raise ValueError(f"max_line_bytes must be 0 or more, or None, not {max_line_bytes}")
    verdicts: list[LineVerdict | None] = []
    window = _Window(verdicts, semantic, kind)
    for line in lines:
        document = _body(line)
        # Length first: a line cut by line_blocks may keep only the whitespace it starts with.
        if max_line_bytes is not None and _longer(document, max_line_bytes):
            verdicts.append(_too_long(document, max_line_bytes))
        elif not (document.strip(_SPACE) if isinstance(document, str) else document.strip(_SPACE_BYTES)):
            verdicts.append(None)  # a blank line holds no document
        else:
            window.add(document)
    window.check()
    return verdicts


_WINDOW_LINES = 1024  # documents held at most before they are checked
_WINDOW_BYTES = 1 << 20  # and their bytes (characters of a str): memory stays bounded whatever the lines


class _Window:
    """The documents of the lines read so far, checked a window at a time, each verdict put at its line's place.

    Why the order of checking is free: a verdict is a function of its document alone (``check_document``:
    ``parse``'s memos keep only what the keys alone decide, and every kind's reading is the same whenever it is
    built), so the verdicts come out the same in any order. With the fast paths on, a window is checked with
    the documents that look alike (the same first 16 bytes, then the same length: mostly one kind) next to
    each other: a stream of every kind in turn is read about a quarter faster so, each kind's validator and
    code still warm from the line before (tests/benchmarks/bench_lines.py). With them off, and with one
    ``kind`` for every line, in line order.
    """

    __slots__ = ("held", "kind", "semantic", "size", "verdicts")

    def __init__(self, verdicts: list[LineVerdict | None], semantic: bool, kind: type[MplpModel] | None) -> None:
        self.verdicts, self.semantic, self.kind = verdicts, semantic, kind
        self.held: list[tuple[bytes | str, int]] = []  # each document with its place among the verdicts
        self.size = 0

    def add(self, document: bytes | str) -> None:
        self.held.append((document, len(self.verdicts)))
        self.verdicts.append(None)  # its place, filled by check
        self.size += len(document)
        if len(self.held) >= _WINDOW_LINES or self.size >= _WINDOW_BYTES:
            self.check()

    def check(self) -> None:
        held, verdicts, semantic, kind = self.held, self.verdicts, self.semantic, self.kind
        if _fastpath.ENABLED and kind is None and len(held) > 2:
            held.sort(key=_likeness)
        for document, place in held:
            verdicts[place] = check_document(document, semantic=semantic, kind=kind)
        held.clear()
        self.size = 0


def _likeness(item: tuple[bytes | str, int]) -> tuple[bool, bytes | str, int]:
    """What puts documents of one kind next to each other: their type, their first 16 bytes, their length."""
    document = item[0]
    return type(document) is str, document[:16], len(document)


def _longer(document: bytes | str, limit: int) -> bool:
    if isinstance(document, bytes):
        return len(document) > limit
    # A character is 1 to 4 bytes: the encoding is measured only when the count leaves it open.
    return len(document) > limit or (
        4 * len(document) > limit and len(document.encode("utf-8", "surrogatepass")) > limit
    )


def _too_long(document: bytes | str, limit: int) -> LineVerdict:
    message = f"The line is longer than {limit} bytes, the most that is read (max_line_bytes)"
    start = document if isinstance(document, bytes) else document.encode("utf-8", "surrogatepass")
    # Its first bytes, the same for a str line as for its bytes; and only what line_blocks keeps of a long
    # line is known, so the size quoted is what it is at least.
    found = Quoted.of(start[: limit + 1])
    found.unit = "or more bytes"
    error = invalid("NDJSON line", "line_too_long", message, (), found)
    return LineVerdict(False, None, None, tuple(errors_as_json(error)))


_BLOCK_BYTES = 1 << 18


def line_blocks(
    stream: IO[bytes], *, block_bytes: int = _BLOCK_BYTES, max_line_bytes: int | None = MAX_LINE_BYTES
) -> Iterator[bytes]:
    """Whole lines of ``stream``, about ``block_bytes`` at a time, in memory bounded by the longest line kept.

    A line longer than ``max_line_bytes`` is cut to its first ``max_line_bytes + 1`` bytes
    and the rest skipped up to its ``\\n`` (never held): ``check_lines`` then refuses it as
    too long, and the lines after it keep their numbers. Lines end at ``\\n`` only. Each block but the last
    ends with ``\\n``; split it with ``block.split(b"\\n")``.
    """
    # read1 returns what a pipe has so far instead of waiting for a whole block: `tail -f | validate` flows.
    read = getattr(stream, "read1", stream.read)
    keep = sys.maxsize if max_line_bytes is None else max_line_bytes + 1
    line = bytearray()  # the unfinished line, its first `keep` bytes at most
    while chunk := read(block_bytes):
        last = chunk.rfind(b"\n") + 1
        if not last:
            line += chunk[: max(0, keep - len(line))]
            continue
        first = chunk.find(b"\n")
        line += chunk[: max(0, min(first, keep - len(line)))]
        whole = chunk[first:last]  # the unfinished line's end, and whole lines
        if keep < len(whole):  # a limit below the block size: one of them may be longer than kept
            whole = b"\n".join(part[:keep] for part in whole.split(b"\n"))
        line += whole
        yield bytes(line)
        line = bytearray(chunk[last:][:keep])
    if line:
        yield bytes(line)


def check_document(data: bytes | str, *, semantic: bool, kind: type[MplpModel] | None) -> LineVerdict:
    """The verdict on one JSON document (a line, or a whole file)."""
    try:
        instance = parse(data, semantic=semantic) if kind is None else kind.from_json(data, semantic=semantic)
    except ValidationError as error:
        # A document that is not JSON fails before it has a kind: the title then names the reader.
        named = error.title if error.title in model_names() else None if kind is None else kind.__name__
        return LineVerdict(False, named, None, tuple(errors_as_json(error)))
    name = type(instance).__name__
    field = _ID_FIELD.get(name)
    return LineVerdict(True, name, None if field is None else str(getattr(instance, field)), ())


def _check_kind(kind: object) -> None:
    if kind is not None and not (isinstance(kind, type) and issubclass(kind, MplpModel) and kind is not MplpModel):
        raise TypeError(f"kind must be a model class (such as mplp_models.Plan) or None, not {kind!r}")


def _body(line: object) -> bytes | str:
    """The line without its ``\\n`` (which a reader may leave on)."""
    if isinstance(line, str):
        return line[:-1] if line.endswith("\n") else line
    if not isinstance(line, bytes):
        # A whole record where a line belongs (read_text(include_path=True) gives (line, path)) is the
        # caller's mistake, not a bad document.
        raise TypeError(f"check_lines takes lines as bytes or str, not {type(line).__name__}")
    return line[:-1] if line.endswith(b"\n") else line


publish(__name__)  # the public classes above, shown as mplp_models.<name>
