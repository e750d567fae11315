"""ONNX model files with a JSON card each, shipped inside the package so an installed copy finds them."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path

from jsonfile import JsonFileError, is_whole_number, read_json, short


class ModelMissingError(FileNotFoundError):
    """A model named by the code is not installed beside this module."""


class ModelError(ValueError):
    """A model file or card that cannot be used; the message names the file and says what is wrong."""


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
    card: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return card


def _whole(value: object) -> bool:
    return is_whole_number(value, 1)


def _share(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < 1


def _positive(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < math.inf


CARD_FIELDS: dict[str, tuple[Callable[[object], bool], str]] = {
    "input_size": (_whole, "a whole number of 1 or more"),
    "input_long_side": (_whole, "a whole number of 1 or more"),
    "threshold": (_share, "a number between 0 and 1"),
    "temperature": (_positive, "a number above 0"),
}
"""The card fields the readers use, and what each must be."""

REQUIRED_FIELDS = {"die_detector": ("input_long_side", "threshold"), "pip_classifier": ("input_size",)}
"""The fields a card of these models cannot do without: every card a training run writes has them, so a
card without them is another file (or `{}`)."""


def check_folder(folder: Path, names: Sequence[str]) -> None:
    """Raise `ModelMissingError` or `ModelError`, naming the file, unless `folder` (a training run's output,
    used instead of the installed models) holds a usable `NAME.onnx` and `NAME.json` for each of `names`:
    else the reader would fail later with a traceback from `json` or onnxruntime."""
    if not folder.is_dir():
        raise ModelMissingError(f"{folder}: {'not a folder' if folder.exists() else 'no such folder'}")
    for name in names:
        check_card(name, folder / f"{name}.json")
        check_onnx(folder / f"{name}.onnx")


def check_card(name: str, path: Path) -> None:
    """The card at `path` is a JSON object with `name`'s required fields, and every `CARD_FIELDS` it has
    valid."""
    if not path.is_file():
        raise ModelMissingError(f"{path}: missing (a models folder holds NAME.onnx with its card NAME.json)")
    try:
        card = read_json(path)
    except JsonFileError as err:
        raise ModelError(str(err)) from None
    if not isinstance(card, dict):
        raise ModelError(f"{path}: a model card is a JSON object, not {short(card)}")
    for field in REQUIRED_FIELDS.get(name, ()):
        if field not in card:
            raise ModelError(f"{path}: no field {field!r} (a card of {name} gives it)")
    for field, (valid, what) in CARD_FIELDS.items():
        if field in card and not valid(card[field]):
            raise ModelError(f"{path}: field {field!r} must be {what}, not {short(card[field])}")


def check_onnx(path: Path) -> None:
    """The file at `path` is a model onnxruntime loads (an ONNX file cut short or another file is not)."""
    import onnxruntime as ort

    if not path.is_file():
        raise ModelMissingError(f"{path}: missing (a models folder holds NAME.onnx with its card NAME.json)")
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    try:
        ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as err:  # onnxruntime's errors share no base class but Exception
        # Its message repeats the path and a parser's detail; the status name says enough (INVALID_PROTOBUF).
        status = re.search(r"\] : \d+ : (\w+)", str(err))
        why = status[1] if status else type(err).__name__
        raise ModelError(f"{path}: not a model onnxruntime can load ({why})") from None
