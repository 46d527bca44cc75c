# Tangled from literate/teletype.md: edit the chapter, not this file, then run `retro tangle`.
"""The terminal teletype: a person at a terminal, prompt_toolkit editing.

Tangled from literate/teletype.md, which explains it.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, TextIO

from retro.services.teletype.choices import Choices, completer
from retro.services.teletype.history import bounded_history
from retro.services.teletype.paper import NARROWEST, clean, printable
from retro.services.teletype.shared import Teletype


class TerminalTeletype(Teletype):
    """A teletype at a real terminal: prompt_toolkit line editing."""

    def __init__(self, *, history: str | Path | None = None,
                 stdout: TextIO | None = None, input=None, output=None,
                 keys: IO | None = None,
                 columns: Callable[[], int] | None = None, **options: Any):
        super().__init__(**options)
        from prompt_toolkit import PromptSession

        self.stdout = stdout if stdout is not None else sys.stdout
        self.keys = keys if keys is not None else sys.stdin
        self.history = Path(history) if history is not None else None
        first: PromptSession[str] = PromptSession(
            history=self._history("game"), input=input, output=output,
            complete_while_typing=False, key_bindings=line_limit())
        self.sessions = {"game": first}
        self.columns = columns or (lambda: first.output.get_size().columns)

    def _session(self, history: str):
        from prompt_toolkit import PromptSession

        if history not in self.sessions:
            first = self.sessions["game"]
            self.sessions[history] = PromptSession(
                history=self._history(history), input=first.input,
                output=first.output, complete_while_typing=False,
                key_bindings=first.key_bindings)
        return self.sessions[history]

    def _history(self, name: str):
        if self.history is None:
            return bounded_history(None)
        if name == "room":
            return bounded_history(self.history)
        return bounded_history(self.history.with_name(
            f"{self.history.name}-{name}"))

    def page(self) -> int:
        try:
            columns = int(self.columns())
        except (OSError, ValueError):
            columns = 0
        page = min(self.width, columns) if columns > 0 else self.width
        return max(page, NARROWEST)

    async def ask(self, prompt: str, choices: Choices = (),
                  history: str = "game") -> str:
        """Read an answer with line editing; Tab completes `choices`."""
        self._raise_if_interrupted()
        above, _, prompt = printable(str(prompt)).rpartition("\n")
        if above:
            self.say(above)
        await self.drain()
        if self.pace.baud > 0:
            with self._keys_held():
                await self._pour(prompt, self._print)
            self._raise_if_interrupted()
            self._print("\r")
        answer = clean(await self._session(history).prompt_async(
            prompt, completer=completer(choices), handle_sigint=False))
        self._keep(self._fold(prompt + answer + "\n"))  # the terminal shows it
        self.carriage.home()
        return answer

    def _print(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()

    async def drain(self) -> None:
        with self._keys_held():
            await super().drain()

    @contextmanager
    def _keys_held(self) -> Iterator[None]:
        """No echo while printing at a pace; keys typed meanwhile wait."""
        try:
            import termios

            descriptor = self.keys.fileno()
            before = termios.tcgetattr(descriptor) \
                if self.pace.baud > 0 and os.isatty(descriptor) else None
        except (ImportError, AttributeError, ValueError, OSError):
            before = None
        if before is None:
            yield
            return
        quiet = list(before)
        quiet[3] &= ~termios.ECHO  # the local flags
        termios.tcsetattr(descriptor, termios.TCSANOW, quiet)
        try:
            yield
        finally:
            termios.tcsetattr(descriptor, termios.TCSANOW, before)


LONGEST_TYPED = 1000  # characters a line typed at the terminal may hold


def line_limit():
    """prompt_toolkit key bindings that keep a line to LONGEST_TYPED."""
    from prompt_toolkit.filters import Condition
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.keys import Keys

    bindings = KeyBindings()

    @Condition
    def full() -> bool:
        from prompt_toolkit.application.current import get_app

        return len(get_app().current_buffer.text) >= LONGEST_TYPED

    @bindings.add(Keys.Any, filter=full)
    def _refuse(event) -> None:
        event.app.output.bell()

    @bindings.add(Keys.BracketedPaste)
    def _paste(event) -> None:
        buffer = event.current_buffer
        data = event.data.replace("\r\n", "\n").replace("\r", "\n")
        room = max(0, LONGEST_TYPED - len(buffer.text))
        if len(data) > room:
            event.app.output.bell()
        buffer.insert_text(data[:room])

    return bindings
