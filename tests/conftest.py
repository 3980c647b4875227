"""Shared fixtures: the repository's payloads, ../shared when present, and the reference validator."""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator, Draft202012Validator, FormatChecker
from jsonschema import ValidationError as SchemaError
from jsonschema.validators import extend
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

import mplp_models as mm
from mplp_models._kinds import KINDS, SCHEMA_ONLY_FILES
from reference_formats import is_rfc3339_date_time

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
PAYLOADS = ROOT / "examples" / "payloads"
SHARED = ROOT.parent / "shared"
CONFORMANCE = SHARED / "conformance"

# Which schema file validates which model, and the repository fixture of each: from the registry
# of kinds (mplp_models._kinds), so that a new kind is tested as soon as it is registered.
SCHEMA_OF: dict[type[mm.MplpModel], str] = {
    **{kind.model: kind.schema for kind in KINDS},
    mm.Metadata: SCHEMA_ONLY_FILES["Metadata"],
}
FIXTURE_OF: dict[type[mm.MplpModel], str] = {
    kind.model: f"{kind.slug}.json" for kind in KINDS if (PAYLOADS / f"{kind.slug}.json").exists()
}


def shared_or_skip(*parts: str) -> Path:
    """A path under ../shared/conformance; the test is skipped when ../shared is absent."""
    path = CONFORMANCE.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent (../shared is only beside a checkout of the project)")
    return path


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def fixture(model: type[mm.MplpModel]) -> Any:
    return load(PAYLOADS / FIXTURE_OF[model])


DELETE = object()
"""``mutate``'s value that deletes the key (or item) at the path."""


def mutate(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A deep copy of ``document`` with the value at ``path`` set to ``value`` (or deleted)."""
    changed = copy.deepcopy(document)
    parent = changed
    for step in path[:-1]:
        parent = parent[step]
    if value is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return changed


# --- the reference validator -------------------------------------------------
# jsonschema's Draft 7 validator, with format assertion on and two stock
# behaviours made exact: `pattern` uses Python's `re`, whose `$` also matches
# before a trailing newline (ECMA-262's does not), and the date-time check
# would take a trailing newline too (reference_formats.py). Written
# independently of the package's own regular expressions, so that the two can disagree.
# `\d` is ASCII digits, as in ECMA-262 (Python's `re` takes other scripts' digits too).

@functools.cache
def _ecma_pattern(pattern: str) -> re.Pattern[str]:
    # `$` outside a character class, not escaped: the end of the text only.
    out, in_class, escaped = [], False, False
    for char in pattern:
        if escaped and char == "d":  # ECMA-262's \d is [0-9]; Python's matches every script's digits
            out[-1] = "0-9" if in_class else "[0-9]"
            escaped = False
        elif escaped:
            out.append(char)
            escaped = False
        elif char == "\\":
            out.append(char)
            escaped = True
        elif char == "[":
            in_class = True
            out.append(char)
        elif char == "]":
            in_class = False
            out.append(char)
        elif char == "$" and not in_class:
            out.append(r"\Z")
        else:
            out.append(char)
    return re.compile("".join(out))


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[SchemaError]:
    if validator.is_type(instance, "string") and not _ecma_pattern(pattern).search(instance):
        yield SchemaError(f"{instance!r} does not match {pattern!r}")


_FORMATS = FormatChecker(formats=())
_FORMATS.checks("date-time")(is_rfc3339_date_time)
_Reference = extend(Draft7Validator, {"pattern": _pattern})


def _without_dialect(schema: dict[str, Any]) -> dict[str, Any]:
    # A referenced resource that names its dialect is validated by jsonschema's
    # stock class for that dialect, which would bypass the exact `pattern`.
    return {key: value for key, value in schema.items() if key != "$schema"}


def _registry() -> Registry[Any]:
    resources = []
    for path in SCHEMAS.rglob("*.schema.json"):
        schema = _without_dialect(load(path))
        resources.append((schema["$id"], Resource(contents=schema, specification=DRAFT7)))
    return Registry().with_resources(resources)


REGISTRY = _registry()


@functools.cache  # validators are immutable: one per model for the whole run
def reference_validator(model: type[mm.MplpModel]) -> Any:
    schema = _without_dialect(load(SCHEMAS / SCHEMA_OF[model]))
    return _Reference(schema, registry=REGISTRY, format_checker=_FORMATS)


def reference_accepts(model: type[mm.MplpModel], document: Any) -> bool:
    return bool(reference_validator(model).is_valid(document))


_Published = extend(Draft202012Validator, {"pattern": _pattern})


@functools.cache
def published_schema_validator(model: type[mm.MplpModel]) -> Any:
    """The same exact checks on the model's own ``model_json_schema()`` (pydantic writes draft 2020-12)."""
    return _Published(model.model_json_schema(), format_checker=_FORMATS)
