"""What a type checker sees of the public API, held under mypy --strict and pyright strict.

Never run, only checked (``make typecheck``): each ``assert_type`` fails the
check if a field's type drifts, each ``match`` fails it if a status gains a
member that is not handled, and each line that must be an error carries an
ignore comment for exactly that error, which the checkers are set to report
when it is not needed (mypy ``warn_unused_ignores``, pyright
``reportUnnecessaryTypeIgnoreComment``): if the error stopped being flagged,
the check fails. The file name does not start with ``test_``: pytest does not
collect it.
"""

# mypy: enable-error-code="deprecated"

from __future__ import annotations

import uuid
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from hypothesis.strategies import SearchStrategy
from pydantic import JsonValue
from typing_extensions import assert_never, assert_type

import mplp_models as mm
from mplp_models import chat, cortex, testing
from mplp_models.literals import PlanStepStatusValue


def plan_fields(plan: mm.Plan) -> None:
    assert_type(plan.plan_id, str)  # MplpId is text, kept as given
    assert_type(plan.context_id, str)
    assert_type(plan.title, str)
    assert_type(plan.status, mm.PlanStatus)
    assert_type(plan.steps, tuple[mm.PlanStep, ...])
    assert_type(plan.meta, mm.Metadata)
    assert_type(plan.trace, mm.TraceBase | None)  # optional: absent is None
    assert_type(plan.events, tuple[mm.Event, ...] | None)
    step = plan.steps[0]
    assert_type(step.step_id, str)
    assert_type(step.status, mm.PlanStepStatus)
    assert_type(step.dependencies, tuple[str, ...] | None)
    assert_type(step.order_index, int | None)
    assert_type(step.agent_role, str | None)


def metadata_fields(meta: mm.Metadata, ref: mm.Ref, trace: mm.TraceBase) -> None:
    assert_type(meta.protocol_version, str)
    assert_type(meta.created_at, mm.Timestamp | None)
    assert_type(meta.tags, tuple[str, ...] | None)
    assert_type(meta.cross_cutting, tuple[mm.CrossCuttingConcern, ...] | None)
    assert_type(ref.module, mm.RefModule)
    assert_type(trace.attributes, dict[str, JsonValue] | None)  # JsonObject: an open object


def dialog_fields(dialog: mm.Dialog) -> None:
    assert_type(dialog.status, mm.DialogStatus)
    assert_type(dialog.messages, tuple[mm.DialogMessage, ...])
    assert_type(dialog.started_at, mm.Timestamp | None)
    assert_type(dialog.governance, mm.Governance | None)
    message = dialog.messages[0]
    assert_type(message.role, mm.DialogMessageRole)
    assert_type(message.content, str)
    assert_type(message.timestamp, mm.Timestamp)
    assert_type(message.event, mm.Event | None)
    if dialog.governance is not None:
        assert_type(dialog.governance.locked, bool | None)
        assert_type(dialog.governance.lastConfirmRef, mm.Ref | None)


def inbox_fields(message: mm.InboxMessage) -> None:
    assert_type(message.schema_version, Literal[1])
    assert_type(message.message_id, str)
    assert_type(message.type, mm.InboxMessageType)
    assert_type(message.status, mm.InboxMessageStatus)
    assert_type(message.recipient_ids, tuple[str, ...])
    assert_type(message.created_at, mm.Timestamp)
    assert_type(message.read_at, mm.Timestamp | None)  # nullable: null is None too
    assert_type(message.task_id, str | None)
    assert_type(message.related_decision_ids, tuple[str, ...] | None)


def event_and_sample_fields(event: mm.Event, sample: mm.LearningSample) -> None:
    assert_type(event.event_type, str)
    assert_type(event.timestamp, mm.Timestamp)
    assert_type(event.data, mm.JsonObject | None)
    assert_type(sample.success_flag, bool)
    assert_type(sample.impact_score, float | None)  # a JSON number: int or float, typed float
    assert_type(sample.delta_intents, tuple[dict[str, JsonValue], ...] | None)
    assert_type(sample.timestamps, mm.LearningSampleTimestamps)
    assert_type(sample.timestamps.completed_at, mm.Timestamp | None)
    if sample.token_usage is not None:
        assert_type(sample.token_usage.total_tokens, float | None)
        assert_type(sample.token_usage.by_agent, tuple[mm.AgentTokenUsage, ...] | None)
    if sample.user_feedback is not None:
        assert_type(sample.user_feedback.decision, mm.FeedbackDecision | None)
    if sample.error_info is not None:
        assert_type(sample.error_info.error_code, str | None)


def methods(plan: mm.Plan, stamp: mm.Timestamp, data: bytes) -> None:
    assert_type(mm.Plan.from_json(data), mm.Plan)
    assert_type(mm.Dialog.from_json(data, semantic=False), mm.Dialog)
    assert_type(plan.to_json(), bytes)
    assert_type(plan.to_dict(), dict[str, Any])
    assert_type(plan.transition(mm.PlanStatus.proposed), mm.Plan)
    assert_type(plan.topological_order(), list[mm.PlanStep])
    assert_type(plan.check(), list[mm.RuleViolation])
    assert_type(mm.parse(data), mm.Payload)
    assert_type(mm.canonical_json({"a": 1}), bytes)
    assert_type(stamp.to_datetime(), datetime)
    assert_type(stamp.instant(), tuple[int, str])
    assert_type(mm.Timestamp.now(), mm.Timestamp)


def modules(trace: mm.Trace, confirm: mm.Confirm, context: mm.Context, network: mm.Network) -> None:
    assert_type(trace.walk(), list[mm.TraceSegment])
    assert_type(trace.roots(), list[mm.TraceSegment])
    assert_type(trace.children("id"), list[mm.TraceSegment])
    assert_type(trace.transition(mm.TraceStatus.running), mm.Trace)
    assert_type(trace.root_span, mm.TraceBase)
    assert_type(confirm.transition("approved"), mm.Confirm)
    assert_type(confirm.decisions, tuple[mm.ConfirmDecision, ...] | None)
    assert_type(context.root, mm.ContextRoot)
    assert_type(context.transition(mm.ContextStatus.active), mm.Context)
    assert_type(network.nodes, tuple[mm.NetworkNode, ...] | None)
    assert_type(mm.Core.from_json(b"{}").modules, tuple[mm.ModuleDescriptor, ...])
    assert_type(mm.DialogGovernance, type[mm.Governance])
    # A name the package does not have is an error, not Any (its lazy __getattr__ is hidden from checkers).
    assert mm.Plann  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]


def strategies() -> None:
    assert_type(testing.plans(), SearchStrategy[mm.Plan])
    assert_type(testing.dialogs(), SearchStrategy[mm.Dialog])
    assert_type(testing.traces(), SearchStrategy[mm.Trace])
    assert_type(testing.payloads(), SearchStrategy[mm.Payload])
    assert_type(testing.events(), SearchStrategy[mm.Event])
    assert_type(testing.inbox_messages("read"), SearchStrategy[mm.InboxMessage])
    assert_type(testing.instances(mm.LearningSample), SearchStrategy[mm.LearningSample])
    assert_type(testing.timestamps(), SearchStrategy[mm.Timestamp])


# --- exhaustive matches: a new member unhandled makes assert_never an error ------------------


def plan_is_open(status: mm.PlanStatus) -> bool:
    match status:
        case mm.PlanStatus.draft | mm.PlanStatus.proposed | mm.PlanStatus.approved | mm.PlanStatus.in_progress:
            return True
        case mm.PlanStatus.completed | mm.PlanStatus.cancelled | mm.PlanStatus.failed:
            return False
        case _:
            assert_never(status)


def step_is_final(status: mm.PlanStepStatus) -> bool:
    match status:
        case mm.PlanStepStatus.completed | mm.PlanStepStatus.skipped:
            return True
        case (
            mm.PlanStepStatus.pending
            | mm.PlanStepStatus.in_progress
            | mm.PlanStepStatus.blocked
            | mm.PlanStepStatus.failed
        ):
            return False
        case _:
            assert_never(status)


def dialog_is_live(status: mm.DialogStatus) -> bool:
    match status:
        case mm.DialogStatus.active | mm.DialogStatus.paused:
            return True
        case mm.DialogStatus.completed | mm.DialogStatus.cancelled:
            return False
        case _:
            assert_never(status)


def inbox_stamp(status: mm.InboxMessageStatus) -> str | None:
    match status:
        case mm.InboxMessageStatus.unread:
            return None
        case mm.InboxMessageStatus.read:
            return "read_at"
        case mm.InboxMessageStatus.acknowledged:
            return "acknowledged_at"
        case mm.InboxMessageStatus.archived:
            return "archived_at"
        case _:
            assert_never(status)


# --- what must be flagged: each ignore is for exactly the expected error ----------------------


def accepted(plan: mm.Plan) -> None:
    # What the checkers accept, the run time accepts: None for an optional field means "not given".
    mm.PlanStep(step_id=mm.new_id(), description="Tag", status=mm.PlanStepStatus.pending, dependencies=None)
    mm.Event(event_id=mm.new_id(), event_type="plan.approved", source="s", timestamp=mm.Timestamp.now(), trace_id=None)
    assert_type(plan.model_copy(update={"title": "x"}), mm.Plan)
    assert_type(plan.without("trace"), mm.Plan)
    assert_type(plan.transition_step(plan.steps[0].step_id, mm.PlanStepStatus.in_progress), mm.Plan)
    assert_type(mm.new_id(), str)


def constructors(plan: mm.Plan, deps: list[str], statuses: tuple[mm.PlanStepStatus, ...]) -> None:
    # The constructors take what the run time reads from Python: an enum's member or its value, a list
    # or a tuple for an array, text for a timestamp or an id, lists and tuples inside an open object.
    step = mm.PlanStep(step_id=mm.new_id(), description="Tag", status="pending", dependencies=deps)
    mm.PlanStep(step_id=mm.new_id(), description="Tag", status=mm.PlanStepStatus.blocked, dependencies=("x",))
    assert_type(step.status, mm.PlanStepStatus)  # read back: the member, whatever was given
    assert_type(step.dependencies, tuple[str, ...] | None)
    meta = mm.Metadata(
        protocol_version="1.0.0",
        schema_version="1.0.0",
        created_at="2026-01-02T03:04:05Z",
        tags=["a", "b"],
        cross_cutting=["security", mm.CrossCuttingConcern.observability],
    )
    assert_type(meta.created_at, mm.Timestamp | None)
    mm.Plan(
        meta=meta,
        plan_id=mm.new_id(),
        context_id=mm.new_id(),
        title="T",
        objective="O",
        status="draft",
        steps=[step, *plan.steps],
        trace=mm.TraceBase(trace_id=mm.new_id(), span_id=mm.new_id(), attributes={"tags": meta.tags, "n": [1, (2, 3)]}),
    )
    values: list[PlanStepStatusValue] = ["pending", "blocked"]
    assert_type(values[0], Literal["pending", "in_progress", "completed", "blocked", "skipped", "failed"])
    mm.ContextRoot(domain="d", environment="e", region="eu", limits={"cpu": [1, 2]})  # extra="allow": JSON values


def constructors_flagged(deps: set[str], step_id: str) -> None:
    # An enum field: a value that is no member's.
    mm.PlanStep(step_id=step_id, description="Tag", status="bogus")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    # An array: a set or a frozenset (unordered: the run time refuses them), or a str (a sequence of str).
    mm.PlanStep(step_id=step_id, description="Tag", status="pending", dependencies=deps)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    mm.Metadata(protocol_version="1", schema_version="1", tags=frozenset({"a"}))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    mm.PlanStep(step_id=step_id, description="Tag", status="pending", dependencies=step_id)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    # An array's items: an enum value that is no member's.
    mm.Metadata(protocol_version="1", schema_version="1", cross_cutting=["securty"])  # type: ignore[list-item]  # pyright: ignore[reportArgumentType]
    # An open object: a set inside it.
    mm.TraceBase(trace_id=step_id, span_id=step_id, attributes={"a": {"b"}})  # type: ignore[dict-item]  # pyright: ignore[reportArgumentType]
    # A required field left out.
    mm.PlanStep(step_id=step_id, description="Tag")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    # Positional arguments: the constructors take keywords only.
    mm.Ref(step_id, "plan")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


def flagged(plan: mm.Plan) -> None:
    step_id = "a1000000-0000-4000-8000-000000000001"
    # A keyword argument of the wrong type: order_index is an int.
    mm.PlanStep(step_id=step_id, description="Tag", status=mm.PlanStepStatus.pending, order_index="1")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    # Any assignment: the models are frozen (a frozen_instance error at run time).
    plan.status = mm.PlanStatus.completed  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
    plan.steps[0].dependencies = None  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
    # Changing an array in place: arrays are tuples.
    plan.steps.append(plan.steps[0])  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
    # A uuid.UUID or a datetime where the schema wants text (the run time refuses them, naming what to call).
    mm.PlanStep(step_id=uuid.uuid4(), description="Tag", status=mm.PlanStepStatus.pending)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    mm.Metadata(protocol_version="1.0.0", schema_version="1.0.0", created_at=datetime.now())  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    # A misspelled keyword.
    mm.Ref(id=step_id, module=mm.RefModule.plan, descripton="x")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    # An optional field used without a check for None.
    len(plan.steps[0].dependencies)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


def interop(dialog: mm.Dialog, event: mm.Event) -> None:
    messages = dialog.to_openai_messages()
    assert_type(messages, list[chat.OpenAIChatMessage])
    first = messages[0]
    if first["role"] == "system":  # the role tells which of the message types it is
        assert_type(first, chat.OpenAISystemMessage)
    assert_type(mm.Dialog.from_openai_messages(messages), mm.Dialog)
    anthropic = dialog.to_anthropic_messages(agent_role="user")
    assert_type(anthropic, chat.AnthropicChat)
    assert_type(anthropic["messages"], list[chat.AnthropicChatMessage])
    assert_type(mm.Dialog.from_anthropic_messages(**anthropic), mm.Dialog)
    cloudevent = event.to_cloudevent()
    assert_type(cloudevent, mm.CloudEvent)
    assert_type(cloudevent["id"], str)
    assert_type(mm.Event.from_cloudevent(cloudevent), mm.Event)
    dialog.to_anthropic_messages(agent_role="robot")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    try:
        event.to_cloudevent()
    except mm.ConversionError as error:
        assert_type(error.path, tuple[str | int, ...])


def line_verdicts(lines: list[bytes], texts: list[str]) -> None:
    verdicts = mm.check_lines(lines, semantic=False, kind=mm.Plan)
    assert_type(verdicts, list[mm.LineVerdict | None])
    assert_type(mm.check_lines(texts), list[mm.LineVerdict | None])
    for verdict in verdicts:
        if verdict is not None:
            assert_type(verdict.ok, bool)
            assert_type(verdict.kind, str | None)
            assert_type(verdict.errors, tuple[mm.ErrorEntry, ...])


def trace_finish(trace: mm.Trace) -> None:
    trace.finish(mm.TraceStatus.completed)
    trace.finish("cancelled")
    trace.finish(mm.TraceStatus.running)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # not an end


def moved_names(dialog: mm.Dialog, status: mm.PlanStepStatusValue) -> None:
    # The root's earlier names still type-check; the message classes are marked deprecated (the ignores
    # fail the run, as unused, if the mark goes), the aliases are the same types as their new homes'.
    legacy: mm.OpenAIUserMessage = {"role": "user", "content": "Plan the release"}  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    current: chat.OpenAIUserMessage = legacy
    messages: list[mm.OpenAIChatMessage] = dialog.to_openai_messages()
    messages.append(current)
    also: PlanStepStatusValue = status
    assert_type(also, Literal["pending", "in_progress", "completed", "blocked", "skipped", "failed"])


def cortex_moves(inbox: Path, message: mm.CodeInboxMessage) -> None:
    # The moment of a move is RFC 3339 text, as a message's own transition takes it: a str or a Timestamp.
    assert_type(cortex.transition(inbox, message.message_id, "read", at="2026-08-02T10:00:00.000Z"), cortex.InboxEntry)
    cortex.transition(inbox, message.message_id, "read", at=mm.Timestamp("2026-08-02T10:00:00.000Z"))
    cortex.transition(inbox, message.message_id, "read", at=message.updated_at)
    assert_type(message.transition("read", at="2026-08-02T10:00:00.000Z"), mm.CodeInboxMessage)
    cortex.transition(inbox, message.message_id, "read", at=datetime.now())  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
