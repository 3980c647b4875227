"""parse: the model is picked from the payload's own required fields."""

from __future__ import annotations

import json
import typing

import pytest
from conftest import FIXTURE_OF, PAYLOADS, load
from fast_path_switch import either_path
from pydantic import ValidationError

import mplp_models as mm
from mplp_models._kinds import DISCRIMINATORS, KINDS

__all__ = ["either_path"]  # a fixture


@pytest.mark.parametrize("model", list(FIXTURE_OF), ids=lambda model: model.__name__)
def test_each_payload_parses_as_its_model(model: type[mm.MplpModel]) -> None:
    raw = (PAYLOADS / FIXTURE_OF[model]).read_bytes()
    for data in (raw, raw.decode(), json.loads(raw)):
        parsed = mm.parse(data)
        assert type(parsed) is model
        assert parsed == model.from_json(raw)


def test_a_trace_parses_as_trace_base() -> None:
    trace = load(PAYLOADS / "plan.json")["trace"]
    assert isinstance(mm.parse(trace), mm.TraceBase)


def test_a_payload_missing_a_field_is_still_recognized_and_the_error_names_it() -> None:
    document = load(PAYLOADS / "plan.json")
    del document["objective"]
    with pytest.raises(ValidationError) as caught:
        mm.parse(document)
    assert caught.value.title == "Plan"
    assert caught.value.errors()[0]["loc"] == ("objective",)


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"hello": "world"}, r"no key that names one, such as Plan \(plan_id\), Dialog \(dialog_id\)"),
        (
            {"plan_id": "x", "objective": "o", "steps": [], "dialog_id": "y", "messages": []},
            r"as large a share of the keys of Plan \(objective, plan_id, steps\), Dialog \(dialog_id, messages\)",
        ),
        ([], "JSON object"),
        ("null", "JSON object"),
    ],
)
def test_unknown_kinds_are_clear_errors(data: object, says: str) -> None:
    with pytest.raises(ValidationError, match=says):
        mm.parse(data if not isinstance(data, list) else json.dumps(data))  # type: ignore[arg-type]


def test_a_payload_of_no_kind_gets_a_message_within_the_doors_bound() -> None:
    # Every door's messages stay under 500 characters (tests/test_hostile.py), the kinds' list included.
    with pytest.raises(ValidationError) as caught:
        mm.parse(b"{}")
    (entry,) = mm.errors_as_json(caught.value)
    assert (
        len(entry["message"]) < 500
        and "Plan (plan_id)" in entry["message"]
        and "Network (network_id)" in entry["message"]
    )


def test_parse_refuses_duplicate_keys_too() -> None:
    with pytest.raises(ValidationError, match="Duplicate key"):
        mm.parse(b'{"event_id": "a", "event_id": "b"}')


def test_payload_is_the_union_of_the_registered_kinds() -> None:
    assert typing.get_args(mm.Payload) == tuple(kind.model for kind in KINDS)


def test_every_kind_has_keys_of_its_own() -> None:
    # A kind whose required keys all belong to other kinds too could never be told apart.
    # The families of a core with a discriminator are told apart by its value instead (DISCRIMINATORS).
    from mplp_models._parse import _OWN_KEYS  # pyright: ignore[reportPrivateUsage]

    families = {family for _, named in DISCRIMINATORS.values() for family in named.values()}
    assert families == {"GraphUpdateEvent", "PipelineStageEvent", "RuntimeExecutionEvent"} | {
        "DeltaImpactSample",
        "IntentResolutionSample",
    }
    assert {model.__name__ for model, own in _OWN_KEYS.items() if own} == {kind.name for kind in KINDS} - families


# --- the event and learning-sample families: the discriminator decides (issue #23) ---------------

CORE_EVENT = {"event_id": "e-1", "event_type": "t", "timestamp": "2026-03-01T09:00:00Z"}
CORE_SAMPLE = {"sample_id": "s-1", "created_at": "2026-03-01T09:00:00Z", "input": {}, "output": {}}


@pytest.mark.parametrize(
    ("family", "model"),
    [
        ("graph_update", mm.GraphUpdateEvent),
        ("pipeline_stage", mm.PipelineStageEvent),
        ("runtime_execution", mm.RuntimeExecutionEvent),
        *((name, mm.EventCore) for name in ("import_process", "intent", "delta_intent", "impact_analysis")),
        *((name, mm.EventCore) for name in ("compensation_plan", "methodology", "reasoning_graph")),
        *((name, mm.EventCore) for name in ("cost_budget", "external_integration")),
    ],
)
def test_the_event_family_picks_the_model(family: str, model: type[mm.MplpModel]) -> None:
    fixture = load(PAYLOADS / f"{family.replace('_', '-')}-event.json") if model is not mm.EventCore else {}
    document = {**CORE_EVENT, **fixture, "event_family": family}
    assert type(mm.parse(document)) is model


def test_a_family_without_its_fields_is_the_core_it_is_valid_as() -> None:
    # event-core alone accepts it: valid as exactly one kind, it is read as that kind (docs/events.md).
    document = {**CORE_EVENT, "event_family": "graph_update", "graph_id": "g-1"}
    assert type(mm.parse(document)) is mm.EventCore
    assert mm.parse(document) == mm.EventCore.from_json(json.dumps(document))


def test_a_family_refused_by_every_kind_is_refused_naming_the_discriminator_value() -> None:
    document = {**CORE_EVENT, "event_family": "graph_update", "graph_id": "g-1", "timestamp": "yesterday"}
    with pytest.raises(ValidationError) as caught:
        mm.parse(document)
    assert caught.value.title == "GraphUpdateEvent"
    assert [error["loc"] for error in caught.value.errors()] == [
        ("timestamp",),
        ("update_kind",),
        ("node_delta",),
        ("edge_delta",),
    ]
    assert "event_family 'graph_update' is a GraphUpdateEvent, which requires node_delta" in str(caught.value)
    with pytest.raises(ValidationError, match="sample_family 'delta_impact' is a DeltaImpactSample"):
        mm.parse({**CORE_SAMPLE, "sample_family": "delta_impact", "input": {"delta_id": "d"}, "created_at": "x"})


def test_a_rule_broken_by_a_family_is_the_familys_refusal() -> None:
    # The family's schema accepts it, so it is the family (the more specific); its rule then refuses it,
    # although the core would take it: the core is not read instead.
    document = {**load(PAYLOADS / "pipeline-stage-event.json"), "stage_id": ""}
    assert mm.PipelineStageEvent.from_json(json.dumps(document), semantic=False)
    with pytest.raises(ValidationError) as caught:
        mm.parse(document)
    assert caught.value.title == "PipelineStageEvent"
    assert type(mm.parse(document, semantic=False)) is mm.PipelineStageEvent


def test_the_sample_family_picks_the_model() -> None:
    assert type(mm.parse(load(PAYLOADS / "delta-impact-sample.json"))) is mm.DeltaImpactSample
    assert type(mm.parse(load(PAYLOADS / "intent-resolution-sample.json"))) is mm.IntentResolutionSample
    for other in ("pipeline_outcome", "confirm_decision", "graph_evolution", "multi_agent_coordination", "x"):
        assert type(mm.parse({**CORE_SAMPLE, "sample_family": other})) is mm.LearningSampleCore
    # A family's own enum survives in its model; the core takes any output, and is what parse reads then.
    document = load(PAYLOADS / "delta-impact-sample.json")
    document["output"]["impact_scope"] = "bogus"
    with pytest.raises(ValidationError, match="impact_scope"):
        mm.DeltaImpactSample.from_json(json.dumps(document))
    assert type(mm.parse(document)) is mm.LearningSampleCore


@pytest.mark.parametrize(
    ("document", "model"),
    [
        ({"repo_url": "u", "commit_id": "c", "ref_name": "r", "event_kind": "push", "timestamp": "t"}, mm.GitEvent),
        ({"file_path": "a.py", "change_type": "modified", "timestamp": "t"}, mm.FileUpdateEvent),
        ({"tool_id": "t", "tool_kind": "linter", "invocation_id": "i", "status": "running"}, mm.ToolEvent),
        ({"ci_provider": "p", "pipeline_id": "b", "run_id": "1", "status": "running"}, mm.CIEvent),
        ({**CORE_EVENT, "sa_id": "a"}, mm.SAEvent),
        ({**CORE_EVENT, "session_id": "s"}, mm.MAPEvent),
        ({**CORE_EVENT, "source": "plan"}, mm.Event),
    ],
)
def test_the_other_events_are_told_apart_by_their_keys(document: dict[str, object], model: type[mm.MplpModel]) -> None:
    # Validated as that kind even where a value is bad (the timestamp "t"): the error is then the kind's own.
    try:
        parsed = mm.parse(document)
    except ValidationError as error:
        assert error.title == model.__name__
    else:
        assert type(parsed) is model


@pytest.mark.parametrize(
    ("keys", "title"),
    [
        # A module holds the ids of those it refers to: its own is looked for first (docs/events.md).
        (("meta", "trace_id", "plan_id", "context_id"), "Trace"),
        (("meta", "plan_id", "context_id"), "Plan"),
        (("meta", "dialog_id", "context_id"), "Dialog"),
        (("meta", "context_id"), "Context"),
        (("meta", "role_id"), "Role"),
        # schema_version at the top: an inbox message, the code mode's with what only it has.
        (("schema_version", "message_id"), "InboxMessage"),
        (("schema_version", "message_id", "relations"), "CodeInboxMessage"),
        (("schema_version", "artifact_refs"), "CodeInboxMessage"),
    ],
)
def test_the_discriminators_name_the_kind_of_an_incomplete_document(keys: tuple[str, ...], title: str) -> None:
    with pytest.raises(ValidationError) as caught:
        mm.parse({key: 1 if key == "schema_version" else "x" for key in keys})
    assert caught.value.title == title


# The MPLP modules' ids, as docs/events.md lists them.
MODULE_IDS = {
    mm.Dialog: "dialog_id",
    mm.Confirm: "confirm_id",
    mm.Trace: "trace_id",
    mm.Role: "role_id",
    mm.Extension: "extension_id",
    mm.Collab: "collab_id",
    mm.Core: "core_id",
    mm.Network: "network_id",
    mm.Plan: "plan_id",
    mm.Context: "context_id",
}
STRAY_ID = "3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11"  # a valid MPLP id: only the key is out of place


@pytest.mark.parametrize(
    ("model", "key"),
    [
        (model, key)
        for model in MODULE_IDS
        for key in MODULE_IDS.values()
        if model in FIXTURE_OF and key not in model.model_fields
    ],
    ids=lambda value: getattr(value, "__name__", value),
)
@pytest.mark.usefixtures("either_path")
def test_a_module_with_another_modules_id_is_refused_as_itself_for_it(model: type[mm.MplpModel], key: str) -> None:
    # The modules' schemas are closed: the stray key is the document's one fault (docs/events.md, rule 3).
    document = {**load(PAYLOADS / FIXTURE_OF[model]), key: STRAY_ID}
    with pytest.raises(ValidationError) as caught:
        mm.parse(json.dumps(document))
    assert caught.value.title == model.__name__
    assert [(entry["type"], entry["loc"]) for entry in caught.value.errors()] == [("extra_forbidden", (key,))]
    (verdict,) = mm.check_lines([json.dumps(document)])
    assert verdict is not None and (verdict.kind, [entry["pointer"] for entry in verdict.errors]) == (
        model.__name__,
        [f"/{key}"],
    )


@pytest.mark.parametrize("key", ["relations", "artifact_refs"])
@pytest.mark.usefixtures("either_path")
def test_an_inbox_message_with_a_code_mode_key_is_refused_as_itself(key: str) -> None:
    document: dict[str, object] = {**load(PAYLOADS / FIXTURE_OF[mm.InboxMessage]), key: []}
    with pytest.raises(ValidationError) as caught:
        mm.parse(document)
    assert caught.value.title == "InboxMessage"
    assert [(entry["type"], entry["loc"]) for entry in caught.value.errors()] == [("extra_forbidden", (key,))]


@pytest.mark.usefixtures("either_path")
def test_a_module_missing_a_field_is_refused_as_itself_though_it_holds_other_modules_ids() -> None:
    # A trace holds its plan's and its context's ids: it fits the trace's fields, and no other module's.
    document = load(PAYLOADS / FIXTURE_OF[mm.Trace])
    assert {"plan_id", "context_id"} <= document.keys()
    del document["root_span"]
    with pytest.raises(ValidationError) as caught:
        mm.parse(document)
    assert caught.value.title == "Trace"
    assert [(entry["type"], entry["loc"]) for entry in caught.value.errors()] == [("missing", ("root_span",))]


def test_the_memo_of_shapes_stays_bounded_and_never_keeps_a_tie() -> None:
    from mplp_models import _parse

    for n in range(3000):  # ever new shapes, each refused: the memo forgets, it does not grow
        with pytest.raises(ValidationError):
            mm.parse({"sa_id": "a", f"k{n}": n})
    assert 0 < len(_parse._SHAPES) <= 1024  # pyright: ignore[reportPrivateUsage]
    tie = {"plan_id": "x", "objective": "o", "steps": [], "dialog_id": "y", "messages": []}
    with pytest.raises(ValidationError, match="as large a share"):
        mm.parse(tie)
    assert tuple(tie) not in _parse._SHAPES  # pyright: ignore[reportPrivateUsage]
