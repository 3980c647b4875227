"""``errors_as_json``: a ValidationError as JSON Pointers, codes and short messages, for APIs and logs;
``EditError``: the one error of a refused edit or builder."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypedDict, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails, InitErrorDetails, PydanticCustomError

from mplp_models._public import publish
from mplp_models._text import PREFIX, encodable, pointer, quoted

__all__ = [
    "EDIT_CODES",
    "MAX_ERRORS",
    "MAX_INPUT_CHARS",
    "TOO_MANY",
    "EditError",
    "ErrorEntry",
    "Quoted",
    "UnknownPartError",
    "detail_of",
    "errors_as_json",
    "first_entries",
    "json_message",
    "json_worded",
    "too_many",
    "validated_copy",
    "validated_new",
]

MAX_ERRORS = 1000
"""How many problems a ``ValidationError`` of the models lists; one more entry (``TOO_MANY``) says how many were left
out.

Read at each validation: set ``mplp_models._errors.MAX_ERRORS`` to change it.
"""

MAX_INPUT_CHARS = 1000
"""The longest string an error entry quotes as its ``input``; a longer one is cut to this many characters (a
``Quoted``)."""

TOO_MANY = "too_many_errors"
"""The code of the last entry of an error that lists only the first ``MAX_ERRORS`` problems."""


class ErrorEntry(TypedDict):
    """One problem: where (RFC 6901 JSON Pointer into the payload), what kind, and what was expected and found."""

    pointer: str
    code: str
    message: str


def errors_as_json(error: ValidationError | EditError) -> list[ErrorEntry]:
    """The entries of a ``ValidationError`` as ``{"pointer", "code", "message"}`` dicts, for APIs and logs.

    Args:
        error: The error, from any of the models' validations; or a refused edit's ``EditError``, whose
            ``errors()`` are these entries already.

    Returns:
        One entry per problem: ``pointer`` an RFC 6901 JSON Pointer
        (``/steps/3/step_id``; ``""`` is the whole payload), ``code`` pydantic's
        or this SDK's error type, ``message`` what was expected and, for a value
        that was there, a short prefix of what was found.

    Raises:
        TypeError: For any other exception (an untyped caller's).
    """
    if isinstance(error, EditError):
        return error.errors()
    if not isinstance(error, ValidationError):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"errors_as_json takes a ValidationError or an EditError, not {type(error).__name__}")
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
        return quoted(_json_text(str(value)[:PREFIX]), value.size, value.unit)
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    try:
        text = _json_text(value)
    except (TypeError, ValueError):
        text = repr(value)
    return quoted(text[:PREFIX], len(text))


def _json_text(value: object) -> str:
    """``value`` as JSON text, its characters as they are but a lone surrogate's, escaped (``\\ud800``): a
    message is sent on as UTF-8 (an LLM's retry, a response body), which has no form for one."""
    text = json.dumps(value, ensure_ascii=False)
    return text if encodable(text) else json.dumps(value)


EDIT_CODES: Mapping[str, str] = {
    "unknown_step": "no step of the plan has that id",
    "unknown_segment": "no segment of the trace has that id",
    "unknown_participant": "no participant of the collab has that id",
    "unknown_node": "no node of the network has that id",
    "unknown_module": "the core describes no such module",
    "unknown_status": "the value is no status of the model (or of its part)",
    "illegal_move": "the lifecycle has no such move: out of a final state, or to the state it is in",
    "not_an_end": "finish takes a state that ends a trace: completed, failed or cancelled",
    "nothing_to_stamp": "at= is the time a move starts or ends: the move stamps no time",
    "has_dependents": "other parts name this one: steps that depend on the step, segments whose parent it is",
    "too_short": "the last step, participant or module: the schema asks for at least one",
    "plan_context": "the plan belongs to another context than the one given",
    "confirm_target_plan": "the confirm's target is not this plan",
    "not_approved": "the confirm is not approved: its status and its last decision must read approved",
    "unknown_decision": "the value is no decision (approved, rejected or cancelled)",
}
"""Every code an ``EditError`` has of its own, and what it says (docs/edit-errors.md lists them).

An ``EditError`` that stands for a ``ValidationError`` (a rule or the schema refused the
edited document) has the code of that error's first entry instead: a rule's
(``dependency_cycle``, ``duplicate_segment_id``...) or pydantic's (``string_too_short``...).
"""

_Model = TypeVar("_Model", bound=BaseModel)


class EditError(ValueError):
    """Why an edit or a builder refused: a stable ``code``, the JSON ``pointer`` of the place, a ``message``.

    Raised by every edit operation and builder of the models (``plan.add_step``,
    ``trace.open_segment``, ``Plan.new``...), whatever refused: an unknown part
    (``UnknownPartError``), the lifecycle (``illegal_move``), or the rules and the schema,
    whose ``ValidationError`` is then the ``__cause__`` and whose entries ``errors()`` gives.
    A ``ValueError``, as the lifecycle's refusals always were.
    """

    code: str
    pointer: str
    message: str

    def __init__(self, code: str, message: str, pointer: str = "", *, entries: list[ErrorEntry] | None = None) -> None:
        if entries is None and code not in EDIT_CODES:
            raise AssertionError(f"{code!r} is not an edit code: add it to EDIT_CODES (and docs/edit-errors.md)")
        super().__init__(message)
        self.code, self.message, self.pointer = code, message, pointer
        self._entries = entries

    @classmethod
    def of(cls, error: ValidationError) -> EditError:
        """The ``EditError`` that stands for ``error``: the code, pointer and message of its first entry."""
        entries = errors_as_json(error)
        first = entries[0]
        total = error.error_count()
        more = "1 more problem" if total == 2 else f"{total - 1} more problems"
        message = first["message"] if total == 1 else f"{first['message']} (and {more}: errors())"
        made = cls(first["code"], message, first["pointer"], entries=entries)
        made.__cause__ = error
        return made

    def errors(self) -> list[ErrorEntry]:
        """The problems, as ``errors_as_json`` writes them: the cause's entries, or this refusal as one entry."""
        if self._entries is not None:
            return list(self._entries)
        return [{"pointer": self.pointer, "code": self.code, "message": self.message}]

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:  # the arguments are not ``args``: pickled by its fields
        return (_restored, (type(self), self.code, self.message, self.pointer, self._entries))


class UnknownPartError(EditError, KeyError):
    """An ``EditError`` for an id that no part has (``unknown_step``, ``unknown_segment``...): also a ``KeyError``.

    So ``except KeyError`` and ``except LookupError`` keep catching what they caught; its
    ``str()`` is the message, without the quotes a ``KeyError`` adds.
    """

    def __str__(self) -> str:
        return self.message


def _restored(kind: type[EditError], code: str, message: str, pointer: str, entries: list[ErrorEntry] | None) -> Any:
    return kind(code, message, pointer, entries=entries)


def validated_copy(model: _Model, update: Mapping[str, Any]) -> _Model:
    """``model.model_copy(update=update)``, validated; its ``ValidationError`` raised as an ``EditError``."""
    try:
        return model.model_copy(update=update)
    except ValidationError as error:
        raise EditError.of(error) from error


def validated_new(cls: type[_Model], data: Mapping[str, Any]) -> _Model:
    """``cls.model_validate(data)``; its ``ValidationError`` raised as an ``EditError``."""
    try:
        return cls.model_validate(data)
    except ValidationError as error:
        raise EditError.of(error) from error


publish(__name__)  # the public classes above, shown as mplp_models.<name>
