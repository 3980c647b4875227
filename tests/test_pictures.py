"""Pictures: plans as Mermaid flowcharts and DOT, traces as gantt charts, dialogs as sequence diagrams, sessions.

Two kinds of check. The structural ones read the text as the Mermaid and Graphviz syntax docs
define it (a node ``id["text"]``, an edge ``a --> b``, a gantt task ``name :tags, id, start, end``
after ``dateFormat x``). The others hand the text to the real parsers: mermaid's own (11, the
major version the docs site loads, under node: tests/tools/mermaid/check.mjs) reads back every
node, edge, task and message, and Graphviz's ``dot`` lays the DOT out. The expected values are
the documents' own fields and instants worked out by hand, not the code under test.
"""

from __future__ import annotations

import html
import json
import random
import re
import shutil
import subprocess
from typing import Any

import pytest
from conftest import PAYLOADS, ROOT, examples
from external_tools import MermaidParser, mermaid_parser, tools  # noqa: F401  # the fixture mermaid
from hypothesis import example, given, settings
from hypothesis import strategies as st

import mplp_models as mm
from mplp_models._pictures import dot_text, mermaid_text

PLAN = mm.Plan.from_json((PAYLOADS / "plan.json").read_bytes())
TRACE = mm.Trace.from_json((PAYLOADS / "trace.json").read_bytes())
DIALOG = mm.Dialog.from_json((PAYLOADS / "dialog.json").read_bytes())
HOSTILE = 'Tag "v2" [x] {y} (z) |a| --> b; c: d %% e #35; <b>bold</b> `code` \\ \u00fc \u6f22 \U0001f600\nsecond line'
PLACEHOLDER = re.compile("\ufb02\u00b0\u00b0(\\d+)\u00b6\u00df")  # mermaid's stand-in for an entity code #NNN;


def drawn(text: str) -> str:
    """What mermaid draws for a label it parsed: its ``<br>`` as line breaks, its entity placeholders as characters."""
    return "\n".join(PLACEHOLDER.sub(lambda m: chr(int(m.group(1))), part) for part in text.split("<br>"))


def plan_with(descriptions: list[str], dependencies: list[list[int]] | None = None) -> mm.Plan:
    """A draft plan of pending steps with these descriptions; step k depends on the steps listed at k."""
    ids = [f"a1000000-0000-4000-8000-{k:012d}" for k in range(len(descriptions))]
    steps = [
        mm.PlanStep(
            step_id=ids[k],
            description=text,
            status="pending",
            dependencies=[ids[d] for d in dependencies[k]] if dependencies and dependencies[k] else None,
        )
        for k, text in enumerate(descriptions)
    ]
    return PLAN.model_copy(update={"steps": steps, "status": "draft"})


def trace_with(labels: list[str]) -> mm.Trace:
    """The example trace with one completed root segment per label, in order, and no events."""
    segments = [
        {"segment_id": f"f6000000-0000-4000-a000-{k:012d}", "label": label, "status": "completed",
         "started_at": "2026-03-02T14:00:00Z", "finished_at": "2026-03-02T14:00:01Z"}
        for k, label in enumerate(labels)
    ]  # fmt: skip
    bare = {k: v for k, v in TRACE.to_dict().items() if k != "events"}
    return mm.Trace.model_validate({**bare, "segments": segments})


def dependency_pairs(plan: mm.Plan) -> list[tuple[int, int]]:
    position = {step.step_id: k for k, step in enumerate(plan.steps)}
    return [(position[d], k) for k, step in enumerate(plan.steps) for d in step.dependencies or ()]


# --- structure, as the syntax docs define it -------------------------------------------------------------


def test_plan_mermaid_has_a_node_per_step_and_an_edge_per_dependency() -> None:
    lines = PLAN.to_mermaid().splitlines()
    assert lines[0] == "flowchart TD"
    nodes = [line for line in lines if re.fullmatch(r'\s+s\d+\["[^"]*"\]:::\w+', line)]
    edges = [tuple(map(int, m.groups())) for line in lines if (m := re.fullmatch(r"\s+s(\d+) --> s(\d+)", line))]
    assert len(nodes) == len(PLAN.steps) == 5
    # plan.json: build after tag, test after build, notes after tag, publish after test and notes.
    assert sorted(edges) == sorted([(0, 1), (1, 2), (0, 3), (2, 4), (3, 4)])
    assert nodes[2].endswith(":::in_progress") and "Run the full test matrix" in nodes[2]


def test_plan_dot_has_a_node_per_step_and_an_edge_per_dependency() -> None:
    text = PLAN.to_dot()
    assert text.startswith("digraph plan {") and text.rstrip().endswith("}")
    assert len(re.findall(r"^\s+s\d+ \[label=", text, re.MULTILINE)) == 5
    assert sorted(re.findall(r"^\s+s(\d+) -> s(\d+);$", text, re.MULTILINE)) == sorted(
        [("0", "1"), ("1", "2"), ("0", "3"), ("2", "4"), ("3", "4")]
    )


def test_trace_gantt_has_a_bar_per_started_segment_at_its_milliseconds() -> None:
    lines = TRACE.to_mermaid().splitlines()
    assert lines[0] == "gantt" and "    dateFormat x" in lines
    bars = [m.groups() for line in lines if (m := re.fullmatch(r"\s+(.+?):(\w+), (b\d+), (\d+), (\d+)", line))]
    # trace.json: release, build and upload wheels started; announce (skipped) did not.
    # 2026-03-02T14:00:00Z is 20,514 days and 14 h after the epoch: 1,772,460,000 s.
    day = 1_772_460_000_000
    assert [(tag, int(start) - day, int(end) - day) for _, tag, _, start, end in bars] == [
        ("done", 0, 20 * 60_000 + 30_000),  # release, 14:00:00 to 14:20:30
        ("done", 60_000, 15 * 60_000),  # build, 14:01 to 14:15
        ("done", 12 * 60_000, 13 * 60_000 + 5_000),  # upload wheels, 14:12 to 15:13:05+01:00 = 14:13:05Z
    ]
    assert [line.strip() for line in lines if line.strip().startswith("section")] == ["section release"]


def test_a_running_segment_is_active_to_the_traces_last_instant_and_a_failed_one_crit() -> None:
    segments = list(TRACE.segments or ())
    segments[1] = segments[1].model_copy(update={"finished_at": None, "status": "running"})
    segments[2] = segments[2].model_copy(update={"status": "failed"})
    running = TRACE.model_copy(update={"segments": segments, "status": "running", "finished_at": None})
    bars = re.findall(r":(\w+), b\d+, (\d+), (\d+)$", running.to_mermaid(), re.MULTILINE)
    # Bars in walk order: release, build (failed), upload wheels (running: to the last instant, release's
    # end at 14:20:30, since the trace has no finished_at now).
    assert bars[1] == ("crit", "1772460060000", "1772460900000")
    assert bars[2] == ("active", "1772460720000", "1772461230000")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('say "hi"', "say #34;hi#34;"),
        ("a --> b", "a --#62; b"),
        ("[x]; y: z", "#91;x#93;#59; y#58; z"),
        ("%% not a comment", "#37;#37; not a comment"),
        ("two\nlines\r\nand\rthree", "two<br>lines<br>and<br>three"),
        ("Grüße 漢字", "Grüße 漢字"),
        ("😀", "#128512;"),
    ],
)
def test_mermaid_text_writes_entity_codes_as_the_syntax_docs_give_them(text: str, expected: str) -> None:
    # Mermaid's docs (flowchart, "Entity codes to escape characters"): #quot; or #34; is a double quote.
    assert mermaid_text(text) == expected


def test_dot_text_escapes_quotes_and_backslashes_and_breaks_lines() -> None:
    # Graphviz's docs: in a double-quoted string \" is a quote; in a label \n ends a centred line.
    assert dot_text('a "b" \\ c\nd') == '"a \\"b\\" \\\\ c\\nd"'


def test_a_dependency_on_no_step_still_has_its_edge() -> None:
    # Read against the schema alone (semantic=False), a plan may name a step it does not list.
    step = {"step_id": "a1000000-0000-4000-8000-000000000009", "description": "x", "status": "pending"}
    step["dependencies"] = ["a1000000-0000-4000-8000-000000000008"]  # type: ignore[assignment]
    plan = mm.Plan.from_json(json.dumps({**PLAN.to_dict(), "status": "draft", "steps": [step]}), semantic=False)
    assert "    m0 --> s0" in plan.to_mermaid() and "    m0 -> s0;" in plan.to_dot()


# --- the real parsers ----------------------------------------------------------------------------------


def test_mermaid_reads_the_plan_as_its_steps_and_dependencies(mermaid: MermaidParser) -> None:
    read = mermaid.read(PLAN.to_mermaid())
    assert read["ok"], read
    assert read["type"] == "flowchart-v2"
    assert [drawn(node["text"]) for node in read["nodes"]] == [f"{s.description}\n{s.status.value}" for s in PLAN.steps]
    assert [node["classes"] for node in read["nodes"]] == [[s.status.value] for s in PLAN.steps]
    edges = [(int(e["start"][1:]), int(e["end"][1:])) for e in read["edges"]]
    assert sorted(edges) == sorted(dependency_pairs(PLAN))


def test_mermaid_reads_the_trace_as_a_bar_per_started_segment(mermaid: MermaidParser) -> None:
    read = mermaid.read(TRACE.to_mermaid())
    assert read["ok"], read
    started = [s for s in TRACE.walk() if s.started_at is not None]
    assert [drawn(task["task"]).lstrip("\u00a0↳ ") for task in read["tasks"]] == [s.label for s in started]
    seconds = [mm.Timestamp(s.started_at).instant()[0] for s in started if s.started_at is not None]
    assert [task["start"] for task in read["tasks"]] == [1000 * second for second in seconds]
    assert {drawn(task["section"]) for task in read["tasks"]} == {"release"}
    assert all(task["done"] for task in read["tasks"])


def test_mermaid_reads_the_dialog_as_a_message_per_message(mermaid: MermaidParser) -> None:
    read = mermaid.read(DIALOG.to_mermaid())
    assert read["ok"], read
    assert [drawn(m["message"]) for m in read["messages"]] == [m.content for m in DIALOG.messages]
    names = {actor["name"]: actor["description"] for actor in read["actors"]}
    assert [names[m["from"]] for m in read["messages"]] == [m.role.value for m in DIALOG.messages]


def test_mermaid_reads_the_session_as_the_ids_its_documents_name(mermaid: MermaidParser) -> None:
    names = ("context", "plan", "trace", "confirm")
    documents = {name: mm.parse((PAYLOADS / f"{name}.json").read_bytes()) for name in names}
    read = mermaid.read(mm.flow_mermaid(documents))
    assert read["ok"], read
    edges = {(names[int(e["start"][1:])], names[int(e["end"][1:])], drawn(e["text"])) for e in read["edges"]}
    # From the payloads: plan and trace belong to the context, the trace records the plan, the confirm targets it.
    assert {
        ("plan", "context", "context_id"),
        ("trace", "context", "context_id"),
        ("trace", "plan", "plan_id"),
        ("confirm", "plan", "target_id"),
    } <= edges


LABELS = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=40)


@settings(max_examples=examples(quick=25, deep=500))
@given(st.lists(LABELS, min_size=1, max_size=4))
@example(labels=[HOSTILE, " padded ", "\n", "a:b", "x --> y"])
def test_mermaid_draws_any_label_as_it_is(mermaid: MermaidParser, labels: list[str]) -> None:
    # Whatever a description or label holds, the parser reads exactly that text: nothing ends a label early.
    plan = plan_with(labels, [[k - 1] if k else [] for k in range(len(labels))])
    read = mermaid.read(plan.to_mermaid())
    assert read["ok"], read
    normal = [label.replace("\r\n", "\n").replace("\r", "\n") for label in labels]
    assert [drawn(node["text"]) for node in read["nodes"]] == [f"{text}\npending" for text in normal]
    assert len(read["edges"]) == len(labels) - 1
    trace = trace_with(labels)
    read = mermaid.read(trace.to_mermaid())
    assert read["ok"], read
    # A gantt bar's name is one line (line breaks become spaces), trimmed as the gantt grammar trims it.
    assert [drawn(task["task"]).strip() for task in read["tasks"]] == [
        text.replace("\n", " ").strip() for text in normal
    ]


def test_a_thousand_step_plan_draws_in_both_formats(mermaid: MermaidParser) -> None:
    count = 1000
    picks = random.Random(1)  # each step after the first two waits for two earlier ones, anywhere before it
    plan = plan_with(
        [f"step {k}" for k in range(count)], [sorted(picks.sample(range(k), min(k, 2))) for k in range(count)]
    )
    read = mermaid.read(plan.to_mermaid())
    assert read["ok"], read
    assert len(read["nodes"]) == count and len(read["edges"]) == len(dependency_pairs(plan)) == 2 * count - 3
    laid_out = json.loads(render_dot(plan.to_dot(), "json"))
    assert len(laid_out["objects"]) == count and len(laid_out["edges"]) == 2 * count - 3


# --- Graphviz -------------------------------------------------------------------------------------------


def render_dot(text: str, output: str) -> str:
    tools()  # installs dot where it is missing
    dot = shutil.which("dot")
    assert dot is not None
    done = subprocess.run([dot, f"-T{output}"], input=text, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return done.stdout


def test_dot_lays_out_the_plan_with_every_label_as_it_is() -> None:
    plan = plan_with([HOSTILE, "Build", 'a "b"'], [[], [0], [0, 1]])
    laid_out: dict[str, Any] = json.loads(render_dot(plan.to_dot(), "json"))
    labels = [
        re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), o["label"]) for o in laid_out["objects"]
    ]
    assert labels == [f"{s.description}\npending" for s in plan.steps]
    names = [o["name"] for o in laid_out["objects"]]
    edges = sorted((int(names[e["tail"]][1:]), int(names[e["head"]][1:])) for e in laid_out["edges"])
    assert edges == sorted(dependency_pairs(plan))
    svg = render_dot(PLAN.to_dot(), "svg")
    assert svg.count('class="node"') == 5 and svg.count('class="edge"') == 5


def test_dot_draws_entities_as_written_and_a_nul_as_its_picture() -> None:
    # Graphviz draws &amp; &lt; ... in a quoted label as their characters: a description holding them is drawn as
    # it is written. No DOT string holds a NUL: it is drawn as U+2400, its picture (docs/seeing.md).
    plan = plan_with(["R&amp;D for &lt;T&gt;", "a & b", "a\x00b"])
    svg = render_dot(plan.to_dot(), "svg")
    nodes = re.findall(r'<g id="node\d+" class="node">(.*?)</g>', svg, re.DOTALL)
    texts = [[html.unescape(t) for t in re.findall(r"<text[^>]*>(.*?)</text>", node, re.DOTALL)] for node in nodes]
    assert texts == [["R&amp;D for &lt;T&gt;", "pending"], ["a & b", "pending"], ["a\u2400b", "pending"]]


# Lines that Mermaid's gantt grammar reads as statements when they begin one (in any case).
GANTT_WORDS = [
    "Title page rendering",
    "Section 2: build",
    "Excludes list update",
    "includes weekends",
    "todayMarker",
    "tickInterval 1day",
    "Click tracking",
    "dateFormat check",
    "axisFormat fix",
    "weekend friday",
    "weekday monday",
    "inclusiveEndDates",
    "topAxis",
    "accTitle: x",
    "accDescr: y",
    "accDescription of it",
]


def test_mermaid_reads_a_bar_named_like_a_gantt_statement_as_a_bar(mermaid: MermaidParser) -> None:
    trace = trace_with(GANTT_WORDS)
    read = mermaid.read(trace.to_mermaid())
    assert read["ok"], read
    assert [drawn(task["task"]).strip() for task in read["tasks"]] == GANTT_WORDS
    assert [drawn(task["section"]) for task in read["tasks"]] == GANTT_WORDS  # each root its own section


def test_the_seeing_page_shows_what_the_methods_write() -> None:
    # docs/seeing.md's pictures are the example payloads' own: a change of drawing shows on the page.
    page = (ROOT / "docs" / "seeing.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```mermaid\n(.*?)^```$", page, re.DOTALL | re.MULTILINE)
    session = {
        name: mm.parse((PAYLOADS / f"{name}.json").read_bytes()) for name in ("context", "plan", "trace", "confirm")
    }
    assert blocks == [PLAN.to_mermaid(), TRACE.to_mermaid(), DIALOG.to_mermaid(), mm.flow_mermaid(session)]
