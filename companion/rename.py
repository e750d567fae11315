"""`companion rename FILE OLD NEW`: a misspelt player's name put right in one saved game, of any game.

The file is read as the games folder reads it (`saved_games.named_game` finds its game: a log's events, or
what a file of its own holds, the original Alhambra's pad), and every JSON string in it that is exactly OLD
becomes NEW, but for the fields that hold no player's name (`SKIPPED`). That walk knows no game's fields, so
it is trusted only once the game, read back the game's own way from the renamed file, comes out as before
with the name changed (a log's events renamed in their name fields alone: a sheet named as the player is
no name), and its players, how far it has come, its results and winners, its score through the game the same;
otherwise nothing is written. A log keeps one event a line (the lines without the name are kept as they
were); a last line cut off by a crash is set aside into `GAME.jsonl.cut`, as continuing the game does, and
the whole events before it are renamed. The file is written whole, and held meanwhile as a game being played
is: a game open in another window is refused. The file keeps its name (its start time and the names as first
typed). The scoring exported beside it names the old name, and is removed as an undo removes it.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields, is_dataclass, replace
from pathlib import Path
from typing import Any

from companion.app.export import withdraw
from companion.app.screens.new_game_form import looks_like_a_roll, names_clash
from companion.games.entry import GameEntry, Progress, Result, ScoreFileError, Summary
from companion.games.eventlog import SAID, LoadedLog, LogError, log_line, read_log, set_cut_line_aside
from companion.games.folding import IllegalMove
from companion.games.held import InUse, open_held
from companion.games.words import counted, listed
from companion.history import player_key
from companion.saved_games import CUT, named_game, naming
from companion.scorefiles import LIMITS
from jsonfile import JsonFileError, control_character, read_bytes
from jsonfile.whole import cannot_write, written_whole

SKIPPED = frozenset({"event", "game", *SAID})
"""The fields that never hold a player's name: an event's kind, the game's id, and what a roll keeps for
people (who read the dice, a note, the camera's frame): a player named "camera" or "rolled" leaves them be."""


class RenameError(ValueError):
    """A player that cannot be renamed in a file; one line naming the file and why."""


@dataclass(frozen=True)
class Renamed:
    """A player renamed in a saved game: in how many events of its log (or places of a file of its own)."""

    path: Path
    old: str
    new: str
    places: str
    """How many were changed, counted in the file's units: "14 events", "1 place"."""
    set_aside: int | None
    """The number of the log's last line, cut off by a crash and set aside (None: none was)."""
    withdrawn: str
    """What `export.withdraw` said of the exported scoring it removed ('': there was none)."""

    def line(self) -> str:
        cut = self.path.with_name(self.path.name + CUT).name
        aside = f"; line {self.set_aside}, cut off by a crash, set aside into {cut}" if self.set_aside else ""
        return f"renamed {self.old} to {self.new} in {self.path}: {self.places}{aside}{self.withdrawn}"


@dataclass(frozen=True)
class Reading:
    """What the games folder reads of a saved game: compared before and after a rename."""

    summary: Summary
    finished: tuple[tuple[Result, ...], tuple[str, ...]] | None
    progress: Progress

    def renamed(self, old: str, new: str) -> Reading:
        """The same reading with the player `old` named `new` wherever it names a player."""

        def one(name: str) -> str:
            return new if name == old else name

        def named(names: tuple[str, ...]) -> tuple[str, ...]:
            return tuple(map(one, names))

        finished = self.finished
        if finished is not None:
            finished = (tuple(replace(r, name=one(r.name)) for r in finished[0]), named(finished[1]))
        return Reading(
            replace(
                self.summary, players=named(self.summary.players), imaginary=named(self.summary.imaginary)
            ),
            finished,
            replace(self.progress, names=named(self.progress.names)),
        )


def rename(path: Path, old: str, new: str) -> Renamed:
    """Rename the player `old` to `new` (as the start form takes a name: trimmed, NFC) in the saved game at
    `path`; `RenameError` says why not, the file left as it was."""
    new = unicodedata.normalize("NFC", new.strip())
    try:
        entry = named_game(path)
    except ScoreFileError as exc:
        raise RenameError(str(exc)) from exc
    with _held(path):
        data, content, loaded = _content(entry, path)
        before = _reading(entry, path, content)
        old = _player(path, before.summary, old)
        _check_new(path, before.summary, old, new)
        if loaded is not None and loaded.cut_line is not None:
            data = data[: loaded.cut_at]
        text, changed, holds_new = _renamed_file(entry, data, old, new)
        if holds_new:
            # Renamed back, it would rename that too: the file is left as it is.
            raise RenameError(f"{path}: not renamed: the file already holds {new} where no player is named")
        try:
            with written_whole(path) as side:
                side.write_bytes(text)
                if not _same_game(entry, (content, before), _read_back(entry, path, side, new), old, new):
                    raise RenameError(
                        f"{path}: not renamed: {old} is also written where no player is named (renamed, it"
                        " would not be the same game)"
                    )
                if loaded is not None:
                    set_cut_line_aside(loaded)  # as continuing the game does: nothing is thrown away
        except OSError as exc:
            raise RenameError(f"{cannot_write(path, exc)}: not renamed") from exc
    unit = ("event", "events") if entry.rules is not None else ("place", "places")
    cut_line = None if loaded is None else loaded.cut_line
    return Renamed(path, old, new, counted(changed, *unit), cut_line, withdraw(path, f"it names {old}"))


@contextmanager
def _held(path: Path) -> Iterator[None]:
    """`path` held while it is renamed, as a window holds a game being played; `RenameError` where one does
    (a pipe or a missing file is not held: its reader says what it is)."""
    if not path.is_file():
        yield
        return
    try:
        file = open_held(path)
    except InUse as exc:
        raise RenameError(f"{path}: {exc}") from exc
    except OSError:  # unreadable: its reader says why
        yield
        return
    with file:
        yield


def _content(entry: GameEntry, path: Path) -> tuple[bytes, Any, LoadedLog[Any] | None]:
    """A saved file's bytes and what its game reads of them (a log's whole events, with the log read; or
    what a file of its own holds, and None); `RenameError` says why it cannot be read."""
    try:
        if entry.rules is None:
            assert entry.records is not None and entry.records.read is not None  # a file of its own is read
            return read_bytes(path, LIMITS), entry.records.read(path), None
        data = read_bytes(path, entry.rules.log.limits)
        loaded = read_log(path, data, entry.rules.log)
        return data, list(loaded.events), loaded
    except (JsonFileError, LogError, ScoreFileError) as exc:
        raise RenameError(naming(path, exc)) from exc


def _read_back(entry: GameEntry, path: Path, side: Path, new: str) -> tuple[Any, Reading]:
    """What the game and the games folder would read of the renamed game written to `side`; `RenameError`
    naming `path` says why they would not read it (a name its game refuses: too long)."""
    try:
        content = _content(entry, side)[1]
    except RenameError as exc:
        why = str(exc).removeprefix(f"{side}: ")
        raise RenameError(f"{path}: not renamed to {new}: {why}") from exc
    return content, _reading(entry, path, content, new)


def _same_game(
    entry: GameEntry, before: tuple[Any, Reading], after: tuple[Any, Reading], old: str, new: str
) -> bool:
    """Whether the renamed game (`after`: what its game reads, and the games folder) is the game `before` with
    the player renamed and nothing else: a log's events each renamed in their name fields alone (a sheet
    named as the player was is not renamed with them), and the same players, results and score throughout."""
    if entry.rules is not None and after[0] != [_renamed_event(event, old, new) for event in before[0]]:
        return False
    return after[1] == before[1].renamed(old, new)


def _renamed_event(event: object, old: str, new: str) -> object:
    """`event` with `old` renamed `new` in its fields that name players: a field that is a name, or a tuple
    of names (an event of another shape is left as it is)."""
    if not is_dataclass(event) or isinstance(event, type):
        return event

    def renamed(value: object) -> object:
        if value == old:
            return new
        if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
            return tuple(new if v == old else v for v in value)
        return value

    return replace(event, **{f.name: renamed(getattr(event, f.name)) for f in fields(event) if f.init})


def _reading(entry: GameEntry, path: Path, content: Any, new: str = "") -> Reading:
    """What the games folder reads of a saved game's `content`; `RenameError` says why it cannot be read
    (`new`: it is the renamed game, which its game refuses for that name)."""
    records, summary = entry.records, entry.summary
    assert records is not None and summary is not None  # every saved game's row reads it back
    try:
        state = content if entry.rules is None else entry.rules.replay(content)
        return Reading(summary(state), records.finished(content), records.progress(content))
    except (IllegalMove, ScoreFileError) as exc:
        raise RenameError(f"{path}: not renamed to {new}: {exc}" if new else naming(path, exc)) from exc


def _player(path: Path, summary: Summary, old: str) -> str:
    """The player named `old` (as written, or else the one player it names in another case or spacing);
    `RenameError` for an imaginary player or no player."""
    named = [name for name in (*summary.players, *summary.imaginary) if name == old]
    named = named or [n for n in (*summary.players, *summary.imaginary) if player_key(n) == player_key(old)]
    if len(named) == 1 and named[0] in summary.imaginary:
        raise RenameError(f"{path}: {named[0]} is an imaginary player, played by the app: not renamed")
    if len(named) == 1:
        return named[0]
    if named:
        raise RenameError(
            f"{path}: {old} names {listed(named)}, who differ only in case or spacing: give it as written"
        )
    raise RenameError(f"{path}: no player named {old} in this game (its players: {listed(summary.players)})")


def _check_new(path: Path, summary: Summary, old: str, new: str) -> None:
    """`RenameError` where `new` is no name the start form would take for this game's table."""
    why = ""
    if new == old:
        why = f"{old} is already the player's name"
    elif not new:
        why = "a player name cannot be blank"
    elif control := control_character(new):
        why = f"a player name cannot hold control character {control}"
    elif looks_like_a_roll(new):
        why = f"'{new}' looks like a roll, not a player's name (a name has a word of two letters or more)"
    else:
        why = names_clash([new if name == old else name for name in (*summary.players, *summary.imaginary)])
    if why:
        raise RenameError(f"{path}: not renamed to {new}: {why}")


def _renamed_file(entry: GameEntry, data: bytes, old: str, new: str) -> tuple[bytes, int, bool]:
    """The file's bytes with `old` renamed `new`, how many events (a file of its own: places) changed, and
    whether it already held `new` somewhere. A log keeps one event a line, each untouched line as it was."""
    if entry.rules is None:
        value, places, holds_new = _walked(json.loads(data), old, new)
        return (json.dumps(value, indent=1) + "\n").encode(), places, holds_new
    lines, events, holds_new = [], 0, False
    for line in data.split(b"\n"):
        if line.strip():
            value, places, holds = _walked(json.loads(line), old, new)
            holds_new |= holds
            if places:
                events += 1
                line = log_line(value).encode()
        lines.append(line)
    return b"\n".join(lines), events, holds_new


def _walked(value: object, old: str, new: str) -> tuple[object, int, bool]:
    """`value` with every string that is `old` made `new` (never a key, nor under `SKIPPED`), how many were,
    and whether `new` was there already."""
    if isinstance(value, str):
        return (new, 1, False) if value == old else (value, 0, value == new)
    if isinstance(value, dict):
        walked = {k: (v, 0, False) if k in SKIPPED else _walked(v, old, new) for k, v in value.items()}
        return {k: w[0] for k, w in walked.items()}, *_summed(walked.values())
    if isinstance(value, list):
        items = [_walked(v, old, new) for v in value]
        return [i[0] for i in items], *_summed(items)
    return value, 0, False


def _summed(walked: Iterable[tuple[object, int, bool]]) -> tuple[int, bool]:
    """How many strings the walks renamed, and whether any met `new` already."""
    found = list(walked)
    return sum(w[1] for w in found), any(w[2] for w in found)
