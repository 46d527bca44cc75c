# Tangled from literate/penney_odds.md: edit the chapter, not this file, then run `retro tangle`.
"""Exact odds and waiting times for Penney's game, for patterns of any length.

Tangled from literate/penney_odds.md, which explains it.
"""
from __future__ import annotations

import random
from fractions import Fraction

from retro.common import plural, quoted


COIN = "HT"  # a toss: heads is the bit 0, tails the bit 1
ZERO = Fraction(0)
_DIGITS = str.maketrans("HT", "01")
_LETTERS = str.maketrans("01", "HT")


def patterns(length: int) -> list[str]:
    """All 2**length patterns of `length` tosses, counting up from H...H."""
    return [spell(bits, length) for bits in range(1 << length)]


def spell(bits: int, length: int) -> str:
    """The pattern whose tosses are the binary digits of `bits`."""
    return format(bits, f"0{length}b").translate(_LETTERS)


def bits_of(pattern: str) -> int:
    """The number whose binary digits are the tosses of `pattern`."""
    return int(pattern.translate(_DIGITS), 2)


def other_side(toss: str) -> str:
    """T for H and H for T."""
    return "T" if toss == "H" else "H"


def example(length: int) -> str:
    """A pattern to show in messages: HTH for three tosses."""
    return ("HT" * length)[:length]


def common_length(a: str, b: str) -> int:
    """The length the two patterns share; a ValueError if they do not."""
    if len(a) != len(b):
        raise ValueError(f"{a} and {b} are not the same length")
    return len(a)


def parse_pattern(text: str, length: int | None = None) -> str:
    """The pattern in `text` ('h t h' gives 'HTH'), or a ValueError saying
    why not.

    With `length`, the pattern must have exactly that many tosses.
    """
    pattern = "".join(text.upper().replace(",", " ").split())
    shown = example(length or 3)
    if not pattern:
        raise ValueError(f"type a pattern of tosses, like {shown}")
    if set(pattern) - set(COIN):
        raise ValueError(f"{quoted(text.strip())} is not a pattern: use H and "
                         f"T only, like {shown}")
    if length is not None and len(pattern) != length:
        raise ValueError(
            f"{quoted(pattern)} has {plural(len(pattern), 'toss', 'tosses')}; "
            f"a pattern here has {length}, like {shown}")
    return pattern


def solve(matrix: list[list[Fraction]],
          right: list[Fraction]) -> list[Fraction]:
    """Solve matrix @ x == right exactly, by Gauss-Jordan elimination.

    The chains below always give a nonsingular system: from every window the
    walk reaches an absorbing one within k tosses.
    """
    rows = [row[:] + [value] for row, value in zip(matrix, right)]
    size = len(rows)
    for col in range(size):
        pivot = next(r for r in range(col, size) if rows[r][col])
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        live = [c for c in range(col, size + 1) if rows[col][c]]
        for c in live:
            rows[col][c] /= lead
        for r in range(size):
            factor = rows[r][col]
            if r != col and factor:
                for c in live:
                    rows[r][c] -= factor * rows[col][c]
    return [row[size] for row in rows]


def settle_windows(length: int, fixed: dict[int, Fraction],
                   cost: Fraction = ZERO) -> list[Fraction]:
    """The value of every window of `length` tosses in the chain of windows.

    A window in `fixed` is absorbing and keeps its value there; any other
    window is worth `cost` plus the mean of the two windows a toss leads to.
    """
    size = 1 << length
    mask = size - 1
    free = [window for window in range(size) if window not in fixed]
    place = {window: i for i, window in enumerate(free)}
    matrix, right = [], []
    for window in free:
        row = [ZERO] * len(free)
        row[place[window]] += 1
        value = cost
        for toss in (0, 1):
            after = (window << 1 | toss) & mask
            if after in fixed:
                value += fixed[after] / 2
            else:
                row[place[after]] -= Fraction(1, 2)
        matrix.append(row)
        right.append(value)
    solved = dict(zip(free, solve(matrix, right)))
    return [fixed[w] if w in fixed else solved[w] for w in range(size)]


def chain_odds(a: str, b: str) -> Fraction:
    """P(a shows before b), from the absorbing Markov chain of windows."""
    length = common_length(a, b)
    if a == b:
        return ZERO
    w = settle_windows(length, {bits_of(a): Fraction(1), bits_of(b): ZERO})
    return sum(w, ZERO) / len(w)


def chain_waiting_time(pattern: str) -> Fraction:
    """Expected tosses until `pattern` first shows, from the chain."""
    e = settle_windows(len(pattern), {bits_of(pattern): ZERO},
                       cost=Fraction(1))
    return len(pattern) + sum(e, ZERO) / len(e)


def chain_return_time(pattern: str) -> Fraction:
    """Expected tosses from one showing of `pattern` to the next."""
    length, bits = len(pattern), bits_of(pattern)
    e = settle_windows(length, {bits: ZERO}, cost=Fraction(1))
    mask = (1 << length) - 1
    return 1 + sum(e[(bits << 1 | toss) & mask] for toss in (0, 1)) / 2


def leading_number(a: str, b: str) -> int:
    """Conway's leading number a:b: bit j-1 is set when the last j tosses
    of a are the first j tosses of b."""
    return _leading(bits_of(a), bits_of(b), common_length(a, b))


def _leading(a: int, b: int, length: int) -> int:
    number = 0
    for j in range(1, length + 1):
        if a & ((1 << j) - 1) == b >> (length - j):
            number |= 1 << (j - 1)
    return number


def odds(a: str, b: str) -> Fraction:
    """P(a shows before b), by Conway's leading numbers."""
    length = common_length(a, b)
    if a == b:
        return ZERO
    x, y = bits_of(a), bits_of(b)
    return _odds(x, y, length, _leading(x, x, length), _leading(y, y, length))


def _odds(a: int, b: int, length: int, aa: int, bb: int) -> Fraction:
    """P(a before b), given the leading numbers aa = a:a and bb = b:b."""
    ab, ba = _leading(a, b, length), _leading(b, a, length)
    return Fraction(bb - ba, (aa - ab) + (bb - ba))


def waiting_time(pattern: str) -> Fraction:
    """Expected tosses until `pattern` first shows: twice pattern:pattern."""
    bits = bits_of(pattern)
    return Fraction(2 * _leading(bits, bits, len(pattern)))


def odds_matrix(length: int) -> list[list[Fraction]]:
    """m[i][j] = P(patterns(length)[i] shows before patterns(length)[j])."""
    size = 1 << length
    own = [_leading(x, x, length) for x in range(size)]
    return [[_odds(a, b, length, own[a], own[b]) if a != b else ZERO
             for b in range(size)]
            for a in range(size)]


def counter(pattern: str) -> str:
    """The classic reply to X Y Z ...: (not Y) X Y ..., less the last toss."""
    if len(pattern) == 1:
        return other_side(pattern)
    return other_side(pattern[1]) + pattern[:-1]


def best_reply(pattern: str) -> str:
    """The pattern most likely to show before `pattern` (the rule on ties)."""
    rule = counter(pattern)
    turned = other_side(rule[0]) + rule[1:]
    candidates = [c for c in (rule, turned) if c != pattern]
    return max(candidates, key=lambda c: odds(c, pattern))


def first_pick_chance(pattern: str) -> Fraction:
    """The first chooser's chance with `pattern` against the best reply."""
    return odds(pattern, best_reply(pattern))


def best_first_picks(length: int) -> list[str]:
    """The patterns whose chance against the best reply is highest."""
    chances = {p: first_pick_chance(p) for p in patterns(length)}
    best = max(chances.values())
    return [p for p, chance in chances.items() if chance == best]


def toss_until(a: str, b: str, rng: random.Random) -> str:
    """Toss a fair coin until a or b shows; the tosses, as H and T."""
    tosses = ""
    while not (tosses.endswith(a) or tosses.endswith(b)):
        tosses += rng.choice(COIN)
    return tosses
