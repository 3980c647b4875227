"""Typed, exact Pydantic models for MPLP v1.0 payloads and Cortex agent inbox messages.

Every model accepts exactly what its frozen JSON Schema accepts: no lax
coercion, timestamps and ids kept as the sender wrote them, explicit nulls and
absent fields told apart.
"""

# Importing the package loads nothing else: each name is imported on first use
# (module __getattr__), so a program pays only for the models it touches. Type
# checkers and IDEs read the imports under TYPE_CHECKING; _LOCATIONS says the
# same for the run time (_public.LOCATIONS; a test holds the two, and __all__, to one another).

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mplp_models import _public
from mplp_models._version import __version__

if TYPE_CHECKING:
    from mplp_models._base import SCHEMA_ONLY, MplpModel
    from mplp_models._canonical import CanonicalJSONError, canonical_json
    from mplp_models._chat import (
        AnthropicAssistantMessage,
        AnthropicChat,
        AnthropicChatMessage,
        AnthropicTextBlock,
        AnthropicUserMessage,
        OpenAIAssistantMessage,
        OpenAIChatMessage,
        OpenAIDeveloperMessage,
        OpenAISystemMessage,
        OpenAIUserMessage,
    )
    from mplp_models._cloudevents import CloudEvent
    from mplp_models._conversion import ConversionError
    from mplp_models._dialog import DialogGovernance
    from mplp_models._errors import ErrorEntry, errors_as_json
    from mplp_models._flow import (
        FlowLocation,
        FlowProfile,
        FlowReport,
        FlowRuleResult,
        FlowViolation,
        check_flow,
        check_flow_report,
    )
    from mplp_models._generated.cortex.v1.code_mode.inbox_message_schema import (
        CodeInboxMessage,
        CodeInboxMessageRelations,
        CodeInboxMessageStatus,
        CodeInboxMessageStatusValue,
        CodeInboxMessageType,
        CodeInboxMessageTypeValue,
    )
    from mplp_models._generated.cortex.v1.inbox_schema import (
        InboxMessage,
        InboxMessageStatus,
        InboxMessageStatusValue,
        InboxMessageType,
        InboxMessageTypeValue,
    )
    from mplp_models._generated.mplp.v1_0.common.common_types_schema import Governance, Ref, RefModule, RefModuleValue
    from mplp_models._generated.mplp.v1_0.common.events_schema import Event
    from mplp_models._generated.mplp.v1_0.common.identifiers_schema import MplpId
    from mplp_models._generated.mplp.v1_0.common.learning_sample_schema import (
        AgentTokenUsage,
        ErrorInfo,
        FeedbackDecision,
        FeedbackDecisionValue,
        LearningSample,
        LearningSampleTimestamps,
        TokenUsage,
        UserFeedback,
    )
    from mplp_models._generated.mplp.v1_0.common.metadata_schema import (
        CrossCuttingConcern,
        CrossCuttingConcernValue,
        Metadata,
    )
    from mplp_models._generated.mplp.v1_0.common.trace_base_schema import TraceBase
    from mplp_models._generated.mplp.v1_0.mplp_collab_schema import (
        Collab,
        CollabMode,
        CollabModeValue,
        CollabParticipant,
        CollabParticipantKind,
        CollabParticipantKindValue,
        CollabStatus,
        CollabStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_confirm_schema import (
        Confirm,
        ConfirmDecision,
        ConfirmDecisionStatus,
        ConfirmDecisionStatusValue,
        ConfirmStatus,
        ConfirmStatusValue,
        ConfirmTargetType,
        ConfirmTargetTypeValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_context_schema import (
        Context,
        ContextRoot,
        ContextStatus,
        ContextStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_core_schema import (
        Core,
        CoreStatus,
        CoreStatusValue,
        ModuleDescriptor,
        ModuleDescriptorStatus,
        ModuleDescriptorStatusValue,
        ModuleId,
        ModuleIdValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_dialog_schema import (
        Dialog,
        DialogMessage,
        DialogMessageRole,
        DialogMessageRoleValue,
        DialogStatus,
        DialogStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_extension_schema import (
        Extension,
        ExtensionStatus,
        ExtensionStatusValue,
        ExtensionType,
        ExtensionTypeValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_network_schema import (
        Network,
        NetworkNode,
        NetworkNodeKind,
        NetworkNodeKindValue,
        NetworkNodeStatus,
        NetworkNodeStatusValue,
        NetworkStatus,
        NetworkStatusValue,
        NetworkTopologyType,
        NetworkTopologyTypeValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_plan_schema import (
        Plan,
        PlanStatus,
        PlanStatusValue,
        PlanStep,
        PlanStepStatus,
        PlanStepStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_role_schema import Role
    from mplp_models._generated.mplp.v1_0.mplp_trace_schema import (
        Trace,
        TraceSegment,
        TraceSegmentStatus,
        TraceSegmentStatusValue,
        TraceStatus,
        TraceStatusValue,
    )
    from mplp_models._ids import new_id
    from mplp_models._lines import LineVerdict, check_lines
    from mplp_models._parse import Payload, parse
    from mplp_models._reader import MAX_DEPTH, MAX_JSON_DEPTH
    from mplp_models._rules import RuleViolation
    from mplp_models._types import MAX_OPEN_DEPTH, MAX_OPEN_OBJECT_DEPTH, JsonObject, Timestamp

__all__ = [
    "MAX_DEPTH",
    "MAX_JSON_DEPTH",
    "MAX_OPEN_DEPTH",
    "MAX_OPEN_OBJECT_DEPTH",
    "SCHEMA_ONLY",
    "AgentTokenUsage",
    "AnthropicAssistantMessage",
    "AnthropicChat",
    "AnthropicChatMessage",
    "AnthropicTextBlock",
    "AnthropicUserMessage",
    "CanonicalJSONError",
    "CloudEvent",
    "CodeInboxMessage",
    "CodeInboxMessageRelations",
    "CodeInboxMessageStatus",
    "CodeInboxMessageStatusValue",
    "CodeInboxMessageType",
    "CodeInboxMessageTypeValue",
    "Collab",
    "CollabMode",
    "CollabModeValue",
    "CollabParticipant",
    "CollabParticipantKind",
    "CollabParticipantKindValue",
    "CollabStatus",
    "CollabStatusValue",
    "Confirm",
    "ConfirmDecision",
    "ConfirmDecisionStatus",
    "ConfirmDecisionStatusValue",
    "ConfirmStatus",
    "ConfirmStatusValue",
    "ConfirmTargetType",
    "ConfirmTargetTypeValue",
    "Context",
    "ContextRoot",
    "ContextStatus",
    "ContextStatusValue",
    "ConversionError",
    "Core",
    "CoreStatus",
    "CoreStatusValue",
    "CrossCuttingConcern",
    "CrossCuttingConcernValue",
    "Dialog",
    "DialogGovernance",
    "DialogMessage",
    "DialogMessageRole",
    "DialogMessageRoleValue",
    "DialogStatus",
    "DialogStatusValue",
    "ErrorEntry",
    "ErrorInfo",
    "Event",
    "Extension",
    "ExtensionStatus",
    "ExtensionStatusValue",
    "ExtensionType",
    "ExtensionTypeValue",
    "FeedbackDecision",
    "FeedbackDecisionValue",
    "FlowLocation",
    "FlowProfile",
    "FlowReport",
    "FlowRuleResult",
    "FlowViolation",
    "Governance",
    "InboxMessage",
    "InboxMessageStatus",
    "InboxMessageStatusValue",
    "InboxMessageType",
    "InboxMessageTypeValue",
    "JsonObject",
    "LearningSample",
    "LearningSampleTimestamps",
    "LineVerdict",
    "Metadata",
    "ModuleDescriptor",
    "ModuleDescriptorStatus",
    "ModuleDescriptorStatusValue",
    "ModuleId",
    "ModuleIdValue",
    "MplpId",
    "MplpModel",
    "Network",
    "NetworkNode",
    "NetworkNodeKind",
    "NetworkNodeKindValue",
    "NetworkNodeStatus",
    "NetworkNodeStatusValue",
    "NetworkStatus",
    "NetworkStatusValue",
    "NetworkTopologyType",
    "NetworkTopologyTypeValue",
    "OpenAIAssistantMessage",
    "OpenAIChatMessage",
    "OpenAIDeveloperMessage",
    "OpenAISystemMessage",
    "OpenAIUserMessage",
    "Payload",
    "Plan",
    "PlanStatus",
    "PlanStatusValue",
    "PlanStep",
    "PlanStepStatus",
    "PlanStepStatusValue",
    "Ref",
    "RefModule",
    "RefModuleValue",
    "Role",
    "RuleViolation",
    "Timestamp",
    "TokenUsage",
    "Trace",
    "TraceBase",
    "TraceSegment",
    "TraceSegmentStatus",
    "TraceSegmentStatusValue",
    "TraceStatus",
    "TraceStatusValue",
    "UserFeedback",
    "__version__",
    "canonical_json",
    "check_flow",
    "check_flow_report",
    "check_lines",
    "errors_as_json",
    "new_id",
    "parse",
]

_LOCATIONS = _public.LOCATIONS
_GENERATED = _public.GENERATED  # _schemas reads both here


def __getattr__(name: str) -> Any:
    location = _LOCATIONS.get(name)
    if location is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(location), name)
    globals()[name] = value  # the next lookup is a plain module attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
