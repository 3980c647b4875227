"""``parse``: one entry point for a payload whose kind is not known in advance."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Union, cast

import orjson
from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from mplp_models import _fastpath
from mplp_models._base import SCHEMA_ONLY, MplpModel
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
from mplp_models._kinds import DISCRIMINATORS
from mplp_models._kinds import KINDS as _REGISTRY
from mplp_models._reader import invalid, json_bytes, load_json, read_fast

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
# A family of a core with a discriminator is chosen by that field's value only (_family_of); the
# cores themselves are told apart from the other kinds by their keys, the discriminator among them.
_FAMILIES = {
    _BY_NAME[family]: (field, value)
    for field, families in DISCRIMINATORS.values()
    for value, family in families.items()
}
_BY_KEYS = tuple(kind for kind in KINDS if kind not in _FAMILIES)


def _required(kind: type[MplpModel]) -> frozenset[str]:
    return frozenset(name for name, field in kind.model_fields.items() if field.is_required())


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

_ID_FIELD = {entry.model: entry.id_field for entry in _REGISTRY if entry.model in _REQUIRED}
_NAMING_KEY = {kind: _ID_FIELD[kind] if _ID_FIELD[kind] in own else min(own) for kind, own in _OWN_KEYS.items()}


def parse(
    data: bytes | str | Mapping[str, Any], *, semantic: bool = True, allow_duplicate_keys: bool = False
) -> Payload:
    """Validate a payload as the model its own required fields name.

    ``data`` is JSON text (bytes or str) or an already parsed object. The kind
    is the one whose distinctive required keys (``plan_id``, ``dialog_id``,
    ``message_id``, ``sample_id``, ``event_id``, ``span_id``...) the payload
    carries the largest share of; a payload that carries none, or as many of two kinds',
    raises a ``ValidationError`` that says so. Where a schema has a discriminator,
    its value decides: an ``event_family`` of ``graph_update``, ``pipeline_stage``
    or ``runtime_execution`` is that family's event, any other the ``EventCore``;
    a ``sample_family`` of ``delta_impact`` or ``intent_resolution`` that family's
    sample, any other the ``LearningSampleCore``. A family's missing fields are
    named with the discriminator value that requires them. ``semantic`` and
    ``allow_duplicate_keys`` are as for ``from_json``.
    """
    if _fastpath.ENABLED and isinstance(data, (bytes, str)):
        data = json_bytes(data, "parse")  # once: the strict reading takes the same bytes
        fast = _parse_fast(data, semantic)
        if fast is not None:
            return fast
    value = data if isinstance(data, Mapping) else load_json(data, "parse", allow_duplicate_keys=allow_duplicate_keys)
    kind = _kind_of(value)
    context = None if semantic else SCHEMA_ONLY
    if kind not in DISCRIMINATED:
        return kind.model_validate(value, context=context)  # type: ignore[return-value]
    field, family = _family_of(kind, value)
    try:
        return family.model_validate(value, context=context)  # type: ignore[return-value]
    except ValidationError as error:
        if family is kind:
            raise
        raise _named_by(error, f"{field} {value[field]!r} is a {family.__name__}") from None


DISCRIMINATED = {_BY_NAME[core]: (field, families) for core, (field, families) in DISCRIMINATORS.items()}


def _parse_fast(raw: bytes, semantic: bool) -> Payload | None:
    """The payload read by its model's fast reading (``_reader.read_fast``), or None when the strict reading must decide.

    The kind is chosen from orjson's value, as ``parse`` chooses it; the fast
    reading then keeps the model only when its proof shows that the text has
    no duplicate key (so orjson's value is the strict reading's, and so is the
    kind) and reads as the strict reading would. Any refusal, a text that is
    not a JSON object included, goes the strict way, which words the errors.
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
    if kind in DISCRIMINATED:
        kind = _family_of(kind, cast("dict[str, Any]", value))[1]
    return cast("Payload | None", read_fast(kind, raw, None if semantic else SCHEMA_ONLY))


def _family_of(core: type[MplpModel], value: Mapping[str, Any]) -> tuple[str, type[MplpModel]]:
    """The discriminator field and the family its value names, or ``core`` for any other value."""
    field, families = DISCRIMINATED[core]
    named = value.get(field)
    if not isinstance(named, str) or named not in families:
        return field, core
    return field, _BY_NAME[families[named]]


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


def _kind_of(value: Any) -> type[MplpModel]:
    if not isinstance(value, Mapping):
        raise invalid("parse", "payload_type", "A payload should be a JSON object", (), value)
    # Only the kinds that own one of the payload's keys score above 0: found through the index of
    # owners, one lookup per key, rather than an intersection per registered kind.
    found: dict[type[MplpModel], int] = {}
    keys = cast("Mapping[str, Any]", value)  # a JSON object's keys are strings
    for key in keys:
        for kind in _OWNERS.get(key, ()):
            found[kind] = found.get(kind, 0) + 1
    scores = dict.fromkeys(_OWN_KEYS, 0.0)
    for kind, count in found.items():
        if not any(other in found for other in _WIDER[kind]):
            scores[kind] = count / len(_OWN_KEYS[kind])
    best = max(scores.values())
    winners = [kind.__name__ for kind, score in scores.items() if score == best]
    if best == 0:
        # One key a kind (its id field where that is its own): the message stays short as kinds are added.
        hint = ", ".join(f"{kind.__name__} ({_NAMING_KEY[kind]})" for kind in _OWN_KEYS)
        raise invalid(
            "parse",
            "payload_kind",
            f"Cannot tell the payload kind: it has no key that names one, such as {hint}",
            (),
            value,
        )
    if len(winners) > 1:
        hint = ", ".join(
            f"{kind.__name__} ({', '.join(sorted(own))})" for kind, own in _OWN_KEYS.items() if kind.__name__ in winners
        )
        raise invalid(
            "parse",
            "payload_kind",
            f"Cannot tell the payload kind: it has as large a share of the keys of {hint}",
            (),
            value,
        )
    return next(kind for kind, score in scores.items() if score == best)
