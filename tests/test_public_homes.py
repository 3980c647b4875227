"""Where the public names live: the root, ``mplp_models.literals`` and ``mplp_models.chat``.

The root's earlier names for the literals and the chat formats still work, with a warning.
"""

from __future__ import annotations

import inspect
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
    assert len(mm.__all__) < 140
    assert not [name for name in mm.__all__ if name.endswith("Value") or name.startswith(("OpenAI", "Anthropic"))]
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
