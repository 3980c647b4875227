"""A real PostgreSQL server for the tests: found (or installed), started in a temporary folder, on a unix socket.

``python tests/postgres_server.py --install`` (``make test`` runs it first) installs Debian's
``postgresql`` package when no server is found and the machine has ``apt-get`` and root; on
another machine it says what to install. The session fixture ``postgres_conninfo``
(``tests/conftest.py``) calls ``running_server``: ``initdb`` in a new temporary folder,
``postgres`` listening on a unix socket in that folder only (no TCP port, so test processes
never collide), as the ``postgres`` user when the tests run as root (the server refuses
root). Durability settings are off (``fsync``, ``synchronous_commit``, ``full_page_writes``):
the tests kill clients, not the server. Each test gets its own schema (``fresh_schema``).
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

_NEEDED = ("initdb", "postgres")
_START_TIMEOUT = 60.0


def server_binaries() -> Path | None:
    """The folder of a PostgreSQL server's ``initdb`` and ``postgres``; ``None`` if none is found."""
    candidates: list[Path] = []
    if os.environ.get("MPLP_TEST_POSTGRES_BIN"):
        candidates.append(Path(os.environ["MPLP_TEST_POSTGRES_BIN"]))
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=_major, reverse=True)
    found = shutil.which("initdb")
    if found:
        candidates.append(Path(found).resolve().parent)
    candidates += [Path("/usr/local/pgsql/bin"), *sorted(Path("/opt/homebrew/opt").glob("postgresql*/bin"))]
    for folder in candidates:
        if all((folder / name).is_file() and os.access(folder / name, os.X_OK) for name in _NEEDED):
            return folder
    return None


def _major(folder: Path) -> int:
    name = folder.parent.name
    return int(name) if name.isdigit() else 0


def install() -> int:
    """Install Debian's ``postgresql`` if no server is found (root and apt-get only); the exit status."""
    if server_binaries() is not None:
        return 0
    apt = shutil.which("apt-get")
    if apt is None or os.geteuid() != 0:
        print(
            "tests/postgres_server.py: no PostgreSQL server found (initdb, postgres). Install one "
            "(Debian: apt-get install postgresql; macOS: brew install postgresql), or set "
            "MPLP_TEST_POSTGRES_BIN to its bin folder; MPLP_TEST_SKIP_POSTGRES=1 skips its tests.",
            file=sys.stderr,
        )
        return 1
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    command = [apt, "install", "-y", "-qq", "--no-install-recommends", "postgresql"]
    if subprocess.run(command, env=environment, check=False).returncode != 0:  # stale package lists: update once
        subprocess.run([apt, "update", "-qq"], env=environment, check=True)
        subprocess.run(command, env=environment, check=True)
    return 0 if server_binaries() is not None else 1


def _as_user() -> dict[str, Any]:
    """Popen's arguments that run the server as ``postgres`` when the tests run as root."""
    if os.geteuid() != 0:
        return {}
    try:
        account = pwd.getpwnam("postgres")
    except KeyError:
        raise RuntimeError("the tests run as root and there is no user 'postgres' to run the server as") from None
    return {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}


@contextmanager
def running_server(*, durable: bool = False) -> Iterator[str]:
    """A server running until the end of the block; its libpq connection string.

    ``durable``: with PostgreSQL's own durability settings (fsync on), as a benchmark wants.
    """
    binaries = server_binaries()
    if binaries is None:
        raise RuntimeError("no PostgreSQL server found: run `python tests/postgres_server.py --install`")
    user = _as_user()
    folder = Path(tempfile.mkdtemp(prefix="mplp-pg-"))
    server: subprocess.Popen[bytes] | None = None
    try:
        if user:
            os.chown(folder, user["user"], user["group"])
        data, log = folder / "data", folder / "server.log"
        initdb = [str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8"]
        subprocess.run([*initdb, "--no-sync", "--no-instructions"], check=True, capture_output=True, **user)
        settings = ["listen_addresses=", f"unix_socket_directories={folder}", "max_connections=200"]
        if not durable:
            settings += ["fsync=off", "synchronous_commit=off", "full_page_writes=off"]
        command = [str(binaries / "postgres"), "-D", str(data), *(f"-c{setting}" for setting in settings)]
        with open(log, "wb") as output:
            server = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, **user)
        conninfo = f"host={folder} port=5432 dbname=postgres user=postgres"
        _wait_until_ready(server, conninfo, log)
        yield conninfo
    finally:
        if server is not None:
            _stop(server)
        shutil.rmtree(folder, ignore_errors=True)


def _wait_until_ready(server: subprocess.Popen[bytes], conninfo: str, log: Path) -> None:
    import psycopg

    deadline = time.monotonic() + _START_TIMEOUT
    while True:
        if server.poll() is not None:
            raise RuntimeError(f"the PostgreSQL server stopped at start:\n{log.read_text(errors='replace')}")
        try:
            psycopg.connect(conninfo, connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the PostgreSQL server did not start in {_START_TIMEOUT:g} s") from None
            time.sleep(0.05)


def _stop(server: subprocess.Popen[bytes]) -> None:
    server.send_signal(signal.SIGINT)  # fast shutdown: open sessions are ended
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def fresh_schema(conninfo: str, *settings: str) -> str:
    """The connection string of a new, empty schema of the server (``search_path`` set to it, and ``settings``)."""
    import psycopg

    schema = f"test_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(conninfo, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    options = " ".join(f"-c{setting}" for setting in (f"search_path={schema}", *settings))
    return f"{conninfo} options='{options}'"


if __name__ == "__main__":
    if sys.argv[1:] != ["--install"]:
        sys.exit("usage: python tests/postgres_server.py --install")
    sys.exit(install())
