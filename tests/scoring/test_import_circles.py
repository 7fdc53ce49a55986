"""Import circles among scoring/ modules, read from the source with ast (top-level and function-level imports
alike: a lazy import hides a circle from the interpreter, not from the design)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What is left of the circle (16 modules before the rules were laid out): the pipeline module holds the
# configuration the checker, the engines and the offline steps import, and its ``check`` builds a checker.
# Moving CheckConfig and score_groups to modules of their own, and ``check`` next to the engines, ends it.
REMAINING = {
    "scoring.pipeline",
    "scoring.engines",
    "scoring.checker",
    "scoring.offline",
    "scoring.llm.steps",
    "scoring.rulebook",
}


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


def test_no_rule_module_is_in_an_import_circle() -> None:
    found = circles(imports())
    assert all(c <= REMAINING for c in found), found
    rule_modules = {
        "scoring.rules",
        "scoring.verify",
        "scoring.worthiness",
        "scoring.abstain",
        "scoring.meaning",
        "scoring.corrections",
        "scoring.sentences",
        "scoring.records",
        "scoring.grouping",
        "scoring.revise",
    }
    assert not any(c & rule_modules for c in found)


def test_the_rules_module_imports_nothing_of_scoring() -> None:
    assert imports()["scoring.rules"] == set()
