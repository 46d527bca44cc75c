# Tangled from literate/wire.md: edit the chapter, not this file, then run `retro tangle`.
"""What every wire shares: a line as the wire sees it, and cutting lines.

Tangled from literate/wire.md, which explains it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Line(Protocol):
    """One player's connection, as a wire sees it (see serve.md)."""

    def opened(self) -> None: ...
    def pays(self, data: bytes) -> bool: ...
    def take(self, text: bytes) -> None: ...
    def interrupted(self) -> None: ...
    def ended(self) -> None: ...
    def lost(self) -> None: ...


Connect = Callable[..., Line]  # write=, close=, waiting=, peer=, login=


class Lines:
    """Bytes cut into lines at CR LF, CR NUL, CR or LF; each line capped."""

    def __init__(self, longest: int):
        self.longest = longest
        self.partial = b""
        self.after_cr = False

    def feed(self, data: bytes) -> list[bytes]:
        """The lines `data` finishes (without their endings)."""
        if self.after_cr and data[:1] in (b"\n", b"\0"):
            data = data[1:]
        if data:
            self.after_cr = data.endswith(b"\r")
        data = (data.replace(b"\r\n", b"\n").replace(b"\r\0", b"\n")
                .replace(b"\r", b"\n").replace(b"\0", b""))
        *lines, rest = (self.partial + data).split(b"\n")
        self.partial = rest[:self.longest]
        return [line[:self.longest] for line in lines]
