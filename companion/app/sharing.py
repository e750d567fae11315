"""Sharing the table's view: `companion serve` started beside the app, the addresses phones open, and an
address as a QR code a phone's camera opens."""

from __future__ import annotations

import errno
import io
import ipaddress
import json
import os
import re
import secrets
import socket
import struct
import subprocess
import sys
import tempfile
import threading
from contextlib import suppress
from pathlib import Path
from typing import IO

import qrcode

from jsonfile import JsonFileError, Limits, is_whole_number, read_json

DEFAULT_PORT = 8000
MAX_VIEWERS = 8
"""Views served at once by default: a phone for each seat at a big table."""
EVERY_NETWORK = "0.0.0.0"
EVERY_IPV6_NETWORK = "::"
"""Every network too: `companion serve` listens on IPv4's every network beside it."""
LIFELINE_ENV = "COMPANION_LIFELINE"
"""Names, in the environment of a view its server started or of a server the app started, the pipe its
starter holds open for as long as it runs."""
STOP_WITHIN = 5.0
"""Seconds a server is given to end once asked (it closes its phones' websockets and stops their views in a
second or two); one still running then is killed, its views ending with it (their lifeline)."""
_SIOCGIFADDR = 0x8915
"""Linux's ioctl for an interface's IPv4 address."""


def companion_command(*words: str) -> list[str]:
    """`companion WORDS` as a child of this program, run by its own Python; with `-P`: `-m` would put the
    current folder first on the module path, and a `calibration.py` of the user's there stood in for the
    program's own package (each view ended with ModuleNotFoundError and the phones got nothing)."""
    return [sys.executable, "-P", "-m", "companion", *words]


def new_token() -> str:
    """A key for the view's address: only those shown the address (its QR code) can watch."""
    return secrets.token_urlsafe(12)


_KEY = re.compile(r"[A-Za-z0-9_-]{16,86}")
"""A key as `new_token` makes them (a longer one typed to `companion serve --token` is not kept here)."""


def kept_address(path: Path | None) -> tuple[str, int]:
    """The key and port the app's F6 last served the view with (`view-address.json` in the config folder), so
    that phones left on its address (the app crashed, or was quit and started again) open the view again
    once it is served; a new key and the default port where the file holds none (missing, another's, spoilt:
    it is written anew when F6 serves; None: no folder to keep it in)."""
    try:
        kept = None if path is None else read_json(path, Limits(size=1_000))
    except (OSError, JsonFileError):
        return new_token(), DEFAULT_PORT
    if isinstance(kept, dict):
        key, port = kept.get("key"), kept.get("port")
        if isinstance(key, str) and _KEY.fullmatch(key) and is_whole_number(port, 1024, 65535):
            return key, port
    return new_token(), DEFAULT_PORT


def keep_address(path: Path | None, key: str, port: int) -> None:
    """Keep the key and port served for the next run (`kept_address`), readable by this user alone from its
    first byte, and in place of whatever is at `path` (a link is replaced, never written through): a config
    folder that cannot be written keeps none, and the next run makes a new key."""
    if path is None:
        return
    side = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        kept = os.open(side, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(kept, "w", encoding="utf-8") as out:
            out.write(json.dumps({"key": key, "port": port}) + "\n")
        os.replace(side, path)
    except OSError:
        with suppress(OSError):
            side.unlink(missing_ok=True)


def _interface_addresses() -> list[str]:
    """Each network interface's IPv4 address (Linux: asked of each interface; elsewhere: what this
    machine's name resolves to, all the standard library offers)."""
    if sys.platform != "linux":
        try:
            return [str(i[4][0]) for i in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
        except OSError:
            return []
    import fcntl

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            try:
                answer = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # an interface without an IPv4 address (down, or IPv6 only)
                continue
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def every_network(host: str) -> bool:
    """Whether a server listening on `host` listens on every network of this machine."""
    return host in (EVERY_NETWORK, EVERY_IPV6_NETWORK, "")


def phone_addresses(host: str = EVERY_NETWORK) -> list[str]:
    """Where a phone on this machine's networks reaches a server listening on `host`: each interface's
    address for every network, else `host` itself. Loopback is never one: a phone's loopback is the phone."""
    candidates = _interface_addresses() if every_network(host) else [host]
    return [a for a in dict.fromkeys(candidates) if not _is_loopback(a)]


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name, not an address
        return host == "localhost"


def view_url(address: str, port: int, token: str) -> str:
    """The address of the view, with its key."""
    host = f"[{address}]" if ":" in address else address  # an IPv6 address is bracketed in a URL
    return f"http://{host}:{port}/?token={token}"


def listening_lines(host: str, port: int, token: str) -> list[str]:
    """What `serve` says: where the view listens, and the address(es) a phone opens."""
    every = every_network(host)
    lines = [f"listening on {'every network of this machine' if every else host}, port {port}"]
    phones = phone_addresses(host)
    lines += [f"on a phone: {view_url(a, port, token)}" for a in phones]
    if not phones:
        local = "127.0.0.1" if every else host
        why = (
            "this machine is on no network but its own" if every else f"{host} is this machine's own address"
        )
        lines.append(
            f"{why} (loopback): a phone cannot reach it; on this machine: {view_url(local, port, token)}"
        )
    return lines


def cannot_listen(host: str, port: int) -> str:
    """Why a server could not listen on `host` and `port` ('' if it can): the port taken by another program,
    an address not this machine's. Tried as the server binds (reusing a port left waiting by a server that
    just ended)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        return listen_error(exc)
    return ""


def listen_error(exc: OSError) -> str:
    """What a failed bind means to the one who chose the host and port."""
    hint = {
        errno.EADDRINUSE: "another program listens there: pick another port with --port",
        errno.EACCES: "a port below 1024 needs more rights: pick one above with --port",
    }.get(exc.errno or 0, "--host takes one of this machine's addresses, or 0.0.0.0 for every network")
    return f"{exc.strerror or exc} ({hint})"


def free_port(preferred: int = DEFAULT_PORT) -> int:
    """`preferred` if nothing listens there, else a free port the system picks."""
    with socket.socket() as probe:
        # As the server binds: a port whose last connections wait out their end (TIME_WAIT, a minute after
        # the app served phones and quit) is free to listen on, and was passed by for a random one.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("", preferred))
        except OSError:
            probe.bind(("", 0))
        return int(probe.getsockname()[1])


class ServedView:
    """`companion serve` on `port` (every network: the phones are on the table's), to those with `token`, as
    a child of the app that ends with it: the app stops it when it quits, and a server whose app was killed
    (or whose terminal closed) reads the end of its lifeline and quits. It serves the game on the app's
    screen (`serve`), not the newest one: with two windows each serves its own. What it says on its error
    stream is kept (in a file, so a server that talks a lot never blocks on a full pipe) to say why it
    ended."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.token = token
        self.log: Path | None = None
        """The saved game served (None: the newest in the games folder)."""
        self.process: subprocess.Popen[bytes] | None = None
        """The server, once `serve` started it."""
        # Stand-ins until `serve` starts it: nothing said, no lifeline held.
        self._said: IO[bytes] = io.BytesIO()
        self._lifeline: IO[bytes] = io.BytesIO()
        self._why = ""

    def serve(self, log: Path | None) -> None:
        """Serve the saved game `log` (None: the newest): started, or started anew on the same port where it
        served another game, so the address the phones have opens the game now played."""
        if self.process is not None and log == self.log:
            return
        self.stop()
        self.log, self._said = log, tempfile.TemporaryFile()  # noqa: SIM115 (kept while it runs: why_ended)
        # Only the app holds the write end: when the app ends, however it ends, the server reads its end.
        server_end, app_end = os.pipe()
        self._lifeline = os.fdopen(app_end, "wb")
        try:
            self.process = subprocess.Popen(
                self._command(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self._said,
                env={**os.environ, LIFELINE_ENV: str(server_end)},
                pass_fds=(server_end,),
            )
        finally:
            os.close(server_end)

    def _command(self) -> list[str]:
        command = companion_command("serve", "--host", EVERY_NETWORK)
        # `--token=KEY`: a key may begin with "-" (token_urlsafe's alphabet), which argparse took for an
        # option ("--token: expected one argument"): F6's server ended before it listened, one time in 64.
        command += ["--port", str(self.port), f"--token={self.token}", "--max-viewers", str(MAX_VIEWERS)]
        return command + ([str(self.log)] if self.log else [])

    def why_ended(self) -> str:
        """'' while it serves (or before it is started); once it ended (it could not listen, or it was stopped
        or killed), why."""
        status = None if self.process is None else self.process.poll()
        if status is None:
            return ""
        if not self._said.closed:
            self._said.seek(0)
            said = [line.strip() for line in self._said.read().decode(errors="replace").splitlines()]
            self._said.close()
            last = next((line for line in reversed(said) if line), "")
            self._why = last.removeprefix("companion serve: ") or f"the server ended (exit status {status})"
        return self._why

    @property
    def could_not_listen(self) -> bool:
        """Whether it ended unable to listen on its port: taken by another program since it was picked (a
        browser's connection may take it as its own end)."""
        return self.why_ended().startswith("cannot listen")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=STOP_WITHIN)
        except subprocess.TimeoutExpired:  # quitting the app waits no longer, nor fails
            self.process.kill()
            self.process.wait()
        self._lifeline.close()
        self.why_ended()


def end_with_server() -> None:
    """In a process serving the view for another (a view for `companion serve`, `companion serve` for the
    app's F6): quit once that one has ended (the lifeline pipe it holds reads its end), however it ended.
    Nothing where no one started it so (`companion view` or `companion serve` typed in a terminal)."""
    fd = os.environ.get(LIFELINE_ENV)
    if fd is None:
        return

    def watch() -> None:
        try:
            while os.read(int(fd), 1):
                pass
        except OSError:
            pass
        # A view only reads the game's log, and a server's views end with it: nothing to save or close.
        os._exit(0)

    threading.Thread(target=watch, name="lifeline", daemon=True).start()


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
