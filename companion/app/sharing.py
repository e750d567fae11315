"""Sharing the table's view: `companion serve` started beside the app, its address, and that address as a
QR code a phone's camera opens."""

from __future__ import annotations

import socket
import subprocess
import sys

import qrcode

DEFAULT_PORT = 8000


def network_address() -> str:
    """This machine's address on its network, as its name resolves (127.0.0.1 if it resolves to nothing
    else: some systems map their own name to loopback only)."""
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        found = []
    addresses = [str(info[4][0]) for info in found]
    return next((a for a in addresses if not a.startswith("127.")), "127.0.0.1")


def view_url(host: str, port: int) -> str:
    """The address phones on this network open: this machine's address where the server listens on all."""
    return f"http://{host if host not in ('0.0.0.0', '') else network_address()}:{port}"


def free_port(preferred: int = DEFAULT_PORT) -> int:
    """`preferred` if nothing listens there, else a free port the system picks."""
    with socket.socket() as probe:
        try:
            probe.bind(("", preferred))
        except OSError:
            probe.bind(("", 0))
        return int(probe.getsockname()[1])


def start_server(port: int) -> subprocess.Popen[bytes]:
    """`companion serve` on `port`, all networks, as a child the app stops when it quits."""
    command = [sys.executable, "-m", "companion", "serve", "--port", str(port)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def qr_lines(text: str) -> list[str]:
    """`text` as a QR code in half blocks, two modules a character: dark modules drawn, light ones left to
    the background (show it black on white: phones read dark on light)."""
    code = qrcode.QRCode(border=2)
    code.add_data(text)
    code.make(fit=True)
    rows = code.get_matrix()
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    blocks = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
    return ["".join(blocks[top, bottom] for top, bottom in zip(upper, lower, strict=True))
            for upper, lower in zip(rows[::2], rows[1::2], strict=True)]  # fmt: skip
