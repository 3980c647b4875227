"""``parse``: one entry point for a payload whose kind is not known in advance."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Union

from mplp_models._base import SCHEMA_ONLY, MplpModel
from mplp_models._generated.cortex.v1.code_mode.inbox_message_schema import CodeInboxMessage
from mplp_models._generated.cortex.v1.inbox_schema import InboxMessage
from mplp_models._generated.mplp.v1_0.common.events_schema import Event
from mplp_models._generated.mplp.v1_0.common.learning_sample_schema import LearningSample
from mplp_models._generated.mplp.v1_0.common.trace_base_schema import TraceBase
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
from mplp_models._kinds import KINDS as _REGISTRY
from mplp_models._reader import invalid, load_json

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
]
"""Any top-level payload that ``parse`` recognizes."""

KINDS: tuple[type[MplpModel], ...] = tuple(kind.model for kind in _REGISTRY)


def _required(kind: type[MplpModel]) -> frozenset[str]:
    return frozenset(name for name, field in kind.model_fields.items() if field.is_required())


# The keys that only one kind requires tell the kinds apart, even in a payload
# that misses some other required field (it is then validated as that kind and
# the error names the missing field). A kind that requires all a smaller kind
# requires and more (the Cortex code mode's message: the general one's keys plus
# artifact_refs and relations) is left out of the smaller kind's comparison, and
# a payload with any of its own keys is its kind, not the smaller one's.
_REQUIRED = {kind: _required(kind) for kind in KINDS}
_WIDER = {kind: [other for other in KINDS if _REQUIRED[kind] < _REQUIRED[other]] for kind in KINDS}
_OWN_KEYS = {
    kind: keys
    - frozenset().union(*(other for k, other in _REQUIRED.items() if k is not kind and k not in _WIDER[kind]))
    for kind, keys in _REQUIRED.items()
}

_ID_FIELD = {entry.model: entry.id_field for entry in _REGISTRY}
_NAMING_KEY = {kind: _ID_FIELD[kind] if _ID_FIELD[kind] in own else min(own) for kind, own in _OWN_KEYS.items()}


def parse(
    data: bytes | str | Mapping[str, Any], *, semantic: bool = True, allow_duplicate_keys: bool = False
) -> Payload:
    """Validate a payload as the model its own required fields name.

    ``data`` is JSON text (bytes or str) or an already parsed object. The kind
    is the one whose distinctive required keys (``plan_id``, ``dialog_id``,
    ``message_id``, ``sample_id``, ``event_id``, ``span_id``...) the payload
    carries the largest share of; a payload that carries none, or as many of two kinds',
    raises a ``ValidationError`` that says so. ``semantic`` and
    ``allow_duplicate_keys`` are as for ``from_json``.
    """
    value = data if isinstance(data, Mapping) else load_json(data, "parse", allow_duplicate_keys=allow_duplicate_keys)
    kind = _kind_of(value)
    return kind.model_validate(value, context=None if semantic else SCHEMA_ONLY)  # type: ignore[return-value]


def _kind_of(value: Any) -> type[MplpModel]:
    if not isinstance(value, Mapping):
        raise invalid("parse", "payload_type", "A payload should be a JSON object", (), value)
    scores = {kind: len(own & value.keys()) / len(own) for kind, own in _OWN_KEYS.items()}
    for kind, wider in _WIDER.items():
        if any(scores[other] > 0 for other in wider):
            scores[kind] = 0.0
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
