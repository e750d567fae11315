"""Words for what happened in a Carcassonne dice game: the lines of the game log on screen, one event at a
time.

Only wording lives here; what an event did is read from the engine's states before and after it.
"""

from __future__ import annotations

from companion.games import carcassonne_dice as cd
from companion.games.carcassonne_dice.city import area_text
from companion.games.words import counted, listed


def die_text(die: cd.Built) -> str:
    """A city die as typed: `row 4, col 4 (N/S)`."""
    return f"row {die.at[0]}, col {die.at[1]} ({'/'.join(area_text(m) for m in die.areas)})"


def roll_text(event: cd.Rolled) -> str:
    """The faces a roll showed: `6 city, 1 knight, 2 catapults`."""
    faces = [(event.city, "city", "city"), (event.knights, "knight", "knights")]
    faces.append((event.catapults, "catapult", "catapults"))
    return ", ".join(counted(*face) for face in faces if face[0])


def describe(before: cd.GameState, event: cd.Event, after: cd.GameState) -> list[str]:
    """Log lines for `event`, which turned `before` into `after`."""
    if isinstance(event, cd.GameStarted):
        return [f"New game: {', '.join(event.players)}"]
    who = event.player
    if isinstance(event, cd.Rolled):
        source = f", {event.read_by}" if event.read_by else ""
        lines = [f"{who} rolled {roll_text(event)} (roll {after.rolls}{source})"]
        if event.catapults:
            neighbour = after.names[(after.active + 1) % len(after.names)]
            lines[0] += f": {counted(event.catapults, 'catapult goes', 'catapults go')} to {neighbour}"
        lines += [f"  ({event.note})"] if event.note else []
    elif isinstance(event, cd.Kept):
        kept = [counted(event.knights, "knight", "knights")] if event.knights else []
        if event.built:
            dice = counted(len(event.built), "city die", "city dice")
            kept.append(f"built {dice} at {', '.join(die_text(d) for d in event.built)}")
        lines = [f"{who} kept {listed(kept)}" if event.knights else f"{who} {kept[0]}"]
    else:
        record = after.turns[-1]
        if record.held_knight:
            lines = [f"{who} holds a knight: no points now, the next turn counts double"]
        elif record.city:
            doubled = " (doubled: a knight held from the last turn)" if record.doubled else ""
            lines = [f"{who} stopped: a completed city of {record.city} dice, +{record.points}{doubled}"]
        else:
            lines = [f"{who} stopped: {record.why}"]
    if after.is_over and not before.is_over:
        lines.append(f"The game is over: {after.why_over}")
    return lines
