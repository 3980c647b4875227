"""Random documents from the schemas: the models' verdict is the reference's.

What the models accept goes through losslessly.

Documents come from hypothesis-jsonschema on the frozen schemas (their $refs
inlined). The reference validator (draft-07, ECMA-262 patterns, strict RFC 3339)
judges each; the model in schema-only mode must agree, and every accepted
document must come out of ``to_dict`` and ``to_json`` unchanged. With the fast
paths on, and off (on fewer documents: the strict paths are the same code
whatever the document, and slower).
"""

from __future__ import annotations

import json
import string
from typing import Any
from urllib.parse import urljoin

import pytest
import rfc8785
from conftest import SCHEMA_OF, SCHEMAS, examples, load, reference_accepts
from fast_path_switch import either_path  # noqa: F401  # a fixture
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from pydantic import ValidationError

import mplp_models as mm
from mplp_models._schemas import schema_id

# A thousand documents per model at full depth (make test-deep), twenty in make test;
# ROUNDTRIP_EXAMPLES=N sets the count.
EXAMPLES = int(__import__("os").environ.get("ROUNDTRIP_EXAMPLES", examples(quick=20, deep=1000)))
# With the fast paths off, a fifth as many at full depth; ROUNDTRIP_EXAMPLES_OFF=N sets the count.
EXAMPLES_OFF = int(__import__("os").environ.get("ROUNDTRIP_EXAMPLES_OFF", max(EXAMPLES // 5, 10)))
# A file without an `$id` (the Cortex code mode's) is known by its path, as on disk.
BY_ID = {
    schema.get("$id", f"file:///{path.relative_to(SCHEMAS).as_posix()}"): schema
    for path, schema in ((path, load(path)) for path in SCHEMAS.rglob("*.schema.json"))
}


def inline(node: Any, base: str, root: dict[str, Any]) -> Any:
    """The schema with every $ref replaced by what it points to (the schemas have no cycles)."""
    if isinstance(node, list):
        return [inline(item, base, root) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target_url, _, pointer = urljoin(base, node["$ref"]).partition("#")
        document = BY_ID[target_url] if target_url else root
        target: Any = document
        for part in filter(None, pointer.split("/")):
            target = target[part]
        return inline(target, target_url or base, document)
    return {
        key: inline(value, base, root)
        for key, value in node.items()
        if key not in ("$defs", "definitions", "$id", "$schema")
    }


def date_times() -> st.SearchStrategy[str]:
    """RFC 3339 date-times in all their spellings."""
    dates = st.dates().map(lambda day: day.isoformat())
    times = st.times().map(lambda moment: moment.strftime("%H:%M:%S"))
    fraction = st.one_of(st.just(""), st.text(string.digits, min_size=1, max_size=12).map(lambda d: "." + d))
    offset = st.one_of(
        st.sampled_from(["Z", "z", "+00:00", "-00:00"]),
        st.tuples(st.sampled_from("+-"), st.integers(0, 23), st.integers(0, 59)).map(
            lambda t: f"{t[0]}{t[1]:02d}:{t[2]:02d}"
        ),
    )
    return st.builds(lambda d, t, s, f, o: f"{d}{s}{t}{f}{o}", dates, times, st.sampled_from("Tt"), fraction, offset)


def documents(model: type[mm.MplpModel]) -> st.SearchStrategy[Any]:
    uri = schema_id(model.__name__)
    schema = BY_ID[uri]
    return from_schema(inline(schema, uri, schema), custom_formats={"date-time": date_times()})


def as_doubles(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: as_doubles(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_doubles(item) for item in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return value


def has_large_integral_float(value: Any) -> bool:
    if isinstance(value, dict):
        return any(has_large_integral_float(item) for item in value.values())
    if isinstance(value, list):
        return any(has_large_integral_float(item) for item in value)
    return isinstance(value, float) and value.is_integer() and abs(value) >= 2**53


@pytest.mark.parametrize("model", list(SCHEMA_OF), ids=lambda model: model.__name__)
def test_random_valid_documents_round_trip(model: type[mm.MplpModel], either_path: bool) -> None:  # noqa: F811  # the fixture
    @settings(
        max_examples=EXAMPLES if either_path else EXAMPLES_OFF, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(documents(model))
    def check(document: Any) -> None:
        raw = json.dumps(document)
        if not reference_accepts(model, document):
            # The generator can step outside the schema (Python's `$` admits a final newline):
            # then the model must refuse too, as the reference validator does.
            with pytest.raises(ValidationError):
                model.from_json(raw, semantic=False)
            return
        # Random documents break the rules beyond the schema (timelines, step
        # graphs) at will: this is about the schema and the bytes.
        instance = model.from_json(raw, semantic=False)
        assert instance.to_dict() == document
        try:
            expected = rfc8785.dumps(document)
        except rfc8785.IntegerDomainError:
            assume(False)
        assert instance.to_json() == expected
        again = model.from_json(instance.to_json(), semantic=False)
        assert again.to_json() == expected
        # The same JSON numbers; an integral float of 2**53 or more comes back as
        # the int of its canonical digits (see docs/canonical-json.md).
        assert as_doubles(again.to_dict()) == as_doubles(instance.to_dict())
        if not has_large_integral_float(document):
            assert again == instance

    check()
