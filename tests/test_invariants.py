"""mplp_models.invariants: upstream's invariant files loaded, and every rule evaluated, verdict by verdict.

The expected verdicts are written out from reading the YAML and the data (the
values quoted in the comments), not from the evaluator.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import shared_or_skip

import mplp_models as mm
from mplp_models import invariants as inv


def _files() -> list[Path]:
    root = shared_or_skip("mplp-v1.0")
    return [
        *sorted((root / "invariants").glob("*.yaml")),
        *sorted((root / "invariants" / "families").glob("*.yaml")),
        *sorted((root / "flows").glob("*/invariants.yaml")),
    ]


# Counted by hand: the `- id:` entries of each file.
COUNTS = {
    "invariants/confirm.yaml": 4,
    "invariants/context.yaml": 4,
    "invariants/plan.yaml": 4,
    "invariants/trace.yaml": 4,
    "families/integration-invariants.yaml": 19,
    "families/learning-invariants.yaml": 12,
    "families/map-invariants.yaml": 9,
    "families/observability-invariants.yaml": 12,
    "families/sa-invariants.yaml": 9,
    "map-flow-01-turn-taking/invariants.yaml": 12,
    "sa-flow-01-basic/invariants.yaml": 7,
}


def test_every_upstream_file_loads_with_every_rule() -> None:
    counts = {f"{path.parent.name}/{path.name}": len(inv.load(path)) for path in _files()}
    assert counts == COUNTS


def test_a_file_without_scopes_takes_its_name() -> None:
    rules = inv.load(shared_or_skip("mplp-v1.0", "invariants", "plan.yaml"))
    assert {rule.scope for rule in rules} == {"plan"}
    assert rules[1] == inv.Invariant(
        "plan_context_id_match",
        "plan",
        "context_id",
        "eq(context.context_id)",
        "Plan's context_id must match the Context's ID",
        "",
        "plan.yaml",
    )


def _flow(flow: str) -> dict[str, mm.Payload]:
    folder = shared_or_skip("mplp-v1.0", "flows", flow, "input")
    return {path.name: mm.parse(path.read_bytes()) for path in sorted(folder.glob("*.json"))}


def _table(verdicts: list[inv.Verdict]) -> list[tuple[str, str, str | int | None, str | None]]:
    return [(v.invariant, v.status, v.document, v.pointer) for v in verdicts]


def test_sa_flow_rule_by_rule() -> None:
    rules = inv.load(shared_or_skip("mplp-v1.0", "flows", "sa-flow-01-basic", "invariants.yaml"))
    # The flow has one step (agent_role "agent"); its context is active.
    assert _table(inv.evaluate(rules, _flow("sa-flow-01-basic"))) == [
        ("flow01_context_has_uuid", "holds", "context.json", "/context_id"),
        ("flow01_context_active", "holds", "context.json", "/status"),
        ("flow01_plan_has_uuid", "holds", "plan.json", "/plan_id"),
        ("flow01_plan_context_matches", "holds", "plan.json", "/context_id"),
        ("sa01_plan_has_steps", "holds", "plan.json", "/steps"),
        ("sa01_step_has_agent_role", "holds", "plan.json", "/steps/0/agent_role"),
        ("sa01_step_ids_uuid", "holds", "plan.json", "/steps/0/step_id"),
    ]


def test_map_flow_rule_by_rule() -> None:
    rules = inv.load(shared_or_skip("mplp-v1.0", "flows", "map-flow-01-turn-taking", "invariants.yaml"))
    steps = [f"/steps/{i}/agent_role" for i in range(3)]  # three steps: planner, reviewer, planner
    participants = ("/participants/0", "/participants/1")  # two agents
    expected = [
        ("map01_context_uuid", "holds", "context.json", "/context_id"),
        ("map01_context_active", "holds", "context.json", "/status"),
        ("map01_plan_uuid", "holds", "plan.json", "/plan_id"),
        ("map01_plan_context_binding", "holds", "plan.json", "/context_id"),
        ("map01_plan_has_multiple_steps", "holds", "plan.json", "/steps"),
        *[("map01_steps_have_agent_roles", "holds", "plan.json", step) for step in steps],
        ("map01_collab_uuid", "holds", "collab.json", "/collab_id"),
        ("map01_collab_context_binding", "holds", "collab.json", "/context_id"),
        ("map01_collab_mode_round_robin", "holds", "collab.json", "/mode"),
        ("map01_collab_has_multiple_participants", "holds", "collab.json", "/participants"),
        *[("map01_participants_have_role_ids", "holds", "collab.json", f"{p}/role_id") for p in participants],
        *[("map01_participant_kind_valid", "holds", "collab.json", f"{p}/kind") for p in participants],
    ]
    assert _table(inv.evaluate(rules, _flow("map-flow-01-turn-taking"))) == expected


def test_flow_01_keeps_the_global_plan_and_context_rules() -> None:
    # FLOW-01's README: "All global invariants in plan.yaml and context.yaml pass" (two steps).
    folder = shared_or_skip("mplp-v1.0", "invariants")
    rules = [*inv.load(folder / "context.yaml"), *inv.load(folder / "plan.yaml")]
    assert _table(inv.evaluate(rules, _flow("flow-01-single-agent-plan"))) == [
        ("context_id_must_be_uuid", "holds", "context.json", "/context_id"),
        ("protocol_version_must_be_1_0", "holds", "context.json", "/meta/protocol_version"),
        ("schema_version_must_exist", "holds", "context.json", "/meta/schema_version"),
        ("root_domain_must_be_non_empty", "holds", "context.json", "/root/domain"),
        ("plan_id_must_be_uuid", "holds", "plan.json", "/plan_id"),
        ("plan_context_id_match", "holds", "plan.json", "/context_id"),
        ("step_ids_must_be_uuid", "holds", "plan.json", "/steps/0/step_id"),
        ("step_ids_must_be_uuid", "holds", "plan.json", "/steps/1/step_id"),
        ("step_descriptions_must_be_non_empty", "holds", "plan.json", "/steps/0/description"),
        ("step_descriptions_must_be_non_empty", "holds", "plan.json", "/steps/1/description"),
    ]


def test_the_map_flow_rules_over_the_sa_flow() -> None:
    rules = inv.load(shared_or_skip("mplp-v1.0", "flows", "map-flow-01-turn-taking", "invariants.yaml"))
    verdicts = inv.evaluate(rules, _flow("sa-flow-01-basic"))
    failed = [(v.invariant, v.pointer, v.present) for v in verdicts if v.status == "fails"]
    assert failed == [("map01_plan_has_multiple_steps", "/steps", True)]  # one step, not two
    collab = [v for v in verdicts if v.scope == "collab"]
    assert {(v.status, v.message) for v in collab} == {("not_applicable", "no collab document")}
    assert len(collab) == 6  # one verdict per rule when its document is absent


def test_the_map_family_states_two_rules_in_words_only() -> None:
    rules = inv.load(shared_or_skip("mplp-v1.0", "invariants", "families", "map-invariants.yaml"))
    verdicts = inv.evaluate(rules, _flow("map-flow-01-turn-taking"))
    descriptive = [v.invariant for v in verdicts if v.status == "descriptive"]
    assert descriptive == ["map_turn_completion_matches_dispatch", "map_broadcast_has_receivers"]
    assert {v.status for v in verdicts} == {"holds", "descriptive"}


def _examples(variant: str) -> dict[str, mm.Payload]:
    folder = shared_or_skip("mplp-v1.0", "examples")
    modules = ("context", "plan", "confirm", "trace")
    return {f"{m}.{variant}.json": mm.parse((folder / f"{m}.{variant}.json").read_bytes()) for m in modules}


def _global_rules() -> list[inv.Invariant]:
    return [
        rule for path in sorted(shared_or_skip("mplp-v1.0", "invariants").glob("*.yaml")) for rule in inv.load(path)
    ]


def test_upstream_examples_break_upstream_rules() -> None:
    verdicts = inv.evaluate(_global_rules(), _examples("minimal"))
    # Every id of the minimal examples is 550e8400-...-440000; the confirm is pending, the
    # trace's root_span has no context_id and the trace no events.
    assert {v.invariant: (v.status, v.pointer) for v in verdicts} == {
        "confirm_id_must_be_uuid": ("holds", "/confirm_id"),
        "confirm_target_match": ("holds", "/target_id"),
        "status_must_be_valid_enum": ("fails", "/status"),
        "rejected_must_have_reason": ("not_applicable", "/reason"),
        "context_id_must_be_uuid": ("holds", "/context_id"),
        "protocol_version_must_be_1_0": ("holds", "/meta/protocol_version"),
        "schema_version_must_exist": ("holds", "/meta/schema_version"),
        "root_domain_must_be_non_empty": ("holds", "/root/domain"),
        "plan_id_must_be_uuid": ("holds", "/plan_id"),
        "plan_context_id_match": ("holds", "/context_id"),
        "step_ids_must_be_uuid": ("holds", "/steps/0/step_id"),
        "step_descriptions_must_be_non_empty": ("holds", "/steps/0/description"),
        "trace_id_must_be_uuid": ("holds", "/trace_id"),
        "root_span_trace_id_match": ("holds", "/root_span/trace_id"),
        "root_span_context_id_match": ("fails", "/root_span/context_id"),
        "events_timestamp_iso": ("not_applicable", None),
    }
    pending = next(v for v in verdicts if v.invariant == "status_must_be_valid_enum")
    assert (pending.value, pending.present, pending.document) == ("pending", True, "confirm.minimal.json")
    absent = next(v for v in verdicts if v.invariant == "root_span_context_id_match")
    assert (absent.value, absent.present) == (None, False)


def test_integration_examples_keep_the_integration_rules() -> None:
    folder = shared_or_skip("mplp-v1.0", "examples", "integration")
    scopes = {"tool_event": "tool-execution", "file_update_event": "ide-file-save", "git_event": "git-push"}
    scopes["ci_event"] = "ci-build-finished"
    scoped: dict[str, list[dict[str, Any]]] = {}
    for scope, name in scopes.items():
        document = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
        del document["$comment"]
        scoped[scope] = [document]
    rules = inv.load(shared_or_skip("mplp-v1.0", "invariants", "families", "integration-invariants.yaml"))
    verdicts = inv.evaluate(rules, scoped=scoped)
    assert [(v.invariant, v.status) for v in verdicts if v.status != "holds"] == []
    assert len(verdicts) == 19


def test_learning_examples_rule_by_rule() -> None:
    folder = shared_or_skip("mplp-v1.0", "examples", "learning")
    samples: list[dict[str, Any]] = []
    for name in ("flow-01-intent-sample", "flow-05-confirm-sample"):
        document = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
        del document["$comment"]
        samples.append(document)
    rules = inv.load(shared_or_skip("mplp-v1.0", "invariants", "families", "learning-invariants.yaml"))
    verdicts = inv.evaluate(rules, scoped={"learning_sample": samples})
    # Sample 0 is an intent_resolution (intent_id, quality label "good"); sample 1 a confirm_decision.
    # Neither is a delta_impact nor has state.risk_level ("... valid enum if present").
    assert [(v.invariant, v.status, v.document) for v in verdicts if v.status != "holds"] == [
        ("learning_intent_has_intent_id", "not_applicable", 1),
        ("learning_intent_quality_label_valid", "not_applicable", 1),
        ("learning_delta_has_delta_id", "not_applicable", 0),
        ("learning_delta_has_delta_id", "not_applicable", 1),
        ("learning_delta_scope_valid", "not_applicable", 0),
        ("learning_delta_scope_valid", "not_applicable", 1),
        ("learning_delta_risk_valid", "not_applicable", 0),
        ("learning_delta_risk_valid", "not_applicable", 1),
    ]
    assert len(verdicts) == 24  # 12 rules, 2 samples


# --- the rule language, form by form -----------------------------------------------------------------


def _one(
    rule: str, document: dict[str, Any], path: str = "x", note: str = "", description: str = ""
) -> list[tuple[str, str | None]]:
    text = f"- id: r\n  scope: s\n  path: {json.dumps(path)}\n  rule: {json.dumps(rule)}\n  note: {json.dumps(note)}\n"
    text += f"  description: {json.dumps(description)}\n"
    return [(v.status, v.pointer) for v in inv.evaluate(inv.loads(text), scoped={"s": [document]})]


HOLDS = [("holds", "/x")]
FAILS = [("fails", "/x")]

FORMS = [
    ("uuid-v4", "550e8400-e29b-41d4-a716-446655440000", HOLDS),
    ("uuid-v4", "550e8400-e29b-11d4-a716-446655440000", FAILS),  # version 1
    ("non-empty-string", "a", HOLDS),
    ("non-empty-string", " \t", FAILS),
    ("non-empty-string", 5, FAILS),
    ("string", "", HOLDS),
    ("string", None, FAILS),
    ("optional-string", "", HOLDS),
    ("positive-integer", 3, HOLDS),
    ("positive-integer", 0, FAILS),
    ("positive-integer", True, FAILS),
    ("positive-integer", 2.5, FAILS),
    ("iso-datetime", "2025-01-01T00:00:00.000Z", HOLDS),
    ("iso-datetime", "2025-01-01T00:00:00+05:30", HOLDS),
    ("iso-datetime", "2025-01-01", FAILS),
    ("iso-datetime", "2025-13-01T00:00:00Z", FAILS),
    ("iso-datetime", "\u0662\u0660\u0662\u0666-01-01T00:00:00Z", FAILS),  # Arabic-Indic digits: no date-time
    ("iso-datetime", "2026-01-01T10:0\uff10:00Z", FAILS),  # a full-width digit
    ("exists", 0, HOLDS),
    ("exists", None, FAILS),
    ("enum(a,b)", "b", HOLDS),
    ("enum(a,b)", "c", FAILS),
    ('enum("draft", "active")', "active", HOLDS),
    ('one-of(["approved", "rejected"])', "rejected", HOLDS),
    ('one-of(["approved", "rejected"])', "pending", FAILS),
    ('eq("1.0.0")', "1.0.0", HOLDS),
    ('eq("1.0.0")', "1.0", FAILS),
    ("eq(1)", True, FAILS),  # JSON: true is not 1
    ("one-of([[1, 2]])", [True, 2], FAILS),  # nor inside a list
    ("one-of([[1, 2]])", [1, 2], HOLDS),
    ('one-of([{"a": 1}])', {"a": True}, FAILS),
    ("min-length(2)", [1, 2], HOLDS),
    ("min-length(2)", [1], FAILS),
    ("min-length(2)", "ab", HOLDS),
]


@pytest.mark.parametrize(("rule", "value", "expected"), FORMS)
def test_each_rule_form(rule: str, value: object, expected: list[tuple[str, str | None]]) -> None:
    assert _one(rule, {"x": value}) == expected


def test_an_absent_value() -> None:
    assert _one("non-empty-string", {}) == FAILS
    assert _one("enum(a)", {}, note="Apply when the field exists") == [("not_applicable", "/x")]
    assert _one("exists", {}) == FAILS
    assert _one("optional-string", {}) == HOLDS
    # Upstream's notes: "Apply only when started_at field exists".
    assert _one("iso-datetime", {}, note="Apply only when x field exists") == [("not_applicable", "/x")]


def test_a_note_that_states_a_condition() -> None:
    note = "Apply when family == delta"
    assert _one("non-empty-string", {"family": "delta", "x": ""}, note=note) == FAILS
    assert _one("non-empty-string", {"family": "other", "x": ""}, note=note) == [("not_applicable", None)]


# Upstream's wording, rule by rule (the scan of its files below): these forms, each in a note or a
# description alone, exempt an absent value; a text that only says the value "must be present", or
# names another field, does not.
EXEMPT = [
    ("Apply only when x field exists", ""),  # integration-invariants.yaml
    ("Apply only when x exists", ""),
    ("validate only when present", ""),  # sa-invariants.yaml
    ("", "If x present, must be ISO 8601 datetime"),  # integration, learning, map, sa
    ("", "If x is present, must be non-empty"),
    ("", "Delta risk level must be valid enum if present"),  # learning-invariants.yaml
    ("Apply when kind == build AND field exists", ""),  # learning-invariants.yaml
    ("Apply when the field exists", ""),
]
REQUIRED = [
    ("", "When the call has finished, x must be present"),
    ("Apply when kind == build", "x must be present"),  # each text alone: no exemption in either
    ("", "If status is done, x must exist"),
    ("Apply only when started_at exists", ""),  # another field's condition, not leave to omit x
    ("", "If y present, x must be set"),
    ("When finished", "present"),
]


@pytest.mark.parametrize(("note", "description"), EXEMPT)
def test_an_explicit_form_exempts_an_absent_value(note: str, description: str) -> None:
    document = {"kind": "build"}
    assert _one("exists", document, note=note, description=description) == [("not_applicable", "/x")]
    assert _one("exists", {**document, "x": None}, note=note, description=description) == FAILS  # present


@pytest.mark.parametrize(("note", "description"), REQUIRED)
def test_other_wording_keeps_a_rule_required(note: str, description: str) -> None:
    assert _one("exists", {"kind": "build"}, note=note, description=description) == FAILS


def test_the_exemption_names_the_paths_own_field() -> None:
    document = {"participants": [{"role_id": "r"}, {}]}
    assert _one("non-empty-string", document, "participants[*].role_id", description="If role_id present, ...") == [
        ("holds", "/participants/0/role_id"),
        ("not_applicable", "/participants/1/role_id"),
    ]
    assert _one("exists", {}, "meta.label", note="Apply only when meta.label exists") == [
        ("not_applicable", "/meta/label")
    ]


# Read off upstream's files: the rules whose note or description says "only when ... exists",
# "If ... present" or "... if present" of their own field.
UPSTREAM_EXEMPT = {
    "integration_tool_started_at_iso",
    "integration_ci_started_at_iso",
    "integration_ci_completed_at_iso",
    "learning_sample_feedback_label_valid",
    "learning_sample_source_flow_non_empty",
    "learning_intent_quality_label_valid",
    "learning_delta_risk_valid",
    "map_role_ids_non_empty",
    "sa_steps_agent_role_if_present",
}


def test_upstreams_exemptions_are_exactly_its_explicit_ones() -> None:
    rules = [rule for path in _files() for rule in inv.load(path)]
    # One document per scope, where every list holds one empty element and every "Apply when" holds.
    empty: dict[str, Any] = {"sample_family": "intent_resolution", "participants": [{}], "steps": [{}]}
    verdicts = inv.evaluate(rules, scoped={rule.scope: [empty] for rule in rules})
    exempt = {v.invariant for v in verdicts if v.message.startswith("absent; applies only when present")}
    assert exempt == UPSTREAM_EXEMPT


def test_if_applies_the_rule_only_when_the_condition_holds() -> None:
    rule = 'if(status == "rejected", non-empty-string)'
    assert _one(rule, {"status": "rejected", "x": "why"}) == HOLDS
    assert _one(rule, {"status": "rejected"}) == FAILS
    assert _one(rule, {"status": "approved"}) == [("not_applicable", "/x")]
    assert _one('if(status != "approved", exists)', {"status": "pending"}) == FAILS
    # JSON equality, as eq() compares: true is not 1, nor 1 "1".
    assert _one("if(flag == 1, exists)", {"flag": True}) == [("not_applicable", "/x")]
    assert _one("if(flag == 1, exists)", {"flag": 1}) == FAILS
    assert _one("if(flag == true, exists)", {"flag": 1}) == [("not_applicable", "/x")]
    assert _one("if(flag != 1, exists)", {"flag": True}) == FAILS
    assert _one('if(flag == "1", exists)', {"flag": 1}) == [("not_applicable", "/x")]


def test_a_note_condition_compares_as_json() -> None:
    note = "Apply when n == 1"
    assert _one("exists", {"n": 1}, note=note) == FAILS
    assert _one("exists", {"n": True}, note=note) == [("not_applicable", None)]
    assert _one("exists", {"n": "1"}, note=note) == [("not_applicable", None)]


def test_paths_into_arrays() -> None:
    document: dict[str, Any] = {
        "events": [
            {"event_type": "tool.call", "payload": {"tool": "grep"}},
            {"event_type": "other", "payload": {}},
            {"event_type": "tool.call", "payload": {"tool": ""}},
        ]
    }
    assert _one("non-empty-string", document, 'events[?event_type=="tool.call"].payload.tool') == [
        ("holds", "/events/0/payload/tool"),
        ("fails", "/events/2/payload/tool"),
    ]
    assert _one("non-empty-string", document, "events[?event_type=='none'].payload.tool") == [("not_applicable", None)]
    assert _one("exists", document, "events[*].payload") == [("holds", f"/events/{i}/payload") for i in range(3)]
    assert _one("exists", document, "events[1].payload") == [("holds", "/events/1/payload")]
    assert _one("exists", document, "events[5].payload") == [("fails", "/events/5/payload")]
    assert _one("exists", {"events": []}, "events[*].payload") == [("not_applicable", None)]
    flags = {"events": [{"n": True, "x": 1}, {"n": 1, "x": 2}]}
    assert _one("exists", flags, "events[?n==1].x") == [("holds", "/events/1/x")]  # true is not 1
    assert _one("exists", flags, "events[?n==true].x") == [("holds", "/events/0/x")]


def test_eq_compares_with_another_document_or_its_own() -> None:
    text = """
- id: bound
  scope: plan
  path: context_id
  rule: eq(context.context_id)
- id: own
  scope: trace
  path: root_span.trace_id
  rule: eq(trace.trace_id)
"""
    rules = inv.loads(text)
    plans = [{"context_id": "c1"}, {"context_id": "c2"}]
    traces = [{"trace_id": "t1", "root_span": {"trace_id": "t1"}}, {"trace_id": "t2", "root_span": {"trace_id": "t1"}}]
    verdicts = inv.evaluate(rules, scoped={"plan": plans, "context": [{"context_id": "c1"}], "trace": traces})
    assert [(v.invariant, v.status, v.document) for v in verdicts] == [
        ("bound", "holds", 0),
        ("bound", "fails", 1),
        ("own", "holds", 0),
        ("own", "fails", 1),  # each trace is compared with itself, not with the set
    ]
    assert "c1" in verdicts[1].message
    alone = inv.evaluate(rules[:1], scoped={"plan": plans})
    assert [(v.status, v.message) for v in alone] == [("not_applicable", "no context document to compare with")]


@pytest.mark.parametrize(
    "rule",
    [
        "uuid-v5",
        "enum()",
        "one-of(approved)",
        "min-length(two)",
        "min-length(\u00b2)",  # a digit to str.isdigit(), not to int()
        "if(status, exists)",
        "matches(.*)",
        "eq(x)",
    ],
)
def test_an_unknown_rule_form_is_an_error_never_a_pass(rule: str) -> None:
    with pytest.raises(inv.InvariantError, match="invariant r"):
        inv.loads(f"- id: r\n  scope: s\n  path: x\n  rule: {json.dumps(rule)}\n")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("- id: r\n  path: x\n  rule: exists\n", "no scope"),
        ("- id: r\n  scope: s\n  path: x\n", "a path needs a rule"),
        ("- id: r\n  scope: s\n  path: 'x[?]'\n  rule: exists\n", "cannot read path"),
        ("- id: r\n  scope: s\n  path: 'x[\u0662]'\n  rule: exists\n", "cannot read path"),  # an index is ASCII
        ("- id: r\n  scope: s\n  path: x\n  rule: exists\n  severity: high\n", "unknown keys"),
        ("- id: r\n  scope: s\n  path: x\n  rule: exists\n- id: r\n  scope: s\n  path: y\n  rule: exists\n", "twice"),
        ("rules: []\n", "expected a list"),
        ("a: [\n", "not YAML"),
    ],
)
def test_a_file_that_cannot_be_read_is_an_error(text: str, match: str) -> None:
    with pytest.raises(inv.InvariantError, match=match):
        inv.loads(text)


def test_without_pyyaml_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "yaml", None)
    with pytest.raises(ImportError, match=r"mplp-models\[invariants\]"):
        inv.loads("[]")


def test_scope_names_follow_upstream() -> None:
    context = mm.Context.new("c", domain="d", environment="e")
    assert inv.scope_of(context) == "context"
    assert inv.scope_of(mm.Plan.new(context, title="t", objective="o", steps=["s"])) == "plan"
    assert (
        inv.scope_of(
            mm.Event.model_validate(
                {"event_id": mm.new_id(), "event_type": "t", "source": "s", "timestamp": "2026-01-01T00:00:00Z"}
            )
        )
        == "event"
    )
    with pytest.raises(TypeError, match="not a parsed payload: PlanStep"):
        inv.scope_of(mm.PlanStep(step_id=mm.new_id(), description="d", status="pending"))
