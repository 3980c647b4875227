"""Shared fixtures: the repository's payloads, ../shared when present, the reference validator, and the test depth."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from jsonschema import Draft7Validator, Draft202012Validator, FormatChecker
from jsonschema import ValidationError as SchemaError
from jsonschema.validators import extend
from reference_formats import is_rfc3339_date_time
from referencing import Registry
from referencing.jsonschema import DRAFT7, DRAFT202012

import mplp_models as mm
from mplp_models._kinds import KINDS, SCHEMA_ONLY_FILES

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
PAYLOADS = ROOT / "examples" / "payloads"
PAYLOAD_FILES = sorted(PAYLOADS.glob("*.json"))
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
    out: list[str] = []
    in_class, escaped = False, False
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


# The format checks: jsonschema's own draft-07 checker, with the optional format packages that the dev
# environment has (none for `uri`: tests/test_formats.py holds it to that), and `date-time` made exact.
_FORMATS = FormatChecker(formats=())
_FORMATS.checkers.update(Draft7Validator.FORMAT_CHECKER.checkers)
_FORMATS.checks("date-time")(is_rfc3339_date_time)
_Reference = extend(Draft7Validator, {"pattern": _pattern})
# The Cortex code mode's schemas are draft 2020-12 (they say so in `$schema`).
_Reference202012 = extend(Draft202012Validator, {"pattern": _pattern})
_DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def _without_dialect(schema: dict[str, Any]) -> dict[str, Any]:
    # A referenced resource that names its dialect is validated by jsonschema's
    # stock class for that dialect, which would bypass the exact `pattern`.
    return {key: value for key, value in schema.items() if key != "$schema"}


def _registry() -> Registry[Any]:
    resources = []
    for path in SCHEMAS.rglob("*.schema.json"):
        document = load(path)
        schema = _without_dialect(document)
        specification = DRAFT202012 if document.get("$schema") == _DRAFT_2020_12 else DRAFT7
        # A file without an `$id` has its path as its base URI, as for a validator reading the folder.
        uri = schema.get("$id", f"file:///{path.relative_to(SCHEMAS).as_posix()}")
        resources.append((uri, specification.create_resource(schema)))
    return Registry().with_resources(resources)


REGISTRY = _registry()


@functools.cache  # validators are immutable: one per model for the whole run
def reference_validator(model: type[mm.MplpModel]) -> Any:
    document = load(SCHEMAS / SCHEMA_OF[model])
    validator = _Reference202012 if document.get("$schema") == _DRAFT_2020_12 else _Reference
    return validator(_without_dialect(document), registry=REGISTRY, format_checker=_FORMATS)


def reference_accepts(model: type[mm.MplpModel], document: Any) -> bool:
    return bool(reference_validator(model).is_valid(document))


_Published = extend(Draft202012Validator, {"pattern": _pattern})


@functools.cache
def published_schema_validator(model: type[mm.MplpModel]) -> Any:
    """The same exact checks on the model's own ``model_json_schema()`` (pydantic writes draft 2020-12)."""
    return _Published(model.model_json_schema(), format_checker=_FORMATS)


# --- test depth: hypothesis profiles -----------------------------------------
# The same checks at two depths. `quick` (the default, `make test`) runs few
# examples of every property; `deep` (MPLP_TEST_PROFILE=deep, `make test-deep`)
# runs the full depth: hypothesis's default of 100 examples, and each count
# that a test names through `examples(...)` (1,000 documents per model in the
# round trip, say). The profiles differ in depth only.
#
# Both drop two checks that measure wall-clock time, which a busy machine
# (other jobs beside the tests, or the two xdist workers on two cores) inflates
# at random: the 200 ms per-example deadline, and HealthCheck.too_slow, which
# fails a test whose first ten inputs take more than a second to draw. Slowness
# is still reported: make bench (tests/benchmarks/bench_strategy_cost.py) holds
# every strategy of mplp_models.testing to too_slow's own budget in CPU time,
# which the load of other processes hardly changes, and the tiers' run times are
# in the README. The
# health checks that count rather than time (data_too_large, filter_too_much,
# large_base_example) stay on: their verdict does not depend on the load.
PROFILE = os.environ.get("MPLP_TEST_PROFILE", "quick")
settings.register_profile("quick", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(PROFILE)  # an unknown name stops the run here


def examples(*, quick: int, deep: int) -> int:
    """A property's example count at the chosen depth: ``deep`` (the full depth) or ``quick``."""
    return deep if PROFILE == "deep" else quick


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The round trip's tests take longest by far (minutes each at full depth): they go first, so
    # that they start at once and the test processes (make test's pytest-xdist, which steals
    # work) share out the short ones around them.
    items.sort(key=lambda item: item.path.name != "test_roundtrip.py")


@pytest.fixture
def closes_run_sync_loop() -> Iterator[None]:
    """Close the event loop that pydantic-ai's ``run_sync`` makes current and leaves open.

    Left open, it is collected later, in whichever test drops it (an ``asyncio.run`` elsewhere
    replaces the current loop), and its ResourceWarning fails that unrelated test.
    """
    import asyncio

    yield
    policy = asyncio.get_event_loop_policy()
    with contextlib.suppress(RuntimeError):
        policy.get_event_loop().close()
    policy.set_event_loop(None)


# The objects whose schema declares properties and admits other keys (`additionalProperties: true`),
# written out from schemas/: the context's root, the event core and the three families built on it
# with allOf, and the learning-sample core and its two families, with their input, state, output and
# meta objects. Every other model forbids unknown keys.
OPEN_MODELS = frozenset(
    {
        "ContextRoot",
        "EventCore",
        "GraphUpdateEvent",
        "PipelineStageEvent",
        "RuntimeExecutionEvent",
        "LearningSampleCore",
        "SampleMeta",
        "DeltaImpactSample",
        "DeltaImpactInput",
        "DeltaImpactState",
        "DeltaImpactOutput",
        "DeltaImpactMeta",
        "IntentResolutionSample",
        "IntentResolutionInput",
        "IntentResolutionState",
        "IntentResolutionOutput",
        "IntentResolutionMeta",
    }
)


def accepted(model: type[mm.MplpModel], document: dict[str, Any], **validate: Any) -> Any:
    """The model of ``document``, from the dict and from its JSON alike, keeping every member as given."""
    read: Any = model.model_validate(document, **validate)
    assert read.to_dict() == document, "every member kept, none added"
    if not validate:
        assert model.from_json(json.dumps(document)) == read
        assert read.check() == []
    return read


@pytest.fixture(scope="session")
def postgres_conninfo() -> Iterator[str]:
    """A real PostgreSQL server that this test process starts (tests/postgres_server.py), never a mock.

    A server that cannot start fails its tests; they are skipped only when MPLP_TEST_SKIP_POSTGRES=1 says so.
    """
    if os.environ.get("MPLP_TEST_SKIP_POSTGRES") == "1":
        pytest.skip("MPLP_TEST_SKIP_POSTGRES=1: the tests against PostgreSQL are skipped on purpose")
    from postgres_server import running_server

    with running_server() as conninfo:
        yield conninfo
