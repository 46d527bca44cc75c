# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""Helpers every layer shares: usage errors, bounded numbers, fresh seeds."""
from __future__ import annotations

import argparse
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotations; `retro --help` need not load it
    import random


class UsageError(Exception):
    """A mistake on the command line: one line, exit status 2."""


DIGITS = re.compile(r"[0-9]{1,18}")  # ASCII only: "²" and "٣" are words


def number_in(text: str) -> int | None:
    """The whole number `text` spells in ASCII digits, or None."""
    text = text.strip()
    return int(text) if DIGITS.fullmatch(text) else None


def quoted(text: str, width: int = 20) -> str:
    """Typed text for a message: in double quotes, cut to `width`."""
    text = "".join(char if char.isprintable() else "?"
                   for char in text[:width + 1])
    return f'"{text[:width]}..."' if len(text) > width else f'"{text}"'


def plural(count: int, word: str, words: str | None = None) -> str:
    """`count` and the word for that many: 1 game, 2 games, 0 GAMES."""
    if count == 1:
        return f"{count} {word}"
    if words is None:
        words = word + ("S" if word.isupper() else "s")
    return f"{count} {words}"


def whole_number(low: int, high: int | None = None):
    """An argparse type: a whole number from `low` to `high` (if given)."""
    def read(text: str) -> int:
        digits = text.removeprefix("-")
        value = number_in(digits)
        if value is None and digits.isascii() and digits.isdigit():
            raise argparse.ArgumentTypeError(f"too large: {quoted(text)}")
        if value is None:
            raise argparse.ArgumentTypeError(
                f"not a whole number: {quoted(text)}")
        value = -value if text.startswith("-") else value
        if value < low:
            raise argparse.ArgumentTypeError(
                f"must not be negative: {value}" if low == 0
                else f"must be at least {low}: {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(
                f"must be at most {high}: {value}")
        return value
    return read


def new_seed(rng: random.Random | None = None) -> int:
    """A fresh seed for a game: from `rng`, or from the system."""
    if rng is None:
        import random  # only here: `retro --help` need not load it

        rng = random.SystemRandom()
    return rng.randrange(2 ** 32)


def next_seed(seed: int) -> int:
    """The seed of the game after the one `seed` plays, in one sitting."""
    import random

    return random.Random(f"retro: the game after {seed}").randrange(2 ** 32)
