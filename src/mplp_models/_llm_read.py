"""Answers in a dialect read into payloads, payloads written as answers, and errors located in the answer."""

from __future__ import annotations

import re
from typing import Any, cast

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from mplp_models._canonical import dumps
from mplp_models._json_input import load_json
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
    nest deeper than Python recurses, and visits each container once. A place is
    kept as a link to its parent's (a location is spelled out only for a
    problem), so the walk costs the size of the answer, not its depth squared.
    """
    stack: list[tuple[_Place, Any]] = [(None, value)]
    seen: set[int] = set()
    while stack:
        place, item = stack.pop()
        if isinstance(item, str):
            _check_encodable(place, item, "a string", problems)
            continue
        if not isinstance(item, (dict, list, tuple)):
            continue
        identity = id(cast(object, item))
        if identity in seen:
            continue
        seen.add(identity)
        inside: list[tuple[_Place, Any]] = []
        if isinstance(item, dict):
            members: dict[Any, Any] = item  # pyright: ignore[reportUnknownVariableType]  # JSON values
            for key, member in members.items():
                if isinstance(key, str):
                    _check_encodable(place, key, "a key", problems)
                inside.append(((place, key), member))
        else:
            inside.extend(((place, index), member) for index, member in enumerate(cast(list[Any], item)))
        stack.extend(reversed(inside))  # popped in document order


# A location as a chain of links, innermost first: (parent's place, key or index), None for the whole answer.
_Place = tuple["_Place", Any] | None


def _spelled(place: _Place) -> Loc:
    parts: list[str | int] = []
    while place is not None:
        place, part = place
        parts.append(part)
    return tuple(reversed(parts))


def _check_encodable(place: _Place, text: str, what: str, problems: Problems) -> None:
    problem = encoding_problem(text)
    if problem is not None:
        problems.add(_spelled(place), "string_unicode", f"Input should be {what} UTF-8 can encode: {problem}", text)


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


# A fence line: ``` at the start of a line, then its word (json, bash... or none). A closing fence is never
# inside a JSON value: a line begins there only outside strings, which hold no line break.
_FENCE_LINE = re.compile(r"^[ \t]*```([^\n]*)$", re.MULTILINE)  # its word stripped after: no backtracking
_JSON_BLOCK = ("", "json", "JSON")


def extract_json(text: str) -> str | None:
    """The JSON object in an answer that may wrap it in prose or a Markdown code fence, or None.

    The object the answer starts with, if it does, to where it ends; else the
    first fenced block of JSON or of no language, if there is one (from the
    object it starts with to where that ends, else to its closing fence or the
    end of the answer); else the first ``{`` that starts a whole JSON value, to
    where that value ends, or that starts one the end of the answer cuts short,
    to the end. A byte order mark is prose like any other. The strict reader
    then reads the text found, so what it refuses (a value cut short included)
    is refused here too. Time and memory are linear in the length of the answer.
    """
    stripped = text.strip()
    if stripped.startswith("{"):
        # Not a whole value: the strict reader says what is wrong with it, at its place.
        return _first_value(stripped, first_only=True) or stripped
    block = _fenced(text)
    if block is not None:
        return (_first_value(block, first_only=True) if block.startswith("{") else None) or block
    return _first_value(text, first_only=False)


def _fenced(text: str) -> str | None:
    """The first fenced block of JSON or of no language, stripped, to its closing fence or the end; or None."""
    opener: re.Match[str] | None = None  # the block's opening fence, once found
    other = False  # inside a block of another language (bash...), whose fences pair as well
    for line in _FENCE_LINE.finditer(text):
        word = line.group(1).strip()
        if opener is not None:
            if not word:
                return text[opener.end() + 1 : line.start()].strip()
        elif other:
            other = bool(word)
        elif word in _JSON_BLOCK:
            opener = line
        else:
            other = True
    return None if opener is None else text[opener.end() + 1 :].strip()


_VALID_ESCAPE = re.compile(r"\\(?=[/bfnrt]|u[0-9a-fA-F]{4})")
_TOKEN = re.compile(
    r'[ \t\n\r]*(?:("[^"]*"?)|([{}\[\],:])'
    r"|(-Infinity|Infinity|NaN|true|false|null|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)|([^ \t\n\r]))"
)
_NEXT = re.compile(r'[{"]')
_CONTROL = re.compile(r"[\x00-\x1f]")


def _plain(text: str) -> str:
    """``text`` with every escape blanked, as long as it: a ``"`` only where a string starts or ends.

    Backslashes pair from the left (``\\\\``, then ``\\"``), as a parser pairs them
    from any ``{`` on: no ``{`` is inside a run of them. A valid escape's
    backslash becomes ``_``; an invalid one's a control character, which no
    string may hold, so a string is valid exactly when its blanked form has no
    control character. Outside strings, both are as wrong as the backslash.
    """
    if "\\" not in text:
        return text
    text = text.replace("\\\\", "__").replace('\\"', "__")
    # In pieces: re.sub keeps a string per match until it joins them, dozens of bytes per escape.
    # Each piece is read with the 5 characters after it, all that the look-ahead sees, and a
    # substitution keeps the length, so its first `_PIECE` characters are the piece's own.
    pieces = [
        _VALID_ESCAPE.sub("_", text[start : start + _PIECE + 5])[:_PIECE] for start in range(0, len(text), _PIECE)
    ]
    return "".join(pieces).replace("\\", "\x01")


_PIECE = 1 << 16


def _first_value(text: str, *, first_only: bool) -> str | None:
    """The JSON value (as Python's reader takes it: NaN too) that starts at the first ``{`` that starts one.

    Linear, where trying ``raw_decode`` at each ``{`` is not (each failure
    counts the lines before it, and a long failure is read again from every
    ``{`` inside it). The proof: once escapes are blanked (``_plain``), every
    ``"`` of the text opens or closes a string, so a parse from a ``{`` pairs
    the quotes after it from the first one on: the parses fall in two phases,
    by the parity of that first quote, and each phase cuts the text into the
    same tokens. Within a phase, one pass keeps the containers open at each
    token: one that closes is a whole value from its ``{`` (a parse from there
    reads the same tokens); a token that none may take ends every one that is
    open (a parse from any of them fails there too). The answer is the
    earliest ``{`` of either phase whose container closed, or is still open
    at the end (a value cut short, up to a string the end cuts: then to the end).
    """
    plain = _plain(text)
    if plain.endswith("\x01") and text.endswith("\\"):  # a lone backslash the end cuts: an escape begun
        plain = plain[:-1] + "_"
    first_quote = plain.find('"')
    found = _scan(plain, 0, first_only=first_only)
    if not first_only and first_quote != -1:
        other = _scan(plain, first_quote + 1, first_only=False)
        if other is not None and (found is None or other[0] < found[0]):
            found = other
    if found is None:
        return None
    return text if found == (0, len(text)) else text[found[0] : found[1]]


# What a container expects next.
_KEY, _KEY_OR_CLOSE, _COLON_NEXT, _VALUE, _VALUE_OR_CLOSE, _COMMA_OR_CLOSE = range(6)


def _scan(plain: str, position: int, *, first_only: bool) -> tuple[int, int] | None:
    """The span of the earliest whole object of the phase whose parses start at ``position``, or None."""
    stack: list[list[int]] = []  # per open container: [state, start, is_object]
    best: tuple[int, int] | None = None
    end = len(plain)
    while position < end:
        if not stack:
            if best is not None or (first_only and position > 0):
                break
            position = _open_next(plain, position, stack)
            continue
        token = _TOKEN.match(plain, position)
        if token is None:  # only white space is left
            break
        position = token.end()
        closed = _step(stack, token, plain)
        if closed is None:  # refused: every open container fails here, unless the end cut it short
            if _cut_string(token, plain, position == end, stack[-1][0]):
                break
            stack.clear()
            if token.group(2) == "{" and not first_only:
                stack.append([_KEY_OR_CLOSE, token.start(2), 1])
        elif closed and not (first_only and stack):  # under first_only, only the outermost object counts
            best = _earliest(best, closed, position)
    # Still open at the end (from its earliest {, which holds anything found inside): a value cut short.
    return (stack[0][1], end) if stack else best


_TAKES_STRING = (_KEY, _KEY_OR_CLOSE, _VALUE, _VALUE_OR_CLOSE)  # where a string cut short is a value cut short
# (a string where a ":" or a "," must come is refused before it is read, as Python's reader refuses it)


def _cut_string(token: re.Match[str], plain: str, last: bool, state: int) -> bool:
    """Whether ``token``, if the ``last`` of the text, is a string that the end cuts, valid as far as it goes,
    where the innermost container (in ``state``) takes a string."""
    start, end = token.span(1)
    cut = last and state in _TAKES_STRING and start != -1 and (end - start < 2 or plain[end - 1] != '"')
    return cut and not _CONTROL.search(plain, start, end)


def _earliest(best: tuple[int, int] | None, closed: tuple[int, int], end: int) -> tuple[int, int] | None:
    """``best``, or the container that closed at ``end`` if it is an object that starts before it."""
    start, is_object = closed
    return (start, end) if is_object and (best is None or start < best[0]) else best


def _open_next(plain: str, position: int, stack: list[list[int]]) -> int:
    """Where the scan goes on with no container open: after the next ``{`` (opened), or after the next string."""
    found = _NEXT.search(plain, position)
    if found is None:
        return len(plain)
    if found.group() == '"':  # a string of this phase: skipped whole, to keep the pairing
        closing = plain.find('"', found.end())
        return len(plain) if closing == -1 else closing + 1
    stack.append([_KEY_OR_CLOSE, found.start(), 1])
    return found.end()


_Taken = tuple[int, int] | tuple[()] | None  # what _step gives: refused, the container closed, or taken


def _step(stack: list[list[int]], token: re.Match[str], plain: str) -> _Taken:
    """What taking ``token`` into the innermost container gives.

    None if it cannot be taken there; the (start, is object) of a container it closes; else ().
    """
    top = stack[-1]
    mark = token.group(2)
    if token.start(1) != -1:
        return _string(top, token, plain)
    if token.group(3) is not None:  # a number, true, false, null (or what Python's reader takes: NaN)
        return _value(top)
    if mark is None:
        return None
    if mark in ":,":
        return _separator(top, mark)
    if mark in "{[":
        if top[0] not in (_VALUE, _VALUE_OR_CLOSE):
            return None
        top[0] = _COMMA_OR_CLOSE  # once the child closes
        stack.append([_KEY_OR_CLOSE if mark == "{" else _VALUE_OR_CLOSE, token.start(2), int(mark == "{")])
        return ()
    # A closer: of this container's kind, where it may close.
    if (mark == "}") != bool(top[2]) or top[0] not in (_KEY_OR_CLOSE, _VALUE_OR_CLOSE, _COMMA_OR_CLOSE):
        return None
    stack.pop()
    return top[1], top[2]


def _string(top: list[int], token: re.Match[str], plain: str) -> _Taken:
    """A string token, looked at in place (it may be most of the answer): a key or a value, if whole and valid."""
    start, end = token.span(1)
    if end - start < 2 or plain[end - 1] != '"' or _CONTROL.search(plain, start, end):
        return None
    if top[0] in (_KEY, _KEY_OR_CLOSE):
        top[0] = _COLON_NEXT
        return ()
    return _value(top)


def _separator(top: list[int], mark: str) -> _Taken:
    """A ``:`` after a key, or a ``,`` after a member or an item."""
    if mark == ":":
        if top[0] != _COLON_NEXT:
            return None
        top[0] = _VALUE
        return ()
    if top[0] != _COMMA_OR_CLOSE:
        return None
    top[0] = _KEY if top[2] else _VALUE
    return ()


def _value(top: list[int]) -> tuple[()] | None:
    if top[0] not in (_VALUE, _VALUE_OR_CLOSE):
        return None
    top[0] = _COMMA_OR_CLOSE
    return ()
