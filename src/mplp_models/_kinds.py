"""The registry of payload kinds: every top-level model, its schema file, its id field and its names.

One place for these facts: ``parse`` tells the kinds listed here apart, the
command line validates, prints the schemas of and makes skeletons of them,
``mplp_models.testing`` and the tests take their list from here. Adding an MPLP
module is its schema (and codegen names), its entry in ``MPLP_MODULES`` and its rules.

Light on purpose, like ``_cli.skeletons``: the command line reads it at start-up,
before any model is needed; ``Kind.model`` imports the class on first use.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mplp_models import _public  # the lowest module: the table of public names

if TYPE_CHECKING:
    from mplp_models._base import MplpModel

__all__ = ["DISCRIMINATORS", "KINDS", "MPLP_MODULES", "PART_ID_FIELDS", "SCHEMA_ONLY_FILES", "Kind", "kind_named"]


@dataclass(frozen=True)
class Kind:
    """One top-level payload kind."""

    name: str  # the model class, exported by mplp_models
    schema: str  # its frozen schema file, under schemas/
    id_field: str  # the field whose value names a document of the kind
    slug: str  # lowercase name: examples/payloads/<slug>.json in the repository
    new: str | None  # the KIND of `mplp-models new`, if it makes skeletons of this kind

    @property
    def model(self) -> type[MplpModel]:
        """The model class (its module imported on first use, through the table of public names)."""
        model: type[MplpModel] = getattr(importlib.import_module(_public.LOCATIONS[self.name]), self.name)
        return model


MPLP_MODULES = ("Plan", "Dialog", "Context", "Confirm", "Trace", "Role", "Extension", "Collab", "Core", "Network")
"""The ten MPLP v1.0 modules: model ``X`` is read from ``mplp/v1.0/mplp-x.schema.json`` and named by ``x_id``."""


def _module(name: str) -> Kind:
    slug = name.lower()
    return Kind(name, f"mplp/v1.0/mplp-{slug}.schema.json", f"{slug}_id", slug, slug)


_EVENTS = "mplp/v1.0/events/"
_INTEGRATION = "mplp/v1.0/integration/"
_LEARNING = "mplp/v1.0/learning/"


def _family(folder: str, name: str, id_field: str, slug: str, file: str | None = None) -> Kind:
    """An event or learning-sample kind: schema ``mplp-<file>`` in ``folder`` (``file``: default the slug).

    ``mplp-models new`` makes it under its slug.
    """
    return Kind(name, f"{folder}mplp-{file or slug}.schema.json", id_field, slug, slug)


KINDS: tuple[Kind, ...] = (
    *map(_module, MPLP_MODULES),
    Kind("InboxMessage", "cortex/v1/inbox.schema.json", "message_id", "inbox", "inbox"),
    Kind("CodeInboxMessage", "cortex/v1/code-mode/inbox-message.schema.json", "message_id", "code-inbox", None),
    Kind("LearningSample", "mplp/v1.0/common/learning-sample.schema.json", "sample_id", "learning-sample", "sample"),
    Kind("Event", "mplp/v1.0/common/events.schema.json", "event_id", "event", None),
    Kind("TraceBase", "mplp/v1.0/common/trace-base.schema.json", "span_id", "trace-base", None),
    # The event core and its families (event_family tells them apart), the SA and MAP profile events.
    _family(_EVENTS, "EventCore", "event_id", "event-core"),
    _family(_EVENTS, "GraphUpdateEvent", "event_id", "graph-update-event"),
    _family(_EVENTS, "PipelineStageEvent", "event_id", "pipeline-stage-event"),
    _family(_EVENTS, "RuntimeExecutionEvent", "event_id", "runtime-execution-event"),
    _family(_EVENTS, "SAEvent", "event_id", "sa-event"),
    _family(_EVENTS, "MAPEvent", "event_id", "map-event"),
    # The integration events (closed objects; no id field in common: each names its document its own way).
    _family(_INTEGRATION, "CIEvent", "run_id", "ci-event"),
    _family(_INTEGRATION, "FileUpdateEvent", "file_path", "file-update-event"),
    _family(_INTEGRATION, "GitEvent", "commit_id", "git-event"),
    _family(_INTEGRATION, "ToolEvent", "invocation_id", "tool-event"),
    # The learning-sample core and its families (sample_family tells them apart).
    _family(_LEARNING, "LearningSampleCore", "sample_id", "learning-sample-core"),
    _family(_LEARNING, "DeltaImpactSample", "sample_id", "delta-impact-sample", "learning-sample-delta"),
    _family(_LEARNING, "IntentResolutionSample", "sample_id", "intent-resolution-sample", "learning-sample-intent"),
)  # fmt: skip
"""Every top-level payload kind, in the order ``parse`` and the command line list them."""

DISCRIMINATORS: dict[str, tuple[str, dict[str, str]]] = {
    "EventCore": ("event_family", {"graph_update": "GraphUpdateEvent", "pipeline_stage": "PipelineStageEvent",
                                   "runtime_execution": "RuntimeExecutionEvent"}),
    "LearningSampleCore": ("sample_family", {"delta_impact": "DeltaImpactSample",
                                             "intent_resolution": "IntentResolutionSample"}),
}  # fmt: skip
"""The cores whose families are told apart by a discriminator field rather than by their keys.

Core kind -> (the field, {its value -> the family kind whose schema has it as ``const``}). ``parse``
names the family its value names, or else the core (the other nine event families and any other
sample family have no schema of their own), whatever other keys the open objects carry; a document
that the family's schema refuses and the core's accepts (``event_family: "graph_update"`` with no
graph field) is the core's (``_parse``, docs/events.md).
"""

SCHEMA_ONLY_FILES: dict[str, str] = {
    "Metadata": "mplp/v1.0/common/metadata.schema.json",
    "MplpId": "mplp/v1.0/common/identifiers.schema.json",
    "CommonTypes": "mplp/v1.0/common/common-types.schema.json",
}
"""The other schema files: parts that have a file of their own (``CommonTypes`` holds ``Ref`` and ``Governance``)."""

PART_ID_FIELDS: dict[str, str] = {
    "PlanStep": "step_id",
    "ConfirmDecision": "decision_id",
    "TraceSegment": "segment_id",
    "CollabParticipant": "participant_id",
    "ModuleDescriptor": "module_id",
    "NetworkNode": "node_id",
}
"""The parts that a list of their parent holds, and the id field that must be unique in that list."""


def kind_named(name: str) -> Kind:
    """The kind of model ``name``; a ``KeyError`` if it is not a top-level kind."""
    for kind in KINDS:
        if kind.name == name:
            return kind
    raise KeyError(name)
