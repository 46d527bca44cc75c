"""Penney's game at the teletype and on the command line: what a player sees."""
from __future__ import annotations

import io
import json
import os
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest

from retro.games import penney
from retro.engines.penney_odds import patterns
from retro.room.store import Store
from retro.room.teletype import StreamTeletype

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPTS = Path(__file__).parent / "transcripts"


def run(answers: str, *, seed: int = 4, store: Store | None = None,
        **options) -> str:
    store = store if store is not None else Store.memory()
    tty = StreamTeletype(io.StringIO(answers), out := io.StringIO())
    penney.play(tty, rng=random.Random(seed), store=store, seed=seed, **options)
    return out.getvalue()


def replay(name: str, seed: int, store: Store) -> tuple[str, str]:
    """Play tests/transcripts/NAME.in; the output and the expected .out.

    With RETRO_UPDATE_TRANSCRIPTS=1 in the environment the .out is rewritten
    (read it before you commit it)."""
    output = run((TRANSCRIPTS / f"{name}.in").read_text(), seed=seed, store=store)
    expected = TRANSCRIPTS / f"{name}.out"
    if os.environ.get("RETRO_UPDATE_TRANSCRIPTS"):
        expected.write_text(output)
    return output, expected.read_text()


def test_transcript_of_bets_with_a_fixed_seed():
    store = Store.memory()
    output, expected = replay("penney_bet_seed4", 4, store)
    assert output == expected
    results = store.results("penney")
    assert [(r.score, r.outcome, r.seed) for r in results] == [
        ("-10 to 90", "loss", 4), ("-90 to 0", "loss", 4), ("+5 to 105", "win", 4)]
    assert results[0].detail == {
        "player": "HHH", "machine": "THH", "first": "player", "stake": 10,
        "tosses": "HTHTTHH", "chance": "1/8", "bankroll": 90}
    assert store.get(penney.BANKROLL) == 105


def test_the_chapters_transcript_is_the_game_as_played():
    output, expected = replay("penney_chapter_seed1969", 1969, Store.memory())
    assert output == expected
    chapter = (ROOT / "literate" / "penney.md").read_text()
    assert "```text\n" + expected + "```" in chapter


def test_the_machine_counters_by_the_rule_and_the_odds_are_told():
    output = run("y\nHTT\n1\nq\n")
    assert "I pick HHT." in output
    assert "Your HTT had a chance of 1/3 (33.3%), my HHT 2/3 (66.7%)." in output


def test_picking_first_the_machine_takes_a_pattern_that_loses_least():
    picks = set()
    for seed in range(40):
        output = run("n\nq\n", seed=seed)
        picks.add(re.search(r"I pick (\w+)\.", output).group(1))
    assert picks == {"HTH", "HTT", "THH", "THT"}


def test_same_seed_same_tosses():
    assert run("n\nTTH\n3\ny\nHHH\n3\nq\n", seed=11) == \
        run("n\nTTH\n3\ny\nHHH\n3\nq\n", seed=11)


def test_the_bankroll_carries_over_between_sessions():
    store = Store.memory()
    run("y\nHHH\n10\nq\n", store=store)
    left = store.get(penney.BANKROLL)
    assert left in (90, 110)
    assert f"You have {left} pennies." in run("q\n", store=store).splitlines()[5]


def test_a_player_who_goes_broke_may_refuse_a_fresh_stake():
    store = Store.memory()
    # seed 4, as in the transcript: HHH against THH loses, here all 100
    output = run("y\nHHH\nall\nn\n", store=store, seed=4)
    assert output.endswith("You have 0 pennies.\nYou are broke.\n"
                           "Would you like a fresh stake of 100 pennies? (y/n) n\n"
                           "You leave with 0 pennies.\n")
    assert store.get(penney.BANKROLL) == 0


def test_a_broke_player_is_offered_a_fresh_stake_next_time():
    store = Store.memory()
    store.put(penney.BANKROLL, 0)
    refused = run("n\n", store=store)
    assert "You were broke when you last left." in refused
    assert refused.endswith("(y/n) n\nYou leave with 0 pennies.\n")
    accepted = run("y\nq\n", store=store)
    assert "Here are 100 pennies." in accepted
    assert store.get(penney.BANKROLL) == 100


def test_end_of_input_leaves_cleanly_with_the_settled_bankroll():
    store = Store.memory()
    # input ends after the stake: the bet is settled, the next question ends it
    # (seed 4: HHH against THH loses, as in the transcript)
    output = run("y\nHHH\n10", store=store)
    assert store.get(penney.BANKROLL) == 90
    assert [r.score for r in store.results("penney")] == ["-10 to 90"]
    assert output.endswith("You have 90 pennies.\n\n"
                           "Do you want to pick first? (y/n) \n"
                           "You leave with 90 pennies.\n")
    # input ends before the stake: nothing was staked, nothing recorded
    store = Store.memory()
    output = run("y\nHHH\n", store=store)
    assert store.results() == [] and store.get(penney.BANKROLL) is None
    assert output.endswith("You leave with 100 pennies.\n")


class Interrupted(StreamTeletype):
    """A teletype whose player presses Ctrl-C as `when` is about to print,
    once `after` has been printed."""

    def __init__(self, answers: str, when: str, after: str = ""):
        super().__init__(io.StringIO(answers), io.StringIO())
        self.when, self.after, self.armed = when, after, not after

    def say(self, text: str = "") -> None:
        self._maybe_stop(str(text))
        super().say(text)
        self.armed = self.armed or str(text).startswith(self.after)

    def ask(self, prompt: str, choices=()) -> str:
        self._maybe_stop(prompt)
        return super().ask(prompt, choices)

    def _maybe_stop(self, text: str) -> None:
        if self.armed and text.startswith(self.when):
            raise KeyboardInterrupt


def interrupt(answers: str, when: str, after: str = "") -> tuple[str, Store]:
    """Play through the room's play_game, pressing Ctrl-C at `when`."""
    from retro.room.room import play_game
    store = Store.memory()
    tty = Interrupted(answers, when, after)
    assert play_game(penney, tty, store, seed=4) == "abandoned"
    return tty.outstream.getvalue(), store


@pytest.mark.parametrize("when", ["Do you want", "Your pattern", "Your stake",
                                  "I pick"])
def test_ctrl_c_before_the_toss_stakes_nothing(when):
    # seed 4: the first bet is lost, 100 -> 90; Ctrl-C cuts the second short
    output, store = interrupt("y\nHHH\n10\ny\nHHH\n50\n", when,
                              after="You have 90")
    assert output.endswith("*** GAME ABANDONED ***\n")
    assert output.count("Tossing") == 1
    assert store.get(penney.BANKROLL) == 90
    assert [r.score for r in store.results("penney")] == ["-10 to 90"]


def test_ctrl_c_while_the_tosses_print_cannot_undo_a_lost_bet():
    # At 110 baud the tosses take seconds to print; a player who stops the
    # paper on seeing them has still lost: the bet was settled first.
    output, store = interrupt("y\nHHH\n10\n", "Tossing")
    assert "Tossing" not in output
    assert store.get(penney.BANKROLL) == 90
    assert [r.score for r in store.results("penney")] == ["-10 to 90"]


@pytest.mark.parametrize("answer, message", [
    ("maybe", "Answer y or n (or q to leave)."),
])
def test_bad_yes_no(answer, message):
    assert message in run(f"{answer}\nq\n")


@pytest.mark.parametrize("answer, message", [
    ("", "Type a pattern of tosses, like HTH."),
    ("HHHH", "HHHH has 4 tosses; a pattern here has 3, like HTH."),
    ("abc", "'abc' is not a pattern: use H and T only, like HTH."),
    ("HTT", "HTT is mine: pick a different pattern."),
])
def test_bad_patterns_get_a_message_and_another_chance(answer, message):
    # seed 4: picking first, the machine takes HTT
    output = run(f"n\n{answer}\nq\n")
    assert "I pick HTT." in output
    assert message in output


@pytest.mark.parametrize("answer", ["0", "-5", "101", "ten", "1.5", "9" * 5000])
def test_bad_stakes_get_a_message_and_another_chance(answer):
    output = run(f"y\nHHH\n{answer}\nq\n")
    assert "Stake a whole number of pennies from 1 to 100, or all." in output
    assert "Tossing" not in output


def test_a_stake_of_all_and_longer_patterns():
    output = run("n\nHHHH\nall\nq\n", length=4)
    assert "pattern of 4 tosses" in output
    assert re.search(r"I pick (HTHH|THTT)\.", output)
    assert re.search(r"You have (0|200) pennies\.", output)


def test_patterns_longer_than_eight_are_refused():
    with pytest.raises(ValueError):
        run("q\n", length=9)


# The command line -----------------------------------------------------------

def cli(capsys, *argv: str) -> tuple[int, str, str]:
    from retro.cli import main
    try:
        code = main(["penney", *argv])
    except SystemExit as leaving:  # argparse's own usage errors
        code = leaving.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# The 8 x 8 table of mga010's blog post "Penney's Game" (2021), as printed.
BLOG_ROWS = [
    ["0", "1/2", "2/5", "2/5", "1/8", "5/12", "3/10", "1/2"],
    ["1/2", "0", "2/3", "2/3", "1/4", "5/8", "1/2", "7/10"],
    ["3/5", "1/3", "0", "1/2", "1/2", "1/2", "3/8", "7/12"],
    ["3/5", "1/3", "1/2", "0", "1/2", "1/2", "3/4", "7/8"],
    ["7/8", "3/4", "1/2", "1/2", "0", "1/2", "1/3", "3/5"],
    ["7/12", "3/8", "1/2", "1/2", "1/2", "0", "1/3", "3/5"],
    ["7/10", "1/2", "5/8", "1/4", "2/3", "2/3", "0", "1/2"],
    ["1/2", "3/10", "5/12", "1/8", "2/5", "2/5", "1/2", "0"],
]


def test_odds_json_is_the_blog_posts_matrix(capsys):
    code, out, _ = cli(capsys, "odds", "--json")
    assert code == 0
    assert json.loads(out) == {"patterns": patterns(3), "p": BLOG_ROWS}


def test_odds_text_shows_the_table_and_the_best_replies(capsys):
    code, out, _ = cli(capsys, "odds")
    assert code == 0
    lines = out.splitlines()
    assert lines[2].split() == patterns(3)
    assert [line.split() for line in lines[3:11]] == [
        [pattern] + row for pattern, row in zip(patterns(3), BLOG_ROWS)]
    assert "  HHH     0   1/2   2/5   2/5   1/8  5/12  3/10   1/2" in out
    assert "  against HHH pick THH: it shows first with chance 7/8" in out
    assert "  against HTH pick HHT: it shows first with chance 2/3" in out


def test_odds_for_longer_patterns(capsys):
    code, out, _ = cli(capsys, "odds", "--length", "5", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["p"]) == 32 and len(data["p"][0]) == 32
    assert all(data["p"][i][i] == "0" for i in range(32))
    code, out, _ = cli(capsys, "odds", "--length", "5")
    assert "too wide to print; --json gives all of it" in out
    assert "against HTTHH pick " in out


def test_odds_for_named_patterns_of_any_length(capsys):
    a, b = "H" * 64, "T" + "H" * 63
    code, out, _ = cli(capsys, "odds", a, b, "--json")
    assert code == 0
    assert json.loads(out) == {"patterns": [a, b],
                               "p": [["0", f"1/{2 ** 64}"],
                                     [f"{2 ** 64 - 1}/{2 ** 64}", "0"]]}
    code, out, _ = cli(capsys, "odds", "htth", "t,h,h,t")
    assert "  HTTH     0   1/2" in out


def test_wait(capsys):
    code, out, _ = cli(capsys, "wait", "--json")
    assert code == 0
    assert json.loads(out) == {"HHH": "14", "HHT": "8", "HTH": "10", "HTT": "8",
                               "THH": "8", "THT": "10", "TTH": "8", "TTT": "14"}
    code, out, _ = cli(capsys, "wait", "-k", "2")
    assert out.splitlines()[2:] == ["  HH  6", "  HT  4", "  TH  4", "  TT  6"]
    code, out, _ = cli(capsys, "wait", "H" * 40, "--json")
    assert json.loads(out) == {"H" * 40: str(2 ** 41 - 2)}


@pytest.mark.parametrize("argv, message", [
    (["odds", "--length", "0"], "retro: --length must be 1 to 10, not 0"),
    (["odds", "--length", "11"], "retro: --length must be 1 to 10, not 11"),
    (["wait", "--length", "17"], "retro: --length must be 1 to 16, not 17"),
    (["odds", "HXH"], "retro: 'HXH' is not a pattern: use H and T only, like HTH"),
    (["odds", "HTH", "HT"], "retro: the patterns must all have the same length"),
    (["odds", "HTH", "hth"], "retro: HTH is given twice"),
    (["wait", "-k", "4", "HTH"], "retro: the patterns have 3 tosses, not --length 4"),
])
def test_usage_errors_are_one_line_and_exit_2(capsys, argv, message):
    code, out, err = cli(capsys, *argv)
    assert (code, out, err) == (2, "", message + "\n")


def test_argparse_usage_errors_exit_2_without_a_traceback(capsys):
    for argv in (["odds", "--length", "abc"], [], ["guess"]):
        code, _, err = cli(capsys, *argv)
        assert code == 2 and "Traceback" not in err


def test_the_chapters_table_of_replies_and_its_circle():
    from retro.engines.penney_odds import best_reply, counter, odds
    lines = (ROOT / "literate" / "penney.md").read_text().splitlines()
    start = lines.index("| first chooser | second chooser | second wins with |")
    table = [[cell.strip() for cell in line.strip("|").split("|")]
             for line in lines[start + 2:start + 10]]
    assert [first for first, _, _ in table] == patterns(3)
    for first, second, chance in table:
        assert counter(first) == best_reply(first) == second
        assert odds(second, first) == Fraction(chance)
    circle = ["THH", "HHT", "HTT", "TTH", "THH"]
    chances = {odds(a, b) for a, b in zip(circle, circle[1:])}
    assert chances == {Fraction(2, 3), Fraction(3, 4)}


def test_retro_play_penney_from_a_pipe(tmp_path):
    import subprocess
    import sys
    answers = (TRANSCRIPTS / "penney_bet_seed4.in").read_text()
    run_it = subprocess.run(
        [sys.executable, "-m", "retro", "play", "penney", "--seed", "4"],
        input=answers, capture_output=True, text=True, cwd=ROOT, timeout=60,
        env={**os.environ, "RETRO_HOME": str(tmp_path)})
    assert (run_it.returncode, run_it.stderr) == (0, "")
    assert run_it.stdout == (TRANSCRIPTS / "penney_bet_seed4.out").read_text()
    again = subprocess.run(
        [sys.executable, "-m", "retro", "play", "penney"], input="q\n",
        capture_output=True, text=True, cwd=ROOT, timeout=60,
        env={**os.environ, "RETRO_HOME": str(tmp_path)})
    assert "You have 105 pennies." in again.stdout


def test_ctrl_c_at_retro_play_penney_keeps_the_bankroll(tmp_path):
    import select
    import signal
    import subprocess
    import sys
    import time
    env = {**os.environ, "RETRO_HOME": str(tmp_path)}
    game = subprocess.Popen(
        [sys.executable, "-m", "retro", "play", "penney", "--seed", "4"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=ROOT, env=env)
    try:
        game.stdin.write(b"y\nHHH\n10\n")  # seed 4: lost, 100 -> 90
        game.stdin.flush()
        waiting = b"You have 90 pennies.\n\nDo you want to pick first? (y/n) "
        seen, deadline = b"", time.monotonic() + 60
        while not seen.endswith(waiting) and time.monotonic() < deadline:
            if select.select([game.stdout], [], [], 1)[0]:
                chunk = os.read(game.stdout.fileno(), 4096)
                if not chunk:
                    break
                seen += chunk
        assert seen.endswith(waiting), seen
        game.send_signal(signal.SIGINT)
        rest, _ = game.communicate(timeout=60)
    finally:
        if game.poll() is None:
            game.kill()
    assert game.returncode == 130
    assert b"*** GAME ABANDONED ***" in rest
    again = subprocess.run(
        [sys.executable, "-m", "retro", "play", "penney"], input="q\n",
        capture_output=True, text=True, cwd=ROOT, timeout=60, env=env)
    assert "You have 90 pennies." in again.stdout


class StakeInterrupted(StreamTeletype):
    """A teletype that lets `meanwhile` run when its stake is first asked."""

    def __init__(self, answers: str, meanwhile):
        super().__init__(io.StringIO(answers), io.StringIO())
        self.meanwhile = meanwhile

    def ask(self, prompt: str, choices=()) -> str:
        if prompt.startswith("Your stake") and self.meanwhile:
            self.meanwhile, run_now = None, self.meanwhile
            run_now()
        return super().ask(prompt, choices)


def test_two_rooms_betting_at_once_lose_no_pennies(tmp_path):
    """Room A is asked its stake; room B plays a whole bet; then A's is paid.

    Each bet must be paid against the bankroll as it is when it is paid: the
    end is 100 plus what both bets won or lost, whatever the seeds made them."""
    path = tmp_path / "retro.sqlite3"
    first, second = Store.open(path), Store.open(path)

    def room_b():
        tty = StreamTeletype(io.StringIO("y\nTTT\n10\nq\n"), io.StringIO())
        penney.play(tty, rng=random.Random(11), store=second, seed=11)

    tty = StakeInterrupted("y\nHHT\n10\nq\n", room_b)
    penney.play(tty, rng=random.Random(4), store=first, seed=4)
    results = Store.open(path).results("penney")
    assert len(results) == 2
    moved = sum(r.detail["stake"] * (1 if r.outcome == "win" else -1)
                for r in results)
    assert Store.open(path).get(penney.BANKROLL) == penney.STAKE + moved
    assert results[-1].detail["bankroll"] == penney.STAKE + moved


def test_a_bet_is_paid_from_the_stored_bankroll_and_stops_at_nothing():
    store = Store.memory()
    store.put(penney.BANKROLL, 5)  # another room lost the rest meanwhile
    lost = penney.Bet("HHH", "THH", 30, "THH", True)
    assert penney.settle(store, lost, seed=1) == 0
    assert store.get(penney.BANKROLL) == 0
    assert store.results("penney")[-1].score == "-5 to 0"
