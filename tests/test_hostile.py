"""Hostile input: nothing but a ValidationError ever comes out of from_json, parse and errors_as_json."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import FIXTURE_OF, PAYLOADS, examples, load
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import mplp_models as mm
from mplp_models._lines import MAX_LINE_BYTES

EVENT = load(PAYLOADS / "event.json")


def only_validation_errors(data: object) -> None:
    for read in (mm.parse, mm.Plan.from_json, mm.InboxMessage.from_json):
        try:
            read(data)  # type: ignore[arg-type]
        except ValidationError as error:
            for entry in mm.errors_as_json(error):
                assert entry["pointer"] == "" or entry["pointer"].startswith("/")
                # Bounded whatever the input: the longest is parse's (a key of every kind, 404 characters with
                # the 15 kinds, or the keys of a tie).
                assert len(entry["message"]) < 500


@settings(max_examples=examples(quick=50, deep=400), deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes(data: bytes) -> None:
    only_validation_errors(data)


@settings(max_examples=examples(quick=50, deep=400), deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list('{}[]":,0123456789.eE+-tfnrul \\\\u') + ["\ud800", "é", "\U0001f600"]),
        max_size=60,
    )
)
def test_random_json_like_text(text: str) -> None:
    only_validation_errors(text)


@pytest.mark.parametrize("name", sorted(FIXTURE_OF.values()))
def test_every_truncation_of_a_payload(name: str) -> None:
    raw = (PAYLOADS / name).read_bytes()
    for end in range(0, len(raw), 7):
        only_validation_errors(raw[:end])


@pytest.mark.parametrize(
    "text",
    ["1e400", "-1e400", "9" * 400, "NaN", "Infinity", "-Infinity", '"\\ud800"', '{"a":1,"a":1}', "[" * 100_000],
)
def test_hostile_literals(text: str) -> None:
    document = json.dumps(dict(EVENT, data={"x": "PLACEHOLDER"})).replace('"PLACEHOLDER"', text)
    with pytest.raises(ValidationError):
        mm.Event.from_json(document)
    only_validation_errors(document)


@pytest.mark.slow
def test_a_50_mb_string_is_read_and_never_echoed_whole() -> None:
    huge = "x" * (50 * 1024 * 1024)
    event = mm.Event.from_json(json.dumps(dict(EVENT, source=huge)))
    assert len(event.source) == len(huge)
    with pytest.raises(ValidationError) as caught:
        mm.Event.from_json(json.dumps(dict(EVENT, event_type=huge.upper())))
    (entry,) = mm.errors_as_json(caught.value)
    assert entry["pointer"] == "/event_type" and len(entry["message"]) < 300


def test_a_pattern_field_with_a_1_mb_value() -> None:
    # pydantic-core's regex engine runs in linear time; a backtracking engine would not finish here.
    long_id = "IM-" + "a." * (512 * 1024)
    message = mm.InboxMessage.model_validate(dict(load(PAYLOADS / "inbox.json"), message_id=long_id))
    assert message.message_id == long_id
    with pytest.raises(ValidationError):
        mm.InboxMessage.model_validate(dict(load(PAYLOADS / "inbox.json"), message_id=long_id + "!"))


MEMORY_MULTIPLE = 4  # documented in docs/validation.md; measured at about 2


@pytest.mark.slow
def test_a_100_mb_plan_stays_within_the_documented_memory() -> None:
    # A fresh process, so that its peak resident size is this read's alone.
    script = """
import json, resource, sys
sys.path.insert(0, "tests/benchmarks")
import payloads, mplp_models as mm
payload = payloads.plan_payload(230_000)
for step in payload["steps"]:
    step["description"] *= 6
raw = json.dumps(payload).encode()
del payload
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
plan = mm.Plan.from_json(raw)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(len(raw), (after - before) * 1024, len(plan.steps))
"""
    import subprocess
    import sys

    from conftest import ROOT

    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    size, growth, steps = map(int, result.stdout.split())
    assert size > 100_000_000 and steps == 230_000
    assert growth < MEMORY_MULTIPLE * size, f"{growth / size:.1f}x the payload"


# --- Each hostile input at each door, in a fresh process under a memory cap and a timeout ---------
#
# The child builds the input itself (nothing big crosses the pipe), caps its address space with
# RLIMIT_AS, reads the input through one door and prints what came out and how much its peak
# resident size grew. A MemoryError, a crash or a timeout fails the case.

MB = 1024 * 1024

# Each input: a Python expression (bytes) built in the child, its size class, and the error code the
# strict readers (parse, from_json, the LLM reader, check_lines) give; None: the input is valid JSON
# that the strict readers read (and the model then judges).
INPUTS: dict[str, tuple[str, str | None]] = {
    "nesting 10^6 deep": ('b"[" * 10**6 + b"]" * 10**6', "json_invalid"),
    "objects nested 10^6 deep": ('b\'{"a":\' * 10**6 + b"1" + b"}" * 10**6', "json_invalid"),
    "a 10^6-digit number": ('b\'{"title": \' + b"9" * 10**6 + b"}"', "json_invalid"),
    "NaN": ("b'{\"title\": NaN}'", "json_invalid"),
    "Infinity": ("b'{\"title\": Infinity}'", "json_invalid"),
    "-Infinity": ("b'{\"title\": -Infinity}'", "json_invalid"),
    "+Infinity": ("b'{\"title\": +Infinity}'", "json_invalid"),
    "nan": ("b'{\"title\": nan}'", "json_invalid"),
    "inf": ("b'{\"title\": inf}'", "json_invalid"),
    "1e400": ("b'{\"title\": 1e400}'", "json_invalid"),
    "-1e400": ("b'{\"title\": -1e400}'", "json_invalid"),
    "a lone surrogate escape": ('b\'{"title": "\\\\ud800"}\'', "json_invalid"),
    "a lone surrogate in UTF-8": ('b\'{"title": "\\xed\\xa0\\x80"}\'', "json_invalid"),
    "invalid UTF-8": ('b\'{"title": "ok",\\n "description": "caf\\xe9"}\'', "json_invalid"),
    "a byte order mark": ('b"\\xef\\xbb\\xbf" + b\'{"title": "x"}\'', "json_invalid"),
    "trailing garbage": ('b\'{"title": "x"} x\'', "json_invalid"),
    "10^6 items": ('b\'{"title": "t", "meta": [\' + b"0," * (10**6 - 1) + b"0]}"', None),
    "a 5 MB string, a duplicate key": (
        'b\'{"title": "\' + b"a" * (5 * 2**20) + b\'", "title": "x"}\'',
        "json_duplicate_key",
    ),
    "a 5 MB key, duplicated": (
        'b\'{"\' + b"k" * (5 * 2**20) + b\'": 1, "\' + b"k" * (5 * 2**20) + b\'": 2}\'',
        "json_duplicate_key",
    ),
    "5 MB of escapes, a duplicate key": (
        'b\'{"title": "\' + b"\\\\n" * (5 * 2**19) + b\'", "title": "x"}\'',
        "json_duplicate_key",
    ),
}

BIG_INPUTS: dict[str, tuple[str, str | None]] = {
    "a 100 MB string, a duplicate key": (
        'b\'{"title": "\' + b"a" * (100 * 2**20) + b\'", "title": "x"}\'',
        "json_duplicate_key",
    ),
    "a 100 MB key, duplicated": (
        'b\'{"title": "x", "\' + b"k" * (100 * 2**20) + b\'": 1, "title": 2}\'',
        "json_duplicate_key",
    ),
    "100 MB of escapes, a duplicate key": (
        'b\'{"title": "\' + b"\\\\n" * (50 * 2**20) + b\'", "title": "x"}\'',
        "json_duplicate_key",
    ),
    "a 100 MB string": ('b\'{"title": "\' + b"a" * (100 * 2**20) + b\'"}\'', None),
}

# Each door: how it reads `data` in the child; what it returns is the error code, or "ok".
DOORS = {
    "parse": "mm.parse(data)",
    "from_json": "mm.Plan.from_json(data)",
    "model_validate_json": "mm.Plan.model_validate_json(data)",
    "TypeAdapter": "TypeAdapter(mm.Plan).validate_json(data)",
    "llm": 'llm.from_llm_json(mm.Plan, data, dialect="json-schema")',
    "check_lines": "mm.check_lines([data])",
    "cli": "cli(data)",
}
STRICT_DOORS = ("parse", "from_json", "llm", "check_lines", "cli")

CHILD = """
import json, resource, sys, tempfile
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
import mplp_models as mm
from mplp_models import llm
from mplp_models._cli.main import main
from pydantic import TypeAdapter, ValidationError

def cli(data):
    with tempfile.NamedTemporaryFile(suffix=".json") as file:
        file.write(data)
        file.flush()
        return main(["validate", "--format", "json", file.name])

def outcome(result):
    if isinstance(result, list):  # check_lines
        return "ok" if result[0].ok else result[0].errors[0]["code"]
    if isinstance(result, int):  # the command's exit code
        return "ok" if result == 0 else "invalid" if result == 1 else f"exit {{result}}"
    return "ok"

data = {data}
for door, read in {doors}.items():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    try:
        found = outcome(eval(read))
    except ValidationError as error:
        found = error.errors()[0]["type"]
    except MemoryError:
        found = "MemoryError"
    growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    print(json.dumps({{"door": door, "outcome": found, "size": len(data), "growth": growth}}), flush=True)
"""


def run_capped(data: str, doors: list[str], *, cap: int, timeout: float) -> list[dict[str, Any]]:
    """What each door gave for the input, read in turn in one child process."""
    import subprocess
    import sys

    from conftest import ROOT

    script = CHILD.format(cap=cap, data=data, doors={door: DOORS[door] for door in doors})
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    # The command writes its own records to the same stdout: the child's start with its door.
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith('{"door": ')]
    assert [result["door"] for result in results] == doors
    return results


def expected_outcomes(door: str, code: str | None) -> set[str]:
    if door == "cli":
        return {"invalid"} if code is not None else {"ok", "invalid"}
    if door == "llm" and code is not None:
        # An answer may wrap its object in prose: a BOM or trailing text is prose, and the object found
        # is then judged by the model; an answer without an object says so.
        return {code, "llm_no_json"} | MODEL_CODES
    if door in STRICT_DOORS and code is not None:
        return {code}
    # pydantic's own doors word their errors their own way; valid JSON is judged by the model.
    refusals: set[str] = {"json_invalid"} if code is not None else set()
    return {"ok"} | refusals | MODEL_CODES


# What the model may say of JSON it read (a Plan missing its fields, a title of the wrong type, ...).
MODEL_CODES = {"missing", "string_type", "model_type", "payload_kind", "extra_forbidden", "json_duplicate_key"}


@pytest.mark.parametrize("name", INPUTS)
def test_hostile_input_at_each_door_gives_its_error_within_bounds(name: str) -> None:
    data, code = INPUTS[name]
    for result in run_capped(data, list(DOORS), cap=2048 * MB, timeout=300):
        assert result["outcome"] in expected_outcomes(result["door"], code), result


@pytest.mark.slow
@pytest.mark.parametrize("door", ["parse", "from_json", "llm", "check_lines", "cli"])
@pytest.mark.parametrize("name", BIG_INPUTS)
def test_100_mb_inputs_at_the_strict_doors_stay_within_a_few_times_their_size(name: str, door: str) -> None:
    data, code = BIG_INPUTS[name]
    (result,) = run_capped(data, [door], cap=4096 * MB, timeout=300)
    if door == "check_lines":  # longer than a line may be (MAX_LINE_BYTES): refused unread
        assert result["outcome"] == "line_too_long", result
    else:
        assert result["outcome"] in expected_outcomes(door, code) - {"ok"} | ({"ok"} if code is None else set()), result
    assert result["growth"] < 8 * result["size"], f"{result['growth'] / result['size']:.1f}x the input"


# --- Error-heavy input: the errors are bounded at every door, in a fresh process each --------------
#
# Each input gives far more problems than MAX_ERRORS (1,000). Every door answers with at most 1,001
# entries, the last saying how many more were found or that the checks stopped, and what it writes
# (errors_as_json, the LLM's feedback, the command's output, FastAPI's 422) stays small.
#
# The models' own readers (BOUNDED_DOORS) check a big input's arrays up to their first bad item
# (_bounded): their memory stays within a few times the input (FAIL_FAST_BYTES_PER_INPUT_BYTE).
# pydantic's own doors (a TypeAdapter, FastAPI's validation of a body) collect every schema problem
# before it is listed: that part grows with the input (ERROR_BYTES_PER_INPUT_BYTE, SECURITY.md). The
# rules' problems are counted without being kept at every door.

ERRORS_CHILD = """
import contextlib, io, json, resource, sys, tempfile
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
import mplp_models as mm
from mplp_models import llm
from mplp_models._cli.main import main
from pydantic import TypeAdapter, ValidationError

def cli(data):
    with tempfile.NamedTemporaryFile(suffix=".json") as file:
        file.write(data)
        file.flush()
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            main(["validate", "--format", "json", file.name])
    (record,) = [json.loads(line) for line in out.getvalue().splitlines()]
    return record["errors"], len(out.getvalue())

def web(data, strict):
    from fastapi import APIRouter, FastAPI
    from fastapi.testclient import TestClient
    from mplp_models.fastapi import LimitedBodyRoute, StrictJSONRoute
    class Route(StrictJSONRoute if strict else LimitedBodyRoute):
        max_body_bytes = 200 * 2**20
    router = APIRouter(route_class=Route)
    def endpoint(plan: mm.Plan) -> None: ...
    router.add_api_route("/plan", endpoint, methods=["POST"])
    app = FastAPI()
    app.include_router(router)
    response = TestClient(app).post("/plan", content=data, headers={{"content-type": "application/json"}})
    assert response.status_code == 422, response.status_code
    return [dict(entry, code=entry["type"]) for entry in response.json()["detail"]], len(response.content)

def refused(read):
    try:
        eval(read)
    except ValidationError as error:
        entries = mm.errors_as_json(error)
        return entries, len(json.dumps(entries)) + len(llm.feedback(error))
    raise AssertionError("read")

def lines(data):
    (verdict,) = mm.check_lines([data])
    return list(verdict.errors), len(json.dumps(verdict.errors))

def uid(n):
    return "%08x-0000-4000-8000-%012x" % (n, n)

def dense_plan(steps):
    # Every step in progress, each depending on the 8 before it: a dependency_not_done problem for each.
    listed = [
        {{
            "step_id": uid(i),
            "description": "d",
            "status": "in_progress",
            "dependencies": [uid(j) for j in range(max(0, i - 8), i)],
        }}
        for i in range(steps)
    ]
    meta = {{"protocol_version": "1.0.0", "schema_version": "1.0.0"}}
    plan = {{
        "meta": meta,
        "plan_id": uid(10**9),
        "context_id": uid(10**9 + 1),
        "title": "t",
        "objective": "o",
        "status": "in_progress",
        "steps": listed,
    }}
    return json.dumps(plan).encode()

data = {data}
for door, read in {doors}.items():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    try:
        if door == "cli":
            entries, written = cli(data)
        elif door == "check_lines":
            entries, written = lines(data)
        elif door.startswith("fastapi"):
            entries, written = web(data, door == "fastapi strict")
        else:
            entries, written = refused(read)
        last = entries[-1]
        found = {{
            "count": len(entries),
            "last": last["code"],
            "message": last["message" if "message" in last else "msg"],
            "written": written,
        }}
    except MemoryError:
        found = {{"count": 0, "last": "MemoryError", "message": "", "written": 0}}
    growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    print(json.dumps(dict(found, door=door, size=len(data), growth=growth)), flush=True)
"""

ERROR_DOORS = {
    "from_json": "mm.Plan.from_json(data)",
    "model_validate_json": "mm.Plan.model_validate_json(data)",
    "model_validate": "mm.Plan.model_validate(json.loads(data))",
    "TypeAdapter": "TypeAdapter(mm.Plan).validate_json(data)",
    "parse": "mm.parse(data)",
    "llm": 'llm.from_llm_json(mm.Plan, data, dialect="json-schema")',
    "check_lines": None,
    "cli": None,
    "fastapi strict": None,
    "fastapi plain": None,
}
BOUNDED_DOORS = {
    "from_json",
    "model_validate_json",
    "model_validate",
    "parse",
    "llm",
    "check_lines",
    "cli",
    "fastapi strict",
}

ERROR_BYTES_PER_INPUT_BYTE = 400
"""The most memory pydantic's own collection of schema problems takes per input byte (SECURITY.md)."""

FAIL_FAST_BYTES_PER_INPUT_BYTE = 30
"""The most memory the models' own readers take per input byte of error-heavy input (SECURITY.md); measured: 20."""

FAST_READING_BYTES_PER_INPUT_BYTE = 120
"""The same for from_json and model_validate_json, whose first reading is pydantic-core's (SECURITY.md); measured: 97.

Each "missing" problem of that reading quotes the whole object it is missing from as Python
values: the fields missing from ``{"plan_id": "p", "steps": [0,0,...]}`` copy its million items
five times. The strict reading that follows shares the one object. ``parse`` (and so
``check_lines`` and the command line) takes the same first reading: measured 49 on 15 MB.
"""
FULL_LISTING_MOST = 32_768
"""The most JSON values of a failing input that the bounded doors list in full (docs/validation.md)."""

FAST_READING_DOORS = {"from_json", "model_validate_json", "parse", "check_lines", "cli"}

# Each input: the expression that builds it in the child, how many problems it has, and what kind:
# "items" (bad items of an array, which the models' readers stop at), "keys" (unknown keys of one
# object: a model checks every key) or "rules" (a dense plan whose every step breaks a rule).
ERROR_INPUTS: dict[str, tuple[str, int, str]] = {
    "200,000 steps that are numbers": ('b\'{"plan_id": "p", "steps": [\' + b"0," * 199_999 + b"0]}"', 200_000, "items"),
    "200,000 unknown keys": (
        'b\'{"plan_id": "p", \' + b",".join(b\'"k%d": 0\' % i for i in range(200_000)) + b"}"',
        200_000,
        "keys",
    ),
    # 10,000 steps, each depending on the 8 before it, all in progress: 8 * 10,000 - 36 problems (4 MB).
    "a dense plan, every step in progress (4 MB)": ("dense_plan(10_000)", 8 * 10_000 - 36, "rules"),
}
BIG_ERROR_INPUTS: dict[str, tuple[str, int, str]] = {
    "10^6 steps that are numbers (2 MB)": (
        'b\'{"plan_id": "p", "steps": [\' + b"0," * (10**6 - 1) + b"0]}"',
        10**6,
        "items",
    ),
    "7.5 * 10^6 steps that are numbers (15 MB)": (
        'b\'{"plan_id": "p", "steps": [\' + b"0," * (7_500_000 - 1) + b"0]}"',
        7_500_000,
        "items",
    ),
    # 180,000 steps: 1.44 million problems (74 MB).
    "a dense plan, every step in progress (74 MB)": ("dense_plan(180_000)", 8 * 180_000 - 36, "rules"),
}


def run_errors_capped(data: str, doors: list[str], *, cap: int, timeout: float) -> list[dict[str, Any]]:
    import subprocess
    import sys

    from conftest import ROOT

    script = ERRORS_CHILD.format(cap=cap, data=data, doors={door: ERROR_DOORS[door] for door in doors})
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [result["door"] for result in results] == doors
    return results


def assert_bounded(result: dict[str, Any], problems: int, kind: str) -> None:
    if result["door"] == "check_lines" and result["size"] > MAX_LINE_BYTES:  # refused unread
        assert (result["count"], result["last"]) == (1, "line_too_long"), result
        return
    assert result["last"] == "too_many_errors", result
    assert result["written"] < 400_000, result
    bounded = result["door"] in BOUNDED_DOORS
    if kind == "items" and bounded and problems > FULL_LISTING_MOST:
        # The first bad item of the array, the fields missing besides, and the checks stopped there
        # (a smaller input is read again in full, and listed as pydantic's doors list it).
        assert result["count"] <= 1001, result
        assert result["message"].startswith("The checks stopped at the first bad item of each array"), result
    else:
        assert result["count"] == 1001, result
        more = int(result["message"].split()[0])
        if kind == "rules":
            assert more == problems - 1000, result
        else:  # at least the input's own problems (a door may add the fields that are missing besides)
            assert more >= problems - 1000, result
    if kind == "keys" or (kind == "items" and not bounded):  # every problem collected before it is listed
        per_byte = ERROR_BYTES_PER_INPUT_BYTE
    elif result["door"] in FAST_READING_DOORS:
        per_byte = FAST_READING_BYTES_PER_INPUT_BYTE
    else:
        per_byte = FAIL_FAST_BYTES_PER_INPUT_BYTE
    assert result["growth"] < per_byte * result["size"] + 100 * MB, result


@pytest.mark.parametrize("name", ERROR_INPUTS)
def test_error_heavy_input_gives_bounded_errors_at_every_door(name: str) -> None:
    data, problems, kind = ERROR_INPUTS[name]
    for result in run_errors_capped(data, list(ERROR_DOORS), cap=2048 * MB, timeout=600):
        assert_bounded(result, problems, kind)


@pytest.mark.parametrize("door", sorted(BOUNDED_DOORS))
def test_a_million_bad_steps_stop_early_at_the_models_readers(door: str) -> None:
    # 2 MB, a problem every two bytes: pydantic alone would collect a million (460 MB, SECURITY.md).
    data, problems, kind = BIG_ERROR_INPUTS["10^6 steps that are numbers (2 MB)"]
    (result,) = run_errors_capped(data, [door], cap=1024 * MB, timeout=300)
    assert_bounded(result, problems, kind)


@pytest.mark.slow
@pytest.mark.parametrize("door", list(ERROR_DOORS))
@pytest.mark.parametrize("name", BIG_ERROR_INPUTS)
def test_millions_of_problems_give_bounded_errors(name: str, door: str) -> None:
    data, problems, kind = BIG_ERROR_INPUTS[name]
    (result,) = run_errors_capped(data, [door], cap=8192 * MB, timeout=600)
    assert_bounded(result, problems, kind)


@pytest.mark.slow
def test_a_100_mb_bad_id_is_quoted_by_its_start_at_every_door() -> None:
    data = 'b\'{"plan_id": "\' + b"x" * (100 * 2**20) + b\'", "steps": [\' + b"0," * 2000 + b"0]}"'
    for result in run_errors_capped(data, list(ERROR_DOORS), cap=4096 * MB, timeout=600):
        assert_bounded(result, 2001, "items")
