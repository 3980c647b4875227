"""Errors about JSON input speak JSON: "array" and "object", and no advice meant for Python callers.

pydantic words its errors for Python values (tuples, dictionaries, model
instances); the models hold JSON arrays as tuples, so an LLM, a client or a
CLI user would read "Input should be a valid tuple". The error ``type`` codes
stay pydantic's and the SDK's.
"""

from __future__ import annotations

import datetime
import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURE_OF, PAYLOADS, fixture
from pydantic import ValidationError
from test_cli import run
from test_differential import mutation_disagreements

import mplp_models as mm
from mplp_models import llm

# What only a Python reader would understand; none of it may reach JSON's readers.
PYTHON_WORDS = ("tuple", "Tuple", "dictionary", "instance of", "str(value)", "new_id()", "Timestamp.from_datetime")


def python_words(text: str) -> list[str]:
    """The Python words in ``text``, error codes aside (``[tuple_type]`` is a code: codes stay)."""
    words = re.sub(r"\[[a-z_]+\]", "", text)
    return [word for word in PYTHON_WORDS if word in words]


def refusal(read: Any) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        read()
    return caught.value


def plan_with(**changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = {**fixture(mm.Plan), **changes}
    return document


# Written out from what the JSON Schema asks for (not from the code): (change, type, pointer, message).
TABLE = [
    (
        {"meta": {**fixture(mm.Plan)["meta"], "tags": "release"}},
        "tuple_type",
        "/meta/tags",
        "Input should be a JSON array",
    ),
    ({"steps": []}, "too_short", "/steps", "Array should have at least 1 item, not 0"),
    ({"trace": 5}, "model_type", "/trace", "Input should be a JSON object"),
    ({"trace": {**fixture(mm.Plan)["trace"], "attributes": [1]}}, "dict_type", "/trace/attributes", None),
    (
        {"plan_id": "3F6C2A1E-8B4D-4C7A-9E21-5D0B7F3A6C11"},
        "mplp_id",
        "/plan_id",
        "Input should be an MPLP id, lowercase UUID version 4 text such as 3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11",
    ),
    (
        {"meta": {**fixture(mm.Plan)["meta"], "created_at": "2026-03-01 09:00:00"}},
        "date_time",
        "/meta/created_at",
        "Input should be an RFC 3339 date-time text such as 2026-01-02T03:04:05Z",
    ),
]


@pytest.mark.parametrize(("change", "code", "where", "message"), TABLE, ids=[row[1] for row in TABLE])
def test_each_door_words_the_error_in_json(change: dict[str, Any], code: str, where: str, message: str | None) -> None:
    document = plan_with(**change)
    text = json.dumps(document)
    for read in (
        lambda: mm.Plan.from_json(text),
        lambda: mm.Plan.model_validate_json(text),
        lambda: mm.Plan.model_validate(document),
        lambda: llm.from_llm_json(mm.Plan, text, dialect="json-schema"),
    ):
        error = refusal(read)
        [entry] = mm.errors_as_json(error)
        assert (entry["code"], entry["pointer"]) == (code, where)
        assert entry["message"].startswith((message or "Input should be a JSON object") + "; found ")
        [raw] = error.errors()
        assert raw["msg"] == (message or "Input should be a JSON object") and raw["type"] == code


@pytest.mark.parametrize("model", list(FIXTURE_OF), ids=lambda model: model.__name__)
def test_no_error_about_json_input_speaks_python_and_the_codes_stay(model: type[mm.MplpModel]) -> None:
    def judge(mutated: Any) -> str | None:
        try:
            model.__pydantic_validator__.validate_python(mutated)  # pydantic's own words and codes
        except ValidationError as error:
            pydantics = [(entry["type"], entry["loc"]) for entry in error.errors()]
        else:
            return None
        for door in (lambda: model.model_validate(mutated), lambda: model.model_validate_json(json.dumps(mutated))):
            try:
                door()
            except ValidationError as error:
                if [(entry["type"], entry["loc"]) for entry in error.errors()] != pydantics:
                    return f"codes {error.errors()} differ from pydantic's {pydantics}"
                said = [entry["msg"] for entry in error.errors()] + [llm.feedback(error)]
                python = [text for text in said if python_words(text)]
                if python:
                    return f"speaks Python: {python}"
            else:
                return "accepted what pydantic refuses"
        return None

    disagreements = mutation_disagreements(model, judge)
    assert not disagreements, "\n".join(disagreements[:20])


def test_python_values_still_get_python_advice() -> None:
    # A uuid.UUID or a datetime comes only from Python code: there the advice is what helps.
    for door in (mm.Plan.model_validate, lambda data: mm.Plan(**data)):
        error = refusal(lambda: door(plan_with(plan_id=uuid.uuid4())))
        assert "str(value)" in error.errors()[0]["msg"] and "new_id()" in error.errors()[0]["msg"]
        stamp = datetime.datetime.now(datetime.timezone.utc)
        error = refusal(lambda: door(plan_with(meta={**fixture(mm.Plan)["meta"], "created_at": stamp})))
        assert "Timestamp.from_datetime" in error.errors()[0]["msg"]


def test_the_cli_speaks_json(tmp_path: Path) -> None:
    document = plan_with(plan_id="not-an-id", steps=[], meta={**fixture(mm.Plan)["meta"], "tags": "x"})
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(document))
    result = run("validate", "--kind", "Plan", str(path))
    assert result.returncode == 1
    said = result.stderr.decode()
    assert "/meta/tags: Input should be a JSON array" in said
    assert "/steps: Array should have at least 1 item, not 0" in said
    assert "/plan_id: Input should be an MPLP id" in said
    assert not python_words(said), said


def test_the_feedback_for_an_llm_speaks_json() -> None:
    answer = json.loads((PAYLOADS / "plan.json").read_bytes())
    answer["plan_id"] = "plan-1"
    answer["steps"] = {"0": answer["steps"][0]}
    error = refusal(lambda: llm.from_llm_json(mm.Plan, json.dumps(answer), dialect="json-schema"))
    text = llm.feedback(error)
    assert "- /plan_id [mplp_id]: Input should be an MPLP id" in text
    assert "- /steps [tuple_type]: Input should be a JSON array; found an object" in text
    assert not python_words(text), text


def test_reworded_errors_keep_their_context() -> None:
    document = fixture(mm.Plan)
    document["title"], document["steps"] = "", []
    entries = {entry["type"]: entry for entry in refusal(lambda: mm.Plan.model_validate(document)).errors()}
    assert entries["too_short"]["msg"] == "Array should have at least 1 item, not 0"
    assert entries["too_short"].get("ctx", {}).get("min_length") == 1
    assert entries["string_too_short"].get("ctx") == {"min_length": 1}
