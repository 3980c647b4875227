"""The package's modules import one way at run time: no cycle, function-level imports included.

The graph is read from the source (the AST), not from a run: an import inside
a function counts as much as one at the top, since it runs whenever the
function does. Imports under ``if TYPE_CHECKING:`` do not run and are left
out. The package itself imports its public names lazily (``_public.LOCATIONS``,
read by its ``__getattr__``), so ``import mplp_models`` counts as an import of
every module that table names, and ``from mplp_models import Plan`` as one of
the module that defines ``Plan``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mplp_models._public import LOCATIONS

PACKAGE = "mplp_models"
SOURCE = Path(__file__).resolve().parents[1] / "src" / PACKAGE

# None: a cycle found is a failure. (Kind.model and _schemas read the table of names in _public,
# not the package, whose table reaches modules that import _kinds.)
KNOWN_CYCLES: set[frozenset[str]] = set()


def module_files() -> dict[str, tuple[Path, bool]]:
    """Every module of the package by dotted name, with its file and whether it is a package's ``__init__``."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in SOURCE.rglob("*.py"):
        parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


MODULES = module_files()


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run: at any depth, but not in the body of ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If) and _type_checking_only(node):
            stack.extend(node.orelse)
        else:
            stack.extend(ast.iter_child_nodes(node))
    return found


def _imported_module(name: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = name.split(".") if is_package else name.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def imports_of(name: str) -> set[str]:
    """The package's modules that module ``name`` imports at run time."""
    path, is_package = MODULES[name]
    targets: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
            continue
        module = _imported_module(name, is_package, node)
        for alias in node.names:
            if f"{module}.{alias.name}" in MODULES:  # a submodule: from mplp_models import _fastpath
                targets.add(f"{module}.{alias.name}")
            elif module == PACKAGE and alias.name in LOCATIONS:  # a public name, read lazily
                targets.add(LOCATIONS[alias.name])
            else:
                targets.add(module)
    if name == PACKAGE:  # its __getattr__ imports what the table names
        targets.update(LOCATIONS.values())
    return {target for target in targets if target in MODULES and target != name}


def import_graph() -> dict[str, set[str]]:
    return {name: imports_of(name) for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[frozenset[str]] = []
    for root in graph:
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, pending = work[-1]
            if pending:
                target = pending.pop()
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, sorted(graph[target])))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_the_package_has_no_import_cycle() -> None:
    found = set(cycles(import_graph()))
    assert found - KNOWN_CYCLES == set(), [sorted(cycle) for cycle in found - KNOWN_CYCLES]


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    # The check itself can fail: a graph with a loop, and the graph of the core with an upward edge added.
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset({"a", "b", "c"})]
    graph = import_graph()
    graph["mplp_models._canonical"].add("mplp_models._base")  # what canonical_json once imported
    assert frozenset({"mplp_models._canonical", "mplp_models._base"}) <= set().union(*cycles(graph))


def test_imports_inside_functions_count_and_type_checking_ones_do_not() -> None:
    # _cli.main imports its subcommands inside functions; _rules imports _fast_shapes at the top;
    # _chat imports the dialog's generated module only for the type checker.
    graph = import_graph()
    assert "mplp_models._cli.validate" in graph["mplp_models._cli.main"]
    assert "mplp_models._fast_shapes" in graph["mplp_models._rules"]
    assert "mplp_models._generated.mplp.v1_0.mplp_dialog_schema" not in graph["mplp_models._chat"]


CORE = ("_base", "_canonical", "_context", "_reader", "_writer", "_rules", "_fast_shapes", "_types", "_text")


@pytest.mark.parametrize("name", CORE)
def test_the_core_imports_no_model_and_no_integration(name: str) -> None:
    # The reading, writing and rule modules are below every model module and integration.
    above = (
        *("_generated", "_plan", "_trace", "_dialog", "_inbox", "_module_bases", "_chat", "_cloudevents", "_cli"),
        *("_pictures", "_session_picture", "otel"),
    )
    imported = {target.removeprefix(PACKAGE + ".") for target in import_graph()[f"{PACKAGE}.{name}"]}
    assert not {target for target in imported if target.startswith(above)}, imported
    assert PACKAGE not in imported  # the package's table would reach every model


def test_library_code_imports_nothing_of_the_command_line() -> None:
    graph = import_graph()
    library = [name for name in graph if not name.startswith(f"{PACKAGE}._cli") and name != f"{PACKAGE}.__main__"]
    assert library and all(not target.startswith(f"{PACKAGE}._cli") for name in library for target in graph[name])


def test_the_pictures_sit_below_the_models_they_draw() -> None:
    # Plan.to_mermaid imports _pictures when called: downward only if _pictures imports no model module.
    imported = {target.removeprefix(PACKAGE + ".") for target in import_graph()[f"{PACKAGE}._pictures"]}
    above = ("_generated", "_plan", "_trace", "_dialog", "_module_bases", "_kinds", "_parse", "_session_picture")
    assert not {target for target in imported if target.startswith(above)}, imported


# The layers, bottom first: a module imports only from its own layer or those below it (docs/architecture.md
# draws them). Each layer of the core is one module, so that the core imports strictly downward.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("leaves", ("_version", "_text", "_ids", "_public", "_kinds", "_schemas", "_fastpath", "_errors", "_conversion",
                "_instants", "_timestamp_order", "_formats", "_folders")),
    ("JSON values", ("_json_values",)),
    ("canonical JSON", ("_canonical",)),
    ("values", ("_types",)),
    ("bounded validation", ("_bounded",)),
    ("class facts", ("_fast_shapes",)),
    ("writable errors", ("_writable_errors",)),
    ("writing", ("_writer",)),
    ("strict JSON input", ("_json_input",)),
    ("reading", ("_reader",)),
    ("model base", ("_base",)),
    ("rules", ("_rules",)),
    ("formats", ("_chat", "_cloudevents", "_llm_formats", "_llm_schema", "_pictures")),
    ("model behaviour", ("_context", "_open_models", "_event", "_plan", "_dialog", "_trace", "_inbox",
                         "_module_bases", "_family_rules", "_edits")),
    ("models", ("_generated",)),
    ("entry points", ("_parse", "_lines", "_flow", "_drafts", "_llm_read", "_flow_folder", "_session_picture",
                      "_store", "_store_sqlite", "_store_postgres")),
    ("integrations", ("", "llm", "fastapi", "cortex", "testing", "invariants", "store", "otel", "literals", "chat")),
    ("command line", ("_cli", "__main__")),
]  # fmt: skip


def layer_of(name: str) -> int:
    """The index in ``LAYERS`` of module ``name`` (``""`` is the package's ``__init__``); a ``KeyError`` if in none."""
    short = name.removeprefix(PACKAGE).removeprefix(".")
    for index, (_, members) in enumerate(LAYERS):
        if any(short == member or (member and short.startswith(member + ".")) for member in members):
            return index
    raise KeyError(name)


def test_every_module_has_a_layer() -> None:
    missing = []
    for name in MODULES:
        try:
            layer_of(name)
        except KeyError:
            missing.append(name)
    assert not missing, f"add each to a layer of LAYERS (and to docs/architecture.md): {missing}"


# Upward imports still to be taken out, each with its reason (empty the set as they go).
KNOWN_UPWARD: set[tuple[str, str]] = {
    # A dialog's governance block is a generated class (one module that imports no behaviour): no cycle, but a
    # behaviour module that needs a model class should be handed it (a registration) or name it for the checkers only.
    ("mplp_models._dialog", "mplp_models._generated.mplp.v1_0.common.common_types_schema"),
}


def test_every_import_goes_down_the_layers() -> None:
    graph = import_graph()
    upward = [
        f"{name} ({LAYERS[layer_of(name)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
        for name, targets in graph.items()
        for target in targets
        if layer_of(target) > layer_of(name) and (name, target) not in KNOWN_UPWARD
    ]
    assert not upward, upward


def test_the_layer_check_finds_an_upward_import() -> None:
    graph = import_graph()
    graph["mplp_models._reader"].add("mplp_models._base")
    assert any(layer_of(target) > layer_of(name) for name, targets in graph.items() for target in targets)
