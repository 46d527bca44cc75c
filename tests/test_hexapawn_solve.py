"""The hexapawn solver: checked against the plain search of the rules
chapter, and used to check the claims of Gardner's column and its addendum."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from retro.engines.hexapawn_rules import Position, after, legal_moves, start, wins
from retro.engines.hexapawn_solve import (MAX_ROWS, MINE, THEIRS, WIDEST, Search,
                                          brown, column_code, column_squares, solve,
                                          turning_table, winning_openings)

sys.path.insert(0, str(Path(__file__).parent))  # the tests beside this file
from test_hexapawn import random_positions  # noqa: E402

CHAPTER = Path(__file__).resolve().parent.parent / "literate" / "hexapawn_theory.md"


# --- columns as bytes --------------------------------------------------------------

@pytest.mark.parametrize("rows", range(2, MAX_ROWS + 1))
def test_turning_a_column_round_twice_gives_it_back(rows):
    table = turning_table(rows)
    for code in range(3 ** rows):
        assert table[table[code]] == code
        assert column_code(column_squares(code, rows)) == code
    assert table[column_code([MINE] + [0] * (rows - 1))] == column_code([0] * (rows - 1) + [THEIRS])


# --- the solver against the plain search -------------------------------------------

@pytest.mark.parametrize("rows, cols", [(2, c) for c in range(1, 6)]
                         + [(3, c) for c in range(1, 9)]
                         + [(4, c) for c in range(1, 5)] + [(5, 3)])
def test_the_solver_agrees_with_the_plain_search_on_the_opening(rows, cols):
    plain = "first" if wins(start(rows, cols)) else "second"
    assert solve(rows, cols).winner == plain


@pytest.mark.parametrize("rows, cols, count", [(3, 4, 300), (3, 5, 400), (3, 6, 300),
                                                (4, 3, 300), (4, 4, 300), (2, 5, 100)])
def test_the_solver_agrees_with_the_plain_search_everywhere(rows, cols, count):
    search = Search(rows)
    for position in random_positions(count, seed=rows * 10 + cols, rows=rows, cols=cols):
        assert search.wins(search.position(position)) == wins(position), position


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10 ** 6))
def test_positions_cut_into_parts_keep_their_value(seed):
    # wide boards, where parts and frozen columns appear, against the plain search
    search = Search(3)
    for position in random_positions(3, seed, rows=3, cols=7):
        assert search.wins(search.position(position)) == wins(position)


def test_a_position_and_its_mirror_image_are_one_entry():
    search = Search(3)
    position = after(start(3, 5), legal_moves(start(3, 5))[0])
    mirrored = Position("".join(position.row(r)[::-1] for r in range(3)), 5, position.to_move)
    assert search.position(position) == search.position(mirrored)


# --- the claims of Gardner's column and its addendum -------------------------------

def test_three_by_three_is_a_win_for_the_second_player():
    assert solve(3, 3).winner == "second"
    assert winning_openings(3, 3) == ()


def test_octapawn_is_a_first_player_win_with_a_corner_opening_only():
    assert solve(4, 4).winner == "first"
    assert [str(m) for m in winning_openings(4, 4)] == ["13-9", "16-12"]


@pytest.fixture(scope="module")
def three_rows() -> dict[int, tuple[str, int]]:
    """3 x n for n up to 30: the winner and the positions solved."""
    return {cols: (solution.winner, solution.positions)
            for cols in range(1, 31) for solution in [solve(3, cols)]}


def test_browns_rule_holds_for_the_first_thirty_columns(three_rows):
    for cols, (winner, _) in three_rows.items():
        assert winner == brown(cols), cols


def test_browns_rule_reads_the_last_digit():
    assert [n for n in range(1, 21) if brown(n) == "first"] == [1, 4, 5, 7, 8, 11, 14, 15, 17, 18]


def test_the_chapter_reports_what_the_solver_finds(three_rows):
    chapter = CHAPTER.read_text()
    table = chapter.split("## What the search finds")[1]
    rows = re.findall(r"^\| (\d+) \| (first|second) \| (first|second) \| ([\d,]+) \|",
                      table, re.M)
    assert len(rows) >= 20
    for cols, winner, rule, positions in rows:
        if int(cols) in three_rows:
            assert three_rows[int(cols)] == (winner, int(positions.replace(",", "")))
        assert brown(int(cols)) == rule
    letters = re.findall(r"^n +(\d+)-\d+ +([FS ]+)$", table, re.M)
    assert letters
    for first, winners in letters:
        for cols, letter in enumerate(winners.split(), int(first)):
            assert letter == brown(cols)[0].upper(), cols
            if cols in three_rows:
                assert letter == three_rows[cols][0][0].upper()


def test_the_chapters_table_of_other_boards_is_what_the_solver_finds():
    # every cell that takes a moment; the wider boards of 4 and 5 rows
    # are left to the command line
    table = CHAPTER.read_text().split("### Other boards")[1].split("\n## ")[0]
    cells = {int(rows): cells.split(" | ")
             for rows, cells in re.findall(r"^\| (\d) \| (.*) \|$", table, re.M)}
    assert set(cells) == {2, 3, 4, 5}
    for rows, widest in ((2, 8), (3, 8), (4, 5), (5, 4)):
        for cols in range(1, widest + 1):
            assert cells[rows][cols - 1] == solve(rows, cols).winner[0].upper(), (rows, cols)


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError):
        Search(6)
    with pytest.raises(ValueError):
        solve(3, 0)


def test_the_chapter_states_the_limits_the_command_line_keeps():
    section = CHAPTER.read_text().split("## How wide a board")[1].split("\n## ")[0]
    rows = re.findall(r"^\| (\d) \| ([\d,]+) columns \|", section, re.M)
    assert {int(r): int(cols.replace(",", "")) for r, cols in rows} == WIDEST
    assert set(WIDEST) == set(range(2, MAX_ROWS + 1))


def test_one_search_finds_the_winner_and_the_openings():
    search = Search(4)
    assert solve(4, 4, search).winner == "first"
    known = len(search.known)
    assert [str(m) for m in winning_openings(4, 4, search)] == ["13-9", "16-12"]
    assert len(search.known) >= known      # the same tables, grown, not rebuilt
    assert winning_openings(4, 4) == winning_openings(4, 4, search)
