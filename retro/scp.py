# Tangled from literate/scp.md: edit the chapter, not this file, then run `retro tangle`.
"""The simple contextual predictor (SCP) of Breazu et al. (2020), incremental.

Tangled from literate/scp.md, which explains it.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from retro.machines import coin


SW, SL, DW, DL = range(4)
SYMBOLS = ("sw", "sl", "dw", "dl")


def symbol(changed: bool, won: bool) -> int:
    """The symbol for a round: did the opponent change, did it win."""
    return 2 * changed + (not won)


def parse_symbols(text: str) -> list[int]:
    """The paper's notation, 'sldwdl...', as a list of symbols."""
    pairs = [text[i:i + 2] for i in range(0, len(text), 2)]
    try:
        return [SYMBOLS.index(pair) for pair in pairs]
    except ValueError:
        raise ValueError(f"not a history of sw/sl/dw/dl: {text!r}") from None


@dataclass(frozen=True)
class Reading:
    """What SCP made of the contexts before one play."""

    found: int               # the longest context that has occurred (LLCF)
    used: int                # the longest unbalanced one (LCUP), 0 if none
    expect_same: bool | None  # the prediction; None means play at random


def read(counts_by_length: Sequence[Sequence[int]]) -> Reading:
    """The paper's rule: the longest context where sw+dl and sl+dw differ."""
    used, expect_same = 0, None
    for length, (sw, sl, dw, dl) in enumerate(counts_by_length, start=1):
        stay_would_win, change_would_win = sw + dl, sl + dw
        if stay_would_win != change_would_win:
            used, expect_same = length, stay_would_win > change_would_win
    return Reading(len(counts_by_length), used, expect_same)


MAX_DEPTH = 32


class Context:
    """A node: what followed one context, and the contexts one longer."""

    __slots__ = ("followers", "longer", "seen_once_at")

    def __init__(self, follower: int | None = None, at: int | None = None):
        self.followers = [0, 0, 0, 0]
        if follower is not None:
            self.followers[follower] = 1
        self.longer: list[Context | None] = [None, None, None, None]
        self.seen_once_at = at   # the follower's position, while seen once


class ContextTree:
    """Counts of what followed every context of a growing history."""

    def __init__(self, max_depth: int = MAX_DEPTH):
        self.max_depth = max_depth
        self.history: list[int] = []
        self.root = Context()   # the empty context: every symbol follows it

    def append(self, symbol: int) -> None:
        """Add a symbol: it follows every context ending just before it."""
        self.history.append(symbol)
        at = len(self.history) - 1
        node = self.root
        node.followers[symbol] += 1
        for depth in range(1, self.max_depth + 1):
            if at - depth < 0:
                break
            earlier = self.history[at - depth]
            child = node.longer[earlier]
            if child is None:
                node.longer[earlier] = Context(symbol, at)
                break
            if child.seen_once_at is not None:
                self._push_down(child, depth)
            child.followers[symbol] += 1
            node = child

    def _push_down(self, node: Context, depth: int) -> None:
        """A context of length `depth` seen once is about to be seen again:
        give its old occurrence a node one symbol longer."""
        at, node.seen_once_at = node.seen_once_at, None
        start = at - depth - 1          # the symbol before the old occurrence
        if start >= 0 and depth < self.max_depth:
            node.longer[self.history[start]] = Context(self.history[at], at)

    def counts_by_length(self) -> list[tuple[int, int, int, int]]:
        """The counts for the contexts of length 1, 2, ... that the history
        ends with, grown as the paper grows them: until one has occurred
        once, or not at all."""
        found = []
        node = self.root
        end = len(self.history)
        for depth in range(1, min(self.max_depth, end) + 1):
            node = node.longer[self.history[end - depth]]
            if node is None:
                break
            found.append(tuple(node.followers))
            if sum(node.followers) <= 1:
                break
        return found


class ContextPredictor:
    """The Sibiu SCP: the longest unbalanced context predicts."""

    name = "scp"

    def __init__(self, rng: random.Random, max_depth: int = MAX_DEPTH):
        self.rng = rng
        self.tree = ContextTree(max_depth)
        self.last: tuple[int, int] | None = None   # (my play, theirs)
        self.reading: Reading | None = None
        self.play: int | None = None

    def choose(self) -> int:
        self.reading = read(self.tree.counts_by_length())
        expect_same = self.reading.expect_same
        if self.last is None or expect_same is None:
            self.play = coin(self.rng)
        else:
            theirs = self.last[1]
            self.play = theirs if expect_same else 1 - theirs
        return self.play

    def learn(self, opponent: int) -> None:
        if self.last is not None:
            changed = opponent != self.last[1]
            won = opponent != self.play
            self.tree.append(symbol(changed, won))
        self.last = (self.play, opponent)
