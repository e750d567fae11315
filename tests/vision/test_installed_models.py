"""An installed copy (not this checkout) finds its models and reads dice from any directory."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from vision_data import D6_TRAY

ROOT = Path(__file__).parent.parent.parent


def test_an_installed_copy_reads_dice_from_another_directory(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy, so that building leaves nothing in the checkout
    for name in ("vision", "models", "calibration", "companion"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(source)],
        check=True, capture_output=True,
    )  # fmt: skip
    assert (target / "models" / "pip_classifier.onnx").is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}
    photo = D6_TRAY / "images" / "IMG_20191209_100649.jpg"
    code = "import vision, models; print(vision.__file__); print(models.__file__)"
    where = subprocess.run(
        [sys.executable, "-c", code], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert all(line.startswith(str(target)) for line in where.stdout.split()), where.stdout
    run = subprocess.run(
        [sys.executable, "-m", "vision", "read", "--json", str(photo)],
        cwd=elsewhere, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert sorted(d["value"] for d in json.loads(run.stdout)["dice"]) == [1, 1, 1, 3, 4, 6]
