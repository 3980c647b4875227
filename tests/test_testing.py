"""mplp_models.testing: every strategy makes valid, sound instances that round-trip, and makes them varied.

Validity is held to three judges: the models (schema and rules, through
``from_json``), the reference draft-07 validator on ``to_dict()``, and the
rules' own ``check()``. Variety is asked of each strategy feature by feature:
optional fields absent and present, nullable ones null, every enum member,
timestamps in every spelling, numbers at the edges, nested objects.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import ROOT, SCHEMA_OF, examples, fixture, is_rfc3339_date_time, reference_accepts
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample
from pydantic import ValidationError
from strategy_timing import first_inputs
from test_docs import python_blocks

import mplp_models as mm
from mplp_models import testing
from mplp_models._rules import RuledModel

# Every public model class (the base excepted): a new model without a strategy fails here.
MODELS: list[type[mm.MplpModel]] = sorted(
    (
        value
        for value in (getattr(mm, name) for name in mm.__all__)
        if inspect.isclass(value) and issubclass(value, mm.MplpModel) and value is not mm.MplpModel
    ),
    key=lambda model: model.__name__,
)
# The models with rules of their own, so a check() method (docs/testing.md names them; a test holds it).
RULED: tuple[type[RuledModel], ...] = tuple(model for model in MODELS if issubclass(model, RuledModel))
VALIDITY = settings(
    max_examples=examples(quick=10, deep=20), deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)


def wrapped(model: type[mm.MplpModel], document: dict[str, Any]) -> tuple[type[mm.MplpModel], dict[str, Any]]:
    """A top-level document with the part in its place, for the reference validator (parts have no schema file)."""
    if model in SCHEMA_OF:
        return model, document
    places: dict[type[mm.MplpModel], tuple[type[mm.MplpModel], str, Callable[[dict[str, Any]], Any]]] = {
        mm.PlanStep: (mm.Plan, "steps", lambda part: [part]),
        mm.DialogMessage: (mm.Dialog, "messages", lambda part: [part]),
        mm.Governance: (mm.Dialog, "governance", lambda part: part),
        mm.ContextRoot: (mm.Context, "root", lambda part: part),
        mm.ConfirmDecision: (mm.Confirm, "decisions", lambda part: [part]),
        mm.TraceSegment: (mm.Trace, "segments", lambda part: [part]),
        mm.CollabParticipant: (mm.Collab, "participants", lambda part: [part]),
        mm.ModuleDescriptor: (mm.Core, "modules", lambda part: [part]),
        mm.NetworkNode: (mm.Network, "nodes", lambda part: [part]),
        mm.Ref: (mm.Dialog, "governance", lambda part: {"lastConfirmRef": part}),
        mm.TokenUsage: (mm.LearningSample, "token_usage", lambda part: part),
        mm.AgentTokenUsage: (mm.LearningSample, "token_usage", lambda part: {"by_agent": [part]}),
        mm.UserFeedback: (mm.LearningSample, "user_feedback", lambda part: part),
        mm.ErrorInfo: (mm.LearningSample, "error_info", lambda part: part),
        mm.LearningSampleTimestamps: (mm.LearningSample, "timestamps", lambda part: part),
        mm.CodeInboxMessageRelations: (mm.CodeInboxMessage, "relations", lambda part: part),
        mm.CIStage: (mm.CIEvent, "stages", lambda part: [part]),
        mm.SampleMeta: (mm.LearningSampleCore, "meta", lambda part: part),
        **{
            getattr(mm, f"{family}{part}"): (getattr(mm, f"{family}Sample"), part.lower(), lambda part: part)
            for family in ("DeltaImpact", "IntentResolution")
            for part in ("Input", "State", "Output", "Meta")
        },
    }
    parent, field, place = places[model]
    return parent, {**fixture(parent), field: place(document)}


def assert_valid(model: type[mm.MplpModel], instance: mm.MplpModel) -> None:
    assert type(instance) is model
    body = instance.to_json()
    again = model.from_json(body)  # the schema and the rules, from JSON text
    assert again == instance
    assert again.to_json() == body
    assert model.model_validate(instance.to_dict()) == instance
    # The reference validator judges what goes over the wire: the canonical text, read back.
    parent, document = wrapped(model, json.loads(body))
    assert reference_accepts(parent, document)
    assert reference_accepts(*wrapped(model, instance.to_dict()))
    if isinstance(instance, RULED):
        assert instance.check() == []


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_every_instance_is_valid_sound_and_round_trips(model: type[mm.MplpModel]) -> None:
    @VALIDITY
    @given(testing.instances(model))
    def check(instance: mm.MplpModel) -> None:
        assert_valid(model, instance)

    check()


def test_the_page_names_every_model_with_a_check_method_and_no_other() -> None:
    page = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    start = page.index("The models with rules beyond their schema, and so a `check()` method, are ")
    sentence = page[start : page.index(";", start)]
    named = set(re.findall(r"`(\w+)`", sentence))
    with_check = {model.__name__ for model in MODELS if callable(getattr(model, "check", None))}
    assert named == with_check
    assert with_check == {model.__name__ for model in RULED}  # check() is the rules' method, and only theirs
    rules_table = {"Plan", "Dialog", "InboxMessage", "Trace", "Confirm", "Collab", "Core", "Network"}  # rules.md
    assert rules_table <= named
    # What the page says has no check() has none.
    rest = page[page.index(";", start) : page.index("\n\n", start)]
    for name in re.findall(r"`(\w+)`", rest):
        assert name == "check" or not hasattr(getattr(mm, name), "check"), name


def discarded_edits(source: str) -> list[str]:
    """The calls of an edit or a move whose result, the new model, is thrown away (outside a ``try``)."""
    edits = re.compile(r"transition\w*|(add|update|remove|insert)_\w+|finish|decide")
    tree = ast.parse(source)
    tried = {id(node) for block in ast.walk(tree) if isinstance(block, ast.Try) for node in block.body}
    return [
        ast.unparse(statement)
        for statement in ast.walk(tree)
        if isinstance(statement, ast.Expr)
        and id(statement) not in tried
        and isinstance(statement.value, ast.Call)
        and isinstance(statement.value.func, ast.Attribute)
        and edits.fullmatch(statement.value.func.attr) is not None
    ]


def test_discarded_edits_finds_a_move_whose_result_is_thrown_away() -> None:
    assert discarded_edits("step.transition('in_progress')\nplan.add_step(step)\n") == [
        "step.transition('in_progress')",
        "plan.add_step(step)",
    ]
    kept = (
        "moved = step.transition('in_progress')\n"
        + "try:\n    plan.transition('completed')\nexcept ValueError:\n    pass\n"
    )
    assert discarded_edits(kept) == []


def test_the_pages_examples_keep_the_new_model_of_every_edit() -> None:
    # Models are frozen: an edit or a move returns the new model, and a call whose result is dropped does nothing.
    for line, code in python_blocks(ROOT / "docs" / "testing.md"):
        assert discarded_edits(code) == [], f"docs/testing.md, the block at line {line}"


def test_the_judges_can_fail() -> None:
    # The same checks refuse a plan that breaks a rule and a part that breaks its schema.
    broken = mm.Plan.model_validate({**fixture(mm.Plan), "status": "completed"}, context=mm.SCHEMA_ONLY)
    with pytest.raises(ValidationError, match="plan_completed_early"):
        assert_valid(mm.Plan, broken)
    step = mm.PlanStep.model_validate(fixture(mm.Plan)["steps"][0])
    parent, document = wrapped(mm.PlanStep, {**step.to_dict(), "status": "finished"})
    assert not reference_accepts(parent, document)


# --- variety -----------------------------------------------------------------------------
# Each check asks whether a strategy produces something: first among a fixed
# sample of its examples (drawn once per strategy), then, if the sample has
# none, by a search of up to BUDGET more (hypothesis.find). Both are
# derandomized, the same on every run; the search per feature means that a
# feature merely clumped away from the sample is still found, and a missing one
# fails.

# The same at both test depths (conftest.examples): a search that finds its feature stops there,
# so a smaller budget would make no passing run faster, only a rare feature go missing.
SAMPLE = 60
BUDGET = 400
_samples: dict[str, list[Any]] = {}


def sample(strategy: st.SearchStrategy[Any]) -> list[Any]:
    """The strategy's first SAMPLE examples, drawn once (strategies of this module have stable reprs)."""
    key = repr(strategy)
    if key not in _samples:
        _samples[key] = drawn(strategy, SAMPLE)
    return _samples[key]


def produces(strategy: st.SearchStrategy[Any], condition: Callable[[Any], object], budget: int = BUDGET) -> bool:
    """Whether the strategy's sample, or one of its first ``budget`` examples, meets the condition."""
    if any(condition(example) for example in sample(strategy)):
        return True
    try:
        find(
            strategy,
            lambda example: bool(condition(example)),
            settings=first_inputs(budget),
        )
    except NoSuchExample:
        return False
    return True


def drawn(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    """The strategy's first ``count`` examples, the same on every run."""
    found: list[Any] = []

    @settings(max_examples=count, derandomize=True, database=None, deadline=None, phases=[Phase.generate])
    @given(strategy)
    def collect(value: Any) -> None:
        found.append(value)

    collect()
    return found


def test_produces_can_say_no() -> None:
    assert produces(st.integers(0, 10**6), lambda value: value == 10**6)
    assert not produces(st.integers(0, 5), lambda value: value == 6, budget=50)


def state(instance: mm.MplpModel, name: str) -> str:
    if name not in instance.model_fields_set:
        return "absent"
    return "null" if getattr(instance, name) is None else "given"


def accepts_null(model: type[mm.MplpModel], instance: mm.MplpModel, name: str) -> bool:
    try:
        model.model_validate({**instance.to_dict(), name: None}, context=mm.SCHEMA_ONLY)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_optional_fields_are_absent_present_and_null(model: type[mm.MplpModel]) -> None:
    strategy = testing.instances(model)
    first = sample(strategy)[0]
    for name, field in model.model_fields.items():
        if field.is_required():
            assert state(first, name) == "given"
            continue
        nullable = accepts_null(model, first, name)
        for wanted in ("absent", "given", "null") if nullable else ("absent", "given"):
            assert produces(strategy, lambda instance: state(instance, name) == wanted), (name, wanted)
        if not nullable:  # the strategy keeps to the schema: no null where it is refused
            assert all(state(instance, name) != "null" for instance in sample(strategy)), name


ENUMS: list[tuple[type[mm.MplpModel], str, type[Any]]] = [
    (mm.Plan, "status", mm.PlanStatus),
    (mm.PlanStep, "status", mm.PlanStepStatus),
    (mm.Dialog, "status", mm.DialogStatus),
    (mm.DialogMessage, "role", mm.DialogMessageRole),
    (mm.InboxMessage, "status", mm.InboxMessageStatus),
    (mm.InboxMessage, "type", mm.InboxMessageType),
    (mm.Ref, "module", mm.RefModule),
    (mm.UserFeedback, "decision", mm.FeedbackDecision),
    (mm.Context, "status", mm.ContextStatus),
    (mm.Confirm, "status", mm.ConfirmStatus),
    (mm.ConfirmDecision, "status", mm.ConfirmDecisionStatus),
    (mm.Trace, "status", mm.TraceStatus),
    (mm.TraceSegment, "status", mm.TraceSegmentStatus),
    (mm.Collab, "mode", mm.CollabMode),
    (mm.CollabParticipant, "kind", mm.CollabParticipantKind),
    (mm.ModuleDescriptor, "module_id", mm.ModuleId),
    (mm.Network, "topology_type", mm.NetworkTopologyType),
    (mm.NetworkNode, "status", mm.NetworkNodeStatus),
    (mm.Extension, "extension_type", mm.ExtensionType),
    (mm.GraphUpdateEvent, "update_kind", mm.GraphUpdateKind),
    (mm.RuntimeExecutionEvent, "executor_kind", mm.ExecutorKind),
    (mm.SAEvent, "event_type", mm.SAEventType),
    (mm.MAPEvent, "event_type", mm.MAPEventType),
    (mm.CIEvent, "status", mm.CIStatus),
    (mm.CIStage, "status", mm.CIStageStatus),
    (mm.GitEvent, "event_kind", mm.GitEventKind),
    (mm.ToolEvent, "tool_kind", mm.ToolKind),
    (mm.DeltaImpactOutput, "impact_scope", mm.ImpactScope),
    (mm.SampleMeta, "human_feedback_label", mm.HumanFeedbackLabel),
]


def test_event_cores_draw_the_nine_families_without_a_model_of_their_own() -> None:
    # Written out from mplp-event-core's enum less the three families that have their own schema.
    nine = {"import_process", "intent", "delta_intent", "impact_analysis", "compensation_plan", "methodology"}
    nine |= {"reasoning_graph", "cost_budget", "external_integration"}
    for family in nine:
        assert produces(testing.event_cores(), lambda event: event.event_family == family), family
    assert not produces(testing.event_cores(), lambda event: event.event_family not in nine)


@pytest.mark.parametrize(("model", "name", "kind"), ENUMS, ids=lambda value: getattr(value, "__name__", value))
def test_every_enum_member_appears(model: type[mm.MplpModel], name: str, kind: type[Any]) -> None:
    for member in kind:
        assert produces(testing.instances(model), lambda instance: getattr(instance, name) == member), member


def test_cross_cutting_concerns_appear_all_at_once() -> None:
    everything = set(mm.CrossCuttingConcern)
    assert produces(testing.metadata(), lambda meta: set(meta.cross_cutting or ()) == everything)
    assert produces(testing.metadata(), lambda meta: meta.cross_cutting == ())


def listed_after_a_dependent(plan: mm.Plan) -> bool:
    position = {step.step_id: index for index, step in enumerate(plan.steps)}
    return any(position[dep] > position[step.step_id] for step in plan.steps for dep in step.dependencies or ())


def test_plans_vary_in_shape() -> None:
    plans = testing.plans()
    assert produces(plans, lambda plan: len(plan.steps) == 1)
    assert produces(plans, lambda plan: len(plan.steps) >= 6)
    assert produces(plans, lambda plan: any(len(step.dependencies or ()) >= 3 for step in plan.steps))
    assert produces(plans, listed_after_a_dependent)  # not always listed dependencies first
    assert produces(plans, lambda plan: any(step.dependencies == () for step in plan.steps))
    # A chain: a step whose dependency has a dependency.
    assert produces(
        plans,
        lambda plan: any(
            dep_step.dependencies
            for step in plan.steps
            for dep in step.dependencies or ()
            for dep_step in plan.steps
            if dep_step.step_id == dep
        ),
    )
    for plan in drawn(plans, 30):
        order = [step.step_id for step in plan.topological_order()]
        assert sorted(order) == sorted(step.step_id for step in plan.steps)


@pytest.mark.parametrize("plan_status", ["in_progress", "failed", "cancelled"])
def test_running_plans_hold_steps_of_every_status(plan_status: str) -> None:
    plans = testing.plans(plan_status)
    for status in mm.PlanStepStatus:
        assert produces(plans, lambda plan: any(step.status == status for step in plan.steps)), status
    # A started step whose dependencies are done: the status rules are met, not avoided.
    assert produces(
        plans,
        lambda plan: any(step.status in ("in_progress", "completed") and step.dependencies for step in plan.steps),
    )


def same_instant_other_text(stamps: list[mm.Timestamp | None]) -> bool:
    known = [stamp for stamp in stamps if stamp is not None]
    return any(a != b and a.instant() == b.instant() for a, b in itertools.pairwise(known))


def test_dialogs_have_timelines() -> None:
    dialogs = testing.dialogs()
    assert produces(dialogs, lambda dialog: dialog.started_at and dialog.ended_at and len(dialog.messages) >= 3)
    assert produces(dialogs, lambda dialog: not dialog.messages)
    # Equal instants spelled differently, at the start and between messages: in order all the same.
    assert produces(
        dialogs,
        lambda dialog: same_instant_other_text(
            [dialog.started_at, dialog.messages[0].timestamp] if dialog.messages else []
        ),
    )
    assert produces(dialogs, lambda dialog: same_instant_other_text([message.timestamp for message in dialog.messages]))


def test_inbox_messages_vary() -> None:
    messages = testing.inbox_messages()
    assert produces(messages, lambda message: message.recipient_ids == ("broadcast",))
    assert produces(messages, lambda message: len(message.recipient_ids) >= 3)
    assert produces(messages, lambda message: len(message.subject) == 200)
    assert produces(messages, lambda message: message.related_decision_ids and message.related_waitpoint_ids)
    # Stamps beyond the status's own: archived and never acknowledged, or acknowledged first.
    archived = testing.inbox_messages("archived")
    assert produces(archived, lambda message: message.acknowledged_at is None)
    assert produces(archived, lambda message: message.acknowledged_at is not None and message.read_at is not None)
    assert produces(messages, lambda message: message.status == "unread" and message.updated_at != message.created_at)


def test_timestamps_take_every_spelling() -> None:
    stamps = testing.timestamps()
    assert all(type(stamp) is mm.Timestamp and is_rfc3339_date_time(stamp) for stamp in drawn(stamps, 100))
    features: dict[str, Callable[[str], bool]] = {
        "Z": lambda stamp: stamp.endswith("Z"),
        "z": lambda stamp: stamp.endswith("z"),
        "t": lambda stamp: stamp[10] == "t",
        "+00:00": lambda stamp: stamp.endswith("+00:00"),
        "-00:00": lambda stamp: stamp.endswith("-00:00"),
        "positive offset": lambda stamp: stamp[-6] == "+" and stamp[-5:] != "00:00",
        "negative offset": lambda stamp: stamp[-6] == "-" and stamp[-5:] != "00:00",
        "fraction": lambda stamp: stamp[19] == ".",
        "long fraction": lambda stamp: "." in stamp and len(stamp[20:].rstrip("Zz").split("+")[0].split("-")[0]) > 9,
        "leap second": lambda stamp: stamp[17:19] == "60",
        "year 0000": lambda stamp: stamp.startswith("0000-"),
        "year 9999": lambda stamp: stamp.startswith("9999-"),
        "29 February": lambda stamp: stamp[4:10] == "-02-29",
    }
    missing = [name for name, feature in features.items() if not produces(stamps, feature)]
    assert not missing, missing


def json_depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((json_depth(item) for item in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((json_depth(item) for item in value), default=0)
    return 0


def leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    else:
        yield value


def test_open_objects_nest_and_hold_every_json_type() -> None:
    objects = testing.json_objects()
    assert produces(objects, lambda obj: obj == {})
    assert produces(objects, lambda obj: json_depth(obj) >= 4)
    assert produces(objects, lambda obj: json_depth(obj) >= 20)
    for kind in (type(None), bool, int, float, str, list, dict):
        assert produces(objects, lambda obj: any(type(value) is kind for value in obj.values())), kind
    assert produces(objects, lambda obj: any(isinstance(leaf, str) and not leaf.isascii() for leaf in leaves(obj)))
    assert produces(objects, lambda obj: any(type(leaf) is int and abs(leaf) == 2**53 - 1 for leaf in leaves(obj)))
    for obj in drawn(objects, 50):  # and they travel as JSON unchanged
        assert json.loads(mm.canonical_json(obj)) == obj


@pytest.mark.parametrize(
    ("strategy", "name", "high"),
    [
        (testing.learning_samples(), "impact_score", 1),
        (testing.user_feedback(), "rating", 5),
        (testing.agent_token_usages(), "tokens", None),
        (testing.token_usages(), "total_tokens", None),
    ],
    ids=["impact_score", "rating", "tokens", "total_tokens"],
)
def test_numbers_are_ints_and_floats_at_their_bounds(
    strategy: st.SearchStrategy[Any], name: str, high: float | None
) -> None:
    def value(instance: Any) -> Any:
        return getattr(instance, name)

    assert produces(strategy, lambda instance: type(value(instance)) is int and value(instance) == (high or 2**53 - 1))
    assert produces(strategy, lambda instance: type(value(instance)) is float and not value(instance).is_integer())
    assert produces(strategy, lambda instance: value(instance) == 0 and type(value(instance)) is int)
    assert produces(strategy, lambda instance: value(instance) == 0 and type(value(instance)) is float)
    if high is None:
        assert produces(strategy, lambda instance: value(instance) is not None and value(instance) >= 1e300)


def test_text_is_unicode_and_sometimes_empty() -> None:
    messages = testing.dialog_messages()
    assert produces(messages, lambda message: message.content == "")
    assert produces(messages, lambda message: not message.content.isascii())
    assert produces(messages, lambda message: any(ord(char) > 0xFFFF for char in message.content))


# --- parameters --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("strategy", "kind"),
    [
        (testing.plans, mm.PlanStatus),
        (testing.plan_steps, mm.PlanStepStatus),
        (testing.dialogs, mm.DialogStatus),
        (testing.inbox_messages, mm.InboxMessageStatus),
    ],
    ids=lambda value: getattr(value, "__name__", ""),
)
def test_status_parameter(strategy: Callable[..., st.SearchStrategy[Any]], kind: type[Any]) -> None:
    for member in kind:
        for given_as in (member, member.value):
            assert {instance.status for instance in drawn(strategy(given_as), 5)} == {member}
    with pytest.raises(ValueError):
        strategy("no such status")


def test_size_parameters() -> None:
    assert {len(plan.steps) for plan in drawn(testing.plans(max_steps=1), 10)} == {1}
    assert max(len(dialog.messages) for dialog in drawn(testing.dialogs(max_messages=2), 30)) <= 2
    with pytest.raises(ValueError):
        testing.plans(max_steps=0)
    with pytest.raises(ValueError):
        testing.dialogs(max_messages=-1)
    # The bounds are reached, not only respected.
    assert produces(testing.plans(max_steps=20), lambda plan: len(plan.steps) == 20)
    assert produces(testing.traces(max_segments=12), lambda trace: len(trace.segments or ()) == 12)


def required(model: type[mm.MplpModel]) -> set[str]:
    return {name for name, field in model.model_fields.items() if field.is_required()}


def test_failing_examples_shrink_to_the_simplest_that_fails() -> None:
    # A property that fails for plans of three or more steps: its minimal failing example has three
    # steps and no optional field, in the plan or its steps.
    plan = find(
        testing.plans(),
        lambda plan: len(plan.steps) >= 3,
        settings=settings(database=None, derandomize=True, suppress_health_check=list(HealthCheck)),
    )
    assert len(plan.steps) == 3
    assert plan.model_fields_set == required(mm.Plan)
    assert plan.meta.model_fields_set == required(mm.Metadata)
    assert all(step.model_fields_set == required(mm.PlanStep) for step in plan.steps)


def test_instances_covers_every_public_model_and_refuses_others() -> None:
    assert testing.instances(mm.Plan).__repr__() == testing.plans().__repr__()
    with pytest.raises(TypeError, match=r"no strategy for .*Plan"):
        testing.instances(mm.MplpModel)


def test_all_is_explicit_and_complete() -> None:
    public = {name for name, value in vars(testing).items() if inspect.isfunction(value) and not name.startswith("_")}
    public = {name for name in public if getattr(testing, name).__module__ == testing.__name__}
    assert set(testing.__all__) == public


# --- imports, in fresh interpreters -----------------------------------------------------


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_registration_is_explicit_and_feeds_from_type() -> None:
    result = run(
        "import sys\n"
        "from hypothesis import given, settings, strategies as st\n"
        "import mplp_models as mm\n"
        "from mplp_models import testing\n"
        "@settings(max_examples=15, database=None, deadline=None)\n"
        "@given(st.from_type(mm.Plan))\n"
        "def unregistered(plan):\n"
        "    assert plan.check() == []\n"
        "try:\n    unregistered()\nexcept Exception as error:\n    print('unregistered:', type(error).__name__)\n"
        "testing.register_type_strategies()\n"
        "@settings(max_examples=15, database=None, deadline=None)\n"
        "@given(st.from_type(mm.Plan), st.from_type(mm.InboxMessage), st.from_type(mm.Timestamp))\n"
        "def check(plan, message, stamp):\n"
        "    assert plan.check() == [] and message.check() == [] and type(stamp) is mm.Timestamp\n"
        "check()\n"
    )
    assert result.returncode == 0, result.stderr
    # Importing the module registered nothing: until the call, from_type(Plan) made invalid plans.
    assert result.stdout.startswith("unregistered:"), result.stdout


def test_importing_the_package_does_not_import_hypothesis() -> None:
    result = run(
        "import sys\nimport mplp_models as mm\n"
        "[getattr(mm, name) for name in mm.__all__]\n"
        "assert 'hypothesis' not in sys.modules, 'hypothesis was imported'\n"
    )
    assert result.returncode == 0, result.stderr


def test_without_hypothesis_the_import_error_says_what_to_install() -> None:
    result = run(
        "import sys\nsys.modules['hypothesis'] = None  # as if it were not installed\n"
        "try:\n    import mplp_models.testing\n"
        "except ImportError as error:\n    print(error.name, '|', error)\n"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("hypothesis |")
    assert "pip install 'mplp-models[testing]'" in result.stdout


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(testing.payloads())
def test_payloads_are_told_apart_by_parse(payload: mm.MplpModel) -> None:
    assert type(mm.parse(payload.to_json())) is type(payload)


def test_payloads_draw_every_registered_kind() -> None:
    from mplp_models._kinds import KINDS

    for kind in KINDS:
        assert produces(testing.payloads(), lambda payload: type(payload) is kind.model), kind.name
