"""A draft with LangChain: langchain-openai's ChatOpenAI over a mock transport, the draft's format bound.

``with_structured_output(method="json_schema")`` goes through the openai SDK's ``parse``, which
refuses the answer inside ``invoke``: the reply is lost. Bound with ``llm.openai_format``, the reply
comes back, and the retry sends it with ``llm.feedback``. langchain-core needs Python 3.11 or newer:
on 3.10 this module is skipped.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("langchain_openai", reason="langchain-core needs Python 3.11 or newer")

from langchain_core.messages import BaseMessage, HumanMessage
from langchain_openai import ChatOpenAI
from pydantic import SecretStr, ValidationError
from test_drafts_sdks import CONTEXT, DANGLING, GOOD, MESSAGE, check_plan
from test_llm_sdks import chat_completion, replaying

from mplp_models import llm


def chat_model(answers: list[dict[str, Any]], requests: list[dict[str, Any]]) -> ChatOpenAI:
    return ChatOpenAI(
        model="gpt-4o-2024-08-06",
        api_key=SecretStr("sk-test"),
        base_url="http://127.0.0.1:9/v1",
        http_client=replaying(answers, requests),
        max_retries=0,
    )


def test_with_structured_output_refuses_inside_invoke() -> None:
    requests: list[dict[str, Any]] = []
    planner = chat_model([chat_completion(json.dumps(DANGLING))], requests).with_structured_output(
        llm.PlanDraft, method="json_schema", strict=True
    )
    with pytest.raises(ValidationError) as caught:  # the draft's own refusal: no reply to send back
        planner.invoke([HumanMessage("Plan the release of v2.")])
    assert MESSAGE in llm.feedback(caught.value)
    sent = requests[0]["response_format"]
    assert sent["json_schema"]["strict"] is True and sent["json_schema"]["schema"] == llm.json_schema(llm.PlanDraft)


def test_a_bound_format_keeps_the_reply_for_the_retry() -> None:
    # docs/llm.md's LangChain loop.
    requests: list[dict[str, Any]] = []
    first = json.dumps(DANGLING, indent=1)
    chat = chat_model([chat_completion(first), chat_completion(json.dumps(GOOD))], requests).bind(
        response_format=llm.openai_format(llm.PlanDraft)
    )
    chat_history: list[BaseMessage] = [HumanMessage("Plan the release of v2.")]
    proposal = None
    for _ in range(3):
        ai_message = chat.invoke(chat_history)
        try:
            proposal = llm.PlanDraft.model_validate_json(ai_message.text)
            break
        except ValidationError as error:
            chat_history += [ai_message, HumanMessage(llm.feedback(error))]
    assert proposal is not None
    check_plan(proposal.to_plan(context_id=CONTEXT))
    assert len(requests) == 2
    assert requests[0]["response_format"] == llm.openai_format(llm.PlanDraft)
    user, assistant, retry = requests[1]["messages"]
    assert user == {"role": "user", "content": "Plan the release of v2."}
    assert assistant["role"] == "assistant" and assistant["content"] == first
    assert retry["role"] == "user" and "/steps/2/depends_on/1 [unknown_dependency]" in retry["content"]
    assert MESSAGE in retry["content"]
