"""Small text helpers every layer may use: UTF-8 checks, short quotes of values, JSON Pointers.

They depend on nothing else in the package, so the types, the reader, the
writer and the errors can all share them without importing one another.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["PREFIX", "encodable", "encoding_problem", "pointer", "printable", "quoted", "short_repr"]

PREFIX = 40
"""How many characters of a value a message quotes."""


def encodable(text: str) -> bool:
    """Whether ``text`` has a UTF-8 form (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def encoding_problem(text: str) -> str | None:
    """Why UTF-8 cannot encode ``text`` and where (``"surrogates not allowed at index 3"``), or None if it can."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return f"{error.reason} at index {error.start}"
    return None


def quoted(prefix: str, whole: int, unit: str = "characters") -> str:
    """How every error quotes a value: ``prefix`` (its start, as the caller renders it), and when the
    value is longer than ``PREFIX``, ``...`` and the size of the whole (``"abc..." (102 characters)``).

    The one rule of the package's messages; each caller renders the start its own way
    (a Python ``repr``, JSON text, a JSON type).
    """
    return prefix if whole <= PREFIX else f"{prefix}... ({whole} {unit})"


def printable(text: str) -> str:
    """``text`` with each character that is not printable written as its Python escape (``\\n``, ``\\x1b``,
    ``\\u2028``): a line of the command line's text output, which a document's own text (an id, a key, a
    title) can then neither end early, to forge the next line, nor fill with terminal codes."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode() for char in text)


def short_repr(value: Any) -> str:
    """``repr(value)`` for a message: its first 40 characters, then the size of the whole if it is longer."""
    text = repr(value)
    return quoted(text[:PREFIX], len(text))


def pointer(parts: Iterable[object]) -> str:
    """The RFC 6901 JSON Pointer of a location given as keys and indices (``""`` is the whole document).

    The one vocabulary of locations: ``errors_as_json``, ``CanonicalJSONError.pointer``
    and ``ConversionError.pointer`` all use it.
    """
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)
