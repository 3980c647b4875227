"""Where each public name of ``mplp_models`` is defined, and which of them are models.

Below every other module of the package (it imports none at load): the
package's lazy ``__getattr__`` reads the table, and library code that needs the
public names (``check_lines``, the command line) asks here rather than
importing the package from below. Each module that defines a public class
calls ``publish`` at its end, which shows the class under the module users
import it from.
"""

from __future__ import annotations

import inspect
import sys
import typing
from functools import cache

__all__ = [
    "GENERATED",
    "LITERALS",
    "LOCATIONS",
    "MOVED",
    "SHOWN_IN",
    "SUBMODULES",
    "defined_in",
    "generated_kind",
    "is_generated",
    "model_names",
    "publish",
]

PACKAGE = "mplp_models"
GENERATED = "mplp_models._generated."
LOCATIONS: dict[str, str] = {
    **dict.fromkeys(("SCHEMA_ONLY", "MplpModel"), "mplp_models._base"),
    **dict.fromkeys(("CanonicalJSONError", "canonical_json"), "mplp_models._canonical"),
    "CloudEvent": "mplp_models._cloudevents",
    "ConversionError": "mplp_models._conversion",
    "MAX_JSON_DEPTH": "mplp_models._json_values",
    **dict.fromkeys(("EditError", "ErrorEntry", "UnknownPartError", "errors_as_json"), "mplp_models._errors"),
    **dict.fromkeys(
        (
            "FlowLocation",
            "FlowProfile",
            "FlowReport",
            "FlowRuleResult",
            "FlowViolation",
            "check_flow",
            "check_flow_report",
        ),
        "mplp_models._flow",
    ),
    "flow_mermaid": "mplp_models._session_picture",
    **dict.fromkeys(("InboxMessage", "InboxMessageStatus", "InboxMessageType"), GENERATED + "cortex.v1.inbox_schema"),
    **dict.fromkeys(
        ("CodeInboxMessage", "CodeInboxMessageRelations", "CodeInboxMessageStatus", "CodeInboxMessageType"),
        GENERATED + "cortex.v1.code_mode.inbox_message_schema",
    ),
    **dict.fromkeys(("Governance", "Ref", "RefModule"), GENERATED + "mplp.v1_0.common.common_types_schema"),
    "Event": GENERATED + "mplp.v1_0.common.events_schema",
    "MplpId": GENERATED + "mplp.v1_0.common.identifiers_schema",
    **dict.fromkeys(
        (
            "AgentTokenUsage",
            "ErrorInfo",
            "FeedbackDecision",
            "LearningSample",
            "LearningSampleTimestamps",
            "TokenUsage",
            "UserFeedback",
        ),
        GENERATED + "mplp.v1_0.common.learning_sample_schema",
    ),
    **dict.fromkeys(("CrossCuttingConcern", "Metadata"), GENERATED + "mplp.v1_0.common.metadata_schema"),
    "TraceBase": GENERATED + "mplp.v1_0.common.trace_base_schema",
    **dict.fromkeys(
        ("Dialog", "DialogMessage", "DialogMessageRole", "DialogStatus"),
        GENERATED + "mplp.v1_0.mplp_dialog_schema",
    ),
    **dict.fromkeys(("Plan", "PlanStatus", "PlanStep", "PlanStepStatus"), GENERATED + "mplp.v1_0.mplp_plan_schema"),
    **dict.fromkeys(
        ("Collab", "CollabMode", "CollabParticipant", "CollabParticipantKind", "CollabStatus"),
        GENERATED + "mplp.v1_0.mplp_collab_schema",
    ),
    **dict.fromkeys(
        ("Confirm", "ConfirmDecision", "ConfirmDecisionStatus", "ConfirmStatus", "ConfirmTargetType"),
        GENERATED + "mplp.v1_0.mplp_confirm_schema",
    ),
    **dict.fromkeys(("Context", "ContextRoot", "ContextStatus"), GENERATED + "mplp.v1_0.mplp_context_schema"),
    **dict.fromkeys(
        ("Core", "CoreStatus", "ModuleDescriptor", "ModuleDescriptorStatus", "ModuleId"),
        GENERATED + "mplp.v1_0.mplp_core_schema",
    ),
    **dict.fromkeys(("Extension", "ExtensionStatus", "ExtensionType"), GENERATED + "mplp.v1_0.mplp_extension_schema"),
    **dict.fromkeys(
        ("Network", "NetworkNode", "NetworkNodeKind", "NetworkNodeStatus", "NetworkStatus", "NetworkTopologyType"),
        GENERATED + "mplp.v1_0.mplp_network_schema",
    ),
    "Role": GENERATED + "mplp.v1_0.mplp_role_schema",
    **dict.fromkeys(
        ("Trace", "TraceSegment", "TraceSegmentStatus", "TraceStatus"), GENERATED + "mplp.v1_0.mplp_trace_schema"
    ),
    **dict.fromkeys(("Payload", "parse"), "mplp_models._parse"),
    "RuleViolation": "mplp_models._rules",
    "StoreConflict": "mplp_models._store",
    **dict.fromkeys(("load_flow", "save_flow"), "mplp_models._flow_folder"),
    "new_id": "mplp_models._ids",
    **dict.fromkeys(("LineVerdict", "check_lines"), "mplp_models._lines"),
    "MAX_OPEN_OBJECT_DEPTH": "mplp_models._json_values",
    **dict.fromkeys(("JsonInputValue", "JsonObject", "JsonObjectInput"), "mplp_models._types"),
    "Timestamp": "mplp_models._formats",
    # The event families, integration events and learning-sample families, their parts and their rules.
    "CIEvent": GENERATED + "mplp.v1_0.integration.mplp_ci_event_schema",
    "CIStage": GENERATED + "mplp.v1_0.integration.mplp_ci_event_schema",
    "CIStageStatus": GENERATED + "mplp.v1_0.integration.mplp_ci_event_schema",
    "CIStatus": GENERATED + "mplp.v1_0.integration.mplp_ci_event_schema",
    "CITriggerKind": GENERATED + "mplp.v1_0.integration.mplp_ci_event_schema",
    "DeltaImpactFeedbackLabel": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "DeltaImpactInput": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "DeltaImpactMeta": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "DeltaImpactOutput": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "DeltaImpactSample": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "DeltaImpactState": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "DeltaType": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "EventCore": GENERATED + "mplp.v1_0.events.mplp_event_core_schema",
    "EventFamily": GENERATED + "mplp.v1_0.events.mplp_event_core_schema",
    "ExecutorKind": GENERATED + "mplp.v1_0.events.mplp_runtime_execution_event_schema",
    "FileChangeType": GENERATED + "mplp.v1_0.integration.mplp_file_update_event_schema",
    "FileUpdateEvent": GENERATED + "mplp.v1_0.integration.mplp_file_update_event_schema",
    "GitEvent": GENERATED + "mplp.v1_0.integration.mplp_git_event_schema",
    "GitEventKind": GENERATED + "mplp.v1_0.integration.mplp_git_event_schema",
    "GraphUpdateEvent": GENERATED + "mplp.v1_0.events.mplp_graph_update_event_schema",
    "GraphUpdateKind": GENERATED + "mplp.v1_0.events.mplp_graph_update_event_schema",
    "HumanFeedbackLabel": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_core_schema",
    "ImpactPredictionAccuracy": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "ImpactScope": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "IntentResolutionFeedbackLabel": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_intent_schema",
    "IntentResolutionInput": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_intent_schema",
    "IntentResolutionMeta": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_intent_schema",
    "IntentResolutionOutput": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_intent_schema",
    "IntentResolutionSample": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_intent_schema",
    "IntentResolutionState": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_intent_schema",
    "LearningSampleCore": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_core_schema",
    "MAPEvent": GENERATED + "mplp.v1_0.events.mplp_map_event_schema",
    "MAPEventType": GENERATED + "mplp.v1_0.events.mplp_map_event_schema",
    "PipelineStageEvent": GENERATED + "mplp.v1_0.events.mplp_pipeline_stage_event_schema",
    "PipelineStageStatus": GENERATED + "mplp.v1_0.events.mplp_pipeline_stage_event_schema",
    "ResolutionQualityLabel": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_intent_schema",
    "RiskLevel": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "RuntimeExecutionEvent": GENERATED + "mplp.v1_0.events.mplp_runtime_execution_event_schema",
    "RuntimeExecutionStatus": GENERATED + "mplp.v1_0.events.mplp_runtime_execution_event_schema",
    "SAEvent": GENERATED + "mplp.v1_0.events.mplp_sa_event_schema",
    "SAEventType": GENERATED + "mplp.v1_0.events.mplp_sa_event_schema",
    "SampleMeta": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_core_schema",
    "ToolEvent": GENERATED + "mplp.v1_0.integration.mplp_tool_event_schema",
    "ToolKind": GENERATED + "mplp.v1_0.integration.mplp_tool_event_schema",
    "ToolStatus": GENERATED + "mplp.v1_0.integration.mplp_tool_event_schema",
    "check_map_events": "mplp_models._family_rules",
}


LITERALS: dict[str, str] = {
    # mplp_models.literals: the Literal of each enum's values (PlanStepStatusValue), defined where the enum is.
    "CIStageStatusValue": GENERATED + "mplp.v1_0.integration.mplp_ci_event_schema",
    "CIStatusValue": GENERATED + "mplp.v1_0.integration.mplp_ci_event_schema",
    "CITriggerKindValue": GENERATED + "mplp.v1_0.integration.mplp_ci_event_schema",
    "CodeInboxMessageStatusValue": GENERATED + "cortex.v1.code_mode.inbox_message_schema",
    "CodeInboxMessageTypeValue": GENERATED + "cortex.v1.code_mode.inbox_message_schema",
    "CollabModeValue": GENERATED + "mplp.v1_0.mplp_collab_schema",
    "CollabParticipantKindValue": GENERATED + "mplp.v1_0.mplp_collab_schema",
    "CollabStatusValue": GENERATED + "mplp.v1_0.mplp_collab_schema",
    "ConfirmDecisionStatusValue": GENERATED + "mplp.v1_0.mplp_confirm_schema",
    "ConfirmStatusValue": GENERATED + "mplp.v1_0.mplp_confirm_schema",
    "ConfirmTargetTypeValue": GENERATED + "mplp.v1_0.mplp_confirm_schema",
    "ContextStatusValue": GENERATED + "mplp.v1_0.mplp_context_schema",
    "CoreStatusValue": GENERATED + "mplp.v1_0.mplp_core_schema",
    "CrossCuttingConcernValue": GENERATED + "mplp.v1_0.common.metadata_schema",
    "DeltaImpactFeedbackLabelValue": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "DeltaTypeValue": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "DialogMessageRoleValue": GENERATED + "mplp.v1_0.mplp_dialog_schema",
    "DialogStatusValue": GENERATED + "mplp.v1_0.mplp_dialog_schema",
    "EventFamilyValue": GENERATED + "mplp.v1_0.events.mplp_event_core_schema",
    "ExecutorKindValue": GENERATED + "mplp.v1_0.events.mplp_runtime_execution_event_schema",
    "ExtensionStatusValue": GENERATED + "mplp.v1_0.mplp_extension_schema",
    "ExtensionTypeValue": GENERATED + "mplp.v1_0.mplp_extension_schema",
    "FeedbackDecisionValue": GENERATED + "mplp.v1_0.common.learning_sample_schema",
    "FileChangeTypeValue": GENERATED + "mplp.v1_0.integration.mplp_file_update_event_schema",
    "GitEventKindValue": GENERATED + "mplp.v1_0.integration.mplp_git_event_schema",
    "GraphUpdateKindValue": GENERATED + "mplp.v1_0.events.mplp_graph_update_event_schema",
    "HumanFeedbackLabelValue": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_core_schema",
    "ImpactPredictionAccuracyValue": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "ImpactScopeValue": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "InboxMessageStatusValue": GENERATED + "cortex.v1.inbox_schema",
    "InboxMessageTypeValue": GENERATED + "cortex.v1.inbox_schema",
    "IntentResolutionFeedbackLabelValue": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_intent_schema",
    "MAPEventTypeValue": GENERATED + "mplp.v1_0.events.mplp_map_event_schema",
    "ModuleDescriptorStatusValue": GENERATED + "mplp.v1_0.mplp_core_schema",
    "ModuleIdValue": GENERATED + "mplp.v1_0.mplp_core_schema",
    "NetworkNodeKindValue": GENERATED + "mplp.v1_0.mplp_network_schema",
    "NetworkNodeStatusValue": GENERATED + "mplp.v1_0.mplp_network_schema",
    "NetworkStatusValue": GENERATED + "mplp.v1_0.mplp_network_schema",
    "NetworkTopologyTypeValue": GENERATED + "mplp.v1_0.mplp_network_schema",
    "PipelineStageStatusValue": GENERATED + "mplp.v1_0.events.mplp_pipeline_stage_event_schema",
    "PlanStatusValue": GENERATED + "mplp.v1_0.mplp_plan_schema",
    "PlanStepStatusValue": GENERATED + "mplp.v1_0.mplp_plan_schema",
    "RefModuleValue": GENERATED + "mplp.v1_0.common.common_types_schema",
    "ResolutionQualityLabelValue": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_intent_schema",
    "RiskLevelValue": GENERATED + "mplp.v1_0.learning.mplp_learning_sample_delta_schema",
    "RuntimeExecutionStatusValue": GENERATED + "mplp.v1_0.events.mplp_runtime_execution_event_schema",
    "SAEventTypeValue": GENERATED + "mplp.v1_0.events.mplp_sa_event_schema",
    "ToolKindValue": GENERATED + "mplp.v1_0.integration.mplp_tool_event_schema",
    "ToolStatusValue": GENERATED + "mplp.v1_0.integration.mplp_tool_event_schema",
    "TraceSegmentStatusValue": GENERATED + "mplp.v1_0.mplp_trace_schema",
    "TraceStatusValue": GENERATED + "mplp.v1_0.mplp_trace_schema",
}
CHAT_FORMATS = (
    # mplp_models.chat: the OpenAI and Anthropic message formats, defined in mplp_models._chat.
    "AnthropicAssistantMessage",
    "AnthropicChat",
    "AnthropicChatMessage",
    "AnthropicTextBlock",
    "AnthropicUserMessage",
    "OpenAIAssistantMessage",
    "OpenAIChatMessage",
    "OpenAIDeveloperMessage",
    "OpenAISystemMessage",
    "OpenAIUserMessage",
)
SUBMODULES: dict[str, dict[str, str]] = {
    # Each public module beside the package's root whose names are defined elsewhere, and where.
    "mplp_models.chat": dict.fromkeys(CHAT_FORMATS, "mplp_models._chat"),
    "mplp_models.literals": LITERALS,
}
SHOWN_IN: dict[str, dict[str, str]] = {
    # The public modules beside the root that show classes their private modules define (not earlier root names).
    "mplp_models.llm": {
        **dict.fromkeys(
            ("ConfirmDecisionDraft", "DialogDraft", "DialogMessageDraft", "Draft", "LearningSampleDraft", "PlanDraft"),
            "mplp_models._drafts",
        ),
        "PlanStepDraft": "mplp_models._drafts",
        **dict.fromkeys(("AnthropicTool", "OpenAIJsonSchema", "OpenAIResponseFormat"), "mplp_models._llm_formats"),
    },
    "mplp_models.store": {
        **dict.fromkeys(
            ("DocumentNotFound", "Store", "StoreError", "StoreIntegrityError", "Version"), "mplp_models._store"
        ),
        "PostgresStore": "mplp_models._store_postgres",
        "SqliteStore": "mplp_models._store_sqlite",
    },
}
MOVED: dict[str, str] = {name: module for module, names in SUBMODULES.items() for name in names}
"""The names that the package's root held before they had a module of their own, and that module.

The root still gives each of them, with a ``DeprecationWarning``; none is in its ``__all__``.
"""


@cache
def model_names() -> frozenset[str]:
    """The public model names, which the command line's ``--kind`` takes and error titles carry (imports every
    model)."""
    import importlib

    from pydantic import BaseModel

    found: set[str] = set()
    for name, location in LOCATIONS.items():
        value = getattr(importlib.import_module(location), name)
        # Every public pydantic class is a model of the SDK's, but their base (MplpModel).
        if isinstance(value, type) and issubclass(value, BaseModel) and value.__name__ != "MplpModel":
            found.add(name)
    return frozenset(found)


# The module that defines each published class (its __module__ before publish).
_DEFINED_IN: dict[type, str] = {}


def publish(module: str) -> None:
    """Shows each public class that ``module`` defines under the public module that gives it (``mplp_models.Plan``).

    Called at the end of the defining module. The class's ``__module__`` then names the
    module users import it from, which is what reprs, tracebacks, ``help()`` and
    new pickles show. Before that, the class's own annotations (postponed, so
    strings) are evaluated in the namespace of the module that wrote them: a
    string would be looked up in ``sys.modules[cls.__module__]`` by
    ``typing.get_type_hints``, ``model_rebuild`` and pydantic's build of a
    subclass, and the package's namespace does not hold the names they use.
    A pickle made under the defining module's path still loads: that module
    stays where it is.
    """
    namespace = vars(sys.modules[module])
    for name, home in _homes().get(module, ()):
        value = namespace.get(name)
        if isinstance(value, type) and value.__module__ == module:
            _evaluate_annotations(value, namespace)
            _DEFINED_IN[value] = module
            value.__module__ = home


def defined_in(cls: type) -> str:
    """The name of the module whose code defines ``cls`` (its ``__module__``, for a class not published)."""
    return _DEFINED_IN.get(cls, cls.__module__)


def is_generated(cls: type) -> bool:
    """Whether ``cls`` is defined by a generated module (written by the codegen), published or not."""
    return defined_in(cls).startswith(GENERATED)


def generated_kind(value: object, names: typing.Container[str]) -> str | None:
    """The name, among ``names``, of the generated class that ``value``'s class is or subclasses; else None.

    A subclass of a model counts as its model; a class of the same name that is no generated one does not.
    """
    for cls in type(value).__mro__:
        if cls.__name__ in names and is_generated(cls):
            return cls.__name__
    return None


@cache
def _homes() -> dict[str, tuple[tuple[str, str], ...]]:
    """Each defining module's public names, each with the public module it is shown in."""
    found: dict[str, list[tuple[str, str]]] = {}
    for name, location in LOCATIONS.items():
        found.setdefault(location, []).append((name, PACKAGE))
    for home, names in (*SUBMODULES.items(), *SHOWN_IN.items()):
        for name, location in names.items():
            found.setdefault(location, []).append((name, home))
    return {location: tuple(pairs) for location, pairs in found.items()}


def _evaluate_annotations(cls: type, namespace: dict[str, typing.Any]) -> None:
    """Replaces the class's own annotations that are strings by what they name in ``namespace``."""
    own = inspect.get_annotations(cls)
    if not any(isinstance(value, str) for value in own.values()):
        return
    # A class of its own holds the annotations, so that only this class's are evaluated (a base's
    # may name what only its type checker sees); names are looked up as typing looks them up.
    holder = type(cls.__name__, (), {"__annotations__": own})
    type.__setattr__(cls, "__annotations__", typing.get_type_hints(holder, namespace, include_extras=True))
