"""``is_before`` and ``earliest_and_latest`` order timestamps as ``instant()`` does, fast paths on or off.

The fast paths compare the texts (``_timestamp_order.in_text_order``) or, where the offsets
differ, their fields moved to UTC; the reference is ``instant()`` with the fast paths off,
which reads each text's parts, and, for mixed offsets, ``datetime`` itself. The
generated timestamps cover every field's edges, leap seconds, fractions of 0
to 9 digits with trailing zeros, every offset form and both separators, and
come in near pairs (one field moved), where text order and time order could
part. Zero disagreements.
"""

from __future__ import annotations

import calendar
import random
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest
from fast_path_switch import fast_paths
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

import mplp_models as mm
from mplp_models._timestamp_order import (
    as_compared,
    earliest_and_latest,
    in_text_order,
    is_before,
    none_before,
    none_given_before,
)

Parts = tuple[int, int, int, int, int, int, str, str, str]  # year .. second, fraction, offset, separator


def text(parts: Parts) -> mm.Timestamp:
    year, month, day, hour, minute, second, fraction, offset, separator = parts
    return mm.Timestamp(
        f"{year:04d}-{month:02d}-{day:02d}{separator}{hour:02d}:{minute:02d}:{second:02d}{fraction}{offset}"
    )


def days_in(year: int, month: int) -> int:
    # calendar has no year 0; 0000 is a leap year in the proleptic Gregorian calendar, as 2000 is
    return calendar.monthrange(year or 2000, month)[1]


def draw_parts(rng: random.Random) -> Parts:
    year = rng.choice([0, 1, 1969, 1970, 1999, 2000, 2026, 9999, rng.randint(0, 9999)])
    month = rng.randint(1, 12)
    day = rng.choice([1, days_in(year, month), rng.randint(1, days_in(year, month))])
    hour, minute = rng.choice([0, 23, rng.randint(0, 23)]), rng.choice([0, 59, rng.randint(0, 59)])
    second = rng.choice([0, 59, 60, rng.randint(0, 60)])
    return (year, month, day, hour, minute, second, draw_fraction(rng), draw_offset(rng), rng.choice("TTTt"))


def draw_fraction(rng: random.Random) -> str:
    digits = rng.randint(0, 9)
    if digits == 0:
        return ""
    return "." + "".join(rng.choice("00059") if rng.random() < 0.5 else rng.choice("0123456789") for _ in range(digits))


def draw_offset(rng: random.Random) -> str:
    choice = rng.random()
    if choice < 0.6:
        return "Z"
    if choice < 0.7:
        return "z"
    return f"{rng.choice('+-')}{rng.choice([0, 1, 14, 23, rng.randint(0, 23)]):02d}:{rng.choice([0, 30, 59]):02d}"


def near(parts: Parts, rng: random.Random) -> Parts:
    """``parts`` with one field moved a little or its form changed: where text order and time order could part."""
    year, month, day, hour, minute, second, fraction, offset, separator = parts
    field = rng.randrange(8)
    if field == 0:
        second = rng.choice([0, 59, 60, max(second - 1, 0), min(second + 1, 60)])
    elif field == 1:
        minute, second = rng.choice([(minute, 0), ((minute + 1) % 60, 0), (minute, 60)])
    elif field == 2:  # another number of fraction digits
        fraction = fraction[:-1] if len(fraction) > 2 else (fraction or ".") + rng.choice("059")
    elif field == 3:  # the same number of fraction digits, other digits
        fraction = "." + "".join(rng.choice("0123456789") for _ in range(max(len(fraction) - 1, 1)))
    elif field == 4:
        offset = rng.choice(["Z", "z", "+00:00", "-00:00", offset])
    elif field == 5:
        separator = "t" if separator == "T" else "T"
    elif field == 6 and minute > 0 and second == 0:  # the leap second before it: the same instant, with other digits
        minute, second = minute - 1, 60
        fraction = "." + "".join(rng.choice("0123456789") for _ in range(max(len(fraction) - 1, 1)))
    else:  # the form kept: one of the fields the fast paths compare as text
        day = rng.randint(1, days_in(year, month))
        hour = rng.randint(0, 23)
    return (year, month, day, hour, minute, second, fraction, offset, separator)


def uniform(parts: Parts) -> Parts:
    """``parts`` in the form the fast paths compare as text: ``Z``, ``T``, no leap second."""
    year, month, day, hour, minute, second, fraction, _, _ = parts
    return (year, month, day, hour, minute, min(second, 59), fraction, "Z", "T")


def in_time_order(first: mm.Timestamp, second: mm.Timestamp) -> bool:
    with fast_paths(False):
        return first.instant() < second.instant()


def test_is_before_agrees_with_instant_on_generated_pairs() -> None:
    rng = random.Random(26)
    disagreements, fast = [], 0
    for _ in range(20_000):
        parts = draw_parts(rng) if rng.random() < 0.5 else uniform(draw_parts(rng))
        first, second = text(parts), text(near(parts, rng) if rng.random() < 0.8 else draw_parts(rng))
        expected = in_time_order(first, second), in_time_order(second, first)
        with fast_paths(True):
            found = is_before(first, second), is_before(second, first)
        with fast_paths(False):
            strict = is_before(first, second), is_before(second, first)
        fast += len(first) == len(second) and first.endswith("Z") and second.endswith("Z")
        if found != expected or strict != expected:
            disagreements.append((first, second, expected, found, strict))
    assert disagreements == []
    assert fast > 5_000  # the text comparison was put to the test, not only instant()


def test_earliest_and_latest_agree_with_instant_on_generated_lists() -> None:
    rng = random.Random(2026)
    disagreements = []
    for _ in range(2_000):
        parts = uniform(draw_parts(rng))
        stamps = [text(parts)]
        for _ in range(rng.randint(0, 8)):  # mostly one form, at times one text in another
            moved = near(parts, rng)
            if rng.random() < 0.7:  # the form kept, and at times only the number of fraction digits changed
                moved = moved[:6] + parts[6:] if rng.random() < 0.7 else parts[:6] + (draw_fraction(rng), "Z", "T")
            stamps.append(text(moved))
        with fast_paths(False):
            keys = [stamp.instant() for stamp in stamps]
        for enabled in (True, False):
            with fast_paths(enabled):
                earliest, latest = earliest_and_latest(stamps)
            with fast_paths(False):
                if (earliest.instant(), latest.instant()) != (min(keys), max(keys)):
                    disagreements.append((stamps, enabled, earliest, latest))
    assert disagreements == []


def test_none_before_agrees_with_instant_on_generated_lists() -> None:
    rng = random.Random(8785)
    disagreements, by_text = [], 0
    for _ in range(2_000):
        parts = uniform(draw_parts(rng))
        moment = text(parts)
        stamps = []
        for _ in range(rng.randint(0, 6)):  # mostly the moment's form, some equal to it, at times another form
            moved = near(parts, rng)
            if rng.random() < 0.8:
                moved = uniform(moved)[:6] + parts[6:]
            stamps.append(text(moved if rng.random() < 0.9 else parts))
        with fast_paths(False):
            expected = all(stamp.instant() >= moment.instant() for stamp in stamps)
        by_text += bool(stamps) and in_text_order([moment, *stamps])
        for enabled in (True, False):
            with fast_paths(enabled):
                if none_before(stamps, moment) is not expected:
                    disagreements.append((stamps, moment, enabled))
    assert disagreements == []
    assert by_text > 500  # the text comparison was put to the test


@pytest.mark.parametrize(
    ("stamps", "earliest", "latest"),
    [
        # written out from RFC 3339: fractions of other lengths
        (["2026-03-02T10:00:00.5Z", "2026-03-02T10:00:00Z"], 1, 0),
        (["2026-03-02T10:00:00.55Z", "2026-03-02T10:00:00.5Z", "2026-03-02T10:00:00.555Z"], 1, 2),
        # one text twice as long as the other (20 and 40 characters)
        (["2026-03-02T10:00:01Z", "2026-03-02T10:00:01." + "0" * 18 + "1Z"], 0, 1),
        # a leap second: 23:59:60.5 is 00:00:00.5 of the next day
        (["2016-12-31T23:59:60.500Z", "2017-01-01T00:00:00.300Z"], 1, 0),
        # a lowercase separator
        (["2026-03-02t09:00:00Z", "2026-03-02T10:00:00Z"], 0, 1),
        # an offset
        (["2026-03-02T10:00:00+01:00", "2026-03-02T09:30:00Z"], 0, 1),
    ],
)
@pytest.mark.parametrize("enabled", [True, False], ids=["fast", "strict"])
def test_earliest_and_latest_table(stamps: list[str], earliest: int, latest: int, enabled: bool) -> None:
    texts = [mm.Timestamp(stamp) for stamp in stamps]
    with fast_paths(enabled):
        assert earliest_and_latest(texts) == (texts[earliest], texts[latest])


STAMP_PARTS = st.builds(
    lambda seed: draw_parts(random.Random(seed)),
    st.integers(0, 2**32),
)


@given(STAMP_PARTS, st.integers(0, 2**32))
def test_is_before_near_pairs(parts: Parts, seed: int) -> None:
    first, second = text(parts), text(near(parts, random.Random(seed)))
    with fast_paths(True):
        assert is_before(first, second) is in_time_order(first, second)
        assert is_before(second, first) is in_time_order(second, first)


@pytest.mark.parametrize(
    ("first", "second", "before"),
    [
        # written out from RFC 3339: a leap second is not before the next minute's first second (instant() reads
        # them as one second), though its text sorts first
        ("2016-12-31T23:59:60Z", "2017-01-01T00:00:00Z", False),
        ("2016-12-31T23:59:59Z", "2016-12-31T23:59:60Z", True),
        # the same instant, written with different fraction digits: neither is before the other
        ("2026-03-02T10:00:00.5Z", "2026-03-02T10:00:00.500Z", False),
        ("2026-03-02T10:00:00.500Z", "2026-03-02T10:00:00.5Z", False),
        # one length, the fraction decides
        ("2026-03-02T10:00:00.499Z", "2026-03-02T10:00:00.500Z", True),
        # a leap second with a fraction: 23:59:60.5 is 00:00:00.5 of the next day, after 00:00:00.3
        ("2017-01-01T00:00:00.300Z", "2016-12-31T23:59:60.500Z", True),
        ("2016-12-31T23:59:60.500Z", "2017-01-01T00:00:00.300Z", False),
        # a lowercase separator sorts after `T` as text, not as time
        ("2026-03-02t09:00:00Z", "2026-03-02T10:00:00Z", True),
        ("2026-03-02T10:00:00Z", "2026-03-02t09:00:00Z", False),
        # an offset: 10:00+01:00 is 09:00Z
        ("2026-03-02T10:00:00+01:00", "2026-03-02T09:30:00Z", True),
        # year 0000 (a leap year) before year 0001
        ("0000-02-29T00:00:00Z", "0001-01-01T00:00:00Z", True),
    ],
)
@pytest.mark.parametrize("enabled", [True, False], ids=["fast", "strict"])
def test_is_before_table(first: str, second: str, before: bool, enabled: bool) -> None:
    with fast_paths(enabled):
        assert is_before(mm.Timestamp(first), mm.Timestamp(second)) is before


# --- mixed offsets, held to datetime ----------------------------------------------------------------
# The fast paths compare texts whose offsets differ by their fields moved to UTC (_timestamp_order._before_by_fields),
# with no datetime. Here the reference is datetime itself: each text read by datetime.fromisoformat without its
# fraction (an aware datetime: comparing two such compares their instants), the fraction as a Decimal. Texts
# with no leap second (datetime has none), every offset from -23:59 to +23:59, fractions of 0 to 12 digits,
# and pairs around day, month and year ends, in two offsets, often the same instant written twice.

EDGE_DAYS = [(1999, 12, 31), (2000, 1, 1), (2000, 2, 28), (2000, 2, 29), (2000, 3, 1), (1900, 2, 28), (1900, 3, 1)]
EDGE_DAYS += [(2100, 2, 28), (2024, 2, 29), (2026, 1, 31), (2026, 4, 30), (2026, 6, 30), (2026, 12, 31), (9998, 12, 31)]


def reference(stamp: str) -> tuple[datetime, Decimal]:
    fraction = stamp[20 : -1 if stamp[-1] in "Zz" else -6] if stamp[19] == "." else ""
    whole = stamp[:19].replace("t", "T") + ("+00:00" if stamp[-1] in "Zz" else stamp[-6:])
    return datetime.fromisoformat(whole), Decimal(f"0.{fraction or 0}")


def offset_text(minutes: int, rng: random.Random) -> str:
    if minutes == 0 and rng.random() < 0.5:
        return rng.choice(["Z", "z", "+00:00", "-00:00"])
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def written(instant: datetime, fraction: str, rng: random.Random) -> mm.Timestamp | None:
    """``instant`` (UTC, whole seconds) and its fraction's digits, written at a random offset; None out of range."""
    minutes = rng.choice([0, 0, 60, -300, 330, 345, -570, 840, -720, 1439, -1439, rng.randint(-1439, 1439)])
    try:
        local = instant + timedelta(minutes=minutes)
    except OverflowError:
        return None
    if not 1 <= local.year <= 9999:
        return None
    digits = fraction + "0" * rng.choice([0, 0, 1, 3]) if fraction or rng.random() < 0.3 else ""
    separator = rng.choice("TTTt")
    return mm.Timestamp(
        f"{local.year:04d}-{local.month:02d}-{local.day:02d}{separator}{local.hour:02d}:{local.minute:02d}:"
        f"{local.second:02d}{f'.{digits}' if digits else ''}{offset_text(minutes, rng)}"
    )


def draw_instant(rng: random.Random) -> datetime:
    if rng.random() < 0.6:
        year, month, day = rng.choice(EDGE_DAYS)
        hour = rng.choice([0, 1, 22, 23, rng.randint(0, 23)])
    else:
        year, month, day, hour = rng.randint(1, 9998), rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23)
    return datetime(year, month, day, hour, rng.randint(0, 59), rng.randint(0, 59), tzinfo=timezone.utc)


def draw_fraction_digits(rng: random.Random) -> str:
    return "".join(rng.choice("0123456789") for _ in range(rng.choice([0, 1, 3, 6, 7, 9, 12, rng.randint(0, 12)])))


def moved(instant: datetime, fraction: str, rng: random.Random) -> tuple[datetime, str]:
    """Another instant near ``instant``: the same, a fraction's digit, a second, a minute, hours or days away."""
    step = rng.choice(["same", "same", "fraction", "second", "minute", "hours", "day", "days"])
    if step == "fraction":
        return instant, fraction[:-1] + rng.choice("0123456789") if fraction else rng.choice(["1", "01", "5"])
    delta = {
        "same": timedelta(0),
        "second": timedelta(seconds=rng.choice([-1, 1])),
        "minute": timedelta(minutes=rng.choice([-1, 1])),
        "hours": timedelta(minutes=rng.randint(-2880, 2880)),
        "day": timedelta(days=rng.choice([-1, 1])),
        "days": timedelta(days=rng.randint(-400, 400)),
    }[step]
    try:
        return instant + delta, fraction
    except OverflowError:
        return instant, fraction


def mixed_pairs(count: int, seed: int) -> list[tuple[mm.Timestamp, mm.Timestamp]]:
    rng = random.Random(seed)
    pairs: list[tuple[mm.Timestamp, mm.Timestamp]] = []
    while len(pairs) < count:
        instant, fraction = draw_instant(rng), draw_fraction_digits(rng)
        other, other_fraction = moved(instant, fraction, rng)
        first, second = written(instant, fraction, rng), written(other, other_fraction, rng)
        if first is not None and second is not None:
            pairs.append((first, second))
    return pairs


def reference_before(first: str, second: str) -> bool:
    return reference(first) < reference(second)


def test_is_before_agrees_with_datetime_on_mixed_offsets() -> None:
    disagreements, by_fields = [], 0
    for first, second in mixed_pairs(30_000, 3339):
        expected = reference_before(first, second), reference_before(second, first)
        for enabled in (True, False):
            with fast_paths(enabled):
                found = is_before(first, second), is_before(second, first)
            if found != expected:
                disagreements.append((first, second, enabled, expected, found))
        by_fields += first[-1] != second[-1] or first[-6:] != second[-6:]
    assert disagreements == []
    assert by_fields > 15_000  # the comparison by fields was put to the test


def mixed_stamps(rng: random.Random, most: int) -> tuple[list[mm.Timestamp], list[tuple[datetime, Decimal]]]:
    """The stamps of 1 to ``most`` pairs of mixed offsets, in a row, and each one's instant by ``datetime``."""
    pairs = mixed_pairs(rng.randint(1, most), rng.randrange(2**32))
    stamps = [stamp for pair in pairs for stamp in pair]
    return stamps, [reference(stamp) for stamp in stamps]


def test_earliest_and_latest_and_none_before_agree_with_datetime_on_mixed_offsets() -> None:
    rng = random.Random(8601)
    disagreements = []
    for _ in range(2_000):
        stamps, keys = mixed_stamps(rng, 5)
        first_earliest = stamps[keys.index(min(keys))]
        first_latest = stamps[keys.index(max(keys))]
        moment = stamps[0]
        expected = all(key >= keys[0] for key in keys[1:])
        for enabled in (True, False):
            with fast_paths(enabled):
                found = earliest_and_latest(stamps), none_before(stamps[1:], moment)
            if found != ((first_earliest, first_latest), expected):
                disagreements.append((stamps, enabled, found))
    assert disagreements == []


def test_none_given_before_agrees_with_datetime_on_mixed_offsets_with_stamps_not_given() -> None:
    # An inbox message's unset stamps are None: skipped, as if the list held only the others.
    rng = random.Random(3339)
    disagreements = []
    for _ in range(2_000):
        stamps, keys = mixed_stamps(rng, 4)
        expected = all(key >= keys[0] for key in keys[1:])
        given: list[mm.Timestamp | None] = list(stamps[1:])
        for _ in range(rng.randint(0, 3)):
            given.insert(rng.randint(0, len(given)), None)
        for enabled in (True, False):
            with fast_paths(enabled):
                found = none_given_before(given, stamps[0])
            if found is not expected:
                disagreements.append((stamps, given, enabled, found))
    assert disagreements == []


@pytest.mark.parametrize(
    ("first", "second", "before"),
    [
        # written out from RFC 3339 section 5.6: the same instant at two offsets, and moves across a day's end
        ("2026-03-02T17:00:00+02:00", "2026-03-02T15:00:00Z", False),
        ("2026-03-02T15:00:00Z", "2026-03-02T17:00:00+02:00", False),
        ("2026-03-02T17:00:00+02:00", "2026-03-02T15:00:00.001Z", True),
        ("2026-03-02T01:00:00+02:00", "2026-03-01T23:30:00Z", True),  # 23:00Z of the day before
        ("2026-03-01T19:30:00-05:00", "2026-03-02T00:00:00Z", False),  # 00:30Z of the next day
        ("2000-02-29T23:59:59-23:59", "2000-03-02T00:00:00+00:00", True),  # 03-01T23:58:59Z
        ("2026-12-31T23:00:00-02:00", "2027-01-01T00:30:00Z", False),  # 2027-01-01T01:00Z
        ("2026-03-02T10:00:00.10+01:00", "2026-03-02T09:00:00.1z", False),  # equal, fractions of other lengths
        ("2026-03-02t10:00:00.09+01:00", "2026-03-02T09:00:00.1Z", True),
    ],
)
@pytest.mark.parametrize("enabled", [True, False], ids=["fast", "strict"])
def test_mixed_offsets_table(first: str, second: str, before: bool, enabled: bool) -> None:
    with fast_paths(enabled):
        assert is_before(mm.Timestamp(first), mm.Timestamp(second)) is before


# --- how a rule's message quotes two stamps it orders ---------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "quoted"),
    [
        # one offset (Z, +00:00 and -00:00 are all UTC): as written
        ("2026-03-01T07:59:00Z", "2026-03-01T08:00:00Z", ("2026-03-01T07:59:00Z", "2026-03-01T08:00:00Z")),
        ("2026-03-01T07:59:00+00:00", "2026-03-01T08:00:00z", ("2026-03-01T07:59:00+00:00", "2026-03-01T08:00:00z")),
        (
            "2026-03-01T09:59:00+02:00",
            "2026-03-01T10:00:00+02:00",
            ("2026-03-01T09:59:00+02:00", "2026-03-01T10:00:00+02:00"),
        ),
        # offsets that differ: each stamp not at UTC followed by its instant at UTC (RFC 3339 section 4.2)
        (
            "2026-03-01T07:59:00Z",
            "2026-03-01T10:00:00+02:00",
            ("2026-03-01T07:59:00Z", "2026-03-01T10:00:00+02:00 (2026-03-01T08:00:00Z)"),
        ),
        (
            "2026-03-02t01:00:00.5+02:00",
            "2026-03-01T19:30:00-05:00",
            (
                "2026-03-02t01:00:00.5+02:00 (2026-03-01T23:00:00.5Z)",
                "2026-03-01T19:30:00-05:00 (2026-03-02T00:30:00Z)",
            ),
        ),
        # -00:00 is UTC too; a leap second and every fraction digit are kept as written
        ("2026-03-01T08:00:00-00:00", "2026-03-01T08:00:00Z", ("2026-03-01T08:00:00-00:00", "2026-03-01T08:00:00Z")),
        (
            "2016-12-31T23:59:59.9Z",
            "2017-01-01T01:59:60+02:00",
            ("2016-12-31T23:59:59.9Z", "2017-01-01T01:59:60+02:00 (2016-12-31T23:59:60Z)"),
        ),
        (
            "2026-03-01T10:00:00.1234567891+02:00",
            "2026-03-01T08:00:00.1234567892Z",
            (
                "2026-03-01T10:00:00.1234567891+02:00 (2026-03-01T08:00:00.1234567891Z)",
                "2026-03-01T08:00:00.1234567892Z",
            ),
        ),
        # an instant after the year 9999 or before 0000, which RFC 3339 cannot write: ISO 8601's expanded years
        (
            "9999-12-31T23:59:00Z",
            "9999-12-31T23:30:00-01:00",
            ("9999-12-31T23:59:00Z", "9999-12-31T23:30:00-01:00 (+10000-01-01T00:30:00Z)"),
        ),
        (
            "0000-01-01T00:30:00+01:00",
            "0000-01-01T00:00:00Z",
            ("0000-01-01T00:30:00+01:00 (-0001-12-31T23:30:00Z)", "0000-01-01T00:00:00Z"),
        ),
    ],
)
def test_as_compared_table(first: str, second: str, quoted: tuple[str, str]) -> None:
    assert as_compared(first, second) == quoted


def test_as_compared_names_the_instant_at_utc_on_mixed_offsets() -> None:
    # The UTC text in parentheses names the instant of the stamp it follows (datetime's reading, to the
    # microsecond it keeps); a stamp at UTC is quoted as written.
    checked = 0
    for first, second in mixed_pairs(5_000, 8601):
        for stamp, shown in zip((first, second), as_compared(first, second)):
            if shown == stamp:
                continue
            assert shown.startswith(f"{stamp} (") and shown.endswith("Z)")
            utc = shown[len(stamp) + 2 : -1]
            assert reference(utc) == reference(stamp)  # the same instant, by datetime, the fraction exactly
            assert utc[16:-1] == stamp[16 : -1 if stamp[-1] in "Zz" else -6]  # seconds and fraction as written
            checked += 1
    assert checked > 2_000


def test_an_inbox_message_before_created_names_the_instants_at_utc() -> None:
    document = {
        "schema_version": 1,
        "message_id": "IM-1",
        "type": "request",
        "status": "read",
        "sender_id": "a",
        "recipient_ids": ["b"],
        "subject": "s",
        "body": "b",
        "created_at": "2026-03-01T10:00:00+02:00",
        "updated_at": "2026-03-01T08:30:00Z",  # the same day, later by its instant (earlier as text)
        "read_at": "2026-03-01T07:59:00Z",
    }
    with pytest.raises(ValidationError) as refused:
        mm.InboxMessage.model_validate(document)
    assert mm.errors_as_json(refused.value) == [
        {
            "pointer": "/read_at",
            "code": "before_created",
            "message": "read_at 2026-03-01T07:59:00Z is before created_at 2026-03-01T10:00:00+02:00"
            ' (2026-03-01T08:00:00Z); found "2026-03-01T07:59:00Z"',  # the value quoted as docs/cli.md shows
        }
    ]
