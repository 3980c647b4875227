"""Bounded errors: at most MAX_ERRORS problems listed, then one entry saying how many more; long inputs cut.

The counts expected here come from the schema and the rules, not from the code:
a Plan's ``steps`` items are objects, so each ``0`` there is one ``model_type``
problem (after one sound step: with none, pydantic adds that the array is too
short after validation); one step id used by N steps is N - 1 ``duplicate_step_id`` violations
(a step id is unique in its plan).
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import PAYLOADS, examples, load
from fast_path_switch import either_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import PydanticUserError, TypeAdapter, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

import mplp_models as mm
from mplp_models import _bounded, _errors, llm, testing
from mplp_models._rules import RuleViolation

__all__ = ["either_path"]

PLAN = load(PAYLOADS / "plan.json")
LIMIT = 10  # a small maximum keeps the inputs small; MAX_ERRORS itself is checked once, below


@pytest.fixture
def small_limit(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(_errors, "MAX_ERRORS", LIMIT)
    yield


def bad_steps(count: int) -> dict[str, Any]:
    """The example plan with its first step, then ``count`` steps that are each the number 0: ``count`` problems."""
    return dict(PLAN, steps=[PLAN["steps"][0]] + [0] * count)


def caught(read: Any, *args: Any) -> ValidationError:
    with pytest.raises(ValidationError) as error:
        read(*args)
    return error.value


READS: dict[str, Callable[[Any], object]] = {
    "model_validate": lambda document: mm.Plan.model_validate(document),
    "from_json": lambda document: mm.Plan.from_json(json.dumps(document)),
    "model_validate_json": lambda document: mm.Plan.model_validate_json(json.dumps(document)),
    "TypeAdapter": lambda document: TypeAdapter(mm.Plan).validate_python(document),
}


@pytest.mark.usefixtures("small_limit")
@pytest.mark.parametrize("door", READS)
def test_the_first_problems_then_how_many_more(door: str, either_path: bool) -> None:
    error = caught(READS[door], bad_steps(50))
    entries = error.errors()
    assert len(entries) == LIMIT + 1
    assert [entry["loc"] for entry in entries[:LIMIT]] == [("steps", i) for i in range(1, LIMIT + 1)]
    assert {entry["type"] for entry in entries[:LIMIT]} == {"model_type"}
    last = entries[-1]
    assert last["type"] == "too_many_errors" and last["loc"] == ()
    assert last["msg"] == "40 more problems were found and are not listed (50 in all; the first 10 are)"


@pytest.mark.usefixtures("small_limit")
def test_up_to_the_limit_and_one_more_every_problem_is_listed() -> None:
    for count in (LIMIT, LIMIT + 1):
        entries = caught(mm.Plan.model_validate, bad_steps(count)).errors()
        assert [entry["loc"] for entry in entries] == [("steps", i) for i in range(1, count + 1)]


@pytest.mark.usefixtures("small_limit")
def test_errors_as_json_and_feedback_end_with_the_count() -> None:
    entries = mm.errors_as_json(caught(mm.Plan.model_validate, bad_steps(50)))
    assert len(entries) == LIMIT + 1
    assert entries[-1] == {
        "pointer": "",
        "code": "too_many_errors",
        "message": "40 more problems were found and are not listed (50 in all; the first 10 are)",
    }
    lines = llm.feedback(caught(mm.Plan.model_validate, bad_steps(50))).splitlines()
    # The heading, the 10 listed problems, then the count of all the others (not of the listed ones).
    assert len(lines) == 1 + LIMIT + 1
    assert all(line.startswith("- /steps/") for line in lines[1:-1])
    assert lines[-1] == "- and 40 more"


def test_an_error_pydantic_built_with_too_many_entries_is_bounded_when_rendered() -> None:
    # pydantic's own validation of the JSON text (not the models' doors) collects them all.
    with pytest.raises(ValidationError) as error:
        mm.Plan.__pydantic_validator__.validate_json(json.dumps(bad_steps(_errors.MAX_ERRORS + 500)))
    assert error.value.error_count() == _errors.MAX_ERRORS + 500
    entries = mm.errors_as_json(error.value)
    assert len(entries) == _errors.MAX_ERRORS + 1 and entries[-1]["code"] == "too_many_errors"
    assert entries[0] == {"pointer": "/steps/1", "code": "model_type", "message": "Input should be a JSON object"}
    assert "500 more problems" in entries[-1]["message"]


def test_the_default_maximum_is_1000() -> None:
    assert _errors.MAX_ERRORS == 1000
    entries = caught(mm.Plan.model_validate, bad_steps(3000)).errors()
    assert len(entries) == 1001 and entries[-1]["msg"].startswith("2000 more problems")


@pytest.mark.usefixtures("small_limit")
def test_rule_violations_are_bounded_too(either_path: bool) -> None:
    step = {key: value for key, value in PLAN["steps"][0].items() if key != "dependencies"}
    document = dict(PLAN, steps=[step] * 50)  # one id, 50 steps: 49 duplicates
    reads: tuple[Callable[[Any], object], ...] = (
        mm.Plan.model_validate,
        lambda data: mm.Plan.from_json(json.dumps(data)),
        # pydantic's own reading of JSON text: the rules bound their list themselves
        lambda data: mm.Plan.__pydantic_validator__.validate_json(json.dumps(data)),
    )
    for read in reads:
        entries = caught(read, document).errors()
        assert len(entries) == LIMIT + 1
        assert [entry["loc"] for entry in entries[:LIMIT]] == [("steps", i, "step_id") for i in range(1, LIMIT + 1)]
        assert entries[-1]["msg"] == "39 more problems were found and are not listed (49 in all; the first 10 are)"


def test_a_long_string_is_quoted_by_its_start(either_path: bool) -> None:
    long_id = "x" * 100_000
    for read in READS.values():
        (entry,) = caught(read, dict(PLAN, plan_id=long_id)).errors()
        assert entry["loc"] == ("plan_id",)
        quoted = entry["input"]
        assert quoted == "x" * _errors.MAX_INPUT_CHARS
        assert isinstance(quoted, _errors.Quoted) and quoted.size == 100_000


def test_a_string_up_to_the_maximum_is_quoted_whole() -> None:
    given = "X" * _errors.MAX_INPUT_CHARS
    (entry,) = caught(mm.Plan.model_validate, dict(PLAN, plan_id=given)).errors()
    assert entry["input"] == given and type(entry["input"]) is str


@pytest.mark.usefixtures("small_limit")
def test_the_inputs_of_listed_entries_are_the_values_at_their_locations() -> None:
    # Past the maximum, the entries are read back from pydantic's JSON rendering, which has no inputs.
    document = dict(PLAN, steps=[{"n": i} for i in range(30)])
    entries = caught(mm.Plan.model_validate, document).errors()
    missing = [entry for entry in entries if entry["type"] == "missing"]
    assert missing and all(entry["input"] == {"n": entry["loc"][1]} for entry in missing)
    extra = [entry for entry in entries if entry["type"] == "extra_forbidden"]
    assert extra and all(entry["input"] == entry["loc"][1] for entry in extra)


def test_an_error_pydantic_core_cannot_write_as_json_is_bounded_too() -> None:
    # Bytes that are not UTF-8 in a context: pydantic-core's json() refuses them.
    kind = PydanticCustomError("custom", "bad", {"raw": b"\xff"})
    details: list[InitErrorDetails] = [{"type": kind, "loc": ("items", i), "input": i} for i in range(1500)]
    entries = mm.errors_as_json(ValidationError.from_exception_data("Custom", details))
    assert len(entries) == 1001
    assert [entry["pointer"] for entry in entries[:3]] == ["/items/0", "/items/1", "/items/2"]
    assert entries[-1]["message"].startswith("500 more problems")


def test_feedback_counts_an_unbounded_error_by_its_count() -> None:
    # A draft is a plain pydantic model: its error holds every problem; feedback lists 20 and counts the rest.
    step = {"id": "s1", "description": " ", "agent_role": None, "depends_on": ["zz"]}
    answer = json.dumps({"title": "t", "objective": "o", "steps": [step] * 3000})
    with pytest.raises(ValidationError) as caught:
        llm.PlanDraft.model_validate_json(answer)
    total = caught.value.error_count()
    assert total > _errors.MAX_ERRORS
    lines = llm.feedback(caught.value).splitlines()
    assert len(lines) == 1 + 20 + 1
    assert lines[-1] == f"- and {total - 20} more"


# --- Bounded collection: a big failing input is checked up to the first bad item of each array ------
#
# The models' readers validate with a copy of each class's schema whose arrays stop at their first
# bad item (_bounded). A valid input reads the same either way; a failing one holding at most
# FULL_ERRORS_MAX_VALUES values is read again in full; a bigger one lists what was found and, when
# items were left unchecked, a last entry saying that the checks stopped.

STOPPED = "The checks stopped at the first bad item of each array ({} listed): the input is too big to check every item"


def a_valid_plan(steps: int) -> dict[str, Any]:
    """The example plan with ``steps`` sound steps (distinct ids, no dependencies, all pending)."""
    step = {key: value for key, value in PLAN["steps"][0].items() if key != "dependencies"}
    listed = [dict(step, step_id=f"{n:08x}-0000-4000-8000-{n:012x}", status="pending") for n in range(steps)]
    return dict(PLAN, status="draft", steps=listed)


@pytest.fixture
def small_input(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Any input of more than 200 values is big: its failure is listed from the fail-fast reading."""
    monkeypatch.setattr(_bounded, "FULL_ERRORS_MAX_VALUES", 200)
    yield


BIG_READS: dict[str, Callable[[Any], object]] = {
    "model_validate": lambda document: mm.Plan.model_validate(document),
    "from_json": lambda document: mm.Plan.from_json(json.dumps(document)),
    "model_validate_json": lambda document: mm.Plan.model_validate_json(json.dumps(document)),
    "parse": lambda document: mm.parse(json.dumps(document)),
    "llm": lambda document: llm.from_llm_json(mm.Plan, json.dumps(document), dialect="json-schema"),
}


@settings(max_examples=examples(quick=40, deep=400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(testing.payloads())
def test_a_valid_payload_reads_the_same_through_both_validators(model: mm.MplpModel) -> None:
    kind, raw = type(model), model.to_json()
    fast = _bounded.fail_fast_validator(kind)
    for made in (fast.validate_json(raw), fast.validate_python(json.loads(raw))):
        assert type(made) is kind and made == model and made.to_json() == raw
        assert made.model_fields_set == model.model_fields_set


@pytest.mark.parametrize("steps", [1, 300, 5000])
def test_a_valid_big_plan_reads_the_same_through_both_validators(steps: int) -> None:
    document = a_valid_plan(steps)
    raw = json.dumps(document).encode()
    full = mm.Plan.__pydantic_validator__.validate_json(raw)
    fast = _bounded.fail_fast_validator(mm.Plan)
    for made in (fast.validate_json(raw), fast.validate_python(document)):
        assert made == full and made.to_json() == full.to_json() and len(made.steps) == steps


@settings(max_examples=examples(quick=40, deep=400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_fail_fast_errors_are_the_full_errors_up_to_each_arrays_first_bad_item(data: st.DataObject) -> None:
    document = a_valid_plan(data.draw(st.integers(1, 40)))
    steps = document["steps"]
    bad = sorted(data.draw(st.sets(st.integers(0, len(steps) - 1), min_size=1, max_size=6)))
    for position in bad:
        steps[position] = data.draw(st.sampled_from([0, "x", None, {}, dict(steps[position], status="nope")]))
    fast, full = (
        caught(validator.validate_python, document)
        for validator in (_bounded.fail_fast_validator(mm.Plan), mm.Plan.__pydantic_validator__)
    )
    fast_entries = [(entry["loc"], entry["type"]) for entry in fast.errors()]
    full_entries = [(entry["loc"], entry["type"]) for entry in full.errors()]
    # The problems of the first bad step, as the full listing has them; none of a later step.
    first = [entry for entry in full_entries if entry[0][:2] == ("steps", bad[0])]
    assert [entry for entry in fast_entries if entry[0][:1] == ("steps",) and len(entry[0]) > 1] == first
    assert all(entry in full_entries for entry in fast_entries if entry[1] != "too_short")


@pytest.mark.usefixtures("small_input")
@pytest.mark.parametrize("door", BIG_READS)
def test_a_big_failing_input_lists_the_first_bad_item_and_says_the_checks_stopped(door: str) -> None:
    document = a_valid_plan(100)
    document["steps"][40:] = [0] * 60  # 60 problems; the first, then the checks stop
    entries = caught(BIG_READS[door], document).errors()
    assert [(entry["loc"], entry["type"]) for entry in entries] == [
        (("steps", 40), "model_type"),
        ((), "too_many_errors"),
    ]
    assert entries[-1]["msg"] == STOPPED.format(1)


@pytest.mark.usefixtures("small_input")
def test_a_big_failing_input_says_what_it_found_in_each_array() -> None:
    document = a_valid_plan(100)
    document["steps"][0] = 0  # the first step: the array also counts no valid step before it
    document["steps"][70]["dependencies"] = [0, 1, 2]
    document["title"] = ""
    entries = mm.errors_as_json(caught(mm.Plan.model_validate, document))
    # The array's "too short" (it counted the items before its first bad one) is left out: 100 is enough.
    assert [(entry["pointer"], entry["code"]) for entry in entries] == [
        ("/title", "string_too_short"),
        ("/steps/0", "model_type"),
        ("", "too_many_errors"),
    ]


@pytest.mark.usefixtures("small_input")
def test_a_big_input_whose_bad_items_are_last_is_listed_whole_without_a_stop() -> None:
    document = a_valid_plan(100)
    ids = [step["step_id"] for step in document["steps"]]
    document["steps"][-1]["dependencies"] = [ids[0], ids[1], 3]  # the last item of the last step
    document["title"] = ""
    for read in BIG_READS.values():
        entries = caught(read, document).errors()
        assert [(entry["loc"], entry["type"]) for entry in entries] == [
            (("title",), "string_too_short"),
            (("steps", 99, "dependencies", 2), "mplp_id"),
        ]


@pytest.mark.usefixtures("small_input", "small_limit")
def test_a_big_input_breaking_only_rules_counts_them_all() -> None:
    document = a_valid_plan(100)
    for step in document["steps"]:
        step["step_id"] = document["steps"][0]["step_id"]  # 99 duplicates, a rule's problem each
    for read in BIG_READS.values():
        entries = caught(read, document).errors()
        assert len(entries) == LIMIT + 1
        assert entries[-1]["msg"] == "89 more problems were found and are not listed (99 in all; the first 10 are)"


def test_up_to_the_maximum_of_values_a_failure_lists_every_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    document = a_valid_plan(100)
    document["steps"][40:] = [0] * 60
    for maximum, listed in ((10**6, 60), (50, 1)):
        monkeypatch.setattr(_bounded, "FULL_ERRORS_MAX_VALUES", maximum)
        entries = caught(mm.Plan.model_validate, document).errors()
        assert len([entry for entry in entries if entry["type"] == "model_type"]) == listed


def test_the_rules_keep_only_the_violations_they_list(monkeypatch: pytest.MonkeyPatch) -> None:
    # Past MAX_ERRORS, each violation is counted and dropped: none is alive when the next one is made.
    alive: list[weakref.ref[RuleViolation]] = []
    kept_past_the_limit: list[int] = []

    def violations(self: mm.Plan) -> Iterator[RuleViolation]:
        for position in range(3 * LIMIT):
            if position > LIMIT + 1 and alive[position - 2]() is not None:
                kept_past_the_limit.append(position - 2)
            violation = RuleViolation(("steps", 0, "status"), "made_up", f"violation {position}")
            alive.append(weakref.ref(violation))
            yield violation

    monkeypatch.setattr(_errors, "MAX_ERRORS", LIMIT)
    monkeypatch.setattr(mm.Plan, "_violations", violations)
    entries = caught(mm.Plan.model_validate, PLAN).errors()
    assert len(entries) == LIMIT + 1 and entries[-1]["msg"].startswith(f"{2 * LIMIT} more problems")
    assert kept_past_the_limit == []
    # check() is the caller's choice of a whole list.
    assert len(mm.Plan.model_validate(PLAN, context=mm.SCHEMA_ONLY).check()) == 3 * LIMIT


def test_check_lists_every_violation_in_order() -> None:
    step = {key: value for key, value in PLAN["steps"][0].items() if key != "dependencies"}
    plan = mm.Plan.model_validate(dict(PLAN, steps=[step] * 3000), context=mm.SCHEMA_ONLY)
    found = plan.check()
    assert [violation.loc for violation in found] == [("steps", i, "step_id") for i in range(1, 3000)]


def test_model_validate_keeps_pydantics_refusal_of_no_way_to_read_a_field() -> None:
    with pytest.raises(PydanticUserError, match="At least one of `by_alias` or `by_name`"):
        mm.Plan.model_validate(PLAN, by_alias=False)
    assert mm.Plan.model_validate(PLAN, by_alias=False, by_name=True) == mm.Plan.model_validate(PLAN)


def test_an_iterator_given_for_an_array_is_refused_where_the_first_reading_found_it() -> None:
    # The fail-fast reading uses the generator up: a second reading would see an empty array
    # (which this field allows) and make a model of what was refused.
    document = load(PAYLOADS / "inbox.json")
    given = dict(document, related_decision_ids=(item for item in ["D-1", 5]))
    with pytest.raises(ValidationError) as caught:
        mm.InboxMessage.model_validate(given)
    assert [(entry["loc"], entry["type"]) for entry in caught.value.errors()] == [
        (("related_decision_ids", 1), "string_type")
    ]


def test_a_value_that_reads_valid_the_second_time_is_still_refused() -> None:
    calls: list[int] = []

    class Flaky(mm.Event, frozen=True):
        @model_validator(mode="before")
        @classmethod
        def bad_once(cls, data: Any) -> Any:
            calls.append(1)
            return {**data, "event_id": 5} if len(calls) == 1 else data

    with pytest.raises(ValidationError) as caught:
        Flaky.model_validate(load(PAYLOADS / "event.json"))
    assert [entry["loc"] for entry in caught.value.errors()] == [("event_id",)]
    assert len(calls) == 2  # read again in full (a small value), which found nothing
