"""The string formats that the reference draft-07 validator asserts: ``date-time`` and ``email``.

The schemas use four formats: ``date-time``, ``uuid``, ``email`` and ``uri``. A
format is asserted here exactly when the reference validator asserts it
(jsonschema's draft-07 format checker, the one the conformance data is checked
with), and exactly as it does, so that a model refuses nothing that validator
accepts and accepts nothing it refuses:

* ``date-time``: RFC 3339 section 5.6, with real calendar dates; ``Timestamp``
  keeps the sender's text and reads its instant exactly (its fields by
  ``_instants.fields``, its days by ``_instants.days_from_civil``).
* ``email``: jsonschema's check is that the text holds an ``@``, and no more
  (an RFC 5321 address check would refuse ``@`` alone, which it accepts).
* ``uuid`` is no draft-07 format: no draft-07 validator asserts it.
* ``uri``: jsonschema asserts it only with an optional package installed
  (``rfc3987`` or ``rfc3986-validator``), which it does not require; without
  one it accepts any string, and so do the models (``tests/test_formats.py``
  holds the reference to that).

The text is kept as the sender wrote it (no ``datetime``, no ``EmailStr``: they
would rewrite it, the domain's case for one). Each check is a core schema with
no Python call, so the fast reading and the strict one apply it alike; the
codegen maps ``format: date-time`` onto ``Timestamp`` and ``format: email`` onto
``EmailText`` (``codegen/generate.py``).
"""

from __future__ import annotations

import contextlib
import functools
import re
from datetime import datetime, timedelta, timezone
from typing import Annotated, Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from mplp_models import _fastpath
from mplp_models._instants import days_from_civil, fields
from mplp_models._public import publish

__all__ = ["AS_TIMESTAMP", "DATE_TIME_PATTERN", "EMAIL_PATTERN", "EmailText", "Timestamp"]

# RFC 3339 section 5.6 `date-time`, with real calendar dates (leap years
# included) so that no Python code has to run per value. ASCII digits only:
# `\d` would also match other scripts' digits. pydantic-core's regex engine
# treats `$` as the end of the text, as ECMA-262 does.
_DATE = (
    "(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])"
    "|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)"
    "|02-(?:0[1-9]|1[0-9]|2[0-8]))"
    "|(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)"
)
_TIME = "[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\\.[0-9]+)?"
_OFFSET = "(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
DATE_TIME_PATTERN = f"^{_DATE}{_TIME}{_OFFSET}$"
_DATE_TIME = re.compile(f"{_DATE}{_TIME}{_OFFSET}")  # for fullmatch: Python's `$` would allow a final newline

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_SECOND = timedelta(seconds=1)


class Timestamp(str):
    """An RFC 3339 date-time, kept exactly as the sender wrote it: a ``str`` (``.000Z`` stays ``.000Z``)."""

    __slots__ = ()

    def __new__(cls, text: object) -> Timestamp:
        """Check ``text`` as a field would; a ``ValueError`` if it is not an RFC 3339 date-time."""
        if not isinstance(text, str) or _DATE_TIME.fullmatch(text) is None:
            raise ValueError(f"not an RFC 3339 date-time: {str(text)[:64]!r}")
        return str.__new__(cls, text)

    @classmethod
    def from_datetime(cls, value: datetime) -> Timestamp:
        """The RFC 3339 text of an aware ``datetime`` (naive ones are refused)."""
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError("a Timestamp needs an aware datetime (one with a UTC offset)")
        text = value.isoformat()
        return cls(text[:-6] + "Z" if text.endswith("+00:00") else text)

    @classmethod
    def now(cls) -> Timestamp:
        """The current time in UTC, to the millisecond (``2026-01-02T03:04:05.678Z``)."""
        now = datetime.now(timezone.utc)
        return cls(now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z")

    def to_datetime(self) -> datetime:
        """The instant as an aware ``datetime``.

        Digits past the microsecond are dropped, and a leap second (``:60``)
        becomes ``:59.999999``, since ``datetime`` has neither, and year 0000
        raises ``ValueError``; the text itself is never changed. To order
        timestamps exactly, compare ``instant`` keys.
        """
        # Fast path: the text is valid RFC 3339, which fromisoformat reads right
        # when it reads it at all (it truncates past the microsecond too); it
        # does not read `t`, `z` or `:60` (or anything on Python 3.10). Checked
        # against the reading of the parts below in tests/test_performance_paths.py.
        if _fastpath.on(_fastpath.TIMESTAMPS):
            try:
                return datetime.fromisoformat(self)
            except ValueError:
                pass
        year, month, day, hour, minute, second, fraction, offset = fields(self)
        micro = int(fraction[:6].ljust(6, "0"))
        if second == 60:
            second, micro = 59, 999_999
        return datetime(year, month, day, hour, minute, second, micro, timezone(timedelta(seconds=offset)))

    def instant(self) -> tuple[int, str]:
        """A key that orders timestamps by the instant they name, exactly.

        ``(seconds, fraction)``: whole seconds since 1970-01-01T00:00:00Z on the
        proleptic Gregorian calendar, and the fraction's digits without trailing
        zeros (compared as text, which orders decimal fractions). Unlike
        ``to_datetime`` it keeps every digit and takes year 0000; a leap
        second counts as the first second of the next minute.
        """
        seconds = None
        if _fastpath.on(_fastpath.TIMESTAMPS):  # the fast path, as in to_datetime
            with contextlib.suppress(ValueError):
                seconds = (datetime.fromisoformat(self) - _EPOCH) // _SECOND
        return (self._seconds() if seconds is None else seconds), self._fraction()

    def _seconds(self) -> int:
        """Whole seconds since 1970-01-01T00:00:00Z, read from the parts of the text (year 0000 and ``:60`` too)."""
        year, month, day, hour, minute, second, _, offset = fields(self)
        return days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset

    def _fraction(self) -> str:
        if self[19:20] != ".":
            return ""
        digits = self[20:-1] if self[-1] in "Zz" else self[20:-6]  # the offset is Z or ±hh:mm
        return digits.rstrip("0")

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        # The custom error replaces a message that would quote the whole
        # pattern. The str schema also serializes it, as text.
        text = core_schema.custom_error_schema(
            core_schema.str_schema(strict=True, pattern=DATE_TIME_PATTERN),
            custom_error_type="date_time",
            custom_error_message=(
                "Input should be an RFC 3339 date-time text such as 2026-01-02T03:04:05Z"
                " (for a datetime, pass Timestamp.from_datetime(value))"
            ),
        )
        return core_schema.no_info_after_validator_function(AS_TIMESTAMP, text)

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"type": "string", "format": "date-time"}


AS_TIMESTAMP = functools.partial(str.__new__, Timestamp)
"""A ``Timestamp`` of text the core schema has matched: a C-level call, no Python frame per value.

The schema's one function, listed with the other types' in ``_types.CORE_FUNCTIONS``."""


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


publish(__name__)  # Timestamp, shown as mplp_models.Timestamp
