"""Rules and lifecycles of the Confirm, Collab, Core, Network and Extension modules.

Upstream defines no moves between the states of these modules: the tables
below let any state move to any other, but out of the states whose names say
that they end the object (a cancelled confirm, a retired network...).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, get_args

from typing_extensions import Self, TypedDict, Unpack

from mplp_models._edits import edited_member, in_order, of_kind
from mplp_models._errors import EditError, UnknownPartError, validated_copy, validated_new
from mplp_models._formats import Timestamp
from mplp_models._ids import new_id, new_meta
from mplp_models._kinds import kind_named
from mplp_models._public import generated_kind
from mplp_models._rules import RuledModel, RuleViolation, duplicate_ids, permissive_moves
from mplp_models._timestamp_order import as_compared, is_before, none_before

if TYPE_CHECKING:
    from mplp_models._base import MplpModel
    from mplp_models._generated.mplp.v1_0.mplp_collab_schema import (
        CollabMode,
        CollabModeValue,
        CollabParticipant,
        CollabParticipantKind,
        CollabParticipantKindValue,
        CollabStatus,
        CollabStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_confirm_schema import (
        ConfirmDecision,
        ConfirmDecisionStatus,
        ConfirmDecisionStatusValue,
        ConfirmStatus,
        ConfirmStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_context_schema import Context
    from mplp_models._generated.mplp.v1_0.mplp_core_schema import (
        CoreStatus,
        CoreStatusValue,
        ModuleDescriptor,
        ModuleDescriptorStatus,
        ModuleDescriptorStatusValue,
        ModuleId,
        ModuleIdValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_extension_schema import Extension, ExtensionStatus, ExtensionStatusValue
    from mplp_models._generated.mplp.v1_0.mplp_network_schema import (
        NetworkNode,
        NetworkNodeKind,
        NetworkNodeKindValue,
        NetworkNodeStatus,
        NetworkNodeStatusValue,
        NetworkStatus,
        NetworkStatusValue,
    )
    from mplp_models._generated.mplp.v1_0.mplp_plan_schema import Plan
    from mplp_models._generated.mplp.v1_0.mplp_trace_schema import Trace

__all__ = [
    "COLLAB_MOVES",
    "CONFIRM_MOVES",
    "CORE_MOVES",
    "EXTENSION_MOVES",
    "NETWORK_MOVES",
    "CollabBehaviour",
    "ConfirmBehaviour",
    "CoreBehaviour",
    "ExtensionBehaviour",
    "ModuleChanges",
    "NetworkBehaviour",
    "NodeChanges",
    "ParticipantChanges",
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
    """A module model whose ``transition`` (typed by each model with its own statuses) checks the move in its table."""

    if TYPE_CHECKING:
        status: Any

    def _moved(self, to: object) -> Self:
        return validated_copy(self, {"status": self._check_move(to)})


class ParticipantChanges(TypedDict, total=False):
    """The fields ``Collab.update_participant`` may change (``None`` unsets an optional one)."""

    participant_id: str
    role_id: str | None
    kind: CollabParticipantKind | CollabParticipantKindValue
    display_name: str | None


class ModuleChanges(TypedDict, total=False):
    """The fields ``Core.update_module`` may change (``None`` unsets an optional one)."""

    version: str
    status: ModuleDescriptorStatus | ModuleDescriptorStatusValue
    required: bool | None
    description: str | None


class NodeChanges(TypedDict, total=False):
    """The fields ``Network.update_node`` may change (``None`` unsets an optional one)."""

    node_id: str
    name: str | None
    kind: NetworkNodeKind | NetworkNodeKindValue
    role_id: str | None
    status: NetworkNodeStatus | NetworkNodeStatusValue


_Item = TypeVar("_Item", bound="MplpModel")
_Owner = TypeVar("_Owner", bound=RuledModel)


def _position(items: Sequence[_Item], key: Callable[[_Item], str], wanted: str, code: str, what: str) -> int:
    """Where the first item whose key is ``wanted`` is; an ``UnknownPartError`` (``code``) naming it if none is."""
    for position, item in enumerate(items):
        if key(item) == wanted:
            return position
    raise UnknownPartError(code, f"{what} {wanted!r}", f"/{code.removeprefix('unknown_')}s")


def _updated(owner: _Owner, field: str, position: int, changes: Mapping[str, Any]) -> _Owner:
    """``owner`` with the member at ``position`` of its array ``field`` changed as ``changes`` say, validated.

    A member that its own schema refuses is refused again as part of ``owner``, so that the
    ``EditError`` is located in it (``/participants/2/kind``).
    """
    return edited_member(owner, field, getattr(owner, field) or (), position, changes)


def _without(owner: _Owner, field: str, position: int, noun: str, needs_one: bool) -> _Owner:
    """``owner`` without the member at ``position`` of ``field``; ``too_short`` for the last one where ``needs_one``."""
    items: tuple[Any, ...] = getattr(owner, field) or ()
    if needs_one and len(items) == 1:
        kind = type(owner).__name__.lower()
        raise EditError("too_short", f"{noun} is the {kind}'s only one, and a {kind} needs one", f"/{field}")
    return validated_copy(owner, {field: (*items[:position], *items[position + 1 :])})


# The kinds a confirm's target_type names (its "other" is for targets that are no MPLP document).
_CONFIRMABLE = ("Plan", "Context", "Trace", "Extension")


class ConfirmBehaviour(_Moving, frozen=True):
    """Behaviour of ``Confirm``: unique decision ids, no decision before the request; its lifecycle; decisions.

    The confirm's status and its decisions' are not tied: upstream's data has a
    pending confirm holding an approved decision, and an approved one with none.
    """

    _moves: ClassVar[Mapping[str, Sequence[str]]] = CONFIRM_MOVES

    if TYPE_CHECKING:
        status: ConfirmStatus
        requested_at: Timestamp
        decisions: tuple[ConfirmDecision, ...] | None

    @classmethod
    def new(
        cls,
        target: Plan | Context | Trace | Extension,
        *,
        requested_by_role: str,
        reason: str | None = None,
        at: str | None = None,
    ) -> Self:
        """A pending confirm of ``target``: ``target_type`` its kind, ``target_id`` its id; a fresh ``confirm_id``,
        requested now.

        Args:
            target: What is to be approved: a plan, a context, a trace or an extension, or an
                instance of a subclass of one (a ``TypeError`` for another object).
            requested_by_role: The id of the role that asks.
            reason: Why it is asked; default none.
            at: When (an RFC 3339 timestamp: ``requested_at`` and ``meta.created_at``); default now.

        Raises:
            TypeError: If ``target`` is not a plan, context, trace or extension.
            EditError: If a value breaks the schema (an empty ``requested_by_role``, ``at`` no timestamp).
        """
        name = generated_kind(target, _CONFIRMABLE)
        if name is None:
            raise TypeError(
                f"a confirm's target is a Plan, Context, Trace or Extension, not {type(target).__qualname__}"
            )
        kind = kind_named(name)
        now = str(Timestamp.now()) if at is None else at
        data: dict[str, Any] = {
            "meta": new_meta(now),
            "confirm_id": new_id(),
            "target_type": kind.slug,
            "target_id": getattr(target, kind.id_field),
            "status": "pending",
            "requested_by_role": requested_by_role,
            "requested_at": now,
        }
        if reason is not None:
            data["reason"] = reason
        return validated_new(cls, data)

    @classmethod
    def request(
        cls,
        target: Plan | Context | Trace | Extension,
        *,
        requested_by_role: str,
        reason: str | None = None,
        at: str | None = None,
    ) -> Self:
        """``Confirm.new``, under the name it had first: a pending confirm of ``target``."""
        return cls.new(target, requested_by_role=requested_by_role, reason=reason, at=at)

    def transition(self, to: ConfirmStatus | ConfirmStatusValue) -> Self:
        """The confirm moved to status ``to`` (a member or its value): a new confirm.

        An ``EditError`` (``illegal_move``) names both states if the move is not legal (the tables: docs/rules.md).
        """
        return self._moved(to)

    def decide(
        self,
        status: ConfirmDecisionStatus | ConfirmDecisionStatusValue,
        *,
        by_role: str,
        reason: str | None = None,
        at: str | None = None,
    ) -> Self:
        """The confirm decided: one more decision, and the confirm's status moved to the decision's.

        The decision has a fresh id (``new_id()``). A decision that the confirm's
        status already reads (a second approval) leaves the status as it is.

        Args:
            status: The decision: approved, rejected or cancelled.
            by_role: The id of the role that decides.
            reason: Why, for humans and agents; default none.
            at: When (an RFC 3339 timestamp); default now.

        Returns:
            A new confirm; this one is unchanged.

        Raises:
            EditError: If the confirm is cancelled (``illegal_move``: final, it takes no more decisions),
                ``status`` is not a decision (``unknown_decision``), or the confirm breaks the schema or
                a rule (``decided_before_request``: ``at`` before ``requested_at``).
        """
        if not self._moves[self.status.value]:
            raise EditError(
                "illegal_move", f"Confirm is {self.status.value}, which is final: it takes no more decisions", "/status"
            )
        value = _decision_status(type(self), status)
        target = self.status if value == self.status.value else self._check_move(value)
        decision: dict[str, Any] = {
            "decision_id": new_id(),
            "status": value,
            "decided_by_role": by_role,
            "decided_at": Timestamp.now() if at is None else at,
        }
        if reason is not None:
            decision["reason"] = reason
        return validated_copy(self, {"status": target, "decisions": (*(self.decisions or ()), decision)})

    def _violations(self) -> Iterator[RuleViolation]:
        decisions = self.decisions or ()
        yield from duplicate_ids(
            [decision.decision_id for decision in decisions], "decisions", "decision_id", "decision"
        )
        if none_before([decision.decided_at for decision in decisions], self.requested_at):
            return  # the common case, in one pass (none_before); else each one before is named
        for position, decision in enumerate(decisions):
            if is_before(decision.decided_at, self.requested_at):
                at, requested = as_compared(decision.decided_at, self.requested_at)
                yield RuleViolation(
                    ("decisions", position, "decided_at"),
                    "decided_before_request",
                    f"decision {decision.decision_id} at {at} is before requested_at {requested}",
                )


def _participant_id(participant: CollabParticipant) -> str:
    return participant.participant_id


class CollabBehaviour(_Moving, frozen=True):
    """Behaviour of ``Collab``: unique participant ids; its lifecycle; participants added, changed, removed."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = COLLAB_MOVES

    if TYPE_CHECKING:
        status: CollabStatus
        participants: tuple[CollabParticipant, ...]

    @classmethod
    def new(
        cls,
        context: Context,
        *,
        title: str,
        purpose: str,
        mode: CollabMode | CollabModeValue,
        participants: list[CollabParticipant] | tuple[CollabParticipant, ...],
        status: CollabStatus | CollabStatusValue = "active",
        at: str | None = None,
    ) -> Self:
        """A collaboration in ``context``: a fresh ``collab_id``, ``context_id`` naming the context, made now.

        Args:
            context: The session's context.
            title: The collaboration's title.
            purpose: What it is for.
            mode: How its participants take turns: broadcast, round_robin, orchestrated, swarm or pair.
            participants: At least one; the MAP profile asks each for a ``role_id``.
            status: Default active.
            at: When it was made (an RFC 3339 timestamp: ``created_at`` and ``meta.created_at``); default now.

        Raises:
            TypeError: If ``context`` is not a ``Context``, or ``participants`` is a set (which has no
                order) or a string.
            EditError: If a value breaks the schema (no participant: ``too_short``) or a rule
                (``duplicate_participant_id``).
        """
        of_kind(context, "Context", "Collab.new's context")
        now = str(Timestamp.now()) if at is None else at
        data: dict[str, Any] = {
            "meta": new_meta(now),
            "collab_id": new_id(),
            "context_id": context.context_id,
            "title": title,
            "purpose": purpose,
            "mode": getattr(mode, "value", mode),
            "status": getattr(status, "value", status),
            "participants": in_order(participants, "participants", "participants"),
            "created_at": now,
        }
        return validated_new(cls, data)

    def transition(self, to: CollabStatus | CollabStatusValue) -> Self:
        """The collab moved to status ``to`` (a member or its value): a new collab.

        An ``EditError`` (``illegal_move``) names both states if the move is not legal (the tables: docs/rules.md).
        """
        return self._moved(to)

    def participant(self, participant_id: str, /) -> CollabParticipant:
        """The participant with that id (the first, if several have it).

        Raises:
            UnknownPartError: If none has it (``unknown_participant``; a ``KeyError`` too).
        """
        return self.participants[self._participant_position(participant_id)]

    def add_participant(self, participant: CollabParticipant, /) -> Self:
        """The collab with ``participant`` appended (a new collab; an ``EditError`` if its id is taken)."""
        return validated_copy(self, {"participants": (*self.participants, participant)})

    def update_participant(self, participant_id: str, /, **changes: Unpack[ParticipantChanges]) -> Self:
        """The collab with the participant of that id changed as ``changes`` say (``None`` unsets an optional field).

        Raises:
            UnknownPartError: If no participant has that id (``unknown_participant``).
            EditError: If the participant or the collab breaks the schema or a rule
                (``duplicate_participant_id``: a new ``participant_id`` another participant has).
        """
        return _updated(self, "participants", self._participant_position(participant_id), changes)

    def remove_participant(self, participant_id: str, /) -> Self:
        """The collab without the participant of that id (the first, if several have it).

        Raises:
            UnknownPartError: If no participant has that id (``unknown_participant``).
            EditError: If it is the only one (``too_short``): a collab has at least one participant.
        """
        position = self._participant_position(participant_id)
        return _without(self, "participants", position, f"participant {participant_id!r}", needs_one=True)

    def _participant_position(self, participant_id: str) -> int:
        return _position(
            self.participants, _participant_id, participant_id, "unknown_participant", "the collab has no participant"
        )

    def _violations(self) -> Iterator[RuleViolation]:
        ids = [participant.participant_id for participant in self.participants]
        return duplicate_ids(ids, "participants", "participant_id", "participant")


def _module_id(module: ModuleDescriptor) -> str:
    return module.module_id.value


class CoreBehaviour(_Moving, frozen=True):
    """Behaviour of ``Core``: each module described once; its lifecycle; module descriptors added, changed, removed."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = CORE_MOVES

    if TYPE_CHECKING:
        status: CoreStatus
        modules: tuple[ModuleDescriptor, ...]

    def transition(self, to: CoreStatus | CoreStatusValue) -> Self:
        """The core moved to status ``to`` (a member or its value): a new core.

        An ``EditError`` (``illegal_move``) names both states if the move is not legal (the tables: docs/rules.md).
        """
        return self._moved(to)

    def module(self, module_id: ModuleId | ModuleIdValue, /) -> ModuleDescriptor:
        """The descriptor of that module.

        Raises:
            UnknownPartError: If the core has none (``unknown_module``; a ``KeyError`` too).
        """
        return self.modules[self._module_position(module_id)]

    def add_module(self, module: ModuleDescriptor, /) -> Self:
        """The core with ``module`` appended (a new core; an ``EditError`` if that module is described already)."""
        return validated_copy(self, {"modules": (*self.modules, module)})

    def update_module(self, module_id: ModuleId | ModuleIdValue, /, **changes: Unpack[ModuleChanges]) -> Self:
        """The core with that module's descriptor changed as ``changes`` say (``None`` unsets an optional field).

        Raises:
            UnknownPartError: If the core describes no such module (``unknown_module``).
            EditError: If the descriptor breaks the schema (``string_too_short``: an empty ``version``).
        """
        return _updated(self, "modules", self._module_position(module_id), changes)

    def remove_module(self, module_id: ModuleId | ModuleIdValue, /) -> Self:
        """The core without that module's descriptor.

        Raises:
            UnknownPartError: If the core describes no such module (``unknown_module``).
            EditError: If it is the only one (``too_short``): a core describes at least one module.
        """
        position = self._module_position(module_id)
        noun = f"module {self.modules[position].module_id.value!r}"
        return _without(self, "modules", position, noun, needs_one=True)

    def _module_position(self, module_id: object) -> int:
        wanted = module_id.value if isinstance(module_id, enum.Enum) else module_id
        return _position(self.modules, _module_id, str(wanted), "unknown_module", "the core describes no module")

    def _violations(self) -> Iterator[RuleViolation]:
        # str() of a StatusEnum member is its value, without the enum's `value` property (a Python call each).
        return duplicate_ids([str(module.module_id) for module in self.modules], "modules", "module_id", "module")


def _node_id(node: NetworkNode) -> str:
    return node.node_id


class NetworkBehaviour(_Moving, frozen=True):
    """Behaviour of ``Network``: unique node ids; its lifecycle; nodes added, changed, removed."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = NETWORK_MOVES

    if TYPE_CHECKING:
        status: NetworkStatus
        nodes: tuple[NetworkNode, ...] | None

    def transition(self, to: NetworkStatus | NetworkStatusValue) -> Self:
        """The network moved to status ``to`` (a member or its value): a new network.

        An ``EditError`` (``illegal_move``) names both states if the move is not legal (the tables: docs/rules.md).
        """
        return self._moved(to)

    def node(self, node_id: str, /) -> NetworkNode:
        """The node with that id (the first, if several have it).

        Raises:
            UnknownPartError: If none has it (``unknown_node``; a ``KeyError`` too).
        """
        return self._nodes[self._node_position(node_id)]

    def add_node(self, node: NetworkNode, /) -> Self:
        """The network with ``node`` appended (a new network; an ``EditError`` if its id is taken)."""
        return validated_copy(self, {"nodes": (*self._nodes, node)})

    def update_node(self, node_id: str, /, **changes: Unpack[NodeChanges]) -> Self:
        """The network with the node of that id changed as ``changes`` say (``None`` unsets an optional field).

        Raises:
            UnknownPartError: If no node has that id (``unknown_node``).
            EditError: If the node or the network breaks the schema or a rule
                (``duplicate_node_id``: a new ``node_id`` another node has).
        """
        return _updated(self, "nodes", self._node_position(node_id), changes)

    def remove_node(self, node_id: str, /) -> Self:
        """The network without the node of that id (the first, if several have it); the last one leaves ``nodes`` empty.

        Raises:
            UnknownPartError: If no node has that id (``unknown_node``).
        """
        return _without(self, "nodes", self._node_position(node_id), f"node {node_id!r}", needs_one=False)

    @property
    def _nodes(self) -> tuple[NetworkNode, ...]:
        return self.nodes or ()

    def _node_position(self, node_id: str) -> int:
        return _position(self._nodes, _node_id, node_id, "unknown_node", "the network has no node")

    def _violations(self) -> Iterator[RuleViolation]:
        return duplicate_ids([node.node_id for node in self._nodes], "nodes", "node_id", "node")


class ExtensionBehaviour(_Moving, frozen=True):
    """Behaviour of ``Extension``: its lifecycle (no rules beyond the schema)."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = EXTENSION_MOVES

    if TYPE_CHECKING:
        status: ExtensionStatus

    def transition(self, to: ExtensionStatus | ExtensionStatusValue) -> Self:
        """The extension moved to status ``to`` (a member or its value): a new extension.

        An ``EditError`` (``illegal_move``) names both states if the move is not legal (the tables: docs/rules.md).
        """
        return self._moved(to)


def _decision_status(confirm_class: type[Any], status: object) -> str:
    """``status`` as the value of a decision's status; an ``EditError`` naming the decisions if it is none."""
    (decisions, _) = get_args(confirm_class.model_fields["decisions"].annotation)  # tuple[ConfirmDecision, ...] | None
    (decision_class, _) = get_args(decisions)
    kind: type[enum.Enum] = decision_class.model_fields["status"].annotation
    value = status.value if isinstance(status, enum.Enum) else status
    if value not in kind._value2member_map_:
        names = ", ".join(str(member.value) for member in kind)
        raise EditError("unknown_decision", f"{status!r} is not a decision (decisions: {names})", "/decisions")
    return str(value)
