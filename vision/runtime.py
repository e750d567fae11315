"""ONNX models at run time: one onnxruntime session per model, created once, on one intra-op thread."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import numpy.typing as npt
import onnxruntime as ort

from models import model_card, model_path

KEPT_FLOAT = ["QDQPropagationTransformer"]
"""onnxruntime's graph rewrites left off. This one moves the pip classifier's 8-bit step ahead of the pool
behind its float first layer, where the pool then runs on 8-bit values in a slow generic kernel: 1.6 ms a
net, of a 2.4 ms classifier call (`lab.train.compact`)."""


def channels_first(images: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """Images or crops (N×S×S×3, 0-255) as the nets take them: N×3×S×S float."""
    return np.ascontiguousarray(images.transpose(0, 3, 1, 2), np.float32)


class Model:
    """An installed model (`models/NAME.onnx`) with its card, or one in `folder` (a training run's output);
    `run` maps the one input to all outputs."""

    def __init__(self, name: str, threads: int = 1, folder: Path | None = None) -> None:
        self.name = name
        if folder is None:
            path, self.card = model_path(name), model_card(name)
        else:
            path = folder / f"{name}.onnx"
            self.card = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        self.session = ort.InferenceSession(
            str(path), options, providers=["CPUExecutionProvider"], disabled_optimizers=KEPT_FLOAT
        )
        self.input = self.session.get_inputs()[0].name

    def run(self, x: npt.NDArray[np.float32]) -> list[npt.NDArray[np.float32]]:
        return list(self.session.run(None, {self.input: x}))
