"""The app's modules import one way: shell → screens → widgets → core (issue 14, point 4).

The graph is read from the source with :mod:`ast`: every ``import`` and ``from … import``,
at module level (``if TYPE_CHECKING:`` blocks included: a type names a dependency too) and
inside functions. The layers, top to bottom:

- shell: the entry point and the router (:data:`SHELL`);
- screens: every other module of ``app/ui/`` (one per screen or screen part);
- widgets: the parts screens are built of and the words they show (:data:`WIDGETS`);
- core: everything else under ``app/`` (games, store, live sharing, i18n, vision …) and
  ``rules/``.

A module may import its own layer or a lower one, never a higher one, and the graph has no
cycle. Each package of the core (``app.games``, ``app.vision``, ``rules``) counts as one node
for the cycles: its own modules are its own business (``app.games`` submodules call
``standings`` through the package on purpose, see its docstring).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SHELL = frozenset({"app.__main__", "app.main", "app.ui.shell", "app.ui.router"})
"""The top: what starts the app and says which screen a route shows."""

WIDGETS = frozenset(
    {
        "app.ui",
        "app.ui.sheet.chart",
        "app.ui.entry.breakdown",
        "app.ui.home.options_form",
        "app.ui.entry.entry_forms",
        "app.ui.camera.photo",
        "app.ui.camera.photo_worker",
        "app.ui.referee.turn_table",
        "app.ui.table.shared_games",
        "app.verdict_render",
        "app.error_text",
        "app.rulebook",
    }
)
"""Parts of screens (the session object they are given included) and the words they show,
besides the whole of ``app.ui.common`` (:data:`COMMON`)."""

COMMON = "app.ui.common"
"""The package every screen is built of: the session, the frame, widgets, keyboard, labels."""

FEATURES = frozenset({"common", "home", "sheet", "entry", "referee", "camera", "table"})
"""The packages of ``app/ui/``: one per feature, plus what they all share."""

CORE_PACKAGES = ("app.games", "app.vision", "rules")
"""Packages of the core that count as one node for the cycles."""

REMAINING: dict[tuple[str, str], str] = {}
"""Edges still breaking the rules, each with what removes it. To be emptied."""

UNCOMMENTED: dict[str, str] = {}
"""Modules whose imports inside functions do not say yet why they are there. To be emptied."""

LAZY_EXEMPT = ("app.vision", "rules")
"""Packages whose imports inside functions are their own business (the photo reader, which
runs in its worker process; the engine's command line)."""

LAYER_NAMES = ("core", "widgets", "screens", "shell")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {
        module_name(p): p
        for pkg in ("app", "rules")
        for p in sorted((ROOT / pkg).rglob("*.py"))
        if "__pycache__" not in p.parts
    }


def _target(name: str, modules: dict[str, Path]) -> str | None:
    """The module ``name`` is, or the longest dotted prefix of it that is one."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, int, bool]]:
    """``(imported module, line, inside a function)`` for every import of app/rules modules."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, int, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                names = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - (child.level - 1)]
                    source = ".".join([*base, *([child.module] if child.module else [])])
                else:
                    source = child.module or ""
                # `from app.ui import sharing` imports the module app.ui.table.sharing
                names = [
                    f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source
                    for a in child.names
                ]
            else:
                nested = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                visit(child, nested)
                continue
            for name in names:
                target = _target(name, modules)
                if target is not None and target != module:
                    found.append((target, child.lineno, in_function))

    visit(tree, False)
    return found


def layer(module: str) -> int:
    """0 core, 1 widgets, 2 screens, 3 shell."""
    if module in SHELL:
        return 3
    if module in WIDGETS or module == COMMON or module.startswith(COMMON + "."):
        return 1
    if module.startswith("app.ui."):
        return 2
    return 0


def node(module: str) -> str:
    """The node of ``module`` in the cycle check (a core package is one node)."""
    for pkg in CORE_PACKAGES:
        if module == pkg or module.startswith(pkg + "."):
            return pkg
    return module


def graph() -> dict[tuple[str, str], list[str]]:
    """Every import edge ``(importer, imported)`` with where it is (``path:line``)."""
    modules = all_modules()
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for module, path in modules.items():
        for target, line, in_function in imports_of(module, path, modules):
            where = f"{path.relative_to(ROOT)}:{line}" + (" (in a function)" if in_function else "")
            edges[(module, target)].append(where)
    return edges


def cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    succ: dict[str, set[str]] = defaultdict(set)
    for a, b in edges:
        succ[a].add(b)
        succ.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(succ):
        if root in index:
            continue
        work = [(root, iter(sorted(succ[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(succ[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


@pytest.fixture(scope="module")
def edges() -> dict[tuple[str, str], list[str]]:
    return graph()


def test_the_graph_is_read() -> None:
    """The reader sees the kinds of import the app uses (so an empty graph cannot pass)."""
    modules = all_modules()
    got = {t for t, _line, _f in imports_of("app.ui.router", modules["app.ui.router"], modules)}
    assert {
        "app.ui.table.sharing",
        "app.ui.sheet.score_sheet",
        "app.ui.common.session",
        "app.i18n",
    } <= got
    main = {(t, f) for t, _line, f in imports_of("app.__main__", modules["app.__main__"], modules)}
    assert ("app.main", True) in main  # inside main(): counted, and marked as such
    assert node("rules.options") == "rules" and layer("app.ui.sheet.score_sheet") == 2


def test_the_tools_find_a_cycle_and_an_upward_import() -> None:
    assert cycles({("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")}) == [["a", "b", "c"]]
    assert cycles({("a", "b"), ("b", "c")}) == []
    assert layer("app.ui.common.widgets") < layer("app.ui.home.games_list") < layer("app.ui.router")
    assert layer("app.games") == layer("rules.judge") == 0


def test_no_module_imports_a_higher_layer(edges: dict[tuple[str, str], list[str]]) -> None:
    upward = [
        f"{a} ({LAYER_NAMES[layer(a)]}) imports {b} ({LAYER_NAMES[layer(b)]}) at {', '.join(w)}"
        for (a, b), w in sorted(edges.items())
        if layer(a) < layer(b) and (a, b) not in REMAINING
    ]
    assert upward == []


def test_no_import_cycle(edges: dict[tuple[str, str], list[str]]) -> None:
    kept = {
        (node(a), node(b)) for (a, b) in edges if (a, b) not in REMAINING and node(a) != node(b)
    }
    found = cycles(kept)
    detail = [
        f"{a} -> {b} at {', '.join(w)}"
        for (a, b), w in sorted(edges.items())
        if any(node(a) in c and node(b) in c for c in found)
    ]
    assert found == [], "\n".join(detail)


def test_imports_inside_functions_say_why() -> None:
    """An import inside a function is there on purpose only to keep something light (the
    server's start, ``--help``; the photo reader, which runs in its worker process), and its
    line says so (``# lazy: …``). Anything else goes to the top of the module."""
    modules = all_modules()
    silent = []
    for module, path in modules.items():
        if module in UNCOMMENTED or any(node(module) == pkg for pkg in LAZY_EXEMPT):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for _target, line, in_function in imports_of(module, path, modules):
            if in_function and "lazy" not in lines[line - 1]:
                silent.append(f"{path.relative_to(ROOT)}:{line}: {lines[line - 1].strip()}")
    assert silent == []


def test_the_listed_leftovers_are_still_there(edges: dict[tuple[str, str], list[str]]) -> None:
    """An entry of :data:`REMAINING` or :data:`UNCOMMENTED` that no longer applies must leave
    its list too."""
    assert [e for e in REMAINING if e not in edges] == []
    modules = all_modules()
    assert [
        m for m in UNCOMMENTED if not any(f for _t, _l, f in imports_of(m, modules[m], modules))
    ] == []


def test_screens_live_in_feature_packages() -> None:
    """Every module of ``app/ui/`` but the shell's is in one of the feature packages."""
    ui = ROOT / "app" / "ui"
    flat = sorted(p.name for p in ui.glob("*.py") if p.name != "__init__.py")
    assert flat == ["router.py", "shell.py"]
    packages = sorted(p.name for p in ui.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert set(packages) == FEATURES
    for name in packages:
        assert (ui / name / "__init__.py").read_text(encoding="utf-8").startswith('"""'), name
        assert not [p for p in (ui / name).iterdir() if p.is_dir() and p.name != "__pycache__"]
