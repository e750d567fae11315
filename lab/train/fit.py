"""Train one of the reader's models and export it to ONNX with its card.

    python -m lab.train.fit detector --data ../shared/datasets/d6-tray --out models --steps 3000
    python -m lab.train.fit classifier --data ../shared/datasets/d6-tray --out models --steps 3000 \
        --bank 240000

Fixed seed; d6-tray photos picked by `lab.train.split.is_held_out` never reach training. The measured
metrics are added to the card afterwards by `python -m lab.train.measure`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import torch
from torch.utils.data import DataLoader, Dataset

from lab.train.bank import cached_bank, rendered_tables
from lab.train.nets import DieDetectorNet, PipClassifierNet
from lab.train.samples import Photo, detector_sample, load_photos
from lab.train.split import training_part
from vision.dataset import HELD_OUT_PERCENT, load_set

DETECTOR_LONG_SIDE = 384
"""The runtime scales a frame so its long side is this many pixels before detection."""
DETECTOR_WINDOW = 256
"""Training windows are cut from frames scaled that way (the net is fully convolutional)."""


class DetectorSamples(Dataset[tuple[np.ndarray, ...]]):
    """Sample i is a pure function of (seed, i): runs repeat exactly whatever the worker count."""

    def __init__(self, photos: list[Photo], rendered: list[Photo], seed: int, length: int) -> None:
        self.photos, self.rendered, self.seed, self.length = photos, rendered, seed, length

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, i: int) -> tuple[npt.NDArray[Any], ...]:
        rng = np.random.default_rng([self.seed, i])
        return detector_sample(rng, self.photos, self.rendered, DETECTOR_LONG_SIDE, DETECTOR_WINDOW)


RANDOM_KERNELS = (1, 3, 5)
"""Sizes of the random convolutions (`random_convolution`): at 32 px a pip is 3-5 px across, and a larger
kernel would blur it away."""


def random_convolution(x: torch.Tensor, share: float, g: torch.Generator) -> torch.Tensor:
    """Crops (N×3×S×S, 0-255) of which `share` are passed through a random convolution of their own and
    blended with themselves (RandConv, Xu et al. 2021): body, ink and texture take colours and contrasts no
    renderer drew (a 1×1 kernel mixes the channels, a larger one the neighbours too), while the pips keep
    their places. Each changed crop keeps its own mean and spread, so light and contrast stay plausible."""
    n = x.shape[0]
    picked = torch.rand(n, generator=g) < share
    if not bool(picked.any()):
        return x
    k = RANDOM_KERNELS[int(torch.randint(len(RANDOM_KERNELS), (1,), generator=g))]
    m = int(picked.sum())
    src = x[picked] / 255.0 - 0.5
    weights = torch.randn(m * 3, 3, k, k, generator=g) / float(np.sqrt(3 * k * k))
    out = torch.nn.functional.conv2d(src.reshape(1, m * 3, *src.shape[2:]), weights, padding=k // 2, groups=m)
    out = out.reshape(src.shape)
    dims = (1, 2, 3)
    out = (out - out.mean(dims, keepdim=True)) / (out.std(dims, keepdim=True) + 1e-6)
    out = out * src.std(dims, keepdim=True) + src.mean(dims, keepdim=True)
    alpha = torch.rand(m, 1, 1, 1, generator=g)
    x = x.clone()
    x[picked] = ((alpha * src + (1 - alpha) * out + 0.5) * 255.0).clamp(0, 255)
    return x


MIXUP_BETA = 0.4
"""Mixup's Beta(a, a): most mixed crops lean well towards one of their two, a few are near halves."""


def mixup(
    x: torch.Tensor, y: torch.Tensor, share: float, g: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """`share` of the crops (N×3×S×S) each laid over another of the batch (mixup, Zhang et al. 2018), and per
    crop its partner's label and the weight of its own: pips of two faces seen at once, as through a
    translucent body or beside a side face, should be read unsurely, not surely as either."""
    n = x.shape[0]
    partner = torch.randperm(n, generator=g).to(x.device)
    weight = torch.distributions.Beta(MIXUP_BETA, MIXUP_BETA).sample(torch.Size((n,)))
    weight = torch.where(torch.rand(n, generator=g) < share, torch.maximum(weight, 1 - weight), torch.ones(n))
    weight = weight.to(x.device)
    w = weight.view(n, 1, 1, 1)
    return w * x + (1 - w) * x[partner], y[partner], weight


def mix_style(net: PipClassifierNet, share: float, g: torch.Generator) -> None:
    """While `net` trains, `share` of each batch's crops take feature statistics blended with another
    crop's after its first two pooling stages (MixStyle, Zhou et al. 2021): a die's light, body and ink are
    what those statistics hold, its pips' places are not. A hook, so the net and its export stay as they
    are."""
    beta = torch.distributions.Beta(0.1, 0.1)

    def hook(module: torch.nn.Module, _: object, out: torch.Tensor) -> torch.Tensor:
        n = out.shape[0]
        if not module.training or n < 2:
            return out
        picked = (torch.rand(n, generator=g) < share).to(out.device).view(n, 1, 1, 1)
        mean = out.mean((2, 3), keepdim=True).detach()
        spread = (out.var((2, 3), keepdim=True) + 1e-6).sqrt().detach()
        other = torch.randperm(n, generator=g).to(out.device)
        lam = beta.sample((n, 1, 1, 1)).to(out.device)
        mixed_mean = lam * mean + (1 - lam) * mean[other]
        mixed_spread = lam * spread + (1 - lam) * spread[other]
        mixed = (out - mean) / spread * mixed_spread + mixed_mean
        return torch.where(picked, mixed, out)

    pools = [m for m in net.features if isinstance(m, torch.nn.MaxPool2d)]
    for pool in pools[:2]:
        pool.register_forward_hook(hook)


def bank_batches(
    crops: npt.NDArray[np.uint8],
    labels: npt.NDArray[np.int64],
    batch: int,
    seed: int,
    random_conv: float = 0.0,
) -> Iterator[list[torch.Tensor]]:
    """Endless batches drawn from the crop bank, each turned a random quarter, half of them mirrored, and
    lit a little differently: a pip face keeps its value under all of that. `random_conv` of them go through
    `random_convolution` too."""
    g = torch.Generator().manual_seed(seed)
    x_all, y_all = torch.from_numpy(crops), torch.from_numpy(labels)
    while True:
        idx = torch.randint(len(x_all), (batch,), generator=g)
        x = torch.rot90(x_all[idx].float(), int(torch.randint(4, (1,), generator=g)), (2, 3))
        flip = torch.rand(batch, generator=g) < 0.5
        x[flip] = x[flip].flip(3)
        gain = torch.empty(batch, 1, 1, 1).uniform_(0.85, 1.15, generator=g)
        shift = torch.empty(batch, 1, 1, 1).uniform_(-15, 15, generator=g)
        x = (x * gain + shift).clamp(0, 255)
        yield [random_convolution(x, random_conv, g) if random_conv else x, y_all[idx]]


def quiet_worker(_: int) -> None:
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


def learning_rate(args: argparse.Namespace, step: int, elapsed: float) -> float:
    """Warm-up, then a cosine down to zero over the steps or the time budget, whichever runs out first,
    so a run cut short by its time limit still ends annealed."""
    done = max(step / args.steps, elapsed / args.max_seconds)
    warm = min(1.0, step / 100)
    return float(args.lr * warm * 0.5 * (1 + np.cos(np.pi * min(done, 1.0))))


def train(args: argparse.Namespace) -> None:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    # OpenCV's thread pool does not survive the fork into sample workers (they hang): one thread here too.
    cv2.setNumThreads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    held = sorted(it.image.name for it in load_set(args.data, "held-out"))
    train_items = training_part(args.data)
    photos = load_photos(train_items)
    device = torch.device(args.device)
    batches: Iterable[list[torch.Tensor]]
    if args.what == "detector":
        net: torch.nn.Module = DieDetectorNet()
        rendered = rendered_tables(args.tables, args.seed, max(1, args.workers))
        print(f"detector: {len(photos)} photos, {len(rendered)} rendered tables", flush=True)
        data = DetectorSamples(photos, rendered, args.seed, args.steps * args.batch)
        prefetch = 4 if args.workers else None
        batches = DataLoader(data, batch_size=args.batch, num_workers=args.workers, shuffle=False,
                             drop_last=True, persistent_workers=args.workers > 0, prefetch_factor=prefetch,
                             worker_init_fn=quiet_worker)  # fmt: skip
    else:
        net = PipClassifierNet(args.size)
        crops, labels = cached_bank(args.cache, photos, args.bank, args.size, args.seed, max(1, args.workers))
        print(f"classifier bank: {len(labels)} crops, classes {np.bincount(labels).tolist()}", flush=True)
        batches = bank_batches(crops, labels, args.batch, args.seed)
    if args.init:
        net.load_state_dict(torch.load(args.init, map_location="cpu"))
    # Channels-last convolutions run about a third faster on CPU (oneDNN) and no slower on a GPU.
    net.to(device, memory_format=torch.channels_last)  # type: ignore[call-overload]
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    start = time.time()
    net.train()
    for step, batch in enumerate(itertools.islice(batches, args.steps)):
        for group in opt.param_groups:
            group["lr"] = learning_rate(args, step, time.time() - start)
        batch = [t.to(device, non_blocking=True) for t in batch]
        batch[0] = batch[0].contiguous(memory_format=torch.channels_last)
        if args.what == "detector":
            loss = detector_loss(net, batch)
        else:
            assert isinstance(net, PipClassifierNet)
            loss = torch.nn.functional.cross_entropy(net.logits(batch[0]), batch[1], label_smoothing=0.05)
        opt.zero_grad(set_to_none=True)
        loss.backward()  # type: ignore[no-untyped-call]
        opt.step()
        if step % 100 == 0 or step == args.steps - 1:
            print(f"{args.what} step {step} loss {loss.item():.4f} {time.time() - start:.0f}s", flush=True)
        if time.time() - start > args.max_seconds:
            print(f"{args.what}: time limit after {step + 1} steps", flush=True)
            break
    net = net.cpu().to(memory_format=torch.contiguous_format)  # type: ignore[call-overload]
    export(net.eval(), args, held, len(train_items), step + 1, time.time() - start)


def export(
    net: torch.nn.Module, args: argparse.Namespace, held: list[str], n_train: int, steps: int, seconds: float
) -> None:
    import onnx

    args.out.mkdir(parents=True, exist_ok=True)
    name = "die_detector" if args.what == "detector" else "pip_classifier"
    path = args.out / f"{name}.onnx"
    if args.what == "detector":
        x = torch.zeros(1, 3, DETECTOR_LONG_SIDE, DETECTOR_LONG_SIDE)
        axes = {"image": {2: "height", 3: "width"}, "heat": {2: "h", 3: "w"}, "reg": {2: "h", 3: "w"}}
        onnx_export(net, x, path, input_names=["image"], output_names=["heat", "reg"], dynamic_axes=axes)
        card: dict[str, object] = {
            "task": "class-agnostic die detector (pip and symbol dice), CenterNet-style, stride 4",
            "input": "1x3xHxW float BGR 0-255: frame scaled to long side input_long_side, HxW multiple of 16",
            "outputs": {"heat": "1x1xH/4xW/4 centre probability",
                        "reg": "1x6xH/4xW/4: dx, dy, log w, log h (input px), cos 4θ, sin 4θ"},
            "input_long_side": DETECTOR_LONG_SIDE,
            "threshold": 0.3,
            "labels": ["die"],
        }  # fmt: skip
    else:
        x = torch.zeros(1, 3, args.size, args.size)
        onnx_export(net, x, path, input_names=["crops"], output_names=["probs"],
                    dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}})  # fmt: skip
        card = {
            "task": "pip value of one die crop, or not a pip die",
            "input": "Nx3xSxS float BGR 0-255: square crop around the die box (side 1.25 x longer box side)",
            "input_size": args.size,
            "labels": ["not a pip die", "1", "2", "3", "4", "5", "6"],
        }
    onnx.checker.check_model(onnx.load(str(path)))
    torch.save(net.state_dict(), args.out / f"{name}.pt")  # to go on training with --init
    card["training"] = {
        "script": f"python -m lab.train.fit {args.what} --steps {args.steps} --batch {args.batch} "
        f"--lr {args.lr} --seed {args.seed} --max-seconds {args.max_seconds:.0f}"
        + (
            f" --bank {args.bank} --size {args.size}"
            if args.what == "classifier"
            else f" --tables {args.tables}"
        ),
        "steps_run": steps,
        "batch": args.batch,
        "wall_seconds": round(seconds),
        "machine": f"{os.cpu_count()}-core CPU, torch {args.threads} thread(s), "
        f"{args.workers} sample worker(s)",
        "data": f"d6-tray ({n_train} photos, BSD-3) + scenes from vision.simulated_table (random tables, "
        "light, tilt, pip and glyph dice), hue/colour/light/blur/noise/JPEG/scale/rotation augmentation",
        "held_out": {
            "rule": f"first 4 bytes of sha256(file stem), big-endian, % 100 < {HELD_OUT_PERCENT} "
            "(vision.dataset.is_held_out); never used for training or thresholds",
            "photos": held,
        },
    }
    (args.out / f"{name}.json").write_text(
        json.dumps(card, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"wrote {path}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=["detector", "classifier"])
    parser.add_argument("--data", type=Path, default=Path("../shared/datasets/d6-tray"))
    parser.add_argument("--out", type=Path, default=Path("models"))
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--workers", type=int, default=1, help="processes making samples")
    parser.add_argument("--threads", type=int, default=1, help="torch threads of the training process")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=32, help="classifier crop side in pixels")
    parser.add_argument("--bank", type=int, default=240_000, help="classifier crops made before training")
    parser.add_argument("--init", type=Path, help="weights (.pt) of an earlier run to go on from")
    parser.add_argument("--tables", type=int, default=1500, help="rendered tables made for the detector")
    parser.add_argument("--cache", type=Path, default=Path("runs/cache"), help="where crop banks are kept")
    parser.add_argument(
        "--max-seconds", type=float, default=1e9, help="wall-time budget; the schedule fits it"
    )
    train(parser.parse_args(argv))


if __name__ == "__main__":
    main()
