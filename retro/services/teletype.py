# Tangled from literate/teletype.md: edit the chapter, not this file, then run `retro tangle`.
"""The teletype: the one object a game talks through (say and ask).

Tangled from literate/teletype.md, which explains it.
"""
from __future__ import annotations


import asyncio
import enum
import os
import re
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TextIO, Union


WIDTH = 72
NARROWEST = 16


Listed = Union[Sequence[str], Mapping[str, Sequence[str]]]
Choices = Union[Listed, Callable[[], Listed]]


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_IN_TEXT = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


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


def printable(text: str) -> str:
    """`text` with every control character but line ending and tab shown."""
    return _CONTROL_IN_TEXT.sub(_caret, text)


def cells(text: str) -> int:
    """How many columns of a terminal `text` takes (一 takes two)."""
    if text.isascii():
        return len(text)
    from wcwidth import wcswidth, wcwidth

    width = wcswidth(text)
    if width >= 0:
        return width
    return sum(max(wcwidth(char), 0) for char in text)


def graphemes(word: str) -> Iterator[str]:
    """The pieces of `word` that may not be cut apart."""
    if word.isascii():
        return iter(word)
    try:
        from wcwidth import iter_graphemes
    except ImportError:
        return iter(word)
    return iter_graphemes(word)


class Carriage:
    """Folds text at the right margin, remembering its column between calls."""

    _PIECES = re.compile(r"\n| +|[^ \n]+")

    def __init__(self, width: int = WIDTH):
        self.width = width
        self.hang = 0
        self.home()

    def home(self) -> None:
        """Back to column 0 of a fresh line."""
        self.column = 0
        self.indent = 0
        self.held = 0  # spaces waiting for the next word
        self.bare = True  # nothing but indentation on this line yet

    def fold(self, text: str, hang: int = 0) -> str:
        """Return `text` with line breaks added where it passes the margin;
        a line it continues is indented to `hang`, at least."""
        self.hang = hang
        out: list[str] = []
        text = printable(text).expandtabs()
        measure = len if text.isascii() else cells  # ASCII: a cell a letter
        for piece in self._PIECES.findall(text):
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
                width = measure(piece)
                if self.column + self.held + width > self.width \
                        and self.column + self.held > self.indent:
                    self.new_line(out)
                if self.held:
                    out.append(" " * self.held)
                    self.column += self.held
                    self.held = 0
                if self.column + width <= self.width:
                    out.append(piece)
                    self.column += width
                else:
                    self.cut(piece, out)
        return "".join(out)

    def flush(self) -> str:
        """Print the spaces held back (before a prompt waits for typing)."""
        spaces = " " * max(0, min(self.held, self.width - self.column))
        self.column += len(spaces)
        self.held = 0
        return spaces

    def new_line(self, out: list[str]) -> None:
        """Fold: a line ending, then the indentation (at most half the page)."""
        self.indent = min(max(self.indent, self.hang), self.width // 2)
        out.append("\n" + " " * self.indent)
        self.column, self.held = self.indent, 0

    def cut(self, word: str, out: list[str]) -> None:
        """Strike `word`, folding wherever the margin falls inside it."""
        line: list[str] = []
        before = ""   # the grapheme struck last on this line
        for grapheme in graphemes(word):
            width = max(cells(before + grapheme) - cells(before), 0)
            if line and self.column + width > self.width:
                out.append("".join(line))
                line, before = [], ""
                self.new_line(out)
                width = cells(grapheme)
            line.append(grapheme)
            self.column += width
            before = grapheme
        out.append("".join(line))


def characters_per_second(baud: int) -> float:
    """How fast a teletype line of `baud` bits a second prints characters."""
    bits = 11 if baud <= 110 else 10
    return baud / bits


class Pace:
    """How fast a teletype at `baud` strikes text: bursts, and the pauses."""

    STEP = 0.02  # seconds of printing in one burst

    def __init__(self, baud: int = 0, *,
                 clock: Callable[[], float] = time.monotonic):
        self.baud, self.clock = baud, clock
        self.due = 0.0  # when the line will have caught up

    def bursts(self, text: str) -> Iterator[str]:
        """`text` in the pieces the line strikes at once."""
        step = max(1, int(characters_per_second(self.baud) * self.STEP))
        return (text[start:start + step]
                for start in range(0, len(text), step))

    def after(self, burst: str) -> float:
        """Seconds to pause once `burst` is struck (0 or more)."""
        rate = characters_per_second(self.baud)
        self.due = max(self.due, self.clock()) + len(burst) / rate
        return max(0.0, self.due - self.clock())


class Teletype:
    """What every teletype shares: folding, pace, the roll, Ctrl-C."""

    def __init__(self, *, baud: int = 0, width: int = WIDTH,
                 transcript: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable] = asyncio.sleep):
        self.width = width
        self.carriage = Carriage(width)
        self.pace = Pace(baud, clock=clock)
        self.sleep = sleep
        self.transcript = transcript
        self.roll: deque[str] = deque()
        self.roll_lines: int | None = None  # lines the roll keeps; None: all
        self.rolled = 0  # lines on the roll now
        self.fell_off = 0  # lines that fell off its far end
        self.printing: deque[str] = deque()  # said, not yet struck
        self.interrupted = False  # Ctrl-C, not yet raised in the game
        self.pausing: asyncio.Future | None = None

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
            if self.interrupted:
                return
            strike(burst)
            await self._pause(self.pace.after(burst))

    def interrupt(self) -> None:
        """Ctrl-C: drop what waits to be printed; the game's wait raises
        KeyboardInterrupt."""
        self.interrupted = True
        self.stop_printing()

    def stop_printing(self) -> None:
        """Drop what waits to be printed, if a Ctrl-C is still unraised."""
        if not self.interrupted:
            return
        self.printing.clear()
        if self.pausing is not None:
            self.pausing.cancel()

    def _raise_if_interrupted(self) -> None:
        if self.interrupted:
            self.interrupted = False
            raise KeyboardInterrupt

    async def _pause(self, seconds: float) -> None:
        """Wait `seconds`, or until interrupted; never raises for Ctrl-C."""
        if seconds <= 0 or self.interrupted:
            return
        self.pausing = asyncio.ensure_future(self.sleep(seconds))
        try:
            await self.pausing
        except asyncio.CancelledError:
            if not self.interrupted:
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

    def _print(self, text: str) -> None:
        raise NotImplementedError


class StreamTeletype(Teletype):
    """A teletype on plain streams: answers read by line and echoed."""

    def __init__(self, instream: IO, outstream: TextIO, **options):
        super().__init__(**options)
        self.instream, self.outstream = instream, outstream
        self.ended = False
        self.reading = False  # in readline, where only a signal can stop it

    async def ask(self, prompt: str, choices: Choices = (),
                  history: str = "game") -> str:
        """Print `prompt`, read a line, echo it and return it stripped."""
        if self.ended:
            raise EOFError
        self._raise_if_interrupted()
        self._type(self._fold(str(prompt)) + self.carriage.flush())
        await self.drain()
        self.reading = True
        try:
            self._raise_if_interrupted()  # a Ctrl-C heard before the read
            line = self.instream.readline()
        finally:
            self.reading = False
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


class LineTeletype(Teletype):
    """A teletype at the far end of a network line: lines in, `send` out."""

    def __init__(self, send: Callable[[str], object], *,
                 idle: float | None = None, roll_lines: int | None = None,
                 echo: Callable[[bool], object] = lambda hidden: None,
                 **options):
        super().__init__(**options)
        self.send, self.idle, self.roll_lines = send, idle, roll_lines
        self.echo = echo  # hides what the player types, or shows it again
        self.lines: deque[bytes | str | Signal] = deque()  # heard, not asked
        self.ended: Signal | None = None
        self.listening: asyncio.Future | None = None
        self.typed: list[str] = []  # printed, not yet sent
        self.choices: Choices = ()  # what the question being asked offers

    def hear(self, line: bytes | str | Signal) -> None:
        """A line (or a signal) from the connection, in the order typed."""
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
        if self.ended is Signal.GOING_DOWN and history == "room":
            self.interrupted = False
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
            self._keep(self._fold("\n" if hidden else answer + "\n"))
            return answer
        self._keep(self._fold("\n"))
        self.carriage.home()
        self.interrupted = False
        if line is Signal.INTERRUPT or (line is Signal.GOING_DOWN
                                        and history != "room"):
            raise KeyboardInterrupt
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
            if self.interrupted:
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
                if not self.interrupted:
                    raise  # the session itself is being cancelled
            finally:
                self.listening = self.pausing = None
                if timer is not None:
                    timer.cancel()
        line = self.lines.popleft()
        if line is Signal.HANG_UP:
            self.ended = line
        return line

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


class TerminalTeletype(Teletype):
    """A teletype at a real terminal: prompt_toolkit line editing."""

    def __init__(self, *, history: str | Path | None = None,
                 stdout: TextIO | None = None, input=None, output=None,
                 keys: IO | None = None,
                 columns: Callable[[], int] | None = None, **options):
        super().__init__(**options)
        from prompt_toolkit import PromptSession

        self.stdout = stdout if stdout is not None else sys.stdout
        self.keys = keys if keys is not None else sys.stdin
        self.history = Path(history) if history is not None else None
        first = PromptSession(history=self._history("game"), input=input,
                              output=output, complete_while_typing=False,
                              key_bindings=line_limit())
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


LONGEST_REMEMBERED = 200  # characters; a longer answer is not kept
REMEMBERED = 500  # answers kept in a history file


def memorable(answer: str) -> bool:
    return 0 < len(answer) <= LONGEST_REMEMBERED and not answer.isspace()


def bounded_history(path: Path | None):
    """A prompt_toolkit history that keeps only what is worth recalling."""
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    base = InMemoryHistory if path is None else FileHistory
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass

    class Bounded(base):
        def append_string(self, string: str) -> None:
            if memorable(string):
                super().append_string(string)

        def store_string(self, string: str) -> None:
            try:
                super().store_string(string)
            except OSError:
                pass

        def load_history_strings(self) -> Iterator[str]:
            try:
                loaded = list(super().load_history_strings())
            except OSError:
                return iter(())
            kept = [answer for answer in loaded if memorable(answer)][:REMEMBERED]
            if path is not None and len(kept) < len(loaded):
                try:
                    fresh = path.with_name(path.name + ".new")
                    fresh.write_text("".join(f"\n# kept\n+{answer}\n"
                                             for answer in reversed(kept)),
                                     encoding="utf-8")
                    os.replace(fresh, path)
                except OSError:
                    pass
            return iter(kept)

    return Bounded() if path is None else Bounded(str(path))


def completer(choices: Choices):
    """A prompt_toolkit completer for `choices`, or None for none."""
    from prompt_toolkit.completion import Completer, Completion

    if not callable(choices) and not isinstance(choices, Mapping) \
            and not list(choices):
        return None

    class Offer(Completer):
        def get_completions(self, document, complete_event):
            before = document.text_before_cursor
            typing = word_typed(before)
            for choice in completions(choices, before):
                yield Completion(choice, start_position=-len(typing))

    return Offer()


def completions(choices: Choices, before: str) -> list[str]:
    """The choices that finish the word at the end of `before`, each in
    the case it was typed in."""
    menu = choices() if callable(choices) else choices
    typing = word_typed(before)
    words = before.split()[:-1] if typing else before.split()
    offered = (menu.get(" ".join(words).lower(), ())
               if isinstance(menu, Mapping) else menu)
    return [in_the_case_of(typing or before, choice) for choice in offered
            if choice.lower().startswith(typing.lower())]


def word_typed(before: str) -> str:
    """The word being typed at the end of `before`; "" after a space."""
    return "" if not before or before[-1].isspace() else before.split()[-1]


def in_the_case_of(typed: str, choice: str) -> str:
    """`choice` in the case of `typed`: capitals, small letters, or its own."""
    if typed.isupper():
        return choice.upper()
    return choice.lower() if typed.islower() else choice


def open_teletype(*, stdin=None, stdout=None,
                  history: str | Path | None = None,
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
