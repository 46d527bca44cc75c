"""Hexapawn: the rules, the game against HER at the teletype, her memory in
the store, RESET HER, and the `retro hexapawn` command line."""
from __future__ import annotations

import asyncio
import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from retro.commands import hexapawn as hexapawn_commands
from retro.common import number_in
from retro.games import hexapawn, hexapawn_her
from retro.engines.hexapawn_rules import (FIRST, SECOND, Move, Position, after,
                                  board_text, legal_moves, mirror, mirror_move,
                                  parse_move, result, start, why_illegal,
                                  winner, winning_moves, wins)
from retro.engines.hexapawn_solve import BUDGET, WIDEST, solve
from retro.engines.matchbox import Robot, box_for, contest, fresh, perfect, robot_json
from retro.services.store import Store
from retro.services.teletype import StreamTeletype

from recording import command, play, sitting

HERE = Path(__file__).parent
ROOT = HERE.parent
TRANSCRIPTS = HERE / "transcripts"
CHAPTER = ROOT / "literate" / "hexapawn.md"


def run(answers: str, *, seed: int = 1962, store=None) -> str:
    out = io.StringIO()
    tty = StreamTeletype(io.StringIO(answers), out)
    play("hexapawn", tty, store=store or Store.memory(), seed=seed)
    return out.getvalue()


def moves(position: Position) -> set[str]:
    return {str(move) for move in legal_moves(position)}


def random_positions(count: int, seed: int = 0, rows: int = 3, cols: int = 3):
    """Positions reached by random play, game not over, both sides to move."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        position = start(rows, cols)
        while winner(position) is None:
            found.append(position)
            position = after(position, rng.choice(legal_moves(position)))
    return found[:count]


# --- the rules ------------------------------------------------------------------

def test_the_opening_has_three_pushes_and_nothing_else():
    assert start() == Position("XXX...OOO", 3, FIRST)
    assert moves(start()) == {"7-4", "8-5", "9-6"}


def test_pawns_capture_diagonally_and_never_straight_ahead():
    position = Position("XXX.O.O.O", 3, SECOND)   # after 8-5
    assert moves(position) == {"1-4", "1-5", "3-5", "3-6"}
    assert "2-5" not in moves(position)


def test_a_diagonal_does_not_wrap_round_the_edge_of_the_board():
    # O on 4 (left edge) must not capture the X at the right end of row 1
    position = Position("..X" "O.." "...", 3, FIRST)
    assert moves(position) == {"4-1"}
    position = Position("X.." "..O" "...", 3, FIRST)
    assert moves(position) == {"6-3"}


def test_the_three_ways_to_win():
    assert result(Position("O.X" "..." "...", 3, SECOND)) == (FIRST, "row")
    assert result(Position("..." "..." "X.O", 3, FIRST)) == (SECOND, "row")
    assert result(Position("..." ".O." "...", 3, SECOND)) == (FIRST, "pawns")
    assert result(Position(".X." ".O." "...", 3, SECOND)) == (FIRST, "blocked")
    assert result(start()) == (None, "")


def test_a_mirror_image_keeps_the_row_and_turns_the_column():
    position = Position("XX." ".XO" "O..", 3, FIRST)
    assert mirror(position).cells == ".XX" "OX." "..O"
    assert mirror(mirror(position)) == position
    assert mirror_move(Move(6, 3), 3) == Move(8, 5)
    assert {str(mirror_move(m, 3)) for m in legal_moves(position)} == moves(mirror(position))


def test_the_second_player_wins_three_by_three():
    assert not wins(start())
    assert winning_moves(start()) == ()
    # after any opening, X has a winning reply
    for opening in legal_moves(start()):
        assert winning_moves(after(start(), opening))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(2, 4), st.integers(1, 5))
def test_every_legal_move_keeps_the_board_consistent(seed, rows, cols):
    rng = random.Random(seed)
    position = start(rows, cols)
    while winner(position) is None:
        legal = legal_moves(position)
        assert legal
        for move in legal:
            assert why_illegal(position, move) is None
            then = after(position, move)
            assert then.to_move != position.to_move
            mover, enemy = position.to_move, then.to_move
            assert then.cells.count(mover) == position.cells.count(mover)
            assert then.cells.count(enemy) in (position.cells.count(enemy),
                                               position.cells.count(enemy) - 1)
            row_step = move.end // cols - move.start // cols
            assert row_step == (-1 if position.to_move == FIRST else 1)
            assert abs(move.end % cols - move.start % cols) <= 1
        position = after(position, rng.choice(legal))


# --- typing a move ----------------------------------------------------------------

@pytest.mark.parametrize("typed", ["7-4", "74", "7 4", " 7 - 4 ", "7,4", "7 to 4"])
def test_a_move_may_be_typed_three_ways(typed):
    assert parse_move(typed) == Move(6, 3)


@pytest.mark.parametrize("typed, says", [
    ("7", "TYPE A MOVE AS"), ("", "TYPE A MOVE AS"), ("e2-e4", "TYPE A MOVE AS"),
    ("0-3", 'THERE IS NO SQUARE "0": THE SQUARES ARE 1 TO 9.'),
    ("7-10", 'THERE IS NO SQUARE "10":'), ("747", 'THERE IS NO SQUARE "74":'),
    ("7-" + "4" * 4301, 'THERE IS NO SQUARE "44444444444444444444...":'),
    ("4" * 5000 + "-7", 'THERE IS NO SQUARE "44444444444444444444...":'),
    ("٣-٤", "TYPE A MOVE AS"), ("7-²", "TYPE A MOVE AS"), ("7--4", "TYPE A MOVE AS"),
])
def test_a_move_that_is_no_move_says_how_to_type_one(typed, says):
    message = parse_move(typed)
    assert isinstance(message, str) and says in message


def test_reading_a_move_costs_no_more_than_its_length():
    # a pattern that could split a run of digits anywhere took seconds here
    for line in ("1" * 100_000 + "x", "1" + " " * 100_000 + "x",
                 "1 -" + " " * 100_000 + "x", "12" * 50_000 + "-"):
        assert parse_move(line).startswith("TYPE A MOVE AS")


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.from_regex(r"[0-9]{1,30}\s*[-, ]?\s*[0-9]{0,30}", fullmatch=True)))
def test_whatever_is_typed_reads_as_a_move_or_one_line_saying_why_not(typed):
    move = parse_move(typed)
    if isinstance(move, Move):
        assert 0 <= move.start < 9 and 0 <= move.end < 9
    else:
        assert "\n" not in move and len(move) <= 72


@pytest.mark.parametrize("typed, reason", [
    ("5-2", "THERE IS NO PAWN ON 5."),
    ("1-4", "THE PAWN ON 1 IS NOT YOURS."),
    ("7-1", "IS NOT A PAWN'S MOVE"),
    ("7-8", "IS NOT A PAWN'S MOVE"),
    ("8-9", "IS NOT A PAWN'S MOVE"),
    ("7-5", "NOTHING TO CAPTURE ON 5"),
])
def test_an_illegal_move_is_explained(typed, reason):
    assert reason in why_illegal(start(), parse_move(typed))


def test_blocked_and_own_pawn_are_explained():
    position = Position("XXX" "O.." ".OO", 3, FIRST)
    assert "1 IS TAKEN" in why_illegal(position, parse_move("4-1"))
    position = Position("XXX" "..." "OOO", 3, FIRST)
    assert why_illegal(position, Move(7, 3)) is not None


def test_the_board_is_printed_beside_its_square_numbers():
    assert board_text(start()) == (
        "    X  X  X      1  2  3\n"
        "    .  .  .      4  5  6\n"
        "    O  O  O      7  8  9")


# --- the game at the teletype ----------------------------------------------------

def test_a_seeded_session_replays_exactly():
    answers = (TRANSCRIPTS / "hexapawn_seed1962.in").read_text()
    expected = (TRANSCRIPTS / "hexapawn_seed1962.out").read_text()
    assert run(answers) == expected


def test_the_same_session_at_the_command_line(tmp_path):
    import os
    answers = (TRANSCRIPTS / "hexapawn_seed1962.in").read_text()
    done = subprocess.run(
        [sys.executable, "-m", "retro", "play", "hexapawn", "--seed", "1962"],
        input=answers, capture_output=True, text=True, cwd=ROOT,
        env={**os.environ, "RETRO_HOME": str(tmp_path)})
    assert done.returncode == 0
    assert done.stdout == (TRANSCRIPTS / "hexapawn_seed1962.out").read_text()


def test_the_chapter_shows_what_the_game_prints():
    chapter = CHAPTER.read_text()
    printed = (TRANSCRIPTS / "hexapawn_seed1962.out").read_text()
    shown = chapter.split("## A game against HER")[1].split("```")[1].strip("\n")
    assert shown + "\n" in printed
    assert "THE BOARD IS THE MIRROR IMAGE OF THE LID." in shown
    assert "HER LOSES THE RED BEAD FROM BOX 9" in shown


def test_the_teletype_shows_the_box_opened_and_the_bead_drawn():
    printed = run("8-5\n")
    assert "HER OPENS BOX 1, FOR MOVE 2: RED 1-4, GREEN 1-5, BLUE 3-5, AMBER 3-6." in printed
    assert "SHE DRAWS GREEN AND PLAYS 1-5." in printed


def test_a_finished_game_teaches_her_and_is_recorded_in_one_go():
    store = Store.memory()
    run("8-5\n7-4\n4-1\nn\n", store=store)
    memory = hexapawn_her.load_her(store)
    assert memory.record == "L"
    assert memory.her.total == fresh("HER").total - 1
    [record] = store.results("hexapawn")
    assert (record.outcome, record.score, record.seed) == ("win", "1-0", 1962)
    assert record.detail["moves"] == "8-5 1-5 7-4 3-6 4-1"
    assert record.detail["beads_lost"] == [{"box": 9, "bead": "1-4", "colour": "RED"}]


def test_her_memory_lasts_from_one_session_to_the_next(tmp_path):
    path = tmp_path / "retro.sqlite3"
    with Store.open(path) as store:
        run("8-5\n7-4\n4-1\nn\n", store=store)
    with Store.open(path) as store:
        printed = run("n\n", store=store)
        assert hexapawn_her.load_her(store).record == "L"
    assert ("HER HAS PLAYED 1 GAME: SHE WON 0 AND LOST 1.\n"
            "HER 19 MATCHBOXES HOLD 46 BEADS.\n"
            "A POSITION AND ITS MIRROR IMAGE SHARE A BOX: 19, NOT GARDNER'S 24.\n"
            ) in printed


def test_the_learning_curve_is_drawn_after_each_game_over_all_her_games():
    store = Store.memory()
    run("8-5\n7-4\n4-1\nn\n", store=store)
    printed = run("7-4\n4-2\nn\n", store=store, seed=5)
    assert "HER LEARNING CURVE: 2 GAMES, 0 WON, 2 LOST\n\\\n \\\n+-\n1-2\n" in printed


class Interrupt:
    """An input stream that answers some lines, then raises."""

    def __init__(self, lines: list[str], error: type[BaseException]):
        self.lines, self.error = list(lines), error

    def readline(self) -> str:
        if not self.lines:
            raise self.error
        return self.lines.pop(0) + "\n"


@pytest.mark.parametrize("error", [KeyboardInterrupt, EOFError])
def test_a_game_broken_off_loses_no_bead_and_invents_none(error):
    store = Store.memory()
    run("8-5\n7-4\n4-1\nn\n", store=store)          # one finished game
    before = store.get(hexapawn_her.HER_KEY)
    results = len(store.results())
    tty = StreamTeletype(Interrupt(["8-5"], error), io.StringIO())
    if error is KeyboardInterrupt:
        with pytest.raises(KeyboardInterrupt):
            play("hexapawn", tty, store=store, seed=3)
    else:
        play("hexapawn", tty, store=store, seed=3)
    assert "HER OPENS BOX" in tty.paper()          # she had drawn a bead
    assert store.get(hexapawn_her.HER_KEY) == before
    assert len(store.results()) == results


def test_ctrl_c_at_the_command_line_mid_game_loses_no_bead(tmp_path):
    # a real process, a real SIGINT, the store on disk
    import os
    import select
    import signal

    game = subprocess.Popen(
        [sys.executable, "-m", "retro", "play", "hexapawn", "--seed", "1962"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=ROOT, env={**os.environ, "RETRO_HOME": str(tmp_path)})
    printed = b""

    def wait_for(text: bytes, after: bytes) -> None:
        nonlocal printed
        while text not in printed.rpartition(after)[2]:
            ready, _, _ = select.select([game.stdout], [], [], 60)
            assert ready, printed.decode()
            chunk = os.read(game.stdout.fileno(), 4096)
            assert chunk, printed.decode()
            printed += chunk

    try:
        game.stdin.write(b"8-5\n7-4\n4-1\ny\n7-4\n")   # a game, then a move
        game.stdin.flush()
        wait_for(b"ANOTHER GAME", after=b"HER LEARNING CURVE")
        wait_for(b"SHE DRAWS", after=b"ANOTHER GAME")      # a bead is out
        wait_for(b"YOUR MOVE? ", after=b"SHE DRAWS")
        game.send_signal(signal.SIGINT)
        out, _ = game.communicate(timeout=60)
    finally:
        game.kill()
    assert game.returncode == 130
    assert b"GAME ABANDONED" in out
    with Store.open(tmp_path / "retro.sqlite3") as store:
        memory = hexapawn_her.load_her(store)
        assert memory.record == "L"
        assert memory.her.total == fresh("HER").total - 1
        assert len(store.results("hexapawn")) == 1


def test_ctrl_c_while_the_end_of_a_game_is_written_keeps_nothing_of_it():
    store = Store.memory()
    run("8-5\n7-4\n4-1\nn\n", store=store)
    before = store.get(hexapawn_her.HER_KEY)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    store.record = interrupted          # Ctrl-C after HER's beads were put
    with pytest.raises(KeyboardInterrupt):
        run("7-4\n4-2\nn\n", store=store, seed=5)
    assert store.get(hexapawn_her.HER_KEY) == before
    del store.record
    assert len(store.results("hexapawn")) == 1


def test_a_game_finished_while_another_session_played_adds_its_lesson():
    store = Store.memory()
    stale = hexapawn_her.load_her(store)           # this session's HER: fresh
    run("8-5\n7-4\n4-1\nn\n", store=store)          # another session: a lesson
    game = contest(perfect, stale.her, random.Random(1))
    assert game.winner == FIRST and game.draws[SECOND]
    tty = StreamTeletype(io.StringIO(""), io.StringIO())
    learned = asyncio.run(hexapawn.finish(tty, sitting("hexapawn", store, 1),
                                          stale, game, 1))
    assert learned.record == "LL"
    assert learned.her.total == fresh("HER").total - 2
    assert hexapawn_her.load_her(store) == learned


def test_her_resigns_at_an_empty_box_and_loses_the_bead_before():
    her = fresh("HER")
    opening, _ = box_for(Position("XXX" "O.." ".OO", 3, SECOND))   # after 7-4
    then = Position("X.X" "OO." ".O.", 3, SECOND)                   # 2-5, 9-5
    empty, _ = box_for(then)
    beads = {**her.beads, opening.key: {"2-4": 0, "2-5": 1, "3-6": 0},
             empty.key: {arrow: 0 for arrow in her.beads[empty.key]}}
    store = Store.memory()
    store.put(hexapawn_her.HER_KEY, {"robot": robot_json(Robot("HER", False, beads)),
                                 "record": ""})
    printed = run("7-4\n9-5\nn\n", store=store)
    assert "SHE DRAWS GREEN AND PLAYS 2-5." in printed
    assert (f"YOUR MOVE? 9-5\n{board_text(then)}\nHER OPENS BOX {empty.number}. "
            f"IT IS EMPTY: SHE RESIGNS.\nYOU WIN.") in printed
    assert (f"HER LOSES THE GREEN BEAD FROM BOX {opening.number}: SHE WILL NOT "
            f"MAKE THAT MOVE THERE AGAIN.") in " ".join(printed.split())
    memory = hexapawn_her.load_her(store)
    assert memory.record == "L"
    assert memory.her.beads[opening.key]["2-5"] == 0
    [record] = store.results("hexapawn")
    assert record.detail["ending"] == "resigned"


def test_the_end_of_input_ends_the_game_cleanly_mid_game():
    printed = run("8-5\n")  # and says so, as QUIT does
    assert printed.endswith("YOUR MOVE? \nHER BEADS ARE AS THEY WERE.\n")


def test_quit_abandons_the_game_and_keeps_her_as_she_was():
    store = Store.memory()
    out = io.StringIO()
    tty = StreamTeletype(io.StringIO("8-5\nquit\n"), out)
    assert play("hexapawn", tty, store=store, seed=1962) == "left"
    assert out.getvalue().endswith("YOUR MOVE? quit\nHER BEADS ARE AS THEY WERE.\n")
    assert store.get(hexapawn_her.HER_KEY) is None
    assert store.results() == []


def stored_raw(store: Store, key: str, text: str) -> None:
    """Put `text` in the store as it is, JSON or not (a damaged value)."""
    store.db.execute("INSERT INTO state (key, value, updated_at) VALUES (?, ?, ?)"
                     " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                     (key, text, "2024-01-01T00:00:00+00:00"))


def her_json(**changes) -> str:
    data = {"robot": robot_json(fresh("HER")), "record": "LW"}
    data.update(changes)
    return json.dumps(data)


NOT_HER = [
    "abc", "", "[]", "null", "1e308", '"x"', "true", "{}",
    json.dumps({"robot": {"name": "HER", "beads": "nonsense"}}),
    her_json(record="LWX"), her_json(record=7), her_json(robot=robot_json(fresh("HIM"))),
    her_json(robot={**robot_json(fresh("HER")), "beads": {}}),
    her_json(robot={**robot_json(fresh("HER")), "beads": {
        key: {move: -1 for move in held} for key, held in robot_json(fresh("HER"))["beads"].items()}}),
    her_json(robot={**robot_json(fresh("HER")), "beads": {
        key: {move: 1.0 for move in held} for key, held in robot_json(fresh("HER"))["beads"].items()}}),
    "9" * 5000,
]


@pytest.mark.parametrize("text", NOT_HER)
def test_a_stored_value_that_is_not_her_is_set_aside_told_and_she_starts_fresh(text):
    store, told = Store.memory(), []
    store.notice = told.append
    stored_raw(store, hexapawn_her.HER_KEY, text)
    printed = run("n\n", store=store)
    assert "HER HAS NEVER PLAYED." in printed
    assert len(told) == 1 and hexapawn_her.HER_KEY in told[0] and "\n" not in told[0]
    assert store.get(hexapawn_her.HER_KEY) is None
    assert store.db.execute("SELECT value FROM state WHERE key = ?",
                            (hexapawn_her.HER_KEY + ".damaged-1",)).fetchone()[0] == text
    run("8-5\n7-4\n4-1\nn\n", store=store)          # and she learns again
    assert hexapawn_her.load_her(store).record == "L"
    assert len(told) == 1


@settings(max_examples=100, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["robot", "record", "name", "beads"]),
                                      inner, max_size=4), max_leaves=12))
def test_whatever_json_is_stored_her_is_read_or_fresh(data):
    store = Store.memory()
    store.notice = lambda message: None
    store.put(hexapawn_her.HER_KEY, data)
    memory = hexapawn_her.load_her(store)
    assert memory == hexapawn_her.Memory(fresh("HER"))


def long_line(text: str) -> st.SearchStrategy[str]:
    """`text` repeated up to 100,000 characters, a number or a word."""
    return st.integers(4290, 100_000).map(lambda n: (text * n)[:n])


HOSTILE = st.one_of(
    st.text(),                                              # any Unicode at all
    st.text(st.characters(max_codepoint=0x9f), max_size=30),  # control characters
    st.text("0123456789", min_size=19, max_size=60),        # numbers too big
    long_line("4").map(lambda digits: "7-" + digits),       # past int()'s limit
    long_line("1").map(lambda digits: digits + "x"),
    long_line("x"), long_line("٣"), long_line("7-4 "),
    st.sampled_from(["٣-٤", "²-④", "\x00\x1b[2J", "\u202e7-4", "7\t4",
                     "q", "QUIT", "stop", "help", "?", "y", "n", "yes", "NO"]),
    st.sampled_from(["7-4", "8-5", "9-6", "74", "5 2", "4-1", "6-3", "9-5",
                     "7-5", "8-4", "5-2", "4-2", "6-2", "5-1", "5-3"]),
)


def lines_of(texts: list[str]) -> str:
    """The texts as lines of input: each up to its first line break."""
    return "".join(text.replace("\r", "").split("\n")[0] + "\n" for text in texts)


@settings(max_examples=100, deadline=None)
@given(HOSTILE)
def test_a_line_that_is_not_a_move_gets_one_line_and_another_chance(typed):
    typed = typed.replace("\r", "").split("\n")[0]
    position = start()
    out = io.StringIO()
    tty = StreamTeletype(io.StringIO(typed + "\n8-5\n"), out, width=200_000)
    move = asyncio.run(hexapawn.your_move(tty, position))
    said = out.getvalue().split("\n")[1:-1]        # after the echoed line
    word = tty.paper().split("\n")[0].removeprefix("YOUR MOVE? ").upper()
    typed_move = parse_move(word)
    if word.strip() in ("Q", "QUIT", "STOP", "LEAVE", "EXIT"):  # ways out
        assert move is None
    elif word in ("H", "HELP", "?"):
        assert said[0] == hexapawn.RULES
    elif word in ("B", "BOARD"):
        assert "\n".join(said[:-1]) == board_text(position)
        assert move == Move(7, 4)
    elif isinstance(typed_move, Move) and why_illegal(position, typed_move) is None:
        assert move == typed_move
    else:
        assert move == Move(7, 4)
        assert len(said) == 2 and said[1] == "YOUR MOVE? 8-5"


@pytest.mark.parametrize("answers, expected", [
    ("y\n", True), ("YES\n", True), ("n\n", False), ("q\n", False),
    ("quit\n", False), ("nonsense\nyellow\ny\n", True), ("\n٣\nNO\n", False),
])
def test_a_yes_or_no_question_takes_y_n_and_quit(answers, expected):
    out = io.StringIO()
    tty = StreamTeletype(io.StringIO(answers), out)
    assert asyncio.run(hexapawn.yes_or_no(tty, "ANOTHER GAME (Y OR N)? ",
                                          hexapawn.ANOTHER_GAME)) is expected
    assert out.getvalue().count("PLEASE ANSWER Y OR N.") == answers.count("\n") - 1


def test_help_at_every_question_says_what_the_answers_do():
    printed = run("8-5\n7-4\n4-1\nhelp\nq\n")
    assert "ANOTHER GAME (Y OR N)? help\nY PLAYS ANOTHER GAME" in printed
    assert printed.rstrip().endswith("ANOTHER GAME (Y OR N)? q")
    store = Store.memory()
    run("8-5\n7-4\n4-1\nn\n", store=store)
    out = io.StringIO()
    command("hexapawn", "RESET HER",
            StreamTeletype(io.StringIO("?\nquit\n"), out, width=200), store=store)
    assert f"ARE YOU SURE (Y OR N)? ?\n{hexapawn.RESET_HELP}\n" in out.getvalue()
    assert "HER KEEPS HER BEADS." in out.getvalue()
    assert hexapawn_her.load_her(store).record == "L"


# --- a store that will not take the lesson ------------------------------------------

BUSY = "the store is busy: another program is writing to it"
READ_ONLY = "the store is read-only"


def refusing(store: Store) -> None:
    """Every write to `store` fails from now on, as on a read-only file."""
    store.db.execute("PRAGMA query_only = 1")


def test_a_lesson_the_store_refuses_is_one_line_and_nothing_half_written():
    store = Store.memory()
    run("8-5\n7-4\n4-1\nn\n", store=store)
    before = store.get(hexapawn_her.HER_KEY)
    refusing(store)
    printed = run("7-4\n4-2\nn\n", store=store, seed=5)
    assert ("HER LEARNING CURVE: 2 GAMES, 0 WON, 2 LOST\n\\\n \\\n+-\n1-2\n\n"
            f"NOT SAVED: THIS GAME AND HER LESSON FROM IT ({READ_ONLY}).\n"
            "ANOTHER GAME (Y OR N)? n\n") in printed
    assert store.get(hexapawn_her.HER_KEY) == before
    assert len(store.results("hexapawn")) == 1


def test_a_refused_lesson_is_saved_with_the_next_game():
    store = Store.memory()
    refusing(store)
    out = io.StringIO()
    tty = StreamTeletype(io.StringIO("8-5\n7-4\n4-1\n"), out)
    memory = hexapawn_her.load_her(store)
    game = asyncio.run(hexapawn.one_game(tty, memory.her, random.Random(1962)))
    memory = asyncio.run(hexapawn.finish(tty, sitting("hexapawn", store, 1962),
                                         memory, game, 1962))
    assert "NOT SAVED: THIS GAME AND HER LESSON FROM IT" in out.getvalue()
    assert memory.record == "L" and len(memory.unsaved) == 1
    assert memory.her.total == fresh("HER").total - 1   # she learned all the same
    game = contest(perfect, memory.her, random.Random(1))
    memory = asyncio.run(hexapawn.finish(tty, sitting("hexapawn", store, 2),
                                         memory, game, 2))
    assert "NOT SAVED: THE LAST 2 GAMES AND HER LESSONS FROM THEM" in out.getvalue()
    store.db.execute("PRAGMA query_only = 0")           # the store takes writes again
    game = contest(perfect, memory.her, random.Random(2))
    learned = asyncio.run(hexapawn.finish(tty, sitting("hexapawn", store, 3),
                                          memory, game, 3))
    assert learned.unsaved == ()
    assert hexapawn_her.load_her(store) == learned
    assert learned.record == memory.record + ("W" if game.winner == SECOND else "L")
    assert [r.seed for r in store.results("hexapawn")] == [1962, 2, 3]
    assert [r.detail["her_game"] for r in store.results("hexapawn")] == [1, 2, 3]


def test_a_lock_held_too_long_at_the_end_of_a_game_is_one_line(tmp_path):
    import sqlite3

    path = tmp_path / "retro.sqlite3"
    with Store.open(path) as store:
        run("8-5\n7-4\n4-1\nn\n", store=store)
    store = Store.open(path, timeout=0.2)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        printed = " ".join(run("7-4\n4-2\nn\n", store=store, seed=5).split())
        assert f"NOT SAVED: THIS GAME AND HER LESSON FROM IT ({BUSY})." in printed
        out = io.StringIO()
        command("hexapawn", "RESET HER",
                StreamTeletype(io.StringIO("y\n"), out, width=200), store=store)
        assert out.getvalue().endswith(f"NOT SAVED: HER FRESH MATCHBOXES ({BUSY}).\n")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert hexapawn_her.load_her(store).record == "L"
    assert len(store.results("hexapawn")) == 1
    store.close()


def test_reset_her_in_a_read_only_store_is_one_line():
    store = Store.memory()
    run("8-5\n7-4\n4-1\nn\n", store=store)
    refusing(store)
    out = io.StringIO()
    command("hexapawn", "RESET HER", StreamTeletype(io.StringIO("y\n"), out),
            store=store)
    assert out.getvalue() == (
        "RESET HER? SHE FORGETS ALL SHE LEARNED IN 1 GAME.\n"
        "ARE YOU SURE (Y OR N)? y\n"
        f"NOT SAVED: HER FRESH MATCHBOXES ({READ_ONLY}).\n")
    assert hexapawn_her.load_her(store).record == "L"


# --- RESET HER --------------------------------------------------------------------

def test_reset_her_asks_first_and_then_gives_fresh_boxes():
    store = Store.memory()
    run("8-5\n7-4\n4-1\nn\n", store=store)
    out = io.StringIO()
    command("hexapawn", "RESET HER", StreamTeletype(io.StringIO("n\n"), out),
            store=store)
    assert "SHE FORGETS ALL SHE LEARNED IN 1 GAME." in out.getvalue()
    assert "HER KEEPS HER BEADS." in out.getvalue()
    assert hexapawn_her.load_her(store).record == "L"
    out = io.StringIO()
    command("hexapawn", "RESET HER", StreamTeletype(io.StringIO("y\n"), out),
            store=store)
    assert "HER HAS FRESH MATCHBOXES" in out.getvalue()
    memory = hexapawn_her.load_her(store)
    assert memory.record == "" and memory.her == fresh("HER")
    assert len(store.results("hexapawn")) == 1      # the scores stay


def test_a_her_with_nothing_to_forget_is_not_asked_about():
    out = io.StringIO()
    command("hexapawn", "RESET HER", StreamTeletype(io.StringIO("y\n"), out),
            store=Store.memory())
    assert " ".join(out.getvalue().split()) == (
        "HER HAS NOT PLAYED SINCE SHE WAS LAST RESET: HER MATCHBOXES ARE FRESH ALREADY.")
    assert "0 GAMES" not in out.getvalue()


# --- the command line -------------------------------------------------------------

def cli(*args: str, home: Path) -> subprocess.CompletedProcess:
    import os
    return subprocess.run([sys.executable, "-m", "retro", "hexapawn", *args],
                          capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "RETRO_HOME": str(home)})


def test_boxes_lists_her_nineteen_boxes_as_json(tmp_path):
    done = cli("boxes", "--json", home=tmp_path)
    assert done.returncode == 0
    boxes = json.loads(done.stdout)
    assert isinstance(boxes, list) and len(boxes) == 19
    assert [box["box"] for box in boxes] == list(range(1, 20))
    assert [box["move"] for box in boxes] == [2] * 2 + [4] * 10 + [6] * 7
    assert {box["side"] for box in boxes} == {"X"}
    assert sum(sum(box["beads"].values()) for box in boxes) == 47
    assert boxes[0] == {
        "box": 1, "side": "X", "move": 2, "position": "XXX/.O./O.O",
        "beads": {"1-4": 1, "1-5": 1, "3-5": 1, "3-6": 1},
        "colours": {"1-4": "RED", "1-5": "GREEN", "3-5": "BLUE", "3-6": "AMBER"}}


def test_boxes_shows_the_stored_her(tmp_path):
    with Store.open(tmp_path / "retro.sqlite3") as store:
        run("8-5\n7-4\n4-1\nn\n", store=store)
    boxes = json.loads(cli("boxes", "--json", home=tmp_path).stdout)
    assert sum(sum(box["beads"].values()) for box in boxes) == 46
    [box_9] = [box for box in boxes if box["box"] == 9]
    assert box_9["beads"] == {"2-6": 1, "5-7": 1, "5-8": 1}   # the red 1-4 is gone
    assert box_9["colours"]["1-4"] == "RED"
    every_box = json.loads(cli("boxes", "--json", "--fresh", "--all",
                               home=tmp_path).stdout)
    assert len(every_box) == 37
    assert sum(sum(box["beads"].values()) for box in every_box) == 47 + sum(
        len(box["colours"]) for box in every_box if box["side"] == "O")
    text = cli("boxes", home=tmp_path).stdout
    assert text.startswith("HER 19 MATCHBOXES HOLD 46 BEADS.\n"
                           "A POSITION AND ITS MIRROR IMAGE SHARE A BOX: 19, "
                           "NOT GARDNER'S 24.\n")
    beads = sum(sum(box["beads"].values()) for box in json.loads(
        cli("boxes", "--json", "--all", home=tmp_path).stdout))
    text = cli("boxes", "--all", home=tmp_path).stdout
    assert text.startswith(f"HER 37 MATCHBOXES HOLD {beads} BEADS.\n\n")


def test_boxes_of_an_unreadable_her_are_a_fresh_hers_with_a_word(tmp_path):
    with Store.open(tmp_path / "retro.sqlite3") as store:
        store.put(hexapawn_her.HER_KEY, {"robot": "nonsense", "record": "L"})
    done = cli("boxes", "--json", home=tmp_path)
    assert done.returncode == 0
    [told] = done.stderr.splitlines()          # the store's one line
    assert "hexapawn.her" in told and "hexapawn.her.damaged-1" in told
    assert sum(sum(box["beads"].values()) for box in json.loads(done.stdout)) == 47


def test_train_reports_games_losses_and_last_loss(tmp_path):
    done = cli("train", "--opponent", "perfect", "--games", "300", "--seed", "7",
               "--json", home=tmp_path)
    assert done.returncode == 0
    report = json.loads(done.stdout)
    assert report["games"] == 300
    assert report["losses"] == report["record"].count("L") > 0
    assert report["last_loss"] == report["record"].rfind("L") + 1
    assert report["unbeatable"]["second"] is True
    assert "L" not in report["record"][report["last_loss"]:]
    assert not (tmp_path / "retro.sqlite3").exists()   # the user's HER is untouched


def test_train_against_a_robot_alternates_and_reports_both(tmp_path):
    report = json.loads(cli("train", "--robot", "him", "--opponent", "her",
                            "--first", "alternate", "--games", "50", "--seed", "1",
                            "--json", home=tmp_path).stdout)
    assert report["robot"] == "HIM"
    assert report["opponent_losses"] + report["losses"] == 50


def test_solve_says_who_wins_and_checks_brown(tmp_path):
    report = json.loads(cli("solve", "--cols", "16", "--json", home=tmp_path).stdout)
    assert report["winner"] == "second" and report["agrees_with_brown"]
    report = json.loads(cli("solve", "--cols", "4", "--rows", "4", "--openings",
                            "--json", home=tmp_path).stdout)
    assert report["winner"] == "first"
    assert report["winning_openings"] == ["13-9", "16-12"]
    text = cli("solve", "--cols", "3", home=tmp_path).stdout
    assert "the second player wins" in text and "agrees" in text


@pytest.mark.parametrize("args", [
    ["train", "--games", "0"], ["train", "--opponent", "nobody"],
    ["solve", "--cols", "x"], ["solve", "--cols", "3", "--rows", "9"],
    ["solve"], ["boxes", "--colour"],
])
def test_usage_errors_exit_2_without_a_traceback(args, tmp_path):
    done = cli(*args, home=tmp_path)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip()


# --- every numeric option, whatever it is given -------------------------------------

def refused(args: list[str], capsys) -> str:
    """What `retro hexapawn ARGS` says on refusing them: exit 2, one line."""
    from retro.cli import main

    try:
        status = main(["hexapawn", *args])
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    assert status == 2, (args, out, err)
    assert out == "" and err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


NOT_A_COUNT = st.one_of(
    st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=5)
    .filter(lambda text: not text.isascii()),            # ٣, ², ④: not ASCII digits
    st.integers(4290, 6000).map(lambda n: "9" * n),        # past int()'s limit
    st.integers(19, 100).map(lambda n: "1" * n),           # past any bound
    st.integers(1, 10 ** 30).map(lambda n: f"-{n}"),       # negative
    st.text(min_size=1, max_size=10).filter(lambda text: number_in(text) is None),
    st.sampled_from(["", " ", "1e3", "0x10", "1_000", "+5", "3.0", "-0x1"]),
).filter(lambda text: text != "--")   # "--option=--" is argparse's: the CLI's to fix


@pytest.mark.parametrize("command, option, zero_is_refused", [
    ("train", "--games", True), ("train", "--seed", False),
    ("solve", "--cols", True), ("solve", "--rows", True),
])
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=NOT_A_COUNT)
def test_every_numeric_option_refuses_what_is_not_a_count_in_one_line(
        command, option, zero_is_refused, value, capsys, monkeypatch):
    monkeypatch.setattr(hexapawn_commands, "Search", None)  # no search may start
    monkeypatch.setattr(hexapawn_commands, "train", None)   # nor any training
    if number_in(value.removeprefix("-")) == 0 and not zero_is_refused:
        return                                          # --seed 0 is a seed
    others = {"solve": ["--cols", "3"] if option != "--cols" else []}.get(command, [])
    refused([command, *others, f"{option}={value}"], capsys)


@pytest.mark.parametrize("args, says", [
    (["train", "--games", "0"], "argument --games: must be at least 1: 0"),
    (["train", "--games", "100001"], "argument --games: must be at most 100000"),
    (["train", "--seed", "٣"], 'argument --seed: not a whole number: "٣"'),
    (["train", "--seed", "-1"], "argument --seed: must not be negative: -1"),
    (["solve", "--cols", "0"], "argument --cols: must be at least 1: 0"),
    (["solve", "--rows", "1", "--cols", "3"], "argument --rows: must be at least 2: 1"),
    (["solve", "--rows", "6", "--cols", "3"], "argument --rows: must be at most 5: 6"),
    (["solve", "--cols", "9" * 5000], 'argument --cols: too large: "99999999999999999999..."'),
])
def test_a_number_out_of_bounds_is_refused_saying_the_bound(args, says, capsys):
    assert says in refused(args, capsys)


@pytest.mark.parametrize("rows", sorted(WIDEST))
def test_a_board_wider_than_the_search_can_solve_is_refused_before_it_starts(
        rows, capsys, monkeypatch):
    monkeypatch.setattr(hexapawn_commands, "Search", None)  # no search may start
    told = refused(["solve", "--rows", str(rows), "--cols", str(WIDEST[rows] + 1)],
                   capsys)
    if WIDEST[rows] == max(WIDEST.values()):            # the bound of --cols itself
        assert f"argument --cols: must be at most {WIDEST[rows]}: " in told
    else:
        assert told == (f"retro: argument --cols: must be at most {WIDEST[rows]} on "
                        f"{rows} rows: {WIDEST[rows] + 1} (a wider board needs more "
                        f"than {BUDGET})\n")


def test_the_help_states_the_limits(capsys):
    from retro.cli import main

    with pytest.raises(SystemExit):
        main(["hexapawn", "solve", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "at most " + ", ".join(f"{cols} on {rows} rows"
                                  for rows, cols in WIDEST.items()) in said
    assert "any" not in said


def chapters_table_of_winners() -> dict[tuple[int, int], str]:
    """hexapawn_theory.md's table of who wins each R x N board: F or S."""
    chapter = (Path(__file__).parent.parent / "literate"
               / "hexapawn_theory.md").read_text()
    table = chapter.split("| rows \\ columns |", 1)[1].split("\n\n", 1)[0]
    cells = {}
    for row in table.splitlines()[2:]:
        rows, *winners = [cell.strip() for cell in row.strip("|").split("|")]
        cells.update({(int(rows), cols): winner
                      for cols, winner in enumerate(winners, 1) if winner})
    return cells


# the two smallest of the limits, each a test of its own; the others are
# timed by the benchmark
@pytest.mark.parametrize("rows", (4, 5))
def test_the_widest_boards_accepted_are_solved_as_the_chapter_says(rows):
    table = chapters_table_of_winners()
    winner = solve(rows, WIDEST[rows]).winner
    assert table[rows, WIDEST[rows]] == {"first": "F",
                                         "second": "S"}[winner]


def test_training_says_one_game_not_one_games(tmp_path):
    said = cli("train", "--games", "1", "--seed", "3", home=tmp_path).stdout
    assert said.startswith("HER played 1 game against the perfect player (seed 3)")


def test_a_move_of_thousands_of_digits_at_the_command_line_is_one_line(tmp_path):
    import os
    answers = ("7-" + "4" * 4301 + "\n" + "1" * 100_000 + "x\n٣-٤\n"
               + "\x00\x1b[2J\n" + "q\n")
    done = subprocess.run(
        [sys.executable, "-m", "retro", "play", "hexapawn", "--seed", "1962"],
        input=answers.encode(), capture_output=True, cwd=ROOT, timeout=60,
        env={**os.environ, "RETRO_HOME": str(tmp_path)})
    printed = done.stdout.decode()
    assert done.returncode == 0 and done.stderr == b""
    assert 'THERE IS NO SQUARE "44444444444444444444...": THE SQUARES ARE 1 TO 9.' in printed
    assert printed.count("TYPE A MOVE AS THE SQUARE YOU LEAVE") == 3
    assert printed.endswith("HER BEADS ARE AS THEY WERE.\n\n*** GAME ABANDONED ***\n")


def test_the_chapter_shows_the_limits_the_command_keeps(capsys):
    chapter = CHAPTER.read_text()
    row = next(line for line in chapter.splitlines() if line.startswith("| `solve` |"))
    assert (f"up to {WIDEST[3]} columns on 3 rows ({WIDEST[4]} on 4, {WIDEST[5]} on 5, "
            f"{WIDEST[2]:,} on 2)") in row
    shown = chapter.split("$ retro hexapawn solve --rows 4 --cols 9\n")[1]
    shown = " ".join(shown.split("```")[0].split())   # the page folds it
    said = refused(["solve", "--rows", "4", "--cols", "9"], capsys)
    assert said.count("\n") == 1 and " ".join(said.split()) == shown


def test_the_chapters_runs_of_train_and_solve_are_what_the_commands_print(
        tmp_path):
    # every `$ retro hexapawn train|solve` run of the chapter's text blocks,
    # line for line; the seconds a search took are the run's own
    chapter = CHAPTER.read_text()
    runs = re.findall(r"^\$ retro hexapawn ((?:train|solve) [^\n]*)\n"
                      r"((?:[^$`\n][^\n]*\n)+)", chapter, re.MULTILINE)
    runs = [run for run in runs if not run[1].startswith("retro:")]  # refusals
    assert len(runs) == 4, [typed for typed, _ in runs]
    seconds = re.compile(r", [\d.]+ s\)")
    for typed, shown in runs:
        done = cli(*typed.split(), home=tmp_path)
        assert done.returncode == 0, done.stderr
        unfolded = shown.replace("\n  ", " ")  # lines folded to fit the page
        assert seconds.sub(", s)", done.stdout) == \
            seconds.sub(", s)", unfolded), typed
