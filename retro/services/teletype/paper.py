# Tangled from literate/teletype.md: edit the chapter, not this file, then run `retro tangle`.
"""The paper and its pace: what may be printed, how wide it is, where a
line folds, and how fast a line of a given baud strikes it.

Tangled from literate/teletype.md, which explains it.
"""
from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Iterator


WIDTH = 72
NARROWEST = 16


def paper_width(columns: int) -> int:
    """The width a paper `columns` wide folds at: what it holds, at most
    a terminal's page and at least the narrowest a teletype folds at."""
    return max(NARROWEST, min(WIDTH, columns))


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
    wcswidth, wcwidth = widths()
    width = wcswidth(text)
    if width >= 0:
        return width
    return sum(max(wcwidth(char), 0) for char in text)


@functools.cache
def widths() -> tuple[Callable[[str], int], Callable[[str], int]]:
    """wcwidth's two measures, imported the first time text is not ASCII
    (the library takes longer to import than the room takes to start)."""
    from wcwidth import wcswidth, wcwidth

    return wcswidth, wcwidth


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
        if word.isascii():
            self.cut_ascii(word, out)
            return
        line: list[str] = []
        before, wide = "", 0   # the grapheme struck last on this line, its cells
        for grapheme in graphemes(word):
            width = max(cells(before + grapheme) - wide, 0)
            if line and self.column + width > self.width:
                out.append("".join(line))
                line, before = [], ""
                self.new_line(out)
                width = cells(grapheme)
            line.append(grapheme)
            self.column += width
            before, wide = grapheme, cells(grapheme)
        out.append("".join(line))

    def cut_ascii(self, word: str, out: list[str]) -> None:
        """`cut`, for a word whose every character takes one column."""
        while True:
            piece = word[:max(self.width - self.column, 1)]
            out.append(piece)
            self.column += len(piece)
            word = word[len(piece):]
            if not word:
                return
            self.new_line(out)


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
