"""``errors_as_json``: a ValidationError as JSON Pointers, codes and short messages, for APIs and logs."""

from __future__ import annotations

import json
from typing import TypedDict

from pydantic import ValidationError
from pydantic_core import ErrorDetails, InitErrorDetails, PydanticCustomError

from mplp_models._public import publish
from mplp_models._text import PREFIX, pointer, quoted

__all__ = [
    "MAX_ERRORS",
    "MAX_INPUT_CHARS",
    "TOO_MANY",
    "ErrorEntry",
    "Quoted",
    "detail_of",
    "errors_as_json",
    "first_entries",
    "json_message",
    "json_worded",
    "too_many",
]

MAX_ERRORS = 1000
"""How many problems a ``ValidationError`` of the models lists; one more entry (``TOO_MANY``) says how many were left out.

Read at each validation: set ``mplp_models._errors.MAX_ERRORS`` to change it.
"""

MAX_INPUT_CHARS = 1000
"""The longest string an error entry quotes as its ``input``; a longer one is cut to this many characters (a ``Quoted``)."""

TOO_MANY = "too_many_errors"
"""The code of the last entry of an error that lists only the first ``MAX_ERRORS`` problems."""


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
    entries, total = first_entries(error, MAX_ERRORS)
    listed: list[ErrorEntry] = [
        {"pointer": pointer(entry["loc"]), "code": entry["type"], "message": _message(entry)} for entry in entries
    ]
    if total > len(entries):
        listed.append({"pointer": "", "code": TOO_MANY, "message": _too_many_text(len(entries), total)})
    return listed


def _message(entry: ErrorDetails) -> str:
    message = json_message(entry)
    if entry["type"] in ("missing", "extra_forbidden", TOO_MANY) or "input" not in entry:
        return message
    return f"{message}; found {_found(entry.get('input'))}"


def first_entries(error: ValidationError, limit: int) -> tuple[list[ErrorDetails], int]:
    """The first ``limit`` entries of ``error`` (pydantic's ``errors()``) and how many it holds in all.

    An error of ``limit + 1`` entries is taken whole: it is most likely one
    bounded already, whose last entry says how many more were found.

    pydantic-core builds every entry of ``errors()`` as Python dicts at once
    (about 900 bytes and 6 microseconds each: a million entries, a gigabyte);
    its ``json()`` writes them all in one C-speed pass of about 110 bytes an
    entry (without inputs), from which only the first ``limit`` are read. Those
    have no ``input`` (quoting a container in every entry could be quadratic):
    who knows the validated value finds it by the location (``_types``).
    """
    total = error.error_count()
    if total <= limit + 1:
        return error.errors(include_url=False), total
    try:
        text = error.json(include_url=False, include_input=False)
    except ValueError:  # a context pydantic-core cannot write (PydanticSerializationError): the slow way
        return error.errors(include_url=False)[:limit], total
    decoder = json.JSONDecoder()
    entries: list[ErrorDetails] = []
    position = 1  # past the "[" of the compact list, then past each ","
    for _ in range(limit):
        entry, position = decoder.raw_decode(text, position)
        entry["loc"] = tuple(entry["loc"])
        entries.append(entry)
        position += 1
    return entries, total


# Said of a big input checked up to the first bad item of each array (_bounded): what was not checked is not known.
_STOPPED = (
    "The checks stopped at the first bad item of each array ({shown} listed): the input is too big to check every item"
)
_NOT_LISTED = "{more} more problems were found and are not listed ({total} in all; the first {shown} are)"


def _too_many_context(shown: int, total: int | None) -> tuple[str, dict[str, int]]:
    if total is None:
        return _STOPPED, {"shown": shown}
    return _NOT_LISTED, {"more": total - shown, "total": total, "shown": shown}


def _too_many_text(shown: int, total: int | None) -> str:
    template, context = _too_many_context(shown, total)
    return template.format(**context)


def too_many(shown: int, total: int | None) -> InitErrorDetails:
    """The last entry of an error listing only its first ``shown`` problems of ``total`` (None: the checks stopped).

    Its ``ctx`` carries the counts (``shown``, and ``more`` and ``total`` when known), so that a
    reader of the error, such as ``llm.feedback``, can say how many were left out without parsing
    the message.
    """
    template, context = _too_many_context(shown, total)
    kind = PydanticCustomError(TOO_MANY, template, context)  # pyright: ignore[reportArgumentType]
    return {"type": kind, "loc": (), "input": None}


# The models hold JSON arrays as tuples and JSON objects as dicts or models; pydantic names those.
_ARRAY = "Input should be a JSON array"
_OBJECT = "Input should be a JSON object"
_JSON_WORDS = {
    "tuple_type": _ARRAY,
    "list_type": _ARRAY,
    "dict_type": _OBJECT,
    "model_type": _OBJECT,
    "model_attributes_type": _OBJECT,
}
_CONTAINERS = {"Tuple": "Array", "List": "Array", "Dictionary": "Object"}  # too_short's and too_long's field_type
# Whose messages end in advice for a Python value JSON cannot hold: " (for a uuid.UUID, pass str(value); ...)".
_PYTHON_ADVICE = ("mplp_id", "date_time")
_JSON_VALUES = (str, int, float, bool, type(None), dict, list)


def json_message(entry: ErrorDetails) -> str:
    """The message of a pydantic error entry in JSON's words, with the same meaning.

    "array" and "object" where pydantic says tuple, list, dictionary or model;
    and the advice meant for a Python value (a ``uuid.UUID``, a ``datetime``)
    only where the value was one: for a JSON value (an LLM's answer, a request
    body, a file), calling ``str(value)`` or ``Timestamp.from_datetime`` is
    no help. The error ``type`` is not this function's: it stays pydantic's.
    """
    kind, message = entry["type"], entry["msg"]
    if kind in _JSON_WORDS:
        return _JSON_WORDS[kind]
    if kind in ("too_short", "too_long"):
        found = str(entry.get("ctx", {}).get("field_type"))
        if found in _CONTAINERS:
            return message.replace(f"{found} should", f"{_CONTAINERS[found]} should", 1).replace(
                " after validation", ""
            )
    if kind in _PYTHON_ADVICE and isinstance(entry.get("input"), _JSON_VALUES):
        return message.partition(" (for a ")[0]
    return message


def json_worded(error: ValidationError) -> ValidationError:
    """``error`` with each message in JSON's words (``json_message``); the same error if none changes.

    Types, locations, inputs and contexts stay; pydantic's documentation links go with the changed words.
    """
    entries, total = first_entries(error, MAX_ERRORS)
    messages = [json_message(entry) for entry in entries]
    if total == len(entries) and all(message == entry["msg"] for message, entry in zip(messages, entries)):
        return error
    details = [detail_of(entry, message) for message, entry in zip(messages, entries)]
    if total > len(entries):
        details.append(too_many(len(entries), total))
    return ValidationError.from_exception_data(error.title, details)


def detail_of(entry: ErrorDetails, message: str | None = None) -> InitErrorDetails:
    """``entry`` (of ``errors()``) as an entry to build an error from: the same type, location, input and
    context, and ``message`` (by default its own).

    pydantic's documentation link goes: the type is made again, as a custom one.
    """
    # The message is final text; the context is kept for those who read it (``{`` in the text is
    # only filled in for a key of the context, whose value the text already holds).
    text = entry["msg"] if message is None else message
    kind = PydanticCustomError(entry["type"], text, entry.get("ctx"))  # pyright: ignore[reportArgumentType]
    return {"type": kind, "loc": entry["loc"], "input": entry.get("input")}


class Quoted(str):
    """The start of an input that never became JSON values (bad bytes, say): plain text, with the size of all of it."""

    size: int
    unit: str  # "bytes" or "characters"

    @classmethod
    def of(cls, data: bytes | str, length: int = PREFIX) -> Quoted:
        if isinstance(data, bytes):
            made = cls(data[:length].decode("utf-8", "replace"))
            made.size, made.unit = len(data), "bytes"
        else:
            made = cls(data[:length])
            made.size, made.unit = len(data), "characters"
        return made

    def __repr__(self) -> str:  # what pydantic's own error text shows
        return str.__repr__(self) + ("..." if self.size > len(self) else "")


def _found(value: object) -> str:
    if isinstance(value, Quoted):
        return quoted(json.dumps(str(value)[:PREFIX], ensure_ascii=False), value.size, value.unit)
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return quoted(text[:PREFIX], len(text))


publish(__name__)  # the public classes above, shown as mplp_models.<name>
