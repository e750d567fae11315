"""`companion serve` as a phone, a stranger and another web page meet it: a real server process on a free
port, spoken to by a real HTTP and websocket client (aiohttp)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from companion.app.sharing import free_port, phone_addresses, view_url
from companion.app.view_server import NEW_KEY, REOPEN, VIEW_CLOSED, VIEW_FAILS
from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.log import write_log
from companion.games.alhambra_rw.simulate import play_random_game

TOKEN = "table-key-7"


@dataclass
class Server:
    process: subprocess.Popen[str]
    port: int
    printed: list[str]

    def url(self, path: str = "/", token: str = TOKEN) -> str:
        return f"http://127.0.0.1:{self.port}{path}?token={token}"

    def ws(self, token: str = TOKEN) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{token}?width=80&height=24"

    def children(self) -> list[int]:
        """The processes this server started (a view per browser)."""
        return _children(self.process.pid)


def _children(parent: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == parent:
            found.append(int(stat.parent.name))
    return found


def _gone(pid: int) -> bool:
    """Ended (a zombie left for whoever adopted it is ended too)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _game_being_played(folder: Path) -> Path:
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Ann", "Ben", "Cleo"))
    log = folder / "playing.jsonl"
    write_log(log, play_random_game(setup, random.Random(2))[1][:20])
    return log


@contextmanager
def serving(tmp_path: Path, host: str = "127.0.0.1", max_viewers: int = 1) -> Iterator[Server]:
    """`companion serve` of a game being played, on `host` and a free port."""
    log = _game_being_played(tmp_path)
    port = free_port(0)
    command = [sys.executable, "-m", "companion", "serve", "--host", host, "--port", str(port)]
    command += ["--token", TOKEN, "--max-viewers", str(max_viewers), str(log)]
    environment = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        env=environment,
    )
    served = Server(process, port, [])
    try:
        assert process.stdout is not None
        for line in process.stdout:
            served.printed.append(line)
            if "ctrl+c stops" in line:
                break
        _wait_listening(port)
        yield served
    finally:
        if process.poll() is None:
            process.terminate()
        rest, _ = process.communicate(timeout=20)
        served.printed.append(rest)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """`companion serve` of a game being played, on 127.0.0.1, for one viewer at a time."""
    with serving(tmp_path) as served:
        yield served


def _wait_listening(port: int) -> None:
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}")


async def _status(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        return answer.status, await answer.text()


async def _refused(url: str, origin: str | None = None) -> int:
    """The HTTP status a websocket handshake to `url` is refused with (0 if it is accepted)."""
    headers = {} if origin is None else {"Origin": origin}
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(url, headers=headers):
                return 0
        except aiohttp.WSServerHandshakeError as exc:
            return exc.status


async def _first_screen(socket: aiohttp.ClientWebSocketResponse) -> bytes:
    """The view's first drawing, as the browser receives it."""
    async for message in socket:
        if message.type == aiohttp.WSMsgType.BINARY and len(message.data) > 100:
            return bytes(message.data)
    raise AssertionError("the view closed before drawing")


def test_only_the_address_with_its_key_opens_the_view(server: Server) -> None:
    async def visit() -> None:
        status, page = await _status(server.url())
        assert status == 200 and f"ws://127.0.0.1:{server.port}/ws/{TOKEN}" in page
        # A phone lays the page out at its own width (not 980 px) so the view's terminal fits its screen.
        assert '<meta name="viewport" content="width=device-width' in page
        for url in (f"http://127.0.0.1:{server.port}/", server.url(token="guess")):
            status, page = await _status(url)
            assert status == 403 and "needs the address with its key" in page
            # Only F6 shows a QR code: the page had those who ran `companion serve` scan one.
            assert "as printed by `companion serve` or shown by F6" in page and "QR" not in page
        assert await _refused(server.ws(token="guess")) == 403
        assert await _refused(f"ws://127.0.0.1:{server.port}/ws") == 403

    asyncio.run(visit())
    assert f"http://127.0.0.1:{server.port}/?token={TOKEN}" in "".join(server.printed)


def test_a_page_whose_view_closed_says_why_and_opens_it_again_by_itself(server: Server) -> None:
    """The page ended on textual-serve's "Session ended." at every game the app opened after the first (its
    server started anew at the same address), so the phones followed the table only once tapped. Its script
    watches the page's `-closed` class (set by textual-serve's script) and rewrites the closed dialog's
    message: the page must still have both, or the script watches for nothing (a Chromium run of the page
    is in the journal, 2026-12-02)."""

    async def visit() -> tuple[str, str]:
        _, page = await _status(server.url())
        script = f"http://127.0.0.1:{server.port}/static/js/textual.js"
        async with aiohttp.ClientSession() as session, session.get(script) as answer:
            return page, await answer.text()

    page, script = asyncio.run(visit())
    head = page[: page.index("</head>")]
    assert REOPEN in head and all(words in REOPEN for words in (VIEW_CLOSED, NEW_KEY, VIEW_FAILS))
    assert '"-closed"' in script, "textual-serve's script marks a closed view so"
    dialog = r'closed-dialog">\s*<div class="shade"></div>\s*<div class="intro">\s*<div class="message">'
    assert re.search(dialog, page), "the message the script rewrites"


FONT = "/static/fonts/RobotoMono-VariableFont_wght.ttf"
"""textual-serve ships the font its page asked Google for."""


def test_the_page_loads_nothing_from_elsewhere_lists_no_folder_and_is_kept_private(server: Server) -> None:
    """textual-serve's page loaded its font from Google (each phone asked Google, and waited on a table's
    network without internet), with the key in the address as the referrer; it could be cached; and its
    static folders were listed to anyone."""

    async def visit() -> tuple[aiohttp.ClientResponse, str, dict[str, tuple[int, str]]]:
        async with aiohttp.ClientSession() as session:
            async with session.get(server.url()) as page:
                text = await page.text()
            files = {}
            for path in ("/static/", "/static/js/", "/static/js/textual.js", FONT):
                async with session.get(f"http://127.0.0.1:{server.port}{path}") as answer:
                    files[path] = answer.status, (await answer.read())[:2000].decode(errors="replace")
        return page, text, files

    page, text, files = asyncio.run(asyncio.wait_for(visit(), 60))
    assert page.status == 200 and "googleapis" not in text
    assert f"url({FONT})" in text, "the font is this server's own"
    assert page.headers["Referrer-Policy"] == "no-referrer" and page.headers["Cache-Control"] == "no-store"
    for folder in ("/static/", "/static/js/"):
        status, said = files[folder]
        assert status in (403, 404) and "textual.js" not in said and "Index of" not in said
    # Scripts, styles and the font are textual-serve's, nothing of the game: no key needed.
    assert files["/static/js/textual.js"][0] == 200 and files[FONT][0] == 200


def test_a_websocket_from_another_page_is_refused(server: Server) -> None:
    async def visit() -> tuple[int, int]:
        stranger = await _refused(server.ws(), origin="http://games.example")
        own = f"http://127.0.0.1:{server.port}"
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(server.ws(), headers={"Origin": own}) as socket,
        ):
            screen = await _first_screen(socket)
        return stranger, len(screen)

    stranger, drawn = asyncio.run(visit())
    assert stranger == 403
    assert drawn > 100, "the view's own page is let in and drawn to"


def test_one_viewer_too_many_gets_a_page_saying_it_is_full(server: Server) -> None:
    async def visit() -> tuple[tuple[int, str], int, tuple[int, str]]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.ws()) as socket:
            await _first_screen(socket)
            full_page = await _status(server.url())
            full_socket = await _refused(server.ws())
        # The first viewer has gone: its place is free again once its view has quit.
        for _ in range(200):
            after = await _status(server.url())
            if after[0] != 503:
                break
            await asyncio.sleep(0.1)
        return full_page, full_socket, after

    (status, page), socket_status, after = asyncio.run(visit())
    assert status == 503 and "full: 1 screen is watching it" in page
    assert socket_status == 503
    assert after[0] == 200


def test_a_plain_get_of_the_websocket_is_one_line_not_a_traceback(server: Server) -> None:
    async def visit() -> list[tuple[int, str]]:
        return [await _status(f"http://127.0.0.1:{server.port}/ws/{TOKEN}"), await _status(server.url("/ws"))]

    answers = asyncio.run(visit())
    server.process.terminate()
    server.process.wait(timeout=20)
    assert [status for status, _ in answers] == [400, 403]
    assert "open the page's address instead" in answers[0][1].replace("&#x27;", "'")
    rest = server.process.stdout.read() if server.process.stdout else ""
    # A line a request showed the key to whoever looked at the terminal, and a scanner on the network
    # filled it: requests are not logged.
    assert "GET /" not in rest and TOKEN not in rest
    assert "Traceback" not in rest and "Error" not in rest


def test_the_views_end_with_a_server_killed_at_once(server: Server) -> None:
    async def watch() -> list[int]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.ws()) as socket:
            await _first_screen(socket)
            views = server.children()
            assert views, "a view runs for the browser"
            server.process.send_signal(signal.SIGKILL)
            server.process.wait(timeout=20)
            return views

    views = asyncio.run(watch())
    for _ in range(200):
        if all(_gone(pid) for pid in views):
            break
        time.sleep(0.1)
    assert all(_gone(pid) for pid in views), "no view outlives its server"


APP = """
import sys
from companion.app.sharing import ServedView

served = ServedView(int(sys.argv[1]), "table-key-7")
served.serve(None)
print(served.process.pid, flush=True)
sys.stdin.read()
"""
"""The app's F6, as far as its server goes: it serves the view and waits, until it is killed."""


def test_a_server_the_app_started_ends_with_the_app_killed_at_once(tmp_path: Path) -> None:
    """After a crash of the app (kill -9) the server F6 started kept listening on every network; the next
    F6 quietly took another port."""
    port = free_port(0)
    environment = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    command = [sys.executable, "-c", APP, str(port)]
    app = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=environment)
    assert app.stdout is not None
    server = int(app.stdout.readline())
    try:
        _wait_listening(port)
        app.send_signal(signal.SIGKILL)
        app.wait(timeout=20)
        for _ in range(100):
            if _gone(server):
                break
            time.sleep(0.1)
        assert _gone(server), "the server outlived the app"
    finally:
        if not _gone(server):
            os.kill(server, signal.SIGKILL)
        app.kill()
        app.communicate(timeout=20)


def test_a_phone_is_never_offered_loopback() -> None:
    addresses = phone_addresses()
    assert not any(a.startswith("127.") for a in addresses)
    assert phone_addresses("127.0.0.1") == [] and phone_addresses("localhost") == []
    assert phone_addresses("192.168.1.20") == ["192.168.1.20"]
    shown = subprocess.run(["ip", "-o", "-4", "addr"], capture_output=True, text=True, check=False).stdout
    if not shown:
        pytest.skip("no `ip` command to compare the interfaces with")
    expected = [line.split()[3].split("/")[0] for line in shown.splitlines()]
    assert sorted(addresses) == sorted(a for a in dict.fromkeys(expected) if not a.startswith("127."))


def test_a_port_taken_or_out_of_range_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    """A second `companion serve` on the same port (or another program there) printed aiohttp's traceback."""
    environment = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}

    def serve(*options: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "companion", "serve", *options]
        return subprocess.run(command, capture_output=True, text=True, env=environment, timeout=60)

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve("--host", "127.0.0.1", "--port", str(port))
    assert done.returncode == 2 and not done.stdout, done.stdout
    assert done.stderr == (
        f"companion serve: cannot listen on 127.0.0.1, port {port}: Address already in use (another program"
        " listens there: pick another port with --port)\n"
    )
    done = serve("--port", "99999")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.endswith("argument --port: '99999' is not a port: a whole number from 1 to 65535\n")


def test_a_log_not_there_or_a_key_no_address_carries_is_refused_before_listening(tmp_path: Path) -> None:
    """`serve` printed its addresses for a mistyped LOG, each phone then seeing the error; a key with a space
    was printed into the address as it was, which no phone opens."""
    environment = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}

    def serve(*options: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "companion", "serve", "--port", "1", *options]
        return subprocess.run(command, capture_output=True, text=True, env=environment, timeout=60)

    missing = tmp_path / "gmae.jsonl"
    done = serve(str(missing))
    assert (done.returncode, done.stdout, done.stderr) == (
        2,
        "",
        f"companion serve: {missing}: no such game log\n",
    )
    for key in ("a b", "", "ключ"):
        done = serve("--token", key)
        assert done.returncode == 2 and not done.stdout
        assert done.stderr.endswith(
            f"argument --token: {key!r} is not a key: 1 to 100 letters, digits, - _ . ~\n"
        )


def test_an_ipv6_address_is_bracketed_in_the_views_address() -> None:
    assert view_url("::1", 8000, "k") == "http://[::1]:8000/?token=k"
    assert view_url("192.168.1.20", 8000, "k") == "http://192.168.1.20:8000/?token=k"


def _ended_within(process: subprocess.Popen[str], deadline: float) -> int | None:
    """The exit status of `process` once it ends, waited for until `deadline` (time.monotonic); None if it
    still runs then."""
    while process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return process.poll()


def _all_gone(pids: list[int], deadline: float) -> bool:
    while not all(_gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return all(_gone(pid) for pid in pids)


def test_a_server_asked_to_stop_closes_its_viewers_and_ends_at_once(server: Server) -> None:
    """With a phone watching, `serve` took some 23 s to end after SIGTERM (aiohttp waited on the open
    websocket): F6's server outlived the 10 s the app gives it on quit, and the app crashed."""

    async def watch() -> tuple[int | None, list[int], float]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.ws()) as socket:
            await _first_screen(socket)
            views = server.children()
            asked = time.monotonic()
            server.process.terminate()
            async for _ in socket:  # until the server closes it
                pass
            return socket.close_code, views, asked

    code, views, asked = asyncio.run(asyncio.wait_for(watch(), 60))
    assert views, "a view ran for the browser"
    assert code == aiohttp.WSCloseCode.GOING_AWAY, "the phone is told the server is going away"
    assert _ended_within(server.process, asked + 20) == 0, "the server ended at once, and cleanly"
    assert _all_gone(views, asked + 20), "its views ended with it"


def test_a_view_asked_for_a_huge_terminal_is_not_left_running(server: Server) -> None:
    """The browser's resize message was passed on as it was (the page's query is fitted to a screen): at
    3000 by 3000 cells the frame failed to reach a browser that had gone, and its view (some 180 MB) was
    left running with its place freed, any number of them."""

    async def watch() -> list[int]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.ws()) as socket:
            await _first_screen(socket)
            views = server.children()
            await socket.send_str(json.dumps(["resize", {"width": 3000, "height": 3000}]))
            async for message in socket:
                if message.type == aiohttp.WSMsgType.BINARY and len(message.data) > 100_000:
                    break  # drawn at the size it was given: the browser leaves
            return views

    views = asyncio.run(asyncio.wait_for(watch(), 60))
    assert views, "a view ran for the browser"
    assert _all_gone(views, time.monotonic() + 20), "no view outlives its browser"


def test_a_view_whose_browser_went_mid_frame_is_killed_when_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopping a view awaited its output task, which had failed sending a frame to a browser gone: the
    error left the view's process running, unread, until the server ended."""
    from textual_serve.download_manager import DownloadManager

    from companion.app.view_server import ViewProcess

    log = _game_being_played(tmp_path)
    lifeline, held = os.pipe()

    async def watch() -> int | None:
        went = asyncio.Event()

        async def browser_gone(data: bytes) -> None:
            went.set()
            raise ConnectionError("Connection lost")  # aiohttp's, once a browser's connection is lost

        async def nothing(*_: object) -> None:
            return None

        argv = [sys.executable, "-m", "companion", "view", str(log)]
        view = ViewProcess(
            argv, lifeline, write_bytes=browser_gone, write_str=nothing, close=nothing,
            download_manager=DownloadManager(),
        )  # fmt: skip
        await view.start(80, 24)
        await asyncio.wait_for(went.wait(), 60)
        process = view._process
        assert process is not None
        await asyncio.wait_for(view.stop(), 20)
        return process.returncode

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    try:
        status = asyncio.run(watch())
    finally:
        os.close(held)
        os.close(lifeline)
    assert status is not None, "the view's process ended"


def _browser_not_reading(port: int) -> socket.socket:
    """A websocket client that opens the view at its biggest and has it redraw at about that size for 2 s,
    never reading what it draws: the frames fill all that lies between the view and the client."""
    connection = socket.socket()
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall(
        f"GET /ws/{TOKEN}?width=1000&height=1000 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    assert connection.recv(12) == b"HTTP/1.1 101", "the view's websocket is open"
    for size in [1000, 999] * 10:
        try:
            connection.sendall(_browsers_frame(json.dumps(["resize", {"width": size, "height": size}])))
        except (ConnectionResetError, BrokenPipeError):
            break  # the server cut it meanwhile
        time.sleep(0.1)
    return connection


def _browsers_frame(text: str) -> bytes:
    """A short `text` in a websocket frame as a browser sends it (masked)."""
    data = text.encode()
    assert len(data) < 126, "its length fits the frame's first byte of length"
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def test_a_browser_that_never_read_frees_its_place_once_gone(server: Server) -> None:
    """A client that sent without reading, then went, left its view blocked writing to it for good and its
    place taken: the page said the view was full until the server was killed."""
    connection = _browser_not_reading(server.port)
    views = server.children()
    connection.close()
    went = time.monotonic()

    async def place_free() -> bool:
        while time.monotonic() < went + 10:
            if (await _status(server.url()))[0] == 200:
                return True
            await asyncio.sleep(0.1)
        return False

    assert views, "a view ran for the client"
    assert _all_gone(views, went + 10), "its view ended"
    assert asyncio.run(place_free()), "its place is free again"


def test_a_server_asked_to_stop_ends_at_once_with_a_browser_not_reading(server: Server) -> None:
    """With a client that sent without reading still connected, `serve` went on for a minute after SIGTERM,
    answering nothing (aiohttp waited on the request blocked with its view), then ended with its view
    still running."""
    connection = _browser_not_reading(server.port)
    try:
        views = server.children()
        asked = time.monotonic()
        server.process.terminate()
        assert _ended_within(server.process, asked + 6) == 0, "the server ended at once, and cleanly"
        assert views and _all_gone(views, asked + 6), "its view ended with it"
    finally:
        connection.close()


def test_a_browser_that_stops_reading_has_its_view_stopped_and_its_place_freed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client that stays connected but reads nothing (a phone whose page hangs) held its view blocked and
    its place for good: aiohttp's heartbeat closing its websocket waited on the client to take in what was
    left to send first."""
    from companion.app import view_server

    monkeypatch.setattr(view_server, "SEND_WITHIN", 0.5)  # the server's 10 s, shortened for the test
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    log = _game_being_played(tmp_path)
    served = view_server.ViewServer(
        [sys.executable, "-m", "companion", "view", str(log)], "127.0.0.1", 0, TOKEN, max_viewers=1
    )

    async def watch() -> tuple[bool, bool, list[int]]:
        runner = web.AppRunner(await served._make_app())
        await runner.setup()
        port = free_port(0)
        await web.TCPSite(runner, "127.0.0.1", port).start()
        connection = await asyncio.to_thread(_browser_not_reading, port)
        try:
            # Room for a busy machine: its view is a fresh process that must start and block first (on a
            # loaded 2-core CI run that took over 10 s once).
            deadline = time.monotonic() + 40
            while served.viewers and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            return not served.viewers, await asyncio.to_thread(_ends, connection), _children(os.getpid())
        finally:
            connection.close()
            await runner.cleanup()

    try:
        freed, cut, views = asyncio.run(asyncio.wait_for(watch(), 90))
    finally:
        os.close(served.lifeline)
        os.close(served._lifeline_held)
    assert freed, "its place was freed while it stayed connected"
    assert cut, "its connection was cut"
    assert all(_gone(pid) for pid in views), "its view was stopped"


def _ends(connection: socket.socket) -> bool:
    """Whether the server ends `connection` (within 5 s), what it sent read and dropped."""
    connection.settimeout(5)
    try:
        while connection.recv(1 << 16):
            pass
    except ConnectionResetError:
        pass  # cut, what was left to read with it
    except TimeoutError:
        return False
    return True


NOT_A_MESSAGE = [
    "[" * 200_000 + "]" * 200_000,  # deeper than Python's JSON decoder goes: RecursionError
    '["resize", {}]',
    '["resize", 5]',
    '["resize", {"width": "wide", "height": 9}]',
    "[]",
    '["stdin", 5]',
    '{"resize": 1}',
    "not json",
]


def test_what_is_not_a_views_message_or_request_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    """A message textual's page never sends (`["resize", {}]`) printed some 45 lines of traceback on the
    terminal, as did a 100 KB address or header (aiohttp's LineTooLong, answered 400 all the same); and
    each request was logged with its key."""
    with serving(tmp_path, max_viewers=len(NOT_A_MESSAGE)) as server:

        async def visit() -> tuple[list[bool], list[int]]:
            closed = []
            async with aiohttp.ClientSession() as session:
                for text in NOT_A_MESSAGE:
                    async with session.ws_connect(server.ws()) as socket:
                        await _first_screen(socket)
                        await socket.send_str(text)
                        async for _ in socket:  # until the server closes it
                            pass
                        closed.append(socket.closed)
            statuses = []
            long = "x" * 100_000
            for headers, url in (({}, server.url() + "&pad=" + long), ({"X-Pad": long}, server.url())):
                async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as answer:
                    statuses.append(answer.status)
            return closed, statuses

        closed, statuses = asyncio.run(asyncio.wait_for(visit(), 120))
        server.process.terminate()
        rest, _ = server.process.communicate(timeout=20)
    assert closed == [True] * len(NOT_A_MESSAGE), "each view closed"
    assert statuses == [400, 400]
    lines = rest.splitlines()
    assert "Traceback" not in rest and TOKEN not in rest, rest[-3000:]
    assert all(len(line) < 200 for line in lines), rest[-3000:]
    said = [line for line in lines if "not a view's message" in line]
    assert len(said) == len(NOT_A_MESSAGE), rest[-3000:]


def _can_listen_on_ipv6() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _can_listen_on_ipv6(), reason="no IPv6 on this machine")
def test_serving_on_every_ipv6_network_is_every_network(tmp_path: Path) -> None:
    """`--host ::` printed `http://[::]:P/`, an address no phone opens, and listened on IPv6 alone: a phone
    on the table's (IPv4) network could not connect."""
    with serving(tmp_path, host="::") as server:

        async def visit() -> list[int]:
            statuses = []
            for host in ("127.0.0.1", "[::1]"):
                status, _ = await _status(f"http://{host}:{server.port}/?token={TOKEN}")
                statuses.append(status)
            return statuses

        statuses = asyncio.run(asyncio.wait_for(visit(), 60))
    printed = "".join(server.printed)
    assert statuses == [200, 200], "IPv4 and IPv6 alike"
    assert f"listening on every network of this machine, port {server.port}" in printed
    assert "[::]" not in printed
    phones = phone_addresses()
    assert phone_addresses("::") == phones
    assert all(view_url(a, server.port, TOKEN) in printed for a in phones), printed
