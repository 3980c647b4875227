"""The picture of a session: its documents, and the ids by which they name each other (``flow_mermaid``).

At the entry-point layer, since a document's own id field comes from the registry of kinds
(``_kinds``); the drawing itself is ``_pictures.documents_mermaid``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import cast

from mplp_models._base import MplpModel
from mplp_models._kinds import KINDS
from mplp_models._pictures import documents_mermaid
from mplp_models._public import generated_kind

__all__ = ["flow_mermaid"]

_ID_FIELDS = {kind.name: kind.id_field for kind in KINDS}


def _kind(model: MplpModel) -> str:
    """The payload kind of ``model``: its class's name, or that of the generated class it subclasses."""
    kind = generated_kind(model, _ID_FIELDS)
    if kind is None:
        raise TypeError(f"not a parsed payload (a Plan, Context...): {type(model).__name__}")
    return kind


def _strings(value: object, path: tuple[str, ...] = ()) -> Iterator[tuple[str, str]]:
    """Every string in a JSON value, with its path (``events[].trace_id``: list positions as ``[]``)."""
    if isinstance(value, str):
        yield ".".join(path), value
    elif isinstance(value, Mapping):
        for key, item in cast("Mapping[str, object]", value).items():
            yield from _strings(item, (*path, key))
    elif isinstance(value, list):
        marked = (*path[:-1], path[-1] + "[]") if path else ("[]",)
        for item in cast("list[object]", value):
            yield from _strings(item, marked)


def _label(name: str | int, kind: str, model: MplpModel) -> str:
    own = str(getattr(model, _ID_FIELDS[kind]))
    title = getattr(model, "title", None) or getattr(model, "label", None)
    status = getattr(model, "status", None)
    lines = [kind if isinstance(name, int) else f"{name}: {kind}", *([title] if isinstance(title, str) else []), own]
    if status is not None:
        lines.append(str(getattr(status, "value", status)))
    return "\n".join(lines)


def flow_mermaid(documents: Mapping[str, MplpModel] | Iterable[MplpModel]) -> str:
    """The documents of a session as a Mermaid flowchart: a node per document, an arrow per id it names.

    Each node says the document's kind (after its name, for a mapping), its title where it has
    one, its own id and its status. An arrow goes from a document to every other document of
    the set whose own id it holds anywhere, labelled by where (``context_id``,
    ``root_span.context_id``, ``events[].trace_id``), once per place. Ids that name no document
    of the set draw nothing: ``check_flow`` says what is missing.

    Raises:
        TypeError: If a document is not a parsed payload (a Plan, a Context...).
    """
    named: list[tuple[str | int, MplpModel]] = (
        list(cast("Mapping[str, MplpModel]", documents).items())
        if isinstance(documents, Mapping)
        else list(enumerate(documents))
    )
    kinds = [_kind(model) for _, model in named]
    owner: dict[str, int] = {}
    for position, ((_, model), kind) in enumerate(zip(named, kinds)):
        owner.setdefault(str(getattr(model, _ID_FIELDS[kind])), position)
    edges: dict[tuple[int, int, str], None] = {}
    for position, (_, model) in enumerate(named):
        for path, text in _strings(model.to_dict()):
            target = owner.get(text)
            if target is not None and target != position:
                edges.setdefault((position, target, path))
    nodes = [_label(name, kind, model) for (name, model), kind in zip(named, kinds)]
    return documents_mermaid(nodes, edges)
