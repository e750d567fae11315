"""ONNX model files with a JSON card each, shipped inside the package so an installed copy finds them."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path


class ModelMissingError(FileNotFoundError):
    """A model named by the code is not installed beside this module."""


def model_path(name: str) -> Path:
    """Path of `models/NAME.onnx`, wherever the package is installed."""
    path = Path(str(resources.files(__name__).joinpath(f"{name}.onnx")))
    if not path.is_file():
        raise ModelMissingError(f"model {name!r} is not installed (looked for {path})")
    return path


def model_card(name: str) -> dict[str, object]:
    """The JSON card of `models/NAME.onnx`: labels, input size, training data, measured metrics."""
    path = Path(str(resources.files(__name__).joinpath(f"{name}.json")))
    if not path.is_file():
        raise ModelMissingError(f"model card {name!r} is not installed (looked for {path})")
    card: dict[str, object] = json.loads(path.read_text())
    return card
