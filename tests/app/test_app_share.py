"""F6 shares the table's view: the app serves it to the players' phones and shows the address as a QR code;
quitting stops the server."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import stat
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import qrcode
from app_driver import FIXED_NOW, make_app, random_game, saved_game, saved_log
from textual.pilot import Pilot
from textual.screen import Screen

from companion.app import app as app_module
from companion.app import paths, sharing
from companion.app.screens.alhambra_pad import AlhambraPadScreen
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.app.screens.share import ShareScreen
from companion.app.sharing import ServedView, new_token, phone_addresses, qr_lines
from companion.games import carcassonne_dice as cd
from companion.games.alhambra.pad import new_pad
from companion.games.carcassonne_dice.scorefile import log_text
from companion.games.carcassonne_dice.simulate import play_random_game


def test_the_qr_code_draws_every_module_of_the_address() -> None:
    url = "http://192.168.1.20:8000"
    code = qrcode.QRCode(border=2)
    code.add_data(url)
    code.make(fit=True)
    modules = code.get_matrix()
    top = {"█": True, "▀": True, "▄": False, " ": False}
    bottom = {"█": True, "▀": False, "▄": True, " ": False}
    drawn = [row for line in qr_lines(url) for row in ([top[c] for c in line], [bottom[c] for c in line])]
    assert drawn[: len(modules)] == modules


def system_port() -> int:
    with socket.socket() as probe:
        probe.bind(("", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def port_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """F6 serves on a port the system picks, not on 8000 first, which another test run beside this one may
    hold."""
    monkeypatch.setattr(app_module, "free_port", lambda preferred: system_port())


async def served_page(served: ServedView) -> str:
    """The view's page on this machine, once the server answers: it starts in a second or two, more on a
    loaded machine, so it is waited for while it runs; one that ended says why."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            url = f"http://127.0.0.1:{served.port}/?token={served.token}"
            with urllib.request.urlopen(url, timeout=5) as answer:
                return str(answer.read().decode())
        except OSError as exc:
            if served.why_ended():
                raise AssertionError(f"the server ended: {served.why_ended()} (last try: {exc})") from exc
            await asyncio.sleep(0.2)
    raise AssertionError(f"nothing served on port {served.port} in 90 s")


def test_a_key_beginning_with_a_dash_is_served(xdg: Path) -> None:
    """A key begins with "-" one time in 64 (token_urlsafe): `--token -abc` was read as an option, and the
    server ended at once ("argument --token: expected one argument"), failing F6 and a CI run."""
    served = ServedView(system_port(), "-" + new_token())
    try:
        served.serve(None)
        page = asyncio.run(served_page(served))
    finally:
        served.stop()
    assert "<html" in page.lower(), page[:200]


def test_the_next_run_serves_with_the_last_runs_key_and_port(xdg: Path) -> None:
    """Each run of the app served with a new key: after the app crashed, or was quit and started again,
    every phone had to scan the code anew. The key and port are kept, for this user alone; a file that holds
    no key of ours gives a new one, kept in its place."""

    async def share() -> tuple[str, int]:
        app = make_app()
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("f6")
            await pilot.pause()
            assert app.viewers is not None
            served = app.viewers.token, app.viewers.port
            await pilot.press("ctrl+q")
        return served

    first = asyncio.run(share())
    kept = paths.view_address_path()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and json.loads(kept.read_text())["key"] == first[0]
    assert asyncio.run(share()) == first
    kept.write_text('{"key": "guessable", "port": 8000}')
    key, _ = asyncio.run(share())
    assert key != first[0] and json.loads(kept.read_text())["key"] == key


def test_n_gives_the_view_a_new_key_kept_for_the_next_run(xdg: Path) -> None:
    """A key kept from run to run let anyone who once scanned the code watch every later game on the network:
    `n` on the share screen makes a new one (the old address refused), kept in its place."""

    async def share() -> tuple[str, str, int, int]:
        app = make_app()
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("f6")
            await pilot.pause()
            assert app.viewers is not None
            old, port = app.viewers.token, app.viewers.port
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, ShareScreen) and app.viewers is not None
            new = app.viewers.token
            assert app.screen.url is None or f"token={new}" in app.screen.url
            served = old, new, port, app.viewers.port
            await pilot.press("ctrl+q")
        return served

    old, new, port, port_after = asyncio.run(share())
    assert new != old and port_after == port, "the same address but for its key"
    assert json.loads(paths.view_address_path().read_text()) == {"key": new, "port": port}


def test_the_kept_key_replaces_a_link_at_its_place_and_is_this_users_alone(tmp_path: Path) -> None:
    """The key was written through whatever the path named (a link planted there: its target overwritten
    and its mode changed) and readable by every user until its mode was set."""
    target = tmp_path / "precious.txt"
    target.write_text("precious")
    kept = tmp_path / "config" / "view-address.json"
    kept.parent.mkdir()
    kept.symlink_to(target)
    sharing.keep_address(kept, "k" * 16, 8000)
    assert target.read_text() == "precious" and not kept.is_symlink()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and sharing.kept_address(kept) == ("k" * 16, 8000)
    assert [p.name for p in kept.parent.iterdir()] == ["view-address.json"], "no side file left"


def test_a_port_whose_last_connection_waits_out_its_end_is_free_to_serve_on_again() -> None:
    """After the app served phones and quit, its port held connections waiting out their end (TIME_WAIT)
    for a minute: the next run's F6 passed it by for a random port, and the phones on the kept address never
    came back."""
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", 0))
        port = server.getsockname()[1]
        server.listen()
        with socket.create_connection(("127.0.0.1", port)) as phone:
            served, _ = server.accept()
            served.close()  # the server's end closes first, as a server stopped: its side waits
            phone.recv(1)
    assert sharing.free_port(port) == port


def test_f6_serves_the_view_and_shows_its_address(xdg: Path) -> None:
    seen: dict[str, Any] = {}

    async def share() -> None:
        app = make_app()
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("f6")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ShareScreen)
            seen["url"], seen["text"] = screen.url, str(screen.query_one("#url").render())
            assert app.viewers is not None
            seen["port"] = app.viewers.port
            seen["token"] = app.viewers.token
            seen["page"] = await served_page(app.viewers)
            await pilot.press("escape", "f6", "escape")
            seen["servers"] = app.viewers
            await pilot.press("ctrl+q")
        seen["after"] = app.viewers

    asyncio.run(share())
    here = phone_addresses()
    assert here, "this machine is on a network (the test needs one)"
    assert seen["url"] == f"http://{here[0]}:{seen['port']}/?token={seen['token']}", (
        "this machine's address on the network, the port served, the key"
    )
    assert all(f"http://{address}:" in seen["text"] for address in here), "every network's address"
    assert "Table companion" in str(seen["page"])
    server = seen["after"]
    assert server is seen["servers"] and server is not None and server.why_ended(), "stopped on quit"


async def first_screen(served: ServedView) -> str:
    """The first drawing of the view a phone opens, as text (the terminal's escapes left in)."""
    url = f"ws://127.0.0.1:{served.port}/ws/{served.token}?width=100&height=30"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as socket:
        async for message in socket:
            if message.type == aiohttp.WSMsgType.BINARY and len(message.data) > 100:
                return bytes(message.data).decode(errors="replace")
    raise AssertionError("the view closed before drawing")


def test_f6_serves_the_game_on_screen_not_the_newest_log(xdg: Path, port_of_its_own: None) -> None:
    """F6 started `companion serve` without a log, which serves the saved game written to last: a Roll &
    Write game continued beside a newer unfinished Carcassonne game showed the phones the Carcassonne game
    (and with two windows the phones' view flipped between their games)."""
    older = FIXED_NOW.timestamp() - 2 * 3600
    roll_and_write = saved_game(
        random_game(5, ("Ann", "Ben", "Eve"))[:30], "20261123-181500-ann-ben-eve.jsonl"
    )
    os.utime(roll_and_write, (older, older))
    carcassonne_events = play_random_game(cd.GameStarted(("Cleo", "Dan")), random.Random(3))[1][:20]
    carcassonne = saved_log(log_text(carcassonne_events), "20261123-201500-cleo-dan.jsonl")
    seen: dict[str, Any] = {}

    async def share() -> None:
        app = make_app()
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("down", "enter")
            await pilot.pause()
            assert isinstance(app.screen, RollAndWriteScreen) and app.screen.session.path == roll_and_write
            await pilot.press("f6")
            await pilot.pause()
            assert app.viewers is not None
            await served_page(app.viewers)
            seen["drawn"] = await first_screen(app.viewers)
            seen["port"], seen["first"] = app.viewers.port, app.viewers.process
            await pilot.press("escape", "escape")  # the share screen, then the game: back to the start
            await pilot.pause()
            await pilot.press("home", "enter")
            await pilot.pause()
            assert isinstance(app.screen, CarcassonneDiceScreen) and app.screen.session.path == carcassonne
            assert app.viewers.process is not None
            seen["followed"] = app.viewers.process.args
            await pilot.press("f6")
            await pilot.pause()
            assert app.viewers is not None and app.viewers.process is not None
            seen["then"], seen["port then"] = app.viewers.process.args, app.viewers.port
            await pilot.press("ctrl+q")

    asyncio.run(share())
    assert "Roll & Write" in seen["drawn"] and "Carcassonne" not in seen["drawn"]
    assert seen["first"].args[-1] == str(roll_and_write) and seen["first"].poll() is not None
    assert seen["followed"][-1] == str(carcassonne), "the next game opened is served without F6"
    assert seen["then"][-1] == str(carcassonne), "the game now on screen, served anew"
    assert seen["port then"] == seen["port"], "at the address the phones have"


@pytest.mark.parametrize("opened", ["f7", "continued"])
def test_the_alhambra_pad_opened_either_way_is_served(
    xdg: Path, monkeypatch: pytest.MonkeyPatch, port_of_its_own: None, opened: str
) -> None:
    """The pad (F7, or a saved pad continued) was pushed over the start screen without a word to F6's server:
    the phones went on showing the game before it as if it were being played."""
    monkeypatch.setattr(
        ServedView, "_command", lambda self: [sys.executable, "-c", "import time; time.sleep(60)"]
    )
    if opened == "continued":
        new_pad(paths.games_dir(), ["Ann", "Ben"], FIXED_NOW)
    seen: dict[str, Any] = {}

    async def share() -> None:
        app = make_app()
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("f6")
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            assert app.viewers is not None and app.viewers.log is None, "the newest game, none being open"
            await pilot.press(
                *(["down", "enter"] if opened == "continued" else [*"Ann", "tab", *"Ben", "f7"])
            )
            await pilot.pause()
            pad = app.screen
            assert isinstance(pad, AlhambraPadScreen)
            seen["pad"], seen["served"] = pad.path, app.viewers.log
            await pilot.press("ctrl+q")

    asyncio.run(share())
    assert seen["served"] == seen["pad"]


def said(screen: Screen[Any]) -> str:
    """What the share screen says ('' while it is being composed anew: its server started again)."""
    return "".join(str(words.render()) for words in screen.query("#url"))


async def said_until(pilot: Pilot[None], words: str) -> str:
    """The share screen's text once it says `words` (the server starts, or fails to, in a second or two)."""
    deadline = time.monotonic() + 90
    while words not in (text := said(pilot.app.screen)):
        assert time.monotonic() < deadline, f"the share screen never said {words!r}: {text!r}"
        await pilot.pause(0.2)
    return text


def test_a_view_that_is_not_served_says_why_and_f6_serves_it_anew(
    xdg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server F6 starts may end: its port taken by another program since it was chosen, or the server
    stopped. The share screen showed the address and QR code all the same, and phones found nothing there;
    F6 never started it again."""
    taken = socket.socket()
    taken.bind(("", 0))
    taken.listen()
    port = taken.getsockname()[1]
    monkeypatch.setattr(app_module, "free_port", lambda preferred: port)
    seen: dict[str, Any] = {}

    async def share() -> None:
        app = make_app()
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("f6")
            seen["taken"] = await said_until(pilot, "not served")
            seen["qr"] = list(app.screen.query("#qr"))
            taken.close()
            await pilot.press("f6")
            await said_until(pilot, "read-only, on phones")
            assert app.viewers is not None
            seen["page"] = await served_page(app.viewers)
            app.viewers.process.kill()
            seen["killed"] = await said_until(pilot, "not served")
            await pilot.press("ctrl+q")

    try:
        asyncio.run(share())
    finally:
        taken.close()
    assert "another program took each of the 3 ports tried" in seen["taken"], "why, in the app's words"
    assert "--port" not in seen["taken"] and seen["qr"] == [], "no QR code to nowhere"
    assert "Table companion" in seen["page"], "served anew on F6"
    assert "exit status" in seen["killed"]


def test_a_port_taken_before_its_server_listens_is_replaced_unseen(
    xdg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app picks the view's port and its server binds it a moment later: another program (a browser's
    connection, even) may take the port in between. The share screen then said that the view was not served
    and to pick another port with --port, an option the app does not have: the app picks another port."""
    taken = socket.socket()
    taken.bind(("", 0))
    taken.listen()
    port = taken.getsockname()[1]
    picks = iter([port])
    monkeypatch.setattr(app_module, "free_port", lambda preferred: next(picks, None) or system_port())
    seen: dict[str, Any] = {}

    async def share() -> None:
        app = make_app()
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("f6")
            deadline = time.monotonic() + 90
            while app.viewers is None or app.viewers.port == port:
                assert "not served" not in said(app.screen) and time.monotonic() < deadline, said(app.screen)
                await pilot.pause(0.1)
            seen["page"] = await served_page(app.viewers)
            seen["qr"] = list(app.screen.query("#qr"))
            await pilot.press("ctrl+q")

    try:
        asyncio.run(share())
    finally:
        taken.close()
    assert "Table companion" in seen["page"] and len(seen["qr"]) == 1


def test_with_no_network_the_share_screen_says_so_and_f6_looks_again(
    xdg: Path, monkeypatch: pytest.MonkeyPatch, port_of_its_own: None
) -> None:
    """With no network the screen says to join the table's Wi-Fi and press F6 again: that F6 closed the
    screen; it now looks again, and shows the address once the laptop is on a network."""
    networks = ["127.0.0.1"]
    monkeypatch.setattr(sharing, "_interface_addresses", lambda: networks)
    seen: dict[str, Any] = {}

    async def look() -> None:
        app = make_app()
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("f6")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ShareScreen)
            seen["url"], seen["qr"] = screen.url, list(screen.query("#qr"))
            seen["text"] = str(screen.query_one("#url").render())
            networks.append("192.0.2.7")
            await pilot.press("f6")
            await pilot.pause()
            seen["joined"] = str(app.screen.query_one("#url").render())
            seen["qr joined"] = list(app.screen.query("#qr"))
            await pilot.press("ctrl+q")

    asyncio.run(look())
    assert seen["url"] is None and seen["qr"] == []
    assert "on no network but its own" in seen["text"] and "127.0.0.1" not in seen["text"]
    assert "http://192.0.2.7:" in seen["joined"] and len(seen["qr joined"]) == 1


@pytest.mark.parametrize("size", [(80, 24), (110, 34), (40, 40)])
@pytest.mark.parametrize("network", [True, False])
def test_the_share_screen_is_whole_on_the_smallest_terminal(
    xdg: Path, monkeypatch: pytest.MonkeyPatch, port_of_its_own: None, size: tuple[int, int], network: bool
) -> None:
    """At 80×24 the QR code ran off the bottom of the screen, cut (a phone's camera reads no cut code);
    with no network the box showed empty (its words had no width); at 40 columns the box ran one column past
    the screen's edge."""
    if not network:
        monkeypatch.setattr(sharing, "_interface_addresses", lambda: ["127.0.0.1"])
    seen: dict[str, Any] = {}

    async def look() -> None:
        app = make_app()
        async with app.run_test(size=size) as pilot:
            await pilot.press("f6")
            await pilot.pause(0.3)
            screen = app.screen
            assert isinstance(screen, ShareScreen)
            seen["url"] = screen.url
            seen["shown"] = {str(w.id): w.region for w in screen.query("#share, #qr, #url")}
            seen["said"] = str(screen.query_one("#url").render())
            await pilot.press("ctrl+q")

    asyncio.run(look())
    width, height = size
    shown = seen["shown"]
    assert ("qr" in shown) == network, seen["said"]
    for name, region in shown.items():
        assert region.width > 0 and region.right <= width and region.bottom <= height, f"#{name} at {region}"
    if network:
        assert shown["qr"].height == len(qr_lines(seen["url"])), "every line of the code"


class Phone(threading.Thread):
    """A phone watching the view until the server closes it: in a thread of its own, as a phone answers the
    server whatever the app is doing (quitting, the app waits on its server)."""

    def __init__(self, served: ServedView) -> None:
        super().__init__(daemon=True)
        self.url = f"ws://127.0.0.1:{served.port}/ws/{served.token}?width=100&height=30"
        self.watching = threading.Event()
        self.close_code: int | None = None

    def run(self) -> None:
        asyncio.run(self.watch())

    async def watch(self) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(self.url) as socket:
            async for message in socket:
                if message.type == aiohttp.WSMsgType.BINARY and len(message.data) > 100:
                    self.watching.set()
            self.close_code = socket.close_code


def test_quitting_while_a_phone_watches_stops_the_server_at_once(xdg: Path, port_of_its_own: None) -> None:
    """With a phone watching F6's view, quitting hung 10 s, then crashed on the server not ended
    (`TimeoutExpired`, exit status 1): the server waited on the phone's open websocket."""
    seen: dict[str, Any] = {}

    async def share() -> None:
        app = make_app()
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("f6")
            assert app.viewers is not None
            seen["server"] = app.viewers
            await served_page(app.viewers)
            phone = seen["phone"] = Phone(app.viewers)
            phone.start()
            assert await asyncio.to_thread(phone.watching.wait, 60), "the phone sees the view"
            seen["asked"] = time.monotonic()
            await pilot.press("ctrl+q")
        seen["ended"] = time.monotonic()

    asyncio.run(share())
    server, phone = seen["server"], seen["phone"]
    phone.join(timeout=20)
    assert seen["ended"] - seen["asked"] < 20, "quit, not stuck waiting on the server"
    assert server.process.returncode == 0, server.why_ended()
    assert phone.close_code == aiohttp.WSCloseCode.GOING_AWAY, "the phone is told the view is going away"


STUBBORN = """
import signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
open(sys.argv[1], "w").close()
time.sleep(120)
"""
"""A server that does not end when asked (SIGTERM): say one stuck closing its viewers."""


def test_a_server_that_does_not_end_when_asked_is_killed_not_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopping F6's server waited 10 s for it to end, then raised `TimeoutExpired` out of the app's quit."""
    ready = tmp_path / "ready"
    monkeypatch.setattr(ServedView, "_command", lambda self: [sys.executable, "-c", STUBBORN, str(ready)])
    monkeypatch.setattr(sharing, "STOP_WITHIN", 0.5)
    served = ServedView(system_port(), new_token())
    served.serve(None)
    assert served.process is not None
    deadline = time.monotonic() + 60
    while not ready.exists():
        assert time.monotonic() < deadline and served.process.poll() is None, "the stand-in server started"
        time.sleep(0.05)
    try:
        served.stop()
    finally:
        served.process.kill()
        served.process.wait()
    assert served.process.returncode == -signal.SIGKILL
    assert served.why_ended() == f"the server ended (exit status {-signal.SIGKILL})"
