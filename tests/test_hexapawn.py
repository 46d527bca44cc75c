"""Hexapawn: the rules, the game against HER at the teletype, her memory in
the store, RESET HER, and the `retro hexapawn` command line."""
from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from retro.games import hexapawn
from retro.engines.hexapawn_rules import (FIRST, SECOND, Move, Position, after,
                                  board_text, legal_moves, mirror, mirror_move,
                                  parse_move, result, start, why_illegal,
                                  winner, winning_moves, wins)
from retro.engines.matchbox import Robot, box_for, contest, fresh, perfect, robot_json
from retro.room.store import Store
from retro.room.teletype import StreamTeletype

HERE = Path(__file__).parent
ROOT = HERE.parent
TRANSCRIPTS = HERE / "transcripts"
CHAPTER = ROOT / "literate" / "hexapawn.md"


def run(answers: str, *, seed: int = 1962, store=None) -> str:
    out = io.StringIO()
    tty = StreamTeletype(io.StringIO(answers), out)
    hexapawn.play(tty, rng=random.Random(seed), store=store or Store.memory(),
                  seed=seed)
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
    ("0-3", "NUMBERED 1 TO 9; THERE IS NO 0"), ("7-10", "THERE IS NO 10"),
    ("747", "THERE IS NO 74"),
])
def test_a_move_that_is_no_move_says_how_to_type_one(typed, says):
    message = parse_move(typed)
    assert isinstance(message, str) and says in message


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
    memory, trouble = hexapawn.load_her(store)
    assert trouble == ""
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
        assert hexapawn.load_her(store)[0].record == "L"
    assert ("HER HAS PLAYED 1 GAME: SHE WON 0 AND LOST 1. HER'S 19 MATCHBOXES "
            "HOLD 46 BEADS.") in " ".join(printed.split())


def test_the_learning_curve_is_drawn_after_each_game_over_all_her_games():
    store = Store.memory()
    run("8-5\n7-4\n4-1\nn\n", store=store)
    printed = run("7-4\n4-2\nn\n", store=store, seed=5)
    assert "HER'S LEARNING CURVE: 2 GAMES, 0 WON, 2 LOST\n\\\n \\\n+-\n1-2\n" in printed


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
    before = store.get(hexapawn.HER_KEY)
    results = len(store.results())
    tty = StreamTeletype(Interrupt(["8-5"], error), io.StringIO())
    if error is KeyboardInterrupt:
        with pytest.raises(KeyboardInterrupt):
            hexapawn.play(tty, rng=random.Random(3), store=store, seed=3)
    else:
        hexapawn.play(tty, rng=random.Random(3), store=store, seed=3)
    assert "HER OPENS BOX" in tty.paper()          # she had drawn a bead
    assert store.get(hexapawn.HER_KEY) == before
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
        wait_for(b"ANOTHER GAME", after=b"HER'S LEARNING CURVE")
        wait_for(b"SHE DRAWS", after=b"ANOTHER GAME")      # a bead is out
        wait_for(b"YOUR MOVE? ", after=b"SHE DRAWS")
        game.send_signal(signal.SIGINT)
        out, _ = game.communicate(timeout=60)
    finally:
        game.kill()
    assert game.returncode == 130
    assert b"GAME ABANDONED" in out
    with Store.open(tmp_path / "retro.sqlite3") as store:
        memory, trouble = hexapawn.load_her(store)
        assert trouble == "" and memory.record == "L"
        assert memory.her.total == fresh("HER").total - 1
        assert len(store.results("hexapawn")) == 1


def test_ctrl_c_while_the_end_of_a_game_is_written_keeps_nothing_of_it():
    store = Store.memory()
    run("8-5\n7-4\n4-1\nn\n", store=store)
    before = store.get(hexapawn.HER_KEY)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    store.record = interrupted          # Ctrl-C after HER's beads were put
    with pytest.raises(KeyboardInterrupt):
        run("7-4\n4-2\nn\n", store=store, seed=5)
    assert store.get(hexapawn.HER_KEY) == before
    del store.record
    assert len(store.results("hexapawn")) == 1


def test_a_game_finished_while_another_session_played_adds_its_lesson():
    store = Store.memory()
    stale, _ = hexapawn.load_her(store)           # this session's HER: fresh
    run("8-5\n7-4\n4-1\nn\n", store=store)          # another session: a lesson
    game = contest(perfect, stale.her, random.Random(1))
    assert game.winner == FIRST and game.draws[SECOND]
    tty = StreamTeletype(io.StringIO(""), io.StringIO())
    learned = hexapawn.finish(tty, store, stale, game, seed=1)
    assert learned.record == "LL"
    assert learned.her.total == fresh("HER").total - 2
    assert hexapawn.load_her(store)[0] == learned


def test_her_resigns_at_an_empty_box_and_loses_the_bead_before():
    her = fresh("HER")
    opening, _ = box_for(Position("XXX" "O.." ".OO", 3, SECOND))   # after 7-4
    then = Position("X.X" "OO." ".O.", 3, SECOND)                   # 2-5, 9-5
    empty, _ = box_for(then)
    beads = {**her.beads, opening.key: {"2-4": 0, "2-5": 1, "3-6": 0},
             empty.key: {arrow: 0 for arrow in her.beads[empty.key]}}
    store = Store.memory()
    store.put(hexapawn.HER_KEY, {"robot": robot_json(Robot("HER", False, beads)),
                                 "record": ""})
    printed = run("7-4\n9-5\nn\n", store=store)
    assert "SHE DRAWS GREEN AND PLAYS 2-5." in printed
    assert (f"YOUR MOVE? 9-5\n{board_text(then)}\nHER OPENS BOX {empty.number}. "
            f"IT IS EMPTY: SHE RESIGNS.\nYOU WIN.") in printed
    assert (f"HER LOSES THE GREEN BEAD FROM BOX {opening.number}: SHE WILL NOT "
            f"MAKE THAT MOVE THERE AGAIN.") in " ".join(printed.split())
    memory = hexapawn.load_her(store)[0]
    assert memory.record == "L"
    assert memory.her.beads[opening.key]["2-5"] == 0
    [record] = store.results("hexapawn")
    assert record.detail["ending"] == "resigned"


def test_the_end_of_input_ends_the_game_cleanly_mid_game():
    printed = run("8-5\n")
    assert printed.rstrip().endswith("YOUR MOVE?")


def test_quit_abandons_the_game_and_keeps_her_as_she_was():
    store = Store.memory()
    printed = run("8-5\nquit\n", store=store)
    assert "GAME ABANDONED. HER'S BEADS ARE AS THEY WERE." in printed
    assert store.get(hexapawn.HER_KEY) is None
    assert store.results() == []


def test_an_unreadable_her_is_replaced_by_a_fresh_one_with_a_word():
    store = Store.memory()
    store.put(hexapawn.HER_KEY, {"robot": {"name": "HER", "beads": "nonsense"}})
    printed = run("n\n", store=store)
    assert "HER'S MATCHBOXES COULD NOT BE READ" in printed
    assert "HER HAS NEVER PLAYED" in printed


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["7-4", "8-5", "9-6", "74", "5 2", "4-1", "6-3",
                                 "9-5", "7-5", "8-4", "y", "n", "help", "board",
                                 "", "x", "0-0", "99"]), max_size=40))
def test_anything_typed_gets_an_answer_never_a_traceback(lines):
    printed = run("".join(line + "\n" for line in lines))
    assert printed.startswith("HEXAPAWN\n")


# --- RESET HER --------------------------------------------------------------------

def test_reset_her_asks_first_and_then_gives_fresh_boxes():
    store = Store.memory()
    run("8-5\n7-4\n4-1\nn\n", store=store)
    out = io.StringIO()
    hexapawn.ROOM_COMMANDS["RESET HER"](StreamTeletype(io.StringIO("n\n"), out), store)
    assert "SHE FORGETS ALL SHE LEARNED IN 1 GAME." in out.getvalue()
    assert "HER KEEPS HER BEADS." in out.getvalue()
    assert hexapawn.load_her(store)[0].record == "L"
    out = io.StringIO()
    hexapawn.ROOM_COMMANDS["RESET HER"](StreamTeletype(io.StringIO("y\n"), out), store)
    assert "HER HAS FRESH MATCHBOXES" in out.getvalue()
    memory = hexapawn.load_her(store)[0]
    assert memory.record == "" and memory.her == fresh("HER")
    assert len(store.results("hexapawn")) == 1      # the scores stay


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
    assert text.startswith("HER'S 19 MATCHBOXES HOLD 46 BEADS.")


def test_boxes_of_an_unreadable_her_are_a_fresh_hers_with_a_word(tmp_path):
    with Store.open(tmp_path / "retro.sqlite3") as store:
        store.put(hexapawn.HER_KEY, {"robot": "nonsense", "record": "L"})
    done = cli("boxes", "--json", home=tmp_path)
    assert done.returncode == 0
    assert "the stored HER could not be read" in done.stderr
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
