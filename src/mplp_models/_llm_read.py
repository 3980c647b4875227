"""Answers in a dialect read into payloads, payloads written as answers, and errors located in the answer."""

from __future__ import annotations

import json
import re
from typing import Any, cast

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from mplp_models._canonical import dumps
from mplp_models._decode import load_json
from mplp_models._llm_schema import LEAF, PRESENT, VALUE, Slot
from mplp_models._text import encoding_problem, pointer

__all__ = ["Problems", "decode", "encode", "extract_json", "relocated", "unencodable"]

Loc = tuple[str | int, ...]


class Problems:
    """The problems found in the answer itself, before the model sees it, each at its place in the answer."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.details: list[InitErrorDetails] = []

    def add(self, loc: Loc, code: str, message: str, found: object) -> None:
        # Built at run time, so not the literal the hint asks for; with no context the message is kept as it is.
        kind = PydanticCustomError(code, message)  # pyright: ignore[reportArgumentType]
        self.details.append({"type": kind, "loc": loc, "input": found})

    def raise_any(self) -> None:
        if self.details:
            raise ValidationError.from_exception_data(self.title, self.details)


def decode(value: Any, slot: Slot, loc: Loc, problems: Problems) -> Any:
    """The payload value of ``value``, found at ``loc`` of an answer, in a place that holds ``slot``.

    What does not have the shape the slot expects is passed on as it is: the
    model then says what is wrong with it, at the same place.
    """
    if slot.kind == "nullable":
        return None if value is None else decode(value, cast(Slot, slot.item), loc, problems)
    if slot.kind == "array" and isinstance(value, list):
        item = cast(Slot, slot.item)
        entries: list[Any] = value  # pyright: ignore[reportUnknownVariableType]  # JSON values
        return [decode(entry, item, (*loc, index), problems) for index, entry in enumerate(entries)]
    if slot.kind == "text":
        return _parse_text(value, loc, problems)
    if slot.kind == "object" and isinstance(value, dict):
        return _decode_object(cast(dict[str, Any], value), slot, loc, problems)
    return value


def unencodable(value: Any, problems: Problems) -> None:
    """A problem at each string of a parsed answer that UTF-8 cannot encode (a lone surrogate).

    JSON text cannot carry one, but an object an SDK parsed can; a model holding
    it could not be written as JSON. The walk keeps its own stack: an answer may
    nest deeper than Python recurses, and visits each container once.
    """
    stack: list[tuple[Loc, Any]] = [((), value)]
    seen: set[int] = set()
    while stack:
        loc, item = stack.pop()
        if isinstance(item, str):
            _check_encodable(loc, item, "a string", problems)
            continue
        if not isinstance(item, (dict, list, tuple)):
            continue
        identity = id(cast(object, item))
        if identity in seen:
            continue
        seen.add(identity)
        inside: list[tuple[Loc, Any]] = []
        if isinstance(item, dict):
            members: dict[Any, Any] = item  # pyright: ignore[reportUnknownVariableType]  # JSON values
            for key, member in members.items():
                if isinstance(key, str):
                    _check_encodable(loc, key, "a key", problems)
                inside.append(((*loc, key), member))
        else:
            inside.extend(((*loc, index), member) for index, member in enumerate(cast(list[Any], item)))
        stack.extend(reversed(inside))  # popped in document order


def _check_encodable(loc: Loc, text: str, what: str, problems: Problems) -> None:
    problem = encoding_problem(text)
    if problem is not None:
        problems.add(loc, "string_unicode", f"Input should be {what} UTF-8 can encode: {problem}", text)


_ABSENT = object()


def _decode_object(value: dict[str, Any], slot: Slot, loc: Loc, problems: Problems) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, member in value.items():
        spec = slot.fields.get(name)
        if spec is None:  # unknown: the model refuses it, by name
            out[name] = member
            continue
        given = member
        if spec.absence == "null" and member is None:
            continue
        if spec.absence == "wrapped":
            given = _unwrap(member, (*loc, name), problems)
            if given is _ABSENT:
                continue
            decoded = decode(given, spec.slot, (*loc, name, VALUE), problems)
        else:
            decoded = decode(given, spec.slot, (*loc, name), problems)
        out[name] = decoded
    return out


def _wrapper(value: object) -> dict[str, Any] | None:
    if isinstance(value, dict):
        wrapper = cast(dict[str, Any], value)
        if set(wrapper) == {PRESENT, VALUE}:
            return wrapper
    return None


def _unwrap(member: object, loc: Loc, problems: Problems) -> Any:
    """The value of a wrapped optional field, or ``_ABSENT``; a problem if the wrapper is not one."""
    wrapper = _wrapper(member)
    if wrapper is None:
        message = f'Input should be an object with exactly the keys "{PRESENT}" and "{VALUE}"'
        problems.add(loc, "llm_wrapper", message, member)
        return _ABSENT
    present, inner = wrapper[PRESENT], wrapper[VALUE]
    if present is True:
        return inner
    if present is False and inner is None:
        return _ABSENT
    if present is False:
        problems.add((*loc, VALUE), "llm_absent_with_value", "present is false, so value should be null", inner)
    else:
        problems.add((*loc, PRESENT), "bool_type", "Input should be a valid boolean", present)
    return _ABSENT


def _parse_text(value: Any, loc: Loc, problems: Problems) -> Any:
    if not isinstance(value, str):
        problems.add(loc, "llm_json_text", "Input should be a string holding a JSON object as JSON text", value)
        return None
    try:
        return load_json(value, problems.title)
    except ValidationError as error:
        for entry in error.errors(include_url=False):
            inner = pointer(entry["loc"])
            where = f" (at {inner} in the text)" if inner else ""
            problems.add(loc, "llm_json_text", f"The string should hold JSON text: {entry['msg']}{where}", value)
        return None


def encode(value: Any, slot: Slot) -> Any:
    """The answer's form of a payload value (``to_dict`` values) for a place that holds ``slot``."""
    if slot.kind == "nullable":
        return None if value is None else encode(value, cast(Slot, slot.item))
    if slot.kind == "array":
        item = cast(Slot, slot.item)
        return [encode(entry, item) for entry in value]
    if slot.kind == "text":
        return dumps(value).decode("utf-8")
    if slot.kind == "object":
        out: dict[str, Any] = {}
        for name, spec in slot.fields.items():
            if name in value:
                given = encode(value[name], spec.slot)
                out[name] = {PRESENT: True, VALUE: given} if spec.absence == "wrapped" else given
            elif spec.absence == "null":
                out[name] = None
            elif spec.absence == "wrapped":
                out[name] = {PRESENT: False, VALUE: None}
        return out
    return value


def answer_loc(slot: Slot, loc: Loc) -> tuple[Loc, Loc]:
    """Where a payload location is in the answer, and the rest of it when that is inside JSON text (else ``()``)."""
    out: list[str | int] = []
    current = slot
    for position, part in enumerate(loc):
        while current.kind == "nullable":
            current = cast(Slot, current.item)
        if current.kind == "text":
            return tuple(out), loc[position:]
        out.append(part)
        spec = current.fields.get(part) if current.kind == "object" and isinstance(part, str) else None
        if spec is not None:
            if spec.absence == "wrapped":
                out.append(VALUE)
            current = spec.slot
        elif current.kind == "array" and isinstance(part, int):
            current = cast(Slot, current.item)
        else:
            current = LEAF
    return tuple(out), ()


def relocated(error: ValidationError, slot: Slot) -> ValidationError:
    """``error`` (about a payload) with each location in the answer it was read from."""
    details: list[InitErrorDetails] = []
    for entry in error.errors(include_url=False):
        loc, inner = answer_loc(slot, tuple(entry["loc"]))
        message = entry["msg"]
        if inner:
            message = f"In the JSON text, at {pointer(inner)}: {message}"
        kind = PydanticCustomError(entry["type"], message)  # pyright: ignore[reportArgumentType]
        details.append({"type": kind, "loc": loc, "input": entry["input"]})
    return ValidationError.from_exception_data(error.title, details)


_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\r?\n(.*?)```", re.DOTALL)


def extract_json(text: str) -> str | None:
    """The JSON object in an answer that may wrap it in prose or a Markdown code fence, or None.

    The object the answer starts with, if it does, to where it ends; else the
    first fenced block if there is one; else the first ``{`` that starts a
    whole JSON value, to where that value ends. A byte order mark is prose like
    any other. The strict reader then reads the text found, so what it refuses
    is refused here too.
    """
    stripped = text.strip()
    if stripped.startswith("{"):
        # Not a whole value: the strict reader says what is wrong with it, at its place.
        return _value_at(stripped, 0) or stripped
    fenced = _FENCE.search(text)
    if fenced is not None:
        return fenced.group(1).strip()
    start = text.find("{")
    while start != -1:
        found = _value_at(text, start)
        if found is not None:
            return found
        start = text.find("{", start + 1)
    return None


_DECODER = json.JSONDecoder()


def _value_at(text: str, start: int) -> str | None:
    """The JSON value that starts at ``start`` of ``text``, to where it ends; None if none does.

    Python's reader only finds where the value ends (it takes NaN, for one, and
    keeps the last of duplicate keys); the strict reader reads what it finds.
    """
    try:
        _, end = _DECODER.raw_decode(text, start)
    except RecursionError:  # too deep for Python's reader: the strict one refuses it, and says why
        return text[start:]
    except ValueError:
        return None
    return text[start:end]
