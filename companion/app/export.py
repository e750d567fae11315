"""A scoring written out beside the game's log, the same way for every game: Markdown for people, JSON for
tools (`GAME.score.md`, `GAME.score.json`: the same keys in every game, `scoring` the game's scorer's own),
and the camera's frames of the rolls it read in one file to hand on (`GAME.frames.zip`)."""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games.words import listed, standing
from companion.live.frames import frames_dir
from companion.saved_games import game_stem
from jsonfile.whole import cannot_write, write_whole, written_whole

MARKDOWN_SIGNS = re.compile(r"([\\`*_\[\]<>|#~])")


def md(text: str) -> str:
    """`text` as Markdown shows it: a player's name holding `|` broke the totals' table, and `*x*` turned
    the winners' bold line inside out."""
    return MARKDOWN_SIGNS.sub(r"\\\1", text)


@dataclass(frozen=True)
class EndScoring:
    """A game's scoring as every game's end screen shows and exports it: the totals and winners, and the
    game's own breakdown with every number's reason, as text (`companion score`) and JSON (`--json`)."""

    game: str
    """The game's id in the table of games."""
    title: str
    finished: bool
    totals: tuple[tuple[str, int], ...]
    """Every player's name and total, in seat order."""
    winners: tuple[str, ...]
    text: str
    scoring: dict[str, Any]
    imaginary: frozenset[str] = frozenset()
    """The imaginary players among them (Dirk, Roll & Write's): their totals are marked as the scorers' texts
    mark them, so that a table does not read one as a player who lost."""
    columns: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """The parts of the totals a table shows before them: each a heading (a scoring's letter) and every
    player's points in it, in seat order."""
    reasons: str = ""
    """The breakdown below the totals table (the end screen, the Markdown): `text` without the totals and
    winners the table gives already; where empty, `text`."""

    def shown(self, name: str) -> str:
        return f"{name} (imaginary)" if name in self.imaginary else name

    def to_json(self) -> dict[str, Any]:
        """The same keys for every game; `scoring` is what `companion score --json` prints for the log."""
        return {
            "game": self.game,
            "title": self.title,
            "finished": self.finished,
            "totals": [
                {"name": name, "total": total, "imaginary": name in self.imaginary}
                for name, total in self.totals
            ],
            "winners": list(self.winners),
            "scoring": self.scoring,
        }

    def rows(self) -> list[tuple[str, list[str], int]]:
        """Every player's name, points in each of `columns`, and total, in seat order."""
        return [
            (name, [str(points[seat]) for _, points in self.columns], total)
            for seat, (name, total) in enumerate(self.totals)
        ]

    def why(self) -> str:
        return self.reasons or self.text

    def winners_line(self) -> str:
        """The winners, in the words of every game's view; an imaginary player who scored as much or more
        named as one who cannot win (a Dirk of 150 above "Winner: Ben" read as a mistake)."""
        if not self.winners:
            return "no winner yet"
        best = max(total for name, total in self.totals if name in self.winners)
        beyond = [n for n, total in self.totals if n in self.imaginary - set(self.winners) and total >= best]
        line = standing(self.winners, over=True)
        return f"{line} (the imaginary {listed(beyond)} cannot win)" if beyond else line

    def markdown(self, name: str) -> str:
        """The totals as a table, the winners, and the breakdown's text with every reason."""
        headings = [heading for heading, _ in self.columns]
        lines = [f"# {self.title}: {md(name)}", "", table_row(["player", *headings, "total"])]
        lines.append(f"|---|{'---:|' * (len(headings) + 1)}")
        lines += [
            table_row([md(self.shown(player)), *parts, str(total)]) for player, parts, total in self.rows()
        ]
        lines += ["", f"**{md(self.winners_line())}**", "", "## Why", "", "```text", self.why(), "```"]
        return "\n".join(lines) + "\n"


def table_row(cells: Iterable[str]) -> str:
    return f"| {' | '.join(cells)} |"


def score_path(log_path: Path, kind: str) -> Path:
    """`GAME.score.md` or `GAME.score.json` next to the game's file (`game_stem`: where deleting the game
    finds them)."""
    return log_path.with_name(f"{game_stem(log_path)}.score.{kind}")


def export_frames(log_path: Path) -> Path | None:
    """The game's camera frames (`GAME.frames/`) zipped whole as `GAME.frames.zip` beside its log; None when
    the camera kept none. Written under another name and renamed, so a failed export leaves no half zip."""
    folder = frames_dir(log_path)
    files = sorted(f for f in folder.glob("*") if f.suffix in (".jpg", ".json")) if folder.is_dir() else []
    if not files:
        return None
    path = folder.with_name(folder.name + ".zip")
    # JPEGs do not shrink any further: stored as they are.
    with written_whole(path) as side, zipfile.ZipFile(side, "w", zipfile.ZIP_STORED) as archive:
        for file in files:
            archive.write(file, f"{folder.name}/{file.name}")
    return path


class ExportError(OSError):
    """An export stopped part way: its words say which files were written (each whole) and why the next one
    was not. An `OSError` still, as every screen that exports catches one."""


def export_scored(scored: EndScoring, markdown: str, log_path: Path, kinds: Iterable[str]) -> list[Path]:
    """Write the scoring in each of `kinds` (`md`, `json`) next to the game's log, and the camera's frames
    (`export_frames`); returns the files. Each is written whole: a full disk leaves no half file, and stops
    the export (`ExportError`)."""
    as_json = json.dumps(scored.to_json(), indent=2, ensure_ascii=False) + "\n"
    written: list[Path] = []
    try:
        for kind in kinds:
            path = score_path(log_path, kind)
            write_whole(path, markdown if kind == "md" else as_json)
            written.append(path)
        frames = export_frames(log_path)
    except OSError as err:
        # Those written before it are whole and stay: the players are told they were, not only the error.
        why = cannot_write(err.filename or log_path.parent, err)
        raise ExportError(
            f"written: {listed(written)}; {why}" if written else f"{why}; nothing written"
        ) from err
    return written + ([frames] if frames is not None else [])


def withdrawn(log_path: Path, was_over: bool, is_over: bool) -> str:
    """After an undo: where it took the game out of its end, the scoring exported beside it is removed, as
    it names winners the game no longer has (`withdraw`); '' where it did not."""
    return withdraw(log_path, "the game is not over") if was_over and not is_over else ""


def withdraw(log_path: Path, why: str) -> str:
    """The scoring exported beside the game removed, as no longer the game's for `why` (the camera's frames,
    which claim no result, stay). What to add to the message of the change that made it stale; '' where
    there was nothing to remove."""
    removed: list[str] = []
    kept: list[str] = []
    # `txt`: the original Alhambra's pad exported so until 2026-11-27; such a file names winners too.
    for path in (score_path(log_path, kind) for kind in ("md", "json", "txt")):
        try:
            if path.is_file():
                path.unlink()
                removed.append(path.name)
        except OSError as err:
            kept.append(f"{path.name} ({err.strerror or err})")
    said = [f"its exported scoring ({listed(removed)}) removed"] if removed else []
    said += [f"its exported {listed(kept)} cannot be removed and still names a winner"] if kept else []
    return f"; {'; '.join(said)}: {why}" if said else ""
