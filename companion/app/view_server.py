"""`companion serve`: textual-serve's server, fenced for a table's phones.

textual-serve runs one `companion view` per browser that opens its websocket. Around that this server
- lets in only who has the address with its key (`?token=`; a page of its own, then the websocket at
  /ws/TOKEN): anyone else on the network gets a plain 403 page;
- refuses a websocket opened from another web page (its Origin is not this server), so a page elsewhere
  cannot drive a view in a visitor's browser;
- runs at most `max_viewers` views at once (each is a process), with a plain page saying so when full;
- answers a plain GET of the websocket's address with one line, not textual-serve's logged traceback;
- serves textual-serve's scripts, styles and font to anyone (nothing of the game), no folder listed, and a
  page that fetches nothing from elsewhere (a table's network may have no internet), is not kept in a
  cache, and gives no other site its address (the key) as the referrer;
- starts each view itself (no shell) holding the read end of a pipe whose write end only this server
  holds: when the server ends, even killed at once, each view reads the pipe's end and quits
  (`sharing.end_with_server`);
- started by the app (F6), ends with the app in the same way, even one killed at once;
- asked to stop (ctrl+c, SIGTERM), closes each browser's websocket ("going away") and stops its view, so
  it ends in a second or two, not once aiohttp gives up waiting on the websockets;
- never leaves a view running without its browser: a view that cannot be stopped is killed, as is one whose
  browser stopped reading (its connection is cut) or went;
- says what goes wrong in a line each, on its output, and no line per request (each address carries the
  key, and a scanner on the network would fill the terminal).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import re
import shlex
import sys
from collections.abc import Awaitable, Callable
from html import escape
from typing import Any, ParamSpec

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from .sharing import EVERY_IPV6_NETWORK, EVERY_NETWORK, LIFELINE_ENV, end_with_server

log = logging.getLogger("textual-serve")

TITLE = "Table companion"
QUIT_WITHIN = 5.0
"""Seconds a view is given to quit once its browser has gone; then it is killed."""
CLOSE_WITHIN = 2.0
"""Seconds a browser is given to answer the server closing its websocket as the server ends (a phone that
went to sleep never answers): then its connection is cut."""
SEND_WITHIN = 10.0
"""Seconds a browser is given to take in what its view drew (or to answer the view closing): one that
stopped reading (a client that only sends) has its connection cut. Waiting on it blocked its view writing,
the messages it sent meanwhile waited on the view for good, and its place was held until the server was
killed."""
SHUTDOWN_WITHIN = 3.0
"""Seconds aiohttp waits, once the browsers were told, for the requests still answered as the server ends
(twice: before and after cancelling them): each view has stopped by then, unless something unforeseen hangs
(aiohttp waits a minute)."""
_KEY_IN = re.compile(r"(token=|/ws/)[\w.~%-]*")
"""The key in a request: the page's query, the websocket's path (a key's letters, maybe %-escaped)."""
NOT_A_MESSAGE = (
    ValueError,
    AssertionError,
    LookupError,
    TypeError,
    AttributeError,
    ArithmeticError,
    RecursionError,
)
"""What textual-serve raises reading a message that is not one of textual's envelopes (not JSON, JSON
nested too deep, not a list, a part missing or of another kind)."""

VIEW_CLOSED = (
    "The table's view closed: the app opened another game or quit, or the network dropped. This page opens"
    " the view again as soon as the table serves it."
)
NEW_KEY = (
    "The table serves its view with a new key: open the new address (F6 on the table's screen shows it)."
)
VIEW_FAILS = (
    "The table's view closes as soon as it opens (its game deleted, or not readable): Restart tries again."
)
_REOPEN_JS = """
addEventListener('DOMContentLoaded', function () {
  var body = document.body, message = document.querySelector('.closed-dialog .message');
  var opened = Date.now(), waiting = false;
  var quick = +(sessionStorage.getItem('closedQuickly') || 0);
  function say(text) { if (message) message.textContent = text; }
  function reopen(wait) {
    setTimeout(function () {
      fetch(location.href, {cache: 'no-store'}).then(function (answer) {
        if (answer.ok) location.reload();
        else if (answer.status == 403) say(NEW_KEY);
        else reopen(Math.min(2 * wait, LONGEST));
      }, function () { reopen(Math.min(2 * wait, LONGEST)); });
    }, wait);
  }
  new MutationObserver(function () {
    if (waiting || !body.classList.contains('-closed')) return;
    waiting = true;
    quick = Date.now() - opened < LIVED ? quick + 1 : 0;
    sessionStorage.setItem('closedQuickly', quick);
    if (quick >= GIVE_UP) { sessionStorage.removeItem('closedQuickly'); say(VIEW_FAILS); return; }
    say(VIEW_CLOSED);
    reopen(FIRST * Math.pow(2, quick));
  }).observe(body, {attributes: true, attributeFilter: ['class']});
});
"""
REOPEN = (
    "<script>"
    + " ".join(
        line.strip()
        for line in _REOPEN_JS.replace("NEW_KEY", json.dumps(NEW_KEY))
        .replace("VIEW_CLOSED", json.dumps(VIEW_CLOSED))
        .replace("VIEW_FAILS", json.dumps(VIEW_FAILS))
        .replace("LONGEST", "30000")
        .replace("LIVED", "10000")
        .replace("GIVE_UP", "4")
        .replace("FIRST", "2000")
        .splitlines()
    )
    + "</script>"
)
"""The page's own end ("Session ended." and a button) came whenever its view closed: at every game the app
opened after the first (its server started anew on the same port and key), when the app quit, or when a
phone slept and dropped its connection; the phones followed the table to the next game only once someone
tapped Restart. The page now says what happened and opens the view again by itself once its address
answers: first after 2 s, then twice as long each time it does not answer (up to 30 s); refused for its key
(a new one made), it says to open the new address. A view that closed within 10 s of opening, four times
running (its game deleted: each reload started a view that ended at once), is left closed and said so."""
PHONE_HEAD = (
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    "<style>.intro{width:min(640px,92vw)}"
    ".closed-dialog .intro{flex-direction:column;height:auto;padding:24px}"
    '@font-face{font-family:"Roboto Mono";src:url(/static/fonts/RobotoMono-VariableFont_wght.ttf)}</style>'
    + REOPEN
)
"""textual-serve's page has no viewport: a phone lays it out 980 px wide and its terminal runs past the
screen's edge. At the phone's own width (about 390 px) the 16 px font gives the view some 40 columns, which
its narrow layout fills; the start box is fitted to the screen too. Its font comes from this server
(textual-serve ships it), not from Google's: each phone asked Google, and waited on a network without
internet."""
_FONT_ELSEWHERE = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*>\s*")
"""The link of textual-serve's page to Google's copy of its font."""
PRIVATE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
"""Headers of a page whose address carries the key: kept in no cache, and not sent as the referrer (the
font and scripts it loads are this server's own)."""


def plain_page(status: int, text: str) -> web.Response:
    """A short HTML page a phone shows as it is (no script, no styles to load)."""
    body = (
        f'<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width"><title>{TITLE}</title></head>'
        f"<body><h1>{TITLE}</h1><p>{escape(text)}</p></body></html>"
    )
    return web.Response(status=status, text=body, content_type="text/html", headers=PRIVATE)


class ViewProcess(AppService):
    """One browser's view, started from an argument list (not a shell line, so the view is the server's own
    child) and handed the lifeline pipe's read end."""

    def __init__(self, argv: list[str], lifeline: int, **kwargs: Any) -> None:
        super().__init__(shlex.join(argv), **kwargs)
        self.argv = argv
        self.lifeline = lifeline

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        environment = self._build_environment(width=width, height=height)
        environment[LIFELINE_ENV] = str(self.lifeline)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
            pass_fds=(self.lifeline,),
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def set_terminal_size(self, width: int, height: int) -> None:
        """The browser's new size, within what a screen can be, as its first: at 3000 by 3000 cells a frame
        outgrew what a browser takes in a message."""
        await super().set_terminal_size(_within_a_screen(width), _within_a_screen(height))

    @property
    def output(self) -> asyncio.Task[None]:
        """The task passing the view's output on to its browser: it ends with the view's output, or once
        its browser cannot be sent it (gone, or not reading)."""
        assert self._task is not None, "started"
        return self._task

    async def stop(self) -> None:
        """Asked to quit and waited for until its output ends; killed where its output was no longer read
        (its browser went, or stopped reading: the view blocks writing, and never reads the request), where
        it still runs once its output ended, or where it has not quit within QUIT_WITHIN seconds: no view
        runs on without its browser."""
        if self._task is not None and self._task.done():
            await self._kill()
        try:
            async with asyncio.timeout(QUIT_WITHIN):
                await super().stop()
        except (ConnectionError, TimeoutError):
            pass  # killed below
        finally:
            await self._kill()

    async def _kill(self) -> None:
        """Killed, and what it wrote read to the end and dropped: asyncio waits on its pipes as on the
        process, and a pipe no longer read (its reader full, its browser not reading) never ended."""
        process = self._process
        if process is None or process.returncode is not None:
            return
        process.kill()
        if self._task is not None:  # the reader of its output, done with
            self._task.cancel()
            await asyncio.wait((self._task,))
        await process.communicate()


class ViewServer(Server):
    """The view `argv` served on `host`:`port` to those with `token`, to at most `max_viewers` at once."""

    def __init__(self, argv: list[str], host: str, port: int, token: str, max_viewers: int) -> None:
        super().__init__(shlex.join(argv), host=host, port=port, title=TITLE)
        self.argv = argv
        self.token = token
        self.max_viewers = max_viewers
        self.viewers = 0
        self.websockets: dict[web.WebSocketResponse, web.Request] = {}
        """The browsers' open websockets (each with its request, to cut its connection), closed as the server
        ends."""
        # The views' lifeline: this process alone holds the write end (not inherited by its children).
        self.lifeline, self._lifeline_held = os.pipe()
        end_with_server()  # the app's lifeline, where the app started this server

    async def _make_app(self) -> web.Application:
        """The page, the view's websocket (its address without the key refused in a line), and textual-serve's
        static files, no folder listed (textual-serve's own lists them); no download (the view delivers no
        file) and no logo printed (`companion serve` has said where it listens)."""
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index),
                web.get("/ws", self.handle_websocket),
                web.get("/ws/{token}", self.handle_websocket),
                web.static("/static", self.statics_path),
            ]
        )
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def on_shutdown(self, app: web.Application) -> None:
        """Each browser told the server is going away: its view then stops as when the browser leaves."""
        await asyncio.gather(*(_close(*browser) for browser in list(self.websockets.items())))

    def initialize_logging(self) -> None:
        """Warnings and errors only, a line each, the key never shown (textual-serve logs each request, and a
        traceback with its local variables for an error). On the output: the error stream says why the
        server ended (the app's F6 shows its last line)."""
        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(OneLine())
        logging.basicConfig(level=logging.WARNING, handlers=[handler], force=True)

    def serve(self, debug: bool = False) -> None:
        """Until ctrl+c or SIGTERM; on `::`, on 0.0.0.0 too, as IPv6's every network alone leaves out the
        phones on an IPv4 network (asyncio listens on `::` for IPv6 only)."""
        self.initialize_logging()
        hosts = [EVERY_IPV6_NETWORK, EVERY_NETWORK] if self.host == EVERY_IPV6_NETWORK else [self.host]
        web.run_app(
            self._make_app(), host=hosts, port=self.port, print=None, shutdown_timeout=SHUTDOWN_WITHIN
        )

    def _has_token(self, given: str) -> bool:
        return hmac.compare_digest(given.encode(), self.token.encode())

    def _full(self) -> web.Response:
        return plain_page(
            503,
            f"The table's view is full: {_screens(self.max_viewers)} watching it. "
            "Try again once a screen closes it.",
        )

    async def handle_index(self, request: web.Request) -> web.Response:
        """The view's page, for one with the key; its websocket on the host the browser reached."""
        if not self._has_token(request.query.get("token", "")):
            # `companion serve` prints the address; only the app's F6 shows it as a QR code too.
            return plain_page(
                403,
                "This view needs the address with its key, as printed by `companion serve` or shown by F6.",
            )
        if self.viewers >= self.max_viewers:
            return self._full()
        host = request.host
        context = {
            "font_size": 16,
            "app_websocket_url": f"ws://{host}/ws/{self.token}",
            "config": {"static": {"url": f"http://{host}/static/"}},
            "application": {"name": self.title},
        }
        page = aiohttp_jinja2.render_template("app_index.html", request, context)
        assert page.text is not None
        page.text = _FONT_ELSEWHERE.sub("", page.text.replace("<head>", "<head>" + PHONE_HEAD, 1))
        page.headers.update(PRIVATE)
        return page

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        """One browser's view: refused without the key, from another page's origin, or when full."""
        if not self._has_token(request.match_info.get("token", "")):
            return plain_page(403, "This view needs the address with its key.")
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"{request.scheme}://{request.host}":
            return plain_page(403, "A view is opened from its own page, not from another site.")
        websocket = web.WebSocketResponse(heartbeat=15)
        if not websocket.can_prepare(request).ok:
            return plain_page(400, "This address is the view's websocket: open the page's address instead.")
        if self.viewers >= self.max_viewers:
            return self._full()
        self.viewers += 1
        try:
            await websocket.prepare(request)
            self.websockets[websocket] = request
            view = ViewProcess(
                self.argv,
                self.lifeline,
                write_bytes=_sender(websocket.send_bytes, request),
                write_str=_sender(websocket.send_str, request),
                close=_sender(websocket.close, request),
                download_manager=self.download_manager,
            )
            await view.start(_size(request, "width", 80), _size(request, "height", 24))
            try:
                await self._converse(websocket, view)
            except NOT_A_MESSAGE as exc:
                # A browser that speaks something else than textual's envelopes: its view closed.
                log.warning(
                    "a browser sent what is not a view's message (%s): its view closed", type(exc).__name__
                )
            except ConnectionError:
                pass  # the browser went as it was answered
            finally:
                await view.stop()
        except asyncio.CancelledError:
            await _close(websocket, request)
        finally:
            self.viewers -= 1
            self.websockets.pop(websocket, None)
        return websocket

    async def _converse(self, websocket: web.WebSocketResponse, view: ViewProcess) -> None:
        """The browser's messages passed on to its view until the browser leaves, or until the view's output
        ends (the view ended, or its browser went or stopped reading): a view whose output is no longer read
        stops reading its messages, and passing one on waited for good."""
        messages = asyncio.create_task(self._process_messages(websocket, view))
        try:
            await asyncio.wait((messages, view.output), return_when=asyncio.FIRST_COMPLETED)
        finally:
            messages.cancel()
            await asyncio.wait((messages,))
        if not messages.cancelled():
            messages.result()  # raised: what the browser sent that is not a view's message


class OneLine(logging.Formatter):
    """A log record in one short line: its message, and for an error the exception's kind and first words
    (not a traceback), the key replaced where a request carries it (aiohttp's errors quote the request)."""

    LONGEST = 160

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        error = record.exc_info[1] if record.exc_info else None
        if error is not None:
            text += f": {type(error).__name__}: {error}"
        line = " ".join(_KEY_IN.sub(r"\1KEY", text).split())
        if len(line) > self.LONGEST:
            line = line[: self.LONGEST - 1] + "…"
        return f"companion serve: {line}"


async def _close(websocket: web.WebSocketResponse, request: web.Request) -> None:
    try:
        async with asyncio.timeout(CLOSE_WITHIN):
            await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"the server is going away")
    except TimeoutError:
        _cut(request)  # the browser never answered: its view's output stops there, and the view with it


Sending = ParamSpec("Sending")


def _sender(
    send: Callable[Sending, Awaitable[object]], request: web.Request
) -> Callable[Sending, Awaitable[None]]:
    """`send` (or close) to a browser, which takes it in (or answers) within SEND_WITHIN seconds or has its
    connection cut."""

    async def within(*args: Sending.args, **kwargs: Sending.kwargs) -> None:
        try:
            async with asyncio.timeout(SEND_WITHIN):
                await send(*args, **kwargs)
        except TimeoutError:
            _cut(request)
            raise ConnectionResetError("the browser stopped reading") from None

    return within


def _cut(request: web.Request) -> None:
    """The browser's connection ended at once, what is left to send to it dropped (closing it would wait for
    a browser not reading to take that in first)."""
    if request.transport is not None:
        request.transport.abort()


def _screens(count: int) -> str:
    return f"{count} screen is" if count == 1 else f"{count} screens are"


def _size(request: web.Request, name: str, default: int) -> int:
    """The terminal size the browser asks for, within what a screen can be."""
    try:
        return _within_a_screen(request.query.get(name, default))
    except ValueError:
        return default


def _within_a_screen(cells: str | int) -> int:
    """A terminal's width or height as a browser gave it, within what a screen can be. A message may carry
    any JSON value for it, whatever its type says: ValueError or TypeError where it is no number."""
    return min(max(int(cells), 10), 1000)
