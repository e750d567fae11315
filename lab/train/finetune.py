"""Go on training the pip classifier (or the die detector) from the shipped model, with real photos and crops
of other tables, in chunks that resume: the run's state is saved every few hundred steps and at its time
limit, and the weights that do best on a validation set are kept apart from the last ones.

    python -m lab.train.finetune classifier --run runs/ft --minutes 20     # again to go on where it stopped
    python -m lab.train.finetune classifier --run runs/ft --export models  # the best, temperature fitted
    python -m lab.train.finetune detector --run runs/ft-detector --batch 16 --steps 1500 --lr 5e-4 ...

Training crops: d6-tray's training photos and webcam-red-yellow's training scenes (crops cut as loosely as
the detector's boxes fall, plus table and clutter around them as "not a pip die"), the value crops of
casino-crops' train split and of webcam-red-yellow's training scenes, and rendered dice (tilted, sides
showing, translucent and marbled among them); the detector's windows of the same photos and of rendered
tables. Validation (keeping the best, fitting the temperature):
casino-crops' val split and samples of seeds no training sample uses. The measuring sets (d6-tray's and
webcam-red-yellow's held-out scenes, casino-crops' test split) are never read here.
"""

from __future__ import annotations

import argparse
import itertools
import json
import pickle
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.utils.data import DataLoader

from lab.real_sets import SETS
from lab.train.bank import make_bank, rendered_tables
from lab.train.fit import (
    DetectorSamples,
    bank_batches,
    detector_loss,
    mix_style,
    mixup,
    onnx_export,
    quiet_worker,
)
from lab.train.nets import DieDetectorNet, PipClassifierNet
from lab.train.samples import Photo, RealCrop, classifier_sample, load_photos
from lab.train.split import CASINO_LABEL_FAULTS, load_fixes, mended, training_part
from lab.train.webcam import HELD_OUT_PERCENT, labelled_scenes, value_crops
from vision.dataset import is_held_out, load_crop_set
from vision.images import load_image
from vision.reading import SURE_READ

NAMES = {"classifier": "pip_classifier", "detector": "die_detector"}
REAL_CROP_SHARE = 0.3
"""Share of the bank cut from the real single-die crops (casino-crops, webcam-red-yellow): few, but the
tables, dice and angles the renderer and d6-tray lack."""
WEBCAM_WEIGHT = 4
"""The detector sees each webcam-red-yellow scene this many times as often as a d6-tray photo: 24 scenes
beside 162 photos would hardly count."""
SURE_WRONG_COST = 30
"""A die put on the sheet unasked and wrong costs the table a dispute: about as much as 30 questions."""
RATE_PROBE_STEPS = 300
"""With --fit-to-minutes, the steps a second are measured over this many steps before the schedule's end is
set."""
AUGMENTATIONS = ("random_conv", "mix_style", "mixup")
"""The classifier's optional augmentations, each a share of the batch (0: not used)."""
RUN_SETTINGS = ("steps", "batch", "lr", "bank", "seed", "from_scratch", "init", *AUGMENTATIONS)
"""What a run's state keeps of its command line: a resumed chunk goes on as the run began (a schedule fitted
to its minutes keeps its end), and the export's card names what the run trained with (an export given only
the run named the export command's defaults: batch 128, lr 0.001, a net from the shipped weights)."""
VALIDATION_SEED = 777_000
"""Rendered validation dice come from generators seeded (VALIDATION_SEED, i); the bank uses (run seed, i)."""


Stream = Iterator[list[torch.Tensor]]
Batches = Callable[[int], Stream]
"""The training batches from a step on: a run that resumes at step n goes on with the batches of step n."""
Validation = Callable[[torch.nn.Module], float]
"""A score of the net on the validation samples: higher is better."""


def casino_crops(root: Path) -> list[RealCrop]:
    """A casino-crops split: each crop is the die's box (labels its crop contradicts mended)."""
    out = []
    for item in mended(load_crop_set(root), load_fixes(CASINO_LABEL_FAULTS)):
        img = load_image(item.image)
        box = np.array([0, 0, img.shape[1], img.shape[0]], np.float64)
        out.append(RealCrop(img, box, item.dice[0].value))
    return out


def webcam_crops(root: Path) -> list[RealCrop]:
    """webcam-red-yellow's value crops of scenes that are not held out: a die with a margin each side, the
    die about as tall as the crop."""
    out = []
    for crop in value_crops(root):
        if crop.held_out:
            continue
        img = load_image(crop.path)
        h, w = img.shape[:2]
        side = 0.92 * min(h, w)
        box = np.array([(w - side) / 2, (h - side) / 2, (w + side) / 2, (h + side) / 2], np.float64)
        out.append(RealCrop(img, box, crop.value))
    return out


def validation_set(
    casino_val: Path | None, photos: list[Photo], size: int
) -> tuple[torch.Tensor, torch.Tensor]:
    """casino-crops' val split as the runtime crops it (none when the set is left out), and 600 samples made
    as the bank's (other seeds)."""
    from vision.crops import crop_dice
    from vision.reading import Box

    xs, ys = [], []
    for c in casino_crops(casino_val) if casino_val else []:
        h, w = c.image.shape[:2]
        xs.append(crop_dice(c.image, [Box(0.0, 0.0, w, h)], size)[0].transpose(2, 0, 1))
        ys.append(c.value)
    for i in range(600):
        crop, label = classifier_sample(np.random.default_rng([VALIDATION_SEED, i]), photos, size)
        xs.append(crop.astype(np.uint8))
        ys.append(label)
    return torch.from_numpy(np.stack(xs)).float(), torch.tensor(ys)


def onnx_weights(net: torch.nn.Module, path: Path) -> None:
    """A shipped model's weights into its net. The export folded each batch norm into the convolution before
    it (those weights are unnamed, in the net's order), so the norms become plain per-channel biases:
    statistics 0 and 1, kept frozen while training goes on (`frozen_norms`). Of a pair of nets
    (`lab.train.pair`, as the shipped classifier is), the first net's."""
    import onnx
    from onnx import numpy_helper

    from lab.train.pair import FIRST

    graph = onnx.load(str(path)).graph
    init = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in graph.initializer}
    if any(k.startswith(FIRST) for k in init):
        print(f"{path} is a pair of nets: going on from its first", flush=True)
        init = {k.removeprefix(FIRST): v for k, v in init.items() if k.startswith(FIRST)}
    folded = [v for k, v in init.items() if k.startswith("onnx::Conv")]
    modules = list(net.modules())
    pairs = [(m, n) for m, n in itertools.pairwise(modules)
             if isinstance(m, torch.nn.Conv2d) and isinstance(n, torch.nn.BatchNorm2d)]  # fmt: skip
    with torch.no_grad():
        for (conv, norm), weight, bias in zip(pairs, folded[0::2], folded[1::2], strict=True):
            conv.weight.copy_(weight)
            assert norm.running_mean is not None and norm.running_var is not None
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0)
            norm.weight.fill_(float(np.sqrt(1 + norm.eps)))
            norm.bias.copy_(bias)
        for key, value in init.items():
            # A net of another input size (--size) keeps the convolutions, learns its first dense layer anew.
            if not key.startswith("onnx::") and net.get_parameter(key).shape == value.shape:
                net.get_parameter(key).copy_(value)


def frozen_norms(net: torch.nn.Module) -> None:
    """Train mode, but the batch norms keep their statistics (they hold the shipped model's folded ones)."""
    net.train()
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()


@contextmanager
def evaluating(net: torch.nn.Module) -> Iterator[None]:
    """The net in eval mode for the block, and each of its modules back in its own mode after (batch norms
    frozen or learning, as the run trains them)."""
    modes = [(m, m.training) for m in net.modules()]
    net.eval()
    try:
        with torch.no_grad():
            yield
    finally:
        for m, training in modes:
            m.training = training


def validate(net: PipClassifierNet, x: torch.Tensor, y: torch.Tensor) -> tuple[float, torch.Tensor]:
    with evaluating(net):
        logits = net.logits(x)
    return float((logits.argmax(1) == y).float().mean()), logits


def fit_temperature(logits: torch.Tensor, y: torch.Tensor) -> float:
    """The softmax temperature that serves the live table's rule best on the validation crops: a die read at
    `SURE_READ` or more goes on the sheet unasked, so each such die read wrong costs `SURE_WRONG_COST`
    questions, and each die read less surely one question. (The temperature of least log loss made the net
    surer than that rule can bear: 0.66, with twice the sure-but-wrong reads of 1.0.)"""
    temps = np.exp(np.linspace(np.log(0.5), np.log(4.0), 61))
    costs = []
    for t in temps:
        probs = torch.softmax(logits / t, dim=1)
        sure = probs.max(dim=1).values >= SURE_READ
        wrong = sure & (probs.argmax(dim=1) != y)
        costs.append(SURE_WRONG_COST * int(wrong.sum()) + int((~sure).sum()))
    return float(temps[int(np.argmin(costs))])


def training_photos(args: argparse.Namespace) -> list[Photo]:
    """d6-tray's training photos (their contradicted labels mended) and webcam-red-yellow's training scenes
    (unless left out), their dice."""
    d6 = training_part(args.d6_tray)
    webcam = [s for s in labelled_scenes(args.webcam) if not is_held_out(s.image.name, HELD_OUT_PERCENT)]
    return load_photos(
        (d6 if args.leave_out != "tray" else []) + (webcam if args.leave_out != "webcam" else [])
    )


def real_crops(args: argparse.Namespace) -> list[RealCrop]:
    """The real single-die crops of the sets not left out."""
    casino = casino_crops(args.casino / "train") if args.leave_out != "casino" else []
    return casino + (webcam_crops(args.webcam) if args.leave_out != "webcam" else [])


def casino_val(args: argparse.Namespace) -> Path | None:
    """casino-crops' val split, unless the set is left out: then nothing of it chooses either."""
    return args.casino / "val" if args.leave_out != "casino" else None


def classifier_data(args: argparse.Namespace, photos: list[Photo]) -> tuple[Batches, Validation]:
    """Batches from a bank of crops (made once per run and kept in its folder), and validation accuracy."""
    crops = real_crops(args)
    cache = args.run / f"bank-{args.bank}-{args.size}-{args.seed}.npz"
    if cache.exists():
        with np.load(cache) as saved:
            x_bank, y_bank = saved["x"], saved["y"]
    else:
        start = time.time()
        x_bank, y_bank = make_bank(
            photos, args.bank, args.size, args.seed, args.workers, crops, REAL_CROP_SHARE
        )
        np.savez(cache, x=x_bank, y=y_bank)
        print(f"bank of {args.bank} crops made in {time.time() - start:.0f}s", flush=True)
    classes = np.bincount(y_bank).tolist()
    print(f"{len(photos)} photos, {len(crops)} real crops, classes {classes}", flush=True)
    x_val, y_val = (t.to(args.device) for t in validation_set(casino_val(args), photos, args.size))

    def batches(step: int) -> Stream:
        return bank_batches(x_bank, y_bank, args.batch, args.seed + step, args.random_conv)

    def validation(net: torch.nn.Module) -> float:
        assert isinstance(net, PipClassifierNet)
        return validate(net, x_val, y_val)[0]

    return batches, validation


def detector_data(args: argparse.Namespace, photos: list[Photo]) -> tuple[Batches, Validation]:
    """Windows of the photos (webcam-red-yellow's scenes `WEBCAM_WEIGHT` times as often as one d6-tray photo)
    and of rendered tables, made as they are used; validation is minus the loss on fixed other windows."""
    cache = args.run / f"tables-{args.tables}-{args.seed}.pickle"
    if cache.exists():
        rendered = pickle.loads(cache.read_bytes())
    else:
        rendered = rendered_tables(args.tables, args.seed, args.workers)
        cache.write_bytes(pickle.dumps(rendered))
    weighted = photos + [p for p in photos if p.image.shape[1] >= 1920] * (WEBCAM_WEIGHT - 1)
    print(f"{len(photos)} photos ({len(weighted)} weighted), {len(rendered)} rendered tables", flush=True)
    samples = DetectorSamples(weighted, rendered, args.seed, 2**31 - 1)
    check = DetectorSamples(weighted, rendered, VALIDATION_SEED, 64)
    x_val = [
        torch.from_numpy(np.stack(c)).to(args.device)
        for c in zip(*(check[i] for i in range(64)), strict=True)
    ]

    def batches(step: int) -> Stream:
        # Windows are cut from the photos as they are used: with workers they are cut while the net learns.
        return iter(DataLoader(samples, batch_size=args.batch, sampler=range(step * args.batch, len(samples)),
                               num_workers=args.workers, worker_init_fn=quiet_worker))  # fmt: skip

    def validation(net: torch.nn.Module) -> float:
        with evaluating(net):
            loss = sum(float(detector_loss(net, [t[i : i + 16] for t in x_val])) for i in range(0, 64, 16))
        return -loss / 4

    return batches, validation


def new_net(args: argparse.Namespace) -> torch.nn.Module:
    return PipClassifierNet(args.size) if args.what == "classifier" else DieDetectorNet()


def run_settings(args: argparse.Namespace, state: dict[str, object]) -> None:
    """`RUN_SETTINGS` as the run's state has them, over the command line's (a state saved before a setting
    was kept leaves the command line's)."""
    for key in RUN_SETTINGS:
        setattr(args, key, state.get(key, getattr(args, key)))


def train(args: argparse.Namespace) -> None:
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    args.run.mkdir(parents=True, exist_ok=True)
    state_path, best_path = args.run / "state.pt", args.run / "best.pt"
    # The run's own file; its settings first, for its bank and batches are made from them.
    state = (
        torch.load(state_path, weights_only=False, map_location=args.device) if state_path.exists() else None
    )
    if state is not None:
        run_settings(args, state)
    photos = training_photos(args)
    data = classifier_data if args.what == "classifier" else detector_data
    batches, validation = data(args, photos)
    net = new_net(args)
    if state is None and not args.from_scratch:
        onnx_weights(net, args.init)
    net.to(args.device)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    if state is not None:
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        step, best = int(state["step"]), float(state["best"])
    else:
        step, best = 0, validation(net)
        torch.save(net.state_dict(), best_path)
        print(f"{'untrained' if args.from_scratch else 'starting'} model: validation {best:.4f}", flush=True)
    # A net learning from scratch learns its batch norms' statistics too.
    net.train() if args.from_scratch else frozen_norms(net)
    if args.mix_style and isinstance(net, PipClassifierNet):
        mix_style(net, args.mix_style, torch.Generator().manual_seed(args.seed + step))
    stream = batches(step)
    mixing = torch.Generator().manual_seed(args.seed + step + 1)
    start = time.time()

    def save() -> None:
        torch.save(
            {
                "net": net.state_dict(),
                "opt": opt.state_dict(),
                "step": step,
                "best": best,
                **{key: getattr(args, key) for key in RUN_SETTINGS},
            },
            state_path,
        )

    first_step = step
    while step < args.steps and time.time() - start < args.minutes * 60:
        if args.fit_to_minutes and step == first_step + RATE_PROBE_STEPS:
            # The schedule anneals to its last step: end it when the chunk's time does, at the rate so far.
            rate = RATE_PROBE_STEPS / (time.time() - start)
            args.steps = min(args.steps, step + int(rate * (args.minutes * 60 - (time.time() - start))))
            print(f"{rate:.1f} steps a second: the schedule ends at step {args.steps}", flush=True)
        for group in opt.param_groups:
            group["lr"] = float(args.lr * 0.5 * (1 + np.cos(np.pi * step / args.steps)))
        batch = [t.to(args.device, non_blocking=True) for t in next(stream)]
        if isinstance(net, PipClassifierNet) and args.mixup:
            x, other, weight = mixup(batch[0], batch[1], args.mixup, mixing)
            logits = net.logits(x)
            own = torch.nn.functional.cross_entropy(logits, batch[1], label_smoothing=0.05, reduction="none")
            theirs = torch.nn.functional.cross_entropy(logits, other, label_smoothing=0.05, reduction="none")
            loss = (weight * own + (1 - weight) * theirs).mean()
        elif isinstance(net, PipClassifierNet):
            loss = torch.nn.functional.cross_entropy(net.logits(batch[0]), batch[1], label_smoothing=0.05)
        else:
            loss = detector_loss(net, batch)
        opt.zero_grad(set_to_none=True)
        loss.backward()  # type: ignore[no-untyped-call]
        opt.step()
        step += 1
        if step % args.every == 0:
            score = validation(net)
            if score > best:
                best = score
                torch.save(net.state_dict(), best_path)
            save()
            print(f"step {step} loss {loss.item():.4f} validation {score:.4f} (best {best:.4f}) "
                  f"{time.time() - start:.0f}s", flush=True)  # fmt: skip
    save()
    print(f"stopped at step {step} of {args.steps}; best validation {best:.4f}", flush=True)


def export(args: argparse.Namespace) -> None:
    """The best weights as a model in `args.export`, its card's training part (and the classifier's
    temperature) updated; the other model's files are left as they are there."""
    import onnx

    state = torch.load(args.run / "state.pt", weights_only=False, map_location="cpu")
    run_settings(args, state)
    net = new_net(args)
    net.load_state_dict(torch.load(args.run / "best.pt", map_location="cpu"))
    net.eval()
    name = NAMES[args.what]
    args.export.mkdir(parents=True, exist_ok=True)
    path = args.export / f"{name}.onnx"
    card_path = args.export / f"{name}.json"
    card = json.loads(
        (card_path if card_path.exists() else args.init.with_suffix(".json")).read_text(encoding="utf-8")
    )
    card.pop("pair", None)  # one net now, whatever it went on from
    common = {
        "script": f"python -m lab.train.finetune {args.what} --run RUN --steps {args.steps} --batch "
        f"{args.batch} --lr {args.lr} --seed {args.seed} "
        + (f"--bank {args.bank}" if args.what == "classifier" else f"--tables {args.tables}")
        + "".join(f" --{k.replace('_', '-')} {getattr(args, k)}" for k in AUGMENTATIONS if getattr(args, k))
        + " (in chunks of --minutes, resumed), then --export DIR",
        "from": "scratch (no model's weights)"
        if args.from_scratch
        else f"{args.init} (its ONNX weights, batch norms folded and frozen)",
        "steps_run": int(state["step"]),
        "held_out": "d6-tray as above; webcam-red-yellow scenes with sha256(stem) % 100 < "
        f"{HELD_OUT_PERCENT} (lab.train.webcam) and the crops cut from them; casino-crops test",
    }
    if isinstance(net, PipClassifierNet):
        x_val, y_val = validation_set(casino_val(args), training_photos(args), args.size)
        accuracy, logits = validate(net, x_val, y_val)
        net.eval()
        temperature = fit_temperature(logits, y_val)
        onnx_export(net, torch.zeros(1, 3, args.size, args.size), path, input_names=["crops"],
                    output_names=["probs"], dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}})  # fmt: skip
        card["temperature"] = round(temperature, 3)
        card["input_size"] = args.size  # --size may differ from the net it went on from
        details = {
            "data": "as above, plus the value crops of casino-crops train (MIT) and of webcam-red-yellow's "
            "training scenes (MIT), and those scenes' boxed dice given values by lab.train.webcam; "
            f"{REAL_CROP_SHARE:.0%} of the bank from the real crops",
            "validation": "casino-crops val + 600 crops made as the bank's (seed 777000): best weights kept, "
            f"accuracy {accuracy:.4f}; softmax temperature {temperature:.3f} fitted there (fit_temperature: "
            f"a die read at >= {SURE_READ} but wrong costs {SURE_WRONG_COST} questions)",
        }
    else:
        x = torch.zeros(1, 3, 384, 384)
        axes = {"image": {2: "height", 3: "width"}, "heat": {2: "h", 3: "w"}, "reg": {2: "h", 3: "w"}}
        onnx_export(net, x, path, input_names=["image"], output_names=["heat", "reg"], dynamic_axes=axes)
        details = {
            "data": f"as above, plus webcam-red-yellow's training scenes (MIT, boxed), each {WEBCAM_WEIGHT} "
            "times as often as a d6-tray photo",
            "validation": f"loss on 64 windows made as the training ones (seed {VALIDATION_SEED}): best "
            f"kept, {-float(state['best']):.4f}",
        }
    onnx.checker.check_model(onnx.load(str(path)))
    if args.leave_out:
        common["left_out"] = f"{args.leave_out}: no photo or crop of it trained on or chose the weights"
    card["training"]["finetune"] = common | details
    card_path.write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    data = Path("../shared/datasets")
    parser.add_argument("what", choices=list(NAMES))
    parser.add_argument("--run", type=Path, required=True, help="folder of the run's state, bank and best")
    parser.add_argument("--export", type=Path, help="write the best weights as a model folder and stop")
    parser.add_argument("--init", type=Path, help="model (.onnx) to go on from; default: the shipped one")
    parser.add_argument("--d6-tray", type=Path, default=data / "d6-tray")
    parser.add_argument("--webcam", type=Path, default=data / "webcam-red-yellow")
    parser.add_argument("--casino", type=Path, default=data / "casino-crops")
    parser.add_argument("--minutes", type=float, default=20, help="wall time of this chunk")
    parser.add_argument("--steps", type=int, default=6000, help="steps of the whole run (the schedule's)")
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--bank", type=int, default=40_000)
    parser.add_argument("--size", type=int, default=32)
    parser.add_argument(
        "--random-conv", type=float, default=0.0, metavar="SHARE",
        help="share of each classifier batch passed through a random convolution (fit.random_convolution)",
    )  # fmt: skip
    parser.add_argument(
        "--mix-style", type=float, default=0.0, metavar="SHARE",
        help="share of each classifier batch whose early feature statistics are mixed (fit.mix_style)",
    )  # fmt: skip
    parser.add_argument(
        "--mixup", type=float, default=0.0, metavar="SHARE",
        help="share of each classifier batch laid over other crops, the labels mixed alike (fit.mixup)",
    )  # fmt: skip
    parser.add_argument("--tables", type=int, default=300, help="rendered tables for the detector")
    parser.add_argument(
        "--fit-to-minutes", action="store_true",
        help="end the schedule (and the run) when --minutes does, at the steps a second of its first steps",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=200, help="steps between validation and saving")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes making the bank and the windows")
    parser.add_argument("--device", default="cpu", help="torch device to train on, e.g. cuda")
    parser.add_argument(
        "--leave-out", choices=SETS,
        help="train without any photo of this real set, to measure on it as on a table never seen: go on from"
        " a model that never saw it either (--init of the from-scratch stage, which learned d6-tray), or"
        " --from-scratch",
    )  # fmt: skip
    parser.add_argument(
        "--from-scratch", action="store_true", help="learn from random weights (--init gives only the card)"
    )
    args = parser.parse_args(argv)
    args.init = args.init or Path("models") / f"{NAMES[args.what]}.onnx"
    export(args) if args.export else train(args)


if __name__ == "__main__":
    main()
