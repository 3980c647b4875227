"""The ``Literal`` type of each enum's values: ``PlanStatusValue`` is ``Literal["draft", "proposed", ...]``.

A field of an enum type takes the member or its value (``status="draft"`` or
``status=mm.PlanStatus.draft``); annotate a value of your own with these, and
your type checker takes the values and refuses a typo:

    from mplp_models.literals import PlanStepStatusValue

    def mark(status: PlanStepStatusValue) -> None: ...

Each is defined beside its enum, in the values' declared order. As the package's
root, this module imports nothing until a name is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mplp_models import _public

if TYPE_CHECKING:
    from mplp_models._generated.cortex.v1.code_mode.inbox_message_schema import (
        CodeInboxMessageStatusValue,
        CodeInboxMessageTypeValue,
    )
    from mplp_models._generated.cortex.v1.inbox_schema import (
        InboxMessageStatusValue,
        InboxMessageTypeValue,
    )
    from mplp_models._generated.mplp.v1_0.common.common_types_schema import RefModuleValue
    from mplp_models._generated.mplp.v1_0.common.learning_sample_schema import FeedbackDecisionValue
    from mplp_models._generated.mplp.v1_0.common.metadata_schema import CrossCuttingConcernValue
    from mplp_models._generated.mplp.v1_0.events.mplp_event_core_schema import EventFamilyValue
    from mplp_models._generated.mplp.v1_0.events.mplp_graph_update_event_schema import GraphUpdateKindValue
    from mplp_models._generated.mplp.v1_0.events.mplp_map_event_schema import MAPEventTypeValue
    from mplp_models._generated.mplp.v1_0.events.mplp_pipeline_stage_event_schema import PipelineStageStatusValue
    from mplp_models._generated.mplp.v1_0.events.mplp_runtime_execution_event_schema import (
        ExecutorKindValue,
        RuntimeExecutionStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.events.mplp_sa_event_schema import SAEventTypeValue
    from mplp_models._generated.mplp.v1_0.integration.mplp_ci_event_schema import (
        CIStageStatusValue,
        CIStatusValue,
        CITriggerKindValue,
    )
    from mplp_models._generated.mplp.v1_0.integration.mplp_file_update_event_schema import FileChangeTypeValue
    from mplp_models._generated.mplp.v1_0.integration.mplp_git_event_schema import GitEventKindValue
    from mplp_models._generated.mplp.v1_0.integration.mplp_tool_event_schema import (
        ToolKindValue,
        ToolStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.learning.mplp_learning_sample_core_schema import HumanFeedbackLabelValue
    from mplp_models._generated.mplp.v1_0.learning.mplp_learning_sample_delta_schema import (
        DeltaImpactFeedbackLabelValue,
        DeltaTypeValue,
        ImpactPredictionAccuracyValue,
        ImpactScopeValue,
        RiskLevelValue,
    )
    from mplp_models._generated.mplp.v1_0.learning.mplp_learning_sample_intent_schema import (
        IntentResolutionFeedbackLabelValue,
        ResolutionQualityLabelValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_collab_schema import (
        CollabModeValue,
        CollabParticipantKindValue,
        CollabStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_confirm_schema import (
        ConfirmDecisionStatusValue,
        ConfirmStatusValue,
        ConfirmTargetTypeValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_context_schema import ContextStatusValue
    from mplp_models._generated.mplp.v1_0.mplp_core_schema import (
        CoreStatusValue,
        ModuleDescriptorStatusValue,
        ModuleIdValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_dialog_schema import (
        DialogMessageRoleValue,
        DialogStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_extension_schema import (
        ExtensionStatusValue,
        ExtensionTypeValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_network_schema import (
        NetworkNodeKindValue,
        NetworkNodeStatusValue,
        NetworkStatusValue,
        NetworkTopologyTypeValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_plan_schema import (
        PlanStatusValue,
        PlanStepStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_trace_schema import (
        TraceSegmentStatusValue,
        TraceStatusValue,
    )

__all__ = [
    "CIStageStatusValue",
    "CIStatusValue",
    "CITriggerKindValue",
    "CodeInboxMessageStatusValue",
    "CodeInboxMessageTypeValue",
    "CollabModeValue",
    "CollabParticipantKindValue",
    "CollabStatusValue",
    "ConfirmDecisionStatusValue",
    "ConfirmStatusValue",
    "ConfirmTargetTypeValue",
    "ContextStatusValue",
    "CoreStatusValue",
    "CrossCuttingConcernValue",
    "DeltaImpactFeedbackLabelValue",
    "DeltaTypeValue",
    "DialogMessageRoleValue",
    "DialogStatusValue",
    "EventFamilyValue",
    "ExecutorKindValue",
    "ExtensionStatusValue",
    "ExtensionTypeValue",
    "FeedbackDecisionValue",
    "FileChangeTypeValue",
    "GitEventKindValue",
    "GraphUpdateKindValue",
    "HumanFeedbackLabelValue",
    "ImpactPredictionAccuracyValue",
    "ImpactScopeValue",
    "InboxMessageStatusValue",
    "InboxMessageTypeValue",
    "IntentResolutionFeedbackLabelValue",
    "MAPEventTypeValue",
    "ModuleDescriptorStatusValue",
    "ModuleIdValue",
    "NetworkNodeKindValue",
    "NetworkNodeStatusValue",
    "NetworkStatusValue",
    "NetworkTopologyTypeValue",
    "PipelineStageStatusValue",
    "PlanStatusValue",
    "PlanStepStatusValue",
    "RefModuleValue",
    "ResolutionQualityLabelValue",
    "RiskLevelValue",
    "RuntimeExecutionStatusValue",
    "SAEventTypeValue",
    "ToolKindValue",
    "ToolStatusValue",
    "TraceSegmentStatusValue",
    "TraceStatusValue",
]

if not TYPE_CHECKING:  # type checkers see the imports above

    def __getattr__(name: str) -> Any:
        location = _public.LITERALS.get(name)
        if location is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(location), name)
        globals()[name] = value  # the next lookup is a plain module attribute
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
