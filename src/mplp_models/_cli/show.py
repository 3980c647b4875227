"""``mplp-models show FILE``: a document as people read it: a plan's steps in dependency order, a trace's tree.

``--format mermaid`` and ``--format dot`` write the document's picture instead, in UTF-8 (docs/seeing.md). On a
terminal with rich installed (the ``cli`` extra) the text is a table or a tree; in a pipe, plain lines.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Sized
from typing import TYPE_CHECKING, Any, cast

from mplp_models._text import printable

if TYPE_CHECKING:
    from mplp_models._base import MplpModel
    from mplp_models._generated.mplp.v1_0.mplp_plan_schema import Plan
    from mplp_models._generated.mplp.v1_0.mplp_trace_schema import Trace

__all__ = ["add_show", "duration", "plan_lines", "run_show", "trace_lines"]

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def add_show(add: Callable[..., argparse.ArgumentParser], epilog: str) -> None:
    """The ``show`` subcommand, added with the subparsers' ``add_parser``."""
    text = "Show a document: a plan's steps in dependency order, a trace's segments as a tree, or a picture."
    command = add(
        "show",
        help=text,
        description=text,
        epilog=(
            "--format mermaid draws a Plan (flowchart), a Trace (gantt chart) or a Dialog (sequence\n"
            "diagram); --format dot a Plan (Graphviz). Any other kind is shown as its summary.\n\n" + epilog
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    command.add_argument("path", metavar="PATH", help="a JSON document; - for stdin")
    command.add_argument("--format", choices=("text", "mermaid", "dot"), default="text", help="default text")
    command.set_defaults(run=run_show)


def run_show(args: argparse.Namespace) -> int:
    """Show the document at ``args.path`` in ``args.format``; the exit status."""
    from pydantic import ValidationError

    from mplp_models._cli.input import open_input, problems
    from mplp_models._errors import errors_as_json
    from mplp_models._parse import parse

    try:
        with open_input(args.path) as stream:
            raw = stream.read()
    except OSError as error:
        print(f"mplp-models: {args.path}: unreadable: {error.strerror or error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        document = parse(raw)
    except ValidationError as error:
        print(printable(f"mplp-models: {args.path}: invalid: {problems(errors_as_json(error))}"), file=sys.stderr)
        return EXIT_INVALID
    if args.format != "text":
        return _picture(document, args.format, args.path)
    _show_text(document, fancy=sys.stdout.isatty() and _rich_installed())
    return EXIT_OK


def _show_text(document: MplpModel, *, fancy: bool) -> None:
    """The document on stdout: rich's table or tree where ``fancy``, else plain lines."""
    from mplp_models._generated.mplp.v1_0.mplp_plan_schema import Plan
    from mplp_models._generated.mplp.v1_0.mplp_trace_schema import Trace

    if isinstance(document, Plan):
        _rich_plan(document) if fancy else print("\n".join(map(printable, plan_lines(document))))
    elif isinstance(document, Trace):
        _rich_trace(document) if fancy else print("\n".join(map(printable, trace_lines(document))))
    else:
        print("\n".join(map(printable, summary_lines(document))))


def _picture(document: MplpModel, form: str, path: str) -> int:
    method = getattr(document, "to_dot" if form == "dot" else "to_mermaid", None)
    if method is None:
        drawn = "a Plan" if form == "dot" else "a Plan, a Trace or a Dialog"
        print(
            f"mplp-models: {path}: no {form} picture of a {type(document).__name__}: {drawn} has one", file=sys.stderr
        )
        return EXIT_USAGE
    picture: str = method()
    sys.stdout.buffer.write(picture.encode())  # a Mermaid or DOT file is UTF-8, whatever the terminal's encoding
    return EXIT_OK


def _rich_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("rich") is not None


def _status(value: object) -> str:
    return str(getattr(value, "value", value))


def _numbered(plan: Plan) -> list[tuple[int, Any, list[int]]]:
    """The steps in dependency order, numbered from 1, each with the numbers of the steps it waits for."""
    order = plan.topological_order()
    number = {step.step_id: k for k, step in enumerate(order, 1)}
    return [(number[step.step_id], step, [number[d] for d in step.depends_on if d in number]) for step in order]


def plan_lines(plan: Plan) -> Iterator[str]:
    """The plan as plain lines: its title and status, then each step in dependency order with what it waits for."""
    yield f"Plan {plan.plan_id} {_status(plan.status)}: {plan.title}"
    for number, step, after in _numbered(plan):
        waits = f"  (after {', '.join(map(str, after))})" if after else ""
        yield f"  {number:>3}. [{_status(step.status)}] {_one_line(step.description)}{waits}"


def duration(nanos: int) -> str:
    """``nanos`` for people: ``850 ms``, ``12.5 s``, ``20m 30.125s``, ``2h 03m 00s``."""
    if nanos < 1_000_000_000:
        return f"{nanos / 1_000_000:g} ms"
    seconds, fraction = divmod(nanos, 1_000_000_000)
    digits = f"{fraction:09d}".rstrip("0")
    second_text = f"{seconds % 60}{'.' + digits if digits else ''}s"
    if seconds < 60:
        return second_text.replace("s", " s")
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes}m {second_text}"
    return f"{minutes // 60}h {minutes % 60:02d}m {seconds % 60:02d}s"


def _segment_rows(trace: Trace) -> Iterator[tuple[int, str, str, str]]:
    """Each segment in ``walk`` order: its depth, label, status and duration (``running`` or ``-`` if it has none)."""
    from mplp_models._instants import nanoseconds

    depth: dict[str, int] = {}
    for segment in trace.walk():
        parent = segment.parent_segment_id
        depth[segment.segment_id] = 0 if parent is None else depth[parent] + 1
        if segment.started_at is None:
            took = "-"
        elif segment.finished_at is None:
            took = "running"
        else:
            took = duration(max(0, nanoseconds(segment.finished_at) - nanoseconds(segment.started_at)))
        yield depth[segment.segment_id], _one_line(segment.label), _status(segment.status), took


def trace_lines(trace: Trace) -> Iterator[str]:
    """The trace as plain lines: its status and times, then its segments as an indented tree with durations."""
    from mplp_models._instants import nanoseconds

    times = ""
    if trace.started_at is not None:
        times = f" from {trace.started_at}"
        if trace.finished_at is not None:
            took = duration(max(0, nanoseconds(trace.finished_at) - nanoseconds(trace.started_at)))
            times += f" to {trace.finished_at} ({took})"
    yield f"Trace {trace.trace_id} {_status(trace.status)}{times}"
    for depth, label, status, took in _segment_rows(trace):
        yield f"  {'  ' * depth}{label}  [{status}]  {took}"


def summary_lines(document: MplpModel) -> Iterator[str]:
    """Any document as its kind, its id, its status, and its other plain fields and list lengths."""
    from mplp_models._kinds import KINDS

    kind = type(document).__name__
    id_field = next((k.id_field for k in KINDS if k.name == kind), None)
    yield f"{kind} {getattr(document, id_field, '') if id_field else ''}".rstrip()
    for name, value in document.to_dict().items():
        if name in (id_field, "meta"):
            continue
        if isinstance(value, (list, dict)):
            count = len(cast("Sized", value))
            yield f"  {name}: {count} {'item' if isinstance(value, list) else 'field'}{'s' if count != 1 else ''}"
        else:
            yield f"  {name}: {_one_line(str(value))}"


def _one_line(text: str) -> str:
    return " ".join(text.split()) if "\n" in text or "\r" in text else text


def _rich_plan(plan: Plan) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    title = f"{escape(printable(plan.title))} ({_status(plan.status)})"
    table = Table(title=title, caption=f"plan {escape(printable(plan.plan_id))}")
    for column in ("#", "status", "step", "after"):
        table.add_column(column)
    for number, step, after in _numbered(plan):
        description = escape(printable(step.description))
        table.add_row(str(number), _status(step.status), description, ", ".join(map(str, after)))
    Console().print(table)


def _rich_trace(trace: Trace) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.tree import Tree

    tree = Tree(f"trace {escape(printable(trace.trace_id))} [bold]{_status(trace.status)}[/]")
    branches: list[Tree] = [tree]
    for depth, label, status, took in _segment_rows(trace):
        del branches[depth + 1 :]
        branches.append(branches[depth].add(f"{escape(printable(label))}  [dim]{status}  {took}[/]"))
    Console().print(tree)
