"""ONNX models at run time: one onnxruntime session per model, created once, on one intra-op thread."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import onnxruntime as ort

from models import model_card, model_path


class Model:
    """An installed model (`models/NAME.onnx`) with its card; `run` maps the one input to all outputs."""

    def __init__(self, name: str, threads: int = 1) -> None:
        self.name = name
        self.card = model_card(name)
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        self.session = ort.InferenceSession(
            str(model_path(name)), options, providers=["CPUExecutionProvider"]
        )
        self.input = self.session.get_inputs()[0].name

    def run(self, x: npt.NDArray[np.float32]) -> list[npt.NDArray[np.float32]]:
        return list(self.session.run(None, {self.input: x}))  # type: ignore[arg-type]
