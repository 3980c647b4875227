"""The version matrix (``make test-matrix``): the test suite on the lowest and on the newest runtime
dependencies.

* ``lowest``: Python 3.10 with the floors of ``[project.dependencies]`` exactly (``pydantic>=2.11``
  -> ``pydantic==2.11``, which brings the pydantic-core it pins), read from pyproject.toml so that a
  raised floor is tested as soon as it is declared.
* ``newest``: Python 3.13 with the newest release of every dependency that the pins allow.

Both install the package with the ``dev`` dependency group (the test tools, pinned) and run pytest; the type
checks and the docs build are not part of the matrix (``make test`` runs them), the tests of the
docs' Python blocks are. Arguments after ``--`` go to pytest: ``make test-matrix ARGS="-x -k plan"``.
Interpreters are found on PATH as ``python3.10`` and ``python3.13``; none is downloaded.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nox

if sys.version_info >= (3, 11):
    import tomllib
else:  # nox depends on tomli there
    import tomli as tomllib

nox.options.default_venv_backend = "uv"
nox.options.error_on_missing_interpreters = True
nox.needs_version = ">=2026.10.20"  # the pin of the dev group (download_python, uv backend)

PROJECT_FILE = tomllib.loads(Path(__file__).with_name("pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PROJECT_FILE["project"]
# Dev dependencies that cannot be installed beside the floors, and the tests they drive (left out of the
# lowest session; they run in `make test` and in the newest session). datamodel-code-generator 0.89.0
# needs typing-extensions>=4.16; it only drives the drift check, which does not depend on the runtime
# versions. The openai and anthropic SDKs need typing-extensions>=4.14, pydantic-ai pydantic>=2.12: the
# package never imports them, the tests hold the chat formats and mplp_models.llm to them.
NOT_WITH_FLOORS: dict[str, tuple[str, ...]] = {
    "datamodel-code-generator": ("tests/test_codegen.py",),
    "openai": ("tests/test_chat_sdk.py", "tests/test_llm_sdks.py"),
    "anthropic": ("tests/test_chat_sdk.py", "tests/test_llm_sdks.py"),
    "pydantic-ai-slim": ("tests/test_llm_pydantic_ai.py",),
}


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def floors() -> list[str]:
    """``name==lowest`` for every runtime dependency (each must declare its floor with ``>=``)."""
    pins = []
    for requirement in PROJECT["dependencies"]:
        floor = re.search(r">=\s*([^,;\s]+)", requirement)
        if floor is None:
            raise ValueError(f"{requirement!r} declares no floor (>=)")
        pins.append(f"{_name(requirement)}=={floor.group(1)}")
    return pins


def versions(session: nox.Session) -> None:
    session.run(
        "python",
        "-c",
        "import sys; from importlib.metadata import version as v; print('python', sys.version.split()[0]); "
        "[print(n, v(n)) for n in ('pydantic', 'pydantic-core', 'orjson', 'typing-extensions', 'hypothesis')]",
    )


@nox.session(python="3.10", download_python="never")
def lowest(session: nox.Session) -> None:
    """Python 3.10, the declared floors of pydantic, orjson and typing-extensions."""
    dev = [r for r in PROJECT_FILE["dependency-groups"]["dev"] if _name(r) not in NOT_WITH_FLOORS]
    session.install("-e", ".", *dev, *floors())
    versions(session)
    ignored = [f"--ignore={path}" for path in sorted({path for paths in NOT_WITH_FLOORS.values() for path in paths})]
    # typing-extensions 4.12 holds anyio (fastapi's) below 4.15, whose pytest plugin imports a name
    # that pytest 9.2 deprecates: the warning is an error here. No test uses that plugin.
    session.run("python", "-m", "pytest", "-p", "no:anyio", *ignored, *session.posargs)


@nox.session(python="3.13", download_python="never")
def newest(session: nox.Session) -> None:
    """Python 3.13, the newest release of everything (uv resolves to the newest by default)."""
    session.install("--upgrade", "--group", "dev", "-e", ".")
    versions(session)
    session.run("python", "-m", "pytest", *session.posargs)
