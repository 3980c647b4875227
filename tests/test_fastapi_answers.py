"""A service on the models: refused edits answered 409 and 404 with codes, canonical JSON bytes out.

The service is the one docs/fastapi.md shows: plans kept by id, routes that edit them, every
answer written by ``CanonicalJSONResponse``. Through Starlette's test client and through a real
uvicorn on 127.0.0.1. The canonical bytes are held to ``rfc8785`` (the reference of the
canonical JSON tests), the status codes and bodies to docs/fastapi.md and docs/edit-errors.md.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
import rfc8785
from conftest import FIXTURE_OF, fixture
from fastapi import APIRouter, FastAPI
from fastapi.testclient import TestClient
from pydantic import ValidationError

import mplp_models as mm
from mplp_models.fastapi import CanonicalJSONResponse, StrictJSONRoute, add_exception_handlers
from mplp_models.literals import PlanStepStatusValue

CONTEXT = mm.Context.new("Service", domain="release", environment="test", at="2026-03-02T09:00:00Z")


def service() -> tuple[FastAPI, dict[str, mm.Plan]]:
    """An app that keeps plans by id and edits them; the SDK's refusals answered by its handlers."""
    plans: dict[str, mm.Plan] = {}
    app = FastAPI(default_response_class=CanonicalJSONResponse)
    add_exception_handlers(app)
    router = APIRouter(route_class=StrictJSONRoute)

    @router.post("/plans", status_code=201)
    def create(plan: mm.Plan) -> mm.Plan:
        plans[plan.plan_id] = plan
        return plan

    @router.get("/plans/{plan_id}")
    def read(plan_id: str) -> mm.Plan:
        return plans[plan_id]

    @router.get("/plans/{plan_id}/raw", response_model=None)
    def raw(plan_id: str) -> CanonicalJSONResponse:
        return CanonicalJSONResponse(plans[plan_id])

    @router.post("/plans/{plan_id}/steps/{step_id}/{to}")
    def move(plan_id: str, step_id: str, to: PlanStepStatusValue) -> mm.Plan:
        plans[plan_id] = plans[plan_id].transition_step(step_id, to)
        return plans[plan_id]

    @router.delete("/plans/{plan_id}/steps/{step_id}")
    def remove(plan_id: str, step_id: str) -> mm.Plan:
        plans[plan_id] = plans[plan_id].remove_step(step_id)
        return plans[plan_id]

    @router.post("/stored")
    def stored() -> mm.Plan:
        return mm.Plan.from_json(b'{"plan_id": "x"}')  # the app's own reading of a bad document

    app.include_router(router)
    return app, plans


def running_plan() -> mm.Plan:
    plan = mm.Plan.new(CONTEXT, title="Ship", objective="Ship it", steps=["Tag", "Build"], at="2026-03-02T09:00:00Z")
    tag, build = (step.step_id for step in plan.steps)
    return plan.update_step(build, dependencies=[tag]).model_copy(update={"status": "in_progress"})


@pytest.fixture
def client() -> Iterator[tuple[TestClient, mm.Plan]]:
    app, _ = service()
    plan = running_plan()
    with TestClient(app) as client:
        created = client.post("/plans", content=plan.to_json(), headers={"content-type": "application/json"})
        assert created.status_code == 201, created.text
        yield client, plan


def test_a_model_is_answered_in_its_canonical_bytes(client: tuple[TestClient, mm.Plan]) -> None:
    http, plan = client
    for path in (f"/plans/{plan.plan_id}", f"/plans/{plan.plan_id}/raw"):
        response = http.get(path)
        assert response.status_code == 200 and response.headers["content-type"] == "application/json"
        assert response.content == plan.to_json() == rfc8785.dumps(json.loads(response.content))


@pytest.mark.parametrize("model", list(FIXTURE_OF), ids=lambda model: model.__name__)
def test_every_payload_kind_is_answered_canonically(model: type[mm.MplpModel]) -> None:
    instance = model.model_validate(fixture(model))
    app = FastAPI()

    def declared() -> Any:
        return instance

    declared.__annotations__ = {"return": model}  # FastAPI's JSON values of the model, written canonically
    app.get("/declared", response_class=CanonicalJSONResponse)(declared)
    app.get("/as-is", response_class=CanonicalJSONResponse, response_model=None)(lambda: instance)
    http = TestClient(app)
    for path in ("/declared", "/as-is"):
        body = http.get(path).content
        assert body == instance.to_json() == rfc8785.dumps(json.loads(body)), path


def test_a_refused_edit_is_a_409_with_its_code_and_pointer(client: tuple[TestClient, mm.Plan]) -> None:
    http, plan = client
    tag, build = (step.step_id for step in plan.steps)
    early = http.post(f"/plans/{plan.plan_id}/steps/{build}/in_progress")  # before its dependency is done
    assert early.status_code == 409
    body = early.json()
    assert (body["code"], body["pointer"]) == ("dependency_not_done", "/steps/1/status")
    assert body["errors"] == [{"pointer": "/steps/1/status", "code": "dependency_not_done", "message": body["message"]}]
    assert early.content == rfc8785.dumps(body)
    illegal = http.post(f"/plans/{plan.plan_id}/steps/{tag}/completed").json()  # pending -> completed
    assert (illegal["code"], illegal["pointer"]) == ("illegal_move", "/steps/0/status")
    depended = http.delete(f"/plans/{plan.plan_id}/steps/{tag}")
    assert depended.status_code == 409 and depended.json()["code"] == "has_dependents"


def test_an_unknown_part_is_a_404(client: tuple[TestClient, mm.Plan]) -> None:
    http, plan = client
    missing = mm.new_id()
    response = http.post(f"/plans/{plan.plan_id}/steps/{missing}/in_progress")
    assert response.status_code == 404
    assert response.json() == {
        "code": "unknown_step",
        "pointer": "/steps",
        "message": f"the plan has no step '{missing}'",
        "errors": [{"pointer": "/steps", "code": "unknown_step", "message": f"the plan has no step '{missing}'"}],
    }


def test_an_invalid_document_of_the_apps_own_is_a_422(client: tuple[TestClient, mm.Plan]) -> None:
    http, _ = client
    response = http.post("/stored")
    assert response.status_code == 422
    body = response.json()
    with pytest.raises(ValidationError) as reading:
        mm.Plan.from_json(b'{"plan_id": "x"}')
    assert body["errors"] == mm.errors_as_json(reading.value)
    assert (body["code"], body["pointer"]) == (body["errors"][0]["code"], body["errors"][0]["pointer"])
    assert {(entry["code"], entry["pointer"]) for entry in body["errors"]} >= {
        ("missing", "/meta"),
        ("mplp_id", "/plan_id"),
    }


# 2**53 + 1: the schema allows the integer; RFC 8785's numbers are doubles, which round it (canonical-json.md).
BEYOND_DOUBLES = 2**53 + 1


def test_a_document_with_no_canonical_form_is_read_and_its_answer_is_a_500_naming_the_value(
    client: tuple[TestClient, mm.Plan],
) -> None:
    http, plan = client
    document = json.loads(plan.to_json())
    document["plan_id"] = mm.new_id()
    document["steps"][1]["order_index"] = BEYOND_DOUBLES
    created = http.post("/plans", content=json.dumps(document), headers={"content-type": "application/json"})
    # Read, as every door reads it; the answer (FastAPI's JSON values of the plan) has no canonical form.
    assert created.status_code == 500
    body = created.json()
    message = body["message"]
    assert str(BEYOND_DOUBLES) in message and "RFC 8785" in message
    assert body == {
        "code": "no_canonical_form",
        "pointer": "/steps/1/order_index",
        "message": message,
        "errors": [{"pointer": "/steps/1/order_index", "code": "no_canonical_form", "message": message}],
    }
    assert created.content == rfc8785.dumps(body)
    raw = http.get(f"/plans/{document['plan_id']}/raw")  # the model itself, by its own to_json
    assert raw.status_code == 500 and raw.json() == body


def test_without_the_handlers_a_document_with_no_canonical_form_is_the_apps_error() -> None:
    app = FastAPI(default_response_class=CanonicalJSONResponse)
    event = mm.Event.model_validate({**fixture(mm.Event), "data": {"n": BEYOND_DOUBLES}})
    app.get("/event")(lambda: event)
    with pytest.raises(mm.CanonicalJSONError) as refused:
        TestClient(app).get("/event")
    assert refused.value.pointer == "/data/n"
    assert str(refused.value) == f"{refused.value.message} at /data/n"
    assert TestClient(app, raise_server_exceptions=False).get("/event").status_code == 500


def test_the_answers_are_in_the_openapi_document() -> None:
    app, _ = service()
    document = TestClient(app).get("/openapi.json").json()
    error_body = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            answers = operation["responses"]
            assert answers["404"]["content"] == answers["409"]["content"] == error_body, (path, method)
            assert answers["413"]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/TooLargeBody"
            }
    schema = document["components"]["schemas"]["ErrorBody"]
    assert schema["required"] == ["code", "pointer", "message", "errors"]
    assert schema["properties"]["errors"]["items"] == {"$ref": "#/components/schemas/ErrorBodyEntry"}
    assert document["components"]["schemas"]["ErrorBodyEntry"]["required"] == ["pointer", "code", "message"]


def test_an_operation_keeps_its_own_answers() -> None:
    app = FastAPI()
    add_exception_handlers(app)
    app.get("/own", responses={404: {"description": "No such thing"}})(lambda: None)
    answers = app.openapi()["paths"]["/own"]["get"]["responses"]
    assert answers["404"] == {"description": "No such thing"} and "ErrorBody" in str(answers["409"])


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, mm.Plan]]:
    """The service served by uvicorn on a free port of 127.0.0.1, in a thread."""
    uvicorn = pytest.importorskip("uvicorn")
    app, plans = service()
    plan = running_plan()
    plans[plan.plan_id] = plan
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, lifespan="off", ws="none", http="h11", log_config=None, access_log=False)
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not running.started and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert running.started, "uvicorn did not start within 10 seconds"
        yield f"http://127.0.0.1:{sock.getsockname()[1]}", plan
    finally:
        running.should_exit = True
        thread.join(timeout=10)
        sock.close()


def test_a_real_server_answers_409_404_and_canonical_bytes(server: tuple[str, mm.Plan]) -> None:
    url, plan = server
    tag, build = (step.step_id for step in plan.steps)
    assert httpx2.get(f"{url}/plans/{plan.plan_id}", timeout=10).content == plan.to_json()
    refused = httpx2.post(f"{url}/plans/{plan.plan_id}/steps/{build}/in_progress", timeout=10)
    assert refused.status_code == 409 and refused.json()["code"] == "dependency_not_done"
    unknown = httpx2.post(f"{url}/plans/{plan.plan_id}/steps/{mm.new_id()}/in_progress", timeout=10)
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_step"
    moved = httpx2.post(f"{url}/plans/{plan.plan_id}/steps/{tag}/in_progress", timeout=10)
    assert moved.status_code == 200 and moved.content == plan.transition_step(tag, "in_progress").to_json()
