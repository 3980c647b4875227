"""Drafts: what an LLM writes (the content, with short local ids), turned by the SDK into exact documents.

A draft is a plain pydantic model made for providers' structured outputs: every
object closed, every field required (``null`` where optional), no pattern,
format, length or numeric bound in its schema, descriptions written for the
model. So its own JSON Schema works unchanged under OpenAI's strict mode,
Anthropic's strict tools and Gemini's ``response_json_schema``, and as the
output type of the frameworks that convert a pydantic model themselves.

What the schema cannot say, the draft's validators check, with messages worded
for the model and located in its answer, so that every framework's retry loop
sends something the model can act on. The methods that make a document mint
the ids, fill ``meta``, set the statuses a new document has and validate it
with every rule; a refusal then points into the draft, by its local ids.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError
from typing_extensions import Self

if TYPE_CHECKING:
    from pydantic.config import ExtraValues

from mplp_models._formats import Timestamp
from mplp_models._generated.mplp.v1_0.common.learning_sample_schema import LearningSample
from mplp_models._generated.mplp.v1_0.mplp_confirm_schema import Confirm, ConfirmDecision
from mplp_models._generated.mplp.v1_0.mplp_dialog_schema import Dialog, DialogMessage
from mplp_models._generated.mplp.v1_0.mplp_plan_schema import Plan, PlanStep
from mplp_models._ids import new_id, new_meta
from mplp_models._json_input import load_json
from mplp_models._plan import PlanBehaviour, _find_cycle  # pyright: ignore[reportPrivateUsage]
from mplp_models._public import publish
from mplp_models._rules import RuleViolation as _Problem  # a draft's problem: where, which rule, the message
from mplp_models._types import JsonText, Ordered

__all__ = [
    "ConfirmDecisionDraft",
    "DialogDraft",
    "DialogMessageDraft",
    "Draft",
    "LearningSampleDraft",
    "PlanDraft",
    "PlanStepDraft",
]

Loc = tuple[str | int, ...]
_P = TypeVar("_P", bound=PlanBehaviour)


def _refused(draft: Draft, problems: Sequence[_Problem]) -> ValidationError:
    """The draft's problems as its ``ValidationError``, each with the value found at its place."""
    answer = draft.model_dump(mode="json")
    # The messages are built at run time, which PydanticCustomError's LiteralString hint does not foresee.
    details: list[InitErrorDetails] = [
        {
            "type": PydanticCustomError(problem.code, problem.message),  # pyright: ignore[reportArgumentType]
            "loc": problem.loc,
            "input": _at(answer, problem.loc),
        }
        for problem in problems
    ]
    return ValidationError.from_exception_data(type(draft).__name__, details)


def _at(value: Any, loc: Loc) -> Any:
    for key in loc:
        value = value[key]
    return value


def _quoted(ids: Sequence[str]) -> str:
    return ", ".join(f'"{local}"' for local in ids)


def _blank(loc: Loc, text: str | None, what: str) -> list[_Problem]:
    """A problem if ``text`` is given but has no visible character."""
    if text is None or text.strip():
        return []
    return [_Problem(loc, "empty_text", f"{what} is empty: write it out")]


class Draft(BaseModel):
    """Closed, frozen, and every field required: what strict structured outputs ask of a schema."""

    model_config: ClassVar[ConfigDict] = ConfigDict(extra="forbid", frozen=True)
    # The answer that example() reads: each draft class sets its own.
    _EXAMPLE: ClassVar[Mapping[str, Any] | None] = None

    def _problems(self) -> list[_Problem]:
        return []

    @classmethod
    def example(cls) -> Self:
        """A valid draft, the same on every call: what a model could answer, for tests and prompts.

        pydantic-ai's ``TestModel()`` writes every string as ``"a"``, so a plan step it makes
        depends on itself; ``TestModel(custom_output_args=PlanDraft.example())`` answers this instead.

        Returns:
            A new instance, validated like any answer. A draft class of your own that adds a
            required field overrides ``example`` (else the ``ValidationError`` names the field).

        Raises:
            TypeError: For ``Draft`` itself, which has no example.
        """
        if cls._EXAMPLE is None:
            raise TypeError(f"{cls.__name__} has no example: a draft class of your own overrides example()")
        return cls.model_validate(cls._EXAMPLE)

    @classmethod
    def model_validate_json(
        cls,
        json_data: str | bytes | bytearray,
        *,
        strict: bool | None = None,
        extra: ExtraValues | None = None,
        context: Any | None = None,
        by_alias: bool | None = None,
        by_name: bool | None = None,
    ) -> Self:
        """The draft an answer's JSON text holds, once the text is strict JSON.

        pydantic's parser keeps the last of two equal keys and reads ``NaN``: an answer holding
        either is refused first, as ``from_llm_json`` and ``Model.from_json`` refuse it.

        Raises:
            ValidationError: For text that is not strict JSON (``json_duplicate_key``,
                ``json_invalid``, each at its place), then for every problem of the draft.
        """
        load_json(json_data, cls.__name__)
        options: dict[str, Any] = {
            "strict": strict,
            "extra": extra,
            "context": context,
            "by_alias": by_alias,
            "by_name": by_name,
        }
        # pydantic 2.11 has no ``extra`` here: only what the caller gave is passed on.
        return super().model_validate_json(json_data, **{k: v for k, v in options.items() if v is not None})

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy; with ``update``, a new draft validated like construction, its rules included.

        Raises:
            ValidationError: If the changed draft breaks its schema or a rule.
        """
        if not update:
            return super().model_copy(deep=deep)
        values = {name: getattr(self, name) for name in type(self).model_fields}
        if deep:
            values = copy.deepcopy(values)
        return type(self).model_validate({**values, **update})

    @classmethod
    def model_construct(cls, _fields_set: set[str] | None = None, **values: Any) -> Self:
        """Validated like construction: pydantic's unchecked construction would make a draft that breaks its rules.

        Raises:
            ValidationError: For any problem, as construction.
        """
        return cls.model_validate(values)

    @model_validator(mode="after")
    def _keeps_its_rules(self) -> Self:
        problems = self._problems()
        if problems:
            # pydantic-core merges a ValidationError raised here into the draft's own, each entry
            # at its place in the answer (under the place of the draft, when it is nested).
            raise _refused(self, problems)
        return self


# --- plans --------------------------------------------------------------------------------------

# The first step of PlanDraft's example, and PlanStepDraft's.
_FIRST_STEP: Mapping[str, Any] = {
    "id": "s1",
    "description": "Tag the release v2.0.0",
    "agent_role": "release-manager",
    "depends_on": [],
}

_LocalId = Annotated[
    JsonText,
    Field(description='A short id of a step within this plan, such as "s1"; other steps name it in depends_on.'),
]


class PlanStepDraft(Draft):
    """One step of the plan: what is done, by whom, after which other steps."""

    _EXAMPLE: ClassVar[Mapping[str, Any] | None] = _FIRST_STEP

    id: _LocalId
    description: Annotated[JsonText, Field(description="What this step does, for the agent that carries it out.")]
    agent_role: Annotated[
        JsonText | None,
        Field(description="The role that carries out this step (a role id, such as a Role's role_id), or null."),
    ]
    depends_on: Annotated[
        tuple[JsonText, ...],
        Ordered,
        Field(
            description=(
                "The ids of the other steps of this plan that must be done before this one starts; "
                "[] when it can start at once."
            )
        ),
    ]

    if TYPE_CHECKING:  # what the run time takes from Python: a list or a tuple (a set has no order)

        def __init__(
            self, *, id: str, description: str, agent_role: str | None, depends_on: list[str] | tuple[str, ...]
        ) -> None: ...

    def _problems(self) -> list[_Problem]:
        return [
            *_blank(("id",), self.id, "The step's id"),
            *_blank(("description",), self.description, f'The description of step "{self.id}"'),
            *_blank(("agent_role",), self.agent_role, f'The agent_role of step "{self.id}" (null for none)'),
        ]


class PlanDraft(Draft):
    """A plan of work: a title, its objective, and its steps with the order they wait for each other in."""

    _EXAMPLE: ClassVar[Mapping[str, Any] | None] = {
        "title": "Ship v2.0",
        "objective": "Tag, build and publish release 2.0",
        "steps": [
            _FIRST_STEP,
            {"id": "s2", "description": "Build the wheels", "agent_role": "builder", "depends_on": ["s1"]},
            {"id": "s3", "description": "Publish the wheels", "agent_role": None, "depends_on": ["s2"]},
        ],
    }

    title: Annotated[JsonText, Field(description="A short title of the plan.")]
    objective: Annotated[JsonText, Field(description="What the plan is to achieve.")]
    steps: Annotated[
        tuple[PlanStepDraft, ...],
        Ordered,
        Field(description="The steps, at least one, in the order they are meant to be done."),
    ]

    if TYPE_CHECKING:  # what the run time takes from Python: a list or a tuple (a set has no order)

        def __init__(
            self, *, title: str, objective: str, steps: list[PlanStepDraft] | tuple[PlanStepDraft, ...]
        ) -> None: ...

    def _problems(self) -> list[_Problem]:
        found = [
            *_blank(("title",), self.title, "The plan's title"),
            *_blank(("objective",), self.objective, "The plan's objective"),
        ]
        if not self.steps:
            found.append(_Problem(("steps",), "no_steps", "The plan has no steps: give at least one step"))
        return found + _graph_problems(self.steps)

    # --- from draft to document ---

    def to_plan(
        self, *, context_id: str, plan_id: str | None = None, created_by: str | None = None, at: str | None = None
    ) -> Plan:
        """The plan this draft describes: a new ``draft`` plan whose steps are ``pending``.

        The plan and each step get a fresh UUID v4 id; the steps are in the draft's
        order, so ``plan.steps[i]`` is ``self.steps[i]`` (``local_ids`` maps them).

        Args:
            context_id: The id of the Context the plan belongs to.
            plan_id: The plan's id; a fresh one when None.
            created_by: Who made the plan (``meta.created_by``); left out when None.
            at: ``meta.created_at`` (an RFC 3339 timestamp); default now.

        Returns:
            The plan, valid by every rule.

        Raises:
            ValidationError: If an argument is not valid (``context_id`` not a UUID v4, say), at
                its own field; anything the draft brings, at its place in the draft.
        """
        ids = {step.id: new_id() for step in self.steps}
        meta: dict[str, Any] = new_meta(Timestamp.now() if at is None else at)
        if created_by is not None:
            meta["created_by"] = created_by
        payload = {
            "meta": meta,
            "plan_id": new_id() if plan_id is None else plan_id,
            "context_id": context_id,
            "title": self.title,
            "objective": self.objective,
            "status": "draft",
            "steps": [_new_step(step, ids) for step in self.steps],
        }
        try:
            return Plan.model_validate(payload)
        except ValidationError as error:
            if all(entry["loc"][:1] in _DRAFTED for entry in error.errors(include_url=False)):
                raise _in_the_draft(error, ids, self) from None
            raise  # an argument of the caller's, not the LLM's: at its own field of the plan

    def local_ids(self, plan: Plan) -> dict[str, str]:
        """Each local id of this draft and the id of its step in ``plan``, a plan made from it.

        Args:
            plan: The plan ``to_plan`` or ``apply_draft`` made from this draft.

        Returns:
            ``{"s1": "<step id>", ...}``, in the draft's order.

        Raises:
            ValueError: If ``plan`` was not made from this draft (another number of steps or descriptions).
        """
        made = len(plan.steps) == len(self.steps) and all(
            step.description == drafted.description for step, drafted in zip(plan.steps, self.steps)
        )
        if not made:
            raise ValueError("the plan was not made from this draft: its steps are not the draft's, in its order")
        return {drafted.id: step.step_id for drafted, step in zip(self.steps, plan.steps)}

    # --- revisions ---

    @classmethod
    def from_plan(cls, plan: Plan) -> Self:
        """The draft view of an existing plan, to show an LLM that is to revise it.

        Each step's local id is the start of its step id: 8 characters, more where two steps
        of the plan share them (for fresh UUID v4 ids, one pair in about four billion). It
        depends on no other step and on no position, so it stays the same across transitions,
        edits and revisions, and a revision always names the steps it means.

        A draft's texts are never blank (an LLM is told to write them out), so a plan whose title,
        objective, step description or agent role is blank (``" "``, ``""``: the schemas allow
        it) has no draft: rather than change such a text silently (applying the draft would
        write the change back into the plan), ``from_plan`` names each, to fill in first.

        Args:
            plan: A plan that keeps the rules.

        Returns:
            The draft: the plan's title, objective and steps, dependencies as local ids.

        Raises:
            ValueError: If the plan breaks a rule (possible only for a plan read with ``semantic=False``),
                or has a blank text, naming each.
        """
        broken = plan.check()
        if broken:  # a plan read with semantic=False: its draft would say something else than the plan
            raise ValueError(f"the plan breaks a rule, so it has no draft: {broken[0].message}")
        local = local_ids_of(plan)
        blank = _blank_texts(plan, local)
        if blank:
            raise ValueError(
                "the plan has blank text, which a draft cannot hold (it asks an LLM to write every text out): "
                f"{'; '.join(blank)}; write each out first (update_step; an agent_role may be left out instead)"
            )
        steps: list[PlanStepDraft] = []
        for step in plan.steps:
            steps.append(
                PlanStepDraft(
                    id=local[step.step_id],
                    description=step.description,
                    agent_role=step.agent_role,
                    depends_on=tuple(local[dependency] for dependency in step.depends_on),
                )
            )
        return cls(title=plan.title, objective=plan.objective, steps=tuple(steps))

    def _apply_to(self, plan: _P) -> _P:
        """``plan`` revised to this draft (what ``Plan.apply_draft`` does), ``order_index`` renumbered if used."""
        local = local_ids_of(plan)
        known = {local_id: step_id for step_id, local_id in local.items()}
        problems = _still_needed(plan, local, {step.id for step in self.steps})
        if problems:
            raise _refused(self, problems)
        ids = {step.id: known.get(step.id) or new_id() for step in self.steps}
        # order_index is the tie-break of the execution order: kept as it was, it would undo the draft's order.
        ordered = any(step.order_index is not None for step in plan.steps)
        steps: list[dict[str, Any]] = []
        for position, drafted in enumerate(self.steps):
            if drafted.id in known:
                revised = _revised_step(plan.step(known[drafted.id]), drafted, ids)
            else:
                revised = _new_step(drafted, ids)
            if ordered:
                revised["order_index"] = position
            steps.append(revised)
        payload = plan.to_dict()
        payload.update(title=self.title, objective=self.objective, steps=steps)
        try:
            return type(plan).model_validate(payload)
        except ValidationError as error:
            raise _in_the_draft(error, ids, self) from None


def _still_needed(plan: PlanBehaviour, local: Mapping[str, str], drafted: set[str]) -> list[_Problem]:
    """A problem for each step of ``plan`` running or done that the draft leaves out."""
    return [
        _Problem(
            ("steps",),
            "step_still_needed",
            f'step "{local[step.step_id]}" is {step.status.value} and your draft leaves it out: '
            "a step that is running or done stays in the plan; keep it in steps",
        )
        for step in plan.steps
        if local[step.step_id] not in drafted and step.status.value in _KEPT
    ]


def _revised_step(old: PlanStep, drafted: PlanStepDraft, ids: Mapping[str, str]) -> dict[str, Any]:
    """The step ``old`` as ``drafted`` revises it: its status and the fields a draft does not write kept."""
    revised = old.to_dict()
    revised.update(_new_step(drafted, ids))
    revised["status"] = old.status.value
    if drafted.agent_role is None:
        revised.pop("agent_role", None)
    if not drafted.depends_on and old.dependencies != ():  # none: left out, unless the step wrote []
        revised.pop("dependencies", None)
    return revised


def _blank_texts(plan: Plan, local: Mapping[str, str]) -> list[str]:
    """Each text of ``plan`` with no visible character (which a draft refuses): where it is, and itself."""
    texts: list[tuple[str, str | None]] = [("the plan's title", plan.title), ("the plan's objective", plan.objective)]
    for step in plan.steps:
        texts.append((f'the description of step "{local[step.step_id]}"', step.description))
        texts.append((f'the agent_role of step "{local[step.step_id]}"', step.agent_role))
    return [f"{where} is {text!r}" for where, text in texts if text is not None and not text.strip()]


_DRAFTED = {("title",), ("objective",), ("steps",)}  # the fields of a plan that its draft writes
_KEPT = ("in_progress", "completed")  # a step with work running or done is not dropped by a revision


def _new_step(step: PlanStepDraft, ids: Mapping[str, str]) -> dict[str, Any]:
    new: dict[str, Any] = {"step_id": ids[step.id], "description": step.description, "status": "pending"}
    if step.depends_on:
        new["dependencies"] = [ids[dependency] for dependency in step.depends_on]
    if step.agent_role is not None:
        new["agent_role"] = step.agent_role
    return new


def _graph_problems(steps: Sequence[PlanStepDraft]) -> list[_Problem]:
    """Unique ids, dependencies that name other steps of the draft once each, and no cycle."""
    found: list[_Problem] = []
    first: dict[str, int] = {}
    for position, step in enumerate(steps):
        if step.id in first:
            found.append(
                _Problem(
                    ("steps", position, "id"),
                    "duplicate_step_id",
                    f'steps {first[step.id]} and {position} both have the id "{step.id}": give each step its own id',
                )
            )
        first.setdefault(step.id, position)
    existing = _quoted(list(first))
    for position, step in enumerate(steps):
        listed: set[str] = set()
        for slot, dependency in enumerate(step.depends_on):
            loc: Loc = ("steps", position, "depends_on", slot)
            if dependency == step.id:
                found.append(
                    _Problem(loc, "self_dependency", f'step "{step.id}" depends on itself: remove "{step.id}"')
                )
            elif dependency not in first:
                found.append(
                    _Problem(
                        loc,
                        "unknown_dependency",
                        f'step "{step.id}" depends on "{dependency}", which is not a step of this plan; '
                        f"the steps are {existing}",
                    )
                )
            elif dependency in listed:
                found.append(
                    _Problem(loc, "repeated_dependency", f'step "{step.id}" lists "{dependency}" twice in depends_on')
                )
            listed.add(dependency)
    if not found:
        found += _cycle_problems(steps)
    return found


def _cycle_problems(steps: Sequence[PlanStepDraft]) -> list[_Problem]:
    cycle = _find_cycle([step.id for step in steps], [step.depends_on for step in steps])
    if not cycle:
        return []
    position = next(i for i, step in enumerate(steps) if step.id == cycle[0])
    path = " -> ".join(f'"{local}"' for local in cycle)
    message = (
        f"the steps wait for each other in a cycle, so none of them can start: {path} "
        "(each waits for the next); remove one of these dependencies"
    )
    return [
        _Problem(
            ("steps", position, "depends_on", steps[position].depends_on.index(cycle[1])), "dependency_cycle", message
        )
    ]


def local_ids_of(plan: PlanBehaviour) -> dict[str, str]:
    """Each step id of ``plan`` and its local id: its start, 8 characters or more until it is the plan's only one."""
    ids = sorted({step.step_id for step in plan.steps})
    # In sorted order, the id that shares the longest start with an id is one of its neighbours.
    shared = [_common_start(one, other) for one, other in pairwise(ids)]
    local: dict[str, str] = {}
    for position, step_id in enumerate(ids):
        before = shared[position - 1] if position > 0 else 0
        after = shared[position] if position < len(shared) else 0
        local[step_id] = step_id[: max(_LOCAL_SIZE, before + 1, after + 1)]
    return local


_LOCAL_SIZE = 8


def _common_start(one: str, other: str) -> int:
    return next((i for i, (a, b) in enumerate(zip(one, other)) if a != b), min(len(one), len(other)))


_MINTED = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
_STEP_FIELDS = {"dependencies": "depends_on", "step_id": "id"}


def _in_the_draft(error: ValidationError, ids: Mapping[str, str], draft: PlanDraft) -> ValidationError:
    """``error`` (about the document made from a draft) located in the draft, step ids as local ids.

    Each entry quotes what the draft holds at its place (the plan's value there, a step id or a
    status, is not in the answer); a place the draft has not (a plan field it does not write) is
    moved up to the nearest one it has.
    """
    local = {step_id: local for local, step_id in ids.items()}
    answer = draft.model_dump(mode="json")
    details: list[InitErrorDetails] = []
    for entry in error.errors(include_url=False):
        loc = tuple(entry["loc"])
        if len(loc) >= 3 and loc[0] == "steps" and isinstance(loc[2], str):
            field = loc[2]
            if field == "status":
                # A status the draft did not write: a revision broke a rule over statuses (a new
                # step in a completed plan, a started step made to wait): the step is the place.
                loc = ("steps", loc[1])
            else:
                loc = ("steps", loc[1], _STEP_FIELDS.get(field, field), *loc[3:])
        message = _MINTED.sub(lambda found: f'"{local[found[0]]}"' if found[0] in local else found[0], entry["msg"])
        kind = PydanticCustomError(entry["type"], message)  # pyright: ignore[reportArgumentType]
        loc, found = _deepest(answer, loc)
        details.append({"type": kind, "loc": loc, "input": found})
    return ValidationError.from_exception_data("PlanDraft", details)


def _deepest(answer: dict[str, Any], loc: Loc) -> tuple[Loc, Any]:
    """The longest start of ``loc`` that is a place in ``answer``, and the value there."""
    for depth in range(len(loc), 0, -1):
        try:
            return loc[:depth], _at(answer, loc[:depth])
        except (KeyError, IndexError, TypeError):  # no such key, no such item, or a text or a number
            continue
    return (), answer


# --- dialogs ------------------------------------------------------------------------------------


# The first message of DialogDraft's example, and DialogMessageDraft's.
_FIRST_MESSAGE: Mapping[str, Any] = {"role": "user", "content": "Plan the release of v2.0."}


class DialogMessageDraft(Draft):
    """One message of a dialog: who speaks and what they say."""

    _EXAMPLE: ClassVar[Mapping[str, Any] | None] = _FIRST_MESSAGE

    role: Annotated[
        Literal["user", "assistant", "system", "agent"],
        Field(description="Who speaks: user, assistant, system or agent."),
    ]
    content: Annotated[JsonText, Field(description="What is said, as plain text.")]

    def _problems(self) -> list[_Problem]:
        return _blank(("content",), self.content, "The message's content")

    def to_message(self, *, at: str | None = None) -> DialogMessage:
        """The dialog message this draft describes.

        Args:
            at: Its timestamp (an RFC 3339 timestamp); default now.

        Raises:
            ValidationError: If ``at`` is not an RFC 3339 timestamp.
        """
        timestamp = Timestamp.now() if at is None else at
        return DialogMessage.model_validate({"role": self.role, "content": self.content, "timestamp": timestamp})


class DialogDraft(Draft):
    """A dialog: its messages, in the order they were said."""

    _EXAMPLE: ClassVar[Mapping[str, Any] | None] = {
        "messages": [
            _FIRST_MESSAGE,
            {"role": "assistant", "content": "Three steps: tag, build the wheels, publish them."},
        ]
    }

    messages: Annotated[
        tuple[DialogMessageDraft, ...], Ordered, Field(description="The messages, at least one, in order.")
    ]

    if TYPE_CHECKING:  # what the run time takes from Python: a list or a tuple (a set has no order)

        def __init__(self, *, messages: list[DialogMessageDraft] | tuple[DialogMessageDraft, ...]) -> None: ...

    def _problems(self) -> list[_Problem]:
        if self.messages:
            return []
        return [_Problem(("messages",), "no_messages", "The dialog has no messages: give at least one message")]

    def to_dialog(
        self, *, context_id: str, dialog_id: str | None = None, thread_id: str | None = None, at: str | None = None
    ) -> Dialog:
        """A new ``active`` dialog holding this draft's messages, each stamped ``at``, started ``at``.

        Args:
            context_id: The id of the Context the dialog belongs to.
            dialog_id: The dialog's id; a fresh one when None.
            thread_id: The thread's id; left out when None.
            at: ``meta.created_at``, ``started_at`` and every message's timestamp; default now.

        Raises:
            ValidationError: If an argument is not valid, at its own field.
        """
        now = Timestamp.now() if at is None else at
        payload: dict[str, Any] = {
            "meta": new_meta(now),
            "dialog_id": new_id() if dialog_id is None else dialog_id,
            "context_id": context_id,
            "status": "active",
            "messages": [{"role": m.role, "content": m.content, "timestamp": now} for m in self.messages],
            "started_at": now,
        }
        if thread_id is not None:
            payload["thread_id"] = thread_id
        return Dialog.model_validate(payload)


# --- confirms -----------------------------------------------------------------------------------


class ConfirmDecisionDraft(Draft):
    """A decision on a request for approval, and the reason for it."""

    _EXAMPLE: ClassVar[Mapping[str, Any] | None] = {
        "decision": "approved",
        "reason": "The tests pass on every platform.",
    }

    decision: Annotated[
        Literal["approved", "rejected"], Field(description="approved to let the request go ahead, rejected to stop it.")
    ]
    reason: Annotated[JsonText, Field(description="Why, in a sentence or two, for the people and agents involved.")]

    def _problems(self) -> list[_Problem]:
        return _blank(("reason",), self.reason, "The reason")

    def to_decision(self, *, by_role: str, at: str | None = None, decision_id: str | None = None) -> ConfirmDecision:
        """The decision record this draft describes.

        Args:
            by_role: The id of the role that decides (the LLM's agent's role).
            at: When (an RFC 3339 timestamp); default now.
            decision_id: The record's id; a fresh one when None.

        Raises:
            ValidationError: If an argument is not valid, at its own field.
        """
        record = {
            "decision_id": new_id() if decision_id is None else decision_id,
            "status": self.decision,
            "decided_by_role": by_role,
            "decided_at": Timestamp.now() if at is None else at,
            "reason": self.reason,
        }
        return ConfirmDecision.model_validate(record)

    def decide(self, confirm: Confirm, *, by_role: str, at: str | None = None) -> Confirm:
        """``confirm`` decided as this draft says: ``confirm.decide(...)``, its status moved to the decision's.

        Raises:
            ValueError: If the confirm is cancelled (it takes no more decisions), or the move is not legal.
            ValidationError: If the confirm breaks a rule (``at`` before ``requested_at``, say).
        """
        return confirm.decide(self.decision, by_role=by_role, reason=self.reason, at=at)


# --- learning samples ---------------------------------------------------------------------------


class LearningSampleDraft(Draft):
    """A judgement of how an action went: whether it succeeded, how much it mattered, and what went wrong."""

    _EXAMPLE: ClassVar[Mapping[str, Any] | None] = {
        "success": True,
        "impact_score": 0.8,
        "error_code": None,
        "error_message": None,
    }

    success: Annotated[StrictBool, Field(description="Whether the action achieved what it was meant to.")]
    impact_score: Annotated[
        StrictFloat | None,
        Field(description="How much the outcome mattered, from 0 (not at all) to 1 (decisive); null if unknown."),
    ]
    error_code: Annotated[
        JsonText | None, Field(description="A short machine-readable code of what went wrong, or null.")
    ]
    error_message: Annotated[JsonText | None, Field(description="What went wrong, in a sentence, or null.")]

    def _problems(self) -> list[_Problem]:
        found = [
            *_blank(("error_code",), self.error_code, "error_code (null for none)"),
            *_blank(("error_message",), self.error_message, "error_message (null for none)"),
        ]
        score = self.impact_score
        if score is not None and not 0 <= score <= 1:
            found.append(
                _Problem(
                    ("impact_score",), "out_of_range", f"impact_score is {score}: give a number from 0 to 1, or null"
                )
            )
        return found

    def to_learning_sample(
        self,
        *,
        project_id: str,
        started_at: str,
        completed_at: str | None = None,
        plan: Plan | None = None,
        sample_id: str | None = None,
    ) -> LearningSample:
        """The learning sample this draft judges: the SDK's facts (ids, times, plan) and the LLM's judgement.

        Args:
            project_id: The project the sample belongs to.
            started_at: When the action started (an RFC 3339 timestamp).
            completed_at: When it ended; left out when None.
            plan: The plan that was followed (kept as its JSON object); left out when None.
            sample_id: The sample's id; a fresh one when None.

        Raises:
            ValidationError: If an argument is not valid (``completed_at`` before ``started_at``, say).
        """
        times = (
            {"started_at": started_at}
            if completed_at is None
            else {"started_at": started_at, "completed_at": completed_at}
        )
        payload: dict[str, Any] = {
            "sample_id": new_id() if sample_id is None else sample_id,
            "project_id": project_id,
            "success_flag": self.success,
            "timestamps": times,
        }
        if self.impact_score is not None:
            payload["impact_score"] = self.impact_score
        error = {
            key: value
            for key, value in (("error_code", self.error_code), ("error_message", self.error_message))
            if value is not None
        }
        if error:
            payload["error_info"] = error
        if plan is not None:
            payload["plan"] = plan.to_dict()
        return LearningSample.model_validate(payload)


publish(__name__)  # the public classes above, shown as mplp_models.llm.<name>
