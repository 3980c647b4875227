"""What the command line's subcommands share: reading a path or stdin, and the names of the models.

Each subcommand has its own module; these two helpers belong to none of them.
"""

from __future__ import annotations

import sys
from contextlib import AbstractContextManager, nullcontext
from functools import cache
from typing import IO

__all__ = ["model_names", "open_input"]


def open_input(path: str) -> AbstractContextManager[IO[bytes]]:
    """A binary stream of file ``path``, or stdin for ``-`` (which leaving the context does not close)."""
    if path == "-":
        return nullcontext(sys.stdin.buffer)
    return open(path, "rb")


@cache
def model_names() -> frozenset[str]:
    """The public model names, which ``--kind`` takes and error titles carry."""
    import mplp_models
    from mplp_models._base import MplpModel  # here: listing the subcommands needs no model

    return frozenset(
        name
        for name in mplp_models.__all__
        if isinstance(kind := getattr(mplp_models, name), type)
        and issubclass(kind, MplpModel)
        and kind is not MplpModel
    )
