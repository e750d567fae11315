"""The advice benchmark's arguments, refused in one line: a player count the game is not played by ended in
the traceback of a `KeyError: 6`, `--games 0` in a division by zero, an unknown variant in `IllegalMove`."""

from __future__ import annotations

import pytest

from companion.games.advice_bench import main


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--game", "alhambra-roll-and-write", "--players", "6"], "is played by 1 to 5 players, not 6"),
        (["--game", "alhambra-dice", "--games", "0"], "argument --games: '0' is not a whole number above 0"),
        (["--game", "alhambra-dice", "--variant", "foo"], "there is no variant 'foo': standard, alcazaba"),
    ],
    ids=["players", "games", "variant"],
)
def test_a_bad_argument_is_one_line(argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        main(argv)
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
