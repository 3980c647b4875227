"""The switch of the fast paths (``mplp_models._fastpath``), for the tests that hold them to the strict paths.

``either_path`` runs a test twice, with the fast paths on and off; import it
into the test module (``from fast_path_switch import either_path``). Tests
driven by hypothesis's ``@given`` flip the switch inside, with ``fast_paths``:
a fixture is set once per test, not per example. ``proof_holds`` asks the reading's
proof of a model read by pydantic's JSON mode, as ``_reader.read_fast`` asks it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from mplp_models import _fastpath
from mplp_models._reader import counts_agree
from mplp_models._writer import every_field_writer


@contextlib.contextmanager
def fast_paths(enabled: bool) -> Iterator[None]:
    """The fast paths on (``True``) or off within the block, every one of them, whatever the environment says."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_fastpath, "ENABLED", enabled)
        patch.setattr(_fastpath, "OFF", frozenset() if enabled else frozenset(_fastpath.NAMES))
        yield


@pytest.fixture(params=[True, False], ids=["fast", "strict"])
def either_path(request: pytest.FixtureRequest) -> Iterator[bool]:
    """The test once with the fast paths on and once with them off; the value says which."""
    enabled: bool = request.param
    with fast_paths(enabled):
        yield enabled


def proof_holds(raw: bytes, model: object) -> bool:
    """Whether ``model``, read by pydantic from ``raw`` in JSON mode, is what the strict reading gives: the counts
    ``read_fast`` asks (``counts_agree``) of the model written with every field."""
    try:
        written, unset = every_field_writer(type(model))(model)
    except TypeError:  # orjson's JSONEncodeError, or a model that is not plain
        return False
    return counts_agree(raw, raw.count(b":"), written, unset)
