"""The render package's house rules: no module over about 600 lines, no import circle."""

from __future__ import annotations

import ast
from pathlib import Path

import searchvid.render

PACKAGE = Path(searchvid.render.__file__).parent
MAX_LINES = 600


def modules() -> dict[str, Path]:
    return {path.stem: path for path in sorted(PACKAGE.glob("*.py")) if path.stem != "__init__"}


def render_imports(path: Path) -> set[str]:
    """The sibling modules ``path`` imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("searchvid.render."):
                found.add(node.module.split(".")[2])
            elif node.module == "searchvid.render":
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("searchvid.render."):
                    found.add(alias.name.split(".")[2])
    return found & set(modules())


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (its modules in order, the first repeated), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for other in sorted(graph[name]):
            if state.get(other) == 1:
                return [*path[path.index(other) :], other]
            if other not in state and (found := visit(other)) is not None:
                return found
        path.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state and (found := visit(name)) is not None:
            return found
    return None


def test_no_module_of_the_render_package_imports_itself_round_a_circle() -> None:
    graph = {name: render_imports(path) for name, path in modules().items()}
    assert {"encode", "html", "output"} <= set(graph)
    assert "html" in graph["encode"]
    assert "output" in graph["html"]
    assert circle(graph) is None, " -> ".join(circle(graph) or [])


def test_the_circle_finder_finds_a_circle() -> None:
    assert circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert circle({"a": {"b"}, "b": set()}) is None


def test_no_module_of_the_render_package_is_over_600_lines() -> None:
    sizes = {
        name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in modules().items()
    }
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
