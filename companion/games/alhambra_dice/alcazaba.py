"""The Alcazaba variant of Alhambra – the dice game (rules page, section "Alcazaba variant"), played with the
building tiles of the original Alhambra and scored with its scoring (`companion.games.alhambra.scoring`).

- **Tiles laid out.** Building tiles are won instead of building points: each round one pile of 6 (one of
  each type) plus 5 drawn from the bag are laid out, each on the column of its type, and the start-player
  tile on the bonus field of the column rolled for it (`TilesLaid`).
- **Rebuild action.** A player may skip placing a marker after roll 1 or 2 to make one rebuild action; the
  marker goes to the reserve board (`Rebuilt`).
- **Tile of choice.** Column by column from pavilion, the best marker in a column takes a building tile of
  choice from that column (or the start-player tile, if it lies there) and builds it at once, then the next
  best, as long as something is left in that column (`TileTaken`).
- **Scoring as in the original game** after rounds 1, 3 and 5: majorities per building type and the longest
  outer wall (`alhambra.scoring.score_game`).
- **Dirk** (2 players): his 5 markers follow the order of the 5 drawn tiles (lines 2–6, right field); he takes
  the tile lying lowest in the column and scores only majorities; both players may give tiles to Dirk.

The dice, the turns and the markers are the standard game's (`engine.Game`); this class changes what a round
lays out, what a marker wins and how a scoring counts.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.alhambra.buildings import TYPES, load_buildings
from companion.games.alhambra.scoring import Holding, Result, score_game
from companion.games.alhambra.walls import LayoutError, Tile, Wall, check_layout, longest_wall, may_lie_beside
from jsonfile import short

from .engine import DIRK_LINES, MAX_ROLLS, N_TYPES, ROUNDS, Game, IllegalMove, slot_of
from .events import (
    ALCAZABA,
    RESERVE,
    SIDES,
    TO_DIRK,
    BuildingTile,
    Cell,
    Event,
    GameStarted,
    PrizeTaken,
    Rebuilt,
    RoundPrepared,
    TilesLaid,
    TileTaken,
    Where,
)
from .state import AlcazabaView, Ask, Expectation, GameState

FOUNTAIN: Cell = (0, 0)
"""Every Alhambra starts with the fountain, a tile without walls."""
DRAWN = len(DIRK_LINES)
"""Tiles drawn from the bag each round: as many as Dirk has markers, which follow their order."""
REBUILD_ROLLS = (1, 2)
"""A rebuild action replaces the marker after roll 1 or 2."""
_TYPE = {t: i for i, t in enumerate(TYPES)}
BAG = tuple(kind.tiles + kind.extra - ROUNDS for kind in load_buildings())
"""Per type the tiles in the bag: "De resterende gebouwenkaartjes en het nieuwe torenkaartje worden gemixt en
in de buidel gestopt". [interpretation] The 5 piles of 6 (one of each type) are sorted out at the start, the
other tiles go into the bag: 25 tiles, 5 drawn in each of the 5 rounds (the 54 tiles of the original Alhambra
and the dice game's extra tower, `alhambra/buildings.json`)."""


def _where(at: Cell) -> str:
    return f"row {at[0]}, col {at[1]}"


def _tile_text(tile: BuildingTile) -> str:
    return f"{tile.building} ({'walls ' + tile.walls if tile.walls else 'no walls'})"


def _layout(alhambra: dict[Cell, BuildingTile]) -> list[Tile]:
    """An Alhambra as `alhambra.walls` lays it out: the fountain, then the tiles built around it."""
    return [
        Tile(FOUNTAIN, frozenset(), "fountain"),
        *(Tile(at, frozenset(tile.walls), tile.building) for at, tile in alhambra.items()),
    ]


def may_build_beside(alhambra: dict[Cell, BuildingTile], at: Cell, tile: BuildingTile) -> bool:
    """A quick first look at building `tile` at `at` (`walls.may_lie_beside`): False rules it out, True leaves
    the whole check (`check_alhambra`) to say."""
    placed = {t.at: t for t in _layout(alhambra)}
    return may_lie_beside(placed, Tile(at, frozenset(tile.walls), tile.building))


def check_alhambra(alhambra: dict[Cell, BuildingTile]) -> None:
    """Raises `LayoutError` for a layout the original game's building rules forbid (`alhambra.walls`: edge
    types match, each tile joined by a side without a wall, no hole, every tile reachable on foot from the
    fountain). Tiles are not turned ("Buildings cannot be rotated"): their walls are given as they lie."""
    check_layout(_layout(alhambra), FOUNTAIN)


def wall_of(alhambra: dict[Cell, BuildingTile]) -> Wall:
    """The longest connected outer wall of an Alhambra laid out by the rules (`check_alhambra`)."""
    return longest_wall(_layout(alhambra), FOUNTAIN)


class AlcazabaGame(Game):
    """A game of the Alcazaba variant: the fold's accumulator, as `Game`."""

    __slots__ = (
        "alhambras",
        "dirk_counts",
        "drawn_used",
        "holdings",
        "laid",
        "queue",
        "reserve_board",
        "reserves",
        "start_tile",
    )
    VARIANT = ALCAZABA

    def __init__(self, setup: GameStarted) -> None:
        super().__init__(setup)
        self.alhambras: list[dict[Cell, BuildingTile]] = [{} for _ in range(self.real)]
        self.reserves: list[list[BuildingTile]] = [[] for _ in range(self.real)]
        self.dirk_counts = [0] * N_TYPES
        self.drawn_used = [0] * N_TYPES
        self.holdings: list[tuple[Holding, ...]] = []

    def _clear_round(self) -> None:
        super()._clear_round()
        # Markers return (the reserve board's too); tiles not handed out leave the game: "dan worden de niet
        # verdeelde gebouwenkaartjes uit het spel genomen en open opzij gelegd".
        self.laid: list[BuildingTile | None] = []
        self.start_tile: str | None = None
        """The column whose bonus field the start-player tile lies on, until it is taken."""
        self.reserve_board = [0] * len(self.names)
        self.queue: list[int] = []

    # ----------------------------------------------------------------------------------------- the fold
    def apply(self, event: Event) -> None:
        kind = type(event)
        # [interpretation] The building tiles take the bonus tiles' place: none are laid out, so no player
        # ever holds a cancel, black-die, displace or exchange tile (their events are refused as usual).
        if kind is RoundPrepared:
            raise IllegalMove(
                "in the Alcazaba variant building tiles are laid out (tiles_laid), not bonus tiles"
            )
        if kind is PrizeTaken:
            raise IllegalMove(
                "in the Alcazaba variant a marker wins a building tile (tile_taken), not points"
            )
        if kind is not TilesLaid and kind is not TileTaken and kind is not Rebuilt:
            super().apply(event)
            return
        if self.ask is Ask.GAME_OVER:
            raise IllegalMove("the game is over: the 3rd scoring is held")
        if isinstance(event, TilesLaid):
            if self.ask is not Ask.PREPARE:
                raise IllegalMove(f"round {self.round}'s tiles are laid out already: {self._now()}")
            self._laid(event)
        else:
            assert isinstance(event, (TileTaken, Rebuilt))
            who = self.index.get(event.player, -1)
            if who != self.active:
                raise IllegalMove(self._not_yours(event.player))
            if isinstance(event, TileTaken):
                self._taken(who, event)
            else:
                self._rebuilt(who, event)
        self.log.append(event)

    # ------------------------------------------------------------------------------------ tiles laid out
    def _laid(self, event: TilesLaid) -> None:
        pile, drawn = event.pile, event.drawn
        for tile in (*pile, *drawn):
            if tile.building not in _TYPE:
                raise IllegalMove(f"there is no building type {short(tile.building)}")
            if tile.walls != "".join(s for s in SIDES if s in tile.walls):
                raise IllegalMove(
                    f"a tile's walls are sides among N, E, S, W in that order, not {short(tile.walls)}"
                )
        # The start-player tile: a die is rolled for the bonus field it lies on, in rounds 1–4 (round 5 has
        # none).
        start = event.start_column
        if self.round == ROUNDS:
            if start is not None:
                raise IllegalMove("the start-player tile: round 5 has none")
        elif start is None:
            raise IllegalMove(
                f"the start-player tile: round {self.round}: roll a die for the column whose bonus field it"
                " lies on (`start TYPE`)"
            )
        elif start not in _TYPE:
            raise IllegalMove(f"the start-player tile: there is no building type {short(start)}")
        if sorted(_TYPE[t.building] for t in pile) != list(range(N_TYPES)):
            raise IllegalMove(f"a round's pile holds {N_TYPES} tiles, one of each type: {', '.join(TYPES)}")
        if len(drawn) != DRAWN:
            raise IllegalMove(f"{DRAWN} tiles are drawn from the bag each round, not {len(drawn)}")
        counts = [0] * N_TYPES
        for tile in drawn:
            counts[_TYPE[tile.building]] += 1
        for t in range(N_TYPES):
            if self.drawn_used[t] + counts[t] > BAG[t]:
                raise IllegalMove(
                    f"the bag holds {BAG[t]} {TYPES[t]} tiles and {self.drawn_used[t]}"
                    f" {'was' if self.drawn_used[t] == 1 else 'were'} drawn in earlier rounds:"
                    f" {counts[t]} more cannot be drawn"
                )
        for t in range(N_TYPES):
            self.drawn_used[t] += counts[t]
        # Each tile lies on the column of its type: a tile's column is its building (`_column`).
        self.laid = [*pile, *drawn]
        self.start_tile = start
        self.markers_left = [self.markers] * self.real + ([DRAWN] if self.dirk >= 0 else [])
        if self.dirk >= 0:
            # Dirk's markers follow the order of the drawn tiles: the k-th in the column of the k-th drawn
            # tile's type, on line 2 + k, right field ([interpretation] two drawn of a type: two markers).
            for line, tile in zip(DIRK_LINES, drawn, strict=True):
                self.board[_TYPE[tile.building]][slot_of(line, MAX_ROLLS)] = self.dirk
            self.markers_left[self.dirk] = 0
        self.turn_order = [(self.caliph + k) % self.real for k in range(self.real)]
        self._begin_turn()

    # -------------------------------------------------------------------------------------- rebuilding
    def _rebuilt(self, who: int, event: Rebuilt) -> None:
        """[interpretation] A rebuild action is one of the original game's three: a tile from the Alhambra
        into the reserve, one from the reserve into the Alhambra, or the two exchanged in one place."""
        if self.ask is not Ask.CHOOSE:
            raise IllegalMove(f"a rebuild action replaces a marker after a roll: {self._now()}")
        if self.rolls not in REBUILD_ROLLS:
            raise IllegalMove(
                f"a rebuild action replaces the marker after roll 1 or 2, not after roll {self.rolls}"
            )
        remove, build, at = event.remove, event.build, event.at
        if remove is None and build is None:
            raise IllegalMove(
                "a rebuild action moves a tile: name the tile to remove or the reserve tile to build"
            )
        alhambra = dict(self.alhambras[who])
        reserve = list(self.reserves[who])
        removed = None
        if remove is not None:
            if remove == FOUNTAIN:
                raise IllegalMove("the fountain stays in the Alhambra")
            if remove not in alhambra:
                raise IllegalMove(f"{self.names[who]}'s Alhambra has no tile at {_where(remove)}")
            removed = alhambra.pop(remove)
        if build is not None:
            if build >= len(reserve):
                raise IllegalMove(
                    f"{self.names[who]}'s reserve holds {len(reserve)} tiles: no reserve tile {build}"
                )
            if remove is not None:
                if at is not None and at != remove:
                    raise IllegalMove("an exchange builds the reserve tile where the removed tile stood")
                target = remove
            elif at is None:
                raise IllegalMove("name where the reserve tile is built (at)")
            else:
                target = at
                if target == FOUNTAIN or target in alhambra:
                    raise IllegalMove(f"{_where(target)} is built already")
            alhambra[target] = reserve.pop(build)
        elif at is not None:
            raise IllegalMove("at names where a reserve tile is built: name the reserve tile (build)")
        if removed is not None:
            reserve.append(removed)
        self._check_layout(who, alhambra)
        self.alhambras[who] = alhambra
        self.reserves[who] = reserve
        self.reserve_board[who] += 1
        self._turn_done(who)

    def _check_layout(self, who: int, alhambra: dict[Cell, BuildingTile]) -> None:
        try:
            check_alhambra(alhambra)
        except LayoutError as exc:
            raise IllegalMove(f"{self.names[who]}'s Alhambra: {exc}") from exc

    # ------------------------------------------------------------------------------------- tile of choice
    def _next_column(self) -> None:
        """Column by column from pavilion, every marker in it best first takes a tile from it, as long as
        something is left in it."""
        self.prize_col += 1
        while self.prize_col < N_TYPES:
            self.queue = [p for p in self.board[self.prize_col] if p >= 0]
            if self._next_marker():
                return
            self.prize_col += 1
        self._end_round()

    def _next_marker(self) -> bool:
        """The best marker left in the column whose owner can take something from it becomes active: "Dit gaat
        zolang door tot er, in de desbetreffende kolom, niets meer te rapen valt"; the markers left then win
        nothing. [interpretation] Dirk takes only building tiles: a column holding only the start-player tile
        passes his marker over."""
        column = TYPES[self.prize_col]
        while self.queue:
            owner = self.queue[0]
            if self._column(self.prize_col) or (self.start_tile == column and owner != self.dirk):
                self.active = owner
                self.ask = Ask.PRIZE
                return True
            self.queue.pop(0)
        return False

    def _column(self, t: int) -> list[int]:
        """The tiles still lying on column t (their places in the layout), top to bottom: [interpretation] the
        tiles of a column lie one below the other in the order laid out, the pile's first, the drawn ones in
        the order drawn, so the last one still there lies lowest (the one Dirk takes)."""
        return [i for i, x in enumerate(self.laid) if x is not None and x.building == TYPES[t]]

    def _lowest(self) -> int:
        """The tile lying lowest in the column now handed out (-1: none left)."""
        tiles = self._column(self.prize_col)
        return tiles[-1] if tiles else -1

    def _taken(self, who: int, event: TileTaken) -> None:
        if self.ask is not Ask.PRIZE:
            raise IllegalMove(f"no tile to take now: {self._now()}")
        t = self.prize_col
        if event.building != TYPES[t]:
            raise IllegalMove(
                f"the markers taking tiles now are the {TYPES[t]} column's, not {short(event.building)}'s"
            )
        if event.tile is None:
            if who == self.dirk:
                raise IllegalMove(f"Dirk takes the tile lying lowest in the column: tile {self._lowest()}")
            if self.start_tile != TYPES[t]:
                where = (
                    f"on the {self.start_tile} column" if self.start_tile else "(taken already, or round 5)"
                )
                raise IllegalMove(
                    f"the start-player tile is taken only from its column: it lies {where}, not on {TYPES[t]}"
                )
            if event.at is not None:
                raise IllegalMove("the start-player tile is not built: no at")
            self.next_caliph = self._start_player_named(who, event.start_player)
            self.start_tile = None
        else:
            if event.start_player is not None:
                raise IllegalMove("only the start-player tile's receiver names the next start player")
            i = event.tile
            tile = self.laid[i] if i < len(self.laid) else None
            # "een gebouwenkaartje naar keuze uit de desbetreffende kolom": only a tile of this column.
            if tile is None or tile.building != TYPES[t]:
                left = ", ".join(map(str, self._column(t))) or "none"
                what = "is not laid out" if tile is None else f"lies on the {tile.building} column"
                raise IllegalMove(
                    f"tile {i} {what}: a tile is taken from the {TYPES[t]} column: choose among {left}"
                )
            if who == self.dirk:
                if i != self._lowest():
                    raise IllegalMove(
                        f"Dirk takes the tile lying lowest in the column: tile {self._lowest()}"
                    )
                if event.at is not None:
                    raise IllegalMove("Dirk builds no Alhambra: his tiles count only for the majorities")
                self.dirk_counts[t] += 1
            else:
                self._build(who, tile, event.at)
            self.laid[i] = None
        self.queue.pop(0)
        if not self._next_marker():
            self._next_column()

    def _build(self, who: int, tile: BuildingTile, at: Where | None) -> None:
        """A tile taken goes at once into the Alhambra, into the reserve, or (2 players) to Dirk: "Ook bij de
        Alcazaba-variant mogen de beide spelers gebouwenkaartjes aan Dirk schenken". [interpretation] Where
        it goes is said with every tile taken (`at` is required: a log line without it is refused, not read
        as the reserve), and a tile is given to Dirk when it is taken, as the original game's bought tile."""
        name = self.names[who]
        if at is None:
            raise IllegalMove(
                f"at: say where {name} puts the tile: a place [row, col] in the Alhambra, the reserve"
                + (" or Dirk" if self.dirk >= 0 else "")
            )
        if at == TO_DIRK:
            if self.dirk < 0:
                raise IllegalMove(f"at: tiles are given to Dirk only in a 2-player game, not to {TO_DIRK!r}")
            self.dirk_counts[_TYPE[tile.building]] += 1
        elif at == RESERVE:
            # [interpretation] As the original game allows, into the reserve (where it does not count until a
            # rebuild action builds it).
            self.reserves[who].append(tile)
        else:
            assert isinstance(at, tuple)
            if at == FOUNTAIN or at in self.alhambras[who]:
                raise IllegalMove(f"{name}'s Alhambra: {_where(at)} is built already")
            alhambra = {**self.alhambras[who], at: tile}
            self._check_layout(who, alhambra)
            self.alhambras[who] = alhambra

    # ------------------------------------------------------------------------------------------ scoring
    def _score(self) -> None:
        """After rounds 1, 3, 5 as the standard game, scored as the original Alhambra: each player's buildings
        (the reserve does not count) and longest outer wall; Dirk's buildings, no wall."""
        holdings = [
            Holding(
                self.names[p],
                False,
                tuple(sum(1 for x in self.alhambras[p].values() if x.building == t) for t in TYPES),
                wall.length,
                wall,
            )
            for p, wall in ((p, wall_of(self.alhambras[p])) for p in range(self.real))
        ]
        # [interpretation] Dirk's buildings are the tiles his markers took and those given to him: the
        # original game's extra buildings for Dirk (6 at the start, …) are not dealt.
        if self.dirk >= 0:
            holdings.append(Holding(self.names[self.dirk], True, tuple(self.dirk_counts), 0))
        self.holdings.append(tuple(holdings))

    def result(self) -> Result | None:
        """The scorings held so far by the original Alhambra's scoring (None before the first)."""
        return score_game(self.holdings) if self.holdings else None

    # ----------------------------------------------------------------------------------------- queries
    @property
    def state(self) -> GameState:
        view = AlcazabaView(
            laid=tuple(self.laid),
            start_tile=self.start_tile,
            alhambras=tuple(tuple(sorted(a.items())) for a in self.alhambras),
            reserves=tuple(tuple(r) for r in self.reserves),
            dirk=tuple(self.dirk_counts),
            reserve_board=tuple(self.reserve_board),
            holdings=tuple(self.holdings),
        )
        return replace(super().state, variant=ALCAZABA, alcazaba=view)

    def expectation(self) -> Expectation:
        ask, r = self.ask, self.round
        if ask is Ask.PREPARE:
            start = "" if r == ROUNDS else "; roll a die for the start-player tile's column"
            pile = f"a pile of {N_TYPES} building tiles (one of each type)"
            prompt = f"Round {r}: lay out {pile} and {DRAWN} drawn from the bag on their columns{start}"
            return Expectation(ask, None, prompt, r)
        if ask is Ask.CHOOSE and self.rolls in REBUILD_ROLLS:
            base = super().expectation()
            return replace(base, prompt=f"{base.prompt}, or skip the marker for a rebuild action")
        if ask is not Ask.PRIZE:
            return super().expectation()
        name, building = self.names[self.active], TYPES[self.prize_col]
        lowest = self._lowest()
        if self.active == self.dirk:
            auto = TileTaken(name, building, lowest)
            laid = self.laid[lowest]
            assert laid is not None
            prompt = f"{building}: Dirk's marker is best: he takes the tile lying lowest, {_tile_text(laid)}"
            return Expectation(ask, name, prompt, r, building=building, prizes=("tile",), auto=auto)
        prizes = (("tile",) if lowest >= 0 else ()) + (
            ("start_player",) if self.start_tile == building else ()
        )
        tiles = ", ".join(
            f"{i}: {_tile_text(x)}" for i in self._column(self.prize_col) if (x := self.laid[i])
        )
        words = " or ".join(
            {"tile": f"a building tile ({tiles})", "start_player": "the start-player tile"}[p] for p in prizes
        )
        prompt = f"{building}: {name}'s marker is best: take {words} (a building tile is built at once)"
        return Expectation(ask, name, prompt, r, building=building, prizes=prizes)
