"""Reading a JSON file that a user hands the program: limits checked before the work, one-line errors.

Every file the program reads as JSON (score files and game logs, sheets, colour and symbol profiles, the
table area) goes through `read_json` or `loads`. Before `json` parses anything, one pass of a regular
expression over the text checks its nesting depth, the digits of every whole number, the size of every other
number and the length of every string: no file makes the parser recurse too deep, Python refuse an integer,
a float overflow or a huge value reach an error message. No text may hold a control character: a name that
held ESC would be printed as a command to the terminal. Errors name the place as `line L, column C` and say
what to fix; `refuse_unknown` names a field that a validator does not know, so that a misspelt field is never
replaced by its default without a word; `whole_number` checks a count as every validator does (JSON's `true`
is no 1).

Standard library only: it stands below every other package, so that `vision`, `calibration` and the pure game
engines use it without importing one another.
"""

from __future__ import annotations

import argparse
import codecs
import io
import json
import math
import os
import re
import stat
import sys
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

from .whole import cannot_write

SHOWN = 40
"""Characters of a bad value an error message shows at most: a message stays one short line."""


class JsonFileError(ValueError):
    """A file that is not JSON within the limits; the message is one line naming the file and the place."""


@dataclass(frozen=True)
class Limits:
    """What one file may hold; the defaults are far above any file the program writes."""

    size: int = 1_000_000
    """Bytes in the file."""
    depth: int = 20
    """Arrays and objects inside each other."""
    digits: int = 15
    """Digits of a whole number: more is no count on a score sheet, and Python refuses over 4,300."""
    string: int = 100_000
    """Characters in one string (a symbol profile's templates are about 1,400)."""


# A string that is never closed runs to the end of the text as one token: were it to fail, the scan would try
# again at every quote inside it (each `\"`), and a small crafted file would take hours. DOTALL: a backslash
# before a line end is one more escape of that token, not its end.
_TOKEN = re.compile(
    r"""
    (?P<string>"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z))
    | (?P<number>-?(?:0|[1-9][0-9]*)(?P<fraction>(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?))
    | (?P<constant>NaN|-?Infinity)
    | (?P<open>[\[{])
    | (?P<close>[\]}])
    """,
    re.VERBOSE | re.DOTALL,
)


_COLON = re.compile(r"\s*:")
"""What follows a string that is an object's key."""


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200b\u202a-\u202e\u2066-\u2069\ufeff]")
"""Characters that no name or text the program reads needs, and that printed drive a terminal (ESC starts
its commands: clear the screen, retitle the window), or turn or hide the text around them (a right-to-left
override, a zero-width space: "Barbara" and "Barbara" + U+200B were two players that looked one)."""


_CONTROL_IN_JSON = re.compile(
    r"""
    (?<!\\)(?:\\\\)*(\\(?:u00[01][0-9a-fA-F]|u007[fF]|u00[89][0-9a-fA-F]|[bfnrt]  # an escape writing one
        |u200[bB]|u202[a-eA-E]|u206[6-9]|u[fF][eE][fF][fF]))
    | ([\x7f-\x9f\u200b\u202a-\u202e\u2066-\u2069\ufeff])  # written as they are: JSON refuses only C0 so
    """,
    re.VERBOSE,
)
"""A control character in JSON text: backslashes stand only in texts (elsewhere JSON refuses them), and
`\\\\` writes one of its own, so an escape is one after an even run of them."""


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
"""Half of a character written as two escapes: alone it is no character, and a text holding it cannot be
printed or saved (UTF-8 has no bytes for it)."""


def control_character(text: str) -> str:
    """The first control character in `text`, as `U+001B` ('' where there is none)."""
    found = _CONTROL.search(text)
    return f"U+{ord(found[0]):04X}" if found else ""


def printable(text: str) -> str:
    """`text` with each control character written as its escape (`\\x1b`): safe to print or draw."""
    return _CONTROL.sub(lambda found: repr(found[0])[1:-1], text)


def complain(prefix: str, message: str) -> None:
    """A command's line to standard error, `PREFIX: MESSAGE`, the message `printable`: it names files, and a
    file named with ESC in a folder the user hands over would drive their terminal."""
    print(f"{prefix}: {printable(message)}", file=sys.stderr, flush=True)


def duration(text: str) -> float:
    """A command's argument that is a length of time: a number of seconds above 0 (and not infinite)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def count(text: str) -> int:
    """A command's argument that counts something done at least once (`--games 0` would divide by none)."""
    if not text.isdecimal() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number above 0")
    return int(text)


class OutputError(Exception):
    """The standard output cannot take what a command prints (`> /dev/full`): said as such, not as a file of
    the user's; the message says why."""


CLOSED_OUTPUT = "cannot write the standard output: it is closed"
"""Why a command started with its standard output closed (`>&-`) prints nothing: Python has none (None)."""


@contextmanager
def printing() -> Iterator[None]:
    """Around what a command prints, flushed at the end: an output that cannot take it is an `OutputError`,
    not a traceback. A reader that stopped early (`| head -1`) is a `BrokenPipeError` still: no error."""
    if sys.stdout is None:  # print() writes nowhere without a word, and flushing it was an AttributeError
        raise OutputError(CLOSED_OUTPUT)
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(cannot_write("the standard output", exc)) from None


def say(line: str) -> None:
    """`line` on the standard output at once (`printing`): each result is seen as it comes, and an output
    that cannot take it fails here, told apart from a file that cannot be written."""
    with printing():
        print(line)


def print_json(value: object) -> None:
    """`value` as JSON on standard output (`printing`): its text as it is where the output's encoding holds
    every character, else \\u-escaped (a name shown as "?" would be another name; the JSON stays whole)."""
    with printing():
        encoding = codecs.lookup(sys.stdout.encoding or "ascii").name
        print(json.dumps(value, indent=2, ensure_ascii=not encoding.startswith("utf")))


def output_to_nowhere() -> None:
    """Standard output goes nowhere from now on, after an `OutputError` or a reader gone: Python would fail
    again flushing what is left for it at exit. A closed one (None) has nothing left."""
    if sys.stdout is not None:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


_FAILING = frozenset({"strict", "surrogateescape", "surrogatepass"})
"""Error handlers that raise on a character the encoding cannot hold: in the C or POSIX locale Python writes
standard output as ASCII with "surrogateescape", which writes back the bytes of an undecodable file name but
fails on "é"."""


def replace_what_cannot_be_shown() -> None:
    """A character standard output's encoding cannot hold (a help's "–", a player's name in a Latin-1 or
    ASCII terminal) is shown as "?", not a traceback; standard error already escapes it (Python writes it
    with "backslashreplace" in every locale). Each command's `main` calls it first."""
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.errors in _FAILING:
        sys.stdout.reconfigure(errors="replace")


def short(value: object) -> str:
    """`value` as its file writes it (`true`, `null`, `[1, null]`, `NaN`), a text in repr's quotes as messages
    quote the user's words ('abc'), cut to `SHOWN` characters: enough to recognise it, never a whole file in
    one line."""
    # The file's own spelling: told of "True", a user looks for it in vain in a file that holds `true`.
    text = repr(value) if isinstance(value, str) else _as_json(value)
    # A text's own length: its repr's quotes and escapes made a 51-character name "53 characters".
    length = len(value) if isinstance(value, str) else len(text)
    return text if len(text) <= SHOWN else f"{text[: SHOWN - 5]}…({length} characters)"


def _as_json(value: object) -> str:
    """`value` in JSON's spelling, its texts whole (ensure_ascii would write "Jürgen" as "J\\u00fcrgen");
    `repr` for what JSON cannot write (a set, an object)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)
    # JSON escapes only C0 in a text: a DEL or an override in a list would reach the terminal as it is.
    return printable(text)


def shown(text: str) -> str:
    """`text` as it is where it is short and printable, else as `short` shows it."""
    return text if len(text) <= SHOWN and text.isprintable() else short(text)


def read_json(path: Path, limits: Limits = Limits()) -> object:
    """The JSON value in the file at `path`; every problem is a `JsonFileError` naming the file."""
    data = read_bytes(path, limits)
    try:
        return loads(data, limits)
    except JsonFileError as err:
        raise JsonFileError(f"{path}: {err}") from None


def read_bytes(path: Path, limits: Limits = Limits(), kind: str = "a file") -> bytes:
    """The bytes of the regular file at `path`; `kind` names what it should be ('an image file'). A folder,
    a pipe or a device is refused before it is opened (opening a pipe waits for a writer for ever, reading
    /dev/zero never ends), a file over `limits.size` unread."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise JsonFileError(f"{path}: {_special(info.st_mode)}, not {kind}")
        if info.st_size > limits.size:
            raise JsonFileError(f"{path}: too large ({info.st_size:,} bytes; at most {_amount(limits.size)})")
        with path.open("rb") as file:
            data = file.read(limits.size + 1)  # the file may have grown since
    except OSError as err:
        raise JsonFileError(f"{path}: cannot read ({err.strerror or err})") from None
    if len(data) > limits.size:
        raise JsonFileError(f"{path}: too large (over {_amount(limits.size)})")
    return data


def _special(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return "a pipe or socket"
    return "a device or other special file"


def _amount(size: int) -> str:
    return f"{size // 10**6} MB" if size % 10**6 == 0 else f"{size:,} bytes"


def loads(data: bytes, limits: Limits = Limits(), line: int = 1) -> object:
    """The JSON value in `data`, whose first line is line `line` of its file; errors say where."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        before = data[: err.start].decode("utf-8", "replace")
        raise JsonFileError(
            f"{_place(before, len(before), line)}: not UTF-8 text (byte 0x{data[err.start]:02x}); "
            "save it as UTF-8"
        ) from None
    if not text.strip():
        raise JsonFileError("the file is empty")
    _check_limits(text, limits, line)
    try:
        value = json.loads(text, object_pairs_hook=_object)
    except json.JSONDecodeError as err:
        raise JsonFileError(f"{_place(text, err.pos, line)}: not valid JSON ({err.msg})") from None
    except _DuplicateKey as err:
        raise JsonFileError(
            f"{_second_key(text, err.key, line)}: field {short(err.key)} is given twice in one object"
        ) from None
    if _SURROGATE_ESCAPE.search(text) and not _whole_characters(value):
        at, escape = _lone_half(text)
        raise JsonFileError(
            f"{_place(text, at, line)}: a text holds half a character ({escape} without its other half), "
            "which cannot be shown"
        )
    return value


def _whole_characters(value: object) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _lone_half(text: str) -> tuple[int, str]:
    """Where the first half character stands in `text` and its escape: a first half not followed by a second,
    or a second half not after a first."""
    halves = list(_SURROGATE_ESCAPE.finditer(text))
    for half in halves:
        first = half[0][3] in "89abAB"
        start = half.end() if first else max(half.start() - 6, 0)
        partner = text[start : start + 6]
        if not (_SURROGATE_ESCAPE.fullmatch(partner) and (partner[3] in "89abAB") != first):
            return half.start(), half[0]
    return halves[0].start(), halves[0][0]


def refuse_unknown(
    data: Mapping[str, object], known: Collection[str], where: str, error: type[ValueError]
) -> None:
    """Raise `error` naming the first key of `data` not in `known`: a misspelt field is not a default."""
    for key in data:
        if key not in known:
            at = f"{where}: " if where else ""
            raise error(f"{at}unknown field {short(key)} (known: {', '.join(known)})")


def optional_text(data: Mapping[str, object], key: str, error: type[ValueError]) -> str:
    """The text at `key` ("" where it is missing); `error` names the key when it is not text."""
    value = data.get(key, "")
    if not isinstance(value, str):
        raise error(f"{key}: must be text, got {short(value)}")
    return value


def is_whole_number(value: object, low: int | None = None, high: int | None = None) -> TypeGuard[int]:
    """Whether `value` is a whole number from `low` to `high` (a bound left out is no bound). JSON's `true`
    is no count, though Python's bool is an int (`true` would pass as 1)."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and (low is None or low <= value)
        and (high is None or value <= high)
    )


def whole_number(
    value: object, low: int | None, high: int | None, where: str, error: type[ValueError], what: str = ""
) -> int:
    """`value` where it `is_whole_number` from `low` to `high`; else `error`, "WHERE: must be WHAT, got
    VALUE", WHAT by default "a whole number" and its bounds ("a whole number 0–9", "a whole number up to
    9"; a bound below alone is the caller's to word)."""
    if not is_whole_number(value, low, high):
        raise error(f"{where}: must be {what or _whole_numbers(low, high)}, got {short(value)}")
    return value


def _whole_numbers(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"a whole number {low}–{high}"
    return "a whole number" if high is None else f"a whole number up to {high}"


def _check_limits(text: str, limits: Limits, line: int) -> None:
    # Without a backslash no escape writes a character, and a printable text holds none of those searched
    # for (each is a control or format character): most lines of a log are so, and the search is slow.
    if ("\\" in text or not text.isprintable()) and (found := _CONTROL_IN_JSON.search(text)):
        escape, raw = found[1], found[2]
        control = control_character(json.loads(f'"{escape}"') if escape else raw)
        place = _place(text, found.start(1 if escape else 2), line)
        raise JsonFileError(
            f"{place}: a text holds control character {control}, which no text here may hold (printed, it "
            "would drive the terminal)"
        )
    if _within_limits(text, limits):
        return
    depth = 0
    for token in _TOKEN.finditer(text):
        kind, start = token.lastgroup, token.start()
        if kind == "open":
            depth += 1
            if depth > limits.depth:
                raise JsonFileError(f"{_place(text, start, line)}: nested over {limits.depth} deep")
        elif kind == "close":
            depth -= 1
        elif kind == "string" and token.end() - start - 2 > limits.string:
            raise JsonFileError(
                f"{_place(text, start, line)}: a text of {token.end() - start - 2:,} characters "
                f"(at most {limits.string:,})"
            )

        elif kind == "constant":
            raise JsonFileError(f"{_place(text, start, line)}: {token[0]} is not a number JSON allows")
        elif kind == "number":
            _check_number(token, text, limits, line)


_MAY_BREAK_A_NUMBER = re.compile(r"NaN|Infinity|[0-9]{16}|[eE][-+]?[0-9]{3}")
"""What a constant JSON refuses, a whole number of more than 15 digits, or a float too long or too large
needs somewhere in a text (`_check_number`: a float's 81 characters hold 16 digits in a row somewhere, and
one past a float's range a long whole part or an exponent of 3 digits)."""


def _within_limits(text: str, limits: Limits) -> bool:
    """Whether `text` is sure to pass the token scan without it: no deeper than its brackets are many, no
    string longer than the text, no number out of bounds. A game log's line is (the scan was a third of
    reading a log back: 1.4 s of 4.2 s for 300 logs)."""
    brackets = text.count("[") + text.count("{")
    return (
        brackets <= limits.depth
        and len(text) <= limits.string
        and limits.digits >= 15
        and not _MAY_BREAK_A_NUMBER.search(text)
    )


def _check_number(token: re.Match[str], text: str, limits: Limits, line: int) -> None:
    number = token[0]
    if token["fraction"]:
        # A float: too many digits to have been written by a program, or too large for a float.
        if len(number) > 2 * SHOWN or not math.isfinite(float(number)):
            raise JsonFileError(
                f"{_place(text, token.start(), line)}: number {short(number)} is out of range"
            )
    elif len(number.lstrip("-")) > limits.digits:
        raise JsonFileError(
            f"{_place(text, token.start(), line)}: a number of {len(number.lstrip('-')):,} digits "
            f"(at most {limits.digits})"
        )


def _place(text: str, pos: int, line: int) -> str:
    lines_before, line_start = text.count("\n", 0, pos), text.rfind("\n", 0, pos)
    return f"line {line + lines_before}, column {pos - line_start}"


def _second_key(text: str, key: str, line: int) -> str:
    """Where `key` is given a second time in one object of `text` (valid JSON, the parser found it)."""
    objects: list[set[str] | None] = []  # the keys of each object open there; None for an array
    for token in _TOKEN.finditer(text):
        kind = token.lastgroup
        if kind == "open":
            objects.append(set() if token[0] == "{" else None)
        elif kind == "close":
            objects.pop()
        elif (
            kind == "string"
            and objects
            and (keys := objects[-1]) is not None
            and _COLON.match(text, token.end())
        ):
            name = json.loads(token[0])
            if name == key and name in keys:
                return _place(text, token.start(), line)
            keys.add(name)
    return f"line {line}"


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    # json keeps the last of two equal keys: a copied line would silently replace a value.
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out
