"""The OpenAI and Anthropic chat formats that dialogs convert to and from, as ``TypedDict`` types.

``Dialog.to_openai_messages()`` returns a ``list[OpenAIChatMessage]`` and
``Dialog.to_anthropic_messages()`` an ``AnthropicChat``; the official SDKs'
``create`` calls take them without a cast. They are plain dicts at run time:
annotate your own request builders with them (docs/interop.md).
"""

from mplp_models._chat import (
    AnthropicAssistantMessage,
    AnthropicChat,
    AnthropicChatMessage,
    AnthropicTextBlock,
    AnthropicUserMessage,
    OpenAIAssistantMessage,
    OpenAIChatMessage,
    OpenAIDeveloperMessage,
    OpenAISystemMessage,
    OpenAIUserMessage,
)

__all__ = [
    "AnthropicAssistantMessage",
    "AnthropicChat",
    "AnthropicChatMessage",
    "AnthropicTextBlock",
    "AnthropicUserMessage",
    "OpenAIAssistantMessage",
    "OpenAIChatMessage",
    "OpenAIDeveloperMessage",
    "OpenAISystemMessage",
    "OpenAIUserMessage",
]
