"""A new game's log is named by its start and its players' names, read in a folder's listing: a name's
accented letters were dropped (Jürgen and Zoë gave `j-rgen-zo`), now folded to their plain letters."""

from __future__ import annotations

from datetime import datetime

import pytest

from companion.games.session import log_stem

NOW = datetime(2026, 12, 1, 20, 0)


@pytest.mark.parametrize(
    ("players", "stem"),
    [
        (("Jürgen", "Zoë"), "jurgen-zoe"),
        (("Jürgen", "Zoe\u0308"), "jurgen-zoe"),  # the accent typed apart
        (("François", "Ínés", "Ǆemal"), "francois-ines-dzemal"),
        (("Ann", "李小龍", "Zoë🎲"), "ann-zoe"),
        (("Ann", "Ben"), "ann-ben"),
        (("Jürgen Groß",), "jurgen-gross"),
        (("Søren", "Łukasz", "Æsa"), "soren-lukasz-aesa"),
        (("李小龍", "王"), "game"),  # nothing left to name it by
    ],
)
def test_a_logs_name_folds_accents_to_their_letters(players: tuple[str, ...], stem: str) -> None:
    assert log_stem(players, NOW) == f"20261201-200000-{stem}"
