"""``errors_as_json``: a ValidationError as JSON Pointers, codes and short messages, for APIs and logs."""

from __future__ import annotations

import json
from typing import Any, TypedDict

from pydantic import ValidationError

from mplp_models._text import pointer

__all__ = ["ErrorEntry", "Quoted", "errors_as_json"]

_PREFIX = 40  # characters of a found value that a message may quote


class ErrorEntry(TypedDict):
    """One problem: where (RFC 6901 JSON Pointer into the payload), what kind, and what was expected and found."""

    pointer: str
    code: str
    message: str


def errors_as_json(error: ValidationError) -> list[ErrorEntry]:
    """The entries of a ``ValidationError`` as ``{"pointer", "code", "message"}`` dicts, for APIs and logs.

    Args:
        error: The error, from any of the models' validations.

    Returns:
        One entry per problem: ``pointer`` an RFC 6901 JSON Pointer
        (``/steps/3/step_id``; ``""`` is the whole payload), ``code`` pydantic's
        or this SDK's error type, ``message`` what was expected and, for a value
        that was there, a short prefix of what was found.
    """
    return [
        {"pointer": pointer(entry["loc"]), "code": entry["type"], "message": _message(entry)}
        for entry in error.errors(include_url=False)
    ]


def _message(entry: Any) -> str:
    message: str = entry["msg"]
    if entry["type"] in ("missing", "extra_forbidden"):
        return message
    return f"{message}; found {_found(entry.get('input'))}"


class Quoted(str):
    """The start of an input that never became JSON values (bad bytes, say): plain text, with the size of all of it."""

    size: int
    unit: str  # "bytes" or "characters"

    @classmethod
    def of(cls, data: bytes | str) -> Quoted:
        if isinstance(data, bytes):
            quoted = cls(data[:_PREFIX].decode("utf-8", "replace"))
            quoted.size, quoted.unit = len(data), "bytes"
        else:
            quoted = cls(data[:_PREFIX])
            quoted.size, quoted.unit = len(data), "characters"
        return quoted

    def __repr__(self) -> str:  # what pydantic's own error text shows
        return str.__repr__(self) + ("..." if self.size > len(self) else "")


def _found(value: object) -> str:
    if isinstance(value, Quoted):
        text = json.dumps(str(value), ensure_ascii=False)
        return text if value.size <= _PREFIX else f"{text}... ({value.size} {value.unit})"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > _PREFIX:
        text = f"{text[:_PREFIX]}... ({len(text)} characters)"
    return text
