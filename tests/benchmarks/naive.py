"""The naive peer: what datamodel-code-generator makes of ``schemas/`` with its defaults, the floor of any pydantic SDK.

Generated at bench time into a temporary folder (never committed), with the
pinned generator of the dev group and nothing but the output model type set:
``datamodel-codegen --input schemas --input-file-type jsonschema
--output-model-type pydantic_v2.BaseModel``. Its models are lax and inexact
(no strict JSON, no rules beyond the schema, no exact numbers), which is why
they are the floor: this SDK's targets are ratios to them.
"""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from pydantic import BaseModel

from mplp_models._kinds import KINDS, Kind

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "naive_mplp"  # the generated package's name, under the folder given to generate()


def generate(folder: Path) -> Path:
    """Generate the naive models of every schema into ``folder / PACKAGE``; returns ``folder`` (the import root)."""
    command = [
        str(Path(sys.executable).with_name("datamodel-codegen")),
        "--input",
        str(ROOT / "schemas"),
        "--input-file-type",
        "jsonschema",
        "--output",
        str(folder / PACKAGE),
        "--output-model-type",
        "pydantic_v2.BaseModel",
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"datamodel-codegen failed:\n{done.stderr}")
    return folder


def module_name(kind: Kind) -> str:
    """The generated module of a kind's schema file (the generator's file naming: dots and dashes to underscores)."""
    parts = kind.schema.removesuffix(".json").split("/")
    return ".".join([PACKAGE, *(part.replace(".", "_").replace("-", "_") for part in parts)])


def model_of(module: ModuleType, kind: Kind) -> type[BaseModel]:
    """The top-level model of a generated module.

    That is its one model with the kind's id field that is not a properties-only helper.

    The generator names classes after the schema's title, so they are found by their fields instead.
    """
    found = [
        cls
        for name, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, BaseModel)
        and cls.__module__ == module.__name__
        and kind.id_field in cls.model_fields
        and not name.endswith("CoreProperties")
    ]
    if len(found) != 1:
        raise SystemExit(f"no single top-level naive model for {kind.name}: {[cls.__name__ for cls in found]}")
    return found[0]


def models(folder: Path) -> dict[str, type[BaseModel]]:
    """The naive model of every kind of ``mplp_models._kinds.KINDS`` that imports, by ``Kind.name``, from ``folder``."""
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    found: dict[str, type[BaseModel]] = {}
    for kind in KINDS:
        try:
            module = importlib.import_module(module_name(kind))
        except ImportError:  # the generator's defaults need extras (the git event: email-validator for EmailStr)
            continue
        found[kind.name] = model_of(module, kind)
    return found


def first_read_code(folder: Path, kind: Kind) -> str:
    """``python -c`` code: import the naive model of a kind and read the payload file given as ``sys.argv[1]``."""
    module = importlib.import_module(module_name(kind))
    cls = model_of(module, kind)
    return (
        f"import sys; sys.path.insert(0, {str(folder)!r}); "
        f"from {module.__name__} import {cls.__name__} as M; "
        "M.model_validate_json(open(sys.argv[1], 'rb').read())"
    )
