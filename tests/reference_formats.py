"""RFC 3339 section 5.6 ``date-time``, with real calendar dates: the reference check of the tests and the bench.

Written independently of the package's own regular expressions, so that the two can disagree.
"""

from __future__ import annotations

import calendar
import re

__all__ = ["is_rfc3339_date_time"]

_DATE_TIME = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))",
    re.ASCII,
)


def is_rfc3339_date_time(text: object) -> bool:
    if not isinstance(text, str):
        return True  # formats only constrain strings
    match = _DATE_TIME.fullmatch(text)
    if match is None:
        return False
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    if not 1 <= month <= 12:
        return False
    days = calendar.monthrange(year if year > 0 else 2000, month)[1]
    if not 1 <= day <= days:
        return False
    if hour > 23 or minute > 59 or second > 60:
        return False
    return match.group(9) is None or (int(match.group(9)) <= 23 and int(match.group(10)) <= 59)
