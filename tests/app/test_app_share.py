"""F6 shares the table's view: the app serves it to the players' phones and shows the address as a QR code;
quitting stops the server."""

from __future__ import annotations

import asyncio
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import qrcode
from app_driver import make_app

from companion.app import sharing
from companion.app.screens import share
from companion.app.screens.share import ShareScreen
from companion.app.sharing import phone_addresses, qr_lines


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
            port = seen["port"] = app.viewers_port
            token = seen["token"] = app.viewers_token
            for _ in range(100):
                try:
                    with urllib.request.urlopen(
                        f"http://127.0.0.1:{port}/?token={token}", timeout=2
                    ) as answer:
                        seen["page"] = answer.read().decode()
                    break
                except OSError:
                    await asyncio.sleep(0.2)
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
    assert server is seen["servers"] and server is not None and server.poll() is not None, "stopped on quit"


def test_with_no_network_the_share_screen_says_so_and_offers_no_address(
    xdg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sharing, "_interface_addresses", lambda: ["127.0.0.1"])
    seen: dict[str, Any] = {}

    async def look() -> None:
        app = make_app()
        async with app.run_test(size=(100, 32)) as pilot:
            app.push_screen(share.ShareScreen(8000, "key"))
            await pilot.pause()
            seen["url"] = app.screen.url if isinstance(app.screen, ShareScreen) else "?"
            seen["text"] = str(app.screen.query_one("#url").render())
            seen["qr"] = list(app.screen.query("#qr"))

    asyncio.run(look())
    assert seen["url"] is None and seen["qr"] == []
    assert "on no network but its own" in seen["text"] and "127.0.0.1" not in seen["text"]
