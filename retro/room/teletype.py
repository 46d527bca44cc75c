# Tangled from literate/teletype.md: edit the chapter, not this file, then run `retro tangle`.
"""The teletype: the one object a game talks through (say and ask).

Tangled from literate/teletype.md, which explains it.
"""
from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TextIO

WIDTH = 72


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _caret(match: re.Match) -> str:
    code = ord(match.group())
    if code == 0x7f:
        return "^?"
    return "^" + chr(code + 64) if code < 0x20 else "\ufffd"


def clean(line: str | bytes) -> str:
    """A typed line as the games see it: decoded, printable, stripped."""
    if isinstance(line, bytes):
        line = line.decode("utf-8", errors="replace")
    line = line.rstrip("\r\n").replace("\t", " ")
    return _CONTROL.sub(_caret, line).strip()


class Carriage:
    """Folds text at the right margin, remembering its column between calls."""

    _PIECES = re.compile(r"\n| +|[^ \n]+")

    def __init__(self, width: int = WIDTH):
        self.width = width
        self.home()

    def home(self) -> None:
        """Back to column 0 of a fresh line."""
        self.column = 0
        self.indent = 0
        self.held = 0  # spaces waiting for the next word
        self.bare = True  # nothing but indentation on this line yet

    def fold(self, text: str) -> str:
        """Return `text` with line breaks added where it passes the margin."""
        out: list[str] = []
        for piece in self._PIECES.findall(text.expandtabs()):
            if piece == "\n":
                out.append("\n")
                self.home()
            elif piece[0] == " ":
                if self.bare:
                    indent = min(self.indent + len(piece), self.width // 2)
                    out.append(" " * (indent - self.indent))
                    self.indent = self.column = indent
                else:
                    self.held += len(piece)
            else:
                self.bare = False
                while piece:
                    if self.column + self.held + len(piece) > self.width \
                            and self.column > self.indent:
                        out.append("\n" + " " * self.indent)
                        self.column, self.held = self.indent, 0
                    out.append(" " * self.held)
                    self.column += self.held
                    self.held = 0
                    room = max(self.width - self.column, 1)
                    out.append(piece[:room])
                    self.column += len(piece[:room])
                    piece = piece[room:]
        return "".join(out)

    def flush(self) -> str:
        """Print the spaces held back (before a prompt waits for typing)."""
        spaces = " " * min(self.held, self.width - self.column)
        self.column += len(spaces)
        self.held = 0
        return spaces


def characters_per_second(baud: int) -> float:
    """How fast a teletype line of `baud` bits a second prints characters."""
    bits = 11 if baud <= 110 else 10
    return baud / bits


class Pace:
    """Write text no faster than a teletype at `baud` would print it."""

    STEP = 0.02  # seconds of printing between two sleeps

    def __init__(self, baud: int = 0, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self.baud = baud
        self.clock, self.sleep = clock, sleep
        self.due = 0.0

    def type(self, text: str, write: Callable[[str], object],
             flush: Callable[[], object] = lambda: None) -> None:
        if self.baud <= 0:
            write(text)
            return
        rate = characters_per_second(self.baud)
        step = max(1, int(rate * self.STEP))
        for start in range(0, len(text), step):
            burst = text[start:start + step]
            write(burst)
            flush()
            self.due = max(self.due, self.clock()) + len(burst) / rate
            wait = self.due - self.clock()
            if wait > 0:
                self.sleep(wait)


class Teletype:
    """What both teletypes share: folding, pace and the paper roll."""

    def __init__(self, *, baud: int = 0, width: int = WIDTH,
                 transcript: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self.carriage = Carriage(width)
        self.pace = Pace(baud, clock=clock, sleep=sleep)
        self.transcript = transcript
        self.roll: list[str] = []

    def say(self, text: str = "") -> None:
        """Print `text` (which may hold several lines) and end the line."""
        self._type(self.carriage.fold(str(text) + "\n"))

    def ask(self, prompt: str, choices: Sequence[str] = ()) -> str:
        raise NotImplementedError

    def paper(self) -> str:
        """Everything printed and typed so far, as it reads on the paper."""
        return "".join(self.roll)

    def tear(self, path: str | Path) -> Path:
        """Save the paper roll to `path`; return the path written."""
        path = Path(path)
        path.write_text(self.paper(), encoding="utf-8")
        return path

    def _type(self, text: str) -> None:
        if not text:
            return
        self._keep(text)
        self._print(text)

    def _keep(self, text: str) -> None:
        """Put `text` on the roll and into the transcript."""
        self.roll.append(text)
        if self.transcript is not None:
            self.transcript.write(text)
            self.transcript.flush()

    def _print(self, text: str) -> None:
        raise NotImplementedError


class StreamTeletype(Teletype):
    """A teletype on plain streams: answers read by line and echoed."""

    def __init__(self, instream: IO, outstream: TextIO, **options):
        super().__init__(**options)
        self.instream, self.outstream = instream, outstream
        self.ended = False

    def ask(self, prompt: str, choices: Sequence[str] = ()) -> str:
        """Print `prompt`, read a line, echo it and return it stripped."""
        if self.ended:
            raise EOFError
        self._type(self.carriage.fold(str(prompt)) + self.carriage.flush())
        line = self.instream.readline()
        if not line:
            self.ended = True
            self._type(self.carriage.fold("\n") if self.carriage.column else "")
            raise EOFError
        answer = clean(line)
        self._type(self.carriage.fold(answer + "\n"))
        return answer

    def _print(self, text: str) -> None:
        self.pace.type(text, self.outstream.write, self.outstream.flush)
        self.outstream.flush()


class TerminalTeletype(Teletype):
    """A teletype at a real terminal: prompt_toolkit line editing."""

    def __init__(self, *, history: str | Path | None = None,
                 stdout: TextIO | None = None, input=None, output=None,
                 **options):
        super().__init__(**options)
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, InMemoryHistory

        self.stdout = stdout if stdout is not None else sys.stdout
        if history is not None:
            Path(history).parent.mkdir(parents=True, exist_ok=True)
            remembered = FileHistory(str(history))
        else:
            remembered = InMemoryHistory()
        self.session = PromptSession(history=remembered, input=input,
                                     output=output,
                                     complete_while_typing=False)

    def ask(self, prompt: str,
            choices: Sequence[str] | Callable[[], Sequence[str]] = ()) -> str:
        """Read an answer with line editing; Tab completes `choices`."""
        from prompt_toolkit.completion import WordCompleter

        above, _, prompt = str(prompt).rpartition("\n")
        if above:
            self.say(above)
        if self.pace.baud > 0:
            self.pace.type(prompt, self.stdout.write, self.stdout.flush)
            self.stdout.write("\r")
            self.stdout.flush()
        words = choices if callable(choices) else list(choices)
        completer = WordCompleter(words, ignore_case=True) if words else None
        answer = clean(self.session.prompt(prompt, completer=completer))
        self._keep(prompt + answer + "\n")  # the terminal shows it already
        self.carriage.home()
        return answer

    def _print(self, text: str) -> None:
        self.pace.type(text, self.stdout.write, self.stdout.flush)
        self.stdout.flush()


def open_teletype(*, stdin=None, stdout=None, history: str | Path | None = None,
                  **options) -> Teletype:
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
