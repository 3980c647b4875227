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
    from mplp_models._dialog import DialogGovernance as DialogGovernance  # deprecated: Governance
    from mplp_models._errors import EditError, ErrorEntry, UnknownPartError, errors_as_json
    from mplp_models._family_rules import check_map_events
    from mplp_models._flow import (
        FlowLocation,
        FlowProfile,
        FlowReport,
        FlowRuleResult,
        FlowViolation,
        check_flow,
        check_flow_report,
    )
    from mplp_models._flow_folder import load_flow, save_flow
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
    from mplp_models._generated.mplp.v1_0.events.mplp_event_core_schema import (
        EventCore,
        EventFamily,
        EventFamilyValue,
    )
    from mplp_models._generated.mplp.v1_0.events.mplp_graph_update_event_schema import (
        GraphUpdateEvent,
        GraphUpdateKind,
        GraphUpdateKindValue,
    )
    from mplp_models._generated.mplp.v1_0.events.mplp_map_event_schema import (
        MAPEvent,
        MAPEventType,
        MAPEventTypeValue,
    )
    from mplp_models._generated.mplp.v1_0.events.mplp_pipeline_stage_event_schema import (
        PipelineStageEvent,
        PipelineStageStatus,
        PipelineStageStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.events.mplp_runtime_execution_event_schema import (
        ExecutorKind,
        ExecutorKindValue,
        RuntimeExecutionEvent,
        RuntimeExecutionStatus,
        RuntimeExecutionStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.events.mplp_sa_event_schema import (
        SAEvent,
        SAEventType,
        SAEventTypeValue,
    )
    from mplp_models._generated.mplp.v1_0.integration.mplp_ci_event_schema import (
        CIEvent,
        CIStage,
        CIStageStatus,
        CIStageStatusValue,
        CIStatus,
        CIStatusValue,
        CITriggerKind,
        CITriggerKindValue,
    )
    from mplp_models._generated.mplp.v1_0.integration.mplp_file_update_event_schema import (
        FileChangeType,
        FileChangeTypeValue,
        FileUpdateEvent,
    )
    from mplp_models._generated.mplp.v1_0.integration.mplp_git_event_schema import (
        GitEvent,
        GitEventKind,
        GitEventKindValue,
    )
    from mplp_models._generated.mplp.v1_0.integration.mplp_tool_event_schema import (
        ToolEvent,
        ToolKind,
        ToolKindValue,
        ToolStatus,
        ToolStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.learning.mplp_learning_sample_core_schema import (
        HumanFeedbackLabel,
        HumanFeedbackLabelValue,
        LearningSampleCore,
        SampleMeta,
    )
    from mplp_models._generated.mplp.v1_0.learning.mplp_learning_sample_delta_schema import (
        DeltaImpactFeedbackLabel,
        DeltaImpactFeedbackLabelValue,
        DeltaImpactInput,
        DeltaImpactMeta,
        DeltaImpactOutput,
        DeltaImpactSample,
        DeltaImpactState,
        DeltaType,
        DeltaTypeValue,
        ImpactPredictionAccuracy,
        ImpactPredictionAccuracyValue,
        ImpactScope,
        ImpactScopeValue,
        RiskLevel,
        RiskLevelValue,
    )
    from mplp_models._generated.mplp.v1_0.learning.mplp_learning_sample_intent_schema import (
        IntentResolutionFeedbackLabel,
        IntentResolutionFeedbackLabelValue,
        IntentResolutionInput,
        IntentResolutionMeta,
        IntentResolutionOutput,
        IntentResolutionSample,
        IntentResolutionState,
        ResolutionQualityLabel,
        ResolutionQualityLabelValue,
    )
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
    from mplp_models._reader import MAX_DEPTH as MAX_DEPTH  # deprecated: MAX_JSON_DEPTH
    from mplp_models._reader import MAX_JSON_DEPTH
    from mplp_models._rules import RuleViolation
    from mplp_models._session_picture import flow_mermaid
    from mplp_models._store import StoreConflict
    from mplp_models._types import MAX_OPEN_DEPTH as MAX_OPEN_DEPTH  # deprecated: MAX_OPEN_OBJECT_DEPTH
    from mplp_models._types import MAX_OPEN_OBJECT_DEPTH, JsonInputValue, JsonObject, JsonObjectInput, Timestamp

__all__ = [
    "MAX_JSON_DEPTH",
    "MAX_OPEN_OBJECT_DEPTH",
    "SCHEMA_ONLY",
    "AgentTokenUsage",
    "AnthropicAssistantMessage",
    "AnthropicChat",
    "AnthropicChatMessage",
    "AnthropicTextBlock",
    "AnthropicUserMessage",
    "CIEvent",
    "CIStage",
    "CIStageStatus",
    "CIStageStatusValue",
    "CIStatus",
    "CIStatusValue",
    "CITriggerKind",
    "CITriggerKindValue",
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
    "DeltaImpactFeedbackLabel",
    "DeltaImpactFeedbackLabelValue",
    "DeltaImpactInput",
    "DeltaImpactMeta",
    "DeltaImpactOutput",
    "DeltaImpactSample",
    "DeltaImpactState",
    "DeltaType",
    "DeltaTypeValue",
    "Dialog",
    "DialogMessage",
    "DialogMessageRole",
    "DialogMessageRoleValue",
    "DialogStatus",
    "DialogStatusValue",
    "EditError",
    "ErrorEntry",
    "ErrorInfo",
    "Event",
    "EventCore",
    "EventFamily",
    "EventFamilyValue",
    "ExecutorKind",
    "ExecutorKindValue",
    "Extension",
    "ExtensionStatus",
    "ExtensionStatusValue",
    "ExtensionType",
    "ExtensionTypeValue",
    "FeedbackDecision",
    "FeedbackDecisionValue",
    "FileChangeType",
    "FileChangeTypeValue",
    "FileUpdateEvent",
    "FlowLocation",
    "FlowProfile",
    "FlowReport",
    "FlowRuleResult",
    "FlowViolation",
    "GitEvent",
    "GitEventKind",
    "GitEventKindValue",
    "Governance",
    "GraphUpdateEvent",
    "GraphUpdateKind",
    "GraphUpdateKindValue",
    "HumanFeedbackLabel",
    "HumanFeedbackLabelValue",
    "ImpactPredictionAccuracy",
    "ImpactPredictionAccuracyValue",
    "ImpactScope",
    "ImpactScopeValue",
    "InboxMessage",
    "InboxMessageStatus",
    "InboxMessageStatusValue",
    "InboxMessageType",
    "InboxMessageTypeValue",
    "IntentResolutionFeedbackLabel",
    "IntentResolutionFeedbackLabelValue",
    "IntentResolutionInput",
    "IntentResolutionMeta",
    "IntentResolutionOutput",
    "IntentResolutionSample",
    "IntentResolutionState",
    "JsonInputValue",
    "JsonObject",
    "JsonObjectInput",
    "LearningSample",
    "LearningSampleCore",
    "LearningSampleTimestamps",
    "LineVerdict",
    "MAPEvent",
    "MAPEventType",
    "MAPEventTypeValue",
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
    "PipelineStageEvent",
    "PipelineStageStatus",
    "PipelineStageStatusValue",
    "Plan",
    "PlanStatus",
    "PlanStatusValue",
    "PlanStep",
    "PlanStepStatus",
    "PlanStepStatusValue",
    "Ref",
    "RefModule",
    "RefModuleValue",
    "ResolutionQualityLabel",
    "ResolutionQualityLabelValue",
    "RiskLevel",
    "RiskLevelValue",
    "Role",
    "RuleViolation",
    "RuntimeExecutionEvent",
    "RuntimeExecutionStatus",
    "RuntimeExecutionStatusValue",
    "SAEvent",
    "SAEventType",
    "SAEventTypeValue",
    "SampleMeta",
    "StoreConflict",
    "Timestamp",
    "TokenUsage",
    "ToolEvent",
    "ToolKind",
    "ToolKindValue",
    "ToolStatus",
    "ToolStatusValue",
    "Trace",
    "TraceBase",
    "TraceSegment",
    "TraceSegmentStatus",
    "TraceSegmentStatusValue",
    "TraceStatus",
    "TraceStatusValue",
    "UnknownPartError",
    "UserFeedback",
    "__version__",
    "canonical_json",
    "check_flow",
    "check_flow_report",
    "check_lines",
    "check_map_events",
    "errors_as_json",
    "flow_mermaid",
    "load_flow",
    "new_id",
    "parse",
    "save_flow",
]

_LOCATIONS = _public.LOCATIONS
_GENERATED = _public.GENERATED  # _schemas reads both here


_DEPRECATED: dict[str, str] = {
    # An earlier name: what it names now. Each use warns (DeprecationWarning); none is in __all__.
    "DialogGovernance": "Governance",  # one class, shared by every module's governance block
    "MAX_DEPTH": "MAX_JSON_DEPTH",  # the nesting of a whole JSON text
    "MAX_OPEN_DEPTH": "MAX_OPEN_OBJECT_DEPTH",  # the nesting inside an open object
}

if not TYPE_CHECKING:  # type checkers see the imports above: a module __getattr__ would make a typo Any

    def __getattr__(name: str) -> Any:
        if name in _DEPRECATED:
            import warnings

            current = _DEPRECATED[name]
            warnings.warn(f"mplp_models.{name} is deprecated: use {current}", DeprecationWarning, stacklevel=2)
            return __getattr__(current)
        location = _LOCATIONS.get(name)
        if location is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(location), name)
        globals()[name] = value  # the next lookup is a plain module attribute
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
