"""Validate one inbound payload (plan, dialog, trace, confirm, inbox message, event, ...) from a file or standard input.

    python examples/validate_inbound.py examples/payloads/inbox.json
    python examples/validate_inbound.py < examples/payloads/invalid/inbox.json
    python examples/validate_inbound.py --json examples/payloads/invalid/plan-cycle.json

Prints `ok` with the payload's kind and id, or every problem with the JSON Pointer of the
offending value, its error code and what was expected (`--json`: the problems as a JSON array,
as an API would return them). Exit status: 0 valid, 1 invalid, 2 unreadable.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pydantic import ValidationError

import mplp_models as mm

# The field that names each kind of payload.
ID_FIELD = {
    mm.Plan: "plan_id",
    mm.Dialog: "dialog_id",
    mm.Context: "context_id",
    mm.Confirm: "confirm_id",
    mm.Trace: "trace_id",
    mm.Role: "role_id",
    mm.Extension: "extension_id",
    mm.Collab: "collab_id",
    mm.Core: "core_id",
    mm.Network: "network_id",
    mm.InboxMessage: "message_id",
    mm.CodeInboxMessage: "message_id",
    mm.LearningSample: "sample_id",
    mm.Event: "event_id",
    mm.TraceBase: "span_id",
    mm.EventCore: "event_id",
    mm.GraphUpdateEvent: "event_id",
    mm.PipelineStageEvent: "event_id",
    mm.RuntimeExecutionEvent: "event_id",
    mm.SAEvent: "event_id",
    mm.MAPEvent: "event_id",
    mm.CIEvent: "run_id",
    mm.FileUpdateEvent: "file_path",
    mm.GitEvent: "commit_id",
    mm.ToolEvent: "invocation_id",
    mm.LearningSampleCore: "sample_id",
    mm.DeltaImpactSample: "sample_id",
    mm.IntentResolutionSample: "sample_id",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("path", nargs="?", default="-", help="the payload file; - or nothing for standard input")
    parser.add_argument("--json", action="store_true", help="print the problems as a JSON array")
    parser.add_argument("--schema-only", action="store_true", help="check the schema, not the rules beyond it")
    args = parser.parse_args(argv)

    name = "<stdin>" if args.path == "-" else args.path
    try:
        data = sys.stdin.buffer.read() if args.path == "-" else Path(args.path).read_bytes()
    except OSError as error:
        print(f"cannot read {name}: {error.strerror}", file=sys.stderr)
        return 2

    try:
        payload = mm.parse(data, semantic=not args.schema_only)
    except ValidationError as error:
        problems = mm.errors_as_json(error)
        if args.json:
            print(json.dumps(problems, indent=2, ensure_ascii=False))
        else:
            print(f"invalid: {name}: {len(problems)} problem{'s' if len(problems) > 1 else ''}")
            for problem in problems:
                print(f"  {problem['pointer'] or '(whole payload)'}: {problem['code']}: {problem['message']}")
        return 1

    kind = type(payload)
    if args.json:
        print("[]")
    else:
        print(f"ok: {name}: {kind.__name__} {getattr(payload, ID_FIELD[kind])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
