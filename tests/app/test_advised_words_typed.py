"""Every choice the advice shows in the dice games can be typed as it is worded: at random decisions of random
games, each choice's words are turned into what the help says to type (`place garden`, `black towers`,
`keep 2` then `stop`), read by the game's own parser and taken by the engine; a choice that is a move is the
very move the advice played out, a choice that rolls is a roll of the dice it names."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from companion.app import alcazaba_input, alhambra_dice_input, carcassonne_dice_input
from companion.games import alhambra_dice as ad
from companion.games import carcassonne_dice as cd
from companion.games.advice import Decision
from companion.games.alhambra_dice.simulate import play_random_game as alhambra_game
from companion.games.carcassonne_dice.simulate import play_random_game as carcassonne_game
from companion.games.table import GAMES


class Recorder:
    """A game that only keeps the events a choice applies to it."""

    def __init__(self) -> None:
        self.events: list[object] = []

    def apply(self, event: object) -> None:
        self.events.append(event)


def alhambra_typed(words: str, events: list[object]) -> tuple[str, list[str]]:
    """What the help says to type for an Alhambra dice choice, and the kind of choice it is."""
    if m := re.fullmatch(r"place a marker on (\w+), .*?(, displacing \w+)?", words):
        return ("displace", [f"place {m[1]} displace"]) if m[2] else ("place", [f"place {m[1]}"])
    if re.fullmatch(r"cancel roll \d with a cancel tile", words):
        return "cancel", ["cancel"]
    if m := re.fullmatch(r"set the black die on the (\w+)", words):
        return "black", [f"black {m[1]}"]
    if re.fullmatch(r"2 building points in \w+", words):
        return "points", ["points"]
    if m := re.fullmatch(
        r"1 building point in \w+ and the (\S+) tile(?:: (\w+) starts the next round)?", words
    ):
        prize = events[0]
        assert isinstance(prize, ad.PrizeTaken)
        value = f" {prize.value}" if m[1] == "VP" else f" {m[2]}" if m[2] else ""
        return f"tile {m[1]}", [f"tile{value}"]
    if m := re.fullmatch(r"set aside the (\d) (\w+), roll the other (\d)", words):
        # The next roll shows all 8 dice, those set aside among them: typed by the symbols' first letters.
        return "set aside", [m[2][0] * 8]
    if words == "roll all 8 dice again":
        return "roll all", ["0 0 0 0 0 8"]
    raise AssertionError(f"an Alhambra dice choice the help does not say how to type: {words!r}")


def carcassonne_typed(words: str, events: list[object]) -> tuple[str, list[str]]:
    """What the help says to type for a Carcassonne dice choice, and the kind of choice it is."""
    typed = []
    if m := re.match(r"keep (\d) knights?, ", words):
        typed.append(f"keep {m[1]}")
        words = words[m.end() :]
    if m := re.fullmatch(r"roll the other (\d) d(?:ie|ice)", words):
        return "roll", [*typed, f"{m[1]} 0 0"]
    if words.startswith("stop: +"):
        return "stop", [*typed, "stop"]
    if words.startswith("hold a knight: "):
        return "hold", [*typed, "hold"]
    raise AssertionError(f"a Carcassonne dice choice the help does not say how to type: {words!r}")


def alhambra_parse(text: str, state: ad.GameState) -> object:
    return alhambra_dice_input.parse(text, state, random.Random(0))


def alcazaba_parse(text: str, state: ad.GameState) -> object:
    return alcazaba_input.parse(text, state, random.Random(0))


ROLLS = {"set aside", "roll all", "roll"}
"""Choices whose dice are each playout's luck: typed, they are the roll the words name."""

Typing = Callable[[str, list[object]], tuple[str, list[str]]]
STANDARD = {
    "place",
    "displace",
    "cancel",
    "black",
    "points",
    "tile VP",
    "tile start-player",
    "set aside",
    "roll all",
}
"""The kinds of choice the standard game's advice shows in these random games (each at least once)."""
GAMES_TYPED: list[tuple[str, Any, Callable[..., Any], Typing, Callable[[str, Any], object], set[str]]] = [
    (ad.GAME_ID, ad.GameStarted(("Ann", "Ben")), alhambra_game, alhambra_typed, alhambra_parse, STANDARD),
    (
        ad.GAME_ID,
        ad.GameStarted(("Ann", "Ben", "Cleo")),
        alhambra_game,
        alhambra_typed,
        alhambra_parse,
        STANDARD,
    ),
    (
        ad.GAME_ID,
        ad.GameStarted(("Ann", "Ben"), "alcazaba"),
        alhambra_game,
        alhambra_typed,
        alcazaba_parse,
        {"place", "set aside", "roll all"},
    ),
    (
        cd.GAME_ID,
        cd.GameStarted(("Ann", "Ben", "Cleo")),
        carcassonne_game,
        carcassonne_typed,
        carcassonne_dice_input.parse,
        {"roll", "stop", "hold"},
    ),
]


@pytest.mark.parametrize(("game_id", "setup", "play", "typing", "parse", "kinds"), GAMES_TYPED)
def test_every_advised_choice_is_typed_as_worded(
    game_id: str,
    setup: Any,
    play: Callable[..., Any],
    typing: Typing,
    parse: Callable[[str, Any], object],
    kinds: set[str],
) -> None:
    entry = GAMES[game_id]
    assert entry.rules is not None and entry.advice is not None
    rules, advising = entry.rules, entry.advice
    # Every kind of choice met in 3 random games, typed at up to 3 of its decisions picked at random.
    met: dict[str, list[tuple[Any, str, list[str], list[object]]]] = {}
    for seed in range(3):
        events = play(setup, random.Random(seed))[1]
        state = rules.replay(events[:1])
        for event in events[1:]:
            decision = advising.decision(state)
            for choice in decision.choices if isinstance(decision, Decision) else ():
                recorder = Recorder()
                if not choice.rolls:
                    choice.take(recorder, random.Random(1))
                kind, lines = typing(choice.words, recorder.events)
                assert (kind in ROLLS) == choice.rolls, choice.words
                met.setdefault(kind, []).append((state, choice.words, lines, recorder.events))
            state = rules.apply(state, event)
    rng = random.Random(7)
    refused = []
    for kind, found in sorted(met.items()):
        for state, words, lines, taken in rng.sample(found, min(3, len(found))):
            typed = []
            try:
                for line in lines:
                    typed.append(parse(line, state))
                    state = rules.apply(state, typed[-1])
            except Exception as exc:  # every refusal (the parser's or the engine's) is listed
                refused.append(f"{words!r} typed as {lines}: {exc}")
                continue
            if kind not in ROLLS and typed != taken:
                refused.append(f"{words!r} typed as {lines} is {typed}, not {taken}")
    assert not refused, "\n".join(refused)
    assert kinds <= met.keys(), sorted(met)
