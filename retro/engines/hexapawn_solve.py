# Tangled from literate/hexapawn_theory.md: edit the chapter, not this file, then run `retro tangle`.
"""Who wins hexapawn on a board of R rows and N columns: exhaustive search.

Tangled from literate/hexapawn_theory.md, which explains it.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from retro.engines.hexapawn_rules import EMPTY as EMPTY_SQUARE
from retro.engines.hexapawn_rules import (FIRST, Move, Position, after,
                                          legal_moves, other, start, winner)

MAX_ROWS = 5                 # 3 ** 5 = 243 codes: a column is one byte
EMPTY, MINE, THEIRS = 0, 1, 2


def column_code(squares: Sequence[int]) -> int:
    """The byte for a column, its squares listed from the mover's home row."""
    return sum(square * 3 ** row for row, square in enumerate(squares))


def column_squares(code: int, rows: int) -> tuple[int, ...]:
    return tuple(code // 3 ** row % 3 for row in range(rows))


def turning_table(rows: int) -> bytes:
    """bytes.translate table: every column as the other side sees it."""
    turned = [column_code([(EMPTY, THEIRS, MINE)[square]
                           for square in reversed(column_squares(code, rows))])
              for code in range(3 ** rows)]
    return bytes(turned + [0] * (256 - len(turned)))


@dataclass(frozen=True)
class Facts:
    wins_now: bool      # the side to move has a live pawn in the part
    threatened: bool    # the other side has one
    turned: bytes       # the part as the other side sees it (mirror-smaller)


class Search:
    """One exhaustive search of R-row hexapawn, with its tables."""

    def __init__(self, rows: int = 3):
        if not 2 <= rows <= MAX_ROWS:
            raise ValueError(
                f"the search handles 2 to {MAX_ROWS} rows, not {rows}")
        self.rows = rows
        self.squares = [column_squares(code, rows)
                        for code in range(3 ** rows)]
        self.turning = turning_table(rows)
        self.known: dict[tuple[bytes, ...], bool] = {}
        self.part_facts: dict[bytes, Facts] = {}
        self.part_replies: dict[bytes, tuple[tuple[bytes, ...], ...]] = {}
        self.frozen: dict[int, tuple[int, int]] = {}
        if rows == 3:
            self.frozen[column_code([EMPTY, MINE, THEIRS])] = (2, THEIRS)
            self.frozen[column_code([MINE, THEIRS, EMPTY])] = (0, MINE)

    def opening(self, cols: int) -> tuple[bytes, ...]:
        """The opening position: full home rows, the first player to move."""
        column = column_code([MINE] + [EMPTY] * (self.rows - 2) + [THEIRS])
        return tuple(sorted(self.split(bytes([column]) * cols)))

    def position(self, position: Position) -> tuple[bytes, ...]:
        """A position of the rules chapter, as the search keeps it."""
        if position.rows != self.rows:
            raise ValueError(f"a {position.rows}-row position in a "
                             f"{self.rows}-row search")
        mine = position.to_move
        value = {EMPTY_SQUARE: EMPTY, mine: MINE, other(mine): THEIRS}
        home_first = (range(self.rows - 1, -1, -1) if mine == FIRST
                      else range(self.rows))
        board = bytes(column_code([value[position.cells[r * position.cols + c]]
                                   for r in home_first])
                      for c in range(position.cols))
        return tuple(sorted(self.split(board)))

    def split(self, board: bytes) -> list[bytes]:
        """The board's parts: cut at inert columns, each mirrored to its
        smaller self."""
        parts, begin = [], 0
        for i in range(len(board) + 1):
            if i == len(board) or self.inert(board, i):
                part = board[begin:i]
                if part and self.lively(part):
                    parts.append(min(part, part[::-1]))
                begin = i + 1
        return parts

    def inert(self, board: bytes, i: int) -> bool:
        """True for an empty column, and, with three rows, a frozen one."""
        code = board[i]
        if code == 0:
            return True
        if code not in self.frozen:
            return False
        # frozen: no pawn of the stuck pawn's enemy beside the one it faces
        row, enemy = self.frozen[code]
        return all(self.squares[board[j]][row] != enemy
                   for j in (i - 1, i + 1) if 0 <= j < len(board))

    def lively(self, part: bytes) -> bool:
        """True if either side has a move in the part."""
        for who in (MINE, THEIRS):
            for _ in self.steps(part, who):
                return True
        return False

    def steps(self, part: bytes, who: int) -> Iterator[tuple[int, int, int]]:
        """Every move of `who` in the part: (column, row, column it goes to)."""
        rows, squares = self.rows, self.squares
        forward = 1 if who == MINE else -1
        enemy = THEIRS if who == MINE else MINE
        for col, code in enumerate(part):
            column = squares[code]
            for row in range(rows):
                if column[row] != who or not 0 <= row + forward < rows:
                    continue
                if column[row + forward] == EMPTY:
                    yield col, row, col
                for to in (col - 1, col + 1):
                    if (0 <= to < len(part)
                            and squares[part[to]][row + forward] == enemy):
                        yield col, row, to

    def facts(self, part: bytes) -> Facts:
        known = self.part_facts.get(part)
        if known is None:
            last = self.rows - 1
            turned = part.translate(self.turning)
            known = self.part_facts[part] = Facts(
                wins_now=any(row + 1 == last
                             for _, row, _ in self.steps(part, MINE)),
                threatened=any(row == 1 for _, row, _ in self.steps(part, THEIRS)),
                turned=min(turned, turned[::-1]))
        return known

    def replies(self, part: bytes) -> tuple[tuple[bytes, ...], ...]:
        """Each move of the side to move here, as the parts it leaves,
        turned round."""
        known = self.part_replies.get(part)
        if known is None:
            known = []
            for col, row, to in self.steps(part, MINE):
                board = bytearray(part)
                board[col] -= MINE * 3 ** row
                there = self.squares[board[to]][row + 1]
                board[to] += (MINE - there) * 3 ** (row + 1)
                parts = self.split(bytes(board).translate(self.turning))
                if not any(self.facts(p).wins_now for p in parts):
                    known.append(tuple(parts))
            known = self.part_replies[part] = tuple(known)
        return known

    def wins(self, position: tuple[bytes, ...]) -> bool:
        """True if the side to move wins `position` (sorted canonical parts)."""
        known = self.known.get(position)
        if known is not None:
            return known
        facts = [self.facts(part) for part in position]
        threats = [i for i, fact in enumerate(facts) if fact.threatened]
        won = any(fact.wins_now for fact in facts)
        if not won and len(threats) <= 1:
            turned = [fact.turned for fact in facts]
            tried = set()
            for i in threats or range(len(position)):
                if position[i] in tried:
                    continue
                tried.add(position[i])
                rest = turned[:i] + turned[i + 1:]
                for parts in self.replies(position[i]):
                    if not self.wins(tuple(sorted(rest + list(parts)))):
                        won = True
                        break
                if won:
                    break
        self.known[position] = won
        return won


@dataclass(frozen=True)
class Solution:
    rows: int
    cols: int
    winner: str        # "first" or "second"
    positions: int     # positions solved on the way
    parts: int         # different parts met


def solve(rows: int, cols: int, search: Search | None = None) -> Solution:
    """Who wins hexapawn on a rows x cols board with perfect play."""
    if cols < 1:
        raise ValueError(f"a board needs a column, not {cols}")
    search = Search(rows) if search is None else search
    first_wins = search.wins(search.opening(cols))
    return Solution(rows, cols, "first" if first_wins else "second",
                    len(search.known), len(search.part_facts))


def winning_openings(rows: int, cols: int,
                     search: Search | None = None) -> tuple[Move, ...]:
    """The first player's opening moves that keep a forced win."""
    search = Search(rows) if search is None else search
    opening = start(rows, cols)
    return tuple(move for move in legal_moves(opening)
                 if winner(then := after(opening, move)) == FIRST
                 or not search.wins(search.position(then)))


def brown(cols: int) -> str:
    """Brown's rule for 3 rows, as Gardner reports it."""
    return "first" if cols % 10 in (1, 4, 5, 7, 8) else "second"


WIDEST = {2: 10_000, 3: 57, 4: 7, 5: 5}   # columns, by rows
BUDGET = "a minute or 400 MB"
