"""What the command line's subcommands share: reading a path or stdin, the names of the models, and how a
document's problems are written.

Each subcommand has its own module; these helpers belong to none of them.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Iterable
from contextlib import AbstractContextManager, nullcontext
from typing import IO, TYPE_CHECKING

from mplp_models._public import model_names  # the library's fact, which --kind reads too

if TYPE_CHECKING:  # a name for the annotation: --kind's check loads no more than _public
    from mplp_models._errors import ErrorEntry

__all__ = ["model_names", "open_input", "problems"]


def open_input(path: str) -> AbstractContextManager[IO[bytes]]:
    """A binary stream of file ``path``, or stdin for ``-`` (which leaving the context does not close).

    Raises:
        OSError: The file cannot be opened, or ``path`` is ``-`` and the command was started with
            stdin closed (``<&-``), so that Python has no ``sys.stdin``.
    """
    if path == "-":
        if sys.stdin is None:  # typeshed says never None; it is, with stdin closed
            raise OSError(errno.EBADF, "standard input is closed")
        return nullcontext(sys.stdin.buffer)
    return open(path, "rb")


def problems(errors: Iterable[ErrorEntry]) -> str:
    """A document's problems on one line: ``/pointer: message``, separated by ``; ``; one at the root (pointer
    ``""``) is its message alone."""
    return "; ".join(
        f"{entry['pointer']}: {entry['message']}" if entry["pointer"] else entry["message"] for entry in errors
    )
