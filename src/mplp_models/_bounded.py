"""Bounded error collection: a big failing input is checked up to the first problem of each array.

pydantic-core collects every problem of an input before anyone can cap the
listing (pydantic/pydantic#8242): two megabytes of ``{"steps":[0,0,...]}`` are a
million entries, about 460 MB to raise. So the models' own doors validate with a
copy of each class's core schema in which every array stops at its first bad item (pydantic-core's
``fail_fast``), built once per class. A valid input gives the same model through either validator
(tests/test_bounded_errors.py checks it differentially); one that fails and holds at most
``FULL_ERRORS_MAX_VALUES`` values is validated again by the class's own, which lists every problem; a
bigger one keeps the fail-fast listing, with a last entry saying the checks stopped where they left
items unchecked. Memory and time are then linear in the input.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, cast

from pydantic import PydanticUserError, ValidationError
from pydantic_core import ErrorDetails, InitErrorDetails, SchemaValidator

from mplp_models import _errors

__all__ = [
    "BUILD_LOCK",
    "FULL_ERRORS_MAX_VALUES",
    "SCHEMA_ONLY",
    "fail_fast_validator",
    "nodes_of",
    "validate_python",
    "validator_of_edited",
]

SCHEMA_ONLY: Mapping[str, Any] = {"mplp_models.semantic": False}
"""Validation context that skips the rules beyond the schemas: ``Plan.model_validate(data, context=SCHEMA_ONLY)``."""

FULL_ERRORS_MAX_VALUES = 32_768
"""The most JSON values (objects, arrays, strings, numbers...) an input may hold for its failure to list every problem.

Above it, each array is checked up to its first bad item.
Chosen by measurement: pydantic-core keeps about 460 bytes per problem, and an
input of this many values has at most a few problems per value (a JSON array
of 32,768 zeros where objects belong is 64 KiB and 32,768 problems: about 15 MB
while they are collected, freed once listed). Read at each validation.
"""

# The core schema types of arrays, which all take `fail_fast` (pydantic >= 2.8). Not objects: every object schema
# of the models is a model's fields, which check every field, or an open object of JSON values, which a JSON
# reading never gets wrong (and Python input is the caller's).
_FAIL_FAST = frozenset({"list", "tuple", "set", "frozenset"})
# What a schema holds that is not validation: left as it is.
_NOT_VALIDATION = frozenset({"metadata", "serialization", "ref", "cls", "config"})

_CACHE: weakref.WeakKeyDictionary[type, tuple[object, SchemaValidator]] = weakref.WeakKeyDictionary()
# One build at a time: two builds sharing a model class would unmark it while the other builds
# (_validator_of_copy); held too by whoever reads the mark (_fast_shapes._plain).
BUILD_LOCK = threading.RLock()


def _as_array(node: object) -> list[Any] | tuple[Any, ...] | None:
    return cast("list[Any]", node) if isinstance(node, (list, tuple)) else None


def validator_of_edited(
    cls: type[Any], edit: Callable[[dict[str, Any]], dict[str, Any]] | None = None
) -> SchemaValidator:
    """A validator of a copy of ``cls``'s core schema with ``fail_fast`` on every array, each step first given to
    ``edit`` (which gives the step itself to keep it, else what replaces it); built anew at each call.

    The one rewrite of pydantic-core's schemas in the package (with ``edit``: ``_reader``'s). What is no
    validation (``_NOT_VALIDATION``) is kept as it is; a mapping of names (a model's fields) is no step, and
    a field may be called ``metadata``. Each model class in the copy is validated by it, with its configuration
    (``config`` of its ``model`` step: pydantic builds the class's own validator with it).
    """
    models: dict[type[Any], Any] = {}

    def copied(node: Any) -> Any:
        if isinstance(node, list):
            return [copied(item) for item in cast(list[Any], node)]  # type: ignore[redundant-cast]
        if not isinstance(node, dict):
            return node
        step = cast(dict[str, Any], node)
        if not isinstance(step.get("type"), str):  # a mapping of names
            return {key: copied(value) for key, value in step.items()}
        while edit is not None and (replaced := edit(step)) is not step:
            step = replaced
        made = {key: value if key in _NOT_VALIDATION else copied(value) for key, value in step.items()}
        if made["type"] in _FAIL_FAST:
            made["fail_fast"] = True
        elif made["type"] == "model" and isinstance(made.get("cls"), type):
            models.setdefault(made["cls"], made.get("config"))
        return made

    schema = copied(cls.__pydantic_core_schema__)
    return _validator_of_copy(schema, models.get(cls), models)


def fail_fast_validator(cls: type[Any]) -> SchemaValidator:
    """``validator_of_edited(cls)``, cached until the class is rebuilt."""
    schema = cls.__pydantic_core_schema__
    cached = _CACHE.get(cls)
    if cached is not None and cached[0] is schema:  # a rebuilt model has a new schema
        return cached[1]
    validator = validator_of_edited(cls)
    _CACHE[cls] = (schema, validator)
    return validator


def _validator_of_copy(schema: Any, config: Any, classes: Iterable[type[Any]]) -> SchemaValidator:
    """A validator of ``schema``, an edited copy of a model's, that validates the ``classes`` in it by it.

    pydantic-core reuses the validator a complete model class already has for a ``model`` schema of that
    class (its "prebuilt" validators, pydantic >= 2.10), which would ignore the copy's edits; it looks for
    the class's own ``__pydantic_complete__``, so each class is marked incomplete while the validator is
    built. The builds take turns (``BUILD_LOCK``), as does ``_fast_shapes``' reading of the mark. Another
    thread's own ``model_rebuild`` at that very moment would still see the mark: at worst, one validator
    then holds that class's prebuilt validator, whose errors are not bounded.
    """
    with BUILD_LOCK:
        marked = [cls for cls in classes if cls.__dict__.get("__pydantic_complete__") is True]
        try:
            for cls in marked:
                type.__setattr__(cls, "__pydantic_complete__", False)
            return SchemaValidator(schema, config)
        finally:
            for cls in marked:
                type.__setattr__(cls, "__pydantic_complete__", True)


def nodes_of(schema: Any) -> list[Any]:
    """Every dict, list and value in a core schema."""
    found: list[Any] = []
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        found.append(node)
        if isinstance(node, dict):
            stack.extend(cast(dict[str, Any], node).values())
        elif isinstance(node, (list, tuple)):
            stack.extend(cast(Sequence[Any], node))
    return found


def validate_python(cls: type[Any], value: Any, **options: Any) -> Any:
    """``value`` validated as ``cls``, with a bounded error (see the module): what the models' ``model_validate`` does.

    The context ``SCHEMA_ONLY`` tells the schema's problems from the rules'.
    """
    if options.get("by_alias") is False and options.get("by_name") is not True:  # as pydantic's model_validate
        raise PydanticUserError(
            "At least one of `by_alias` or `by_name` must be set to True.", code="validate-by-alias-and-name-false"
        )
    validator = fail_fast_validator(cls)
    try:
        return validator.validate_python(value, **options)
    except ValidationError as error:
        if _at_most(value, FULL_ERRORS_MAX_VALUES):
            cls.__pydantic_validator__.validate_python(value, **options)  # its error lists every problem
            raise error from None  # it found none: the value changed under the first reading (a user's validator)
        raise _stopped(error, value, _schema_problems(validator, value, options)) from None


def _schema_problems(validator: SchemaValidator, value: Any, options: dict[str, Any]) -> list[ErrorDetails] | None:
    """The schema's own problems with ``value``, without the rules' (``SCHEMA_ONLY``; None: not known).

    A rule's problem is located like a schema's (``/steps/5/status``), but the rules of a
    model run only once its schema holds, every array in it whole: they skip nothing.
    """
    context = options.get("context")
    if context is not None and not isinstance(context, Mapping):
        return None  # a caller's own context, which cannot carry the switch
    given = cast("Mapping[str, Any]", context or {})
    rest: dict[str, Any] = {name: option for name, option in options.items() if name != "context"}
    try:
        validator.validate_python(value, context={**given, **SCHEMA_ONLY}, **rest)
    except ValidationError as error:
        return _errors.first_entries(error, _errors.MAX_ERRORS)[0]
    return []


def _at_most(value: object, limit: int) -> bool:
    """Whether ``value`` holds at most ``limit`` values (itself included), each one that reads the same twice.

    Stops counting at the limit; False for an iterator, which the first reading used up.
    """
    count = 0
    stack: list[object] = [value]
    while stack:
        count += 1
        if count > limit:
            return False
        node = stack.pop()
        if isinstance(node, Iterator):
            return False
        if isinstance(node, Mapping):
            stack.extend(cast("Mapping[Any, Any]", node).values())  # type: ignore[redundant-cast]
        elif (items := _as_array(node)) is not None:
            stack.extend(items)
    return True


def _stopped(error: ValidationError, value: object, schema_problems: list[ErrorDetails] | None) -> ValidationError:
    """``error`` and, if the checks left items unchecked on the way to one of its problems, an entry saying so.

    That entry replaces a count of the error's own (a count of what was checked, not of all).
    """
    entries = _errors.first_entries(error, _errors.MAX_ERRORS)[0]
    located = entries if schema_problems is None else schema_problems
    if not any(_cut(value, entry["loc"]) for entry in located):
        return error  # complete: nothing was skipped
    # An array cut at its first bad item counts only the items before it: "at least 1 item, not 0"
    # would be false of an array as long as it needs to be.
    kept = [entry for entry in entries if entry["type"] != _errors.TOO_MANY and not _long_enough(value, entry)]
    details: list[InitErrorDetails] = [_errors.detail_of(entry) for entry in kept]
    details.append(_errors.too_many(len(kept), None))
    return ValidationError.from_exception_data(error.title, details)


def _long_enough(value: object, entry: ErrorDetails) -> bool:
    """Whether ``entry`` says an array is too short that is as long as its ``min_length`` asks."""
    if entry["type"] != "too_short":
        return False
    least = entry.get("ctx", {}).get("min_length")
    found = _as_array(_walk(value, entry["loc"])[-1])
    return found is not None and isinstance(least, int) and len(found) >= least


def _cut(value: object, loc: tuple[int | str, ...]) -> bool:
    """Whether an array on the way to ``loc`` in ``value`` has items after the one on the way: unchecked."""
    return any(_has_after(node, part) for node, part in zip(_walk(value, loc), loc))


def _walk(value: object, loc: tuple[int | str, ...]) -> list[object]:
    """The values on the way to ``loc`` in ``value``, ``value`` first; None past where the way ends."""
    path: list[object] = [value]
    node: object = value
    for part in loc:
        items = _as_array(node)
        if items is not None and isinstance(part, int) and 0 <= part < len(items):
            node = items[part]
        elif isinstance(node, dict) and part in node:
            node = cast("dict[Any, Any]", node)[part]  # type: ignore[redundant-cast]
        else:
            node = None
        path.append(node)
    return path


def _has_after(node: object, part: int | str) -> bool:
    items = _as_array(node)
    return items is not None and isinstance(part, int) and 0 <= part < len(items) - 1
