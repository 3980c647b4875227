"""A draft as LangChain's ``with_structured_output``, on langchain-openai's ChatOpenAI over a mock transport.

LangChain's ``method="json_schema"`` goes through the openai SDK's ``parse``, which validates the answer
with the draft itself: the refusal is the draft's ValidationError, and the retry sends ``llm.feedback`` of it. langchain-core needs Python
3.11 or newer: on 3.10 this module is skipped.
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


def test_with_structured_output_is_retried_with_the_drafts_message() -> None:
    requests: list[dict[str, Any]] = []
    http = replaying([chat_completion(json.dumps(DANGLING)), chat_completion(json.dumps(GOOD))], requests)
    chat = ChatOpenAI(
        model="gpt-4o-2024-08-06",
        api_key=SecretStr("sk-test"),
        base_url="http://127.0.0.1:9/v1",
        http_client=http,
        max_retries=0,
    )
    planner = chat.with_structured_output(llm.PlanDraft, method="json_schema", strict=True)
    messages: list[BaseMessage] = [HumanMessage("Plan the release of v2.")]
    draft = None
    for _ in range(3):
        try:
            draft = planner.invoke(messages)
            break
        except ValidationError as error:
            messages.append(HumanMessage(llm.feedback(error)))
    assert isinstance(draft, llm.PlanDraft)
    check_plan(draft.to_plan(context_id=CONTEXT))
    assert len(requests) == 2
    sent = requests[0]["response_format"]
    assert sent["json_schema"]["strict"] is True and sent["json_schema"]["schema"] == llm.json_schema(llm.PlanDraft)
    retry = requests[1]["messages"][-1]["content"]
    assert "/steps/2/depends_on/1 [unknown_dependency]" in retry and MESSAGE in retry
