"""The arithmetic of Penney's game: the blog post's table, two methods that
agree, waiting times, best replies, and real (seeded) coin tosses."""
from __future__ import annotations

import math
import random
import re
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from retro.engines.penney_odds import (
    best_first_picks, best_reply, chain_odds, chain_return_time,
    chain_waiting_time, counter, first_pick_chance, leading_number, odds,
    odds_matrix, parse_pattern, patterns, toss_until, waiting_time)

# The table of mga010's blog post "Penney's Game" (30 April 2021), the output
# of its "fracformat(7); W", typed in as printed there:
# row i, column j is the chance that triplet i shows before triplet j, the
# triplets numbered 000, 001, ..., 111 with 0 for heads and 1 for tails.
BLOG_TABLE = """
      0    1/2    2/5    2/5    1/8   5/12   3/10    1/2
    1/2      0    2/3    2/3    1/4    5/8    1/2   7/10
    3/5    1/3      0    1/2    1/2    1/2    3/8   7/12
    3/5    1/3    1/2      0    1/2    1/2    3/4    7/8
    7/8    3/4    1/2    1/2      0    1/2    1/3    3/5
   7/12    3/8    1/2    1/2    1/2      0    1/3    3/5
   7/10    1/2    5/8    1/4    2/3    2/3      0    1/2
    1/2   3/10   5/12    1/8    2/5    2/5    1/2      0
"""
BLOG_MATRIX = [[F(cell) for cell in line.split()]
               for line in BLOG_TABLE.strip().splitlines()]

# The blog post's printPG: the best reply to each triplet, (0,0,0) -> (1,0,0) ...
BLOG_REPLIES = {"000": "100", "001": "100", "010": "001", "011": "001",
                "100": "110", "101": "110", "110": "011", "111": "011"}


def test_the_typed_in_table_and_replies_are_the_blog_posts():
    from sources import source_text
    post = source_text("004_")
    printed = post.split("fracformat(7); W, defformat;\n", 1)[1].splitlines()
    assert [[F(cell) for cell in line.split()] for line in printed[:8]] == \
        BLOG_MATRIX
    replies = post.split(">printPG(W)\n", 1)[1].splitlines()[:8]
    assert [line.strip() for line in replies] == [
        f"({','.join(a)}) -> ({','.join(b)})" for a, b in BLOG_REPLIES.items()]


def letters(digits: str) -> str:
    return digits.replace("0", "H").replace("1", "T")


def test_patterns_come_in_the_blog_posts_order():
    assert patterns(3) == ["HHH", "HHT", "HTH", "HTT", "THH", "THT", "TTH", "TTT"]
    assert patterns(1) == ["H", "T"]
    assert len(patterns(8)) == 256


def test_conway_matrix_is_the_blog_posts_table():
    assert odds_matrix(3) == BLOG_MATRIX


def test_markov_chain_matrix_is_the_blog_posts_table():
    triplets = patterns(3)
    assert [[chain_odds(a, b) for b in triplets] for a in triplets] == BLOG_MATRIX


def test_the_blog_posts_worked_examples():
    # getw(M,2,3) = 2/3: (0,0,1) before (0,1,0); getw(M,5,1) = 7/8.
    assert odds("HHT", "HTH") == F(2, 3) == chain_odds("HHT", "HTH")
    assert odds("THH", "HHH") == F(7, 8) == chain_odds("THH", "HHH")
    # "There are other combinations which are three times as good."
    assert odds("THH", "HHT") == F(3, 4) == chain_odds("THH", "HHT")


def test_best_replies_are_the_blog_posts_and_the_rule():
    for pattern, reply in BLOG_REPLIES.items():
        assert best_reply(letters(pattern)) == letters(reply)
        assert counter(letters(pattern)) == letters(reply)


@pytest.mark.parametrize("length", [1, 2, 3, 4])
def test_the_two_methods_agree_on_every_pair(length):
    every = patterns(length)
    chain = [[chain_odds(a, b) for b in every] for a in every]
    assert chain == odds_matrix(length)
    assert chain == [[odds(a, b) for b in every] for a in every]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=6).flatmap(
    lambda k: st.tuples(st.text("HT", min_size=k, max_size=k),
                        st.text("HT", min_size=k, max_size=k))))
def test_the_two_methods_agree_on_sampled_pairs(pair):
    a, b = pair
    assert odds(a, b) == chain_odds(a, b)
    if a != b:
        assert odds(a, b) + odds(b, a) == 1


@pytest.mark.parametrize("a, b", [("HTHTHT", "THTHTH"), ("HHHHHH", "THHHHH"),
                                  ("HTTHHT", "TTHTHH")])
def test_the_two_methods_agree_at_length_six(a, b):
    assert odds(a, b) == chain_odds(a, b)


@pytest.mark.parametrize("length", [1, 2, 3, 4, 5])
def test_waiting_times_agree(length):
    for pattern in patterns(length):
        assert waiting_time(pattern) == chain_waiting_time(pattern)


def test_waiting_times_agree_at_length_six():
    for pattern in ("HHHHHH", "HTHTHT", "THHHHH", "HTTHHT"):
        assert waiting_time(pattern) == chain_waiting_time(pattern)


def test_the_blog_posts_claim_of_equal_waiting_times_is_false():
    waits = {p: waiting_time(p) for p in patterns(3)}
    assert waits == {"HHH": 14, "HHT": 8, "HTH": 10, "HTT": 8,
                     "THH": 8, "THT": 10, "TTH": 8, "TTT": 14}
    # The blog post's own example: (1,0,1) is THT, (1,1,1) is TTT.
    assert waits["THT"] < waits["TTT"]
    assert odds("THT", "TTT") == F(3, 5)
    assert odds("HTH", "HHH") == F(3, 5)


@pytest.mark.parametrize("length", [1, 2, 3, 4])
def test_what_the_blog_posts_argument_does_prove_equal_return_times(length):
    assert {chain_return_time(p) for p in patterns(length)} == {2 ** length}


def test_waiting_times_lie_between_2_to_the_k_and_twice_that_less_two():
    for length in range(1, 11):
        waits = [waiting_time(p) for p in patterns(length)]
        assert min(waits) == 2 ** length
        assert max(waits) == 2 ** (length + 1) - 2
        assert waiting_time("H" * length) == 2 ** (length + 1) - 2


def test_leading_numbers_of_the_chapters_example():
    assert leading_number("HHH", "HHH") == 0b111
    assert leading_number("HHH", "THH") == 0b000
    assert leading_number("THH", "THH") == 0b100
    assert leading_number("THH", "HHH") == 0b011


def test_a_pair_of_64_toss_patterns():
    # All heads can only win if the first 64 tosses are all heads.
    heads = "H" * 64
    assert odds(heads, "T" + "H" * 63) == F(1, 2 ** 64)
    a = "HT" * 32
    reply = best_reply(a)
    assert reply[1:] == a[:-1]
    assert odds(a, reply) + odds(reply, a) == 1
    assert odds(reply, a) > F(1, 2)
    assert odds(a, "TH" * 32) == F(1, 2)  # mirror images: a fair bet
    assert waiting_time(a) == sum(2 ** j for j in range(2, 65, 2))


# What the chapter's table of best replies and first picks says, per length:
# (patterns where the rule is not a best reply, the second chooser's chance
# at worst, the best first picks).
LENGTH_TABLE = {
    1: (0, F(1, 2), ["H", "T"]),
    2: (0, F(1, 2), ["HT", "TH"]),
    3: (0, F(2, 3), ["HTH", "HTT", "THH", "THT"]),
    4: (6, F(9, 14), ["HTHH", "THTT"]),
    5: (18, F(17, 26), ["HTTHH", "THHTT"]),
    6: (40, F(33, 50), ["HTTTHH", "THHHTT"]),
    7: (88, F(65, 98), 6),
    8: (172, F(129, 194), 10),
}


@pytest.mark.parametrize("length", sorted(LENGTH_TABLE))
def test_best_reply_matches_the_best_in_each_column(length):
    every = patterns(length)
    matrix = odds_matrix(length)
    rule_not_best = 0
    column_best = []
    for j, pattern in enumerate(every):
        best = max(matrix[i][j] for i in range(len(every)))
        reply = best_reply(pattern)
        assert reply != pattern
        assert odds(reply, pattern) == best
        # a best reply is one toss, then the pattern less its last toss
        assert reply[1:] == pattern[:-1]
        if odds(counter(pattern), pattern) != best:
            rule_not_best += 1
        column_best.append(best)
    count, worst, picks = LENGTH_TABLE[length]
    assert rule_not_best == count
    assert min(column_best) == worst
    found = best_first_picks(length)
    assert found == picks if isinstance(picks, list) else len(found) == picks
    assert {first_pick_chance(p) for p in found} == {1 - worst}
    if length >= 3:  # no pattern is safe: every column holds more than 1/2
        assert worst > F(1, 2)


def z_score(wins: int, games: int, chance: F) -> float:
    p = float(chance)
    return (wins / games - p) / math.sqrt(p * (1 - p) / games)


def test_seeded_tosses_agree_with_the_exact_triplet_odds():
    rng = random.Random(1969)
    games = 1000
    triplets = patterns(3)
    squares = 0.0
    for i, a in enumerate(triplets):
        for b in triplets[i + 1:]:
            wins = sum(toss_until(a, b, rng).endswith(a) for _ in range(games))
            z = z_score(wins, games, odds(a, b))
            assert abs(z) < 4, (a, b, wins)
            squares += z * z
    # 28 pairs: the sum of squares is chi-square with 28 degrees of freedom
    # (mean 28, sd 7.5); far above that would mean the odds are off.
    assert squares < 28 + 4 * math.sqrt(56)


def test_seeded_tosses_agree_at_length_four():
    rng = random.Random(14)
    games = 3000
    for a, b in [("THTH", "HTHH"), ("HHHT", "HHTH"), ("TTTH", "TTHH")]:
        wins = sum(toss_until(a, b, rng).endswith(a) for _ in range(games))
        assert abs(z_score(wins, games, odds(a, b))) < 4, (a, b, wins)


def test_seeded_waiting_times_agree():
    rng = random.Random(1974)
    samples = 2000
    for pattern in patterns(3):
        waits = [len(toss_until(pattern, pattern, rng)) for _ in range(samples)]
        mean = sum(waits) / samples
        spread = math.sqrt(sum((w - mean) ** 2 for w in waits) / (samples - 1))
        assert abs(mean - float(waiting_time(pattern))) < 4 * spread / math.sqrt(samples)


def test_tossing_stops_at_the_first_pattern_and_replays_from_a_seed():
    tosses = toss_until("HHH", "THH", random.Random(4))
    assert tosses.endswith("HHH") or tosses.endswith("THH")
    assert "HHH" not in tosses[:-1] and "THH" not in tosses[:-1]
    assert toss_until("HHH", "THH", random.Random(4)) == tosses


@pytest.mark.parametrize("text, pattern", [
    ("HTH", "HTH"), ("h t h", "HTH"), (" H,T,H ", "HTH"), ("ttt", "TTT")])
def test_patterns_are_read_leniently(text, pattern):
    assert parse_pattern(text, 3) == pattern


@pytest.mark.parametrize("text, message", [
    ("", "type a pattern of tosses, like HTH"),
    ("HXH", '"HXH" is not a pattern: use H and T only, like HTH'),
    ("HT", '"HT" has 2 tosses; a pattern here has 3, like HTH'),
    ("HTHT", '"HTHT" has 4 tosses; a pattern here has 3, like HTH'),
    ("H", '"H" has 1 toss; a pattern here has 3, like HTH'),
    ("x" * 100_000, '"xxxxxxxxxxxxxxxxxxxx..." is not a pattern: use H and T '
                    'only, like HTH'),
])
def test_bad_patterns_are_explained(text, message):
    with pytest.raises(ValueError) as error:
        parse_pattern(text, 3)
    assert str(error.value) == message


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=40),
                      st.text(alphabet="HhTt ,\x00\u2003\u00dfx", max_size=40),
                      st.integers(0, 200_000).map(lambda n: "HT" * n)),
       length=st.integers(1, 8))
def test_any_typed_pattern_is_a_pattern_or_one_short_line(text, length):
    """Whatever is typed: a pattern of H and T, or one line of at most 100
    characters, typed text in double quotes, and no "1 tosses"."""
    try:
        pattern = parse_pattern(text, length)
    except ValueError as error:
        message = str(error)
        assert "\n" not in message and len(message) <= 100, message
        assert message.startswith(('"', "type a pattern")), message
        assert re.search(r"\b1 tosses", message) is None, message  # not 11
    else:
        assert len(pattern) == length and set(pattern) <= {"H", "T"}


def test_patterns_of_different_lengths_are_refused():
    with pytest.raises(ValueError):
        odds("HTH", "HT")


def test_csiriks_first_pick_is_among_the_best():
    # Csirik (1992): H, then k - 3 tails, then HH is an optimal first pick.
    for length in range(4, 11):
        assert "H" + "T" * (length - 3) + "HH" in best_first_picks(length)


# The chapter's tables, read from the chapter, against the code ------------

CHAPTER = Path(__file__).resolve().parent.parent / "literate" / "penney_odds.md"


def chapter_table(first_header: str) -> list[list[str]]:
    """The body of the chapter's table whose header begins with `first_header`,
    as cells with markdown bold removed."""
    lines = CHAPTER.read_text().splitlines()
    start = next(i for i, line in enumerate(lines)
                 if line.startswith(f"| {first_header} |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip().strip("*")
                     for cell in line.strip("|").split("|")])
    return rows


def test_the_chapters_matrix_is_the_code_and_the_blog_posts():
    rows = chapter_table("row before column")
    assert [row[0] for row in rows] == patterns(3)
    assert [[F(cell) for cell in row[1:]] for row in rows] == \
        odds_matrix(3) == BLOG_MATRIX


def test_the_chapters_waiting_and_return_times():
    rows = {row[0]: row[1:] for row in chapter_table("pattern")}
    triplets = patterns(3)
    assert rows["waiting time (tosses)"] == \
        [str(chain_waiting_time(p)) for p in triplets] == \
        [str(waiting_time(p)) for p in triplets]
    assert rows["return time (tosses)"] == \
        [str(chain_return_time(p)) for p in triplets]


def test_the_chapters_table_of_lengths_is_the_one_tested():
    words = {"six": 6, "ten": 10}
    for length, rule_not_best, worst, picks in chapter_table("length"):
        count, chance, found = LENGTH_TABLE[int(length)]
        assert rule_not_best == f"{count} of {2 ** int(length)}"
        assert F(worst) == chance
        if isinstance(found, list):
            assert picks.split(", ") == found
        else:
            assert words[picks.split()[0]] == found
