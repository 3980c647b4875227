"""msgspec Structs equivalent to the models, for the typed-decode peer of the benchmark.

The same fields, the same required and optional ones (an optional field that
is not nullable defaults to ``UNSET`` and refuses ``null``; a nullable one also
takes ``None``), enums as ``Literal``, unknown keys refused, and the schemas'
own constraints through ``msgspec.Meta``: the same regular expressions (with
``$`` written ``\\Z``, so that, as in ECMA-262, it does not match before a final
newline), ``min_length``, ``max_length``, ``ge`` and ``le``. ``format:
date-time`` is the same calendar-exact RFC 3339 pattern that the models check.

What msgspec cannot say: ``uniqueItems`` (not checked here), an integer given
as ``1.0`` (refused, though draft-07 counts it as an integer), ``const: 1``
given as ``1.0`` (refused), and a ``number`` is decoded as a ``float``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import UNSET, Meta, Struct, UnsetType

from mplp_models._formats import DATE_TIME_PATTERN


def ecma(pattern: str) -> str:
    """A schema pattern for Python's ``re``: a final ``$`` becomes ``\\Z``."""
    return pattern[:-1] + r"\Z" if pattern.endswith("$") else pattern


MplpId = Annotated[str, Meta(pattern=ecma("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"))]
Version = Annotated[str, Meta(pattern=ecma("^[0-9]+\\.[0-9]+\\.[0-9]+$"))]
# The models' own date-time pattern: the same regular expression, so the same work per value.
DateTime = Annotated[str, Meta(pattern=ecma(DATE_TIME_PATTERN))]
NonEmpty = Annotated[str, Meta(min_length=1)]
Count = Annotated[float, Meta(ge=0)]
OpenObject = dict[str, Any]


class _Model(Struct, forbid_unknown_fields=True):
    # Each Struct is kw_only, so that its fields keep the schema's order, required or not.
    pass


# --- common ----------------------------------------------------------------------


class Metadata(_Model, kw_only=True):
    protocol_version: Version
    schema_version: Version
    created_at: DateTime | UnsetType = UNSET
    created_by: str | UnsetType = UNSET
    updated_at: DateTime | UnsetType = UNSET
    updated_by: str | UnsetType = UNSET
    tags: list[str] | UnsetType = UNSET
    cross_cutting: (
        list[
            Literal[
                "coordination",
                "error-handling",
                "event-bus",
                "learning-feedback",
                "observability",
                "orchestration",
                "performance",
                "protocol-versioning",
                "security",
                "state-sync",
                "transaction",
            ]
        ]
        | UnsetType
    ) = UNSET


class Ref(_Model, kw_only=True):
    id: MplpId
    module: Literal["context", "plan", "confirm", "trace", "role", "extension", "dialog", "collab", "core", "network"]
    description: str | UnsetType = UNSET


class TraceBase(_Model, kw_only=True):
    trace_id: MplpId
    span_id: MplpId
    parent_span_id: MplpId | UnsetType = UNSET
    context_id: MplpId | UnsetType = UNSET
    attributes: OpenObject | UnsetType = UNSET


class Event(_Model, kw_only=True):
    event_id: MplpId
    event_type: Annotated[str, Meta(pattern=ecma("^[a-z][a-z0-9]*(?:\\.[a-z][a-z0-9]*)*$"))]
    source: str
    timestamp: DateTime
    trace_id: MplpId | UnsetType = UNSET
    data: OpenObject | UnsetType | None = UNSET


# --- plan ------------------------------------------------------------------------


class PlanStep(_Model, kw_only=True):
    step_id: MplpId
    description: NonEmpty
    status: Literal["pending", "in_progress", "completed", "blocked", "skipped", "failed"]
    dependencies: list[MplpId] | UnsetType = UNSET
    agent_role: str | UnsetType = UNSET
    order_index: Annotated[int, Meta(ge=0)] | UnsetType = UNSET


class Plan(_Model, kw_only=True):
    meta: Metadata
    plan_id: MplpId
    context_id: MplpId
    title: NonEmpty
    objective: NonEmpty
    status: Literal["draft", "proposed", "approved", "in_progress", "completed", "cancelled", "failed"]
    steps: Annotated[list[PlanStep], Meta(min_length=1)]
    trace: TraceBase | UnsetType = UNSET
    events: list[Event] | UnsetType = UNSET


# --- trace -----------------------------------------------------------------------


class Governance(_Model, kw_only=True):
    lifecyclePhase: str | UnsetType = UNSET
    truthDomain: str | UnsetType = UNSET
    locked: bool | UnsetType = UNSET
    lastConfirmRef: Ref | UnsetType = UNSET


class TraceSegment(_Model, kw_only=True):
    segment_id: MplpId
    parent_segment_id: MplpId | UnsetType = UNSET
    label: str
    status: Literal["pending", "running", "completed", "failed", "cancelled", "skipped"]
    started_at: DateTime | UnsetType = UNSET
    finished_at: DateTime | UnsetType = UNSET
    attributes: OpenObject | UnsetType = UNSET


class Trace(_Model, kw_only=True):
    meta: Metadata
    governance: Governance | UnsetType = UNSET
    trace_id: MplpId
    context_id: MplpId
    plan_id: MplpId | UnsetType = UNSET
    root_span: TraceBase
    status: Literal["pending", "running", "completed", "failed", "cancelled"]
    started_at: DateTime | UnsetType = UNSET
    finished_at: DateTime | UnsetType = UNSET
    segments: list[TraceSegment] | UnsetType = UNSET
    events: list[Event] | UnsetType = UNSET


# --- dialog ----------------------------------------------------------------------


class DialogGovernance(_Model, kw_only=True):
    lifecyclePhase: str | UnsetType = UNSET
    truthDomain: str | UnsetType = UNSET
    locked: bool | UnsetType = UNSET
    lastConfirmRef: Ref | UnsetType = UNSET


class DialogMessage(_Model, kw_only=True):
    role: Literal["user", "assistant", "system", "agent"]
    content: str
    timestamp: DateTime
    event: Event | UnsetType = UNSET


class Dialog(_Model, kw_only=True):
    meta: Metadata
    dialog_id: MplpId
    context_id: MplpId
    status: Literal["active", "paused", "completed", "cancelled"]
    messages: list[DialogMessage]
    governance: DialogGovernance | UnsetType = UNSET
    thread_id: MplpId | UnsetType = UNSET
    started_at: DateTime | UnsetType = UNSET
    ended_at: DateTime | UnsetType = UNSET
    trace: TraceBase | UnsetType = UNSET
    events: list[Event] | UnsetType = UNSET


# --- inbox -----------------------------------------------------------------------


class InboxMessage(_Model, kw_only=True):
    schema_version: Literal[1]
    message_id: Annotated[str, Meta(pattern=ecma("^IM-[A-Za-z0-9][A-Za-z0-9._-]*$"))]
    type: Literal["information", "request", "handoff", "decision_request", "alert"]
    status: Literal["unread", "read", "acknowledged", "archived"]
    sender_id: NonEmpty
    recipient_ids: Annotated[list[NonEmpty], Meta(min_length=1)]
    subject: Annotated[str, Meta(min_length=1, max_length=200)]
    body: Annotated[str, Meta(max_length=4000)]
    task_id: str | UnsetType | None = UNSET
    mission_id: str | UnsetType | None = UNSET
    related_decision_ids: list[Annotated[str, Meta(pattern=ecma("^D-[A-Za-z0-9][A-Za-z0-9._-]*$"))]] | UnsetType = UNSET
    related_waitpoint_ids: list[Annotated[str, Meta(pattern=ecma("^WP-[A-Za-z0-9][A-Za-z0-9._-]*$"))]] | UnsetType = (
        UNSET
    )
    related_handoff_ids: list[NonEmpty] | UnsetType = UNSET
    created_at: DateTime
    updated_at: DateTime
    read_at: DateTime | UnsetType | None = UNSET
    acknowledged_at: DateTime | UnsetType | None = UNSET
    archived_at: DateTime | UnsetType | None = UNSET


# --- learning sample -------------------------------------------------------------


class ErrorInfo(_Model, kw_only=True):
    error_code: str | UnsetType = UNSET
    error_message: str | UnsetType = UNSET
    stack_trace: str | UnsetType = UNSET


class AgentTokenUsage(_Model, kw_only=True):
    agent_id: str
    tokens: Count
    role: str | UnsetType = UNSET


class TokenUsage(_Model, kw_only=True):
    total_tokens: Count | UnsetType = UNSET
    prompt_tokens: Count | UnsetType = UNSET
    completion_tokens: Count | UnsetType = UNSET
    by_agent: list[AgentTokenUsage] | UnsetType = UNSET


class UserFeedback(_Model, kw_only=True):
    decision: Literal["approve", "reject", "override", "unknown"] | UnsetType = UNSET
    comment: str | UnsetType = UNSET
    rating: Annotated[float, Meta(ge=0, le=5)] | UnsetType = UNSET


class LearningSampleTimestamps(_Model, kw_only=True):
    started_at: DateTime
    completed_at: DateTime | UnsetType = UNSET


class LearningSample(_Model, kw_only=True):
    sample_id: MplpId
    project_id: str
    success_flag: bool
    timestamps: LearningSampleTimestamps
    intent_before: OpenObject | UnsetType = UNSET
    plan: OpenObject | UnsetType = UNSET
    delta_intents: list[OpenObject] | UnsetType = UNSET
    graph_before: OpenObject | UnsetType = UNSET
    graph_after: OpenObject | UnsetType = UNSET
    pipeline_path: list[str] | UnsetType = UNSET
    error_info: ErrorInfo | UnsetType = UNSET
    token_usage: TokenUsage | UnsetType = UNSET
    execution_time_ms: Count | UnsetType = UNSET
    impact_score: Annotated[float, Meta(ge=0, le=1)] | UnsetType = UNSET
    user_feedback: UserFeedback | UnsetType = UNSET
    governance_decisions: list[OpenObject] | UnsetType = UNSET
    metadata: OpenObject | UnsetType = UNSET
    vendor_extensions: OpenObject | UnsetType = UNSET


TYPE_OF: dict[str, type[_Model]] = {
    "plan": Plan,
    "dialog": Dialog,
    "trace": Trace,
    "inbox": InboxMessage,
    "learning": LearningSample,
}
"""The Struct of each payload kind."""
