"""The fast reading's screen of open objects after the reading, held to the strict reading.

A generated class's reading takes every open object's checks out of its
validator and, once the model is read, finds the open objects it holds
(``_reader._finder``, by the classes' facts) and screens them in one orjson writing
(``_json_values.plainly_json``). So: the finder must find every open object of a
model (checked here against a walk that knows nothing of the classes: in a
model read from JSON, every dict is an open object); and every value an open
object's check refuses must send the text to the strict reading, wherever the
object sits and however large the writing is (short, or with many brackets).
Each case is read with the fast paths on and off, and both readings must agree.
The facts the codegen wrote beside each class are held to the annotations
pydantic built.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import PAYLOADS
from fast_path_switch import fast_paths
from pydantic import BaseModel, ValidationError
from test_codegen import generated_classes

import mplp_models as mm
from mplp_models import _fast_shapes, _reader
from mplp_models._json_values import MAX_OPEN_OBJECT_DEPTH, plainly_json

EXAMPLES = {path.name: path.read_bytes() for path in sorted(PAYLOADS.glob("*.json"))}


def open_objects(value: Any) -> Iterator[Any]:
    """The open objects of a model read from JSON, found without the classes.

    That is every dict held by a model or by a model's array, and the extra keys a model keeps.
    """
    if isinstance(value, BaseModel):
        if value.__pydantic_extra__:
            yield value.__pydantic_extra__
        for item in value.__dict__.values():
            yield from open_objects(item)
    elif isinstance(value, tuple):
        for item in value:  # pyright: ignore[reportUnknownVariableType]
            yield from open_objects(item)
    elif isinstance(value, dict):
        yield value


def test_every_generated_class_with_open_objects_is_screened_after_the_reading() -> None:
    holding = 0
    for kind in generated_classes():
        reading = _reader.fast_reading(kind)
        assert reading is not None, kind  # every generated class is plain
        paths = _reader._paths_of(kind)  # pyright: ignore[reportPrivateUsage]
        if paths:
            assert reading.screen is not None, kind
            holding += 1
    assert holding >= 10  # so the loop above looked at classes that hold some


def models_inside(annotation: Any) -> Iterator[type[BaseModel]]:
    """The model classes an annotation names, in unions, arrays and aliases: the built class's own account."""
    annotation = getattr(annotation, "__value__", annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for argument in typing.get_args(annotation):
        yield from models_inside(argument)


def test_no_generated_class_holds_a_model_of_its_own_class() -> None:
    # The fast reading counts on it: _JsonOnly leaves the rules and unique checks out of the class's own
    # model step, which is then the outermost, and the screen's ways to the open objects (_paths_of) end.
    holding = 0
    for kind in generated_classes():
        seen: set[type[BaseModel]] = set()
        left = [inner for field in kind.model_fields.values() for inner in models_inside(field.annotation)]
        holding += bool(left)
        while left:
            inner = left.pop()
            assert inner is not kind, f"{kind.__name__} holds a {kind.__name__}"
            if inner not in seen:
                seen.add(inner)
                left += [deeper for field in inner.model_fields.values() for deeper in models_inside(field.annotation)]
    assert holding >= 10  # so the walk looked at classes that hold models


def fields_by_annotation(kind: type[BaseModel]) -> dict[str, set[str]]:
    """What the fields of a built class hold, read off the annotations pydantic built (the facts' reference)."""

    def mentions(annotation: Any, test: Any) -> bool:
        annotation = getattr(annotation, "__value__", annotation)
        return bool(test(annotation)) or any(mentions(argument, test) for argument in typing.get_args(annotation))

    def is_model(annotation: Any) -> bool:
        return isinstance(annotation, type) and issubclass(annotation, BaseModel)

    def in_array(annotation: Any, test: Any) -> bool:
        annotation = getattr(annotation, "__value__", annotation)
        if typing.get_origin(annotation) is tuple:
            return mentions(typing.get_args(annotation)[0], test)
        return any(in_array(argument, test) for argument in typing.get_args(annotation))

    def is_open(annotation: Any) -> bool:
        return typing.get_origin(annotation) is dict

    found: dict[str, set[str]] = {key: set() for key in ("prepared", "open", "open_arrays", "models", "model_arrays")}
    found |= {"unique": set(), "not_null": set(), "optional": set()}
    for name, field in kind.model_fields.items():
        annotation = field.annotation
        required_open = field.is_required() and is_open(annotation)  # pydantic took JsonObject's Annotated apart
        if required_open or mentions(annotation, lambda item: item is float or is_open(item)):
            found["prepared"].add(name)
        if in_array(annotation, is_open):
            found["open_arrays"].add(name)
        elif required_open or mentions(annotation, is_open):
            found["open"].add(name)
        if in_array(annotation, is_model):
            found["model_arrays"].add(name)
        elif mentions(annotation, is_model):
            found["models"].add(name)
        markers = list(field.metadata) + [
            item for part in typing.get_args(annotation) for item in getattr(part, "__metadata__", ())
        ]
        found["unique"] |= {name} if any(repr(marker) == "UniqueItems" for marker in markers) else set()
        found["not_null"] |= {name} if any(repr(marker) == "NotNull" for marker in markers) else set()
        found["optional"] |= set() if field.is_required() else {name}
    return found


@pytest.mark.parametrize("kind", generated_classes(), ids=lambda kind: kind.__qualname__)
def test_the_codegens_facts_are_the_built_classs(kind: type[BaseModel]) -> None:
    facts = _fast_shapes.facts_of(kind)
    written = {key: set(value) for key, value in facts._asdict().items() if key != "extra"}
    assert written == fields_by_annotation(kind)
    assert facts.extra is (kind.model_config.get("extra") == "allow")


def the_documents() -> dict[str, bytes]:
    """The repository's examples, and the module kinds with open objects in every place that may hold one."""
    return {**EXAMPLES, **{f"filled {name}": text for name, text in FILLED.items()}}


def event(n: int, data: Any) -> dict[str, Any]:
    return {
        "event_id": f"00000000-0000-4000-8000-{n:012d}",
        "event_type": "x.updated",
        "source": "x",
        "timestamp": "2026-03-02T10:00:00Z",
        **({"data": data} if data is not ... else {}),
    }


TRACE = {"trace_id": "00000000-0000-4000-8000-000000000001", "span_id": "00000000-0000-4000-8000-000000000002"}


def filled(name: str, **fields: Any) -> bytes:
    document = json.loads(EXAMPLES[name])
    document.update(fields)
    return json.dumps(document).encode()


# Events with data and without (absent, null, empty), a trace with attributes: every place of a module kind.
EVENTS = [event(1, {"a": 1}), event(2, ...), event(3, None), event(4, {}), event(5, {"b": [1, {"c": 2.5}]})]
FILLED = {
    name: filled(name, events=EVENTS, trace={**TRACE, "attributes": {"k": "v"}})
    for name in ("role.json", "core.json", "collab.json", "confirm.json", "extension.json", "context.json")
}


def dialog_with_events() -> bytes:
    """The example dialog, its messages carrying events (an open object two models down, in an array)."""
    document = json.loads(EXAMPLES["dialog.json"])
    messages = document["messages"]
    for position, message in enumerate(messages):
        message["event"] = EVENTS[position % len(EVENTS)]
    messages.append({**messages[0], "event": event(9, {"z": [1, 2]})})
    return json.dumps(document).encode()


FILLED["dialog.json"] = dialog_with_events()


@pytest.mark.parametrize("name", list(the_documents()))
def test_the_finder_finds_every_open_object(name: str) -> None:
    model = mm.parse(the_documents()[name])
    found: list[Any] = []
    _reader._finder(_reader._paths_of(type(model)))(model, found)  # pyright: ignore[reportPrivateUsage]
    # Empty objects need no screen: the finder may leave them out, and nothing else.
    expected = [value for value in open_objects(model) if value]
    assert sorted(map(id, filter(None, found))) == sorted(map(id, expected))
    if name.startswith("filled"):
        assert len(expected) >= 2


def nested(levels: int) -> bytes:
    """An open object's value nesting ``levels`` arrays (the object itself is one level more)."""
    return b"[" * levels + b"]" * levels


# Each value the strict reading refuses or keeps in an open object, as JSON spells it.
POISONS = {
    "NaN": b"NaN",
    "Infinity": b"Infinity",
    "-Infinity in an array": b"[1, -Infinity]",
    "overflow": b'{"n": 1e400}',
    "overflowing digits": b"1" + b"0" * 400 + b".5",
    "NaN beside a null": b"[null, NaN]",
    "a null": b"null",
    "null in a string": b'"null"',
    "finite float": b"1e300",
    "nested as deep as allowed": nested(MAX_OPEN_OBJECT_DEPTH - 1),
    "nested one level too deep": nested(MAX_OPEN_OBJECT_DEPTH),
    "big integer": b"123456789012345678901234567890",
    "integer beyond 2**53": b"9007199254740993",
    "lone surrogate": b'"\\ud800"',
}

# The sizes of the screen's writing: short (no look at the depth), and long or with many brackets in a
# string (the brackets outside strings taken apart level by level).
PADDINGS = {
    "short": b"",
    "counted": b', "pad": "' + b"x" * 400 + b'"',
    "long": b', "pad": "' + b"x" * 3000 + b'"',
    "brackets in a string": b', "pad": "' + b"[" * (MAX_OPEN_OBJECT_DEPTH + 2) + b'"',
}

MARK = "@@poison@@"


def with_poison(text: bytes, place: int, poison: bytes, padding: bytes) -> bytes | None:
    """``text`` with the ``place``-th open object of its model holding ``poison``; None past the last.

    ``padding`` goes beside ``poison``.
    """
    document = json.loads(text)
    seen = 0

    def visit(value: Any, model: Any) -> Any:
        nonlocal seen
        if isinstance(model, BaseModel) and isinstance(value, dict):
            return {key: visit(item, model.__dict__.get(key)) for key, item in value.items()}  # pyright: ignore[reportUnknownVariableType]
        if isinstance(model, tuple) and isinstance(value, list):
            return [visit(item, inner) for item, inner in zip(value, model)]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
        if isinstance(model, dict) and isinstance(value, dict):
            seen += 1
            if seen - 1 == place:
                return {**value, MARK: MARK}  # pyright: ignore[reportUnknownVariableType]
        return value

    with fast_paths(False):
        model = mm.parse(text)
    changed = visit(document, model)
    if seen <= place:
        return None
    marked = json.dumps(changed).encode()
    return marked.replace(f'"{MARK}": "{MARK}"'.encode(), b'"p": ' + poison + padding)


def reading(kind: type[mm.MplpModel], text: bytes) -> Any:
    try:
        read = kind.from_json(text)
    except ValidationError as error:
        return mm.errors_as_json(error)
    return read, read.model_fields_set


def both_ways(kind: type[mm.MplpModel], text: bytes) -> tuple[Any, Any]:
    with fast_paths(True):
        fast = reading(kind, text)
    with fast_paths(False):
        strict = reading(kind, text)
    return fast, strict


KINDS: dict[str, tuple[type[mm.MplpModel], bytes]] = {
    "role": (mm.Role, FILLED["role.json"]),
    "core": (mm.Core, FILLED["core.json"]),
    "collab": (mm.Collab, FILLED["collab.json"]),
    "confirm": (mm.Confirm, FILLED["confirm.json"]),
    "extension": (mm.Extension, FILLED["extension.json"]),
    "context": (mm.Context, FILLED["context.json"]),
    "learning sample": (mm.LearningSample, EXAMPLES["learning-sample.json"]),
    "dialog": (mm.Dialog, FILLED["dialog.json"]),
    "trace": (mm.Trace, EXAMPLES["trace.json"]),  # the only way to open objects through an array of models (segments)
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_clean_document_is_kept_by_the_fast_reading(kind: str) -> None:
    # Else every reading would go the strict way, and the tests above would pass on it alone.
    model, text = KINDS[kind]
    with fast_paths(True):
        assert _reader.read_fast(model, text) is not None


@pytest.mark.parametrize("padding", list(PADDINGS))
@pytest.mark.parametrize("poison", list(POISONS))
@pytest.mark.parametrize("kind", list(KINDS))
def test_a_poisoned_open_object_reads_as_the_strict_reading_reads_it(kind: str, poison: str, padding: str) -> None:
    model, text = KINDS[kind]
    places = 0
    for place in (0, 1, 3, 6):  # the first, a few in, and (for the filled kinds) the trace's last
        poisoned = with_poison(text, place, POISONS[poison], PADDINGS[padding])
        if poisoned is None:
            break
        places += 1
        fast, strict = both_ways(model, poisoned)
        assert fast == strict, (place, poisoned[:200])
    assert places >= 2


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_screen_refuses_what_the_checks_refused(kind: str) -> None:
    # The table above compares with the strict reading; here, the refusals themselves.
    model, text = KINDS[kind]
    for poison in ("NaN", "overflow", "nested one level too deep", "lone surrogate"):
        for padding in PADDINGS.values():
            poisoned = with_poison(text, 1, POISONS[poison], padding)
            assert poisoned is not None
            with fast_paths(True), pytest.raises(ValidationError):
                model.from_json(poisoned)
    with fast_paths(True):
        model.from_json(text)  # and the document itself reads


@pytest.mark.parametrize("levels", [MAX_OPEN_OBJECT_DEPTH - 1, MAX_OPEN_OBJECT_DEPTH])
@pytest.mark.parametrize("beside", [0, 1, 300])
def test_the_screen_stops_exactly_one_level_too_deep(levels: int, beside: int) -> None:
    # An object holding `levels` arrays nests levels + 1 deep; beside it, other objects (in the same writing).
    found: list[Any] = [{"x": "y" * 10} for _ in range(beside)]
    deep: Any = []
    for _ in range(levels - 1):
        deep = [deep]
    found.append({"a": deep})
    screened = plainly_json(found, _reader._SCREENED_LEVELS, parsed=True)  # pyright: ignore[reportPrivateUsage]
    assert screened is (levels < MAX_OPEN_OBJECT_DEPTH)


# --- JsonText's bound, left out of the reading's validator -----------------------------------------


@pytest.mark.parametrize(
    "text",
    [b'"\\ud800"', b'"\\udc00"', b'"a\\ud800b"', b'"\\ud83d\\ude00"', b'"\\ude00\\ud83d"', b'"\xed\xa0\x80"', b'""'],
    ids=["lead", "trail", "inside", "pair", "pair reversed", "raw bytes", "empty"],
)
@pytest.mark.parametrize("field", ["name", "description"])
def test_a_lone_surrogate_in_a_text_field_is_refused_as_the_strict_reading_refuses_it(field: str, text: bytes) -> None:
    document = json.loads(EXAMPLES["role.json"])
    document[field] = MARK
    raw = json.dumps(document).encode().replace(f'"{MARK}"'.encode(), text)
    fast, strict = both_ways(mm.Role, raw)
    assert fast == strict
    assert isinstance(fast, list) is (text not in (b'"\\ud83d\\ude00"', b'""'))


def test_the_finder_follows_arrays_anywhere_on_a_way() -> None:
    # No generated class has an array after the first step of a way today; the finder takes it all the same.
    first, second, third, own = {"a": 1}, {"b": [2]}, {"c": 3}, {"d": 4}
    model = SimpleNamespace(
        x=SimpleNamespace(items=(SimpleNamespace(o=first), SimpleNamespace(o=None), SimpleNamespace(o=second))),
        y=None,
        z=(third, {}),
        w=own,
        v=None,
    )
    ways = (
        (("x", False), ("items", True), ("o", False)),
        (("y", False), ("o", False)),
        (("z", True),),
        (("w", False),),
        (("v", False),),
    )
    found: list[Any] = []
    _reader._finder(ways)(model, found)  # pyright: ignore[reportPrivateUsage]
    # The model's own fields first, then each way in turn; an array of open objects is taken whole.
    assert list(map(id, found)) == list(map(id, [own, first, second, third, model.z[1]]))


# --- bounded numbers, one union in the reading's validator ---------------------------------------

NUMBERS = [
    *(b"-1", b"0", b"-0", b"0.0", b"-0.0", b"1", b"1.0", b"1E0", b"0.5", b"-0.0000001", b"5", b"5.0", b"6"),
    *(b"4.999999999999999", b"5.000000000000001", b"1.0000000000000002", b"0.9999999999999999"),
    *(b"1e308", b"1e400", b"-1e400", b"9007199254740993", b"123456789012345678901234567890", b"-12345678901234567890"),
    *(b"true", b"false", b"null", b'"1"', b"[]", b"{}", b"NaN", b"Infinity"),
]
# The learning sample's bounded numbers: minimum 0; minimum 0 and maximum 1; minimum 0 and maximum 5.
BOUNDED = {
    "execution_time_ms": lambda document, value: document.update(execution_time_ms=value),
    "impact_score": lambda document, value: document.update(impact_score=value),
    "rating": lambda document, value: document["user_feedback"].update(rating=value),
    "total_tokens": lambda document, value: document["token_usage"].update(total_tokens=value),
    "tokens": lambda document, value: document["token_usage"]["by_agent"][0].update(tokens=value),
}


def typed_reading(text: bytes) -> Any:
    """What from_json gives, its numbers' types shown (``repr``: ``1`` is not ``1.0``); or the errors."""
    try:
        read = mm.LearningSample.from_json(text)
    except ValidationError as error:
        return mm.errors_as_json(error)
    return read, repr(read)


@pytest.mark.parametrize("field", list(BOUNDED))
def test_a_bounded_number_reads_as_the_strict_reading_reads_it(field: str) -> None:
    refused = 0
    for number in NUMBERS:
        document = json.loads(EXAMPLES["learning-sample.json"])
        document.setdefault("user_feedback", {"decision": "approve"})
        BOUNDED[field](document, MARK)
        text = json.dumps(document).encode().replace(f'"{MARK}"'.encode(), number)
        with fast_paths(True):
            fast = typed_reading(text)
        with fast_paths(False):
            strict = typed_reading(text)
        assert fast == strict, number
        refused += isinstance(fast, list)
    assert 0 < refused < len(NUMBERS)
