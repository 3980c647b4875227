"""The switches of the fast paths: ``MPLP_MODELS_NO_FAST_PATHS`` names those to turn off, ``1`` all of them.

A fast path gives what its strict path gives, by a proof written next to it
(docs/architecture.md lists them). ``MPLP_MODELS_NO_FAST_PATHS=reading,writing``
turns those two off, ``1`` (or any other text that is no list of names) every
one, ``0`` or nothing none. Off, a path takes its strict function: for ruling
the fast paths out when a result looks wrong, and for the tests, which run the
differential checks both ways. Read once, at import; each fast path asks ``on``
when it runs, so the tests flip ``ENABLED`` (all of them) or ``OFF``.
"""

from __future__ import annotations

import os

__all__ = ["ENABLED", "LOADING", "NAMES", "OFF", "READING", "RULES", "TIMESTAMPS", "VALUES", "WRITING", "on"]

READING = "reading"
LOADING = "loading"
WRITING = "writing"
VALUES = "values"
RULES = "rules"
TIMESTAMPS = "timestamps"

NAMES = frozenset({READING, LOADING, WRITING, VALUES, RULES, TIMESTAMPS})
"""Every fast path's name (docs/architecture.md: where each one's fast and strict functions live)."""


def _off(setting: str) -> frozenset[str]:
    """The names a setting of ``MPLP_MODELS_NO_FAST_PATHS`` turns off: all of them for anything but a list of names."""
    setting = setting.strip().lower()
    if setting in ("", "0"):
        return frozenset()
    names = frozenset(part.strip() for part in setting.split(","))
    return names if names <= NAMES else NAMES  # "1", "yes", a typo: every one, as it always was


OFF: frozenset[str] = _off(os.environ.get("MPLP_MODELS_NO_FAST_PATHS", ""))
"""The fast paths turned off by name."""

ENABLED: bool = NAMES != OFF
"""False turns every fast path off (``MPLP_MODELS_NO_FAST_PATHS=1``), whatever ``OFF`` says."""


def on(name: str) -> bool:
    """Whether the fast path ``name`` (one of ``NAMES``) is taken."""
    return ENABLED and name not in OFF
