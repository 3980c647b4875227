"""The registry of payload kinds: every top-level model, its schema file, its id field and its names.

One place for these facts: ``parse`` tells the kinds listed here apart, the
command line validates, prints the schemas of and makes skeletons of them,
``mplp_models.testing`` and the tests take their list from here. Adding an MPLP
module is its schema (and codegen names), its entry in ``MPLP_MODULES`` and its rules.

Light on purpose, like ``_cli.skeletons``: the command line reads it at start-up,
before any model is needed; ``Kind.model`` imports the class on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mplp_models._base import MplpModel

__all__ = ["KINDS", "MPLP_MODULES", "PART_ID_FIELDS", "SCHEMA_ONLY_FILES", "Kind", "kind_named"]


@dataclass(frozen=True)
class Kind:
    """One top-level payload kind."""

    name: str  # the model class, exported by mplp_models
    schema: str  # its frozen schema file, under schemas/
    id_field: str  # the field whose value names a document of the kind
    slug: str  # lowercase name: examples/payloads/<slug>.json in the repository
    new: str | None  # the KIND of `mplp-models new`, if it makes skeletons of this kind

    @property
    def schema_id(self) -> str:
        """The ``$id`` of the schema file, read from the file itself; for a file without one, its ``file:`` URI."""
        from mplp_models._schemas import schema_id

        return schema_id(self.name)

    @property
    def model(self) -> type[MplpModel]:
        """The model class (imported on first use)."""
        import mplp_models

        model: type[MplpModel] = getattr(mplp_models, self.name)
        return model


MPLP_MODULES = ("Plan", "Dialog", "Context", "Confirm", "Trace", "Role", "Extension", "Collab", "Core", "Network")
"""The ten MPLP v1.0 modules: model ``X`` is read from ``mplp/v1.0/mplp-x.schema.json`` and named by ``x_id``."""


def _module(name: str) -> Kind:
    slug = name.lower()
    return Kind(name, f"mplp/v1.0/mplp-{slug}.schema.json", f"{slug}_id", slug, slug)


KINDS: tuple[Kind, ...] = (
    *map(_module, MPLP_MODULES),
    Kind("InboxMessage", "cortex/v1/inbox.schema.json", "message_id", "inbox", "inbox"),
    Kind("CodeInboxMessage", "cortex/v1/code-mode/inbox-message.schema.json", "message_id", "code-inbox", None),
    Kind("LearningSample", "mplp/v1.0/common/learning-sample.schema.json", "sample_id", "learning-sample", "sample"),
    Kind("Event", "mplp/v1.0/common/events.schema.json", "event_id", "event", None),
    Kind("TraceBase", "mplp/v1.0/common/trace-base.schema.json", "span_id", "trace-base", None),
)
"""Every top-level payload kind, in the order ``parse`` and the command line list them."""

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
