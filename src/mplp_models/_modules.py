"""Rules and lifecycles of the Confirm, Collab, Core, Network and Extension modules.

Upstream defines no moves between the states of these modules: the tables
below let any state move to any other, but out of the states whose names say
that they end the object (a cancelled confirm, a retired network...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from typing_extensions import Self

from mplp_models._semantic import RuledModel, RuleViolation, duplicate_ids, permissive_moves
from mplp_models._types import StatusEnum, is_before

if TYPE_CHECKING:
    from mplp_models._generated.mplp.v1_0.mplp_collab_schema import CollabParticipant
    from mplp_models._generated.mplp.v1_0.mplp_confirm_schema import ConfirmDecision
    from mplp_models._generated.mplp.v1_0.mplp_core_schema import ModuleDescriptor
    from mplp_models._generated.mplp.v1_0.mplp_network_schema import NetworkNode
    from mplp_models._types import Timestamp

__all__ = [
    "COLLAB_MOVES",
    "CONFIRM_MOVES",
    "CORE_MOVES",
    "EXTENSION_MOVES",
    "NETWORK_MOVES",
    "CollabModuleBase",
    "ConfirmModuleBase",
    "CoreModuleBase",
    "ExtensionModuleBase",
    "NetworkModuleBase",
]

# A confirm may be decided again (upstream's own data has an approved confirm whose
# decisions read rejected, then approved): only cancelled is final.
CONFIRM_MOVES = permissive_moves(("pending", "approved", "rejected", "cancelled"), final=("cancelled",))
COLLAB_MOVES = permissive_moves(
    ("draft", "active", "suspended", "completed", "cancelled"), final=("completed", "cancelled")
)
CORE_MOVES = permissive_moves(("draft", "active", "deprecated", "archived"), final=("archived",))
NETWORK_MOVES = permissive_moves(
    ("draft", "provisioning", "active", "degraded", "maintenance", "retired"), final=("retired",)
)
# A deprecated extension may be taken back into use: no state is final.
EXTENSION_MOVES = permissive_moves(("registered", "active", "inactive", "deprecated"), final=())


class _Moving(RuledModel, frozen=True):
    if TYPE_CHECKING:
        status: Any

    def transition(self, to: StatusEnum | str) -> Self:
        """The object moved to status ``to`` (a member of its status enum, or its text): a new object.

        A ``ValueError`` names both states if the move is not legal (the tables: docs/rules.md).
        """
        return self.model_copy(update={"status": self._check_move(to)})


class ConfirmModuleBase(_Moving, frozen=True):
    """Behaviour of ``Confirm``: unique decision ids, no decision before the request; its lifecycle.

    The confirm's status and its decisions' are not tied: upstream's data has a
    pending confirm holding an approved decision, and an approved one with none.
    """

    _moves: ClassVar[Mapping[str, Sequence[str]]] = CONFIRM_MOVES

    if TYPE_CHECKING:
        requested_at: Timestamp
        decisions: tuple[ConfirmDecision, ...] | None

    def _violations(self) -> list[RuleViolation]:
        decisions = self.decisions or ()
        found = duplicate_ids([decision.decision_id for decision in decisions], "decisions", "decision_id", "decision")
        for position, decision in enumerate(decisions):
            if is_before(decision.decided_at, self.requested_at):
                found.append(
                    RuleViolation(
                        ("decisions", position, "decided_at"),
                        "decided_before_request",
                        f"decision {decision.decision_id} at {decision.decided_at} is before requested_at {self.requested_at}",
                    )
                )
        return found


class CollabModuleBase(_Moving, frozen=True):
    """Behaviour of ``Collab``: unique participant ids; its lifecycle."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = COLLAB_MOVES

    if TYPE_CHECKING:
        participants: tuple[CollabParticipant, ...]

    def _violations(self) -> list[RuleViolation]:
        ids = [participant.participant_id for participant in self.participants]
        return duplicate_ids(ids, "participants", "participant_id", "participant")


class CoreModuleBase(_Moving, frozen=True):
    """Behaviour of ``Core``: each module described once; its lifecycle."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = CORE_MOVES

    if TYPE_CHECKING:
        modules: tuple[ModuleDescriptor, ...]

    def _violations(self) -> list[RuleViolation]:
        return duplicate_ids([module.module_id.value for module in self.modules], "modules", "module_id", "module")


class NetworkModuleBase(_Moving, frozen=True):
    """Behaviour of ``Network``: unique node ids; its lifecycle."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = NETWORK_MOVES

    if TYPE_CHECKING:
        nodes: tuple[NetworkNode, ...] | None

    def _violations(self) -> list[RuleViolation]:
        return duplicate_ids([node.node_id for node in self.nodes or ()], "nodes", "node_id", "node")


class ExtensionModuleBase(_Moving, frozen=True):
    """Behaviour of ``Extension``: its lifecycle (no rules beyond the schema)."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = EXTENSION_MOVES
