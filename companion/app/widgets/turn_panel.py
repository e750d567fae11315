"""The active player's panel: what the game expects, the dice, the crossings and the keys for each choice.

Every line comes from the engine's answers (`expectation`, `crossings`, `legal_actions`); clicking a die
value or a choice runs the same action as its key.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.engine import TWO_BUILDINGS_COST

from .dice_colours import BLUE, DIE_COLOURS, YELLOW
from .message_line import ERROR, error_style


def _click(action: str, style: str = "") -> Style:
    return Style.parse(style) + Style(meta={"@click": action}) if style else Style(meta={"@click": action})


def is_roll(exp: rw.Expectation) -> bool:
    """The game waits for dice values (a `Roll`)."""
    return exp.yellow + exp.blue > 0


def is_imaginary_roll(state: rw.GameState, exp: rw.Expectation) -> bool:
    """The dice the game waits for are rolled for an imaginary player (the app can roll them)."""
    return is_roll(exp) and exp.player is not None and state.player(exp.player).imaginary


def turn_text(
    state: rw.GameState,
    exp: rw.Expectation,
    typed: str,
    message: str,
    error: bool,
    auto: bool,
    error_look: Style,
) -> Text:
    """The panel's text; `message` (a refusal when `error`, drawn in `error_look`) at its end."""
    text = Text()
    text.append(exp.prompt, style="bold")
    if exp.roll_again and state.notice:
        text.append(f"\n{state.notice}", style="bold magenta")
    player = state.player(exp.player) if exp.player else None
    if player is not None and not player.imaginary and (player.yellow or player.blue):
        text.append("\ndice: ")
        text.append(" ".join(f"y{v}" for v in player.yellow) or "-", style=f"bold {YELLOW}")
        text.append(" ")
        text.append(" ".join(f"b{v}" for v in player.blue) or "-", style=f"bold {BLUE}")
        text.append(f"   coins: {player.coins}")
    if exp.ask is rw.Ask.ACTION:
        _action_choices(text, state, exp)
    elif exp.ask is rw.Ask.KEEP_PAIR:
        for n, keep in enumerate(rw.legal_actions(state), start=1):
            assert isinstance(keep, rw.KeepPair)
            line = f"\n {n}  keep y{keep.yellow} b{keep.blue}"
            text.append(line, style=_click(f"screen.choose({n})"))
    elif exp.ask is rw.Ask.GAME_OVER:
        text.append("\n e  final scoring", style=_click("screen.show_end()"))
    if is_roll(exp):
        _roll_help(text, state, exp, auto)
    if typed:
        text.append("\ntyped: ")
        text.append(typed, style="bold reverse")
    if message:
        text.append(f"\n{message}", style=error_look if error else "italic")
    return text


def _action_choices(text: Text, state: rw.GameState, exp: rw.Expectation) -> None:
    crossings = rw.crossings(state)
    for n, crossing in enumerate(crossings, start=1):
        # A crossed cell cannot be crossed again; it stays listed (dimmed) because `c` pays a coin for it.
        status = "crossed: not a choice" if crossing.crossed else "free"
        if crossing.times > 1:
            status += f" ×{crossing.times} (hit by {crossing.times} pairs)"
        line = f"\n {n}  y{crossing.yellow}×b{crossing.blue} {crossing.building:<9} {status}"
        style = "dim" if crossing.crossed else ""
        text.append(line, style=_click(f"screen.choose({n})", style))
    text.append("\n c  take coins", style=_click("screen.take_coins()"))
    hits = sum(crossing.times for crossing in crossings if crossing.crossed)
    # More hits than coins: the supply's circles run out (a "+0" read as a miscount).
    full = f", the coin supply holds {exp.coins_to_take} more" if hits > exp.coins_to_take else ""
    text.append(f" (+{exp.coins_to_take}: 1 per crossed cell hit{full})")
    pips = "\n y3+ y3-  change pips: turn a die up or down, 1 coin per pip"
    text.append(pips, style="" if exp.can_change_pips else "dim")


def _roll_help(text: Text, state: rw.GameState, exp: rw.Expectation, auto: bool) -> None:
    wanted = " ".join(["y_"] * exp.yellow + ["b_"] * exp.blue)
    text.append(f"\ntype {wanted} then Enter, or ")
    text.append("r roll for me", style=_click("screen.roll()", "underline"))
    if is_imaginary_roll(state, exp):
        text.append(f"   a auto-roll: {'on' if auto else 'off'}", style=_click("screen.toggle_auto()"))
    if exp.ask is rw.Ask.REROLL_USED_PAIR:
        player = state.player(exp.player) if exp.player else None
        # Offered only when it can be taken: a line that does nothing when pressed is no offer.
        if player is not None and player.yellow and player.blue and exp.can_cross_second:
            y, b = player.yellow[0], player.blue[0]
            building = state.sheet.building_at(y, b)
            line = f"\n t  two buildings: y{y}×b{b} {building} ({TWO_BUILDINGS_COST} coins)"
            text.append(line, style=_click("screen.two_buildings()"))
    text.append("\nclick: ")
    for colour, drawn in DIE_COLOURS.items():
        for value in range(1, 7):
            text.append(
                f"{colour[0]}{value}", style=_click(f"screen.die('{colour}', {value})", f"bold {drawn}")
            )
            text.append(" ")


class TurnPanel(Static):
    """Shows `turn_text`; the game screen calls `show` after every change."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {ERROR}

    def show(
        self, state: rw.GameState, exp: rw.Expectation, typed: str, message: str, error: bool, auto: bool
    ) -> None:
        self.update(turn_text(state, exp, typed, message, error, auto, error_style(self)))
