"""The shipped form of a model folder: the same pip reader, cheaper on one CPU thread.

    python -m lab.train.compact IN_DIR OUT_DIR [--real]   # IN_DIR: float models (fit, finetune, pair)

- Each net's input scaling (x / 255 - 0.5) is folded into its first convolution, the frame padded with the
  grey that scales to 0 as the convolution's own zero padding did: the same outputs up to float rounding,
  without two passes over the detector's whole input.
- The pip classifier runs in 8 bits after its first layer (weights per output channel, activations
  calibrated on rendered tables no training or measuring run draws). Its first layer, three input channels
  wide, stays float: in 8 bits it alone cost more than the float net's layers it replaces
  (`vision.runtime.KEPT_FLOAT` keeps the pool behind it float too).

The command prints how far the compact pip reader strays from the float one: dice whose value or whose
sureness (the live table's 0.8) changes, and the largest change of a confidence, on rendered tables and
with `--real` on every photo of the real sets (`../shared/datasets`). The detector, and so every box, is the
same in both.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper

from lab.real_sets import SETS, labelled, photo
from vision.detect import Detection
from vision.pips import PipReader
from vision.reading import SURE_READ, Image
from vision.runtime import channels_first
from vision.simulated_table.scene import random_scene

NETS = ("die_detector", "pip_classifier")
SCALE, SHIFT = 255.0, 0.5
"""The nets' own input scaling, x / SCALE - SHIFT (`lab.train.nets`)."""
CALIBRATION_SEED = 40000
"""Rendered tables seeded from here calibrate the 8-bit classifier; training draws (run seed, sample) pairs
and `lab.train.measure` seeds 20000 up, so none of theirs."""
CALIBRATION_TABLES = 40
AGREEMENT_SEED = 20000
AGREEMENT_TABLES = 50


def constant(model: onnx.ModelProto, name: str) -> float | None:
    """The value of a scalar `Constant` node's output `name`, or None."""
    for node in model.graph.node:
        if node.op_type == "Constant" and node.output[0] == name:
            value = numpy_helper.to_array(node.attribute[0].t)
            return float(value) if value.size == 1 else None
    return None


def fold_input_scaling(model: onnx.ModelProto) -> onnx.ModelProto:
    """`model` with every Div-by-255-then-Sub-0.5 in front of a convolution folded into it: W / 255 and the
    bias less 0.5·ΣW, the input padded with 127.5 (0 once scaled) where the convolution padded zeros."""
    graph = model.graph
    weights = {init.name: init for init in graph.initializer}
    nodes = list(graph.node)
    dropped: set[int] = set()  # ids: nodes need no names
    pads: dict[str, onnx.NodeProto] = {}
    for div in nodes:
        if div.op_type != "Div" or constant(model, div.input[1]) != SCALE:
            continue
        (sub,) = [n for n in nodes if n.op_type == "Sub" and n.input[0] == div.output[0]]
        convs = [n for n in nodes if n.input and n.input[0] == sub.output[0]]
        if constant(model, sub.input[1]) != SHIFT or not convs or any(n.op_type != "Conv" for n in convs):
            raise ValueError(f"{div.name}: the input scaling feeds more than convolutions")
        if len({tuple(next(a.ints for a in n.attribute if a.name == "pads")) for n in convs}) != 1:
            raise ValueError(f"{div.name}: the convolutions it feeds pad the input differently")
        padded = f"{div.output[0]}_unscaled_padded"
        for conv in convs:
            attrs = {a.name: a for a in conv.attribute}
            w = numpy_helper.to_array(weights[conv.input[1]])
            b = numpy_helper.to_array(weights[conv.input[2]])
            weights[conv.input[1]].CopyFrom(
                numpy_helper.from_array((w / SCALE).astype(np.float32), conv.input[1])
            )
            folded_bias = (b - SHIFT * w.sum(axis=(1, 2, 3))).astype(np.float32)
            weights[conv.input[2]].CopyFrom(numpy_helper.from_array(folded_bias, conv.input[2]))
            border = list(attrs["pads"].ints)
            attrs["pads"].CopyFrom(helper.make_attribute("pads", [0] * len(border)))
            conv.input[0] = padded
        top, left, bottom, right = border
        widths = np.array([0, 0, top, left, 0, 0, bottom, right], np.int64)
        graph.initializer.extend(
            [
                numpy_helper.from_array(widths, f"{padded}_pads"),
                numpy_helper.from_array(np.array(SCALE * SHIFT, np.float32), f"{padded}_value"),
            ]
        )
        pads[div.input[0]] = helper.make_node(
            "Pad", [div.input[0], f"{padded}_pads", f"{padded}_value"], [padded], mode="constant"
        )
        dropped |= {id(div), id(sub)}
    kept = [n for n in nodes if id(n) not in dropped]
    used = {i for n in kept for i in n.input}
    kept = [n for n in kept if n.op_type != "Constant" or n.output[0] in used]
    graph_inputs = {i.name for i in graph.input}
    ordered = [pads.pop(name) for name in list(pads) if name in graph_inputs]
    for node in kept:
        ordered.append(node)
        ordered += [pads.pop(out) for out in node.output if out in pads]
    del graph.node[:]
    graph.node.extend(ordered)
    onnx.checker.check_model(model)
    return model


def rendered(first_seed: int, tables: int) -> Iterator[Image]:
    for seed in range(first_seed, first_seed + tables):
        yield random_scene(np.random.default_rng(seed), 480, 640, n_dice=12, side=40).image


def quantize_classifier(source: Path, out: Path, reader: PipReader) -> None:
    """The classifier at `source` in 8 bits after its first layer, written to `out`."""
    from onnxruntime.quantization import (  # here: it puts a `models` folder of its own on sys.path
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    model = onnx.load(str(source))
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for node in model.graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    inputs = [model.graph.input[0].name]  # the crops as they reach the first layers (a pair copies them)
    for name in inputs:
        inputs += [n.output[0] for n in consumers.get(name, []) if n.op_type in ("Identity", "Pad")]
    float_layers: list[str] = []
    firsts = [n for name in inputs for n in consumers.get(name, []) if n.op_type == "Conv"]
    for first in firsts:  # each net's first convolution, and its activation and pool behind it
        node = first
        while True:
            float_layers.append(node.name)
            after = consumers.get(node.output[0], [])
            if len(after) != 1 or after[0].op_type not in ("Relu", "MaxPool"):
                break
            node = after[0]

    class Crops(CalibrationDataReader):
        def __init__(self) -> None:
            self.frames = (
                channels_first(reader.both_crops(image, reader.detector(image)))
                for image in rendered(CALIBRATION_SEED, CALIBRATION_TABLES)
            )

        def get_next(self) -> dict[str, np.ndarray] | None:
            crops = next(self.frames, None)
            return None if crops is None else {model.graph.input[0].name: crops}

    quantize_static(
        str(source), str(out), Crops(), quant_format=QuantFormat.QOperator, per_channel=True,
        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, nodes_to_exclude=float_layers,
    )  # fmt: skip


@dataclass
class Agreement:
    """How the compact classifier's readings differ from the float one's on the same finds."""

    dice: int = 0
    values_changed: int = 0
    sureness_changed: int = 0
    largest_change: float = 0.0

    def add(self, float_reader: PipReader, compact: PipReader, image: Image) -> None:
        found: list[Detection] = float_reader.detector(image)
        a, b = float_reader.classify(image, found), compact.classify(image, found)
        conf_a, conf_b = a.confidences(), b.confidences()
        self.dice += len(found)
        self.values_changed += int((a.values() != b.values()).sum())
        self.sureness_changed += int(((conf_a >= SURE_READ) != (conf_b >= SURE_READ)).sum())
        if len(found):
            self.largest_change = max(self.largest_change, float(np.abs(conf_a - conf_b).max()))

    def to_json(self) -> dict[str, object]:
        return {
            "dice": self.dice,
            "values_changed": self.values_changed,
            "sureness_changed": self.sureness_changed,
            "largest_confidence_change": round(self.largest_change, 4),
        }


def agreement(float_dir: Path, compact_dir: Path, real: bool) -> dict[str, dict[str, object]]:
    """The compact reader against the float one on rendered tables and, with `real`, every real photo."""
    float_reader, compact = PipReader(models=float_dir), PipReader(models=compact_dir)
    frames: dict[str, Iterator[Image]] = {
        f"rendered_tables_{AGREEMENT_SEED}_{AGREEMENT_SEED + AGREEMENT_TABLES - 1}": rendered(
            AGREEMENT_SEED, AGREEMENT_TABLES
        )
    }
    if real:
        frames |= {name: (photo(item)[0] for item in labelled(name, "all")) for name in SETS}
    out = {}
    for name, images in frames.items():
        counts = Agreement()
        for image in images:
            counts.add(float_reader, compact, image)
        out[name] = counts.to_json()
        print(name, json.dumps(out[name]), flush=True)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("source", type=Path, help="model folder of the float nets")
    parser.add_argument("out", type=Path, help="model folder to write")
    parser.add_argument("--real", action="store_true", help="also compare on every photo of the real sets")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folded = Path(tmp)
        for name in NETS:
            shutil.copy(args.source / f"{name}.json", folded / f"{name}.json")
            onnx.save(
                fold_input_scaling(onnx.load(str(args.source / f"{name}.onnx"))), str(folded / f"{name}.onnx")
            )
        for path in (
            folded / "die_detector.onnx",
            folded / "die_detector.json",
            folded / "pip_classifier.json",
        ):
            shutil.copy(path, args.out / path.name)
        quantize_classifier(
            folded / "pip_classifier.onnx", args.out / "pip_classifier.onnx", PipReader(models=folded)
        )
    for name in NETS:
        card = json.loads((args.source / f"{name}.json").read_text(encoding="utf-8"))
        real = " --real" if args.real else ""
        card["compact"] = {"command": f"python -m lab.train.compact {args.source} {args.out}{real}",
                           "input_scaling": "folded into the first convolution"}  # fmt: skip
        if name == "pip_classifier":
            card["compact"]["eight_bit"] = (
                "after the first layer (convolution, activation and pool float); weights per output channel, "
                f"activations calibrated on {CALIBRATION_TABLES} rendered tables from seed {CALIBRATION_SEED}"
            )
            card["compact"]["against_float"] = agreement(args.source, args.out, args.real)
        (args.out / f"{name}.json").write_text(
            json.dumps(card, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
