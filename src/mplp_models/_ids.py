"""Fresh ids and the metadata of a document made now: what every layer that makes documents shares.

The command line's skeletons and the chat-format imports both make documents;
neither borrows from the other.
"""

from __future__ import annotations

import uuid

__all__ = ["PROTOCOL_VERSION", "new_id", "new_meta"]

PROTOCOL_VERSION = "1.0.0"


def new_id() -> str:
    """A fresh MPLP id.

    Returns:
        A random UUID version 4 as lowercase, hyphenated text (the ``MplpId`` form).
    """
    return str(uuid.uuid4())


def new_meta(now: str) -> dict[str, str]:
    """The metadata of a document made now: MPLP protocol and schema version 1.0.0, created at ``now``."""
    return {"protocol_version": PROTOCOL_VERSION, "schema_version": PROTOCOL_VERSION, "created_at": now}
