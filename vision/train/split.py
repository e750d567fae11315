"""The fixed split of d6-tray: a stable hash of each file name keeps about 20% of the photos out of training.

`python -m vision.train.split --data DIR --out SET_DIR` writes the held-out photos as a set for `vision eval`.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
from pathlib import Path

HELD_OUT_PERCENT = 20


def is_held_out(name: str) -> bool:
    """True for photos kept out of training; depends on the file stem only, so it never changes."""
    digest = hashlib.sha256(Path(name).stem.encode()).digest()
    return int.from_bytes(digest[:4], "big") % 100 < HELD_OUT_PERCENT


def write_held_out(data: Path, out: Path) -> list[str]:
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    names = sorted(p.name for p in (data / "images").iterdir() if is_held_out(p.name))
    for name in names:
        shutil.copy2(data / "images" / name, out / "images" / name)
        label = data / "labels" / f"{Path(name).stem}.txt"
        if label.is_file():
            shutil.copy2(label, out / "labels" / label.name)
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Write the held-out part of d6-tray as a set for `vision eval`."
    )
    parser.add_argument(
        "--data", type=Path, default=Path("../shared/datasets/d6-tray"), help="d6-tray folder"
    )
    parser.add_argument("--out", type=Path, required=True, help="folder to write images/ and labels/ into")
    args = parser.parse_args(argv)
    names = write_held_out(args.data, args.out)
    print(f"{len(names)} held-out photos written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
