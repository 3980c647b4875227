"""check_lines beyond one process: ``dask.bag.read_text(...).map_partitions(check_lines)`` on a
``LocalCluster`` of two worker processes, which the test starts on 127.0.0.1, gives the verdicts
that ``mplp-models validate --ndjson`` gives on the same sharded files, line by line."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("distributed")  # the optional `dask` extra

import dask.bag
from distributed import Client, LocalCluster, get_task_stream
from test_lines import as_records, cli_records, mixed_lines

import mplp_models as mm


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    # Everything on the loopback interface; the scheduler's HTTP server (always started) on a free port, so
    # that a cluster already on the default port (8787) costs no warning.
    with (
        LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address="127.0.0.1:0"
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


@pytest.fixture
def shards(tmp_path: Path) -> list[Path]:
    """The mixed lines in four files, one of them with CRLF endings and one without a newline at its end."""
    lines = mixed_lines() * 3
    paths = []
    for number in range(4):
        share = lines[number::4]
        ending = b"\r\n" if number == 2 else b"\n"
        text = ending.join(share) + (b"" if number == 3 else ending)
        path = tmp_path / f"part-{number}.ndjson"
        path.write_bytes(text)
        paths.append(path)
    return paths


def dask_records(client: Client, paths: list[Path], **options: Any) -> list[dict[str, Any]]:
    """The verdicts of the cluster, one partition a file, as the command's records."""
    # The recipe of docs/beyond-one-machine.md: one partition a file (blocksize None), lines split at
    # \n only and kept as written, as the command reads them; a line that is not UTF-8 reaches
    # check_lines (escaped) instead of stopping the partition.
    names = [str(path) for path in paths]
    bag = dask.bag.read_text(names, encoding="utf-8", errors="surrogateescape", linedelimiter="\n")
    with get_task_stream(client) as stream:
        partitions = client.gather(
            client.compute(bag.map_partitions(functools.partial(mm.check_lines, **options)).to_delayed())
        )
    workers = {task["worker"] for task in stream.data}
    assert workers and workers <= set(client.scheduler_info()["workers"])
    return [record for path, verdicts in zip(names, partitions) for record in as_records(path, list(verdicts))]


def not_utf8(paths: list[Path]) -> set[tuple[str, int]]:
    """(source, line) of every line that is not UTF-8."""
    found = set()
    for path in paths:
        for number, line in enumerate(path.read_bytes().split(b"\n"), 1):
            try:
                line.decode("utf-8")
            except UnicodeDecodeError:
                found.add((str(path), number))
    return found


@pytest.mark.parametrize("options", [{}, {"semantic": False}])
def test_a_two_worker_cluster_gives_the_commands_verdicts(
    client: Client, shards: list[Path], options: dict[str, Any]
) -> None:
    assert len(client.scheduler_info()["workers"]) == 2
    records = dask_records(client, shards, **options)
    cli = cli_records(*(["--schema-only"] if options else []), *map(str, shards))
    assert len(records) == len(cli) > 50
    escaped = not_utf8(shards)
    assert len(escaped) == 3
    for mine, theirs in zip(records, cli):
        if (mine["source"], mine["line"]) in escaped:
            # The same verdict; only the message's quote of the bytes differs (escaped text, not bytes).
            assert (mine["valid"], mine["kind"], [e["code"] for e in mine["errors"]]) == (False, None, ["json_invalid"])
            assert [e["code"] for e in theirs["errors"]] == ["json_invalid"]
            mine, theirs = {**mine, "errors": []}, {**theirs, "errors": []}
        assert mine == theirs
    assert {record["kind"] for record in records if record["valid"]} >= {"Plan", "Dialog", "InboxMessage"}
    assert sum(not record["valid"] for record in records) >= 27
