"""Match a settled camera reading to the roll the game expects now.

The game says how many yellow and blue dice it waits for; the camera says what lies on the table. A reading
that has exactly those dice, each read with confidence, is applied as it is; finds the reader is unsure of
beyond them (clutter) are passed over. Anything else becomes a proposal the players confirm with one key or
fix by typing, and the fix is logged with what the camera read.

Symbol dice (Alhambra – the dice game) are matched the same way, by face instead of colour and value: the game
waits for a number of white dice and takes how many show each face (`propose_faces`); the black die, set by
hand to a face the game knows, is no die of the roll.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeVar

from calibration.faces import CATAPULT, KNIGHT
from companion.games import alhambra_rw as rw
from companion.live.pip_die import PipDie
from vision.reading import SURE_READ, UNKNOWN, DiceReading, Die
from vision.settle import SettleSettings

GAME_COLOURS = ("yellow", "blue")
FACE_SETTLING = SettleSettings(faces_only=True)
"""Symbol dice counted by face settle when the faces agree, whatever colour a white die in shade is named or
a face's rotation in a frame (the black die is the only other colour, and the game knows its face)."""


@dataclass(frozen=True)
class Proposal:
    """The dice to enter for the expected roll, and whether they can go in without asking."""

    dice: tuple[PipDie, ...]
    sure: bool
    problem: str
    """Why the players are asked ('' when sure)."""
    read: str
    """What the camera read, e.g. `y3 b5 red 2`: kept in the log when the players fix it."""

    @property
    def complete(self) -> bool:
        """All the dice the roll needs were seen (`k` can accept them)."""
        return bool(self.dice)


def describe_reading(reading: DiceReading) -> str:
    """Short text of a reading: game dice as typed (`y3`), other colours by name, symbol dice by face
    (`3 tower, 2 garden, 1 seraglio`)."""
    symbols = [d for d in reading.dice if d.kind == "symbol"]
    if symbols:
        return _describe_faces(symbols, [d for d in reading.dice if d.kind != "symbol"])
    parts = []
    order = {colour: n for n, colour in enumerate(GAME_COLOURS)}
    for die in sorted(reading.dice, key=lambda d: (order.get(d.color, len(order)), d.color, d.value or 0)):
        value = die.value if die.value is not None else "?"
        parts.append(f"{die.color[0]}{value}" if die.color in GAME_COLOURS else f"{die.color} {value}")
    return " ".join(parts) or "no dice"


def _describe_faces(symbols: list[Die], pips: list[Die]) -> str:
    counts: dict[str, int] = {}
    for die in symbols:
        counts[die.face or UNKNOWN] = counts.get(die.face or UNKNOWN, 0) + 1
    parts = [f"{n} {face}" for face, n in sorted(counts.items(), key=lambda fn: (-fn[1], fn[0]))]
    parts += [f"{len(pips)} pip {'die' if len(pips) == 1 else 'dice'}"] if pips else []
    return ", ".join(parts)


def _count(n: int, colour: str) -> str:
    return f"{n} {colour} {'die' if n == 1 else 'dice'}"


def _sure(die: Die, sure_read: float) -> bool:
    return die.confidence >= sure_read


TEACH_COLOURS = "if they are the game's dice, F3 teaches their colours"
"""Said with dice of a colour the game has none of."""


def propose(reading: DiceReading, exp: rw.Expectation, sure_read: float = SURE_READ) -> Proposal | None:
    """The proposal for the roll `exp` waits for, or None when the game waits for no dice now."""
    if exp.yellow + exp.blue == 0:
        return None
    read = describe_reading(reading)
    problems: list[str] = []
    chosen: list[PipDie] = []
    missing = []
    for colour, wanted in (("yellow", exp.yellow), ("blue", exp.blue)):
        seen: list[Die] = sorted(
            (d for d in reading.dice if d.color == colour and d.value is not None),
            key=lambda d: -d.confidence,
        )
        if all(_sure(d, sure_read) for d in seen[:wanted]):
            # Beyond the dice the roll needs, read surely, an unsure find is clutter (a button, a dot), not
            # a die the players threw: it is not asked about.
            seen = seen[:wanted] + [d for d in seen[wanted:] if _sure(d, sure_read)]
        if len(seen) < wanted:
            missing.append(f"{_count(wanted, colour)} expected, {len(seen)} seen")
        elif len(seen) > wanted:
            problems.append(f"{_count(len(seen), colour)} seen, {wanted} expected")
        for die in seen[:wanted]:
            chosen.append(PipDie(colour, die.value))  # type: ignore[arg-type]
            if not _sure(die, sure_read):
                problems.append(f"unsure of {colour[0]}{die.value} ({die.confidence:.0%})")
    others = [d for d in reading.dice if d.color not in GAME_COLOURS and _sure(d, sure_read)]
    # The game's dice named another colour (a new table's light) are mended by teaching their colours; they
    # are named with what is missing too, as they may be the missing dice.
    strays = []
    if others:
        many = "1 die of another colour" if len(others) == 1 else f"{len(others)} dice of other colours"
        strays.append(f"{many} ignored ({TEACH_COLOURS})")
    if missing:
        return Proposal((), False, "; ".join(["missing " + "; ".join(missing), *strays]), read)
    problems += strays
    return Proposal(tuple(chosen), not problems, "; ".join(problems), read)


def kept_pair(reading: DiceReading, yellow: tuple[int, ...], blue: tuple[int, ...]) -> tuple[int, int] | None:
    """After rolling all 4 dice, the player takes the kept pair off the table: when the camera then sees
    exactly one yellow and one blue die that were rolled, the kept pair is the other two."""
    left_yellow = [d.value for d in reading.dice if d.color == "yellow"]
    left_blue = [d.value for d in reading.dice if d.color == "blue"]
    if (
        len(reading.dice) != 2
        or len(left_yellow) != 1
        or len(left_blue) != 1
        or len(yellow) != 2
        or len(blue) != 2
    ):
        return None
    if left_yellow[0] not in yellow or left_blue[0] not in blue:
        return None
    kept_yellow = list(yellow)
    kept_yellow.remove(left_yellow[0])
    kept_blue = list(blue)
    kept_blue.remove(left_blue[0])
    return kept_yellow[0], kept_blue[0]


@dataclass(frozen=True)
class FaceProposal:
    """How many of the expected symbol dice show each face, and whether they can go in without asking."""

    counts: tuple[int, ...]
    """Per face, in the order the game lists its faces; empty when the dice could not all be made out."""
    sure: bool
    problem: str
    """Why the players are asked ('' when sure)."""
    read: str
    """What the camera read, e.g. `3 tower, 2 garden, 1 pavilion, …`: logged beside what was entered."""

    @property
    def complete(self) -> bool:
        """Every die the roll needs was made out (`k` can accept them)."""
        return bool(self.counts)


def propose_faces(
    reading: DiceReading,
    faces: tuple[str, ...],
    wanted: int,
    set_face: str | None = None,
    sure_read: float = SURE_READ,
) -> FaceProposal:
    """The proposal for a roll of `wanted` symbol dice showing `faces`: the dice set aside count, as they lie
    on the table too. `set_face`: a die set to that face lies among them (the black die), which counts for
    nothing here. Colours are not asked: a white die in shade is named black as often as the black die."""
    read = describe_reading(reading)
    needed = wanted + (set_face is not None)
    seen = sorted(reading.dice, key=lambda d: (-d.confidence, d.face or ""))
    if all(_sure(d, sure_read) for d in seen[:needed]):
        # As with pip dice: beyond the dice the roll needs, read surely, an unsure find is clutter.
        seen = seen[:needed] + [d for d in seen[needed:] if _sure(d, sure_read)]
    if len(seen) < needed:
        return FaceProposal((), False, f"missing dice: {needed} expected, {len(seen)} seen", read)
    problems = [f"{len(seen)} dice seen, {needed} expected"] if len(seen) > needed else []
    chosen = seen[:needed]
    blank = [d for d in chosen if d.face not in faces]
    if blank:
        what = "a die" if len(blank) == 1 else f"{len(blank)} dice"
        return FaceProposal((), False, "; ".join([*problems, f"{what} not made out"]), read)
    counts = [sum(d.face == face for d in chosen) for face in faces]
    if set_face is not None:
        if not counts[faces.index(set_face)]:
            return FaceProposal((), False, f"no die shows the black die's {set_face}", read)
        counts[faces.index(set_face)] -= 1
    unsure = [d for d in chosen if not _sure(d, sure_read)]
    problems += [f"unsure of {_unsure_faces(unsure)}"] if unsure else []
    return FaceProposal(tuple(counts), not problems, "; ".join(problems), read)


def _unsure_faces(dice: list[Die]) -> str:
    """The dice read unsurely, a face once with how many show it (eight dice, one line): `2 pavilion (55–60%),
    tower (60%)`."""
    by_face: dict[str, list[float]] = {}
    for die in dice:
        by_face.setdefault(die.face or UNKNOWN, []).append(die.confidence)
    parts = []
    for face, sureness in by_face.items():
        low, high = f"{min(sureness):.0%}", f"{max(sureness):.0%}"
        count = f"{len(sureness)} " if len(sureness) > 1 else ""
        parts.append(f"{count}{face} ({low if low == high else f'{low[:-1]}–{high}'})")
    return ", ".join(parts)


def propose_city_roll(
    reading: DiceReading, city_faces: tuple[str, ...], rolled: int, built: int, knights_kept: int
) -> FaceProposal:
    """The proposal for a Carcassonne dice roll of `rolled` dice, as (city, knight, catapult) counts. Every
    die in view is counted by its face, as the table lies: the city dice built and the knights kept this
    turn lie there too, and come off the counts (catapults passed on have left the table)."""
    faces = (*city_faces, KNIGHT, CATAPULT)
    seen = propose_faces(reading, faces, rolled + built + knights_kept)
    if not seen.complete:
        return seen
    city = sum(seen.counts[: len(city_faces)]) - built
    knights, catapults = seen.counts[-2] - knights_kept, seen.counts[-1]
    if city < 0 or knights < 0:
        lying = f"the {built} city dice built and {knights_kept} knights kept this turn"
        return FaceProposal((), False, f"the dice in view do not include {lying}", seen.read)
    return FaceProposal((city, knights, catapults), seen.sure, seen.problem, seen.read)


Proposed = TypeVar("Proposed", Proposal, FaceProposal)


LYING_BEFORE_ASKED = "lying on the table before the game asked for dice"
CAMERA_WAS_AWAY = "thrown while the camera was away"
SETTLED_AGAIN = "the last throw's dice, lying where they settled"
LOOKED_AWAY = "settled while another screen was open"
"""Why dice the camera settled on were not seen thrown: never entered unasked, the players told why."""


def offered_only(proposal: Proposed, why: str) -> Proposed:
    """A proposal never entered unasked, the players told `why`: dice nobody saw thrown (one of the reasons
    above: they may be an earlier throw's), or a roll the players are typing (theirs goes in)."""
    problems = (proposal.problem, why)
    return replace(proposal, sure=False, problem="; ".join(p for p in problems if p))
