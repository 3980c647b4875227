"""The request parts that ``llm.openai_format`` and ``llm.anthropic_tool`` write, typed as the SDKs take them.

The SDKs type a request's parts as TypedDicts whose items are mutable, so a
type checker holds them invariant: a dict type is accepted only if it has every
key of the SDK's type, required or not as there, each with an equivalent type.
The types below therefore declare the SDKs' keys (openai 3.57, anthropic 2.14),
and ``Any`` where the SDK's type is one of its own, as the chat messages do
(``_chat``). The SDKs themselves are never imported.
"""

from typing import Any, Literal

# No `from __future__ import annotations` here: TypedDict reads NotRequired only from
# evaluated annotations. typing_extensions' TypedDict reads it on Python 3.10 too.
from typing_extensions import NotRequired, TypedDict

from mplp_models._public import publish

__all__ = ["AnthropicTool", "OpenAIJsonSchema", "OpenAIResponseFormat"]


class OpenAIJsonSchema(TypedDict):
    """The ``json_schema`` of an OpenAI ``response_format``: the model's name, its schema, and ``strict``.

    Assignable to the openai SDK's ``JSONSchema``, where ``schema`` and
    ``strict`` may be absent; ``openai_format`` always writes both.
    """

    name: str
    description: NotRequired[str]
    schema: NotRequired[dict[str, object]]
    strict: NotRequired[bool | None]


class OpenAIResponseFormat(TypedDict):
    """An OpenAI Chat Completions ``response_format`` of type ``json_schema`` (Structured Outputs).

    Assignable to the openai SDK's ``ResponseFormatJSONSchema``, so
    ``client.chat.completions.create(response_format=...)`` takes it as it is.
    """

    type: Literal["json_schema"]
    json_schema: OpenAIJsonSchema


class AnthropicTool(TypedDict):
    """An Anthropic Messages API tool: the model's name, a description, its ``input_schema`` and ``strict``.

    Assignable to the anthropic SDK's ``ToolParam``, so
    ``client.messages.create(tools=[...])`` takes it as it is. ``input_schema``
    is a dict (the SDK's type is its own); ``description`` and ``strict``,
    optional there, are always written by ``anthropic_tool``, and none of the
    other keys.
    """

    name: str
    input_schema: Any
    description: NotRequired[str]
    strict: NotRequired[bool]
    allowed_callers: NotRequired[Any]
    cache_control: NotRequired[Any]
    defer_loading: NotRequired[bool]
    eager_input_streaming: NotRequired[bool | None]
    input_examples: NotRequired[Any]
    type: NotRequired[Literal["custom"] | None]


publish(__name__)  # the public classes above, shown as mplp_models.llm.<name>
