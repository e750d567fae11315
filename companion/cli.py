"""The `companion` command: a dispatcher of subcommands (argparse).

Each subcommand is a function `run(args) -> exit code` registered in `build_parser`; add one by adding a
subparser there.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from companion.games.alhambra_rw.report import scoreboard_text
from companion.games.alhambra_rw.scorefile import ScoreFileError, score_file

EXIT_BAD_INPUT = 2


def run_score(args: argparse.Namespace) -> int:
    """`companion score FILE [--json]`: score a game log or an end state and print the breakdown."""
    try:
        scored = score_file(args.file)
    except ScoreFileError as exc:
        print(f"companion score: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if scored.warning:
        print(f"companion score: warning: {scored.warning}", file=sys.stderr)
    if args.json:
        print(json.dumps(scored.board.to_json(), indent=2, ensure_ascii=False))
    else:
        print(scoreboard_text(scored.board))
    return 0


def run_play(args: argparse.Namespace) -> int:
    """`companion [play] [--seed N]`: the Textual app (imported here: `companion score` stays light)."""
    import random

    from companion.app.app import CompanionApp

    CompanionApp(rng=random.Random(args.seed)).run()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion", description="Table companion for physical dice games (Alhambra Roll & Write)."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    score = commands.add_parser(
        "score",
        help="score a game log or an end-state JSON file",
        description="Score a game log or an end-state JSON file and print the breakdown.",
    )
    score.add_argument("file", metavar="FILE", help="a game log (.jsonl) or an end state (.json)")
    score.add_argument("--json", action="store_true", help="print the breakdown as JSON")
    score.set_defaults(run=run_score)
    play = commands.add_parser(
        "play",
        help="the score-sheet app (also what `companion` alone runs)",
        description="Play Alhambra Roll & Write with the companion app; games are saved as you play.",
    )
    for where in (parser, play):
        where.add_argument("--seed", type=int, default=None, help="seed the app's virtual dice rolls")
    play.set_defaults(run=run_play)
    parser.set_defaults(run=run_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
