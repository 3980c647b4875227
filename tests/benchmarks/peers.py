"""The contenders of the reading benchmark: this SDK and its peers, each a function of the JSON bytes.

Each peer is set up once, from the repository's schemas (which ``$ref`` each
other by ``$id``: every library gets them all, registered under their ids, and
never fetches anything), with format checks on. ``check`` then proves, before
anything is timed, that every contender accepts every payload and rejects a
broken one of each kind, so that a peer that silently validates nothing (an
unresolved reference, formats off) stops the run instead of winning it.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import fastjsonschema
import jsonschema_rs
import msgspec
import msgspec_models
import orjson
from jsonschema import Draft7Validator, FormatChecker
from payloads import KINDS, Payload, Probe
from referencing import Registry
from referencing.jsonschema import DRAFT7

import mplp_models as mm
from mplp_models._schemas import SCHEMA_FILES

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # the tests' reference date-time check
from reference_formats import is_rfc3339_date_time  # noqa: E402

SCHEMAS = ROOT / "schemas"
MODEL: dict[str, type[mm.MplpModel]] = {
    "plan": mm.Plan,
    "dialog": mm.Dialog,
    "trace": mm.Trace,
    "inbox": mm.InboxMessage,
    "learning": mm.LearningSample,
}
SCHEMA_FILE = {kind: SCHEMA_FILES[model.__name__] for kind, model in MODEL.items()}

Reader = Callable[[bytes], object]


@dataclass(frozen=True)
class Contender:
    """One way of reading bytes into a checked value, for every payload kind."""

    name: str  # as printed, and the key in the results
    what: str  # one line: what it does and gives
    readers: dict[str, Reader]  # kind -> function of the bytes; raises, or returns False, on a bad document
    sdk: bool = False  # this SDK (the rules apply to it) or a peer
    rules: bool = False  # applies the rules beyond the schemas


def schemas() -> dict[str, dict[str, Any]]:
    """Every schema of the repository that has an ``$id``, by it (the Cortex code mode's have none, and no ``$ref``)."""
    found = {}
    for path in sorted(SCHEMAS.rglob("*.schema.json")):
        schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        if "$id" in schema:
            found[schema["$id"]] = schema
    return found


def root_schema(kind: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((SCHEMAS / SCHEMA_FILE[kind]).read_text(encoding="utf-8"))
    return schema


# --- jsonschema: date-time ------------------------------------------------------
# jsonschema checks `date-time` only when rfc3339-validator is installed. When it
# is not, the tests' reference check stands in: RFC 3339 section 5.6, with real calendar dates.


def jsonschema_format_checker() -> tuple[FormatChecker, str]:
    checker = FormatChecker()  # every format jsonschema can check here
    if "date-time" in checker.checkers:
        return checker, "date-time by jsonschema's own checker (rfc3339-validator)"
    checker.checks("date-time")(is_rfc3339_date_time)
    return checker, "date-time by a calendar-exact RFC 3339 checker registered here (rfc3339-validator is absent)"


# --- the contenders -------------------------------------------------------------


def _sdk(semantic: bool) -> dict[str, Reader]:
    return {kind: functools.partial(model.from_json, semantic=semantic) for kind, model in MODEL.items()}


def _is_valid(validator: Any, raw: bytes) -> bool:
    return bool(validator.is_valid(orjson.loads(raw)))


def _false_on(error: type[BaseException], validate: Callable[[Any], object]) -> Reader:
    def read(raw: bytes) -> object:
        try:
            return validate(orjson.loads(raw))
        except error:
            return False

    return read


def contenders() -> tuple[list[Contender], dict[str, str]]:
    """The contenders, this SDK first, and notes on how each peer was set up."""
    store = schemas()
    notes: dict[str, str] = {}

    # jsonschema: a referencing.Registry of every schema by $id; Draft7Validator with format checks.
    registry: Registry[Any] = Registry().with_resources(
        (uri, DRAFT7.create_resource(schema)) for uri, schema in store.items()
    )
    checker, notes["jsonschema"] = jsonschema_format_checker()
    js = {kind: Draft7Validator(root_schema(kind), registry=registry, format_checker=checker) for kind in KINDS}

    # jsonschema-rs: a jsonschema_rs.Registry of every schema by $id; draft 7, formats validated.
    rs_registry = jsonschema_rs.Registry(list(store.items()), draft=jsonschema_rs.Draft7)
    rs = {
        kind: jsonschema_rs.Draft7Validator(root_schema(kind), validate_formats=True, registry=rs_registry)
        for kind in KINDS
    }
    notes["jsonschema-rs"] = "Draft7Validator(validate_formats=True) with a Registry of every schema by $id"

    # fastjsonschema: compiled once per kind; references by $id are answered from the same store.
    def handler(uri: str) -> dict[str, Any]:
        return store[uri]  # a KeyError, not a download, for anything else

    fjs = {kind: fastjsonschema.compile(root_schema(kind), handlers={"https": handler}) for kind in KINDS}
    notes["fastjsonschema"] = "compiled once per schema, formats on, $ref answered from the repository's schemas"

    # msgspec: typed decode into Structs with the same constraints (see msgspec_models).
    decoders = {kind: msgspec.json.Decoder(struct) for kind, struct in msgspec_models.TYPE_OF.items()}
    notes["msgspec"] = (
        "msgspec.json.Decoder(Struct) on Structs with the schemas' fields and constraints (msgspec_models.py)"
    )

    found = [
        Contender(
            "from_json", "Model.from_json: strict JSON, schema, rules; a typed model", _sdk(True), sdk=True, rules=True
        ),
        Contender(
            "from_json schema-only",
            "Model.from_json(semantic=False): strict JSON, schema; a typed model",
            _sdk(False),
            sdk=True,
        ),
        Contender(
            "parse",
            "mplp_models.parse: tells the kind, then as from_json",
            dict.fromkeys(KINDS, mm.parse),
            sdk=True,
            rules=True,
        ),
        Contender(
            "msgspec",
            "msgspec.json.decode into Structs: schema constraints but uniqueItems; typed Structs",
            {kind: decoder.decode for kind, decoder in decoders.items()},
        ),
        Contender(
            "fastjsonschema",
            "orjson.loads + compiled validator: schema; plain dicts",
            {kind: _false_on(fastjsonschema.JsonSchemaException, fjs[kind]) for kind in KINDS},
        ),
        Contender(
            "jsonschema-rs",
            "orjson.loads + Rust validator: schema; plain dicts, no typed objects",
            {kind: functools.partial(_is_valid, rs[kind]) for kind in KINDS},
        ),
        Contender(
            "jsonschema",
            "orjson.loads + Draft7Validator: schema; plain dicts",
            {kind: functools.partial(_is_valid, js[kind]) for kind in KINDS},
        ),
    ]
    return found, notes


def accepts(contender: Contender, kind: str, raw: bytes) -> bool:
    """Whether the contender takes the document: no exception, and not False."""
    try:
        return contender.readers[kind](raw) is not False
    except (ValueError, msgspec.DecodeError):
        return False  # pydantic's ValidationError is a ValueError; anything else is a setup error, and raises


def check(found: list[Contender], timed: list[Payload], ndjson: list[tuple[str, bytes]]) -> None:
    """Stop the run unless every contender accepts every payload, and refuses a broken one of each kind."""
    problems = []
    samples = [(p.kind, p.name, p.raw) for p in timed]
    samples += [(kind, f"NDJSON {kind} line", line) for kind, line in dict(reversed(ndjson)).items()]
    for contender in found:
        for kind, name, raw in samples:
            if not accepts(contender, kind, raw):
                problems.append(f"{contender.name} refuses the valid {name}")
        for kind in KINDS:
            raw = next(p.raw for p in timed if p.kind == kind)
            # A broken date-time in a $ref'd schema, and a broken id pattern, each
            # on its own: formats and references are both really checked.
            for broken, what in ((_break_date_time(kind, raw), "date-time"), (_break_pattern(kind, raw), "pattern")):
                if accepts(contender, kind, broken):
                    problems.append(f"{contender.name} accepts a {kind} with a broken {what}")
    if problems:
        raise SystemExit("The contenders are not set up right:\n  " + "\n  ".join(problems))


def _break_date_time(kind: str, raw: bytes) -> bytes:
    value = json.loads(raw)
    no_offset = "2026-03-01T09:00:00"
    if kind == "plan":
        value["meta"]["created_at"] = no_offset  # in metadata.schema.json, by $ref
    elif kind == "dialog":
        value["messages"][0]["timestamp"] = no_offset
    elif kind == "trace":
        value["segments"][0]["started_at"] = no_offset
    elif kind == "inbox":
        value["created_at"] = no_offset
    else:
        value["timestamps"]["started_at"] = no_offset
    return json.dumps(value).encode()


def _break_pattern(kind: str, raw: bytes) -> bytes:
    value = json.loads(raw)
    if kind == "plan":
        value["steps"][0]["step_id"] = "X" + value["steps"][0]["step_id"][1:]  # in identifiers.schema.json, by $ref
    elif kind == "dialog":
        value["governance"]["lastConfirmRef"]["id"] = "not-a-uuid"
    elif kind == "trace":
        value["segments"][0]["segment_id"] = "X" + value["segments"][0]["segment_id"][1:]
    elif kind == "inbox":
        value["message_id"] = "XM-1"
    else:
        value["sample_id"] = "X" + value["sample_id"][1:]
    return json.dumps(value).encode()


def exactness(found: list[Contender], probes: list[Probe]) -> list[dict[str, Any]]:
    """Which contender accepts which probe, and whether that is the right answer for it."""
    rows = []
    for probe in probes:
        answers = {}
        for contender in found:
            accepted = accepts(contender, probe.kind, probe.raw)
            expected = probe.rules_accept if contender.rules else probe.schema_accepts
            answers[contender.name] = {"accepts": accepted, "right": None if expected is None else accepted == expected}
        rows.append(
            {
                "probe": probe.name,
                "kind": probe.kind,
                "schema_accepts": probe.schema_accepts,
                "rules_accept": probe.rules_accept,
                "answers": answers,
            }
        )
    return rows
