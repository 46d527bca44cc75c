# Tangled from literate/serve.md: edit the chapter, not this file, then run `retro tangle`.
"""The served room's limits, and the log's summary of what repeats.

Tangled from literate/serve.md, which explains it.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from retro.services.guard import Guarding


@dataclass(frozen=True)
class Limits:
    """Every number the served room keeps to."""

    players: int = 64  # logged in at once, the operator's place among them
    per_address: int = 8  # players and guests on line from one address
    waiting: int = 64  # connections not yet logged in
    waiting_per_address: int = 16  # of those, from one address
    idle: float = 15 * 60.0  # seconds without a line, once named
    name_wait: float = 60.0  # seconds to log in
    tries: int = 3  # wrong passwords before the line is cut
    guarding: Guarding = Guarding()  # what guessing costs (accounts.md)
    line: int = 8 * 1024  # bytes kept of one line
    burst: int = 64 * 1024  # bytes a connection may send at once
    rate: int = 16 * 1024  # bytes a second it may send after that
    per_line: int = 16  # what a line costs beyond its bytes
    pending: int = 64  # lines waiting for the room before it is a flood
    output: int = 256 * 1024  # bytes waiting to be sent
    roll: int = 2000  # lines of paper kept for TEAR
    closing: float = 5.0  # seconds a closed line may take to send the rest
    take_over: float = 5.0  # seconds to wait for a session taken over
    going_down: float = 5.0  # seconds the sessions have to end
    drain: float = 60.0  # seconds a line may take to take a page of TEAR
    summary: float = 60.0  # seconds between the log's summaries


class Chronicle:
    """Repeated events, summed in the log a line at a time."""

    def __init__(self, log: Callable[[str], object]):
        self.log = log
        self.counts: dict[str, Counter[str]] = {}

    def note(self, kind: str, about: str = "") -> None:
        """One more `kind` of event, concerning `about`."""
        self.counts.setdefault(kind, Counter())[about] += 1

    def write(self) -> None:
        """The summary since the last one, if anything happened."""
        if not self.counts:
            return
        parts = []
        for kind, abouts in self.counts.items():
            top = ", ".join(f"{about} {count:,}" for about, count
                            in abouts.most_common(3) if about)
            parts.append(f"{sum(abouts.values()):,} {kind}"
                         + (f" ({top})" if top else ""))
        self.counts.clear()
        self.log(f"in the last minute: {'; '.join(parts)}")
