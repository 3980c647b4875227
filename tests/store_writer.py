"""A writer process of tests/test_store_faults.py: it opens a store and edits one plan, as an agent would.

python tests/store_writer.py append LOCATION PLAN_ID NAME COUNT GO_FILE
    COUNT read-modify-write loops, each adding the step "NAME-i" and retrying on StoreConflict;
    starts when GO_FILE exists (so that the writers start together); prints its conflicts.
python tests/store_writer.py stream LOCATION PLAN_ID
    puts a new version of the plan again and again (until killed), printing
    "NUMBER SHA256" once each put has returned.
python tests/store_writer.py fill LOCATION PLAN_ID
    puts ever larger versions until the store fails; prints the last version written, then
    the error ("failed: ...").
python tests/store_writer.py readonly LOCATION PLAN_ID UID
    as user UID if given (the tests run as root), opens the store and puts a version;
    prints the error.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import mplp_models as mm
from mplp_models.store import Store, StoreError, open_store


def _step(description: str) -> mm.PlanStep:
    return mm.PlanStep(step_id=mm.new_id(), description=description, status="pending")


def append(store: Store, plan_id: str, name: str, count: int, go: Path) -> None:
    while not go.exists():
        time.sleep(0.001)
    conflicts = 0
    for number in range(count):
        while True:
            plan, seen = store.read(mm.Plan, plan_id)
            try:
                store.put(plan.add_step(_step(f"{name}-{number}")), expected=seen)
                break
            except mm.StoreConflict:
                conflicts += 1
    print(conflicts, flush=True)


def stream(store: Store, plan_id: str) -> None:
    while True:
        plan, seen = store.read(mm.Plan, plan_id)
        first = plan.steps[0]
        changed = plan.update_step(first.step_id, description=f"Edited {seen.number + 1} times")
        version = store.put(changed.add_step(_step(f"Step {seen.number + 1}")), expected=seen)
        # One write of the whole line (a pipe takes it at once): print would write its parts one by one
        # under PYTHONUNBUFFERED, and a kill between them would leave half a report.
        sys.stdout.write(f"{version.number} {version.sha256}\n")
        sys.stdout.flush()


def fill(store: Store, plan_id: str) -> None:
    number = 1
    try:
        while True:
            plan, seen = store.read(mm.Plan, plan_id)
            # Whole, unshared text: each version adds about 64 kB that no other version has.
            bulk = os.urandom(24_000).hex()
            version = store.put(plan.add_step(_step(f"Bulk {bulk}")), expected=seen)
            number = version.number
            print(number, version.sha256, flush=True)
    except StoreError as error:
        print(f"failed: {error}", flush=True)


def read_only(location: str, plan_id: str, user: int | None) -> None:
    with open_store(location, read_only=True) as store:  # read before the user changes: the models load now
        plan, seen = store.read(mm.Plan, plan_id)
    changed = plan.add_step(_step("Refused"))
    if user is not None:  # the interpreter stays readable to that user; the store's file and folder are not writable
        os.setgid(user)
        os.setuid(user)
    try:
        with open_store(location) as store:
            store.put(changed, expected=seen)
        print("written", flush=True)
    except StoreError as error:
        print(f"failed: {error}", flush=True)


def main(mode: str, location: str, plan_id: str, *rest: str) -> None:
    if mode == "readonly":
        read_only(location, plan_id, int(rest[0]) if rest else None)
        return
    with open_store(location) as store:
        if mode == "append":
            append(store, plan_id, rest[0], int(rest[1]), Path(rest[2]))
        elif mode == "stream":
            stream(store, plan_id)
        else:
            fill(store, plan_id)


if __name__ == "__main__":
    main(*sys.argv[1:])
