"""The string formats that the reference draft-07 validator asserts, beyond ``date-time``: ``email``.

The schemas use four formats: ``date-time`` (``_types.Timestamp``), ``uuid``,
``email`` and ``uri``. A format is asserted here exactly when the reference
validator asserts it (jsonschema's draft-07 format checker, the one the
conformance data is checked with), and exactly as it does, so that a model
refuses nothing that validator accepts and accepts nothing it refuses:

* ``email``: jsonschema's check is that the text holds an ``@``, and no more
  (an RFC 5321 address check would refuse ``@`` alone, which it accepts).
* ``uuid`` is no draft-07 format: no draft-07 validator asserts it.
* ``uri``: jsonschema asserts it only with an optional package installed
  (``rfc3987`` or ``rfc3986-validator``), which it does not require; without
  one it accepts any string, and so do the models (``tests/test_formats.py``
  holds the reference to that).

The text is kept as the sender wrote it (no ``EmailStr``: it would rewrite the
domain's case). The check is a core schema with no Python call, so the fast
reading and the strict one apply it alike; the codegen maps ``format: email``
onto ``EmailText`` (``codegen/generate.py``).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

__all__ = ["EMAIL_PATTERN", "EmailText"]

EMAIL_PATTERN = "@"
"""What jsonschema's ``email`` check asks of a string: an ``@`` anywhere in it (a pattern matches anywhere)."""


class _EmailSchema:
    """A JSON string holding an ``@``: text UTF-8 can carry (as ``JsonText``), then the format's own check and error."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        # Two steps, so that a number is refused as a string_type and a lone surrogate as string_unicode (both
        # JsonText's errors), and only text without an @ gets the format's error.
        address = core_schema.custom_error_schema(
            core_schema.str_schema(strict=True, pattern=EMAIL_PATTERN),
            custom_error_type="email",
            custom_error_message="Input should be an e-mail address (draft-07 format email: text with an @)",
        )
        return core_schema.chain_schema([core_schema.str_schema(strict=True, min_length=0), address])

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"type": "string", "format": "email"}


EmailText = Annotated[str, _EmailSchema()]
"""A JSON Schema ``string`` with ``format: email``, kept as the sender's text."""
