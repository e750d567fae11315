"""Teach profiles from rendered teaching photos, read rendered tables: face and rotation, unknown for others.

A few tables per set at fixed seeds (none of them used while tuning the reader); `python -m
lab.symbol_evaluate` measures on more. The runes set was added after all tuning.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from lab.symbol_evaluate import outcomes
from lab.symbol_evaluate import taught_profile as profile_of
from vision.detect import Detection
from vision.reader import AGREEMENT_FLOOR, UNKNOWN_FIND, DiceReader
from vision.reading import ASKED, SURE_READ, UNKNOWN, Image
from vision.simulated_table.city import thrown_scene
from vision.simulated_table.symbol_art import CARCASSONNE, ICON_SETS, SymbolPainter, symbol_table
from vision.symbols.embed import FaceRead
from vision.symbols.matcher import FaceMatcher

TUNED = ("alhambra", "carcassonne", "glyphs")


def share(results: list[str], kind: str) -> float:
    return results.count(kind) / len(results)


def test_reads_face_and_rotation_of_dice_of_all_colours() -> None:
    per_set = {name: outcomes(profile_of(name), name, tables=8, seed=4242) for name in TUNED}
    pooled = [r for results in per_set.values() for r in results]
    assert len(pooled) >= 210
    # 99.4-99.9% of 810 dice per seed in the README's measurement; here 4 of 216 dice may read unknown.
    assert share(pooled, "right") >= 0.98, {n: share(r, "right") for n, r in per_set.items()}
    assert share(pooled, "wrong") == 0
    for name, results in per_set.items():
        assert share(results, "right") >= 0.95, name


def test_art_never_seen_while_tuning() -> None:
    """Random runes: added after all tuning, taught like any set."""
    results = outcomes(profile_of("runes"), "runes", tables=5, seed=4343)
    assert share(results, "wrong") == 0
    assert share(results, "right") >= 0.94


def test_look_alike_faces_are_never_misread() -> None:
    """Stroked letters, some alike (F, P, R): a look-alike reads unknown at worst, never as another letter."""
    results = outcomes(profile_of("letters"), "letters", tables=5, seed=4343)
    assert share(results, "wrong") == 0
    assert share(results, "right") >= 0.9


def test_look_alike_faces_need_a_smaller_lead() -> None:
    profile = profile_of("letters")
    margins = FaceMatcher(profile).margins
    p, r, j = (profile.labels.index(label) for label in "prj")
    assert margins[p, r] == margins[r, p]
    assert 0.3 * profile.margin < margins[p, r] < 0.7 * profile.margin
    assert margins[p, j] > margins[p, r]


@pytest.mark.parametrize("name", sorted(ICON_SETS))
def test_faces_of_another_set_are_unknown(name: str) -> None:
    others = [other for other in sorted(ICON_SETS) if other != name]
    results = [r for i, other in enumerate(others) for r in outcomes(profile_of(name), other, 2, 4400 + i)]
    assert len(results) >= 70
    assert share(results, "unknown") >= 0.98


@pytest.mark.parametrize("colour", ["black", "red", "green"])
def test_profile_taught_on_white_dice_reads_dice_of_another_colour(colour: str) -> None:
    results = outcomes(profile_of("alhambra"), "alhambra", tables=3, seed=4500, colors=(colour,))
    assert share(results, "right") >= 0.94 and share(results, "wrong") == 0


def test_an_unknown_die_needs_a_sure_find() -> None:
    """Dice of faces never taught are reported as unknown symbol dice, but only where the detector found them
    at least `UNKNOWN_FIND` surely: a laptop key found at 0.4 that looks like a die's face is no die."""
    reader = DiceReader(symbols=profile_of("carcassonne"))
    image = symbol_table(SymbolPainter(ICON_SETS["alhambra"]), np.random.default_rng(4600)).image
    unknown = [d for d in reader.read(image).dice if d.kind == "symbol" and d.face == UNKNOWN]
    assert len(unknown) >= 5
    find = reader.pips.detector

    def found_less_surely(frame: Image) -> list[Detection]:
        return [replace(f, score=UNKNOWN_FIND - 0.05) for f in find(frame)]

    reader.pips.detector = found_less_surely  # type: ignore[assignment]
    assert not [d for d in reader.read(image).dice if d.kind == "symbol" and d.face == UNKNOWN]


@pytest.mark.parametrize("seed", [13, 57])
def test_a_die_found_surely_is_read_whatever_the_embedder_makes_of_its_face(seed: int) -> None:
    """The embedder scored the Carcassonne dice's full city (art to every edge, like a patch of a table's
    pattern) 0.1-0.2 a die's face, and such a die, found at 0.9, was neither shown to the templates nor
    reported: the throw came up a die short, unsaid. A find at `OFFERED_FIND` or more is a die by the
    detector's word (these throws of the demo's dice each lost one)."""
    labels = ["city4", "city4", "city1", "city2", "city2", "city3", "knight", "catapult", "city1"]
    scene = thrown_scene(SymbolPainter(CARCASSONNE), labels, np.random.default_rng(seed))
    assert len(scene.dice) == len(labels)
    read = DiceReader(symbols=profile_of("carcassonne")).read(scene.image)
    assert sorted(d.face or "" for d in read.dice if d.kind == "symbol") == sorted(labels)


def test_the_templates_word_names_no_die_far_from_every_taught_face() -> None:
    """The templates naming the embedder's nearest face names the die (asked) only when the embedder finds it
    at least `AGREEMENT_FLOOR` similar to that face: a face never taught is often a taught one's near copy."""
    reader = DiceReader(symbols=profile_of("alhambra"))
    image = symbol_table(SymbolPainter(ICON_SETS["alhambra"]), np.random.default_rng(4700)).image
    found = reader.pips.detector(image)
    assert reader.faces is not None and len(found) >= 5
    reads = reader.faces.read(image, found)

    def unsure(similarity: float) -> list[FaceRead]:
        return [replace(r, face=UNKNOWN, confidence=0.3, similarity=similarity) for r in reads]

    assert all(r.face == UNKNOWN for r in reader.agreed(image, found, unsure(AGREEMENT_FLOOR - 0.05)))
    named = [r for r in reader.agreed(image, found, unsure(AGREEMENT_FLOOR + 0.05)) if r.face != UNKNOWN]
    assert len(named) >= len(found) - 1 and all(r.confidence < SURE_READ for r in named)


def test_an_unnamed_die_the_templates_agree_on_is_as_sure_as_the_templates() -> None:
    """Where the embedder named no face, its confidence (the softmax over the faces) is no word on the die: a
    die the templates then name is as sure as their match, however peaked that softmax was."""
    reader = DiceReader(symbols=profile_of("alhambra"))
    image = symbol_table(SymbolPainter(ICON_SETS["alhambra"]), np.random.default_rng(4700)).image
    found = reader.pips.detector(image)
    assert reader.faces is not None and len(found) >= 5
    reads = reader.faces.read(image, found)
    unnamed = [replace(r, face=UNKNOWN, confidence=0.99, similarity=0.9) for r in reads]
    looks = reader.read_faces(image, [f.box for f in found])
    agreed = reader.agreed(image, found, unnamed)
    named = [(r, look) for r, look in zip(agreed, looks, strict=True) if r.face != UNKNOWN]
    assert len(named) >= len(found) - 1
    assert all(r.confidence == look.confidence for r, look in named)
    assert any(r.confidence < SURE_READ for r, _ in named)  # asked, where the softmax alone said 0.99


def test_a_face_never_taught_is_named_no_face() -> None:
    """A profile without one face reads that face's dice on whole tables as no face (unknown, or a pip die),
    the rendered counterpart of `lab.symbol_real`'s untaught faces (`lab.symbol_evaluate --untaught`)."""
    profile = profile_of("glyphs")
    for face in profile.faces[:2]:
        less = profile.without(face.label)
        read = outcomes(less, "glyphs", tables=3, seed=4800, detector=True, only=face.label)
        assert len(read) >= 2, face.label
        assert "wrong" not in read and "right" not in read, (face.label, read)


def test_a_read_doubted_by_its_boxs_square_is_not_made_sure_by_the_templates() -> None:
    """A sure read of a top face's square that the box's square named otherwise is asked about (`checked`);
    the templates, reading the box grown with its side faces, made it sure again where they agreed."""
    reader = DiceReader(symbols=profile_of("alhambra"))
    image = symbol_table(SymbolPainter(ICON_SETS["alhambra"]), np.random.default_rng(4700)).image
    found = reader.pips.detector(image)
    assert reader.faces is not None and len(found) >= 5
    reads = reader.faces.read(image, found)
    looks = reader.read_faces(image, [f.box for f in found])
    sure_looks = [i for i, (r, look) in enumerate(zip(reads, looks, strict=True)) if look.face == r.face]
    sure_looks = [i for i in sure_looks if looks[i].confidence >= SURE_READ]
    assert len(sure_looks) >= 3
    lowered = [replace(r, confidence=ASKED, similarity=0.95) for r in reads]
    raised = reader.agreed(image, found, lowered)
    assert all(raised[i].confidence >= SURE_READ for i in sure_looks)  # the templates' word, as before
    doubted = reader.agreed(image, found, [replace(r, doubted=True) for r in lowered])
    assert all(doubted[i].face == reads[i].face and doubted[i].confidence == ASKED for i in sure_looks)
