"""Retry delays for a camera that went away: quick at first, then no more often than `ceiling` seconds."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Backoff:
    first: float = 0.5
    ceiling: float = 8.0
    factor: float = 2.0
    _next: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        self._next = self.first

    def next_delay(self) -> float:
        delay = self._next
        self._next = min(self.ceiling, self._next * self.factor)
        return delay

    def reset(self) -> None:
        self._next = self.first
