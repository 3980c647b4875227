"""The dialects of ``mplp_models.llm``: each provider's schema of a model, and the map between its answers and payloads.

One walk of the model's own JSON Schema (pydantic's, local ``$defs`` only)
makes both the dialect's schema and a ``Slot`` tree: what each place of the
dialect's document holds, so that an answer is read back into a payload and a
payload written out as an answer by the same facts. What a dialect cannot say
is left out of its schema (and told in the description): the models check it
on the way back in.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

if TYPE_CHECKING:
    from mplp_models._base import MplpModel

__all__ = [
    "ANTHROPIC_STRICT_LIMITS",
    "CHECKED_ON_RETURN",
    "DIALECTS",
    "PRESENT",
    "VALUE",
    "Dialect",
    "Field",
    "Profile",
    "Slot",
    "dialect_schema",
    "slots",
    "strict_load",
]

Dialect = Literal["openai", "anthropic", "gemini", "json-schema"]

PRESENT = "present"
VALUE = "value"
"""The two keys of the wrapper that carries an optional, nullable field in a dialect where every key is required."""

SlotKind = Literal["leaf", "object", "array", "text", "nullable"]
Absence = Literal["required", "omit", "null", "wrapped"]
# required: the key is always there. omit: an optional field is absent when its key is.
# null: every key is there, and null says "absent" (the field may not be null anyway).
# wrapped: every key is there, as {"present": bool, "value": ...} (the field may be null).


def _no_fields() -> dict[str, Field]:
    return {}


@dataclass(frozen=True)
class Slot:
    """What one place of a dialect's document holds."""

    kind: SlotKind
    fields: Mapping[str, Field] = field(default_factory=_no_fields)  # an object's
    item: Slot | None = None  # an array's items; the non-null side of a nullable


@dataclass(frozen=True)
class Field:
    """One property of a closed object: what it holds, and how the dialect says it is absent."""

    slot: Slot
    absence: Absence


LEAF = Slot("leaf")


@dataclass(frozen=True)
class Profile:
    """What one provider documents for its schemas (the tests hold each to the provider's pages)."""

    every_key_required: bool  # optional fields written as null (or wrapped) rather than left out
    open_as_text: bool  # open objects carried as a string of JSON text
    keywords: frozenset[str]  # the validation keywords kept; the others are checked on return
    formats: frozenset[str]
    ref_alone: bool  # a $ref may have no other keyword beside it
    min_items: frozenset[int] | None = None  # the only minItems values taken, when restricted


_STRUCTURE = frozenset({"type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "$ref"})

DIALECTS: dict[str, Profile] = {
    # https://platform.openai.com/docs/guides/structured-outputs#supported-schemas: "Supported string
    # properties: pattern, format" (the formats below), "Supported number properties: multipleOf, maximum,
    # exclusiveMaximum, minimum, exclusiveMinimum", "Supported array properties: minItems, maxItems".
    # minLength, maxLength and uniqueItems are not listed. openai-python's strict-schema helper
    # (to_strict_json_schema) inlines a $ref that has other keys beside it.
    "openai": Profile(
        every_key_required=True,
        open_as_text=True,
        keywords=_STRUCTURE
        | {"pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
        | {"minItems", "maxItems"},
        formats=frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}),
        ref_alone=True,
    ),
    # https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations,
    # which strict tool use shares: "String formats: date-time, time, date, duration, email, hostname, uri,
    # ipv4, ipv6, uuid", "Array minItems (only values 0 and 1 supported)"; not supported: "Numerical
    # constraints (minimum, maximum, multipleOf, etc.)", "String constraints (minLength, maxLength)",
    # "Array constraints beyond minItems of 0 or 1". pattern is taken for "simple regex patterns" only
    # ("Complex patterns may result in 400 errors", with no line drawn): none is sent.
    "anthropic": Profile(
        every_key_required=False,
        open_as_text=True,
        keywords=_STRUCTURE | {"format", "minItems"},
        formats=frozenset(
            {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
        ),
        ref_alone=False,
        min_items=frozenset({0, 1}),
    ),
    # https://ai.google.dev/api/generate-content#FIELDS.response_json_schema: "only the following
    # properties are supported: $id, $defs, $ref, $anchor, type, format, title, description, enum (for
    # strings and numbers), items, prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf
    # (interpreted the same as anyOf), properties, additionalProperties, required"; "If $ref is set on a
    # sub-schema, no other properties, except for than those starting as a $, may be set."
    # https://ai.google.dev/gemini-api/docs/structured-output: format "such as date-time, date, time".
    "gemini": Profile(
        every_key_required=False,
        open_as_text=True,
        keywords=_STRUCTURE | {"format", "minimum", "maximum", "minItems", "maxItems"},
        formats=frozenset({"date-time", "date", "time"}),
        ref_alone=True,
    ),
}

_PLAIN = Profile(
    every_key_required=False, open_as_text=False, keywords=frozenset(), formats=frozenset(), ref_alone=False
)
"""``json-schema``: the model's own schema, whose answers are the payloads themselves."""


def _source(model: type[MplpModel]) -> dict[str, Any]:
    schema: dict[str, Any] = model.model_json_schema()
    return schema


class _Walk:
    """One model's schema walked for one dialect: the dialect's schema and the slots, sharing each decision."""

    def __init__(self, model: type[MplpModel], profile: Profile) -> None:
        self.source = _source(model)
        self.defs: dict[str, Any] = self.source.get("$defs", {})
        self.profile = profile
        self.used: set[str] = set()

    def target(self, node: Mapping[str, Any]) -> tuple[str, Any]:
        name = str(node["$ref"]).rsplit("/", 1)[-1]
        return name, self.defs[name]

    def is_open(self, node: Mapping[str, Any]) -> bool:
        return node.get("type") == "object" and node.get("additionalProperties", True) is not False

    def is_closed_object(self, node: Mapping[str, Any]) -> bool:
        return node.get("type") == "object" and node.get("additionalProperties", True) is False

    # --- slots ---

    def slot(self, node: Mapping[str, Any]) -> Slot:
        if "$ref" in node:
            return self.slot(self.target(node)[1])
        members = node.get("anyOf")
        if members is not None:
            others = [member for member in members if member != {"type": "null"}]
            if len(others) == 1 and len(members) == 2:
                return Slot("nullable", item=self.slot(others[0]))
            return LEAF
        if self.is_open(node):
            return Slot("text") if self.profile.open_as_text else LEAF
        if self.is_closed_object(node):
            return self.object_slot(node)
        if node.get("type") == "array":
            return Slot("array", item=self.slot(node.get("items", {})))
        return LEAF

    def object_slot(self, node: Mapping[str, Any]) -> Slot:
        required = set(node.get("required", ()))
        fields = {
            name: Field(self.slot(member), self.absence(name in required, member))
            for name, member in node.get("properties", {}).items()
        }
        return Slot("object", fields=fields)

    def root_slot(self) -> Slot:
        # An open root (the event and learning-sample cores, their families) is asked for as its
        # declared fields: a dialect's root is an object, and the keys beyond them are optional.
        # (Where open objects are plain JSON, the json-schema dialect, the root is one too, extras and all.)
        if self.profile.open_as_text and self.is_open(self.source):
            return self.object_slot(self.source)
        return self.slot(self.source)

    def nullable(self, node: Mapping[str, Any]) -> bool:
        if "$ref" in node:
            return self.nullable(self.target(node)[1])
        return any(member == {"type": "null"} for member in node.get("anyOf", ()))

    def absence(self, required: bool, node: Mapping[str, Any]) -> Absence:
        if required:
            return "required"
        if not self.profile.every_key_required:
            return "omit"
        return "wrapped" if self.nullable(node) else "null"

    # --- the dialect's schema ---

    def schema(self) -> dict[str, Any]:
        if self.profile.open_as_text and self.is_open(self.source):  # see root_slot
            root = self.closed_object(self.source)
            note = "Keys beyond these are allowed in the payload, but not asked for here."
            root["description"] = " ".join(part for part in (self.source.get("description"), note) if part)
        else:
            root = self.convert(self.source)
        defs: dict[str, Any] = {}
        pending = sorted(self.used)
        converted: set[str] = set()
        while pending:  # a converted definition may use others
            name = pending.pop()
            if name in converted:
                continue
            converted.add(name)
            defs[name] = self.convert(self.defs[name])
            pending.extend(sorted(self.used - converted))
        if defs:
            root["$defs"] = dict(sorted(defs.items()))
        return root

    def convert(self, node: Mapping[str, Any]) -> dict[str, Any]:
        profile = self.profile
        if "$ref" in node:
            return self.reference(node)
        description = node.get("description")
        if "anyOf" in node:
            out: dict[str, Any] = {"anyOf": [self.convert(member) for member in node["anyOf"]]}
        elif self.is_open(node):
            return self.text(node)
        elif self.is_closed_object(node):
            out = self.closed_object(node)
        else:
            out = {}
            for key, value in node.items():
                if key == "items":
                    out["items"] = self.convert(value)
                elif key == "const":  # every dialect takes a one-value enum with its type
                    out["type"] = _json_type(value)
                    out["enum"] = [value]
                elif key in profile.keywords:
                    out[key] = value
            out = self.restrict(out)
        note = _dropped(node, out)
        text = " ".join(part for part in (description, note) if part)
        if text:
            out["description"] = text
        return out

    def restrict(self, out: dict[str, Any]) -> dict[str, Any]:
        profile = self.profile
        if "format" in out and out["format"] not in profile.formats:
            del out["format"]
        if profile.min_items is not None and out.get("minItems") not in (None, *profile.min_items):
            del out["minItems"]
        if "enum" in out and "type" not in out:
            out["type"] = _json_type(out["enum"][0])
        return out

    def reference(self, node: Mapping[str, Any]) -> dict[str, Any]:
        name, target = self.target(node)
        siblings = {key: value for key, value in node.items() if key != "$ref"}
        if not siblings or not self.profile.ref_alone:
            self.used.add(name)
            return {"$ref": f"#/$defs/{name}", **siblings}
        if self.is_closed_object(target):  # its definition says what it is
            self.used.add(name)
            return {"$ref": f"#/$defs/{name}"}
        inlined = self.convert({**target, **siblings})
        return inlined

    def closed_object(self, node: Mapping[str, Any]) -> dict[str, Any]:
        required = set(node.get("required", ()))
        properties: dict[str, Any] = {}
        for name, member in node.get("properties", {}).items():
            properties[name] = self.member(self.convert(member), self.absence(name in required, member))
        keys = list(properties) if self.profile.every_key_required else [n for n in properties if n in required]
        return {"type": "object", "properties": properties, "required": keys, "additionalProperties": False}

    def member(self, converted: dict[str, Any], absence: Absence) -> dict[str, Any]:
        if absence == "null":
            description = converted.pop("description", None) if "$ref" not in converted else None
            note = "null when left out."
            return {
                "anyOf": [converted, {"type": "null"}],
                "description": f"{description} {note}" if description else note,
            }
        if absence == "wrapped":
            return {
                "type": "object",
                "description": "An optional field that may be null: present false leaves it out (value null); "
                "present true gives value, null included.",
                "properties": {PRESENT: {"type": "boolean"}, VALUE: converted},
                "required": [PRESENT, VALUE],
                "additionalProperties": False,
            }
        return converted

    def text(self, node: Mapping[str, Any]) -> dict[str, Any]:
        parts = [node.get("description", ""), "A JSON object, written as JSON text in this string."]
        known = node.get("properties", {})
        if known:
            required = set(node.get("required", ()))
            names = ", ".join(f"{name} (required)" if name in required else name for name in known)
            parts.append(f"Its keys: {names}, and any others.")
        return {"type": "string", "description": " ".join(part for part in parts if part)}


CHECKED_ON_RETURN = (
    *("pattern", "minLength", "maxLength"),
    *("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
    *("minItems", "maxItems", "uniqueItems"),
)
"""The validation keywords a dialect may leave out: each one left out is said in words."""


def _dropped(node: Mapping[str, Any], out: Mapping[str, Any]) -> str:
    """The constraints of ``node`` that the dialect's schema does not carry, said in words for the model."""
    gone = [_said(key, node[key]) for key in CHECKED_ON_RETURN if key in node and key not in out]
    if "format" in node and "format" not in out:
        gone.append(f"format {node['format']}")
    return f"Must also have: {'; '.join(gone)}." if gone else ""


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string"


@functools.cache
def dialect_schema(model: type[MplpModel], dialect: Dialect) -> dict[str, Any]:
    """The schema of ``model`` in ``dialect`` (cached: callers copy it)."""
    if dialect == "json-schema":
        return _source(model)
    return _Walk(model, DIALECTS[dialect]).schema()


@functools.cache
def slots(model: type[MplpModel], dialect: Dialect) -> Slot:
    """What each place of an answer in ``dialect`` holds, from the root."""
    walk = _Walk(model, DIALECTS.get(dialect, _PLAIN))
    return walk.root_slot()


ANTHROPIC_STRICT_LIMITS: dict[str, int] = {"optional parameters": 24, "parameters with union types": 16}
"""Anthropic's explicit limits on the strict schemas of one request (JSON outputs and strict tools alike).

https://platform.claude.com/docs/en/build-with-claude/structured-outputs#schema-complexity-limits:
"Optional parameters: 24. Total optional parameters across all strict tool schemas and JSON output
schemas. Each parameter not listed in required counts toward this limit." "Parameters with union types:
16. Total parameters that use anyOf or type arrays [...] across all strict schemas."
"""


def strict_load(schema: Mapping[str, Any]) -> dict[str, int]:
    """What ``schema`` counts toward ``ANTHROPIC_STRICT_LIMITS``.

    The page does not say how a definition used in several places counts: each use is counted, the
    reading that never lets a schema through that the other reading refuses. A union is counted
    wherever it stands (a property, an item, a definition).
    """
    defs: Mapping[str, Any] = schema.get("$defs", {})
    load = dict.fromkeys(ANTHROPIC_STRICT_LIMITS, 0)

    def walk(found: object) -> None:
        if not isinstance(found, Mapping):
            return
        node = cast("Mapping[str, Any]", found)
        if "$ref" in node:
            walk(defs[str(node["$ref"]).rsplit("/", 1)[-1]])  # the dialects send no recursive schema
            return
        if "anyOf" in node or isinstance(node.get("type"), list):
            load["parameters with union types"] += 1
        required = set(node.get("required", ()))
        for name, member in node.get("properties", {}).items():
            load["optional parameters"] += name not in required
            walk(member)
        walk(node.get("items"))
        for member in node.get("anyOf", ()):
            walk(member)

    walk(schema)
    return load


def _said(keyword: str, value: object) -> str:
    return "no item twice" if keyword == "uniqueItems" else f"{keyword} {value}"
