"""parse names the kind the reference validator accepts: every example, and family documents with extra keys.

The reference draft-07 validator decides which kinds accept a document. A document that
exactly one kind accepts is read as that kind, never refused; where two accept it (open
objects only), the more specific wins by the rule of docs/events.md ("Which kind parse
reads"): a family before its core, an event before a learning sample. A document that no
kind accepts is refused. Each test runs with the fast paths on and off, and the fast
parse (its guess of the kind from the text) is held to the strict one.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CONFORMANCE, PAYLOAD_FILES, REGISTRY, SCHEMAS, examples, load, reference_accepts
from fast_path_switch import either_path, fast_paths  # noqa: F401  # either_path: a fixture
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import mplp_models as mm
from mplp_models import _parse
from mplp_models._kinds import KINDS

# The rule's order where two kinds accept one document, written out from docs/events.md.
SPECIFIC_FIRST: list[type[mm.MplpModel]] = [
    mm.GraphUpdateEvent,
    mm.PipelineStageEvent,
    mm.RuntimeExecutionEvent,
    mm.EventCore,
    mm.DeltaImpactSample,
    mm.IntentResolutionSample,
    mm.LearningSampleCore,
]
ORDER: list[type[mm.MplpModel]] = [*SPECIFIC_FIRST, *(kind.model for kind in KINDS if kind.model not in SPECIFIC_FIRST)]
EVENT_KINDS = SPECIFIC_FIRST[:4]
SAMPLE_KINDS = SPECIFIC_FIRST[4:]


def accepting(document: Any) -> list[type[mm.MplpModel]]:
    """The kinds whose frozen schema accepts ``document`` by the reference validator, in the rule's order."""
    return [model for model in ORDER if reference_accepts(model, document)]


def outcome(document: Any, *, semantic: bool = False) -> type[mm.MplpModel] | None:
    """The kind parse reads ``document`` as (from its JSON text), or None when it refuses it."""
    try:
        return type(mm.parse(json.dumps(document), semantic=semantic))
    except ValidationError:
        return None


def expected(document: Any) -> type[mm.MplpModel] | None:
    found = accepting(document)
    return found[0] if found else None


# --- the documents ---------------------------------------------------------------------------------


def schema_file(model: type[mm.MplpModel]) -> dict[str, Any]:
    kind = next(kind for kind in KINDS if kind.model is model)
    schema: dict[str, Any] = load(SCHEMAS / kind.schema)
    return schema


def minimal(schema: dict[str, Any], resolver: Any) -> Any:
    """The smallest document a schema describes: its required keys, each with the first value it allows."""
    if "$ref" in schema:
        found = resolver.lookup(schema["$ref"])
        return minimal(found.contents, found.resolver)
    if "allOf" in schema:
        merged: dict[str, Any] = {}
        for part in schema["allOf"]:
            merged.update(minimal(part, resolver))  # a family's part after the core: its `const` wins
        return merged
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    kind = next(name for name in kind if name != "null") if isinstance(kind, list) else kind
    if kind == "object":
        return {key: minimal(schema["properties"][key], resolver) for key in schema.get("required", [])}
    if kind == "array":
        return [minimal(schema["items"], resolver) for _ in range(schema.get("minItems", 0))]
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    if kind == "boolean":
        return True
    return {"date-time": "2026-03-01T09:00:00Z", "email": "dev@example.com"}.get(schema.get("format", ""), "x")


def built_from_schema(model: type[mm.MplpModel]) -> dict[str, Any]:
    schema = schema_file(model)
    document: dict[str, Any] = minimal(schema, REGISTRY.resolver(schema["$id"]))
    return document


def family_bases() -> Iterator[tuple[str, dict[str, Any]]]:
    """Valid documents of the event and sample families: built from their schemas, the repository's, upstream's."""
    for model in SPECIFIC_FIRST:
        yield f"{model.__name__} from its schema", built_from_schema(model)
    for path in PAYLOAD_FILES:
        document = load(path)
        if document.get("event_family") or document.get("sample_family"):
            yield path.name, document
    learning = CONFORMANCE / "mplp-v1.0" / "examples" / "learning"
    for path in sorted(learning.glob("*.json")) if learning.exists() else []:
        document = load(path)
        del document["$comment"]  # upstream's note, not payload
        yield f"upstream {path.name}", document


def top_level_keys() -> list[str]:
    """Every top-level property of every frozen schema (the families' allOf parts too), once, sorted."""
    keys: set[str] = set()
    for path in Path(SCHEMAS).rglob("*.schema.json"):
        schema = load(path)
        for part in [schema, *schema.get("allOf", [])]:
            keys.update(part.get("properties", {}))
    return sorted(keys)


# A few values of other kinds' keys, as a stream would carry them (an Event's source, a span's trace_id).
EXTRA_VALUES: list[Any] = ["x", {"a": 1}]


def held_out_style() -> Iterator[tuple[str, dict[str, Any]]]:
    """Family documents with extra keys (every other kind's top-level keys), a family value changed, both cores."""
    every = top_level_keys()
    step = examples(quick=3, deep=1)
    for name, base in family_bases():
        for index, key in enumerate(every):
            if key in base or index % step:
                continue
            for value in EXTRA_VALUES:
                yield f"{name} + {key}={value!r}", {**base, key: value}
        family_field = "event_family" if "event_family" in base else "sample_family"
        for value in family_values(family_field):
            yield f"{name} with {family_field}={value}", {**base, family_field: value}
        other = built_from_schema(mm.LearningSampleCore if family_field == "event_family" else mm.EventCore)
        yield f"{name} with the other core's fields", {**other, **base}
        yield f"{name} without its family's first field", without_first_own_field(base)


def family_values(field: str) -> list[str]:
    schema = schema_file(mm.EventCore if field == "event_family" else mm.LearningSampleCore)
    values: list[str] = schema["properties"][field].get("enum", ["delta_impact", "intent_resolution", "other"])
    return values


def without_first_own_field(document: dict[str, Any]) -> dict[str, Any]:
    core_keys = set(built_from_schema(mm.EventCore)) | set(built_from_schema(mm.LearningSampleCore))
    own = [key for key in document if key not in core_keys]
    return {key: value for key, value in document.items() if own and key != own[0]}


def every_example() -> Iterator[tuple[str, Any]]:
    for path in PAYLOAD_FILES:
        yield path.name, load(path)
    upstream = CONFORMANCE / "mplp-v1.0" / "examples"
    for path in sorted(upstream.rglob("*.json")) if upstream.exists() else []:
        document = load(path)
        document.pop("$comment", None)
        yield f"upstream {path.relative_to(upstream)}", document
    sample = CONFORMANCE / "cortex-inbox" / "sample.json"
    if sample.exists():
        yield "cortex-inbox/sample.json", load(sample)


# --- the tests -----------------------------------------------------------------------------------


@pytest.mark.usefixtures("either_path")
def test_every_example_is_read_as_the_kind_that_accepts_it() -> None:
    wrong = []
    for name, document in every_example():
        found = accepting(document)
        assert found, f"{name}: an example every schema refuses"
        if outcome(document) is not found[0] or outcome(document, semantic=True) is not found[0]:
            wrong.append(f"{name}: accepted by {[m.__name__ for m in found]}, parse gives {outcome(document)}")
    assert not wrong, "\n".join(wrong)


def test_the_bases_are_valid_documents_of_their_kinds() -> None:
    # The documents built from the schemas are what the schemas describe: the builder is sound.
    for name, document in family_bases():
        assert accepting(document), name


@pytest.mark.usefixtures("either_path")
def test_every_held_out_style_family_document_is_read_by_the_reference_verdict() -> None:
    wrong = []
    count = refused = 0
    for name, document in held_out_style():
        count += 1
        wanted = expected(document)
        refused += wanted is None
        got = outcome(document)
        if got is not wanted:
            shown = None if wanted is None else wanted.__name__
            wrong.append(f"{name}: the reference's pick {shown}, parse {got and got.__name__}")
    assert count > 100
    assert refused < count // 10, "mostly valid documents, or the comparison says little"
    assert not wrong, f"{len(wrong)} of {count}:\n" + "\n".join(wrong[:30])


def test_a_family_event_with_source_and_trace_id_is_its_family() -> None:
    # What an Event or a span carries, in an open family event: the discriminator decides, not a share of keys.
    for model in EVENT_KINDS:
        document = {**built_from_schema(model), "source": "planner", "trace_id": "t-1"}
        assert accepting(document) == ([model, mm.EventCore] if model is not mm.EventCore else [model])
        for enabled in (True, False):
            with fast_paths(enabled):
                parsed = mm.parse(json.dumps(document))
                assert type(parsed) is model
                assert parsed.model_extra == {"source": "planner", "trace_id": "t-1"}


def test_no_two_closed_kinds_accept_one_document() -> None:
    # From the frozen schemas: two closed objects (additionalProperties false) can share a document only if
    # each one's required keys are properties of the other; an open schema needs its discriminator field,
    # which no closed one has. So only open kinds can both accept a document (the order above decides).
    closed = {}
    for kind in KINDS:
        schema = load(SCHEMAS / kind.schema)
        if schema.get("additionalProperties") is False:
            closed[kind.name] = (set(schema.get("required", [])), set(schema["properties"]))
        else:
            assert kind.model in SPECIFIC_FIRST, kind.name
    assert len(closed) == len(KINDS) - len(SPECIFIC_FIRST)
    for name, (required, properties) in closed.items():
        for other, (other_required, other_properties) in closed.items():
            if name != other:
                assert not (required <= other_properties and other_required <= properties), (name, other)
        assert not {"event_family", "sample_family"} & properties


# --- the fast parse, held to the strict one --------------------------------------------------------


def verdict(raw: bytes) -> tuple[str, Any]:
    try:
        parsed = mm.parse(raw)
    except ValidationError as error:
        return "refused", (error.title, [(e["loc"], e["type"]) for e in error.errors()])
    return type(parsed).__name__, parsed.to_dict()


def tricky_texts() -> Iterator[tuple[str, bytes]]:
    """Texts whose kind a reading of the text could get wrong: nested and escaped keys, quoted values, spaces."""
    event = built_from_schema(mm.EventCore)
    graph = built_from_schema(mm.GraphUpdateEvent)
    sample = built_from_schema(mm.LearningSampleCore)
    plan = load(next(path for path in PAYLOAD_FILES if path.name == "plan.json"))
    yield "core naming a family in a text", json.dumps({**event, "event_type": "graph_update"}).encode()
    yield "core naming a family in its payload", json.dumps({**event, "payload": {"event_family": "x"}}).encode()
    yield "family value escaped", json.dumps(graph).replace('"graph_update"', '"graph\\u005fupdate"').encode()
    yield "key escaped", json.dumps(graph).replace('"event_family"', '"ev\\u0065nt_family"').encode()
    yield (
        "sample with an escaped event key",
        json.dumps({**event, **sample}).replace('"event_family"', '"\\u0065vent_family"').encode(),
    )
    yield "both cores", json.dumps({**sample, **event}).encode()
    yield "space before the colon", json.dumps(plan, separators=(",", " : ")).encode()
    yield "a plan holding a trace's keys in events", json.dumps(plan).encode()
    yield "a signature key in an open object", json.dumps({**event, "payload": {"objective": 1, "root": 2}}).encode()
    yield "duplicate discriminator", json.dumps(graph)[:-1].encode() + b', "event_family": "intent"}'
    yield "a family value as the key's text", json.dumps({**sample, "note": "event_family"}).encode()
    yield "pretty", json.dumps(graph, indent=2).encode()


def every_text() -> Iterator[tuple[str, bytes]]:
    for name, document in every_example():
        yield name, json.dumps(document).encode()
    for name, document in held_out_style():
        yield name, json.dumps(document).encode()
    yield from tricky_texts()


def test_the_fast_parse_gives_what_the_strict_one_gives() -> None:
    wrong = []
    for name, raw in every_text():
        with fast_paths(False):
            strict = verdict(raw)
        with fast_paths(True):
            fast = verdict(raw)
        if fast != strict:
            wrong.append(f"{name}: fast {fast[0]}, strict {strict[0]}")
    assert not wrong, "\n".join(wrong[:30])


def test_the_tricky_texts_are_read_as_the_reference_reads_them() -> None:
    # The texts themselves, not only both paths alike: the reference's verdict on each one's JSON value.
    for name, raw in tricky_texts():
        if name == "duplicate discriminator":
            continue  # refused as text (a duplicate key) before any kind
        document = json.loads(raw)
        for enabled in (True, False):
            with fast_paths(enabled):
                assert outcome(copy.deepcopy(document)) is expected(document), (name, enabled)


# --- the kinds' yes or no, held to model_validate ----------------------------------------------------

MUTATION_VALUES: list[Any] = [None, "", "x", 0, -1, 1.5, True, [], ["x"], {}, {"a": 1}, "2026-03-02T15:00:00Z"]


@st.composite
def mutated_documents(draw: st.DrawFn) -> dict[str, Any]:
    """An example of any kind with a few of its top-level keys dropped, changed, added (other kinds' keys too) or
    made a timestamp of 1970."""
    documents = [load(path) for path in PAYLOAD_FILES]
    document: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(documents)))
    keys = top_level_keys()
    for _ in range(draw(st.integers(0, 3))):
        action = draw(st.sampled_from(["drop", "change", "add", "early", "early"]))
        stamps = sorted(key for key, value in document.items() if isinstance(value, str) and value[:2] == "20")
        if action == "early" and stamps:  # valid by the schema, and often before what it follows: a rule broken
            document[draw(st.sampled_from(stamps))] = "1970-01-01T00:00:00Z"
        elif action == "drop" and document:
            del document[draw(st.sampled_from(sorted(document)))]
        elif action == "change" and document:
            document[draw(st.sampled_from(sorted(document)))] = draw(st.sampled_from(MUTATION_VALUES))
        else:
            document[draw(st.sampled_from(keys))] = draw(st.sampled_from(MUTATION_VALUES))
    return document


@settings(max_examples=examples(quick=150, deep=1_500), deadline=None)
@given(document=mutated_documents())
def test_a_kinds_yes_or_no_is_model_validates_with_the_fast_paths_on_and_off(document: dict[str, Any]) -> None:
    # _schema_accepts asks the fail-fast validator alone with the fast paths on: the same answer, every kind.
    for kind in KINDS:
        try:
            kind.model.model_validate(copy.deepcopy(document), context=mm.SCHEMA_ONLY)
            accepted = True
        except ValidationError:
            accepted = False
        for enabled in (True, False):
            with fast_paths(enabled):
                assert _parse._schema_accepts(kind.model, document) is accepted, (kind.name, enabled)
    raw = json.dumps(document).encode()
    with fast_paths(False):
        strict = verdict(raw)
    with fast_paths(True):
        assert verdict(raw) == strict
