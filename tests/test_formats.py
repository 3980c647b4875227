"""The string formats: asserted exactly where the reference validator asserts them, the sender's text kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import SCHEMAS, fixture, reference_accepts
from fast_path_switch import either_path, fast_paths  # noqa: F401  # either_path: a fixture
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft7Validator
from pydantic import ValidationError

import mplp_models as mm

# What the reference asserts of each format the schemas use: jsonschema's draft-07 checker in the dev
# environment (tests/conftest.py adds an exact `date-time`). `uuid` is no draft-07 format; `uri` needs
# rfc3987 or rfc3986-validator, which the dev environment does not install.
ASSERTED = {"date-time": True, "email": True, "uri": False, "uuid": False}


def formats_used() -> set[str]:
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("format"), str):
                found.add(node["format"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in Path(SCHEMAS).rglob("*.schema.json"):
        walk(json.loads(path.read_text(encoding="utf-8")))
    return found


def test_the_schemas_use_the_four_formats_written_out() -> None:
    assert formats_used() == set(ASSERTED)


def test_the_reference_asserts_email_and_not_uri_or_uuid() -> None:
    # Should an optional format package come into the dev environment, the reference would assert `uri`: then
    # the models must too (mplp_models._formats, codegen's ASSERTED_FORMATS), and this table changes.
    checker = Draft7Validator.FORMAT_CHECKER
    for name in ("email", "uri", "uuid"):
        assert (name in checker.checkers) is ASSERTED[name], name
    assert not checker.conforms("x", "email") and checker.conforms("@", "email")


def git_event(email: object) -> dict[str, Any]:
    return {**fixture(mm.GitEvent), "author_email": email}


def ci_event(url: object) -> dict[str, Any]:
    return {**fixture(mm.CIEvent), "run_url": url}


def accepts(model: type[mm.MplpModel], document: dict[str, Any]) -> bool:
    try:
        read = model.from_json(json.dumps(document), semantic=False)
    except ValidationError:
        return False
    assert read.to_dict() == document, "the text is kept as sent"
    return True


EDGES = [
    "",
    "@",
    "x",
    "a@b",
    "@@",
    "dev@",
    "@example.com",
    " @ ",
    "a\n@",
    "Zoë@例え.jp",
    "a@b\n",
    "no at sign",
    "\u0000@",
]


@pytest.mark.usefixtures("either_path")
@pytest.mark.parametrize("text", EDGES)
def test_email_edges_get_the_reference_verdict(text: str) -> None:
    assert accepts(mm.GitEvent, git_event(text)) == reference_accepts(mm.GitEvent, git_event(text)) == ("@" in text)


@given(st.text(alphabet=st.sampled_from("ab@. \n\u00e9\u4f8b"), max_size=8))
def test_any_text_gets_the_reference_verdict_as_an_email_both_ways(text: str) -> None:
    expected = reference_accepts(mm.GitEvent, git_event(text))
    for enabled in (True, False):
        with fast_paths(enabled):
            assert accepts(mm.GitEvent, git_event(text)) == expected, (text, enabled)


@pytest.mark.usefixtures("either_path")
@pytest.mark.parametrize("text", ["", "x", "not a URI", "https://CI.example.com/a/../b", "::"])
def test_a_uri_is_not_asserted_as_the_reference_does_not(text: str) -> None:
    assert accepts(mm.CIEvent, ci_event(text)) == reference_accepts(mm.CIEvent, ci_event(text)) is True


@pytest.mark.usefixtures("either_path")
def test_a_refused_email_says_what_the_format_asks() -> None:
    with pytest.raises(ValidationError) as caught:
        mm.GitEvent.from_json(json.dumps(git_event("dev.example.com")))
    assert [(entry["pointer"], entry["code"]) for entry in mm.errors_as_json(caught.value)] == [
        ("/author_email", "email")
    ]
    assert "text with an @" in str(caught.value)


def test_other_wrong_values_keep_their_own_errors() -> None:
    # A number is no string, and a lone surrogate (Python input only) is no text UTF-8 can carry.
    for value, code in ((1, "string_type"), ("\ud800@", "string_unicode")):
        with pytest.raises(ValidationError) as caught:
            mm.GitEvent.model_validate(git_event(value))
        assert [error["type"] for error in caught.value.errors()] == [code]


def test_construction_and_the_published_schema_say_the_same() -> None:
    with pytest.raises(ValidationError, match="email"):
        mm.GitEvent.model_validate(git_event("nobody"))
    event = mm.GitEvent.model_validate(git_event("Dev.Name@Example.COM"))
    assert event.author_email == "Dev.Name@Example.COM"
    with pytest.raises(ValidationError, match="email"):
        event.model_copy(update={"author_email": "nobody"})
    properties = mm.GitEvent.model_json_schema()["properties"]
    assert (properties["author_email"]["type"], properties["author_email"]["format"]) == ("string", "email")
