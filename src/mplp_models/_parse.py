"""``parse``: one entry point for a payload whose kind is not known in advance.

The kind is the one the rule of docs/events.md ("Which kind ``parse`` reads") names: the
discriminators first (``event_family``, ``sample_family``, ``schema_version``, an MPLP module's
``meta`` and id), a share of the keys only where none applies, and then the schemas' verdict:
a document that the named kind's schema refuses is read as another kind whose schema accepts
it, so that a document valid as exactly one kind is never refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Union, cast

import orjson
from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from mplp_models import _fastpath
from mplp_models._base import SCHEMA_ONLY, MplpModel
from mplp_models._bounded import fail_fast_validator
from mplp_models._generated.cortex.v1.code_mode.inbox_message_schema import CodeInboxMessage
from mplp_models._generated.cortex.v1.inbox_schema import InboxMessage
from mplp_models._generated.mplp.v1_0.common.events_schema import Event
from mplp_models._generated.mplp.v1_0.common.learning_sample_schema import LearningSample
from mplp_models._generated.mplp.v1_0.common.trace_base_schema import TraceBase
from mplp_models._generated.mplp.v1_0.events.mplp_event_core_schema import EventCore
from mplp_models._generated.mplp.v1_0.events.mplp_graph_update_event_schema import GraphUpdateEvent
from mplp_models._generated.mplp.v1_0.events.mplp_map_event_schema import MAPEvent
from mplp_models._generated.mplp.v1_0.events.mplp_pipeline_stage_event_schema import PipelineStageEvent
from mplp_models._generated.mplp.v1_0.events.mplp_runtime_execution_event_schema import RuntimeExecutionEvent
from mplp_models._generated.mplp.v1_0.events.mplp_sa_event_schema import SAEvent
from mplp_models._generated.mplp.v1_0.integration.mplp_ci_event_schema import CIEvent
from mplp_models._generated.mplp.v1_0.integration.mplp_file_update_event_schema import FileUpdateEvent
from mplp_models._generated.mplp.v1_0.integration.mplp_git_event_schema import GitEvent
from mplp_models._generated.mplp.v1_0.integration.mplp_tool_event_schema import ToolEvent
from mplp_models._generated.mplp.v1_0.learning.mplp_learning_sample_core_schema import LearningSampleCore
from mplp_models._generated.mplp.v1_0.learning.mplp_learning_sample_delta_schema import DeltaImpactSample
from mplp_models._generated.mplp.v1_0.learning.mplp_learning_sample_intent_schema import IntentResolutionSample
from mplp_models._generated.mplp.v1_0.mplp_collab_schema import Collab
from mplp_models._generated.mplp.v1_0.mplp_confirm_schema import Confirm
from mplp_models._generated.mplp.v1_0.mplp_context_schema import Context
from mplp_models._generated.mplp.v1_0.mplp_core_schema import Core
from mplp_models._generated.mplp.v1_0.mplp_dialog_schema import Dialog
from mplp_models._generated.mplp.v1_0.mplp_extension_schema import Extension
from mplp_models._generated.mplp.v1_0.mplp_network_schema import Network
from mplp_models._generated.mplp.v1_0.mplp_plan_schema import Plan
from mplp_models._generated.mplp.v1_0.mplp_role_schema import Role
from mplp_models._generated.mplp.v1_0.mplp_trace_schema import Trace
from mplp_models._json_input import invalid, json_bytes, load_json
from mplp_models._kinds import DISCRIMINATORS, MPLP_MODULES
from mplp_models._kinds import KINDS as _REGISTRY
from mplp_models._reader import read_fast

__all__ = ["Payload", "parse"]

# Spelled out for type checkers; a test holds it to the registry (_kinds.KINDS).
Payload = Union[  # noqa: UP007  # the alias reads as one name in hovers and docs
    Plan,
    Dialog,
    Context,
    Confirm,
    Trace,
    Role,
    Extension,
    Collab,
    Core,
    Network,
    InboxMessage,
    CodeInboxMessage,
    LearningSample,
    Event,
    TraceBase,
    EventCore,
    GraphUpdateEvent,
    PipelineStageEvent,
    RuntimeExecutionEvent,
    SAEvent,
    MAPEvent,
    CIEvent,
    FileUpdateEvent,
    GitEvent,
    ToolEvent,
    LearningSampleCore,
    DeltaImpactSample,
    IntentResolutionSample,
]
"""Any top-level payload that ``parse`` recognizes."""

KINDS: tuple[type[MplpModel], ...] = tuple(kind.model for kind in _REGISTRY)

_BY_NAME = {entry.name: entry.model for entry in _REGISTRY}
_ID_FIELD = {entry.model: entry.id_field for entry in _REGISTRY}


def _required(kind: type[MplpModel]) -> frozenset[str]:
    return frozenset(name for name, field in kind.model_fields.items() if field.is_required())


# --- the discriminators -------------------------------------------------------------------------
# Each core with a discriminator field: the field, the core, and {its value -> the family whose schema has
# that value as `const`}. Only these kinds are open objects (any other key allowed): every other kind is
# closed, and no closed kind has a discriminator field, so a document with one is of the core's kinds or none.
_FAMILIES = tuple(
    (field, _BY_NAME[core], {value: _BY_NAME[family] for value, family in families.items()})
    for core, (field, families) in DISCRIMINATORS.items()
)
_FAMILY_OF = {family: (field, value) for field, _, families in _FAMILIES for value, family in families.items()}
_OPEN = frozenset(kind for _, core, families in _FAMILIES for kind in (core, *families.values()))

# The code mode's message requires what the general one may not hold (artifact_refs, relations).
_CODE_MODE_KEYS = _required(CodeInboxMessage) - frozenset(InboxMessage.model_fields)


def _referring_first(modules: list[type[MplpModel]]) -> list[type[MplpModel]]:
    """The MPLP modules, each before every module whose id it may hold (a trace its plan's ``plan_id``).

    A module's document holds its own id and, at most, the ids of the modules it refers to: the
    first module id found in this order is the document's own.
    """
    order: list[type[MplpModel]] = []
    left = list(modules)
    while left:
        free = [m for m in left if not any(_ID_FIELD[m] in other.model_fields for other in left if other is not m)]
        if not free:
            raise RuntimeError(f"the modules hold each other's ids: {[m.__name__ for m in left]}")
        order += free
        left = [module for module in left if module not in free]
    return order


_MODULE_IDS = tuple(
    (_ID_FIELD[module], module) for module in _referring_first([_BY_NAME[name] for name in MPLP_MODULES])
)

# --- the share of keys, where no discriminator applies ------------------------------------------
_BY_KEYS = tuple(kind for kind in KINDS if kind not in _FAMILY_OF)

# The keys that only one kind requires tell the kinds apart, even in a payload
# that misses some other required field (it is then validated as that kind and
# the error names the missing field). A kind that requires all a smaller kind
# requires and more (the Cortex code mode's message: the general one's keys plus
# artifact_refs and relations) is left out of the smaller kind's comparison, and
# a payload with any of its own keys is its kind, not the smaller one's.
_REQUIRED = {kind: _required(kind) for kind in _BY_KEYS}
_WIDER = {kind: [other for other in _BY_KEYS if _REQUIRED[kind] < _REQUIRED[other]] for kind in _BY_KEYS}
_OWN_KEYS = {
    kind: keys
    - frozenset().union(*(other for k, other in _REQUIRED.items() if k is not kind and k not in _WIDER[kind]))
    for kind, keys in _REQUIRED.items()
}

_OWNERS: dict[str, tuple[type[MplpModel], ...]] = {}
for _kind, _own in _OWN_KEYS.items():
    for _key in _own:
        _OWNERS[_key] = (*_OWNERS.get(_key, ()), _kind)

_RANK = {kind: rank for rank, kind in enumerate(_OWN_KEYS)}
_KINDS_NAMED = 10  # the ten MPLP modules come first in _OWN_KEYS
_NAMING_KEY = {kind: _ID_FIELD[kind] if _ID_FIELD[kind] in own else min(own) for kind, own in _OWN_KEYS.items()}

# --- the schemas' verdict ---------------------------------------------------------------------------
# The kinds in the order that decides where two schemas accept one document: a family before its core,
# the events before the learning samples (a document with both discriminators and the keys of both).
# No other two kinds can accept one document (tests/test_parse_kinds.py: closed kinds share no document).
_SPECIFIC_FIRST = (
    *(kind for _, core, families in _FAMILIES for kind in (*families.values(), core)),
    *(kind for kind in KINDS if kind not in _OPEN),
)
_REQUIRED_OF = {kind: _required(kind) for kind in KINDS}
_FIELDS_OF = {kind: frozenset(kind.model_fields) for kind in KINDS}
_MODULES = frozenset(module for _, module in _MODULE_IDS)
_INBOX_MODES: tuple[type[MplpModel], ...] = (InboxMessage, CodeInboxMessage)


def parse(
    data: bytes | str | Mapping[str, Any], *, semantic: bool = True, allow_duplicate_keys: bool = False
) -> Payload:
    """The payload validated as the kind that its discriminators, or else its keys, name.

    ``data`` is JSON text (bytes or str) or an already parsed object. The rule
    (docs/events.md, "Which kind parse reads"), in order: ``event_family``
    names an event family (``graph_update``, ``pipeline_stage``,
    ``runtime_execution``) or else the ``EventCore``; ``sample_family`` a
    learning-sample family (``delta_impact``, ``intent_resolution``) or else
    the ``LearningSampleCore``; ``schema_version`` a Cortex inbox message (the
    code mode's with ``artifact_refs`` or ``relations``); ``meta`` the MPLP
    module whose id it holds (``trace_id``, ``plan_id``... the referring
    module's first). Otherwise the kind whose distinctive required keys
    (``sample_id``, ``span_id``, ``sa_id``, ``repo_url``...) it carries the
    largest share of. Then the schemas decide: a payload that kind's schema
    refuses is read as the first kind whose schema accepts it (a family before
    its core), so a payload valid as exactly one kind is never refused. A
    refusal is the named kind's ``ValidationError``, or, where the rule chose
    among look-alikes (the modules whose ids it holds, the inbox modes), that
    of the one whose fields its keys fit best; a family's missing
    fields are named with the discriminator value that requires them. A payload
    that has no key naming a kind, or as large a share of two kinds' keys, raises one
    that says so. ``semantic`` and ``allow_duplicate_keys`` are as for ``from_json``.
    """
    if _fastpath.on(_fastpath.READING) and isinstance(data, (bytes, str)):
        if type(data) is not bytes:
            data = json_bytes(data, "parse")  # once: the strict reading takes the same bytes
        fast = _parse_fast(data, None if semantic else SCHEMA_ONLY)
        if fast is not None:
            return fast
    value = data if isinstance(data, Mapping) else load_json(data, "parse", allow_duplicate_keys=allow_duplicate_keys)
    kind = _kind_of(value)
    context = None if semantic else SCHEMA_ONLY
    try:
        return kind.model_validate(value, context=context)  # type: ignore[return-value]
    except ValidationError as error:
        # A rule broken by what the kind's schema accepts is the kind's refusal: it is the most specific to accept.
        other = None if semantic and _schema_accepts(kind, value) else _acceptor(value, kind)
        if other is None:
            raise _worded(*_nearest_refusal(value, kind, error, context)) from None
    return other.model_validate(value, context=context)  # type: ignore[return-value]


def _kind_of(value: Any) -> type[MplpModel]:
    """The kind the rule names for ``value``: by its discriminators, else by the largest share of its keys.

    A ``ValidationError`` when ``value`` is not an object, has no key that names a kind, or as large a
    share of two kinds' keys and no kind's schema accepts it (a tie that a schema settles is settled so).
    """
    if type(value) is not dict and not isinstance(value, Mapping):  # a dict first: no ABC check for JSON's objects
        raise invalid("parse", "payload_type", "A payload should be a JSON object", (), value)
    keys = cast("Mapping[str, Any]", value)  # a JSON object's keys are strings
    family = _family_named(keys)
    if family is not None:
        return family
    # What follows depends on the keys alone, in this order: a stream holds few such shapes, each named
    # once (a bounded memo; off with the fast paths). A tie is settled by the values, and never kept.
    shape = tuple(keys) if _fastpath.ENABLED and len(keys) <= _SHAPE_KEYS else None
    known = None if shape is None else _SHAPES.get(shape)
    if known is not None:
        return known
    kind = _named_by_keys(keys)
    if kind is None:
        return _settled(keys)
    if shape is not None:
        if len(_SHAPES) >= _SHAPES_KEPT:
            _SHAPES.clear()
        _SHAPES[shape] = kind
    return kind


_SHAPES: dict[tuple[str, ...], type[MplpModel]] = {}
"""The kind ``_named_by_keys`` names for each shape (the keys, in order) seen lately."""
_SHAPES_KEPT = 1024  # shapes at most, then forgotten all at once: a stream of ever new shapes costs no more memory
_SHAPE_KEYS = 64  # a longer object is no payload's shape, and not kept


def _family_named(value: Mapping[str, Any]) -> type[MplpModel] | None:
    """The kind an ``event_family`` or ``sample_family`` names (the family of its value, or else the core), or None."""
    for field, core, families in _FAMILIES:
        if field in value:
            named = value[field]
            return families.get(named, core) if isinstance(named, str) else core
    return None


def _named_by_keys(value: Mapping[str, Any]) -> type[MplpModel] | None:
    """The kind that ``schema_version``, ``meta`` and a module id, or else the one best share of keys names; or None."""
    if "schema_version" in value:
        return InboxMessage if _CODE_MODE_KEYS.isdisjoint(value) else CodeInboxMessage
    if "meta" in value:
        module = next((module for field, module in _MODULE_IDS if field in value), None)
        if module is not None:
            return module
    winners = _best_shares(value)
    return winners[0] if len(winners) == 1 else None


def _settled(value: Mapping[str, Any]) -> type[MplpModel]:
    """The first kind whose schema accepts a payload that names no kind, or two alike; else the error saying so."""
    winners = _best_shares(value)
    accepting = _acceptor(value, None) if winners else None
    if accepting is None:
        raise _cannot_tell(value, winners)
    return accepting


def _best_shares(value: Mapping[str, Any]) -> list[type[MplpModel]]:
    """The kinds with the largest share of their own keys in ``value``, in the registry's order; none if it has none."""
    # Only the kinds that own one of the payload's keys score above 0: found through the index of
    # owners, one lookup per key, rather than an intersection per registered kind.
    found: dict[type[MplpModel], int] = {}
    for key in value:
        for kind in _OWNERS.get(key, ()):
            found[kind] = found.get(kind, 0) + 1
    scores = {
        kind: count / len(_OWN_KEYS[kind])
        for kind, count in found.items()
        if not any(other in found for other in _WIDER[kind])
    }
    best = max(scores.values(), default=0)
    winners = [kind for kind, score in scores.items() if score == best and best]
    return winners if len(winners) < 2 else sorted(winners, key=_RANK.__getitem__)


def _cannot_tell(value: Mapping[str, Any], winners: list[type[MplpModel]]) -> ValidationError:
    if not winners:
        # One key a kind (its id field where that is its own), for the first kinds only: every error message
        # stays within the bound the doors keep (tests/test_hostile.py), however many kinds there are.
        named = list(_OWN_KEYS)[:_KINDS_NAMED]
        hint = ", ".join(f"{kind.__name__} ({_NAMING_KEY[kind]})" for kind in named)
        others = len(_OWN_KEYS) - len(named)
        more = f", and {others} other kinds (docs/events.md)" if others else ""
        message = f"Cannot tell the payload kind: it has no key that names one, such as {hint}{more}"
    else:
        hint = ", ".join(f"{kind.__name__} ({', '.join(sorted(_OWN_KEYS[kind]))})" for kind in winners)
        message = f"Cannot tell the payload kind: it has as large a share of the keys of {hint}"
    return invalid("parse", "payload_kind", message, (), value)


def _admits(kind: type[MplpModel], keys: frozenset[str]) -> bool:
    """Whether a document with these top-level keys may be of ``kind``: its required keys, no other if it is closed."""
    return _REQUIRED_OF[kind] <= keys and (kind in _OPEN or keys <= _FIELDS_OF[kind])


def _schema_accepts(kind: type[MplpModel], value: Any) -> bool:
    """Whether ``kind``'s schema accepts ``value``: ``kind.model_validate(value, context=SCHEMA_ONLY)`` does not raise.

    Asked of each refused line, once or more: only the answer counts, never the errors. So the fast paths ask
    the class's fail-fast validator alone, the first step of ``model_validate`` (``_bounded.validate_python``),
    which accepts exactly what it accepts; the steps after it only list the errors.
    """
    try:
        if _fastpath.ENABLED:
            fail_fast_validator(kind).validate_python(value, context=SCHEMA_ONLY)
        else:
            kind.model_validate(value, context=SCHEMA_ONLY)
    except ValidationError:
        return False
    return True


def _acceptor(value: Mapping[str, Any], but: type[MplpModel] | None) -> type[MplpModel] | None:
    """The first kind of ``_SPECIFIC_FIRST`` other than ``but`` whose schema accepts ``value``, or None."""
    keys = frozenset(value)
    return next(
        (kind for kind in _SPECIFIC_FIRST if kind is not but and _admits(kind, keys) and _schema_accepts(kind, value)),
        None,
    )


def _nearest_refusal(
    value: Mapping[str, Any], kind: type[MplpModel], error: ValidationError, context: Any
) -> tuple[ValidationError, type[MplpModel]]:
    """The refusal of ``value``, which ``kind`` refused and no other kind's schema accepts: ``kind``'s ``error``,
    or a look-alike's.

    The look-alikes are the kinds the rule chose ``kind`` among: the MPLP modules whose ids ``value``
    holds, or both inbox modes. The refusal is the one whose fields ``value``'s keys fit best: the
    fewest keys that are none of its fields, then the fewest of its required keys missing; ``kind``
    where they tie. So a plan that also carries a ``trace_id`` is refused as a ``Plan``, for that key.
    Where ``kind``'s schema accepts ``value`` (a rule is broken), its keys fit it wholly: it stays.
    """
    if kind in _INBOX_MODES:
        alike: tuple[type[MplpModel], ...] = _INBOX_MODES
    elif kind in _MODULES:
        alike = tuple(module for field, module in _MODULE_IDS if field in value)
    else:
        return error, kind
    keys = frozenset(value)
    nearest = min((kind, *alike), key=lambda other: (len(keys - _FIELDS_OF[other]), len(_REQUIRED_OF[other] - keys)))
    if nearest is not kind:
        try:
            nearest.model_validate(value, context=context)
        except ValidationError as refusal:  # always: _acceptor found no kind whose schema accepts value
            return refusal, nearest
    return error, kind


def _worded(error: ValidationError, kind: type[MplpModel]) -> ValidationError:
    """``error``, with a family's missing fields named by the discriminator value that requires them."""
    if kind not in _FAMILY_OF:
        return error
    field, value = _FAMILY_OF[kind]
    return _named_by(error, f"{field} {value!r} is a {kind.__name__}")


def _named_by(error: ValidationError, why: str) -> ValidationError:
    """``error`` with each missing field's message saying why the field is required: the discriminator's value."""
    details: list[InitErrorDetails] = []
    for entry in error.errors():
        where = ".".join(map(str, entry["loc"]))
        message = f"Field required: {why}, which requires {where}" if entry["type"] == "missing" else entry["msg"]
        # Built at run time: not the literal the hint asks for; with no context the message is used as it is.
        kind = PydanticCustomError(entry["type"], message)  # pyright: ignore[reportArgumentType]
        details.append({"type": kind, "loc": entry["loc"], "input": entry["input"]})
    return ValidationError.from_exception_data(error.title, details)


# --- the fast path ----------------------------------------------------------------------------------


def _parse_fast(raw: bytes, context: Any) -> Payload | None:
    """The payload read by its model's fast reading (``_reader.read_fast``), or None when the strict reading must
    decide.

    The kind is chosen from orjson's value, as ``parse`` chooses it; the fast
    reading then keeps the model only when its proof shows that the text has
    no duplicate key (so orjson's value is the strict reading's, and so is the
    kind) and reads as the strict reading would. Any refusal, a text that is
    not a JSON object included, goes the strict way, which words the errors.
    (Guessing the kind from the text by byte searches, to read it once, was
    measured: the searches cost more than orjson's reading and the lookups.)
    """
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(value, dict):
        return None
    try:
        kind = _kind_of(value)
    except ValidationError:
        return None
    return cast("Payload | None", read_fast(kind, raw, context))
