"""Train both models, then measure them into their cards: `python -m lab.train [--minutes 140]`.

Runs `lab.train.fit detector`, `lab.train.fit classifier` and `lab.train.measure` in turn, each
`fit` given a share of the wall-time budget (its learning-rate schedule ends inside it).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from lab.train import fit, measure

DETECTOR_SHARE, CLASSIFIER_SHARE = 0.5, 0.4


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--data", type=Path, default=Path("../shared/datasets/d6-tray"), help="d6-tray folder"
    )
    parser.add_argument("--out", type=Path, default=Path("models"), help="where the models and cards go")
    parser.add_argument("--minutes", type=float, default=140, help="wall-time budget for both models")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    common = ["--data", str(args.data), "--out", str(args.out), "--seed", str(args.seed)]
    budget = args.minutes * 60
    fit.main(["detector", "--steps", "30000", "--batch", "32", "--lr", "3e-3",
              "--threads", "2", "--max-seconds", f"{budget * DETECTOR_SHARE:.0f}", *common])  # fmt: skip
    fit.main(["classifier", "--steps", "30000", "--batch", "256", "--lr", "3e-3", "--size", "32",
              "--bank", "240000", "--workers", "2", "--threads", "2",
              "--max-seconds", f"{budget * CLASSIFIER_SHARE:.0f}", *common])  # fmt: skip
    measure.main(["--data", str(args.data), "--out", str(args.out)])


if __name__ == "__main__":
    main()
