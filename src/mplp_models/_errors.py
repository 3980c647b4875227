"""``errors_as_json``: a ValidationError as JSON Pointers, codes and short messages, for APIs and logs."""

from __future__ import annotations

import json
from typing import Any, TypedDict

from pydantic import ValidationError

from mplp_models._text import PREFIX, pointer, quoted

__all__ = ["ErrorEntry", "Quoted", "errors_as_json"]


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
            made = cls(data[:PREFIX].decode("utf-8", "replace"))
            made.size, made.unit = len(data), "bytes"
        else:
            made = cls(data[:PREFIX])
            made.size, made.unit = len(data), "characters"
        return made

    def __repr__(self) -> str:  # what pydantic's own error text shows
        return str.__repr__(self) + ("..." if self.size > len(self) else "")


def _found(value: object) -> str:
    if isinstance(value, Quoted):
        return quoted(json.dumps(str(value), ensure_ascii=False), value.size, value.unit)
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return quoted(text[:PREFIX], len(text))
