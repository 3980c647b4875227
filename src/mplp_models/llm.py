"""Ask an LLM for a payload: drafts the SDK makes documents of, each provider's schema of a model, repair messages.

Drafts (``PlanDraft``, ``DialogDraft``, ``ConfirmDecisionDraft``,
``LearningSampleDraft``) are what an LLM is good at writing: the content, with
short local ids. Their own schema serves every provider's structured outputs
unchanged, their validators word each problem for the model, and their methods
(``PlanDraft.to_plan``, ``Plan.apply_draft``, ...) mint the ids, fill ``meta``
and set the statuses a new document has. For when the LLM must write a whole
payload, the dialects below.

Providers' structured outputs take only part of JSON Schema, and each a
different part. ``json_schema`` writes a model's schema in the dialect a
provider documents; ``from_llm_json`` reads what the model answered under it
into an exact, rule-checked model; ``feedback`` words a ``ValidationError`` for
the model to fix in a retry. Nothing here needs a provider's SDK.

The dialects:

- ``openai``: Structured Outputs in strict mode. Every object closed and every
  key required: an optional field is ``null`` when left out, and an optional
  field that may itself be ``null`` (``InboxMessage.task_id``, ``Event.data``)
  is ``{"present": bool, "value": ...}``.
- ``anthropic``: a tool's ``input_schema``, fit for strict tool use (closed
  objects; no numeric or length bounds, no patterns, ``minItems`` 0 or 1 only).
  Optional fields are left out. ``anthropic_tool`` refuses ``strict=True`` for a
  model over Anthropic's limits on strict schemas (24 optional parameters).
- ``gemini``: ``response_json_schema`` (no patterns, lengths or ``uniqueItems``;
  ``const`` as a one-value ``enum``). Optional fields are left out.
- ``json-schema``: the model's own JSON Schema, for anything else; the answer
  may be wrapped in prose or a Markdown code fence.

In the first three, an open object (``TraceBase.attributes``, ``Event.data``,
``Context.root``) is a string of JSON text, read back by the SDK's strict
reader. What a dialect's schema leaves out is said in the field's description
and checked on the way back in: the last step of every reading is the models'
own validation, rules included.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from pydantic import ValidationError

from mplp_models._base import MplpModel
from mplp_models._drafts import (
    ConfirmDecisionDraft,
    DialogDraft,
    DialogMessageDraft,
    Draft,
    LearningSampleDraft,
    PlanDraft,
    PlanStepDraft,
)
from mplp_models._errors import TOO_MANY, errors_as_json
from mplp_models._json_input import invalid, load_json
from mplp_models._llm_formats import AnthropicTool, OpenAIJsonSchema, OpenAIResponseFormat
from mplp_models._llm_read import Problems, decode, encode, extract_json, relocated, unencodable
from mplp_models._llm_schema import ANTHROPIC_STRICT_LIMITS, Dialect, dialect_schema, slots, strict_load

__all__ = [
    "AnthropicTool",
    "ConfirmDecisionDraft",
    "Dialect",
    "DialogDraft",
    "DialogMessageDraft",
    "Draft",
    "LearningSampleDraft",
    "OpenAIJsonSchema",
    "OpenAIResponseFormat",
    "PlanDraft",
    "PlanStepDraft",
    "answer",
    "anthropic_tool",
    "feedback",
    "from_llm_json",
    "json_schema",
    "openai_format",
]

M = TypeVar("M", bound=MplpModel | Draft)  # what from_llm_json reads: a model or a draft, as json_schema takes

_NAMES: tuple[Dialect, ...] = ("openai", "anthropic", "gemini", "json-schema")


def _check(dialect: object) -> None:
    if dialect not in _NAMES:
        raise ValueError(f"no dialect {dialect!r}; one of: {', '.join(_NAMES)}")


def _check_class(model: object, door: str) -> None:
    """A ``TypeError`` naming ``door`` for what is neither a model class nor a draft class (an untyped caller's)."""
    if not (isinstance(model, type) and issubclass(model, (MplpModel, Draft))):
        if isinstance(model, type):
            given = f"the class {model.__name__}"
        elif isinstance(model, str):
            given = f"the string {model!r:.60}"
        else:
            given = f"a {type(model).__name__} instance (pass its class)"
        raise TypeError(f"{door} takes a model class (mm.Plan...) or a draft class (llm.PlanDraft...), not {given}")


def json_schema(model: type[MplpModel] | type[Draft], *, dialect: Dialect = "openai") -> dict[str, Any]:
    """The JSON Schema of ``model`` in a provider's dialect.

    Args:
        model: A model class (``Plan``, ``InboxMessage``, ...), or a draft class (``PlanDraft``),
            whose own schema is the same in every dialect.
        dialect: ``"openai"``, ``"anthropic"``, ``"gemini"`` or ``"json-schema"``.

    Returns:
        A new dict: the schema, with local ``$defs`` only. Its root is an object.

    Raises:
        ValueError: For a dialect that is not one of the four.
        TypeError: For a ``model`` that is neither a model class nor a draft class.
    """
    _check(dialect)
    _check_class(model, "json_schema")
    if issubclass(model, Draft):
        return model.model_json_schema()
    return copy.deepcopy(dialect_schema(model, dialect))


def openai_format(model: type[MplpModel] | type[Draft]) -> OpenAIResponseFormat:
    """The ``response_format`` of a Chat Completions request for ``model``: its strict ``openai`` schema.

    Args:
        model: A model class, or a draft class.

    Returns:
        ``{"type": "json_schema", "json_schema": {"name", "schema", "strict": True}}``, typed so
        that the openai SDK's ``chat.completions.create(response_format=...)`` takes it.
    """
    schema: dict[str, object] = json_schema(model, dialect="openai")
    return {"type": "json_schema", "json_schema": {"name": model.__name__, "schema": schema, "strict": True}}


def anthropic_tool(model: type[MplpModel] | type[Draft], *, strict: bool = True) -> AnthropicTool:
    """A Messages API tool whose input is ``model`` in the ``anthropic`` dialect; force it with ``tool_choice``.

    Anthropic limits the strict schemas of one request to 24 optional parameters and 16 parameters
    with union types in all. A model over either limit on its own is refused here, before the API
    would refuse the request: ``Context``, ``Trace``, ``Dialog`` and ``LearningSample`` are, and go
    with ``strict=False``. The limits count every strict schema of the request, so other strict tools
    in it count too.

    Args:
        model: A model class, or a draft class (every draft is within the limits).
        strict: Ask for strict tool use (grammar-constrained input).

    Returns:
        ``{"name", "description", "input_schema", "strict"}``; the tool is named after the model.
        Typed so that the anthropic SDK's ``messages.create(tools=[...])`` takes it.

    Raises:
        ValueError: With ``strict=True``, for a model whose schema alone is over one of Anthropic's
            limits on strict schemas; the message names the limit and the count.
    """
    schema = json_schema(model, dialect="anthropic")
    if strict:
        _within_strict_limits(model.__name__, schema)
    return {
        "name": model.__name__,
        "description": f"Give the {model.__name__} as this tool's input.",
        "input_schema": schema,
        "strict": strict,
    }


_LIMITS_PAGE = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#schema-complexity-limits"


def _within_strict_limits(name: str, schema: Mapping[str, Any]) -> None:
    load = strict_load(schema)
    over = [(what, load[what], most) for what, most in ANTHROPIC_STRICT_LIMITS.items() if load[what] > most]
    if over:
        counts = "; ".join(f"{count} {what}, where a request takes at most {most}" for what, count, most in over)
        raise ValueError(
            f"the anthropic schema of {name} is over Anthropic's limits on strict schemas ({counts}; "
            f"{_LIMITS_PAGE}): use anthropic_tool({name}, strict=False), whose answer from_llm_json "
            "checks all the same"
        )


def from_llm_json(model: type[M], text: str | bytes | Mapping[str, Any], *, dialect: Dialect = "openai") -> M:
    """Read what an LLM answered under ``json_schema(model, dialect=dialect)`` into an exact model.

    Args:
        model: The model class asked for, or a draft class (``PlanDraft``...).
        text: The answer: JSON text, or the object an SDK already parsed (a
            tool call's input). Under ``json-schema``, text may wrap the JSON in
            prose or a Markdown code fence.
        dialect: The dialect the schema was written in.

    Returns:
        The model, with exactly the fields the answer gave (``null`` for a left
        out optional field and ``present: false`` read as absent; JSON text read
        back into open objects).

    Raises:
        ValidationError: For every problem, from text that is not JSON to a
            broken rule, each located in the answer as the model wrote it.
        ValueError: For a dialect that is not one of the four.
        TypeError: For a ``model`` that is neither a model class nor a draft class.
    """
    _check(dialect)
    _check_class(model, "from_llm_json")
    title = model.__name__
    document = dict(text) if isinstance(text, Mapping) else load_json(_answer_text(title, text, dialect), title)
    problems = Problems(title)
    if isinstance(text, Mapping):  # JSON text cannot hold a lone surrogate; a parsed object can
        unencodable(document, problems)
    if issubclass(model, Draft):  # json_schema gives a draft's own schema in every dialect: its own door reads it
        problems.raise_any()
        return cast(M, model.model_validate(document))
    slot = slots(model, dialect)
    payload = decode(document, slot, (), problems)
    problems.raise_any()
    try:
        return cast(M, model.model_validate(payload))
    except ValidationError as error:
        raise relocated(error, slot) from None


def _answer_text(title: str, text: str | bytes, dialect: Dialect) -> str | bytes:
    """The JSON text of an answer: under ``json-schema``, found in its prose or code fence."""
    # A caller without a type checker may pass anything: the strict reader then says what it is.
    if dialect != "json-schema" or not isinstance(text, (str, bytes)):  # pyright: ignore[reportUnnecessaryIsInstance]
        return text
    try:
        prose = text.decode("utf-8") if isinstance(text, bytes) else text
    except UnicodeDecodeError:  # the strict reader words it
        return text
    found = extract_json(prose)
    if found is None:
        message = "The answer holds no JSON object: answer with the JSON object alone"
        raise invalid(title, "llm_no_json", message, (), text)
    return found


def answer(instance: MplpModel, *, dialect: Dialect = "openai") -> dict[str, Any]:
    """What a model would answer for ``instance`` under the dialect's schema: for examples in a prompt, and tests.

    Args:
        instance: A model instance.
        dialect: The dialect.

    Returns:
        The JSON value (a dict) that ``from_llm_json`` reads back as ``instance``.

    Raises:
        ValueError: For a dialect that is not one of the four; or for an instance of an open
            model (an event or learning-sample core, a family) with keys beyond its fields in
            a dialect other than ``"json-schema"``: those dialects ask for the declared fields
            only, so the answer could not carry them (never dropped silently).
        TypeError: For an ``instance`` that is no model instance (a draft is its own answer).
    """
    _check(dialect)
    if not isinstance(instance, MplpModel):  # pyright: ignore[reportUnnecessaryIsInstance]  # an untyped caller's
        also = " (a draft's answer is its model_dump())" if isinstance(instance, Draft) else ""
        raise TypeError(f"answer takes a model instance (a Plan...), not {type(instance).__name__}{also}")
    extra = instance.model_extra
    if extra and dialect != "json-schema":
        keys = ", ".join(sorted(map(repr, extra))[:5])
        raise ValueError(
            f"the {dialect} dialect asks for the declared fields of {type(instance).__name__} only: its keys "
            f"beyond them ({keys}) cannot be carried; use dialect='json-schema', or leave them out"
        )
    form: dict[str, Any] = encode(instance.to_dict(), slots(type(instance), dialect))
    return form


_MOST = 20


def feedback(error: ValidationError) -> str:
    """A short repair message for the LLM, to send back with a retry.

    Args:
        error: The error of ``from_llm_json`` (or of any validation of the models).

    Returns:
        One line per problem: its JSON Pointer in the answer, its code, what is
        allowed and what was found (a broken rule names the ids involved); at
        most 20 lines, then how many more there are.

    Raises:
        TypeError: For an ``error`` that is no ``ValidationError`` (an ``EditError``'s cause is one).
    """
    if not isinstance(error, ValidationError):  # pyright: ignore[reportUnnecessaryIsInstance]  # an untyped caller's
        raise TypeError(f"feedback takes a pydantic ValidationError (from_llm_json's), not {type(error).__name__}")
    entries = errors_as_json(error)
    unlisted: int | None = 0  # None: more were found, how many is not known (the checks stopped)
    if entries and entries[-1]["code"] == TOO_MANY:
        entries = entries[:-1]
        count = error.error_count()
        if count > len(entries) + 1:  # an error pydantic built whole (a draft's): errors_as_json cut it
            unlisted = count - len(entries)
        else:  # bounded by the models: its last entry counts the rest (and the error is short)
            unlisted = error.errors(include_url=False, include_input=False)[-1].get("ctx", {}).get("more")
    lines = [
        f"Your answer is not a valid {error.title}. Fix every problem below and answer again with the whole "
        "JSON document (pointers are RFC 6901 JSON Pointers into your answer):"
    ]
    for entry in entries[:_MOST]:
        where = entry["pointer"] or "(the whole answer)"
        lines.append(f"- {where} [{entry['code']}]: {entry['message']}")
    if unlisted is None:
        lines.append(f"- and more: the checks stopped at the first bad item of each array ({len(entries)} listed)")
    elif more := max(len(entries) - _MOST, 0) + unlisted:
        lines.append(f"- and {more} more")
    return "\n".join(lines)
