"""The reading fast path: ``read`` by pydantic's JSON mode, kept where ``counts_agree`` shows it the strict one's.

``read`` is what ``from_json``, ``model_validate_json`` and ``parse`` give.
Its strict function, ``read_strictly``, is ``_json_input.load_json`` then
``_bounded.validate_python``. Its fast function, ``read_fast``, lets pydantic
validate while it parses (``Reading``), and keeps the model only when the
counts of ``counts_agree`` (the proof: the model written back by
``_writer.every_field_writer``) and what the validator left out
(``Reading.screen``, ``Reading.after``) hold; otherwise, and whenever pydantic
refuses the text, the strict function decides, with its own errors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any, cast

from pydantic import ValidationError
from pydantic_core import core_schema

from mplp_models import _fastpath
from mplp_models._bounded import validate_python, validator_of_edited
from mplp_models._fast_shapes import checks_extra_keys, facts_of, is_plain, model_class, rules_check
from mplp_models._json_input import json_bytes, load_json
from mplp_models._json_values import MAX_OPEN_OBJECT_DEPTH, plainly_json
from mplp_models._types import OPEN_OBJECT_CHECK, OPEN_OBJECT_REFUSAL, UNIQUE_CHECK
from mplp_models._writer import every_field_writer

__all__ = ["Reading", "counts_agree", "fast_reading", "read", "read_fast", "read_strictly"]

_BACKSLASH = ord("\\")
_READING = _fastpath.READING


def read(kind: type, data: Any, context: Any, allow_duplicate_keys: bool, options: Mapping[str, Any] | None) -> Any:
    """The model of class ``kind`` that ``data`` holds: ``read_fast``'s if it gives one, else the strict one."""
    raw: bytes = data if type(data) is bytes else json_bytes(data, kind.__name__)
    if _fastpath.ENABLED and _READING not in _fastpath.OFF:  # _fastpath.on and read_fast, without their calls
        reads = _READS.get(kind)
        if reads is None:
            reads = _READS[kind] = _read_of(kind)
        fast = reads(raw, context, options)
        if fast is not None:
            return fast
    return read_strictly(kind, raw, context, allow_duplicate_keys, options)


def read_strictly(
    kind: type, raw: bytes, context: Any, allow_duplicate_keys: bool, options: Mapping[str, Any] | None
) -> Any:
    """The strict reading: orjson, the duplicate-key check, then a validation of Python objects (bounded errors)."""
    value = load_json(raw, kind.__name__, allow_duplicate_keys=allow_duplicate_keys)
    return validate_python(kind, value, context=context, **(options or {}))


def counts_agree(raw: bytes, colons: int, written: bytes, unset: int) -> bool:
    """Whether the model read from ``raw`` (holding ``colons``), written with every field as ``written``, ``unset`` of
    them not given, is what ``read_strictly`` gives.

    Both parsers accept the same texts and read the same values, but for the
    things below, each settled here, in the types or in ``Reading``:

    * duplicate keys, which pydantic's parser merges: the model written back
      (``every_field_writer``: every field, the open objects as they are) holds
      one ``:`` per key it kept, one per field not given, and every ``:`` of
      the strings; the text holds as many, counting the fields not given and
      each ``\\u003a`` too (a count that may be too high, never too low: an
      escaped backslash before ``u003a`` is counted), exactly when it has no
      duplicate key;
    * integers beyond +/-(2**53 - 1): pydantic keeps them exact, as the strict
      reading does, but refuses none beyond a double's range; written with
      ``OPT_STRICT_INTEGER``, any such integer stops the writing (then: no);
    * lone surrogates: orjson's writing refuses every one (then: no);
    * ``NaN``, ``Infinity`` and overflowing numbers, which pydantic's parser
      takes into open objects, and nesting inside an open object beyond
      ``MAX_OPEN_OBJECT_DEPTH``: ``Reading.screen`` screens the open objects the model holds
      (``plainly_open`` first where some are its own); nesting beyond ``MAX_JSON_DEPTH`` no model takes.

    The counts hold for plain models only (``_fast_shapes.fast_path_problems``: an
    unset field holds ``None``, every key is a field, no validator of the
    user's changes a string); ``every_field_writer`` refuses any other.
    Checked against orjson's verdicts on malformed text (invalid UTF-8, lone
    surrogates, bad numbers, trailing data, BOM, control characters) in the tests.
    """
    escaped = raw.count(b"\\u003a") + raw.count(b"\\u003A") if _BACKSLASH in raw else 0
    return colons + escaped + unset == written.count(b":")


def plainly_open(raw: bytes, colons: int, written: bytes, unset: int) -> bool:
    """True only when no open object of the model read from ``raw`` (holding ``colons``), written as ``written``,
    holds a NaN, an infinity or nesting beyond ``MAX_OPEN_OBJECT_DEPTH``; asked once ``counts_agree`` holds.

    False is no verdict. Depth: no open object nests deeper than the document (a model's extra keys, one open
    object, no deeper; any other sits a level down at least); a text nests no deeper than its colons and its
    ``[`` together, plus one (on the way down to its deepest value, each object but the last holds the next
    under a key of its own, and each array is a ``[`` of its own), nor deeper than half its bytes (an opener
    and a closer a level). NaN: orjson writes a NaN or an infinity as ``null``. The
    writing holds one ``null`` per ``null`` of the text outside strings, one per field not given, one per NaN
    or infinity, and at least as many in strings as the text (orjson escapes only quotes, backslashes and
    control characters, and writes a newline as ``\\n``, so a ``null`` of a string's text, the ``n`` of
    ``\\n`` included, is written again; an escape like ``\\u006e`` only adds): so it holds no more than the
    text's and the unset fields' together exactly when no number was NaN or infinite.
    """
    if len(raw) > _SHORT_TEXT and (
        colons >= MAX_OPEN_OBJECT_DEPTH or colons + raw.count(b"[") >= MAX_OPEN_OBJECT_DEPTH
    ):
        return False  # counting more of a large text would cost more than the screen of its open objects
    nulls = written.count(b"null")
    return nulls <= unset or nulls <= raw.count(b"null") + unset


_SHORT_TEXT = 2 * MAX_OPEN_OBJECT_DEPTH


def read_fast(kind: type, raw: bytes, context: Any = None, options: Mapping[str, Any] | None = None) -> Any:
    """The model of class ``kind`` read from ``raw`` by its fast reading, if the proof keeps it; else None.

    None also for a class with no fast reading and for a text it refuses. The caller asks whether the path is on.
    """
    reads = _READS.get(kind)
    if reads is None:
        reads = _READS[kind] = _read_of(kind)
    return reads(raw, context, options)


_Read = Callable[[bytes, Any, "Mapping[str, Any] | None"], Any]
_READS: dict[type, _Read] = {}
"""``read_fast`` of each class read so far, its choices made once for the class (``_read_of``)."""


def _read_of(kind: type) -> _Read:
    """``read_fast`` for one class, with what depends on the class alone decided once (an event is read in a few
    microseconds: each call and look-up takes its share); a class rebuilt since (a new core schema) gets a new one.
    """
    model_class_: Any = kind
    schema = model_class_.__pydantic_core_schema__  # first: a rebuild meanwhile makes a new one
    reading = fast_reading(kind)
    validator, after, screen = (reading.validator, reading.after, reading.screen) if reading else (None, None, None)
    write = every_field_writer(kind)

    def fast(raw: bytes, context: Any, options: Mapping[str, Any] | None) -> Any:
        if model_class_.__pydantic_core_schema__ is not schema:  # rebuilt: a new function for its new core schema
            _READS.pop(kind, None)
            return read_fast(kind, raw, context, options)
        if validator is None:
            return None
        try:
            model = (  # pydantic-core takes ~0.7 us more for a context=None given
                validator.validate_json(raw)
                if context is None and not options
                else validator.validate_json(raw, context=context, **(options or {}))
            )
            written, unset = write(model)
        except (ValidationError, TypeError):  # a refusal; orjson's JSONEncodeError (see counts_agree)
            return None  # the model freed before the strict reading, which may need as much memory again
        colons = raw.count(b":")
        if not counts_agree(raw, colons, written, unset):
            return None
        if screen is not None and not screen(model, raw, colons, written, unset):
            return None
        return model if after is None or after(model, context) else None

    return fast


# --- the class's validator of JSON text, and what it leaves to be asked after ----------------------


class Reading:
    """How ``read_fast`` reads one plain class: its validator of JSON text, and what to ask of a model it read.

    ``validator`` is the class's own in JSON mode (every array failing fast) but for what ``_JsonOnly`` takes
    out: the open objects' checks, the outermost model's rules and its own ``UniqueItems`` checks. ``screen``
    then asks that the open objects hold what ``first_problem`` allows, ``after(model, context)`` the unique
    arrays and the rules (None: nothing).
    """

    __slots__ = ("after", "screen", "validator")

    def __init__(self, kind: type) -> None:
        edit = _JsonOnly(kind)
        self.validator = validator_of_edited(kind, edit.edit)
        self.screen = _screen(kind) if edit.open else None
        self.after = _asked_after(facts_of(kind).unique, edit.sound)


def fast_reading(kind: type) -> Reading | None:
    """The fast reading of ``kind`` (built anew: ``_read_of`` keeps it per core schema); None for a class not plain."""
    return Reading(kind) if is_plain(kind) else None


def _step_function(node: Mapping[str, Any]) -> object:
    """The function of a function validator step (``{"function": {"function": f}}``), or None."""
    function = node.get("function")
    return cast(dict[str, object], function).get("function") if isinstance(function, dict) else None


class _JsonOnly:
    """The edit (``_bounded.validator_of_edited``) that makes a class's core schema its validator of JSON text.

    Each ``json-or-python`` step becomes its JSON branch; ``JsonObject``'s two before-validators and the checks
    of extra keys go (``open``: some did; the screen asks what they asked); ``JsonText``'s bound goes (the
    proof's writing refuses what it refused); the outermost model's registered rules (kept in ``sound``) and
    its own fields' ``UniqueItems`` checks go.
    """

    def __init__(self, kind: type) -> None:
        self.kind = kind
        self.unique = frozenset(facts_of(kind).unique)
        self.sound: Callable[[Any, Any], bool] | None = None
        self.open = False
        self.outer_made: dict[str, Any] | None = None

    def edit(self, node: dict[str, Any]) -> dict[str, Any]:
        kind = node["type"]
        if kind == "json-or-python":
            return _with_ref(cast(core_schema.JsonOrPythonSchema, node)["json_schema"], node)
        if kind == "str" and node.get("min_length") == 0:
            # JsonText's bound refuses a lone surrogate (pydantic-core then reads the text as UTF-8, about 8 ns
            # a string): JSON text brings none that pydantic's parser takes, and the proof's writing refuses any.
            return {key: value for key, value in node.items() if key != "min_length"}
        if kind == "function-before" and _opens(_step_function(node)):
            self.open = True
            return _with_ref(cast(core_schema.BeforeValidatorFunctionSchema, node)["schema"], node)
        if kind == "function-after":
            return self._after_left_out(cast(core_schema.AfterValidatorFunctionSchema, node))
        if kind == "model":
            return self._outer_model(cast(core_schema.ModelSchema, node))
        return node

    def _after_left_out(self, node: core_schema.AfterValidatorFunctionSchema) -> dict[str, Any]:
        """The outermost model's rules step left out (and its check kept in ``sound``); any other as it is."""
        sound = rules_check(_step_function(node))
        if sound is not None and cast(dict[str, Any], node["schema"]).get("cls") is self.kind:
            self.sound = sound
            return _with_ref(node["schema"], node)
        return cast(dict[str, Any], node)

    def _outer_model(self, node: core_schema.ModelSchema) -> dict[str, Any]:
        """A model step as it is but the outermost one's, whose own unique arrays' checks are left out."""
        # What is left out is asked of the outermost model only: no plain class holds one of its own class
        # (tests/test_fast_kinds.py), so the class's step is the outermost one.
        if node is self.outer_made or node["cls"] is not self.kind:  # outer_made: this edit's own, given back
            return cast(dict[str, Any], node)
        fields = cast(dict[str, Any], node["schema"])
        if fields.get("type") == "model-fields" and self.unique:
            own = {
                name: _unique_left_out(field) if name in self.unique else field
                for name, field in fields["fields"].items()
            }
            fields = {**fields, "fields": own}
        self.outer_made = {**node, "schema": fields}
        return self.outer_made


def _opens(function: object) -> bool:
    """Whether ``function`` is a check the screen asks after the reading: of an open object or of extra keys."""
    return function is OPEN_OBJECT_CHECK or function is OPEN_OBJECT_REFUSAL or checks_extra_keys(function)


def _unique_left_out(field: dict[str, Any]) -> dict[str, Any]:
    """A field of the outermost model whose JSON branch checks its array's items unique, that check left out.

    The field's schema is ``default`` (optional) or not, then ``json-or-python`` (``Ordered``), whose JSON
    branch is the ``UniqueItems`` step; any other form is kept as it is (and the check with it).
    """
    outer = field["schema"]
    defaulted = outer.get("type") == "default"
    inner = outer["schema"] if defaulted else outer
    checked: dict[str, Any] = inner.get("json_schema", {}) if inner.get("type") == "json-or-python" else {}
    if checked.get("type") != "function-after" or _step_function(checked) is not UNIQUE_CHECK:
        return field
    inner = {**inner, "json_schema": _with_ref(checked["schema"], checked)}
    return {**field, "schema": {**outer, "schema": inner} if defaulted else inner}


def _with_ref(inner: Any, outer: Mapping[str, Any]) -> dict[str, Any]:
    """``inner`` in place of ``outer``, under ``outer``'s definition name if it has one."""
    if "ref" not in outer:
        return cast(dict[str, Any], inner)
    if "ref" in inner:  # two names for one step: not in these schemas
        raise ValueError(f"{outer['ref']} and {inner['ref']} name one step")
    return {**inner, "ref": outer["ref"]}


def _asked_after(
    unique: tuple[str, ...], sound: Callable[[Any, Any], bool] | None
) -> Callable[[Any, Any], bool] | None:
    """What the fast reading asks of a model it read, with its context: its ``unique`` arrays' items, then ``sound``."""
    if not unique:
        return sound

    def after(model: Any, context: Any) -> bool:
        values: dict[str, Any] = model.__dict__
        for name in unique:
            items = values[name]  # an unset field holds None
            # UNIQUE_CHECK's own test with the fast paths on: a set of its items (strings or str-valued
            # enums) has a repeat exactly when it is shorter. Skipped for fewer than two items.
            if items is not None and len(items) > 1 and len(set(items)) != len(items):
                return False
        return sound is None or sound(model, context)

    return after


_Screen = Callable[[Any, bytes, int, bytes, int], bool]
"""True only when no open object of a model read (from the text, written back, so many fields unset) holds what
``first_problem`` refuses (False: no verdict): the model, the text and its colons, the writing, the unset fields."""


def _screen(kind: type) -> _Screen:
    """How the fast reading screens the open objects of a model of ``kind`` it read: found by the classes' facts
    and written again together (``plainly_json``), first asking the text's counts (``plainly_open``) where
    some open object is the model's own (a field, an item of one, its extra keys).

    Such objects, and the extra keys of the models in a sample, are most of the text, and its counts cost
    less than finding them; where every one sits in models inside (a role's or a plan's trace attributes and
    event data), the counts pass over text that holds none of them and cost more than the finding they
    rarely spare (measured side by side: a role of 100 capabilities read 14% faster without them, a learning
    sample core a third slower).
    """
    paths = _paths_of(kind)
    find = _finder(paths)

    def found_plainly_json(model: Any, raw: bytes, colons: int, written: bytes, unset: int) -> bool:
        found: list[Any] = []
        find(model, found)
        return not found or plainly_json(found, _SCREENED_LEVELS, parsed=True)

    if not any(len(path) == 1 for path in paths):
        return found_plainly_json

    def by_text(model: Any, raw: bytes, colons: int, written: bytes, unset: int) -> bool:
        return plainly_open(raw, colons, written, unset) or found_plainly_json(model, raw, colons, written, unset)

    return by_text


# --- the open objects of a model read, found and screened after the reading ----------------------

_SCREENED_LEVELS = MAX_OPEN_OBJECT_DEPTH + 1  # the list of the open objects found is a level of its own

_Path = tuple[tuple[str, bool], ...]
"""The way to some open objects from a model: field names (``_EXTRA`` last: the extra keys of the model there),
each with whether it holds an array."""

_EXTRA = "__pydantic_extra__"  # the attribute that holds a model's extra keys, checked as one open object


def _paths_of(kind: type) -> tuple[_Path, ...]:
    """The ways from a model of ``kind`` to each of its places that hold open objects (no plain class holds itself)."""
    facts = facts_of(kind)
    fields: dict[str, Any] = getattr(kind, "__pydantic_fields__", {})
    paths: list[_Path] = [((name, False),) for name in facts.open]
    paths += [((name, True),) for name in facts.open_arrays]
    paths += [((_EXTRA, False),)] if facts.extra else []
    for many, names in ((False, facts.models), (True, facts.model_arrays)):
        for name in names:
            inner = model_class(fields[name].annotation)
            inside = _paths_of(inner) if inner is not None else ()
            paths += [((name, many), *path) for path in inside]
    return tuple(paths)


def _finder(paths: tuple[_Path, ...]) -> Callable[[Any, list[Any]], None]:
    """What appends the open objects a model holds (its own and its models' inside) to a list: the ways ``paths``,
    each followed by C-level maps over every model on the way.

    ``filter(None, ...)`` drops what is unset, empty arrays and empty objects; the model's own open fields
    are read off its ``__dict__`` by one ``itemgetter``, its extra keys (in no ``__dict__``) apart.
    """
    extra = ((_EXTRA, False),) in paths
    own = [name for (name, many), *rest in paths if not rest and not many and name != _EXTRA]
    walks = [
        (name, many, tuple((attrgetter(step), items) for step, items in rest))
        for (name, many), *rest in paths
        if rest or many
    ]
    read_own = itemgetter(*own) if len(own) > 1 else None
    one = own[0] if len(own) == 1 else None

    def find(model: Any, found: list[Any]) -> None:
        values: dict[str, Any] = model.__dict__
        if extra and model.__pydantic_extra__:
            found.append(model.__pydantic_extra__)
        if read_own is not None:
            found.extend(filter(None, read_own(values)))
        elif one is not None and values[one]:
            found.append(values[one])
        for name, many, rest in walks:
            held = values[name]
            if held:
                found.extend(_followed(held if many else (held,), rest))

    return find


def _followed(inside: Iterable[Any], rest: tuple[tuple[Callable[[Any], Any], bool], ...]) -> Iterable[Any]:
    """What the steps ``rest`` lead to from the values ``inside``: each step's non-empty values, arrays chained."""
    for getter, items in rest:
        inside = filter(None, map(getter, inside))
        if items:
            inside = chain.from_iterable(inside)
    return inside
