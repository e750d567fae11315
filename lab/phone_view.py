"""The table's view as a phone shows it: `companion serve` opened in a real Chromium at a phone's 390×844.

    python -m lab.phone_view --data XDG_DATA_HOME --out PREFIX [--chromium /usr/bin/chromium]

serves the newest game of that data folder (as `companion serve` would for the table), opens it in headless
Chromium at 390×844 CSS pixels with a phone's touch and viewport, taps the page's Start, and writes
`PREFIX-top.png` and `PREFIX-scrolled.png` (the view scrolled down three swipes). A developer's check, not a
user's command: it needs Playwright's Python package (`pip install playwright`) and a Chromium (Debian:
`apt-get install chromium`); the SVG snapshots at 40 columns (`tests/app/test_app_layouts.py`) are what CI
runs.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

PHONE = {"width": 390, "height": 844}
TOKEN = "phone-check"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(port: int, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise SystemExit(f"companion serve did not listen on port {port} within {seconds:.0f} s")


def shoot(url: str, out: str, chromium: str) -> None:
    from playwright.sync_api import sync_playwright  # here: --help runs without it installed

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[arg-type]
        page.goto(url)
        page.wait_for_timeout(1500)
        page.mouse.click(PHONE["width"] / 2, PHONE["height"] / 2)  # textual-serve's Start, in the middle
        page.wait_for_timeout(7000)
        page.screenshot(path=f"{out}-top.png")
        page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
        for _ in range(3):
            page.mouse.wheel(0, 600)
            page.wait_for_timeout(600)
        page.wait_for_timeout(1500)
        page.screenshot(path=f"{out}-scrolled.png")
        browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.phone_view", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="XDG_DATA_HOME whose newest game is served")
    parser.add_argument("--out", required=True, help="PNG files' prefix")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(args.data)}
    serve = [sys.executable, "-m", "companion", "serve", "--port", str(port), "--token", TOKEN]
    server = subprocess.Popen(serve, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(port)
        shoot(f"http://127.0.0.1:{port}/?token={TOKEN}", args.out, args.chromium)
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"{args.out}-top.png {args.out}-scrolled.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
