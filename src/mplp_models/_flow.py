"""Sessions: the documents of one protocol session checked against each other (``check_flow``).

Each document is checked alone when it is read; this module checks what only the
set can say: that the plan, the trace, the collaboration... belong to the context,
that a confirm's target is in the set, that events carry the trace's id. A
binding whose documents are absent does not apply, and the report says so: it
is never counted as holding. Every rule is one pass over the documents with
dict look-ups, so a session of n documents is checked in O(n) (the bench:
tests/benchmarks/bench_flow.py).

The rules are written out from upstream's invariant files (stated) and from
what the schemas' descriptions say the fields refer to (derived); ``RULES`` is
the one table of them, which the report and docs/sessions.md follow.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, Protocol, TypeAlias, TypeVar, cast

from mplp_models._base import MplpModel
from mplp_models._generated.mplp.v1_0.common.events_schema import Event
from mplp_models._generated.mplp.v1_0.common.trace_base_schema import TraceBase
from mplp_models._generated.mplp.v1_0.mplp_collab_schema import Collab
from mplp_models._generated.mplp.v1_0.mplp_confirm_schema import Confirm
from mplp_models._generated.mplp.v1_0.mplp_context_schema import Context
from mplp_models._generated.mplp.v1_0.mplp_plan_schema import Plan
from mplp_models._generated.mplp.v1_0.mplp_trace_schema import Trace
from mplp_models._kinds import KINDS
from mplp_models._public import generated_kind, publish
from mplp_models._rules import RuledModel
from mplp_models._text import pointer
from mplp_models._trace import STEP_ATTRIBUTE

__all__ = [
    "RULES",
    "FlowLocation",
    "FlowProfile",
    "FlowReport",
    "FlowRule",
    "FlowRuleResult",
    "FlowRuleSource",
    "FlowRuleStatus",
    "FlowViolation",
    "check_flow",
    "check_flow_report",
]

_M = TypeVar("_M", bound=MplpModel)

FlowProfile: TypeAlias = Literal["sa", "map"]
"""Upstream's profiles: ``sa`` (single agent) and ``map`` (multi-agent, which extends SA)."""

FlowRuleSource: TypeAlias = Literal["stated", "derived", "document", "sa", "map"]
"""Where a rule comes from: stated by upstream's invariant files, derived from the schemas, a document's own rules, or
a profile.
"""

FlowRuleStatus: TypeAlias = Literal["holds", "fails", "not_applicable"]
"""A rule over one set: every application holds, one fails, or its documents are absent (nothing was checked)."""


@dataclass(frozen=True)
class FlowRule:
    """One rule of ``check_flow``: its id, where it comes from, what it says, and the profile that adds it."""

    id: str
    source: FlowRuleSource
    text: str
    profile: FlowProfile | None = None


def _rules(*rules: FlowRule) -> dict[str, FlowRule]:
    return {rule.id: rule for rule in rules}


RULES: Mapping[str, FlowRule] = _rules(
    FlowRule("plan_context", "stated", "a plan's context_id is the context's id"),
    FlowRule("collab_context", "stated", "a collab's context_id is the context's id"),
    FlowRule("trace_context", "stated", "a trace's context_id is the context's id"),
    FlowRule("root_span_context", "stated", "a trace's root_span.context_id, where given, is the context's id"),
    FlowRule("trace_plan", "stated", "a trace's plan_id, where given, is the id of a plan of the set"),
    FlowRule("confirm_target_plan", "stated", "a confirm with target_type plan names a plan of the set"),
    FlowRule(
        "confirm_target", "derived", "a confirm with target_type context, trace or extension names such a document"
    ),
    FlowRule("context_binding", "derived", "a dialog's, an extension's and a network's context_id is the context's id"),
    FlowRule(
        "span_context",
        "derived",
        "a span's context_id (a document's trace, a TraceBase), where given, is the context's id",
    ),
    FlowRule(
        "span_trace", "derived", "a span's trace_id (a document's trace, a TraceBase) is the id of a trace of the set"
    ),
    FlowRule(
        "event_trace",
        "derived",
        "an event's trace_id, where given, is its trace's id (in a trace) or a trace's of the set",
    ),
    FlowRule(
        "segment_step",
        "derived",
        "a trace segment's attributes.step_id, where given, names a step of the trace's plan",
    ),
    FlowRule("one_context", "derived", "a set holds at most one context"),
    FlowRule("id_kind", "derived", "no id names two documents of different kinds"),
    FlowRule("document_rules", "document", "each document keeps its own rules (steps, segments, decisions...)"),
    FlowRule("sa_requires_context", "sa", "the set holds a context", "sa"),
    FlowRule("sa_context_must_be_active", "sa", "the context's status is active", "sa"),
    FlowRule("sa_plan_has_steps", "sa", "a plan has at least one step", "sa"),
    FlowRule("sa_steps_agent_role_if_present", "sa", "a step's agent_role, where given, is not blank", "sa"),
    FlowRule("sa_trace_not_empty", "sa", "a trace has at least one event", "sa"),
    FlowRule("sa_trace_plan_binding", "sa", "a trace names the plan of the set in plan_id (not optional)", "sa"),
    FlowRule("map_participants_have_role_ids", "map", "every participant has a role_id that is not blank", "map"),
    FlowRule("map_participant_ids_are_non_empty", "map", "every participant_id is not blank", "map"),
)
"""Every rule of ``check_flow``, by id, in the order the report lists them."""


@dataclass(frozen=True)
class FlowLocation:
    """A place in a session: the document (its key in the mapping, or its position), its kind, a JSON
    Pointer into it.
    """

    document: str | int
    kind: str
    pointer: str


@dataclass(frozen=True)
class FlowViolation:
    """One broken rule of a session: the rule's id, the places involved (first the one at fault), a message naming the
    ids.
    """

    rule: str
    locations: tuple[FlowLocation, ...]
    message: str


@dataclass(frozen=True)
class FlowRuleResult:
    """A rule over one set: how many times it applied, how many of those failed, and why it did not apply."""

    rule: str
    source: FlowRuleSource
    status: FlowRuleStatus
    applications: int
    failures: int
    reason: str  # not_applicable: the documents that are absent; fails: how many failed, and the first; holds: ""


@dataclass(frozen=True)
class FlowReport:
    """The verdict on a session: the violations, and every rule of the run with its status."""

    violations: tuple[FlowViolation, ...]
    rules: tuple[FlowRuleResult, ...]

    @property
    def ok(self) -> bool:
        """True when no rule fails (a rule that did not apply does not make the set fail)."""
        return not self.violations


class _Doc(NamedTuple):
    name: str | int
    kind: str  # the model's class name
    model: MplpModel

    def at(self, *parts: object) -> FlowLocation:
        return FlowLocation(self.name, self.kind, pointer(parts))

    def label(self) -> str:
        return f"{self.kind.lower()} {_own_id(self)}"


_ID_FIELDS = {kind.name: kind.id_field for kind in KINDS}


def _own_id(doc: _Doc) -> str:
    return str(getattr(doc.model, _ID_FIELDS[doc.kind], "?"))


@dataclass
class _Tally:
    """What one rule found: applications, violations; and why it did not apply."""

    applications: int = 0
    violations: list[FlowViolation] = field(default_factory=lambda: list[FlowViolation]())
    reason: str = ""


class _Session:
    """The documents of a set, indexed by kind and by id (one pass)."""

    def __init__(self, documents: Mapping[str, MplpModel] | Iterable[MplpModel]) -> None:
        self.docs: list[_Doc] = []
        self.by_kind: dict[str, list[_Doc]] = {}
        for name, model in _named(documents):
            kind = _kind_name(model)
            if kind is None or not isinstance(model, MplpModel):
                raise TypeError(
                    f"document {name!r} is not a parsed payload (a Plan, Context...): {type(model).__name__}"
                )
            doc = _Doc(name, kind, model)
            self.docs.append(doc)
            self.by_kind.setdefault(doc.kind, []).append(doc)
        self.ids: dict[str, dict[str, _Doc]] = {
            kind: {_own_id(doc): doc for doc in docs} for kind, docs in self.by_kind.items()
        }

    def of(self, kind: str) -> list[_Doc]:
        return self.by_kind.get(kind, [])

    def typed(self, model: type[_M]) -> Iterator[tuple[_Doc, _M]]:
        """The documents of one model, with the model typed."""
        for doc in self.of(model.__name__):
            yield doc, cast(_M, doc.model)


def _kind_name(model: object) -> str | None:
    """The payload kind of ``model``: its class's name, or a base class's for a subclass of a model."""
    return generated_kind(model, _ID_FIELDS)


def _named(documents: object) -> Iterator[tuple[str | int, object]]:
    if isinstance(documents, Mapping):
        yield from cast("Mapping[str, object]", documents).items()
    else:
        yield from enumerate(cast("Iterable[object]", documents))


def check_flow(
    documents: Mapping[str, MplpModel] | Iterable[MplpModel], *, profile: FlowProfile | None = None
) -> list[FlowViolation]:
    """Every rule the documents of one session break as a set.

    Args:
        documents: The parsed documents of one session (payloads that ``parse`` reads: a Plan,
            a Context, an Event...): a mapping (a name, such as a file name, to each
            document) or an iterable (each named by its position).
        profile: ``"sa"`` or ``"map"`` adds upstream's single-agent or multi-agent profile rules.

    Returns:
        The violations, rule by rule (``RULES`` order), in document order within a rule.

    Raises:
        TypeError: If a document is not a parsed payload (a ``PlanStep``, a dict...).
        ValueError: If ``profile`` is not one of the profiles.
    """
    return list(check_flow_report(documents, profile=profile).violations)


def check_flow_report(
    documents: Mapping[str, MplpModel] | Iterable[MplpModel], *, profile: FlowProfile | None = None
) -> FlowReport:
    """``check_flow`` with the verdict of every rule: how often it applied and failed, and why.

    Each ``FlowRuleResult``'s ``reason`` says why a rule did not apply (the documents that are
    absent) or why it fails (how many of its applications, and the first violation's message).

    Raises:
        TypeError: If a document is not a parsed payload.
        ValueError: If ``profile`` is not one of the profiles.
    """
    if profile not in (None, "sa", "map"):
        raise ValueError(f"profile is 'sa', 'map' or None, not {profile!r}")
    session = _Session(documents)
    results: list[FlowRuleResult] = []
    violations: list[FlowViolation] = []
    for rule in RULES.values():
        if not _in_profile(rule, profile):
            continue
        tally = _Tally()
        _CHECKS[rule.id](session, tally)
        failures = len(tally.violations)
        status: FlowRuleStatus = "fails" if failures else "holds" if tally.applications else "not_applicable"
        results.append(
            FlowRuleResult(rule.id, rule.source, status, tally.applications, failures, _reason(status, tally))
        )
        violations += tally.violations
    return FlowReport(tuple(violations), tuple(results))


def _reason(status: FlowRuleStatus, tally: _Tally) -> str:
    """Why a rule has its status: the absent documents of one that did not apply; the failures of one that fails."""
    if status == "not_applicable":
        return tally.reason or "nothing to check"
    if status == "fails":
        failures = len(tally.violations)
        verb = "fails" if failures == 1 else "fail"
        some = "it fails" if tally.applications == 1 else f"{failures} of its {tally.applications} applications {verb}"
        return f"{some}; the first: {tally.violations[0].message}"
    return ""


def _in_profile(rule: FlowRule, profile: FlowProfile | None) -> bool:
    # MAP extends SA: its sets keep the SA rules too.
    return rule.profile is None or rule.profile == profile or (rule.profile == "sa" and profile == "map")


# --- the context ---------------------------------------------------------------------------------


def _context_ids(session: _Session, tally: _Tally) -> dict[str, _Doc] | None:
    contexts = session.ids.get("Context")
    if not contexts:
        tally.reason = "no Context in the set"
        return None
    return contexts


class _InContext(Protocol):
    @property
    def context_id(self) -> str: ...


def _bound_to_context(session: _Session, tally: _Tally, rule: str, kinds: Iterable[str]) -> None:
    """Each document of ``kinds`` names the set's context in ``context_id``."""
    contexts = _context_ids(session, tally)
    if contexts is None:
        return
    for kind in kinds:
        for doc in session.of(kind):
            _same_context(tally, rule, doc, cast(_InContext, doc.model).context_id, ("context_id",), contexts)
    if not tally.applications:
        tally.reason = f"no {' or '.join(kinds)} in the set"


def _same_context(
    tally: _Tally, rule: str, doc: _Doc, value: str | None, parts: tuple[str | int, ...], contexts: dict[str, _Doc]
) -> None:
    if value is None:
        return
    tally.applications += 1
    if value in contexts:
        return
    context = next(iter(contexts.values()))
    tally.violations.append(
        FlowViolation(
            rule,
            (doc.at(*parts), context.at("context_id")),
            f"{doc.label()} has {'/'.join(map(str, parts))} {value}, but the session's context is {_own_id(context)}",
        )
    )


def _plan_context(session: _Session, tally: _Tally) -> None:
    _bound_to_context(session, tally, "plan_context", ("Plan",))


def _collab_context(session: _Session, tally: _Tally) -> None:
    _bound_to_context(session, tally, "collab_context", ("Collab",))


def _trace_context(session: _Session, tally: _Tally) -> None:
    _bound_to_context(session, tally, "trace_context", ("Trace",))


def _context_binding(session: _Session, tally: _Tally) -> None:
    _bound_to_context(session, tally, "context_binding", ("Dialog", "Extension", "Network"))


def _root_span_context(session: _Session, tally: _Tally) -> None:
    contexts = _context_ids(session, tally)
    if contexts is None:
        return
    for doc, trace in session.typed(Trace):
        _same_context(
            tally, "root_span_context", doc, trace.root_span.context_id, ("root_span", "context_id"), contexts
        )
    if not tally.applications:
        tally.reason = "no Trace whose root_span has a context_id"


def _spans(session: _Session) -> Iterator[tuple[_Doc, TraceBase, tuple[str, ...]]]:
    """Every span but a trace's root span (the stated rules' own): each document's ``trace``, and
    TraceBase documents.
    """
    for doc in session.docs:
        if isinstance(doc.model, TraceBase):
            yield doc, doc.model, ()
            continue
        span = getattr(doc.model, "trace", None)
        if isinstance(span, TraceBase):
            yield doc, span, ("trace",)


def _span_context(session: _Session, tally: _Tally) -> None:
    contexts = _context_ids(session, tally)
    if contexts is None:
        return
    for doc, span, parts in _spans(session):
        _same_context(tally, "span_context", doc, span.context_id, (*parts, "context_id"), contexts)
    if not tally.applications:
        tally.reason = "no span with a context_id"


def _one_context(session: _Session, tally: _Tally) -> None:
    contexts = session.of("Context")
    if not contexts:
        tally.reason = "no Context in the set"
        return
    tally.applications += 1
    if len(contexts) > 1:
        names = ", ".join(_own_id(doc) for doc in contexts)
        tally.violations.append(
            FlowViolation(
                "one_context",
                tuple(doc.at("context_id") for doc in contexts),
                f"a session has one context; this set has {len(contexts)}: {names}",
            )
        )


# --- plans, traces, confirms ---------------------------------------------------------------------


def _names(
    tally: _Tally, rule: str, doc: _Doc, parts: tuple[str | int, ...], value: str, targets: dict[str, _Doc], noun: str
) -> None:
    """``value`` (at ``parts`` of ``doc``) is the id of one of ``targets`` (documents of kind ``noun``)."""
    tally.applications += 1
    if value in targets:
        return
    shown = ", ".join(sorted(targets))
    first = next(iter(targets.values()))
    tally.violations.append(
        FlowViolation(
            rule,
            (doc.at(*parts), first.at(_ID_FIELDS[first.kind])),
            f"{doc.label()} has {'/'.join(map(str, parts))} {value}, which is not the id of the set's {noun} ({shown})",
        )
    )


def _trace_plan(session: _Session, tally: _Tally) -> None:
    plans = session.ids.get("Plan")
    if not plans:
        tally.reason = "no Plan in the set"
        return
    for doc, trace in session.typed(Trace):
        if trace.plan_id is not None:
            _names(tally, "trace_plan", doc, ("plan_id",), trace.plan_id, plans, "plan")
    if not tally.applications:
        tally.reason = "no Trace with a plan_id"


_CONFIRMED_KINDS = {"context": "Context", "plan": "Plan", "trace": "Trace", "extension": "Extension"}


def _confirm_targets(session: _Session, tally: _Tally, rule: str, types: Iterable[str]) -> None:
    wanted = set(types)
    for doc, confirm in session.typed(Confirm):
        target_type = confirm.target_type.value
        if target_type not in wanted:
            continue
        targets = session.ids.get(_CONFIRMED_KINDS[target_type])
        if targets:
            _names(tally, rule, doc, ("target_id",), confirm.target_id, targets, target_type)
    if not tally.applications:
        tally.reason = f"no Confirm whose target_type ({', '.join(sorted(wanted))}) has documents in the set"


def _confirm_target_plan(session: _Session, tally: _Tally) -> None:
    _confirm_targets(session, tally, "confirm_target_plan", ("plan",))


def _confirm_target(session: _Session, tally: _Tally) -> None:
    _confirm_targets(session, tally, "confirm_target", ("context", "trace", "extension"))


def _span_trace(session: _Session, tally: _Tally) -> None:
    traces = session.ids.get("Trace")
    if not traces:
        tally.reason = "no Trace in the set"
        return
    for doc, span, parts in _spans(session):
        _names(tally, "span_trace", doc, (*parts, "trace_id"), span.trace_id, traces, "trace")
    if not tally.applications:
        tally.reason = "no span (a document's trace, a TraceBase) in the set"


def _events(session: _Session) -> Iterator[tuple[_Doc, Event, tuple[str | int, ...]]]:
    """Every event of the set: Event documents, and the events of every document."""
    for doc in session.docs:
        if isinstance(doc.model, Event):
            yield doc, doc.model, ()
            continue
        for position, event in enumerate(getattr(doc.model, "events", None) or ()):
            yield doc, event, ("events", position)


def _event_trace(session: _Session, tally: _Tally) -> None:
    traces = session.ids.get("Trace", {})
    for doc, event, parts in _events(session):
        if event.trace_id is None:
            continue
        where = (*parts, "trace_id")
        if isinstance(doc.model, Trace):
            # An event of a trace belongs to that trace, whatever else the set holds.
            tally.applications += 1
            if event.trace_id != doc.model.trace_id:
                tally.violations.append(
                    FlowViolation(
                        "event_trace",
                        (doc.at(*where), doc.at("trace_id")),
                        f"event {event.event_id} of {doc.label()} has trace_id {event.trace_id}",
                    )
                )
        elif traces:
            _names(tally, "event_trace", doc, where, event.trace_id, traces, "trace")
    if not tally.applications:
        tally.reason = "no event with a trace_id in a trace, or beside a Trace in the set"


def _segment_step(session: _Session, tally: _Tally) -> None:
    plans = session.ids.get("Plan")
    for doc, trace in session.typed(Trace):
        plan = plans.get(trace.plan_id) if plans and trace.plan_id is not None else None
        if plan is None:
            continue
        steps = cast(Plan, plan.model).steps_by_id
        for position, segment in enumerate(trace.segments or ()):
            if segment.attributes is None or STEP_ATTRIBUTE not in segment.attributes:
                continue
            tally.applications += 1
            step_id = segment.attributes[STEP_ATTRIBUTE]
            if isinstance(step_id, str) and step_id in steps:
                continue
            tally.violations.append(
                FlowViolation(
                    "segment_step",
                    (doc.at("segments", position, "attributes", STEP_ATTRIBUTE), plan.at("steps")),
                    f"segment {segment.segment_id} of {doc.label()} runs step {step_id!r}, "
                    f"which is no step of {plan.label()}",
                )
            )
    if not tally.applications:
        tally.reason = "no segment with a step_id in a Trace whose plan is in the set"


def _id_kind(session: _Session, tally: _Tally) -> None:
    first: dict[str, _Doc] = {}
    for doc in session.docs:
        tally.applications += 1
        own = _own_id(doc)
        earlier = first.setdefault(own, doc)
        if earlier.kind != doc.kind:
            tally.violations.append(
                FlowViolation(
                    "id_kind",
                    (doc.at(_ID_FIELDS[doc.kind]), earlier.at(_ID_FIELDS[earlier.kind])),
                    f"id {own} names both {earlier.label()} and {doc.label()}",
                )
            )
    if not tally.applications:
        tally.reason = "an empty set"


def _document_rules(session: _Session, tally: _Tally) -> None:
    for doc in session.docs:
        if not isinstance(doc.model, RuledModel):
            continue
        tally.applications += 1
        for violation in doc.model.check():
            tally.violations.append(
                FlowViolation("document_rules", (doc.at(*violation.loc),), f"{doc.label()}: {violation.message}")
            )
    if not tally.applications:
        tally.reason = "no document with rules of its own"


# --- the profiles (upstream's sa-invariants.yaml and map-invariants.yaml) ------------------------


def _sa_requires_context(session: _Session, tally: _Tally) -> None:
    tally.applications += 1
    if not session.of("Context"):
        where = tuple(doc.at() for doc in session.docs[:1])
        tally.violations.append(
            FlowViolation("sa_requires_context", where, "the SA profile runs in a context; the set holds none")
        )


def _each_document(
    session: _Session, tally: _Tally, model: type[_M], rule: str, member: str, problem: Callable[[_M], str | None]
) -> None:
    """Checks every document of ``model``: a violation of ``rule`` at ``member`` where ``problem`` names one."""
    for doc, document in session.typed(model):
        tally.applications += 1
        wrong = problem(document)
        if wrong is not None:
            tally.violations.append(FlowViolation(rule, (doc.at(member),), f"{doc.label()} {wrong}"))
    if not tally.applications:
        tally.reason = f"no {model.__name__} in the set"


def _inactive(context: Context) -> str | None:
    status = context.status.value
    return None if status == "active" else f"is {status}; the SA profile runs in an active context"


def _sa_context_must_be_active(session: _Session, tally: _Tally) -> None:
    _each_document(session, tally, Context, "sa_context_must_be_active", "status", _inactive)


def _sa_plan_has_steps(session: _Session, tally: _Tally) -> None:
    # The schema's minItems holds it too; kept for a plan built without validation.
    _each_document(
        session, tally, Plan, "sa_plan_has_steps", "steps", lambda plan: None if plan.steps else "has no step"
    )


def _blank(value: str | None) -> bool:
    # Upstream's non-empty-string: a string with something besides white space.
    return value is None or not value.strip()


def _sa_steps_agent_role_if_present(session: _Session, tally: _Tally) -> None:
    for doc, plan in session.typed(Plan):
        for position, step in enumerate(plan.steps):
            if step.agent_role is None:
                continue
            tally.applications += 1
            if _blank(step.agent_role):
                tally.violations.append(
                    FlowViolation(
                        "sa_steps_agent_role_if_present",
                        (doc.at("steps", position, "agent_role"),),
                        f"step {step.step_id} of {doc.label()} has a blank agent_role",
                    )
                )
    if not tally.applications:
        tally.reason = "no step with an agent_role"


def _sa_trace_not_empty(session: _Session, tally: _Tally) -> None:
    _each_document(
        session,
        tally,
        Trace,
        "sa_trace_not_empty",
        "events",
        lambda trace: None if trace.events else "has no event (SA emits at least one)",
    )


def _sa_trace_plan_binding(session: _Session, tally: _Tally) -> None:
    plans = session.ids.get("Plan")
    if not plans or not session.of("Trace"):
        tally.reason = "no Plan in the set" if not plans else "no Trace in the set"
        return
    for doc, trace in session.typed(Trace):
        if trace.plan_id is None:
            tally.applications += 1
            tally.violations.append(
                FlowViolation(
                    "sa_trace_plan_binding",
                    (doc.at("plan_id"),),
                    f"{doc.label()} has no plan_id; under SA it names the plan {', '.join(sorted(plans))}",
                )
            )
        else:
            _names(tally, "sa_trace_plan_binding", doc, ("plan_id",), trace.plan_id, plans, "plan")


def _participants(session: _Session, tally: _Tally, rule: str, name: str) -> None:
    for doc, collab in session.typed(Collab):
        for position, participant in enumerate(collab.participants):
            tally.applications += 1
            if _blank(getattr(participant, name)):
                tally.violations.append(
                    FlowViolation(
                        rule,
                        (doc.at("participants", position, name),),
                        f"participant {participant.participant_id!r} of {doc.label()} has no {name} "
                        "(MAP binds each to a role)",
                    )
                )
    if not tally.applications:
        tally.reason = "no Collab in the set"


def _map_participants_have_role_ids(session: _Session, tally: _Tally) -> None:
    _participants(session, tally, "map_participants_have_role_ids", "role_id")


def _map_participant_ids_are_non_empty(session: _Session, tally: _Tally) -> None:
    _participants(session, tally, "map_participant_ids_are_non_empty", "participant_id")


_CHECKS: dict[str, Callable[[_Session, _Tally], None]] = {
    "plan_context": _plan_context,
    "collab_context": _collab_context,
    "trace_context": _trace_context,
    "root_span_context": _root_span_context,
    "trace_plan": _trace_plan,
    "confirm_target_plan": _confirm_target_plan,
    "confirm_target": _confirm_target,
    "context_binding": _context_binding,
    "span_context": _span_context,
    "span_trace": _span_trace,
    "event_trace": _event_trace,
    "segment_step": _segment_step,
    "one_context": _one_context,
    "id_kind": _id_kind,
    "document_rules": _document_rules,
    "sa_requires_context": _sa_requires_context,
    "sa_context_must_be_active": _sa_context_must_be_active,
    "sa_plan_has_steps": _sa_plan_has_steps,
    "sa_steps_agent_role_if_present": _sa_steps_agent_role_if_present,
    "sa_trace_not_empty": _sa_trace_not_empty,
    "sa_trace_plan_binding": _sa_trace_plan_binding,
    "map_participants_have_role_ids": _map_participants_have_role_ids,
    "map_participant_ids_are_non_empty": _map_participant_ids_are_non_empty,
}


publish(__name__)  # the public classes above, shown as mplp_models.<name>
