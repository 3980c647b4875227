"""One self-contained draft-07 JSON Schema made from a frozen schema and the files it refers to (``schema --bundle``).

Every file that the schema reaches through ``$ref`` is copied, whole, under the ``$defs`` of the
root schema, and every ``$ref`` is rewritten to a ``#/...`` pointer into the one document. Nothing
is merged into a ``$ref`` object: a ``$ref``'s siblings stay beside it, so draft-07 validators
ignore them in the bundle as they did in the file. Every ``$id`` and ``$schema`` below the root is
removed: a nested ``$id`` would change the base URI that the rewritten pointers resolve against,
and a nested ``$schema`` would make some validators switch dialect halfway.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any, cast
from urllib.parse import quote, unquote, urldefrag, urljoin

from mplp_models._text import pointer as json_pointer

__all__ = ["DRAFT_07", "BundleError", "bundle", "bundle_bytes"]

DRAFT_07 = "http://json-schema.org/draft-07/schema#"

# Draft-07 keywords whose value is a schema, an array of schemas, or an object of schemas. `$defs`
# is not a draft-07 keyword, but the frozen files keep their definitions there and point into it.
_ONE = frozenset(
    {"additionalItems", "additionalProperties", "contains", "else", "if", "items", "not", "propertyNames", "then"}
)
_ARRAY = frozenset({"allOf", "anyOf", "items", "oneOf"})
_OBJECT = frozenset({"$defs", "definitions", "dependencies", "patternProperties", "properties"})

# The base URI of a file without an `$id`: its path under schemas/, as a validator reading the
# folder from disk would see it.
_FILE = "file:///"
_VERSION = re.compile(r"v[0-9]+(?:\.[0-9]+)*")
_Target = tuple[str, str]  # a file under schemas/, and a JSON pointer inside it


class BundleError(ValueError):
    """The schema cannot be bundled: a ``$ref`` that no file resolves, or a file that is not draft-07."""


def bundle_bytes(name: str) -> bytes:
    """The bundle of model ``name`` (a key of ``SCHEMA_FILES``): indented JSON, UTF-8, ending in a newline.

    The same bytes on every run. Raises ``BundleError`` when a ``$ref`` cannot be resolved among the
    frozen files; nothing is ever fetched.
    """
    from mplp_models._schemas import SCHEMA_FILES, schema_bytes

    files = {path: json.loads(schema_bytes(key)) for key, path in SCHEMA_FILES.items()}
    document = bundle(SCHEMA_FILES[name], files)
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode()


def bundle(root: str, files: Mapping[str, Any]) -> dict[str, Any]:
    """The schema ``files[root]`` with every schema it reaches in ``files`` inlined under its ``$defs``.

    ``files`` maps paths (``mplp/v1.0/common/metadata.schema.json``) to parsed draft-07 schemas;
    ``$ref``s resolve against their ``$id``s (the path, for a file without one). Each inlined file
    gets a ``$defs`` name made from its path without the version (``mplp-common-metadata``). The
    root keeps its ``$id`` and gets the draft-07 ``$schema``; ``files`` is not changed.
    """
    index = _index(files)
    documents = {root: copy.deepcopy(files[root])}
    if not isinstance(documents[root].get("$defs", {}), dict):
        raise BundleError(f"{root}: $defs is not an object")
    refs: list[tuple[dict[str, Any], _Target]] = []
    pending = [root]
    while pending:
        path = pending.pop()
        for node, target in _refs_stripped(path, documents[path], index, files):
            refs.append((node, target))
            if target[0] not in documents:
                documents[target[0]] = copy.deepcopy(files[target[0]])
                pending.append(target[0])
    names = _names(sorted(documents.keys() - {root}), taken=documents[root].get("$defs", {}))
    where = {root: "", **{path: f"/$defs/{name}" for path, name in names.items()}}
    for node, (path, pointer) in refs:
        node["$ref"] = "#" + quote(where[path] + pointer, safe="/~$!&'()*+,;=:@")
    return _assemble(files[root], documents, names, root)


def _refs_stripped(
    path: str, document: Any, index: Mapping[str, _Target], files: Mapping[str, Any]
) -> Iterator[tuple[dict[str, Any], _Target]]:
    """Each schema object of ``document`` that has a ``$ref``, and its target; ``$id`` and ``$schema`` removed from
    all."""
    # The walk is read whole before anything is removed: an `$id` sets the base of what is below it.
    for node, base, _ in list(_subschemas(document, _FILE + path)):
        dialect = node.get("$schema", DRAFT_07)
        if not isinstance(dialect, str) or dialect.rstrip("#") != DRAFT_07.rstrip("#"):
            raise BundleError(f"{path}: not a draft-07 schema: $schema is {dialect!r}")
        node.pop("$id", None)
        node.pop("$schema", None)
        ref = node.get("$ref")
        if isinstance(ref, str):
            yield node, _target(ref, base, index, files, path)


def _subschemas(schema: Any, base: str, pointer: str = "") -> Iterator[tuple[dict[str, Any], str, str]]:
    """Each schema object in ``schema``, itself first, with its base URI and its JSON pointer."""
    if not isinstance(schema, dict):
        return  # true, false, or a value where a schema does not belong
    node = cast("dict[str, Any]", schema)  # JSON: the keys are strings
    own = _own_id(node)
    if own is not None:
        base = urljoin(base, own)
    yield node, base, pointer
    scope = urldefrag(base).url  # `$id: "#name"` names a schema without changing the base below it
    for key, value in node.items():
        for below, child in _children(key, value):
            yield from _subschemas(child, scope, f"{pointer}{json_pointer([key])}{below}")


def _children(key: str, value: Any) -> Iterator[tuple[str, Any]]:
    """The subschemas in the value of keyword ``key``, each with its pointer below the keyword."""
    if key in _ARRAY and isinstance(value, list):
        for index, item in enumerate(cast("list[object]", value)):
            yield f"/{index}", item
    elif key in _OBJECT and isinstance(value, dict):
        for name, item in cast("dict[str, object]", value).items():
            yield json_pointer([name]), item
    elif key in _ONE:
        yield "", value


def _own_id(schema: dict[str, Any]) -> str | None:
    # Draft-07 ignores every sibling of `$ref`, `$id` among them.
    own = schema.get("$id")
    return own if isinstance(own, str) and "$ref" not in schema else None


def _index(files: Mapping[str, Any]) -> dict[str, _Target]:
    """Each URI a schema is known by (a file's ``$id``, a nested ``$id``, a ``#name``): its file and pointer."""
    index: dict[str, _Target] = {}
    for path in sorted(files):
        for node, base, pointer in _subschemas(files[path], _FILE + path):
            if pointer and _own_id(node) is None:
                continue
            known = index.setdefault(base, (path, pointer))
            if known != (path, pointer):
                raise BundleError(f"two schemas have the $id {base}: {known[0]} and {path}")
    return index


def _target(ref: str, base: str, index: Mapping[str, _Target], files: Mapping[str, Any], path: str) -> _Target:
    """The file and pointer that ``ref``, found in ``path`` with base URI ``base``, points to."""
    # urljoin leaves a bare fragment alone on a base it cannot join to (urn:...).
    uri, fragment = urldefrag(urldefrag(base).url + ref if ref.startswith("#") else urljoin(base, ref))
    if fragment and not fragment.startswith("/"):
        found, below = index.get(f"{uri}#{fragment}"), ""
    else:
        found, below = index.get(uri), unquote(fragment)
    if found is None:
        known_as = f"{uri}#{fragment}" if fragment else uri
        raise BundleError(f"{path}: unresolvable $ref {ref!r}: no schema is known as {known_as}")
    if not _resolves(files[found[0]], found[1] + below):
        raise BundleError(f"{path}: unresolvable $ref {ref!r}: {found[0]} has nothing at #{found[1] + below}")
    return found[0], found[1] + below


def _resolves(document: Any, pointer: str) -> bool:
    node: Any = document
    try:
        for token in pointer.split("/")[1:]:
            token = token.replace("~1", "/").replace("~0", "~")
            index = int(token) if isinstance(node, list) and token.isdigit() else token
            node = cast(Any, node)[index]
    except (KeyError, IndexError, TypeError):
        return False
    return True


def _names(paths: list[str], taken: Mapping[str, Any]) -> dict[str, str]:
    """A ``$defs`` name for each of ``paths`` (in this order) that none before it, nor ``taken``, has."""
    used = set(taken)
    names: dict[str, str] = {}
    for path in paths:
        names[path] = next(name for name in _candidates(path) if name not in used)
        used.add(names[path])
    return names


def _candidates(path: str) -> Iterator[str]:
    """Names for the file ``path``, most readable first: without the version, with it, then numbered."""
    parts = re.sub(r"(?:\.schema)?\.json$", "", path).split("/")
    full = re.sub(r"[^A-Za-z0-9._-]+", "-", "-".join(parts))
    yield re.sub(r"[^A-Za-z0-9._-]+", "-", "-".join(part for part in parts if not _VERSION.fullmatch(part))) or full
    yield full
    yield from (f"{full}-{number}" for number in itertools.count(2))


def _assemble(original: Any, documents: Mapping[str, Any], names: Mapping[str, str], root: str) -> dict[str, Any]:
    """The root document with the inlined files under its ``$defs``, by name, and the root's ``$id``."""
    head: dict[str, Any] = {"$schema": DRAFT_07}
    if isinstance(original.get("$id"), str):
        head["$id"] = original["$id"]
    result: dict[str, Any] = {**head, **documents[root]}
    if names:
        definitions = result.setdefault("$defs", {})
        for path, name in sorted(names.items(), key=lambda item: item[1]):
            definitions[name] = documents[path]
    return result
