"""The strict verdict on an open object, as ``CanonicalJSONError`` words it, for the tests of the writing's screens."""

from __future__ import annotations

from typing import Any

import mplp_models as mm
from mplp_models._json_values import first_problem


def refuse_non_json(value: Any, location: tuple[object, ...], max_depth: int) -> None:
    """A ``CanonicalJSONError`` naming the first place in ``value`` (at ``location``) that the reading refuses."""
    problem = first_problem(value, max_depth)
    if problem is not None:
        raise mm.CanonicalJSONError(problem.message(), (*location, *problem.location))
