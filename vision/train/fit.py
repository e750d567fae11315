"""Train one of the reader's models and export it to ONNX with its card.

    python -m vision.train.fit detector --data ../shared/datasets/d6-tray --out models --steps 3000
    python -m vision.train.fit classifier --data ../shared/datasets/d6-tray --out models --steps 3000

Fixed seed; d6-tray photos picked by `vision.train.split.is_held_out` never reach training. The measured
metrics are added to the card afterwards by `python -m vision.train.measure`.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

from vision.dataset import load_set
from vision.train.nets import DieDetectorNet, PipClassifierNet
from vision.train.samples import Photo, classifier_sample, detector_sample, load_photos
from vision.train.split import HELD_OUT_PERCENT, is_held_out

DETECTOR_SIZE = 384
CROP_SIZE = 32


class Samples(Dataset[tuple[np.ndarray, ...]]):
    """Sample i is a pure function of (seed, i): runs repeat exactly whatever the worker count."""

    def __init__(self, what: str, photos: list[Photo], seed: int, length: int) -> None:
        self.what, self.photos, self.seed, self.length = what, photos, seed, length

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, i: int) -> tuple[np.ndarray, ...]:
        rng = np.random.default_rng([self.seed, i])
        if self.what == "detector":
            return detector_sample(rng, self.photos, DETECTOR_SIZE)
        crop, label = classifier_sample(rng, self.photos, CROP_SIZE)
        return crop, np.int64(label)


def quiet_worker(_: int) -> None:
    import cv2

    cv2.setNumThreads(1)
    torch.set_num_threads(1)


def onnx_export(net: torch.nn.Module, x: torch.Tensor, path: Path, **kwargs: object) -> None:
    try:
        torch.onnx.export(net, (x,), str(path), opset_version=17, dynamo=False, **kwargs)  # type: ignore[arg-type]
    except TypeError:  # torch before 2.5 has no `dynamo` switch and always uses the TorchScript exporter
        torch.onnx.export(net, (x,), str(path), opset_version=17, **kwargs)  # type: ignore[arg-type]


def focal_loss(pred: torch.Tensor, gt: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the centre heatmap."""
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(pred) * (1 - pred) ** 2 * pos
    neg_loss = torch.log(1 - pred) * pred**2 * (1 - gt) ** 4 * neg
    return -(pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def detector_loss(net: torch.nn.Module, batch: list[torch.Tensor]) -> torch.Tensor:
    x, heat, reg, mask = batch
    p_heat, p_reg = net(x)
    box_m, ang_m = mask[:, :1], mask[:, 1:2]
    l_box = (torch.abs(p_reg[:, :4] - reg[:, :4]) * box_m).sum() / box_m.sum().clamp(min=1)
    l_ang = (torch.abs(p_reg[:, 4:] - reg[:, 4:]) * ang_m).sum() / ang_m.sum().clamp(min=1)
    return focal_loss(p_heat.float(), heat) + l_box + 0.5 * l_ang


def train(args: argparse.Namespace) -> None:
    torch.manual_seed(args.seed)
    items = load_set(args.data)
    train_items = [it for it in items if not is_held_out(it.image.name)]
    held = sorted(it.image.name for it in items if is_held_out(it.image.name))
    photos = load_photos(train_items)
    device = torch.device(args.device)
    net: torch.nn.Module = DieDetectorNet() if args.what == "detector" else PipClassifierNet(CROP_SIZE)
    net.to(device)
    data = Samples(args.what, photos, args.seed, args.steps * args.batch)
    loader = DataLoader(data, batch_size=args.batch, num_workers=args.workers, shuffle=False, drop_last=True,
                        persistent_workers=args.workers > 0, prefetch_factor=4 if args.workers else None,
                        worker_init_fn=quiet_worker)  # fmt: skip
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=args.steps, pct_start=0.1)
    start = time.time()
    net.train()
    for step, batch in enumerate(loader):
        batch = [t.to(device, non_blocking=True) for t in batch]
        if args.what == "detector":
            loss = detector_loss(net, batch)
        else:
            assert isinstance(net, PipClassifierNet)
            loss = torch.nn.functional.cross_entropy(net.logits(batch[0]), batch[1], label_smoothing=0.05)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == args.steps - 1:
            print(f"{args.what} step {step} loss {loss.item():.4f} {time.time() - start:.0f}s", flush=True)
        if time.time() - start > args.max_seconds:
            print(f"{args.what}: time limit after {step + 1} steps", flush=True)
            break
    export(net.cpu().eval(), args, held, len(train_items), step + 1)


def export(net: torch.nn.Module, args: argparse.Namespace, held: list[str], n_train: int, steps: int) -> None:
    import onnx

    args.out.mkdir(parents=True, exist_ok=True)
    name = "die_detector" if args.what == "detector" else "pip_classifier"
    path = args.out / f"{name}.onnx"
    if args.what == "detector":
        x = torch.zeros(1, 3, DETECTOR_SIZE, DETECTOR_SIZE)
        axes = {"image": {2: "height", 3: "width"}, "heat": {2: "h", 3: "w"}, "reg": {2: "h", 3: "w"}}
        onnx_export(net, x, path, input_names=["image"], output_names=["heat", "reg"], dynamic_axes=axes)
        card: dict[str, object] = {
            "task": "class-agnostic die detector (pip and symbol dice), CenterNet-style, stride 4",
            "input": "1x3xHxW float BGR 0-255, frame scaled so its long side is input_long_side, H,W multiple of 16",
            "outputs": {"heat": "1x1xH/4xW/4 centre probability",
                        "reg": "1x6xH/4xW/4: dx, dy, log w, log h (input px), cos 4θ, sin 4θ"},
            "input_long_side": DETECTOR_SIZE,
            "threshold": 0.3,
            "labels": ["die"],
        }  # fmt: skip
    else:
        x = torch.zeros(1, 3, CROP_SIZE, CROP_SIZE)
        onnx_export(net, x, path, input_names=["crops"], output_names=["probs"],
                    dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}})  # fmt: skip
        card = {
            "task": "pip value of one die crop, or not a pip die",
            "input": "Nx3xSxS float BGR 0-255: square crop around the die box (side = 1.25 x longer box side)",
            "input_size": CROP_SIZE,
            "labels": ["not a pip die", "1", "2", "3", "4", "5", "6"],
        }
    onnx.checker.check_model(onnx.load(str(path)))
    card["training"] = {
        "script": f"python -m vision.train.fit {args.what} --steps {args.steps} --batch {args.batch} --seed {args.seed}",
        "steps_run": steps,
        "data": f"d6-tray ({n_train} photos, BSD-3) + scenes from vision.render (random tables, light, tilt, "
        "pip and glyph dice), hue/colour/light/blur/noise/JPEG/scale/rotation augmentation",
        "held_out": {"rule": f"sha256(file stem) % 100 < {HELD_OUT_PERCENT}", "photos": held},
    }
    (args.out / f"{name}.json").write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {path}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=["detector", "classifier"])
    parser.add_argument("--data", type=Path, default=Path("../shared/datasets/d6-tray"))
    parser.add_argument("--out", type=Path, default=Path("models"))
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=1e9)
    train(parser.parse_args(argv))


if __name__ == "__main__":
    main()
