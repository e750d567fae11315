"""Sharing places of a building type: the one rule both in-game completion awards and final scoring use."""

from __future__ import annotations

PLACES = 3
"""Only places 1–3 of a building type score."""


def share_places(vp_row: tuple[int, int, int], first_open: int, players: int) -> tuple[tuple[int, ...], int]:
    """Places (1-based) that `players` tied players take together starting at the 0-based `first_open`,
    and the VP each gets: the places' VP shared equally, rounded down. No place left gives `((), 0)`."""
    taken = tuple(range(first_open, min(first_open + players, PLACES)))
    if not taken:
        return (), 0
    return tuple(i + 1 for i in taken), sum(vp_row[i] for i in taken) // players
