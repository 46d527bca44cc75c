# Tangled from literate/wire.md: edit the chapter, not this file, then run `retro tangle`.
"""What every wire shares: a line as the wire sees it, and cutting lines.

Tangled from literate/wire.md, which explains it.
"""
from __future__ import annotations

import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


class Line(Protocol):
    """One player's connection, as a wire sees it (see serve.md)."""

    def opened(self) -> None: ...
    def pays(self, data: bytes) -> bool: ...
    def take(self, text: bytes) -> None: ...
    def answers(self, reply: bytes) -> bool: ...
    def interrupted(self) -> None: ...
    def ended(self) -> None: ...
    def lost(self) -> None: ...
    def complete(self, text: str) -> str: ...
    def resized(self, columns: int) -> None: ...
    def pause_writing(self) -> None: ...
    def resume_writing(self) -> None: ...


# write=, close=, waiting=, echo=, host=, peer=; for SSH also
# login=, proven=, offered=, ticket=; for the web echoing= and ticket=
Connect = Callable[..., Line]


@dataclass(frozen=True)
class Caller:
    """Who is at the other end, as the wire knows them."""

    host: str  # the address
    peer: str = ""  # the address and port, with the wire's name
    login: str = ""  # the SSH user name, if any
    proven: str = ""  # the name SSH has proved, if any


class Doors(Protocol):
    """What a listener asks the served room before a line exists."""

    def refusal(self, host: str) -> str | None: ...
    def arrive(self, host: str, drop: Callable[[], object]) -> Any: ...
    def leave(self, ticket: Any) -> None: ...
    def probe(self, caller: Caller) -> str | None: ...
    async def needs_proof(self, name: str) -> bool: ...
    async def password_proves(self, name: str, password: str,
                              caller: Caller) -> bool: ...
    async def key_proves(self, name: str, key: str) -> bool: ...


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


ESCAPE = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|O.|[@-_])?")
CONTROL = re.compile(rb"[\x00-\x02\x05-\x07\x0a-\x1f]")


def typed(line: bytes) -> bytes:
    """`line` as a terminal showed it: erasures made, escape sequences and
    control characters gone but Ctrl-C and Ctrl-D, a tab a space."""
    line = CONTROL.sub(b"", ESCAPE.sub(b"", line.replace(b"\t", b" ")))
    if b"\x08" not in line and b"\x7f" not in line:
        return line
    kept = bytearray()
    for byte in line:
        if byte in (0x08, 0x7f):
            while kept and 0x80 <= kept[-1] < 0xc0:  # a character's tail
                kept.pop()
            if kept:
                kept.pop()
        else:
            kept.append(byte)
    return bytes(kept)


def keep_alive(sock) -> None:
    """Ask the kernel to probe a silent connection, so that a player whose
    machine has vanished does not hold a name: after a minute of silence,
    every 15 seconds, given up after four unanswered probes."""
    if sock is None:
        return
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for option, value in (("TCP_KEEPIDLE", 60), ("TCP_KEEPINTVL", 15),
                          ("TCP_KEEPCNT", 4)):
        if hasattr(socket, option):
            sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, option),
                            value)
