"""Imports run one way, and never in a circle.

From the bottom: `jsonfile` (the reader of every file a user hands the program); `vision` (frames to dice
readings) and the game engines (`companion.games`) side by side above it, neither importing the other;
`calibration` over the reader; `companion.live` (the camera meeting a game) above both; the app
(`companion.app`) and the commands on top. The lab (training, measuring) may use all of them, and nothing
installed may use it. Game engines import no UI and no OpenCV; below the app nothing imports Textual (the
camera's thread posts plain data, the app carries it to its screens). Checked on the source, so an import
hidden inside a function counts too; a rule that a new import breaks fails here, naming the file and the
import.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PACKAGES = ("jsonfile", "vision", "calibration", "companion", "models", "lab")
NOT_BELOW = {
    "jsonfile": ("vision", "calibration", "companion", "models", "lab"),
    "vision": ("calibration", "companion", "lab", "textual"),
    "calibration": ("companion", "lab", "textual"),
    "companion": ("lab",),
    "models": ("vision", "calibration", "companion", "lab"),
    "companion.games": ("vision", "calibration", "companion.app", "companion.live", "companion.cli",
                        "companion.demos", "companion.history", "companion.saved_games",
                        "companion.scorefiles", "companion.calibrate_command", "textual", "rich", "cv2",
                        "onnxruntime"),
    "companion.live": ("companion.app", "companion.cli", "companion.demos", "textual"),
}  # fmt: skip
"""What the modules of a package (the key) never import."""


@functools.cache
def modules() -> dict[str, Path]:
    """Every first-party module by its dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(name: str, path: Path) -> set[str]:
    """The modules `path` imports (relative imports resolved; `from P import m` is P.m where that is one)."""
    known = modules()
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                names.add(f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module)
    return names


def under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


@pytest.mark.parametrize("package", sorted(NOT_BELOW))
def test_no_import_runs_back_up(package: str) -> None:
    wrong = sorted(
        f"{path.relative_to(ROOT)} imports {name}"
        for module, path in modules().items()
        if under(module, package)
        for name in imported(module, path)
        if any(under(name, above) for above in NOT_BELOW[package])
    )
    assert not wrong, "\n".join(wrong)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_import_runs_in_a_circle() -> None:
    known = modules()
    graph = {name: {n for n in imported(name, path) if n in known} for name, path in known.items()}
    assert not cycles(graph), "\n".join(" -> ".join(group) for group in cycles(graph))


def test_a_circle_is_found() -> None:
    """The check itself: a circle of three is found, a chain is not."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


BELOW_THE_APP = ("vision", "calibration", "companion.games", "companion.live")


def test_nothing_below_the_app_brings_textual_in() -> None:
    """Imported, not read: a library below the app that imports Textual itself counts too."""
    names = sorted(
        name
        for name, path in modules().items()
        if any(under(name, package) for package in BELOW_THE_APP) and path.name != "__main__.py"
    )
    script = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "    if 'textual' in sys.modules:\n"
        "        print(name)\n"
        "        break\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert not run.stdout.strip(), f"importing {run.stdout.strip()} imports textual"
