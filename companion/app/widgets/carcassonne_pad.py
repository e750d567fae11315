"""The Carcassonne dice game's score pad as text: each player's running total toward 42 with the points of
their last turns and the knight they hold, then the turn being played (rolls, kept knights, catapults passed
on); beside it the city built this turn, drawn die by die."""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from companion.games import carcassonne_dice as cd
from companion.games.carcassonne_dice.city import EDGES, E, N, S, W, black_of
from companion.games.carcassonne_dice.engine import MAX_ROLLS, WIN_POINTS
from companion.games.words import ahead, standing

from .fitted import SIDE_BY_SIDE, UNBOUNDED, Fitted

BAR = 21
"""Characters of the bar toward 42: one per 2 points."""
LAST_TURNS = 6
KNIGHT = "♞"
BLACK = "█"
SIDE = {N: (-1, 0, "─"), E: (0, 1, "│"), S: (1, 0, "─"), W: (0, -1, "│")}
"""Where each edge of a die is drawn from its middle, and the white edge's character."""


def pad_text(state: cd.GameState, width: int = UNBOUNDED, leading: bool = False) -> str:
    """A line per player, then who won or (`leading`) who leads, and the current turn and its city; the bars
    toward 42 as long as `width` lets them be beside each player's last turns."""
    name_width = max(cell_len(name) for name in state.names)
    last = LAST_TURNS if width >= SIDE_BY_SIDE // 2 else LAST_TURNS // 2
    heads, turns_points = [], []
    for who, name in enumerate(state.names):
        marker = "▶" if who == state.active and not state.is_over else " "
        # Padded by the cells a name takes: a name in wide letters (李小龍) pushed its row out of line.
        heads.append(f"{marker} {set_cell_size(name, name_width)} {state.scores[who]:>2}/{WIN_POINTS}")
        turns = [t for t in state.turns if t.player == name][-last:]
        turns_points.append(" ".join(f"{KNIGHT}" if t.held_knight else f"+{t.points}" for t in turns))
    # One length for every bar, the room the longest row leaves: a bar as long as its own row left it showed
    # the same score a longer or shorter share of the way to 42.
    longest = max(cell_len(head + points) for head, points in zip(heads, turns_points, strict=True))
    room = max(0, min(BAR, width - longest - 4))
    rows = []
    for who, (head, points) in enumerate(zip(heads, turns_points, strict=True)):
        filled = min(room, state.scores[who] * room // WIN_POINTS)
        bar = BLACK * filled + "░" * (room - filled)
        knight = KNIGHT if state.held[who] else " "
        rows.append(f"{head} {bar} {knight} {points}".rstrip())
    rows.append("")
    if state.is_over:
        rows.append(f"{standing((state.names[state.winner or 0],), over=True)}: {state.why_over}")
        return "\n".join(rows)
    if leading and (ahead_now := standing(ahead(zip(state.names, state.scores, strict=True)), over=False)):
        rows.append(ahead_now)
    name = state.names[state.active]
    double = ", counts double" if state.doubled else ""
    rows.append(f"Turn {state.turn}: {name}, roll {state.rolls} of {MAX_ROLLS}{double}")
    rows.append(
        f"knights kept {state.knights} · city dice {len(state.built)} · "
        f"catapults passed on {state.catapults} · dice left {state.free}"
    )
    return "\n".join(rows)


def city_text(built: tuple[cd.Built, ...]) -> str:
    """The built dice on a grid whose neighbours share their border: a black edge is █ (black touches black,
    so a border is black for both dice or neither), a white one a line; each die's middle says how its black
    edges join (`middle`). Each die's row is numbered on its left and its column above it (two-digit columns
    tens over units), as `build ROW,COL:AREAS` types them."""
    if not built:
        return "no city die built this turn"
    top = min(b.at[0] for b in built)
    left = min(b.at[1] for b in built)
    height = 2 * (max(b.at[0] for b in built) - top) + 3
    width = 2 * (max(b.at[1] for b in built) - left) + 3
    grid = [[" "] * width for _ in range(height)]
    for die in built:
        r, c = 2 * (die.at[0] - top) + 1, 2 * (die.at[1] - left) + 1
        black = black_of(die.areas)
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            grid[r + dr][c + dc] = "+"
        for edge in EDGES:
            dr, dc, white = SIDE[edge]
            grid[r + dr][c + dc] = BLACK if black & edge else white
        grid[r][c] = middle(die.areas)
    margin = max(len(str(top)), len(str(top + height // 2 - 1)))
    cols = [str(left + k) for k in range(width // 2)]
    digits = max(len(col) for col in cols)
    header = [" " * (margin + 1) + "".join(f" {col.rjust(digits)[d]}" for col in cols) for d in range(digits)]
    rows = [
        (str(top + n // 2) if n % 2 else "").rjust(margin) + " " + "".join(row) for n, row in enumerate(grid)
    ]
    return "\n".join(line.rstrip() for line in header + rows)


def middle(areas: tuple[int, ...]) -> str:
    """A die's middle: █ where its black edges are one area, the number of areas where they are several, ·
    where no area joins two edges. Drawn alike, `N/S` (two cities) and `NS` (one) scored differently."""
    if len(areas) > 1:
        return str(len(areas))
    return BLACK if areas and black_of(areas).bit_count() > 1 else "·"


class CarcassonnePad(Fitted[cd.GameState]):
    """Shows the score pad of a game state; `show` redraws it after every event."""

    def draw(self, state: cd.GameState, width: int) -> str:
        return pad_text(state, width)


class LeadingPad(CarcassonnePad):
    """The score pad saying who leads too, as every game's table view does (the game's screen has no line
    to spare for it at 80×24)."""

    def draw(self, state: cd.GameState, width: int) -> str:
        return pad_text(state, width, leading=True)


class CityView(Static):
    """Shows the city dice built this turn; between two turns (the next not rolled yet), the city the last
    turn ended with and what it scored: the turn's end cleared it, and the table looked at an empty panel as
    it was scored."""

    def __init__(self, *, id: str | None = None) -> None:
        # The last turn's city is headed by its player's name, which is no markup (`Ann[/]` a crash).
        super().__init__(id=id, markup=False)

    def show(self, state: cd.GameState) -> None:
        last = state.turns[-1] if state.turns else None
        ended = state.is_over or not (state.built or state.rolls)
        if last is None or not last.built or not ended:
            self.update(city_text(state.built))
            return
        # One short line over it: the panel is some 24 columns wide, and the reason is the game log's.
        self.update(f"{last.player} · turn {last.turn} · +{last.points}\n{city_text(last.built)}")


class CarcassonneTable(Vertical):
    """The table's view of a Carcassonne dice game: the score pad and the city being built."""

    DEFAULT_CSS = """
    CarcassonneTable { height: auto; }
    CarcassonneTable > Static { border: round $primary; height: auto; }
    """

    def compose(self) -> ComposeResult:
        yield LeadingPad()
        yield CityView()

    def on_mount(self) -> None:
        self.query_one(CarcassonnePad).border_title = "Score pad"
        self.query_one(CityView).border_title = "City this turn"

    def show(self, state: cd.GameState) -> None:
        self.query_one(CarcassonnePad).show(state)
        self.query_one(CityView).show(state)
