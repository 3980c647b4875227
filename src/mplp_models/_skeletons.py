"""Valid starting documents with fresh ids and timestamps (``mplp-models new``)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from mplp_models._base import MplpModel
from mplp_models._types import Timestamp

__all__ = ["SKELETONS", "skeleton"]

_META = {"protocol_version": "1.0.0", "schema_version": "1.0.0"}


def _id() -> str:
    return str(uuid.uuid4())  # lowercase, hyphenated: the MplpId form


def _plan(now: str) -> dict[str, Any]:
    return {
        "meta": {**_META, "created_at": now},
        "plan_id": _id(),
        "context_id": _id(),
        "title": "New plan",
        "objective": "What the plan should achieve",
        "status": "draft",
        "steps": [{"step_id": _id(), "description": "First step", "status": "pending", "order_index": 0}],
    }


def _dialog(now: str) -> dict[str, Any]:
    return {
        "meta": {**_META, "created_at": now},
        "dialog_id": _id(),
        "context_id": _id(),
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
    return {"sample_id": _id(), "project_id": "project", "success_flag": True, "timestamps": {"started_at": now}}


SKELETONS: dict[str, tuple[str, Callable[[str], dict[str, Any]]]] = {
    "plan": ("Plan", _plan),
    "dialog": ("Dialog", _dialog),
    "inbox": ("InboxMessage", _inbox),
    "sample": ("LearningSample", _sample),
}
"""``new`` KIND: the model it makes and the document maker."""


def skeleton(kind: str) -> MplpModel:
    """A valid ``kind`` (a key of ``SKELETONS``) with fresh ids, stamped now; validated like any input."""
    import mplp_models

    model_name, make = SKELETONS[kind]
    model: type[MplpModel] = getattr(mplp_models, model_name)
    return model.model_validate(make(str(Timestamp.now())))
