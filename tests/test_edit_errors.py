"""EditError: one error for every refused edit and builder, its codes, and the page that lists them.

docs/edit-errors.md lists every code: the table of the edit codes is held to ``EDIT_CODES``,
and the table of rule codes to the rules the edited modules' source yields (read from the
source's ``RuleViolation`` and ``duplicate_ids`` calls, not from a run). Each refusal kind is
checked on every module that has it, with the code, the pointer and the class the page gives.
"""

from __future__ import annotations

import ast
import pickle
import re
from collections.abc import Callable
from typing import Any

import pytest
from conftest import ROOT, fixture
from pydantic import ValidationError

import mplp_models as mm
from mplp_models._errors import EDIT_CODES

PAGE = (ROOT / "docs" / "edit-errors.md").read_text(encoding="utf-8")
EDITED = ("_plan.py", "_trace.py", "_dialog.py", "_module_bases.py")


def table_after(heading_line: str) -> list[list[str]]:
    """The rows of the first table after the line that starts with ``heading_line``, cells stripped."""
    lines = PAGE.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(heading_line))
    rows = []
    for line in lines[start:]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif rows:
            break
    return rows[2:]  # past the head and the rule


def test_the_page_lists_every_edit_code_and_what_it_says() -> None:
    rows = table_after("| code | refused |")
    assert {cell.strip("`"): text.replace("`", "") for cell, text in rows} == {
        code: text.replace("`", "") for code, text in EDIT_CODES.items()
    }


def rule_codes_in_source() -> set[str]:
    found: set[str] = set()
    for name in EDITED:
        tree = ast.parse((ROOT / "src" / "mplp_models" / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            names = {"RuleViolation": 1, "duplicate_ids": 2}  # where each takes the code (or the id field)
            argument = node.args[names[node.func.id]] if node.func.id in names else None
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.add(argument.value if node.func.id == "RuleViolation" else f"duplicate_{argument.value}")
    return found


def test_the_page_lists_every_rule_code_of_the_edited_modules() -> None:
    listed = {code for codes, _ in table_after("| rule codes") for code in re.findall(r"`([a-z_]+)`", codes)}
    assert listed == rule_codes_in_source()


def test_an_edit_code_not_in_the_table_is_a_bug_of_the_sdk() -> None:
    with pytest.raises(AssertionError, match="not an edit code"):
        mm.EditError("made_up", "x")


def context() -> mm.Context:
    return mm.Context.new("C", domain="d", environment="test", at="2026-03-02T09:00:00Z")


def refusal(edit: Any) -> mm.EditError:
    with pytest.raises(mm.EditError) as caught:
        edit()
    return caught.value


def test_an_unknown_part_is_an_unknown_part_error_on_every_module() -> None:
    plan = mm.Plan.new(context(), title="P", objective="O", steps=["one"])
    trace = mm.Trace.new(context())
    collab = mm.Collab.model_validate(fixture(mm.Collab))
    network = mm.Network.model_validate(fixture(mm.Network))
    core = mm.Core.model_validate(fixture(mm.Core))
    cases: dict[tuple[str, str], list[Callable[[], object]]] = {
        ("unknown_step", "/steps"): [lambda: plan.step("x"), lambda: plan.remove_step("x")],
        ("unknown_segment", "/segments"): [lambda: trace.segment("x"), lambda: trace.transition_segment("x", "failed")],
        ("unknown_participant", "/participants"): [
            lambda: collab.participant("x"),
            lambda: collab.remove_participant("x"),
        ],
        ("unknown_node", "/nodes"): [lambda: network.node("x"), lambda: network.update_node("x", name=None)],
        ("unknown_module", "/modules"): [lambda: core.module("dialog"), lambda: core.remove_module("dialog")],
    }
    for (code, pointer), edits in cases.items():
        for edit in edits:
            error = refusal(edit)
            assert isinstance(error, mm.UnknownPartError) and isinstance(error, KeyError)
            assert isinstance(error, ValueError) and isinstance(error, LookupError)
            assert (error.code, error.pointer) == (code, pointer)
            assert error.errors() == [{"pointer": pointer, "code": code, "message": str(error)}]
            assert "'x'" in str(error) or "'dialog'" in str(error)
            assert not str(error).startswith(('"', "'"))  # a KeyError's repr quotes would


def test_removing_the_last_member_is_the_same_refusal_everywhere() -> None:
    plan = mm.Plan.new(context(), title="P", objective="O", steps=["one"])
    collab = mm.Collab.new(
        context(),
        title="T",
        purpose="P",
        mode="pair",
        participants=[mm.CollabParticipant(participant_id="a", kind="agent")],
    )
    core = mm.Core.model_validate({**fixture(mm.Core), "modules": fixture(mm.Core)["modules"][:1]})
    for edit, pointer in (
        (lambda: plan.remove_step(plan.steps[0].step_id), "/steps"),
        (lambda: collab.remove_participant("a"), "/participants"),
        (lambda: core.remove_module("context"), "/modules"),
    ):
        error = refusal(edit)
        assert type(error) is mm.EditError and (error.code, error.pointer) == ("too_short", pointer)
        assert error.__cause__ is None and "only one" in error.message
    network = mm.Network.model_validate(fixture(mm.Network))
    nodes = network.nodes or ()
    for node in nodes:  # a network may lose its last node (no minItems)
        network = network.remove_node(node.node_id)
    assert network.nodes == ()


def test_a_refusal_of_the_rules_or_the_schema_carries_the_validation_error() -> None:
    collab = mm.Collab.model_validate(fixture(mm.Collab))
    confirm = mm.Confirm.model_validate(fixture(mm.Confirm))
    message = mm.InboxMessage.model_validate(fixture(mm.InboxMessage))
    cases = {
        ("before_created", "/updated_at"): lambda: message.transition("archived", "2000-01-01T00:00:00Z"),
        ("date_time", "/updated_at"): lambda: message.transition("archived", "yesterday"),
        ("duplicate_participant_id", "/participants/2/participant_id"): lambda: collab.update_participant(
            "maria", participant_id="planner"
        ),
        ("enum", "/participants/0/kind"): lambda: collab.update_participant("planner", kind="robot"),  # type: ignore[arg-type]
        ("decided_before_request", "/decisions/2/decided_at"): lambda: confirm.decide(
            "approved", by_role="r", at="2000-01-01T00:00:00Z"
        ),
        ("string_too_short", "/title"): lambda: mm.Context.new("", domain="d", environment="e"),
        ("too_short", "/steps"): lambda: mm.Plan.new(context(), title="P", objective="O", steps=[]),
    }
    for (code, pointer), edit in cases.items():
        error = refusal(edit)
        assert isinstance(error.__cause__, ValidationError), code
        assert (error.code, error.pointer) == (code, pointer)
        assert error.errors() == mm.errors_as_json(error.__cause__) == mm.errors_as_json(error)


def test_errors_as_json_of_a_refusal_without_a_cause_is_its_one_entry() -> None:
    # docs/edit-errors.md: errors_as_json takes an EditError too; anything else is a TypeError.
    error = refusal(lambda: mm.Trace.new(context()).transition("done"))  # type: ignore[arg-type]
    assert mm.errors_as_json(error) == [{"pointer": "/status", "code": "unknown_status", "message": error.message}]
    with pytest.raises(TypeError, match="errors_as_json takes a ValidationError or an EditError, not ValueError"):
        mm.errors_as_json(ValueError("no"))  # type: ignore[arg-type]


def test_the_message_counts_the_problems_after_the_first() -> None:
    # The first problem's message, then how many more errors() lists: one is "1 more problem".
    two = refusal(lambda: mm.Context.new("C", domain="d", environment="e", at="yesterday"))
    assert len(two.errors()) == 2 and two.message.endswith("(and 1 more problem: errors())")
    confirm = mm.Confirm.model_validate(fixture(mm.Confirm))
    one = refusal(lambda: confirm.decide("approved", by_role="r", at="2000-01-01T00:00:00Z"))
    assert len(one.errors()) == 1 and "more problem" not in one.message


def test_the_lifecycle_and_the_builders_refuse_with_their_codes() -> None:
    trace = mm.Trace.new(context())
    plan = mm.Plan.new(mm.Context.new("Other", domain="d", environment="e"), title="P", objective="O", steps=["a"])
    pending = mm.Confirm.model_validate(fixture(mm.Confirm))
    confirm = pending.decide("cancelled", by_role="r")
    cases = {
        ("illegal_move", "/status"): lambda: confirm.decide("approved", by_role="r"),
        ("unknown_status", "/status"): lambda: trace.transition("done"),  # type: ignore[arg-type]
        ("not_an_end", "/status"): lambda: trace.finish("running"),  # type: ignore[arg-type]
        ("nothing_to_stamp", "/status"): lambda: trace.transition("pending", at="2026-03-02T09:00:00Z"),
        ("plan_context", "/context_id"): lambda: mm.Trace.new(context(), plan),
        ("unknown_decision", "/decisions"): lambda: pending.decide("pending", by_role="r"),  # type: ignore[arg-type]
    }
    for (code, pointer), edit in cases.items():
        error = refusal(edit)
        assert (error.code, error.pointer, error.__cause__) == (code, pointer, None), code
        assert error.errors() == [{"pointer": pointer, "code": code, "message": error.message}]


def test_an_edit_error_pickles_as_itself() -> None:
    error = refusal(lambda: mm.Trace.new(context()).segment("x"))
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is mm.UnknownPartError and (again.code, again.pointer, str(again)) == (
        error.code,
        error.pointer,
        str(error),
    )
    ruled = refusal(lambda: mm.Context.new("", domain="d", environment="e"))
    assert pickle.loads(pickle.dumps(ruled)).errors() == ruled.errors()
