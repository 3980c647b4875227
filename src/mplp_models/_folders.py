"""The one way the SDK makes a rename durable: ``sync_folder``, shared by the flow folder and the Cortex inbox."""

from __future__ import annotations

import errno
import os
from pathlib import Path

__all__ = ["sync_folder"]


def sync_folder(folder: Path) -> None:
    """Nothing returned: ``folder`` is synced, so that a rename in it (one of its entries) is durable.

    On Windows a folder cannot be opened, so not synced: NTFS journals its renames.
    """
    if os.name == "nt":  # pragma: no cover - NTFS journals its renames
        return
    handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(handle)
    except OSError as error:
        if error.errno not in (errno.EINVAL, errno.ENOTSUP):  # a file system that cannot sync a folder
            raise
    finally:
        os.close(handle)
