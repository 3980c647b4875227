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


def _module(now: str, module: str, /, **fields: Any) -> dict[str, Any]:
    """A document of an MPLP ``module`` (``plan``...): fresh metadata and ``<module>_id``, then ``fields``."""
    return {"meta": new_meta(now), f"{module}_id": new_id(), **fields}


def _plan(now: str) -> dict[str, Any]:
    step = {"step_id": new_id(), "description": "First step", "status": "pending", "order_index": 0}
    return _module(now, "plan", context_id=new_id(), title="New plan", objective="What the plan should achieve",
                   status="draft", steps=[step])  # fmt: skip


def _dialog(now: str) -> dict[str, Any]:
    message = {"role": "user", "content": "Hello", "timestamp": now}
    return _module(now, "dialog", context_id=new_id(), status="active", messages=[message], started_at=now)


def _inbox(now: str) -> dict[str, Any]:
    return {"schema_version": 1, "message_id": f"IM-{uuid.uuid4().hex}", "type": "information", "status": "unread",
            "sender_id": "sender", "recipient_ids": ["recipient"], "subject": "Subject", "body": "",
            "created_at": now, "updated_at": now}  # fmt: skip


def _sample(now: str) -> dict[str, Any]:
    return {"sample_id": new_id(), "project_id": "project", "success_flag": True, "timestamps": {"started_at": now}}


def _context(now: str) -> dict[str, Any]:
    root = {"domain": "domain", "environment": "development"}
    return _module(now, "context", root=root, title="New context", status="draft", created_at=now)


def _confirm(now: str) -> dict[str, Any]:
    return _module(now, "confirm", target_type="plan", target_id=new_id(), status="pending",
                   requested_by_role="requester", requested_at=now)  # fmt: skip


def _trace(now: str) -> dict[str, Any]:
    trace_id = new_id()
    return {"meta": new_meta(now), "trace_id": trace_id, "context_id": new_id(),
            "root_span": {"trace_id": trace_id, "span_id": new_id()}, "status": "pending"}  # fmt: skip


def _role(now: str) -> dict[str, Any]:
    return _module(now, "role", name="New role", created_at=now)


def _extension(now: str) -> dict[str, Any]:
    return _module(now, "extension", context_id=new_id(), name="New extension", extension_type="capability",
                   version="0.1.0", status="registered")  # fmt: skip


def _collab(now: str) -> dict[str, Any]:
    participant = {"participant_id": "participant-1", "kind": "agent"}
    return _module(now, "collab", context_id=new_id(), title="New collaboration",
                   purpose="What the participants work on together", mode="orchestrated", status="draft",
                   participants=[participant], created_at=now)  # fmt: skip


def _core(now: str) -> dict[str, Any]:
    modules = [
        {"module_id": module, "version": PROTOCOL_VERSION, "status": "enabled"} for module in ("context", "plan")
    ]
    return _module(now, "core", protocol_version=PROTOCOL_VERSION, status="draft", modules=modules)


def _network(now: str) -> dict[str, Any]:
    node = {"node_id": new_id(), "kind": "agent", "status": "active"}
    return _module(now, "network", context_id=new_id(), name="New network", topology_type="single_node",
                   status="draft", nodes=[node])  # fmt: skip


def _event_core(now: str) -> dict[str, Any]:
    return {"event_id": new_id(), "event_type": "import_started", "event_family": "import_process", "timestamp": now}


def _graph_update_event(now: str) -> dict[str, Any]:
    family = {"event_family": "graph_update", "event_type": "graph_updated"}
    return {
        **_event_core(now),
        **family,
        "graph_id": new_id(),
        "update_kind": "node_add",
        "node_delta": 1,
        "edge_delta": 0,
    }


def _pipeline_stage_event(now: str) -> dict[str, Any]:
    family = {"event_family": "pipeline_stage", "event_type": "pipeline_stage_started"}
    return {**_event_core(now), **family, "pipeline_id": new_id(), "stage_id": "import", "stage_status": "running"}


def _runtime_execution_event(now: str) -> dict[str, Any]:
    family = {"event_family": "runtime_execution", "event_type": "execution_started"}
    return {**_event_core(now), **family, "execution_id": new_id(), "executor_kind": "agent", "status": "running"}


def _sa_event(now: str) -> dict[str, Any]:
    return {"event_id": new_id(), "event_type": "SAInitialized", "timestamp": now, "sa_id": new_id()}


def _map_event(now: str) -> dict[str, Any]:
    return {"event_id": new_id(), "event_type": "MAPSessionStarted", "timestamp": now, "session_id": new_id()}


def _ci_event(now: str) -> dict[str, Any]:
    return {
        "ci_provider": "github-actions",
        "pipeline_id": "build",
        "run_id": new_id(),
        "status": "running",
        "started_at": now,
    }


def _file_update_event(now: str) -> dict[str, Any]:
    return {"file_path": "README.md", "change_type": "modified", "timestamp": now}


def _git_event(now: str) -> dict[str, Any]:
    commit = uuid.uuid4().hex + uuid.uuid4().hex[:8]  # 40 hex digits, the length of a SHA-1 commit id
    return {"repo_url": "https://example.com/repo.git", "commit_id": commit, "ref_name": "refs/heads/main",
            "event_kind": "commit", "timestamp": now}  # fmt: skip


def _tool_event(now: str) -> dict[str, Any]:
    return {"tool_id": "tool", "tool_kind": "other", "invocation_id": new_id(), "status": "running", "started_at": now}


def _learning_sample_core(now: str) -> dict[str, Any]:
    return {"sample_id": new_id(), "sample_family": "pipeline_outcome", "created_at": now, "input": {}, "output": {}}


def _delta_impact_sample(now: str) -> dict[str, Any]:
    input_ = {"delta_id": "delta-1", "intent_id": "intent-1", "change_summary": "What the change asks for"}
    output = {"actual_impact_summary": "What the change did", "impact_scope": "local"}
    return {**_learning_sample_core(now), "sample_family": "delta_impact", "input": input_, "output": output}


def _intent_resolution_sample(now: str) -> dict[str, Any]:
    input_ = {"intent_id": "intent-1", "raw_request_summary": "What the user asked for"}
    output = {"final_intent_summary": "What the intent was resolved to"}
    return {**_learning_sample_core(now), "sample_family": "intent_resolution", "input": input_, "output": output}


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
    "EventCore": _event_core,
    "GraphUpdateEvent": _graph_update_event,
    "PipelineStageEvent": _pipeline_stage_event,
    "RuntimeExecutionEvent": _runtime_execution_event,
    "SAEvent": _sa_event,
    "MAPEvent": _map_event,
    "CIEvent": _ci_event,
    "FileUpdateEvent": _file_update_event,
    "GitEvent": _git_event,
    "ToolEvent": _tool_event,
    "LearningSampleCore": _learning_sample_core,
    "DeltaImpactSample": _delta_impact_sample,
    "IntentResolutionSample": _intent_resolution_sample,
}

SKELETONS: dict[str, tuple[str, Callable[[str], dict[str, Any]]]] = {
    kind.new: (kind.name, _MAKERS[kind.name]) for kind in KINDS if kind.new is not None
}
"""``new`` KIND (named in the registry, ``_kinds``): the model it makes and the document maker."""


def skeleton(kind: str) -> MplpModel:
    """A valid ``kind`` (a key of ``SKELETONS``) with fresh ids, stamped now; validated like any input."""
    import mplp_models
    from mplp_models._formats import Timestamp

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
