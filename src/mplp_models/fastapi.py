r"""`StrictJSONRoute`: FastAPI routes that read JSON request bodies as strictly as `from_json` does.

Needs FastAPI (`pip install 'mplp-models[fastapi]'`); importing `mplp_models`
itself never imports it.

```python
from fastapi import APIRouter, FastAPI

import mplp_models as mm
from mplp_models.fastapi import StrictJSONRoute

router = APIRouter(route_class=StrictJSONRoute)


@router.post("/plans")
def submit(plan: mm.Plan) -> None: ...


app = FastAPI()
app.include_router(router)
```

A plain FastAPI route reads a JSON body with the standard library, which keeps
the last of two equal keys and reads `NaN` and `Infinity`; on this route the
body is read as `from_json` reads it: invalid UTF-8, duplicate keys, `NaN`,
`Infinity`, numbers beyond a double and nesting deeper than `MAX_JSON_DEPTH` are
refused, and integers of any size are kept exact. FastAPI then validates the
values as usual, which for a body declared as a model (`plan: Plan`, a
`list[Plan]`, an embedded `Body(embed=True)`) gives what `from_json` gives:
the same model, with the same fields given, and the same errors, rule
violations included. Every JSON body the route reads is read this way, whatever
its declared type; a form body is FastAPI's own.

Every refusal is FastAPI's usual 422 answer, `{"detail": [...]}`, whose entries
keep FastAPI's keys (`type`, `loc`, `msg`, `input`, and `ctx` where pydantic
gives one) and add `pointer`: the RFC 6901 JSON Pointer of the value in the
body, as `errors_as_json` writes it, and `msg` in JSON's words ("array",
"object"). A text that is not strict JSON is located at the value where the
reading stopped (a duplicate key, a `NaN` at `/steps/0/order_index`), with its
first 40 characters as `input`, and `msg` names its line, column and byte (bytes
that are not UTF-8 too); what orjson reads but the reader refuses (too deep) is
the whole text's (`"pointer": ""`, `"loc": ["body"]`). For `{"event_id": "a", "event_id": "b"}` sent to a route
that takes an `Event`:

```json
{"detail": [{"type": "json_duplicate_key", "loc": ["body", "event_id"],
             "msg": "Duplicate key 'event_id' in one object, at line 1, column 19 (byte 18)",
             "input": "{\"event_id\": \"a\", \"event_id\": \"b\"}", "pointer": "/event_id"}]}
```

Entries about something other than the body (a query parameter, a header)
get no pointer, nor does a body that was not read as JSON (sent with another
content type). The OpenAPI document is FastAPI's own, with the 413 answer added
to each operation: the class changes how a body is read, not what it is declared to be.

The answer stays small for any body: at most `MAX_ERRORS` entries and one
more saying how many were left out (`too_many_errors`), for the request as a
whole (a `list[Plan]` too), and an `input` whose JSON text is longer than
`MAX_INPUT_CHARS` is shown as the start of that text.

A body longer than `max_body_bytes` (`MAX_BODY_BYTES`, 1 MiB, unless a
subclass says otherwise) is answered with 413 before it is read as JSON: a
`Content-Length` above it is refused before any byte is read, and the stream is
counted as it comes (a client may send more than it declared), so no more than
the limit and one chunk is ever held. `LimitedBodyRoute` is the same limit for
plain routes, any body (JSON, form, bytes):

```python
from fastapi import APIRouter

from mplp_models.fastapi import LimitedBodyRoute


class SmallBodies(LimitedBodyRoute):
    max_body_bytes = 64 * 1024


router = APIRouter(route_class=SmallBodies)
```

`add_exception_handlers(app)` answers the SDK's own refusals raised in an endpoint: an
`EditError` with 409 (an `UnknownPartError`, an id no part has, with 404), a pydantic
`ValidationError` (`Plan.from_json` of a stored document, say) with 422, each as an
`ErrorBody` (`{"code", "pointer", "message", "errors"}`) in canonical JSON, and lists
the 404 and 409 answers in the OpenAPI document of every operation. `CanonicalJSONResponse`
(`response_class=`, or the app's `default_response_class`) writes a model as `to_json()`
writes it: RFC 8785 bytes.

```python
from fastapi import FastAPI

import mplp_models as mm
from mplp_models.fastapi import CanonicalJSONResponse, add_exception_handlers

app = FastAPI(default_response_class=CanonicalJSONResponse)
add_exception_handlers(app)
plans: dict[str, mm.Plan] = {}


@app.post("/plans/{plan_id}/steps/{step_id}/start")
def start(plan_id: str, step_id: str) -> mm.Plan:
    plans[plan_id] = plans[plan_id].transition_step(step_id, "in_progress")  # 404, 409 on refusal
    return plans[plan_id]
```
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Callable, Coroutine
from typing import Any, ClassVar, cast

try:
    from fastapi import HTTPException, Request, Response
    from fastapi.exceptions import RequestValidationError
    from fastapi.routing import APIRoute
except ImportError:  # pragma: no cover - depends on the environment
    raise ImportError(  # noqa: B904  # the original error stays attached as the context
        "mplp_models.fastapi needs FastAPI; install it with: pip install 'mplp-models[fastapi]'",
        name="fastapi",
    )
import orjson
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from mplp_models import _errors
from mplp_models._base import MplpModel
from mplp_models._canonical import CanonicalJSONError, canonical_json
from mplp_models._errors import EditError, Quoted, UnknownPartError, errors_as_json, json_message
from mplp_models._json_input import load_json
from mplp_models._text import pointer

__all__ = [
    "MAX_BODY_BYTES",
    "CanonicalJSONResponse",
    "ErrorBody",
    "ErrorBodyEntry",
    "LimitedBodyRoute",
    "StrictJSONRoute",
    "TooLargeBody",
    "add_exception_handlers",
]

MAX_BODY_BYTES = 1 << 20
"""The default longest request body of `LimitedBodyRoute` and `StrictJSONRoute`, in bytes (1 MiB).

A longer body is answered with 413. Each route class reads its own
`max_body_bytes`: set it in a subclass to change the limit of its routes.
"""

_Handler = Callable[[Request], Coroutine[Any, Any, Response]]
_NOT_READ = object()
_DIGITS = 18  # a Content-Length of more digits is too long anyway (and int() of a million digits is slow)


class LimitedBodyRoute(APIRoute):
    """An `APIRoute` that answers a request body longer than `max_body_bytes` with 413.

    Use it as `APIRouter(route_class=LimitedBodyRoute)`, or subclass it to set
    `max_body_bytes`. The limit holds for any body the route reads (JSON, a
    form, bytes); a declared `Content-Length` above it is refused before the
    body is read, and the body is counted as it arrives whatever was declared.
    Its 422 quotes an `input` longer than `MAX_INPUT_CHARS` as JSON text by its
    start, as `StrictJSONRoute`'s does.
    """

    max_body_bytes: ClassVar[int] = MAX_BODY_BYTES

    def __init__(self, path: str, endpoint: Callable[..., Any], **options: Any) -> None:
        responses: dict[int | str, dict[str, Any]] = dict(options.pop("responses", None) or {})
        if 413 not in responses and "413" not in responses:  # the route's own answer, in its OpenAPI document
            responses[413] = {"model": TooLargeBody, "description": "The request body is too long"}
        super().__init__(path, endpoint, responses=responses, **options)

    def get_route_handler(self) -> _Handler:
        handler = super().get_route_handler()
        limit = self.max_body_bytes

        async def limited_handler(request: Request) -> Response:
            try:
                return await handler(_LimitedRequest(request.scope, request.receive, limit))
            except RequestValidationError as error:
                _cap_entries(error)
                _shorten_inputs(error)
                raise

        return limited_handler


class _LimitedRequest(Request):
    """A request whose body stream stops with 413 once it passes ``limit`` bytes (``body()``, ``json()`` and
    ``form()`` read it)."""

    def __init__(self, scope: Any, receive: Any, limit: int) -> None:
        super().__init__(scope, receive)
        self.limit = limit

    async def stream(self) -> AsyncGenerator[bytes, None]:
        declared = self.headers.get("content-length", "").strip()
        # Checked first, so that a body declared too long is refused before any byte is read;
        # not trusted: the stream is counted as it comes.
        if declared.isascii() and declared.isdigit() and (len(declared) > _DIGITS or int(declared) > self.limit):
            raise _too_large(self.limit)
        size = 0
        async for chunk in super().stream():
            size += len(chunk)
            if size > self.limit:
                raise _too_large(self.limit)
            yield chunk


def _too_large(limit: int) -> HTTPException:
    return HTTPException(status_code=413, detail=f"The request body is longer than {limit} bytes")


class StrictJSONRoute(LimitedBodyRoute):
    """An `APIRoute` whose JSON request body is read as `MplpModel.from_json` reads it.

    Use it as `APIRouter(route_class=StrictJSONRoute)`. A body that is not
    strict JSON, or whose values the declared model refuses, is answered with
    FastAPI's 422, each entry with a `pointer` into the body; a body longer
    than `max_body_bytes` with 413 (`LimitedBodyRoute`).
    """

    def get_route_handler(self) -> _Handler:
        handler = APIRoute.get_route_handler(self)
        limit = self.max_body_bytes
        model = _body_model(self)

        async def strict_handler(request: Request) -> Response:
            # FastAPI reads a JSON body through `request.json()` (and validates
            # what it returns): the request it is handed reads strictly.
            strict = _StrictRequest(request.scope, request.receive, limit)
            strict.model = model
            try:
                return await handler(strict)
            except RequestValidationError as error:
                _cap_entries(error)
                if strict.json_read:
                    _point_into_body(error)
                _shorten_inputs(error)
                raise
            except Exception:
                # FastAPI answers an exception while reading the body as a 400:
                # the refusal, kept when the body was read, is the real answer.
                if strict.refusal is None:
                    raise
                raise _refused(strict.refusal, strict.raw) from strict.refusal

        return strict_handler


class _StrictRequest(_LimitedRequest):
    """A request whose `json()` is the strict reading; a refusal is kept for the route to answer."""

    refusal: ValidationError | None = None
    raw: bytes = b""
    model: type[MplpModel] | None = None
    _value: Any = _NOT_READ

    @property
    def json_read(self) -> bool:
        return self._value is not _NOT_READ

    async def json(self) -> Any:
        if self._value is _NOT_READ:
            self.raw = await self.body()
            try:
                value = load_json(self.raw, "request body")
                if self.model is not None and len(self.raw) > _CHECKED_FIRST_ABOVE:
                    # A big body declared as one model is checked first by the model's own door,
                    # whose error is bounded (_bounded: a few errors an array, not one an item);
                    # FastAPI then validates it as usual. Whoever calls json() gets the JSON values.
                    self.model.model_validate(value)
                self._value = value
            except ValidationError as error:
                self.refusal = error
                raise
        return self._value


_CHECKED_FIRST_ABOVE = 64 * 1024
"""The size (bytes) above which a body declared as one model is checked by the model's own door before FastAPI's.

FastAPI's validation collects every problem (about 460 bytes each); a body up to this
size holds at most about 32,768 values, so at most about 15 MB of them.
"""


def _body_model(route: APIRoute) -> type[MplpModel] | None:
    """The model class that a route's whole JSON body is declared to be (``plan: Plan``), else None."""
    field = route.body_field
    declared = field.field_info.annotation if field is not None else None
    if isinstance(declared, type) and issubclass(declared, MplpModel):
        return declared
    return None


def _refused(error: ValidationError, body: bytes) -> RequestValidationError:
    """FastAPI's error for a body that is not strict JSON: the entries of `error`, located in the body."""
    entries: list[dict[str, Any]] = []
    for entry in error.errors(include_url=False):
        loc = tuple(entry["loc"])  # the reader's: the value where the text went wrong, or () for all of it
        entries.append({**entry, "loc": ("body", *loc), "input": _shown(entry["input"]), "pointer": pointer(loc)})
    return RequestValidationError(entries, body=body)


def _shown(value: Any) -> Any:
    """``value`` as the answer quotes it: a ``Quoted`` text (the start of a text that never became
    JSON values, or of a long string) as plain str; an array or object whose JSON text is longer
    than ``MAX_INPUT_CHARS`` (the whole body, for a ``missing`` field) as the start of that text."""
    if isinstance(value, Quoted):
        return str(value)  # plain str for FastAPI's encoder
    if isinstance(value, (dict, list, tuple)):
        text = _json_text(cast(object, value))  # pyright knows no more of its items
        if text is None:
            return _UNWRITTEN
        if len(text) > _errors.MAX_INPUT_CHARS:
            return str(Quoted.of(text, _errors.MAX_INPUT_CHARS))
    return cast(Any, value)  # short: FastAPI's encoder writes it as before


_UNWRITTEN = "(not shown: an array or object that cannot be written as JSON)"


def _json_text(value: object) -> str | None:
    """The JSON text of ``value`` (what the app's own code raised written as ``str``), or None if it has none."""
    try:
        # At most the first MAX_INPUT_CHARS + 1 characters matter; orjson writes the whole at C speed.
        return orjson.dumps(value, default=str).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):
        pass
    # orjson writes no integer beyond 64 bits (which the reader keeps exact) nor nesting past 254:
    # the standard library does. Never the container itself: FastAPI's encoder would write it whole.
    try:
        return json.dumps(value, separators=(",", ":"), default=str)  # ASCII: a lone surrogate is escaped
    except (TypeError, ValueError, RecursionError):  # a cycle, nesting past Python's limit
        return None


def _shorten_inputs(error: RequestValidationError) -> None:
    """Each entry's ``input`` as ``_shown`` quotes it, in place (FastAPI's encoder would write it whole)."""
    for entry in error.errors():
        if isinstance(entry, dict) and "input" in entry:
            found = cast("dict[str, Any]", entry)
            found["input"] = _shown(found["input"])


def _cap_entries(error: RequestValidationError) -> None:
    """Keeps the first ``MAX_ERRORS`` entries and one saying how many problems there were, in place.

    Each model bounds its own error, but a body of many models (``list[Plan]``) gathers the errors
    of all of them: 2,000 empty plans are 14,000 entries. A list of ``MAX_ERRORS + 1`` is kept
    whole, as ``_errors.first_entries`` keeps it (most likely one model's bounded error).
    """
    entries = error.errors()
    limit = _errors.MAX_ERRORS
    if not isinstance(entries, list) or len(entries) <= limit + 1:  # FastAPI's is a list; an app's own stays
        return
    detail = ValidationError.from_exception_data("request", [_errors.too_many(limit, _problems(entries))])
    (last,) = detail.errors(include_url=False)
    entries[limit:] = [{**last, "loc": ("body",)}]


def _problems(entries: list[Any]) -> int | None:
    """How many problems ``entries`` tell of: one an entry, and for a model's own ``too_many_errors``
    entry the ones it left out (None if that model's checks stopped without counting)."""
    total = 0
    for entry in entries:
        found = cast("dict[str, Any]", entry) if isinstance(entry, dict) else {}
        if found.get("type") != _errors.TOO_MANY:
            total += 1
            continue
        more = cast("dict[str, Any]", found.get("ctx") or {}).get("more")
        if not isinstance(more, int):
            return None
        total += more
    return total


def _point_into_body(error: RequestValidationError) -> None:
    """Adds the JSON Pointer of each entry located in the body (FastAPI's `loc` is `("body", *path)`), in JSON's
    words."""
    # In place: the exception keeps what FastAPI gave it (the body, the endpoint's context).
    for entry in error.errors():
        if isinstance(entry, dict):  # an error raised by the app's own code may hold anything
            found = cast("dict[str, Any]", entry)
            loc = tuple(found.get("loc", ()))
            if loc[:1] == ("body",):
                entry["pointer"] = pointer(loc[1:])
                if isinstance(found.get("msg"), str) and "type" in found and "input" in found:
                    entry["msg"] = json_message(cast("ErrorDetails", found))


# --- the SDK's refusals as answers, and canonical JSON out ---------------------------------------


class ErrorBodyEntry(BaseModel):
    """One problem of an ``ErrorBody``: as ``errors_as_json`` writes it."""

    pointer: str
    code: str
    message: str


class ErrorBody(BaseModel):
    """The answer to a refused edit (409, 404), an invalid document (422) or a response with no canonical form
    (500): the first problem, and all of them.

    ``code``, ``pointer`` and ``message`` are the ``EditError``'s (or the first entry's, for a
    ``ValidationError``); ``errors`` every problem, as ``errors_as_json`` writes them.
    """

    code: str
    pointer: str
    message: str
    errors: list[ErrorBodyEntry]


class TooLargeBody(BaseModel):
    """The answer to a request body longer than ``max_body_bytes`` (413): FastAPI's ``{"detail": ...}``."""

    detail: str


class CanonicalJSONResponse(JSONResponse):
    """A JSON response written as ``canonical_json`` writes it: a model (or the JSON values FastAPI
    made of one) as the RFC 8785 bytes of its ``to_json()``.

    ``response_class=CanonicalJSONResponse`` on a route, or ``FastAPI(default_response_class=...)``.
    A route declared to return a model (``-> mm.Plan``) hands it over as FastAPI's JSON values,
    which are written canonically; with ``response_model=None`` the model itself is handed over and
    written by its own ``to_json()``, without that step. A value RFC 8785 cannot hold exactly (an
    integer beyond +/-(2**53 - 1) whose canonical text reads back otherwise, which the schemas allow)
    is a ``CanonicalJSONError``: a 500, which ``add_exception_handlers`` answers with an ``ErrorBody``.
    """

    def render(self, content: Any) -> bytes:
        return canonical_json(content)


_ANSWERS: dict[str, dict[str, Any]] = {
    "404": {"description": "No part has that id (an UnknownPartError: unknown_step, unknown_segment...)"},
    "409": {"description": "The edit was refused (an EditError: illegal_move, dependency_cycle...)"},
}


def add_exception_handlers(app: FastAPI) -> None:
    """Makes ``app`` answer the SDK's refusals raised in its endpoints, and say so in its OpenAPI document.

    An ``UnknownPartError`` is answered with 404, any other ``EditError`` with 409, a pydantic
    ``ValidationError`` (the app's own reading of a document) with 422, and a ``CanonicalJSONError``
    (a response ``CanonicalJSONResponse`` cannot write, or the app's own ``to_json``) with 500, code
    ``no_canonical_form``; each body an ``ErrorBody`` in canonical JSON. Every operation of the
    document lists the 404 and 409 answers, unless it declares its own.
    """
    app.add_exception_handler(EditError, _sdk_refusal)
    app.add_exception_handler(ValidationError, _sdk_refusal)
    app.add_exception_handler(CanonicalJSONError, _sdk_refusal)
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            _with_answers(build())
        return app.openapi_schema or {}

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend the document


_NO_CANONICAL_FORM = "no_canonical_form"


def _answer(status: int, code: str, pointer: str, message: str, entries: list[_errors.ErrorEntry]) -> Response:
    body = {"code": code, "pointer": pointer, "message": message, "errors": entries}
    return CanonicalJSONResponse(body, status_code=status)


async def _sdk_refusal(request: Request, error: Exception) -> Response:
    """The answer to an ``EditError`` (404 or 409), a ``ValidationError`` (422) or a ``CanonicalJSONError``
    (500): an ``ErrorBody``."""
    if isinstance(error, EditError):
        status = 404 if isinstance(error, UnknownPartError) else 409
        return _answer(status, error.code, error.pointer, error.message, error.errors())
    if isinstance(error, CanonicalJSONError):
        entry: _errors.ErrorEntry = {"pointer": error.pointer, "code": _NO_CANONICAL_FORM, "message": error.message}
        return _answer(500, _NO_CANONICAL_FORM, error.pointer, error.message, [entry])
    assert isinstance(error, ValidationError)  # the three classes it is registered for
    entries = errors_as_json(error)
    first = entries[0]
    return _answer(422, first["code"], first["pointer"], first["message"], entries)


def _with_answers(document: dict[str, Any]) -> None:
    """``document`` (an OpenAPI document) with the 404 and 409 ``ErrorBody`` answers on each operation, in place."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    body = ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
    schemas.update(body.pop("$defs", {}))
    schemas["ErrorBody"] = body
    content = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            answers = cast("dict[str, Any]", operation["responses"])
            for status, answer in _ANSWERS.items():
                answers.setdefault(status, {**answer, "content": content})
