"""Damaged copies of good files, as a user's disk, editor or keyboard makes them, for the fuzz tests.

`damaged(good)` draws one damage to the bytes of a good JSON file (or to one line of a game log): a flipped
bit, bytes cut, inserted or repeated, the file cut short, or a change to one value of the parsed JSON: a key
misspelt, dropped, repeated or added, a value swapped for one of the wrong type or of an absurd size (nesting
thousands deep, thousands of digits, 10^400, NaN, a 200,000-character string, a name that drives the
terminal). A third of the damages drop or
misspell one key, at any depth (of one event line of a log); `every_dropped_key` lists every key dropped in
turn, the damage a default value hides.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from hypothesis import strategies as st

from jsonfile import control_character

HUGE_VALUES = (
    "[" * 5000 + "]" * 5000,
    '{"a":' * 990 + "1" + "}" * 990,
    "[" * 25 + "]" * 25,
    "1" + "0" * 5000,
    "-" + "9" * 4301,
    "100000000000000000000",
    "1e400",
    "-1e400",
    "NaN",
    "Infinity",
    "1." + "5" * 5000,
    '"' + "x" * 200_000 + '"',
    '"' + "\\u00e9" * 60 + '"',
    '"Ann\\u001b]0;owned\\u0007\\u001b[2J"',
    '"Ben\\u009b2J\\n"',
)
"""Raw JSON text (or almost JSON) that no good file holds; each once made a command crash or misbehave."""

ODD_VALUES: tuple[object, ...] = (None, True, False, 0, -1, 3, 2.5, "", "X", [], {}, [1, 2], {"a": 1})


@dataclass(frozen=True)
class Damage:
    """Damaged bytes and what was done (shown when a test fails)."""

    data: bytes
    what: str

    def __repr__(self) -> str:
        return f"Damage({self.what!r}, {len(self.data):,} bytes)"


def _flip(data: bytes, at: int, bit: int) -> bytes:
    at %= len(data)
    return data[:at] + bytes([data[at] ^ (1 << bit)]) + data[at + 1 :]


@st.composite
def byte_damage(draw: st.DrawFn, good: bytes) -> Damage:
    """One damage to the bytes themselves."""
    at = draw(st.integers(0, len(good) - 1))
    span = draw(st.integers(1, 40))
    kind = draw(st.sampled_from(["flip", "cut", "insert", "repeat", "truncate", "replace"]))
    if kind == "flip":
        bit = draw(st.integers(0, 7))
        return Damage(_flip(good, at, bit), f"bit {bit} of byte {at} flipped")
    if kind == "cut":
        return Damage(good[:at] + good[at + span :], f"{span} bytes cut at {at}")
    if kind == "insert":
        junk = draw(st.binary(min_size=1, max_size=20))
        return Damage(good[:at] + junk + good[at:], f"{junk!r} inserted at {at}")
    if kind == "repeat":
        return Damage(good[: at + span] + good[at:], f"{span} bytes repeated at {at}")
    if kind == "truncate":
        return Damage(good[:at], f"cut short at {at}")
    byte = draw(st.integers(0, 255))
    return Damage(good[:at] + bytes([byte]) + good[at + 1 :], f"byte {at} set to {byte}")


def _places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _places(item, (*path, i))


MARK = "\u0000RAW\u0000"
"""A string put where raw text goes once the value is written as JSON."""


def _put(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return data


@st.composite
def value_damage(draw: st.DrawFn, good: Any, indent: int | None) -> Damage:
    """One damage to one place of a parsed JSON value, written back as JSON text."""
    path = draw(st.sampled_from(list(_places(good))))
    data = json.loads(json.dumps(good))
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    where = "/".join(map(str, path))
    kind = draw(st.sampled_from(["huge", "odd", "rename", "drop", "add", "repeat"]))
    raw = None
    if kind == "huge":
        raw = draw(st.sampled_from(HUGE_VALUES))
        data, what = _put(data, path, MARK), f"{where} = {raw[:20]}… ({len(raw)} characters)"
    elif kind == "odd" or not path:
        odd = draw(st.sampled_from(ODD_VALUES))
        data, what = _put(data, path, odd), f"{where} = {odd!r}"
    elif isinstance(parent, dict):
        key = path[-1]
        if kind in ("rename", "drop"):
            i = draw(st.integers(0, max(0, len(key) - 1)))
            what = _key_damaged(parent, key, where, kind, i)
        elif kind == "add":
            parent["note" if key != "note" else "extra"] = 1
            what = f"a key added beside {key!r}"
        else:
            pairs = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in [*parent.items(), (key, parent[key])]]
            raw = "{" + ", ".join(pairs) + "}"
            data, what = _put(data, path[:-1], MARK), f"key {key!r} given twice"
    elif kind == "drop":
        del parent[path[-1]]
        what = f"item {where} dropped"
    else:
        parent.insert(path[-1], parent[path[-1]])
        what = f"item {where} repeated"
    text = _dump(data, indent)
    if raw is not None:
        text = text.replace(json.dumps(MARK), raw)
    return Damage(text.encode(), what)


def _key_damaged(parent: dict[str, Any], key: str, where: str, kind: str, i: int) -> str:
    """Drop `key` from `parent`, or rename it (the case of its `i`th character turned); what was done."""
    if kind == "drop":
        del parent[key]
        return f"key {where!r} dropped"
    new = key[:i] + chr(ord(key[i]) ^ 32) + key[i + 1 :] if key else "x"
    parent[new] = parent.pop(key)
    return f"key {where!r} misspelt as {new!r}"


def _key_places(value: Any) -> list[tuple[Any, ...]]:
    """The places of `value` that are an object's key, at any depth."""
    found = []
    for path in _places(value):
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        if path and isinstance(parent, dict):
            found.append(path)
    return found


def key_damaged(good: Any, path: tuple[Any, ...], kind: str, indent: int | None, i: int = 0) -> Damage:
    """`good` with the key at `path` dropped or renamed (`kind`), written as JSON text."""
    data = json.loads(json.dumps(good))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    what = _key_damaged(parent, path[-1], "/".join(map(str, path)), kind, i)
    return Damage(_dump(data, indent).encode(), what)


@st.composite
def key_damage(draw: st.DrawFn, good: Any, indent: int | None) -> Damage:
    """One key of an object, at any depth, dropped or misspelt."""
    places = _key_places(good)
    if not places:
        return draw(value_damage(good, indent))
    path = draw(st.sampled_from(places))
    kind = draw(st.sampled_from(["drop", "rename"]))
    return key_damaged(good, path, kind, indent, draw(st.integers(0, max(0, len(str(path[-1])) - 1))))


def every_dropped_key(good: Any, indent: int | None = 2) -> list[Damage]:
    """`good` with each of its keys dropped in turn, at any depth: the damage that a default can hide."""
    return [key_damaged(good, path, "drop", indent) for path in _key_places(good)]


def every_dropped_log_key(lines: list[bytes]) -> list[Damage]:
    """A game log with each key of each line dropped in turn."""
    damages = []
    for n, line in enumerate(lines):
        for damage in every_dropped_key(json.loads(line), None):
            data = b"\n".join([*lines[:n], damage.data, *lines[n + 1 :]]) + b"\n"
            damages.append(Damage(data, f"line {n + 1}: {damage.what}"))
    return damages


def cases_line(drawn: int, dropped: int) -> str:
    """What a fuzz test ran, printed for the report (`pytest -rP tests/fuzz`)."""
    return f"{drawn + dropped:,} cases: {drawn:,} damaged copies drawn, {dropped:,} with one key dropped"


def _dump(data: Any, indent: int | None) -> str:
    return json.dumps(data, indent=indent, ensure_ascii=False)


def damaged_json(good: Any, indent: int | None = 2) -> st.SearchStrategy[Damage]:
    """A damaged copy of the JSON value `good` as a file: bytes, a value or a key (dropped or misspelt, at any
    depth) damaged."""
    text = _dump(good, indent).encode()
    return st.one_of(byte_damage(text), value_damage(good, indent), key_damage(good, indent))


def damaged_log(lines: list[bytes]) -> st.SearchStrategy[Damage]:
    """A damaged copy of a game log: one line damaged (bytes, a value, or a key of its event dropped or
    misspelt), or the bytes of the whole file."""

    @st.composite
    def one_line(draw: st.DrawFn) -> Damage:
        n = draw(st.integers(0, len(lines) - 1))
        event = json.loads(lines[n])
        line = draw(st.one_of(byte_damage(lines[n]), value_damage(event, None), key_damage(event, None)))
        data = b"\n".join([*lines[:n], line.data, *lines[n + 1 :]]) + b"\n"
        return Damage(data, f"line {n + 1}: {line.what}")

    return st.one_of(one_line(), byte_damage(b"\n".join(lines) + b"\n"))


def shape(value: Any) -> Any:
    """The keys and types of a JSON value, without the values: a list's shape is the distinct shapes of its
    items, so two files of one shape differ only in what a good file could also hold (other numbers, names,
    marks, one player fewer)."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        items: list[Any] = []
        for v in value:
            if (s := shape(v)) not in items:
                items.append(s)
        return items
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "number"  # JSON has one kind of number: 0 for 0.1 is another value
    return type(value).__name__


def parsed_shape(data: bytes) -> tuple[str, Any] | None:
    """("file", `shape` of its JSON value) or ("log", each line's); None where the text is not JSON."""
    try:
        return "file", shape(json.loads(data))
    except ValueError:
        try:
            # Lines as the log reader takes them: a carriage return inside one is JSON's blank, no line end.
            return "log", [shape(json.loads(line)) for line in data.split(b"\n") if line.strip()]
        except ValueError:
            return None


def fits(a: Any, b: Any) -> bool:
    """A value of shape `a` is one a file of shape `b` could also hold: the same keys and types, each item of
    its lists fitting one of `b`'s, perhaps fewer items or none (a player holding no VP tile yet), at any
    depth."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(fits(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return all(any(fits(x, y) for y in b) for x in a)
    return bool(a == b)


def same_shape(damaged: bytes, good: bytes) -> bool:
    """The damaged file could be a good one (`fits`), line by line for a log."""
    a, b = parsed_shape(damaged), parsed_shape(good)
    if a is None or b is None or a[0] != b[0]:
        return False
    if a[0] == "log":
        return len(a[1]) == len(b[1]) and all(fits(x, y) for x, y in zip(a[1], b[1], strict=True))
    return fits(a[1], b[1])


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


class Hang(Exception):
    pass


T = TypeVar("T")


def within(seconds: int, call: Callable[[], T]) -> T:
    """`call()`; one that takes `seconds` is a hang (`Hang`)."""

    def hang(signum: int, frame: object) -> None:
        raise Hang(f"{call} ran for {seconds} s")

    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(seconds)
    try:
        return call()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run_main(main: Callable[[list[str]], int], argv: list[str], seconds: int = 30) -> Run:
    """`main(argv)` in this process with its output captured; a call that takes `seconds` is a hang."""
    out, err = io.StringIO(), io.StringIO()

    def run() -> int:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            return main(argv)

    code = within(seconds, run)
    return Run(code, out.getvalue(), err.getvalue())


MAX_LINE = 200
"""An error line's length at most, not counting the file's path (a user's paths may be long)."""


def assert_one_error_line(err: str, prefix: str, path: str) -> None:
    """`err` is one line: `prefix`, the file, and a reason of at most MAX_LINE characters."""
    assert "Traceback" not in err, err
    assert not control_character(err.rstrip("\n")), f"the terminal was sent a control character: {err!r}"
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{prefix}{path}"), err
    assert len(lines[0].replace(path, "")) <= MAX_LINE, err


def alcazaba_log(seed: int = 0) -> bytes:
    """A whole game of the Alcazaba variant (2 players and Dirk) by the random player, written as its log."""
    from companion.games.alhambra_dice.events import LOG_FORMAT, GameStarted
    from companion.games.alhambra_dice.simulate import play_random_game
    from companion.games.eventlog import log_text

    _, events = play_random_game(GameStarted(("Ann", "Ben"), "alcazaba"), random.Random(seed))
    return log_text(events, LOG_FORMAT.encode).encode()
