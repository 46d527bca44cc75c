# Tangled from literate/teletype.md: edit the chapter, not this file, then run `retro tangle`.
"""The line teletype: a player at the far end of a network line.

Tangled from literate/teletype.md, which explains it.
"""
from __future__ import annotations

import asyncio
import enum
import os
from collections import deque
from collections.abc import Callable
from typing import Any

from retro.services.teletype.choices import (Choices, completions,
                                             word_typed)
from retro.services.teletype.paper import clean
from retro.services.teletype.shared import Teletype


IDLE = object()  # what the idle timer settles a wait with


def settle(future: asyncio.Future, value: object = None) -> None:
    """Complete `future` with `value`, if nothing has completed it yet."""
    if not future.done():
        future.set_result(value)


class Signal(enum.Enum):
    """What a connection may hand a line teletype in place of a line."""

    INTERRUPT = "Ctrl-C"
    HANG_UP = "the line is gone"
    GOING_DOWN = "the system is going down"
    END = "Ctrl-D"


class GoingDown(KeyboardInterrupt):
    """The server is going down: a Ctrl-C that also ends the room."""


def as_heard(line: bytes | str) -> bytes | str | Signal:
    """A typed line as the teletype hears it: Ctrl-C and Ctrl-D are
    signals."""
    if isinstance(line, bytes):
        if b"\x03" in line:
            return Signal.INTERRUPT
        return Signal.END if line.strip() == b"\x04" \
            else line.replace(b"\x04", b"")
    if "\x03" in line:
        return Signal.INTERRUPT
    return Signal.END if line.strip() == "\x04" else line.replace("\x04", "")


class LineTeletype(Teletype):
    """A teletype at the far end of a network line: lines in, `send` out."""

    def __init__(self, send: Callable[[str], object], *,
                 idle: float | None = None, roll_lines: int | None = None,
                 echo: Callable[[bool], object] = lambda hidden: None,
                 echoing: bool = False, **options: Any):
        super().__init__(**options)
        self.send, self.idle, self.roll_lines = send, idle, roll_lines
        self.echo = echo  # hides what the player types, or shows it again
        self.echoing = echoing  # sends each answer back: the client does not
        self.lines: deque[bytes | str | Signal] = deque()  # heard, not asked
        self.ended: Signal | None = None
        self.listening: asyncio.Future[object] | None = None
        self.typed: list[str] = []  # printed, not yet sent
        self.choices: Choices = ()  # what the question being asked offers

    def hear(self, line: bytes | str | Signal) -> None:
        """A line (or a signal) from the connection, in the order typed."""
        if not isinstance(line, Signal):
            line = as_heard(line)
        if line is Signal.INTERRUPT:
            self.lines.clear()
            self.interrupt()
        elif line is Signal.GOING_DOWN:
            self.lines.clear()
            self.ended = line
            self.interrupt()
        else:
            self.lines.append(line)
        if self.listening is not None:
            settle(self.listening)

    @property
    def pending(self) -> int:
        """How many lines wait, heard and not yet asked for."""
        return len(self.lines)

    def complete(self, text: str) -> str:
        """`text` with its last word finished from the question's choices
        (as far as they agree), for a client that sends Tab."""
        found = completions(self.choices, text)
        if not found:
            return text
        typing = word_typed(text)
        whole = os.path.commonprefix(found)
        end = " " if len(found) == 1 else ""
        return text[:len(text) - len(typing)] + whole + end

    async def ask(self, prompt: str, choices: Choices = (),
                  history: str = "game", *, hidden: bool = False) -> str:
        """Print `prompt`, wait for the next line, return it cleaned; with
        `hidden`, the line is a password: not echoed, not kept on the roll."""
        self._raise_if_interrupted()
        if self.ended is not None and not self.lines:
            raise EOFError
        if hidden:
            self.echo(True)  # before the prompt, which ends what is sent
        self._type(self._fold(str(prompt)) + self.carriage.flush())
        await self.drain()
        self.flush()
        self.choices = choices
        try:
            line = await self._next_line()
        finally:
            self.choices = ()
            if hidden:
                self.echo(False)
        if isinstance(line, (str, bytes)):
            answer = clean(line)
            self._answered(self._fold("\n" if hidden else answer + "\n"))
            return answer
        self._answered(self._fold("\n"))
        self.carriage.home()
        self._interrupted = False
        if line is Signal.INTERRUPT or line is Signal.GOING_DOWN:
            raise self.interruption()
        if line is None:
            self.ended = Signal.HANG_UP
            self.say(f"*** NOTHING TYPED FOR {self.idle:g} SECONDS: "
                     f"THE LINE IS CLOSED ***")
            self.flush()
        raise EOFError

    async def _next_line(self) -> bytes | str | Signal | None:
        """The next line heard, the signal in its place, or None (idle)."""
        loop = asyncio.get_running_loop()
        deadline = None if self.idle is None else loop.time() + self.idle
        while not self.lines:
            if self.ended is Signal.GOING_DOWN:
                return self.ended
            if self._interrupted:
                return Signal.INTERRUPT
            if self.ended is not None:
                return self.ended
            waiting = self.listening = self.pausing = loop.create_future()
            timer = None if deadline is None else loop.call_at(
                deadline, settle, waiting, IDLE)
            try:
                if await waiting is IDLE:
                    return None
            except asyncio.CancelledError:
                if not self._interrupted:
                    raise  # the session itself is being cancelled
            finally:
                self.listening = self.pausing = None
                if timer is not None:
                    timer.cancel()
        line = self.lines.popleft()
        if line is Signal.HANG_UP:
            self.ended = line
        return line

    def interruption(self) -> KeyboardInterrupt:
        return GoingDown() if self.ended is Signal.GOING_DOWN \
            else KeyboardInterrupt()

    def _print(self, text: str) -> None:
        self.typed.append(text)
        if self.pace.baud > 0:
            self.flush()

    def flush(self) -> None:
        """Send what has been printed since the last send."""
        if self.typed:
            text = "".join(self.typed)
            self.typed.clear()
            self.send(text)

    def _answered(self, text: str) -> None:
        """An answer, or the end of its line, on the roll; and printed, for
        a client that shows nothing of its own typing."""
        self._keep(text)
        if self.echoing:
            self._print(text)
