"""Train the face embedder (metric learning) on the cuts of `lab.train.face_samples`, and export it.

    python -m lab.train.face_fit --data faces.npz --out runs/faces [--leave-out webcam] [--steps 6000]
    python -m lab.train.face_fit --data faces2.npz --out runs/faces2 --init runs/faces/face_embedder.pt ...

A batch holds arts at two quarter turns each (an art turned is another face: its rotation must be read) with
four views each, every real pip value with views from different dice (a value is one face whatever the die),
and cuts of no die. The vectors learn by supervised contrastive loss, the die-face score by cross-entropy.
The last tenth of the arts is never trained on: on them the reading rule's constants (accept, temperature)
are chosen, by teaching 4 views of 6 arts and reading the others' views and 6 untaught arts'.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from torch import nn

from lab.real_sets import SETS
from lab.train.finetune import frozen_norms, onnx_weights
from lab.train.fit import onnx_export
from lab.train.nets import FaceEmbedderNet
from vision.symbols.embed import FaceRule

HELD_ARTS = 0.1
ART_VIEWS = 4


def supcon(vectors: torch.Tensor, labels: torch.Tensor, temperature: float = 0.1) -> torch.Tensor:
    """Supervised contrastive loss: each vector pulled towards those of its label, pushed from the rest."""
    sim = vectors @ vectors.T / temperature
    eye = torch.eye(len(labels), device=vectors.device, dtype=torch.bool)
    sim = sim.masked_fill(eye, -1e9)
    positive = (labels[:, None] == labels[None]) & ~eye
    log_prob = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    count = positive.sum(1).clamp(min=1)
    return -((log_prob * positive).sum(1) / count).mean()


def augment(x: torch.Tensor, gen: torch.Generator, jitter: float = 0.0, invert: float = 0.0) -> torch.Tensor:
    """Colour (channel order, gains, contrast, gamma), blur and noise, per cut; with `jitter`, the cut also
    shifted, scaled and turned a little (the detector's errors, larger), filling from the cut's own edge; with
    `invert`, that share of the cuts inverted before the colour (a face's light art on a dark die is the same
    face as its dark art on a light one)."""
    n = len(x)
    dev = x.device

    def rand(*shape: int) -> torch.Tensor:
        return torch.rand(*shape, generator=gen, device=dev)

    if jitter > 0:
        x = jittered(x, rand, jitter)
    if invert > 0:
        x = torch.where((rand(n) < invert)[:, None, None, None], 255 - x, x)
    perm = torch.argsort(rand(n, 3), dim=1)
    swap = rand(n) < 0.5
    x = torch.where(swap[:, None, None, None], torch.gather(x, 1, perm[:, :, None, None].expand_as(x)), x)
    gains = 1 + 0.25 * (rand(n, 3, 1, 1) - 0.5)
    contrast = 0.6 + 0.8 * rand(n, 1, 1, 1)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = ((x - mean) * contrast + mean) * gains + 40 * (rand(n, 1, 1, 1) - 0.5)
    x = x.clamp(0, 255)
    gamma = torch.exp(0.5 * (rand(n, 1, 1, 1) - 0.5))
    x = 255 * (x / 255) ** gamma
    blurred = nn.functional.avg_pool2d(nn.functional.pad(x, (1, 1, 1, 1), mode="replicate"), 3, 1)
    soft = rand(n) < 0.3
    x = torch.where(soft[:, None, None, None], blurred, x)
    noise = torch.randn(x.shape, generator=gen, device=dev) * 8 * rand(n, 1, 1, 1)
    return (x + noise).clamp(0, 255)


def jittered(x: torch.Tensor, rand: Callable[..., torch.Tensor], strength: float) -> torch.Tensor:
    """Each cut (N×3×S×S) moved by up to 6%, scaled by up to 8% and turned by up to 6°, times `strength`."""
    n = len(x)
    angle = torch.deg2rad(6 * strength * (2 * rand(n) - 1))
    scale = 1 + 0.08 * strength * (2 * rand(n) - 1)
    shift = 0.12 * strength * (2 * rand(n, 2) - 1)  # of the half-side that affine_grid's -1..1 spans
    cos, sin = torch.cos(angle) * scale, torch.sin(angle) * scale
    theta = torch.stack(
        [torch.stack([cos, -sin, shift[:, 0]], 1), torch.stack([sin, cos, shift[:, 1]], 1)], 1
    )
    grid = nn.functional.affine_grid(theta, list(x.shape), align_corners=False)
    return nn.functional.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)


class Batches:
    """Random batches of cuts (N×3×S×S float, 0-255) and their labels (-1: no die), drawn on `device` by its
    own generator so that a batch costs the GPU no wait for the CPU."""

    def __init__(
        self,
        data: dict[str, np.ndarray],
        leave_out: str | None,
        device: str,
        seed: int,
        jitter: float = 0.0,
        invert: float = 0.0,
    ) -> None:
        arts = data["arts"]
        self.train_arts = len(arts) - int(len(arts) * HELD_ARTS)
        self.device = device
        self.jitter = jitter
        self.invert = invert
        self.arts = torch.from_numpy(arts[: self.train_arts]).to(device)
        sets = [s for s in SETS if s != leave_out and f"{s}_dice" in data and len(data[f"{s}_dice"])]
        self.dice = (
            torch.from_numpy(np.concatenate([data[f"{s}_dice"] for s in sets])).to(device) if sets else None
        )
        values = np.concatenate([data[f"{s}_values"] for s in sets]) if sets else np.zeros(0, np.int64)
        self.by_value = [torch.from_numpy(np.flatnonzero(values == v)).to(device) for v in range(1, 7)]
        others = [data["tables"]] + [data[f"{s}_others"] for s in sets]
        self.others = torch.from_numpy(np.concatenate(others)).to(device)
        self.sets = sets
        self.gen = torch.Generator(device=device).manual_seed(seed)

    def pick(self, n: int, high: int) -> torch.Tensor:
        return torch.randint(0, high, (n,), generator=self.gen, device=self.device)

    def __call__(
        self, arts: int = 96, real_views: int = 24, none: int = 64
    ) -> tuple[torch.Tensor, torch.Tensor]:
        a = self.pick(arts, len(self.arts))
        order = torch.rand(arts, 4, generator=self.gen, device=self.device)
        turns = torch.argsort(order, dim=1)[:, :2]  # two per art
        order = torch.rand(arts, self.arts.shape[1], generator=self.gen, device=self.device)
        views = torch.argsort(order, dim=1)[:, :ART_VIEWS]
        cuts, labels = [], []
        for j in range(2):
            for v in range(ART_VIEWS):
                cuts.append(turned(self.arts[a, views[:, v]], turns[:, j]))
                labels.append(a * 4 + turns[:, j])
        if self.dice is not None:
            for value, rows in enumerate(self.by_value, 1):
                if len(rows):
                    i = rows[self.pick(real_views, len(rows))]
                    e = self.pick(real_views, self.dice.shape[1])
                    cuts.append(turned(self.dice[i, e], self.pick(real_views, 4)))
                    labels.append(torch.full((real_views,), -10 - value, device=self.device))
        o = self.pick(none, len(self.others))
        cuts.append(turned(self.others[o], self.pick(none, 4)))
        labels.append(torch.full((none,), -1, device=self.device))
        x = torch.cat(cuts).permute(0, 3, 1, 2).float()
        return augment(x, self.gen, self.jitter, self.invert), torch.cat(labels)


def turned(cuts: torch.Tensor, turns: torch.Tensor) -> torch.Tensor:
    """Each cut (N×S×S×3) turned its number of quarter turns counter-clockwise, as `np.rot90` turns."""
    every = torch.stack([torch.rot90(cuts, k, dims=(1, 2)) for k in range(4)])
    return every[turns, torch.arange(len(cuts), device=cuts.device)]


def train(args: argparse.Namespace) -> None:
    torch.manual_seed(args.seed)
    data = dict(np.load(args.data))
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    batches = Batches(data, args.leave_out, args.device, args.seed, args.jitter, args.invert)
    net = FaceEmbedderNet(args.dims).to(args.device)
    went_on_from = None
    if args.init:
        # A device lends minutes at a time: a net grows over several lends, each on freshly drawn arts.
        if args.init.suffix == ".onnx":
            # A shipped net whose .pt is gone: its norms come folded, and stay frozen from here on.
            onnx_weights(net, args.init)
            net.to(args.device)
            frozen_norms(net)
        else:
            net.load_state_dict(torch.load(args.init, map_location=args.device))
        went_on_from = json.loads(args.init.with_suffix(".json").read_text(encoding="utf-8"))["version"]
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    start = time.time()
    step = 0
    while (progress := max(step / args.steps, (time.time() - start) / args.max_seconds)) < 1:
        lr = args.lr * 0.5 * (1 + np.cos(np.pi * progress))
        for group in opt.param_groups:
            group["lr"] = lr
        x, labels = batches(args.batch_arts, args.batch_arts // 4, args.batch_arts * 2 // 3)
        vectors, logits = net.parts(x)
        is_face = labels != -1
        loss = supcon(vectors[is_face], labels[is_face]) + nn.functional.binary_cross_entropy_with_logits(
            logits.reshape(-1), is_face.float()
        )
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        opt.step()
        if step % args.report == 0:
            took = time.time() - start
            rate = step / max(took, 1e-9)
            print(f"step {step} loss {loss.item():.3f} lr {lr:.5f} {took:.0f}s {rate:.1f}/s", flush=True)
        step += 1
    net.eval()
    held = data["arts"][batches.train_arts :]
    rule, figures = choose_rule(net, held)
    net.cpu()
    args.out.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), args.out / "face_embedder.pt")  # kept should the export fail
    onnx_export(
        net, torch.zeros(1, 3, 48, 48), args.out / "face_embedder.onnx", input_names=["cuts"],
        output_names=["vectors", "face"],
        dynamic_axes={"cuts": {0: "n"}, "vectors": {0: "n"}, "face": {0: "n"}},
    )  # fmt: skip
    card = {
        "task": "a die's top face cut square from the detector's find -> a unit vector (read as the nearest"
        " taught face) and a die-face score",
        "input": "Nx3x48x48 float BGR 0-255: the face square of the find (side 1.1 x the face side, turned by"
        " the detector's angle), vision.symbols.top_face.face_square",
        "input_size": 48,
        "dims": args.dims,
        "version": f"face-embedder-{time.strftime('%Y%m%d-%H%M%S')}",
        "rule": rule.to_json(),
        "training": {
            "script": f"python -m lab.train.face_fit --data {args.data.name} --steps {args.steps}"
            f" --max-seconds {args.max_seconds:g} --lr {args.lr} --seed {args.seed}"
            + f" --batch-arts {args.batch_arts} --jitter {args.jitter:g} --invert {args.invert:g}"
            + (f" --leave-out {args.leave_out}" if args.leave_out else "")
            + (f" --init {args.init}" if args.init else ""),
            "went_on_from": went_on_from,
            "data": f"{batches.train_arts} rendered arts (random strokes, shapes, dots, edge areas, letters;"
            " none of the games' icons) x views on random dice and tables (lab.train.face_samples); real pip"
            f" faces of the training parts of {', '.join(batches.sets) or 'no set'} (lab.real_sets); cuts of"
            " no die (rendered tables, real photos away from the dice, the detector's stray finds)",
            "left_out": args.leave_out,
            "steps": step,
            "seconds": round(time.time() - start),
            "device": args.device,
        },
        "held_out_arts": figures,
    }
    (args.out / "face_embedder.json").write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(card["held_out_arts"]), json.dumps(rule.to_json()))


def choose_rule(
    net: FaceEmbedderNet, held: np.ndarray, rounds: int = 200
) -> tuple[FaceRule, dict[str, float]]:
    """The rule's constants from arts never trained on: 6 taught (4 views each, every quarter turn), their
    other views read, and the views of 6 untaught arts read; the accept level is the lowest at which at most
    0.5% of the untaught views pass, the temperature the one whose confidences best match being right."""
    device = next(net.parameters()).device
    flat = torch.from_numpy(held.reshape(-1, *held.shape[2:])).permute(0, 3, 1, 2)
    with torch.no_grad():
        vec = torch.cat(
            [
                net.parts(turned_np(flat[i : i + 4096].to(device).float(), k))[0].cpu()
                for k in range(4)
                for i in range(0, len(flat), 4096)
            ]
        ).numpy()
    n_arts, views = held.shape[:2]
    vec = vec.reshape(4, n_arts, views, -1)
    rng = np.random.default_rng(0)
    own, alien = [], []
    for _ in range(rounds):
        pick = rng.choice(n_arts, 12, replace=False)
        taught, untaught = pick[:6], pick[6:]
        bank = vec[:, taught, :4].transpose(1, 0, 2, 3).reshape(6 * 4 * 4, -1)  # face, turn, view
        faces = np.repeat(np.arange(6), 16)
        read = vec[0, taught, 4:].reshape(-1, vec.shape[-1])
        truth = np.repeat(np.arange(6), views - 4)
        own.append((read @ bank.T, faces, truth))
        alien.append((vec[0, untaught, 4:].reshape(-1, vec.shape[-1]) @ bank.T, faces))
    best_alien = np.concatenate([s.max(1) for s, _ in alien])
    accept = float(np.quantile(best_alien, 0.995))
    temps = [0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.18, 0.25]
    errors = []
    for t in temps:
        rule = FaceRule(accept, t)
        conf: list[np.ndarray] = []
        hits: list[np.ndarray] = []
        for s, faces, truth in own:
            f, _, c = rule.decide_scores(s, faces, 6)
            conf.append(c)
            hits.append(f == truth)
        c, r = np.concatenate(conf), np.concatenate(hits)
        errors.append(float(np.mean((c - r) ** 2)))
    rule = FaceRule(accept, temps[int(np.argmin(errors))])
    named, right, sure_wrong, total = 0, 0, 0, 0
    for s, faces, truth in own:
        f, _, c = rule.decide_scores(s, faces, 6)
        total += len(f)
        named += int((f >= 0).sum())
        right += int((f == truth).sum())
        sure_wrong += int(((f >= 0) & (f != truth) & (c >= 0.8)).sum())
    passed = sum(int((rule.decide_scores(s, faces, 6)[0] >= 0).sum()) for s, faces in alien)
    return rule, {
        "arts": int(n_arts),
        "right": round(right / total, 4),
        "named": round(named / total, 4),
        "sure_wrong": round(sure_wrong / total, 4),
        "untaught_named": round(passed / max(1, len(best_alien)), 4),
    }


def turned_np(x: torch.Tensor, k: int) -> torch.Tensor:
    """N×3×S×S cuts turned k quarter turns counter-clockwise (as np.rot90 on N×S×S×3)."""
    return torch.rot90(x, k, dims=(2, 3))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--leave-out", choices=SETS)
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--max-seconds", type=float, default=3600.0)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--dims", type=int, default=128)
    ap.add_argument(
        "--init", type=Path,
        help="go on from these weights (face_embedder.pt of an earlier run, or a shipped .onnx; its .json"
        " beside it)",
    )  # fmt: skip
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch-arts", type=int, default=96, help="arts a batch (x2 turns x4 views)")
    ap.add_argument("--jitter", type=float, default=0.0, help="shift, scale and turn the cuts (0: not)")
    ap.add_argument("--invert", type=float, default=0.0, help="the share of cuts inverted (0: none)")
    ap.add_argument("--report", type=int, default=200, help="print the loss every this many steps")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    train(ap.parse_args(argv))


if __name__ == "__main__":
    main()
