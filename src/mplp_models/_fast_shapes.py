"""What the fast paths need to know of a model class, found once per class: its ``Shape``.

Which fields admit a float or an open object, which hold arrays of models, and
whether the class is "plain": a generated class that meets every condition the
proofs of the fast paths rely on (``fast_path_problems``). The writer
(``_writer``) and the reader's check (``_reader``) both ask here; neither asks
the other.
"""

from __future__ import annotations

import functools
import threading
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Annotated, Any, NamedTuple, cast

import orjson
from pydantic import BaseModel
from pydantic_core import PydanticCustomError, SchemaValidator, core_schema

from mplp_models._bounded import BUILDING, fail_fast_copy, fail_fast_validator, validator_of_copy
from mplp_models._public import is_generated
from mplp_models._types import (
    CORE_FUNCTIONS,
    MAX_OPEN_OBJECT_DEPTH,
    OPEN_OBJECT_CHECK,
    OPEN_OBJECT_REFUSAL,
    UNIQUE_CHECK,
    open_object_problem,
)

__all__ = [
    "Reading",
    "Shape",
    "as_dict_fields",
    "fast_path_problems",
    "fast_reading",
    "is_plain",
    "own_functions",
    "rules_after_reading",
    "shape_of",
    "shape_of_class",
]


class Shape(NamedTuple):
    """What writing a model class needs to know about its fields."""

    loose: tuple[str, ...]  # fields whose type admits a float or an open object
    many: tuple[str, ...]  # fields that hold a list of models
    # A generated class that meets every condition of fast_path_problems: its fields are its
    # schema's, with the SDK's types, unset ones hold None, and it has no validators or
    # serializers but the SDK's. Only these take the fast paths; any other class (a subclass a
    # user wrote, with a default, a serializer, extra fields or a computed field) goes through
    # model_dump and the strict reading.
    plain: bool
    # Keeps extra keys (ContextRoot's open object), in __pydantic_extra__ and counted among the
    # given fields; the writer and the reader's count take them with the fields.
    extra: bool
    # Some field may hold a model (alone or in an array): a walker must call back for it.
    nested: bool


_SHAPES: dict[type, Shape] = {}


def shape_of(model: object) -> Shape:
    """The shape of the class of ``model``."""
    kind = type(model)
    return _SHAPES.get(kind) or _shape(kind)  # shape_of_class, without a call more: every walker asks per model


_AS_DICT: dict[type, int] = {}

as_dict_fields: Callable[[type], int | None] = _AS_DICT.get
"""How many fields a class has whose models a walker writes as their own ``__dict__``, else None (also for a class not seen yet).

Those of a plain class that holds no array of models and no extra keys: the
``__dict__`` holds every field under its name, unset ones as ``None``, and a
model in a field is called back for. One C call to know it, where
``shape_of`` takes a call and three attribute looks more.
"""


def is_plain(kind: type) -> bool:
    """Whether ``kind`` may take the fast paths: a generated model class that ``fast_path_problems`` finds nothing in."""
    return shape_of_class(kind).plain


def shape_of_class(kind: type) -> Shape:
    """The shape of the class ``kind``."""
    return _SHAPES.get(kind) or _shape(kind)


def _shape(kind: type) -> Shape:
    if not getattr(kind, "__pydantic_complete__", True):
        # Deferred build: until it is built, an annotation may still be a forward reference. The mark
        # is read again in turn with _bounded's builds, which unmark the classes they copy meanwhile.
        with BUILDING:
            if not getattr(kind, "__pydantic_complete__", True):
                kind.model_rebuild()  # type: ignore[attr-defined]
    fields: dict[str, Any] = getattr(kind, "model_fields", {})
    shape = Shape(
        loose=tuple(name for name, field in fields.items() if _admits_floats(field.annotation)),
        many=tuple(name for name, field in fields.items() if _holds_models(field.annotation)),
        # The field types are not checked: a generated class has the SDK's (the codegen maps every
        # leaf onto them), which are JSON already; a class of the user's own may hold a datetime,
        # which orjson would write otherwise than pydantic does. For a generated class, a problem
        # is a bug of the codegen: tests/test_codegen.py asserts there is none.
        plain=is_generated(kind) and not fast_path_problems(kind),
        extra=getattr(kind, "model_config", {}).get("extra") == "allow",
        nested=any(_mentions_models(field.annotation) for field in fields.values()),
    )
    _SHAPES[kind] = shape
    if shape.plain and not (shape.many or shape.extra):
        _AS_DICT[kind] = len(fields)
    return shape


def fast_path_problems(kind: type) -> list[str]:
    """What in model class ``kind`` the proofs of the fast paths do not allow, one line each (none: empty).

    ``_reader.read_as_strictly`` counts one ``:`` per unset field, written as
    ``"name":null``, and one per key read, each a field; ``model_members``
    writes a model's ``__dict__`` under its field names. So:

    * every field is required or defaults to ``None``, with no ``default_factory``
      (a default ``"0000:0000"`` would hide a duplicate key from the count);
    * no alias and no field excluded from writing;
    * ``extra="forbid"``, or ``extra="allow"`` with the extra keys checked by
      the SDK's own functions (registered with ``extra_keys``, ``_context``'s: each key's value
      an open JSON value, in both modes; ``model_members`` writes and
      ``write_every_field`` counts them) and of no declared type;
    * no computed fields, no ``model_post_init``;
    * no validator or serializer but the SDK's own (registered by ``own_functions``):
      code the proofs cannot see might change a value, read the mode, or
      write otherwise than ``model_members`` does.
    """
    fields: dict[str, Any] = getattr(kind, "__pydantic_fields__", {})
    problems = [f"field {name}: {problem}" for name, field in fields.items() for problem in _field_problems(field)]
    config: Mapping[str, Any] = getattr(kind, "model_config", {})
    schema = getattr(kind, "__pydantic_core_schema__", {})
    if config.get("extra") == "allow":
        problems += _extra_problems(kind, schema)
    elif config.get("extra") != "forbid":
        problems.append(f"extra={config.get('extra')!r}: keys that are no field")
    computed: dict[str, Any] = getattr(kind, "__pydantic_computed_fields__", None) or {}
    problems += [f"computed field {name}" for name in computed]
    if getattr(kind, "__pydantic_post_init__", None) is not None:
        problems.append("a model_post_init of its own")
    own = _own_functions()
    # Both the decorators and the built schema: MplpModel puts given_members in place of a model
    # serializer, which is then in no schema; an Annotated validator is in no decorator.
    functions = {id(function): function for function in [*_decorated_functions(kind), *_core_functions(schema)]}
    problems += [
        f"validator or serializer {function!r}" for function in functions.values() if id(_unbound(function)) not in own
    ]
    return problems


def _extra_problems(kind: type, schema: Any) -> list[str]:
    """What keeps the extra keys of an ``extra="allow"`` class off the fast paths: unchecked, or of a declared type."""
    problems: list[str] = []
    if not any(id(_unbound(function)) in _EXTRA_CHECKS for function in _decorated_functions(kind)):
        problems.append("extra='allow': keys that are no field, not checked as an open object")
    if _holds_key(schema, "extras_schema"):
        problems.append("a declared type for its extra keys (__pydantic_extra__)")
    return problems


def _unbound(function: object) -> object:
    """The function itself of a bound method (a ``@classmethod`` validator is held bound to its class)."""
    return getattr(function, "__func__", function)


def _holds_key(schema: Any, key: str) -> bool:
    """Whether some dict in a core schema has ``key``."""
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            items = cast(dict[str, Any], node)
            if key in items:
                return True
            stack.extend(items.values())
        elif isinstance(node, (list, tuple)):
            stack.extend(cast(Sequence[Any], node))
    return False


def _field_problems(field: Any) -> list[str]:
    problems: list[str] = []
    if field.default_factory is not None:
        problems.append("a default_factory")
    elif not field.is_required() and field.default is not None:
        problems.append(f"default {field.default!r} (an unset field must hold None)")
    if field.alias is not None or field.validation_alias is not None or field.serialization_alias is not None:
        problems.append("an alias")
    if field.exclude:
        problems.append("excluded from serialization")
    return problems


# The SDK's own validators and serializers, by id: the only ones a plain class may hold. Each module
# that defines one registers it when it loads (own_functions), so this module imports none of the
# modules above it; a class can hold a function only once its module has run, and so registered it.
_OWN: dict[int, object] = {}
# Those of them that check the extra keys of an extra="allow" class as an open object.
_EXTRA_CHECKS: dict[int, object] = {}


def own_functions(*functions: object, extra_keys: bool = False) -> None:
    """Registers validators and serializers as the SDK's own: ``fast_path_problems`` lets a class hold them.

    Each must do no more than the proofs of the fast paths allow (see
    ``fast_path_problems``); with ``extra_keys``, each checks the extra keys of
    an open class as one open JSON object (``_context``).
    """
    for function in functions:
        _OWN[id(function)] = function
        if extra_keys:
            _EXTRA_CHECKS[id(function)] = function


def _own_functions() -> dict[int, object]:
    return _OWN


own_functions(*CORE_FUNCTIONS)


_DECORATED = (
    "validators",
    "field_validators",
    "root_validators",
    "field_serializers",
    "model_serializers",
    "model_validators",
)


def _decorated_functions(kind: type) -> list[object]:
    """The functions of the class's ``@field_validator``, ``@model_serializer``... (its bases' included)."""
    decorators = getattr(kind, "__pydantic_decorators__", None)
    if decorators is None:
        return []
    groups: list[dict[str, Any]] = [getattr(decorators, group) for group in _DECORATED]
    return [decorator.func for group in groups for decorator in group.values()]


def _core_functions(schema: Any) -> list[object]:
    """Every function in a core schema, once: validators (``{"function": {"function": f}}``) and serializers (``{"function": f}``)."""
    found: dict[int, object] = {}
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            items = cast(dict[str, Any], node)
            function = items.get("function")
            if callable(function):
                found.setdefault(id(function), function)
            stack.extend(items.values())
        elif isinstance(node, (list, tuple)):
            stack.extend(cast(Sequence[Any], node))
    return list(found.values())


def _admits_floats(annotation: Any) -> bool:
    if annotation in (float, dict, Any) or typing.get_origin(annotation) is dict:
        return True
    return any(_admits_floats(argument) for argument in typing.get_args(annotation))


def _mentions_models(annotation: Any) -> bool:
    """Whether a model class is anywhere in the annotation (a field of that type may hold a model)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(_mentions_models(argument) for argument in typing.get_args(annotation))


def _holds_models(annotation: Any) -> bool:
    """Whether the annotation is an array of models, ``tuple[Model, ...]`` (or such an array or None)."""
    if typing.get_origin(annotation) in (list, tuple):
        item = typing.get_args(annotation)[0]
        return isinstance(item, type) and issubclass(item, BaseModel)
    return any(_holds_models(argument) for argument in typing.get_args(annotation))


# --- the fast reading: pydantic's JSON mode with the Python calls that the proof makes up for taken out ---

_RULES: dict[int, Callable[[Any, Any], bool]] = {}


def rules_after_reading(function: object, sound: Callable[[Any, Any], bool]) -> None:
    """Registers a model validator of rules (``mode="after"``), and ``sound(model, context)``, which tells whether it passes.

    The fast reading builds the outermost model without it (a Python call
    with a ``ValidationInfo`` on every reading, even when the context skips
    the rules) and asks ``sound`` once the proof holds; ``_rules`` registers its
    own here, since this module may not import it (layers import downward).
    """
    _RULES[id(function)] = sound


class Reading:
    """How ``from_json`` reads one plain class fast: two validators of JSON text, and the rules to ask after.

    ``shallow`` is the class's own validator in JSON mode, but that its open
    objects (``JsonObject``) are taken as pydantic's parser reads them, with
    no Python call: the reader's proof (``_reader._counts_agree``) then screens what
    ``_check_open_object`` would have refused (see there), on texts in which no
    open object can nest deeper than ``MAX_OPEN_OBJECT_DEPTH`` (``validator``
    says which). ``deep``, for the other texts, screens each open
    object with one orjson writing (``_open_object_screened``).
    Both build the outermost model without its rules (``rules_after_reading``)
    and without the ``UniqueItems`` checks of its own fields: ``after(model,
    context)`` asks both once the model is read (None: nothing to ask).

    A class whose open objects can sit in models inside (``_inside_models``),
    found by ``_open_finder`` in a model read (every generated one), needs
    neither the deep validator nor a count of the text: ``shallow`` reads
    every text, ``after`` screens the open objects the model holds
    (``_found_screened``: one orjson writing of them all), and ``by_text``
    is then False, so that ``_reader`` does not ask ``validator`` (the choice
    by the text, which stays for the other classes). A model holding none
    (most documents of the module kinds) is screened by one look per field
    that may hold one.
    """

    __slots__ = ("_deep", "_holds_open", "after", "by_text", "kind", "shallow")

    def __init__(
        self,
        kind: type,
        shallow: SchemaValidator,
        sound: Callable[[Any, Any], bool] | None,
        open: bool,
        unique: tuple[str, ...] = (),
        find: _Find | None = None,
    ) -> None:
        self.kind, self.shallow, self._holds_open = kind, shallow, open
        self.by_text = open and find is None  # the validator chosen by the text (``validator``)
        self._deep: SchemaValidator | None = None if open else shallow
        self.after = _asked_after(unique, find if open else None, sound)

    def validator(self, raw: bytes, colons: int) -> tuple[SchemaValidator, bool]:
        """The validator for ``raw`` (holding ``colons`` colons), and whether it screens the open objects' numbers itself (else the proof's count must).

        Asked by ``_reader`` only when ``by_text``; for a class with a finder, the choice a class without one would make.
        """
        if not self._holds_open:
            return self.shallow, True
        # A text nests no deeper than its colons and its [ together, plus one: on the way down to its
        # deepest value, each object but the last holds the next under a key of its own (a colon),
        # and each array is a [ of its own; nor deeper than half its bytes (an opener and a closer
        # per level). A text with many colons is not counted again, nor is a large one: its
        # brackets are many, and the proof's counts of a large text cost more than the deep
        # validator's look at each open object. The proof counts the colons anyway.
        size = len(raw)
        if (
            size <= _TOO_SHORT_TO_NEST
            or (colons < MAX_OPEN_OBJECT_DEPTH and colons + raw.count(b"[") < MAX_OPEN_OBJECT_DEPTH)
            or (size <= _COUNTED and raw.count(b"{") + raw.count(b"[") <= MAX_OPEN_OBJECT_DEPTH)
        ):
            return self.shallow, False
        deep = self._deep
        if deep is None:
            deep = self._deep = _json_validator(self.kind, _open_object_screened).validator
        return deep, True


def _asked_after(
    unique: tuple[str, ...], find: _Find | None, sound: Callable[[Any, Any], bool] | None
) -> Callable[[Any, Any], bool] | None:
    """What the fast reading asks of a model it read: its ``unique`` fields' items unique, its open objects screened (``find``), then ``sound``."""
    if not unique and find is None:
        return sound

    def after(model: Any, context: Any) -> bool:
        values: dict[str, Any] = model.__dict__
        for name in unique:
            items = values[name]  # an unset field holds None
            # UNIQUE_CHECK's own test with the fast paths on, which the fast reading needs: a set of
            # its items (strings or str-valued enums) has a repeat exactly when it is shorter. Written
            # out, and skipped for fewer than two items: a call each costs more than the test.
            if items is not None and len(items) > 1 and len(set(items)) != len(items):
                return False
        if find is not None:
            found: list[Any] = []
            find(model, found)
            if found and not _found_screened(found):
                return False
        return sound is None or sound(model, context)

    return after


# --- the open objects of a model read, found and screened after the reading ---

_Find = Callable[[Any, "list[Any]"], None]
"""Appends the open objects that a model holds (its own and its models' inside) to a list."""


def _open_finder(kind: type) -> _Find:
    """How to find every open object in a model of ``kind`` read from JSON text; a ``ValueError`` if it holds none or the finder does not know where.

    Built from the field annotations, the same ones whose ``JsonObject`` steps
    ``_JsonOnly`` takes out: an open object (``JsonObject``, or None), an array
    of them, a model, an array of models; an unset field holds None. Any other
    form that might hold an open object (a dict of them, a union of two models,
    a class that holds itself) is not looked into: then the class keeps the
    choice of a validator by its text. ``tests/test_fast_kinds.py`` checks that
    every generated class with open objects in models inside is screened by
    one, and that every open object of the examples is found.
    """
    paths = _paths_of(kind, frozenset())
    if not paths:
        raise ValueError(f"{kind.__name__}: its reading took out open objects' checks, and no field holds one")
    return _finder(paths)


_MARKED_OPEN = frozenset({id(OPEN_OBJECT_CHECK)})

_Path = tuple[tuple[str, bool], ...]
"""The way to some open objects from a model: field names, each with whether it holds an array (of models or of open objects)."""

_PATHS: dict[type, tuple[_Path, ...]] = {}


def _paths_of(kind: type, within: frozenset[type]) -> tuple[_Path, ...]:
    """The ways from a model of ``kind`` to each of its places that may hold open objects (none: empty); ``within``: the classes being looked into."""
    if kind in _PATHS:
        return _PATHS[kind]
    if kind in within:
        raise ValueError(f"{kind.__name__} holds a model of its own class")
    fields: dict[str, Any] = getattr(kind, "__pydantic_fields__", {})
    paths: list[_Path] = []
    for name, field in fields.items():
        many, inside = _place(field.annotation, tuple(field.metadata), within | {kind})
        paths += [((name, many), *path) for path in inside]
    _PATHS[kind] = found = tuple(paths)
    return found


_OPEN: tuple[_Path, ...] = ((),)
"""The ways from an open object to the open objects it is: itself."""


def _place(annotation: Any, metadata: tuple[Any, ...], within: frozenset[type]) -> tuple[bool, tuple[_Path, ...]]:
    """Whether an annotation is an array, and the ways from each value (or item) to its open objects (``_OPEN``: it is one)."""
    if typing.get_origin(annotation) is Annotated:
        return _place(typing.get_args(annotation)[0], (*metadata, *annotation.__metadata__), within)
    if any(id(getattr(marker, "func", None)) in _MARKED_OPEN for marker in metadata):
        if annotation is dict or typing.get_origin(annotation) is dict:
            return False, _OPEN
        raise ValueError(f"an open object's check on {annotation!r}")
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        held = [argument for argument in arguments if argument is not type(None)]
        if len(held) == 1:
            return _place(held[0], metadata, within)
    elif origin is tuple and len(arguments) == 2 and arguments[1] is Ellipsis:
        many, inside = _place(arguments[0], (), within)
        if not many:
            return True, inside
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return False, _paths_of(annotation, within)
    if _may_hold_open(annotation, within):
        raise ValueError(f"an open object in {annotation!r}, where the finder does not look")
    return False, ()


def _may_hold_open(annotation: Any, within: frozenset[type]) -> bool:
    """Whether an annotation the finder does not look into may hold an open object (a dict, or a model that holds one)."""
    if annotation is dict or typing.get_origin(annotation) is dict:
        return True
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return bool(_paths_of(annotation, within))
    if typing.get_origin(annotation) is Annotated:
        return True  # markers the finder has not read: not looked into
    return any(_may_hold_open(argument, within) for argument in typing.get_args(annotation))


def _finder(paths: tuple[_Path, ...]) -> _Find:
    """The finder of the ways ``paths``: each followed by C-level maps over every model on the way, with no Python call per model.

    ``filter(None, ...)`` drops what is unset (None), an empty array and an
    empty object (which holds nothing to screen); an array's items are chained.
    The model's own open fields (one step, no array) are read off its
    ``__dict__`` by one ``itemgetter``.
    """
    own: list[str] = []
    # Each walk starts with one look at the model's own field: most documents hold nothing there.
    walks: list[tuple[str, bool, tuple[tuple[Callable[[Any], Any], bool], ...]]] = []
    for (name, many), *rest in paths:
        if rest or many:
            walks.append((name, many, tuple((attrgetter(step), items) for step, items in rest)))
        else:
            own.append(name)
    read_own = itemgetter(*own) if len(own) > 1 else None
    one = own[0] if len(own) == 1 else None

    def find(model: Any, found: list[Any]) -> None:
        values: dict[str, Any] = model.__dict__
        if read_own is not None:
            found.extend(filter(None, read_own(values)))
        elif one is not None:
            value = values[one]
            if value:
                found.append(value)
        for name, many, rest in walks:
            held = values[name]
            if not held:
                continue
            inside: Iterable[Any] = held if many else (held,)
            for getter, items in rest:
                inside = filter(None, map(getter, inside))
                if items:
                    inside = chain.from_iterable(inside)
            found.extend(inside)

    return find


def _deepest_written() -> int | None:
    """How many arrays orjson writes nested in one another before it stops (254 in the orjson of these years), found by trying; None if more than 1,024.

    ``high`` is always a depth orjson was seen to refuse, so the answer is exact.
    """
    low, high = 0, 1025  # orjson reads 1,024 levels, and writes fewer
    if _writes(high):
        return None
    while high - low > 1:
        middle = (low + high) // 2
        if _writes(middle):
            low = middle
        else:
            high = middle
    return low


def _writes(levels: int) -> bool:
    nest: Any = None
    for _ in range(levels):
        nest = [nest]
    try:
        orjson.dumps(nest)
    except orjson.JSONEncodeError:
        return False
    return True


# The open objects found are written as one array at the bottom of a chain of arrays, as deep as
# orjson writes less the array of them and MAX_OPEN_OBJECT_DEPTH: orjson then stops exactly when one
# of them nests deeper than that (an object in it is one level, each array or object inside one
# more, as open_object_problem counts), with no count of brackets. One chain, one writing at a time.
# An orjson that wrote deeper than it reads would have no chain: open_object_problem would decide.
# Both are made at the chain's first use, not at import (finding orjson's depth takes about 0.25 ms).
_INNERMOST: list[Any] = [None]


@functools.cache
def _chain_depth() -> int | None:
    """How many arrays the chain holds: as deep as orjson writes, less the list of open objects and ``MAX_OPEN_OBJECT_DEPTH``."""
    deepest = _deepest_written()
    return None if deepest is None else deepest - 1 - MAX_OPEN_OBJECT_DEPTH


def _chain(levels: int | None) -> list[Any] | None:
    """``_INNERMOST`` at the bottom of ``levels`` arrays, itself one of them."""
    if levels is None or levels < 1:
        return None
    nest = _INNERMOST
    for _ in range(levels - 1):
        nest = [nest]
    return nest


@functools.cache
def _the_chain() -> list[Any] | None:
    """The chain, made once; None where orjson writes deeper than it reads."""
    return _chain(_chain_depth())


_CHAIN_LOCK = threading.Lock()


def _found_screened(found: list[Any]) -> bool:
    """True only when ``open_object_problem`` finds nothing in any of the open objects ``found`` (read from JSON text).

    One orjson writing of them all: it stops at an integer beyond 64 bits and
    a lone surrogate, and writes a NaN or an infinity as ``null``, so with no
    ``null`` written there is none (the ``null``s of strings only add); with
    one, ``open_object_problem`` looks at each. Depth: each level of an object
    takes an opener and a closer, and the writing holds every bracket of the
    objects (and those of strings, which only add), behind the list's own; so a
    short writing, or one with few brackets, nests no deeper than
    ``MAX_OPEN_OBJECT_DEPTH``; any other is written again at the bottom of
    the chain (``_the_chain``), where orjson stops exactly at an object nested deeper. The
    values are pydantic's parser's (JSON mode only): dicts, lists, strings,
    numbers, booleans and None. False only sends the text to the strict
    reading, which decides and words the error.
    """
    try:
        written = b"" if len(found) >= _CHAINED_LEAST else orjson.dumps(found)
        size = len(written)
        if not written or (
            size > _FLAT_WRITING
            and (size > _COUNTED_WRITING or written.count(b"{") + written.count(b"[") > MAX_OPEN_OBJECT_DEPTH + 1)
        ):
            chain = _the_chain()
            # Not waited for: a thread (or a signal handler in this one) writing the chain already
            # leaves this reading to open_object_problem, which decides alone.
            if chain is None or not _CHAIN_LOCK.acquire(blocking=False):
                return _each_screened(found)
            try:
                _INNERMOST[0] = found
                written = orjson.dumps(chain)
            finally:
                _INNERMOST[0] = None
                _CHAIN_LOCK.release()
    except orjson.JSONEncodeError:
        return False
    return written.find(b"null") < 0 or _each_screened(found)


def _each_screened(found: list[Any]) -> bool:
    return all(open_object_problem(value) is None for value in found)


_TOO_SHORT_TO_NEST = 2 * MAX_OPEN_OBJECT_DEPTH
"""A text no longer than this nests no deeper than ``MAX_OPEN_OBJECT_DEPTH``: each level takes an opener and a closer."""

_FLAT_WRITING = _TOO_SHORT_TO_NEST + 2
"""The longest writing of a list of open objects that needs no look at its depth: the list's brackets and two a level."""

_CHAINED_LEAST = 16
"""The fewest open objects written in the chain at once: so many would most often be written twice."""

_COUNTED_WRITING = 2048
"""The longest writing whose brackets are counted (two passes); a longer one is written again in the chain (about 1 us)."""


_COUNTED = 4096
"""The largest text whose brackets are counted to choose ``Reading.shallow``: the counts grow with the text."""

_READINGS: dict[type, tuple[object, Reading | None]] = {}
_BUILDING_LOCK = threading.Lock()


def fast_reading(kind: type) -> Reading | None:
    """The fast reading of ``kind``, built once per core schema of the class; None for a class that is not plain (``is_plain``)."""
    schema = getattr(kind, "__pydantic_core_schema__", None)
    found = _READINGS.get(kind)
    if found is not None and found[0] is schema:  # a rebuilt class (model_rebuild(force=True)) has a new schema
        return found[1]
    with _BUILDING_LOCK:
        found = _READINGS.get(kind)
        if found is None or found[0] is not schema:
            found = _READINGS[kind] = (schema, _reading(kind) if is_plain(kind) else None)
    return found[1]


def _reading(kind: type) -> Reading:
    # A class that keeps keys of its own (extra="allow") keeps its open objects' checks: its
    # keys are checked by functions of its own (_context's), for which the count does not stand in.
    checks = _KEEP_CHECKS if shape_of_class(kind).extra else None
    try:
        made = _json_validator(kind, checks)
    except ValueError:  # a schema this copy cannot make: the class's fail-fast one, rules and all, as fast as its own
        return Reading(kind, fail_fast_validator(kind), None, False)
    find = None
    if made.open:
        try:
            find = _open_finder(kind) if _inside_models(kind) else None
        except ValueError:  # an open object where the finder does not look: the choice by the text, as before
            find = None
    return Reading(kind, made.validator, made.sound, made.open, made.unique, find)


def _inside_models(kind: type) -> bool:
    """Whether some open object of ``kind`` would be held by a model inside: then the finder screens them.

    Measured (docs/performance.md): where every open object is a field of
    the class's own (an event, a trace base, a learning sample), the text is
    small and mostly those objects, and counting it (``Reading.validator``)
    costs less than finding and writing them again; where they sit in models
    inside (the module kinds' events and trace, a dialog's messages), the
    text is mostly other things, which the counts would pass over for
    nothing, and a document holding none is screened by a look per field.
    """
    return any(len(path) > 1 for path in _paths_of(kind, frozenset()))


def _keep_checks(value: Any) -> Any:
    return value  # never called: it marks that the open objects keep their own checks


_KEEP_CHECKS: Callable[[Any], Any] = _keep_checks


def _open_object_screened(value: Any) -> Any:
    """An open object read from JSON text, as it is, when ``_check_open_object`` would let it through; else an error.

    orjson writes one ``[`` or ``{`` per array and object (those in strings
    only add to the count, so the count bounds the depth; a writing too short
    to hold two per level needs no count), and a NaN or an
    infinity as ``null``: with no ``null`` written there is none, and with one,
    ``open_object_problem`` looks. What orjson cannot write (an integer beyond
    64 bits, a lone surrogate) is refused too. Any refusal only sends the text
    to the strict reading, which decides and words the error. The values are
    pydantic's parser's (JSON mode only), so nothing else can be in them.
    """
    try:
        written = orjson.dumps(value)
    except orjson.JSONEncodeError:
        raise PydanticCustomError("fast_reading", "left to the strict reading") from None
    if (len(written) > _TOO_SHORT_TO_NEST and written.count(b"{") + written.count(b"[") > MAX_OPEN_OBJECT_DEPTH) or (
        written.find(b"null") >= 0 and open_object_problem(value) is not None
    ):
        raise PydanticCustomError("fast_reading", "left to the strict reading")
    return value


class _Made(NamedTuple):
    validator: SchemaValidator
    sound: Callable[[Any, Any], bool] | None  # the outermost model's rules, left out
    open: bool  # whether it holds open objects
    unique: tuple[str, ...]  # the outermost model's own fields whose UniqueItems check was left out


def _json_validator(kind: type, open_check: Callable[[Any], Any] | None) -> _Made:
    """A validator of JSON text for ``kind`` (see ``Reading``), and what it leaves to be asked after.

    Each ``json-or-python`` step becomes its JSON branch; ``JsonObject``'s two
    before-validators become ``open_check`` (nothing for None, themselves for
    ``_KEEP_CHECKS``); the outermost model's registered rules, and the
    ``UniqueItems`` checks of its own fields, are left out and named (each a
    Python call from pydantic-core that ``Reading.after`` makes cheaper). Every array fails fast
    (``_bounded``): a text this validator refuses goes to the strict reading, and
    its errors are dropped, so they had better be few. Built as ``_bounded``
    builds its copies (``validator_of_copy``: the models inside from the copy).
    """
    edit = _JsonOnly(kind, open_check)
    schema = fail_fast_copy(edit.node(kind.__pydantic_core_schema__))  # type: ignore[attr-defined]
    validator = validator_of_copy(schema, edit.config, edit.models)
    return _Made(validator, edit.sound, edit.open, tuple(edit.unique))


def _step(node: dict[str, Any]) -> object:
    """The function of a function validator step (``{"function": {"function": f}}``), or None."""
    function = node.get("function")
    return cast(dict[str, object], function).get("function") if isinstance(function, dict) else None


class _JsonOnly:
    """The copy of a core schema that ``_json_validator`` builds, and what it found on the way."""

    def __init__(self, kind: type, open_check: Callable[[Any], Any] | None) -> None:
        self.kind, self.open_check = kind, open_check
        self.models: list[type] = []
        self.config: Any = None
        self.sound: Callable[[Any, Any], bool] | None = None
        self.open = False
        self.unique: list[str] = []
        self.outer_seen = False

    def node(self, node: Any) -> Any:
        if isinstance(node, list):
            return [self.node(item) for item in cast(list[Any], node)]  # type: ignore[redundant-cast]  # pyright sees list[Unknown]
        if not isinstance(node, dict):
            return node
        schema = cast(dict[str, Any], node)
        kind = schema.get("type")
        if not isinstance(kind, str):  # a mapping of names (a model's fields), not a step: one may be "metadata"
            return {key: self.node(value) for key, value in schema.items()}
        if kind == "json-or-python":
            return _with_ref(self.node(schema["json_schema"]), schema)
        if kind == "chain":
            number = _bounded_number(schema)
            if number is not None:
                return _with_ref(number, schema)
        if kind == "str" and schema.get("min_length") == 0:
            # JsonText's bound refuses a lone surrogate (pydantic-core then reads the text as UTF-8,
            # about 8 ns a string): JSON text brings none that pydantic's parser takes, and the
            # proof's writing refuses any (orjson), so this validator leaves it out.
            return {key: value for key, value in schema.items() if key != "min_length"}
        function = _step(schema)
        if kind == "function-before" and function is OPEN_OBJECT_CHECK and self.open_check is not _KEEP_CHECKS:
            self.open = True
            inner = self.node(schema["schema"])
            if self.open_check is not None:
                inner = core_schema.no_info_after_validator_function(self.open_check, inner)
            return _with_ref(inner, schema)
        if kind == "function-before" and function is OPEN_OBJECT_REFUSAL and self.open_check is not _KEEP_CHECKS:
            return _with_ref(self.node(schema["schema"]), schema)
        if kind == "function-after" and id(function) in _RULES and schema["schema"].get("cls") is self.kind:
            self.sound = _RULES[id(function)]
            return _with_ref(self.node(schema["schema"]), schema)
        if kind == "model":
            self.models.append(schema["cls"])
            if schema["cls"] is self.kind:
                # What is left out here is asked of the outermost model only: a class that holds
                # itself gets no copy (the caller falls back on its fail-fast validator).
                if self.outer_seen:
                    raise ValueError(f"{self.kind.__name__} holds a model of its own class")
                self.outer_seen = True
                self.config = schema.get("config")
                schema = {**schema, "schema": self._unique_left_out(schema["schema"])}
        # Functions, classes and metadata are kept as they are; serialization does not validate.
        return {key: value if key in _KEPT else self.node(value) for key, value in schema.items()}

    def _unique_left_out(self, fields: Any) -> Any:
        """The outermost model's fields, each ``UniqueItems`` check of a field's own array left out and named in ``unique``."""
        if fields.get("type") != "model-fields":
            return fields
        own = {name: self._field_unique_left_out(name, field) for name, field in fields["fields"].items()}
        return {**fields, "fields": own}

    def _field_unique_left_out(self, name: str, field: dict[str, Any]) -> dict[str, Any]:
        """A field whose JSON branch is the check of its array (``default``, ``json-or-python``, the check), the check left out."""
        outer = field["schema"]
        defaulted = outer.get("type") == "default"
        inner = outer["schema"] if defaulted else outer
        if inner.get("type") != "json-or-python":
            return field
        checked = inner["json_schema"]
        if checked.get("type") != "function-after" or _step(checked) is not UNIQUE_CHECK:
            return field
        self.unique.append(name)
        inner = {**inner, "json_schema": _with_ref(checked["schema"], checked)}
        return {**field, "schema": {**outer, "schema": inner} if defaulted else inner}


_INT = {"type": "int", "strict": True}
_FINITE = {"type": "float", "allow_inf_nan": False, "strict": True}


def _bounded_number(schema: dict[str, Any]) -> dict[str, Any] | None:
    """A bounded ``JsonNumber``'s JSON steps (``_types._NumericSchema``) as one union, or None for any other chain.

    The type's union (a strict ``int``, a finite strict ``float``) then one
    union per bound (``int`` and ``float``, each with the bound) accept an int
    exactly when it is within the bounds (an int that fails the int's bound
    fails the float's too: the bounds are integers a double holds, and
    rounding keeps the order with them) and a float exactly when it is finite
    and within them, each kept as given: so does one union of a bounded
    strict ``int`` and a bounded finite strict ``float``, with a step and a
    union fewer (a float no longer fails two ``int`` tries). Only the errors
    differ, and this validator's errors are dropped (the strict reading words them).
    """
    steps: list[Any] = schema.get("steps", [])
    if len(steps) < 2 or not _plain_choices(steps[0], {}):
        return None
    bounds: dict[str, Any] = {}
    for step in steps[1:]:
        if not isinstance(step, dict) or cast(dict[str, Any], step).get("type") != "custom-error":
            return None
        limit: Any = cast(dict[str, Any], step).get("custom_error_context")
        if not isinstance(limit, dict) or len(cast(dict[str, Any], limit)) != 1:
            return None
        (name, value), *_ = cast(dict[str, Any], limit).items()
        if name not in ("ge", "le") or name in bounds or type(value) is not int or abs(value) > 2**53:
            return None
        if not _plain_choices(cast(dict[str, Any], step).get("schema"), {name: value}):
            return None
        bounds[name] = value
    return {"type": "union", "choices": [{**_INT, **bounds}, {**_FINITE, **bounds}]}


def _plain_choices(union: Any, bound: dict[str, Any]) -> bool:
    """Whether ``union`` is a union of exactly a strict ``int`` and a strict ``float`` with ``bound`` (the type's own: finite, no bound)."""
    if not isinstance(union, dict):
        return False
    schema = cast(dict[str, Any], union)
    number = _FINITE if not bound else {"type": "float", "strict": True, **bound}
    return (
        schema.get("type") == "union"
        and schema.get("choices") == [{**_INT, **bound}, number]
        and set(schema)
        <= {
            "type",
            "choices",
            "custom_error_type",
            "custom_error_message",
            "custom_error_context",
        }
    )


_KEPT = frozenset({"cls", "function", "discriminator", "metadata", "serialization"})


def _with_ref(inner: Any, outer: dict[str, Any]) -> Any:
    """``inner`` in place of ``outer``, under ``outer``'s definition name if it has one."""
    if "ref" not in outer:
        return inner
    if "ref" in inner:  # two names for one step: not in these schemas
        raise ValueError(f"{outer['ref']} and {inner['ref']} name one step")
    return {**inner, "ref": outer["ref"]}
