"""Import circles among scoring/ modules, read from the source with ast (top-level and function-level imports
alike: a lazy import hides a circle from the interpreter, not from the design). There are none: the settings
(``scoring.config``), the models (``scoring.models``) and the link-and-score step (``scoring.score``) import no
step and no engine, and ``scoring.pipeline``, which builds a checker, is imported by nothing in scoring/."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imports(root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of scoring/ and the modules of scoring/ it imports anywhere in its source."""
    modules: dict[str, Path] = {}
    for path in (root / "scoring").rglob("*.py"):
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                while name and name not in modules:
                    name = name.rpartition(".")[0]
                if name and name != module and name != "scoring":
                    graph[module].add(name)
    return graph


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_detector_finds_a_circle_through_a_lazy_import(tmp_path: Path) -> None:
    (tmp_path / "scoring").mkdir()
    (tmp_path / "scoring" / "__init__.py").write_text("")
    (tmp_path / "scoring" / "a.py").write_text("from scoring.b import x\n")
    (tmp_path / "scoring" / "b.py").write_text("def f():\n    import scoring.c\n")
    (tmp_path / "scoring" / "c.py").write_text("from scoring import a\n")
    (tmp_path / "scoring" / "d.py").write_text("from scoring.a import y\n")
    assert circles(imports(tmp_path)) == [{"scoring.a", "scoring.b", "scoring.c"}]


def test_scoring_has_no_import_circle() -> None:
    assert circles(imports()) == []


def lazy_imports(root: Path = ROOT) -> list[str]:
    """Imports of scoring/ modules inside a function body (the way a circle hides from the interpreter)."""
    found: list[str] = []
    for path in (root / "scoring").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for inner in ast.walk(node):
                module = inner.module if isinstance(inner, ast.ImportFrom) else None
                named = [a.name for a in inner.names] if isinstance(inner, ast.Import) else [module or ""]
                found += [f"{path.relative_to(root)}: {n}" for n in named if n.split(".")[0] == "scoring"]
    return found


def test_the_lazy_import_finder_sees_one_in_a_function(tmp_path: Path) -> None:
    (tmp_path / "scoring").mkdir()
    source = "import scoring.b\n\ndef f():\n    from scoring.c import x\n    import json\n"
    (tmp_path / "scoring" / "a.py").write_text(source)
    assert lazy_imports(tmp_path) == ["scoring/a.py: scoring.c"]


def test_no_module_of_scoring_imports_another_inside_a_function() -> None:
    assert lazy_imports() == []


def test_the_rules_module_imports_nothing_of_scoring() -> None:
    assert imports()["scoring.rules"] == set()
