"""What the schemas cannot say: rule checks and lifecycle moves, shared by the models that have them.

A model with rules subclasses ``RuledModel`` and implements ``_violations``, a
generator. The rules run after schema validation, on every validation (JSON,
dict or keyword arguments), unless the validation context says ``SCHEMA_ONLY``;
the violations of one payload come out as the entries of one ``ValidationError``:
the first ``MAX_ERRORS``, then one entry counting the others, which are counted
without being kept (a dense plan of a million steps breaking a rule each holds
1,000 violations at a time, not a million).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any, ClassVar, cast

from pydantic import ValidationError, ValidationInfo, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError
from typing_extensions import Self

from mplp_models import _errors, _fastpath
from mplp_models._base import SCHEMA_ONLY, MplpModel
from mplp_models._fast_shapes import own_functions, rules_after_reading
from mplp_models._public import publish

__all__ = ["LifecycleModel", "RuleViolation", "RuledModel", "checked_move", "duplicate_ids", "permissive_moves"]


def _schema_only(context: object) -> bool:
    if context is None:  # the usual case, without the ABC's isinstance (about 0.15 us a reading)
        return False
    if not isinstance(context, Mapping):
        return False
    given = cast(Mapping[str, object], context)
    return all(given.get(key, not off) == off for key, off in SCHEMA_ONLY.items())


@dataclass(frozen=True)
class RuleViolation:
    """One broken rule: where (as a pydantic location), which rule, and a message naming the ids involved."""

    loc: tuple[str | int, ...]
    code: str
    message: str


def _error_details(violation: RuleViolation, value: object) -> InitErrorDetails:
    # Built at run time, so not the literal that the hint asks for; with no
    # context, the message is used as it is (braces in ids are safe).
    error = PydanticCustomError(violation.code, violation.message)  # pyright: ignore[reportArgumentType]
    return {"type": error, "loc": violation.loc, "input": value}


class LifecycleModel(MplpModel, frozen=True):
    """A model with a lifecycle of states and the legal moves between them."""

    # state value -> the states it may move to; set by each model
    _moves: ClassVar[Mapping[str, Sequence[str]]] = {}

    if TYPE_CHECKING:
        status: Any  # each model's own status enum

    def _check_move(self, to: object) -> Any:
        """``to`` as a member of the status enum; an ``EditError`` naming both states if the move is not legal."""
        return checked_move(type(self).__name__, self.status, to, self._moves)


def checked_move(
    name: str, current: enum.Enum, to: object, moves: Mapping[str, Sequence[str]], pointer: str = "/status"
) -> Any:
    """``to`` as a member of ``current``'s enum; an ``EditError`` naming both states if ``moves`` has no such move.

    ``name`` names the model in the message, ``pointer`` the status in the document (the error's
    ``pointer``). A member of another enum is read by its value.
    """
    kind = type(current)
    try:
        target = kind(to.value if isinstance(to, enum.Enum) else to)
    except ValueError:
        names = ", ".join(member.value for member in kind)
        raise _errors.EditError("unknown_status", f"{name} has no state {to!r} (states: {names})", pointer) from None
    allowed = moves.get(current.value, ())
    if target.value not in allowed:
        options = ", ".join(allowed) or "nothing (it is final)"
        moves_from = f"from {current.value} it can move to {options}"
        raise _errors.EditError(
            "illegal_move", f"{name} cannot move from {current.value} to {target.value}; {moves_from}", pointer
        )
    return target


def permissive_moves(states: Sequence[str], final: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """A lifecycle that upstream does not define: every state but the ``final`` ones may move to any other state."""
    return {state: () if state in final else tuple(other for other in states if other != state) for state in states}


def duplicate_ids(ids: Sequence[str], where: str, id_field: str, noun: str) -> Iterator[RuleViolation]:
    """One violation for each item whose id an earlier item of the list ``where`` already has, in list order.

    ``duplicate_{id_field}`` at ``(where, i, id_field)``, naming the id and both positions.
    """
    if len(set(ids)) == len(ids):  # the common case, at C speed
        return
    first: dict[str, int] = {}
    for position, value in enumerate(ids):
        earlier = first.setdefault(value, position)
        if earlier != position:
            yield RuleViolation(
                (where, position, id_field),
                f"duplicate_{id_field}",
                f"{noun} id {value} is used by {where} {earlier} and {position}",
            )


class RuledModel(LifecycleModel, frozen=True):
    """A model with rules beyond its schema, checked on every validation, and a lifecycle."""

    def check(self) -> list[RuleViolation]:
        """Every rule this object breaks, without raising: for a model read with ``semantic=False``.

        Unlike a validation's error, which lists the first ``MAX_ERRORS`` and
        counts the rest, the list holds them all: its size is the caller's choice
        (a million steps breaking a rule each are a million violations).

        Returns:
            The violations, each with its location, code and message (empty when the model is sound).
        """
        return list(self._broken())

    def _violations(self) -> Iterator[RuleViolation]:
        """Each broken rule, in a stable order, made when asked for: a caller may stop at any one."""
        yield from ()

    def _plainly_sound(self) -> bool:
        """Whether the model breaks no rule, shown at C speed; ``False`` is no verdict (then ``_violations`` decides).

        A model with many rules, read often, overrides it with a whole-model check that says
        "sound" only where ``_violations`` yields nothing, tied to it by a randomized test with
        the fast paths off (tests/test_rules_speed.py). Asked only with the fast paths on. A
        class that adds rules (its own ``_violations``) and no check of its own gets none: the
        check it would inherit knows nothing of its rules.
        """
        return False

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if "_violations" in cls.__dict__ and "_plainly_sound" not in cls.__dict__:
            cls._plainly_sound = RuledModel._plainly_sound  # type: ignore[method-assign]

    def _broken(self) -> Iterator[RuleViolation]:
        """``_violations``, after ``_plainly_sound`` where the fast paths are on."""
        if _fastpath.on(_fastpath.RULES) and self._plainly_sound():
            return iter(())
        return self._violations()

    @model_validator(mode="after")
    def _apply_rules(self, info: ValidationInfo) -> Self:
        if _schema_only(info.context):
            return self
        errors = self._listed(self._broken())
        if errors:
            raise ValidationError.from_exception_data(type(self).__name__, errors)
        return self

    def _listed(self, violations: Iterable[RuleViolation]) -> list[InitErrorDetails]:
        """The first ``MAX_ERRORS`` violations as error entries, then one counting all of them.

        Those past the maximum are counted, never kept: memory stays that of the listed ones.
        """
        each = iter(violations)
        errors = [
            _error_details(violation, _short(_value_at(self, violation.loc)))
            for violation in islice(each, _errors.MAX_ERRORS)
        ]
        more = sum(1 for _ in each)
        if more:
            errors.append(_errors.too_many(len(errors), len(errors) + more))
        return errors


def _short(value: object) -> object:
    if isinstance(value, str) and len(value) > _errors.MAX_INPUT_CHARS:
        return _errors.Quoted.of(value, _errors.MAX_INPUT_CHARS)
    return value


# Raises or returns the model unchanged, the same in both modes: the fast paths may hold it.
own_functions(RuledModel.__pydantic_decorators__.model_validators["_apply_rules"].func)


def _value_at(model: object, loc: tuple[str | int, ...]) -> object:
    value: Any = model
    for part in loc:
        try:
            value = value[part] if isinstance(part, int) else getattr(value, part)
        except (AttributeError, IndexError, KeyError, TypeError):
            return None
    return value.value if isinstance(value, enum.Enum) else value


def _sound(model: RuledModel, context: object) -> bool:
    # The fast reading's question, asked of a model read without _apply_rules: would it pass? _broken's
    # steps written out, the whole-model check first: its calls were a fifth of a small message's reading.
    if _fastpath.ENABLED and _fastpath.RULES not in _fastpath.OFF and model._plainly_sound():  # pyright: ignore[reportPrivateUsage]
        return True
    return _schema_only(context) or next(model._violations(), None) is None  # pyright: ignore[reportPrivateUsage]


rules_after_reading(RuledModel.__pydantic_decorators__.model_validators["_apply_rules"].func, _sound)


publish(__name__)  # the public classes above, shown as mplp_models.<name>
