"""The layering the README promises, checked on the code itself.

- One import path per module: the top-level data folders hold no Python, so importing from the
  repository root never loads a second copy of a module.
- Layers: core (errors, trace, dice, tables, render, shipped, registry) <- data (rulesdb) <- engines
  (rulesets, odds) <- shells (widgets, commands, cli). A module imports only its own layer or lower
  ones — function-level imports included, so no cycle hides inside a function.
- No import cycle between modules, function-level imports included.
- Every public package and module has a curated ``__all__`` whose names all exist.
- No function in src/ is over 80 lines: engines are pipelines of named stages.
"""

from __future__ import annotations

import ast
import functools
import importlib
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "ruleslawyer"

LAYERS = {"errors": 0, "shipped": 0, "limits": 0, "lazy": 0, "inputs": 0, "trace": 0, "dice": 0, "tables": 0, "render": 0, "registry": 0,
          "rulesdb": 1, "rulesets": 2, "odds": 2, "encounter": 2, "widgets": 3, "commands": 3, "cli": 3, "__init__": 0}
MAX_FUNCTION_LINES = 80


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


@functools.lru_cache(maxsize=None)
def _tree(path: Path) -> ast.Module:
    """The parsed source of ``path``, parsed once for all the tests of this file."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _imports(name: str, path: Path) -> set[str]:
    """Every ruleslawyer module ``name`` imports, at any depth of the file."""
    tree = _tree(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("ruleslawyer")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.startswith("ruleslawyer"):
                found.add(mod)
                found |= {f"{mod}.{a.name}" for a in node.names}
    return found


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    graph = {}
    for name, path in mods.items():
        graph[name] = {m for m in _imports(name, path) if m in mods and m != name}
    return graph


def _layer(module: str) -> int:
    parts = module.split(".")
    if parts[-1] == "cli":  # a ruleset's command module is a shell, though it lives in the ruleset's folder
        return 3
    return LAYERS[parts[1] if len(parts) > 1 else "__init__"]


def test_data_folders_hold_no_python_and_the_root_gives_no_second_copy():
    for folder in ("rulesdb", "widgets"):
        assert not list((ROOT / folder).rglob("*.py")), f"{folder}/ must hold data only"
    code = ("import importlib.util, sys; import ruleslawyer.rulesdb.fulltext as s, ruleslawyer.rulesdb as r; "
            "r.search; import ruleslawyer.rulesdb.builder as b; "
            "print(type(s).__name__, type(b).__name__, type(r.search).__name__, type(r.build).__name__, "
            "importlib.util.find_spec('rulesdb') is None or importlib.util.find_spec('rulesdb').origin is None)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split() == ["module", "module", "function", "function", "True"]


def test_no_submodule_shares_its_name_with_an_exported_name():
    for package in ("ruleslawyer.rulesdb", "ruleslawyer.widgets", "ruleslawyer.odds", "ruleslawyer.rulesets.mastery",
                    "ruleslawyer.rulesets.mythras", "ruleslawyer.rulesets.darkmaster"):
        mod = importlib.import_module(package)
        subs = {p.stem for p in Path(mod.__file__).parent.glob("*.py")} | {
            p.name for p in Path(mod.__file__).parent.iterdir() if (p / "__init__.py").exists()}
        assert sorted(subs & set(mod.__all__)) in ([], ["rulings"]), package  # a package may export a submodule


def test_each_module_imports_only_its_own_layer_or_lower():
    bad = []
    for mod, deps in _graph().items():
        if mod.endswith(".ruleset") or mod == "ruleslawyer":
            continue  # a ruleset's declaration names its own modules; the package root is lazy
        bad += [f"{mod} -> {d}" for d in deps if _layer(d) > _layer(mod)]
    assert bad == []


def test_no_import_cycles_even_inside_functions():
    graph = _graph()
    # a package's lazy __init__ re-exports its submodules; count only module-to-module edges
    graph = {m: {d for d in deps if not (m.startswith(d + ".") or d.startswith(m + "."))}
             for m, deps in graph.items()}
    index, low, stack, on, cycles = {}, {}, [], set(), []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    sys.setrecursionlimit(10_000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert cycles == []



#: The only modules that may import the entry module ``ruleslawyer.cli``: itself and ``python -m ruleslawyer``.
ENTRY_IMPORTERS = {"ruleslawyer.cli", "ruleslawyer.__main__"}


def test_no_module_imports_the_entry_module():
    """``ruleslawyer.cli`` imports the command modules (the kit's, and each ruleset's ``cli.py``); they,
    the panels, the engines and every other module print through ``ruleslawyer.commands.output`` and
    never import the entry module back (function-level imports included)."""
    graph = _graph()
    assert any(m.startswith("ruleslawyer.rulesets.") and m.endswith(".cli") for m in graph)  # they are checked
    assert any(m.startswith("ruleslawyer.widgets.") for m in graph)
    back = [f"{mod} -> {dep}" for mod, deps in graph.items() if mod not in ENTRY_IMPORTERS
            for dep in deps if dep == "ruleslawyer.cli" or dep.startswith("ruleslawyer.cli.")]
    assert back == []


PUBLIC = ["ruleslawyer", "ruleslawyer.errors", "ruleslawyer.registry", "ruleslawyer.trace", "ruleslawyer.dice",
          "ruleslawyer.tables", "ruleslawyer.render", "ruleslawyer.rulesdb", "ruleslawyer.rulesdb.handle",
          "ruleslawyer.widgets", "ruleslawyer.odds", "ruleslawyer.rulesets.mastery", "ruleslawyer.rulesets.mythras",
          "ruleslawyer.rulesets.darkmaster", "ruleslawyer.cli"]


@pytest.mark.parametrize("name", PUBLIC)
def test_public_all_is_curated(name):
    mod = importlib.import_module(name)
    names = getattr(mod, "__all__", None)
    assert names is not None, f"{name} has no __all__"
    assert len(names) == len(set(names)), f"{name}.__all__ repeats a name"
    assert not [n for n in names if n.startswith("_") and n != "__version__"], f"{name}.__all__ exports private names"
    missing = [n for n in names if not hasattr(mod, n)]
    assert missing == [], f"{name}.__all__ names what it lacks: {missing}"


def test_no_function_over_80_lines():
    long = defaultdict(list)
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long[str(path.relative_to(ROOT))].append(f"{node.name} ({n} lines)")
    assert dict(long) == {}
