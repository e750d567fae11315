"""`companion serve`: textual-serve's server, fenced for a table's phones.

textual-serve runs one `companion view` per browser that opens its websocket. Around that this server
- lets in only who has the address with its key (`?token=`; a page of its own, then the websocket at
  /ws/TOKEN): anyone else on the network gets a plain 403 page;
- refuses a websocket opened from another web page (its Origin is not this server), so a page elsewhere
  cannot drive a view in a visitor's browser;
- runs at most `max_viewers` views at once (each is a process), with a plain page saying so when full;
- answers a plain GET of the websocket's address with one line, not textual-serve's logged traceback;
- starts each view itself (no shell) holding the read end of a pipe whose write end only this server
  holds: when the server ends, even killed at once, each view reads the pipe's end and quits
  (`sharing.end_with_server`);
- started by the app (F6), ends with the app in the same way, even one killed at once.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
import shlex
from html import escape
from typing import Any

import aiohttp_jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from .sharing import LIFELINE_ENV, end_with_server

log = logging.getLogger("textual-serve")

TITLE = "Table companion"

PHONE_HEAD = (
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    "<style>.intro{width:min(640px,92vw)}</style>"
)
"""textual-serve's page has no viewport: a phone lays it out 980 px wide and its terminal runs past the
screen's edge. At the phone's own width (about 390 px) the 16 px font gives the view some 40 columns, which
its narrow layout fills; the start box is fitted to the screen too."""


def plain_page(status: int, text: str) -> web.Response:
    """A short HTML page a phone shows as it is (no script, no styles to load)."""
    body = (
        f'<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width"><title>{TITLE}</title></head>'
        f"<body><h1>{TITLE}</h1><p>{escape(text)}</p></body></html>"
    )
    return web.Response(status=status, text=body, content_type="text/html")


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


class ViewServer(Server):
    """The view `argv` served on `host`:`port` to those with `token`, to at most `max_viewers` at once."""

    def __init__(self, argv: list[str], host: str, port: int, token: str, max_viewers: int) -> None:
        super().__init__(shlex.join(argv), host=host, port=port, title=TITLE)
        self.argv = argv
        self.token = token
        self.max_viewers = max_viewers
        self.viewers = 0
        # The views' lifeline: this process alone holds the write end (not inherited by its children).
        self.lifeline, self._lifeline_held = os.pipe()
        end_with_server()  # the app's lifeline, where the app started this server

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.router.add_get("/ws/{token}", self.handle_websocket, name="view-websocket")
        return app

    async def on_startup(self, app: web.Application) -> None:
        """Quiet: `companion serve` has said where it listens (textual-serve prints its logo here)."""

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
        page.text = page.text.replace("<head>", "<head>" + PHONE_HEAD, 1)
        return page

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        """The view delivers no files: nothing to download."""
        raise web.HTTPNotFound(text="nothing to download")

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
            view = ViewProcess(
                self.argv,
                self.lifeline,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
            )
            await view.start(_size(request, "width", 80), _size(request, "height", 24))
            try:
                await self._process_messages(websocket, view)
            except (ValueError, AssertionError):
                # A browser that speaks something else than textual's envelopes: close its view, quietly.
                log.warning("a browser sent a message that is not the view's: closed")
            finally:
                await view.stop()
        except asyncio.CancelledError:
            await websocket.close()
        finally:
            self.viewers -= 1
        return websocket


def _screens(count: int) -> str:
    return f"{count} screen is" if count == 1 else f"{count} screens are"


def _size(request: web.Request, name: str, default: int) -> int:
    """The terminal size the browser asks for, within what a screen can be."""
    try:
        return min(max(int(request.query.get(name, default)), 10), 1000)
    except ValueError:
        return default
