"""Print the OpenAI Chat Completions request body for a dialog: the model name and its messages.

    python examples/openai_request.py [dialog.json] [--model NAME]

The dialog defaults to examples/payloads/dialog.json. Nothing is sent: post the
printed JSON to /v1/chat/completions, or pass its fields to an OpenAI client.
The dialog's agent message (a report from another agent) is sent as a user
turn, input for the model, and its trace event is left out: the format has no
place for either, so both are asked for by name.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import mplp_models as mm

DIALOG = Path(__file__).resolve().parent / "payloads" / "dialog.json"


def request_body(dialog: mm.Dialog, model: str) -> dict[str, Any]:
    """The JSON body of a Chat Completions request with the messages of ``dialog``."""
    return {"model": model, "messages": dialog.to_openai_messages(agent_role="user", drop_events=True)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("dialog", nargs="?", type=Path, default=DIALOG, help="an MPLP dialog JSON file")
    parser.add_argument("--model", default="gpt-4o-mini", help="the model name to put in the request")
    args = parser.parse_args(argv)
    dialog = mm.Dialog.from_json(args.dialog.read_bytes())
    print(json.dumps(request_body(dialog, args.model), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
