"""Print the sha256 of the canonical JSON (RFC 8785) of each payload file, as sha256sum prints file hashes.

    python examples/hash_payload.py examples/payloads/*.json
    python examples/hash_payload.py - < examples/payloads/plan.json

Two payloads that hold the same JSON, however they are spaced, indented or ordered, have the same
canonical bytes and so the same hash, in any language that follows RFC 8785: the hash to sign,
to deduplicate by, or to compare across systems. Each payload is validated first; one that is
not valid is reported on standard error and not hashed (exit status 1).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from pydantic import ValidationError

import mplp_models as mm


def canonical_sha256(data: bytes) -> str:
    """The hex sha256 of a payload's canonical JSON; a ValidationError if it is not a valid payload."""
    return hashlib.sha256(mm.parse(data).to_json()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("paths", nargs="+", help="payload files; - for standard input")
    args = parser.parse_args(argv)
    status = 0
    for path in args.paths:
        try:
            data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
            print(f"{canonical_sha256(data)}  {path}")
        except OSError as error:
            print(f"{path}: cannot read: {error.strerror}", file=sys.stderr)
            status = 1
        except ValidationError as error:
            for entry in mm.errors_as_json(error):
                print(f"{path}: not hashed: {entry['pointer'] or '(whole payload)'}: {entry['code']}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
