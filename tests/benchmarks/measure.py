"""Timing side by side: interleaved rounds, medians, spreads and paired ratios.

In every round each case runs once (a batch of calls sized to a time budget),
in an order that rotates from round to round, so that the noise of a shared
machine falls on every case of a comparison alike. A ratio is the median of
the per-round ratios, each taken between two batches of the same round.
"""

from __future__ import annotations

import gc
import os
import statistics
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass
class Samples:
    """Seconds per call of one case, one value per round."""

    values: list[float]
    loops: int  # calls per batch

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    def summary(self) -> dict[str, Any]:
        ordered = sorted(self.values)
        q1, _, q3 = statistics.quantiles(ordered, n=4, method="inclusive") if len(ordered) > 1 else ordered * 3
        return {
            "median": self.median,
            "q1": q1,
            "q3": q3,
            "min": ordered[0],
            "max": ordered[-1],
            "rounds": len(ordered),
            "loops": self.loops,
        }


def ratio(numerator: Samples, denominator: Samples) -> float:
    """The median over rounds of numerator / denominator, round by round."""
    return statistics.median(a / b for a, b in zip(numerator.values, denominator.values))


def _once(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def interleaved(cases: Mapping[str, Callable[[], object]], rounds: int, budget: float) -> dict[str, Samples]:
    """Seconds per call of each case: ``rounds`` rounds, each case once per round for about ``budget`` seconds.

    The garbage collector stays on, as in a real program; it is emptied
    before each batch, so that no batch pays for another's garbage, and what
    exists before the first round is frozen out of its sight.
    """
    loops = {}
    for name, fn in cases.items():
        fn()  # warm up: caches, lazy imports, compiled patterns
        once = _once(fn)
        if once < budget:
            once = min(once, _once(fn), _once(fn))
        loops[name] = max(1, round(budget / max(once, 1e-7)))
    gc.collect()
    gc.freeze()
    samples = {name: Samples([], loops[name]) for name in cases}
    names = list(cases)
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            fn, count = cases[name], loops[name]
            gc.collect()
            start = time.perf_counter()
            for _ in range(count):
                fn()
            samples[name].values.append((time.perf_counter() - start) / count)
    return samples


def processes(
    commands: Mapping[str, Sequence[str]], rounds: int, env: dict[str, str] | None = None
) -> tuple[dict[str, Samples], dict[str, str]]:
    """Wall-clock seconds of whole commands, interleaved round by round; and why a command failed, if one did.

    A command that fails (exit status not 0) on its first run is left out of
    the rounds and its stderr's last line is returned as the reason. ``env``
    is the whole environment of the commands (default: this one's).
    """
    failed: dict[str, str] = {}
    live = {}
    full_env = dict(os.environ) if env is None else env
    for name, command in commands.items():  # the first run also writes the bytecode caches
        done = subprocess.run(command, capture_output=True, env=full_env, check=False)
        if done.returncode == 0:
            live[name] = command
        else:
            lines = (done.stderr or done.stdout).decode(errors="replace").strip().splitlines()
            failed[name] = f"exit status {done.returncode}: {lines[-1] if lines else 'no output'}"
    samples = {name: Samples([], 1) for name in live}
    names = list(live)
    for r in range(rounds):
        for name in names[r % max(len(names), 1) :] + names[: r % max(len(names), 1)]:
            start = time.perf_counter()
            done = subprocess.run(
                live[name], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=full_env, check=False
            )
            elapsed = time.perf_counter() - start
            if done.returncode != 0:
                failed[name] = f"exit status {done.returncode} in round {r + 1}"
            samples[name].values.append(elapsed)
    return {name: s for name, s in samples.items() if name not in failed}, failed
