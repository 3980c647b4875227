"""RFC 3339 text to nanoseconds since the epoch and back: hand-computed instants, and the two ways against each other.

The expected values are worked out by hand from the calendar (days since 1970-01-01, then
hours, minutes and seconds, less the offset), not from the code under test.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mplp_models as mm
from mplp_models._instants import nanoseconds, rfc3339

# 2026-01-01 is 56 years after 1970-01-01, 14 of them leap (1972, ..., 2024): 56 * 365 + 14 = 20,454 days.
DAY_2026 = 20_454 * 86_400

HAND_COMPUTED = {
    "1970-01-01T00:00:00Z": 0,
    "1970-01-01T00:00:00.000000001Z": 1,
    "1970-01-01T00:00:00.1Z": 100_000_000,
    # 2026-03-02: 31 + 28 days after 2026-01-01, plus one; 14:00 is 50,400 s.
    "2026-03-02T14:00:00Z": (DAY_2026 + 60 * 86_400 + 50_400) * 10**9,
    # The same day at 15:13:05 one hour east of UTC: 14:13:05Z.
    "2026-03-02T15:13:05+01:00": (DAY_2026 + 60 * 86_400 + 50_400 + 13 * 60 + 5) * 10**9,
    # 2026-01-02T03:04:05.123456789Z: one day, 3 h 4 min 5 s, and every digit of the fraction.
    "2026-01-02T03:04:05.123456789Z": (DAY_2026 + 86_400 + 11_045) * 10**9 + 123_456_789,
    # Half an hour and five west of UTC is later in UTC: 2026-01-01T05:30:00Z.
    "2026-01-01T00:00:00-05:30": (DAY_2026 + 5 * 3600 + 1800) * 10**9,
    # Across midnight by the offset: 00:30+01:00 is 23:30Z of the day before.
    "2026-01-01T00:30:00+01:00": (DAY_2026 - 1800) * 10**9,
    # Digits past the nanosecond are dropped (rounded down).
    "2026-01-01T00:00:00.1234567899Z": DAY_2026 * 10**9 + 123_456_789,
    # Lower-case t and z are RFC 3339 too.
    "2026-01-01t00:00:00.5z": DAY_2026 * 10**9 + 500_000_000,
    # A leap second counts as the first second of the next minute (Unix time has none): 2017-01-01T00:00:00Z.
    "2016-12-31T23:59:60Z": 1_483_228_800 * 10**9,
    # Before the epoch: year 0000 (proleptic Gregorian, 1970 * 365 + 478 leap days back) and 1969.
    "0000-01-01T00:00:00Z": -62_167_219_200 * 10**9,
    "1969-12-31T23:59:59.999999999Z": -1,
    "9999-12-31T23:59:59.999999999Z": 253_402_300_799 * 10**9 + 999_999_999,
    # 2024 is a leap year: 2024-03-01 is 31 + 29 days after 2024-01-01 (19,723 days after the epoch).
    "2024-03-01T00:00:00Z": (19_723 + 60) * 86_400 * 10**9,
}


@pytest.mark.parametrize(("text", "expected"), list(HAND_COMPUTED.items()))
def test_nanoseconds_of_hand_computed_instants(text: str, expected: int) -> None:
    assert nanoseconds(text) == expected


def test_a_float_of_seconds_would_not_hold_the_nanoseconds() -> None:
    # Why the conversion is in integers: the same instant through a float is off.
    text = "2026-01-02T03:04:05.123456789Z"
    assert int(mm.Timestamp(text).to_datetime().timestamp() * 1e9) != nanoseconds(text)


@pytest.mark.parametrize(
    ("nanos", "text"),
    [
        (0, "1970-01-01T00:00:00Z"),
        (1, "1970-01-01T00:00:00.000000001Z"),
        (1_500_000, "1970-01-01T00:00:00.001500Z"),
        (120_000_000, "1970-01-01T00:00:00.120Z"),
        (-1, "1969-12-31T23:59:59.999999999Z"),
        (HAND_COMPUTED["2026-03-02T15:13:05+01:00"], "2026-03-02T14:13:05Z"),
    ],
)
def test_rfc3339_writes_utc_with_the_shortest_fraction_of_3_6_or_9_digits(nanos: int, text: str) -> None:
    assert rfc3339(nanos) == text


def test_outside_rfc3339_years_or_not_rfc3339_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="0000 to 9999"):
        rfc3339(253_402_300_800 * 10**9)
    with pytest.raises(ValueError, match="not an RFC 3339"):
        nanoseconds("2026-01-01 00:00:00Z")


@given(st.integers(min_value=-62_167_219_200 * 10**9, max_value=253_402_300_799 * 10**9 + 999_999_999))
def test_rfc3339_and_nanoseconds_are_inverse(nanos: int) -> None:
    text = rfc3339(nanos)
    assert nanoseconds(text) == nanos
    assert mm.Timestamp(text) == text  # the text is a valid timestamp


@st.composite
def rfc3339_texts(draw: st.DrawFn) -> str:
    """RFC 3339 texts of any date from 0001 to 9999, any offset of whole minutes, 0 to 12 fraction digits."""
    moment = draw(st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)))
    fraction = draw(st.text("0123456789", max_size=12))
    minutes = draw(st.integers(min_value=-1439, max_value=1439))
    offset = (
        "Z"
        if minutes == 0 and draw(st.booleans())
        else f"{'-' if minutes < 0 else '+'}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    )
    return f"{moment.year:04d}" + moment.strftime("-%m-%dT%H:%M:%S") + ("." + fraction if fraction else "") + offset


@given(rfc3339_texts())
def test_nanoseconds_agree_with_timestamp_instant(text: str) -> None:
    # Timestamp.instant is the rules' exact ordering key (whole seconds and the fraction's digits), written apart.
    seconds, fraction = mm.Timestamp(text).instant()
    assert nanoseconds(text) == seconds * 10**9 + int(fraction.ljust(9, "0")[:9])
