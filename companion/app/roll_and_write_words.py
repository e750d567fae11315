"""Words for what happened in a Roll & Write game: one line per event for the on-screen game log.

Only wording lives here; what an event did is read from the engine's state before and after it.
"""

from __future__ import annotations

from companion.games import alhambra_rw as rw
from companion.games.words import listed


def dice_text(yellow: tuple[int, ...], blue: tuple[int, ...]) -> str:
    """Dice as typed: `y3 y5 b2 b6`."""
    return " ".join([*(f"y{v}" for v in yellow), *(f"b{v}" for v in blue)])


def player_label(state: rw.GameState, name: str) -> str:
    return f"{name} (imaginary)" if state.player(name).imaginary else name


def describe(before: rw.GameState, event: rw.Event, after: rw.GameState) -> list[str]:
    """Log lines for `event`, which turned `before` into `after`; a roll says who read its dice (camera,
    virtual) and keeps its note (what the camera read when the players fixed it), as the log on disk does."""
    if isinstance(event, rw.GameStarted):
        names = ", ".join(event.players + tuple(f"{n} (imaginary)" for n in event.imaginary))
        # In the form's words: the solo variant is chosen as "against N imaginary players".
        variant = "against the imaginary players" if event.variant == rw.VERSUS_IMAGINARY else event.variant
        return [f"New game on sheet {event.sheet.name!r} ({variant}): {names}"]
    who = player_label(before, event.player)
    if isinstance(event, rw.Roll):
        line = f"{who} rolled {dice_text(event.yellow, event.blue)}"
        if event.read_by:
            line += f" ({event.read_by})"
        built = [
            rw.BUILDING_TYPES[t]
            for t, (old, new) in enumerate(
                zip(before.player(event.player).counts, after.player(event.player).counts, strict=True)
            )
            if new > old
        ]
        if built:
            line += f": {', '.join(built)}"
        if after.notice:
            line += f": {after.notice}"
        lines = [line, *([f"  ({event.note})"] if event.note else [])]
    elif isinstance(event, rw.KeepPair):
        lines = [f"{who} kept y{event.yellow} b{event.blue} and passed the other pair"]
    else:
        lines = [f"{who} {after.notice}"]
    for award in after.awards[len(before.awards) :]:
        lines.append(award_text(award))
    if after.round != before.round and not after.is_over:
        lines.append(f"Round {after.round} of {after.rounds} begins")
    if after.is_over and not before.is_over:
        lines.append("The last round is played: the game is over")
    return lines


def award_text(award: rw.Award) -> str:
    when = "set-up" if award.round == 0 else f"round {award.round}"
    who = listed(award.players)
    if not award.places:
        return f"End of {when}: {who} completed {award.building}, no place left"
    places = "+".join(str(p) for p in award.places)
    each = " each" if len(award.players) > 1 else ""
    return f"End of {when}: {who} completed {award.building}: place {places}, {award.vp_each} VP{each}"
