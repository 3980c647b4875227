"""Typed, exact Pydantic models for MPLP v1.0 payloads and Cortex agent inbox messages.

Every model accepts exactly what its frozen JSON Schema accepts: no lax
coercion, timestamps and ids kept as the sender wrote them, explicit nulls and
absent fields told apart.
"""

from mplp_models._base import SCHEMA_ONLY, MplpModel
from mplp_models._canonical import CanonicalJSONError, canonical_json
from mplp_models._decode import MAX_DEPTH
from mplp_models._errors import ErrorEntry, errors_as_json
from mplp_models._generated.cortex.v1.inbox_schema import InboxMessage, InboxMessageStatus, InboxMessageType
from mplp_models._generated.mplp.v1_0.common.common_types_schema import Ref, RefModule
from mplp_models._generated.mplp.v1_0.common.events_schema import Event
from mplp_models._generated.mplp.v1_0.common.identifiers_schema import MplpId
from mplp_models._generated.mplp.v1_0.common.learning_sample_schema import (
    AgentTokenUsage,
    ErrorInfo,
    FeedbackDecision,
    LearningSample,
    LearningSampleTimestamps,
    TokenUsage,
    UserFeedback,
)
from mplp_models._generated.mplp.v1_0.common.metadata_schema import CrossCuttingConcern, Metadata
from mplp_models._generated.mplp.v1_0.common.trace_base_schema import TraceBase
from mplp_models._generated.mplp.v1_0.mplp_dialog_schema import (
    Dialog,
    DialogGovernance,
    DialogMessage,
    DialogMessageRole,
    DialogStatus,
)
from mplp_models._generated.mplp.v1_0.mplp_plan_schema import Plan, PlanStatus, PlanStep, PlanStepStatus
from mplp_models._parse import Payload, parse
from mplp_models._semantic import RuleViolation
from mplp_models._types import MAX_OPEN_DEPTH, JsonObject, Timestamp
from mplp_models._version import __version__

__all__ = [
    "AgentTokenUsage",
    "canonical_json",
    "CanonicalJSONError",
    "CrossCuttingConcern",
    "Dialog",
    "DialogGovernance",
    "DialogMessage",
    "DialogMessageRole",
    "DialogStatus",
    "ErrorEntry",
    "ErrorInfo",
    "errors_as_json",
    "Event",
    "FeedbackDecision",
    "InboxMessage",
    "InboxMessageStatus",
    "InboxMessageType",
    "JsonObject",
    "LearningSample",
    "LearningSampleTimestamps",
    "MAX_DEPTH",
    "MAX_OPEN_DEPTH",
    "Metadata",
    "MplpId",
    "MplpModel",
    "parse",
    "Payload",
    "Plan",
    "PlanStatus",
    "PlanStep",
    "PlanStepStatus",
    "Ref",
    "RefModule",
    "RuleViolation",
    "SCHEMA_ONLY",
    "Timestamp",
    "TokenUsage",
    "TraceBase",
    "UserFeedback",
    "__version__",
]
