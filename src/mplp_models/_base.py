"""The base class of every model: configuration and the JSON round trip they share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict
from pydantic_core import PydanticSerializationError
from typing_extensions import Self

from mplp_models._canonical import CANONICAL, dumps
from mplp_models._decode import load_json

__all__ = ["SCHEMA_ONLY", "MplpModel"]

SCHEMA_ONLY: Mapping[str, Any] = {"mplp_models.semantic": False}
"""Validation context that skips the rules beyond the schemas: ``Plan.model_validate(data, context=SCHEMA_ONLY)``."""

_FAST_PATH = orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER


class MplpModel(BaseModel):
    """Base of every MPLP and Cortex model.

    Unknown keys are refused unless the schema opens the object, assignments
    are validated like input, and absent fields stay absent: ``to_dict`` and
    ``to_json`` write exactly the fields that were given (explicit nulls
    included) and nothing else.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True, allow_inf_nan=False)

    @classmethod
    def from_json(cls, data: bytes | str, *, semantic: bool = True, allow_duplicate_keys: bool = False) -> Self:
        """Parse and validate one JSON document.

        Every problem, from bad bytes to a bad field or a broken rule, raises a
        pydantic ``ValidationError``. ``semantic=False`` checks the schema only,
        for payloads from systems that do not keep the rules beyond it.
        Duplicate keys are refused unless ``allow_duplicate_keys`` is set, for
        trusted input only: then the last of equal keys wins.
        """
        value = load_json(data, cls.__name__, allow_duplicate_keys=allow_duplicate_keys)
        return cls.model_validate(value, context=None if semantic else SCHEMA_ONLY)

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible Python values: the fields that were given, nulls included, and no others."""
        return self.model_dump(mode="json", exclude_unset=True)

    def to_json(self) -> bytes:
        """The canonical JSON bytes (RFC 8785) of the model: stable for hashing, signing and diffing.

        Raises ``CanonicalJSONError`` for an integer beyond +/-(2**53 - 1) whose
        canonical text would not read back as the same number.
        """
        # Fast path: field names are ASCII, so orjson's key order is RFC 8785's;
        # floats and open objects arrive as canonical fragments (see _types);
        # OPT_STRICT_INTEGER stops at any integer beyond +/-(2**53 - 1), and so
        # does a lone surrogate. Those rare documents take the full walk, which
        # writes what has an exact form and names the path of what has not.
        try:
            return orjson.dumps(self.model_dump(exclude_unset=True, context=CANONICAL), option=_FAST_PATH)
        except (orjson.JSONEncodeError, PydanticSerializationError):
            return dumps(self.to_dict())
