"""RFC 3339 text to nanoseconds since the Unix epoch and back, exactly, in integers only.

OpenTelemetry places a span at a whole number of nanoseconds since 1970-01-01T00:00:00Z; MPLP
writes an instant as RFC 3339 text with any UTC offset and any number of fraction digits. A
float of seconds holds about 16 significant digits, too few for nanoseconds today (2026 is
1.8e18 ns), so the conversion reads the text's fields as integers and counts days by the
proleptic Gregorian calendar (``days_from_civil``, after H. Hinnant's ``days_from_civil``).

As in ``Timestamp.instant`` (``_formats``, which reads its text by ``fields`` and
``days_from_civil`` too), a leap second (``:60``) counts as the first second of the next
minute (Unix time has no leap seconds). Fraction digits past the ninth are dropped: the
instant is rounded down to its nanosecond.
"""

from __future__ import annotations

import re

__all__ = ["NANOS_PER_SECOND", "civil_from_days", "days_from_civil", "fields", "nanoseconds", "rfc3339"]

NANOS_PER_SECOND = 1_000_000_000
_NANOS_PER_DAY = 86_400 * NANOS_PER_SECOND
_DAYS_PER_ERA = 146_097  # 400 Gregorian years
_PARTS = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))", re.ASCII
)


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to the given date of the proleptic Gregorian calendar (negative before)."""
    year -= month <= 2  # a year that starts in March puts the leap day last
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * _DAYS_PER_ERA + day_of_era - 719_468  # 719,468: days from 0000-03-01 to 1970-01-01


def civil_from_days(days: int) -> tuple[int, int, int]:
    """The (year, month, day) that is ``days`` after 1970-01-01: the inverse of ``days_from_civil``."""
    days += 719_468
    era = days // _DAYS_PER_ERA
    day_of_era = days - era * _DAYS_PER_ERA
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36_524 - day_of_era // 146_096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * day_of_year + 2) // 153  # 0 is March
    day = day_of_year - (153 * shifted_month + 2) // 5 + 1
    month = shifted_month + (3 if shifted_month < 10 else -9)
    return year_of_era + era * 400 + (month <= 2), month, day


def fields(text: str) -> tuple[int, int, int, int, int, int, str, int]:
    """The fields of RFC 3339 ``text``: year, month, day, hour, minute, second, the fraction's digits (``""`` if
    none) and the UTC offset in seconds (negative west of UTC); a ``ValueError`` if ``text`` is not an RFC 3339
    date-time.

    The layout only: digits in their places, not the calendar (``Timestamp``'s pattern checks that).
    """
    match = _PARTS.fullmatch(text)
    if match is None:
        raise ValueError(f"not an RFC 3339 date-time: {text[:64]!r}")
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    fraction, sign, offset_hours, offset_minutes = match.group(7, 8, 9, 10)
    offset = 0 if sign is None else (int(offset_hours) * 3600 + int(offset_minutes) * 60) * (-1 if sign == "-" else 1)
    return year, month, day, hour, minute, second, fraction or "", offset


def nanoseconds(text: str) -> int:
    """The instant that RFC 3339 ``text`` names, in nanoseconds since 1970-01-01T00:00:00Z.

    Exact for every offset and fraction (digits past the nanosecond are dropped); a
    ``ValueError`` if ``text`` is not an RFC 3339 date-time.
    """
    year, month, day, hour, minute, second, fraction, offset = fields(text)
    seconds = (days_from_civil(year, month, day) * 24 + hour) * 3600 + minute * 60 + second - offset
    nanos = int(fraction[:9].ljust(9, "0"))
    return seconds * NANOS_PER_SECOND + nanos


def rfc3339(nanos: int) -> str:
    """The RFC 3339 text in UTC (``Z``) of ``nanos`` since the epoch: the shortest of 0, 3, 6 or 9 fraction digits.

    ``nanoseconds(rfc3339(n)) == n`` for every ``n`` from year 0000 to 9999.
    """
    days, within = divmod(nanos, _NANOS_PER_DAY)
    year, month, day = civil_from_days(days)
    if not 0 <= year <= 9999:
        raise ValueError(f"{nanos} ns since the epoch is outside the years 0000 to 9999 that RFC 3339 writes")
    seconds, fraction = divmod(within, NANOS_PER_SECOND)
    minutes, second = divmod(seconds, 60)
    hour, minute = divmod(minutes, 60)
    digits = f"{fraction:09d}"
    while digits.endswith("000"):
        digits = digits[:-3]
    return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}{'.' + digits if digits else ''}Z"
