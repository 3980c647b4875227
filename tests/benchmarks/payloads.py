"""The fixed payloads of the benchmark, built deterministically in code.

Every payload is valid against its schema and keeps the rules beyond it, so
every contender does its whole job on it. ``PROBES`` are small variations of
them that tell what each contender accepts.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KINDS = ("plan", "dialog", "trace", "inbox", "learning")
"""The payload kinds, each validated against its own schema by every contender."""


def uuid(n: int) -> str:
    """A lowercase UUID v4 text, distinct for every ``n``."""
    return f"{n % 16**8:08x}-{n // 16**8 % 16**4:04x}-4000-8000-{n:012x}"


def plan_payload(steps: int, seed: int = 0) -> dict[str, Any]:
    """A plan in progress: the first half of its steps completed, each step depending on the two before it."""
    base = seed * 100_000
    return {
        "meta": {
            "protocol_version": "1.0.0",
            "schema_version": "1.0.0",
            "created_at": "2026-03-01T09:00:00.000Z",
            "created_by": "agent-planner",
            "tags": ["bench", "large"],
            "cross_cutting": ["observability", "transaction"],
        },
        "plan_id": uuid(base + 1),
        "context_id": uuid(base + 2),
        "title": "Benchmark plan",
        "objective": "Measure the codec",
        "status": "in_progress",
        "steps": [
            {
                "step_id": uuid(base + 100 + i),
                "description": f"Step {i}: do the work of stage {i % 7}",
                "status": "completed" if i < steps // 2 else "pending",
                "dependencies": [uuid(base + 100 + j) for j in range(max(0, i - 2), i)],
                "agent_role": f"agent-{i % 5}",
                "order_index": i,
            }
            for i in range(steps)
        ],
        "trace": {"trace_id": uuid(base + 3), "span_id": uuid(base + 4), "attributes": {"ratio": 0.25, "runs": 3}},
        "events": [
            {
                "event_id": uuid(base + 5),
                "event_type": "plan.created",
                "source": "plan",
                "timestamp": "2026-03-01T09:00:00.000Z",
                "trace_id": uuid(base + 3),
                "data": {"steps": steps},
            },
            {
                "event_id": uuid(base + 6),
                "event_type": "plan.status.changed",
                "source": "runtime.ael",
                "timestamp": "2026-03-01T09:05:00+01:00",
                "data": None,
            },
        ],
    }


def dialog_payload(messages: int, seed: int = 0) -> dict[str, Any]:
    """An active dialog: messages a second apart, in four roles, with non-ASCII text."""
    base = seed * 100_000
    roles = ["user", "assistant", "agent", "system"]
    return {
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "governance": {
            "lifecyclePhase": "review",
            "locked": False,
            "lastConfirmRef": {"id": uuid(base + 7), "module": "confirm"},
        },
        "dialog_id": uuid(base + 5),
        "context_id": uuid(base + 6),
        "status": "active",
        "messages": [
            {
                "role": roles[i % 4],
                "content": f"Message {i}: what about the next step? \u00e9\u4e2d\U0001f600",
                "timestamp": f"2026-03-02T{10 + i // 3600 % 10:02d}:{i // 60 % 60:02d}:{i % 60:02d}.{i % 1000:03d}Z",
            }
            for i in range(messages)
        ],
        "started_at": "2026-03-02T10:00:00Z",
    }


def trace_payload(segments: int, seed: int = 0) -> dict[str, Any]:
    """A completed trace: a binary tree of segments, listed leaves first, each a second long.

    Segment i sits under segment (i - 1) // 2.
    """
    base = seed * 100_000
    trace_id = uuid(base + 9)

    def stamp(second: int) -> str:
        return f"2026-03-02T{10 + second // 3600 % 10:02d}:{second // 60 % 60:02d}:{second % 60:02d}.250Z"

    return {
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0", "created_at": "2026-03-02T10:00:00Z"},
        "trace_id": trace_id,
        "context_id": uuid(base + 2),
        "plan_id": uuid(base + 1),
        "root_span": {
            "trace_id": trace_id,
            "span_id": uuid(base + 4),
            "attributes": {"service": "runner", "ratio": 0.5},
        },
        "status": "completed",
        "started_at": stamp(0),
        "finished_at": stamp(segments + 1),
        "segments": [
            {
                "segment_id": uuid(base + 200 + i),
                "label": f"segment {i}: stage {i % 7}",
                "status": "completed",
                **({"parent_segment_id": uuid(base + 200 + (i - 1) // 2)} if i else {}),
                "started_at": stamp(i),
                "finished_at": stamp(i + 1),
                "attributes": {"attempt": 1, "cost": 0.125},
            }
            for i in reversed(range(segments))
        ],
    }


def inbox_payload(seed: int = 0) -> dict[str, Any]:
    """An acknowledged decision request with every optional field, nulls included."""
    return {
        "schema_version": 1,
        "message_id": f"IM-release-{seed}-ready",
        "type": "decision_request",
        "status": "acknowledged",
        "sender_id": "Worker-release",
        "recipient_ids": ["coordinator", "reviewer-1"],
        "subject": "Release 2.0 is ready: approve publishing?",
        "body": "All checks pass and the notes are written. Approve to publish the wheels.",
        "task_id": None,
        "mission_id": "M-2",
        "related_decision_ids": ["D-publish-2.0"],
        "related_waitpoint_ids": ["WP-2.0.publish"],
        "related_handoff_ids": [],
        "created_at": "2026-03-02T15:00:00.000Z",
        "updated_at": "2026-03-02T15:20:00.000Z",
        "read_at": "2026-03-02T15:10:00.000Z",
        "acknowledged_at": "2026-03-02T15:20:00.000Z",
        "archived_at": None,
    }


def learning_payload(seed: int = 0) -> dict[str, Any]:
    """A learning sample with every field: open objects, integers and floats."""
    return {
        "sample_id": uuid(seed * 100_000 + 8),
        "project_id": "release-bot",
        "intent_before": {"goal": "publish 2.0", "constraints": ["no downtime"]},
        "plan": {"plan_id": uuid(seed * 100_000 + 1), "steps": 5},
        "delta_intents": [{"op": "add", "path": "/steps/4", "reason": "release notes were missing"}],
        "graph_before": {"nodes": 12, "edges": 15},
        "graph_after": {"nodes": 13, "edges": 17},
        "pipeline_path": ["intent", "plan", "confirm", "execute", "learn"],
        "success_flag": True,
        "error_info": {"error_code": "NONE", "error_message": "", "stack_trace": ""},
        "token_usage": {
            "total_tokens": 15000,
            "prompt_tokens": 10000,
            "completion_tokens": 5000.0,
            "by_agent": [
                {"agent_id": "planner", "role": "orchestrator", "tokens": 8000},
                {"agent_id": "coder", "tokens": 7000},
            ],
        },
        "execution_time_ms": 1234.5,
        "impact_score": 0.85,
        "user_feedback": {"decision": "approve", "comment": "Looks good", "rating": 4.5},
        "governance_decisions": [{"rule": "two-person-review", "result": "passed"}],
        "timestamps": {"started_at": "2026-03-02T14:00:00Z", "completed_at": "2026-03-02T15:30:00Z"},
        "metadata": {"source": "nightly", "weights": {"speed": 0.3, "quality": 0.7}},
        "vendor_extensions": {"x-acme": {"run": seed}},
    }


@dataclass(frozen=True)
class Payload:
    name: str  # as printed
    key: str  # as stored in the results
    kind: str  # one of KINDS
    value: dict[str, Any]

    @property
    def raw(self) -> bytes:
        return json.dumps(self.value, ensure_ascii=False).encode()


def payloads() -> list[Payload]:
    """The timed payloads, smallest of each kind first."""
    return [
        Payload("plan, 1 step", "plan-1", "plan", plan_payload(1)),
        Payload("plan, 20 steps", "plan-20", "plan", plan_payload(20)),
        Payload("plan, 200 steps", "plan-200", "plan", plan_payload(200)),
        Payload("plan, 2,000 steps", "plan-2000", "plan", plan_payload(2000)),
        Payload("dialog, 10 messages", "dialog-10", "dialog", dialog_payload(10)),
        Payload("dialog, 1,000 messages", "dialog-1000", "dialog", dialog_payload(1000)),
        Payload("trace, 10 segments", "trace-10", "trace", trace_payload(10)),
        Payload("trace, 1,000 segments", "trace-1000", "trace", trace_payload(1000)),
        Payload("inbox message", "inbox", "inbox", inbox_payload()),
        Payload("learning sample", "learning", "learning", learning_payload()),
    ]


NDJSON_LINES = 10_000


def ndjson_lines(count: int = NDJSON_LINES) -> Iterator[tuple[str, bytes]]:
    """(kind, line) for a mixed NDJSON file.

    In turn: 20-step plans, 10-message dialogs, inbox messages, learning samples.
    """
    makers: list[tuple[str, Callable[[int], dict[str, Any]]]] = [
        ("plan", lambda seed: plan_payload(20, seed)),
        ("dialog", lambda seed: dialog_payload(10, seed)),
        ("inbox", inbox_payload),
        ("learning", learning_payload),
    ]
    for n in range(count):
        kind, make = makers[n % len(makers)]
        yield kind, json.dumps(make(n), ensure_ascii=False, separators=(",", ":")).encode()


# --- exactness probes ----------------------------------------------------------


@dataclass(frozen=True)
class Probe:
    """A variation of a payload, and whether the schema and the rules beyond it accept it."""

    name: str
    kind: str
    raw: bytes
    schema_accepts: bool | None  # None: the schema does not say (the JSON text itself is at stake)
    rules_accept: bool


def _variant(base: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> bytes:
    value = copy.deepcopy(base)
    change(value)
    return json.dumps(value, ensure_ascii=False).encode()


def _set(path: tuple[str | int, ...], new: object) -> Callable[[dict[str, Any]], None]:
    def change(value: Any) -> None:
        for part in path[:-1]:
            value = value[part]
        value[path[-1]] = new

    return change


def probes() -> list[Probe]:
    """Documents at the edges of the schemas: which ones does each contender accept?"""
    plan = plan_payload(3)
    step1 = plan["steps"][1]["step_id"]
    inbox = inbox_payload()
    learning = learning_payload()
    dialog = dialog_payload(2)
    reject, accept = False, True
    plan_probes = [
        ("id in uppercase", _set(("steps", 0, "step_id"), step1.replace("000", "ABC", 1)), reject, reject),
        ("id with a final newline", _set(("plan_id",), plan["plan_id"] + "\n"), reject, reject),
        ("date-time on 30 February", _set(("meta", "created_at"), "2026-02-30T09:00:00Z"), reject, reject),
        ("date-time offset +0100 (no colon)", _set(("meta", "created_at"), "2026-03-01T09:00:00+0100"), reject, reject),
        ("date-time with a space for T", _set(("meta", "created_at"), "2026-03-01 09:00:00Z"), reject, reject),
        ("integer given as true", _set(("steps", 0, "order_index"), True), reject, reject),
        ("integer given as 1.5", _set(("steps", 0, "order_index"), 1.5), reject, reject),
        ("integer given as 1.0 (an integer in draft-07)", _set(("steps", 0, "order_index"), 1.0), accept, accept),
        ("repeated tag (uniqueItems)", _set(("meta", "tags"), ["bench", "bench"]), reject, reject),
        ("unknown key in a step", _set(("steps", 0, "owner"), "me"), reject, reject),
        ("optional field given as null", _set(("steps", 0, "agent_role"), None), reject, reject),
        ("dependency on no step of the plan", _set(("steps", 0, "dependencies"), [uuid(999)]), accept, reject),
        ("dependency cycle", _set(("steps", 0, "dependencies"), [plan["steps"][2]["step_id"]]), accept, reject),
    ]
    found = [Probe(name, "plan", _variant(plan, change), schema, rules) for name, change, schema, rules in plan_probes]
    found += [
        Probe("const 1 given as true", "inbox", _variant(inbox, _set(("schema_version",), True)), reject, reject),
        Probe("const 1 given as 1.0", "inbox", _variant(inbox, _set(("schema_version",), 1.0)), accept, accept),
        Probe(
            "number given as a string",
            "learning",
            _variant(learning, _set(("token_usage", "total_tokens"), "15000")),
            reject,
            reject,
        ),
        Probe(
            "message before the dialog started",
            "dialog",
            _variant(dialog, _set(("messages", 0, "timestamp"), "2026-03-02T09:59:59Z")),
            accept,
            reject,
        ),
        Probe(
            "duplicate key in the JSON text",
            "plan",
            json.dumps(plan).replace('"title": ', '"title": "First title", "title": ', 1).encode(),
            None,
            reject,
        ),
    ]
    return found


# --- every kind, for the naive peer ---------------------------------------------
# One realistic payload of each kind of mplp_models._kinds.KINDS: the large ones
# above for the plan, the dialog and the trace; the others grown from the
# repository's example of the kind (examples/payloads/), their lists long.

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "payloads"


def example(slug: str) -> dict[str, Any]:
    """The repository's example payload of a kind."""
    value: dict[str, Any] = json.loads((EXAMPLES / f"{slug}.json").read_text(encoding="utf-8"))
    return value


def events(count: int, source: str, base: int) -> list[dict[str, Any]]:
    """``count`` events of a module, a minute apart, each with a little data."""
    return [
        {
            "event_id": uuid(base + i),
            "event_type": f"{source}.updated",
            "source": source,
            "timestamp": f"2026-03-02T{10 + i // 60 % 10:02d}:{i % 60:02d}:00Z",
            "data": {"revision": i, "note": f"change {i}"},
        }
        for i in range(count)
    ]


def context_payload(event_count: int) -> dict[str, Any]:
    value = example("context")
    value["events"] = events(event_count, "context", 10_000)
    value["tags"] = [f"tag-{i}" for i in range(20)]
    return value


def confirm_payload(decisions: int) -> dict[str, Any]:
    value = example("confirm")
    value["status"] = "pending"
    value["decisions"] = [
        {
            "decision_id": uuid(20_000 + i),
            "status": "rejected",
            "decided_by_role": f"reviewer-{i % 9}",
            "decided_at": f"2026-03-02T{11 + i // 60 % 10:02d}:{i % 60:02d}:30Z",
            "reason": f"Not yet: item {i} is open.",
        }
        for i in range(decisions)
    ]
    return value


def role_payload(capabilities: int) -> dict[str, Any]:
    value = example("role")
    value["capabilities"] = [f"module-{i // 4}.action-{i % 4}" for i in range(capabilities)]
    return value


def extension_payload(event_count: int) -> dict[str, Any]:
    value = example("extension")
    value["config"] = {f"setting_{i}": {"enabled": i % 2 == 0, "limit": i, "label": f"s{i}"} for i in range(50)}
    value["events"] = events(event_count, "extension", 30_000)
    return value


def collab_payload(participants: int) -> dict[str, Any]:
    value = example("collab")
    kinds = ("agent", "human", "agent", "system", "external")
    value["participants"] = [
        {"participant_id": f"member-{i}", "kind": kinds[i % 5], "display_name": f"Member {i}"}
        for i in range(participants)
    ]
    return value


MODULES = ("context", "plan", "confirm", "trace", "role", "extension", "dialog", "collab", "core", "network")


def core_payload() -> dict[str, Any]:
    """A core with every module listed (there are ten)."""
    value = example("core")
    value["modules"] = [
        {"module_id": name, "version": "1.0.0", "status": "enabled", "required": i % 2 == 0}
        for i, name in enumerate(MODULES)
    ]
    return value


def network_payload(nodes: int) -> dict[str, Any]:
    value = example("network")
    value["nodes"] = [
        {"node_id": uuid(40_000 + i), "name": f"node {i}", "kind": "agent", "status": "active"} for i in range(nodes)
    ]
    return value


def every_kind() -> dict[str, Payload]:
    """A payload of each kind, by the name of its model (``Kind.name``)."""
    return {
        "Plan": Payload("plan, 200 steps", "plan-200", "Plan", plan_payload(200)),
        "Dialog": Payload("dialog, 1,000 messages", "dialog-1000", "Dialog", dialog_payload(1000)),
        "Context": Payload("context, 200 events", "context-200", "Context", context_payload(200)),
        "Confirm": Payload("confirm, 200 decisions", "confirm-200", "Confirm", confirm_payload(200)),
        "Trace": Payload("trace, 1,000 segments", "trace-1000", "Trace", trace_payload(1000)),
        "Role": Payload("role, 100 capabilities", "role-100", "Role", role_payload(100)),
        "Extension": Payload(
            "extension, 50 settings, 100 events", "extension-100", "Extension", extension_payload(100)
        ),
        "Collab": Payload("collab, 200 participants", "collab-200", "Collab", collab_payload(200)),
        "Core": Payload("core, 10 modules", "core-10", "Core", core_payload()),
        "Network": Payload("network, 200 nodes", "network-200", "Network", network_payload(200)),
        "InboxMessage": Payload("inbox message", "inbox", "InboxMessage", inbox_payload()),
        "LearningSample": Payload("learning sample", "learning", "LearningSample", learning_payload()),
        "Event": Payload("event", "event", "Event", example("event")),
        "TraceBase": Payload("trace base", "trace-base", "TraceBase", plan_payload(1)["trace"]),
    }
