"""The fuzz target: any bytes through parse, from_json, to_json and canonical_json.

Importable without atheris, so that tests/test_fuzz_regressions.py replays every
input the fuzzer ever found (tests/fuzz/regressions/) in the normal test run.
"""

from __future__ import annotations

import json

from pydantic import ValidationError

import mplp_models as mm
from mplp_models._kinds import KINDS

READERS = (mm.parse, *(kind.model.from_json for kind in KINDS if kind.name not in ("Event", "TraceBase")))


def check(data: bytes) -> None:
    """Raise anything but the documented errors, or a broken round trip, as a failure."""
    for read in READERS:
        try:
            model = read(data)
        except ValidationError as error:
            mm.errors_as_json(error)
            continue
        try:
            written = model.to_json()
        except mm.CanonicalJSONError:
            continue
        again = type(model).from_json(written, semantic=False)
        assert again.to_json() == written, "to_json is not idempotent"
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return
    try:
        written = mm.canonical_json(value)
    except mm.CanonicalJSONError:
        return
    assert mm.canonical_json(json.loads(written)) == written, "canonical_json is not a fixed point"
