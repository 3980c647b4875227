"""The base class of every model: configuration and the JSON round trip they share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import orjson
from pydantic import BaseModel, ConfigDict, ValidationError
from typing_extensions import Self

from mplp_models._canonical import dumps
from mplp_models._decode import json_bytes, load_json, read_as_strictly
from mplp_models._members import is_plain, model_members

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

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid", validate_assignment=True, allow_inf_nan=False, defer_build=True
    )

    @classmethod
    def from_json(cls, data: bytes | str, *, semantic: bool = True, allow_duplicate_keys: bool = False) -> Self:
        """Parse and validate one JSON document.

        Every problem, from bad bytes to a bad field or a broken rule, raises a
        pydantic ``ValidationError``. ``semantic=False`` checks the schema only,
        for payloads from systems that do not keep the rules beyond it.
        Duplicate keys are refused unless ``allow_duplicate_keys`` is set, for
        trusted input only: then the last of equal keys wins.
        """
        context = None if semantic else SCHEMA_ONLY
        raw = json_bytes(data, cls.__name__)
        # Fast path: pydantic reads the text itself, and the result is kept
        # when it is what the strict reading gives (see _decode). Otherwise,
        # and for every refusal, the strict reading decides and words the errors.
        if is_plain(cls):  # a class of the user's own may have defaults and validators the check cannot see
            try:
                model = cls.model_validate_json(raw, context=context)
            except ValidationError:
                pass
            else:
                if read_as_strictly(raw, model):
                    return model
        value = load_json(raw, cls.__name__, allow_duplicate_keys=allow_duplicate_keys)
        return cls.model_validate(value, context=context)

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible Python values: the fields that were given, nulls included, and no others."""
        return self.model_dump(mode="json", exclude_unset=True)

    def to_json(self) -> bytes:
        """The canonical JSON bytes (RFC 8785) of the model: stable for hashing, signing and diffing.

        Raises ``CanonicalJSONError`` for an integer beyond +/-(2**53 - 1) whose
        canonical text would not read back as the same number.
        """
        # Fast path: orjson writes the model itself, asking model_members for
        # each model's given fields (floats and open objects canonical). Field
        # names are ASCII, so orjson's key order is RFC 8785's; OPT_STRICT_INTEGER
        # stops at any integer beyond +/-(2**53 - 1), and so does a lone
        # surrogate. Those rare documents take the full walk, which writes what
        # has an exact form and names the path of what has not. A class of the
        # user's own (serializers, extra fields) is written by model_dump.
        if not is_plain(type(self)):
            return dumps(self.to_dict())
        try:
            return orjson.dumps(self, default=model_members, option=_FAST_PATH)
        except orjson.JSONEncodeError:
            return dumps(self.to_dict())
