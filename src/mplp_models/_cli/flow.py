"""``mplp-models validate --flow DIR``: the documents of one session, each alone and then as a set.

Every ``*.json`` entry of the folder is one document (one that is no file, a folder
say, cannot be read). Each gets its verdict as
``validate`` gives it; the valid ones then go to ``check_flow`` (and to the
invariant files given with ``--invariants``), whose verdicts follow, one line a
rule. An invalid document is left out of the set, so the set's rules speak of
the others only.
"""

from __future__ import annotations

import json
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any, NamedTuple

from mplp_models._cli.input import problems
from mplp_models._flow import FlowProfile, FlowReport, FlowRuleResult, FlowViolation, check_flow_report
from mplp_models._flow_folder import json_entries, regular_file_bytes
from mplp_models._lines import LineVerdict, check_document
from mplp_models._parse import Payload, parse
from mplp_models._text import printable
from mplp_models.invariants import Invariant, InvariantError, Verdict, evaluate, load

__all__ = ["FlowOptions", "run_flow"]

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class FlowOptions(NamedTuple):
    folder: str
    invariants: tuple[str, ...]
    profile: FlowProfile | None
    semantic: bool
    json_output: bool


def run_flow(options: FlowOptions) -> int:
    """Validate the session in ``options.folder``; the exit code (0 all hold, 1 something fails, 2 unreadable or
    empty)."""
    folder = Path(options.folder)
    try:
        files = [folder / name for name in sorted(json_entries(folder))]  # load_flow's: a folder too, unreadable
    except OSError as error:
        _error(f"{options.folder}: unreadable: {error.strerror or error}")
        return EXIT_USAGE
    rules = _invariants(options.invariants)
    if rules is None:
        return EXIT_USAGE
    if not files:  # nothing to validate is an input problem, as a missing file is: not "every document is valid"
        _error(f"{options.folder}: no *.json document")
        return EXIT_USAGE
    documents, invalid, unreadable = _read_documents(files, options)
    report = check_flow_report(documents, profile=options.profile)
    _print_report(report, options.json_output)
    failed = _print_invariants(rules, documents, options.json_output)
    if unreadable:
        return EXIT_USAGE
    return EXIT_INVALID if invalid or not report.ok or failed else EXIT_OK


def _read_documents(files: list[Path], options: FlowOptions) -> tuple[dict[str, Payload], int, int]:
    """Each file's verdict printed; the valid documents by file name, and how many were invalid and unreadable."""
    documents: dict[str, Payload] = {}
    invalid = unreadable = 0
    for path in files:
        label = str(path)
        try:
            data = regular_file_bytes(path, follow=True)  # a folder too: unreadable
        except OSError as error:
            _error(f"{label}: unreadable: {error.strerror or error}")
            unreadable += 1
            continue
        verdict = check_document(data, semantic=options.semantic, kind=None)
        _print_document(label, verdict, options.json_output)
        if verdict.ok:
            documents[path.name] = parse(data, semantic=options.semantic)
        else:
            invalid += 1
    return documents, invalid, unreadable


def _invariants(paths: tuple[str, ...]) -> list[Invariant] | None:
    rules: list[Invariant] = []
    for path in paths:
        try:
            rules += load(path)
        except (InvariantError, ImportError) as error:
            _error(f"--invariants {path}: {error}")
            return None
        except OSError as error:
            _error(f"--invariants {path}: unreadable: {error.strerror or error}")
            return None
        except UnicodeDecodeError as error:  # a YAML file is text: one that is not UTF-8 cannot be read
            byte = error.object[error.start]
            _error(f"--invariants {path}: unreadable: not UTF-8 text (byte 0x{byte:02x} at offset {error.start})")
            return None
    return rules


def _print_document(label: str, verdict: LineVerdict, json_output: bool) -> None:
    if json_output:
        record = {
            "record": "document",
            "source": label,
            "valid": verdict.ok,
            "kind": verdict.kind,
            "id": verdict.id,
            "errors": verdict.errors,
        }
        print(json.dumps(record, ensure_ascii=False))
    elif verdict.ok:
        print(printable(f"{label}: ok {verdict.kind} {verdict.id}"))
    else:
        kind = "" if verdict.kind is None else f" {verdict.kind}"
        _error_line(f"{label}: invalid{kind}: {problems(verdict.errors)}")


def _record(record: str, result: FlowRuleResult | Verdict) -> dict[str, Any]:
    """The JSON record of a rule's result or an invariant's verdict: ``record`` names it, then each field in order."""
    return {"record": record, **{field.name: getattr(result, field.name) for field in fields(result)}}


def _violation(violation: FlowViolation) -> dict[str, Any]:
    return {
        "message": violation.message,
        "locations": [
            {"document": where.document, "kind": where.kind, "pointer": where.pointer} for where in violation.locations
        ],
    }


def _print_report(report: FlowReport, json_output: bool) -> None:
    by_rule: dict[str, list[FlowViolation]] = {}
    for violation in report.violations:
        by_rule.setdefault(violation.rule, []).append(violation)
    for result in report.rules:
        found = by_rule.get(result.rule, [])
        if json_output:
            record = {**_record("rule", result), "violations": [_violation(violation) for violation in found]}
            print(json.dumps(record, ensure_ascii=False))
            continue
        if result.status == "not_applicable":
            print(f"flow {result.rule}: not applicable ({result.reason})")
        elif result.status == "holds":
            print(f"flow {result.rule}: holds ({result.applications} checked)")
        else:
            print(f"flow {result.rule}: fails ({result.failures} of {result.applications})")
            for violation in found:
                first = violation.locations[0] if violation.locations else None
                where = "" if first is None else f"{first.document}{first.pointer}: "
                _error_line(f"flow {result.rule}: {where}{violation.message}")


def _print_invariants(rules: list[Invariant], documents: dict[str, Payload], json_output: bool) -> bool:
    """Print each invariant's verdicts; whether any failed."""
    failed = False
    for verdict in evaluate(rules, documents):
        failed = failed or verdict.status == "fails"
        if json_output:
            record = _record("invariant", verdict)
            print(json.dumps(record, ensure_ascii=False, default=str))
            continue
        where = "" if verdict.document is None else f" {verdict.document}{verdict.pointer or ''}"
        line = f"invariant {verdict.invariant}:{where} {verdict.status.replace('_', ' ')}: {verdict.message}"
        if verdict.status == "fails":
            _error_line(line)
        else:
            print(printable(line))
    return failed


def _error(message: str) -> None:
    print(f"mplp-models: {message}", file=sys.stderr)


def _error_line(line: str) -> None:
    print(printable(line), file=sys.stderr)
