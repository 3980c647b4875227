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
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date
from functools import cache
from typing import Any, TypeVar, cast
from uuid import UUID

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
    CIEvent,
    CIStage,
    CIStageStatus,
    CIStatus,
    CITriggerKind,
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
    DeltaImpactFeedbackLabel,
    DeltaImpactInput,
    DeltaImpactMeta,
    DeltaImpactOutput,
    DeltaImpactSample,
    DeltaImpactState,
    DeltaType,
    Dialog,
    DialogMessage,
    DialogMessageRole,
    DialogStatus,
    ErrorInfo,
    Event,
    EventCore,
    EventFamily,
    ExecutorKind,
    Extension,
    ExtensionStatus,
    ExtensionType,
    FeedbackDecision,
    FileChangeType,
    FileUpdateEvent,
    GitEvent,
    GitEventKind,
    Governance,
    GraphUpdateEvent,
    GraphUpdateKind,
    HumanFeedbackLabel,
    ImpactPredictionAccuracy,
    ImpactScope,
    InboxMessage,
    InboxMessageStatus,
    InboxMessageType,
    IntentResolutionFeedbackLabel,
    IntentResolutionInput,
    IntentResolutionMeta,
    IntentResolutionOutput,
    IntentResolutionSample,
    IntentResolutionState,
    LearningSample,
    LearningSampleCore,
    LearningSampleTimestamps,
    MAPEvent,
    MAPEventType,
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
    PipelineStageEvent,
    PipelineStageStatus,
    Plan,
    PlanStatus,
    PlanStep,
    PlanStepStatus,
    Ref,
    RefModule,
    ResolutionQualityLabel,
    RiskLevel,
    Role,
    RuntimeExecutionEvent,
    RuntimeExecutionStatus,
    SAEvent,
    SAEventType,
    SampleMeta,
    Timestamp,
    TokenUsage,
    ToolEvent,
    ToolKind,
    ToolStatus,
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
from mplp_models._types import StatusEnum

__all__ = [
    "agent_token_usages",
    "ci_events",
    "ci_stages",
    "code_inbox_message_relations",
    "code_inbox_messages",
    "collab_participants",
    "collabs",
    "confirm_decisions",
    "confirms",
    "context_roots",
    "contexts",
    "cores",
    "delta_impact_inputs",
    "delta_impact_metas",
    "delta_impact_outputs",
    "delta_impact_samples",
    "delta_impact_states",
    "dialog_governance",
    "dialog_messages",
    "dialogs",
    "error_info",
    "event_cores",
    "events",
    "extensions",
    "file_update_events",
    "git_events",
    "governance",
    "graph_update_events",
    "inbox_messages",
    "instances",
    "intent_resolution_inputs",
    "intent_resolution_metas",
    "intent_resolution_outputs",
    "intent_resolution_samples",
    "intent_resolution_states",
    "json_objects",
    "learning_sample_cores",
    "learning_sample_timestamps",
    "learning_samples",
    "map_events",
    "metadata",
    "module_descriptors",
    "mplp_ids",
    "network_nodes",
    "networks",
    "payloads",
    "pipeline_stage_events",
    "plan_steps",
    "plans",
    "refs",
    "register_type_strategies",
    "roles",
    "runtime_execution_events",
    "sa_events",
    "sample_metas",
    "timestamps",
    "token_usages",
    "tool_events",
    "trace_bases",
    "trace_segments",
    "traces",
    "user_feedback",
]

M = TypeVar("M", bound=MplpModel)
T = TypeVar("T")

# --- where the values come from ----------------------------------------------------
# Hypothesis's bookkeeping for each draw costs far more than building a value
# in Python, and a plan of 20 steps used to take some 160 draws. So each
# example draws only its free text and its floats one by one (hypothesis knows
# them best: unicode, edge floats); every small choice (a field present or
# absent, a status, a count, a digit, an id's bits) is read from a block of
# drawn bytes, one draw per block. Hypothesis shrinks bytes towards zero, and
# zero reads as the first choice: absent fields, the first member, no items.

_MAX_SAFE_INT = 2**53 - 1  # beyond it an integer has no canonical JSON form that reads back the same
_ASCII_ALNUM = string.ascii_letters + string.digits
_BLOCK = st.binary(min_size=128, max_size=128)


class _Source:
    """One example's values: small choices read from drawn blocks of bytes, text and floats drawn."""

    __slots__ = ("_at", "_block", "draw")

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw
        self._block: bytes = b""
        self._at = 0

    def _take(self, size: int) -> bytes:
        end = self._at + size
        if end > len(self._block):
            self._block = self._block[self._at :] + self.draw(_BLOCK)
            self._at, end = 0, size
        taken = self._block[self._at : end]
        self._at = end
        return taken

    def below(self, count: int) -> int:
        """A number from 0 to ``count - 1`` (0 for all-zero bytes)."""
        if count <= 256:
            return self._take(1)[0] % count
        size = ((count - 1).bit_length() + 7) // 8
        if count & (count - 1):  # not a power of two: a byte more keeps the modulo bias small
            size += 1
        return int.from_bytes(self._take(size), "big") % count

    def between(self, low: int, high: int) -> int:
        return low + self.below(high - low + 1)

    def coin(self) -> bool:
        return self.below(2) == 1

    def pick(self, options: Sequence[T]) -> T:
        return options[self.below(len(options))]

    def shuffled(self, members: Sequence[T]) -> list[T]:
        """``members`` in any order (in their own order for all-zero bytes)."""
        found = list(members)
        for position in range(len(found) - 1, 0, -1):
            other = position - self.below(position + 1)
            found[position], found[other] = found[other], found[position]
        return found

    def chars(self, alphabet: str, min_size: int, max_size: int) -> str:
        return "".join(self.pick(alphabet) for _ in range(self.between(min_size, max_size)))

    def text(self, min_size: int = 0, max_size: int | None = 24) -> str:
        return self.draw(_texts(min_size=min_size, max_size=max_size))


_Builder = Callable[[_Source], T]


@st.composite
def _built_by(draw: st.DrawFn, builder: Callable[..., T], *args: object) -> T:
    return builder(_Source(draw), *args)


@cache  # one strategy object per builder and arguments, so hypothesis validates it once, not at every draw
def _strategy(builder: Callable[..., T], *args: object) -> SearchStrategy[T]:
    return _built_by(builder, *args)


@cache  # one strategy object, so hypothesis validates it once, not at every draw
def _texts(*, min_size: int = 0, max_size: int | None = 24) -> SearchStrategy[str]:
    # Any code point that UTF-8 can carry (a lone surrogate cannot travel as JSON).
    return st.text(st.characters(codec="utf-8"), min_size=min_size, max_size=max_size)


def _text(source: _Source) -> str:
    return source.text()


def _filled_text(source: _Source) -> str:
    return source.text(min_size=1)


def _email(source: _Source) -> str:
    # The draft-07 `email` format asks for an @ only (mplp_models._formats): any text around one.
    return f"{source.text()}@{source.text()}"


def _member(members: Sequence[T]) -> _Builder[T]:
    def member(source: _Source) -> T:
        return source.pick(members)

    return member


def _enum_members(kind: type[T]) -> tuple[T, ...]:
    return tuple(cast("Any", kind))


def _prefixed_id(source: _Source, prefix: str) -> str:
    """``prefix`` then ``[A-Za-z0-9][A-Za-z0-9._-]*``, the inbox schema's id patterns (ASCII only)."""
    return prefix + source.pick(_ASCII_ALNUM) + source.chars(_ASCII_ALNUM + "._-", 0, 12)


def _version(source: _Source) -> str:
    return ".".join(
        str(source.below(21)) if source.below(2) == 0 else source.chars(string.digits, 1, 6) for _ in range(3)
    )


_UUID_BITS = 2**128


def _uuid4(value: int) -> str:
    return str(UUID(int=value % _UUID_BITS, version=4))


def _mplp_id(source: _Source) -> str:
    return _uuid4(source.below(_UUID_BITS))


def _unique_ids(source: _Source, count: int, taken: Iterable[str] = ()) -> list[str]:
    """``count`` ids, none twice and none in ``taken`` (a repeat, as all-zero bytes give, is moved on)."""
    seen = set(taken)
    found: list[str] = []
    for _ in range(count):
        value = source.below(_UUID_BITS)
        while (mplp_id := _uuid4(value)) in seen:
            value += 1  # the low bits, which the version and variant leave alone
        seen.add(mplp_id)
        found.append(mplp_id)
    return found


_MPLP_IDS: SearchStrategy[str] = st.binary(min_size=16, max_size=16).map(lambda raw: str(UUID(bytes=raw, version=4)))


def mplp_ids() -> SearchStrategy[str]:
    """``MplpId`` values: lowercase, hyphenated UUID version 4 text."""
    return _MPLP_IDS


def _json_integer(source: _Source, low: int = -_MAX_SAFE_INT, high: int = _MAX_SAFE_INT) -> int:
    """An integer in the bounds: now an edge (a bound or the one nearest 0), now a small one, now any."""
    kind = source.below(3)
    if kind == 0:
        return source.pick((max(low, min(0, high)), low, high))
    if kind == 1:
        return source.between(max(low, -1000), min(high, 1000))
    return source.between(low, high)


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


@cache  # computed once per bounds
def _number_edges(min_value: float | None, max_value: float | None) -> tuple[float, ...]:
    edges: list[float] = [float(_MAX_SAFE_INT if max_value is None else max_value)]
    edges.append(float(-_MAX_SAFE_INT if min_value is None else min_value))
    if min_value is not None and min_value == 0:
        edges += [-0.0, 5e-324]  # -0.0 >= 0 holds, in JSON Schema as in Python
    if max_value is None:
        edges.append(1.7976931348623157e308)
    return tuple(edges)


def _json_number(source: _Source, min_value: float | None = None, max_value: float | None = None) -> float:
    """A JSON number in the bounds, as the models keep it: an int or a finite float, edges included."""
    kind = source.below(3)
    if kind == 0:
        low = -_MAX_SAFE_INT if min_value is None else int(min_value)
        high = _MAX_SAFE_INT if max_value is None else int(max_value)
        return _json_integer(source, low, high)
    if kind == 1:
        return source.draw(_floats(min_value, max_value))
    return source.pick(_number_edges(min_value, max_value))


def _number_builder(min_value: float | None = None, max_value: float | None = None) -> _Builder[float]:
    def number(source: _Source) -> float:
        return _json_number(source, min_value, max_value)

    return number


_JSON_LEAVES = 8  # at most this many scalars in one value (nested arrays and objects hold the rest)
_JSON_DEPTH = 4  # arrays and objects nested at most this deep, but for the rare deep value


def _json_value(source: _Source, leaves: list[int], depth: int = 0) -> JsonValue:
    """Any JSON value: a scalar, or an array or object of up to four items; ``leaves`` holds the scalars left."""
    nests = leaves[0] > 0 and depth < _JSON_DEPTH
    kind = source.below(7 if nests else 5)
    leaves[0] -= 1
    if kind == 0:
        return None
    if kind == 1:
        return source.coin()
    if kind == 2:
        return _json_integer(source)
    if kind == 3:
        return source.draw(_floats())
    if kind == 4:
        return source.text()
    if kind == 5:
        return [_json_value(source, leaves, depth + 1) for _ in range(source.below(5))]
    return {source.text(max_size=8): _json_value(source, leaves, depth + 1) for _ in range(source.below(5))}


def _json_object(source: _Source) -> dict[str, JsonValue]:
    found: dict[str, JsonValue] = {
        source.text(max_size=8): _json_value(source, [_JSON_LEAVES]) for _ in range(source.below(6))
    }
    if source.below(10) == 9:
        # Now and then one value nests deep (well within MAX_OPEN_DEPTH).
        depth = source.between(2, 40)
        nested: JsonValue = _json_value(source, [_JSON_LEAVES])
        for level in range(depth):
            nested = [nested] if level % 2 else {"": nested}
        found[source.text(max_size=8)] = nested
    return found


def json_objects() -> SearchStrategy[dict[str, JsonValue]]:
    """Open JSON objects (``JsonObject``): any keys, every JSON type, nested arrays and objects (now and then deeply).

    Integers stay within +/-(2**53 - 1) and floats are finite and never an
    integral value in [2**53, 10**21), so an object compares equal after a
    round trip through canonical JSON.
    """
    return _strategy(_json_object)


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
_EDGE_SECONDS = (_FIRST, _LAST, 0)
_EDGE_FRACTIONS = ("000", "5", "999999999")
_OFFSETS = (60, 120, -300, 330, 345, -570, 840)
_ZONES = ("Z", "z", "+00:00", "-00:00")
_LONGEST_STEP = 400 * 366 * _DAY


def _seconds(source: _Source) -> int:
    kind = source.below(5)
    if kind == 0:
        return source.between(*_RECENT)
    if kind == 1:
        return source.between(_FIRST, _LAST)
    if kind == 2:
        return source.pick(_EDGE_SECONDS)
    if kind == 3:
        return source.pick(_EDGE_DAYS) + source.below(_DAY)
    seconds = source.between(*_RECENT)
    return seconds - seconds % 60  # on the minute: a leap second can be written


def _fraction(source: _Source) -> str:
    kind = source.below(3)
    if kind == 0:
        return ""
    if kind == 1:
        return source.chars(string.digits, 1, 12)
    return source.pick(_EDGE_FRACTIONS)


def _step(source: _Source) -> int:
    kind = source.below(3)
    if kind == 0:
        return 0
    return source.below(121) if kind == 1 else source.below(_LONGEST_STEP + 1)


def _offset(source: _Source) -> int:
    kind = source.below(3)
    if kind == 0:
        return 0
    return source.pick(_OFFSETS) if kind == 1 else source.between(-_MAX_OFFSET, _MAX_OFFSET)


def _key(instant: _Instant) -> tuple[int, str]:
    return instant[0], instant[1].rstrip("0")


def _write(source: _Source, instant: _Instant) -> Timestamp:
    """One RFC 3339 spelling of the instant: any offset, ``T`` or ``t``, ``Z``, ``z`` or ``±00:00``, maybe a leap
    second."""
    seconds, fraction = instant
    offset = _offset(source)
    local = seconds + offset * 60
    leap = local % 60 == 0 and source.coin()
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
        zone = source.pick(_ZONES)
    else:
        zone = f"{'+' if offset > 0 else '-'}{abs(offset) // 60:02d}:{abs(offset) % 60:02d}"
    separator = source.pick("Tt")
    dot = f".{fraction}" if fraction else ""
    return Timestamp(
        f"{year:04d}-{when.month:02d}-{when.day:02d}{separator}{hour:02d}:{minute:02d}:{second:02d}{dot}{zone}"
    )


def _timeline(source: _Source, count: int) -> list[Timestamp]:
    """``count`` timestamps in instant order (equal instants allowed, spelled differently)."""
    seconds = _seconds(source)
    instants: list[_Instant] = []
    for _ in range(count):
        instants.append((seconds, _fraction(source)))
        seconds = min(_LAST, seconds + _step(source))
    return [_write(source, instant) for instant in sorted(instants, key=_key)]


def _timestamp(source: _Source) -> Timestamp:
    return _timeline(source, 1)[0]


def timestamps() -> SearchStrategy[Timestamp]:
    """``Timestamp`` values: RFC 3339 date-times from year 0000 to 9999, in every spelling the format allows."""
    return _strategy(_timestamp)


# --- helpers for optional fields and lists ---------------------------------------------------


def _maybe(
    source: _Source, fields: dict[str, object], name: str, value: _Builder[object], *, nullable: bool = False
) -> None:
    """Leave the field absent, build its value, or set it to ``null`` (when the schema allows it)."""
    choice = source.below(3 if nullable else 2)
    if choice == 1:
        fields[name] = value(source)
    elif choice == 2:
        fields[name] = None


def _maybe_value(
    source: _Source, fields: dict[str, object], name: str, value: object, *, nullable: bool = False
) -> None:
    """As ``_maybe``, for a value made beforehand (for its place in a timeline)."""
    choice = source.below(3 if nullable else 2)
    if choice == 1:
        fields[name] = value
    elif choice == 2:
        fields[name] = None


def _list_of(item: _Builder[T], max_size: int, min_size: int = 0) -> _Builder[list[T]]:
    def items(source: _Source) -> list[T]:
        return [item(source) for _ in range(source.between(min_size, max_size))]

    return items


def _unique_by(item: _Builder[M], key: str, min_size: int, max_size: int) -> _Builder[list[M]]:
    """``min_size`` to ``max_size`` items, each ``key`` once (an item that repeats one is left out)."""

    def items(source: _Source) -> list[M]:
        found: dict[object, M] = {}
        for _ in range(source.between(min_size, max_size)):
            made = item(source)
            found.setdefault(getattr(made, key), made)
        return list(found.values())

    return items


def _unique_texts(source: _Source) -> list[str]:
    return list(dict.fromkeys(source.text() for _ in range(source.below(5))))


def _subset(members: Sequence[T]) -> _Builder[list[T]]:
    """Some of ``members``, in any order, from none to all."""

    def subset(source: _Source) -> list[T]:
        return source.shuffled(members)[: source.below(len(members) + 1)]

    return subset


def _built(
    model: type[M], required: Mapping[str, _Builder[object]], optional: Mapping[str, _Builder[object]]
) -> _Builder[M]:
    """A builder of ``model`` from built required fields, and optional ones each absent or built."""

    def build(source: _Source) -> M:
        fields: dict[str, object] = {name: value(source) for name, value in required.items()}
        for name, value in optional.items():
            _maybe(source, fields, name, value)
        return model.model_validate(fields)

    build.__name__ = build.__qualname__ = f"_{model.__name__}"  # the strategy's repr names the model
    return build


# --- metadata, references, trace, events ----------------------------------------------------

_CROSS_CUTTING = _enum_members(CrossCuttingConcern)


def _metadata(source: _Source) -> Metadata:
    fields: dict[str, object] = {"protocol_version": _version(source), "schema_version": _version(source)}
    created, updated = _timeline(source, 2)
    _maybe_value(source, fields, "created_at", created)
    _maybe(source, fields, "created_by", _text)
    _maybe_value(source, fields, "updated_at", updated)
    _maybe(source, fields, "updated_by", _text)
    _maybe(source, fields, "tags", _unique_texts)
    _maybe(source, fields, "cross_cutting", _subset(_CROSS_CUTTING))
    return Metadata.model_validate(fields)


def metadata() -> SearchStrategy[Metadata]:
    """``Metadata``: versions as MAJOR.MINOR.PATCH, ``created_at`` not after ``updated_at``, unique tags and
    concerns."""
    return _strategy(_metadata)


_ref = _built(Ref, {"id": _mplp_id, "module": _member(_enum_members(RefModule))}, {"description": _text})


def refs() -> SearchStrategy[Ref]:
    """``Ref``: an id, a module and maybe a description."""
    return _strategy(_ref)


_TRACE_BASE_OPTIONAL: dict[str, _Builder[object]] = {
    "parent_span_id": _mplp_id,
    "context_id": _mplp_id,
    "attributes": _json_object,
}
_trace_base = _built(TraceBase, {"trace_id": _mplp_id, "span_id": _mplp_id}, _TRACE_BASE_OPTIONAL)


def trace_bases() -> SearchStrategy[TraceBase]:
    """``TraceBase``: trace and span ids, maybe a parent span, a context and open attributes."""
    return _strategy(_trace_base)


_KNOWN_EVENT_TYPES = ("plan.created", "plan.step.completed", "dialog.message", "trace.span.ended")
_KNOWN_SOURCES = ("plan", "runtime.ael", "dialog")


def _event_type(source: _Source) -> str:
    if source.coin():
        return source.pick(_KNOWN_EVENT_TYPES)
    words = range(source.between(1, 4))
    return ".".join(
        source.pick(string.ascii_lowercase) + source.chars(string.ascii_lowercase + string.digits, 0, 8) for _ in words
    )


def _event(source: _Source) -> Event:
    fields: dict[str, object] = {
        "event_id": _mplp_id(source),
        "event_type": _event_type(source),
        "source": source.pick(_KNOWN_SOURCES) if source.coin() else source.text(),
        "timestamp": _timestamp(source),
    }
    _maybe(source, fields, "trace_id", _mplp_id)
    _maybe(source, fields, "data", _json_object, nullable=True)
    return Event.model_validate(fields)


_events = _list_of(_event, 3)


def events() -> SearchStrategy[Event]:
    """``Event``: a dotted lowercase type, any source text (the empty one too), data absent, ``null`` or an open
    object."""
    return _strategy(_event)


# --- plans ----------------------------------------------------------------------------

_NOT_STARTED_PLAN = (PlanStatus.draft, PlanStatus.proposed, PlanStatus.approved)
_DONE = (PlanStepStatus.completed, PlanStepStatus.skipped)
_STARTED = (PlanStepStatus.in_progress, PlanStepStatus.completed)
_PLAN_STATUSES = _enum_members(PlanStatus)
_PLAN_STEP_STATUSES = _enum_members(PlanStepStatus)


def _order_index(source: _Source) -> int:
    return _json_integer(source, 0)


def _step_fields(source: _Source, step_id: str, status: PlanStepStatus, dependencies: list[str]) -> dict[str, object]:
    fields: dict[str, object] = {"step_id": step_id, "description": source.text(min_size=1), "status": status}
    if dependencies:
        fields["dependencies"] = dependencies
    else:
        _maybe_value(source, fields, "dependencies", [])
    _maybe(source, fields, "agent_role", _text)
    _maybe(source, fields, "order_index", _order_index)
    return fields


def _plan_step(source: _Source, status: PlanStepStatus | None) -> PlanStep:
    step_status = source.pick(_PLAN_STEP_STATUSES) if status is None else status
    step_id = _mplp_id(source)
    dependencies = _unique_ids(source, source.below(5), taken=[step_id])
    return PlanStep.model_validate(_step_fields(source, step_id, step_status, dependencies))


def plan_steps(status: PlanStepStatus | str | None = None) -> SearchStrategy[PlanStep]:
    """``PlanStep`` on its own, in ``status`` if given: its dependencies name other (random) step ids.

    A step's rules need its plan; for steps that fit together, draw ``plans``.
    """
    return _strategy(_plan_step, None if status is None else PlanStepStatus(status))


@cache  # one table for the whole run
def _step_statuses(plan_status: PlanStatus, dependencies_done: bool) -> tuple[PlanStepStatus, ...]:
    """The statuses a step may have under the plan's status, given whether its dependencies are all done."""
    allowed: tuple[PlanStepStatus, ...]
    if plan_status in _NOT_STARTED_PLAN:
        allowed = (PlanStepStatus.pending, PlanStepStatus.blocked, PlanStepStatus.skipped)
    elif plan_status is PlanStatus.completed:
        allowed = _DONE
    else:  # in_progress, failed, cancelled: any status
        allowed = _PLAN_STEP_STATUSES
    if not dependencies_done:
        allowed = tuple(status for status in allowed if status not in _STARTED)
    return allowed


def _some_of(source: _Source, members: Sequence[T], count: int) -> list[T]:
    """``count`` distinct members (fewer if there are fewer), in any order (the first ones for all-zero bytes)."""
    pool = list(members)
    count = min(count, len(pool))
    for position in range(count):
        other = position + source.below(len(pool) - position)
        pool[position], pool[other] = pool[other], pool[position]
    return pool[:count]


def _plan(source: _Source, status: PlanStatus | None, max_steps: int) -> Plan:
    plan_status = source.pick(_PLAN_STATUSES) if status is None else status
    ids = _unique_ids(source, source.between(1, max_steps))
    statuses: dict[str, PlanStepStatus] = {}
    steps: list[dict[str, object]] = []  # validated once, with the plan
    # Each step depends only on steps made before it, so the graph has no cycle;
    # the list is shuffled afterwards, so plans do not always list dependencies first.
    for position, step_id in enumerate(ids):
        dependencies = _some_of(source, ids[:position], source.below(5))
        done = all(statuses[dependency] in _DONE for dependency in dependencies)
        statuses[step_id] = source.pick(_step_statuses(plan_status, done))
        steps.append(_step_fields(source, step_id, statuses[step_id], dependencies))
    fields: dict[str, object] = {
        "meta": _metadata(source),
        "plan_id": _mplp_id(source),
        "context_id": _mplp_id(source),
        "title": source.text(min_size=1),
        "objective": source.text(min_size=1),
        "status": plan_status,
        "steps": source.shuffled(steps),
    }
    _maybe(source, fields, "trace", _trace_base)
    _maybe(source, fields, "events", _events)
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
    return _strategy(_plan, None if status is None else PlanStatus(status), max_steps)


# --- dialogs ----------------------------------------------------------------------------

_DIALOG_ROLES = _enum_members(DialogMessageRole)
_DIALOG_STATUSES = _enum_members(DialogStatus)


def _dialog_message(source: _Source, timestamp: Timestamp | None = None) -> DialogMessage:
    fields: dict[str, object] = {
        "role": source.pick(_DIALOG_ROLES),
        "content": source.text(max_size=80),
        "timestamp": _timestamp(source) if timestamp is None else timestamp,
    }
    _maybe(source, fields, "event", _event)
    return DialogMessage.model_validate(fields)


def dialog_messages() -> SearchStrategy[DialogMessage]:
    """``DialogMessage``: any role, any text (the empty one too), a timestamp, maybe an event."""
    return _strategy(_dialog_message)


def dialog_governance() -> SearchStrategy[Governance]:
    """``governance()`` under its earlier name (``Governance`` was ``DialogGovernance`` too)."""
    return governance()


def _text_or(known: Sequence[str]) -> _Builder[str]:
    def text(source: _Source) -> str:
        return source.pick(known) if source.coin() else source.text()

    return text


_governance = _built(
    Governance,
    {},
    {
        "lifecyclePhase": _text_or(("design", "implementation", "review")),
        "truthDomain": _text_or(("requirements", "architecture")),
        "locked": _Source.coin,
        "lastConfirmRef": _ref,
    },
)


def governance() -> SearchStrategy[Governance]:
    """``Governance``, the block every module but Plan may carry: each field present or absent (the empty object
    too)."""
    return _strategy(_governance)


def _dialog(source: _Source, status: DialogStatus | None, max_messages: int) -> Dialog:
    count = source.below(max_messages + 1)
    # Start, the messages in order, end: one timeline, so the messages fall within.
    timeline = _timeline(source, count + 2)
    fields: dict[str, object] = {
        "meta": _metadata(source),
        "dialog_id": _mplp_id(source),
        "context_id": _mplp_id(source),
        "status": source.pick(_DIALOG_STATUSES) if status is None else status,
        "messages": [_dialog_message(source, moment) for moment in timeline[1:-1]],
    }
    _maybe(source, fields, "governance", _governance)
    _maybe(source, fields, "thread_id", _mplp_id)
    _maybe_value(source, fields, "started_at", timeline[0])
    _maybe_value(source, fields, "ended_at", timeline[-1])
    _maybe(source, fields, "trace", _trace_base)
    _maybe(source, fields, "events", _events)
    return Dialog.model_validate(fields)


def dialogs(status: DialogStatus | str | None = None, *, max_messages: int = 6) -> SearchStrategy[Dialog]:
    """``Dialog`` in ``status`` if given, with 0 to ``max_messages`` messages in time order.

    ``started_at`` and ``ended_at`` are each present or absent; when present, no
    message falls before the start or after the end, and the end is not before
    the start. The status does not decide them (the rules do not tie them).
    """
    if max_messages < 0:
        raise ValueError(f"max_messages must be 0 or more, not {max_messages}")
    return _strategy(_dialog, None if status is None else DialogStatus(status), max_messages)


# --- inbox messages ------------------------------------------------------------------------

_INBOX_STATUSES = _enum_members(InboxMessageStatus)
_INBOX_TYPES = _enum_members(InboxMessageType)
_KNOWN_RECIPIENTS = ("agent-1", "agent-2", "human:ops")


def _recipients(source: _Source) -> list[str]:
    if source.coin():
        return ["broadcast"]
    found: dict[str, None] = {}
    for _ in range(source.between(1, 4)):
        found[source.text(min_size=1) if source.coin() else source.pick(_KNOWN_RECIPIENTS)] = None
    found.pop("broadcast", None)  # only ever the sole recipient
    return list(found) or [_KNOWN_RECIPIENTS[0]]


def _unique_prefixed_ids(prefix: str) -> _Builder[list[str]]:
    def ids(source: _Source) -> list[str]:
        return list(dict.fromkeys(_prefixed_id(source, prefix) for _ in range(source.below(5))))

    return ids


def _unique_filled_texts(source: _Source) -> list[str]:
    return list(dict.fromkeys(source.text(min_size=1) for _ in range(source.below(5))))


def _inbox_fields(
    source: _Source,
    status: StatusEnum,
    types: Sequence[object],
    recipients: _Builder[list[str]],
    links: Callable[[_Source, dict[str, object]], None],
) -> dict[str, object]:
    """An inbox message of either mode: the fields both have, its own (``links``), then the stamps.

    The stamp of the status is set; the others may be set too, ``null`` or absent.
    """
    # created, read, acknowledged, archived, updated: in this order in time.
    created, read, acknowledged, archived, updated = _timeline(source, 5)
    fields: dict[str, object] = {
        "schema_version": 1,
        "message_id": _prefixed_id(source, "IM-"),
        "type": source.pick(types),
        "status": status,
        "sender_id": source.text(min_size=1),
        "recipient_ids": recipients(source),
        "subject": source.text(min_size=1, max_size=40) if source.coin() else source.text(200, 200),
        "body": source.text(max_size=200),
        "created_at": created,
        "updated_at": updated,
    }
    links(source, fields)
    for name, moment in zip(STAMP_OF_STATUS.values(), (read, acknowledged, archived)):
        if name == STAMP_OF_STATUS.get(status.value):
            fields[name] = moment
        else:
            _maybe_value(source, fields, name, moment, nullable=True)
    return fields


def _general_links(source: _Source, fields: dict[str, object]) -> None:
    _maybe(source, fields, "task_id", _text, nullable=True)
    _maybe(source, fields, "mission_id", _text, nullable=True)
    _maybe(source, fields, "related_decision_ids", _unique_prefixed_ids("D-"))
    _maybe(source, fields, "related_waitpoint_ids", _unique_prefixed_ids("WP-"))
    _maybe(source, fields, "related_handoff_ids", _unique_filled_texts)


def _inbox_message(source: _Source, status: InboxMessageStatus | None) -> InboxMessage:
    message_status = source.pick(_INBOX_STATUSES) if status is None else status
    fields = _inbox_fields(source, message_status, _INBOX_TYPES, _recipients, _general_links)
    return InboxMessage.model_validate(fields)


def inbox_messages(status: InboxMessageStatus | str | None = None) -> SearchStrategy[InboxMessage]:
    """``InboxMessage`` in ``status`` if given.

    The stamp of the status (``read_at`` for read, and so on) is set; the other
    stamps are set, ``null`` or absent. Every stamp and ``updated_at`` come
    after (or at) ``created_at``, ``updated_at`` last; ``broadcast`` is only
    ever the sole recipient. Ids follow the schema's ``IM-``, ``D-`` and ``WP-``
    patterns; the subject is sometimes at its 200-character limit.
    """
    return _strategy(_inbox_message, None if status is None else InboxMessageStatus(status))


_RELATION_LISTS = ("task_ids", "mission_ids", "run_ids", "queue_ids", "session_ids", "artifact_refs", "worktree_paths")
_CODE_INBOX_STATUSES = _enum_members(CodeInboxMessageStatus)
_CODE_INBOX_TYPES = _enum_members(CodeInboxMessageType)
_CODE_RECIPIENTS = ("coordinator", "agent-1", "broadcast")  # broadcast is a name like any other in code mode


def _code_recipients(source: _Source) -> list[str]:
    found = (source.text(min_size=1) if source.coin() else source.pick(_CODE_RECIPIENTS) for _ in range(4))
    return list(dict.fromkeys(found))[: source.between(1, 4)]


def _relations(source: _Source) -> dict[str, list[str]]:
    return {name: _unique_filled_texts(source) for name in _RELATION_LISTS}


def _code_inbox_message_relations(source: _Source) -> CodeInboxMessageRelations:
    return CodeInboxMessageRelations.model_validate(_relations(source))


def code_inbox_message_relations() -> SearchStrategy[CodeInboxMessageRelations]:
    """``CodeInboxMessageRelations``: each of its seven lists holds up to four distinct non-empty ids."""
    return _strategy(_code_inbox_message_relations)


def _code_links(source: _Source, fields: dict[str, object]) -> None:
    fields["artifact_refs"] = _unique_filled_texts(source)
    fields["relations"] = _relations(source)


def _code_inbox_message(source: _Source, status: CodeInboxMessageStatus | None) -> CodeInboxMessage:
    message_status = source.pick(_CODE_INBOX_STATUSES) if status is None else status
    fields = _inbox_fields(source, message_status, _CODE_INBOX_TYPES, _code_recipients, _code_links)
    return CodeInboxMessage.model_validate(fields)


def code_inbox_messages(status: CodeInboxMessageStatus | str | None = None) -> SearchStrategy[CodeInboxMessage]:
    """``CodeInboxMessage`` (the Cortex code mode's inbox message) in ``status`` if given.

    The stamps are as for ``inbox_messages``. Ids follow the schema's ``IM-``
    pattern; ``artifact_refs`` and each list of ``relations`` hold up to four
    distinct ids; the subject is sometimes at its 200-character limit.
    """
    return _strategy(_code_inbox_message, None if status is None else CodeInboxMessageStatus(status))


# --- learning samples ----------------------------------------------------------------------

_agent_token_usage = _built(AgentTokenUsage, {"agent_id": _text, "tokens": _number_builder(0)}, {"role": _text})


def agent_token_usages() -> SearchStrategy[AgentTokenUsage]:
    """``AgentTokenUsage``: tokens from 0 up, as ints or floats."""
    return _strategy(_agent_token_usage)


_TOKEN_COUNTS: dict[str, _Builder[object]] = dict.fromkeys(
    ("total_tokens", "prompt_tokens", "completion_tokens"), _number_builder(0)
)
_token_usage = _built(TokenUsage, {}, {**_TOKEN_COUNTS, "by_agent": _list_of(_agent_token_usage, 3)})


def token_usages() -> SearchStrategy[TokenUsage]:
    """``TokenUsage``: each count absent or a number from 0 up; maybe a list per agent."""
    return _strategy(_token_usage)


_user_feedback = _built(
    UserFeedback,
    {},
    {
        "decision": _member(_enum_members(FeedbackDecision)),
        "comment": _text,
        "rating": _number_builder(0, 5),
    },
)


def user_feedback() -> SearchStrategy[UserFeedback]:
    """``UserFeedback``: a decision, a comment and a rating from 0 to 5, each present or absent."""
    return _strategy(_user_feedback)


_error_info = _built(ErrorInfo, {}, dict.fromkeys(("error_code", "error_message", "stack_trace"), _text))


def error_info() -> SearchStrategy[ErrorInfo]:
    """``ErrorInfo``: code, message and stack trace, each present or absent."""
    return _strategy(_error_info)


def _learning_sample_timestamps(source: _Source) -> LearningSampleTimestamps:
    started, completed = _timeline(source, 2)
    fields: dict[str, object] = {"started_at": started}
    _maybe_value(source, fields, "completed_at", completed)
    return LearningSampleTimestamps.model_validate(fields)


def learning_sample_timestamps() -> SearchStrategy[LearningSampleTimestamps]:
    """``LearningSampleTimestamps``: a start, and maybe a completion not before it."""
    return _strategy(_learning_sample_timestamps)


_json_objects_list = _list_of(_json_object, 2)
_texts_list = _list_of(_text, 4)


def _learning_sample(source: _Source) -> LearningSample:
    fields: dict[str, object] = {
        "sample_id": _mplp_id(source),
        "project_id": source.text(),
        "success_flag": source.coin(),
        "timestamps": _learning_sample_timestamps(source),
    }
    for name in ("intent_before", "plan", "graph_before", "graph_after", "metadata", "vendor_extensions"):
        _maybe(source, fields, name, _json_object)
    for name in ("delta_intents", "governance_decisions"):
        _maybe(source, fields, name, _json_objects_list)
    _maybe(source, fields, "pipeline_path", _texts_list)
    _maybe(source, fields, "error_info", _error_info)
    _maybe(source, fields, "token_usage", _token_usage)
    _maybe(source, fields, "execution_time_ms", _number_builder(0))
    _maybe(source, fields, "impact_score", _number_builder(0, 1))
    _maybe(source, fields, "user_feedback", _user_feedback)
    return LearningSample.model_validate(fields)


def learning_samples() -> SearchStrategy[LearningSample]:
    """``LearningSample``: every optional part present or absent, open objects nested, numbers at their bounds."""
    return _strategy(_learning_sample)


# --- the further MPLP modules ---------------------------------------------------------------

_SEMVER_LABEL = _ASCII_ALNUM + "-"


def _semver_number(source: _Source) -> str:
    return "0" if source.coin() else str(source.between(1, 10**9))


def _semver_label(source: _Source) -> str:
    """A pre-release identifier: a number without leading zeros, or letters, digits and hyphens."""
    if source.coin():
        return _semver_number(source)
    label = source.chars(_SEMVER_LABEL, 1, 6)
    return str(int(label)) if label.isdigit() else label


def _semver(source: _Source) -> str:
    """A semantic version as the Extension schema's pattern takes it: no leading zeros, maybe a pre-release and a
    build."""
    version = ".".join(_semver_number(source) for _ in range(3))
    if source.coin():
        version += "-" + ".".join(_semver_label(source) for _ in range(source.between(1, 3)))
    if source.coin():
        version += "+" + ".".join(source.chars(_SEMVER_LABEL, 1, 6) for _ in range(source.between(1, 3)))
    return version


def _common(source: _Source, fields: dict[str, object]) -> None:
    """The optional parts every module shares: governance, trace and events."""
    _maybe(source, fields, "governance", _governance)
    _maybe(source, fields, "trace", _trace_base)
    _maybe(source, fields, "events", _events)


def _entry_point(source: _Source) -> str:
    return source.text()


def _context_root(source: _Source) -> ContextRoot:
    fields: dict[str, object] = {"domain": source.text(), "environment": source.text()}
    _maybe(source, fields, "entry_point", _entry_point)
    extra = _json_object(source) if source.coin() else {}
    return ContextRoot.model_validate(
        {**fields, **{key: extra[key] for key in extra.keys() - ContextRoot.model_fields.keys()}}
    )


def context_roots() -> SearchStrategy[ContextRoot]:
    """``ContextRoot``: domain and environment, maybe an entry point, and now and then keys of its own (open JSON)."""
    return _strategy(_context_root)


_CONTEXT_STATUSES = _enum_members(ContextStatus)
_LANGUAGES = ("en", "zh-CN", "de")
_filled_texts_list = _list_of(_filled_text, 4)


def _context(source: _Source) -> Context:
    created, updated = _timeline(source, 2)
    fields: dict[str, object] = {
        "meta": _metadata(source),
        "context_id": _mplp_id(source),
        "root": _context_root(source),
        "title": source.text(min_size=1),
        "status": source.pick(_CONTEXT_STATUSES),
    }
    _maybe(source, fields, "summary", _text)
    _maybe(source, fields, "tags", _filled_texts_list)
    _maybe(source, fields, "language", _member(_LANGUAGES))
    _maybe(source, fields, "owner_role", _text)
    _maybe(source, fields, "constraints", _json_object)
    _maybe_value(source, fields, "created_at", created)
    _maybe_value(source, fields, "updated_at", updated)
    _common(source, fields)
    return Context.model_validate(fields)


def contexts() -> SearchStrategy[Context]:
    """``Context``: any status, a root with keys of its own now and then, ``created_at`` not after ``updated_at``."""
    return _strategy(_context)


_DECISION_STATUSES = _enum_members(ConfirmDecisionStatus)


def _confirm_decision(source: _Source, decision_id: str, decided_at: Timestamp) -> ConfirmDecision:
    fields: dict[str, object] = {
        "decision_id": decision_id,
        "status": source.pick(_DECISION_STATUSES),
        "decided_by_role": source.text(),
        "decided_at": decided_at,
    }
    _maybe(source, fields, "reason", _text)
    return ConfirmDecision.model_validate(fields)


def _lone_confirm_decision(source: _Source) -> ConfirmDecision:
    return _confirm_decision(source, _mplp_id(source), _timestamp(source))


def confirm_decisions() -> SearchStrategy[ConfirmDecision]:
    """``ConfirmDecision`` on its own: any status, maybe a reason."""
    return _strategy(_lone_confirm_decision)


_CONFIRM_TARGETS = _enum_members(ConfirmTargetType)
_CONFIRM_STATUSES = _enum_members(ConfirmStatus)


def _confirm(source: _Source, max_decisions: int) -> Confirm:
    count = source.below(max_decisions + 1)
    requested, *decided = _timeline(source, count + 1)  # no decision before the request
    ids = _unique_ids(source, count)
    fields: dict[str, object] = {
        "meta": _metadata(source),
        "confirm_id": _mplp_id(source),
        "target_type": source.pick(_CONFIRM_TARGETS),
        "target_id": _mplp_id(source),
        "status": source.pick(_CONFIRM_STATUSES),
        "requested_by_role": source.text(),
        "requested_at": requested,
    }
    _maybe(source, fields, "reason", _text)
    _maybe(source, fields, "decisions", lambda _: [_confirm_decision(source, i, at) for i, at in zip(ids, decided)])
    _common(source, fields)
    return Confirm.model_validate(fields)


def confirms(*, max_decisions: int = 4) -> SearchStrategy[Confirm]:
    """``Confirm``: any status, 0 to ``max_decisions`` decisions with unique ids, none before ``requested_at``.

    The confirm's status and its decisions' are drawn apart: upstream ties them by no rule.
    """
    return _strategy(_confirm, max_decisions)


_SEGMENT_STATUSES = _enum_members(TraceSegmentStatus)


def _trace_segment(source: _Source, segment_id: str, parent: str | None) -> TraceSegment:
    started, finished = _timeline(source, 2)
    fields: dict[str, object] = {
        "segment_id": segment_id,
        "label": source.text(),
        "status": source.pick(_SEGMENT_STATUSES),
    }
    if parent is not None:
        fields["parent_segment_id"] = parent
    _maybe_value(source, fields, "started_at", started)
    _maybe_value(source, fields, "finished_at", finished)
    _maybe(source, fields, "attributes", _json_object)
    return TraceSegment.model_validate(fields)


def _lone_trace_segment(source: _Source) -> TraceSegment:
    segment_id = _mplp_id(source)
    return _trace_segment(source, segment_id, _mplp_id(source) if source.coin() else None)


def trace_segments() -> SearchStrategy[TraceSegment]:
    """``TraceSegment`` on its own: maybe a parent (a random id), ``started_at`` not after ``finished_at``."""
    return _strategy(_lone_trace_segment)


_TRACE_STATUSES = _enum_members(TraceStatus)


def _trace(source: _Source, max_segments: int) -> Trace:
    count = source.below(max_segments + 1)
    ids = _unique_ids(source, count)
    # Each segment's parent, if any, is listed before it, so the links form a forest, not a cycle.
    parents = [source.pick(ids[:position]) if position and source.coin() else None for position in range(count)]
    trace_id = _mplp_id(source)
    root_span = _trace_base(source).model_copy(update={"trace_id": trace_id})
    started, finished = _timeline(source, 2)
    fields: dict[str, object] = {
        "meta": _metadata(source),
        "trace_id": trace_id,
        "context_id": _mplp_id(source),
        "root_span": root_span,
        "status": source.pick(_TRACE_STATUSES),
    }
    _maybe(source, fields, "plan_id", _mplp_id)
    _maybe_value(source, fields, "started_at", started)
    _maybe_value(source, fields, "finished_at", finished)
    order = source.shuffled(range(count))  # listed in any order: a child may come before its parent
    _maybe(source, fields, "segments", lambda _: [_trace_segment(source, ids[i], parents[i]) for i in order])
    _maybe(source, fields, "governance", _governance)
    _maybe(source, fields, "events", _events)
    return Trace.model_validate(fields)


def traces(*, max_segments: int = 6) -> SearchStrategy[Trace]:
    """``Trace``: ``root_span.trace_id`` is the trace's, 0 to ``max_segments`` segments with unique ids whose parent
    links form a forest (listed in any order); every ``started_at`` not after its ``finished_at``."""
    return _strategy(_trace, max_segments)


def _role(source: _Source) -> Role:
    created, updated = _timeline(source, 2)
    fields: dict[str, object] = {"meta": _metadata(source), "role_id": _mplp_id(source), "name": source.text()}
    _maybe(source, fields, "description", _text)
    _maybe(source, fields, "capabilities", _texts_list)
    _maybe_value(source, fields, "created_at", created)
    _maybe_value(source, fields, "updated_at", updated)
    _common(source, fields)
    return Role.model_validate(fields)


def roles() -> SearchStrategy[Role]:
    """``Role``: a name, maybe capabilities, ``created_at`` and ``updated_at`` in order."""
    return _strategy(_role)


_EXTENSION_TYPES = _enum_members(ExtensionType)
_EXTENSION_STATUSES = _enum_members(ExtensionStatus)


def _extension(source: _Source) -> Extension:
    fields: dict[str, object] = {
        "meta": _metadata(source),
        "extension_id": _mplp_id(source),
        "context_id": _mplp_id(source),
        "name": source.text(min_size=1),
        "extension_type": source.pick(_EXTENSION_TYPES),
        "version": _semver(source),
        "status": source.pick(_EXTENSION_STATUSES),
    }
    _maybe(source, fields, "config", _json_object)
    _common(source, fields)
    return Extension.model_validate(fields)


def extensions() -> SearchStrategy[Extension]:
    """``Extension``: any type and status, a semantic version (pre-release and build too), maybe an open config."""
    return _strategy(_extension)


_collab_participant = _built(
    CollabParticipant,
    {"participant_id": _filled_text, "kind": _member(_enum_members(CollabParticipantKind))},
    {"role_id": _text, "display_name": _text},
)
_COLLAB_MODES = _enum_members(CollabMode)
_COLLAB_STATUSES = _enum_members(CollabStatus)
_participants = _unique_by(_collab_participant, "participant_id", 1, 4)


def _collab(source: _Source) -> Collab:
    created, updated = _timeline(source, 2)
    fields: dict[str, object] = {
        "meta": _metadata(source),
        "collab_id": _mplp_id(source),
        "context_id": _mplp_id(source),
        "title": source.text(min_size=1),
        "purpose": source.text(min_size=1),
        "mode": source.pick(_COLLAB_MODES),
        "status": source.pick(_COLLAB_STATUSES),
        "participants": _participants(source),
        "created_at": created,
    }
    _maybe_value(source, fields, "updated_at", updated)
    _common(source, fields)
    return Collab.model_validate(fields)


def collab_participants() -> SearchStrategy[CollabParticipant]:
    """``CollabParticipant``: a non-empty id, any kind, maybe a role and a display name."""
    return _strategy(_collab_participant)


def collabs() -> SearchStrategy[Collab]:
    """``Collab``: any mode and status, 1 to 4 participants with unique ids, ``created_at`` not after ``updated_at``."""
    return _strategy(_collab)


_MODULE_IDS = _enum_members(ModuleId)
_MODULE_STATUSES = _enum_members(ModuleDescriptorStatus)
_MODULE_OPTIONAL: dict[str, _Builder[object]] = {"required": _Source.coin, "description": _text}


def _module_descriptor(source: _Source, module_id: ModuleId | None = None) -> ModuleDescriptor:
    fields: dict[str, object] = {
        "module_id": source.pick(_MODULE_IDS) if module_id is None else module_id,
        "version": source.text(min_size=1),
        "status": source.pick(_MODULE_STATUSES),
    }
    for name, value in _MODULE_OPTIONAL.items():
        _maybe(source, fields, name, value)
    return ModuleDescriptor.model_validate(fields)


_CORE_STATUSES = _enum_members(CoreStatus)


def _core(source: _Source) -> Core:
    modules = _some_of(source, _MODULE_IDS, source.between(1, len(_MODULE_IDS)))
    fields: dict[str, object] = {
        "meta": _metadata(source),
        "core_id": _mplp_id(source),
        "protocol_version": "1.0.0" if source.coin() else source.text(min_size=1),
        "status": source.pick(_CORE_STATUSES),
        "modules": [_module_descriptor(source, module_id) for module_id in modules],
    }
    _common(source, fields)
    return Core.model_validate(fields)


def module_descriptors() -> SearchStrategy[ModuleDescriptor]:
    """``ModuleDescriptor``: any module and status, a non-empty version, maybe ``required``."""
    return _strategy(_module_descriptor)


def cores() -> SearchStrategy[Core]:
    """``Core``: any status, 1 to 10 module descriptors, no module twice."""
    return _strategy(_core)


_NODE_KINDS = _enum_members(NetworkNodeKind)
_NODE_STATUSES = _enum_members(NetworkNodeStatus)
_NODE_OPTIONAL: dict[str, _Builder[object]] = {"name": _text, "role_id": _text}


def _network_node(source: _Source, node_id: str | None = None) -> NetworkNode:
    fields: dict[str, object] = {
        "node_id": _mplp_id(source) if node_id is None else node_id,
        "kind": source.pick(_NODE_KINDS),
        "status": source.pick(_NODE_STATUSES),
    }
    for name, value in _NODE_OPTIONAL.items():
        _maybe(source, fields, name, value)
    return NetworkNode.model_validate(fields)


def _network_nodes(source: _Source) -> list[NetworkNode]:
    return [_network_node(source, node_id) for node_id in _unique_ids(source, source.below(6))]


_TOPOLOGIES = _enum_members(NetworkTopologyType)
_NETWORK_STATUSES = _enum_members(NetworkStatus)


def _network(source: _Source) -> Network:
    fields: dict[str, object] = {
        "meta": _metadata(source),
        "network_id": _mplp_id(source),
        "context_id": _mplp_id(source),
        "name": source.text(min_size=1),
        "topology_type": source.pick(_TOPOLOGIES),
        "status": source.pick(_NETWORK_STATUSES),
    }
    _maybe(source, fields, "description", _text)
    _maybe(source, fields, "nodes", _network_nodes)
    _common(source, fields)
    return Network.model_validate(fields)


def network_nodes() -> SearchStrategy[NetworkNode]:
    """``NetworkNode``: any kind and status, maybe a name and a role."""
    return _strategy(_network_node)


def networks() -> SearchStrategy[Network]:
    """``Network``: any topology and status, maybe nodes with unique ids."""
    return _strategy(_network)


# --- the event core and its families, the SA and MAP events, the integration events ------------
# The ids these schemas mark `format: uuid` are the sender's text (no draft-07 format): a UUID or any text.


def _any_id(source: _Source) -> str:
    return _mplp_id(source) if source.coin() else source.text()


def _json_int(source: _Source) -> int:
    return _json_integer(source)


def _count(source: _Source) -> int:
    return _json_integer(source, 0)


def _flag(source: _Source) -> bool:
    return source.coin()


_names = _list_of(_text, 4)


def _record(
    model: type[M], required: Mapping[str, _Builder[object]], optional: Mapping[str, _Builder[object]]
) -> _Builder[M]:
    """As ``_built``; an open model (``extra="allow"``) sometimes carries keys beyond its fields, any JSON."""

    def build(source: _Source) -> M:
        fields: dict[str, object] = {name: value(source) for name, value in required.items()}
        for name, value in optional.items():
            _maybe(source, fields, name, value)
        if model.model_config.get("extra") == "allow" and source.coin():
            extra = _json_object(source)
            fields.update({key: extra[key] for key in extra.keys() - model.model_fields.keys()})
        return model.model_validate(fields)

    build.__name__ = build.__qualname__ = f"_{model.__name__}"
    return build


# The families with a model of their own are never drawn for the core: parse reads them as that model.
_CORE_EVENT_FAMILIES = tuple(
    member
    for member in _enum_members(EventFamily)
    if member.value not in ("graph_update", "pipeline_stage", "runtime_execution")
)
# The rules: an event type is not empty (obs_event_type_non_empty).
_EVENT_CORE_REQUIRED: dict[str, _Builder[object]] = {
    "event_id": _any_id,
    "event_type": _filled_text,
    "timestamp": _timestamp,
}
_EVENT_CORE_OPTIONAL: dict[str, _Builder[object]] = {"project_id": _any_id, "payload": _json_object}


def _family(value: str) -> _Builder[object]:
    return lambda source: value


_event_core = _record(
    EventCore, {**_EVENT_CORE_REQUIRED, "event_family": _member(_CORE_EVENT_FAMILIES)}, _EVENT_CORE_OPTIONAL
)
_graph_update_event = _record(
    GraphUpdateEvent,
    {**_EVENT_CORE_REQUIRED, "event_family": _family("graph_update"), "graph_id": _any_id,
     "update_kind": _member(_enum_members(GraphUpdateKind)), "node_delta": _json_int, "edge_delta": _json_int},
    {**_EVENT_CORE_OPTIONAL, "source_module": _text},
)  # fmt: skip
_pipeline_stage_event = _record(
    PipelineStageEvent,
    {**_EVENT_CORE_REQUIRED, "event_family": _family("pipeline_stage"), "pipeline_id": _any_id,
     "stage_id": _filled_text, "stage_status": _member(_enum_members(PipelineStageStatus))},
    {**_EVENT_CORE_OPTIONAL, "stage_name": _text, "stage_order": _count},
)  # fmt: skip
_runtime_execution_event = _record(
    RuntimeExecutionEvent,
    {**_EVENT_CORE_REQUIRED, "event_family": _family("runtime_execution"), "execution_id": _any_id,
     "executor_kind": _member(_enum_members(ExecutorKind)), "status": _member(_enum_members(RuntimeExecutionStatus))},
    {**_EVENT_CORE_OPTIONAL, "executor_role": _text},
)  # fmt: skip
_sa_event = _record(
    SAEvent,
    {"event_id": _any_id, "event_type": _member(_enum_members(SAEventType)), "timestamp": _timestamp, "sa_id": _any_id},
    {"context_id": _any_id, "plan_id": _any_id, "trace_id": _any_id, "payload": _json_object},
)
_map_event = _record(
    MAPEvent,
    {
        "event_id": _any_id,
        "event_type": _member(_enum_members(MAPEventType)),
        "timestamp": _timestamp,
        "session_id": _any_id,
    },
    {"initiator_role": _text, "target_roles": _names, "payload": _json_object},
)


def event_cores() -> SearchStrategy[EventCore]:
    """``EventCore``: any of the nine families with no schema of their own (the other three are their own models)."""
    return _strategy(_event_core)


def graph_update_events() -> SearchStrategy[GraphUpdateEvent]:
    """``GraphUpdateEvent``: any update kind, node and edge deltas of either sign, keys beyond the fields sometimes."""
    return _strategy(_graph_update_event)


def pipeline_stage_events() -> SearchStrategy[PipelineStageEvent]:
    """``PipelineStageEvent``: any stage status, maybe a name and an order from 0."""
    return _strategy(_pipeline_stage_event)


def runtime_execution_events() -> SearchStrategy[RuntimeExecutionEvent]:
    """``RuntimeExecutionEvent``: any executor kind and status, maybe a role."""
    return _strategy(_runtime_execution_event)


def sa_events() -> SearchStrategy[SAEvent]:
    """``SAEvent``: any SA lifecycle event type, maybe the context, plan and trace it belongs to."""
    return _strategy(_sa_event)


def map_events() -> SearchStrategy[MAPEvent]:
    """``MAPEvent``: any MAP session event type, maybe an initiator and target roles."""
    return _strategy(_map_event)


def _started_and_completed(source: _Source, fields: dict[str, object]) -> None:
    # The rules: a run or an invocation completes no earlier than it started.
    started, completed = _timeline(source, 2)
    _maybe_value(source, fields, "started_at", started)
    _maybe_value(source, fields, "completed_at", completed)


_ci_stage = _record(
    CIStage,
    {"stage_name": _text, "status": _member(_enum_members(CIStageStatus))},
    {"duration_ms": _count},
)


def _ci_event(source: _Source) -> CIEvent:
    fields: dict[str, object] = {
        "ci_provider": _filled_text(source),
        "pipeline_id": _filled_text(source),
        "run_id": _filled_text(source),
        "status": source.pick(_enum_members(CIStatus)),
    }
    _started_and_completed(source, fields)
    optional: dict[str, _Builder[object]] = {
        "branch_name": _text,
        "commit_id": _text,
        "run_url": _text,
        "duration_ms": _count,
        "stages": _list_of(_ci_stage, 4),
        "trigger_kind": _member(_enum_members(CITriggerKind)),
    }
    for name, value in optional.items():
        _maybe(source, fields, name, value)
    return CIEvent.model_validate(fields)


_file_update_event = _record(
    FileUpdateEvent,
    {"file_path": _filled_text, "change_type": _member(_enum_members(FileChangeType)), "timestamp": _timestamp},
    {"workspace_root": _text, "change_summary": _text, "lines_added": _count, "lines_removed": _count,
     "previous_path": _text, "encoding": _text, "language": _text},
)  # fmt: skip
_git_event = _record(
    GitEvent,
    {"repo_url": _filled_text, "commit_id": _filled_text, "ref_name": _filled_text,
     "event_kind": _member(_enum_members(GitEventKind)), "timestamp": _timestamp},
    {"author_name": _text, "author_email": _email, "commit_message": _text, "files_changed": _count,
     "insertions": _count, "deletions": _count, "parent_commits": _unique_texts},
)  # fmt: skip


def _tool_event(source: _Source) -> ToolEvent:
    fields: dict[str, object] = {
        "tool_id": _filled_text(source),
        "tool_kind": source.pick(_enum_members(ToolKind)),
        "invocation_id": _mplp_id(source),  # a pattern: a lowercase UUID v4
        "status": source.pick(_enum_members(ToolStatus)),
    }
    _started_and_completed(source, fields)
    optional: dict[str, _Builder[object]] = {
        "exit_code": _json_int,
        "output_summary": _text,
        "args": _names,
        "working_directory": _text,
    }
    for name, value in optional.items():
        _maybe(source, fields, name, value)
    return ToolEvent.model_validate(fields)


def ci_stages() -> SearchStrategy[CIStage]:
    """``CIStage``: any name and status, maybe a duration."""
    return _strategy(_ci_stage)


def ci_events() -> SearchStrategy[CIEvent]:
    """``CIEvent``: any status and trigger, completed no earlier than started, any text for the URL (no format
    check)."""
    return _strategy(_ci_event)


def file_update_events() -> SearchStrategy[FileUpdateEvent]:
    """``FileUpdateEvent``: any change type, a path of at least one character."""
    return _strategy(_file_update_event)


def git_events() -> SearchStrategy[GitEvent]:
    """``GitEvent``: any operation, any text around an ``@`` for the e-mail (the format's check), maybe parents."""
    return _strategy(_git_event)


def tool_events() -> SearchStrategy[ToolEvent]:
    """``ToolEvent``: any tool kind and status, an invocation id that is a UUID v4, completed no earlier than
    started."""
    return _strategy(_tool_event)


# --- the learning-sample core and its families ------------------------------------------------

_FEEDBACK_LABELS = _enum_members(HumanFeedbackLabel)
_SAMPLE_META_OPTIONAL: dict[str, _Builder[object]] = {
    "source_flow_id": _filled_text,  # the rule: a source flow id is not empty
    "source_event_ids": lambda source: list(
        dict.fromkeys(_any_id(source) for _ in range(source.below(4)))
    ),  # none twice
    "project_id": _any_id,
    "quality_score": _number_builder(0, 1),
}


def _meta_of(model: type[M], label: Sequence[object], own: Mapping[str, _Builder[object]]) -> _Builder[M]:
    return _record(model, {}, {**_SAMPLE_META_OPTIONAL, "human_feedback_label": _member(label), **own})


_sample_meta = _meta_of(SampleMeta, _FEEDBACK_LABELS, {})
_delta_impact_input = _record(
    DeltaImpactInput,
    {"delta_id": _filled_text, "intent_id": _filled_text, "change_summary": _text},
    {"delta_type": _member(_enum_members(DeltaType))},
)
_delta_impact_state = _record(
    DeltaImpactState,
    {},
    {
        "affected_artifact_count": _count,
        "risk_level": _member(_enum_members(RiskLevel)),
        "psg_complexity_score": _number_builder(0),
    },
)
_delta_impact_output = _record(
    DeltaImpactOutput,
    {"actual_impact_summary": _text, "impact_scope": _member(_enum_members(ImpactScope))},
    {"comp_plan_required": _flag, "comp_plan_applied": _flag, "rollback_used": _flag},
)
_delta_impact_meta = _meta_of(
    DeltaImpactMeta,
    _enum_members(DeltaImpactFeedbackLabel),
    {
        "impact_analysis_duration_ms": _count,
        "predicted_vs_actual_accuracy": _member(_enum_members(ImpactPredictionAccuracy)),
    },
)
_intent_resolution_input = _record(
    IntentResolutionInput,
    {"intent_id": _filled_text, "raw_request_summary": _text},
    {"constraints_summary": _text, "dialog_turns_count": _count},
)
_intent_resolution_state = _record(
    IntentResolutionState, {}, {"project_phase": _text, "psg_node_count": _count, "existing_plan_count": _count}
)
_intent_resolution_output = _record(
    IntentResolutionOutput,
    {"final_intent_summary": _text},
    {
        "plan_id": _any_id,
        "plan_step_count": _count,
        "resolution_quality_label": _member(_enum_members(ResolutionQualityLabel)),
    },
)
_intent_resolution_meta = _meta_of(
    IntentResolutionMeta,
    _enum_members(IntentResolutionFeedbackLabel),
    {"clarification_rounds": _count, "ambiguity_flags": _names},
)
_SAMPLE_REQUIRED: dict[str, _Builder[object]] = {"sample_id": _any_id, "created_at": _timestamp}
_FAMILIES_OF_THEIR_OWN = ("delta_impact", "intent_resolution")
_KNOWN_SAMPLE_FAMILIES = ("pipeline_outcome", "confirm_decision", "graph_evolution", "multi_agent_coordination")


def _sample_family(source: _Source) -> str:
    # Not empty (a rule), and never a family with a model of its own: parse reads those as that model.
    if source.coin():
        return source.pick(_KNOWN_SAMPLE_FAMILIES)
    family = _filled_text(source)
    return family if family not in _FAMILIES_OF_THEIR_OWN else family + "_"


_learning_sample_core = _record(
    LearningSampleCore,
    {**_SAMPLE_REQUIRED, "sample_family": _sample_family, "input": _json_object, "output": _json_object},
    {"state": _json_object, "meta": _sample_meta},
)
_delta_impact_sample = _record(
    DeltaImpactSample,
    {
        **_SAMPLE_REQUIRED,
        "sample_family": _family("delta_impact"),
        "input": _delta_impact_input,
        "output": _delta_impact_output,
    },
    {"state": _delta_impact_state, "meta": _delta_impact_meta},
)
_intent_resolution_sample = _record(
    IntentResolutionSample,
    {**_SAMPLE_REQUIRED, "sample_family": _family("intent_resolution"), "input": _intent_resolution_input,
     "output": _intent_resolution_output},
    {"state": _intent_resolution_state, "meta": _intent_resolution_meta},
)  # fmt: skip


def learning_sample_cores() -> SearchStrategy[LearningSampleCore]:
    """``LearningSampleCore``: a family with no schema of its own, open input, state and output, maybe meta."""
    return _strategy(_learning_sample_core)


def sample_metas() -> SearchStrategy[SampleMeta]:
    """``SampleMeta``: provenance, feedback label and a quality score from 0 to 1, each maybe."""
    return _strategy(_sample_meta)


def delta_impact_samples() -> SearchStrategy[DeltaImpactSample]:
    """``DeltaImpactSample``: the family's input and output, maybe its state and meta."""
    return _strategy(_delta_impact_sample)


def delta_impact_inputs() -> SearchStrategy[DeltaImpactInput]:
    """``DeltaImpactInput``: delta and intent ids (not empty), a change summary, maybe a delta type."""
    return _strategy(_delta_impact_input)


def delta_impact_states() -> SearchStrategy[DeltaImpactState]:
    """``DeltaImpactState``: artifact count, risk level and complexity score, each maybe."""
    return _strategy(_delta_impact_state)


def delta_impact_outputs() -> SearchStrategy[DeltaImpactOutput]:
    """``DeltaImpactOutput``: an impact summary and scope, maybe the compensation flags."""
    return _strategy(_delta_impact_output)


def delta_impact_metas() -> SearchStrategy[DeltaImpactMeta]:
    """``DeltaImpactMeta``: the core's meta fields and the family's, each maybe."""
    return _strategy(_delta_impact_meta)


def intent_resolution_samples() -> SearchStrategy[IntentResolutionSample]:
    """``IntentResolutionSample``: the family's input and output, maybe its state and meta."""
    return _strategy(_intent_resolution_sample)


def intent_resolution_inputs() -> SearchStrategy[IntentResolutionInput]:
    """``IntentResolutionInput``: an intent id (not empty) and a request summary, maybe constraints and turns."""
    return _strategy(_intent_resolution_input)


def intent_resolution_states() -> SearchStrategy[IntentResolutionState]:
    """``IntentResolutionState``: project phase and counts, each maybe."""
    return _strategy(_intent_resolution_state)


def intent_resolution_outputs() -> SearchStrategy[IntentResolutionOutput]:
    """``IntentResolutionOutput``: the resolved intent, maybe a plan and a quality label."""
    return _strategy(_intent_resolution_output)


def intent_resolution_metas() -> SearchStrategy[IntentResolutionMeta]:
    """``IntentResolutionMeta``: the core's meta fields and the family's, each maybe."""
    return _strategy(_intent_resolution_meta)


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
    EventCore: event_cores,
    GraphUpdateEvent: graph_update_events,
    PipelineStageEvent: pipeline_stage_events,
    RuntimeExecutionEvent: runtime_execution_events,
    SAEvent: sa_events,
    MAPEvent: map_events,
    CIEvent: ci_events,
    CIStage: ci_stages,
    FileUpdateEvent: file_update_events,
    GitEvent: git_events,
    ToolEvent: tool_events,
    LearningSampleCore: learning_sample_cores,
    SampleMeta: sample_metas,
    DeltaImpactSample: delta_impact_samples,
    DeltaImpactInput: delta_impact_inputs,
    DeltaImpactState: delta_impact_states,
    DeltaImpactOutput: delta_impact_outputs,
    DeltaImpactMeta: delta_impact_metas,
    IntentResolutionSample: intent_resolution_samples,
    IntentResolutionInput: intent_resolution_inputs,
    IntentResolutionState: intent_resolution_states,
    IntentResolutionOutput: intent_resolution_outputs,
    IntentResolutionMeta: intent_resolution_metas,
}


def payloads() -> SearchStrategy[Payload]:
    """Any top-level payload that ``mplp_models.parse`` tells apart: each registered kind in turn, by its own
    strategy."""
    return _strategy(_payload)


def _payload(source: _Source) -> Payload:
    # The kind is picked evenly from the drawn bytes: st.one_of favours its first branches, and
    # some kinds came up in fewer than one example in a hundred.
    kind = source.pick(KINDS)
    return source.draw(cast("SearchStrategy[Payload]", instances(kind.model)))


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
    """Register these strategies with hypothesis, for ``st.from_type(Plan)``, ``st.builds`` and ``@given(plan=...)``
    inference.

    Registers every model class and ``Timestamp``. The registration is global
    for the process and replaces any earlier one for these types; call it once,
    for example in a ``conftest.py``.
    """
    for model, factory in _BY_MODEL.items():
        st.register_type_strategy(model, factory())
    st.register_type_strategy(Timestamp, timestamps())
