"""What the fast paths know of a model class: its ``Facts`` (written by the codegen), and whether it is plain.

A class is "plain" when it is a generated one that meets every condition the proofs of the fast paths rely on
(``fast_path_problems``); any other (a subclass a user wrote, with a default, a serializer, extra fields or a
computed field) goes through ``model_dump`` and the strict reading.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, cast

from mplp_models._bounded import BUILD_LOCK, nodes_of
from mplp_models._public import is_generated
from mplp_models._types import CORE_FUNCTIONS

__all__ = [
    "NO_FACTS",
    "Facts",
    "as_dict_fields",
    "checks_extra_keys",
    "facts_of",
    "fast_path_problems",
    "is_plain",
    "model_class",
    "own_functions",
    "rules_after_reading",
    "rules_check",
]


class Facts(NamedTuple):
    """What the codegen knows of a generated class's fields (``__mplp_facts__``), each a tuple of field names."""

    prepared: tuple[str, ...] = ()  # whose values may hold a float or an open object: the writer prepares them
    open: tuple[str, ...] = ()  # that hold an open object (JsonObject)
    open_arrays: tuple[str, ...] = ()  # that hold an array of open objects
    models: tuple[str, ...] = ()  # that hold a model
    model_arrays: tuple[str, ...] = ()  # that hold an array of models
    unique: tuple[str, ...] = ()  # arrays whose items must be unique (UniqueItems)
    not_null: tuple[str, ...] = ()  # optional fields that may not be null (NotNull)
    optional: tuple[str, ...] = ()  # fields that may be left out
    extra: bool = False  # keeps keys that are no field (extra="allow"), checked as one open object


NO_FACTS = Facts()
"""The facts of a class the codegen did not write (none of which is plain)."""


_FACTS: dict[type, Facts] = {}


def facts_of(kind: type) -> Facts:
    """The facts of a generated class (a subclass in a generated module inherits its base's); else ``NO_FACTS``."""
    facts = _FACTS.get(kind)  # one C call: the walkers ask per model
    if facts is None:
        written: Facts | None = getattr(kind, "__mplp_facts__", None)
        facts = _FACTS[kind] = written if written is not None and is_generated(kind) else NO_FACTS
    return facts


_PLAIN: dict[type, bool] = {}
_AS_DICT: dict[type, int] = {}

as_dict_fields: Callable[[type], int | None] = _AS_DICT.get
"""How many fields a plain class has whose models a walker writes as their own ``__dict__``, else None.

Those of a plain class that holds no array of models and no extra keys (known
once ``is_plain`` has been asked of it): the ``__dict__`` holds every field
under its name, unset ones as ``None``, and a model in a field is called back
for. One C call to know it.
"""


def is_plain(kind: type) -> bool:
    """Whether ``kind`` may take the fast paths: a generated class that ``fast_path_problems`` finds nothing in."""
    plain = _PLAIN.get(kind)
    if plain is None:
        plain = _PLAIN[kind] = _plain(kind)
    return plain


def _plain(kind: type) -> bool:
    facts = facts_of(kind)
    if facts is NO_FACTS:
        return False
    if not getattr(kind, "__pydantic_complete__", True):
        # Deferred build: until it is built, the core schema the conditions read is a placeholder. The mark
        # is read again in turn with _bounded's builds, which unmark the classes they copy meanwhile.
        with BUILD_LOCK:
            if not getattr(kind, "__pydantic_complete__", True):
                kind.model_rebuild()  # type: ignore[attr-defined]
    if fast_path_problems(kind):
        return False
    if not (facts.model_arrays or facts.extra):
        _AS_DICT[kind] = len(getattr(kind, "__pydantic_fields__", {}))
    return True


def fast_path_problems(kind: type) -> list[str]:
    """What in model class ``kind`` the proofs of the fast paths do not allow, one line each (none: empty).

    ``_reader.counts_agree`` counts one ``:`` per unset field, written as
    ``"name":null``, and one per key read, each a field; ``model_members``
    writes a model's ``__dict__`` under its field names. So:

    * every field is required or defaults to ``None``, with no ``default_factory``
      (a default ``"0000:0000"`` would hide a duplicate key from the count);
    * no alias and no field excluded from writing;
    * ``extra="forbid"``, or ``extra="allow"`` (so its facts say) with the extra keys checked by
      the SDK's own functions (registered with ``extra_keys``, ``_context``'s: each key's value
      an open JSON value, in both modes; ``model_members`` writes and
      ``every_field_writer`` counts them) and of no declared type;
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
    # Both the decorators and the built schema: MplpModel puts given_members in place of a model
    # serializer, which is then in no schema; an Annotated validator is in no decorator.
    functions = {id(function): function for function in [*_decorated_functions(kind), *_core_functions(schema)]}
    problems += [
        f"validator or serializer {function!r}" for function in functions.values() if id(_unbound(function)) not in _OWN
    ]
    return problems


def _extra_problems(kind: type, schema: Any) -> list[str]:
    """What keeps the extra keys of an ``extra="allow"`` class off the fast paths: unchecked, or of a declared type."""
    problems: list[str] = []
    if not any(map(checks_extra_keys, _decorated_functions(kind))):
        problems.append("extra='allow': keys that are no field, not checked as an open object")
    elif not facts_of(kind).extra:  # the proof would count them as fields given; the screen would not find them
        problems.append("extra='allow' where its facts (__mplp_facts__) say it keeps no extra keys")
    if any(isinstance(node, dict) and "extras_schema" in node for node in nodes_of(schema)):
        problems.append("a declared type for its extra keys (__pydantic_extra__)")
    return problems


def _unbound(function: object) -> object:
    """The function itself of a bound method (a ``@classmethod`` validator is held bound to its class)."""
    return getattr(function, "__func__", function)


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
# above this one that defines one registers it when it loads (own_functions), so this module imports
# none of them; a class can hold a function only once its module has run, and so registered it. Those of
# _types, below, are its CORE_FUNCTIONS, registered here.
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


own_functions(*CORE_FUNCTIONS)


def checks_extra_keys(function: object) -> bool:
    """Whether ``function`` is one registered with ``own_functions(extra_keys=True)``."""
    return id(_unbound(function)) in _EXTRA_CHECKS


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
    """Every function in a core schema, once: validators (``{"function": {"function": f}}``) and serializers."""
    found: dict[int, object] = {}
    for node in nodes_of(schema):
        function = cast(dict[str, Any], node).get("function") if isinstance(node, dict) else None
        if callable(function):
            found.setdefault(id(function), function)
    return list(found.values())


# --- the rules that the fast reading asks after the reading ----------------------------------------

_RULES: dict[int, Callable[[Any, Any], bool]] = {}


def rules_after_reading(function: object, sound: Callable[[Any, Any], bool]) -> None:
    """Registers a model validator of rules (``mode="after"``), and ``sound(model, context)``: whether it passes.

    The fast reading builds the outermost model without it (a Python call
    with a ``ValidationInfo`` on every reading, even when the context skips
    the rules) and asks ``sound`` once the proof holds; ``_rules`` registers its
    own here, since this module may not import it (layers import downward).
    """
    _RULES[id(function)] = sound


def rules_check(function: object) -> Callable[[Any, Any], bool] | None:
    """The ``sound`` registered for a rules validator (``rules_after_reading``), or None for any other function."""
    return _RULES.get(id(function))


def model_class(annotation: Any) -> type | None:
    """The model class a field of a generated class holds (alone, in an array, or None), or None."""
    value = getattr(annotation, "__value__", annotation)  # a type alias (TypeAliasType)
    if isinstance(value, type):
        return value if hasattr(value, "__mplp_facts__") else None
    found = [model_class(argument) for argument in typing.get_args(value)]
    return next((kind for kind in found if kind is not None), None)
