"""Where the LLM reader finds the JSON object in an answer: held to Python's own reader tried at each ``{``.

The reader finds it in one linear pass (``_llm_read._first_value``); the reference below is the
obvious way, ``raw_decode`` from each ``{`` in turn, which takes quadratic time on hostile answers
but is the definition the docs give: "the first ``{`` that starts a whole JSON value".
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from mplp_models._llm_read import extract_json

_DECODER = json.JSONDecoder()
_WHOLE_ESCAPE = re.compile(r"u[0-9a-fA-F]{4}")


def _value_at(text: str, start: int) -> str | None:
    """The whole value from ``start``; or the rest of the text, when the end cuts the value short; else None."""
    try:
        _, end = _DECODER.raw_decode(text, start)
    except RecursionError:
        return text[start:]
    except ValueError as error:
        # Python's reader meets the end: at the end itself, or in a string it began (placed at its quote).
        # It calls a whole \uXXXX escape that ends the text invalid: the string is cut short after it.
        cut = isinstance(error, json.JSONDecodeError) and (
            error.pos == len(text)
            or error.msg.startswith("Unterminated string")
            or (error.msg.startswith("Invalid \\uXXXX") and _WHOLE_ESCAPE.fullmatch(text, error.pos) is not None)
        )
        return text[start:] if cut else None
    return text[start:end]


def _fenced(text: str) -> str | None:
    """The first fenced block of JSON or of no language: the lines up to its closing fence (or the end)."""
    lines = text.split("\n")
    inside: str | None = None  # the word of the block the lines are in, if any
    for number, line in enumerate(lines):
        if not line.lstrip(" \t").startswith("```"):
            continue
        word = line.lstrip(" \t")[3:].strip()
        if inside is None:
            if word in ("", "json", "JSON"):
                rest = lines[number + 1 :]
                closing = [i for i, other in enumerate(rest) if other.strip(" \t\r") == "```"]
                return "\n".join(rest[: closing[0]] if closing else rest).strip()
            inside = word
        elif not word:
            inside = None
    return None


def reference(text: str) -> str | None:
    stripped = text.strip()
    if stripped.startswith("{"):
        return _value_at(stripped, 0) or stripped
    block = _fenced(text)
    if block is not None:
        return (_value_at(block, 0) if block.startswith("{") else None) or block
    start = text.find("{")
    while start != -1:
        found = _value_at(text, start)
        if found is not None:
            return found
        start = text.find("{", start + 1)
    return None


PIECES = [
    *'{}[]":,0123456789.eE+-tfnrul \\aNIy\n\t\x01',
    "true",
    "null",
    "NaN",
    "-Infinity",
    "Infinity",
    '"a"',
    '{"a":1}',
    '{"a": [1, {"b": "}"}]}',
    '\\"',
    "\\\\",
    "\\u00e9",
    "\\uzz",
    "```",
    "```json\n",
    "```bash\n",
    "\n```\n",
    "é",
]


@settings(max_examples=examples(quick=1000, deep=20000), deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30), st.sampled_from(["", "x", "Here: ", " "]))
def test_the_object_found_is_the_one_raw_decode_finds_from_the_first_brace_that_starts_one(
    pieces: list[str], prose: str
) -> None:
    text = prose + "".join(pieces)
    assert extract_json(text) == reference(text)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('He said "hi {" and then {"a": 1} done', '{"a": 1}'),  # a brace inside prose quotes
        ('say "x" {"a": "{"} end', '{"a": "{"}'),
        ('{"a": 1, oops {"b": 2}', '{"a": 1, oops {"b": 2}'),  # starts with {: the strict reader words it
        ('x {"a": {"b": 1} oops {"c": [2]}', '{"b": 1}'),  # the outer fails after an inner closed
        ('x "{"\\" {"k": "v"}', '{"k": "v"}'),
        ("x {{{{", "{"),  # the last { starts an object the end cuts short
        ('x {"a": NaN}', '{"a": NaN}'),  # Python's reader takes NaN; the strict one refuses it after
        ('x {"a": "\\q"} {"b": 1}', '{"b": 1}'),  # an invalid escape
        ('x {"a": [1] oops', None),  # an array that closed inside an object that did not is no object
        ('Here: {"plan": {"a": 1}, "steps": [{"b": "cu', '{"plan": {"a": 1}, "steps": [{"b": "cu'),  # cut short
        ('x {"a": 1, "b": tr', None),  # a word the end cuts is wrong, not cut short
        ('x {"a": "b\\', '{"a": "b\\'),  # an escape the end cuts
        ('}{"\\u00e9', '{"\\u00e9'),  # a whole escape, then the end
        ('x{"""', None),  # a string where a ":" must come: refused there, not a value cut short
        ('x{"a":1 "b', None),  # and where a "," must come
        ('```bash\necho {}\n```\n```json\n{"a": 1}\n```', '{"a": 1}'),  # a block of another language first
        ('```json\n{"a": "```"}\n```', '{"a": "```"}'),  # a fence in a string closes nothing
        ('```json\n{"a": {"b": 1}, "c": [', '{"a": {"b": 1}, "c": ['),  # a block the end cuts short
        ('```\n{"a": 1}```', '{"a": 1}'),  # a closing fence on the object's line
        ('x {"a": 1, 2} {"b": 3}', '{"b": 3}'),  # a value where a key belongs
        ('x {"a" 1} {"b": 3}', '{"b": 3}'),  # no colon
        ('x {"a": 1 "b": 2} {"c": 3}', '{"c": 3}'),  # no comma
        ('x {"a": [1,]} {"b": 1}', '{"b": 1}'),  # a trailing comma
        ('x {: 1} {"b": 2}', '{"b": 2}'),  # a colon with no key
        ('x {, "a": 1} {"b": 2}', '{"b": 2}'),  # a comma before any member
        ('x {"a": [1}} {"b": 1}', '{"b": 1}'),  # a closer of the other kind
        ('x {"a": {"b": [true, null, "c"]}, "d": -1.5e3}', '{"a": {"b": [true, null, "c"]}, "d": -1.5e3}'),
        ("```json\n{}\n```", "{}"),
        ("```json\n{} ``` ```json\n[]\n```", "{}"),
    ],
)
def test_answers_written_out(text: str, found: str | None) -> None:
    assert reference(text) == found
    assert extract_json(text) == found


@pytest.mark.parametrize("shift", range(-7, 2))
@pytest.mark.parametrize("escape", ["\\u00e9", "\\n", "\\uzzzz", "\\q", '\\"', "\\\\"])
def test_escapes_across_the_pieces_the_blanking_works_in(shift: int, escape: str) -> None:
    # _plain blanks escapes in pieces of 2**16 characters: an escape on the cut is read whole.
    text = 'x {"a": "' + "b" * (2**16 - 9 + shift) + escape + '"} {"c": 1}'
    assert extract_json(text) == reference(text)
