# Tangled from literate/scp.md: edit the chapter, not this file, then run `retro tangle`.
"""The simple contextual predictor (SCP) of Breazu et al. (2020), incremental.

Tangled from literate/scp.md, which explains it.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from retro.engines.machines import coin


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


class ContextTree:
    """Counts of what followed every context of a growing history."""

    def __init__(self, max_depth: int = MAX_DEPTH):
        self.max_depth = max_depth
        self.history: list[int] = []
        self.followers = [0, 0, 0, 0]   # the root's: every symbol follows it
        self.longer = [0, 0, 0, 0]      # see above: 0, a node, or -1 - p

    @property
    def nodes(self) -> int:
        """Contexts that have occurred twice or more, and the root."""
        return len(self.followers) // 4

    def append(self, symbol: int) -> None:
        """Add a symbol: it follows every context ending just before it."""
        self.history.append(symbol)
        history, followers, longer = self.history, self.followers, self.longer
        at = len(history) - 1
        node = 0
        followers[symbol] += 1
        for depth in range(1, min(self.max_depth, at) + 1):
            slot = 4 * node + history[at - depth]
            child = longer[slot]
            if child == 0:
                longer[slot] = -1 - at
                break
            if child < 0:
                child = longer[slot] = self._second_sighting(-1 - child, depth)
            followers[4 * child + symbol] += 1
            node = child

    def _second_sighting(self, seen_at: int, depth: int) -> int:
        """A node for a context of length `depth` seen once, its follower at
        `seen_at`, that is about to be seen again; its old occurrence is noted
        one symbol further back."""
        node = self.nodes
        self.followers.extend((0, 0, 0, 0))
        self.longer.extend((0, 0, 0, 0))
        self.followers[4 * node + self.history[seen_at]] = 1
        before = seen_at - depth - 1     # the symbol before the old occurrence
        if before >= 0 and depth < self.max_depth:
            self.longer[4 * node + self.history[before]] = -1 - seen_at
        return node

    def counts_by_length(self) -> list[tuple[int, ...]]:
        """The counts for the contexts of length 1, 2, ... that the history
        ends with, grown as the paper grows them: until one has occurred
        once, or not at all."""
        history, followers, longer = self.history, self.followers, self.longer
        found = []
        node = 0
        end = len(history)
        for depth in range(1, min(self.max_depth, end) + 1):
            child = longer[4 * node + history[end - depth]]
            if child == 0:
                break
            if child < 0:
                once = [0, 0, 0, 0]
                once[history[-1 - child]] = 1
                found.append(tuple(once))
                break
            found.append(tuple(followers[4 * child:4 * child + 4]))
            node = child
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
