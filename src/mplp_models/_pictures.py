"""Pictures of documents: plans as Mermaid flowcharts and Graphviz DOT, traces as Mermaid gantt charts,
dialogs as Mermaid sequence diagrams, a session's documents as a flowchart of the ids they name.

Below the model behaviour modules: it reads the models' fields and imports none of their modules at
run time (their types are under ``TYPE_CHECKING``), so ``Plan.to_mermaid`` imports it downward when
first called. Every label goes through the escaper of its format, so no text of a document can
end a label, start a comment or make a statement: Mermaid text keeps letters, digits, spaces and
``.,-_/!?'+*=@$^~`` and writes every other character as Mermaid's entity code ``#NNN;``, which
Mermaid draws as the character; DOT text is a double-quoted string with ``\\`` and ``"`` escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from mplp_models._instants import NANOS_PER_SECOND, nanoseconds

if TYPE_CHECKING:
    from mplp_models._generated.mplp.v1_0.mplp_dialog_schema import Dialog
    from mplp_models._generated.mplp.v1_0.mplp_plan_schema import Plan, PlanStep
    from mplp_models._generated.mplp.v1_0.mplp_trace_schema import Trace, TraceSegment

__all__ = [
    "dialog_mermaid",
    "documents_mermaid",
    "dot_text",
    "mermaid_text",
    "plan_dot",
    "plan_mermaid",
    "trace_mermaid",
]

_MERMAID_SAFE = frozenset(" .,-_/!?'+*=@$^~")
_LINE_BREAK = "<br>"
# Fill and border of a step by status (Mermaid classDef and DOT fillcolor): one table for both formats.
_STEP_COLOURS = {
    "pending": ("#f5f5f5", "#9e9e9e"),
    "blocked": ("#fff3cd", "#d39e00"),
    "in_progress": ("#d6eaff", "#1f6fd1"),
    "completed": ("#d4edda", "#28a745"),
    "skipped": ("#eeeeee", "#bdbdbd"),
    "failed": ("#f8d7da", "#c82333"),
}
# The gantt tags of a segment by status: done, active (still running) or crit (failed).
_SEGMENT_TAGS = {"running": "active", "failed": "crit", "pending": "active"}
_BIG_PLAN = 100  # steps: above, dot is told to spend less on edge crossings
_LONGEST_MESSAGE = 160  # a dialog message's text in a sequence diagram: longer ones are cut, with "…"


def mermaid_text(text: str, line_break: str = _LINE_BREAK) -> str:
    """``text`` safe inside any Mermaid label: other characters as entity codes, line breaks as ``<br>``.

    Letters and digits (any script), spaces and ``.,-_/!?'+*=@$^~`` are kept; a line break
    (``\\n``, ``\\r\\n`` or ``\\r``) becomes ``<br>``; every other character becomes ``#NNN;``
    (its code point in decimal), which Mermaid draws as that character. So quotes, brackets,
    ``#``, ``%%``, ``;``, ``:``, ``|``, ``<`` and ``-->`` in a description stay text; so do leading and
    trailing spaces (as ``#32;``), which Mermaid would trim. Where Mermaid draws
    one line only (a gantt bar), ``line_break=" "``.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    written = line_break.join("".join(_mermaid_char(char) for char in line) for line in lines)
    # Mermaid trims a label's outer spaces, and a gantt section or bar of spaces alone does not parse.
    inner = written.strip(" ")
    before = len(written) - len(written.lstrip(" "))
    after = len(written) - len(written.rstrip(" ")) if inner else 0
    return "#32;" * before + inner + "#32;" * after


def _mermaid_char(char: str) -> str:
    return char if char.isalnum() or char in _MERMAID_SAFE else f"#{ord(char)};"


def dot_text(text: str) -> str:
    """``text`` as a DOT double-quoted string: ``\\`` and ``"`` escaped, line breaks as ``\\n`` (centred lines),
    ``&`` as ``&amp;`` (Graphviz draws ``&lt;`` and the other entities as their characters), and NUL, which
    no DOT string holds, as its picture ``\u2400``."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("&", "&amp;").replace("\x00", "\u2400")
    escaped = escaped.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    return f'"{escaped}"'


def _status(value: object) -> str:
    return str(getattr(value, "value", value))


def _step_label(step: PlanStep) -> tuple[str, str]:
    return step.description, _status(step.status)


def _positions(steps: Sequence[PlanStep]) -> dict[str, int]:
    """Each step id and its first position (a schema-only plan may list an id twice)."""
    found: dict[str, int] = {}
    for position, step in enumerate(steps):
        found.setdefault(step.step_id, position)
    return found


def _edges(steps: Sequence[PlanStep]) -> tuple[list[tuple[str, str]], list[str]]:
    """One (from, to) node pair per dependency, dependency first; and the ids named but not listed.

    A dependency that names no step (possible only under schema-only validation) gets a node of
    its own, ``m<k>``, drawn dashed, so that every dependency has its edge.
    """
    positions = _positions(steps)
    missing: dict[str, int] = {}
    edges: list[tuple[str, str]] = []
    for position, step in enumerate(steps):
        for dependency in step.dependencies or ():
            if dependency in positions:
                edges.append((f"s{positions[dependency]}", f"s{position}"))
            else:
                edges.append((f"m{missing.setdefault(dependency, len(missing))}", f"s{position}"))
    return edges, list(missing)


def _graph(
    steps: Sequence[PlanStep], step: Callable[[int, str, str], str], missing: Callable[[int, str], str], edge: str
) -> list[str]:
    """The lines of a plan's graph: a node per step, one per dependency not in the plan, then an edge per dependency.

    ``step`` writes a step's node from its position, description and status, ``missing`` a missing
    dependency's node from its number and step id, and ``edge`` is the format of an edge (source, target).
    """
    edges, absent = _edges(steps)
    lines = [step(position, *_step_label(each)) for position, each in enumerate(steps)]
    lines.extend(missing(k, step_id) for k, step_id in enumerate(absent))
    lines.extend(edge.format(source, target) for source, target in edges)
    return lines


def plan_mermaid(plan: Plan) -> str:
    """The plan as a Mermaid flowchart: a node per step (its description and status), an edge per dependency.

    Nodes are ``s0``, ``s1``... in the order of ``steps``; an edge goes from the dependency to
    the step that waits for it; each status is a class (``classDef``) with its colours.
    """
    lines = ["flowchart TD"]
    lines += _graph(
        plan.steps,
        lambda position, description, status: (
            f'    s{position}["{mermaid_text(description)}{_LINE_BREAK}{mermaid_text(status)}"]:::{status}'
        ),
        lambda k, step_id: f'    m{k}["{mermaid_text(step_id)}{_LINE_BREAK}not a step of the plan"]:::missing',
        "    {} --> {}",
    )
    lines.extend(
        f"    classDef {status} fill:{fill},stroke:{stroke}" for status, (fill, stroke) in _STEP_COLOURS.items()
    )
    lines.append("    classDef missing fill:#ffffff,stroke:#c82333,stroke-dasharray:4 3")
    return "\n".join(lines) + "\n"


def plan_dot(plan: Plan) -> str:
    """The plan as a Graphviz DOT digraph: a box per step (description, status; filled by status), an edge per
    dependency.
    """
    steps = plan.steps
    # Big plans: fewer crossing-minimisation passes (mclimit), without which dot 2.42 took minutes on a
    # 1,000-step plan with long edges, and then crashed.
    crossings = ", mclimit=0.2" if len(steps) > _BIG_PLAN else ""
    lines = [
        "digraph plan {",
        f"    graph [label={dot_text(plan.title)}, labelloc=t, rankdir=TB{crossings}];",
        '    node [shape=box, style="rounded,filled", fontname="Helvetica"];',
    ]
    lines += _graph(
        steps,
        _dot_step,
        lambda k, step_id: (
            f'    m{k} [label={dot_text(step_id + chr(10) + "not a step of the plan")}, style=dashed, color="#c82333"];'
        ),
        "    {} -> {};",
    )
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot_step(position: int, description: str, status: str) -> str:
    fill, stroke = _STEP_COLOURS.get(status, ("#ffffff", "#000000"))
    label = dot_text(f"{description}\n{status}")
    return f'    s{position} [label={label}, fillcolor="{fill}", color="{stroke}"];'


def _latest(trace: Trace) -> int | None:
    """The trace's last instant (ns): its end, else the latest stamp of it or of a segment; None if it has none."""
    if trace.finished_at is not None:
        return nanoseconds(trace.finished_at)
    stamps = [trace.started_at, *(t for s in trace.segments or () for t in (s.started_at, s.finished_at))]
    known = [nanoseconds(stamp) for stamp in stamps if stamp is not None]
    return max(known, default=None)


def _depths(trace: Trace) -> list[tuple[TraceSegment, int, int]]:
    """Each segment in ``walk`` order with its depth (0 for a root) and the position of its root."""
    depth: dict[str, int] = {}
    root: dict[str, int] = {}
    found: list[tuple[TraceSegment, int, int]] = []
    for segment in trace.walk():
        parent = segment.parent_segment_id
        depth[segment.segment_id] = 0 if parent is None else depth[parent] + 1
        root[segment.segment_id] = len(found) if parent is None else root[parent]
        found.append((segment, depth[segment.segment_id], root[segment.segment_id]))
    return found


def trace_mermaid(trace: Trace) -> str:
    """The trace as a Mermaid gantt chart: a bar per segment that started, in a section per root segment.

    Bars come in ``walk`` order (parents before children), each child's label indented by its
    depth (``↳``). A bar runs from ``started_at`` to ``finished_at`` (a segment still running,
    to the trace's last instant) and is tagged by status: ``done``, ``active`` (running) or
    ``crit`` (failed). Times are milliseconds since the epoch (``dateFormat x``).
    """
    latest = _latest(trace)
    title = f"trace {trace.trace_id} {_status(trace.status)}"
    lines = ["gantt", f"    title {mermaid_text(title, ' ')}", "    dateFormat x", "    todayMarker off"]
    bars: list[str] = []
    section = -1
    earliest: int | None = None
    walked = _depths(trace)
    for number, (segment, depth, root) in enumerate(walked):
        if segment.started_at is None:
            continue
        start = nanoseconds(segment.started_at)
        end = nanoseconds(segment.finished_at) if segment.finished_at is not None else max(latest or start, start)
        earliest = start if earliest is None else min(earliest, start)
        if root != section:
            section = root
            bars.append(f"    section {mermaid_text(walked[root][0].label, ' ') or '#32;'}")
        tag = _SEGMENT_TAGS.get(_status(segment.status), "done")
        name = "\u00a0\u00a0" * max(depth - 1, 0) + ("↳ " if depth else "") + segment.label
        bars.append(f"    {_bar_text(name)}:{tag}, b{number}, {start // 1_000_000}, {end // 1_000_000}")
    short = earliest is not None and latest is not None and latest - earliest < 60 * NANOS_PER_SECOND
    lines.append("    axisFormat " + ("%H:%M:%S.%L" if short else "%H:%M:%S"))
    return "\n".join([*lines, *bars]) + "\n"


def _bar_text(name: str) -> str:
    """A gantt bar's name as Mermaid text that no gantt keyword can start: its first letter as an entity code.

    The gantt grammar reads a line that begins with ``title``, ``section``, ``excludes``, ``click``,
    ``dateFormat``... (in any case) as that statement, so a bar named ``Title page`` would be the chart's
    title; ``#84;itle page`` is a bar, and Mermaid draws it as ``Title page``.
    """
    text = mermaid_text(name, " ") or "#32;"
    return f"#{ord(text[0])};{text[1:]}" if text[0].isascii() and text[0].isalpha() else text


def dialog_mermaid(dialog: Dialog) -> str:
    """The dialog as a Mermaid sequence diagram: a participant per role, an arrow per message, in order.

    A message goes from its role to the role that spoke last before it (the first message, to
    the next role that speaks; a dialog of one role, to itself). Texts longer than 160
    characters are cut, with ``…``; the timestamps are left out.
    """
    roles = [_status(message.role) for message in dialog.messages]
    order = list(dict.fromkeys(roles))
    lines = ["sequenceDiagram", *(f"    participant r{k} as {mermaid_text(role)}" for k, role in enumerate(order))]
    for position, message in enumerate(dialog.messages):
        speaker = roles[position]
        earlier = [role for role in reversed(roles[:position]) if role != speaker]
        later = [role for role in roles[position + 1 :] if role != speaker]
        listener = (earlier or later or [speaker])[0]
        text = message.content
        if len(text) > _LONGEST_MESSAGE:
            text = text[:_LONGEST_MESSAGE] + "…"
        lines.append(f"    r{order.index(speaker)}->>r{order.index(listener)}: {mermaid_text(text) or '#32;'}")
    return "\n".join(lines) + "\n"


def documents_mermaid(nodes: Sequence[str], edges: Iterable[tuple[int, int, str]]) -> str:
    """A Mermaid flowchart of documents: node ``d<k>`` labelled ``nodes[k]``, an arrow per (from, to, label)."""
    lines = ["flowchart LR", *(f'    d{k}["{mermaid_text(label)}"]' for k, label in enumerate(nodes))]
    lines.extend(f'    d{source} -->|"{mermaid_text(label)}"| d{target}' for source, target, label in edges)
    return "\n".join(lines) + "\n"
