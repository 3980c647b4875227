"""The fast paths give exactly what the plain paths give: reading, writing, rules, timestamps, imports, pickling.

The tests that compare a fast path with its strict path run with the fast
paths on and off (``either_path``); off, both sides take the strict path,
without the short-cuts of ``load_json`` and of the rules.
"""

from __future__ import annotations

import ast
import itertools
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
import rfc8785
from conftest import PAYLOAD_FILES, PAYLOADS, ROOT, fixture, mutate
from fast_path_switch import either_path, fast_paths, proof_holds  # noqa: F401  # either_path: a fixture
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

import mplp_models as mm
from mplp_models import _plan, _public
from mplp_models._json_input import load_json
from mplp_models._kinds import KINDS
from mplp_models._timestamp_order import earliest_and_latest, is_before

EVENT = (PAYLOADS / "event.json").read_bytes()


def strict_reading(model: type[mm.MplpModel], data: bytes, **options: Any) -> Any:
    """What from_json gave before its fast path: orjson, the duplicate check, then a validation of Python objects."""
    try:
        return model.model_validate(load_json(data, model.__name__, **options))
    except ValidationError as error:
        return mm.errors_as_json(error)


def reading(model: type[mm.MplpModel], data: bytes, **options: Any) -> Any:
    try:
        return model.from_json(data, **options)
    except ValidationError as error:
        return mm.errors_as_json(error)


def same(a: Any, b: Any) -> bool:
    if isinstance(a, mm.MplpModel):
        return type(a) is type(b) and a == b and a.model_fields_set == b.model_fields_set and written(a) == written(b)
    return bool(a == b)


def written(model: mm.MplpModel) -> bytes | str:
    try:
        return model.to_json()
    except mm.CanonicalJSONError as error:
        return str(error)


# --- reading ------------------------------------------------------------------

SOURCE = b'"source": "plan"'
DATA = b'"steps": 5'
EVENT_VARIANTS = {
    "as is": EVENT,
    "compact": orjson.dumps(json.loads(EVENT)),
    "duplicate field": EVENT.replace(SOURCE, SOURCE + b', "source": "other"'),
    "duplicate field, same value": EVENT.replace(SOURCE, SOURCE + b", " + SOURCE),
    "duplicate in open object": EVENT.replace(DATA, DATA + b', "steps": 6'),
    "duplicate spelled with an escape": EVENT.replace(SOURCE, SOURCE + b', "\\u0073ource": "x"'),
    "escaped colon": EVENT.replace(SOURCE, b'"source": "a\\u003ab:c"'),
    "escaped colon, upper case": EVENT.replace(SOURCE, b'"source": "a\\u003Ab"'),
    "escaped backslash before u003a": EVENT.replace(SOURCE, b'"source": "a\\\\u003ab"'),
    "escaped colon hiding a duplicate": EVENT.replace(SOURCE, b'"source": "a\\u003ab", "source": "c"'),
    "big integer": EVENT.replace(DATA, b'"steps": 123456789012345678901234567890'),
    "integer beyond 2**53": EVENT.replace(DATA, b'"steps": 9007199254740993'),
    "integer beyond a double": EVENT.replace(DATA, b'"steps": ' + b"9" * 400),
    "NaN in open object": EVENT.replace(DATA, b'"steps": NaN'),
    "Infinity in open object": EVENT.replace(DATA, b'"steps": [1, -Infinity]'),
    "overflow in open object": EVENT.replace(DATA, b'"steps": {"n": 1e400}'),
    "float in open object": EVENT.replace(DATA, b'"steps": 1e16'),
    "lone surrogate": EVENT.replace(SOURCE, b'"source": "\\ud800"'),
    "invalid UTF-8": EVENT.replace(SOURCE, b'"source": "\xff"'),
    "encoded surrogate": EVENT.replace(SOURCE, b'"source": "\xed\xa0\x80"'),
    "non-ASCII": EVENT.replace(SOURCE, '"source": "pl\u00e4n \u4e2d \U0001f600"'.encode()),
    "escaped non-ASCII": EVENT.replace(SOURCE, b'"source": "\\u00e4\\ud83d\\ude00"'),
    "BOM": b"\xef\xbb\xbf" + EVENT,
    "trailing data": EVENT + b"x",
    "deep open object": EVENT.replace(DATA, b'"steps": ' + b"[" * 200 + b"]" * 200),
    "unknown key": EVENT.replace(SOURCE, SOURCE + b', "extra": 1'),
    "null data": EVENT.replace(b'"data": {', b'"data": null, "x": {'),
    "not an object": b"[1, 2]",
}


@pytest.mark.parametrize("name", list(EVENT_VARIANTS))
@pytest.mark.parametrize("allow_duplicate_keys", [False, True])
@pytest.mark.usefixtures("either_path")
def test_from_json_reads_as_the_strict_reading_does(name: str, allow_duplicate_keys: bool) -> None:
    data = EVENT_VARIANTS[name]
    options = {"allow_duplicate_keys": allow_duplicate_keys}
    assert same(reading(mm.Event, data, **options), strict_reading(mm.Event, data, **options))


@pytest.mark.parametrize("path", PAYLOAD_FILES, ids=lambda path: path.name)
@pytest.mark.usefixtures("either_path")
def test_every_payload_takes_the_fast_path_and_reads_the_same(path: Path) -> None:
    data = path.read_bytes()
    kind = type(mm.parse(data))
    fast = kind.__pydantic_validator__.validate_json(data)  # pydantic's own JSON mode, as the fast path reads
    assert proof_holds(data, fast)  # a context's root, open, included: its extra keys are counted too
    assert same(kind.from_json(data), strict_reading(kind, data))
    assert same(kind.from_json(data, semantic=False), kind.model_validate(json.loads(data), context=mm.SCHEMA_ONLY))


@pytest.mark.parametrize(
    "name",
    [
        "duplicate field",
        "duplicate field, same value",
        "duplicate in open object",
        "duplicate spelled with an escape",
        "escaped backslash before u003a",
        "escaped colon hiding a duplicate",
        "integer beyond 2**53",
    ],
)
def test_the_check_turns_down_what_the_json_mode_cannot_be_trusted_with(name: str) -> None:
    data = EVENT_VARIANTS[name]
    assert not proof_holds(data, mm.Event.__pydantic_validator__.validate_json(data))


@pytest.mark.parametrize("name", ["NaN in open object", "Infinity in open object", "overflow in open object"])
def test_the_json_mode_refuses_non_finite_numbers_in_open_objects(name: str) -> None:
    with pytest.raises(ValidationError):
        mm.Event.__pydantic_validator__.validate_json(EVENT_VARIANTS[name])


@pytest.mark.usefixtures("either_path")
def test_a_dialog_with_duplicates_in_many_places_reads_as_the_strict_reading_does() -> None:
    dialog = (PAYLOADS / "dialog.json").read_bytes()
    document = json.loads(dialog)
    for message in range(len(document["messages"])):
        text = json.dumps(document)
        target = json.dumps(document["messages"][message])
        twice = target.replace('"role": ', '"role": "user", "role": ', 1)
        variant = text.replace(target, twice, 1).encode()
        assert same(reading(mm.Dialog, variant), strict_reading(mm.Dialog, variant))


# --- writing ------------------------------------------------------------------


@pytest.mark.parametrize("path", PAYLOAD_FILES, ids=lambda path: path.name)
@pytest.mark.usefixtures("either_path")
def test_to_json_is_rfc_8785_of_the_payload(path: Path) -> None:
    model = mm.parse(path.read_bytes())
    assert model.to_json() == rfc8785.dumps(json.loads(path.read_bytes()))
    assert model.to_json() == mm.canonical_json(model.to_dict())


@pytest.mark.usefixtures("either_path")
def test_to_json_writes_unset_fields_of_list_items_as_absent() -> None:
    plan = json.loads((PAYLOADS / "plan.json").read_bytes())
    for index, step in enumerate(plan["steps"]):
        step.pop("order_index", None)
        if index % 2:
            step.pop("agent_role", None)
    model = mm.Plan.model_validate(plan)
    assert model.to_json() == rfc8785.dumps(plan)
    assert all(step.order_index is None for step in model.steps)


def test_to_json_never_changes_the_model() -> None:
    model = mm.Plan.from_json((PAYLOADS / "plan.json").read_bytes())
    before = [dict(vars(step)) for step in model.steps]
    model.to_json()
    assert [dict(vars(step)) for step in model.steps] == before
    changed = model.model_copy(
        update={"steps": (model.steps[0].model_copy(update={"agent_role": "changed"}), *model.steps[1:])}
    )
    assert b'"agent_role":"changed"' in changed.to_json()
    assert b'"agent_role":"changed"' not in model.to_json()


# --- rules --------------------------------------------------------------------

IDS = [f"{n:08x}-0000-4000-8000-{n:012x}" for n in range(1, 7)]
STEP_STATUSES = [status.value for status in mm.PlanStepStatus]


PLAN_DOCUMENT = fixture(mm.Plan)  # read once, not per example


@st.composite
def loose_plans(draw: st.DrawFn) -> dict[str, Any]:
    """Small plans with any mix of duplicate ids, bad or repeated dependencies, cycles and statuses."""
    count = draw(st.integers(1, 6))
    steps = [
        {
            "step_id": draw(st.sampled_from(IDS)),
            "description": "x",
            "status": draw(st.sampled_from(STEP_STATUSES)),
            "dependencies": draw(st.lists(st.sampled_from(IDS), max_size=3)),
        }
        for _ in range(count)
    ]
    # A shallow copy is enough: only top-level keys are replaced.
    return {
        **PLAN_DOCUMENT,
        "steps": steps,
        "status": draw(st.sampled_from([status.value for status in mm.PlanStatus])),
    }


@given(loose_plans())
def test_the_bulk_checks_never_hide_a_plan_violation(document: dict[str, Any]) -> None:
    plan = mm.Plan.model_validate(document, context=mm.SCHEMA_ONLY)
    with fast_paths(True):
        found = plan.check()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_plan, "_sound_graph", lambda *args: False)
            patch.setattr(_plan, "_statuses_agree", lambda *args: False)
            assert plan.check() == found
    with fast_paths(False):  # every short-cut off: _listed_in_order and the per-step check too
        assert plan.check() == found


def _stamp(day: int, second: int, fraction: str, offset: str, separator: str = "T") -> mm.Timestamp:
    return mm.Timestamp(f"2026-03-{day:02d}{separator}23:59:{second:02d}{fraction}{offset}")


STAMPS = st.builds(
    _stamp,
    st.integers(1, 3),
    st.sampled_from([0, 30, 59, 60]),
    st.sampled_from(["", ".5", ".50", ".000", ".999", ".123456789"]),
    st.sampled_from(["Z", "z", "+00:00", "-01:30", "+14:00"]),
    st.sampled_from(["T", "t"]),
)


@given(st.lists(STAMPS, min_size=1, max_size=8))
def test_earliest_and_latest_order_by_instant(stamps: list[mm.Timestamp]) -> None:
    with fast_paths(True):
        earliest, latest = earliest_and_latest(stamps)
    with fast_paths(False):  # instant() of each, read from the parts of the text
        expected = min(stamp.instant() for stamp in stamps), max(stamp.instant() for stamp in stamps)
        assert (earliest.instant(), latest.instant()) == expected


@given(STAMPS)
def test_timestamps_read_the_same_with_the_fast_paths_off(stamp: mm.Timestamp) -> None:
    with fast_paths(True):
        fast = stamp.instant(), stamp.to_datetime()
    with fast_paths(False):
        strict = stamp.instant(), stamp.to_datetime()
    assert fast == strict and fast[1].utcoffset() == strict[1].utcoffset()


@given(STAMPS, STAMPS)
def test_is_before_orders_by_instant(first: mm.Timestamp, second: mm.Timestamp) -> None:
    assert is_before(first, second) is (first.instant() < second.instant())


@given(st.lists(st.builds(_stamp, st.integers(1, 3), st.integers(0, 59), st.just(".250"), st.just("Z")), min_size=1))
def test_earliest_and_latest_of_uniform_texts(stamps: list[mm.Timestamp]) -> None:
    assert earliest_and_latest(stamps) == (min(stamps, key=mm.Timestamp.instant), max(stamps, key=mm.Timestamp.instant))


@pytest.mark.usefixtures("either_path")
def test_dialog_rules_agree_with_each_message_checked_alone() -> None:
    document = json.loads((PAYLOADS / "dialog.json").read_bytes())
    rng = random.Random(7)
    for _ in range(200):
        variant = json.loads(json.dumps(document))
        for message in variant["messages"]:
            message["timestamp"] = f"2026-03-0{rng.randint(1, 3)}T1{rng.randint(0, 2)}:00:0{rng.randint(0, 9)}Z"
        variant["started_at"] = "2026-03-02T10:00:00Z"
        variant["ended_at"] = rng.choice(["2026-03-02T12:00:00.000Z", "2026-03-03T00:00:00Z"])
        dialog = mm.Dialog.model_validate(variant, context=mm.SCHEMA_ONLY)
        start, end = dialog.started_at, dialog.ended_at
        assert start is not None and end is not None
        expected = [
            (("messages", position, "timestamp"), code)
            for position, message in enumerate(dialog.messages)
            for code, broken in (
                ("message_before_start", message.timestamp.instant() < start.instant()),
                ("message_after_end", message.timestamp.instant() > end.instant()),
            )
            if broken
        ]
        assert [(violation.loc, violation.code) for violation in dialog.check()] == expected


# --- bounds in the core schema ------------------------------------------------


@pytest.mark.parametrize(
    ("model", "path", "value", "kind"),
    [
        (mm.Plan, ("steps", 0, "order_index"), -1, "greater_than_equal"),
        (mm.Plan, ("steps", 0, "order_index"), -2.0, "greater_than_equal"),
        (mm.Plan, ("steps", 0, "order_index"), 1.5, "json_integer"),
        (mm.LearningSample, ("token_usage", "total_tokens"), -0.5, "greater_than_equal"),
        (mm.LearningSample, ("impact_score",), 1.5, "less_than_equal"),
        (mm.LearningSample, ("user_feedback", "rating"), 6, "less_than_equal"),
        (mm.LearningSample, ("user_feedback", "rating"), "5", "json_number"),
    ],
)
def test_bounds_fail_with_pydantics_own_errors(
    model: type[mm.MplpModel], path: tuple[Any, ...], value: Any, kind: str
) -> None:
    document = mutate(fixture(model), path, value)
    with pytest.raises(ValidationError) as caught:
        model.model_validate(document)
    (error,) = caught.value.errors()
    assert error["type"] == kind and error["loc"] == path


def test_bounded_numbers_keep_their_type() -> None:
    document = json.loads((PAYLOADS / "learning-sample.json").read_bytes())
    document["user_feedback"]["rating"] = 4
    document["impact_score"] = 0.25
    sample = mm.LearningSample.model_validate(document)
    assert type(sample.user_feedback.rating) is int and type(sample.impact_score) is float  # type: ignore[union-attr]


# --- pickling -----------------------------------------------------------------


@pytest.mark.parametrize("path", PAYLOAD_FILES, ids=lambda path: path.name)
@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_models_pickle_and_unpickle_equal(path: Path, protocol: int) -> None:
    model = mm.parse(path.read_bytes())
    copy = pickle.loads(pickle.dumps(model, protocol=protocol))
    assert same(copy, model)
    for original, restored in zip(_models_in(model), _models_in(copy)):
        assert type(restored) is type(original) and restored.model_fields_set == original.model_fields_set
    copy.to_json()  # the copy writes as the original does, and stays validated on assignment
    if isinstance(copy, mm.Plan):
        with pytest.raises(ValidationError):
            copy.steps[0].step_id = "not an id"  # type: ignore[misc]


def _models_in(model: mm.MplpModel) -> list[mm.MplpModel]:
    found = [model]
    for value in vars(model).values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, mm.MplpModel):
                found += _models_in(item)
    return found


def test_timestamps_and_statuses_pickle_as_themselves() -> None:
    stamp = mm.Timestamp("2026-03-01T10:00:00.000Z")
    assert type(pickle.loads(pickle.dumps(stamp))) is mm.Timestamp
    assert pickle.loads(pickle.dumps(mm.PlanStatus.draft)) is mm.PlanStatus.draft


# --- lazy imports -------------------------------------------------------------


def test_the_lazy_names_are_the_typed_names_and_all_of_them() -> None:
    tree = ast.parse((ROOT / "src" / "mplp_models" / "__init__.py").read_text(encoding="utf-8"))
    checked = [
        statement
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for statement in node.body
    ]
    typed = {
        *(alias.asname or alias.name for node in checked if isinstance(node, ast.ImportFrom) for alias in node.names),
        *(node.name for node in checked if isinstance(node, ast.ClassDef)),  # the @deprecated stand-ins
    }
    # The earlier names, and those that moved to a module of their own, are typed too (they still
    # work), and warn: they are not in the table or __all__. The stand-ins' decorator and base module too.
    earlier = {*mm._DEPRECATED, *_public.MOVED, "deprecated", "_chat_formats"}
    assert typed - earlier == set(mm._LOCATIONS) == set(mm.__all__) - {"__version__"}
    assert set(_public.MOVED) <= typed
    for name, location in mm._LOCATIONS.items():
        assert getattr(sys.modules.get(location) or __import__(location, fromlist=[name]), name) is getattr(mm, name)
    assert set(mm.__all__) <= set(dir(mm))
    with pytest.raises(AttributeError):
        mm.NoSuchName  # type: ignore[attr-defined]  # noqa: B018


def test_importing_the_package_loads_nothing_yet() -> None:
    script = (
        "import sys, mplp_models;"
        " print(sorted(m for m in sys.modules if m.startswith(('pydantic', 'orjson', 'mplp_models.'))))"
    )
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['mplp_models._public', 'mplp_models._version']"  # the table of names
    script = "import sys; from mplp_models import Plan; print('mplp_models._parse' in sys.modules, Plan.__name__)"
    assert subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split() == ["False", "Plan"]


def loaded_after(code: str) -> set[str]:
    """The package's hand-written modules loaded once ``code`` has run in a fresh interpreter.

    ``_generated`` is left out.
    """
    script = f"import sys\n{code}\nprint(' '.join(m for m in sys.modules if m.startswith('mplp_models')))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    return {name.removeprefix("mplp_models.") for name in out.split() if "._generated" not in name}


INTEGRATIONS = {"_chat", "_cloudevents", "_conversion", "_llm_schema", "_llm_read", "_cli.main", "_pictures", "otel"}


@pytest.mark.parametrize("name", ["Role", "Plan", "Event", "Context", "Dialog", "InboxMessage"])
def test_using_a_model_loads_no_integration(name: str) -> None:
    # The chat formats and CloudEvents attach to Dialog and Event, and load when a method of theirs runs.
    loaded = loaded_after(f"import mplp_models as mm\nmm.{name}.model_fields")
    assert {"_base", "_reader", "_writer"} <= loaded
    assert not loaded & INTEGRATIONS, loaded & INTEGRATIONS


def test_a_chat_or_cloudevents_method_loads_its_integration_when_called() -> None:
    dialog = (PAYLOADS / "dialog.json").as_posix()
    event = (PAYLOADS / "event.json").as_posix()
    loaded = loaded_after(
        f"import mplp_models as mm\nmm.Dialog.from_json(open({dialog!r}, 'rb').read())"
        ".to_openai_messages(drop_events=True, agent_role='assistant')"
    )
    assert {"_chat", "_conversion"} <= loaded and "_cloudevents" not in loaded
    loaded = loaded_after(f"import mplp_models as mm\nmm.Event.from_json(open({event!r}, 'rb').read()).to_cloudevent()")
    assert {"_cloudevents", "_conversion"} <= loaded and "_chat" not in loaded


def test_a_picture_method_loads_the_pictures_when_called_and_opentelemetry_never() -> None:
    plan = (PAYLOADS / "plan.json").as_posix()
    code = f"import mplp_models as mm\nmm.Plan.from_json(open({plan!r}, 'rb').read()).to_mermaid()"
    loaded = loaded_after(code)
    assert "_pictures" in loaded and not loaded & (INTEGRATIONS - {"_pictures"}), loaded
    script = f"import sys\n{code}\nprint(any(m.startswith('opentelemetry') for m in sys.modules))"
    assert (
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.strip()
        == "False"
    )


def test_a_model_is_built_when_its_module_is_imported() -> None:
    # Not deferred to first use: a deferred build showed no signature until then, and a TypeAdapter
    # built first got the model's schema without the model's config (docs/pydantic.md).
    script = (
        "import mplp_models as mm; print(mm.Plan.__pydantic_complete__, mm.PlanStep.__pydantic_complete__,"
        " mm.Plan.from_json(open(r'%s', 'rb').read()).plan_id)"
    )
    out = subprocess.run(
        [sys.executable, "-c", script % (PAYLOADS / "plan.json")], capture_output=True, text=True, check=True
    )
    plan_complete, step_complete, plan_id = out.stdout.split()
    assert (
        plan_complete == step_complete == "True"
        and plan_id == json.loads((PAYLOADS / "plan.json").read_bytes())["plan_id"]
    )


def test_fixtures_cover_every_model_kind() -> None:
    kinds = {type(mm.parse(path.read_bytes())) for path in PAYLOAD_FILES}
    assert kinds == {kind.model for kind in KINDS} - {mm.TraceBase}
    assert list(itertools.chain(PAYLOAD_FILES))  # (TraceBase is inside the plan and the learning sample)


# Classes of the user's own take the strict paths: the fast ones know only the generated classes.

DUPLICATE_SOURCE = (
    b'{"event_id":"f6000000-0000-4000-9000-000000000001","event_type":"plan.created",'
    b'"source":"evil","source":"plan","timestamp":"2026-03-01T09:00:00.000Z"}'
)


def test_a_subclass_with_a_colon_in_a_default_still_refuses_duplicate_keys() -> None:
    class NotedEvent(mm.Event, frozen=True):
        note: str = "see: x"  # an unset field that writes back with a colon of its own

    with pytest.raises(ValidationError) as caught:
        NotedEvent.from_json(DUPLICATE_SOURCE)
    assert mm.errors_as_json(caught.value)[0]["code"] == "json_duplicate_key"


def test_a_model_of_the_users_own_refuses_duplicate_keys() -> None:
    class Note(mm.MplpModel, frozen=True):
        text: str = "a:b"

    class Box(mm.MplpModel, frozen=True):
        name: str
        note: Note = Note()

    with pytest.raises(ValidationError):
        Box.from_json(b'{"name":"a","name":"b"}')
    assert Box.from_json(b'{"name":"b"}').to_json() == b'{"name":"b"}'


def test_to_json_of_a_subclass_honours_its_serializers_and_extra_fields() -> None:
    from pydantic import ConfigDict, computed_field, field_serializer

    class LoudEvent(mm.Event, frozen=True):
        model_config = ConfigDict(extra="allow")

        @field_serializer("source")
        def loud(self, source: str) -> str:
            return source.upper()

        @computed_field  # type: ignore[prop-decorator]
        @property
        def kind(self) -> str:
            return "loud"

    event = LoudEvent.model_validate({**json.loads((PAYLOADS / "event.json").read_bytes()), "x_note": 1e16})
    assert event.to_json() == mm.canonical_json(event.to_dict())
    written = json.loads(event.to_json())
    assert (written["source"], written["kind"], written["x_note"]) == ("PLAN", "loud", 1e16)


def test_field_shapes_are_read_from_built_classes() -> None:
    script = (
        "import pickle, mplp_models as mm, pathlib;"
        "plan = mm.Plan.from_json(pathlib.Path('examples/payloads/plan.json').read_bytes());"
        "data = pickle.dumps(plan);"
        "import subprocess, sys;"
        "code = 'import pickle, sys; from mplp_models._fast_shapes import facts_of;'"
        " ' plan = pickle.loads(sys.stdin.buffer.read());'"
        " 'plan.to_json(); print(sorted(facts_of(type(plan)).model_arrays))';"
        "print(subprocess.run("
        "[sys.executable, '-c', code], input=data, capture_output=True, check=True"
        ").stdout.decode())"
    )
    env = {
        name: value for name, value in os.environ.items() if name != "MPLP_MODELS_NO_FAST_PATHS"
    }  # to_json's fast path
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True, cwd=ROOT, env=env)
    assert done.stdout.decode().strip() == "['events', 'steps']"
