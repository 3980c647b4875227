"""The fast paths cannot go wrong: what each relies on is checked, and one switch turns them all off.

``MPLP_MODELS_NO_FAST_PATHS=1`` (``mplp_models._fastpath.ENABLED``) sends every
reading, writing and rule down its strict path; the results are the same,
which is what these tests hold it to. The conditions of the proofs are checked
per class (``_shapes.fast_path_problems``): a class that fails one takes the
strict paths.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Any

import pytest
from conftest import FIXTURE_OF, PAYLOAD_FILES, PAYLOADS, fixture
from fast_path_switch import fast_paths
from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
    computed_field,
    field_serializer,
    field_validator,
    model_serializer,
    model_validator,
)
from test_differential import mutations
from test_performance_paths import EVENT_VARIANTS

import mplp_models as mm
from mplp_models import _base, _decode, _dialog, _members, _plan, _shapes, _types
from mplp_models._shapes import fast_path_problems, is_plain


def outcome(model: type[mm.MplpModel], raw: bytes, **options: Any) -> Any:
    """Everything a reading gives that a user sees: the model and all its ways out, or the errors."""
    try:
        read = model.from_json(raw, **options)
    except ValidationError as error:
        return "refused", mm.errors_as_json(error)
    try:
        written: Any = read.to_json()
    except mm.CanonicalJSONError as error:
        written = str(error)
    check = getattr(read, "check", None)
    rules = check() if check is not None else None
    return "read", type(read), read, sorted(read.model_fields_set), read.to_dict(), written, rules, repr(read)


def both_ways(model: type[mm.MplpModel], raw: bytes, **options: Any) -> tuple[Any, Any]:
    with fast_paths(True):
        fast = outcome(model, raw, **options)
    with fast_paths(False):
        strict = outcome(model, raw, **options)
    return fast, strict


# --- the switch: the same results, on and off -------------------------------


@pytest.mark.parametrize("path", PAYLOAD_FILES, ids=lambda path: path.name)
@pytest.mark.parametrize("semantic", [True, False])
def test_every_payload_reads_and_writes_the_same_with_the_fast_paths_off(path: Path, semantic: bool) -> None:
    raw = path.read_bytes()
    model = type(mm.parse(raw))
    fast, strict = both_ways(model, raw, semantic=semantic)
    assert fast[0] == "read"
    assert fast == strict


@pytest.mark.parametrize("model", list(FIXTURE_OF), ids=lambda model: model.__name__)
def test_every_mutation_reads_the_same_with_the_fast_paths_off(model: type[mm.MplpModel]) -> None:
    document = fixture(model)
    differences = []
    count = 0
    # With the rules: a mutation that breaks one compares the rules' errors, found with and without
    # their short-cuts (schema-only readings are compared in test_differential, both ways).
    for change, mutated in mutations(document):
        count += 1
        fast, strict = both_ways(model, json.dumps(mutated).encode())
        if fast != strict:
            differences.append(f"{change}: on {str(fast)[:300]}; off {str(strict)[:300]}")
    assert count > 100
    assert not differences, "\n".join(differences[:10])


@pytest.mark.parametrize("name", list(EVENT_VARIANTS))
@pytest.mark.parametrize("allow_duplicate_keys", [False, True])
def test_texts_at_the_edges_read_the_same_with_the_fast_paths_off(name: str, allow_duplicate_keys: bool) -> None:
    fast, strict = both_ways(mm.Event, EVENT_VARIANTS[name], allow_duplicate_keys=allow_duplicate_keys)
    assert fast == strict


def test_the_switch_is_read_from_the_environment_at_import() -> None:
    script = "from mplp_models import _fastpath; print(_fastpath.ENABLED)"
    seen = {}
    for value in (None, "", "0", "1", "yes"):
        env = {key: item for key, item in os.environ.items() if key != "MPLP_MODELS_NO_FAST_PATHS"}
        if value is not None:
            env["MPLP_MODELS_NO_FAST_PATHS"] = value
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        seen[value] = done.stdout.strip()
    assert seen == {None: "True", "": "True", "0": "True", "1": "False", "yes": "False"}


# --- the switch: each fast path asks it --------------------------------------


class Calls:
    """A stand-in that counts the calls, then does what the function it wraps does."""

    def __init__(self, function: Any) -> None:
        self.function = function
        self.count = 0

    def __call__(self, *args: Any) -> Any:
        self.count += 1
        return self.function(*args)


@pytest.mark.parametrize("enabled", [True, False])
def test_from_json_and_to_json_take_the_fast_paths_only_when_on(enabled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    check, write = Calls(_decode.read_as_strictly), Calls(_members.model_members)
    monkeypatch.setattr(_base, "read_as_strictly", check)
    monkeypatch.setattr(_base, "model_members", write)
    raw = (PAYLOADS / "plan.json").read_bytes()
    with fast_paths(enabled):
        plan = mm.Plan.from_json(raw)
        mm.Plan.model_validate_json(raw)
        plan.to_json()
    assert (check.count, write.count > 0) == ((2, True) if enabled else (0, False))


@pytest.mark.parametrize("enabled", [True, False])
def test_the_rules_skip_their_detailed_passes_only_when_on(enabled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    integrity, timeline = Calls(_plan._step_integrity), Calls(_types.earliest_and_latest)
    monkeypatch.setattr(_plan, "_step_integrity", integrity)
    monkeypatch.setattr(_dialog, "earliest_and_latest", timeline)
    with fast_paths(enabled):
        assert mm.Plan.from_json((PAYLOADS / "plan.json").read_bytes()).check() == []
        dialog = mm.Dialog.from_json((PAYLOADS / "dialog.json").read_bytes())
    assert dialog.started_at is not None  # so the timeline rules have something to check
    # On: the sound plan is proven sound in bulk, the timeline by its ends. Off: every rule runs.
    assert (integrity.count, timeline.count) == ((0, 1) if enabled else (2, 0))


# --- the conditions of the proofs --------------------------------------------

GENERATED = "mplp_models._generated.test_only"  # a class here passes the module condition: only the others stop it
DUPLICATE_SOURCE = (
    b'{"event_id":"f6000000-0000-4000-9000-000000000001","event_type":"plan.created",'
    b'"source":"evil","source":"plan","timestamp":"2026-03-01T09:00:00.000Z"}'
)


def noted_event() -> type[mm.Event]:
    class NotedEvent(mm.Event, frozen=True):
        __module__ = GENERATED
        note: str = "0000:0000"  # an unset field that writes back with a colon of its own

    return NotedEvent


def test_a_default_with_a_colon_is_caught_by_the_condition_check() -> None:
    noted = noted_event()
    assert fast_path_problems(noted) == ["field note: default '0000:0000' (an unset field must hold None)"]
    assert not is_plain(noted)
    with pytest.raises(ValidationError) as caught:
        noted.from_json(DUPLICATE_SOURCE)
    assert mm.errors_as_json(caught.value)[0]["code"] == "json_duplicate_key"


def test_without_the_condition_check_that_default_lets_a_duplicate_key_through(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the check is for: the colon of the default makes up for the duplicate's in the count.
    monkeypatch.setattr(_shapes, "fast_path_problems", lambda kind: [])
    noted = noted_event()
    assert is_plain(noted)
    with fast_paths(True):
        assert noted.from_json(DUPLICATE_SOURCE).source == "plan"
    with fast_paths(False), pytest.raises(ValidationError):  # the switch is the other way out
        noted.from_json(DUPLICATE_SOURCE)


def _upper(value: str) -> str:
    return value.upper()


def variants() -> dict[str, type[mm.MplpModel]]:
    """Subclasses of a generated class, under a generated module's name, each failing one condition."""

    class Default(mm.Event, frozen=True):
        note: str = "x"

    class Factory(mm.Event, frozen=True):
        note: str | None = Field(default_factory=lambda: None)

    class Aliased(mm.Event, frozen=True):
        note: str | None = Field(default=None, alias="Note")

    class Excluded(mm.Event, frozen=True):
        note: str | None = Field(default=None, exclude=True)

    class Extra(mm.Event, frozen=True):
        model_config = ConfigDict(extra="allow")

    class Ignored(mm.Event, frozen=True):
        model_config = ConfigDict(extra="ignore")

    class Computed(mm.Event, frozen=True):
        @computed_field  # type: ignore[prop-decorator]
        @property
        def kind(self) -> str:
            return "k"

    class FieldValidator(mm.Event, frozen=True):
        @field_validator("source")
        @classmethod
        def loud(cls, value: str) -> str:
            return value.upper()

    class ModelValidator(mm.Event, frozen=True):
        @model_validator(mode="before")
        @classmethod
        def same(cls, value: Any) -> Any:
            return value

    class FieldSerializer(mm.Event, frozen=True):
        @field_serializer("source")
        def loud(self, value: str) -> str:
            return value.upper()

    class ModelSerializer(mm.Event, frozen=True):
        @model_serializer
        def written(self) -> dict[str, Any]:
            return {"source": self.source}

    class AnnotatedValidator(mm.Event, frozen=True):
        note: Annotated[str, AfterValidator(_upper)] | None = None

    class AnnotatedSerializer(mm.Event, frozen=True):
        note: Annotated[str, PlainSerializer(_upper)] | None = None

    class PostInit(mm.Event, frozen=True):
        def model_post_init(self, context: Any, /) -> None:
            pass

    made: dict[str, type[mm.MplpModel]] = {
        kind.__name__: kind
        for kind in (
            Default,
            Factory,
            Aliased,
            Excluded,
            Extra,
            Ignored,
            Computed,
            FieldValidator,
            ModelValidator,
            FieldSerializer,
            ModelSerializer,
            AnnotatedValidator,
            AnnotatedSerializer,
            PostInit,
        )
    }
    for kind in made.values():
        kind.__module__ = GENERATED
    return made


VARIANTS = variants()


@pytest.mark.parametrize("name", list(VARIANTS))
def test_each_condition_is_checked(name: str) -> None:
    kind = VARIANTS[name]
    assert len(fast_path_problems(kind)) == 1, fast_path_problems(kind)
    assert not is_plain(kind)


def test_the_sdks_own_validators_and_serializers_pass() -> None:
    # Plan holds every one of them: the rules, given_members, and each function of the types.
    functions = _shapes._core_functions(mm.Plan.__pydantic_core_schema__)
    assert {id(function) for function in functions} == set(_shapes._own_functions())
    assert fast_path_problems(mm.Plan) == [] and is_plain(mm.Plan)
