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
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from lab.train.face_samples import ArtPainter
from lab.train.fit import onnx_export
from lab.train.nets import TopFaceNet
from vision.crops import CROP_MARGIN, crop_squares
from vision.simulated_table.painters import PipPainter
from vision.simulated_table.scene import Placement, draw_scene, random_die, random_look, random_table

SIZE = 32
CHUNK = 500
HELD = 2000
BOX_ERROR = (0.05, 0.1)
"""The detector's errors on a die's box as the samples get them: centre (share of the side, normal) and side
(factor 1 ± this, uniform)."""


def samples(seed: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    """`CHUNK` cuts (N×S×S×3) of rendered dice, and where each one's top face lies from its cut's centre
    (N×2)."""
    rng = np.random.default_rng(seed)
    cuts = np.zeros((CHUNK, SIZE, SIZE, 3), np.uint8)
    targets = np.zeros((CHUNK, 2), np.float32)
    k = 0
    while k < CHUNK:
        side = float(rng.uniform(16, 90))
        n = int(side * 3.5)
        art = ArtPainter(labels=(str(int(rng.integers(1 << 30))),))
        painter = PipPainter() if rng.random() < 0.5 else art
        look = random_look(rng)
        if rng.random() < 0.5:
            lean, towards = rng.uniform(0.1, 0.75), rng.uniform(0, 2 * np.pi)
            look = replace(look, side_dir=(lean * np.cos(towards), lean * np.sin(towards)))
        die = random_die(painter, rng, real_bodies=True)  # type: ignore[arg-type]
        dice = [(die, Placement(n / 2, n / 2, side, float(rng.uniform(0, 90))))]
        if rng.random() < 0.3:  # a neighbour touching it, whose faces the locator must not take
            t = rng.uniform(0, 2 * np.pi)
            x, y = n / 2 + np.cos(t) * side * 1.3, n / 2 + np.sin(t) * side * 1.3
            near = Placement(x, y, side, rng.uniform(0, 360))
            dice.insert(0, (random_die(PipPainter(), rng, real_bodies=True), near))
        scene = draw_scene(random_table(rng, n, n), dice, look, rng)
        mine = [
            d for d in scene.dice
            if d.label == die.label and np.hypot(*(d.corners.mean(0) - n / 2)) < side * 0.9
        ]  # fmt: skip
        if not mine:  # tilted out of the frame
            continue
        box = mine[-1].box
        cx, cy = box.center
        s = max(box.width, box.height)
        cx, cy = cx + rng.normal(0, BOX_ERROR[0]) * s, cy + rng.normal(0, BOX_ERROR[0]) * s
        cut = s * rng.uniform(1 - BOX_ERROR[1], 1 + BOX_ERROR[1]) * CROP_MARGIN
        cuts[k] = crop_squares(scene.image, [(cx, cy, cut, 0.0)], SIZE)[0]
        top = mine[-1].corners.mean(0)
        targets[k] = ((top[0] - cx) / cut, (top[1] - cy) / cut)
        k += 1
    return cuts, targets


def flipped(x: torch.Tensor, y: torch.Tensor, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """The batch mirrored and transposed at random, the targets with it; colours swapped and scaled."""
    y = y.clone()
    if torch.rand(1, generator=gen) < 0.5:
        x, y[:, 0] = x.flip(3), -y[:, 0]
    if torch.rand(1, generator=gen) < 0.5:
        x, y[:, 1] = x.flip(2), -y[:, 1]
    if torch.rand(1, generator=gen) < 0.5:
        x, y = x.transpose(2, 3), y[:, [1, 0]]
    x = x[:, torch.randperm(3, generator=gen)] * (0.7 + 0.6 * torch.rand(len(x), 1, 1, 1, generator=gen))
    return x.clamp(0, 255), y


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--dice", type=int, default=40_000)
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    start = time.time()
    first = 1000 + args.seed * 100_000
    with ProcessPoolExecutor(args.workers) as pool:
        parts = list(pool.map(samples, range(first, first + args.dice // CHUNK)))
    x = torch.tensor(np.concatenate([c for c, _ in parts])).permute(0, 3, 1, 2).float()
    y = torch.tensor(np.concatenate([t for _, t in parts]))
    print(f"{len(x)} dice rendered in {time.time() - start:.0f} s", flush=True)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    net = TopFaceNet()
    train_x, train_y = x[:-HELD], y[:-HELD]
    per_epoch = len(train_x) // 256
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(opt, 4e-3, total_steps=args.epochs * per_epoch)
    for epoch in range(args.epochs):
        net.train()
        order = torch.randperm(len(train_x), generator=gen)
        for i in range(per_epoch):
            batch = order[i * 256 : (i + 1) * 256]
            xb, yb = flipped(train_x[batch], train_y[batch], gen)
            loss = nn.functional.smooth_l1_loss(net(xb), yb, beta=0.02)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            schedule.step()
        net.eval()
        with torch.no_grad():
            error = (net(x[-HELD:]) - y[-HELD:]).norm(dim=1)
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
