"""mplp_models.otel against a real OTLP backend: Arize Phoenix, started on 127.0.0.1 for these tests.

A rich trace goes to Phoenix over OTLP/HTTP with OpenTelemetry's standard exporter; Phoenix's own
REST API reads the spans back (the call its client makes); they must be the spans
that the SDK wrote (Phoenix keeps times to the microsecond), and from_spans must give the trace
back from them byte for byte. If Phoenix cannot be installed or started the test fails, saying
why; ``MPLP_SKIP_TEST_TOOLS=1`` skips it instead.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from external_tools import tools
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanContext, Status, StatusCode
from test_otel import RICH

from mplp_models import otel
from mplp_models._instants import nanoseconds

PROJECT = "mplp-models-tests"
# The REST call that Phoenix's client makes for Client().spans.get_spans(project_identifier=...), made here
# with the standard library: importing phoenix.client loads the whole server package (13 s of CPU).
SPANS_PATH = "/v1/projects/{project}/spans?limit=1000"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
            return bool(answer.status == 200)
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of Phoenix serving on 127.0.0.1: its UI, REST API and OTLP/HTTP receiver on one port."""
    venv = tools().phoenix
    folder = tmp_path_factory.mktemp("phoenix")
    port = free_port()
    environment = {
        **os.environ,
        "PHOENIX_WORKING_DIR": str(folder),
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(free_port()),
        "PHOENIX_TELEMETRY_ENABLED": "false",
    }
    log = (folder / "serve.log").open("w")
    server = subprocess.Popen([str(venv / "bin" / "phoenix"), "serve"], env=environment, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while not healthy(url):
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"Phoenix did not start:\n{(folder / 'serve.log').read_text()[-4000:]}", pytrace=False)
            time.sleep(0.25)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def spans_in_phoenix(url: str, count: int) -> list[dict[str, Any]]:
    """The project's spans as Phoenix's REST API returns them, once there are ``count`` (stored a moment later)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + SPANS_PATH.format(project=PROJECT), timeout=10) as answer:
                read: list[dict[str, Any]] = json.load(answer)["data"]
        except urllib.error.HTTPError as error:  # 404 until the project's first span is stored
            read = []
            assert error.code == 404, error
        if len(read) >= count:
            return read
        assert time.monotonic() < deadline, f"Phoenix holds {len(read)} spans, not {count}"
        time.sleep(0.25)


def phoenix_attributes(values: dict[str, Any]) -> dict[str, Any]:
    return {key: tuple(value) if isinstance(value, list) else value for key, value in values.items()}


def readable(span: dict[str, Any]) -> ReadableSpan:
    """A span that Phoenix's client returned, as the SDK's ReadableSpan: the form from_spans reads."""
    trace_id, span_id = int(span["context"]["trace_id"], 16), int(span["context"]["span_id"], 16)
    parent = span["parent_id"]
    attributes = {**phoenix_attributes(span["attributes"]), "openinference.span.kind": span["span_kind"]}
    return ReadableSpan(
        name=span["name"],
        context=SpanContext(trace_id, span_id, is_remote=False),
        parent=SpanContext(trace_id, int(parent, 16), is_remote=True) if parent else None,
        attributes=attributes,
        events=[
            Event(e["name"], phoenix_attributes(e["attributes"]), nanoseconds(e["timestamp"])) for e in span["events"]
        ],
        status=Status(StatusCode[span["status_code"]], span["status_message"] or None),
        start_time=nanoseconds(span["start_time"]),
        end_time=nanoseconds(span["end_time"]),
    )


def microseconds(nanos: int | None) -> int:
    assert nanos is not None
    return (nanos + 500) // 1000  # Phoenix keeps times to the microsecond, rounded


def test_a_rich_trace_sent_over_otlp_http_reads_back_from_phoenix(phoenix: str) -> None:
    url = phoenix
    written = otel.export(RICH, InMemorySpanExporter())
    resource = Resource.create({"service.name": "mplp-models-tests", "openinference.project.name": PROJECT})
    exporter = OTLPSpanExporter(endpoint=f"{url}/v1/traces", timeout=30)
    otel.export(RICH, exporter, resource=resource)
    exporter.shutdown()
    stored = {int(span["context"]["span_id"], 16): readable(span) for span in spans_in_phoenix(url, len(written))}
    assert len(stored) == len(written) == 6
    for span in written:
        assert span.context is not None
        back = stored[span.context.span_id]
        assert back.context is not None and back.context.trace_id == span.context.trace_id
        assert back.name == span.name
        assert (back.parent.span_id if back.parent else None) == (span.parent.span_id if span.parent else None)
        assert back.status.status_code is span.status.status_code
        # Phoenix adds OpenInference's session.id, read from the GenAI conventions' gen_ai.conversation.id.
        added = (
            {"session.id": span.attributes["gen_ai.conversation.id"]} if span is written[0] and span.attributes else {}
        )
        assert dict(back.attributes or {}) == {**dict(span.attributes or {}), **added}
        assert [(e.name, dict(e.attributes or {})) for e in back.events] == [
            (e.name, dict(e.attributes or {})) for e in span.events
        ]
        assert [microseconds(e.timestamp) * 1000 for e in span.events] == [e.timestamp for e in back.events]
        assert (back.start_time, back.end_time) == (
            microseconds(span.start_time) * 1000,
            microseconds(span.end_time) * 1000,
        )
    assert otel.from_spans(stored.values()).to_json() == RICH.to_json()
