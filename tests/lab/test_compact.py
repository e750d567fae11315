"""The compact form of a model folder: input scaling folded into the first convolution (the same outputs), the
pip classifier in 8 bits after its first layer (nearly the same readings)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from lab.train.compact import fold_input_scaling, main

MODELS = Path(__file__).resolve().parents[2] / "models"


def small_classifier(seed: int = 0) -> onnx.ModelProto:
    """A float classifier of the nets' shape (`lab.train.nets`): 32 px crops, 0-255, scaled in the graph, two
    convolution layers with pools, a linear layer to 7 classes."""
    rng = np.random.default_rng(seed)

    def weights(name: str, *shape: int) -> onnx.TensorProto:
        fan_in = int(np.prod(shape[1:]))
        return numpy_helper.from_array(rng.normal(0, (2 / fan_in) ** 0.5, shape).astype(np.float32), name)

    def bias(name: str, n: int) -> onnx.TensorProto:
        return numpy_helper.from_array(rng.normal(0, 0.1, n).astype(np.float32), name)

    scalar = lambda name, v: helper.make_node(  # noqa: E731
        "Constant", [], [name], value=numpy_helper.from_array(np.array(v, np.float32))
    )
    conv = {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}
    pool = {"kernel_shape": [2, 2], "strides": [2, 2]}
    nodes = [
        scalar("s", 255.0), scalar("h", 0.5),
        helper.make_node("Div", ["crops", "s"], ["d"]), helper.make_node("Sub", ["d", "h"], ["x"]),
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="first", **conv),
        helper.make_node("Relu", ["c1"], ["r1"], name="first_relu"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="first_pool", **pool),
        helper.make_node("Conv", ["p1", "w2", "b2"], ["c2"], name="second", **conv),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("MaxPool", ["r2"], ["p2"], **pool),
        helper.make_node("Flatten", ["p2"], ["f"]),
        helper.make_node("Gemm", ["f", "w3", "b3"], ["logits"], transB=1),
        helper.make_node("Softmax", ["logits"], ["probs"], axis=1),
    ]  # fmt: skip
    graph = helper.make_graph(
        nodes,
        "small_classifier",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, 32, 32])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["n", 7])],
        [weights("w1", 16, 3, 3, 3), bias("b1", 16), weights("w2", 16, 16, 3, 3), bias("b2", 16),
         weights("w3", 7, 16 * 8 * 8), bias("b3", 7)],
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    return model


def run(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return np.asarray(session.run(None, {"crops": x})[0])


def test_folding_the_input_scaling_keeps_the_outputs_and_drops_the_passes() -> None:
    crops = np.random.default_rng(1).integers(0, 256, (6, 3, 32, 32)).astype(np.float32)
    model = small_classifier()
    before = run(model, crops)
    folded = fold_input_scaling(model)
    assert [n.op_type for n in folded.graph.node][:2] == ["Pad", "Conv"]
    assert not {"Div", "Sub"} & {n.op_type for n in folded.graph.node}
    np.testing.assert_allclose(run(folded, crops), before, atol=1e-5)


def test_scaling_that_feeds_more_than_a_convolution_is_refused() -> None:
    model = small_classifier()
    model.graph.node.append(helper.make_node("Relu", ["x"], ["also"]))
    with pytest.raises(ValueError, match="more than convolutions"):
        fold_input_scaling(model)


def test_the_compact_classifier_keeps_its_first_layer_float_and_reads_as_the_float_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, out = tmp_path / "float", tmp_path / "compact"
    source.mkdir()
    for path in MODELS.glob("die_detector.*"):
        shutil.copy(path, source / path.name)
    onnx.save(small_classifier(), str(source / "pip_classifier.onnx"))
    (source / "pip_classifier.json").write_text(json.dumps({"input_size": 32}), encoding="utf-8")
    main([str(source), str(out)])
    model = onnx.load(str(out / "pip_classifier.onnx"))
    ops = {n.name: n.op_type for n in model.graph.node}
    assert ops["first"] == "Conv" and "QLinearConv" in ops.values()
    card = json.loads((out / "pip_classifier.json").read_text(encoding="utf-8"))
    against = next(iter(card["compact"]["against_float"].values()))
    assert against["dice"] > 0 and against["values_changed"] <= against["dice"] // 20
    assert against["largest_confidence_change"] < 0.1
    assert "rendered_tables" in capsys.readouterr().out
