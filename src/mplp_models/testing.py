"""Hypothesis strategies that generate valid instances of every model, for property-based tests.

Every instance passes its JSON Schema and the rules beyond it (see the rules
page): plan steps with unique ids and acyclic dependencies on steps of the same
plan, step statuses that agree with the plan's status and with their
dependencies, dialog messages within the dialog's start and end, inbox
timestamps that match the status and come after ``created_at``. Within those
bounds the values vary as far as the schemas allow: optional fields present or
absent, nullable fields ``null``, any Unicode text, RFC 3339 timestamps from
year 0000 to 9999 in every spelling (offsets, fractions, ``t``/``z``, leap
seconds), numbers as ints and floats at their bounds, open objects nested.
Since timestamps span the calendar, a lifecycle move stamped "now" may break
a rule (a message created in 9999 cannot be read today): pass ``at=``.

Needs hypothesis (``pip install 'mplp-models[testing]'``); importing
``mplp_models`` itself never imports it.

Example::

    from hypothesis import given
    from mplp_models import Plan
    from mplp_models.testing import plans

    @given(plans())
    def test_round_trip(plan: Plan) -> None:
        assert Plan.from_json(plan.to_json()) == plan

Nothing is registered with hypothesis on import; call
``register_type_strategies`` for ``st.from_type(Plan)`` and
``st.builds`` to use these strategies.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from datetime import date
from functools import cache
from typing import Any, TypeVar, cast

try:
    from hypothesis import strategies as st
    from hypothesis.strategies import SearchStrategy
except ImportError:  # pragma: no cover - tested in a subprocess without hypothesis
    raise ImportError(  # noqa: B904  # the original error stays attached as the context
        "mplp_models.testing needs hypothesis; install it with: pip install 'mplp-models[testing]'",
        name="hypothesis",
    )
from pydantic import JsonValue

from mplp_models import (
    AgentTokenUsage,
    CodeInboxMessage,
    CodeInboxMessageRelations,
    CodeInboxMessageStatus,
    CodeInboxMessageType,
    Collab,
    CollabMode,
    CollabParticipant,
    CollabParticipantKind,
    CollabStatus,
    Confirm,
    ConfirmDecision,
    ConfirmDecisionStatus,
    ConfirmStatus,
    ConfirmTargetType,
    Context,
    ContextRoot,
    ContextStatus,
    Core,
    CoreStatus,
    CrossCuttingConcern,
    Dialog,
    DialogGovernance,
    DialogMessage,
    DialogMessageRole,
    DialogStatus,
    ErrorInfo,
    Event,
    Extension,
    ExtensionStatus,
    ExtensionType,
    FeedbackDecision,
    Governance,
    InboxMessage,
    InboxMessageStatus,
    InboxMessageType,
    LearningSample,
    LearningSampleTimestamps,
    Metadata,
    ModuleDescriptor,
    ModuleDescriptorStatus,
    ModuleId,
    MplpModel,
    Network,
    NetworkNode,
    NetworkNodeKind,
    NetworkNodeStatus,
    NetworkStatus,
    NetworkTopologyType,
    Plan,
    PlanStatus,
    PlanStep,
    PlanStepStatus,
    Ref,
    RefModule,
    Role,
    Timestamp,
    TokenUsage,
    Trace,
    TraceBase,
    TraceSegment,
    TraceSegmentStatus,
    TraceStatus,
    UserFeedback,
)
from mplp_models._inbox import STAMP_OF_STATUS
from mplp_models._kinds import KINDS
from mplp_models._parse import Payload

__all__ = [
    "agent_token_usages",
    "code_inbox_message_relations",
    "code_inbox_messages",
    "collab_participants",
    "collabs",
    "confirm_decisions",
    "confirms",
    "context_roots",
    "contexts",
    "cores",
    "dialog_governance",
    "dialog_messages",
    "dialogs",
    "error_info",
    "events",
    "extensions",
    "governance",
    "inbox_messages",
    "instances",
    "json_objects",
    "learning_sample_timestamps",
    "learning_samples",
    "metadata",
    "module_descriptors",
    "mplp_ids",
    "network_nodes",
    "networks",
    "payloads",
    "plan_steps",
    "plans",
    "refs",
    "register_type_strategies",
    "roles",
    "timestamps",
    "token_usages",
    "trace_bases",
    "trace_segments",
    "traces",
    "user_feedback",
]

M = TypeVar("M", bound=MplpModel)

# --- building blocks ------------------------------------------------------------

_MAX_SAFE_INT = 2**53 - 1  # beyond it an integer has no canonical JSON form that reads back the same
_ASCII_ALNUM = string.ascii_letters + string.digits


@cache  # one strategy object, so hypothesis validates it once, not at every draw
def _texts(*, min_size: int = 0, max_size: int | None = 24) -> SearchStrategy[str]:
    # Any code point that UTF-8 can carry (a lone surrogate cannot travel as JSON).
    return st.text(st.characters(codec="utf-8"), min_size=min_size, max_size=max_size)


def _joined(*parts: SearchStrategy[str], separator: str = "") -> SearchStrategy[str]:
    return st.tuples(*parts).map(separator.join)


@cache  # one strategy object, so hypothesis validates it once, not at every draw
def _prefixed_ids(prefix: str) -> SearchStrategy[str]:
    """``prefix`` then ``[A-Za-z0-9][A-Za-z0-9._-]*``, the inbox schema's id patterns (ASCII only)."""
    return _joined(st.just(prefix), st.sampled_from(_ASCII_ALNUM), st.text(_ASCII_ALNUM + "._-", max_size=12))


@cache  # one strategy object, so hypothesis validates it once, not at every draw
def _versions() -> SearchStrategy[str]:
    part = st.one_of(st.integers(0, 20).map(str), st.text(string.digits, min_size=1, max_size=6))
    return _joined(part, part, part, separator=".")


_MPLP_IDS: SearchStrategy[str] = st.uuids(version=4).map(str)


def mplp_ids() -> SearchStrategy[str]:
    """``MplpId`` values: lowercase, hyphenated UUID version 4 text."""
    return _MPLP_IDS


@cache  # one strategy object, so hypothesis validates it once, not at every draw
def _json_integers(min_value: int = -_MAX_SAFE_INT, max_value: int = _MAX_SAFE_INT) -> SearchStrategy[int]:
    edges = sorted({min_value, max_value, max(min_value, min(0, max_value))})
    return st.one_of(st.sampled_from(edges), st.integers(min_value, max_value))


def _round_trips(value: float) -> bool:
    # An integral float in [2**53, 10**21) is written as plain digits and read
    # back as an int that may not be its exact value (2.0**60 comes back as
    # 1152921504606847000): the same JSON number, but unequal in Python.
    return not (value.is_integer() and 2.0**53 <= abs(value) < 1e21)


@cache  # one strategy object, so hypothesis validates it once, not at every draw
def _floats(min_value: float | None = None, max_value: float | None = None) -> SearchStrategy[float]:
    return st.floats(min_value=min_value, max_value=max_value, allow_nan=False, allow_infinity=False).filter(
        _round_trips
    )


@cache  # one strategy object, so hypothesis validates it once, not at every draw
def _json_numbers(min_value: float | None = None, max_value: float | None = None) -> SearchStrategy[float]:
    """JSON numbers in the bounds, as the models keep them: ints and finite floats, edges included."""
    low = -_MAX_SAFE_INT if min_value is None else int(min_value)
    high = _MAX_SAFE_INT if max_value is None else int(max_value)
    floats = _floats(min_value, max_value)
    edges: list[float] = [float(low), float(high)]
    if min_value is not None and min_value == 0:
        edges += [-0.0, 5e-324]  # -0.0 >= 0 holds, in JSON Schema as in Python
    if max_value is None:
        edges.append(1.7976931348623157e308)
    return st.one_of(_json_integers(low, high), floats, st.sampled_from(edges))


@cache  # one strategy object, so hypothesis validates it once, not at every draw
def _json_values() -> SearchStrategy[JsonValue]:
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        _json_integers(),
        _floats(),
        _texts(),
    )
    values = st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=4),
            st.dictionaries(_texts(max_size=8), children, max_size=4),
        ),
        max_leaves=8,
    )
    return cast("SearchStrategy[JsonValue]", values)


@st.composite
def _json_objects(draw: st.DrawFn) -> dict[str, JsonValue]:
    found: dict[str, JsonValue] = draw(st.dictionaries(_texts(max_size=8), _json_values(), max_size=5))
    if draw(st.integers(0, 9)) == 0:
        # Now and then one value nests deep (well within MAX_OPEN_DEPTH).
        depth = draw(st.integers(2, 40))
        nested: JsonValue = draw(_json_values())
        for level in range(depth):
            nested = [nested] if level % 2 else {"": nested}
        found[draw(_texts(max_size=8))] = nested
    return found


def json_objects() -> SearchStrategy[dict[str, JsonValue]]:
    """Open JSON objects (``JsonObject``): any keys, every JSON type, nested arrays and objects (now and then deeply).

    Integers stay within +/-(2**53 - 1) and floats are finite and never an
    integral value in [2**53, 10**21), so an object compares equal after a
    round trip through canonical JSON.
    """
    return _json_objects()


# --- timestamps -------------------------------------------------------------------
# An instant is (whole seconds since 1970-01-01T00:00:00Z, fraction digits as
# written). Ordered by (seconds, digits without trailing zeros), which is the
# order of Timestamp.instant() and so of the rules. Instants stay a day inside
# years 0000 to 9999, so any UTC offset writes them within those years.

_Instant = tuple[int, str]
_DAY = 86_400
_EPOCH_DAY = date(1970, 1, 1).toordinal()
_CYCLE_DAYS = 146_097  # 400 Gregorian years; `date` has no year 0, so year 0 is written via year 400
_FIRST = (date(400, 1, 2).toordinal() - _CYCLE_DAYS - _EPOCH_DAY) * _DAY  # 0000-01-02T00:00:00Z
_LAST = (date(9999, 12, 30).toordinal() - _EPOCH_DAY) * _DAY + _DAY - 1  # 9999-12-30T23:59:59Z
_RECENT = ((date(2000, 1, 1).toordinal() - _EPOCH_DAY) * _DAY, (date(2100, 1, 1).toordinal() - _EPOCH_DAY) * _DAY)
_MAX_OFFSET = 23 * 60 + 59  # minutes


def _day_start(year: int, month: int, day: int) -> int:
    if year == 0:
        return (date(400, month, day).toordinal() - _CYCLE_DAYS - _EPOCH_DAY) * _DAY
    return (date(year, month, day).toordinal() - _EPOCH_DAY) * _DAY


# Days that calendar code gets wrong: leap days (year 0000 and 2000 are leap
# years, 1900 is not), the epoch, the end of 32-bit time, a year's last day.
_EDGE_DAYS = [
    _day_start(*day)
    for day in (
        (0, 2, 29),
        (1600, 2, 29),
        (1900, 2, 28),
        (1900, 3, 1),
        (1969, 12, 31),
        (1970, 1, 1),
        (2000, 2, 29),
        (2024, 2, 29),
        (2038, 1, 19),
        (2025, 12, 31),
        (9999, 12, 30),
    )
]


@cache  # one strategy object, so hypothesis validates it once, not at every draw
def _seconds() -> SearchStrategy[int]:
    return st.one_of(
        st.integers(*_RECENT),
        st.integers(_FIRST, _LAST),
        st.sampled_from([_FIRST, _LAST, 0]),
        st.builds(int.__add__, st.sampled_from(_EDGE_DAYS), st.integers(0, _DAY - 1)),
        st.integers(*_RECENT).map(
            lambda seconds: seconds - seconds % 60
        ),  # on the minute: a leap second can be written
    )


@cache  # one strategy object, so hypothesis validates it once, not at every draw
def _fractions() -> SearchStrategy[str]:
    return st.one_of(
        st.just(""), st.text(string.digits, min_size=1, max_size=12), st.sampled_from(["000", "5", "999999999"])
    )


def _key(instant: _Instant) -> tuple[int, str]:
    return instant[0], instant[1].rstrip("0")


_OFFSETS = st.one_of(
    st.just(0), st.sampled_from([60, 120, -300, 330, 345, -570, 840]), st.integers(-_MAX_OFFSET, _MAX_OFFSET)
)
_ZONES = st.sampled_from(["Z", "z", "+00:00", "-00:00"])
_SEPARATORS = st.sampled_from("Tt")
_STEPS = st.one_of(st.just(0), st.integers(0, 120), st.integers(0, 400 * 366 * _DAY))


@st.composite
def _write(draw: st.DrawFn, instant: _Instant) -> Timestamp:
    """One RFC 3339 spelling of the instant: any offset, ``T`` or ``t``, ``Z``, ``z`` or ``±00:00``, maybe a leap second."""
    seconds, fraction = instant
    offset = draw(_OFFSETS)
    local = seconds + offset * 60
    leap = local % 60 == 0 and draw(st.booleans())
    if leap:
        local -= 1  # hh:mm:60 is the instant of the next minute's :00
    day, clock = divmod(local, _DAY)
    ordinal = day + _EPOCH_DAY
    when = date.fromordinal(ordinal if ordinal >= 1 else ordinal + _CYCLE_DAYS)
    year = when.year if ordinal >= 1 else when.year - 400
    hour, rest = divmod(clock, 3600)
    minute, second = divmod(rest, 60)
    if leap:
        second = 60
    if offset == 0:
        zone = draw(_ZONES)
    else:
        zone = f"{'+' if offset > 0 else '-'}{abs(offset) // 60:02d}:{abs(offset) % 60:02d}"
    separator = draw(_SEPARATORS)
    dot = f".{fraction}" if fraction else ""
    return Timestamp(
        f"{year:04d}-{when.month:02d}-{when.day:02d}{separator}{hour:02d}:{minute:02d}:{second:02d}{dot}{zone}"
    )


@st.composite
def _timeline(draw: st.DrawFn, count: int) -> list[Timestamp]:
    """``count`` timestamps in instant order (equal instants allowed, spelled differently)."""
    seconds = draw(_seconds())
    instants: list[_Instant] = []
    for _ in range(count):
        instants.append((seconds, draw(_fractions())))
        step = draw(_STEPS)
        seconds = min(_LAST, seconds + step)
    return [draw(_write(instant)) for instant in sorted(instants, key=_key)]


def timestamps() -> SearchStrategy[Timestamp]:
    """``Timestamp`` values: RFC 3339 date-times from year 0000 to 9999, in every spelling the format allows."""
    return _timeline(1).map(lambda timeline: timeline[0])


# --- helpers for optional fields ----------------------------------------------------------


_CHOICES = st.sampled_from(("absent", "given"))
_NULLABLE_CHOICES = st.sampled_from(("absent", "null", "given"))


def _maybe(
    draw: st.DrawFn, fields: dict[str, object], name: str, values: SearchStrategy[object], *, nullable: bool = False
) -> None:
    """Leave the field absent, set it to ``null`` (when the schema allows it), or draw a value."""
    choice = draw(_NULLABLE_CHOICES if nullable else _CHOICES)
    if choice == "null":
        fields[name] = None
    elif choice == "given":
        fields[name] = draw(values)


@st.composite
def _built(
    draw: st.DrawFn,
    model: type[M],
    required: Mapping[str, SearchStrategy[object]],
    optional: Mapping[str, SearchStrategy[object]],
) -> M:
    """A ``model`` of drawn required fields, and optional ones each absent or drawn."""
    fields: dict[str, object] = {name: draw(values) for name, values in required.items()}
    for name, values in optional.items():
        _maybe(draw, fields, name, values)
    return model.model_validate(fields)


@cache  # one strategy object, so hypothesis validates it once, not at every draw
def _unique_lists(values: SearchStrategy[Any], max_size: int = 4) -> SearchStrategy[list[Any]]:
    return st.lists(values, max_size=max_size, unique=True)


@st.composite
def _subsets(draw: st.DrawFn, members: list[Any]) -> list[Any]:
    """Some of ``members``, in any order, from none to all (a list of distinct draws seldom holds them all)."""
    order = draw(st.permutations(members))
    return order[: draw(st.integers(0, len(members)))]


# --- metadata, references, trace, events ----------------------------------------------------


@st.composite
def _metadata(draw: st.DrawFn) -> Metadata:
    fields: dict[str, object] = {"protocol_version": draw(_versions()), "schema_version": draw(_versions())}
    created, updated = draw(_timeline(2))
    _maybe(draw, fields, "created_at", st.just(created))
    _maybe(draw, fields, "created_by", _texts())
    _maybe(draw, fields, "updated_at", st.just(updated))
    _maybe(draw, fields, "updated_by", _texts())
    _maybe(draw, fields, "tags", _unique_lists(_texts()))
    _maybe(draw, fields, "cross_cutting", _subsets(list(CrossCuttingConcern)))
    return Metadata.model_validate(fields)


def metadata() -> SearchStrategy[Metadata]:
    """``Metadata``: versions as MAJOR.MINOR.PATCH, ``created_at`` not after ``updated_at``, unique tags and concerns."""
    return _metadata()


def refs() -> SearchStrategy[Ref]:
    """``Ref``: an id, a module and maybe a description."""
    return _built(Ref, {"id": mplp_ids(), "module": st.sampled_from(RefModule)}, {"description": _texts()})


def trace_bases() -> SearchStrategy[TraceBase]:
    """``TraceBase``: trace and span ids, maybe a parent span, a context and open attributes."""
    return _built(
        TraceBase,
        {"trace_id": mplp_ids(), "span_id": mplp_ids()},
        {"parent_span_id": mplp_ids(), "context_id": mplp_ids(), "attributes": json_objects()},
    )


@cache  # one strategy object, so hypothesis validates it once, not at every draw
def _event_types() -> SearchStrategy[str]:
    word = _joined(st.sampled_from(string.ascii_lowercase), st.text(string.ascii_lowercase + string.digits, max_size=8))
    return st.one_of(
        st.sampled_from(["plan.created", "plan.step.completed", "dialog.message", "trace.span.ended"]),
        st.lists(word, min_size=1, max_size=4).map(".".join),
    )


@st.composite
def _events(draw: st.DrawFn) -> Event:
    fields: dict[str, object] = {
        "event_id": draw(mplp_ids()),
        "event_type": draw(_event_types()),
        "source": draw(st.one_of(st.sampled_from(["plan", "runtime.ael", "dialog"]), _texts())),
        "timestamp": draw(timestamps()),
    }
    _maybe(draw, fields, "trace_id", mplp_ids())
    _maybe(draw, fields, "data", json_objects(), nullable=True)
    return Event.model_validate(fields)


def events() -> SearchStrategy[Event]:
    """``Event``: a dotted lowercase type, any source text (the empty one too), data absent, ``null`` or an open object."""
    return _events()


# --- plans ----------------------------------------------------------------------------

_NOT_STARTED_PLAN = (PlanStatus.draft, PlanStatus.proposed, PlanStatus.approved)
_DONE = (PlanStepStatus.completed, PlanStepStatus.skipped)
_STARTED = (PlanStepStatus.in_progress, PlanStepStatus.completed)


def _step_fields(draw: st.DrawFn, step_id: str, status: PlanStepStatus, dependencies: list[str]) -> dict[str, object]:
    fields: dict[str, object] = {"step_id": step_id, "description": draw(_texts(min_size=1)), "status": status}
    if dependencies:
        fields["dependencies"] = dependencies
    else:
        _maybe(draw, fields, "dependencies", st.just([]))
    _maybe(draw, fields, "agent_role", _texts())
    _maybe(draw, fields, "order_index", _json_integers(0))
    return fields


@st.composite
def _plan_steps(draw: st.DrawFn, status: PlanStepStatus | None) -> PlanStep:
    step_status = draw(st.sampled_from(PlanStepStatus)) if status is None else status
    step_id = draw(mplp_ids())
    dependencies = draw(_unique_lists(mplp_ids().filter(lambda other: other != step_id)))
    return PlanStep.model_validate(_step_fields(draw, step_id, step_status, dependencies))


def plan_steps(status: PlanStepStatus | str | None = None) -> SearchStrategy[PlanStep]:
    """``PlanStep`` on its own, in ``status`` if given: its dependencies name other (random) step ids.

    A step's rules need its plan; for steps that fit together, draw ``plans``.
    """
    return _plan_steps(None if status is None else PlanStepStatus(status))


def _step_statuses(plan_status: PlanStatus, dependencies_done: bool) -> list[PlanStepStatus]:
    """The statuses a step may have under the plan's status, given whether its dependencies are all done."""
    allowed: list[PlanStepStatus]
    if plan_status in _NOT_STARTED_PLAN:
        allowed = [PlanStepStatus.pending, PlanStepStatus.blocked, PlanStepStatus.skipped]
    elif plan_status is PlanStatus.completed:
        allowed = list(_DONE)
    else:  # in_progress, failed, cancelled: any status
        allowed = list(PlanStepStatus)
    if not dependencies_done:
        allowed = [status for status in allowed if status not in _STARTED]
    return allowed


@st.composite
def _plans(draw: st.DrawFn, status: PlanStatus | None, max_steps: int) -> Plan:
    plan_status = draw(st.sampled_from(PlanStatus)) if status is None else status
    ids: list[str] = draw(st.lists(mplp_ids(), min_size=1, max_size=max_steps, unique=True))
    statuses: dict[str, PlanStepStatus] = {}
    steps: list[dict[str, object]] = []  # validated once, with the plan
    # Each step depends only on steps made before it, so the graph has no cycle;
    # the list is shuffled afterwards, so plans do not always list dependencies first.
    for position, step_id in enumerate(ids):
        earlier = ids[:position]
        dependencies: list[str] = draw(st.lists(st.sampled_from(earlier), max_size=4, unique=True)) if earlier else []
        done = all(statuses[dependency] in _DONE for dependency in dependencies)
        statuses[step_id] = draw(st.sampled_from(_step_statuses(plan_status, done)))
        steps.append(_step_fields(draw, step_id, statuses[step_id], dependencies))
    fields: dict[str, object] = {
        "meta": draw(metadata()),
        "plan_id": draw(mplp_ids()),
        "context_id": draw(mplp_ids()),
        "title": draw(_texts(min_size=1)),
        "objective": draw(_texts(min_size=1)),
        "status": plan_status,
        "steps": draw(st.permutations(steps)),
    }
    _maybe(draw, fields, "trace", trace_bases())
    _maybe(draw, fields, "events", st.lists(events(), max_size=3))
    return Plan.model_validate(fields)


def plans(status: PlanStatus | str | None = None, *, max_steps: int = 8) -> SearchStrategy[Plan]:
    """``Plan`` in ``status`` if given (any status otherwise), with 1 to ``max_steps`` steps.

    Step ids are unique; each dependency names another step of the plan, once,
    and the dependencies form no cycle (the steps are not always listed
    dependencies first). Step statuses keep the plan's rules: none started in a
    draft, proposed or approved plan; all completed or skipped in a completed
    plan; a step in progress or completed only when its dependencies are
    completed or skipped.
    """
    if max_steps < 1:
        raise ValueError(f"a plan has at least one step; max_steps={max_steps}")
    return _plans(None if status is None else PlanStatus(status), max_steps)


# --- dialogs ----------------------------------------------------------------------------


@st.composite
def _dialog_messages(draw: st.DrawFn, timestamp: Timestamp | None) -> DialogMessage:
    fields: dict[str, object] = {
        "role": draw(st.sampled_from(DialogMessageRole)),
        "content": draw(_texts(max_size=80)),
        "timestamp": draw(timestamps()) if timestamp is None else timestamp,
    }
    _maybe(draw, fields, "event", events())
    return DialogMessage.model_validate(fields)


def dialog_messages() -> SearchStrategy[DialogMessage]:
    """``DialogMessage``: any role, any text (the empty one too), a timestamp, maybe an event."""
    return _dialog_messages(None)


def dialog_governance() -> SearchStrategy[DialogGovernance]:
    """``DialogGovernance`` (the shared ``Governance``): as ``governance()``."""
    return governance()


def governance() -> SearchStrategy[Governance]:
    """``Governance``, the block every module but Plan may carry: each field present or absent (the empty object too)."""
    return _built(
        Governance,
        {},
        {
            "lifecyclePhase": st.one_of(st.sampled_from(["design", "implementation", "review"]), _texts()),
            "truthDomain": st.one_of(st.sampled_from(["requirements", "architecture"]), _texts()),
            "locked": st.booleans(),
            "lastConfirmRef": refs(),
        },
    )


@st.composite
def _dialogs(draw: st.DrawFn, status: DialogStatus | None, max_messages: int) -> Dialog:
    count = draw(st.integers(0, max_messages))
    # Start, the messages in order, end: one timeline, so the messages fall within.
    timeline = draw(_timeline(count + 2))
    fields: dict[str, object] = {
        "meta": draw(metadata()),
        "dialog_id": draw(mplp_ids()),
        "context_id": draw(mplp_ids()),
        "status": draw(st.sampled_from(DialogStatus)) if status is None else status,
        "messages": [draw(_dialog_messages(moment)) for moment in timeline[1:-1]],
    }
    _maybe(draw, fields, "governance", dialog_governance())
    _maybe(draw, fields, "thread_id", mplp_ids())
    _maybe(draw, fields, "started_at", st.just(timeline[0]))
    _maybe(draw, fields, "ended_at", st.just(timeline[-1]))
    _maybe(draw, fields, "trace", trace_bases())
    _maybe(draw, fields, "events", st.lists(events(), max_size=3))
    return Dialog.model_validate(fields)


def dialogs(status: DialogStatus | str | None = None, *, max_messages: int = 6) -> SearchStrategy[Dialog]:
    """``Dialog`` in ``status`` if given, with 0 to ``max_messages`` messages in time order.

    ``started_at`` and ``ended_at`` are each present or absent; when present, no
    message falls before the start or after the end, and the end is not before
    the start. The status does not decide them (the rules do not tie them).
    """
    if max_messages < 0:
        raise ValueError(f"max_messages must be 0 or more, not {max_messages}")
    return _dialogs(None if status is None else DialogStatus(status), max_messages)


# --- inbox messages ------------------------------------------------------------------------

_STAMP_OF_STATUS = {
    InboxMessageStatus.read: "read_at",
    InboxMessageStatus.acknowledged: "acknowledged_at",
    InboxMessageStatus.archived: "archived_at",
}


def _recipients() -> SearchStrategy[list[str]]:
    others = st.one_of(_texts(min_size=1), st.sampled_from(["agent-1", "agent-2", "human:ops"])).filter(
        lambda r: r != "broadcast"
    )
    return st.one_of(st.just(["broadcast"]), st.lists(others, min_size=1, max_size=4, unique=True))


@st.composite
def _inbox_messages(draw: st.DrawFn, status: InboxMessageStatus | None) -> InboxMessage:
    message_status = draw(st.sampled_from(InboxMessageStatus)) if status is None else status
    # created, read, acknowledged, archived, updated: in this order in time.
    created, read, acknowledged, archived, updated = draw(_timeline(5))
    fields: dict[str, object] = {
        "schema_version": 1,
        "message_id": draw(_prefixed_ids("IM-")),
        "type": draw(st.sampled_from(InboxMessageType)),
        "status": message_status,
        "sender_id": draw(_texts(min_size=1)),
        "recipient_ids": draw(_recipients()),
        "subject": draw(st.one_of(_texts(min_size=1, max_size=40), _texts(min_size=200, max_size=200))),
        "body": draw(_texts(max_size=200)),
        "created_at": created,
        "updated_at": updated,
    }
    _maybe(draw, fields, "task_id", _texts(), nullable=True)
    _maybe(draw, fields, "mission_id", _texts(), nullable=True)
    _maybe(draw, fields, "related_decision_ids", _unique_lists(_prefixed_ids("D-")))
    _maybe(draw, fields, "related_waitpoint_ids", _unique_lists(_prefixed_ids("WP-")))
    _maybe(draw, fields, "related_handoff_ids", _unique_lists(_texts(min_size=1)))
    # The status's own stamp is set; the others may be set too, null or absent.
    for stamp_status, moment in zip(_STAMP_OF_STATUS, (read, acknowledged, archived)):
        name = _STAMP_OF_STATUS[stamp_status]
        if stamp_status is message_status:
            fields[name] = moment
        else:
            _maybe(draw, fields, name, st.just(moment), nullable=True)
    return InboxMessage.model_validate(fields)


def inbox_messages(status: InboxMessageStatus | str | None = None) -> SearchStrategy[InboxMessage]:
    """``InboxMessage`` in ``status`` if given.

    The stamp of the status (``read_at`` for read, and so on) is set; the other
    stamps are set, ``null`` or absent. Every stamp and ``updated_at`` come
    after (or at) ``created_at``, ``updated_at`` last; ``broadcast`` is only
    ever the sole recipient. Ids follow the schema's ``IM-``, ``D-`` and ``WP-``
    patterns; the subject is sometimes at its 200-character limit.
    """
    return _inbox_messages(None if status is None else InboxMessageStatus(status))


_RELATION_LISTS = ("task_ids", "mission_ids", "run_ids", "queue_ids", "session_ids", "artifact_refs", "worktree_paths")
_CODE_RECIPIENTS: SearchStrategy[list[str]] = st.lists(
    st.one_of(_texts(min_size=1), st.sampled_from(["coordinator", "agent-1", "broadcast"])),
    min_size=1,
    max_size=4,
    unique=True,
)
_NON_EMPTY_LISTS: SearchStrategy[list[str]] = _unique_lists(_texts(min_size=1))


@st.composite
def _relations(draw: st.DrawFn) -> dict[str, list[str]]:
    return {name: draw(_NON_EMPTY_LISTS) for name in _RELATION_LISTS}


_CODE_RELATIONS = _relations()
_CODE_RELATION_MODELS: SearchStrategy[CodeInboxMessageRelations] = _CODE_RELATIONS.map(
    CodeInboxMessageRelations.model_validate
)


def code_inbox_message_relations() -> SearchStrategy[CodeInboxMessageRelations]:
    """``CodeInboxMessageRelations``: each of its seven lists holds up to four distinct non-empty ids."""
    return _CODE_RELATION_MODELS


@st.composite
def _code_inbox_messages(draw: st.DrawFn, status: CodeInboxMessageStatus | None) -> CodeInboxMessage:
    message_status = draw(st.sampled_from(CodeInboxMessageStatus)) if status is None else status
    # created, read, acknowledged, archived, updated: in this order in time.
    created, read, acknowledged, archived, updated = draw(_timeline(5))
    fields: dict[str, object] = {
        "schema_version": 1,
        "message_id": draw(_prefixed_ids("IM-")),
        "type": draw(st.sampled_from(CodeInboxMessageType)),
        "status": message_status,
        "sender_id": draw(_texts(min_size=1)),
        "recipient_ids": draw(_CODE_RECIPIENTS),
        "subject": draw(st.one_of(_texts(min_size=1, max_size=40), _texts(min_size=200, max_size=200))),
        "body": draw(_texts(max_size=200)),
        "artifact_refs": draw(_NON_EMPTY_LISTS),
        "relations": draw(_CODE_RELATIONS),
        "created_at": created,
        "updated_at": updated,
    }
    for stamp, moment in zip(("read_at", "acknowledged_at", "archived_at"), (read, acknowledged, archived)):
        if stamp == STAMP_OF_STATUS.get(message_status.value):
            fields[stamp] = moment
        else:
            _maybe(draw, fields, stamp, st.just(moment), nullable=True)
    return CodeInboxMessage.model_validate(fields)


def code_inbox_messages(status: CodeInboxMessageStatus | str | None = None) -> SearchStrategy[CodeInboxMessage]:
    """``CodeInboxMessage`` (the Cortex code mode's inbox message) in ``status`` if given.

    The stamps are as for ``inbox_messages``. Ids follow the schema's ``IM-``
    pattern; ``artifact_refs`` and each list of ``relations`` hold up to four
    distinct ids; the subject is sometimes at its 200-character limit.
    """
    return _code_inbox_messages(None if status is None else CodeInboxMessageStatus(status))


# --- learning samples ----------------------------------------------------------------------


def agent_token_usages() -> SearchStrategy[AgentTokenUsage]:
    """``AgentTokenUsage``: tokens from 0 up, as ints or floats."""
    return _built(AgentTokenUsage, {"agent_id": _texts(), "tokens": _json_numbers(0)}, {"role": _texts()})


def token_usages() -> SearchStrategy[TokenUsage]:
    """``TokenUsage``: each count absent or a number from 0 up; maybe a list per agent."""
    counts = dict.fromkeys(("total_tokens", "prompt_tokens", "completion_tokens"), _json_numbers(0))
    return _built(TokenUsage, {}, {**counts, "by_agent": st.lists(agent_token_usages(), max_size=3)})


def user_feedback() -> SearchStrategy[UserFeedback]:
    """``UserFeedback``: a decision, a comment and a rating from 0 to 5, each present or absent."""
    return _built(
        UserFeedback,
        {},
        {"decision": st.sampled_from(FeedbackDecision), "comment": _texts(), "rating": _json_numbers(0, 5)},
    )


def error_info() -> SearchStrategy[ErrorInfo]:
    """``ErrorInfo``: code, message and stack trace, each present or absent."""
    return _built(ErrorInfo, {}, dict.fromkeys(("error_code", "error_message", "stack_trace"), _texts()))


@st.composite
def _learning_sample_timestamps(draw: st.DrawFn) -> LearningSampleTimestamps:
    started, completed = draw(_timeline(2))
    fields: dict[str, object] = {"started_at": started}
    _maybe(draw, fields, "completed_at", st.just(completed))
    return LearningSampleTimestamps.model_validate(fields)


def learning_sample_timestamps() -> SearchStrategy[LearningSampleTimestamps]:
    """``LearningSampleTimestamps``: a start, and maybe a completion not before it."""
    return _learning_sample_timestamps()


@st.composite
def _learning_samples(draw: st.DrawFn) -> LearningSample:
    success = draw(st.booleans())
    fields: dict[str, object] = {
        "sample_id": draw(mplp_ids()),
        "project_id": draw(_texts()),
        "success_flag": success,
        "timestamps": draw(learning_sample_timestamps()),
    }
    for name in ("intent_before", "plan", "graph_before", "graph_after", "metadata", "vendor_extensions"):
        _maybe(draw, fields, name, json_objects())
    for name in ("delta_intents", "governance_decisions"):
        _maybe(draw, fields, name, st.lists(json_objects(), max_size=2))
    _maybe(draw, fields, "pipeline_path", st.lists(_texts(), max_size=4))
    _maybe(draw, fields, "error_info", error_info())
    _maybe(draw, fields, "token_usage", token_usages())
    _maybe(draw, fields, "execution_time_ms", _json_numbers(0))
    _maybe(draw, fields, "impact_score", _json_numbers(0, 1))
    _maybe(draw, fields, "user_feedback", user_feedback())
    return LearningSample.model_validate(fields)


def learning_samples() -> SearchStrategy[LearningSample]:
    """``LearningSample``: every optional part present or absent, open objects nested, numbers at their bounds."""
    return _learning_samples()


# --- the further MPLP modules ---------------------------------------------------------------


@cache  # one strategy object, so hypothesis validates it once, not at every draw
def _semvers() -> SearchStrategy[str]:
    """Semantic versions as the Extension schema's pattern takes them: no leading zeros, maybe a pre-release and a build."""
    number = st.one_of(st.just("0"), st.integers(1, 10**9).map(str))
    label = st.one_of(
        number, st.text(_ASCII_ALNUM + "-", min_size=1, max_size=6).filter(lambda text: not text.isdigit())
    )
    dotted = st.lists(label, min_size=1, max_size=3).map(".".join)
    build = st.lists(st.text(_ASCII_ALNUM + "-", min_size=1, max_size=6), min_size=1, max_size=3).map(".".join)
    return _joined(
        _joined(number, number, number, separator="."),
        st.one_of(st.just(""), dotted.map("-".__add__)),
        st.one_of(st.just(""), build.map("+".__add__)),
    )


def _common(draw: st.DrawFn, fields: dict[str, object]) -> None:
    """The optional parts every module shares: governance, trace and events."""
    _maybe(draw, fields, "governance", governance())
    _maybe(draw, fields, "trace", trace_bases())
    _maybe(draw, fields, "events", st.lists(events(), max_size=3))


@st.composite
def _context_roots(draw: st.DrawFn) -> ContextRoot:
    fields: dict[str, object] = {"domain": draw(_texts()), "environment": draw(_texts())}
    _maybe(draw, fields, "entry_point", _texts())
    extra = draw(st.one_of(st.just(dict[str, JsonValue]()), json_objects()))
    return ContextRoot.model_validate(
        {**fields, **{key: extra[key] for key in extra.keys() - ContextRoot.model_fields.keys()}}
    )


def context_roots() -> SearchStrategy[ContextRoot]:
    """``ContextRoot``: domain and environment, maybe an entry point, and now and then keys of its own (open JSON)."""
    return _context_roots()


@st.composite
def _contexts(draw: st.DrawFn) -> Context:
    created, updated = draw(_timeline(2))
    fields: dict[str, object] = {
        "meta": draw(metadata()),
        "context_id": draw(mplp_ids()),
        "root": draw(context_roots()),
        "title": draw(_texts(min_size=1)),
        "status": draw(st.sampled_from(ContextStatus)),
    }
    _maybe(draw, fields, "summary", _texts())
    _maybe(draw, fields, "tags", st.lists(_texts(min_size=1), max_size=4))
    _maybe(draw, fields, "language", st.sampled_from(["en", "zh-CN", "de"]))
    _maybe(draw, fields, "owner_role", _texts())
    _maybe(draw, fields, "constraints", json_objects())
    _maybe(draw, fields, "created_at", st.just(created))
    _maybe(draw, fields, "updated_at", st.just(updated))
    _common(draw, fields)
    return Context.model_validate(fields)


def contexts() -> SearchStrategy[Context]:
    """``Context``: any status, a root with keys of its own now and then, ``created_at`` not after ``updated_at``."""
    return _contexts()


@st.composite
def _confirm_decisions(draw: st.DrawFn, decision_id: str, decided_at: Timestamp) -> ConfirmDecision:
    fields: dict[str, object] = {
        "decision_id": decision_id,
        "status": draw(st.sampled_from(ConfirmDecisionStatus)),
        "decided_by_role": draw(_texts()),
        "decided_at": decided_at,
    }
    _maybe(draw, fields, "reason", _texts())
    return ConfirmDecision.model_validate(fields)


def confirm_decisions() -> SearchStrategy[ConfirmDecision]:
    """``ConfirmDecision`` on its own: any status, maybe a reason."""
    return st.tuples(mplp_ids(), timestamps()).flatmap(lambda drawn: _confirm_decisions(*drawn))


@st.composite
def _confirms(draw: st.DrawFn, max_decisions: int) -> Confirm:
    count = draw(st.integers(0, max_decisions))
    requested, *decided = draw(_timeline(count + 1))  # no decision before the request
    ids = draw(st.lists(mplp_ids(), min_size=count, max_size=count, unique=True))
    fields: dict[str, object] = {
        "meta": draw(metadata()),
        "confirm_id": draw(mplp_ids()),
        "target_type": draw(st.sampled_from(ConfirmTargetType)),
        "target_id": draw(mplp_ids()),
        "status": draw(st.sampled_from(ConfirmStatus)),
        "requested_by_role": draw(_texts()),
        "requested_at": requested,
    }
    _maybe(draw, fields, "reason", _texts())
    _maybe(draw, fields, "decisions", st.just([draw(_confirm_decisions(i, at)) for i, at in zip(ids, decided)]))
    _common(draw, fields)
    return Confirm.model_validate(fields)


def confirms(*, max_decisions: int = 4) -> SearchStrategy[Confirm]:
    """``Confirm``: any status, 0 to ``max_decisions`` decisions with unique ids, none before ``requested_at``.

    The confirm's status and its decisions' are drawn apart: upstream ties them by no rule.
    """
    return _confirms(max_decisions)


@st.composite
def _trace_segments(draw: st.DrawFn, segment_id: str, parent: str | None) -> TraceSegment:
    started, finished = draw(_timeline(2))
    fields: dict[str, object] = {
        "segment_id": segment_id,
        "label": draw(_texts()),
        "status": draw(st.sampled_from(TraceSegmentStatus)),
    }
    if parent is not None:
        fields["parent_segment_id"] = parent
    _maybe(draw, fields, "started_at", st.just(started))
    _maybe(draw, fields, "finished_at", st.just(finished))
    _maybe(draw, fields, "attributes", json_objects())
    return TraceSegment.model_validate(fields)


def trace_segments() -> SearchStrategy[TraceSegment]:
    """``TraceSegment`` on its own: maybe a parent (a random id), ``started_at`` not after ``finished_at``."""
    return st.tuples(mplp_ids(), st.one_of(st.none(), mplp_ids())).flatmap(lambda drawn: _trace_segments(*drawn))


@st.composite
def _traces(draw: st.DrawFn, max_segments: int) -> Trace:
    count = draw(st.integers(0, max_segments))
    ids = draw(st.lists(mplp_ids(), min_size=count, max_size=count, unique=True))
    # Each segment's parent, if any, is listed before it, so the links form a forest, not a cycle.
    parents = [
        draw(st.one_of(st.none(), st.sampled_from(ids[:position]))) if position else None for position in range(count)
    ]
    trace_id = draw(mplp_ids())
    root_span = draw(trace_bases()).model_copy(update={"trace_id": trace_id})
    started, finished = draw(_timeline(2))
    fields: dict[str, object] = {
        "meta": draw(metadata()),
        "trace_id": trace_id,
        "context_id": draw(mplp_ids()),
        "root_span": root_span,
        "status": draw(st.sampled_from(TraceStatus)),
    }
    _maybe(draw, fields, "plan_id", mplp_ids())
    _maybe(draw, fields, "started_at", st.just(started))
    _maybe(draw, fields, "finished_at", st.just(finished))
    order = draw(st.permutations(range(count)))  # listed in any order: a child may come before its parent
    _maybe(draw, fields, "segments", st.just([draw(_trace_segments(ids[i], parents[i])) for i in order]))
    _maybe(draw, fields, "governance", governance())
    _maybe(draw, fields, "events", st.lists(events(), max_size=3))
    return Trace.model_validate(fields)


def traces(*, max_segments: int = 6) -> SearchStrategy[Trace]:
    """``Trace``: ``root_span.trace_id`` is the trace's, 0 to ``max_segments`` segments with unique ids whose parent links form a forest (listed in any order); every ``started_at`` not after its ``finished_at``."""
    return _traces(max_segments)


@st.composite
def _roles(draw: st.DrawFn) -> Role:
    created, updated = draw(_timeline(2))
    fields: dict[str, object] = {"meta": draw(metadata()), "role_id": draw(mplp_ids()), "name": draw(_texts())}
    _maybe(draw, fields, "description", _texts())
    _maybe(draw, fields, "capabilities", st.lists(_texts(), max_size=4))
    _maybe(draw, fields, "created_at", st.just(created))
    _maybe(draw, fields, "updated_at", st.just(updated))
    _common(draw, fields)
    return Role.model_validate(fields)


def roles() -> SearchStrategy[Role]:
    """``Role``: a name, maybe capabilities, ``created_at`` and ``updated_at`` in order."""
    return _roles()


@st.composite
def _extensions(draw: st.DrawFn) -> Extension:
    fields: dict[str, object] = {
        "meta": draw(metadata()),
        "extension_id": draw(mplp_ids()),
        "context_id": draw(mplp_ids()),
        "name": draw(_texts(min_size=1)),
        "extension_type": draw(st.sampled_from(ExtensionType)),
        "version": draw(_semvers()),
        "status": draw(st.sampled_from(ExtensionStatus)),
    }
    _maybe(draw, fields, "config", json_objects())
    _common(draw, fields)
    return Extension.model_validate(fields)


def extensions() -> SearchStrategy[Extension]:
    """``Extension``: any type and status, a semantic version (pre-release and build too), maybe an open config."""
    return _extensions()


@st.composite
def _collabs(draw: st.DrawFn) -> Collab:
    created, updated = draw(_timeline(2))
    fields: dict[str, object] = {
        "meta": draw(metadata()),
        "collab_id": draw(mplp_ids()),
        "context_id": draw(mplp_ids()),
        "title": draw(_texts(min_size=1)),
        "purpose": draw(_texts(min_size=1)),
        "mode": draw(st.sampled_from(CollabMode)),
        "status": draw(st.sampled_from(CollabStatus)),
        "participants": draw(_unique_by(collab_participants(), "participant_id", 1, 4)),
        "created_at": created,
    }
    _maybe(draw, fields, "updated_at", st.just(updated))
    _common(draw, fields)
    return Collab.model_validate(fields)


def collab_participants() -> SearchStrategy[CollabParticipant]:
    """``CollabParticipant``: a non-empty id, any kind, maybe a role and a display name."""
    return _built(
        CollabParticipant,
        {"participant_id": _texts(min_size=1), "kind": st.sampled_from(CollabParticipantKind)},
        {"role_id": _texts(), "display_name": _texts()},
    )


def _unique_by(items: SearchStrategy[M], key: str, min_size: int, max_size: int) -> SearchStrategy[list[M]]:
    return st.lists(items, min_size=min_size, max_size=max_size, unique_by=lambda item: getattr(item, key))


def collabs() -> SearchStrategy[Collab]:
    """``Collab``: any mode and status, 1 to 4 participants with unique ids, ``created_at`` not after ``updated_at``."""
    return _collabs()


@st.composite
def _cores(draw: st.DrawFn) -> Core:
    fields: dict[str, object] = {
        "meta": draw(metadata()),
        "core_id": draw(mplp_ids()),
        "protocol_version": draw(st.one_of(st.just("1.0.0"), _texts(min_size=1))),
        "status": draw(st.sampled_from(CoreStatus)),
        "modules": draw(_unique_by(module_descriptors(), "module_id", 1, len(ModuleId))),
    }
    _common(draw, fields)
    return Core.model_validate(fields)


def module_descriptors() -> SearchStrategy[ModuleDescriptor]:
    """``ModuleDescriptor``: any module and status, a non-empty version, maybe ``required``."""
    return _built(
        ModuleDescriptor,
        {
            "module_id": st.sampled_from(ModuleId),
            "version": _texts(min_size=1),
            "status": st.sampled_from(ModuleDescriptorStatus),
        },
        {"required": st.booleans(), "description": _texts()},
    )


def cores() -> SearchStrategy[Core]:
    """``Core``: any status, 1 to 10 module descriptors, no module twice."""
    return _cores()


@st.composite
def _networks(draw: st.DrawFn) -> Network:
    fields: dict[str, object] = {
        "meta": draw(metadata()),
        "network_id": draw(mplp_ids()),
        "context_id": draw(mplp_ids()),
        "name": draw(_texts(min_size=1)),
        "topology_type": draw(st.sampled_from(NetworkTopologyType)),
        "status": draw(st.sampled_from(NetworkStatus)),
    }
    _maybe(draw, fields, "description", _texts())
    _maybe(draw, fields, "nodes", _unique_by(network_nodes(), "node_id", 0, 5))
    _common(draw, fields)
    return Network.model_validate(fields)


def network_nodes() -> SearchStrategy[NetworkNode]:
    """``NetworkNode``: any kind and status, maybe a name and a role."""
    return _built(
        NetworkNode,
        {"node_id": mplp_ids(), "kind": st.sampled_from(NetworkNodeKind), "status": st.sampled_from(NetworkNodeStatus)},
        {"name": _texts(), "role_id": _texts()},
    )


def networks() -> SearchStrategy[Network]:
    """``Network``: any topology and status, maybe nodes with unique ids."""
    return _networks()


# --- by model class ---------------------------------------------------------------------

_BY_MODEL: dict[type[MplpModel], Callable[[], SearchStrategy[MplpModel]]] = {
    Plan: plans,
    PlanStep: plan_steps,
    Dialog: dialogs,
    DialogMessage: dialog_messages,
    Governance: governance,
    Context: contexts,
    ContextRoot: context_roots,
    Confirm: confirms,
    ConfirmDecision: confirm_decisions,
    Trace: traces,
    TraceSegment: trace_segments,
    Role: roles,
    Extension: extensions,
    Collab: collabs,
    CollabParticipant: collab_participants,
    Core: cores,
    ModuleDescriptor: module_descriptors,
    Network: networks,
    NetworkNode: network_nodes,
    InboxMessage: inbox_messages,
    CodeInboxMessage: code_inbox_messages,
    CodeInboxMessageRelations: code_inbox_message_relations,
    Event: events,
    TraceBase: trace_bases,
    Metadata: metadata,
    Ref: refs,
    LearningSample: learning_samples,
    LearningSampleTimestamps: learning_sample_timestamps,
    TokenUsage: token_usages,
    AgentTokenUsage: agent_token_usages,
    UserFeedback: user_feedback,
    ErrorInfo: error_info,
}


def payloads() -> SearchStrategy[Payload]:
    """Any top-level payload that ``mplp_models.parse`` tells apart: each registered kind in turn, by its own strategy."""
    return st.one_of([cast("SearchStrategy[Payload]", instances(kind.model)) for kind in KINDS])


def instances(model: type[M]) -> SearchStrategy[M]:
    """The strategy of this module for ``model`` (``instances(Plan)`` is ``plans()``).

    A ``TypeError`` names the models there are strategies for if ``model`` is
    not one of them.
    """
    factory = _BY_MODEL.get(model)
    if factory is None:
        names = ", ".join(sorted(kind.__name__ for kind in _BY_MODEL))
        raise TypeError(f"no strategy for {model!r}; there are strategies for {names}")
    return cast("SearchStrategy[M]", factory())


def register_type_strategies() -> None:
    """Register these strategies with hypothesis, for ``st.from_type(Plan)``, ``st.builds`` and ``@given(plan=...)`` inference.

    Registers every model class and ``Timestamp``. The registration is global
    for the process and replaces any earlier one for these types; call it once,
    for example in a ``conftest.py``.
    """
    for model, factory in _BY_MODEL.items():
        st.register_type_strategy(model, factory())
    st.register_type_strategy(Timestamp, timestamps())
