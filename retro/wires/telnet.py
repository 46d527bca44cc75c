# Tangled from literate/wire.md: edit the chapter, not this file, then run `retro tangle`.
"""Telnet: its commands taken out of the stream, and the listener.

Tangled from literate/wire.md, which explains it.
"""
from __future__ import annotations

import asyncio
import socket

from retro.wires.lines import Connect, keep_alive


IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
IP, AYT = 244, 246
ECHO, TIMING_MARK = 1, 6
REFUSAL = {WILL: DONT, DO: WONT}
HERE = b"\r\n[retro: yes, the room is here]\r\n"


class Telnet:
    """Telnet's commands taken out of a stream of bytes, and answered."""

    def __init__(self) -> None:
        self.state = "text"
        self.verb = 0
        self.answered: set[tuple[int, int]] = set()
        self.echoing = False  # the server's echo is on: a password is typed

    def echo(self, hidden: bool) -> bytes:
        """What to send to hide what the player types, or show it again."""
        if hidden == self.echoing:
            return b""
        self.echoing = hidden
        return bytes((IAC, WILL if hidden else WONT, ECHO))

    def answer(self, verb: int, option: int) -> bytes:
        """The reply to `verb option`: a refusal once, and the exceptions."""
        if verb == DO and option == TIMING_MARK:
            return bytes((IAC, WILL, TIMING_MARK))  # every time: see above
        if option == ECHO and verb in (DO, DONT) and self.echoing:
            return b""  # the client's answer to the server's offer
        if verb in REFUSAL and (verb, option) not in self.answered:
            self.answered.add((verb, option))
            return bytes((IAC, REFUSAL[verb], option))
        return b""

    def feed(self, data: bytes) -> tuple[bytes, bytes]:
        """The text in `data`, and what to send back to the client."""
        if self.state == "text" and IAC not in data:
            return data, b""
        text, reply = bytearray(), bytearray()
        for byte in data:
            if self.state == "text":
                if byte == IAC:
                    self.state = "command"
                else:
                    text.append(byte)
            elif self.state == "command":
                self.state = "text"
                if byte == IAC:
                    text.append(IAC)
                elif byte in (WILL, WONT, DO, DONT):
                    self.state, self.verb = "option", byte
                elif byte == SB:
                    self.state = "sub"
                elif byte == IP:
                    text += b"\x03\n"
                elif byte == AYT:
                    reply += HERE
            elif self.state == "option":
                self.state = "text"
                reply += self.answer(self.verb, byte)
            elif self.state == "sub":
                self.state = "sub end" if byte == IAC else "sub"
            else:  # "sub end": after an IAC inside a subnegotiation
                self.state = "text" if byte == SE else "sub"
        return bytes(text), bytes(reply)


class TelnetLine(asyncio.Protocol):
    """One telnet connection: bytes in and out for its line."""

    def __init__(self, connect: Connect, closing: float):
        self.connect, self.telnet, self.closing = connect, Telnet(), closing

    def connection_made(self, transport) -> None:
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            keep_alive(sock)
        host, port, *_ = transport.get_extra_info("peername") or ("?", 0)
        self.line = self.connect(write=self.write, close=self.close,
                                 waiting=transport.get_write_buffer_size,
                                 echo=self.echo, host=str(host),
                                 peer=f"telnet {host}:{port}")
        self.line.opened()

    def write(self, text: str) -> None:
        self.transport.write(text.replace("\n", "\r\n").encode())

    def echo(self, hidden: bool) -> None:
        """Hide what the player types (a password), or show it again; the
        client echoed nothing meanwhile, not even the end of the line."""
        offer = self.telnet.echo(hidden) + (b"" if hidden else b"\r\n")
        if self.line.answers(offer):
            self.transport.write(offer)

    def close(self) -> None:
        self.transport.close()
        asyncio.get_running_loop().call_later(self.closing,
                                              self.transport.abort)

    def data_received(self, data: bytes) -> None:
        if not self.line.pays(data):
            return
        text, reply = self.telnet.feed(data)
        if reply and self.line.answers(reply):
            self.transport.write(reply)
        if text:
            self.line.take(text)

    def eof_received(self) -> bool:
        self.line.ended()
        return True  # keep the line open for the answers

    def connection_lost(self, error: Exception | None) -> None:
        self.line.lost()

    def pause_writing(self) -> None:
        self.line.pause_writing()

    def resume_writing(self) -> None:
        self.line.resume_writing()


async def open_telnet(connect: Connect, host: str, port: int, *,
                      closing: float):
    """Listen for telnet; the listener. A line closed is cut `closing`
    seconds later if it has not taken what it was sent."""
    return await asyncio.get_running_loop().create_server(
        lambda: TelnetLine(connect, closing), host, port, backlog=512,
        reuse_address=True)
