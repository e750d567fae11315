"""Measure trained models and write the figures into their cards (the `metrics` field of each).

    python -m lab.train.measure --data ../shared/datasets/d6-tray --out models

Figures: the pip reader on d6-tray's held-out photos (never trained or tuned on; as published and with the
labels the photos contradict mended), on those photos tiled six to a large frame (small dice), on the other
real tables' measuring parts (webcam-red-yellow's held-out scenes, casino-crops' test split) and on 250
rendered tables (seeds 20000-20249, never used in training), palette colour names on the held-out dice whose
colour is plain (hand-labelled in `held_out_colours.csv`), yellow-vs-blue with a taught profile on rendered
tables, and speed on one thread. Same code as `python -m vision eval` / `bench`.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from lab.colour_trial import run_trials
from lab.train.split import LABEL_FAULTS, load_fixes, write_held_out
from lab.train.webcam import write_set
from vision.bench import DICE, run_bench
from vision.colour import body_lab, palette_name
from vision.dataset import LabelledDie, LabelledImage, load_crop_set, load_set
from vision.evaluate import Scores, evaluate, evaluate_rendered
from vision.images import load_image
from vision.pips import PipReader
from vision.reading import Box

COLOUR_LABELS = Path(__file__).with_name("held_out_colours.csv")
"""Hand labels `image,index,colour` for d6-tray's held-out dice; colour "unclear" for marbled, translucent or
two-tone dice, which no single palette name fits."""


RENDERED_TABLES = 250
RENDERED_SEED = 20000
"""Rendered tables measured on (`random_scene` seeded 20000 up): training's samples come from generators
seeded with (run seed, sample index) pairs, never from these."""


def palette_accuracy(data: Path) -> dict[str, object]:
    """Palette names (no profile) against the hand labels, on the labelled boxes of held-out dice."""
    rows = list(csv.DictReader(COLOUR_LABELS.open(encoding="utf-8")))
    right = total = 0
    wrong: list[str] = []
    images: dict[str, object] = {}
    boxes = {item.image.name: item.dice for item in load_set(data, "held-out")}
    for row in rows:
        if row["colour"] == "unclear":
            continue
        image = images.setdefault(row["image"], load_image(data / "images" / row["image"]))
        name = palette_name(body_lab(image, boxes[row["image"]][int(row["index"])].box))  # type: ignore[arg-type]
        total += 1
        right += name == row["colour"]
        if name != row["colour"]:
            wrong.append(f"{row['image']}#{row['index']}: {row['colour']} read as {name}")
    return {
        "plain_coloured_dice": total,
        "unclear_dice_left_out": sum(r["colour"] == "unclear" for r in rows),
        "accuracy": round(right / total, 4) if total else None,
        "errors": wrong,
    }


def other_tables(reader: PipReader, shared: Path) -> dict[str, object]:
    """The measuring parts of the real sets beside d6-tray's published labels, as `vision eval` scores them
    (the live table's confidence rule included: `sure_right`, `sure_but_wrong`, `asked`)."""
    with tempfile.TemporaryDirectory() as tmp:
        mended, webcam = Path(tmp) / "d6-tray-mended", Path(tmp) / "webcam"
        write_held_out(shared / "d6-tray", mended, load_fixes(LABEL_FAULTS))
        write_set(shared / "webcam-red-yellow", webcam)
        scenes: dict[str, tuple[str, list[LabelledImage]]] = {
            "held_out_d6_tray_mended": ("python -m lab.train.split --out SET --fixes", load_set(mended)),
            "webcam_red_yellow_held_out": ("python -m lab.train.webcam --out SET", load_set(webcam)),
        }
        out: dict[str, object] = {
            name: {"command": f"{made}; python -m vision eval SET", **evaluate(items, reader.read).to_json()}
            for name, (made, items) in scenes.items()
        }
        out["held_out_d6_tray_mended_tiled"] = {
            "command": "python -m lab.train.measure (lab.train.measure.tiled)",
            **tiled(reader, scenes["held_out_d6_tray_mended"][1]),
        }
    crops = load_crop_set(shared / "casino-crops" / "test")
    out["casino_crops_test"] = {"command": "python -m vision eval ../shared/datasets/casino-crops/test",
                                **evaluate(crops, reader.read_crop).to_json()}  # fmt: skip
    return out


def tiled(
    reader: PipReader, items: list[LabelledImage], columns: int = 3, rows: int = 2
) -> dict[str, object]:
    """The photos tiled `columns` × `rows` into one frame (d6-tray's 640 px photos: 1920×1280), their dice a
    third of the size the detector knows at its input, as in a phone's photo of a whole table."""
    scores = Scores()
    per = columns * rows
    for start in range(0, len(items) - per + 1, per):
        tiles = items[start : start + per]
        images = [load_image(t.image) for t in tiles]
        h, w = images[0].shape[:2]
        frame = np.vstack([np.hstack(images[r * columns : (r + 1) * columns]) for r in range(rows)])
        dice = tuple(
            LabelledDie(d.value, Box(d.box.x0 + w * (k % columns), d.box.y0 + h * (k // columns),
                                     d.box.x1 + w * (k % columns), d.box.y1 + h * (k // columns)))
            for k, t in enumerate(tiles)
            for d in t.dice
        )  # fmt: skip
        where = Path(f"{tiles[0].image.name} and the next {per - 1}")
        scores.add(LabelledImage(where, dice, frame.shape[1], frame.shape[0]), reader.read(frame))
    return {"frame": f"{columns}x{rows} photos", **scores.to_json()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/datasets/d6-tray"))
    parser.add_argument("--out", type=Path, default=Path("models"), help="folder with the models to measure")
    parser.add_argument("--trials", type=int, default=60, help="yellow-vs-blue trials (tables and lights)")
    args = parser.parse_args(argv)
    reader = PipReader(models=args.out)
    held = load_set(args.data, "held-out")
    scores = evaluate(held, reader.read).to_json()
    print(json.dumps(scores), flush=True)
    others = other_tables(reader, args.data.parent)
    print(json.dumps(others), flush=True)
    rendered = evaluate_rendered(reader.read, RENDERED_TABLES, RENDERED_SEED).to_json()
    print(json.dumps(rendered), flush=True)
    trials = run_trials(reader, args.trials, throws=10)
    colour = {
        "yellow_vs_blue_rendered": {
            "command": "python -m lab.train.measure (lab.colour_trial.run_trials)",
            "trials": args.trials,
            "dice": trials.dice,
            "missed_by_detector": trials.missed,
            "right_with_profile": round(trials.right_with_profile / max(1, trials.dice - trials.missed), 5),
            "right_palette_rules_only": round(trials.right_without / max(1, trials.dice - trials.missed), 5),
        },
        "palette_names_d6_tray_held_out": palette_accuracy(args.data),
    }
    print(json.dumps(colour), flush=True)
    speed = {f"{w}x{h}": round(ms, 2) for w, h, ms in run_bench(50, reader)}
    metrics = {
        "held_out_d6_tray": {"command": "python -m vision eval ../shared/datasets/d6-tray --split held-out",
                             **scores},
        **others,
        "rendered_tables": {"command": "python -m lab.train.measure (vision.evaluate.evaluate_rendered)",
                            "tables": RENDERED_TABLES, "first_seed": RENDERED_SEED, **rendered},
        "colour": colour,
        "speed_ms_per_frame_median": {"command": "python -m vision bench", "dice": DICE, "threads": 1,
                                      "machine": f"{os.cpu_count()}-core CPU", **speed},
    }  # fmt: skip
    print(json.dumps(metrics["speed_ms_per_frame_median"]), flush=True)
    for name in ("die_detector", "pip_classifier"):
        path = args.out / f"{name}.json"
        card = json.loads(path.read_text(encoding="utf-8"))
        card["metrics"] = metrics
        path.write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"metrics written to the cards in {args.out}")


if __name__ == "__main__":
    main()
