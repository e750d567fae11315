"""Two pip classifiers as one model: the reader's crops in, the mean of the two nets' probabilities out."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

from lab.train.pair import main

MODELS = Path(__file__).resolve().parents[2] / "models"


def probs(model: Path, crops: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    return np.asarray(session.run(None, {"crops": crops})[0])


def other_net(folder: Path) -> Path:
    """The shipped classifier with its first layer's biases moved (a layer float in every form of the net):
    a second net that reads otherwise."""
    folder.mkdir()
    for path in MODELS.glob("pip_classifier.*"):
        shutil.copy(path, folder / path.name)
    model = onnx.load(str(folder / "pip_classifier.onnx"))
    first = next(n for n in model.graph.node if n.op_type == "Conv")
    bias = next(i for i in model.graph.initializer if i.name == first.input[2])
    old = numpy_helper.to_array(bias)
    bias.CopyFrom(numpy_helper.from_array(old + np.linspace(-2, 2, len(old), dtype=np.float32), bias.name))
    onnx.save(model, str(folder / "pip_classifier.onnx"))
    return folder


def test_a_pair_reads_the_mean_of_its_two_nets(tmp_path: Path) -> None:
    second = other_net(tmp_path / "second")
    main([str(MODELS), str(second), str(tmp_path / "pair")])
    crops = np.random.default_rng(0).integers(0, 256, (5, 3, 32, 32)).astype(np.float32)
    one, two = probs(MODELS / "pip_classifier.onnx", crops), probs(second / "pip_classifier.onnx", crops)
    assert not np.allclose(one, two, atol=1e-3)
    both = probs(tmp_path / "pair" / "pip_classifier.onnx", crops)
    np.testing.assert_allclose(both, (one + two) / 2, atol=1e-5)
    assert (tmp_path / "pair" / "die_detector.onnx").exists()
