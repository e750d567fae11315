"""The Alhambra dice game's board as text: per building type its dice range (lines 8 to 1, fields for 1, 2
and 3 rolls) with every marker, the bonus tile on offer, and the building-point track with its stacks; in the
Alcazaba variant the building tiles on each column and every player's Alhambra instead of tiles and track."""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from companion.games import alhambra_dice as ad
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra.report import scorings_columns as original_columns
from companion.games.alhambra_dice.alcazaba import AlcazabaGame
from companion.games.alhambra_dice.events import Cell
from companion.games.alhambra_dice.report import scorings_columns
from companion.games.words import ahead, standing

from .fitted import UNBOUNDED, Fitted

LINES = 8
FIELDS = 3
TRACK = 12
TILE_NAMES = {"vp": "VP", "exchange": "exchange", "displace": "displace", "cancel": "cancel",
              "black_die": "black die", "start_player": "start"}  # fmt: skip
EMPTY = "·"
WIDTH = 10
"""Characters per column of the dice ranges, and of the track's type names."""
MARGIN = 6
"""Characters left of the dice ranges' columns (`line`, `bonus`, the line's number)."""
STACK = 4
"""Characters per field of the building-point track."""


def marks(names: tuple[str, ...]) -> tuple[str, ...]:
    """One character per player for the board: the first letter or digit of the name (`[bold]Cleo` was
    marked `[`, a bracket on the board), or the player's number where these clash, a name has none, or one
    is not one column wide (李 takes two, ß upper-cased is SS: the board's columns would slip)."""
    initials = tuple(next((c.upper() for c in name if c.isalnum()), "") for name in names)
    if len(set(initials)) == len(initials) and all(cell_len(i) == len(i) == 1 for i in initials):
        return initials
    return tuple(str(n + 1) for n in range(len(names)))


def board_text(state: ad.GameState, width: int = UNBOUNDED) -> str:
    """The dice ranges side by side (a column per type), then the building-point track (a row per type); as
    many columns of either as `width` holds, the others in a block below."""
    mark = marks(state.names)
    offer = [TILE_NAMES.get(tile, tile) if tile else "" for tile in state.offer]
    rows = _ranges(state, "bonus", offer, width)
    # A field as wide as the highest stack and a space: 4 or more stones ran into the next field's column.
    field = max(STACK, *(len(stack) + 1 for track in state.stacks for stack in track[1:]))
    per = max(1, min(TRACK, (width - WIDTH) // field))
    for block in _blocks(TRACK, per):
        rows.append("")
        rows.append(f"{'points':<{WIDTH}}" + "".join(f"{n + 1:<{field}}" for n in block))
        for t, track in zip(TYPES, state.stacks, strict=True):
            stacks = ("".join(mark[who] for who in track[n + 1]) or EMPTY for n in block)
            rows.append(f"{t:<{WIDTH}}" + "".join(f"{stack:<{field}}" for stack in stacks))
    rows.append("")
    rows += _spread([f"{m} {name}" for m, name in zip(mark, state.names, strict=True)], width)
    return "\n".join(row.rstrip() for row in rows)


def tile_text(tile: ad.BuildingTile) -> str:
    """A building tile as typed: its type's first letter and its walled sides (`g/NES`)."""
    return tile.building[0] + (f"/{tile.walls}" if tile.walls else "")


def alcazaba_text(state: ad.GameState, width: int = UNBOUNDED) -> str:
    """Alcazaba: the dice ranges, under each column its building tiles by number (top to bottom as laid,
    the lowest last) and the start-player tile, then each player's Alhambra as a grid (F the fountain) and
    reserve."""
    view = state.alcazaba
    assert view is not None
    mark = marks(state.names)
    columns = [
        [f"{i} {tile_text(x)}" for i, x in enumerate(view.laid) if x and x.building == t] for t in TYPES
    ]

    def tiles(block: range) -> list[str]:
        deepest = max((len(columns[t]) for t in block), default=0)
        return [
            "tiles " + "".join(f"{(columns[t][k] if k < len(columns[t]) else ''):<{WIDTH}}" for t in block)
            for k in range(deepest)
        ]

    start = ["start" if view.start_tile == t else "" for t in TYPES]
    rows = _ranges(state, "start", start, width, tiles)
    for who, (built, reserve) in enumerate(zip(view.alhambras, view.reserves, strict=True)):
        kept = ", ".join(f"{n} {tile_text(x)}" for n, x in enumerate(reserve)) or "none"
        rows += ["", f"{mark[who]} {state.names[who]}'s Alhambra (reserve: {kept})", *_grid(dict(built))]
    if state.dirk is not None:
        rows += [
            "",
            f"{mark[state.dirk]} {state.names[state.dirk]}: "
            + ", ".join(f"{n} {t}" for t, n in zip(TYPES, view.dirk, strict=True) if n),
        ]
    return "\n".join(row.rstrip() for row in rows)


def _grid(built: dict[Cell, ad.BuildingTile]) -> list[str]:
    cells = [(0, 0), *built]
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    lines = ["  row " + "".join(f"{c:<7}" for c in range(min(cols), max(cols) + 1))]
    for r in range(min(rows), max(rows) + 1):
        shown = ("F" if (r, c) == (0, 0) else tile_text(built[r, c]) if (r, c) in built else EMPTY
                 for c in range(min(cols), max(cols) + 1))  # fmt: skip
        lines.append(f"  {r:>3} " + "".join(f"{x:<7}" for x in shown))
    return lines


def _blocks(count: int, per: int) -> list[range]:
    """`range(count)` cut into runs of `per`: the columns drawn side by side, block under block."""
    return [range(first, min(count, first + per)) for first in range(0, count, per)]


def _spread(items: list[str], width: int) -> list[str]:
    """`items` three spaces apart, a new line where the next would pass `width`."""
    lines = [""]
    for item in items:
        joined = f"{lines[-1]}   {item}" if lines[-1] else item
        if len(joined) > width and lines[-1]:
            lines.append(item)
        else:
            lines[-1] = joined
    return lines


def _ranges(
    state: ad.GameState,
    label: str,
    fields: list[str],
    width: int,
    below: Callable[[range], list[str]] = lambda block: [],
) -> list[str]:
    """The dice ranges with every marker, as many types side by side as `width` holds: each block its
    heading, the row `label` (`fields`: what lies on each type's bonus field), the lines, then `below` it."""
    mark = marks(state.names)
    per = max(1, min(len(TYPES), (width - MARGIN) // WIDTH))
    rows: list[str] = []
    for block in _blocks(len(TYPES), per):
        if rows:
            rows.append("")
        rows.append(f"{'line':<{MARGIN}}" + "".join(f"{TYPES[t]:<{WIDTH}}" for t in block))
        rows.append(f"{label:<{MARGIN}}" + "".join(f"{fields[t]:<{WIDTH}}" for t in block))
        for line in range(LINES, 0, -1):
            first = (LINES - line) * FIELDS
            fields_of = (state.board[t][first : first + FIELDS] for t in block)
            cells = (" ".join(EMPTY if who is None else mark[who] for who in f) for f in fields_of)
            rows.append(f"  {line:<{MARGIN - 2}}" + "".join(f"{cell:<{WIDTH}}" for cell in cells))
        rows += below(block)
    if state.out:
        rows.append("out:  " + ", ".join(f"{mark[state.names.index(who)]} ({t})" for t, who in state.out))
    return rows


def player_lines(state: ad.GameState) -> list[str]:
    """Each player's markers left (none said between rounds, when none is handed out yet: "0 markers left"
    read as a player who could not play), and the VP tiles held (Alcazaba: the markers put on the reserve
    board this round for a rebuild)."""
    mark = marks(state.names)
    view = state.alcazaba
    lines = []
    for who, name in enumerate(state.names):
        said = [] if state.ask is ad.Ask.PREPARE else [_markers(state.markers_left[who])]
        if view is None:
            said.append(f"VP tiles {sum(state.vp_tiles[who])}")
        elif rebuilt := view.reserve_board[who] if who < len(view.reserve_board) else 0:
            said.append(f"{rebuilt} rebuilt")
        lines.append(f"{mark[who]} {name}" + (f": {', '.join(said)}" if said else ""))
    return lines


class AlhambraBoard(Fitted[ad.GameState]):
    """Shows the board of a game state; `show` redraws it after every event."""

    def draw(self, state: ad.GameState, width: int) -> str:
        return alcazaba_text(state, width) if state.alcazaba is not None else board_text(state, width)


Columns = tuple[tuple[str, tuple[int, ...]], ...]


def scores(state: ad.GameState) -> tuple[tuple[int, ...], tuple[str, ...], Columns]:
    """Each player's points from the scorings held so far, once the game is over its winners, and each
    scoring held (its letter, or number in Alcazaba, scored as the original Alhambra) with every player's
    points in it."""
    if state.alcazaba is None:
        board = ad.score_state(state)
        return board.totals, board.winners, scorings_columns(board)
    game = ad.game_at(state)  # the fold the game goes on from: no replay of the whole log
    assert isinstance(game, AlcazabaGame)
    result = game.result()
    if result is None:
        return (0,) * len(state.names), (), ()
    winners = result.winners if state.is_over else ()
    return tuple(p.total for p in result.players), winners, original_columns(result)


def points_so_far(state: ad.GameState) -> str:
    """Each player's points from the scorings held so far, on one line."""
    totals, _, _ = scores(state)
    return "points so far: " + ", ".join(f"{n} {t}" for n, t in zip(state.names, totals, strict=True))


def players_text(state: ad.GameState) -> str:
    """While the game is played each player's markers and tiles and the points so far; once it is over the
    final totals and the winners."""
    totals, winners, columns = scores(state)
    if not state.is_over:
        real = (item for who, item in enumerate(zip(state.names, totals, strict=True)) if who != state.dirk)
        leading = standing(ahead(real), over=False)
        return "\n".join(line for line in [*player_lines(state), points_so_far(state), leading] if line)
    # Each total with its scorings, as the end screen's table gives them; no board mark before the name,
    # which read as a scoring's letter ("A Ann: 88").
    lines = [
        f"{name}{' (imaginary)' if who == state.dirk else ''}: {total}"
        f" ({' + '.join(f'{heading} {points[who]}' for heading, points in columns)})"
        for who, (name, total) in enumerate(zip(state.names, totals, strict=True))
    ]
    return "\n".join([*lines, standing(winners, over=True)])


class AlhambraTable(Vertical):
    """The table's view of an Alhambra dice game: the board, and every player's markers, tiles and points;
    once the game is over its final scoring comes first (a phone's first screen), the board after it."""

    DEFAULT_CSS = """
    AlhambraTable { height: auto; }
    AlhambraTable > Static { border: round $primary; height: auto; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield AlhambraBoard()
        yield Static(id="players", markup=False)  # the players' names are no markup

    def on_mount(self) -> None:
        self.query_one(AlhambraBoard).border_title = "Board"

    def show(self, state: ad.GameState) -> None:
        board = self.query_one(AlhambraBoard)
        players = self.query_one("#players", Static)
        board.show(state)
        players.update(players_text(state))
        players.border_title = "Final scoring" if state.is_over else "Players"
        if state.is_over:
            self.move_child(players, before=board)
        else:
            self.move_child(players, after=board)


def _markers(left: int) -> str:
    return f"{left} marker{'' if left == 1 else 's'} left"
