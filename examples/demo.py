"""Validate every JSON payload in a folder and print a typed one-line summary of each.

python examples/demo.py examples/payloads
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

import mplp_models as mm

_M = TypeVar("_M", bound=mm.MplpModel)
_SUMMARIES: list[tuple[type[mm.MplpModel], Callable[[Any], str]]] = []


def summarizes(kind: type[_M]) -> Callable[[Callable[[_M], str]], Callable[[_M], str]]:
    """Registers the one-line summary of ``kind``'s payloads."""

    def register(describe: Callable[[_M], str]) -> Callable[[_M], str]:
        _SUMMARIES.append((kind, describe))
        return describe

    return register


def summary(model: mm.MplpModel) -> str:
    """One line that shows the typed fields of a payload: its kind, its id, and what it says."""
    for kind, describe in _SUMMARIES:
        if isinstance(model, kind):
            return f"{kind.__name__} {describe(model)}"
    raise TypeError(f"no summary for {type(model).__name__}")


def _listed(values: Iterable[object]) -> str:
    return ", ".join(str(value) for value in values) or "none"


@summarizes(mm.Plan)
def _plan(plan: mm.Plan) -> str:
    counts = Counter(step.status.value for step in plan.steps)
    states = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    return f"{plan.plan_id} {plan.title!r} [{plan.status.value}] {len(plan.steps)} steps ({states})"


@summarizes(mm.Dialog)
def _dialog(dialog: mm.Dialog) -> str:
    roles = _listed(message.role.value for message in dialog.messages)
    return f"{dialog.dialog_id} [{dialog.status.value}] {len(dialog.messages)} messages ({roles})"


@summarizes(mm.Context)
def _context(context: mm.Context) -> str:
    root = context.root
    return f"{context.context_id} {context.title!r} [{context.status.value}] {root.domain} in {root.environment}"


@summarizes(mm.Confirm)
def _confirm(confirm: mm.Confirm) -> str:
    decisions = _listed(decision.status.value for decision in confirm.decisions or ())
    target = f"{confirm.target_type.value} {confirm.target_id}"
    return f"{confirm.confirm_id} of {target} [{confirm.status.value}], decisions: {decisions}"


@summarizes(mm.Trace)
def _trace(trace: mm.Trace) -> str:
    tree = " > ".join(segment.label for segment in trace.walk()) or "no segments"
    return f"{trace.trace_id} [{trace.status.value}] segments, parents first: {tree}"


@summarizes(mm.TraceBase)
def _trace_base(trace: mm.TraceBase) -> str:
    parent = f" under span {trace.parent_span_id}" if trace.parent_span_id else ""
    return f"{trace.trace_id} span {trace.span_id}{parent}"


@summarizes(mm.Role)
def _role(role: mm.Role) -> str:
    return f"{role.role_id} {role.name!r}, capabilities: {_listed(role.capabilities or ())}"


@summarizes(mm.Extension)
def _extension(extension: mm.Extension) -> str:
    kind = extension.extension_type.value
    return f"{extension.extension_id} {extension.name} {extension.version} ({kind}) [{extension.status.value}]"


@summarizes(mm.Collab)
def _collab(collab: mm.Collab) -> str:
    who = _listed(participant.participant_id for participant in collab.participants)
    return f"{collab.collab_id} {collab.title!r} {collab.mode.value} [{collab.status.value}], participants: {who}"


@summarizes(mm.Core)
def _core(core: mm.Core) -> str:
    modules = _listed(f"{module.module_id.value} {module.status.value}" for module in core.modules)
    return f"{core.core_id} protocol {core.protocol_version} [{core.status.value}], modules: {modules}"


@summarizes(mm.Network)
def _network(network: mm.Network) -> str:
    nodes = _listed(node.name for node in network.nodes or ())
    return (
        f"{network.network_id} {network.name!r} {network.topology_type.value} [{network.status.value}], nodes: {nodes}"
    )


@summarizes(mm.InboxMessage)
def _inbox(message: mm.InboxMessage) -> str:
    route = f"{message.sender_id} -> {_listed(message.recipient_ids)}"
    return f"{message.message_id} {message.type.value} [{message.status.value}] {route}: {message.subject!r}"


@summarizes(mm.CodeInboxMessage)
def _code_inbox(message: mm.CodeInboxMessage) -> str:
    route = f"{message.sender_id} -> {_listed(message.recipient_ids)}"
    return f"{message.message_id} {message.type.value} [{message.status.value}] {route}: {message.subject!r}"


@summarizes(mm.Event)
def _event(event: mm.Event) -> str:
    when = event.timestamp.to_datetime().isoformat()
    return f"{event.event_id} {event.event_type} from {event.source!r} at {when}"


@summarizes(mm.GraphUpdateEvent)
def _graph_update(event: mm.GraphUpdateEvent) -> str:
    change = f"{event.node_delta:+} nodes, {event.edge_delta:+} edges"
    return f"{event.event_id} {event.update_kind.value} on graph {event.graph_id}: {change} at {event.timestamp}"


@summarizes(mm.PipelineStageEvent)
def _pipeline_stage(event: mm.PipelineStageEvent) -> str:
    stage = f"stage {event.stage_order} {event.stage_name or event.stage_id!r}"
    return f"{event.event_id} {event.event_type} of pipeline {event.pipeline_id}: {stage} [{event.stage_status.value}]"


@summarizes(mm.RuntimeExecutionEvent)
def _runtime_execution(event: mm.RuntimeExecutionEvent) -> str:
    executor = f"{event.executor_kind.value} executor {event.executor_role or ''}".rstrip()
    return f"{event.event_id} {event.event_type} of execution {event.execution_id} by {executor} [{event.status.value}]"


@summarizes(mm.EventCore)
def _event_core(event: mm.EventCore) -> str:
    fields = _listed(sorted(event.payload or {}))
    return f"{event.event_id} {event.event_family.value}/{event.event_type} at {event.timestamp}, payload: {fields}"


@summarizes(mm.SAEvent)
def _sa_event(event: mm.SAEvent) -> str:
    return (
        f"{event.event_id} {event.event_type.value} of agent {event.sa_id} (plan {event.plan_id}) at {event.timestamp}"
    )


@summarizes(mm.MAPEvent)
def _map_event(event: mm.MAPEvent) -> str:
    route = f"{event.initiator_role} -> {_listed(event.target_roles or ())}"
    return f"{event.event_id} {event.event_type.value} in session {event.session_id}: {route}"


@summarizes(mm.CIEvent)
def _ci_event(event: mm.CIEvent) -> str:
    stages = _listed(f"{stage.stage_name} {stage.status.value}" for stage in event.stages or ())
    run = f"{event.ci_provider} {event.pipeline_id} run {event.run_id}"
    return f"{run} [{event.status.value}] on {event.branch_name}, stages: {stages}"


@summarizes(mm.FileUpdateEvent)
def _file_update(event: mm.FileUpdateEvent) -> str:
    path = f"{event.previous_path} -> {event.file_path}" if event.previous_path else event.file_path
    return (
        f"{event.change_type.value} {path} (+{event.lines_added or 0} -{event.lines_removed or 0}) at {event.timestamp}"
    )


@summarizes(mm.GitEvent)
def _git_event(event: mm.GitEvent) -> str:
    subject = (event.commit_message or "").partition("\n")[0]
    return f"{event.event_kind.value} {event.commit_id[:12]} on {event.ref_name} by {event.author_name}: {subject!r}"


@summarizes(mm.ToolEvent)
def _tool_event(event: mm.ToolEvent) -> str:
    outcome = f"[{event.status.value}] exit {event.exit_code}"
    command = " ".join((event.tool_id, *(event.args or ())))
    return f"{event.tool_kind.value} {command!r} {outcome}: {event.output_summary!r}"


@summarizes(mm.LearningSample)
def _learning_sample(sample: mm.LearningSample) -> str:
    outcome = "succeeded" if sample.success_flag else "failed"
    tokens = sample.token_usage.total_tokens if sample.token_usage else None
    return f"{sample.sample_id} project {sample.project_id!r} {outcome}, {tokens} tokens"


@summarizes(mm.DeltaImpactSample)
def _delta_impact(sample: mm.DeltaImpactSample) -> str:
    change, state, output = sample.input, sample.state, sample.output
    risk = state.risk_level.value if state and state.risk_level else "unknown"
    return f"{sample.sample_id} {change.change_summary!r}: risk {risk}, {output.impact_scope.value} impact"


@summarizes(mm.IntentResolutionSample)
def _intent_resolution(sample: mm.IntentResolutionSample) -> str:
    label = sample.output.resolution_quality_label
    quality = label.value if label else "unlabelled"
    return (
        f"{sample.sample_id} {sample.input.raw_request_summary!r} -> {sample.output.final_intent_summary!r} ({quality})"
    )


@summarizes(mm.LearningSampleCore)
def _learning_sample_core(sample: mm.LearningSampleCore) -> str:
    return f"{sample.sample_id} {sample.sample_family} at {sample.created_at}, output: {_listed(sorted(sample.output))}"


def main(folder: str) -> int:
    failures = 0
    for path in sorted(Path(folder).glob("*.json")):
        try:
            model = mm.parse(path.read_bytes())
        except ValidationError as error:
            failures += 1
            print(f"{path.name}: INVALID\n{error}")
            continue
        print(f"{path.name}: {summary(model)}")
        print(f"  canonical: {model.to_json().decode()}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "examples/payloads"))
