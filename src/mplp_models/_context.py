"""Context behaviour: the open ``root`` object, and the Context lifecycle."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import TypeAdapter, model_validator
from typing_extensions import Self

from mplp_models._base import MplpModel
from mplp_models._errors import validated_copy, validated_new
from mplp_models._fast_shapes import own_functions
from mplp_models._formats import Timestamp
from mplp_models._ids import new_id, new_meta
from mplp_models._rules import RuledModel, permissive_moves
from mplp_models._types import JsonObject

if TYPE_CHECKING:
    from mplp_models._generated.mplp.v1_0.mplp_context_schema import ContextStatus, ContextStatusValue

__all__ = ["CONTEXT_MOVES", "EXTRA_FUNCTIONS", "ContextBehaviour", "ContextRootBehaviour"]

# Upstream defines no moves between the Context states: any move but out of closed.
CONTEXT_MOVES = permissive_moves(("draft", "active", "suspended", "archived", "closed"), final=("closed",))

_OPEN_VALUES: TypeAdapter[dict[str, Any]] = TypeAdapter(JsonObject)


class ContextRootBehaviour(MplpModel, frozen=True):
    """Behaviour of ``ContextRoot``, an object the schema leaves open: keys beyond its own are kept, as JSON.

    They are read with the checks of every open object (JSON values only,
    finite numbers, nesting within ``MAX_OPEN_OBJECT_DEPTH``) and written back as
    given; ``root.model_extra`` holds them.
    """

    @model_validator(mode="before")
    @classmethod
    def _extra_is_json(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data  # the model's own validation words the error
        fields = cls.__pydantic_fields__  # once: ``model_fields`` is a property, and this runs on every read
        extra = {key: value for key, value in data.items() if key not in fields}  # pyright: ignore[reportUnknownVariableType]
        if not extra:
            return data  # pyright: ignore[reportUnknownVariableType]
        # A refusal is raised as it is: pydantic keeps a ValidationError's entries, located under this object's.
        validated = _OPEN_VALUES.validate_python(extra)
        # What the check made of them is kept: a tuple given from Python is held as the list it reads as.
        return {**data, **validated}  # pyright: ignore[reportUnknownVariableType]


# The function that checks the extra keys of an open model on the way in (given_members checks them on the way
# out): a class that keeps extra keys checked by these may take the fast paths (_fast_shapes.fast_path_problems), which
# then do their work (model_members checks and writes the keys as an open object; both modes
# read them as the same Python values, and the check is a validation of Python values in both).
EXTRA_FUNCTIONS: tuple[object, ...] = (
    ContextRootBehaviour.__dict__["_extra_is_json"].__func__,  # a classmethod: the function it binds
)
own_functions(*EXTRA_FUNCTIONS, extra_keys=True)


class ContextBehaviour(RuledModel, frozen=True):
    """Behaviour of ``Context``: its lifecycle."""

    _moves: ClassVar[Mapping[str, Sequence[str]]] = CONTEXT_MOVES

    if TYPE_CHECKING:
        status: ContextStatus

    @classmethod
    def new(
        cls,
        title: str,
        *,
        domain: str,
        environment: str,
        status: ContextStatus | ContextStatusValue = "active",
        summary: str | None = None,
        at: str | None = None,
    ) -> Self:
        """A new context, the first document of a session: a fresh ``context_id``, stamped now.

        ``Plan.new``, ``Trace.new``... take it and name it; ``check_flow`` holds them to it.

        Args:
            title: What the context is, for humans and agents.
            domain: Its business domain (``root.domain``).
            environment: Its runtime environment (``root.environment``), e.g. development.
            status: Default active: a session runs in an active context (the SA profile asks for it).
            summary: A longer description; default none.
            at: When it was made (an RFC 3339 timestamp: ``created_at`` and ``meta.created_at``); default now.

        Raises:
            EditError: If a value breaks the schema (``string_too_short``: an empty title).
        """
        now = str(Timestamp.now()) if at is None else at
        data: dict[str, Any] = {
            "meta": new_meta(now),
            "context_id": new_id(),
            "root": {"domain": domain, "environment": environment},
            "title": title,
            "status": getattr(status, "value", status),
            "created_at": now,
        }
        if summary is not None:
            data["summary"] = summary
        return validated_new(cls, data)

    def transition(self, to: ContextStatus | ContextStatusValue) -> Self:
        """The context moved to ``to`` (a new context); an ``EditError`` (``illegal_move``) if the move is not legal.

        Any state may move to any other but closed, which is final (upstream defines no moves).
        """
        return validated_copy(self, {"status": self._check_move(to)})
