"""The public surface: what imports from mplp_models, and what it is."""

from __future__ import annotations

import ast
import enum
import inspect
import sys
import typing
from pathlib import Path

import pytest
from conftest import OPEN_MODELS
from pydantic import BaseModel, RootModel

import mplp_models as mm
from mplp_models._public import defined_in

ISSUE_NAMES = [
    "Plan",
    "PlanStep",
    "PlanStatus",
    "PlanStepStatus",
    "Dialog",
    "DialogMessage",
    "DialogStatus",
    "DialogMessageRole",
    "Metadata",
    "CrossCuttingConcern",
    "Ref",
    "RefModule",
    "Event",
    "TraceBase",
    "LearningSample",
    "TokenUsage",
    "AgentTokenUsage",
    "UserFeedback",
    "ErrorInfo",
    "LearningSampleTimestamps",
    "InboxMessage",
    "InboxMessageType",
    "InboxMessageStatus",
    "MplpId",
    "Timestamp",
    "Context",
    "ContextStatus",
    "Confirm",
    "ConfirmDecision",
    "ConfirmStatus",
    "Trace",
    "TraceSegment",
    "TraceStatus",
    "Role",
    "Extension",
    "ExtensionStatus",
    "Collab",
    "CollabParticipant",
    "CollabStatus",
    "Core",
    "ModuleDescriptor",
    "CoreStatus",
    "Network",
    "NetworkNode",
    "NetworkStatus",
    "Governance",
]


def test_every_promised_name_is_exported() -> None:
    for name in ISSUE_NAMES:
        assert name in mm.__all__, name
        assert getattr(mm, name) is not None


def test_all_lists_only_what_exists() -> None:
    assert sorted(mm.__all__) == sorted(set(mm.__all__))
    for name in mm.__all__:
        assert hasattr(mm, name), name


def test_no_root_model_in_the_public_api() -> None:
    for name in mm.__all__:
        value = getattr(mm, name)
        if inspect.isclass(value):
            assert not issubclass(value, RootModel), name


def test_models_share_the_base_and_forbid_unknown_keys() -> None:
    models = [getattr(mm, name) for name in mm.__all__ if inspect.isclass(getattr(mm, name))]
    models = [model for model in models if issubclass(model, BaseModel)]
    assert len(models) >= 15
    for model in models:
        assert issubclass(model, mm.MplpModel)
        expected = "allow" if model.__name__ in OPEN_MODELS else "forbid"
        assert model.model_config.get("extra") == expected, model


def test_status_enums_are_str_valued() -> None:
    for enum_type in (
        mm.PlanStatus,
        mm.PlanStepStatus,
        mm.DialogStatus,
        mm.DialogMessageRole,
        mm.InboxMessageStatus,
        mm.InboxMessageType,
        mm.RefModule,
        mm.CrossCuttingConcern,
    ):
        assert issubclass(enum_type, str) and issubclass(enum_type, enum.Enum)
    assert mm.PlanStatus.draft == "draft"
    assert [status.value for status in mm.PlanStatus] == [
        "draft",
        "proposed",
        "approved",
        "in_progress",
        "completed",
        "cancelled",
        "failed",
    ]
    assert len(mm.CrossCuttingConcern) == 11


def test_fields_are_typed_precisely() -> None:
    hints = typing.get_type_hints(mm.PlanStep, include_extras=True)
    assert "Any" not in str(hints["order_index"])
    plan_hints = typing.get_type_hints(mm.Plan)
    assert "PlanStep" in str(plan_hints["steps"])
    assert "Timestamp" in str(typing.get_type_hints(mm.DialogMessage)["timestamp"])


def field_docstrings(model: type[BaseModel]) -> dict[str, str]:
    """The attribute docstrings of a class: the string statement right after each annotated field."""
    # Read from the module that defines it: its __module__ names the package (see _public.publish).
    tree = ast.parse(inspect.getsource(sys.modules[defined_in(model)]))
    (node,) = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == model.__name__]
    found = {}
    for statement, following in zip(node.body, node.body[1:]):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
        ):
            found[statement.target.id] = str(following.value.value).strip()
    return found


def test_every_model_and_field_has_a_docstring() -> None:
    models = [getattr(mm, name) for name in mm.__all__ if inspect.isclass(getattr(mm, name))]
    for model in [model for model in models if issubclass(model, mm.MplpModel) and model is not mm.MplpModel]:
        assert model.__doc__ and model.__doc__.strip(), model
        documented = field_docstrings(model)
        for name in model.model_fields:
            assert documented.get(name), f"{model.__name__}.{name} has no docstring"


def test_package_is_typed() -> None:
    assert (Path(mm.__file__).parent / "py.typed").exists()


def test_each_limit_is_named_by_what_it_bounds_and_the_earlier_names_still_work() -> None:
    # docs/validation.md: a JSON text nests up to 254 levels, an open object inside a model up to 128.
    assert mm.MAX_JSON_DEPTH == 254 and mm.MAX_OPEN_OBJECT_DEPTH == 128
    # docs/api.md: the earlier names still work, and warn; none is in __all__ (one name per thing).
    for earlier, current, value in (
        ("MAX_DEPTH", "MAX_JSON_DEPTH", 254),
        ("MAX_OPEN_DEPTH", "MAX_OPEN_OBJECT_DEPTH", 128),
        ("DialogGovernance", "Governance", mm.Governance),
    ):
        with pytest.warns(DeprecationWarning, match=f"mplp_models.{earlier} is deprecated: use {current}"):
            assert getattr(mm, earlier) == value
        assert earlier not in mm.__all__ and current in mm.__all__
