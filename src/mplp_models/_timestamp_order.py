"""The order of ``Timestamp`` texts by the instants they name: ``is_before``, ``earliest_and_latest``, ``none_before``.

The rules compare timestamps (a finish not before its start, a stamp not before
``created_at``). The reference is ``Timestamp.instant()``, which reads each
text's parts; with the fast paths off (``_fastpath``) every comparison asks it.
With them on, two shortcuts, each proven beside it and held to ``instant()``
and to ``datetime`` in tests/test_timestamp_order.py:

* texts of one layout (one length, one offset text, one separator, no leap
  second) order as text, at C speed (``_one_layout``, ``in_text_order``);
* texts whose offsets differ (a sender at ``+02:00``, another at ``Z``) are
  compared by their fields, moved to UTC in whole minutes, without building a
  ``datetime`` or an ``instant()`` key (``_before_by_fields``).

Only a leap second (``:60``) takes ``instant()`` always.

Every function takes texts that matched ``_formats.DATE_TIME_PATTERN`` (``Timestamp``s):
``YYYY-MM-DD``, ``T`` or ``t``, ``HH:MM:SS``, then ``.digits`` or nothing, then
``Z``, ``z`` or ``±hh:mm``, in ASCII digits, hours below 24 (offsets' too) and
minutes below 60.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from itertools import repeat
from typing import TYPE_CHECKING

from mplp_models import _fastpath
from mplp_models._instants import civil_from_days, days_from_civil

if TYPE_CHECKING:
    from mplp_models._formats import Timestamp

__all__ = [
    "as_compared",
    "earliest_and_latest",
    "in_text_order",
    "is_before",
    "none_before",
    "none_given_before",
]

_INSTANT = operator.methodcaller("instant")


def is_before(first: Timestamp, second: Timestamp) -> bool:
    """Whether ``first`` names an earlier instant than ``second``.

    Two texts of one layout (``_one_layout``) order as their instants do: the
    common case is one string comparison. Two texts whose offsets differ are
    compared field by field (``_before_by_fields``). A leap second, and every
    pair when the fast paths are off (``_fastpath``), is compared by ``instant()``.
    """
    if _fastpath.ENABLED and ":60" not in first and ":60" not in second:
        if _one_layout(first, second):
            return first < second
        return _before_by_fields(first, second)
    return first.instant() < second.instant()


def _one_layout(first: str, second: str) -> bool:
    """Whether the two texts have one length, one separator and one offset text (``Z``, ``z`` or ``±hh:mm``)."""
    if len(first) != len(second) or first[10] != second[10]:
        return False
    last = first[-1]
    return last == second[-1] and (last in "Zz" or first[-6:] == second[-6:])


# Why text order is time order for two texts of one layout without a leap second: each
# matched DATE_TIME_PATTERN, whose layout is fixed up to the fraction, `YYYY-MM-DDTHH:MM:SS`,
# 19 characters, then `.digits` or nothing, then the offset. With one offset text, of one
# length (1 or 6 characters), texts of one length have fractions of one length, so every
# field, each most significant first and written in fixed-width ASCII digits, sits at the
# same place in both; with the same separator at index 10 the first differing character is
# in the first differing field, and decides as that field's number does: (date, time,
# fraction) at one offset, which orders as the instant does, except for a leap second,
# which `instant()` counts as the next minute's first second. A matched text holds `:60`
# only there (minutes are [0-5][0-9], an offset's too, and no other field follows a
# colon), so a text without `:60` has none. Equal instants of such texts are equal texts,
# the fraction being compared by `instant()` without trailing zeros and having here the
# same length. Checked against `instant()` on generated timestamps in
# tests/test_timestamp_order.py.

_MINUTES = {f"{hour:02d}:{minute:02d}": hour * 60 + minute for hour in range(24) for minute in range(60)}
"""``"HH:MM"`` -> minutes since midnight: a time's and an offset's, by one look-up rather than two ``int`` calls."""


_OFFSETS = {
    f"{sign}{text}": minutes * (1 if sign == "+" else -1) for text, minutes in _MINUTES.items() for sign in "+-"
}
"""``"±HH:MM"`` -> the offset in minutes, east of UTC positive. A text ending in ``Z`` or ``z`` has no
``+`` or ``-`` six characters from its end (a digit, ``:`` or ``.`` is there), so its last six are no key:
``_OFFSETS.get(text[-6:], 0)`` is any text's offset, with no test of its form."""


def _utc_minutes(text: str) -> int:
    """Minutes from the start of the text's own date to its minute, in UTC (below 0 or past a day at times)."""
    return _MINUTES[text[11:16]] - _OFFSETS.get(text[-6:], 0)


def _days(text: str) -> int:
    """The text's date as a count of days (proleptic Gregorian, year 0000 too): its differences are exact."""
    return days_from_civil(int(text[0:4]), int(text[5:7]), int(text[8:10]))


def _fraction(text: str) -> str:
    """The fraction's digits without trailing zeros (compared as text, they order as the decimal fractions do)."""
    if text[19] != ".":
        return ""
    return text[20 : -1 if text[-1] in "Zz" else -6].rstrip("0")


def _before_by_fields(first: str, second: str) -> bool:
    """``is_before`` of two texts without a leap second, by their fields moved to UTC: no ``datetime``, no ``instant``.

    Why it is the order of the instants: without a leap second, a text names the instant
    ``days * 86400 + minutes * 60 + seconds + fraction`` (UTC, seconds since any fixed day),
    ``days`` its date's count (``_days``), ``minutes`` its time's minute moved by its offset
    (``_utc_minutes``: local minutes minus the offset), ``seconds`` in 0 to 59 and the
    fraction below 1. Since ``seconds + fraction`` is below 60, two instants order as
    ``days * 1440 + minutes``, then the seconds, then the fraction. Where the dates are
    one text, the days are equal and drop out. Where they differ and both texts' UTC
    minutes fall within their own day (0 to 1439), ``days * 1440 + minutes`` orders as the
    days, and the dates, fixed-width ASCII digits most significant first, order as text
    as their days do; else the difference of the days is counted. Two-digit seconds order
    as text; fractions without trailing zeros too (``_fraction``). Equal instants give
    ``False``. Checked against ``instant()`` and ``datetime`` in tests/test_timestamp_order.py.
    """
    return _earlier(first, _utc_minutes(first), second, _utc_minutes(second))


def _earlier(first: str, minutes: int, second: str, other: int) -> bool:
    """``_before_by_fields`` with each text's ``_utc_minutes`` given (a moment compared with many, once)."""
    if first[:10] != second[:10]:
        if 0 <= minutes < 1440 and 0 <= other < 1440:
            return first[:10] < second[:10]
        other += (_days(second) - _days(first)) * 1440
    if minutes != other:
        return minutes < other
    if first[17:19] != second[17:19]:
        return first[17:19] < second[17:19]
    return _fraction(first) < _fraction(second)


def earliest_and_latest(stamps: Sequence[Timestamp]) -> tuple[Timestamp, Timestamp]:
    """The earliest and the latest of ``stamps`` (not empty) by the instants they name, the first of equals.

    Texts that all end in ``Z``, with the same length, a ``T`` separator and no
    leap second, order as their instants do (``in_text_order``), and
    ``min``/``max`` find them at C speed; a dialog's messages usually look like
    that. Any other mix is walked once with ``is_before``, and every list is
    ordered by ``instant()`` when the fast paths are off (``_fastpath``).
    """
    if not _fastpath.ENABLED:
        return min(stamps, key=_INSTANT), max(stamps, key=_INSTANT)
    if in_text_order(stamps):
        return min(stamps), max(stamps)
    earliest = latest = stamps[0]
    for stamp in stamps[1:]:
        if is_before(stamp, earliest):
            earliest = stamp
        elif is_before(latest, stamp):
            latest = stamp
    return earliest, latest


def none_before(stamps: Sequence[Timestamp], moment: Timestamp) -> bool:
    """Whether no stamp of ``stamps`` names an instant before ``moment``: ``not any(is_before(s, moment) ...)``.

    When ``moment`` and the stamps are all ``in_text_order``, they order as their
    instants do, and the answer is one ``min`` at C speed; any other mix is
    compared by the fields (``_earlier``, as ``is_before`` does, ``moment``'s read
    once). A leap second, and every list when the fast paths are off
    (``_fastpath``), asks ``instant()``.
    """
    if not (_fastpath.ENABLED and stamps) or ":60" in moment:
        return not any(map(is_before, stamps, repeat(moment)))
    if moment[-1] == "Z" and in_text_order([moment, *stamps]):
        return moment <= min(stamps)
    return none_given_before(stamps, moment)


def none_given_before(stamps: Sequence[Timestamp | None], moment: Timestamp) -> bool:
    """Whether no given stamp (``None`` is skipped: an inbox message's unset ones) names an instant before ``moment``.

    Each stamp is compared by its fields (``_earlier``), with no list made: ``none_before``'s way for
    any mix of forms, and the rules' whole-model checks' (``_inbox``) once the texts' forms differ. A
    leap second in ``moment``, and every list when the fast paths are off, goes to ``none_before``.
    ``moment``'s fields are read once; a stamp of its date whose UTC minute differs is decided by the
    minutes alone, as ``_earlier`` decides it (the dates being one text). Each text's UTC minute is
    ``_utc_minutes``'s, written out: the call per stamp took a fifth of the time.
    """
    if not _fastpath.ENABLED or ":60" in moment:
        return none_before([stamp for stamp in stamps if stamp is not None], moment)
    day, minutes = moment[:10], _MINUTES[moment[11:16]] - _OFFSETS.get(moment[-6:], 0)
    for stamp in stamps:
        if stamp is None:
            continue
        if ":60" in stamp:
            if stamp.instant() < moment.instant():
                return False
            continue
        other = _MINUTES[stamp[11:16]] - _OFFSETS.get(stamp[-6:], 0)
        if other != minutes and stamp[:10] == day:
            if other < minutes:
                return False
        elif _earlier(stamp, other, moment, minutes):
            return False
    return True


def in_text_order(stamps: Sequence[str]) -> bool:
    """Whether ``stamps`` (not empty) all end in ``Z``, have one length, a ``T`` and no leap second: in C string scans.

    Such texts are of one layout (``_one_layout``), so they order as text as their
    instants do. A matched text holds at most one ``Z``, at its end. When the ``n``
    texts have ``n * width`` characters in all and the ``n`` characters at
    ``width - 1, 2 * width - 1, ...`` are each a ``Z``, those are ``n`` ends of texts,
    so every text's end, and the running totals of the lengths are ``k * width``:
    every text is ``width`` long and ends in ``Z``.
    """
    joined = "".join(stamps)
    width, count = len(stamps[0]), len(stamps)
    return (
        len(joined) == width * count
        and joined[width - 1 :: width].count("Z") == count
        and "t" not in joined
        and ":60" not in joined
    )


def as_compared(first: str, second: str) -> tuple[str, str]:
    """The two texts as a message quotes them: as written; where their offsets differ, each one not at UTC
    followed by the same instant at UTC (``10:00:00+02:00 (2026-03-01T08:00:00Z)``), so the order shows."""
    if _OFFSETS.get(first[-6:], 0) == _OFFSETS.get(second[-6:], 0):
        return first, second
    return _with_utc(first), _with_utc(second)


def _with_utc(text: str) -> str:
    """``text``, followed by its instant at UTC if its offset is not 0: the date and minute moved by the offset,
    the seconds and fraction as written (a leap second and every fraction digit kept). A moved year outside
    0000 to 9999, which RFC 3339 does not write, is written as ISO 8601's expanded years are, signed
    (``+10000``, ``-0001``): the order then still shows."""
    if not _OFFSETS.get(text[-6:], 0):
        return text
    days, minutes = divmod(_utc_minutes(text), 1440)
    year, month, day = civil_from_days(_days(text) + days)
    seconds = text[16:-6]  # ":SS" and any fraction: a text whose offset is not 0 ends in "±hh:mm"
    years = f"{year:04d}" if 0 <= year <= 9999 else f"{year:+05d}"
    return f"{text} ({years}-{month:02d}-{day:02d}T{minutes // 60:02d}:{minutes % 60:02d}{seconds}Z)"
