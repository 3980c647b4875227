"""Shared fixtures: the repository's payloads, ../shared when present, and the reference validator."""

from __future__ import annotations

import calendar
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator, FormatChecker
from jsonschema import ValidationError as SchemaError
from jsonschema.validators import extend
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

import mplp_models as mm

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
PAYLOADS = ROOT / "examples" / "payloads"
SHARED = ROOT.parent / "shared"
CONFORMANCE = SHARED / "conformance"

# Which schema file validates which model, and the repository fixture of each.
SCHEMA_OF: dict[type[mm.MplpModel], str] = {
    mm.Plan: "mplp/v1.0/mplp-plan.schema.json",
    mm.Dialog: "mplp/v1.0/mplp-dialog.schema.json",
    mm.InboxMessage: "cortex/v1/inbox.schema.json",
    mm.LearningSample: "mplp/v1.0/common/learning-sample.schema.json",
    mm.Event: "mplp/v1.0/common/events.schema.json",
    mm.TraceBase: "mplp/v1.0/common/trace-base.schema.json",
    mm.Metadata: "mplp/v1.0/common/metadata.schema.json",
}
FIXTURE_OF: dict[type[mm.MplpModel], str] = {
    mm.Plan: "plan.json",
    mm.Dialog: "dialog.json",
    mm.InboxMessage: "inbox.json",
    mm.LearningSample: "learning-sample.json",
    mm.Event: "event.json",
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


# --- the reference validator -------------------------------------------------
# jsonschema's Draft 7 validator, with format assertion on and two stock
# behaviours made exact: `pattern` uses Python's `re`, whose `$` also matches
# before a trailing newline (ECMA-262's does not), and the date-time check
# would take a trailing newline too. Written independently of the package's
# own regular expressions, so that the two can disagree.

_DATE_TIME = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))",
    re.ASCII,
)


def is_rfc3339_date_time(text: object) -> bool:
    if not isinstance(text, str):
        return True  # formats only constrain strings
    match = _DATE_TIME.fullmatch(text)
    if match is None:
        return False
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    if not 1 <= month <= 12:
        return False
    days = calendar.monthrange(year if year > 0 else 2000, month)[1]
    if not 1 <= day <= days:
        return False
    if hour > 23 or minute > 59 or second > 60:
        return False
    if match.group(9) is not None and (int(match.group(9)) > 23 or int(match.group(10)) > 59):
        return False
    return True


def _ecma_pattern(pattern: str) -> re.Pattern[str]:
    # `$` outside a character class, not escaped: the end of the text only.
    out, in_class, escaped = [], False, False
    for char in pattern:
        if escaped:
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


def reference_validator(model: type[mm.MplpModel]) -> Any:
    schema = _without_dialect(load(SCHEMAS / SCHEMA_OF[model]))
    return _Reference(schema, registry=REGISTRY, format_checker=_FORMATS)


def reference_accepts(model: type[mm.MplpModel], document: Any) -> bool:
    return bool(reference_validator(model).is_valid(document))
