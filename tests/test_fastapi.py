"""mplp_models.fastapi: a StrictJSONRoute reads a body as from_json does, through a test client and a real server.

Every route of the apps here hands the model it received to a list, so a test
can compare it with what ``from_json`` reads from the same bytes.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Annotated, Any, NamedTuple

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx2")  # starlette's test client; on httpx it warns

import httpx2
from conftest import FIXTURE_OF, PAYLOADS, ROOT
from fastapi import APIRouter, Body, Depends, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from pydantic import TypeAdapter, ValidationError

import mplp_models as mm
from mplp_models.fastapi import MAX_BODY_BYTES, LimitedBodyRoute, StrictJSONRoute

PLAN = (PAYLOADS / "plan.json").read_bytes()
PATH_OF = {model: f"/{model.__name__.lower()}" for model in FIXTURE_OF}
JSON = {"content-type": "application/json"}


def edit(raw: bytes, old: bytes, new: bytes) -> bytes:
    """``raw`` with its one ``old`` replaced: a test's edit that silently missed would prove nothing."""
    assert raw.count(old) == 1, old
    return raw.replace(old, new)


# --- the app ---


def receiver(annotation: Any, received: list[Any]) -> Callable[..., None]:
    """An endpoint whose one body parameter is declared as ``annotation``; it keeps what it gets."""

    def receive(payload: Any) -> None:
        received.append(payload)

    receive.__annotations__ = {"payload": annotation, "return": None}  # what FastAPI reads the body as
    return receive


def refuse_every_plan(plan: mm.Plan) -> None:
    raise HTTPException(status_code=409, detail=f"plan {plan.plan_id} already exists")


def make_app(route_class: type[APIRoute] = StrictJSONRoute) -> tuple[FastAPI, list[Any]]:
    received: list[Any] = []
    router = APIRouter(route_class=route_class)
    bodies: dict[str, Any] = {
        **{PATH_OF[model]: model for model in FIXTURE_OF},
        "/plans": list[mm.Plan],
        "/embedded": Annotated[mm.Plan, Body(embed=True)],
    }
    for path, annotation in bodies.items():
        router.add_api_route(path, receiver(annotation, received), methods=["POST"], status_code=204, name=path[1:])
    router.add_api_route("/conflict", refuse_every_plan, methods=["POST"])
    app = FastAPI()
    app.include_router(router)
    return app, received


@pytest.fixture
def app() -> tuple[TestClient, list[Any]]:
    app, received = make_app()
    return TestClient(app), received


# --- bodies that are read ---


@pytest.mark.parametrize("model", list(FIXTURE_OF), ids=lambda model: model.__name__)
def test_a_valid_payload_reaches_the_endpoint_as_from_json_reads_it(
    model: type[mm.MplpModel], app: tuple[TestClient, list[Any]]
) -> None:
    client, received = app
    raw = (PAYLOADS / FIXTURE_OF[model]).read_bytes()
    response = client.post(PATH_OF[model], content=raw, headers=JSON)
    assert response.status_code == 204, response.text
    [got] = received
    assert type(got) is model
    assert got == model.from_json(raw)
    assert got.to_json() == model.from_json(raw).to_json()  # the same fields given, no others


def test_a_list_of_models_is_read_strictly_too(app: tuple[TestClient, list[Any]]) -> None:
    client, received = app
    response = client.post("/plans", content=b"[" + PLAN + b"," + PLAN + b"]", headers=JSON)
    assert response.status_code == 204, response.text
    assert received == [[mm.Plan.from_json(PLAN)] * 2]
    duplicate = edit(PLAN, b'"agent_role": "builder",', b'"agent_role": "builder", "agent_role": "x",')
    response = client.post("/plans", content=b"[" + PLAN + b"," + duplicate + b"]", headers=JSON)
    assert response.status_code == 422
    assert [entry["pointer"] for entry in response.json()["detail"]] == ["/1/steps/1/agent_role"]


def test_integers_beyond_64_bits_stay_exact(app: tuple[TestClient, list[Any]]) -> None:
    client, received = app
    big = 2**100 + 1  # a double would round it
    response = client.post("/plan", content=edit(PLAN, b'"retries": 0', f'"retries": {big}'.encode()), headers=JSON)
    assert response.status_code == 204, response.text
    assert received[0].trace.attributes["retries"] == big


# --- bodies that are refused ---


class Refusal(NamedTuple):
    body: bytes
    codes: list[str]
    pointers: list[str]


REFUSALS = {
    "duplicate key": Refusal(
        edit(PLAN, b'"agent_role": "builder",', b'"agent_role": "builder", "agent_role": "x",'),
        ["json_duplicate_key"],
        ["/steps/1/agent_role"],
    ),
    "NaN in trace.attributes": Refusal(
        edit(PLAN, b'"ratio": 0.5', b'"ratio": NaN'), ["json_invalid"], ["/trace/attributes/ratio"]
    ),
    "Infinity in an event's data": Refusal(
        edit(PLAN, b'"to": "in_progress"}', b'"to": "in_progress", "weight": -Infinity}'),
        ["json_invalid"],
        ["/events/0/data/weight"],
    ),
    "NaN for a number": Refusal(
        edit(PLAN, b'"order_index": 0', b'"order_index": NaN'), ["json_invalid"], ["/steps/0/order_index"]
    ),
    "a trailing comma": Refusal(
        edit(PLAN, b'"owner": null}', b'"owner": null,}'), ["json_invalid"], ["/trace/attributes/owner"]
    ),
    "invalid UTF-8": Refusal(edit(PLAN, b"Ship the 2.0", b"Ship the \xff 2.0"), ["json_invalid"], ["/title"]),
    "schema": Refusal(
        edit(
            PLAN,
            b'"status": "pending",\n      "dependencies": ["a1000000-0000-4000-8000-000000000001"]',
            b'"status": "paused",\n      "dependencies": ["a1000000-0000-4000-8000-000000000001"]',
        ),
        ["enum"],
        ["/steps/3/status"],
    ),
    "broken rules": Refusal(
        (PAYLOADS / "invalid" / "plan-cycle.json").read_bytes(),
        ["unknown_dependency", "dependency_cycle"],
        ["/steps/3/dependencies/0", "/steps/0/dependencies/0"],
    ),
}


def pointer_of(loc: list[Any]) -> str:
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in loc)


def assert_refused_as_from_json_refuses(response: Any, refusal: Refusal, prefix: tuple[str, ...] = ()) -> None:
    """A 422 in FastAPI's shape whose entries are from_json's errors, each with its pointer into the body."""
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    with pytest.raises(ValidationError) as caught:
        mm.Plan.from_json(refusal.body)
    expected = caught.value.errors(include_url=False)
    assert [entry["type"] for entry in detail] == refusal.codes == [entry["type"] for entry in expected]
    assert [entry["pointer"] for entry in detail] == [
        "".join(f"/{part}" for part in prefix) + pointer for pointer in refusal.pointers
    ]
    for got, want in zip(detail, expected):
        # from_json's location where it gives one; else the route's own, which its pointer names
        assert got["loc"][0] == "body" and pointer_of(got["loc"][1:]) == got["pointer"]
        if want["loc"]:
            assert got["loc"] == ["body", *prefix, *want["loc"]]
    assert [entry["msg"] for entry in detail] == [entry["msg"] for entry in expected]
    assert all({"type", "loc", "msg", "input", "pointer"} <= entry.keys() for entry in detail)


@pytest.mark.parametrize("refusal", REFUSALS.values(), ids=REFUSALS.keys())
def test_a_refused_body_is_a_422_with_pointers(refusal: Refusal, app: tuple[TestClient, list[Any]]) -> None:
    client, received = app
    assert_refused_as_from_json_refuses(client.post("/plan", content=refusal.body, headers=JSON), refusal)
    assert received == []


def test_an_embedded_body_is_pointed_at_below_its_key(app: tuple[TestClient, list[Any]]) -> None:
    client, received = app
    refusal = REFUSALS["broken rules"]
    response = client.post("/embedded", content=b'{"payload": ' + refusal.body + b"}", headers=JSON)
    assert_refused_as_from_json_refuses(response, refusal, prefix=("payload",))
    response = client.post("/embedded", content=b'{"payload": ' + PLAN + b"}", headers=JSON)
    assert response.status_code == 204, response.text
    assert received == [mm.Plan.from_json(PLAN)]


def test_a_refused_text_is_quoted_by_its_start(app: tuple[TestClient, list[Any]]) -> None:
    client, _ = app
    response = client.post("/plan", content=REFUSALS["invalid UTF-8"].body, headers=JSON)
    [entry] = response.json()["detail"]
    assert entry["input"] == PLAN[:40].decode()


def test_a_body_not_sent_as_json_is_fastapis_own(app: tuple[TestClient, list[Any]]) -> None:
    client, received = app
    response = client.post("/plan", content=PLAN, headers={"content-type": "text/plain"})
    assert response.status_code == 422
    assert all("pointer" not in entry for entry in response.json()["detail"])  # no JSON was read to point into
    assert received == []


def test_the_endpoints_own_errors_pass_unchanged(app: tuple[TestClient, list[Any]]) -> None:
    client, _ = app
    response = client.post("/conflict", content=PLAN, headers=JSON)
    assert response.status_code == 409
    assert response.json() == {"detail": "plan 3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11 already exists"}


def test_a_plain_route_takes_what_the_strict_one_refuses() -> None:
    # The refusals above are the route class's doing: FastAPI's own reading keeps the last key.
    plain, received = make_app(APIRoute)
    response = TestClient(plain).post("/plan", content=REFUSALS["duplicate key"].body, headers=JSON)
    assert response.status_code == 204, response.text
    assert received[0].steps[1].agent_role == "x"


# --- what the app says of itself ---


def test_the_openapi_document_is_fastapis_own_with_the_413_answer() -> None:
    strict, _ = make_app()
    plain, _ = make_app(APIRoute)
    document = strict.openapi()
    expected = plain.openapi()
    for operations in expected["paths"].values():
        for operation in operations.values():  # what the route answers to a body that is too long
            operation["responses"]["413"] = {
                "description": "The request body is too long",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TooLargeBody"}}},
            }
    expected["components"]["schemas"]["TooLargeBody"] = {
        "description": document["components"]["schemas"]["TooLargeBody"]["description"],
        "properties": {"detail": {"title": "Detail", "type": "string"}},
        "required": ["detail"],
        "title": "TooLargeBody",
        "type": "object",
    }
    assert document == expected
    assert document["paths"]["/plan"]["post"]["requestBody"] == {
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Plan"}}},
        "required": True,
    }


def test_without_fastapi_the_import_error_says_what_to_install() -> None:
    code = (
        "import sys\nsys.modules['fastapi'] = None  # as if it were not installed\n"
        "try:\n    import mplp_models.fastapi\n"
        "except ImportError as error:\n    print(error.name, '|', error)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("fastapi |")
    assert "pip install 'mplp-models[fastapi]'" in result.stdout


# --- a real server ---


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, list[Any]]]:
    """The strict app served by uvicorn on a free port of 127.0.0.1, in a thread, for this module's tests."""
    uvicorn = pytest.importorskip("uvicorn")
    app, received = make_app()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))  # bound here, so no other process can take the port before uvicorn listens
    config = uvicorn.Config(app, lifespan="off", ws="none", http="h11", log_config=None, access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.started, "uvicorn did not start within 10 seconds"
        yield f"http://127.0.0.1:{sock.getsockname()[1]}", received
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
    assert not thread.is_alive(), "uvicorn did not stop within 10 seconds"


def post(server: tuple[str, list[Any]], path: str, body: bytes) -> Any:
    """The server's answer to ``body``; what the server received before is forgotten."""
    url, received = server
    received.clear()
    return httpx2.post(url + path, content=body, headers=JSON, timeout=10)


def test_a_real_server_hands_on_the_model_from_json_reads(server: tuple[str, list[Any]]) -> None:
    response = post(server, "/plan", PLAN)
    assert response.status_code == 204, response.text
    assert server[1] == [mm.Plan.from_json(PLAN)]


@pytest.mark.parametrize("refusal", REFUSALS.values(), ids=REFUSALS.keys())
def test_a_real_server_refuses_with_pointers(refusal: Refusal, server: tuple[str, list[Any]]) -> None:
    assert_refused_as_from_json_refuses(post(server, "/plan", refusal.body), refusal)
    assert server[1] == []


# --- a plain app, without the route class: pydantic's own doors -------------------


def echo_app(model: type[mm.MplpModel]) -> TestClient:
    app = FastAPI()

    def echo(payload: mm.MplpModel) -> mm.MplpModel:
        return payload

    echo.__annotations__ = {"payload": model, "return": model}
    app.post("/echo")(echo)
    return TestClient(app)


@pytest.mark.parametrize("model", list(FIXTURE_OF), ids=lambda model: model.__name__)
def test_a_plain_app_round_trips_every_payload(model: type[mm.MplpModel]) -> None:
    client = echo_app(model)
    raw = (PAYLOADS / FIXTURE_OF[model]).read_bytes()
    first = client.post("/echo", content=raw, headers=JSON)
    assert first.status_code == 200, first.text
    assert model.from_json(first.content) == model.from_json(raw)  # absent fields stay absent: no null written
    second = client.post("/echo", content=first.content, headers=JSON)
    assert second.status_code == 200, second.text
    assert second.content == first.content
    assert client.get("/openapi.json").status_code == 200


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_a_plain_app_refuses_non_finite_numbers_in_open_objects_with_a_422(literal: str) -> None:
    raw = (PAYLOADS / "plan.json").read_bytes().replace(b'"ratio": 0.5', b'"ratio": ' + literal.encode())
    assert raw != (PAYLOADS / "plan.json").read_bytes()
    response = echo_app(mm.Plan).post("/echo", content=raw, headers=JSON)
    assert response.status_code == 422, response.text
    [entry] = response.json()["detail"]
    assert entry["loc"][:3] == ["body", "trace", "attributes"] and entry["input"] == literal


def test_a_plain_app_refuses_a_non_finite_number_field_with_a_422() -> None:
    raw = (PAYLOADS / "learning-sample.json").read_bytes().replace(b'"impact_score": 0.85', b'"impact_score": NaN')
    response = echo_app(mm.LearningSample).post("/echo", content=raw, headers=JSON)
    assert response.status_code == 422, response.text
    [entry] = response.json()["detail"]
    assert entry["loc"] == ["body", "impact_score"] and entry["input"] == "NaN"


def test_the_openapi_document_has_one_schema_per_model_the_models_own() -> None:
    # Without separate_input_output_schemas=False: what a model reads and writes is one JSON Schema.
    app = FastAPI()
    for model in FIXTURE_OF:

        def echo(payload: mm.MplpModel) -> mm.MplpModel:
            return payload

        echo.__annotations__ = {"payload": model, "return": model}
        app.post(PATH_OF[model])(echo)
    components = TestClient(app).get("/openapi.json").json()["components"]["schemas"]
    assert not [name for name in components if name.endswith(("-Input", "-Output"))]
    for model in FIXTURE_OF:
        own = model.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, schema in {model.__name__: own, **own.pop("$defs", {})}.items():
            assert components[name] == schema, name
    attributes = components["TraceBase"]["properties"]["attributes"]
    assert attributes["type"] == "object" and attributes["additionalProperties"] == {
        "$ref": "#/components/schemas/JsonValue"
    }


def test_the_strict_route_names_a_nan_where_the_plain_route_does() -> None:
    body = REFUSALS["NaN for a number"].body
    strict = TestClient(make_app()[0]).post("/plan", content=body, headers=JSON).json()["detail"]
    plain = TestClient(make_app(APIRoute)[0]).post("/plan", content=body, headers=JSON).json()["detail"]
    assert (
        [entry["loc"] for entry in strict] == [entry["loc"] for entry in plain] == [["body", "steps", 0, "order_index"]]
    )
    [entry] = strict
    assert entry["pointer"] == "/steps/0/order_index" and entry["type"] == "json_invalid"
    line = body[: body.index(b"NaN")].count(b"\n") + 1
    assert f"at line {line}, column " in entry["msg"]  # and the reader's line and column


def test_the_strict_routes_errors_say_array_and_object(app: tuple[TestClient, list[Any]]) -> None:
    client, _ = app
    body = edit(PLAN, b'"tags": ["release", "high-priority"]', b'"tags": "release"')
    [entry] = client.post("/plan", content=body, headers=JSON).json()["detail"]
    assert entry == {**entry, "type": "tuple_type", "msg": "Input should be a JSON array", "pointer": "/meta/tags"}


# --- hostile bodies: a 422 on both routes, never a 500 ---

TITLE = b'"title": "Ship the 2.0 release"'
STATUS = b'"status": "in_progress",\n  "steps"'
CREATED = b'"created_at": "2026-03-01T09:00:00.000Z"'
TAGS = b'"tags": ["release", "high-priority"]'
DATA = b'"data": {"from": "approved", "to": "in_progress"}'
STEP = b'"description": "Freeze the main branch and tag v2.0.0"'


def at(old: bytes, new: bytes) -> bytes:
    return edit(PLAN, old, new)


def nested(depth: int, inner: bytes = b"") -> bytes:
    return b"[" * depth + inner + b"]" * depth


# What FastAPI's own reading of the body (json.loads, before any model) answers on a plain route.
FASTAPIS_OWN = {
    "invalid UTF-8": 400,  # "There was an error parsing the body": the bytes never reach a model
    "nesting beyond Python's recursion limit": 400,  # json.loads's RecursionError, the same answer
    "a BOM": 204,  # json.loads reads past a UTF-8 BOM, which JSON text may not start with (RFC 8259 section 8.1)
}

HOSTILE = {
    # a NaN, an infinity or an overflowing number where no number may be
    "NaN for a string": at(TITLE, b'"title": NaN'),
    "Infinity for a string": at(TITLE, b'"title": Infinity'),
    "-Infinity for a string": at(TITLE, b'"title": -Infinity'),
    "1e400 for a string": at(TITLE, b'"title": 1e400'),
    "NaN for an enum": at(STATUS, b'"status": NaN,\n  "steps"'),
    "1e400 for an enum": at(STATUS, b'"status": 1e400,\n  "steps"'),
    "NaN for an id": at(b'"plan_id": "3f6c2a1e', b'"plan_id": NaN, "x": "3f6c2a1e'),
    "-Infinity for a timestamp": at(CREATED, b'"created_at": -Infinity'),
    "NaN for an array": at(TAGS, b'"tags": NaN'),
    "NaN in an array of strings": at(TAGS, b'"tags": ["release", NaN]'),
    "1e400 in an array of strings": at(TAGS, b'"tags": [1e400]'),
    "NaN for an open object": at(DATA, b'"data": NaN'),
    "Infinity in an open object": at(DATA, b'"data": {"from": "approved", "to": Infinity}'),
    "1e400 deep in an open object": at(DATA, b'"data": {"from": [{"to": 1e400}]}'),
    "NaN for a nested model": at(b'"meta": {', b'"meta": NaN, "x": {'),
    "NaN for a step": at(b'"steps": [\n    {', b'"steps": [NaN,\n    {'),
    "Infinity in a step's text": at(STEP, b'"description": Infinity'),
    "NaN for a step's enum": at(
        b'"status": "completed",\n      "agent_role": "release', b'"status": NaN, "agent_role": "release'
    ),
    "NaN at the top level": b"NaN",
    "Infinity at the top level": b"Infinity",
    "-Infinity at the top level": b" -Infinity ",
    "1e400 at the top level": b"1e400",
    "an array of NaN at the top level": b"[NaN, Infinity]",
    # lone surrogates, in keys and values
    "a lone surrogate for a string": at(TITLE, b'"title": "\\ud800"'),
    "a lone low surrogate in a string": at(TITLE, b'"title": "Ship \\udfff the 2.0"'),
    "surrogates in the wrong order": at(TITLE, b'"title": "\\udc00\\ud800"'),
    "a lone surrogate for an enum": at(STATUS, b'"status": "\\ud800",\n  "steps"'),
    "a lone surrogate for a timestamp": at(CREATED, b'"created_at": "\\ud800"'),
    "a lone surrogate in an array": at(TAGS, b'"tags": ["\\ud800"]'),
    "a lone surrogate in an open object": at(DATA, b'"data": {"from": "\\ud800"}'),
    "a lone surrogate in a step's text": at(STEP, b'"description": "\\ud800"'),
    "a lone surrogate key at the top level": at(TITLE, TITLE + b', "\\ud800": 1'),
    "a lone surrogate key in a nested model": at(b'"meta": {', b'"meta": {"\\udfff": NaN, '),
    "a lone surrogate key in an open object": at(DATA, b'"data": {"\\ud800": "x"}'),
    "a lone surrogate key and NaN for an id": at(
        b'"plan_id": "3f6c2a1e', b'"\\ud800": NaN, "plan_id": NaN, "x": "3f6c2a1e'
    ),
    # duplicate keys: FastAPI keeps the last, which is the hostile one
    "a duplicate key, NaN last": at(TITLE, TITLE + b', "title": NaN'),
    "a duplicate key, a lone surrogate last": at(STATUS, b'"status": "draft", "status": "\\ud800",\n  "steps"'),
    # deep nesting
    "nesting 500 deep for a string": at(TITLE, b'"title": ' + nested(500)),
    "NaN 300 deep for a string": at(TITLE, b'"title": ' + nested(300, b"NaN")),
    "a lone surrogate 300 deep in an array": at(TAGS, b'"tags": ' + nested(300, b'"\\ud800"')),
    "nesting 300 deep in an open object": at(DATA, b'"data": {"a": ' + nested(300) + b"}"),
    "nesting 900 deep at the top level": nested(900),
    "nesting beyond Python's recursion limit": at(TITLE, b'"title": ' + nested(100_000)),
    # bytes and text around the document
    "invalid UTF-8": at(b"Ship the 2.0", b"Ship the \xff 2.0"),
    "trailing garbage": PLAN + b" x",
    "trailing NaN": PLAN + b" NaN",
    "a BOM": b"\xef\xbb\xbf" + PLAN,
}


def refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def assert_json_422(response: Any) -> None:
    """A 422 whose body is JSON by RFC 8259: UTF-8, no NaN or Infinity; its detail a non-empty list."""
    assert response.status_code == 422, response.text
    detail = json.loads(response.content.decode("utf-8"), parse_constant=refuse_constant)["detail"]
    assert isinstance(detail, list) and detail


@pytest.mark.parametrize("body", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_body_is_a_422_on_the_strict_route_and_on_a_plain_one(body: bytes) -> None:
    name = next(key for key, value in HOSTILE.items() if value is body)
    for route_class in (StrictJSONRoute, APIRoute):
        app, received = make_app(route_class)
        client = TestClient(app, raise_server_exceptions=False)  # a failing error handler is a 500, not a raise
        for path, sent in (("/plan", body), ("/embedded", b'{"payload": ' + body + b"}")):
            if sent is not body and name in ("trailing garbage", "trailing NaN", "a BOM"):
                continue  # inside another document these are other documents
            response = client.post(path, content=sent, headers=JSON)
            if route_class is APIRoute and name in FASTAPIS_OWN:
                assert response.status_code == FASTAPIS_OWN[name], response.text
                continue
            assert_json_422(response)
        assert received == [] or (route_class is APIRoute and name == "a BOM")


def test_there_are_hostile_bodies_of_every_kind() -> None:
    assert len(HOSTILE) >= 39
    assert sum(b"\\ud800" in body or b"\\udfff" in body or b"\\udc00" in body for body in HOSTILE.values()) >= 12


PYTHON_READABLE = {name: body for name, body in HOSTILE.items() if name not in FASTAPIS_OWN and "trailing" not in name}


@pytest.mark.parametrize("body", PYTHON_READABLE.values(), ids=PYTHON_READABLE.keys())
def test_the_models_errors_of_python_input_quote_only_json(body: bytes) -> None:
    # What a plain route hands the model: json.loads's values, NaN, infinities and lone surrogates included.
    value = json.loads(body)
    for validate in (mm.Plan.model_validate, TypeAdapter(mm.Plan).validate_python):
        with pytest.raises(ValidationError) as caught:
            validate(value)
        quoted = [(entry["loc"], entry["input"], entry["msg"]) for entry in caught.value.errors()]
        json.dumps(quoted, allow_nan=False, ensure_ascii=False).encode("utf-8")  # raises for what JSON cannot write


def test_a_screened_input_says_what_was_there() -> None:
    value = json.loads(at(TITLE, b'"title": NaN, "x": [Infinity, "a\\udfffb", 1.5]'))
    with pytest.raises(ValidationError) as caught:
        mm.Plan.model_validate(value)
    by_loc = {entry["loc"]: entry for entry in caught.value.errors()}
    assert by_loc[("title",)]["input"] == "NaN" and by_loc[("title",)]["type"] == "string_type"
    assert by_loc[("x",)]["input"] == ["Infinity", "a\\udfffb", 1.5] and by_loc[("x",)]["type"] == "extra_forbidden"
    with pytest.raises(ValidationError) as caught:
        mm.Plan.model_validate(json.loads(at(TITLE, TITLE + b', "x\\ud800": 1')))
    [entry] = caught.value.errors()
    assert entry["type"] == "string_unicode" and entry["input"] == "x\\ud800"  # the key, its escape as text
    assert mm.Plan.model_validate(json.loads(PLAN)) == mm.Plan.from_json(PLAN)  # a valid value passes as before


def test_an_error_with_nothing_to_screen_is_pydantics_own() -> None:
    with pytest.raises(ValidationError) as caught:
        mm.Plan.model_validate(json.loads(at(TITLE, b'"title": 7')))
    [entry] = caught.value.errors()
    assert entry.get("url", "").endswith("/v/string_type")  # pydantic's own entry, its link kept
    assert (entry["loc"], entry["input"], entry["type"]) == (("title",), 7, "string_type")


# --- bounded bodies and bounded answers ---


class SmallStrict(StrictJSONRoute):
    max_body_bytes = 10_000


class SmallPlain(LimitedBodyRoute):
    max_body_bytes = 10_000


def padded(size: int) -> bytes:
    """The example plan, spaces after it up to ``size`` bytes: valid JSON of exactly that length."""
    assert len(PLAN) <= size
    return PLAN + b" " * (size - len(PLAN))


@pytest.mark.parametrize("route_class", [SmallStrict, SmallPlain])
def test_a_body_longer_than_the_limit_is_a_413(route_class: type[APIRoute]) -> None:
    client = TestClient(make_app(route_class)[0])
    assert client.post("/plan", content=padded(10_000), headers=JSON).status_code == 204
    response = client.post("/plan", content=padded(10_001), headers=JSON)
    assert response.status_code == 413
    assert response.json() == {"detail": "The request body is longer than 10000 bytes"}


def test_the_default_limit_is_1_mib() -> None:
    assert MAX_BODY_BYTES == StrictJSONRoute.max_body_bytes == LimitedBodyRoute.max_body_bytes == 1024 * 1024
    client = TestClient(make_app()[0])
    assert client.post("/plan", content=padded(1024 * 1024), headers=JSON).status_code == 204
    assert client.post("/plan", content=padded(1024 * 1024 + 1), headers=JSON).status_code == 413


def call(app: FastAPI, chunks: list[bytes], content_length: int | None) -> tuple[int, int]:
    """The answer's status to a body sent in ``chunks``, and how many chunks the app read.

    The request declares ``content_length``.
    """
    import asyncio

    read = 0
    status = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read == len(chunks):
            return {"type": "http.disconnect"}
        read += 1
        return {"type": "http.request", "body": chunks[read - 1], "more_body": read < len(chunks)}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    headers = [(b"content-type", b"application/json")]
    if content_length is not None:
        headers.append((b"content-length", str(content_length).encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/plan",
        "raw_path": b"/plan",
        "root_path": "",
        "query_string": b"",
        "headers": headers,
        "server": ("testserver", 80),
        "client": ("testclient", 1),
    }
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    return status, read


@pytest.mark.parametrize("route_class", [SmallStrict, SmallPlain])
def test_the_limit_counts_what_arrives_whatever_was_declared(route_class: type[APIRoute]) -> None:
    app = make_app(route_class)[0]
    chunks = [b"[" + b" " * 999] + [b" " * 1000] * 99  # 100,000 bytes in 100 chunks
    # Declared short (or not at all): read until the limit is passed, one chunk past it at most.
    assert call(app, chunks, 10) == (413, 11)
    assert call(app, chunks, None) == (413, 11)
    # Declared long: refused before a byte is read.
    assert call(app, chunks, 100_000) == (413, 0)
    assert call(app, chunks, 10**30) == (413, 0)


def bad_steps_body(count: int, **fields: Any) -> bytes:
    """The example plan's first step, then ``count`` steps that are each 0: one problem each."""
    document = json.loads(PLAN)
    document["steps"] = [document["steps"][0]] + [0] * count
    document.update(fields)
    return json.dumps(document).encode()


def test_the_strict_422_of_a_big_body_full_of_problems_stops_at_the_first_bad_item() -> None:
    # The body is read by the model's own door (docs/validation.md, "A big failing document"): each
    # array is checked up to its first bad item, and the last entry says the checks stopped.
    client = TestClient(make_app(StrictJSONRoute)[0])
    response = client.post("/plan", content=bad_steps_body(200_000), headers=JSON)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert [(entry["loc"], entry["type"]) for entry in detail] == [
        (["body", "steps", 1], "model_type"),
        (["body"], "too_many_errors"),
    ]
    assert detail[0]["pointer"] == "/steps/1"
    assert detail[-1]["ctx"] == {"shown": 1}
    assert "checks stopped" in detail[-1]["msg"]


def test_a_dependency_reading_the_body_of_a_strict_route_gets_json_values() -> None:
    # The big body checked first by the model's door is still handed over as JSON values.
    seen: list[type] = []

    async def audit(request: Request) -> None:
        seen.append(type(await request.json()))

    router = APIRouter(route_class=StrictJSONRoute)

    @router.post("/plan")
    def take(plan: mm.Plan, _: None = Depends(audit)) -> str:
        return plan.plan_id

    app = FastAPI()
    app.include_router(router)
    document = json.loads(PLAN)
    document["objective"] = "x" * 70_000  # past the 64 KiB above which the model's door checks first
    response = TestClient(app).post("/plan", content=json.dumps(document).encode(), headers=JSON)
    assert response.status_code == 200, response.text
    assert response.json() == document["plan_id"]
    assert seen == [dict]


def test_the_strict_422_of_a_small_body_lists_every_problem() -> None:
    client = TestClient(make_app(StrictJSONRoute)[0])
    response = client.post("/plan", content=bad_steps_body(3), headers=JSON)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert [entry["loc"] for entry in detail] == [["body", "steps", i] for i in (1, 2, 3)]
    assert [entry["pointer"] for entry in detail] == ["/steps/1", "/steps/2", "/steps/3"]


def test_the_plain_422_of_a_body_full_of_problems_lists_the_first_1000() -> None:
    client = TestClient(make_app(LimitedBodyRoute)[0])
    response = client.post("/plan", content=bad_steps_body(200_000), headers=JSON)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert len(detail) == 1001
    assert [entry["loc"] for entry in detail[:1000]] == [["body", "steps", i] for i in range(1, 1001)]
    assert detail[-1]["type"] == "too_many_errors" and detail[-1]["loc"] == ["body"]
    assert detail[-1]["msg"] == "199000 more problems were found and are not listed (200000 in all; the first 1000 are)"
    assert len(response.content) < 200_000


@pytest.mark.parametrize("route_class", [StrictJSONRoute, LimitedBodyRoute])
def test_the_422_quotes_a_long_input_by_its_start(route_class: type[APIRoute]) -> None:
    client = TestClient(make_app(route_class)[0])
    body = json.loads(PLAN)
    body["plan_id"] = "x" * 500_000
    del body["title"]
    response = client.post("/plan", content=json.dumps(body).encode(), headers=JSON)
    assert response.status_code == 422
    found = {tuple(entry["loc"]): entry["input"] for entry in response.json()["detail"]}
    assert found[("body", "plan_id")] == "x" * 1000
    # A missing field quotes its object, here the whole body: its JSON text, cut.
    whole = found[("body", "title")]
    assert isinstance(whole, str) and len(whole) == 1000 and whole.startswith('{"')
    assert len(response.content) < 5_000


def test_a_plain_route_quotes_a_long_string_by_its_start_too() -> None:
    # FastAPI's own route and encoder: the models' errors cut the string themselves.
    client = TestClient(make_app(APIRoute)[0])
    body = json.loads(PLAN)
    body["plan_id"] = "x" * 500_000
    response = client.post("/plan", content=json.dumps(body).encode(), headers=JSON)
    assert response.status_code == 422
    (entry,) = response.json()["detail"]
    assert entry["loc"] == ["body", "plan_id"] and entry["input"] == "x" * 1000


# The "required" list of the frozen plan schema, in its order: what an empty object misses.
PLAN_REQUIRED = ["meta", "plan_id", "context_id", "title", "objective", "status", "steps"]


@pytest.mark.parametrize("route_class", [StrictJSONRoute, LimitedBodyRoute])
def test_the_422_of_a_list_of_models_lists_the_first_1000_of_all_of_them(route_class: type[APIRoute]) -> None:
    # Each plan bounds its own error; 2,000 empty plans are 14,000 problems for the request.
    client = TestClient(make_app(route_class)[0])
    response = client.post("/plans", content=json.dumps([{}] * 2000).encode(), headers=JSON)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert len(detail) == 1001
    expected = [["body", i, field] for i in range(2000) for field in PLAN_REQUIRED][:1000]
    assert [entry["loc"] for entry in detail[:1000]] == expected
    assert {entry["type"] for entry in detail[:1000]} == {"missing"}
    assert detail[-1]["type"] == "too_many_errors" and detail[-1]["loc"] == ["body"]
    assert detail[-1]["msg"] == "13000 more problems were found and are not listed (14000 in all; the first 1000 are)"
    assert detail[-1]["ctx"] == {"more": 13000, "total": 14000, "shown": 1000}
    assert len(response.content) < 200_000


@pytest.mark.parametrize("route_class", [StrictJSONRoute, LimitedBodyRoute])
def test_the_total_of_a_list_of_models_counts_what_each_model_left_out(route_class: type[APIRoute]) -> None:
    # Two plans of 1,500 problems each: each lists 1,000 and says 500 more; the request has 3,000.
    plan = json.loads(bad_steps_body(1500))
    client = TestClient(make_app(route_class)[0])
    response = client.post("/plans", content=json.dumps([plan, plan]).encode(), headers=JSON)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert len(detail) == 1001
    assert [entry["loc"] for entry in detail[:1000]] == [["body", 0, "steps", i] for i in range(1, 1001)]
    assert detail[-1]["msg"] == "2000 more problems were found and are not listed (3000 in all; the first 1000 are)"


def test_a_plain_route_does_not_bound_the_422_of_a_list_of_models() -> None:
    # What docs/fastapi.md says: each model's error is bounded, the request's list is not.
    client = TestClient(make_app(APIRoute)[0])
    response = client.post("/plans", content=json.dumps([{}] * 200).encode(), headers=JSON)
    assert response.status_code == 422
    assert len(response.json()["detail"]) == 1400


@pytest.mark.parametrize("route_class", [StrictJSONRoute, LimitedBodyRoute])
def test_a_body_with_an_integer_beyond_64_bits_is_quoted_by_its_start_too(route_class: type[APIRoute]) -> None:
    # orjson writes no such integer: the body was once echoed whole in each missing field's entry.
    client = TestClient(make_app(route_class)[0])
    body = '{"meta": {"n": 1000000000000000000000000000000}, "title": "' + "a" * 300_000 + '"}'
    response = client.post("/plan", content=body.encode(), headers=JSON)
    assert response.status_code == 422
    detail = response.json()["detail"]
    missing = [entry for entry in detail if entry["type"] == "missing" and entry["loc"] == ["body", "plan_id"]]
    (entry,) = missing
    start = '{"meta":{"n":1000000000000000000000000000000},"title":"'
    assert entry["input"] == start + "a" * (1000 - len(start))
    assert len(response.content) < 20_000


def test_an_input_that_cannot_be_written_as_json_is_not_echoed() -> None:
    # The app's own error may quote anything: a cycle has no JSON text, and is named instead.
    cycle: list[Any] = []
    cycle.append(cycle)

    def refuse(plan: mm.Plan) -> None:
        raise RequestValidationError([{"type": "value_error", "loc": ("body",), "msg": "no", "input": cycle}])

    router = APIRouter(route_class=StrictJSONRoute)
    router.add_api_route("/refuse", refuse, methods=["POST"])
    app = FastAPI()
    app.include_router(router)
    response = TestClient(app).post("/refuse", content=PLAN, headers=JSON)
    assert response.status_code == 422
    (entry,) = response.json()["detail"]
    assert entry["input"] == "(not shown: an array or object that cannot be written as JSON)"
