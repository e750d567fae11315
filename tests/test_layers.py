"""Imports run one way: vision <- calibration <- companion, and the lab beside them all.

`vision` reads frames and knows nothing of set-up steps or games; `calibration` holds set-up steps over the
reader; `companion` holds the games and the app. The lab (training, measuring) may use all of them, and
nothing installed may use it. Game engines import no UI and no OpenCV. Checked on the source, so an import
hidden inside a function counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
NOT_BELOW = {
    "vision": ("calibration", "companion", "lab"),
    "calibration": ("companion", "lab"),
    "companion": ("lab",),
    "models": ("vision", "calibration", "companion", "lab"),
}
ENGINE_NEVER = ("textual", "cv2", "rich", "companion.app", "companion.live")


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


@pytest.mark.parametrize("package", sorted(NOT_BELOW))
def test_no_import_runs_back_up(package: str) -> None:
    wrong = sorted(
        f"{path.relative_to(ROOT)} imports {name}"
        for path in (ROOT / package).rglob("*.py")
        for name in imported(path)
        if any(under(name, above) for above in NOT_BELOW[package])
    )
    assert not wrong, "\n".join(wrong)


def test_game_engines_import_no_ui_and_no_opencv() -> None:
    wrong = sorted(
        f"{path.relative_to(ROOT)} imports {name}"
        for path in (ROOT / "companion" / "games").rglob("*.py")
        for name in imported(path)
        if any(under(name, never) for never in ENGINE_NEVER)
    )
    assert not wrong, "\n".join(wrong)
