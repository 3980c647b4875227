"""The ``mplp-models`` command (also ``python -m mplp_models``): validate, canonicalize, schema, new, store, show."""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["main"]

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_BROKEN_PIPE = 0, 1, 2, 141

_AddParser = Callable[..., argparse.ArgumentParser]  # a subparsers action's add_parser

_EPILOG = """\
exit status:
  0  every document is valid (canonicalize --check: the input is canonical)
  1  a document is invalid (or not canonical)
  2  usage error, an input that cannot be read, or output that cannot be written
  141  the reader of the output went away (`... | head`), as for Unix tools

Results go to stdout; errors (invalid documents, unreadable inputs, usage) go
to stderr. PATH "-" reads standard input.
"""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); the exit status."""
    if sys.stdout is None or sys.stderr is None:  # started with the stream closed (`>&-`)
        return EXIT_USAGE
    for stream in (sys.stdout, sys.stderr):
        # Messages quote payload text; an odd character is escaped rather than crashed on.
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    args = _parser().parse_args(argv)
    try:
        status: int = args.run(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # The reader went away (`... | head`): stop quietly with the status of a
        # Unix tool that SIGPIPE ended (128 + 13).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except OSError as error:  # the output cannot be written: a full disk, say
        _error(f"cannot write output: {error.strerror or error}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mplp-models",
        description="Validate, canonicalize and create MPLP v1.0 and Cortex inbox payloads.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    for add_command in (_add_validate, _add_canonicalize, _add_schema, _add_new, _add_store):
        add_command(commands.add_parser)
    from mplp_models._cli.show import add_show

    add_show(commands.add_parser, _EPILOG)
    return parser


def _command(add: _AddParser, name: str, text: str, notes: str = "") -> argparse.ArgumentParser:
    """The parser of the command ``name``: ``text`` is its help, ``notes`` a paragraph above the exit statuses."""
    epilog = f"{notes}\n{_EPILOG}" if notes else _EPILOG
    return add(name, help=text, description=text, epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)


_VALIDATE_NOTES = """\
Each document gets one line: `SOURCE: ok KIND ID` on stdout, or
`SOURCE: invalid KIND: /json/pointer: message; ...` on stderr. The kind is told
from the payload's keys unless --kind names it.
"""


def _add_validate(add: _AddParser) -> None:
    command = _command(add, "validate", "Validate JSON documents against the models and their rules.", _VALIDATE_NOTES)
    command.add_argument("paths", nargs="*", metavar="PATH", help="a JSON file (or NDJSON with --ndjson); - for stdin")
    command.add_argument("--kind", metavar="MODEL", help="validate every document as this model (e.g. Plan)")
    command.add_argument("--schema-only", action="store_true", help="check the schemas only, not the rules beyond them")
    command.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="json: one JSON object per document on stdout (source, line, valid, kind, id, errors)",
    )
    command.add_argument(
        "--ndjson",
        action="store_true",
        help="each PATH holds one document per line, read as a stream; ends with a summary",
    )
    command.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="processes, this one included (default 1; 0: one per CPU; at most 4 a CPU)",
    )
    command.add_argument(
        "--max-line-bytes",
        type=_line_limit,
        default=None,
        metavar="N",
        help="with --ndjson, a longer line is not read but refused (default 16 MiB)",
    )
    command.add_argument("--no-progress", action="store_true", help="no progress bar, even on a terminal")
    _add_flow_options(command)
    command.set_defaults(run=_validate)


def _add_flow_options(command: argparse.ArgumentParser) -> None:
    flow = command.add_argument_group(
        "sessions", "the documents of one session checked against each other (docs/sessions.md)"
    )
    flow.add_argument(
        "--flow",
        metavar="DIR",
        help="validate every *.json of DIR, then the set: one line per document, then per rule",
    )
    flow.add_argument(
        "--invariants",
        action="append",
        default=[],
        metavar="FILE",
        help="with --flow, also evaluate an upstream invariant file (YAML; repeatable)",
    )
    flow.add_argument("--profile", choices=("sa", "map"), help="with --flow, add the SA or MAP profile's rules")


_CANONICALIZE_NOTES = """\
The input must be strict JSON (no duplicate keys, no lone surrogates). The output
has no trailing newline: it is exactly the bytes to hash or sign.
"""


def _add_canonicalize(add: _AddParser) -> None:
    command = _command(
        add, "canonicalize", "Write the RFC 8785 canonical JSON bytes of a document to stdout.", _CANONICALIZE_NOTES
    )
    command.add_argument("path", metavar="PATH", help="a JSON file; - for stdin")
    command.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if the file is not already canonical"
    )
    command.set_defaults(run=_canonicalize)


_SCHEMA_NOTES = """\
The file is written byte for byte; its $refs name other files of the set. With
--bundle, one self-contained draft-07 schema is written instead: every file it
refers to is copied under its $defs and each $ref points there, so that any
validator can use it alone, offline:

  mplp-models schema Plan --bundle > plan.bundle.json
  check-jsonschema --schemafile plan.bundle.json plan.json
"""


def _add_schema(add: _AddParser) -> None:
    command = _command(add, "schema", "Write the frozen JSON Schema (draft-07) of a model to stdout.", _SCHEMA_NOTES)
    command.add_argument("name", nargs="?", metavar="NAME", help="a model name, e.g. Plan (see --list)")
    command.add_argument("--list", action="store_true", help="list the names, schema files and $ids")
    command.add_argument(
        "--bundle", action="store_true", help="one self-contained schema: the files it refers to inlined under $defs"
    )
    command.set_defaults(run=_schema)


_NEW_NOTES = """\
`new flow DIR` writes a session whose documents name each other (context, plan,
confirm, trace, collab) into DIR, one file each.
"""


def _add_new(add: _AddParser) -> None:
    from mplp_models._cli.skeletons import SKELETONS

    command = _command(add, "new", "Write a valid starting document with fresh ids and timestamps.", _NEW_NOTES)
    command.add_argument("kind", choices=(*SKELETONS, "flow"), help="what to create")
    command.add_argument("dir", nargs="?", metavar="DIR", help="with flow: the folder to write the session into")
    command.add_argument("--canonical", action="store_true", help="RFC 8785 bytes instead of indented JSON")
    command.set_defaults(run=_new)


def _add_store(add: _AddParser) -> None:
    from mplp_models._kinds import KINDS

    command = _command(
        add,
        "store",
        "List, show and export what a store holds (mplp_models.store), read only.",
        "STORE is a SQLite file or a PostgreSQL connection string (postgresql://... or\n`host=... dbname=...`).\n",
    )
    actions = command.add_subparsers(title="actions", required=True, metavar="ACTION", dest="action")
    listing = actions.add_parser("ls", help="the latest version of every document: KIND ID vN SHA256 WRITTEN_AT")
    listing.add_argument("--kind", choices=[kind.name for kind in KINDS], help="only the documents of this kind")
    listing.add_argument("--context", metavar="ID", help="only the documents of this context's session")
    show = actions.add_parser("show", help="a document's canonical JSON bytes (the latest version, or --version N)")
    show.add_argument("--version", type=_whole_number_above_0, metavar="N", help="version N rather than the latest")
    history = actions.add_parser("history", help="every version of a document: vN SHA256 WRITTEN_AT")
    export = actions.add_parser("export", help="write the documents into DIR as a session folder (validate --flow)")
    export.add_argument("--context", metavar="ID", help="only the documents of this context's session")
    export.add_argument("--overwrite", action="store_true", help="replace the files of the same names in DIR")
    for action in (listing, show, history, export):
        action.add_argument("store", metavar="STORE", help="a SQLite store's path, or a PostgreSQL connection string")
    for action in (show, history):
        action.add_argument("id", metavar="ID", help="the document's id")
    export.add_argument("folder", metavar="DIR", help="the folder to write (made if missing)")
    for action in (listing, history):
        action.add_argument("--format", choices=("text", "json"), default="text", help="json: one object per line")
    command.set_defaults(run=_store)


def _whole_number_above_0(text: str) -> int:
    number = _whole_number(text, "must be 1 or more")
    if number == 0:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return number


def _store(args: argparse.Namespace) -> int:
    from mplp_models._cli.store import StoreOptions, run_store

    options = StoreOptions(
        args.action,
        args.store,
        id=getattr(args, "id", None),
        version=getattr(args, "version", None),
        kind=getattr(args, "kind", None),
        context=getattr(args, "context", None),
        folder=getattr(args, "folder", None),
        overwrite=getattr(args, "overwrite", False),
        json_output=getattr(args, "format", "text") == "json",
    )
    return run_store(options)


_JOBS_PER_CPU = 4  # the most --jobs a CPU: each process holds the models (tens of MB); beyond, only waiting


def _jobs(text: str) -> int:
    cpus = _cpus()
    jobs = _whole_number(text, "must be 0 (one per CPU) or more") or cpus
    most = _JOBS_PER_CPU * cpus
    if jobs > most:
        raise argparse.ArgumentTypeError(
            f"{jobs} processes is more than {_JOBS_PER_CPU} a CPU ({most} here), which only wait for each other"
        )
    return jobs


def _line_limit(text: str) -> int:
    return _whole_number(text, "must be 0 or more")


def _whole_number(text: str, if_negative: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError(if_negative)
    return number


def _cpus() -> int:
    # The CPUs this process may run on (affinity, containers), where the system says.
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _validate(args: argparse.Namespace) -> int:
    if args.flow is not None or args.invariants or args.profile is not None:
        return _validate_flow(args)
    if not args.paths:
        _error("validate: give a PATH, or --flow DIR")
        return EXIT_USAGE
    from mplp_models._cli.validate import ValidateOptions, run_validate

    model = _model_name(args.kind) if args.kind is not None else None
    if model is None and args.kind is not None:
        return EXIT_USAGE
    options = ValidateOptions(
        paths=args.paths,
        model=model,
        semantic=not args.schema_only,
        ndjson=args.ndjson,
        json_output=args.format == "json",
        jobs=args.jobs,
        progress=not args.no_progress,
        **({} if args.max_line_bytes is None else {"max_line_bytes": args.max_line_bytes}),
    )
    return run_validate(options)


def _validate_flow(args: argparse.Namespace) -> int:
    if args.flow is None:
        _error("validate: --invariants and --profile go with --flow DIR")
        return EXIT_USAGE
    if args.paths or args.ndjson or args.kind is not None:
        _error("validate: --flow DIR reads the folder's *.json; it takes no PATH, --ndjson or --kind")
        return EXIT_USAGE
    from mplp_models._cli.flow import FlowOptions, run_flow

    options = FlowOptions(args.flow, tuple(args.invariants), args.profile, not args.schema_only, args.format == "json")
    return run_flow(options)


def _model_name(name: str) -> str | None:
    from mplp_models._cli.input import model_names

    names = {known.casefold(): known for known in model_names()}
    if name.casefold() in names:
        return names[name.casefold()]
    _error(f"--kind: no model named {name!r}; one of: {', '.join(sorted(names.values()))}")
    return None


def _canonicalize(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from mplp_models._canonical import CanonicalJSONError, canonical_json
    from mplp_models._errors import errors_as_json
    from mplp_models._json_input import load_json
    from mplp_models._text import printable

    raw = _read(args.path)
    if raw is None:
        return EXIT_USAGE
    try:
        canonical = canonical_json(load_json(raw, "JSON"))
    except ValidationError as error:
        for entry in errors_as_json(error):
            _error(f"{args.path}: {printable(entry['message'])}")  # it quotes the document's text
        return EXIT_INVALID
    except CanonicalJSONError as error:
        _error(f"{args.path}: {printable(str(error))}")
        return EXIT_INVALID
    if not args.check:
        sys.stdout.buffer.write(canonical)
        return EXIT_OK
    if raw == canonical:
        return EXIT_OK
    _error(f"{args.path}: not canonical: first difference at byte offset {_first_difference(raw, canonical)}")
    return EXIT_INVALID


def _first_difference(left: bytes, right: bytes) -> int:
    return next((i for i, (a, b) in enumerate(zip(left, right)) if a != b), min(len(left), len(right)))


def _schema(args: argparse.Namespace) -> int:
    from mplp_models._schemas import SCHEMA_FILES, schema_bytes, schema_id, schema_name

    if args.list and args.bundle:
        _error("schema: --bundle writes the schema of one NAME; it does not go with --list")
        return EXIT_USAGE
    if args.list:
        for name, path in SCHEMA_FILES.items():
            print(f"{name:<15} {path:<46} {schema_id(name)}")
        return EXIT_OK
    if args.name is None:
        _error("schema: give a NAME, or --list")
        return EXIT_USAGE
    try:
        name = schema_name(args.name)
    except LookupError as error:
        _error(f"schema: {error.args[0]}")
        return EXIT_USAGE
    if not args.bundle:
        sys.stdout.buffer.write(schema_bytes(name))
        return EXIT_OK
    return _bundle(name)


def _bundle(name: str) -> int:
    from mplp_models._cli.bundle import BundleError, bundle_bytes

    try:
        output = bundle_bytes(name)
    except BundleError as error:
        _error(f"schema --bundle {name}: {error}")
        return EXIT_USAGE
    sys.stdout.buffer.write(output)
    return EXIT_OK


def _new(args: argparse.Namespace) -> int:
    if args.kind == "flow" or args.dir is not None:
        return _new_flow(args)
    from mplp_models._cli.skeletons import skeleton

    document = skeleton(args.kind)
    if args.canonical:
        sys.stdout.buffer.write(document.to_json())
    else:
        print(json.dumps(document.to_dict(), indent=2, ensure_ascii=False))
    return EXIT_OK


def _new_flow(args: argparse.Namespace) -> int:
    from mplp_models._cli.skeletons import flow_skeleton

    if args.kind != "flow" or args.dir is None:
        _error("new: DIR goes with flow: `new flow DIR`")
        return EXIT_USAGE
    folder = Path(args.dir)
    documents = flow_skeleton()
    taken = [name for name in documents if (folder / name).exists()]
    if taken:
        _error(f"new flow: {args.dir} already holds {', '.join(taken)}; nothing written")
        return EXIT_USAGE
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, document in documents.items():
            data = document.to_json() if args.canonical else _indented(document.to_dict())
            (folder / name).write_bytes(data)
            print(folder / name)
    except OSError as error:
        _error(f"new flow: {args.dir}: {error.strerror or error}")
        return EXIT_USAGE
    return EXIT_OK


def _indented(value: object) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode()


def _read(path: str) -> bytes | None:
    from mplp_models._cli.input import open_input

    try:
        with open_input(path) as stream:
            return stream.read()
    except OSError as error:
        _error(f"{path}: unreadable: {error.strerror or error}")
        return None


def _error(message: str) -> None:
    print(f"mplp-models: {message}", file=sys.stderr)


def _version() -> str:
    from mplp_models._version import __version__

    return __version__
