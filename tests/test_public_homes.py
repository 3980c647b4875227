"""Where the public names live: each class reports the module users import it from, and still works.

The classes are defined in private modules (the generated ones, ``_flow``,
``_chat``...) and shown as ``mplp_models.X`` by ``_public.publish`` (or
``mplp_models.chat.X``). What reads a class's module (``typing.get_type_hints``,
``model_rebuild``, pydantic's build of a subclass, pickle) is held to what it
gave before: the annotations pydantic evaluated when it built each class, the
schemas, the payloads. The root's earlier names for the literals and the chat
formats still work, with a warning.
"""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

import mplp_models as mm
from mplp_models import _public, chat, literals

ROOT = Path(__file__).resolve().parents[1]
PUBLIC = {name: getattr(mm, name) for name in mm.__all__}
CLASSES = {name: value for name, value in PUBLIC.items() if inspect.isclass(value)}
MODELS = {name: value for name, value in CLASSES.items() if issubclass(value, BaseModel)}


def test_every_public_class_reports_the_package_as_its_module() -> None:
    assert len(CLASSES) > 100
    wrong = {name: value.__module__ for name, value in CLASSES.items() if value.__module__ != "mplp_models"}
    assert wrong == {}
    assert (
        repr(mm.Plan) == "<class 'mplp_models.Plan'>"
        and repr(mm.RuleViolation) == "<class 'mplp_models.RuleViolation'>"
    )
    assert (
        f"{type(mm.PlanStatus.draft).__module__}.{type(mm.PlanStatus.draft).__qualname__}" == "mplp_models.PlanStatus"
    )


@pytest.mark.parametrize("module", ["mplp_models.llm", "mplp_models.store", "mplp_models.otel", "mplp_models.fastapi"])
def test_every_class_of_a_public_submodule_reports_that_module(module: str) -> None:
    home = importlib.import_module(module)
    classes = {name: getattr(home, name) for name in home.__all__ if inspect.isclass(getattr(home, name))}
    # A class the root gives too (store's StoreConflict) is shown where users meet it first: the root.
    expected = {name: "mplp_models" if name in mm.__all__ else module for name in classes}
    assert classes and {name: cls.__module__ for name, cls in classes.items()} == expected


def test_the_chat_formats_report_their_own_module() -> None:
    classes = [getattr(chat, name) for name in chat.__all__ if inspect.isclass(getattr(chat, name))]
    assert len(classes) == 8 and all(cls.__module__ == "mplp_models.chat" for cls in classes)


def test_a_published_class_is_still_known_by_the_module_that_defines_it() -> None:
    assert _public.defined_in(mm.Plan) == _public.LOCATIONS["Plan"] and _public.is_generated(mm.Plan)
    assert _public.defined_in(mm.FlowReport) == "mplp_models._flow" and not _public.is_generated(mm.FlowReport)

    class MyPlan(mm.Plan, frozen=True):
        pass

    assert not _public.is_generated(MyPlan)  # a user's subclass is the user's


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_get_type_hints_reads_every_public_class(name: str) -> None:
    hints = typing.get_type_hints(CLASSES[name], include_extras=True)
    assert typing.get_type_hints(CLASSES[name]).keys() == hints.keys()
    model = MODELS.get(name)
    if model is not None:
        # The same types pydantic found when it built the class, before it was published.
        for field, info in model.model_fields.items():
            hint = hints[field]
            bare = typing.get_args(hint)[0] if typing.get_origin(hint) is typing.Annotated else hint
            assert bare == info.annotation, (name, field)


def test_get_type_hints_names_the_generated_types() -> None:
    hints = typing.get_type_hints(mm.Plan)
    assert hints["steps"] == tuple[mm.PlanStep, ...]  # as the schema says: an array of steps
    assert hints["status"] is mm.PlanStatus and hints["meta"] is mm.Metadata
    assert typing.get_type_hints(mm.FlowReport)["violations"] == tuple[mm.FlowViolation, ...]
    assert typing.get_type_hints(chat.OpenAIUserMessage)["role"] == typing.Literal["user"]


def test_a_subclass_of_a_public_model_builds_with_fields_of_its_own() -> None:
    class Reviewed(mm.Plan, frozen=True):
        reviewer: str = "nobody"

    plan = mm.Plan.from_json((ROOT / "examples" / "payloads" / "plan.json").read_bytes())
    reviewed = Reviewed.model_validate({**plan.to_dict(), "reviewer": "ana"})
    assert reviewed.reviewer == "ana" and reviewed.steps == plan.steps
    assert typing.get_type_hints(Reviewed)["reviewer"] is str
    assert typing.get_type_hints(Reviewed)["steps"] == tuple[mm.PlanStep, ...]


REBUILD = """
import json, sys
from pathlib import Path
import mplp_models as mm
from pydantic import BaseModel

payloads = sorted(Path("examples/payloads").glob("*.json"))
models = {name: getattr(mm, name) for name in mm.__all__}
models = {name: value for name, value in models.items() if isinstance(value, type) and issubclass(value, BaseModel)}
schemas = {name: model.model_json_schema() for name, model in models.items()}
read = {path.name: mm.parse(path.read_bytes()) for path in payloads}
for model in models.values():
    model.model_rebuild(force=True)
assert {name: model.model_json_schema() for name, model in models.items()} == schemas
for path in payloads:
    again = type(read[path.name]).from_json(path.read_bytes())
    assert again == read[path.name] and again.to_json() == read[path.name].to_json()
    assert type(again).model_validate(again.to_dict()) == again
print(len(models))
"""


def test_model_rebuild_of_every_public_model_keeps_its_schema_and_its_readings() -> None:
    # In a process of its own: rebuilt classes have new validators, which the other tests need not see.
    done = subprocess.run([sys.executable, "-c", REBUILD], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == len(MODELS)


# --- the literals and the chat formats, and their earlier names ------------------------------------


def test_the_modules_give_the_names_of_their_tables() -> None:
    assert sorted(literals.__all__) == sorted(_public.LITERALS) and len(literals.__all__) == 51
    assert sorted(chat.__all__) == sorted(_public.CHAT_FORMATS) and len(chat.__all__) == 10
    assert set(dir(literals)) >= set(literals.__all__)
    # Each literal is the Literal of its enum's values, in their declared order.
    for name in literals.__all__:
        enum = getattr(mm, name.removesuffix("Value"))
        assert typing.get_args(getattr(literals, name)) == tuple(member.value for member in enum), name
    with pytest.raises(AttributeError):
        literals.NoSuchValue  # type: ignore[attr-defined]  # noqa: B018


@pytest.mark.parametrize("name", sorted(_public.MOVED))
def test_an_earlier_root_name_still_works_and_warns(name: str) -> None:
    home = sys.modules[_public.MOVED[name]]
    with pytest.warns(DeprecationWarning, match=rf"mplp_models\.{name} is deprecated: import it from {home.__name__}$"):
        value = getattr(mm, name)
    assert value is getattr(home, name)
    assert name not in mm.__all__ and name not in dir(mm)
    with pytest.warns(DeprecationWarning):  # every use, not only the first
        getattr(mm, name)


def test_the_root_keeps_what_users_import_first() -> None:
    assert len(mm.__all__) <= 151  # no more names than pydantic's root exports
    enum_literals = [name for name in mm.__all__ if name.endswith("Value") and name != "JsonInputValue"]
    assert not enum_literals and not [name for name in mm.__all__ if name.startswith(("OpenAI", "Anthropic"))]
    assert {"Plan", "PlanStatus", "parse", "canonical_json", "check_flow", "Timestamp"} <= set(mm.__all__)


def test_importing_the_literals_loads_no_model() -> None:
    script = (
        "import sys\nfrom mplp_models import literals\nbefore = [m for m in sys.modules if '_generated.' in m]\n"
        "literals.PlanStatusValue\nprint(len(before), sorted(m for m in sys.modules if m.endswith('_schema')))"
    )
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    count, modules = loaded.split(" ", 1)
    assert count == "0" and "mplp_models._generated.mplp.v1_0.mplp_plan_schema" in modules


def test_the_api_reference_names_every_name_of_the_two_modules() -> None:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for module in (literals, chat):
        for name in module.__all__:
            assert f"\n::: {module.__name__}.{name}\n" in text, name


def test_the_published_schemas_keep_their_titles_and_refs() -> None:
    schema = mm.Plan.model_json_schema()
    assert schema["title"] == "Plan" and "PlanStep" in schema["$defs"]
    assert json.dumps(schema).count("mplp_models") == 0
