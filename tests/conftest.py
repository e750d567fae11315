"""Fixtures shared by the tests: the shipped pip reader (its models loaded once), and a server's page."""

from __future__ import annotations

import subprocess
import time
import urllib.request
from collections.abc import Callable

import pytest

from vision.pips import PipReader

Served = Callable[[list[str], int], tuple[str, str]]


@pytest.fixture(scope="session")
def reader() -> PipReader:
    return PipReader()


@pytest.fixture
def served() -> Served:
    """Runs a server command, fetches the page it answers on 127.0.0.1:PORT with the key it printed (waiting
    up to 20 s for it to listen) and stops it: the page, and what the command printed."""

    def serve(command: list[str], port: int) -> tuple[str, str]:
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        page = ""
        try:
            assert server.stdout is not None
            said = server.stdout.readline()
            while "?token=" not in said and said:
                said += server.stdout.readline()
            token = said.split("?token=")[1].split()[0]
            for _ in range(100):
                try:
                    with urllib.request.urlopen(
                        f"http://127.0.0.1:{port}/?token={token}", timeout=2
                    ) as answer:
                        page = answer.read().decode()
                    break
                except OSError:
                    time.sleep(0.2)
        finally:
            server.terminate()
            rest, _ = server.communicate(timeout=10)
        return page, said + rest

    return serve
