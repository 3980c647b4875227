"""MPLP traces in OpenTelemetry: a ``Trace`` as spans (``export``), spans as a ``Trace`` (``from_spans``), and
segments written while the agent runs (``segment``). Needs the extra ``mplp-models[otel]`` (``opentelemetry-sdk``).

The mapping (docs/seeing.md has it in full):

- The trace is one OpenTelemetry trace, whose id is the 32 hex digits of ``trace_id``. Its root span is the
  trace's ``root_span`` (``invoke_agent``: the GenAI conventions' agent span, OpenInference kind ``AGENT``),
  child of ``root_span.parent_span_id`` where given; it spans ``started_at`` to ``finished_at``.
- Each segment that started is a span (named by its label, OpenInference kind ``CHAIN``), child of its
  parent segment's span, or of the root span; from ``started_at`` to ``finished_at`` to the nanosecond,
  whatever the offset and the fraction. A segment that never started is an event ``mplp.segment`` of the
  root span. Status ERROR for ``failed``, OK for ``completed``, else unset.
- The trace's events are the root span's events, named by ``event_type``, at their ``timestamp``.
- Every MPLP value rides in ``mplp.*`` attributes (statuses, ids, the exact timestamp texts, the positions
  in the lists). Open objects (a segment's ``attributes``, ``meta``, ``root_span``, an event's ``data``) are
  flattened by OpenTelemetry's rules (``mplp.attributes.files = 6``: nested keys joined by dots, arrays of
  one primitive type as arrays) where that gives the object back exactly, else written as one JSON text
  (``mplp.attributes_json``).

``from_spans(export(trace, ...)).to_json() == trace.to_json()``, byte for byte. Spans that ``export`` did
not make become a valid trace too; what the trace cannot hold is dropped, as docs/seeing.md lists.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import re
import threading
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol, cast

try:
    from opentelemetry import context as context_api
    from opentelemetry import trace as trace_api
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import ReadableSpan, SpanLimits, Tracer, TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter
    from opentelemetry.sdk.trace.id_generator import IdGenerator
except ImportError as _missing:  # pragma: no cover - the message is the point
    raise ImportError("mplp_models.otel needs OpenTelemetry's SDK: pip install 'mplp-models[otel]'") from _missing

from mplp_models._canonical import canonical_json
from mplp_models._conversion import ConversionError
from mplp_models._formats import Timestamp
from mplp_models._generated.mplp.v1_0.mplp_trace_schema import Trace, TraceSegment
from mplp_models._ids import PROTOCOL_VERSION, new_id
from mplp_models._instants import nanoseconds, rfc3339
from mplp_models._json_input import load_json
from mplp_models._trace import STEP_ATTRIBUTE
from mplp_models._version import __version__

if TYPE_CHECKING:
    from opentelemetry.trace import Span
    from opentelemetry.util.types import AttributeValue

    from mplp_models._generated.mplp.v1_0.common.events_schema import Event

__all__ = ["STEP_ATTRIBUTE", "TraceHolder", "export", "from_spans", "segment", "step_of"]

_STEP_SPAN_ATTRIBUTE: Final = "mplp.step_id"  # the span's copy of the segment's plan step (step_of)

_SCOPE: Final = "mplp_models.otel"
_MASK64: Final = (1 << 64) - 1
_FLAT_LIMIT: Final = 64  # flattened keys of one object at most: the SDK keeps 128 attributes a span by default
_MPLP_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
_EVENT_TYPE = re.compile(r"[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*)*")
_NOT_STARTED: Final = "mplp.segment"  # the root span's event for a segment that never started
_FOREIGN_EVENT: Final = "otel.span.event"  # the event_type of a span event whose name is not one
_INT64 = range(-(1 << 63), 1 << 63)


class TraceHolder(Protocol):
    """Whatever holds the agent's current trace: ``segment`` reads it and puts each new trace back."""

    trace: Trace


def step_of(segment: TraceSegment) -> str | None:
    """The id of the plan step that ``segment`` runs: its attribute ``step_id``, where it is a string."""
    step = (segment.attributes or {}).get(STEP_ATTRIBUTE)
    return step if isinstance(step, str) else None


# --- ids ----------------------------------------------------------------------------------------------------


def _uuid_int(mplp_id: str) -> int:
    return int(mplp_id.replace("-", ""), 16)


def _uuid_text(value: int) -> str:
    digits = f"{value:032x}"
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


def _as_v4(value: int) -> str:
    """``value`` as an MPLP id: a UUID v4's version nibble (4) and variant bits (10) set, the other 122 bits kept."""
    value = (value & ~(0xF << 76)) | (0x4 << 76)
    return _uuid_text((value & ~(0b11 << 62)) | (0b10 << 62))


def _made_id(*parts: object) -> str:
    """An MPLP id made from ``parts``: the same parts give the same id."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return _as_v4(int.from_bytes(digest[:16], "big"))


def _folded(mplp_id: str) -> int:
    """A span id for an MPLP id: its two 64-bit halves XORed (``_segment_id`` inverts it)."""
    value = _uuid_int(mplp_id)
    return (value >> 64) ^ (value & _MASK64)


def _segment_id(span_id: int, trace_id: int) -> str:
    """The MPLP id of a span that ``export`` did not make: a UUID v4 whose ``_folded`` is ``span_id``.

    The high half is made from the trace id, with the version nibble and the two top bits that
    put the variant bits (10) into the low half, ``span_id ^ high``; so ``high ^ low == span_id``.
    """
    salt = ((trace_id >> 64) ^ trace_id) & _MASK64
    top = ((span_id >> 62) ^ 0b10) & 0b11
    high = (salt & ~(0b11 << 62) & ~(0xF << 12)) | (top << 62) | (0x4 << 12)
    return _uuid_text((high << 64) | (span_id ^ high))


def _trace_id(otel_trace_id: int) -> str:
    """The MPLP id of an OpenTelemetry trace: its 32 hex digits, made a UUID v4 if they are not one."""
    text = _uuid_text(otel_trace_id)
    return text if _MPLP_ID.fullmatch(text) else _as_v4(otel_trace_id)


class _PlannedIds(IdGenerator):
    """The ids that ``export`` and ``segment`` plan for the next span started on this thread; else the SDK's own."""

    def __init__(self, fallback: IdGenerator) -> None:
        self.fallback = fallback
        self._next = threading.local()

    def plan(self, trace_id: int | None, span_id: int | None) -> None:
        self._next.ids = (trace_id, span_id)

    def _planned(self, which: int) -> int | None:
        ids: tuple[int | None, int | None] = getattr(self._next, "ids", (None, None))
        found = ids[which]
        self._next.ids = (None, ids[1]) if which == 0 else (ids[0], None)
        return found

    def generate_trace_id(self) -> int:
        planned = self._planned(0)
        return self.fallback.generate_trace_id() if planned is None else planned

    def generate_span_id(self) -> int:
        planned = self._planned(1)
        return self.fallback.generate_span_id() if planned is None else planned


def _tracer(provider: trace_api.TracerProvider) -> trace_api.Tracer:
    """Our tracer of ``provider``; with the SDK's tracer, its ids planned by ``_PlannedIds``."""
    tracer = provider.get_tracer(_SCOPE, __version__)
    if isinstance(tracer, Tracer) and not isinstance(tracer.id_generator, _PlannedIds):
        tracer.id_generator = _PlannedIds(tracer.id_generator)
    return tracer


def _start(
    tracer: trace_api.Tracer,
    name: str,
    ids: tuple[int | None, int],
    parent: context_api.Context | None,
    start: int,
    attributes: Mapping[str, AttributeValue],
) -> Span:
    planner = getattr(tracer, "id_generator", None)
    if isinstance(planner, _PlannedIds):
        planner.plan(*ids)
    try:
        return tracer.start_span(
            name, context=parent, kind=trace_api.SpanKind.INTERNAL, attributes=attributes, start_time=start
        )
    finally:
        if isinstance(planner, _PlannedIds):
            planner.plan(None, None)


def _remote(trace_id: int, span_id: int) -> context_api.Context:
    """A context whose current span is the (sampled, remote) span ``span_id`` of trace ``trace_id``."""
    parent = trace_api.SpanContext(trace_id, span_id, is_remote=True, trace_flags=trace_api.TraceFlags(1))
    return trace_api.set_span_in_context(trace_api.NonRecordingSpan(parent))


# --- open objects as attributes ---------------------------------------------------------------------------


def _attribute_value(value: object) -> AttributeValue | None:
    """``value`` as an OpenTelemetry attribute value: a primitive, or a list of one primitive type; None if not."""
    if isinstance(value, bool | str) or (isinstance(value, float) and value == value):
        return value
    if isinstance(value, int):
        return value if value in _INT64 else None
    if isinstance(value, list):
        items = cast("list[object]", value)
        kinds = {type(item) for item in items}
        if len(kinds) <= 1 and all(_attribute_value(item) is not None for item in items):
            return cast("AttributeValue", tuple(items))
    return None


def _flattened(prefix: str, value: Mapping[str, object], into: dict[str, AttributeValue]) -> None:
    for key, item in value.items():
        path = f"{prefix}.{key}"
        if isinstance(item, Mapping):
            _flattened(path, cast("Mapping[str, object]", item), into)
            continue
        written = _attribute_value(item)
        if written is not None:
            into[path] = written


def _unflattened(prefix: str, attributes: Mapping[str, object]) -> dict[str, object] | None:
    """The object that the keys under ``prefix.`` spell (arrays read back as lists); None if there are none."""
    found: dict[str, object] | None = None
    start = len(prefix) + 1
    for key, value in attributes.items():
        if not key.startswith(prefix + "."):
            continue
        found = {} if found is None else found
        *parents, last = key[start:].split(".")
        place = found
        for part in parents:
            below = place.setdefault(part, {})
            if not isinstance(below, dict):
                return None  # a key that is both a value and an object: not what _flattened writes
            place = cast("dict[str, object]", below)
        place[last] = list(cast("Sequence[object]", value)) if isinstance(value, tuple) else value
    return found


def _put(attributes: dict[str, AttributeValue], name: str, value: object) -> None:
    """``value`` (an open object, or any JSON value) as attributes: flattened under ``name.`` if that is exact."""
    flat: dict[str, AttributeValue] = {}
    if isinstance(value, Mapping):
        _flattened(name, cast("Mapping[str, object]", value), flat)
    if flat and len(flat) <= _FLAT_LIMIT and canonical_json(_unflattened(name, flat)) == canonical_json(value):
        attributes.update(flat)
    else:
        attributes[f"{name}_json"] = canonical_json(value).decode()


def _got(attributes: Mapping[str, object], name: str, where: str) -> object:
    """What ``_put`` wrote as ``name``: its JSON text read strictly, else the flattened keys; None if neither."""
    text = attributes.get(f"{name}_json")
    if text is None:
        return _unflattened(name, attributes)
    try:
        return load_json(str(text).encode(), name)
    except ValueError as error:
        raise ConversionError((where, f"{name}_json"), f"not the JSON that export wrote: {error}") from None


# --- export -----------------------------------------------------------------------------------------------


def _instant(text: str, where: tuple[str | int, ...]) -> int:
    nanos = nanoseconds(text)
    if not 0 <= nanos <= _MASK64:
        raise ConversionError(where, f"{text} is outside OpenTelemetry's times (1970 to 2554, in nanoseconds)")
    return nanos


def _bounds(trace: Trace) -> tuple[int, int]:
    """Where the root span starts and ends: the trace's own times, else the earliest and latest stamps in it."""
    stamps: list[tuple[str, tuple[str | int, ...]]] = []
    for position, seg in enumerate(trace.segments or ()):
        stamps.extend((t, ("segments", position)) for t in (seg.started_at, seg.finished_at) if t is not None)
    stamps.extend((e.timestamp, ("events", k, "timestamp")) for k, e in enumerate(trace.events or ()))
    if trace.finished_at is not None:
        stamps.append((trace.finished_at, ("finished_at",)))
    times = [_instant(text, where) for text, where in stamps]
    if trace.started_at is not None:
        start = _instant(trace.started_at, ("started_at",))
    elif times:
        start = min(times)
    elif trace.meta.created_at is not None:
        start = _instant(trace.meta.created_at, ("meta", "created_at"))
    else:
        raise ConversionError(("started_at",), "the trace has no time to place its span at: give started_at")
    end = _instant(trace.finished_at, ("finished_at",)) if trace.finished_at is not None else max([start, *times])
    return start, max(start, end)  # a trace that ends before its segments began: its span is a point


def _trace_attributes(trace: Trace) -> dict[str, AttributeValue]:
    attributes: dict[str, AttributeValue] = {
        "openinference.span.kind": "AGENT",
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.conversation.id": trace.context_id,
        "mplp.trace_id": trace.trace_id,
        "mplp.context_id": trace.context_id,
        "mplp.status": trace.status.value,
    }
    for name in ("plan_id", "started_at", "finished_at"):
        value = getattr(trace, name)
        if value is not None:
            attributes[f"mplp.{name}"] = str(value)
    _put(attributes, "mplp.meta", trace.meta.to_dict())
    _put(attributes, "mplp.root_span", trace.root_span.to_dict())
    if trace.governance is not None:
        _put(attributes, "mplp.governance", trace.governance.to_dict())
    if trace.segments is not None:
        attributes["mplp.segments"] = len(trace.segments)
    if trace.events is not None:
        attributes["mplp.events"] = len(trace.events)
    return attributes


def _segment_attributes(trace: Trace, seg: TraceSegment, index: int) -> dict[str, AttributeValue]:
    attributes: dict[str, AttributeValue] = {
        "openinference.span.kind": "CHAIN",
        "mplp.trace_id": trace.trace_id,
        "mplp.segment_id": seg.segment_id,
        "mplp.segment_index": index,
        "mplp.status": seg.status.value,
    }
    for name in ("parent_segment_id", "started_at", "finished_at"):
        value = getattr(seg, name)
        if value is not None:
            attributes[f"mplp.{name}"] = str(value)
    step = step_of(seg)
    if step is not None:
        attributes[_STEP_SPAN_ATTRIBUTE] = step
    if seg.attributes is not None:
        _put(attributes, "mplp.attributes", seg.attributes)
    return attributes


def _event_attributes(event: Event, index: int) -> dict[str, AttributeValue]:
    attributes: dict[str, AttributeValue] = {
        "mplp.event_id": event.event_id,
        "mplp.event_index": index,
        "mplp.source": event.source,
        "mplp.timestamp": str(event.timestamp),
    }
    if event.trace_id is not None:
        attributes["mplp.event_trace_id"] = event.trace_id
    if "data" in event.model_fields_set:
        _put(attributes, "mplp.data", event.data)
    return attributes


def _status(span: Span, status: str) -> None:
    if status == "failed":
        span.set_status(trace_api.Status(trace_api.StatusCode.ERROR, "failed"))
    elif status == "completed":
        span.set_status(trace_api.Status(trace_api.StatusCode.OK))


def _span_ids(trace: Trace) -> dict[str | None, int]:
    """The span id of the root span (key None) and of each segment: ``_folded`` of its id, made unique and non-zero."""
    taken: set[int] = {0}
    found: dict[str | None, int] = {}
    for key in (None, *(seg.segment_id for seg in trace.segments or ())):
        if key in found:
            continue
        mplp_id = trace.root_span.span_id if key is None else key
        span_id, attempt = _folded(mplp_id), 0
        while span_id in taken:  # two ids whose halves XOR alike: rare, and then any unused id will do
            attempt += 1
            span_id = _folded(_made_id(mplp_id, attempt))
        taken.add(span_id)
        found[key] = span_id
    return found


def _provider(target: SpanExporter | TracerProvider, resource: Resource | None) -> TracerProvider:
    if isinstance(target, TracerProvider):
        if resource is not None:
            raise ValueError("resource= goes with an exporter: a TracerProvider has its own resource")
        return target
    if not isinstance(cast(object, target), SpanExporter):  # the types say so; a caller's code may not
        raise TypeError(f"export needs a SpanExporter or an SDK TracerProvider, not {type(target).__name__}")
    resource = resource if resource is not None else Resource.create()
    provider = TracerProvider(resource=resource, span_limits=_WHOLE, shutdown_on_exit=False)
    provider.add_span_processor(SimpleSpanProcessor(target))
    return provider


# The limits of export's own provider: none, whatever OTEL_SPAN_*_LIMIT says, so that the spans hold the whole
# trace (the SDK's defaults keep 128 events and attributes a span, and a trace may have more).
_UNSET = SpanLimits.UNSET
_WHOLE = SpanLimits(
    max_attributes=_UNSET,
    max_events=_UNSET,
    max_links=_UNSET,
    max_span_attributes=_UNSET,
    max_event_attributes=_UNSET,
    max_link_attributes=_UNSET,
    max_attribute_length=_UNSET,
    max_span_attribute_length=_UNSET,
)


def export(
    trace: Trace,
    exporter_or_tracer_provider: SpanExporter | TracerProvider,
    *,
    resource: Resource | None = None,
    only_trace: bool = False,
) -> list[ReadableSpan]:
    """The spans of ``trace``, written to the exporter (or through the SDK tracer provider's processors).

    One span for the trace (its ``root_span``) and one per segment that started, in the
    OpenTelemetry trace whose id is ``trace_id``'s 32 hex digits; the module's docstring and
    docs/seeing.md give the whole mapping. The spans are ended and flushed when this returns.

    Args:
        trace: The trace to write.
        exporter_or_tracer_provider: A ``SpanExporter`` (the spans go to it at once, from a provider of
            their own, with no span limits), or the SDK ``TracerProvider`` of the application (its sampler,
            limits and processors apply, and its processors may send later: call its ``force_flush`` to wait).
        resource: With an exporter, the spans' resource (default ``Resource.create()``: the
            ``OTEL_RESOURCE_ATTRIBUTES`` and ``OTEL_SERVICE_NAME`` of the environment).
        only_trace: Write only the trace's own span (and the segments that never started, as its events):
            for a trace whose segments ``segment`` already sent as they ran.

    Returns:
        The spans written, root first (``from_spans`` takes them back).

    Raises:
        ConversionError: If a time is before 1970 or after 2554, or the trace has no time at all.
        ValueError: If the segments do not form a forest (possible only under schema-only validation).
        TypeError: If ``trace`` is not a ``Trace``, or the second argument neither an exporter nor a provider.
    """
    if not isinstance(trace, Trace):  # pyright: ignore[reportUnnecessaryIsInstance]  # an untyped caller's
        raise TypeError(f"export writes a Trace, not {type(trace).__name__}")
    provider = _provider(exporter_or_tracer_provider, resource)
    tracer = _tracer(provider)
    start, end = _bounds(trace)
    ids = _span_ids(trace)
    otel_trace_id = _uuid_int(trace.trace_id)
    parent_id = trace.root_span.parent_span_id
    parent = _remote(otel_trace_id, _folded(parent_id)) if parent_id is not None else None
    root = _start(tracer, "invoke_agent", (otel_trace_id, ids[None]), parent, start, _trace_attributes(trace))
    _status(root, trace.status.value)
    written: list[tuple[Span, int]] = [(root, end)]
    if not only_trace:
        written.extend(_segment_spans(trace, tracer, root, ids, end))
    _not_started_events(trace, root, start)
    for index, event in enumerate(trace.events or ()):
        root.add_event(event.event_type, _event_attributes(event, index), _instant(event.timestamp, ("events", index)))
    for span, stop in reversed(written):  # children end before their parents
        span.end(end_time=stop)
    provider.force_flush()
    return [span for span, _ in written if isinstance(span, ReadableSpan)]


def _segment_spans(
    trace: Trace, tracer: trace_api.Tracer, root: Span, ids: Mapping[str | None, int], end: int
) -> Iterator[tuple[Span, int]]:
    """A started span per started segment, parents first, with the time it ends: ``finished_at``, else ``end``."""
    positions = {seg.segment_id: index for index, seg in reversed(list(enumerate(trace.segments or ())))}
    below: dict[str, Span] = {}  # each segment's span, or its nearest started ancestor's
    for seg in trace.walk():
        parent = below.get(seg.parent_segment_id or "", root)
        if seg.started_at is None:
            below[seg.segment_id] = parent
            continue
        index = positions[seg.segment_id]
        began = _instant(seg.started_at, ("segments", index, "started_at"))
        attributes = _segment_attributes(trace, seg, index)
        context = trace_api.set_span_in_context(parent)
        span = _start(tracer, seg.label, (None, ids[seg.segment_id]), context, began, attributes)
        _status(span, seg.status.value)
        finished = seg.finished_at
        stop = _instant(finished, ("segments", index, "finished_at")) if finished is not None else max(end, began)
        below[seg.segment_id] = span
        yield span, stop


def _not_started_events(trace: Trace, root: Span, start: int) -> None:
    for index, seg in enumerate(trace.segments or ()):
        if seg.started_at is not None:
            continue
        attributes = _segment_attributes(trace, seg, index)
        attributes["mplp.label"] = seg.label
        finished = seg.finished_at
        when = _instant(finished, ("segments", index, "finished_at")) if finished is not None else start
        root.add_event(_NOT_STARTED, attributes, when)


# --- from_spans -------------------------------------------------------------------------------------------


def _need(attributes: Mapping[str, object], key: str, where: str) -> object:
    if key not in attributes:
        raise ConversionError((where, key), f"a span that export wrote has no attribute {key}: was it cut short?")
    return attributes[key]


def _copied(attributes: Mapping[str, object], into: dict[str, object], names: Iterable[str]) -> None:
    for name in names:
        if f"mplp.{name}" in attributes:
            into[name] = attributes[f"mplp.{name}"]


def _own_segment(attributes: Mapping[str, object], label: str, where: str) -> tuple[int, dict[str, object]]:
    """A segment that ``export`` wrote (a span's, or a not-started event's, attributes), with its position."""
    found: dict[str, object] = {
        "segment_id": _need(attributes, "mplp.segment_id", where),
        "label": label,
        "status": _need(attributes, "mplp.status", where),
    }
    _copied(attributes, found, ("parent_segment_id", "started_at", "finished_at"))
    values = _got(attributes, "mplp.attributes", where)
    if values is not None:
        found["attributes"] = values
    return int(cast("int", _need(attributes, "mplp.segment_index", where))), found


def _own_event(attributes: Mapping[str, object], name: str, where: str) -> tuple[int, dict[str, object]]:
    found: dict[str, object] = {
        "event_id": _need(attributes, "mplp.event_id", where),
        "event_type": name,
        "source": _need(attributes, "mplp.source", where),
        "timestamp": _need(attributes, "mplp.timestamp", where),
    }
    if "mplp.event_trace_id" in attributes:
        found["trace_id"] = attributes["mplp.event_trace_id"]
    if "mplp.data_json" in attributes or any(key.startswith("mplp.data.") for key in attributes):
        found["data"] = _got(attributes, "mplp.data", where)
    return int(cast("int", _need(attributes, "mplp.event_index", where))), found


def _plain(value: object) -> object:
    """An attribute value as JSON: a tuple as a list; None for a float JSON cannot hold (NaN, infinities)."""
    if isinstance(value, tuple):
        items = [_plain(item) for item in cast("tuple[object, ...]", value)]
        return None if any(item is None for item in items) else items
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    return value


def _plain_attributes(attributes: Mapping[str, object] | None) -> dict[str, object]:
    found: dict[str, object] = {}
    for key, value in (attributes or {}).items():
        plain = _plain(value)
        if plain is not None:
            found[key] = plain
    return found


def _foreign_segment(span: ReadableSpan, parent: str | None, segment_id: str) -> dict[str, object]:
    """A segment for a span that ``export`` did not make: its name, times, status and attributes."""
    began = span.start_time or 0
    found: dict[str, object] = {
        "segment_id": segment_id,
        "label": span.name,
        "status": "failed" if span.status.status_code is trace_api.StatusCode.ERROR else "completed",
        "started_at": rfc3339(began),
    }
    if span.end_time is not None:
        found["finished_at"] = rfc3339(max(span.end_time, began))
    if parent is not None:
        found["parent_segment_id"] = parent
    attributes = _plain_attributes(span.attributes)
    if attributes:
        found["attributes"] = attributes
    return found


def _foreign_event(
    event: Any, span: ReadableSpan, segment_id: str | None, trace_id: str, index: int
) -> dict[str, object]:
    """A trace event for a span event that ``export`` did not write: its name and attributes in ``data``."""
    name = str(event.name)
    data: dict[str, object] = {"name": name, "attributes": _plain_attributes(event.attributes)}
    if segment_id is not None:
        data["segment_id"] = segment_id
    return {
        "event_id": _made_id(trace_id, _span_id(span), index, name),
        "event_type": name if _EVENT_TYPE.fullmatch(name) else _FOREIGN_EVENT,
        "source": span.name,
        "timestamp": rfc3339(int(event.timestamp)),
        "trace_id": trace_id,
        "data": data,
    }


def _ordered(found: Iterable[tuple[int, dict[str, object]]], count: object, what: str) -> list[dict[str, object]]:
    """The items that export wrote, in their positions; a ``ConversionError`` if some are missing."""
    by_position = dict(found)
    expected = int(cast("int", count)) if count is not None else len(by_position)
    if sorted(by_position) != list(range(expected)):
        raise ConversionError(
            ("spans",), f"the spans hold {len(by_position)} of the trace's {expected} {what} (dropped by span limits?)"
        )
    return [by_position[position] for position in range(expected)]


def _span_id(span: ReadableSpan) -> int:
    return span.context.span_id if span.context is not None else 0


def _kind(span: ReadableSpan) -> str:
    """What ``span`` records: ``trace`` (the trace's own span), ``segment`` (export's) or ``other``."""
    attributes = span.attributes or {}
    return "trace" if "mplp.context_id" in attributes else "segment" if "mplp.segment_id" in attributes else "other"


def _sorted(spans: Sequence[ReadableSpan]) -> tuple[ReadableSpan | None, list[ReadableSpan], list[ReadableSpan]]:
    """The trace's own span (or None), export's segment spans, and the other spans by start time."""
    by_kind: dict[str, list[ReadableSpan]] = {"trace": [], "segment": [], "other": []}
    for span in spans:
        by_kind[_kind(span)].append(span)
    if len(by_kind["trace"]) > 1:
        raise ValueError("the spans hold two spans of an MPLP trace's own (mplp.context_id)")
    others = sorted(by_kind["other"], key=lambda span: (span.start_time or 0, _span_id(span)))
    root = by_kind["trace"][0] if by_kind["trace"] else None
    return root, by_kind["segment"], others


class _Reading:
    """The spans of one trace, sorted into the trace's own span, the segments' spans and the others."""

    def __init__(self, spans: Sequence[ReadableSpan]) -> None:
        trace_ids = {span.context.trace_id for span in spans if span.context is not None}
        if len(trace_ids) != 1:
            raise ValueError(f"from_spans reads the spans of one trace, not of {len(trace_ids)}")
        self.otel_trace_id = trace_ids.pop()
        self.root, self.own, self.foreign = _sorted(spans)
        self.segment_of: dict[int, str | None] = {}  # span id -> its segment's id (None: the trace's own span)
        self.segment_of.update(
            (_span_id(span), _segment_id(_span_id(span), self.otel_trace_id)) for span in self.foreign
        )
        self.segment_of.update((_span_id(span), str((span.attributes or {})["mplp.segment_id"])) for span in self.own)
        if self.root is not None:
            self.segment_of[_span_id(self.root)] = None

    @property
    def root_attributes(self) -> Mapping[str, object]:
        return (self.root.attributes or {}) if self.root is not None else {}

    def own_id(self, span: ReadableSpan) -> str:
        """The id of the segment that ``span`` (not the trace's own span) records."""
        return str(self.segment_of[_span_id(span)])

    def parent(self, span: ReadableSpan) -> str | None:
        return self.segment_of.get(span.parent.span_id) if span.parent is not None else None


def _refuse_dropped(reading: _Reading) -> None:
    """A ``ConversionError`` if a span that ``export`` wrote says it dropped attributes or events (its limits')."""
    for span in (reading.root, *reading.own):
        if span is not None and (span.dropped_attributes or span.dropped_events):
            lost = f"{span.dropped_attributes} attributes and {span.dropped_events} events"
            raise ConversionError(("spans",), f"the span {span.name!r} dropped {lost} (span limits)")


def from_spans(spans: Iterable[ReadableSpan]) -> Trace:
    """The trace that ``spans`` (of one OpenTelemetry trace) record: ``export``'s inverse.

    Spans that ``export`` (or ``segment``) wrote give their segments back exactly, from their
    ``mplp.*`` attributes, and the trace's own span the trace's fields: so
    ``from_spans(export(trace, ...))`` equals ``trace``, ``to_json()`` byte for byte. Any other span
    becomes a segment (label: its name; status: failed for ERROR, else completed; its times in
    UTC; its attributes, arrays as lists), child of its parent span's segment where that is among
    ``spans``; any other span event a trace event (``data``: its name, attributes and segment).
    Without the trace's own span, the trace's ids are made from the OpenTelemetry trace id and
    its times and status from the segments'. docs/seeing.md lists what is dropped.

    Raises:
        ValueError: If ``spans`` is empty or holds spans of several traces.
        ConversionError: If spans that ``export`` wrote lost attributes, segments or events on the way
            (a span limit of the SDK or of a backend, say).
        ValidationError: If the trace made breaks a rule.
        TypeError: If an item of ``spans`` is not a ``ReadableSpan`` (the SDK's finished span).
    """
    reading = _Reading(_spans_listed(spans))
    _refuse_dropped(reading)
    document = _trace_document(reading)
    root_attributes = reading.root_attributes
    own_segments = [_own_segment(span.attributes or {}, span.name, "spans") for span in reading.own]
    own_events: list[tuple[int, dict[str, object]]] = []
    for event in reading.root.events if reading.root is not None else ():
        attributes = event.attributes or {}
        if event.name == _NOT_STARTED and "mplp.segment_id" in attributes:
            own_segments.append(_own_segment(attributes, str(attributes.get("mplp.label", "")), "events"))
        elif "mplp.event_id" in attributes:
            own_events.append(_own_event(attributes, event.name, "events"))
    segments = _ordered(own_segments, root_attributes.get("mplp.segments"), "segments")
    segments.extend(_foreign_segment(span, reading.parent(span), reading.own_id(span)) for span in reading.foreign)
    events = _ordered(own_events, root_attributes.get("mplp.events"), "events")
    events.extend(_other_events(reading, str(document["trace_id"])))
    if segments or "mplp.segments" in root_attributes:
        document["segments"] = segments
    if events or "mplp.events" in root_attributes:
        document["events"] = events
    if reading.root is None:
        _derived_status_and_times(document, segments)
    return Trace.model_validate(document)


def _spans_listed(spans: Iterable[ReadableSpan]) -> list[ReadableSpan]:
    """``spans`` as a list; a ``TypeError`` naming the first item that is no ``ReadableSpan`` (an untyped caller's)."""
    listed = list(spans)
    for index, span in enumerate(listed):
        if not isinstance(span, ReadableSpan):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                f"from_spans reads the SDK's ReadableSpan objects, not {type(span).__name__} (spans[{index}])"
            )
    return listed


def _other_events(reading: _Reading, trace_id: str) -> Iterator[dict[str, object]]:
    """A trace event for each span event that export did not write (on the trace's own span: one without mplp.*)."""
    spans = [*reading.own, *reading.foreign, *([reading.root] if reading.root is not None else [])]
    for span in spans:
        owner = None if span is reading.root else reading.own_id(span)
        for index, event in enumerate(span.events):
            if span is reading.root and any(key.startswith("mplp.") for key in event.attributes or {}):
                continue
            yield _foreign_event(event, span, owner, trace_id, index)


def _trace_document(reading: _Reading) -> dict[str, object]:
    """The trace's fields but its segments and events: from its own span, else made from the trace id."""
    if reading.root is not None:
        attributes = reading.root.attributes or {}
        found: dict[str, object] = {
            "meta": _got(attributes, "mplp.meta", "meta"),
            "trace_id": _need(attributes, "mplp.trace_id", "trace"),
            "context_id": _need(attributes, "mplp.context_id", "trace"),
            "root_span": _got(attributes, "mplp.root_span", "root_span"),
            "status": _need(attributes, "mplp.status", "trace"),
        }
        _copied(attributes, found, ("plan_id", "started_at", "finished_at"))
        governance = _got(attributes, "mplp.governance", "governance")
        if governance is not None:
            found["governance"] = governance
        return found
    named = {
        str((span.attributes or {})["mplp.trace_id"])
        for span in reading.own
        if "mplp.trace_id" in (span.attributes or {})
    }
    trace_id = named.pop() if len(named) == 1 else _trace_id(reading.otel_trace_id)
    context_id = _made_id(trace_id, "context")
    return {
        "meta": {"protocol_version": PROTOCOL_VERSION, "schema_version": PROTOCOL_VERSION},
        "trace_id": trace_id,
        "context_id": context_id,
        "root_span": {"trace_id": trace_id, "span_id": _made_id(trace_id, "root span"), "context_id": context_id},
        "status": "completed",
    }


def _derived_status_and_times(document: dict[str, object], segments: Sequence[Mapping[str, object]]) -> None:
    """A made-up trace's status (failed if a segment failed, running if one runs) and its first and last times."""
    statuses = {str(seg["status"]) for seg in segments}
    document["status"] = "failed" if "failed" in statuses else "running" if "running" in statuses else "completed"
    starts = [str(seg["started_at"]) for seg in segments if "started_at" in seg]
    ends = [str(seg["finished_at"]) for seg in segments if "finished_at" in seg]
    if starts:
        document["started_at"] = min(starts, key=nanoseconds)
        meta = cast("dict[str, object]", document["meta"])
        meta["created_at"] = document["started_at"]
    if ends and document["status"] != "running":
        document["finished_at"] = max(ends, key=nanoseconds)


# --- live -------------------------------------------------------------------------------------------------

_LIVE: contextvars.ContextVar[tuple[str, str, Span] | None] = contextvars.ContextVar("mplp_live_segment", default=None)


_NO_TRACE = object()  # what getattr gives for a holder with no .trace


@contextlib.contextmanager
def segment(
    holder: TraceHolder,
    label: str,
    *,
    tracer_provider: trace_api.TracerProvider | None = None,
    step: str | None = None,
    attributes: Mapping[str, object] | None = None,
) -> Generator[str, None, None]:
    """A segment of ``holder.trace`` for the time of the ``with`` block, and its span, sent when the block ends.

    On entry a running segment is added to ``holder.trace`` (a child of the segment of the enclosing
    ``segment`` block of the same trace, if any), and a span is started for it, made current: spans
    that instrumented code starts inside the block (an LLM call, say) are its children. On exit the
    segment moves to completed (failed if the block raised an ``Exception``, cancelled for any other
    exception, which goes on) and its span ends with it, as ``export`` would have written it. At the
    end, ``export(holder.trace, provider, only_trace=True)`` writes the trace's own span.

    Args:
        holder: Holds the trace; each new trace is put back into ``holder.trace``.
        label: The segment's label, and the span's name.
        tracer_provider: Default: OpenTelemetry's global provider.
        step: The id of the plan step the segment runs (its attribute ``step_id``, as ``Trace.open_segment`` writes it).
        attributes: The segment's attributes.

    Yields:
        The new segment's id.

    Raises:
        TypeError: If ``holder.trace`` is missing or not a ``Trace`` (an untyped caller's).
    """
    trace: object = getattr(holder, "trace", _NO_TRACE)
    if not isinstance(trace, Trace):
        held = "has no .trace" if trace is _NO_TRACE else f".trace is {type(trace).__name__}"
        raise TypeError(f"segment's holder must hold a Trace in .trace; this {type(holder).__name__} {held}")
    enclosing = _LIVE.get()
    parent = enclosing if enclosing is not None and enclosing[0] == trace.trace_id else None
    values = {**(attributes or {}), **({STEP_ATTRIBUTE: step} if step is not None else {})}
    seg = TraceSegment.model_validate(
        {
            "segment_id": new_id(),
            "label": label,
            "status": "running",
            "started_at": str(Timestamp.now()),
            **({"parent_segment_id": parent[1]} if parent is not None else {}),
            **({"attributes": values} if values else {}),
        }
    )
    index = len(trace.segments or ())
    holder.trace = trace.add_segment(seg)
    tracer = _tracer(tracer_provider or trace_api.get_tracer_provider())
    otel_trace_id = _uuid_int(trace.trace_id)
    context = (
        trace_api.set_span_in_context(parent[2]) if parent else _remote(otel_trace_id, _folded(trace.root_span.span_id))
    )
    began = nanoseconds(str(seg.started_at))
    span = _start(
        tracer, label, (None, _folded(seg.segment_id)), context, began, _segment_attributes(trace, seg, index)
    )
    live = _LIVE.set((trace.trace_id, seg.segment_id, span))
    attached = context_api.attach(trace_api.set_span_in_context(span))
    ending = "completed"
    try:
        yield seg.segment_id
    except Exception as error:
        ending = "failed"
        span.set_attribute("error.type", type(error).__qualname__)
        raise
    except BaseException:
        ending = "cancelled"
        raise
    finally:
        context_api.detach(attached)
        _LIVE.reset(live)
        _end_live(holder, span, seg.segment_id, ending, index)


def _end_live(holder: TraceHolder, span: Span, segment_id: str, ending: str, index: int) -> None:
    """The live segment moved to ``ending`` in ``holder.trace``, and its span ended with the segment's final fields."""
    trace = holder.trace.transition_segment(segment_id, cast("Any", ending), at=str(Timestamp.now()))
    holder.trace = trace
    seg = trace.segment(segment_id)
    span.set_attributes(_segment_attributes(trace, seg, index))
    _status(span, ending)
    span.end(end_time=nanoseconds(str(seg.finished_at)))
