"""mplp_models.otel against the OpenTelemetry SDK: export into InMemorySpanExporter, read back with from_spans.

The expected span times are worked out by hand from the timestamps' texts (days since the
epoch, the offset, the fraction); ids, parents and statuses from the trace's own fields.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import PAYLOADS, examples
from hypothesis import given, settings
from opentelemetry import trace as trace_api
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, SpanLimits, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

import mplp_models as mm
from mplp_models import otel
from mplp_models._instants import nanoseconds
from mplp_models.testing import traces

TRACE_ID = "b1000000-0000-4000-8000-0000000000aa"
CONTEXT_ID = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"


def seg(number: int, label: str, status: str, **fields: Any) -> dict[str, Any]:
    return {"segment_id": f"c1000000-0000-4000-8000-{number:012d}", "label": label, "status": status, **fields}


def sid(number: int) -> str:
    return f"c1000000-0000-4000-8000-{number:012d}"


RICH = mm.Trace.model_validate(
    {
        "meta": {
            "protocol_version": "1.0.0",
            "schema_version": "1.0.0",
            "created_at": "2026-03-02T14:00:00Z",
            "tags": ["release", "nightly"],
        },
        "governance": {"truthDomain": "architecture", "locked": False},
        "trace_id": TRACE_ID,
        "context_id": CONTEXT_ID,
        "plan_id": "3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11",
        "root_span": {
            "trace_id": TRACE_ID,
            "span_id": "b1000000-0000-4000-8000-0000000000bb",
            "parent_span_id": "b1000000-0000-4000-8000-0000000000cc",
            "context_id": CONTEXT_ID,
            "attributes": {"service": "release-runner", "attempt": 1},
        },
        "status": "failed",
        "started_at": "2026-03-02T19:30:00+05:30",  # 14:00:00Z
        "finished_at": "2026-03-02T14:20:30.125Z",
        "segments": [
            seg(
                1, "release", "failed", started_at="2026-03-02T14:00:00.000000001Z", finished_at="2026-03-02T14:20:30Z"
            ),
            seg(
                2,
                "build",
                "completed",
                parent_segment_id=sid(1),
                started_at="2026-03-02T06:01:00.5-08:00",  # 14:01:00.5Z
                finished_at="2026-03-02T14:15:00.123456789123Z",  # digits past the nanosecond dropped
                attributes={"files": 6, "bytes": 4812331, "target": {"os": "linux", "arch": "x86_64"}, "tags": ["a"]},
            ),
            seg(
                3,
                "upload wheels",
                "failed",
                parent_segment_id=sid(2),
                started_at="2026-03-02T14:12:00Z",
                finished_at="2026-03-02T15:13:05+01:00",  # 14:13:05Z
                attributes={"mirror": None, "dotted.key": 1, "hosts": [{"name": "a"}], "big": 2**70, "empty": {}},
            ),
            seg(4, "announce", "skipped", parent_segment_id=sid(1), finished_at="2026-03-02T14:20:00Z"),
            seg(5, "wait for review", "pending", attributes={}),
            seg(
                6,
                "test",
                "running",
                parent_segment_id=sid(1),
                started_at="2026-03-02T14:15:01Z",
                attributes={"step_id": "a1000000-0000-4000-8000-000000000003"},
            ),
            seg(
                7,
                "after a pending parent",
                "completed",
                parent_segment_id=sid(5),
                started_at="2026-03-02T14:16:00Z",
                finished_at="2026-03-02T14:16:00Z",
            ),
        ],
        "events": [
            {
                "event_id": "e1000000-0000-4000-8000-000000000001",
                "event_type": "trace.failed",
                "source": "trace",
                "timestamp": "2026-03-02T14:20:30.125Z",
                "trace_id": TRACE_ID,
                "data": {"reason": "upload", "n": [1, 2]},
            },
            {
                "event_id": "e1000000-0000-4000-8000-000000000002",
                "event_type": "segment.retry",
                "source": "runner",
                "timestamp": "2026-03-02T14:12:30Z",
                "data": None,
            },
            {
                "event_id": "e1000000-0000-4000-8000-000000000003",
                "event_type": "note",
                "source": "runner",
                "timestamp": "2026-03-02T14:00:00Z",
            },
        ],
    }
)

# 2026-03-02T14:00:00Z: 20,514 days and 14 hours after the epoch.
T0 = (20_514 * 86_400 + 14 * 3600) * 10**9
MINUTE = 60 * 10**9


def exported(trace: mm.Trace, **options: Any) -> tuple[list[ReadableSpan], InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    spans = otel.export(trace, exporter, **options)
    return spans, exporter


def by_segment(spans: list[ReadableSpan]) -> dict[str | None, ReadableSpan]:
    return {
        (str(s.attributes["mplp.segment_id"]) if s.attributes and "mplp.segment_id" in s.attributes else None): s
        for s in spans
    }


def test_one_span_per_started_segment_and_one_for_the_trace_in_the_traces_otel_trace() -> None:
    spans, exporter = exported(RICH)
    finished = exporter.get_finished_spans()
    assert len(finished) == len(spans) == 1 + 5  # segments 1, 2, 3, 6 and 7 started; 4 and 5 did not
    assert {s.context.trace_id for s in finished} == {0xB1000000000040008000_0000000000AA}
    named = by_segment(list(finished))
    assert set(named) == {None, sid(1), sid(2), sid(3), sid(6), sid(7)}
    root = named[None]
    assert root.name == "invoke_agent" and root.parent is not None and root.parent.is_remote
    # The root span's parent is root_span.parent_span_id; each segment's span the child of its parent's.
    assert root.parent.span_id == 0xB1000000000040008000_0000000000CC >> 64 ^ 0x80000000000000CC
    parent_of = {key: span.parent.span_id if span.parent else None for key, span in named.items()}
    assert parent_of[sid(1)] == root.context.span_id
    assert parent_of[sid(2)] == named[sid(1)].context.span_id
    assert parent_of[sid(3)] == named[sid(2)].context.span_id
    assert parent_of[sid(6)] == named[sid(1)].context.span_id
    assert parent_of[sid(7)] == root.context.span_id  # its parent (5) never started: the trace's span
    assert len({s.context.span_id for s in finished}) == 6


def test_spans_start_and_end_at_the_exact_nanosecond_whatever_the_offset_and_fraction() -> None:
    named = by_segment(exported(RICH)[0])
    assert (named[None].start_time, named[None].end_time) == (T0, T0 + 20 * MINUTE + 30_125_000_000)
    assert (named[sid(1)].start_time, named[sid(1)].end_time) == (T0 + 1, T0 + 20 * MINUTE + 30 * 10**9)
    assert (named[sid(2)].start_time, named[sid(2)].end_time) == (
        T0 + MINUTE + 500_000_000,
        T0 + 15 * MINUTE + 123_456_789,
    )
    assert (named[sid(3)].start_time, named[sid(3)].end_time) == (T0 + 12 * MINUTE, T0 + 13 * MINUTE + 5 * 10**9)
    # Still running: its span ends with the trace's.
    assert (named[sid(6)].start_time, named[sid(6)].end_time) == (T0 + 15 * MINUTE + 10**9, named[None].end_time)


def test_failed_is_error_completed_ok_and_the_rest_unset() -> None:
    named = by_segment(exported(RICH)[0])
    assert named[None].status.status_code is StatusCode.ERROR
    assert named[sid(1)].status.status_code is StatusCode.ERROR
    assert named[sid(3)].status.status_code is StatusCode.ERROR
    assert named[sid(2)].status.status_code is StatusCode.OK
    assert named[sid(6)].status.status_code is StatusCode.UNSET


def test_the_mplp_values_are_span_attributes_and_open_objects_flattened_where_exact() -> None:
    named = by_segment(exported(RICH)[0])
    build = dict(named[sid(2)].attributes or {})
    assert build["openinference.span.kind"] == "CHAIN"
    assert build["mplp.status"] == "completed" and build["mplp.parent_segment_id"] == sid(1)
    assert build["mplp.started_at"] == "2026-03-02T06:01:00.5-08:00"  # the text as written
    assert build["mplp.attributes.files"] == 6 and build["mplp.attributes.target.os"] == "linux"
    assert build["mplp.attributes.tags"] == ("a",) and "mplp.attributes_json" not in build
    upload = dict(named[sid(3)].attributes or {})
    # A null, a dotted key, a list of objects, an integer beyond int64: no exact flat form, so one JSON text
    # (canonical: RFC 8785 writes 2**70 as the double it is, in ECMAScript's form).
    assert upload["mplp.attributes_json"] == (
        '{"big":1.1805916207174113e+21,"dotted.key":1,"empty":{},"hosts":[{"name":"a"}],"mirror":null}'
    )
    assert not any(key.startswith("mplp.attributes.") for key in upload)
    assert dict(named[sid(6)].attributes or {})["mplp.step_id"] == "a1000000-0000-4000-8000-000000000003"
    root = dict(named[None].attributes or {})
    assert root["openinference.span.kind"] == "AGENT" and root["gen_ai.operation.name"] == "invoke_agent"
    assert root["gen_ai.conversation.id"] == CONTEXT_ID and root["mplp.meta.tags"] == ("release", "nightly")


def test_the_traces_events_and_the_segments_that_never_started_are_events_of_the_root_span() -> None:
    root = by_segment(exported(RICH)[0])[None]
    names = [event.name for event in root.events]
    assert names == ["mplp.segment", "mplp.segment", "trace.failed", "segment.retry", "note"]
    announce = root.events[0]
    assert announce.attributes is not None and announce.attributes["mplp.label"] == "announce"
    assert announce.timestamp == T0 + 20 * MINUTE  # its finished_at
    retry = root.events[3]
    assert retry.timestamp == T0 + 12 * MINUTE + 30 * 10**9
    assert retry.attributes is not None and retry.attributes["mplp.data_json"] == "null"


def test_from_spans_gives_the_trace_back_byte_for_byte() -> None:
    spans, exporter = exported(RICH)
    assert otel.from_spans(spans).to_json() == RICH.to_json()
    shuffled = list(exporter.get_finished_spans())
    random.Random(3).shuffle(shuffled)
    assert otel.from_spans(shuffled).to_json() == RICH.to_json()
    example = mm.Trace.from_json((PAYLOADS / "trace.json").read_bytes())
    assert otel.from_spans(exported(example)[0]).to_json() == example.to_json()


@settings(max_examples=examples(quick=20, deep=300))
@given(traces())
def test_any_trace_comes_back_byte_for_byte(trace: mm.Trace) -> None:
    stamps = [trace.started_at, trace.finished_at, trace.meta.created_at]
    stamps += [t for s in trace.segments or () for t in (s.started_at, s.finished_at)]
    stamps += [e.timestamp for e in trace.events or ()]
    instants = [nanoseconds(t) for t in stamps if t is not None]
    try:
        spans, _ = exported(trace)
    except mm.ConversionError as error:  # OpenTelemetry's times are 1970 to 2554, or the trace has none at all
        assert not instants or any(not 0 <= n < 2**64 for n in instants), error
        return
    assert otel.from_spans(spans).to_json() == trace.to_json()


def test_spans_that_export_did_not_make_become_a_valid_trace() -> None:
    provider = TracerProvider()
    exporter = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("an.app")
    run = tracer.start_as_current_span("agent run", attributes={"x": 1, "tags": ("a", "b")}, start_time=T0)
    with run, tracer.start_as_current_span("llm call", start_time=T0 + 5, end_on_exit=False) as call:
        call.add_event("gen_ai.choice", {"index": 0, "nan": float("nan")}, timestamp=T0 + 7)
        call.set_status(trace_api.Status(StatusCode.ERROR, "boom"))
        call.end(end_time=T0 + 9)
    spans = list(exporter.get_finished_spans())
    trace = otel.from_spans(spans)
    top, call_segment = trace.segments or ()
    assert (top.label, top.status.value, top.started_at) == ("agent run", "completed", "2026-03-02T14:00:00Z")
    assert top.attributes == {"x": 1, "tags": ["a", "b"]}
    assert call_segment.parent_segment_id == top.segment_id and call_segment.status.value == "failed"
    assert (call_segment.started_at, call_segment.finished_at) == (
        "2026-03-02T14:00:00.000000005Z",
        "2026-03-02T14:00:00.000000009Z",
    )
    assert trace.status.value == "failed" and trace.trace_id.replace("-", "")[13:] != ""
    (event,) = trace.events or ()
    assert event.event_type == "otel.span.event"  # "gen_ai.choice" has an underscore: no MPLP event type
    assert event.data == {"name": "gen_ai.choice", "attributes": {"index": 0}, "segment_id": call_segment.segment_id}
    # Written again, the spans keep their ids.
    again = exported(trace)[0]
    assert {s.context.span_id for s in spans} <= {s.context.span_id for s in again}


def test_live_segments_nest_send_their_spans_and_read_back_with_the_traces_span() -> None:
    provider = TracerProvider()
    exporter = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(exporter))

    class Holder:
        def __init__(self, trace: mm.Trace) -> None:
            self.trace = trace

    start = mm.Trace.from_json((PAYLOADS / "trace.json").read_bytes())
    holder = Holder(
        start.model_copy(update={"segments": None, "events": None, "status": "running", "finished_at": None})
    )
    with otel.segment(holder, "plan", tracer_provider=provider, step="a1000000-0000-4000-8000-000000000001") as plan_id:
        # An instrumented library's span inside the block is the segment's child.
        with (
            otel.segment(holder, "llm", tracer_provider=provider),
            provider.get_tracer("sdk").start_as_current_span("chat"),
        ):
            pass
        with pytest.raises(ValueError, match="bad"), otel.segment(holder, "tool", tracer_provider=provider):
            raise ValueError("bad")
    segments = holder.trace.segments or ()
    assert [(s.label, s.status.value) for s in segments] == [
        ("plan", "completed"),
        ("llm", "completed"),
        ("tool", "failed"),
    ]
    assert segments[1].parent_segment_id == plan_id == segments[2].parent_segment_id
    assert otel.step_of(segments[0]) == "a1000000-0000-4000-8000-000000000001"
    spans = {s.name: s for s in exporter.get_finished_spans()}
    assert spans["chat"].parent is not None and spans["chat"].parent.span_id == spans["llm"].context.span_id
    assert spans["tool"].status.status_code is StatusCode.ERROR
    assert spans["tool"].attributes is not None and spans["tool"].attributes["error.type"] == "ValueError"
    assert spans["plan"].start_time == nanoseconds(str(segments[0].started_at))
    final = holder.trace.finish("completed")
    otel.export(final, provider, only_trace=True)
    own = [s for s in exporter.get_finished_spans() if s.name != "chat"]
    assert otel.from_spans(own).to_json() == final.to_json()
    everything = otel.from_spans(exporter.get_finished_spans())  # the SDK's span: one more segment
    assert [s.label for s in everything.segments or ()] == ["plan", "llm", "tool", "chat"]


def test_through_a_tracer_provider_its_resource_and_processors_apply() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "release-agent"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    otel.export(RICH, provider)
    finished = exporter.get_finished_spans()
    assert {s.resource.attributes["service.name"] for s in finished} == {"release-agent"}
    assert otel.from_spans(finished).to_json() == RICH.to_json()
    with pytest.raises(ValueError, match="resource"):
        otel.export(RICH, provider, resource=Resource.create({}))
    with pytest.raises(TypeError, match="SpanExporter or an SDK TracerProvider"):
        otel.export(RICH, object())  # type: ignore[arg-type]


def test_what_a_span_limit_dropped_is_an_error_not_a_shorter_trace() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider(span_limits=SpanLimits(max_events=3))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    otel.export(RICH, provider)  # 2 not-started segments and 3 events on the root span: 2 dropped
    with pytest.raises(mm.ConversionError, match="'invoke_agent' dropped 0 attributes and 2 events"):
        otel.from_spans(exporter.get_finished_spans())


def test_exports_own_provider_keeps_every_event_and_attribute(monkeypatch: pytest.MonkeyPatch) -> None:
    # The SDK keeps 128 events and attributes a span by default, and the environment may ask for fewer:
    # a provider of export's own keeps the whole trace (300 events and a segment with 200 attributes).
    monkeypatch.setenv("OTEL_SPAN_EVENT_COUNT_LIMIT", "5")
    monkeypatch.setenv("OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT", "5")
    monkeypatch.setenv("OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT", "5")
    event = RICH.to_dict()["events"][0]
    events = [{**event, "event_id": f"e1000000-0000-4000-8000-{k:012d}"} for k in range(300)]
    segments = RICH.to_dict()["segments"]
    segments[0]["attributes"] = {f"key{k}": f"a long value {k}" for k in range(200)}
    big = mm.Trace.model_validate({**RICH.to_dict(), "events": events, "segments": segments})
    spans, exporter = exported(big)
    assert all(span.dropped_events == span.dropped_attributes == 0 for span in spans)
    assert otel.from_spans(exporter.get_finished_spans()).to_json() == big.to_json()


def test_times_outside_opentelemetrys_are_refused_and_so_are_spans_of_two_traces() -> None:
    early = RICH.model_copy(update={"started_at": "1969-12-31T23:59:59Z"})
    with pytest.raises(mm.ConversionError, match="1970 to 2554"):
        otel.export(early, InMemorySpanExporter())
    other_id = "b1000000-0000-4000-8000-0000000000dd"
    other = mm.Trace.model_validate(
        {**RICH.to_dict(), "trace_id": other_id, "root_span": {"trace_id": other_id, "span_id": other_id}}
    )
    with pytest.raises(ValueError, match="one trace"):
        otel.from_spans([*exported(RICH)[0], *exported(other)[0]])
    with pytest.raises(ValueError, match="one trace"):
        otel.from_spans([])


def test_what_is_no_trace_or_no_span_is_a_type_error_naming_it() -> None:
    # Untyped callers: a plan given to export, a dict or a trace among the spans.
    plan: Any = mm.Plan.model_validate_json((PAYLOADS / "plan.json").read_bytes())
    with pytest.raises(TypeError, match="export writes a Trace, not Plan"):
        otel.export(plan, InMemorySpanExporter())
    spans: list[Any] = [*exported(RICH)[0], RICH]
    with pytest.raises(TypeError, match=rf"ReadableSpan objects, not Trace \(spans\[{len(spans) - 1}\]\)"):
        otel.from_spans(spans)


def test_a_holder_without_a_trace_is_a_type_error_before_any_span() -> None:
    # otel.segment's holder keeps the trace in .trace (docs/seeing.md); an untyped caller's may not.
    class Empty:
        pass

    class Holder:
        trace: Any = "not a trace"

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    holders: list[tuple[Any, str]] = [(Empty(), "this Empty has no .trace"), (Holder(), "this Holder .trace is str")]
    for holder, held in holders:
        refused = pytest.raises(TypeError, match=f"segment's holder must hold a Trace in .trace; {held}")
        with refused, otel.segment(holder, "work", tracer_provider=provider):
            pass
    assert exporter.get_finished_spans() == ()
