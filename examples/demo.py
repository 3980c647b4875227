"""Validate every JSON payload in a folder and print a typed one-line summary of each.

python examples/demo.py examples/payloads
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from pydantic import ValidationError

import mplp_models as mm


def summary(model: mm.MplpModel) -> str:
    """One line that shows the typed fields of a payload."""
    if isinstance(model, mm.Plan):
        counts = Counter(step.status.value for step in model.steps)
        states = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        return f"Plan {model.plan_id} {model.title!r} [{model.status.value}] {len(model.steps)} steps ({states})"
    if isinstance(model, mm.Dialog):
        roles = ", ".join(message.role.value for message in model.messages)
        return f"Dialog {model.dialog_id} [{model.status.value}] {len(model.messages)} messages ({roles})"
    if isinstance(model, mm.InboxMessage):
        to = ", ".join(model.recipient_ids)
        return f"InboxMessage {model.message_id} {model.type.value} [{model.status.value}] {model.sender_id} -> {to}: {model.subject!r}"
    if isinstance(model, mm.LearningSample):
        outcome = "succeeded" if model.success_flag else "failed"
        tokens = model.token_usage.total_tokens if model.token_usage else None
        return f"LearningSample {model.sample_id} project {model.project_id!r} {outcome}, {tokens} tokens"
    if isinstance(model, mm.Event):
        when = model.timestamp.to_datetime().isoformat()
        return f"Event {model.event_id} {model.event_type} from {model.source!r} at {when}"
    if isinstance(model, mm.Trace):
        tree = " > ".join(segment.label for segment in model.walk()) or "no segments"
        return f"Trace {model.trace_id} [{model.status.value}] segments, parents first: {tree}"
    if isinstance(model, mm.Confirm):
        decisions = ", ".join(decision.status.value for decision in model.decisions or ()) or "none yet"
        return f"Confirm {model.confirm_id} of {model.target_type.value} {model.target_id} [{model.status.value}], decisions: {decisions}"
    # The other MPLP modules: the kind, its own id (context_id for a Context...) and its status if it has one.
    kind = type(model).__name__
    status = getattr(model, "status", None)
    return f"{kind} {getattr(model, f'{kind.lower()}_id', '')}" + (f" [{status.value}]" if status is not None else "")


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
