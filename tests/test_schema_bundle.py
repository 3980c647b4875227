"""``mplp-models schema NAME --bundle``: one self-contained draft-07 schema.

The bundle judges payloads as the frozen files do.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from conftest import DELETE, PAYLOADS, ROOT, SCHEMA_OF, SCHEMAS, fixture, mutate, reference_validator
from jsonschema import Draft7Validator
from referencing import Registry
from referencing.jsonschema import DRAFT7

import mplp_models as mm
from mplp_models._cli.bundle import BundleError, bundle, bundle_bytes
from mplp_models._schemas import SCHEMA_FILES, schema_bytes

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
NAMES = list(SCHEMA_FILES)
# The bundle is draft-07: a draft 2020-12 file (the Cortex code mode's) is refused with its reason.
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
BUNDLED = [name for name in NAMES if json.loads(schema_bytes(name))["$schema"] != DRAFT_2020_12]


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, *args], capture_output=True, cwd=ROOT, timeout=120, env=env)


@functools.cache
def bundled(name: str) -> Any:
    return json.loads(bundle_bytes(name))


def refs(node: Any) -> Iterator[str]:
    """Every string ``$ref`` anywhere in ``node``."""
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


def resolve(document: Any, ref: str) -> Any:
    """What the local ``ref`` points to in ``document``; a ``KeyError`` or ``IndexError`` if nothing."""
    node = document
    for token in unquote(ref.removeprefix("#")).split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def ids_below_the_root(document: dict[str, Any]) -> list[object]:
    """Each ``$id`` or ``$schema`` string of a schema object other than the root (a property named so is an object)."""
    found: list[object] = []

    def walk(node: Any, top: bool) -> None:
        if isinstance(node, dict):
            found.extend(node[key] for key in ("$id", "$schema") if not top and isinstance(node.get(key), str))
            for value in node.values():
                walk(value, False)
        elif isinstance(node, list):
            for value in node:
                walk(value, False)

    walk(document, True)
    return found


# the bundle of every schema


def test_the_names_are_those_schema_list_gives() -> None:
    listing = run("-m", "mplp_models", "schema", "--list").stdout.decode().splitlines()
    assert [line.split()[0] for line in listing] == NAMES


def test_a_draft_2020_12_file_is_refused_with_its_reason() -> None:
    for name in sorted(set(NAMES) - set(BUNDLED)):
        with pytest.raises(BundleError, match="not a draft-07 schema"):
            bundle_bytes(name)


@pytest.mark.parametrize("name", BUNDLED)
def test_every_ref_is_a_local_pointer_that_resolves(name: str) -> None:
    document = bundled(name)
    Draft7Validator.check_schema(document)
    assert document["$schema"] == DRAFT_07
    assert document["$id"] == json.loads(schema_bytes(name))["$id"]
    assert ids_below_the_root(document) == []
    for ref in refs(document):
        assert ref.startswith("#"), ref
        assert isinstance(resolve(document, ref), (dict, bool)), ref


def test_the_bundle_is_the_same_bytes_on_every_run() -> None:
    here = {name: bundle_bytes(name) for name in BUNDLED}
    for name, output in here.items():
        assert bundle_bytes(name) == output
        assert output.decode() == json.dumps(json.loads(output), indent=2, ensure_ascii=False) + "\n"
    code = (
        "import sys; from mplp_models._cli.bundle import bundle_bytes;"
        " sys.stdout.buffer.write(bundle_bytes(sys.argv[1]))"
    )
    for seed, name in zip(("1", "2", "3"), ("Plan", "Dialog", "TraceBase")):  # other processes, other string hashes
        result = run("-c", code, name, env={**os.environ, "PYTHONHASHSEED": seed})
        assert (result.returncode, result.stdout) == (0, here[name])


def test_the_inlined_files_get_readable_names() -> None:
    assert list(bundled("Dialog")["$defs"]) == [
        "dialog_core_properties",
        "dialog_message_core",  # the file's own
        "mplp-common-common-types",
        "mplp-common-events",
        "mplp-common-identifiers",
        "mplp-common-metadata",
        "mplp-common-trace-base",
    ]
    assert bundled("Dialog")["properties"]["governance"]["properties"]["lastConfirmRef"]["$ref"] == (
        "#/$defs/mplp-common-common-types/definitions/Ref"
    )
    assert "$defs" not in bundled("InboxMessage")  # it refers to no other file


# the bundle judges as the frozen files do


def payloads(model: type[mm.MplpModel]) -> Any:
    if model is mm.Metadata:
        return fixture(mm.Plan)["meta"]
    if model is mm.TraceBase:
        return fixture(mm.Plan)["trace"]
    return fixture(model)


def locations(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every value in ``node``, the root first, with its path."""
    yield path, node
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        yield from locations(value, (*path, key))


def replacements(value: Any) -> list[Any]:
    """Values to put where ``value`` was: another JSON type, and nearby values of the same type."""
    if isinstance(value, str):
        return [42, "", value + "\n", value.upper(), value + "-x"]
    if isinstance(value, bool) or value is None:
        return ["true", 0]
    if isinstance(value, (int, float)):
        return ["1", -1, 1.5]
    if isinstance(value, dict):
        return [[], {**value, "x-unknown": 1}]
    return [{}, [], [*value, *value[:1]]]


def variants(document: Any) -> Iterator[Any]:
    """``document``, and for each value in it: the value deleted, and each of its replacements."""
    yield document
    for path, value in locations(document):
        if path:
            yield mutate(document, path, DELETE)
        for replacement in replacements(value):
            yield mutate(document, path, replacement) if path else replacement


def errors(validator: Any, instance: Any) -> list[tuple[str, str, str]]:
    return sorted((error.json_path, error.validator, error.message) for error in validator.iter_errors(instance))


@functools.cache
def bundle_validator(model: type[mm.MplpModel]) -> Any:
    # conftest's reference class and format checker, on the bundle alone: an empty registry, so
    # a $ref that left the document cannot be resolved (nor fetched).
    reference = reference_validator(model)
    schema = {key: value for key, value in bundled(model.__name__).items() if key != "$schema"}
    return type(reference)(schema, registry=Registry(), format_checker=reference.format_checker)


@pytest.mark.parametrize(
    "model", [model for model in SCHEMA_OF if model.__name__ in BUNDLED], ids=lambda model: model.__name__
)
def test_the_bundle_and_the_frozen_files_give_the_same_errors(model: type[mm.MplpModel]) -> None:
    assert SCHEMA_FILES[model.__name__] == SCHEMA_OF[model]
    verdicts, differences = set(), []
    for document in variants(payloads(model)):
        expected = errors(reference_validator(model), document)
        verdicts.add(not expected)
        if errors(bundle_validator(model), document) != expected:
            differences.append(document)
    assert verdicts == {True, False}  # both verdicts are put to the test
    assert differences == []


# check-jsonschema, offline


def offline(tmp_path: Path) -> dict[str, str]:
    """An environment where any download fails at once (a proxy on a closed port) and the cache starts empty."""
    proxy = "http://127.0.0.1:9"
    cleared = {key: value for key, value in os.environ.items() if key.lower() not in {"no_proxy", "all_proxy"}}
    return {
        **cleared,
        "HTTP_PROXY": proxy,
        "HTTPS_PROXY": proxy,
        "http_proxy": proxy,
        "https_proxy": proxy,
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "HOME": str(tmp_path),
    }


def check_jsonschema(schema: Path, payload: Path, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return run("-m", "check_jsonschema", "--schemafile", str(schema), str(payload), env=env)


CASES = [
    (mm.Plan, (), None),
    (mm.Dialog, (), None),
    (mm.Plan, ("status",), "finished"),  # in the root file
    (mm.Plan, ("meta", "protocol_version"), "1.0"),  # in an inlined file
    (mm.Plan, ("steps", 0, "step_id"), "a1000000-0000-4000-8000-000000000001\n"),  # an ECMA-262 `$`
    (mm.Dialog, ("governance", "lastConfirmRef", "module"), "nope"),  # a fragment into an inlined file
]


@pytest.mark.parametrize(("model", "path", "value"), CASES)
def test_check_jsonschema_validates_with_the_bundle_offline(
    model: type[mm.MplpModel], path: tuple[Any, ...], value: Any, tmp_path: Path
) -> None:
    payload = mutate(fixture(model), path, value) if path else fixture(model)
    (tmp_path / "payload.json").write_text(json.dumps(payload))
    (tmp_path / "bundle.json").write_bytes(bundle_bytes(model.__name__))
    result = check_jsonschema(tmp_path / "bundle.json", tmp_path / "payload.json", offline(tmp_path))
    expected = errors(reference_validator(model), payload)
    assert result.returncode == (1 if expected else 0), result.stdout + result.stderr
    for json_path, _, _ in expected:
        assert f"::{json_path}: ".encode() in result.stdout
    cache = tmp_path / "cache"
    assert not cache.exists() or [file for file in cache.rglob("*") if file.is_file()] == []  # nothing downloaded


def test_without_the_bundle_check_jsonschema_would_download(tmp_path: Path) -> None:
    """The control: the frozen file's relative $refs send check-jsonschema to the network, which fails here."""
    plan = tmp_path / "plan.json"
    shutil.copy(PAYLOADS / "plan.json", plan)
    result = check_jsonschema(SCHEMAS / SCHEMA_OF[mm.Plan], plan, offline(tmp_path))
    assert result.returncode != 0
    assert b"validation done" not in result.stdout
    output = (result.stdout + result.stderr).decode()
    assert "Unresolvable: common/metadata.schema.json" in output
    assert "connection" in output.lower()  # it went for the network


# bundle() on schemas made for the purpose

D7 = {"$schema": DRAFT_07}
FILES: dict[str, Any] = {
    "x/v2/root.schema.json": {
        **D7,
        "$id": "https://ex.test/v2/root.schema.json",
        "type": "object",
        "properties": {
            "a": {"$ref": "common.schema.json#/definitions/positive"},
            "b": {"$ref": "common.schema.json#short"},  # a plain-name anchor
            "c": {"$ref": "inner.json"},  # a schema with an $id of its own, inside common.schema.json
            "d": {"$ref": "#/$defs/x-common"},
            "e": {"const": {"$ref": "not-a-schema.json"}},  # data, not a schema
            "f": {"$ref": "../v1/common.schema.json"},
            "g": {"$ref": "common.schema.json#/definitions/positive", "type": "string"},  # draft-07 ignores the sibling
            "h": {"$ref": "common.schema.json#/definitions/loop"},
            "i": {"$ref": "https://ex.test/a/b.json"},
            "j": {"$ref": "https://ex.test/a-b.json"},
        },
        "$defs": {"x-common": {"type": "boolean"}},
    },
    "x/v2/common.schema.json": {
        **D7,
        "$id": "https://ex.test/v2/common.schema.json",
        "definitions": {
            "positive": {"type": "integer", "minimum": 1},
            "short": {"$id": "#short", "type": "string", "maxLength": 3},
            "inner": {
                "$id": "inner.json",
                "type": "object",
                "properties": {"n": {"$ref": "#/definitions/n"}},
                "definitions": {"n": {"type": "boolean"}},
            },
            "n": {"type": "null"},  # what #/definitions/n would be if the inner $id were lost
            "loop": {"type": "object", "properties": {"back": {"$ref": "root.schema.json"}}},
        },
    },
    "x/v1/common.schema.json": {**D7, "$id": "https://ex.test/v1/common.schema.json", "type": "number"},
    "a/b.schema.json": {"$id": "https://ex.test/a/b.json", "enum": ["b"]},
    "a-b.schema.json": {"$id": "https://ex.test/a-b.json", "enum": ["a-b"]},
}
INSTANCES = [
    {"a": 1},
    {"a": 0},
    {"b": "abc"},
    {"b": "abcd"},
    {"c": {"n": True}},
    {"c": {"n": None}},
    {"d": "x"},
    {"d": False},
    {"f": 1.5},
    {"f": "1"},
    {"g": 2},
    {"g": "2"},
    {"h": {"back": {"a": 2}}},
    {"h": {"back": {"a": -2}}},
    {"i": "b"},
    {"i": "a-b"},
    {"j": "a-b"},
    {"j": "b"},
]


def test_bundle_resolves_fragments_anchors_nested_ids_and_refs_back_to_the_root() -> None:
    document = bundle("x/v2/root.schema.json", FILES)
    registry = Registry().with_resources((doc["$id"], DRAFT7.create_resource(doc)) for doc in FILES.values())
    reference = Draft7Validator(FILES["x/v2/root.schema.json"], registry=registry)
    alone = Draft7Validator(document, registry=Registry())
    assert {bool(reference.is_valid(instance)) for instance in INSTANCES} == {True, False}
    assert [errors(alone, instance) for instance in INSTANCES] == [errors(reference, x) for x in INSTANCES]
    assert all(ref.startswith("#") for ref in refs(document["$defs"]))
    assert ids_below_the_root(document) == []
    assert document["properties"]["e"] == {"const": {"$ref": "not-a-schema.json"}}
    assert document["properties"]["g"] == {"$ref": "#/$defs/x-v2-common/definitions/positive", "type": "string"}


def test_bundle_names_never_collide() -> None:
    document = bundle("x/v2/root.schema.json", FILES)
    # The root's own x-common keeps its name; two files would be x-common, two a-b.
    assert list(document["$defs"]) == ["x-common", "a-b", "a-b-2", "x-v1-common", "x-v2-common"]


def test_bundle_leaves_its_input_alone() -> None:
    before = copy.deepcopy(FILES)
    bundle("x/v2/root.schema.json", FILES)
    assert before == FILES


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"$ref": "nowhere.schema.json"},
            "unresolvable $ref 'nowhere.schema.json': no schema is known as https://ex.test/v2/nowhere.schema.json",
        ),
        ({"$ref": "common.schema.json#/definitions/nope"}, "x/v2/common.schema.json has nothing at #/definitions/nope"),
        ({"$ref": "common.schema.json#nope"}, "unresolvable $ref 'common.schema.json#nope'"),
        ({"$schema": "https://json-schema.org/draft/2020-12/schema"}, "not a draft-07 schema"),
    ],
)
def test_what_cannot_be_bundled_is_refused_with_a_reason(change: dict[str, str], message: str) -> None:
    files = mutate(FILES, ("x/v2/root.schema.json", "properties", "a"), change)
    with pytest.raises(BundleError) as raised:
        bundle("x/v2/root.schema.json", files)
    assert message in str(raised.value)


def test_two_files_with_one_id_are_refused() -> None:
    files = {**FILES, "copy.schema.json": FILES["x/v1/common.schema.json"]}
    with pytest.raises(BundleError, match=re.escape("two schemas have the $id https://ex.test/v1/common.schema.json")):
        bundle("x/v2/root.schema.json", files)


# the command


def test_schema_bundle_writes_the_bundle_to_stdout() -> None:
    result = run("-m", "mplp_models", "schema", "plan", "--bundle")
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout == bundle_bytes("Plan")
    assert json.loads(result.stdout)["properties"]["meta"]["$ref"] == "#/$defs/mplp-common-metadata"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--list", "--bundle"), "--bundle writes the schema of one NAME; it does not go with --list"),
        (("Nope", "--bundle"), "no schema named 'Nope'"),
        (("PlanStep", "--bundle"), "PlanStep is defined inside the schema of Plan"),
        (("--bundle",), "give a NAME"),
    ],
)
def test_schema_bundle_usage_errors_are_exit_2(args: tuple[str, ...], message: str) -> None:
    result = run("-m", "mplp_models", "schema", *args)
    assert (result.returncode, result.stdout) == (2, b"")
    assert message in result.stderr.decode()


def test_an_unresolvable_ref_is_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    from mplp_models._cli.main import main

    # A packaged copy of the schemas (as a wheel has) in which the plan refers to a file that is not there.
    shutil.copytree(SCHEMAS, tmp_path / "_schema_files")
    plan = tmp_path / "_schema_files" / SCHEMA_OF[mm.Plan]
    plan.write_text(plan.read_text().replace('"common/metadata.schema.json"', '"common/gone.schema.json"', 1))
    monkeypatch.setattr("mplp_models._schemas.resources.files", lambda package: tmp_path)
    assert main(["schema", "Plan", "--bundle"]) == 2
    output = capsysbinary.readouterr()
    assert output.out == b""
    assert b"schema --bundle Plan: mplp/v1.0/mplp-plan.schema.json: unresolvable $ref 'common/gone.schema.json'" in (
        output.err
    )


def test_help_describes_bundle() -> None:
    text = run("-m", "mplp_models", "schema", "--help").stdout.decode()
    assert "--bundle" in text and "check-jsonschema --schemafile" in text
