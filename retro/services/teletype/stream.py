# Tangled from literate/teletype.md: edit the chapter, not this file, then run `retro tangle`.
"""The stream teletype, for pipes, files and tests; and which teletype a
pair of streams gets.

Tangled from literate/teletype.md, which explains it.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, Any, TextIO

from retro.services.teletype.choices import Choices
from retro.services.teletype.paper import clean
from retro.services.teletype.shared import Teletype
from retro.services.teletype.terminal import TerminalTeletype


class StreamTeletype(Teletype):
    """A teletype on plain streams: answers read by line and echoed."""

    def __init__(self, instream: IO, outstream: TextIO, **options: Any):
        super().__init__(**options)
        self.instream, self.outstream = instream, outstream
        self.ended = False
        self._reading = False  # in readline, where only a signal can stop it

    @property
    def blocking(self) -> bool:
        return self._reading

    async def ask(self, prompt: str, choices: Choices = (),
                  history: str = "game") -> str:
        """Print `prompt`, read a line, echo it and return it stripped."""
        if self.ended:
            raise EOFError
        self._raise_if_interrupted()
        self._type(self._fold(str(prompt)) + self.carriage.flush())
        try:
            await self.drain()  # (it raises a Ctrl-C heard while it printed)
            self._reading = True
            self._raise_if_interrupted()  # a Ctrl-C heard before the read
            line = self.instream.readline()
        except KeyboardInterrupt:  # the prompt's line ends, as at the end
            self._type(self._fold("\n") if self.carriage.column else "")
            raise
        finally:
            self._reading = False
        if not line:
            self.ended = True
            self._type(self._fold("\n") if self.carriage.column else "")
            await self.drain()
            raise EOFError
        answer = clean(line)
        self._type(self._fold(answer + "\n"))
        return answer

    def _print(self, text: str) -> None:
        self.outstream.write(text)
        self.outstream.flush()


def open_teletype(*, stdin=None, stdout=None,
                  history: str | Path | None = None,
                  **options: Any) -> Teletype:
    """The terminal teletype for a person, the stream one for a pipe."""
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    if hasattr(stdout, "reconfigure"):
        stdout.reconfigure(errors="replace")
    if _is_terminal(stdin) and _is_terminal(stdout):
        return TerminalTeletype(history=history, stdout=stdout, **options)
    return StreamTeletype(getattr(stdin, "buffer", stdin), stdout, **options)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
