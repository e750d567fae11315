"""Roll & Write's words at the table: a single completer's VP are not "each"; taking coins says when the coin
supply, not the dice, holds the count down (a "+0" with crossed cells hit read as a miscount); the log names
the solo variant as the form does ("against", not "versus-imaginary")."""

from __future__ import annotations

import random

from rich.console import Console
from rich.style import Style

from companion.app.roll_and_write_words import award_text, describe
from companion.app.screens.roll_and_write_end import reasons_table
from companion.app.widgets.turn_panel import turn_text
from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.simulate import play_random_game


def test_an_award_says_each_only_when_shared() -> None:
    alone = rw.Award("pavilion", 2, ("Ani",), (1,), 16)
    shared = rw.Award("seraglio", 7, ("Patricia", "Frank"), (1, 2), 13)
    assert award_text(alone) == "End of round 2: Ani completed pavilion: place 1, 16 VP"
    said = "End of round 7: Patricia and Frank completed seraglio: place 1+2, 13 VP each"
    assert award_text(shared) == said


def test_take_coins_says_when_the_supply_is_full() -> None:
    """A sheet whose coin supply is the 3 coins every player starts with: no coin is ever taken."""
    sheet = rw.sheet_from_json(rw.load_shipped_sheet("example").to_json() | {"coins": 3})
    events = play_random_game(rw.GameStarted(sheet, ("Ann", "Ben", "Cleo")), random.Random(1))[1]
    for n in range(1, len(events)):
        state = rw.replay(events[:n])
        exp = rw.expectation(state)
        if exp.ask is rw.Ask.ACTION and any(c.crossed for c in rw.crossings(state)):
            break
    text = turn_text(state, exp, "", "", False, False, Style()).plain
    assert "c  take coins (+0: 1 per crossed cell hit, the coin supply holds 0 more)" in text, text


def test_the_solo_variant_is_logged_in_the_forms_words() -> None:
    sheet = rw.load_shipped_sheet("example")
    setup = rw.GameStarted(sheet, ("Solo",), ("Frank", "Ani"), rw.VERSUS_IMAGINARY)
    (line,) = describe(rw.start(setup), setup, rw.start(setup))
    assert line == (
        "New game on sheet 'example' (against the imaginary players): Solo, Frank (imaginary), "
        "Ani (imaginary)"
    )


def test_the_final_reasons_keep_their_width_beside_a_long_name_on_a_phone() -> None:
    """Each player's heading sat in the label column: beside a long name the reasons wrapped 7 characters a
    line at 40 columns ("build…", "(roun…")."""
    names = ("Christopher Alexander", "Ben", "Cleo")
    events = play_random_game(rw.GameStarted(rw.load_shipped_sheet("example"), names), random.Random(3))[1]
    board = rw.score_game(rw.replay(events))
    console = Console(width=40, record=True)
    console.print(reasons_table(board))
    lines = console.export_text().splitlines()
    assert lines[0].lstrip().startswith("Christopher Alexander: ")
    reasons = [line[16:].rstrip() for line in lines if line.startswith("   ")]
    assert max(map(len, reasons)) >= 20 and any("place" in reason for reason in reasons), lines


def test_no_final_reason_is_cut_beside_wide_names() -> None:
    """A reason naming 李小龍 or Zoë🎲 ended "(21 + 13) / 2 = 1…" at some widths, its VP lost: rich strips the
    space a wrapped line ends in by its characters, a wide character is two columns, and the column cut the
    line one column too long. Every reason is there whole, at every width."""
    names = ("Jürgen", "李小龍", "Zoë🎲")
    events = play_random_game(rw.GameStarted(rw.load_shipped_sheet("example"), names), random.Random(2))[1]
    board = rw.score_game(rw.replay(events))
    reasons = [
        why
        for p in board.players
        for why in (*(b.why for b in p.buildings), p.rows_columns_why, p.coins_why, p.extra_why)
    ]
    assert any("李小龍" in why for why in reasons) and any("Zoë🎲" in why for why in reasons), reasons
    for width in range(40, 131):
        console = Console(width=width, record=True)
        console.print(reasons_table(board))
        text = console.export_text()
        cut = [why for why in reasons if "".join(why.split()) not in "".join(text.split())]
        assert not cut, (width, cut, text)
