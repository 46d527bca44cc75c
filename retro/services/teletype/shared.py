# Tangled from literate/teletype.md: edit the chapter, not this file, then run `retro tangle`.
"""What every teletype shares: folding, the pace, the roll, Ctrl-C.

Tangled from literate/teletype.md, which explains it.
"""
from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TextIO

from retro.services.teletype.choices import Choices
from retro.services.teletype.paper import (WIDTH, Carriage, Pace, cells,
                                           printable)


class Teletype:
    """What every teletype shares: folding, pace, the roll, Ctrl-C."""

    def __init__(self, *, baud: int = 0, width: int = WIDTH,
                 transcript: TextIO | None = None,
                 on_roll: Callable[[str], object] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep):
        self.width = width
        self.carriage = Carriage(width)
        self.pace = Pace(baud, clock=clock)
        self.sleep = sleep
        self.transcript, self.on_roll = transcript, on_roll
        self.roll: deque[str] = deque()
        self.roll_lines: int | None = None  # lines the roll keeps; None: all
        self.rolled = 0  # lines on the roll now
        self.fell_off = 0  # lines that fell off its far end
        self.printing: deque[str] = deque()  # said, not yet struck
        self._interrupted = False  # Ctrl-C, not yet raised in the game
        self.pausing: asyncio.Future[object] | None = None

    def say(self, text: str = "", *, hang: int = 0) -> None:
        """Print `text` (which may hold several lines) and end the line;
        a line folded goes on at column `hang`, or its own indentation."""
        self._type(self._fold(str(text) + "\n", hang))

    def draw(self, text: str) -> None:
        """Print a drawing (a board, a table, a curve) just as it is laid out:
        no line of it folded or re-indented."""
        if self.carriage.column:
            self._type(self._fold("\n"))  # a drawing starts a fresh line
        self._type(printable(str(text)).expandtabs() + "\n")
        self.carriage.home()

    def table(self, lines: Sequence[str]) -> None:
        """Draw `lines` when each fits the paper; else say each, folded."""
        if all(cells(line) <= self.page() for line in lines):
            self.draw("\n".join(lines))
            return
        for line in lines:
            self.say(line)

    async def ask(self, prompt: str, choices: Choices = (),
                  history: str = "game") -> str:
        raise NotImplementedError

    def page(self) -> int:
        """The width the paper folds at now, in columns."""
        return self.width

    @property
    def baud(self) -> int:
        """The pace of the paper, in baud; 0 prints at once."""
        return self.pace.baud

    @baud.setter
    def baud(self, baud: int) -> None:
        self.pace.baud = baud

    def _fold(self, text: str, hang: int = 0) -> str:
        self.carriage.width = self.page()
        return self.carriage.fold(text, hang)

    def _type(self, text: str) -> None:
        if not text:
            return
        if self.pace.baud > 0 or self.printing:
            self.printing.append(text)
        else:
            self._strike(text)

    def _strike(self, text: str) -> None:
        self._keep(text)
        self._print(text)

    async def drain(self) -> None:
        """Strike everything said so far, at the pace of the line."""
        while self.printing:
            await self._pour(self.printing.popleft(), self._strike)
        self._raise_if_interrupted()

    async def _pour(self, text: str, strike: Callable[[str], object]) -> None:
        """Strike `text` at the pace, pausing between bursts."""
        if self.pace.baud <= 0:
            strike(text)
            return
        for burst in self.pace.bursts(text):
            if self._interrupted:
                return
            strike(burst)
            await self._pause(self.pace.after(burst))

    def interrupt(self) -> None:
        """Ctrl-C: drop what waits to be printed; the game's wait raises
        KeyboardInterrupt."""
        self.note_interrupt()
        self.stop_printing()

    def note_interrupt(self) -> None:
        """The first half of `interrupt`, safe in a signal handler: the next
        wait raises; `stop_printing` must follow, on the loop."""
        self._interrupted = True

    @property
    def blocking(self) -> bool:
        """Whether the teletype waits in a call only a signal can end."""
        return False

    def interruption(self) -> KeyboardInterrupt:
        """What a wait raises after a Ctrl-C."""
        return KeyboardInterrupt()

    def stop_printing(self) -> None:
        """Drop what waits to be printed, if a Ctrl-C is still unraised."""
        if not self._interrupted:
            return
        self.printing.clear()
        if self.pausing is not None:
            self.pausing.cancel()

    def _raise_if_interrupted(self) -> None:
        if self._interrupted:
            self._interrupted = False
            raise self.interruption()

    async def _pause(self, seconds: float) -> None:
        """Wait `seconds`, or until interrupted; never raises for Ctrl-C."""
        if seconds <= 0 or self._interrupted:
            return
        self.pausing = asyncio.ensure_future(self.sleep(seconds))
        try:
            await self.pausing
        except asyncio.CancelledError:
            if not self._interrupted:
                raise  # the game itself is being cancelled
        finally:
            self.pausing = None

    def paper(self) -> str:
        """Everything printed and typed so far, as it reads on the paper."""
        return "".join(self.roll)

    def tear(self, path: str | Path) -> Path:
        """Save the roll to a new file `path` and start a fresh roll."""
        path = Path(path)
        paper = open(path, "x", encoding="utf-8", errors="replace")
        try:
            with paper:
                paper.write(self.paper())
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        self.fresh_roll()
        return path

    def fresh_roll(self) -> None:
        """Start the paper roll again, empty."""
        self.roll.clear()
        self.rolled = self.fell_off = 0

    def _keep(self, text: str) -> None:
        """Put `text` on the roll and into the transcript."""
        self.roll.append(text)
        if self.roll_lines is not None:
            self.rolled += text.count("\n")
            while self.rolled > self.roll_lines and len(self.roll) > 1:
                gone = self.roll.popleft().count("\n")
                self.rolled -= gone
                self.fell_off += gone
        if self.transcript is not None:
            self.transcript.write(text)
            self.transcript.flush()
        if self.on_roll is not None:
            self.on_roll(text)

    def _print(self, text: str) -> None:
        raise NotImplementedError
