"""Train the top-face locator on rendered dice seen at an angle, and export it.

    python -m lab.train.top_face --out runs/top_face [--dice 40000] [--epochs 14] [--workers 2]

Seen at an angle, a die's box holds its top face and the side faces towards the camera, and the top face lies
off the box's centre, away from the camera: a face square cut around the box's centre then holds side faces'
pips or art. Each sample is one rendered die (pip faces or random art, painted sides, translucent and marbled
bodies; half of them seen from 0.1-0.75 of a side off vertical, further than `random_look` goes, since a
webcam at 45° shows that much), cut as the pip classifier cuts a find (`vision.crops.CROP_MARGIN` times its
box, not turned) with the detector's errors; the target is where the top face's centre lies from the cut's
centre, in cut sides. No real photo is used, so every real set stays unseen. The last `HELD` samples are
never trained on: the card gives the locator's error on them.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import torch
from torch import nn

from lab.train.fit import onnx_export
from lab.train.nets import TopFaceNet
from lab.train.top_face_samples import CHUNK, SIZE, flipped, samples
from vision.crops import CROP_MARGIN

HELD = 2000


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--dice", type=int, default=40_000)
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.dice // CHUNK * CHUNK < HELD + 256:
        # Rendered in chunks, the last HELD kept for checking, the rest in batches of 256: fewer ended in
        # "need at least one array to concatenate".
        ap.error(
            f"--dice {args.dice}: at least {HELD + 256 + CHUNK - 1} (rendered {CHUNK} at a time, {HELD} held)"
        )
    start = time.time()
    first = 1000 + args.seed * 100_000
    with ProcessPoolExecutor(args.workers) as pool:
        parts = list(pool.map(samples, range(first, first + args.dice // CHUNK)))
    x = np.concatenate([c for c, _ in parts]).transpose(0, 3, 1, 2).astype(np.float32)
    y = np.concatenate([t for _, t in parts])
    print(f"{len(x)} dice rendered in {time.time() - start:.0f} s", flush=True)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    net = TopFaceNet()
    train_x, train_y = x[:-HELD], y[:-HELD]
    per_epoch = len(train_x) // 256
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(opt, 4e-3, total_steps=args.epochs * per_epoch)
    for epoch in range(args.epochs):
        net.train()
        order = rng.permutation(len(train_x))
        for i in range(per_epoch):
            batch = order[i * 256 : (i + 1) * 256]
            xb, yb = flipped(train_x[batch], train_y[batch], rng)
            loss = nn.functional.smooth_l1_loss(net(torch.from_numpy(xb)), torch.from_numpy(yb), beta=0.02)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            schedule.step()
        net.eval()
        with torch.no_grad():
            error = (net(torch.from_numpy(x[-HELD:])) - torch.from_numpy(y[-HELD:])).norm(dim=1)
        print(f"epoch {epoch} held-out error {error.mean():.4f} crop sides", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), args.out / "top_face.pt")  # kept should the export fail
    onnx_export(
        net, torch.zeros(1, 3, SIZE, SIZE), args.out / "top_face.onnx", input_names=["crops"],
        output_names=["centre"], dynamic_axes={"crops": {0: "n"}, "centre": {0: "n"}},
    )  # fmt: skip
    box_sides = error * CROP_MARGIN
    card = {
        "task": "a found die's crop -> where its top face's centre lies (the face square is cut there when"
        " the die is seen at an angle, vision.symbols.top_face)",
        "input": f"Nx3x{SIZE}x{SIZE} float BGR 0-255: the pip classifier's crop of the find ({CROP_MARGIN} x"
        " the box's longer side around its centre, not turned), vision.crops.crop_dice",
        "output": "Nx2: the top face's centre from the crop's centre, in crop sides (x right, y down)",
        "input_size": SIZE,
        "version": f"top-face-{time.strftime('%Y%m%d-%H%M%S')}",
        "training": {
            "script": f"python -m lab.train.top_face --out {args.out} --dice {args.dice}"
            f" --epochs {args.epochs} --seed {args.seed}",
            "data": f"{len(train_x)} rendered dice (pip faces or random art; painted sides, translucent and"
            " marbled bodies; half seen 0.1-0.75 of a side off vertical), cut with the detector's errors;"
            " no real photo",
            "seconds": round(time.time() - start),
        },
        "held_out_rendered": {
            "dice": HELD,
            "median_error_box_sides": round(float(box_sides.median()), 4),
            "p90_error_box_sides": round(float(box_sides.quantile(0.9)), 4),
        },
    }
    (args.out / "top_face.json").write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(card["held_out_rendered"]))


if __name__ == "__main__":
    main()
