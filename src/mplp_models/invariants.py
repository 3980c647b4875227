"""Upstream's invariant files, executed: every rule over a set of documents, each application with its verdict.

MPLP's upstream keeps rules beyond the schemas in YAML files (``invariants/*.yaml``,
``invariants/families/*.yaml``, a flow's ``invariants.yaml``): an id, a scope (the
kind of document), a path into it and a rule::

    - id: plan_context_id_match
      path: context_id
      rule: eq(context.context_id)

``load`` reads such a file (PyYAML, the ``invariants`` extra: ``pip install
'mplp-models[invariants]'``) and parses every rule at once, so that a rule
form this module does not know is an ``InvariantError`` then, never a pass.
``evaluate`` applies each rule to each document of its scope and gives one
``Verdict`` per application: ``holds``, ``fails`` (with the JSON Pointer and
the value), ``not_applicable`` (its document, or the element a path names, is
absent, or an ``if(...)`` condition is false) or ``descriptive`` (upstream
states the rule in words only, with no path and rule to run).

The rule language is the whole of what upstream's files use: ``uuid-v4``,
``non-empty-string``, ``string``, ``optional-string``, ``positive-integer``,
``iso-datetime``, ``exists``, ``enum(a,b)``, ``one-of(["a", "b"])``,
``eq(scope.path)`` or ``eq("literal")``, ``min-length(n)`` and ``if(field ==
"value", rule)``; paths are dotted names with ``[*]``, ``[n]`` and filters
``[?field=="value"]``. A note or description of the form "Apply only when X
exists" or "If X present" (X the rule's own field) makes an absent value not
applicable, and "Apply when F == V" makes the rule apply only to documents where
F is V: upstream writes those conditions in its notes and descriptions
(docs/sessions.md lists the forms).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Sized
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias, cast

from mplp_models._base import MplpModel, json_key
from mplp_models._kinds import KINDS
from mplp_models._public import generated_kind
from mplp_models._text import pointer

__all__ = [
    "Invariant",
    "InvariantError",
    "Verdict",
    "VerdictStatus",
    "evaluate",
    "load",
    "loads",
    "scope_of",
]

VerdictStatus: TypeAlias = Literal["holds", "fails", "not_applicable", "descriptive"]
"""The outcome of one rule application (``descriptive``: a rule upstream states in words only)."""


class InvariantError(ValueError):
    """An invariant file or rule that cannot be read: unknown rule form, bad path, missing key."""


class _Absent:
    """No value at the path (a missing key or element), told apart from a JSON null."""

    def __repr__(self) -> str:
        return "<absent>"


_ABSENT = _Absent()

# One parsed rule: the value at the path (or _ABSENT) and the document in -> None (holds) or why it fails.
_Check: TypeAlias = Callable[[object, "_Scope"], "str | None"]


@dataclass(frozen=True)
class Invariant:
    """One rule of an invariant file, as upstream writes it (``path`` and ``rule`` are None for a descriptive rule)."""

    id: str
    scope: str
    path: str | None
    rule: str | None
    description: str
    note: str
    source: str  # the file it was read from


@dataclass(frozen=True)
class Verdict:
    """One application of an invariant: to which document, at which place, and what came out."""

    invariant: str  # the invariant's id
    scope: str
    status: VerdictStatus
    document: str | int | None  # the document's name (its key, or its position); None when no document applied
    pointer: str | None  # RFC 6901, into that document
    value: object  # the value found there (None when absent: see ``present``)
    present: bool
    message: str


# --- reading files -------------------------------------------------------------------------------


def load(path: str | os.PathLike[str]) -> tuple[Invariant, ...]:
    """The invariants of a YAML file; a rule without a scope takes the file's name (``plan.yaml``: plan).

    Raises:
        InvariantError: If the file is not an invariant file, or a rule's form is unknown.
        ImportError: If PyYAML (the ``invariants`` extra) is not installed.
        OSError: If the file cannot be read.
        UnicodeDecodeError: If the file is not UTF-8 text (a ``ValueError``).
    """
    file = Path(path)
    return loads(file.read_text(encoding="utf-8"), source=file.name, default_scope=file.stem)


def loads(text: str, *, source: str = "<string>", default_scope: str | None = None) -> tuple[Invariant, ...]:
    """The invariants of YAML text: a list of rules, or a mapping whose ``invariants`` key holds one.

    Raises:
        InvariantError: As for ``load``.
        ImportError: If PyYAML (the ``invariants`` extra) is not installed.
    """
    entries = _entries(_yaml_load(text, source), source)
    invariants = tuple(_invariant(entry, source, default_scope) for entry in entries)
    seen: set[str] = set()
    for invariant in invariants:
        if invariant.id in seen:
            raise InvariantError(f"{source}: invariant {invariant.id!r} is defined twice")
        seen.add(invariant.id)
    return invariants


def _yaml_load(text: str, source: str) -> object:
    try:
        import yaml
    except ImportError as error:
        raise ImportError(
            "mplp_models.invariants reads YAML with PyYAML: pip install 'mplp-models[invariants]'"
        ) from error
    try:
        return cast(object, yaml.safe_load(text))
    except yaml.YAMLError as error:
        raise InvariantError(f"{source}: not YAML: {error}") from None


def _entries(data: object, source: str) -> list[object]:
    if isinstance(data, Mapping):
        top = cast(Mapping[str, object], data)
        # Upstream's learning file ends with a stray, unindented `note:`: a note, kept out of the rules.
        unknown = set(top) - {"invariants", "note"}
        if unknown or not isinstance(top.get("invariants"), list):
            raise InvariantError(f"{source}: expected a list of invariants, or a mapping with an 'invariants' list")
        data = top["invariants"]
    if not isinstance(data, list):
        raise InvariantError(f"{source}: expected a list of invariants")
    return cast(list[object], data)


_KEYS = {"id", "scope", "path", "rule", "description", "note"}


def _invariant(entry: object, source: str, default_scope: str | None) -> Invariant:
    if not isinstance(entry, Mapping):
        raise InvariantError(f"{source}: an invariant is a mapping, not {entry!r}")
    given = cast(Mapping[str, object], entry)
    unknown = set(given) - _KEYS
    identifier = given.get("id")
    if not isinstance(identifier, str) or unknown:
        raise InvariantError(f"{source}: invariant {identifier!r}: needs a string id; unknown keys {sorted(unknown)}")
    fields = {key: given.get(key) for key in ("scope", "path", "rule", "description", "note")}
    for key, value in fields.items():
        if value is not None and not isinstance(value, str):
            raise InvariantError(f"{source}: invariant {identifier}: {key} should be a string, not {value!r}")
    scope = cast("str | None", fields["scope"]) or default_scope
    path, rule = cast("str | None", fields["path"]), cast("str | None", fields["rule"])
    if scope is None:
        raise InvariantError(f"{source}: invariant {identifier} has no scope")
    if (path is None) != (rule is None):
        raise InvariantError(f"{source}: invariant {identifier}: a path needs a rule and a rule a path")
    invariant = Invariant(
        identifier,
        scope,
        path,
        rule,
        cast(str, fields["description"] or ""),
        cast(str, fields["note"] or ""),
        source,
    )
    _compiled(invariant)  # an unknown form is an error now, not a pass later
    return invariant


# --- paths ---------------------------------------------------------------------------------------

_Step: TypeAlias = "str | int | tuple[str, object] | None"  # key, index, filter (field, value), wildcard (None)
_TOKEN = re.compile(
    r"""\.?(?:(?P<name>[A-Za-z_$][\w$-]*)|\[(?:(?P<star>\*)|(?P<index>[0-9]+)|\?(?P<field>[\w.]+)\s*==\s*(?P<literal>"[^"]*"|'[^']*'|[^\]]+))\])"""
)


def _parse_path(path: str) -> tuple[_Step, ...]:
    steps: list[_Step] = []
    position = 0
    while position < len(path):
        match = _TOKEN.match(path, position)
        if match is None or (position == 0 and path.startswith(".")):
            raise InvariantError(f"cannot read path {path!r} at {path[position:]!r}")
        if match["name"] is not None:
            steps.append(match["name"])
        elif match["star"] is not None:
            steps.append(None)
        elif match["index"] is not None:
            steps.append(int(match["index"]))
        else:
            steps.append((match["field"], _literal(match["literal"].strip())))
        position = match.end()
    if not steps:
        raise InvariantError("an empty path")
    return tuple(steps)


def _literal(text: str) -> object:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    try:
        return cast(object, json.loads(text))
    except ValueError:
        return text  # a bare word, as upstream writes enum values: round_robin


def _resolve(document: object, steps: Sequence[_Step]) -> Iterator[tuple[tuple[str | int, ...], object]]:
    """Every place the path names: its location and value (``_ABSENT`` for a missing key or element).

    A wildcard or filter over an empty or missing list names no place.
    """
    places: list[tuple[tuple[str | int, ...], object]] = [((), document)]
    for step in steps:
        following: list[tuple[tuple[str | int, ...], object]] = []
        for where, value in places:
            following += _step(where, value, step)
        places = following
    yield from places


def _step(where: tuple[str | int, ...], value: object, step: _Step) -> list[tuple[tuple[str | int, ...], object]]:
    if value is _ABSENT:
        # Under a missing key the next key is missing too; a missing list has no element.
        return [((*where, step), _ABSENT)] if isinstance(step, (str, int)) else []
    if isinstance(step, str):
        found = cast(Mapping[str, object], value).get(step, _ABSENT) if isinstance(value, Mapping) else _ABSENT
        return [((*where, step), found)]
    if isinstance(step, int):
        items = cast(list[object], value) if isinstance(value, list) else []
        return [((*where, step), items[step] if step < len(items) else _ABSENT)]
    if not isinstance(value, list):
        return []
    elements: list[tuple[int, object]] = list(enumerate(cast(list[object], value)))
    if step is not None:
        name, wanted = step
        elements = [(i, element) for i, element in elements if _same(_value_at(element, name), wanted)]
    return [((*where, i), element) for i, element in elements]


def _value_at(document: object, dotted: str) -> object:
    places = list(_resolve(document, _parse_path(dotted)))
    return places[0][1] if len(places) == 1 else _ABSENT


# --- rules ---------------------------------------------------------------------------------------

_UUID_V4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", re.IGNORECASE)
# ISO 8601 / RFC 3339 date-time: a date, T, a time, an optional fraction, and a zone. [0-9], not \d:
# \d takes any Unicode digit ("٢٠٢٦"), which no date-time has.
_DATETIME = re.compile(
    r"[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt]([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)"
    r"(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"
)


@dataclass(frozen=True)
class _Scope:
    """What a rule sees beside the value: its document, and every document of the set by scope."""

    document: object
    scope: str
    documents: Mapping[str, Sequence[tuple[str | int, object]]]


def _simple(test: Callable[[object], bool], wanted: str) -> _Check:
    def check(value: object, _: _Scope) -> str | None:
        return None if test(value) else f"expected {wanted}"

    return check


def _is_string(value: object) -> bool:
    return isinstance(value, str)


_SIMPLE: dict[str, _Check] = {
    "uuid-v4": _simple(lambda v: isinstance(v, str) and _UUID_V4.fullmatch(v) is not None, "a UUID v4"),
    "non-empty-string": _simple(lambda v: isinstance(v, str) and bool(v.strip()), "a non-empty string"),
    "string": _simple(_is_string, "a string"),
    "optional-string": _simple(lambda v: v is _ABSENT or isinstance(v, str), "a string, or nothing"),
    "positive-integer": _simple(
        lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 0, "a positive integer"
    ),
    "iso-datetime": _simple(
        lambda v: isinstance(v, str) and _DATETIME.fullmatch(v) is not None, "an ISO 8601 date-time"
    ),
    "exists": _simple(lambda v: v is not _ABSENT and v is not None, "a value"),
}

_CALL = re.compile(r"(?P<name>[a-z-]+)\((?P<body>.*)\)", re.DOTALL)


def _compile(rule: str) -> _Check:
    text = rule.strip()
    if text in _SIMPLE:
        return _SIMPLE[text]
    call = _CALL.fullmatch(text)
    if call is None or call["name"] not in _CALLS:
        raise InvariantError(f"unknown rule form {rule!r}")
    return _CALLS[call["name"]](call["body"].strip())


def _enum(body: str) -> _Check:
    values = [_literal(part.strip()) for part in body.split(",") if part.strip()]
    if not values:
        raise InvariantError(f"enum() with no value: enum({body})")
    return _member_of(values)


def _one_of(body: str) -> _Check:
    try:
        values = json.loads(body)
    except ValueError:
        raise InvariantError(f"one-of() takes a JSON list: one-of({body})") from None
    if not isinstance(values, list) or not values:
        raise InvariantError(f"one-of() takes a non-empty JSON list: one-of({body})")
    return _member_of(cast(list[object], values))


def _member_of(values: Sequence[object]) -> _Check:
    shown = ", ".join(json.dumps(value) for value in values)

    def check(value: object, _: _Scope) -> str | None:
        return (
            None if value is not _ABSENT and any(_same(value, each) for each in values) else f"expected one of {shown}"
        )

    return check


def _same(left: object, right: object) -> bool:
    """JSON equality, the one comparison of every rule, filter and condition: true is not 1, at any depth."""
    return bool(json_key(left) == json_key(right))


def _min_length(body: str) -> _Check:
    if re.fullmatch(r"[0-9]+", body) is None:  # not isdigit(): int() refuses some of what it takes ("²")
        raise InvariantError(f"min-length() takes a whole number: min-length({body})")
    least = int(body)

    def check(value: object, _: _Scope) -> str | None:
        if isinstance(value, (list, str)) and len(cast(Sized, value)) >= least:
            return None
        return f"expected a list or string of at least {least}"

    return check


def _eq(body: str) -> _Check:
    if body[:1] in "\"'" or body in ("true", "false", "null") or re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", body):
        literal = _literal(body)
        return _member_of([literal])
    scope, _, rest = body.partition(".")
    if not scope or not rest:
        raise InvariantError(f"eq() takes a literal or scope.path: eq({body})")
    steps = _parse_path(rest)

    def check(value: object, seen: _Scope) -> str | None:
        if scope == seen.scope:  # the document's own field (trace.trace_id in a trace rule)
            others = [seen.document]
        else:
            others = [document for _, document in seen.documents.get(scope, ())]
        if not others:  # evaluate says so first, once per rule; never a silent pass
            raise _NotApplicable(f"no {scope} document to compare with")
        wanted = [found for other in others for _, found in _resolve(other, steps) if found is not _ABSENT]
        if value is not _ABSENT and any(_same(value, each) for each in wanted):
            return None
        shown = ", ".join(json.dumps(each) for each in wanted) or "nothing (absent)"
        return f"expected {body}: {shown}"

    return check


def _if(body: str) -> _Check:
    match = re.fullmatch(
        r"""(?P<field>[\w.\[\]*]+)\s*(?P<op>==|!=)\s*(?P<literal>"[^"]*"|'[^']*'|[^,]+?)\s*,\s*(?P<rule>.+)""",
        body,
        re.DOTALL,
    )
    if match is None:
        raise InvariantError(f"if() takes a condition and a rule: if({body})")
    field, equal, wanted = match["field"], match["op"] == "==", _literal(match["literal"].strip())
    _parse_path(field)
    inner = _compile(match["rule"])

    def check(value: object, seen: _Scope) -> str | None:
        if _same(_value_at(seen.document, field), wanted) != equal:
            raise _NotApplicable(f"{field} {match['op']} {json.dumps(wanted)} is false")
        return inner(value, seen)

    return check


class _NotApplicable(Exception):
    """A condition of the rule is false for this document."""


_CALLS: dict[str, Callable[[str], _Check]] = {
    "enum": _enum,
    "one-of": _one_of,
    "eq": _eq,
    "min-length": _min_length,
    "if": _if,
}

# The explicit forms in which upstream's notes and descriptions exempt an absent value, and only
# those: "Apply only when started_at field exists", "validate only when present", "If role_id
# present, ...", "... valid enum if present", "Apply when ... AND field exists". Looser wording
# ("When the call has finished, completed_at must be present") states a requirement, not an exemption.
_WHEN_PRESENT = re.compile(
    r"\bonly when (?:the )?(?:(?P<only>[\w.]+) (?:field )?)?(?:exists|is present|present)\b"
    r"|\bif (?:(?P<if>[\w.]+) (?:is )?)?present\b"
    r"|\b(?:when|and) (?:the )?field exists\b",
    re.IGNORECASE,
)
_REFERENCE = re.compile(r"\beq\(\s*([A-Za-z_]\w*)\.")  # the scope an eq() compares with
_WHEN_EQUAL = re.compile(r"\bApply when (?P<field>[\w.]+) == (?P<value>[\w-]+)")


@dataclass(frozen=True)
class _Compiled:
    steps: tuple[_Step, ...]
    check: _Check
    reference: str | None  # the scope an eq() names
    when_present: bool
    when: tuple[str, object] | None


def _compiled(invariant: Invariant) -> _Compiled | None:
    if invariant.path is None or invariant.rule is None:
        return None
    try:
        check = _compile(invariant.rule)
        steps = _parse_path(invariant.path)
    except InvariantError as error:
        raise InvariantError(f"{invariant.source}: invariant {invariant.id}: {error}") from None
    when = _WHEN_EQUAL.search(invariant.note)
    reference = _REFERENCE.search(invariant.rule)
    return _Compiled(
        steps,
        check,
        reference[1] if reference else None,
        _applies_only_when_present(invariant.path, invariant.note, invariant.description),
        (when["field"], _literal(when["value"])) if when else None,
    )


def _applies_only_when_present(path: str, *texts: str) -> bool:
    """Whether one of the texts (each alone: a note and a description) exempts the rule's own value when absent.

    A field the text names must be the path's (``started_at``, or ``role_id`` of
    ``participants[*].role_id``): "only when started_at exists" on another path is
    a condition on another field, not leave to omit this one.
    """
    names = re.sub(r"\[[^\]]*\]", "", path)
    for text in texts:
        for match in _WHEN_PRESENT.finditer(text):
            named = match["only"] or match["if"]
            if named is None or named.lower() == "field" or names == named or names.endswith("." + named):
                return True
    return False


# --- evaluating ----------------------------------------------------------------------------------


def scope_of(document: MplpModel) -> str:
    """The scope name of a parsed document in upstream's files: ``plan``, ``context``, ``event``,
    ``learning_sample``..."""
    slugs = {kind.name: kind.slug for kind in KINDS}
    kind = generated_kind(document, slugs)  # a subclass of a model is in its model's scope
    if kind is None:
        raise TypeError(f"not a parsed payload: {type(document).__name__}")
    return slugs[kind].replace("-", "_")


def _json(document: object) -> object:
    return document.to_dict() if isinstance(document, MplpModel) else document


def _by_scope(
    documents: Mapping[str, MplpModel] | Iterable[MplpModel], scoped: Mapping[str, Sequence[Mapping[str, Any]]] | None
) -> dict[str, list[tuple[str | int, object]]]:
    found: dict[str, list[tuple[str | int, object]]] = {}
    pairs: Iterable[tuple[str | int, MplpModel]] = (
        cast(Mapping[str, MplpModel], documents).items() if isinstance(documents, Mapping) else enumerate(documents)
    )
    for name, document in pairs:
        found.setdefault(scope_of(document), []).append((name, _json(document)))
    for scope, raw in (scoped or {}).items():
        found.setdefault(scope, []).extend(enumerate(raw))
    return found


def evaluate(
    invariants: Iterable[Invariant],
    documents: Mapping[str, MplpModel] | Iterable[MplpModel] = (),
    *,
    scoped: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
) -> list[Verdict]:
    """Every invariant over the documents of its scope: one verdict per application, in rule and document order.

    Args:
        invariants: From ``load`` or ``loads``.
        documents: Parsed documents (a mapping from names, such as file names, or an iterable: each
            named by its position); each is in the scope ``scope_of`` names.
        scoped: Documents that are not models (upstream's tool or git events, say), as JSON objects
            by scope name (``{"tool_event": [...]}``); each named by its position.

    Returns:
        A rule whose scope has no document, or whose ``eq()`` names a scope without one, gives
        one ``not_applicable`` verdict; a descriptive rule one ``descriptive`` verdict.
    """
    by_scope = _by_scope(documents, scoped)
    verdicts: list[Verdict] = []
    for invariant in invariants:
        verdicts += _verdicts(invariant, by_scope)
    return verdicts


def _verdicts(invariant: Invariant, by_scope: Mapping[str, Sequence[tuple[str | int, object]]]) -> list[Verdict]:
    def alone(status: VerdictStatus, message: str) -> list[Verdict]:
        return [Verdict(invariant.id, invariant.scope, status, None, None, None, False, message)]

    compiled = _compiled(invariant)
    if compiled is None:
        return alone("descriptive", invariant.description or "stated in words only: no path and rule to evaluate")
    targets = by_scope.get(invariant.scope, ())
    if not targets:
        return alone("not_applicable", f"no {invariant.scope} document")
    if (
        compiled.reference is not None
        and compiled.reference != invariant.scope
        and not by_scope.get(compiled.reference)
    ):
        return alone("not_applicable", f"no {compiled.reference} document to compare with")
    verdicts: list[Verdict] = []
    for name, document in targets:
        verdicts += _applications(invariant, compiled, name, document, by_scope)
    return verdicts


def _applications(
    invariant: Invariant,
    compiled: _Compiled,
    name: str | int,
    document: object,
    by_scope: Mapping[str, Sequence[tuple[str | int, object]]],
) -> list[Verdict]:
    def verdict(status: VerdictStatus, where: tuple[str | int, ...] | None, value: object, message: str) -> Verdict:
        present = value is not _ABSENT
        shown = pointer(where) if where is not None else None
        return Verdict(invariant.id, invariant.scope, status, name, shown, value if present else None, present, message)

    if compiled.when is not None:
        field, wanted = compiled.when
        if not _same(_value_at(document, field), wanted):
            return [verdict("not_applicable", None, _ABSENT, f"applies when {field} == {wanted} (upstream's note)")]
    seen = _Scope(document, invariant.scope, by_scope)
    places = list(_resolve(document, compiled.steps))
    if not places:
        return [verdict("not_applicable", None, _ABSENT, f"{invariant.path} names no element")]
    found: list[Verdict] = []
    for where, value in places:
        if value is _ABSENT and compiled.when_present:
            found.append(verdict("not_applicable", where, value, "absent; applies only when present (upstream's note)"))
            continue
        try:
            problem = compiled.check(value, seen)
        except _NotApplicable as reason:
            found.append(verdict("not_applicable", where, value, str(reason)))
            continue
        if problem is None:
            found.append(verdict("holds", where, value, invariant.rule or ""))
        else:
            shown = "absent" if value is _ABSENT else json.dumps(value, ensure_ascii=False, default=str)
            found.append(verdict("fails", where, value, f"{invariant.path} is {shown}: {problem}"))
    return found
