"""The scoring's Markdown export keeps its table and bold lines whatever the players are called."""

from __future__ import annotations

import random
import re

from companion.app.export import EndScoring
from companion.app.screens.roll_and_write_end import scoreboard_markdown
from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.simulate import play_random_game

ODD = "Zoë a|b *x*"
"""A name with a table's column sign and Markdown's emphasis: it broke the table and the bold line."""


def unescaped_pipes(line: str) -> int:
    return len(re.findall(r"(?<!\\)\|", line))


def test_a_name_with_markdown_signs_keeps_the_table_and_the_winners_line() -> None:
    scored = EndScoring("g", "A game", True, ((ODD, 57), ("Ben", 40)), (ODD,), "why", {}, frozenset())
    lines = scored.markdown("20261129-ann").splitlines()
    row = next(line for line in lines if "57" in line)
    assert unescaped_pipes(row) == 3 and row.startswith(r"| Zoë a\|b \*x\* |"), row
    assert r"**Winner: Zoë a\|b \*x\***" in lines


def test_roll_and_writes_scoring_table_keeps_its_columns_with_such_a_name() -> None:
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), (ODD, "Ben", "Cleo"))
    state = rw.replay(play_random_game(setup, random.Random(1))[1])
    text = scoreboard_markdown(rw.score_game(state), "A game", state)
    header = next(line for line in text.splitlines() if line.startswith("| player"))
    row = next(line for line in text.splitlines() if line.startswith("| Zoë"))
    assert unescaped_pipes(row) == unescaped_pipes(header), row
    assert r"### Zoë a\|b \*x\*'s grid" in text


def test_the_winners_line_names_ties_as_every_view_does_and_an_imaginary_player_who_cannot_win() -> None:
    """A tie read "Winners: Ann, Ben" on the end screen and in the Markdown, "Winners: Ann and Ben" in the
    table's view; and with the totals' line gone from the dice games' reasons, a Dirk of 150 stood above
    "Winner: Ben" with nothing saying he cannot win."""
    tie = EndScoring("g", "A game", True, (("Ann", 57), ("Ben", 57)), ("Ann", "Ben"), "why", {})
    assert tie.winners_line() == "Winners: Ann and Ben"
    dirk = EndScoring(
        "g", "A game", True, (("Ben", 128), ("Dirk", 150)), ("Ben",), "", {}, frozenset({"Dirk"})
    )
    assert dirk.winners_line() == "Winner: Ben (the imaginary Dirk cannot win)"
    behind = EndScoring(
        "g", "A game", True, (("Ben", 128), ("Dirk", 90)), ("Ben",), "", {}, frozenset({"Dirk"})
    )
    assert behind.winners_line() == "Winner: Ben"
