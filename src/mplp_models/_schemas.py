"""The frozen JSON Schemas the models are generated from, by model name (``mplp-models schema``)."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from mplp_models import _public
from mplp_models._kinds import KINDS, SCHEMA_ONLY_FILES

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

__all__ = ["SCHEMA_FILES", "schema_bytes", "schema_id", "schema_name"]

SCHEMA_FILES: dict[str, str] = {**{kind.name: kind.schema for kind in KINDS}, **SCHEMA_ONLY_FILES}
"""Each model that has a schema file of its own, and that file under ``schemas/`` (from the registry, ``_kinds``).

``CommonTypes`` is the file of shared definitions (``Ref``, ``RefModule``, ``Governance``).
"""


def _defined_in() -> dict[str, str]:
    """Each public name that lives inside another model's schema file, and that model (``schema PlanStep`` points
    there)."""
    # codegen writes schemas/a/v1.0/b-c.schema.json as the module a.v1_0.b_c_schema.
    owner = {_module_of(path): name for name, path in SCHEMA_FILES.items()}
    prefix = _public.GENERATED
    found = {
        name: owner[location.removeprefix(prefix)]
        for name, location in {**_public.LOCATIONS, **_public.LITERALS}.items()
        if location.startswith(prefix) and name not in SCHEMA_FILES
    }
    # The governance block is written out in every module schema but Plan's (codegen makes it one
    # class, kept in common-types): the Dialog schema is where it was first.
    return {**found, **dict.fromkeys(_GOVERNANCE, "Dialog")}


_GOVERNANCE = ("Governance", "DialogGovernance")


def _module_of(path: str) -> str:
    return path.removesuffix(".json").replace(".", "_").replace("-", "_").replace("/", ".")


def schema_name(name: str) -> str:
    """The key of ``SCHEMA_FILES`` that ``name`` means (any case); a ``LookupError`` that says where to look if none."""
    defined_in = _defined_in()
    by_folded = {key.casefold(): key for key in (*SCHEMA_FILES, *defined_in)}
    key = by_folded.get(name.casefold())
    if key in SCHEMA_FILES:
        return key
    if key is not None:
        owner = defined_in[key]
        if key in _GOVERNANCE:
            raise LookupError(
                f"{key} is the governance block of every module schema but Plan's: run `schema {owner}`, say"
            )
        raise LookupError(f"{key} is defined inside the schema of {owner}: run `schema {owner}`")
    raise LookupError(f"no schema named {name!r}; one of: {', '.join(SCHEMA_FILES)}")


def schema_bytes(name: str) -> bytes:
    """The frozen schema file of model ``name`` (a key of ``SCHEMA_FILES``), byte for byte."""
    return _root().joinpath(*SCHEMA_FILES[name].split("/")).read_bytes()


def _root() -> Traversable:
    # A wheel carries the schemas as package data (pyproject's force-include);
    # a source checkout or editable install reads the repository's own folder.
    packaged = resources.files("mplp_models").joinpath("_schema_files")
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "schemas"


def schema_id(name: str) -> str:
    """The ``$id`` of the schema file of ``name`` (a key of ``SCHEMA_FILES``); for a file without one, its ``file:``
    URI.

    The file URI is the base a validator reading ``schemas/`` from disk gives it, and the one the bundle uses
    (the Cortex code mode's schemas have no ``$id``).
    """
    import json

    found: str = json.loads(schema_bytes(name)).get("$id", f"file:///{SCHEMA_FILES[name]}")
    return found
