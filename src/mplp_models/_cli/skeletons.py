"""Valid starting documents with fresh ids and timestamps (``mplp-models new``)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mplp_models._ids import PROTOCOL_VERSION, new_id, new_meta
from mplp_models._kinds import KINDS

# Light on purpose: the command line lists the kinds below at start-up, before any model is needed.
if TYPE_CHECKING:
    from mplp_models._base import MplpModel

__all__ = ["SKELETONS", "flow_skeleton", "skeleton"]


def _plan(now: str) -> dict[str, Any]:
    return {
        "meta": new_meta(now),
        "plan_id": new_id(),
        "context_id": new_id(),
        "title": "New plan",
        "objective": "What the plan should achieve",
        "status": "draft",
        "steps": [{"step_id": new_id(), "description": "First step", "status": "pending", "order_index": 0}],
    }


def _dialog(now: str) -> dict[str, Any]:
    return {
        "meta": new_meta(now),
        "dialog_id": new_id(),
        "context_id": new_id(),
        "status": "active",
        "messages": [{"role": "user", "content": "Hello", "timestamp": now}],
        "started_at": now,
    }


def _inbox(now: str) -> dict[str, Any]:
    return {
        "schema_version": 1,
        "message_id": f"IM-{uuid.uuid4().hex}",
        "type": "information",
        "status": "unread",
        "sender_id": "sender",
        "recipient_ids": ["recipient"],
        "subject": "Subject",
        "body": "",
        "created_at": now,
        "updated_at": now,
    }


def _sample(now: str) -> dict[str, Any]:
    return {"sample_id": new_id(), "project_id": "project", "success_flag": True, "timestamps": {"started_at": now}}


def _context(now: str) -> dict[str, Any]:
    return {
        "meta": new_meta(now),
        "context_id": new_id(),
        "root": {"domain": "domain", "environment": "development"},
        "title": "New context",
        "status": "draft",
        "created_at": now,
    }


def _confirm(now: str) -> dict[str, Any]:
    return {
        "meta": new_meta(now),
        "confirm_id": new_id(),
        "target_type": "plan",
        "target_id": new_id(),
        "status": "pending",
        "requested_by_role": "requester",
        "requested_at": now,
    }


def _trace(now: str) -> dict[str, Any]:
    trace_id = new_id()
    return {
        "meta": new_meta(now),
        "trace_id": trace_id,
        "context_id": new_id(),
        "root_span": {"trace_id": trace_id, "span_id": new_id()},
        "status": "pending",
    }


def _role(now: str) -> dict[str, Any]:
    return {"meta": new_meta(now), "role_id": new_id(), "name": "New role", "created_at": now}


def _extension(now: str) -> dict[str, Any]:
    return {
        "meta": new_meta(now),
        "extension_id": new_id(),
        "context_id": new_id(),
        "name": "New extension",
        "extension_type": "capability",
        "version": "0.1.0",
        "status": "registered",
    }


def _collab(now: str) -> dict[str, Any]:
    return {
        "meta": new_meta(now),
        "collab_id": new_id(),
        "context_id": new_id(),
        "title": "New collaboration",
        "purpose": "What the participants work on together",
        "mode": "orchestrated",
        "status": "draft",
        "participants": [{"participant_id": "participant-1", "kind": "agent"}],
        "created_at": now,
    }


def _core(now: str) -> dict[str, Any]:
    modules = [
        {"module_id": module, "version": PROTOCOL_VERSION, "status": "enabled"} for module in ("context", "plan")
    ]
    return {
        "meta": new_meta(now),
        "core_id": new_id(),
        "protocol_version": PROTOCOL_VERSION,
        "status": "draft",
        "modules": modules,
    }


def _network(now: str) -> dict[str, Any]:
    return {
        "meta": new_meta(now),
        "network_id": new_id(),
        "context_id": new_id(),
        "name": "New network",
        "topology_type": "single_node",
        "status": "draft",
        "nodes": [{"node_id": new_id(), "kind": "agent", "status": "active"}],
    }


_MAKERS: dict[str, Callable[[str], dict[str, Any]]] = {
    "Plan": _plan,
    "Dialog": _dialog,
    "Context": _context,
    "Confirm": _confirm,
    "Trace": _trace,
    "Role": _role,
    "Extension": _extension,
    "Collab": _collab,
    "Core": _core,
    "Network": _network,
    "InboxMessage": _inbox,
    "LearningSample": _sample,
}

SKELETONS: dict[str, tuple[str, Callable[[str], dict[str, Any]]]] = {
    kind.new: (kind.name, _MAKERS[kind.name]) for kind in KINDS if kind.new is not None
}
"""``new`` KIND (named in the registry, ``_kinds``): the model it makes and the document maker."""


def skeleton(kind: str) -> MplpModel:
    """A valid ``kind`` (a key of ``SKELETONS``) with fresh ids, stamped now; validated like any input."""
    import mplp_models
    from mplp_models._types import Timestamp

    model_name, make = SKELETONS[kind]
    model: type[MplpModel] = getattr(mplp_models, model_name)
    return model.model_validate(make(str(Timestamp.now())))


def flow_skeleton() -> dict[str, MplpModel]:
    """A linked session (``new flow``): file name -> document; each names the others as ``check_flow`` asks.

    Made with the linked builders, so the ids agree by construction; the collab has no builder and
    is the ``new collab`` skeleton in the session's context. The trace holds one event, so that the
    session keeps the SA and MAP profiles too.
    """
    import mplp_models as mm

    context = mm.Context.new("New session", domain="domain", environment="development")
    plan = mm.Plan.new(context, title="New plan", objective="What the plan should achieve", steps=["First step"])
    now = str(context.created_at)
    # MAP binds each participant to a role.
    participants = [{"participant_id": "participant-1", "kind": "agent", "role_id": new_id()}]
    collab = mm.Collab.model_validate({**_collab(now), "context_id": context.context_id, "participants": participants})
    trace = mm.Trace.start(context, plan, at=now)
    # One event of its own: the SA profile asks every trace for one.
    started = {"event_id": new_id(), "event_type": "trace.started", "source": "trace", "timestamp": now}
    trace = mm.Trace.model_validate({**trace.to_dict(), "events": [{**started, "trace_id": trace.trace_id}]})
    return {
        "context.json": context,
        "plan.json": plan,
        "confirm.json": mm.Confirm.request(plan, requested_by_role="requester", at=now),
        "trace.json": trace,
        "collab.json": collab,
    }
