"""mplp_models.check_lines: one verdict per NDJSON line, held to ``parse`` line by line and to ``validate --ndjson``.

``mixed_lines`` is the file the Dask test (test_dask.py) shards too.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import PAYLOAD_FILES, PAYLOADS, ROOT, examples
from fast_path_switch import fast_paths
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import mplp_models as mm
from mplp_models import _lines
from mplp_models._kinds import kind_named


def compact(path: Path) -> bytes:
    return json.dumps(json.loads(path.read_bytes()), ensure_ascii=False).encode()


def mixed_lines() -> list[bytes]:
    """Lines of every kind, valid and not: the examples, the invalid examples (one keeps the schema but
    breaks a rule), mutations that break the JSON, the schema or the kind, blank lines and a CRLF line."""
    valid = [compact(path) for path in PAYLOAD_FILES]
    plan: dict[str, Any] = json.loads((PAYLOADS / "plan.json").read_bytes())
    mutated = [
        json.dumps({**plan, "status": "finished"}).encode(),  # not in the enum
        json.dumps({**plan, "steps": []}).encode(),  # too few items
        json.dumps({key: value for key, value in plan.items() if key != "title"}).encode(),  # missing
        json.dumps({"title": "no key names a kind"}).encode(),
        json.dumps({**plan, "title": "Café ✓ 漢字"}, ensure_ascii=False).encode(),  # valid, not ASCII
        valid[0][:-7],  # truncated: not JSON
        b"[1, 2]",
        b'{"plan_id": 1, "plan_id": 2}',  # duplicate key
        b"\xff\xfe not UTF-8",
        valid[1] + b"\r",  # the line of a CRLF file: the \r is whitespace after the document
    ]
    invalid = [compact(path) for path in sorted((PAYLOADS / "invalid").glob("*.json"))]
    lines = [*valid, b"", *mutated, b"  \t", *invalid, *valid]
    return lines


def reference(line: bytes, *, semantic: bool) -> tuple[bool, str | None, list[mm.ErrorEntry]]:
    """What parse says of one line: valid, the kind, the errors."""
    try:
        return True, type(mm.parse(line, semantic=semantic)).__name__, []
    except ValidationError as error:
        return False, error.title if error.title != "parse" else None, mm.errors_as_json(error)


@pytest.mark.parametrize("semantic", [True, False])
def test_each_verdict_is_what_parse_says_of_the_line(semantic: bool) -> None:
    lines = mixed_lines()
    verdicts = mm.check_lines(lines, semantic=semantic)
    assert len(verdicts) == len(lines)
    for line, verdict in zip(lines, verdicts):
        if not line.strip():
            assert verdict is None
            continue
        assert verdict is not None
        assert (verdict.ok, verdict.kind, list(verdict.errors)) == reference(line, semantic=semantic), line
        if verdict.ok:
            instance = mm.parse(line, semantic=semantic)
            assert verdict.id == str(getattr(instance, kind_named(type(instance).__name__).id_field))
        else:
            assert verdict.id is None and verdict.errors


@st.composite
def streams(draw: st.DrawFn) -> list[bytes | str]:
    """Lines of mixed_lines in any order and number, some as str, some repeated, some past the limit."""
    pool = mixed_lines()
    chosen = draw(st.lists(st.sampled_from(pool), min_size=0, max_size=60))
    as_text = draw(st.lists(st.booleans(), min_size=len(chosen), max_size=len(chosen)))
    return [line.decode() if text and b"\xff" not in line else line for line, text in zip(chosen, as_text, strict=True)]


@settings(max_examples=examples(quick=60, deep=600), deadline=None)
@given(lines=streams(), semantic=st.booleans(), limit=st.sampled_from([None, 300, 5_000]))
def test_the_verdicts_are_the_documents_own_in_line_order_with_the_fast_paths_on_and_off(
    lines: list[bytes | str], semantic: bool, limit: int | None
) -> None:
    # With the fast paths on, a window of documents is checked with those alike side by side: the same verdicts.
    with fast_paths(False):
        alone = [mm.check_lines([line], semantic=semantic, max_line_bytes=limit)[0] for line in lines]
        strict = mm.check_lines(lines, semantic=semantic, max_line_bytes=limit)
    with fast_paths(True):
        fast = mm.check_lines(lines, semantic=semantic, max_line_bytes=limit)
        from_a_generator = mm.check_lines(iter(lines), semantic=semantic, max_line_bytes=limit)
    assert strict == alone
    assert fast == strict
    assert from_a_generator == strict


def test_a_stream_longer_than_a_window_keeps_every_verdict_in_its_place(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = mixed_lines() * 3
    with fast_paths(False):
        strict = mm.check_lines(lines)
    monkeypatch.setattr(_lines, "_WINDOW_LINES", 7)  # many windows, one cut after another
    monkeypatch.setattr(_lines, "_WINDOW_BYTES", 4_000)
    with fast_paths(True):
        assert mm.check_lines(lines) == strict


def test_the_rules_switch_off_with_semantic_false() -> None:
    cycle = compact(PAYLOADS / "invalid" / "plan-cycle.json")
    (strict,) = mm.check_lines([cycle])
    (loose,) = mm.check_lines([cycle], semantic=False)
    assert strict is not None and not strict.ok and strict.kind == "Plan"
    assert loose is not None and loose.ok and loose.id is not None


def test_kind_reads_every_line_as_one_model() -> None:
    plan, dialog = compact(PAYLOADS / "plan.json"), compact(PAYLOADS / "dialog.json")
    as_plan = mm.check_lines([plan, dialog, b"{"], kind=mm.Plan)
    assert [(v.ok, v.kind) for v in as_plan if v is not None] == [(True, "Plan"), (False, "Plan"), (False, "Plan")]
    assert as_plan[1] is not None and {"pointer": "/plan_id", "code": "missing", "message": "Field required"} in (
        as_plan[1].errors
    )


def test_str_lines_and_line_endings_give_the_same_verdicts() -> None:
    lines = [line for line in mixed_lines() if b"\xff" not in line]
    verdicts = mm.check_lines(lines)
    assert mm.check_lines([line.decode() for line in lines]) == verdicts
    assert mm.check_lines([line + b"\n" for line in lines]) == verdicts
    assert mm.check_lines([line.decode() + "\n" for line in lines]) == verdicts


def test_an_error_quotes_the_line_without_its_newline() -> None:
    (verdict,) = mm.check_lines([b'{"a": \n'])
    assert verdict is not None and verdict.errors[0]["message"].endswith('found "{\\"a\\": "')


def test_only_jsons_whitespace_makes_a_line_blank() -> None:
    # RFC 8259, section 2: whitespace is space, tab, LF and CR. Anything else is a bad document, as parse says.
    bad: list[bytes | str] = ["\x0b", b"\x0c", "\u00a0", b"\xc2\xa0", "\x1c", "\u2028"]
    verdicts = mm.check_lines([" \t\r\n", b" \t\r", *bad])
    assert verdicts[:2] == [None, None]
    for verdict, line in zip(verdicts[2:], bad):
        assert verdict is not None and not verdict.ok and verdict.errors[0]["code"] == "json_invalid"
        with pytest.raises(ValidationError) as caught:
            mm.parse(line)
        assert verdict.errors == tuple(mm.errors_as_json(caught.value))
    assert verdicts[4] == verdicts[5]


def test_a_line_that_is_not_text_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="bytes or str, not tuple"):
        mm.check_lines([(b"{}", "part-0.ndjson")])  # type: ignore[list-item]


@pytest.mark.parametrize("whole", ["{}\n{}\n", b"{}\n{}\n", bytearray(b"{}\n{}\n")])
def test_one_whole_text_is_a_type_error_that_says_to_split_it(whole: str | bytes | bytearray) -> None:
    with pytest.raises(TypeError, match=r"not one \w+: pass text\.splitlines\(\)"):
        mm.check_lines(whole)  # type: ignore[arg-type]  # a bytearray is the caller's mistake too


@pytest.mark.parametrize("kind", [dict, mm.MplpModel, "Plan", mm.Plan.model_validate])
def test_a_kind_that_is_not_a_model_class_is_a_type_error(kind: object) -> None:
    with pytest.raises(TypeError, match="kind must be a model class"):
        mm.check_lines([compact(PAYLOADS / "plan.json")], kind=kind)  # type: ignore[arg-type]


def test_verdicts_pickle_as_themselves_and_stay_small() -> None:
    verdicts = mm.check_lines(mixed_lines())
    assert pickle.loads(pickle.dumps(verdicts)) == verdicts
    ok = next(v for v in verdicts if v is not None and v.ok)
    assert len(pickle.dumps(ok)) < 200
    assert type(pickle.loads(pickle.dumps(ok))) is mm.LineVerdict


def cli_records(*args: str) -> list[dict[str, Any]]:
    """``validate --ndjson --format json ARGS`` as users run it: one record a document."""
    done = subprocess.run(
        [sys.executable, "-m", "mplp_models", "validate", "--ndjson", "--format", "json", *args],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr.decode()
    return [json.loads(line) for line in done.stdout.decode().splitlines()]


def as_records(source: str, verdicts: list[mm.LineVerdict | None]) -> list[dict[str, Any]]:
    """The verdicts as the command's records: the line number is the position (from 1); blank lines have none."""
    return [
        {
            "source": source,
            "line": number,
            "valid": verdict.ok,
            "kind": verdict.kind,
            "id": verdict.id,
            "errors": list(verdict.errors),
        }
        for number, verdict in enumerate(verdicts, 1)
        if verdict is not None
    ]


@pytest.mark.parametrize("options", [[], ["--schema-only"], ["--kind", "Plan"]])
def test_the_command_reports_the_verdicts_of_check_lines(tmp_path: Path, options: list[str]) -> None:
    lines = mixed_lines()
    path = tmp_path / "mixed.ndjson"
    path.write_bytes(b"\n".join(lines) + b"\n")
    verdicts = mm.check_lines(lines, semantic="--schema-only" not in options, kind=mm.Plan if options[1:] else None)
    records = cli_records(*options, str(path))
    assert records == as_records(str(path), verdicts)
    assert sum(not record["valid"] for record in records) >= 9


def test_a_line_over_the_limit_is_an_invalid_verdict_and_the_others_are_read() -> None:
    plan = compact(PAYLOADS / "plan.json")
    limit = len(plan)
    verdicts = mm.check_lines([plan, plan + b" ", plan.decode() + " ", plan + b"\n"], max_line_bytes=limit)
    assert verdicts[0] == verdicts[3] == mm.check_lines([plan])[0]
    for verdict in verdicts[1:3]:
        assert verdict is not None and not verdict.ok and verdict.kind is None
        (entry,) = verdict.errors
        assert entry["code"] == "line_too_long" and entry["pointer"] == ""
        assert entry["message"].startswith(f"The line is longer than {limit} bytes")
    # A str line is measured in UTF-8 bytes: three characters, six bytes.
    (verdict,) = mm.check_lines(["ééé"], max_line_bytes=5)
    assert verdict is not None and verdict.errors[0]["code"] == "line_too_long"
    # The same verdict as bytes or as text (docs/beyond-one-machine.md), and as the command's, which holds only
    # the first limit + 1 bytes of a long line (line_blocks): its message claims no size the line has not.
    for text in (plan.decode(), "é" * 300 + plan.decode()):
        whole = text.encode()
        verdicts = mm.check_lines([text, whole, whole[: limit // 2 + 1]], max_line_bytes=limit // 2)
        assert verdicts[0] == verdicts[1] == verdicts[2]
        assert verdicts[0] is not None and verdicts[0].errors[0]["message"].endswith(
            f"({limit // 2 + 1} or more bytes)"
        )
    assert verdict is not None and verdict.errors[0]["code"] == "line_too_long"
    assert mm.check_lines([plan + b" " * 100], max_line_bytes=None) == mm.check_lines([plan])
    with pytest.raises(ValueError, match="max_line_bytes"):
        mm.check_lines([plan], max_line_bytes=-1)


class Chunks:
    """A stream that hands out what it is given, one piece per read, as a pipe does."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = pieces[::-1]

    def read1(self, size: int = -1) -> bytes:
        return self.pieces.pop() if self.pieces else b""

    read = read1


@settings(max_examples=examples(quick=300, deep=3000), deadline=None)
@given(
    st.lists(st.binary(max_size=12).map(lambda piece: piece.replace(b"\n", b"")), max_size=8),
    st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=5),
    st.integers(min_value=0, max_value=10),
)
def test_line_blocks_cut_each_long_line_and_keep_the_line_numbers(
    lines: list[bytes], sizes: list[int], limit: int
) -> None:
    from mplp_models._lines import line_blocks

    data = b"\n".join(lines) + b"\n"
    pieces: list[bytes] = []
    start = 0
    while start < len(data):  # cut into pieces of the drawn sizes in turn
        size = sizes[len(pieces) % len(sizes)]
        pieces.append(data[start : start + size])
        start += size
    blocks = list(line_blocks(Chunks(pieces), block_bytes=4, max_line_bytes=limit))  # type: ignore[arg-type]
    assert all(block.endswith(b"\n") for block in blocks[:-1])
    kept = b"".join(blocks).split(b"\n")
    assert kept == [line[: limit + 1] for line in data.split(b"\n")]


@pytest.mark.parametrize("separator", [b"\r", b"\n"])
def test_a_stream_is_read_in_memory_bounded_by_the_longest_line_kept(separator: bytes) -> None:
    from mplp_models._lines import line_blocks

    document = b'{"title": "x"}' + separator
    piece = document * 4096  # about 60 KB a read
    limit = 1 << 20
    reads = 2000 if separator == b"\r" else 10  # with \r alone, about 120 MB: one line
    stream = Chunks([piece] * reads)
    longest = 0
    verdicts: list[mm.LineVerdict | None] = []
    for block in line_blocks(stream, max_line_bytes=limit):  # type: ignore[arg-type]
        longest = max(longest, len(block))
        verdicts += mm.check_lines(block.split(b"\n"), max_line_bytes=limit)
    assert longest <= limit + 1 + len(piece)
    if separator == b"\r":
        (verdict,) = verdicts  # no \n at all: one line
        assert verdict is not None and verdict.errors[0]["code"] == "line_too_long"
    else:
        assert sum(verdict is not None for verdict in verdicts) == 4096 * reads


def test_a_line_over_the_limit_is_refused_even_when_its_start_is_blank(tmp_path: Path) -> None:
    # line_blocks keeps only the first max_line_bytes + 1 bytes of a long line: all whitespace here.
    # The line is not blank, and must not pass as one (it would hide from the validator).
    plan = (PAYLOADS / "plan.json").read_bytes().replace(b"\n", b"")
    limit = len(plan) + 100
    data = plan + b"\n" + b" " * (limit + 200) + b"GARBAGE\n"
    verdicts = mm.check_lines(data.split(b"\n"), max_line_bytes=limit)
    assert verdicts[0] is not None and verdicts[0].ok
    assert verdicts[1] is not None and [e["code"] for e in verdicts[1].errors] == ["line_too_long"]
    path = tmp_path / "blank-start.ndjson"
    path.write_bytes(data)
    command = [sys.executable, "-m", "mplp_models", "validate", "--ndjson", "--max-line-bytes", str(limit), str(path)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 1 and ":2: invalid" in result.stdout + result.stderr
