"""Differential check: the models' verdict (schema-only) equals the reference draft-07 validator's.

Every payload is mutated at every path: each key dropped, an unknown key added
to each object, each value swapped for a value of every other JSON type, and
strings, numbers and arrays bent at their edges. Any disagreement fails and
names the document and the path that was changed.

Each test runs with the fast paths on and off (``either_path``): the verdict
is the reference's either way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import DELETE, FIXTURE_OF, PAYLOADS, fixture, load, mutate, reference_accepts
from fast_path_switch import either_path  # noqa: F401  # a fixture, used by pytestmark
from pydantic import ValidationError

import mplp_models as mm
from mplp_models._kinds import MPLP_MODULES

pytestmark = pytest.mark.usefixtures("either_path")

Path = tuple[Any, ...]
OTHER_TYPES: list[Any] = [None, True, False, 0, 1, -1, 1.5, 1.0, "", "x", [], {}]


def paths(value: Any, here: Path = ()) -> Iterator[tuple[Path, Any]]:
    yield here, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*here, index))


def edges(value: Any) -> list[Any]:
    """Values near the edge of what the keyword at this place may accept."""
    if isinstance(value, str):
        # Arabic-Indic digits for ASCII ones: a digit to Python's and Rust's \d, not to ECMA-262's.
        other_digits = value.translate(
            str.maketrans("0123456789", "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669")
        )
        return [
            value + "\n",
            " " + value,
            value.upper(),
            value + "\u0000",
            value * 50,
            "2026-02-29T00:00:00Z",
            other_digits,
        ]
    if isinstance(value, bool):
        return [int(value), str(value).lower()]
    if isinstance(value, (int, float)):
        return [-value - 1, value + 0.5, float(value), str(value), 1e308]
    if isinstance(value, list) and value:
        return [value + value[:1], value[:0]]
    return []


def mutations(document: Any) -> Iterator[tuple[str, Any]]:
    for path, value in paths(document):
        if isinstance(value, dict):
            yield f"add unknown key at {path}", mutate(document, (*path, "zz_unknown"), 1)
            for key in value:
                yield f"drop {(*path, key)}", mutate(document, (*path, key), DELETE)
        if path:
            for other in [*OTHER_TYPES, *edges(value)]:
                if type(other) is not type(value) or other != value:
                    yield f"set {path} to {other!r:.40}", mutate(document, path, other)


def accepts(model: type[mm.MplpModel], document: Any) -> bool:
    try:
        model.from_json(json.dumps(document), semantic=False)
    except ValidationError:
        return False
    return True


def mutation_disagreements(model: type[mm.MplpModel], judge: Callable[[Any], str | None]) -> list[str]:
    """What ``judge`` finds wrong with each mutation of the model's fixture (None: nothing), named by the mutation.

    There must be more than 100 mutations, or the comparison says little.
    """
    found = []
    count = 0
    for change, mutated in mutations(fixture(model)):
        count += 1
        said = judge(mutated)
        if said is not None:
            found.append(f"{change}: {said}")
    assert count > 100
    return found


def verdict_word(accepted: bool) -> str:
    return "accepts" if accepted else "refuses"


@pytest.mark.parametrize("model", list(FIXTURE_OF), ids=lambda model: model.__name__)
def test_every_mutation_gets_the_reference_verdict(model: type[mm.MplpModel]) -> None:
    def judge(mutated: Any) -> str | None:
        expected = reference_accepts(model, mutated)
        if accepts(model, mutated) == expected:
            return None
        return f"reference {verdict_word(expected)}; document {json.dumps(mutated)[:600]}"

    disagreements = mutation_disagreements(model, judge)
    assert not disagreements, "\n".join(disagreements[:20])


def test_rules_only_ever_add_rejections() -> None:
    for model, name in FIXTURE_OF.items():
        document = load(PAYLOADS / name)
        for _, mutated in mutations(document):
            if not accepts(model, mutated):
                with pytest.raises(ValidationError):
                    model.from_json(json.dumps(mutated))


UPSTREAM = [
    *(f"mplp-v1.0/examples/{module.lower()}.with-events.json" for module in MPLP_MODULES),
    "mplp-v1.0/examples/event.valid.json",
    "cortex-inbox/sample.json",
]


@pytest.mark.parametrize("name", UPSTREAM)
def test_upstream_payloads_mutated(name: str) -> None:
    from conftest import shared_or_skip

    raw = shared_or_skip(*name.split("/")).read_bytes()
    model = type(mm.parse(raw))
    disagreements = [
        f"{change}; document {json.dumps(mutated)[:600]}"
        for change, mutated in mutations(json.loads(raw))
        if accepts(model, mutated) != reference_accepts(model, mutated)
    ]
    assert not disagreements, "\n".join(disagreements[:20])


FAMILY_UPSTREAM = [
    "mplp-v1.0/examples/integration/ci-build-finished.json",
    "mplp-v1.0/examples/integration/git-push.json",
    "mplp-v1.0/examples/integration/ide-file-save.json",
    "mplp-v1.0/examples/integration/tool-execution.json",
    "mplp-v1.0/examples/learning/flow-01-intent-sample.json",
    "mplp-v1.0/examples/learning/flow-05-confirm-sample.json",
]


@pytest.mark.parametrize("name", FAMILY_UPSTREAM)
def test_upstream_family_examples_mutated(name: str) -> None:
    # Upstream's own integration and learning examples, without their top-level `$comment` (not payload).
    from conftest import shared_or_skip

    document = json.loads(shared_or_skip(*name.split("/")).read_bytes())
    del document["$comment"]
    model = type(mm.parse(document))
    disagreements = [
        f"{change}; document {json.dumps(mutated)[:600]}"
        for change, mutated in mutations(document)
        if accepts(model, mutated) != reference_accepts(model, mutated)
    ]
    assert not disagreements, "\n".join(disagreements[:20])


def test_the_reference_knows_all_29_mplp_schemas_by_their_ids() -> None:
    # Both `$id` hosts (schemas.mplp.dev/v1.0/ and mplp.dev/schemas/v1.0/) and the integration `$id`s ending
    # `.json`: the families' relative `$ref`s resolve against them. Written out from the upstream files.
    from conftest import REGISTRY

    hosts = {"https://schemas.mplp.dev/v1.0/": 16, "https://mplp.dev/schemas/v1.0/": 13}
    ids = [uri for uri in REGISTRY if "mplp" in uri and "cortex" not in uri and "Kucell" not in uri]
    assert {host: sum(uri.startswith(host) for uri in ids) for host in hosts} == hosts
    for name in ("ci", "file-update", "git", "tool"):
        assert f"https://mplp.dev/schemas/v1.0/integration/mplp-{name}-event.json" in ids
    core = REGISTRY.contents("https://mplp.dev/schemas/v1.0/events/mplp-event-core.schema.json")
    assert core["required"] == ["event_id", "event_type", "event_family", "timestamp"]


@pytest.mark.parametrize(
    ("model", "family"),
    [
        (mm.GraphUpdateEvent, "graph_update"),
        (mm.PipelineStageEvent, "pipeline_stage"),
        (mm.RuntimeExecutionEvent, "runtime_execution"),
    ],
)
def test_a_family_and_the_reference_refuse_another_family_value(model: type[mm.MplpModel], family: str) -> None:
    document = fixture(model)
    for other in ("import_process", "graph_update", "pipeline_stage", "runtime_execution", "bogus"):
        changed = {**document, "event_family": other}
        assert accepts(model, changed) == reference_accepts(model, changed) == (other == family)
