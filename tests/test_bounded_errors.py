"""Bounded errors: at most MAX_ERRORS problems listed, then one entry saying how many more; long inputs cut.

The counts expected here come from the schema and the rules, not from the code:
a Plan's ``steps`` items are objects, so each ``0`` there is one ``model_type``
problem (after one sound step: with none, pydantic adds that the array is too
short after validation); one step id used by N steps is N - 1 ``duplicate_step_id`` violations
(a step id is unique in its plan).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import PAYLOADS, load
from fast_path_switch import either_path
from pydantic import TypeAdapter, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

import mplp_models as mm
from mplp_models import _errors, llm

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
