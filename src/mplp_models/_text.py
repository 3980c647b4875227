"""Small text helpers every layer may use: UTF-8 checks, short quotes of values, JSON Pointers.

They depend on nothing else in the package, so the types, the reader, the
writer and the errors can all share them without importing one another.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["encodable", "pointer", "short_repr"]

_PREFIX = 40  # characters of a value that a message may quote


def encodable(text: str) -> bool:
    """Whether ``text`` has a UTF-8 form (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def short_repr(value: Any) -> str:
    """``repr(value)``, cut to 40 characters for a message."""
    text = repr(value)
    return text if len(text) <= _PREFIX else text[: _PREFIX - 3] + "..."


def pointer(parts: Iterable[object]) -> str:
    """The RFC 6901 JSON Pointer of a location given as keys and indices (``""`` is the whole document).

    The one vocabulary of locations: ``errors_as_json``, ``CanonicalJSONError.pointer``
    and ``ConversionError.pointer`` all use it.
    """
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)
