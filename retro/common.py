# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""Helpers every layer shares: usage errors, bounded numbers, fresh seeds."""
from __future__ import annotations

import argparse
import random


class UsageError(Exception):
    """A mistake on the command line: one line, exit status 2."""


def whole_number(low: int, high: int | None = None):
    """An argparse type: a whole number from `low` to `high` (if given)."""
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
        if value < low:
            raise argparse.ArgumentTypeError(
                f"must not be negative: {value}" if low == 0
                else f"must be at least {low}: {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high}: {value}")
        return value
    return read


def new_seed(rng: random.Random | None = None) -> int:
    """A fresh seed for a game: from `rng`, or from the system."""
    return (rng or random.SystemRandom()).randrange(2 ** 32)
