"""Two pip classifiers as one: a model folder whose `pip_classifier.onnx` runs both nets on each crop and
gives the mean of their probabilities, so that a die is read surely only where two nets trained apart agree.

    python -m lab.train.pair FIRST_DIR SECOND_DIR OUT_DIR   # then: python -m vision eval SET --models OUT_DIR

The folders are model folders (`pip_classifier.onnx` + `.json`, `die_detector.*`); OUT_DIR gets FIRST_DIR's
detector and card. The reader needs no change: the pair takes the same crops and gives the same N×7
probabilities, at twice the classifier's time (`python -m vision bench --models OUT_DIR`).
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import onnx
from onnx import compose, helper

NAME = "pip_classifier"
FIRST, SECOND = "a_", "b_"
"""The prefixes of each net's names in the pair's graph."""


def paired(first: onnx.ModelProto, second: onnx.ModelProto) -> onnx.ModelProto:
    """One graph: input `crops` to both nets, output `probs` the mean of theirs."""
    a, b = compose.add_prefix(first, FIRST), compose.add_prefix(second, SECOND)
    nodes = [helper.make_node("Identity", ["crops"], [f"{p}crops"]) for p in (FIRST, SECOND)]
    nodes += [*a.graph.node, *b.graph.node]
    nodes += [
        helper.make_node("Add", [f"{FIRST}probs", f"{SECOND}probs"], ["pair_sum"]),
        helper.make_node("Mul", ["pair_sum", "pair_half"], ["probs"]),
    ]
    half = helper.make_tensor("pair_half", onnx.TensorProto.FLOAT, [], [0.5])
    graph = helper.make_graph(
        nodes,
        "pip_classifier_pair",
        list(first.graph.input),
        list(first.graph.output),
        initializer=[*a.graph.initializer, *b.graph.initializer, half],
    )
    model = helper.make_model(graph, opset_imports=first.opset_import)
    model.ir_version = first.ir_version
    onnx.checker.check_model(model)
    return model


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("first", type=Path, help="model folder of the first classifier (and the detector)")
    parser.add_argument("second", type=Path, help="model folder of the second classifier")
    parser.add_argument("out", type=Path, help="model folder to write")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for path in args.first.glob("die_detector.*"):
        shutil.copy(path, args.out / path.name)
    model = paired(onnx.load(str(args.first / f"{NAME}.onnx")), onnx.load(str(args.second / f"{NAME}.onnx")))
    onnx.save(model, str(args.out / f"{NAME}.onnx"))
    card = json.loads((args.first / f"{NAME}.json").read_text(encoding="utf-8"))
    card["pair"] = {
        "first": str(args.first),
        "second": str(args.second),
        "rule": "mean of the two nets' probs",
    }
    (args.out / f"{NAME}.json").write_text(
        json.dumps(card, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"wrote {args.out / NAME}.onnx")


if __name__ == "__main__":
    main()
