"""Generate ``src/mplp_models/_generated/`` from ``schemas/``.

    python codegen/generate.py           # regenerate in place
    python codegen/generate.py --check   # regenerate into a temporary folder; exit 1 on any difference
    (--target DIR: write or check another folder than src/mplp_models/_generated)

The run is deterministic: the same schemas, flags, template and pinned generator
(``datamodel-code-generator==0.89.0``, in pyproject's ``dev`` extra) give the same
bytes. Before the generator sees the schemas, a copy of them is prepared (the
files under ``schemas/`` stay verbatim):

* A draft 2020-12 schema (the Cortex code mode's) is read like the draft-07
  ones; a keyword of it that draft-07 does not have (``prefixItems``,
  ``unevaluatedProperties``, ``$dynamicRef``...) fails the run.
* A ``default`` other than ``null`` fails the run, naming the schema and the
  JSON Pointer. The models keep an absent field absent and hold ``None`` for it,
  and the proof of ``from_json``'s fast path counts on that (an unset field
  written back as ``"name":null``; see ``mplp_models._fast_shapes.fast_path_problems``):
  a default such as ``"0000:0000"`` would hide a duplicate key from it.
* ``$defs`` that nothing references are dropped. The MPLP module schemas carry a
  copy of their root object (``*_core_properties``) that no ``$ref`` names; the
  generator would turn it into a dead class.
* The ``governance`` block that every MPLP module but Plan repeats is made one
  definition that each module refers to, for one ``Governance`` class.
* A ``pattern``'s ``\\d`` is written ``[0-9]``, the ASCII digits of ECMA-262.
* A root ``allOf`` of a core file and a family part (the event and learning-sample
  families) is merged into one object schema (``merged_all_of``, ``merge``), after the
  descriptions (whose pointers may address ``/allOf/1/...``) and before the open objects
  are prepared: the family's own fields, enums and required keys survive, and a
  ``const`` inside the core's ``enum`` is that ``const``.
* ``format: uuid`` and ``uri`` are dropped from the prepared copy: the models keep the sender's
  text, with no format check (``uuid`` is no draft-07 format; the reference validator asserts
  ``uri`` only with an optional package). ``format: email``, which it asserts, is
  ``mplp_models._formats.EmailText``. A string ``const`` becomes ``Literal["x"]``.
* Properties that the schema leaves undescribed get the description of
  ``codegen/descriptions.json`` (for the IDE hover); any property still without
  one fails the run.
* Leaf keywords that Pydantic's own types get wrong are mapped onto the exact
  types of ``mplp_models._types`` with the generator's ``customTypePath``:
  ``format: date-time`` -> ``Timestamp``, ``integer`` -> ``JsonInt``,
  ``number`` -> ``JsonNumber``, ``const: 1`` -> ``ConstOne``, a string with no
  other constraint -> ``JsonText`` (refuses a lone surrogate), and an object with
  no declared properties (an open object) -> ``JsonObject``. A bounded integer
  or number names its bounds (``minimum: 0`` -> ``JsonIntMin0``): those types
  check the bounds in the core schema, where ``Field(ge=...)`` on them would
  cost a Python call per value.

The template in ``codegen/templates`` adds three markers to field annotations:
``NotNull`` on optional fields whose schema does not admit ``null``,
``UniqueItems`` on ``uniqueItems`` arrays and ``Ordered`` on every array (no set
or dict view from Python). After the generator, the source is rewritten: enums on
``StatusEnum``, arrays as tuples, an ``XValue`` literal alias after each enum,
and in each model a ``TYPE_CHECKING``-only ``__init__`` typed as the run time
reads Python (``constructors``). Every class the run writes must carry a name
chosen in ``codegen/names.json`` (an ``XValue`` is named after its enum); any
other name fails the run.
"""

from __future__ import annotations

import argparse
import ast
import copy
import filecmp
import functools
import hashlib
import importlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from mplp_models._types import UUID4_PATTERN  # the one pattern the MplpIdText type asserts

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
TARGET = ROOT / "src" / "mplp_models" / "_generated"
CODEGEN = ROOT / "codegen"
TYPES = "mplp_models._types"
FACTS = "mplp_models._fast_shapes.Facts"

GENERATOR_FLAGS = [
    "--input-file-type",
    "jsonschema",
    "--output-model-type",
    "pydantic_v2.BaseModel",
    "--target-python-version",
    "3.10",
    "--target-pydantic-version",
    "2.11",
    "--base-class",
    "mplp_models._base.MplpModel",
    "--base-class-map",
    str(CODEGEN / "bases.json"),
    "--formatters",
    "builtin",
    "--disable-timestamp",
    "--use-annotated",
    "--field-constraints",
    "--use-type-alias",
    "--use-subclass-enum",
    "--strict-types",
    "str",
    "bool",
    "--naming-strategy",
    "full-path",
    "--use-schema-description",
    "--use-field-description",
    "--use-double-quotes",
    "--keep-model-order",
    "--additional-imports",
    f"typing.TYPE_CHECKING,typing.Annotated,typing.ClassVar,typing.Literal,typing.TypeAlias,pydantic.Field,"
    f"{TYPES}.JsonInputValue,{TYPES}.JsonObjectInput,{TYPES}.NotNull,{TYPES}.Ordered,{TYPES}.StatusEnum,"
    f"{TYPES}.UniqueItems,"
    f"{FACTS}",
    "--custom-template-dir",
    str(CODEGEN / "templates"),
    "--model-name-map",
    str(CODEGEN / "names.json"),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if _generated/ differs from a fresh run")
    parser.add_argument("--target", type=Path, default=TARGET, help="the generated package to write or check")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mplp-codegen-") as tmp:
        out = Path(tmp) / "_generated"
        generate(Path(tmp) / "schemas", out)
        if args.check:
            return check(out, args.target)
        if args.target.exists():
            shutil.rmtree(args.target)
        shutil.copytree(out, args.target)
    print(f"wrote {args.target}")
    return 0


def generate(prepared: Path, out: Path) -> None:
    """Prepare a copy of the schemas in ``prepared`` and generate the models into ``out``."""
    digests: dict[str, str] = {}
    descriptions = json.loads((CODEGEN / "descriptions.json").read_text(encoding="utf-8"))
    for source in sorted(SCHEMAS.rglob("*.schema.json")):
        relative = source.relative_to(SCHEMAS).as_posix()
        raw = source.read_bytes()
        digests[relative] = hashlib.sha256(raw).hexdigest()
        destination = prepared / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        schema = json.loads(raw)
        refuse_defaults(schema, relative)  # reads only
        refuse_newer_keywords(schema, relative)  # reads only
        # Dead $defs go first: a property that only they hold needs no description. The allOf merge
        # comes after the descriptions, whose pointers address the file as it is (/allOf/1/...).
        schema = describe(without_dead_defs(schema), descriptions.get(relative, {}), relative)
        schema = merged_all_of(schema, source, descriptions)
        destination.write_text(json.dumps(prepare(shared_governance(schema, relative)), indent=2), encoding="utf-8")
    command = [sys.executable, "-m", "datamodel_code_generator", "--input", str(prepared), "--output", str(out)]
    result = subprocess.run(command + GENERATOR_FLAGS, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"datamodel-codegen failed:\n{result.stderr}")
    sources = {
        path: status_enums(with_header(path.read_text(encoding="utf-8"), path.relative_to(out), digests))
        for path in sorted(out.rglob("*.py"))
    }
    inputs = input_names(sources.values())
    kinds = field_kinds(sources.values())
    for path, text in sources.items():
        typed = arrays_as_tuples(value_aliases(text))
        path.write_text(published(built_now(with_facts(constructors(typed, inputs), kinds))), encoding="utf-8")
    check_names(out)


def describe(schema: dict[str, Any], extra: dict[str, str], name: str) -> dict[str, Any]:
    """Add the descriptions of codegen/descriptions.json; fail on a property that has none."""
    for pointer, text in extra.items():
        node: Any = schema
        for part in filter(None, pointer.split("/")):  # "" is the root (RFC 6901)
            part = part.replace("~1", "/").replace("~0", "~")
            node = node[int(part)] if isinstance(node, list) else node[part]  # /allOf/1/... is a branch
        if "description" in node:
            raise SystemExit(f"{name}{pointer} has its own description: drop it from codegen/descriptions.json")
        node["description"] = text
    for node in walk(schema):
        for key, member in (node.get("properties") or {}).items():
            if "description" not in member:
                raise SystemExit(f"{name}: property {key!r} has no description (add one to codegen/descriptions.json)")
    return schema


DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
# Draft 2020-12 keywords with no draft-07 meaning, which this pipeline has not been proven on.
NEWER_KEYWORDS = frozenset(
    {
        "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "prefixItems",
        "unevaluatedItems", "unevaluatedProperties", "dependentSchemas", "dependentRequired", "minContains",
        "maxContains",
    }
)  # fmt: skip


def refuse_newer_keywords(schema: dict[str, Any], name: str) -> None:
    """Fail on a draft 2020-12 schema (the Cortex code mode's) that uses a keyword draft-07 does not have.

    Such a schema goes through the same preparation as the draft-07 files, and the
    generator reads it alike: sound while it keeps to the keywords both drafts share.
    """
    if schema.get("$schema") != DRAFT_2020_12:
        return
    for node in walk(schema):
        found = sorted(NEWER_KEYWORDS & node.keys())
        if found:
            raise SystemExit(f"{name}: draft 2020-12 keyword {found[0]} is not handled by codegen/generate.py")


# Keywords whose value maps names onto subschemas: a member named "default" there is a name, not the keyword.
NAME_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependencies")
# Keywords whose value is data, not a schema: never searched.
DATA = ("default", "const", "enum", "examples")


def refuse_defaults(schema: Any, name: str, pointer: str = "") -> None:
    """Fail on a ``default`` keyword other than ``null`` anywhere in ``schema`` (see the module docstring)."""
    if isinstance(schema, list):
        for index, item in enumerate(schema):
            refuse_defaults(item, name, f"{pointer}/{index}")
        return
    if not isinstance(schema, dict):
        return
    if schema.get("default", None) is not None:
        raise SystemExit(
            f"{name}#{pointer}: default {json.dumps(schema['default'])}: the models hold None for an absent field,"
            " and the proof of from_json's fast path counts on it (only `default: null` is allowed)"
        )
    for key, value in schema.items():
        if key in NAME_MAPS and isinstance(value, dict):
            for member, subschema in value.items():
                refuse_defaults(subschema, name, f"{pointer}/{escape(key)}/{escape(member)}")
        elif key not in DATA:
            refuse_defaults(value, name, f"{pointer}/{escape(key)}")


def escape(part: str) -> str:
    """A JSON Pointer reference token (RFC 6901)."""
    return part.replace("~", "~0").replace("/", "~1")


def merged_all_of(schema: dict[str, Any], source: Path, descriptions: dict[str, Any]) -> dict[str, Any]:
    """A root ``allOf`` (a family schema on its core) made one object schema, so that the family's fields survive.

    The generator would make the core's open ``input``/``output`` one loose
    object and the family's own fields and enums would be lost. Each branch is an
    object schema or a ``$ref`` to a sibling file (read, described, and merged
    the same way); ``merge`` says why the result means what the ``allOf`` means.
    The family's own ``$id``, title and description stay at the root.
    """
    branches = schema.get("allOf")
    if branches is None:
        return schema
    merged: dict[str, Any] = {}
    for branch in branches:
        if "$ref" in branch:
            reference = branch["$ref"]
            if set(branch) != {"$ref"} or "#" in reference or "/" in reference:
                raise SystemExit(f"{source.name}: allOf branch {branch}: only a whole sibling file is merged")
            target = source.parent / reference
            relative = target.relative_to(SCHEMAS).as_posix()
            core = describe(
                without_dead_defs(json.loads(target.read_bytes())), descriptions.get(relative, {}), relative
            )
            branch = merged_all_of(core, target, descriptions)
        merged = merge(merged, branch, source.name)
    root = {key: value for key, value in schema.items() if key != "allOf"}
    body = {key: value for key, value in merged.items() if key not in ROOT_ONLY}
    return {**root, **body, **{key: root[key] for key in ("title", "description") if key in root}}


# What names a schema file or says where it came from: the family's own, never the core's.
ROOT_ONLY = ("$comment", "$schema", "$id", "title", "x-mplp-meta", "$defs", "definitions")


def merge(first: dict[str, Any], second: dict[str, Any], name: str) -> dict[str, Any]:
    """One schema that accepts exactly what both accept (for the shapes these schemas have; any other fails the run).

    An instance satisfies two object schemas with open ``additionalProperties``
    iff it has the union of their ``required`` keys and each property satisfies
    both property schemas: properties merge one by one, recursively. Two leaves
    merge when they agree on every keyword but the annotations (the second's
    description wins: the family says it more precisely); a ``const`` inside the
    other's ``enum`` means the ``const`` alone. A closed object
    (``additionalProperties`` other than ``true``) fails the run: the other
    schema's properties would be extra keys to it, which a merge cannot keep.
    """
    out = dict(first)
    for key, value in second.items():
        if key not in out:
            out[key] = value
        elif key == "properties":
            out[key] = {
                **out[key],
                **{
                    member: merge(out[key][member], schema, name) if member in out[key] else schema
                    for member, schema in value.items()
                },
            }
        elif key == "required":
            out[key] = [*out[key], *(member for member in value if member not in out[key])]
        elif key in ("description", "title", "examples"):
            out[key] = value
        elif out[key] != value:
            raise SystemExit(f"{name}: allOf branches disagree on {key!r} ({out[key]!r} / {value!r}): merge by hand")
    for side in (first, second):
        if side.get("additionalProperties", True) is not True and ("properties" in first and "properties" in second):
            raise SystemExit(f"{name}: allOf over a closed object cannot be merged into one model")
    if "const" in out and "enum" in out:
        if out["const"] not in out["enum"]:
            raise SystemExit(f"{name}: const {out['const']!r} is not in its enum: nothing is valid")
        del out["enum"]
    return out


GOVERNANCE_HOME = "mplp/v1.0/common/common-types.schema.json"
GOVERNANCE_SOURCE = "mplp/v1.0/mplp-dialog.schema.json"


@functools.cache
def governance_block() -> dict[str, Any]:
    """The Dialog schema's ``governance`` block, read once (never changed: the prepared copies are new objects)."""
    return json.loads((SCHEMAS / GOVERNANCE_SOURCE).read_text(encoding="utf-8"))["properties"]["governance"]


def shared_governance(schema: dict[str, Any], relative: str) -> dict[str, Any]:
    """The ``governance`` block, which every MPLP module schema repeats word for word, made one class.

    The block is defined once in the prepared ``common-types`` (as
    ``definitions/Governance``) and each module's copy becomes a ``$ref`` to it,
    so that one ``Governance`` class serves every module. A module whose block
    differs from the Dialog schema's fails the run rather than being merged.
    """
    block = governance_block()
    if relative == GOVERNANCE_HOME:
        home = json.loads(json.dumps(block).replace('"common/common-types.schema.json#/', '"#/'))
        schema = {**schema, "definitions": {**schema["definitions"], "Governance": home}}
        return schema
    own = (schema.get("properties") or {}).get("governance")
    if own is None or not relative.startswith("mplp/v1.0/mplp-"):
        return schema
    if {**own, "description": block["description"]} != block:
        raise SystemExit(f"{relative}: its governance block is not the shared one; name its own class")
    reference = {"$ref": "common/common-types.schema.json#/definitions/Governance", "description": own["description"]}
    return {**schema, "properties": {**schema["properties"], "governance": reference}}


def prepare(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema as the generator should see it (see the module docstring)."""
    schema = without_dead_defs(copy.deepcopy(schema))
    for node in walk(schema):
        map_leaf_type(node)
    return schema


def without_dead_defs(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (changed in place) without the ``$defs`` that nothing references."""
    text = json.dumps(schema)
    defs = schema.get("$defs", {})
    for name in sorted(defs):
        if f'"#/$defs/{name}"' not in text:
            del defs[name]
    return schema


def walk(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def map_leaf_type(node: dict[str, Any]) -> None:
    # `examples` (the integration schemas' sample values) is an annotation: the schema file keeps it,
    # the models' JSON Schema (what the LLM dialects are made from) keeps to the keywords they know.
    if isinstance(node.get("examples"), list):  # a list: the keyword, not a property named "examples"
        del node["examples"]
    if "pattern" in node:
        node["pattern"] = ecma_digits(node["pattern"])
    if node.get("format") in SENDERS_TEXT_FORMATS:
        node.pop("format")  # then a plain string: JsonText below
    custom = None
    if "const" in node and isinstance(node["const"], str) and node.get("type", "string") == "string":
        node["type"] = "string"  # the generator writes Literal["x"], which pydantic matches with that str only
        return
    if "const" in node:
        # The generator would write Literal[1], which Pydantic also matches with True.
        if node.pop("const") != 1 or node.get("type") not in (None, "integer", "number"):
            raise SystemExit(f"no exact type for this const: add one to {TYPES}")
        custom = "ConstOne"
    elif node.get("format") in ASSERTED_FORMATS:
        custom = ASSERTED_FORMATS[node["format"]]
    elif node.get("type") == "string" and node.get("pattern") == UUID4_PATTERN:
        node.pop("pattern")
        custom = "MplpIdText"
    elif _plain_string(node):
        custom = "JsonText"
    elif node.get("type") == "integer":
        custom = bounded("JsonInt", node)
    elif node.get("type") == "number":
        custom = bounded("JsonNumber", node)
    elif node.get("type") == "object" and "properties" not in node and node.get("additionalProperties", True) is True:
        custom = "JsonObject"
    if custom is None:
        return
    kinds = node.get("type")
    if isinstance(kinds, list) and "null" in kinds:
        # A custom type hides the null of a type list from the generator: spell it as a union.
        rest = [kind for kind in kinds if kind != "null"]
        inner = {key: node.pop(key) for key in list(node) if key not in ("description", "title")}
        inner["type"] = rest[0] if len(rest) == 1 else rest
        inner["customTypePath"] = _type_path(custom)
        node["anyOf"] = [inner, {"type": "null"}]
    else:
        node["customTypePath"] = _type_path(custom)


def _type_path(custom: str) -> str:
    """The dotted path of an exact type: a bare name is one of ``mplp_models._types``."""
    return custom if "." in custom else f"{TYPES}.{custom}"


def _plain_string(node: dict[str, Any]) -> bool:
    """A string that only its type constrains: pydantic's ``StrictStr`` would keep a lone surrogate (no UTF-8 form)."""
    kinds = node.get("type")
    strings = kinds == "string" or (isinstance(kinds, list) and sorted(kinds) == ["null", "string"])
    return strings and not any(key in node for key in ("pattern", "minLength", "maxLength", "format", "enum", "const"))


def ecma_digits(pattern: str) -> str:
    """``pattern`` with ``\\d`` spelled ``[0-9]``: ECMA-262's ``\\d`` is ASCII, pydantic-core's any script's digits.

    A ``\\d`` inside a character class (none in these schemas) fails the run rather than being guessed at.
    """
    in_class = escaped = False
    out: list[str] = []
    for char in pattern:
        if escaped:
            escaped = False
            if char == "d":
                if in_class:
                    raise SystemExit(f"\\d inside a character class in {pattern!r}: spell it out in generate.py")
                out[-1] = "[0-9]"
                continue
        elif char == "\\":
            escaped = True
        elif char in "[]":
            in_class = char == "["
        out.append(char)
    return "".join(out)


# Kept as the sender's text with the draft-07 meaning: `uuid` is no draft-07 format (validators ignore it, and
# upstream's own examples use ids like evt-flow01-...); the reference validator asserts `uri` only with an
# optional package it does not require (mplp_models._formats). Pydantic's UUID and AnyUrl would check them, and
# rewrite what they accept (uppercase ids, a host's case, a trailing slash), so a payload would not come back as
# it was sent.
SENDERS_TEXT_FORMATS = ("uuid", "uri")
# The formats the reference validator asserts, onto the types that assert them as it does (a bare name: in TYPES).
ASSERTED_FORMATS = {"date-time": "Timestamp", "email": "mplp_models._formats.EmailText"}
BOUNDS = {"minimum": "Min", "maximum": "Max"}


def bounded(base: str, node: dict[str, Any]) -> str:
    """The name of the exact type for a number node, its bounds taken out of the node into the name."""
    name = base
    for keyword, word in BOUNDS.items():
        if keyword in node:
            value = node.pop(keyword)
            if type(value) is not int or value < 0:
                raise SystemExit(f"no exact type for {keyword} {value!r}: add one to {TYPES}")
            name += f"{word}{value}"
    if any(keyword in node for keyword in ("exclusiveMinimum", "exclusiveMaximum", "multipleOf")):
        raise SystemExit(f"no exact type for the bounds of {node}: add one to {TYPES}")
    if not hasattr(importlib.import_module(TYPES), name):
        raise SystemExit(f"{TYPES} has no {name}: add it")
    return name


HEADER = re.compile(r"\A# generated by datamodel-codegen:\n(?:#   filename:\s+(?P<file>\S+)\n)?")


def with_header(source: str, relative: Path, digests: dict[str, str]) -> str:
    match = HEADER.match(source)
    if match is None:
        raise SystemExit(f"{relative}: unexpected generator header")
    schema = match.group("file")
    if schema not in digests:  # a package __init__: the generator names the input folder
        line = f"# Generated by codegen/generate.py, do not edit: package {relative.parent.as_posix() or '.'}."
    else:
        line = f"# Generated by codegen/generate.py, do not edit: from schemas/{schema} (sha256 {digests[schema]})."
    # The markers are imported into every module, whether it uses them or not.
    return line + "\n# pyright: reportUnusedImport=false\n" + source[match.end() :]


def built_now(source: str) -> str:
    """Each model class built at import, not at its first use.

    A class that names a class defined after it (an enum, say) cannot be built
    where it stands; pydantic would build it on first use, and until then its
    signature and JSON Schema are incomplete (``inspect.signature`` shows no fields).
    """
    models = re.findall(r"^class (\w+)\(.*frozen=True\):", source, re.MULTILINE)
    if not models:
        return source
    lines = "".join(f"{name}.model_rebuild()\n" for name in models)
    return (
        source.rstrip("\n")
        + "\n\n# Built now rather than at first use: a class may name one defined after it.\n"
        + lines
    )


def published(source: str) -> str:
    """The public classes shown as ``mplp_models.X``, last (``mplp_models._public.publish``).

    Their ``__module__`` then names the package rather than this private module
    (reprs, tracebacks, ``help()``, pickles); ``publish`` first evaluates their
    annotations here, where the names they use are, after the builds above.
    """
    if not re.search(r"^class ", source, re.MULTILINE):
        return source
    return (
        source.rstrip("\n")
        + "\n\n# Shown as mplp_models.<name> from here on, the annotations evaluated first (see publish).\n"
        + "from mplp_models._public import publish  # noqa: E402\n\n"
        + "publish(__name__)\n"
    )


def status_enums(source: str) -> str:
    """The str-valued enums based on ``StatusEnum``, which renders a member as its value on every Python."""
    source = source.replace("(str, Enum):", "(StatusEnum):")
    if "Enum)" not in source.replace("(StatusEnum)", ""):
        source = source.replace("from enum import Enum\n", "")
    return source


def value_aliases(source: str) -> str:
    """After each ``X(StatusEnum)`` class, ``XValue``: a ``Literal`` of its values in their declared order.

    Python callers may pass an enum field, or a transition, the member or its
    value; the alias lets the type checkers take the value and refuse a typo.
    """
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    for node in reversed(tree.body):  # from the end, so earlier line numbers stay true
        if not (isinstance(node, ast.ClassDef) and [ast.unparse(base) for base in node.bases] == ["StatusEnum"]):
            continue
        values = [
            statement.value.value
            for statement in node.body
            if isinstance(statement, ast.Assign)
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
        ]
        if not values or len(values) != len([s for s in node.body if isinstance(s, ast.Assign)]):
            raise SystemExit(f"enum {node.name}: every member must be a string value")
        literal = ", ".join(json.dumps(value) for value in values)
        alias = (
            f"\n\n{node.name}Value: TypeAlias = Literal[{literal}]\n"
            f'"""The values of ``{node.name}``, which a constructor or a transition takes as well as its members."""\n'
        )
        end = node.end_lineno
        assert end is not None
        lines.insert(end, alias)
    return "".join(lines)


def arrays_as_tuples(source: str) -> str:
    """Every ``list[X]`` written as ``tuple[X, ...]``: a model is frozen, and so are the arrays it holds.

    The generator has no flag for it. Each ``list[`` is matched to its closing
    bracket, so nested types keep their own brackets.
    """
    parts: list[str] = []
    position = 0
    while (start := source.find("list[", position)) != -1:
        if start > 0 and (source[start - 1].isalnum() or source[start - 1] in "_."):
            parts.append(source[position : start + 5])  # part of a longer name
            position = start + 5
            continue
        end = closing_bracket(source, start + 4)
        parts.append(source[position:start] + "tuple[" + arrays_as_tuples(source[start + 5 : end]) + ", ...]")
        position = end + 1
    parts.append(source[position:])
    return "".join(parts)


def closing_bracket(source: str, opening: int) -> int:
    depth = 0
    for index in range(opening, len(source)):
        depth += {"[": 1, "]": -1}.get(source[index], 0)
        if depth == 0:
            return index
    raise SystemExit("unbalanced brackets in the generated code")


# What a constructor takes for a leaf type, where it is not the type itself (see ``constructors``).
TEXT_INPUTS = {"Timestamp": "str", "JsonText": "str", "EmailText": "str", "StrictStr": "str", "StrictBool": "bool",
               "MplpIdText": "str"}  # fmt: skip
NUMBER_INPUTS = {"JsonInt": "int", "JsonNumber": "float"}


def input_names(sources: Iterable[str]) -> dict[str, str]:
    """The input type of every generated enum (``X | XValue``) and text alias (``str``), by bare name."""
    inputs: dict[str, str] = {}
    for source in sources:
        for node in ast.parse(source).body:
            if isinstance(node, ast.ClassDef) and [ast.unparse(base) for base in node.bases] == ["StatusEnum"]:
                inputs[node.name] = "{0}" + node.name + " | {0}" + node.name + "Value"
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                # name = TypeAliasType("name", Annotated[<text type>, ...]) or TypeAliasType("name", other_alias)
                value = node.value.args[1]
                inner = value.slice.elts[0] if isinstance(value, ast.Subscript) else value  # type: ignore[attr-defined]
                name = ast.unparse(inner).rsplit(".", 1)[-1]
                if name in TEXT_INPUTS or name in ("MplpId", "CommonMplpId"):
                    inputs[node.targets[0].id] = "str"  # type: ignore[attr-defined]
    return inputs


def input_type(node: ast.expr, inputs: dict[str, str]) -> str:
    """What a constructor takes for a field annotated ``node``: what the run time reads from Python, typed.

    An enum: the member or its value. An array (a ``tuple[X, ...]`` attribute):
    a list or a tuple of X's input (not ``Sequence``: a str is a sequence of str,
    and the run time refuses one). Text types, timestamps and ids: ``str``.
    Numbers: ``int`` or ``float``. An open object: ``JsonObjectInput`` (its arrays
    may be lists or tuples). A model: the model.
    """
    if isinstance(node, ast.Subscript) and ast.unparse(node.value) == "Annotated":
        return input_type(node.slice.elts[0], inputs)  # type: ignore[attr-defined]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return f"{input_type(node.left, inputs)} | {input_type(node.right, inputs)}"
    if isinstance(node, ast.Subscript) and ast.unparse(node.value) == "tuple":
        item = input_type(node.slice.elts[0], inputs)  # type: ignore[attr-defined]
        return f"list[{item}] | tuple[{item}, ...]"
    name = ast.unparse(node)
    prefix, _, bare = name.rpartition(".")
    if bare in inputs:
        return inputs[bare].format(prefix + "." if prefix else "")
    if bare in TEXT_INPUTS:
        return TEXT_INPUTS[bare]
    if bare == "JsonObject":
        return "JsonObjectInput"
    if bare == "ConstOne":
        return "Literal[1]"
    for base, python in NUMBER_INPUTS.items():
        if bare.startswith(base):
            return python
    return name


def constructors(source: str, inputs: dict[str, str]) -> str:
    """In each model class, an ``__init__`` for the type checkers that takes what the run time reads from Python.

    The one that ``dataclass_transform`` makes from the annotations would ask for
    the attributes' types: an enum member where its value is read as well, a
    tuple where a list is. Keyword-only, named as the fields; an optional field
    defaults to ``None`` (not given). Under ``TYPE_CHECKING`` only: at run time
    ``MplpModel.__init__`` validates as before.
    """
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    for node in reversed(tree.body):
        if not (isinstance(node, ast.ClassDef) and any(keyword.arg == "frozen" for keyword in node.keywords)):
            continue
        required: list[str] = []
        optional: list[str] = []
        for statement in node.body:
            if not isinstance(statement, ast.AnnAssign) or not isinstance(statement.target, ast.Name):
                continue
            name = statement.target.id
            if name == "model_config":
                continue
            if statement.value is None:
                required.append(f"{name}: {input_type(statement.annotation, inputs)}")
            else:
                if ast.unparse(statement.value) != "None":
                    raise SystemExit(f"{node.name}.{name}: a default other than None")
                optional.append(f"{name}: {input_type(statement.annotation, inputs)} = None")
        if open_config(node):
            optional.append("**extra: JsonInputValue")  # extra="allow": each other key an open JSON value
        parameters = "".join(f"            {parameter},\n" for parameter in ["self", "*", *required, *optional])
        init = (
            "\n    if TYPE_CHECKING:\n\n"
            "        def __init__(\n"
            f"{parameters}"
            "        ) -> None:\n"
            '            """Validate the keyword arguments: a pydantic ``ValidationError`` for any problem."""\n'
        )
        end = node.end_lineno
        assert end is not None
        lines.insert(end, init)
    return "".join(lines)


# --- each class's facts, for the fast paths (mplp_models._fast_shapes.Facts) ------------------------

# The bare names of the types that hold what the writer prepares: a float (a JSON number) or an open object.
PREPARED = ("JsonNumber", "JsonObject")


def field_kinds(sources: Iterable[str]) -> dict[str, set[str]]:
    """Every generated model class and type alias, by bare name: the bare names that it stands for.

    A model class stands for ``{"<model>"}``; an alias for the names in its
    value, aliases followed (``CommonBaseMeta`` stands for a model, ``MplpId``
    for ``MplpIdText``).
    """
    kinds: dict[str, set[str]] = {}
    for source in sources:
        for node in ast.parse(source).body:
            if isinstance(node, ast.ClassDef) and any(keyword.arg == "frozen" for keyword in node.keywords):
                kinds[node.name] = {"<model>"}
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and node.value.args[1:]:
                kinds[node.targets[0].id] = bare_names(node.value.args[1])  # type: ignore[attr-defined]
    for _ in range(len(kinds)):  # aliases of aliases: as many rounds as it takes
        for name, names in kinds.items():
            kinds[name] = names.union(*(kinds.get(inner, set()) for inner in names)) - set(kinds)
    return kinds


def bare_names(node: ast.expr) -> set[str]:
    """The bare names an annotation mentions (``trace_base_schema.TraceBase`` is ``TraceBase``)."""
    return {
        item.id if isinstance(item, ast.Name) else item.attr
        for item in ast.walk(node)
        if isinstance(item, (ast.Name, ast.Attribute))
    }


def in_arrays(node: ast.expr) -> set[str]:
    """The bare names an annotation mentions inside a ``tuple[X, ...]`` (an array's items)."""
    return {
        name
        for item in ast.walk(node)
        if isinstance(item, ast.Subscript) and ast.unparse(item.value) == "tuple"
        for name in bare_names(item.slice)
    }


def class_facts(node: ast.ClassDef, kinds: dict[str, set[str]]) -> dict[str, Any]:
    """What the fast paths need to know of a class's fields, from their annotations (``_fast_shapes.Facts``)."""
    facts: dict[str, list[str]] = {
        key: []
        for key in ("prepared", "open", "open_arrays", "models", "model_arrays", "unique", "not_null", "optional")
    }
    for statement in node.body:
        if not isinstance(statement, ast.AnnAssign) or not isinstance(statement.target, ast.Name):
            continue
        name = statement.target.id
        if name in ("model_config", "__mplp_facts__"):
            continue
        names = bare_names(statement.annotation)
        stands_for = names.union(*(kinds.get(inner, set()) for inner in names))
        if any(part.startswith(PREPARED) for part in stands_for):
            facts["prepared"].append(name)
        if "JsonObject" in in_arrays(statement.annotation):
            facts["open_arrays"].append(name)
        elif "JsonObject" in stands_for:
            facts["open"].append(name)
        models = {inner for inner in names if "<model>" in kinds.get(inner, set())}
        if models & in_arrays(statement.annotation):
            facts["model_arrays"].append(name)
        elif models:
            facts["models"].append(name)
        for marker, key in (("UniqueItems", "unique"), ("NotNull", "not_null")):
            if marker in names:
                facts[key].append(name)
        if statement.value is not None:
            facts["optional"].append(name)
    return {
        **{key: tuple(names) for key, names in facts.items() if names},
        **({"extra": True} if open_config(node) else {}),
    }


def with_facts(source: str, kinds: dict[str, set[str]]) -> str:
    """In each model class, its facts (``__mplp_facts__``): which fields the writer prepares, which hold open
    objects or models, which are unique, may not be null or may be left out, and whether it keeps other keys.

    The fast paths ask them (``_fast_shapes.facts_of``) instead of reading the annotations at run time;
    tests/test_fast_kinds.py holds them to the annotations pydantic built.
    """
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    for node in reversed(tree.body):
        if not (isinstance(node, ast.ClassDef) and any(keyword.arg == "frozen" for keyword in node.keywords)):
            continue
        arguments = "".join(f"        {key}={value!r},\n" for key, value in class_facts(node, kinds).items())
        text = "\n    __mplp_facts__: ClassVar[Facts] = Facts(\n" + arguments + "    )\n"
        end = node.end_lineno
        assert end is not None
        lines.insert(end, text)
    return "".join(lines)


def open_config(node: ast.ClassDef) -> bool:
    """Whether the class's ``model_config`` takes keys that are no field (``extra="allow"``)."""
    for statement in node.body:
        if isinstance(statement, ast.AnnAssign) and ast.unparse(statement.target) == "model_config":
            call = statement.value
            if isinstance(call, ast.Call):
                return any(
                    keyword.arg == "extra" and ast.literal_eval(keyword.value) == "allow" for keyword in call.keywords
                )
    return False


def check_names(out: Path) -> None:
    """Fail on any class or alias that codegen/names.json did not name."""
    chosen = set(json.loads((CODEGEN / "names.json").read_text(encoding="utf-8")).values())
    written = set()
    for path in out.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        written |= set(re.findall(r"^class (\w+)\b", text, re.MULTILINE))
        written |= set(re.findall(r"^(\w+)(?:: TypeAlias)? = ", text, re.MULTILINE))
    # Each enum's XValue alias is named after the enum (value_aliases).
    unchosen = sorted(name for name in written - chosen if not (name.endswith("Value") and name[:-5] in chosen))
    if unchosen:
        raise SystemExit(f"names nobody chose in the generated code: {', '.join(unchosen)} (see codegen/names.json)")


def check(fresh: Path, current: Path) -> int:
    differences = sorted(diff(filecmp.dircmp(fresh, current)))
    if differences:
        print("_generated/ is out of date with schemas/ or codegen/ (run `make codegen`):", file=sys.stderr)
        for line in differences:
            print(f"  {line}", file=sys.stderr)
        return 1
    print("_generated/ is up to date")
    return 0


def diff(cmp: filecmp.dircmp[str], prefix: str = "") -> Iterator[str]:
    for name in cmp.left_only:
        yield f"missing: {prefix}{name}"
    for name in cmp.right_only:
        if name != "__pycache__":
            yield f"unexpected: {prefix}{name}"
    for name in cmp.common_files:
        if (Path(cmp.left) / name).read_bytes() != (Path(cmp.right) / name).read_bytes():
            yield f"differs: {prefix}{name}"
    for name, sub in cmp.subdirs.items():
        if name != "__pycache__":
            yield from diff(sub, f"{prefix}{name}/")


if __name__ == "__main__":
    sys.exit(main())
