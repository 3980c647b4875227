"""errors_as_json: RFC 6901 pointers, codes, and messages that say what was expected and found."""

from __future__ import annotations

import json

import pytest
from conftest import PAYLOADS, load
from pydantic import ValidationError

import mplp_models as mm


def errors(document: object, model: type[mm.MplpModel] = mm.Plan) -> list[mm.ErrorEntry]:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(document)
    return mm.errors_as_json(caught.value)


def test_pointers_codes_and_messages() -> None:
    document = load(PAYLOADS / "plan.json")
    document["steps"][3]["step_id"] = "X" * 100
    del document["objective"]
    document["steps"][0]["a/b~c"] = 1
    found = {entry["pointer"]: entry for entry in errors(document)}
    assert set(found) == {"/steps/3/step_id", "/objective", "/steps/0/a~1b~0c"}
    assert found["/objective"] == {"pointer": "/objective", "code": "missing", "message": "Field required"}
    pattern = found["/steps/3/step_id"]
    assert pattern["code"] == "mplp_id"
    assert "lowercase UUID version 4" in pattern["message"] and 'found "XXXX' in pattern["message"]
    assert "(102 characters)" in pattern["message"] and "X" * 60 not in pattern["message"]


def test_rule_and_json_errors_have_pointers_too() -> None:
    document = load(PAYLOADS / "plan.json")
    document["steps"][2]["dependencies"] = [document["steps"][2]["step_id"]]
    (entry,) = errors(document)
    assert entry["pointer"] == "/steps/2/dependencies/0" and entry["code"] == "self_dependency"
    with pytest.raises(ValidationError) as caught:
        mm.Plan.from_json(b'{"meta": {"a": 1, "a": 2}}')
    assert mm.errors_as_json(caught.value)[0]["pointer"] == "/meta/a"
    with pytest.raises(ValidationError) as caught:
        mm.Plan.from_json(b"{")
    assert mm.errors_as_json(caught.value)[0]["pointer"] == ""


def message_of(data: object) -> str:
    with pytest.raises(ValidationError) as caught:
        mm.parse(data)  # type: ignore[arg-type]
    (entry,) = mm.errors_as_json(caught.value)
    return entry["message"]


def test_text_that_is_not_json_is_quoted_by_its_start_and_size() -> None:
    long = b'{"a": 1, "a": 2, "' + b"b" * 100 + b'": 3}'
    assert message_of(long).endswith(f"; found {json.dumps(long[:40].decode())}... ({len(long)} bytes)")
    assert message_of(b"\xff{}").endswith('; found "\ufffd{}"')  # not UTF-8: shown decoded, never as b'...'
    assert message_of("[1, 2").endswith('; found "[1, 2"')


def test_parse_says_what_it_found() -> None:
    assert message_of(b"[1]") == "A payload should be a JSON object; found an array"
    assert message_of({"x": 1}).endswith("; found an object")
    assert message_of(5) == "JSON input should be bytes or str, not int; found 5"


def test_every_error_quotes_a_long_value_by_one_rule() -> None:
    # The start of the value (40 characters, rendered as each error renders values), then the size of all of it.
    from mplp_models._conversion import describe
    from mplp_models._text import PREFIX, short_repr

    long = "x" * 100
    assert short_repr(long) == repr(long)[:PREFIX] + f"... ({len(repr(long))} characters)"
    assert describe(long) == repr(long[:PREFIX]) + "... (100 characters)"
    with pytest.raises(mm.CanonicalJSONError, match=r"object key \('kx{37}\.\.\. \(106 characters\) is not a string"):
        mm.canonical_json({("k" + long,): 1})
    assert short_repr("short") == "'short'" and describe("short") == "'short'"
