"""parse: the model is picked from the payload's own required fields."""

from __future__ import annotations

import json
import typing

import pytest
from conftest import FIXTURE_OF, PAYLOADS, load
from pydantic import ValidationError

import mplp_models as mm
from mplp_models._kinds import KINDS


@pytest.mark.parametrize("model", list(FIXTURE_OF), ids=lambda model: model.__name__)
def test_each_payload_parses_as_its_model(model: type[mm.MplpModel]) -> None:
    raw = (PAYLOADS / FIXTURE_OF[model]).read_bytes()
    for data in (raw, raw.decode(), json.loads(raw)):
        parsed = mm.parse(data)
        assert type(parsed) is model
        assert parsed == model.from_json(raw)


def test_a_trace_parses_as_trace_base() -> None:
    trace = load(PAYLOADS / "plan.json")["trace"]
    assert isinstance(mm.parse(trace), mm.TraceBase)


def test_a_payload_missing_a_field_is_still_recognized_and_the_error_names_it() -> None:
    document = load(PAYLOADS / "plan.json")
    del document["objective"]
    with pytest.raises(ValidationError) as caught:
        mm.parse(document)
    assert caught.value.title == "Plan"
    assert caught.value.errors()[0]["loc"] == ("objective",)


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"hello": "world"}, r"no key that names one, such as Plan \(plan_id\), Dialog \(dialog_id\)"),
        (
            {"plan_id": "x", "objective": "o", "steps": [], "dialog_id": "y", "messages": []},
            r"as large a share of the keys of Plan \(objective, plan_id, steps\), Dialog \(dialog_id, messages\)",
        ),
        ([], "JSON object"),
        ("null", "JSON object"),
    ],
)
def test_unknown_kinds_are_clear_errors(data: object, says: str) -> None:
    with pytest.raises(ValidationError, match=says):
        mm.parse(data if not isinstance(data, list) else json.dumps(data))  # type: ignore[arg-type]


def test_parse_refuses_duplicate_keys_too() -> None:
    with pytest.raises(ValidationError, match="Duplicate key"):
        mm.parse(b'{"event_id": "a", "event_id": "b"}')


def test_payload_is_the_union_of_the_registered_kinds() -> None:
    assert typing.get_args(mm.Payload) == tuple(kind.model for kind in KINDS)


def test_every_kind_has_keys_of_its_own() -> None:
    # A kind whose required keys all belong to other kinds too could never be told apart.
    from mplp_models._parse import _OWN_KEYS  # pyright: ignore[reportPrivateUsage]

    assert {model.__name__ for model, own in _OWN_KEYS.items() if own} == {kind.name for kind in KINDS}
