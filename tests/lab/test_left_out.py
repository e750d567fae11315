"""The leave-one-set-out command: every photo of a set read by the models given for it, d6-tray's labels that
the photos contradict mended (and counted as published too)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from lab.real_sets import labelled, photo
from lab.train.left_out import main
from lab.train.split import LABEL_FAULTS, load_fixes, mend, mended
from vision.dataset import LabelledDie, load_set, parse_labels
from vision.reading import Box

DATA = Path(__file__).resolve().parents[1] / "data"
MODELS = Path(__file__).resolve().parents[2] / "models"


def sets_root(tmp_path: Path) -> Path:
    """A folder laid out as `shared/datasets`, of the suite's copies of d6-tray and casino-crops."""
    (tmp_path / "d6-tray").symlink_to(DATA / "d6-tray")
    (tmp_path / "casino-crops").mkdir()
    (tmp_path / "casino-crops" / "test").symlink_to(DATA / "casino-crops")
    return tmp_path


def test_every_photo_is_read_and_the_tray_scored_with_its_labels_mended(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = sets_root(tmp_path)
    assert main(["--tray", str(MODELS), "--casino", str(MODELS), "--data", str(root), "--json"]) == 0
    tray, casino = json.loads(capsys.readouterr().out)
    assert (tray["set"], tray["photos"], casino["set"]) == ("tray", 4, "casino")
    # IMG_20191209_095533 has an unlabelled green 6: one die more against the mended labels.
    assert tray["labelled_dice"] == tray["as_published"]["labelled_dice"] + 1
    crops = sum(1 for p in (DATA / "casino-crops").rglob("*") if p.suffix in {".jpg", ".png"})
    assert casino["photos"] == casino["labelled_dice"] == crops
    for row in (tray, casino):  # a labelled die not found is missed, one found and read unsurely asked about
        assert row["dice_missed"] == pytest.approx(1 - row["recall"], abs=1e-3)
        assert 0 <= row["dice_asked"] <= 1 - row["dice_missed"]
        # At the table settling leaves out what was read under its floor and not found surely: no die more.
        table = row["at_table"]
        assert table["dice_missed"] >= row["dice_missed"] and table["die_accuracy"] <= row["die_accuracy"]
        # Every labelled die in one quarter by its body's lightness, darkest first, each as read.
        parts = row["by_lightness"]
        assert sum(p["dice"] for p in parts) == row["labelled_dice"]
        bands = [p["lightness"] for p in parts]
        assert all(low <= high for low, high in bands) and bands == sorted(bands)
        for key in ("die_accuracy", "dice_asked", "dice_missed"):
            mean = sum(p[key] * p["dice"] for p in parts) / row["labelled_dice"]
            assert mean == pytest.approx(row[key], abs=2e-3), key
    assert main(["--casino", str(MODELS), "--data", str(root)]) == 0
    out = capsys.readouterr().out
    assert f"| casino | {crops} | {crops} |" in out and "| body lightness (L) |" in out
    assert "| set left out | at the table: die accuracy |" in out


def test_no_models_named_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([])
    assert stopped.value.code == 2 and "--tray DIR" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["tray", "casino"])
def test_a_set_that_is_not_there_is_named(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The sets are not shipped: without them the tray gave a traceback and casino a row of no photos."""
    with pytest.raises(SystemExit) as stopped:
        main([f"--{name}", str(MODELS), "--data", str(tmp_path)])
    said = capsys.readouterr().err
    assert stopped.value.code == 2 and str(tmp_path) in said and "Traceback" not in said


def dice(found: Sequence[LabelledDie]) -> list[tuple[int, int, int]]:
    """Values and centres to the pixel: label lines keep six decimals of a fraction."""
    return sorted((d.value, round(d.box.center[0]), round(d.box.center[1])) for d in found)


def test_the_photos_mended_in_memory_match_the_copy_written() -> None:
    fixes = load_fixes(LABEL_FAULTS)
    for item in mended(load_set(DATA / "d6-tray"), fixes):
        text = (DATA / "d6-tray" / "labels" / f"{item.image.stem}.txt").read_text(encoding="utf-8")
        own = [f for f in fixes if f.image == item.image.name]
        written = parse_labels(mend(text, own, item.width, item.height), item.width, item.height, "mended")
        assert dice(item.dice) == dice(written)


def test_the_lab_reads_the_tray_with_its_contradicted_labels_mended(tmp_path: Path) -> None:
    """Every lab measure (`lab.symbol_real` too) and training cut takes the mended labels as the truth."""
    root = sets_root(tmp_path)
    published = labelled("tray", "all", root, as_published=True)
    assert labelled("tray", "all", root) == mended(published, load_fixes(LABEL_FAULTS))
    assert sum(len(i.dice) for i in labelled("tray", "all", root)) == sum(len(i.dice) for i in published) + 1


def test_the_lab_reads_casino_with_its_contradicted_label_mended(tmp_path: Path) -> None:
    """A crop of casino-crops' val split in its folder "3" shows a 6; the lab takes 6 as its truth, and the
    die stays its whole crop (so that it is laid on a table as every crop is)."""
    root = tmp_path / "casino-crops"
    root.mkdir()
    (root / "val").symlink_to(DATA / "casino-label-fault" / "val")
    published = labelled("casino", "all", tmp_path, as_published=True)
    mended_ = labelled("casino", "all", tmp_path)
    assert [d.value for i in published for d in i.dice] == [3]
    assert [d.value for i in mended_ for d in i.dice] == [6]
    (item,) = mended_
    _, (die,) = photo(item)
    assert (die.box.width, die.box.height) == (item.width, item.height)
    # The fault's box is the crop's (not a die of another photo of that name).
    assert item.dice[0].box == Box(0.0, 0.0, item.width, item.height)


LEFT_OUT = Path(__file__).resolve().parents[2] / "lab" / "left_out_models"


def test_the_rows_nets_are_kept_and_read_the_photos(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's leave-one-set-out row is read by the nets kept in `lab/left_out_models`, each folder's
    classifier card naming the set it never saw."""
    for name in ("tray", "webcam", "casino"):
        card = json.loads((LEFT_OUT / name / "pip_classifier.json").read_text(encoding="utf-8"))
        assert card["left_out"]["set"] == name
    root = sets_root(tmp_path)
    args = ["--tray", str(LEFT_OUT / "tray"), "--casino", str(LEFT_OUT / "casino"), "--data", str(root)]
    assert main([*args, "--json"]) == 0
    tray, casino = json.loads(capsys.readouterr().out)
    assert tray["models"].endswith("tray") and casino["models"].endswith("casino")
    assert tray["labelled_dice"] > 0 and casino["labelled_dice"] > 0
