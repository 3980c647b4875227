"""The fast paths cannot go wrong: what each relies on is checked, and one switch turns them all off.

``MPLP_MODELS_NO_FAST_PATHS=1`` (``mplp_models._fastpath.ENABLED``) sends every
reading, writing and rule down its strict path; the results are the same,
which is what these tests hold it to. The conditions of the proofs are checked
per class (``_fast_shapes.fast_path_problems``): a class that fails one takes the
strict paths.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, ClassVar

import orjson
import pytest
from conftest import FIXTURE_OF, PAYLOAD_FILES, PAYLOADS, examples
from fast_path_switch import fast_paths, proof_holds
from hypothesis import HealthCheck, given, settings
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
from test_differential import mutation_disagreements
from test_performance_paths import EVENT_VARIANTS

import mplp_models as mm
from mplp_models import (
    _dialog,
    _fast_shapes,
    _fastpath,
    _inbox,
    _plan,
    _reader,
    _timestamp_order,
    _trace,
    _writer,
    testing,
)
from mplp_models._context import EXTRA_FUNCTIONS, ContextRootBehaviour
from mplp_models._fast_shapes import Facts, fast_path_problems, is_plain
from mplp_models._generated.mplp.v1_0.mplp_context_schema import ContextRoot
from mplp_models._json_values import MAX_OPEN_OBJECT_DEPTH


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
    return on_both_paths(lambda: outcome(model, raw, **options))


def on_both_paths(run: Callable[[], Any]) -> tuple[Any, Any]:
    """What ``run`` gives with the fast paths on, and with them off."""
    with fast_paths(True):
        fast = run()
    with fast_paths(False):
        strict = run()
    return fast, strict


def written_or_refusal(model: Callable[[], mm.MplpModel], change: Callable[[mm.MplpModel], None]) -> Any:
    """The canonical bytes of the model made and then changed in place, or the writer's refusal."""
    made = model()
    change(made)
    try:
        return made.to_json()
    except mm.CanonicalJSONError as error:
        return str(error)


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
    # With the rules: a mutation that breaks one compares the rules' errors, found with and without
    # their short-cuts (schema-only readings are compared in test_differential, both ways).
    def judge(mutated: Any) -> str | None:
        fast, strict = both_ways(model, json.dumps(mutated).encode())
        return None if fast == strict else f"on {str(fast)[:300]}; off {str(strict)[:300]}"

    differences = mutation_disagreements(model, judge)
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


def test_the_switch_names_the_fast_paths_to_turn_off() -> None:
    script = "from mplp_models import _fastpath; print(_fastpath.ENABLED, sorted(_fastpath.OFF))"
    seen = {}
    for value in ("reading", "reading, writing", "reading,nonsense", "all"):
        env = {**os.environ, "MPLP_MODELS_NO_FAST_PATHS": value}
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        seen[value] = done.stdout.strip()
    every = str(sorted(_fastpath.NAMES))
    assert seen == {
        "reading": "True ['reading']",
        "reading, writing": "True ['reading', 'writing']",
        "reading,nonsense": f"False {every}",  # not a list of names: every one off, as "1" does
        "all": f"False {every}",
    }


@pytest.mark.parametrize("off", sorted(_fastpath.NAMES))
def test_each_name_turns_its_own_fast_path_off(off: str, monkeypatch: pytest.MonkeyPatch) -> None:
    check, write = Calls(_reader.counts_agree), Calls(_writer.model_members)
    monkeypatch.setattr(_reader, "counts_agree", check)
    monkeypatch.setattr(_writer, "model_members", write)
    raw = (PAYLOADS / "plan.json").read_bytes()
    with fast_paths(True), pytest.MonkeyPatch.context() as patch:
        patch.setattr(_fastpath, "OFF", frozenset({off}))
        plan = mm.Plan.from_json(raw)
        assert mm.parse(raw) == plan  # parse's own reading asks the same switch
        assert plan.to_json() == mm.canonical_json(json.loads(raw))
    assert (check.count > 0, write.count > 0) == (off != "reading", off != "writing")


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
    check, write = Calls(_reader.counts_agree), Calls(_writer.model_members)  # the proof's counts
    monkeypatch.setattr(_reader, "counts_agree", check)
    monkeypatch.setattr(_writer, "model_members", write)
    raw = (PAYLOADS / "plan.json").read_bytes()
    with fast_paths(enabled):
        plan = mm.Plan.from_json(raw)
        mm.Plan.model_validate_json(raw)
        plan.to_json()
    assert (check.count, write.count > 0) == ((2, True) if enabled else (0, False))


@pytest.mark.parametrize("enabled", [True, False])
def test_the_rules_skip_their_detailed_passes_only_when_on(enabled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    integrity, timeline = Calls(_plan._step_integrity), Calls(_timestamp_order.earliest_and_latest)
    monkeypatch.setattr(_plan, "_step_integrity", integrity)
    monkeypatch.setattr(_dialog, "earliest_and_latest", timeline)
    with fast_paths(enabled):
        assert mm.Plan.from_json((PAYLOADS / "plan.json").read_bytes()).check() == []
        dialog = mm.Dialog.from_json((PAYLOADS / "dialog.json").read_bytes())
    assert dialog.started_at is not None  # so the timeline rules have something to check
    # On: the sound plan is proven sound in bulk, the timeline by its ends. Off: every rule runs.
    assert (integrity.count, timeline.count) == ((0, 1) if enabled else (2, 0))


@pytest.mark.parametrize("enabled", [True, False])
def test_the_whole_model_rule_checks_run_only_when_on(enabled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: dict[str, int] = {"trace": 0, "inbox": 0, "in text order": 0}

    def counted(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            calls[name] += 1
            return function(*args)

        return call

    monkeypatch.setattr(_trace, "_plainly_sound", counted("trace", _trace._plainly_sound))
    inbox = _inbox.InboxMessageBehaviour
    monkeypatch.setattr(inbox, "_plainly_sound", counted("inbox", inbox._plainly_sound))
    monkeypatch.setattr(_timestamp_order, "in_text_order", counted("in text order", _timestamp_order.in_text_order))
    with fast_paths(enabled):
        kinds: dict[str, type[mm.Trace | mm.InboxMessage | mm.Confirm]] = {
            "trace.json": mm.Trace,
            "inbox.json": mm.InboxMessage,
            "confirm.json": mm.Confirm,
        }
        for name, kind in kinds.items():
            assert kind.from_json((PAYLOADS / name).read_bytes()).check() == []
    # On: each whole-model check runs (once reading, once in check()), and the confirm's
    # decisions are compared in one pass (none_before asks in_text_order). Off: none of them.
    assert calls == ({"trace": 2, "inbox": 2, "in text order": 2} if enabled else dict.fromkeys(calls, 0))


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
    monkeypatch.setattr(_fast_shapes, "fast_path_problems", lambda kind: [])
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


@pytest.mark.parametrize("name", ["FieldSerializer", "ModelSerializer", "AnnotatedSerializer"])
def test_a_class_found_not_plain_is_written_by_its_own_serializers(name: str) -> None:
    # Its shape known before the writing (as it is after any reading or writing), the writer must
    # still refuse it the fast path: the user's serializer decides what is written.
    kind = VARIANTS[name]
    model = kind.model_validate_json((PAYLOADS / "event.json").read_bytes())
    _fast_shapes.is_plain(type(model))
    assert model.to_json() == mm.canonical_json(json.loads(model.model_dump_json()))


def test_the_sdks_own_validators_and_serializers_pass() -> None:
    # Plan holds every one of them: the rules, given_members, and each function of the types.
    functions = _fast_shapes._core_functions(mm.Plan.__pydantic_core_schema__)
    extra = {id(function) for function in EXTRA_FUNCTIONS}  # the open root's, in no plan
    assert {id(function) for function in functions} == set(_fast_shapes._OWN) - extra
    assert fast_path_problems(mm.Plan) == [] and is_plain(mm.Plan)
    # ContextRoot holds the other two: its extra keys' check (held bound to the class) and writer.
    root = [
        *_fast_shapes._core_functions(ContextRoot.__pydantic_core_schema__),
        *_fast_shapes._decorated_functions(ContextRoot),
    ]
    assert {id(_fast_shapes._unbound(function)) for function in root} >= extra
    assert fast_path_problems(ContextRoot) == [] and is_plain(ContextRoot) and is_plain(mm.Context)


# --- the open root of a context: its extra keys on the fast paths ------------

CONTEXT = (PAYLOADS / "context.json").read_bytes()
ROOT_START = b'"root":{'


def with_root_keys(members: bytes) -> bytes:
    """The context payload with ``members`` (JSON text, no braces) first in its root object."""
    compact = json.dumps(json.loads(CONTEXT), separators=(",", ":"), ensure_ascii=False).encode()
    assert compact.count(ROOT_START) == 1
    return compact.replace(ROOT_START, ROOT_START + members + b",", 1)


ROOT_TEXTS: dict[str, bytes] = {
    "keys of its own": with_root_keys(
        b'"repo":{"branch":"main","weights":[0.1,1e21,-0.0,5e-324]},"n":9007199254740991'
    ),
    "duplicate key of its own": with_root_keys(b'"x":1,"x":2'),
    "duplicate key of its own, same value": with_root_keys(b'"x":1,"x":1'),
    "duplicate of a field": with_root_keys(b'"domain":"other"'),
    "duplicate inside a key of its own": with_root_keys(b'"x":{"a":1,"a":2}'),
    "duplicate spelled with an escape": with_root_keys(rb'"x\\u003a":1,"x\u003a":1,"x:":2'),
    "NaN": with_root_keys(b'"x":NaN'),
    "Infinity": with_root_keys(b'"x":[-Infinity]'),
    "overflow": with_root_keys(b'"x":1e400'),
    "integer beyond 2**53": with_root_keys(b'"x":9007199254740993'),
    "integer beyond 64 bits": with_root_keys(b'"x":123456789012345678901234567890'),
    "lone surrogate": with_root_keys(rb'"x":"\ud800"'),
    "keys in UTF-16 order": with_root_keys('"😀":1,"￿":2,"é":3'.encode()),
    "nested too deep": with_root_keys(b'"x":' + b"[" * 130 + b"]" * 130),
    "keys in sorted order": with_root_keys(b'"z":null,"a":true,"m":"s:t"'),
}


@pytest.mark.parametrize("name", list(ROOT_TEXTS))
@pytest.mark.parametrize("allow_duplicate_keys", [False, True])
def test_a_root_with_keys_of_its_own_reads_and_writes_the_same_both_ways(name: str, allow_duplicate_keys: bool) -> None:
    fast, strict = both_ways(mm.Context, ROOT_TEXTS[name], allow_duplicate_keys=allow_duplicate_keys)
    assert fast == strict


@pytest.mark.parametrize("name", ["keys of its own", "keys in sorted order"])
def test_a_root_with_keys_of_its_own_takes_the_fast_paths(name: str) -> None:
    raw = ROOT_TEXTS[name]
    fast = mm.Context.__pydantic_validator__.validate_json(raw)
    assert fast.root.model_extra and proof_holds(raw, fast)
    written = orjson.dumps(fast, default=_writer.model_members, option=_writer._FAST)
    with fast_paths(False):
        assert written == fast.to_json()


@pytest.mark.parametrize(
    "name",
    [
        "duplicate key of its own",
        "duplicate key of its own, same value",
        "duplicate of a field",
        "duplicate inside a key of its own",
        "duplicate spelled with an escape",
        "integer beyond 2**53",
    ],
)
def test_the_check_turns_down_a_root_the_json_mode_cannot_be_trusted_with(name: str) -> None:
    raw = ROOT_TEXTS[name]
    assert not proof_holds(raw, mm.Context.__pydantic_validator__.validate_json(raw))


def test_keys_in_utf16_order_are_written_by_the_strict_path() -> None:
    context = mm.Context.from_json(ROOT_TEXTS["keys in UTF-16 order"])
    with pytest.raises(_writer.Unproven):
        _writer.model_members(context.root)  # orjson would sort them by code point
    assert '"é":3,"\U0001f600":1,"\uffff":2'.encode() in context.to_json()


@given(testing.instances(mm.Context))
@settings(max_examples=examples(quick=40, deep=400), deadline=None, suppress_health_check=list(HealthCheck))
def test_generated_contexts_read_and_write_the_same_both_ways(context: mm.Context) -> None:
    with fast_paths(False):
        raw = context.to_json()
    with fast_paths(True):
        assert context.to_json() == raw
    fast, strict = both_ways(mm.Context, raw)
    assert fast == strict
    assert fast[0] == "read"


def nested(levels: int) -> list[Any]:
    """An array nested ``levels`` deep."""
    value: list[Any] = []
    for _ in range(levels - 1):
        value = [value]
    return value


@pytest.mark.parametrize(
    "change",
    [
        lambda extra: extra.update(x=float("nan")),
        lambda extra: extra.update(x={"y": [float("inf")]}),
        lambda extra: extra.update(x="\ud800"),
        lambda extra: extra.update({"\ud800": 1}),
        lambda extra: extra.update(x=nested(130)),
        lambda extra: extra.update(x=2**70 + 1),
        lambda extra: extra.update(x=(1, 2.5)),
    ],
    ids=["NaN", "infinity inside", "lone surrogate", "lone surrogate key", "too deep", "large integer", "tuple"],
)
def test_keys_of_its_own_changed_in_place_are_written_or_refused_the_same_both_ways(change: Any) -> None:
    def change_extra(context: Any) -> None:
        extra = context.root.model_extra
        assert extra is not None
        change(extra)

    fast, strict = on_both_paths(
        lambda: written_or_refusal(lambda: mm.Context.from_json(ROOT_TEXTS["keys of its own"]), change_extra)
    )
    assert fast == strict


def open_event(*, checked: bool, told: bool = True) -> type[mm.MplpModel]:
    """An event that keeps extra keys: checked as the context's root checks them, or not at all; its facts
    saying that it keeps them (``told``), as the codegen's do, or not."""
    base: type[mm.MplpModel] = type("CheckedEvent", (ContextRootBehaviour, mm.Event), {}) if checked else mm.Event
    facts = mm.Event.__mplp_facts__._replace(extra=told)

    class OpenEvent(base, frozen=True):  # type: ignore[misc, valid-type, call-arg]
        __module__ = GENERATED
        model_config = ConfigDict(extra="allow")
        __mplp_facts__: ClassVar[Facts] = facts

    return OpenEvent


NAN_EXTRA = DUPLICATE_SOURCE.replace(b'"source":"evil",', b'"x":NaN,')


def test_unchecked_extra_keys_are_caught_by_the_condition_check() -> None:
    unchecked, checked = open_event(checked=False), open_event(checked=True)
    untold = open_event(checked=True, told=False)
    assert fast_path_problems(unchecked) == ["extra='allow': keys that are no field, not checked as an open object"]
    assert fast_path_problems(untold) == ["extra='allow' where its facts (__mplp_facts__) say it keeps no extra keys"]
    assert fast_path_problems(checked) == [] and is_plain(checked)
    for kind in (unchecked, checked, untold):
        with pytest.raises(ValidationError):
            kind.from_json(NAN_EXTRA)


def test_without_the_condition_check_unchecked_extra_keys_let_a_nan_through(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the checks are for: pydantic's JSON mode reads NaN, written back as null with the same colons
    # (the extra key counted as a field given), and a screen told of no extra keys does not look at them.
    monkeypatch.setattr(_fast_shapes, "fast_path_problems", lambda kind: [])
    unchecked = open_event(checked=False, told=False)
    with fast_paths(True):
        assert math.isnan(unchecked.from_json(NAN_EXTRA).model_extra["x"])  # type: ignore[index]
    with fast_paths(False), pytest.raises(ValidationError):
        unchecked.from_json(NAN_EXTRA)


def test_a_declared_type_of_the_extra_keys_is_caught_by_the_condition_check() -> None:
    class TypedRoot(ContextRoot, frozen=True):
        __module__ = GENERATED
        __pydantic_extra__: dict[str, int]  # pyright: ignore[reportIncompatibleVariableOverride]

    assert fast_path_problems(TypedRoot) == ["a declared type for its extra keys (__pydantic_extra__)"]
    assert not is_plain(TypedRoot)


# --- a model's open objects screened for depth together ------------------------

LEARNING = (PAYLOADS / "learning-sample.json").read_bytes()


def learning_sample(*, others: str) -> mm.LearningSample:
    """The learning sample, with its open objects as read, or only two, empty: ``metadata`` and ``graph_before``."""
    document = json.loads(LEARNING)
    if others == "one empty":
        loose = _fast_shapes.facts_of(mm.LearningSample).prepared
        required = {name for name, field in mm.LearningSample.model_fields.items() if field.is_required()}
        for name in set(loose) - required - {"metadata"}:
            document.pop(name, None)
        document["graph_before"] = document["metadata"] = {}
    return mm.LearningSample.from_json(json.dumps(document))


@pytest.mark.parametrize("depth", [MAX_OPEN_OBJECT_DEPTH - 1, MAX_OPEN_OBJECT_DEPTH, MAX_OPEN_OBJECT_DEPTH + 1])
@pytest.mark.parametrize("others", ["as read", "one empty"])
def test_one_open_object_among_several_nested_to_the_limit_is_written_or_refused_as_strictly(
    depth: int, others: str
) -> None:
    # The screen of them all together counts the brackets of every one of them and one of its own:
    # were it to allow two more, the object one level too deep, beside an empty one, would get through.
    def deepen(sample: Any) -> None:
        assert sample.metadata is not None
        sample.metadata["deep"] = nested(depth - 1)  # the metadata object is one level itself

    fast, strict = on_both_paths(lambda: written_or_refusal(lambda: learning_sample(others=others), deepen))
    assert fast == strict
    assert isinstance(fast, str) is (depth > MAX_OPEN_OBJECT_DEPTH)
