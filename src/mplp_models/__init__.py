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
    from typing_extensions import deprecated

    from mplp_models import chat as _chat_formats
    from mplp_models._base import SCHEMA_ONLY, MplpModel
    from mplp_models._canonical import CanonicalJSONError, canonical_json
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
    from mplp_models._formats import Timestamp
    from mplp_models._generated.cortex.v1.code_mode.inbox_message_schema import (
        CodeInboxMessage,
        CodeInboxMessageRelations,
        CodeInboxMessageStatus,
        CodeInboxMessageType,
    )
    from mplp_models._generated.cortex.v1.inbox_schema import (
        InboxMessage,
        InboxMessageStatus,
        InboxMessageType,
    )
    from mplp_models._generated.mplp.v1_0.common.common_types_schema import Governance, Ref, RefModule
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
    from mplp_models._generated.mplp.v1_0.common.metadata_schema import (
        CrossCuttingConcern,
        Metadata,
    )
    from mplp_models._generated.mplp.v1_0.common.trace_base_schema import TraceBase
    from mplp_models._generated.mplp.v1_0.events.mplp_event_core_schema import (
        EventCore,
        EventFamily,
    )
    from mplp_models._generated.mplp.v1_0.events.mplp_graph_update_event_schema import (
        GraphUpdateEvent,
        GraphUpdateKind,
    )
    from mplp_models._generated.mplp.v1_0.events.mplp_map_event_schema import (
        MAPEvent,
        MAPEventType,
    )
    from mplp_models._generated.mplp.v1_0.events.mplp_pipeline_stage_event_schema import (
        PipelineStageEvent,
        PipelineStageStatus,
    )
    from mplp_models._generated.mplp.v1_0.events.mplp_runtime_execution_event_schema import (
        ExecutorKind,
        RuntimeExecutionEvent,
        RuntimeExecutionStatus,
    )
    from mplp_models._generated.mplp.v1_0.events.mplp_sa_event_schema import (
        SAEvent,
        SAEventType,
    )
    from mplp_models._generated.mplp.v1_0.integration.mplp_ci_event_schema import (
        CIEvent,
        CIStage,
        CIStageStatus,
        CIStatus,
        CITriggerKind,
    )
    from mplp_models._generated.mplp.v1_0.integration.mplp_file_update_event_schema import (
        FileChangeType,
        FileUpdateEvent,
    )
    from mplp_models._generated.mplp.v1_0.integration.mplp_git_event_schema import (
        GitEvent,
        GitEventKind,
    )
    from mplp_models._generated.mplp.v1_0.integration.mplp_tool_event_schema import (
        ToolEvent,
        ToolKind,
        ToolStatus,
    )
    from mplp_models._generated.mplp.v1_0.learning.mplp_learning_sample_core_schema import (
        HumanFeedbackLabel,
        LearningSampleCore,
        SampleMeta,
    )
    from mplp_models._generated.mplp.v1_0.learning.mplp_learning_sample_delta_schema import (
        DeltaImpactFeedbackLabel,
        DeltaImpactInput,
        DeltaImpactMeta,
        DeltaImpactOutput,
        DeltaImpactSample,
        DeltaImpactState,
        DeltaType,
        ImpactPredictionAccuracy,
        ImpactScope,
        RiskLevel,
    )
    from mplp_models._generated.mplp.v1_0.learning.mplp_learning_sample_intent_schema import (
        IntentResolutionFeedbackLabel,
        IntentResolutionInput,
        IntentResolutionMeta,
        IntentResolutionOutput,
        IntentResolutionSample,
        IntentResolutionState,
        ResolutionQualityLabel,
    )
    from mplp_models._generated.mplp.v1_0.mplp_collab_schema import (
        Collab,
        CollabMode,
        CollabParticipant,
        CollabParticipantKind,
        CollabStatus,
    )
    from mplp_models._generated.mplp.v1_0.mplp_confirm_schema import (
        Confirm,
        ConfirmDecision,
        ConfirmDecisionStatus,
        ConfirmStatus,
        ConfirmTargetType,
    )
    from mplp_models._generated.mplp.v1_0.mplp_context_schema import (
        Context,
        ContextRoot,
        ContextStatus,
    )
    from mplp_models._generated.mplp.v1_0.mplp_core_schema import (
        Core,
        CoreStatus,
        ModuleDescriptor,
        ModuleDescriptorStatus,
        ModuleId,
    )
    from mplp_models._generated.mplp.v1_0.mplp_dialog_schema import (
        Dialog,
        DialogMessage,
        DialogMessageRole,
        DialogStatus,
    )
    from mplp_models._generated.mplp.v1_0.mplp_extension_schema import (
        Extension,
        ExtensionStatus,
        ExtensionType,
    )
    from mplp_models._generated.mplp.v1_0.mplp_network_schema import (
        Network,
        NetworkNode,
        NetworkNodeKind,
        NetworkNodeStatus,
        NetworkStatus,
        NetworkTopologyType,
    )
    from mplp_models._generated.mplp.v1_0.mplp_plan_schema import (
        Plan,
        PlanStatus,
        PlanStep,
        PlanStepStatus,
    )
    from mplp_models._generated.mplp.v1_0.mplp_role_schema import Role
    from mplp_models._generated.mplp.v1_0.mplp_trace_schema import (
        Trace,
        TraceSegment,
        TraceSegmentStatus,
        TraceStatus,
    )
    from mplp_models._ids import new_id
    from mplp_models._json_values import MAX_JSON_DEPTH, MAX_OPEN_OBJECT_DEPTH
    from mplp_models._lines import LineVerdict, check_lines
    from mplp_models._parse import Payload, parse
    from mplp_models._rules import RuleViolation
    from mplp_models._session_picture import flow_mermaid
    from mplp_models._store import StoreConflict
    from mplp_models._types import JsonInputValue, JsonObject, JsonObjectInput

    MAX_DEPTH = MAX_JSON_DEPTH  # deprecated (_DEPRECATED)
    MAX_OPEN_DEPTH = MAX_OPEN_OBJECT_DEPTH  # deprecated (_DEPRECATED)

    # What the root gave before it had a module of its own (_public.MOVED): still given, deprecated.
    # PEP 702 marks classes, not aliases: the message classes are stand-ins marked @deprecated
    # (TypedDicts, so equal to mplp_models.chat's), the unions and the literals plain re-exports (X as X:
    # a star import would not make them the package's for pyright).
    from mplp_models.chat import AnthropicChatMessage as AnthropicChatMessage
    from mplp_models.chat import OpenAIChatMessage as OpenAIChatMessage
    from mplp_models.literals import CIStageStatusValue as CIStageStatusValue
    from mplp_models.literals import CIStatusValue as CIStatusValue
    from mplp_models.literals import CITriggerKindValue as CITriggerKindValue
    from mplp_models.literals import CodeInboxMessageStatusValue as CodeInboxMessageStatusValue
    from mplp_models.literals import CodeInboxMessageTypeValue as CodeInboxMessageTypeValue
    from mplp_models.literals import CollabModeValue as CollabModeValue
    from mplp_models.literals import CollabParticipantKindValue as CollabParticipantKindValue
    from mplp_models.literals import CollabStatusValue as CollabStatusValue
    from mplp_models.literals import ConfirmDecisionStatusValue as ConfirmDecisionStatusValue
    from mplp_models.literals import ConfirmStatusValue as ConfirmStatusValue
    from mplp_models.literals import ConfirmTargetTypeValue as ConfirmTargetTypeValue
    from mplp_models.literals import ContextStatusValue as ContextStatusValue
    from mplp_models.literals import CoreStatusValue as CoreStatusValue
    from mplp_models.literals import CrossCuttingConcernValue as CrossCuttingConcernValue
    from mplp_models.literals import DeltaImpactFeedbackLabelValue as DeltaImpactFeedbackLabelValue
    from mplp_models.literals import DeltaTypeValue as DeltaTypeValue
    from mplp_models.literals import DialogMessageRoleValue as DialogMessageRoleValue
    from mplp_models.literals import DialogStatusValue as DialogStatusValue
    from mplp_models.literals import EventFamilyValue as EventFamilyValue
    from mplp_models.literals import ExecutorKindValue as ExecutorKindValue
    from mplp_models.literals import ExtensionStatusValue as ExtensionStatusValue
    from mplp_models.literals import ExtensionTypeValue as ExtensionTypeValue
    from mplp_models.literals import FeedbackDecisionValue as FeedbackDecisionValue
    from mplp_models.literals import FileChangeTypeValue as FileChangeTypeValue
    from mplp_models.literals import GitEventKindValue as GitEventKindValue
    from mplp_models.literals import GraphUpdateKindValue as GraphUpdateKindValue
    from mplp_models.literals import HumanFeedbackLabelValue as HumanFeedbackLabelValue
    from mplp_models.literals import ImpactPredictionAccuracyValue as ImpactPredictionAccuracyValue
    from mplp_models.literals import ImpactScopeValue as ImpactScopeValue
    from mplp_models.literals import InboxMessageStatusValue as InboxMessageStatusValue
    from mplp_models.literals import InboxMessageTypeValue as InboxMessageTypeValue
    from mplp_models.literals import IntentResolutionFeedbackLabelValue as IntentResolutionFeedbackLabelValue
    from mplp_models.literals import MAPEventTypeValue as MAPEventTypeValue
    from mplp_models.literals import ModuleDescriptorStatusValue as ModuleDescriptorStatusValue
    from mplp_models.literals import ModuleIdValue as ModuleIdValue
    from mplp_models.literals import NetworkNodeKindValue as NetworkNodeKindValue
    from mplp_models.literals import NetworkNodeStatusValue as NetworkNodeStatusValue
    from mplp_models.literals import NetworkStatusValue as NetworkStatusValue
    from mplp_models.literals import NetworkTopologyTypeValue as NetworkTopologyTypeValue
    from mplp_models.literals import PipelineStageStatusValue as PipelineStageStatusValue
    from mplp_models.literals import PlanStatusValue as PlanStatusValue
    from mplp_models.literals import PlanStepStatusValue as PlanStepStatusValue
    from mplp_models.literals import RefModuleValue as RefModuleValue
    from mplp_models.literals import ResolutionQualityLabelValue as ResolutionQualityLabelValue
    from mplp_models.literals import RiskLevelValue as RiskLevelValue
    from mplp_models.literals import RuntimeExecutionStatusValue as RuntimeExecutionStatusValue
    from mplp_models.literals import SAEventTypeValue as SAEventTypeValue
    from mplp_models.literals import ToolKindValue as ToolKindValue
    from mplp_models.literals import ToolStatusValue as ToolStatusValue
    from mplp_models.literals import TraceSegmentStatusValue as TraceSegmentStatusValue
    from mplp_models.literals import TraceStatusValue as TraceStatusValue

    @deprecated("import AnthropicAssistantMessage from mplp_models.chat")
    class AnthropicAssistantMessage(_chat_formats.AnthropicAssistantMessage): ...

    @deprecated("import AnthropicChat from mplp_models.chat")
    class AnthropicChat(_chat_formats.AnthropicChat): ...

    @deprecated("import AnthropicTextBlock from mplp_models.chat")
    class AnthropicTextBlock(_chat_formats.AnthropicTextBlock): ...

    @deprecated("import AnthropicUserMessage from mplp_models.chat")
    class AnthropicUserMessage(_chat_formats.AnthropicUserMessage): ...

    @deprecated("import OpenAIAssistantMessage from mplp_models.chat")
    class OpenAIAssistantMessage(_chat_formats.OpenAIAssistantMessage): ...

    @deprecated("import OpenAIDeveloperMessage from mplp_models.chat")
    class OpenAIDeveloperMessage(_chat_formats.OpenAIDeveloperMessage): ...

    @deprecated("import OpenAISystemMessage from mplp_models.chat")
    class OpenAISystemMessage(_chat_formats.OpenAISystemMessage): ...

    @deprecated("import OpenAIUserMessage from mplp_models.chat")
    class OpenAIUserMessage(_chat_formats.OpenAIUserMessage): ...


__all__ = [
    "MAX_JSON_DEPTH",
    "MAX_OPEN_OBJECT_DEPTH",
    "SCHEMA_ONLY",
    "AgentTokenUsage",
    "CIEvent",
    "CIStage",
    "CIStageStatus",
    "CIStatus",
    "CITriggerKind",
    "CanonicalJSONError",
    "CloudEvent",
    "CodeInboxMessage",
    "CodeInboxMessageRelations",
    "CodeInboxMessageStatus",
    "CodeInboxMessageType",
    "Collab",
    "CollabMode",
    "CollabParticipant",
    "CollabParticipantKind",
    "CollabStatus",
    "Confirm",
    "ConfirmDecision",
    "ConfirmDecisionStatus",
    "ConfirmStatus",
    "ConfirmTargetType",
    "Context",
    "ContextRoot",
    "ContextStatus",
    "ConversionError",
    "Core",
    "CoreStatus",
    "CrossCuttingConcern",
    "DeltaImpactFeedbackLabel",
    "DeltaImpactInput",
    "DeltaImpactMeta",
    "DeltaImpactOutput",
    "DeltaImpactSample",
    "DeltaImpactState",
    "DeltaType",
    "Dialog",
    "DialogMessage",
    "DialogMessageRole",
    "DialogStatus",
    "EditError",
    "ErrorEntry",
    "ErrorInfo",
    "Event",
    "EventCore",
    "EventFamily",
    "ExecutorKind",
    "Extension",
    "ExtensionStatus",
    "ExtensionType",
    "FeedbackDecision",
    "FileChangeType",
    "FileUpdateEvent",
    "FlowLocation",
    "FlowProfile",
    "FlowReport",
    "FlowRuleResult",
    "FlowViolation",
    "GitEvent",
    "GitEventKind",
    "Governance",
    "GraphUpdateEvent",
    "GraphUpdateKind",
    "HumanFeedbackLabel",
    "ImpactPredictionAccuracy",
    "ImpactScope",
    "InboxMessage",
    "InboxMessageStatus",
    "InboxMessageType",
    "IntentResolutionFeedbackLabel",
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
    "Metadata",
    "ModuleDescriptor",
    "ModuleDescriptorStatus",
    "ModuleId",
    "MplpId",
    "MplpModel",
    "Network",
    "NetworkNode",
    "NetworkNodeKind",
    "NetworkNodeStatus",
    "NetworkStatus",
    "NetworkTopologyType",
    "Payload",
    "PipelineStageEvent",
    "PipelineStageStatus",
    "Plan",
    "PlanStatus",
    "PlanStep",
    "PlanStepStatus",
    "Ref",
    "RefModule",
    "ResolutionQualityLabel",
    "RiskLevel",
    "Role",
    "RuleViolation",
    "RuntimeExecutionEvent",
    "RuntimeExecutionStatus",
    "SAEvent",
    "SAEventType",
    "SampleMeta",
    "StoreConflict",
    "Timestamp",
    "TokenUsage",
    "ToolEvent",
    "ToolKind",
    "ToolStatus",
    "Trace",
    "TraceBase",
    "TraceSegment",
    "TraceSegmentStatus",
    "TraceStatus",
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
        if name in _DEPRECATED or name in _public.MOVED:
            return _deprecated(name)
        location = _LOCATIONS.get(name)
        if location is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(location), name)
        globals()[name] = value  # the next lookup is a plain module attribute
        return value

    def _deprecated(name: str) -> Any:
        """The value of a deprecated name, with a warning each time (never kept in globals())."""
        import importlib
        import warnings

        if name in _DEPRECATED:
            current = _DEPRECATED[name]
            warnings.warn(f"mplp_models.{name} is deprecated: use {current}", DeprecationWarning, stacklevel=3)
            return __getattr__(current)
        home = _public.MOVED[name]
        warnings.warn(f"mplp_models.{name} is deprecated: import it from {home}", DeprecationWarning, stacklevel=3)
        return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
