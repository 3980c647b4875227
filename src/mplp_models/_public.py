"""Where each public name of ``mplp_models`` is defined, and which of them are models.

Below every other module of the package (it imports none at load): the
package's lazy ``__getattr__`` reads the table, and library code that needs the
public names (``check_lines``, the command line) asks here rather than
importing the package from below.
"""

from __future__ import annotations

from functools import cache

__all__ = ["GENERATED", "LOCATIONS", "model_names"]

GENERATED = "mplp_models._generated."
LOCATIONS: dict[str, str] = {
    **dict.fromkeys(("SCHEMA_ONLY", "MplpModel"), "mplp_models._base"),
    **dict.fromkeys(("CanonicalJSONError", "canonical_json"), "mplp_models._canonical"),
    **dict.fromkeys(
        (
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
        ),
        "mplp_models._chat",
    ),
    "CloudEvent": "mplp_models._cloudevents",
    "ConversionError": "mplp_models._conversion",
    **dict.fromkeys(("MAX_DEPTH", "MAX_JSON_DEPTH"), "mplp_models._reader"),  # MAX_DEPTH: the earlier name
    "DialogGovernance": "mplp_models._dialog",  # the shared Governance, under the name it had first
    **dict.fromkeys(("ErrorEntry", "errors_as_json"), "mplp_models._errors"),
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
    "new_id": "mplp_models._ids",
    **dict.fromkeys(("LineVerdict", "check_lines"), "mplp_models._lines"),
    **dict.fromkeys(
        ("MAX_OPEN_DEPTH", "MAX_OPEN_OBJECT_DEPTH", "JsonObject", "Timestamp"), "mplp_models._types"
    ),  # MAX_OPEN_DEPTH: the earlier name
    # The Literal of each enum's values (PlanStepStatusValue), where the enum is.
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
    "DialogMessageRoleValue": GENERATED + "mplp.v1_0.mplp_dialog_schema",
    "DialogStatusValue": GENERATED + "mplp.v1_0.mplp_dialog_schema",
    "ExtensionStatusValue": GENERATED + "mplp.v1_0.mplp_extension_schema",
    "ExtensionTypeValue": GENERATED + "mplp.v1_0.mplp_extension_schema",
    "FeedbackDecisionValue": GENERATED + "mplp.v1_0.common.learning_sample_schema",
    "InboxMessageStatusValue": GENERATED + "cortex.v1.inbox_schema",
    "InboxMessageTypeValue": GENERATED + "cortex.v1.inbox_schema",
    "ModuleDescriptorStatusValue": GENERATED + "mplp.v1_0.mplp_core_schema",
    "ModuleIdValue": GENERATED + "mplp.v1_0.mplp_core_schema",
    "NetworkNodeKindValue": GENERATED + "mplp.v1_0.mplp_network_schema",
    "NetworkNodeStatusValue": GENERATED + "mplp.v1_0.mplp_network_schema",
    "NetworkStatusValue": GENERATED + "mplp.v1_0.mplp_network_schema",
    "NetworkTopologyTypeValue": GENERATED + "mplp.v1_0.mplp_network_schema",
    "PlanStatusValue": GENERATED + "mplp.v1_0.mplp_plan_schema",
    "PlanStepStatusValue": GENERATED + "mplp.v1_0.mplp_plan_schema",
    "RefModuleValue": GENERATED + "mplp.v1_0.common.common_types_schema",
    "TraceSegmentStatusValue": GENERATED + "mplp.v1_0.mplp_trace_schema",
    "TraceStatusValue": GENERATED + "mplp.v1_0.mplp_trace_schema",
}


@cache
def model_names() -> frozenset[str]:
    """The public model names, which the command line's ``--kind`` takes and error titles carry (imports every model)."""
    import importlib

    from pydantic import BaseModel

    found: set[str] = set()
    for name, location in LOCATIONS.items():
        value = getattr(importlib.import_module(location), name)
        # Every public pydantic class is a model of the SDK's, but their base (MplpModel).
        if isinstance(value, type) and issubclass(value, BaseModel) and value.__name__ != "MplpModel":
            found.add(name)
    return frozenset(found)
