"""Penney's game at the teletype and on the command line: what a player sees."""
from __future__ import annotations

import asyncio
import io
import json
import os
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from retro.games import penney
from retro.engines.penney_odds import odds, patterns, spell
from retro.common import next_seed
from retro.services.store import Store
from retro.services.teletype import StreamTeletype, cells

from recording import front_end, play, sitting

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPTS = Path(__file__).parent / "transcripts"


def run(answers: str, *, seed: int = 4, store: Store | None = None,
        **options) -> str:
    store = store if store is not None else Store.memory()
    tty = StreamTeletype(io.StringIO(answers), out := io.StringIO())
    play("penney", tty, store=store, seed=seed, **options)
    return out.getvalue()


def flat(text: str) -> str:
    """Printed text with the carriage's line breaks undone."""
    return " ".join(text.split())


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
    second = next_seed(4)  # each bet of the sitting has a seed of its own
    assert [(r.score, r.outcome, r.seed) for r in results] == [
        ("-10 to 90", "loss", 4), ("-90 to 0", "loss", second),
        ("+5 to 105", "win", next_seed(second))]
    assert results[0].detail == {
        "player": "HHH", "machine": "THH", "first": "player", "stake": 10,
        "tosses": "HTHTTHH", "chance": "1/8", "bankroll": 90, "replay": []}
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

    async def ask(self, prompt: str, choices=(), **options) -> str:
        self._maybe_stop(prompt)
        return await super().ask(prompt, choices, **options)

    def _maybe_stop(self, text: str) -> None:
        if self.armed and text.startswith(self.when):
            raise KeyboardInterrupt


def interrupt(answers: str, when: str, after: str = "") -> tuple[str, Store]:
    """Play through the room's play_game, pressing Ctrl-C at `when`: the
    player leaves the table, as with q."""
    from retro.games.registry import game_called
    from retro.rooms.room import play_game
    store = Store.memory()
    tty = Interrupted(answers, when, after)
    assert asyncio.run(play_game(game_called("penney"),
                                 front_end("penney").play, tty, store,
                                 seed=4)) == "over"
    return tty.outstream.getvalue(), store


@pytest.mark.parametrize("when", ["Do you want", "Your pattern", "Your stake",
                                  "I pick"])
def test_ctrl_c_before_the_toss_stakes_nothing(when):
    # seed 4: the first bet is lost, 100 -> 90; Ctrl-C cuts the second short
    output, store = interrupt("y\nHHH\n10\ny\nHHH\n50\n", when,
                              after="You have 90")
    assert output.endswith("\nYou leave with 90 pennies.\n")
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
    ("maybe", "Answer y or n (or q to leave, help for the rules)."),
])
def test_bad_yes_no(answer, message):
    assert message in run(f"{answer}\nq\n")


@pytest.mark.parametrize("answer, message", [
    ("", "Type a pattern of tosses, like HTH."),
    ("HHHH", '"HHHH" has 4 tosses; a pattern here has 3, like HTH.'),
    ("abc", '"abc" is not a pattern: use H and T only, like HTH.'),
    ("HTT", "HTT is mine: pick a different pattern."),
])
def test_bad_patterns_get_a_message_and_another_chance(answer, message):
    # seed 4: picking first, the machine takes HTT
    output = run(f"n\n{answer}\nq\n")
    assert "I pick HTT." in output
    assert message in output


@pytest.mark.parametrize("answer", ["0", "-5", "101", "ten", "1.5", "9" * 5000,
                                    "٣", "²", "1" * 19, "+5", "a", "5\x00"])
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
    data = json.loads(out)
    assert {key: data[key] for key in ("patterns", "p")} == {
        "patterns": patterns(3), "p": BLOG_ROWS}


@pytest.mark.parametrize("argv", [[], ["--length", "5"], ["HTHH", "THTT"],
                                  ["H" * 20, "T" * 20]])
def test_odds_json_holds_the_best_replies_its_text_prints(capsys, argv):
    _, text, _ = cli(capsys, "odds", *argv)
    _, out, _ = cli(capsys, "odds", "--json", *argv)
    printed = re.findall(r"against (\w+) pick (\w+): it shows first with "
                         r"chance (\S+)", text)
    assert printed and [tuple(reply.values()) for reply in
                        json.loads(out)["best_replies"]] == printed
    assert json.loads(out)["best_replies"][0].keys() == {"against", "pick",
                                                          "chance"}


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
    assert json.loads(out) == {
        "patterns": [a, b],
        "p": [["0", f"1/{2 ** 64}"], [f"{2 ** 64 - 1}/{2 ** 64}", "0"]],
        "best_replies": [
            {"against": a, "pick": b, "chance": f"{2 ** 64 - 1}/{2 ** 64}"},
            {"against": b, "pick": "T" + b[:-1], "chance": str(
                odds("T" + b[:-1], b))}]}
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
    (["odds", "HXH"], 'retro: "HXH" is not a pattern: use H and T only, like HTH'),
    (["odds", "HTH", "HT"], "retro: the patterns must all have the same length"),
    (["odds", "HTH", "hth"], 'retro: "HTH" is given twice'),
    (["wait", "-k", "4", "HTH"], 'retro: "HTH" has 3 tosses, not --length 4'),
    (["wait", "-k", "1", "HT"], 'retro: "HT" has 2 tosses, not --length 1'),
    (["wait", "H" * 1001], 'retro: "HHHHHHHHHHHHHHHHHHHH..." has 1001 tosses; a '
                           'pattern named here has at most 1000'),
    (["odds", "H" * 20_000, "T" * 20_000],
     'retro: "HHHHHHHHHHHHHHHHHHHH..." has 20000 tosses; a pattern named here '
     'has at most 1000'),
    (["odds", *patterns(7)[:65]], "retro: name at most 64 patterns, not 65"),
    (["odds", "x" * 100_000], 'retro: "xxxxxxxxxxxxxxxxxxxx..." is not a pattern: '
                              'use H and T only, like HTH'),
])
def test_usage_errors_are_one_line_and_exit_2(capsys, argv, message):
    code, out, err = cli(capsys, *argv)
    assert (code, out, err) == (2, "", message + "\n")


@pytest.mark.parametrize("argv, message", [
    (["odds", "--length", "0"], "must be at least 1: 0"),
    (["odds", "--length", "11"], "must be at most 10: 11"),
    (["wait", "--length", "17"], "must be at most 16: 17"),
    (["wait", "--length", "٣"], 'not a whole number: "٣"'),
    (["odds", "--length", "4" * 5000], 'too large: "44444444444444444444..."'),
])
def test_a_length_out_of_bounds_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = cli(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and f"argument --length/-k: {message};" in err


def test_patterns_of_the_longest_named_length_are_answered(capsys):
    """Patterns of 1000 tosses give fractions of some 300 digits, printed
    whole (64 of them take seconds: benchmarks/penney.py times that)."""
    rng = random.Random(1000)
    named = [spell(rng.getrandbits(1000), 1000) for _ in range(3)]
    code, out, _ = cli(capsys, "odds", "--json", *named)
    assert code == 0 and len(json.loads(out)["p"]) == 3
    code, out, _ = cli(capsys, "wait", *patterns(6))
    assert code == 0 and len(out.splitlines()) == 2 + 64


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
    assert game.returncode == 0  # left, as with q: nothing was abandoned
    assert rest == b"\nYou leave with 90 pennies.\n"  # its own line, as at EOF
    again = subprocess.run(
        [sys.executable, "-m", "retro", "play", "penney"], input="q\n",
        capture_output=True, text=True, cwd=ROOT, timeout=60, env=env)
    assert "You have 90 pennies." in again.stdout


class StakeInterrupted(StreamTeletype):
    """A teletype that lets the coroutine `meanwhile` run to its end when its
    stake is first asked."""

    def __init__(self, answers: str, meanwhile):
        super().__init__(io.StringIO(answers), io.StringIO())
        self.meanwhile = meanwhile

    async def ask(self, prompt: str, choices=(), **options) -> str:
        if prompt.startswith("Your stake") and self.meanwhile:
            self.meanwhile, run_now = None, self.meanwhile
            await run_now()
        return await super().ask(prompt, choices, **options)


def test_two_rooms_betting_at_once_lose_no_pennies(tmp_path):
    """Room A is asked its stake; room B plays a whole bet; then A's is paid.

    Each bet must be paid against the bankroll as it is when it is paid: the
    end is 100 plus what both bets won or lost, whatever the seeds made them."""
    path = tmp_path / "retro.sqlite3"
    first, second = (Store.open(path, console="you"),  # the console's
                     Store.open(path, console="you"))

    async def room_b():
        tty = StreamTeletype(io.StringIO("y\nTTT\n10\nq\n"), io.StringIO())
        await front_end("penney").play(tty, sitting("penney", second, 11))

    tty = StakeInterrupted("y\nHHT\n10\nq\n", room_b)
    play("penney", tty, store=first, seed=4)
    results = Store.open(path).results("penney")
    assert len(results) == 2
    moved = sum(r.detail["stake"] * (1 if r.outcome == "win" else -1)
                for r in results)
    assert Store.open(path).get(penney.BANKROLL) == penney.STAKE + moved
    assert results[-1].detail["bankroll"] == penney.STAKE + moved


def test_a_stake_the_stored_bankroll_no_longer_covers_is_not_settled():
    store = Store.memory()
    store.put(penney.BANKROLL, 5)  # another room lost the rest meanwhile
    for tosses in ("THH", "HHH"):  # lost or won, it is not settled
        with pytest.raises(penney.Uncovered) as short:
            penney.settle(store, sitting("penney", store, 1),
                          penney.Bet("HHH", "THH", 30, tosses, True), 1)
        assert short.value.bankroll == 5
    assert store.get(penney.BANKROLL) == 5 and store.results() == []
    assert penney.settle(store, sitting("penney", store, 1),
                         penney.Bet("HHH", "THH", 5, "THH", True), 7) == 0
    assert store.results("penney")[-1].score == "-5 to 0"
    assert store.results("penney")[-1].seed == 7  # the bet's own seed


# Words, help and leaving at every question -----------------------------------

# Each question of the game, and the answers that reach it from the start
# (seed 4, 100 pennies; the fresh stake with a store that holds 0).
QUESTIONS = {
    "Do you want to pick first? (y/n) ": "",
    "Your pattern of 3 tosses? ": "y\n",
    "Your stake, up to 100 pennies? ": "y\nHHH\n",
    "Would you like a fresh stake of 100 pennies? (y/n) ": "",
}


def broke_if(question: str) -> Store:
    store = Store.memory()
    if question.startswith("Would you like"):
        store.put(penney.BANKROLL, 0)
    return store


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("word", ["help", "HELP", "?"])
def test_help_at_every_question_tells_the_rules_and_asks_again(question, word):
    output = run(QUESTIONS[question] + f"{word}\nq\n",
                 store=broke_if(question))
    shown = output.split(question + word + "\n", 1)[1]
    rules = penney.how_to_bet(3)
    assert shown.startswith(re.sub(r"\s+", " ", rules)[:30])
    assert " ".join(shown.split(question)[0].split()) == rules
    assert shown.split("\n")[-3].startswith(question)  # asked again
    assert "q at any question to leave" in rules
    assert "Stake whole pennies" in rules


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("word", ["q", "Q", "quit", "QUIT", "leave", "exit"])
def test_q_or_quit_leaves_at_every_question(question, word):
    store = broke_if(question)
    output = run(QUESTIONS[question] + f"{word}\n", store=store)
    assert output.endswith(f"{question}{word}\nYou leave with "
                           f"{penney.pennies(store.get(penney.BANKROLL, 100))}.\n")
    assert store.results() == []


@settings(max_examples=60, deadline=None)
@given(letter=st.characters(codec="ascii").filter(
    lambda c: c.isprintable() and not c.isdigit() and c.lower() not in "ynq?"))
def test_a_single_letter_means_only_what_the_question_says(letter):
    # at y/n, only y and n; a stake is a number or "all"; H and T are tosses
    output = run(f"{letter}\ny\nHHH\n{letter}\nq\n")
    assert "Answer y or n" in output.split("y/n) y")[0]
    assert "Stake a whole number" in output and "Tossing" not in output
    pattern = run(f"y\n{letter}\nq\n", length=1)
    assert ("I pick" in pattern) == (letter.upper() in "HT")


def test_one_toss_and_one_penny_are_singular():
    # seed 3, length 1: picking first with H, the machine T; H shows at once
    output = run("y\nh\n1\nq\n", seed=3, length=1)
    assert "We each choose a pattern of 1 toss, like H." in output
    assert "Your pattern of 1 toss? h" in output
    assert "H shows after 1 toss: you win 1 penny." in output
    assert "You have 101 pennies." in output


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32), length=st.integers(1, 8),
       stake=st.sampled_from(["1", "2", "all"]), first=st.sampled_from("yn"))
def test_no_count_is_printed_with_the_wrong_word(seed, length, stake, first):
    rng = random.Random(seed)
    pattern = "".join(rng.choice("HT") for _ in range(length))
    store = Store.memory()
    store.put(penney.BANKROLL, rng.choice([1, 2, 100]))
    answers = f"{first}\n{pattern}\n{penney.example(length)}\n{stake}\n" * 2
    output = run(answers + "q\n", seed=seed, store=store, length=length)
    assert not re.search(r"\b1 (tosses|pennies)\b", output), output
    assert not re.search(r"\b(\d*[02-9]|\d+\d) (toss|penny)\b", output), output


# The bankroll as stored -------------------------------------------------------

@pytest.mark.parametrize("raw", ["abc", '"x"', "null", "[]", "1e308", "true",
                                 "false", "-5", "1.5", "100.0", "{}",
                                 str(10 ** 16), "9" * 5000])
def test_a_bankroll_that_is_not_whole_pennies_is_set_aside(raw):
    store = Store.memory()
    store.put(penney.BANKROLL, 1)
    store.db.execute("UPDATE state SET value = ? WHERE key = ?",
                     (raw, penney.BANKROLL))
    tty = StreamTeletype(io.StringIO("y\nHHH\n10\nq\n"), out := io.StringIO())
    store.notice = tty.say
    play("penney", tty, store=store, seed=4)
    lines = out.getvalue().splitlines()
    told = [line for line in lines if "damaged" in line]
    assert told and "penney.bankroll" in told[0]
    assert "True" not in out.getvalue() and "e+308" not in out.getvalue()
    assert "You have 100 pennies." in lines  # a fresh stake, then one bet
    assert store.get(penney.BANKROLL) == 90  # seed 4: HHH loses 10
    kept = store.db.execute("SELECT value FROM state WHERE key = ?",
                            (penney.BANKROLL + ".damaged-1",)).fetchone()
    assert kept == (raw,)  # nothing is lost


def test_a_bankroll_near_the_banks_limit_stakes_only_what_it_can_pay():
    store = Store.memory()
    store.put(penney.BANKROLL, penney.BANK_LIMIT - 7)
    # seed 3, length 1: H against T, and H shows: the bank pays up to its limit
    output = run("y\nh\nall\nq\n", seed=3, length=1, store=store)
    assert "Your stake, up to 7 pennies? all" in output
    assert store.get(penney.BANKROLL) == penney.BANK_LIMIT
    again = run("y\n", store=store)
    assert f"You have {penney.BANK_LIMIT} pennies." in again
    assert flat(again).endswith(
        f"You have broken the bank: it holds no more than {penney.BANK_LIMIT} "
        f"pennies for anyone. You leave with {penney.BANK_LIMIT} pennies.")


# When the store fails ---------------------------------------------------------

class Hooked(StreamTeletype):
    """A teletype that runs `hooks[prefix]` the first time a prompt that
    starts with `prefix` is asked, the hooks in the order given."""

    def __init__(self, answers: str, hooks: list[tuple[str, object]]):
        super().__init__(io.StringIO(answers), io.StringIO())
        self.hooks = list(hooks)

    async def ask(self, prompt: str, choices=(), **options) -> str:
        if self.hooks and prompt.startswith(self.hooks[0][0]):
            self.hooks.pop(0)[1]()
        return await super().ask(prompt, choices, **options)


def test_a_locked_store_calls_the_bet_off_and_the_game_goes_on(tmp_path):
    import sqlite3
    path = tmp_path / "retro.sqlite3"
    store = Store.open(path, timeout=0.2, console="you")
    other = sqlite3.connect(path, isolation_level=None)
    tty = Hooked("y\nHHH\n10\ny\nHHH\n10\nq\n", [
        ("Your stake", lambda: other.execute("BEGIN IMMEDIATE")),
        ("Do you want", lambda: other.execute("ROLLBACK"))])
    play("penney", tty, store=store, seed=4)
    output = tty.outstream.getvalue()
    assert ("Your stake, up to 100 pennies? 10 The bet is off (the store is "
            "busy: another program is writing to it): nothing was taken or "
            "paid. Do you want") in flat(output)
    assert output.count("Tossing") == 1  # the second bet, once the lock is gone
    assert [r.detail["stake"] for r in Store.open(path).results("penney")] == [10]
    assert Store.open(path).get(penney.BANKROLL) in (90, 110)


def test_a_read_only_store_calls_every_bet_off_and_keeps_what_was_settled():
    store = Store.memory()
    tty = Hooked("y\nHHH\n10\ny\nHHH\n20\ny\nHHH\n30\nq\n", [
        ("Your stake", lambda: None),
        ("Your stake", lambda: store.db.execute("PRAGMA query_only = 1"))])
    play("penney", tty, store=store, seed=4)
    output = tty.outstream.getvalue()
    assert output.count("The bet is off (the store is read-only): nothing was "
                        "taken or paid.") == 2
    assert output.count("Tossing") == 1
    assert [r.score for r in store.results("penney")] == ["-10 to 90"]
    assert output.endswith("You leave with 90 pennies.\n")


def test_a_fresh_stake_the_store_cannot_give_ends_the_game_in_one_line():
    store = Store.memory()
    store.put(penney.BANKROLL, 0)
    store.db.execute("PRAGMA query_only = 1")
    output = run("y\n", store=store)
    assert flat(output).endswith(
        "(y/n) y The game stops here (the store is read-only); no bet was "
        "open, so nothing was taken or paid. You leave with 0 pennies.")


def test_a_store_that_cannot_even_be_read_ends_the_game_in_one_line():
    from retro.services.store import StoreError

    class Unreadable(Store):
        def get(self, *args, **kwargs):
            raise StoreError("the store cannot be read: disk I/O error")

    import sqlite3
    store = Unreadable(sqlite3.connect(":memory:", isolation_level=None))
    output = run("y\n", store=store)
    assert flat(output).endswith(
        "q to leave. The game stops here (the store cannot be read: disk I/O "
        "error); no bet was open, so nothing was taken or paid. You leave.")


# Two rooms on one store -----------------------------------------------------

class Keys:
    """A room's keyboard: a line is typed only when the test says so."""

    def __init__(self):
        import queue
        import threading
        self.lines = queue.Queue()
        self.waiting = threading.Event()

    def readline(self) -> str:
        self.waiting.set()
        return self.lines.get()


class Room:
    """One room playing Penney's game on its own Store of a shared file, in
    a thread that runs only while the test types an answer into it."""

    def __init__(self, path: Path, seed: int):
        import threading
        self.keys = Keys()
        self.tty = StreamTeletype(self.keys, io.StringIO())
        self.failures: list[BaseException] = []
        self.thread = threading.Thread(target=self._play, args=(path, seed),
                                       daemon=True)
        self.thread.start()
        self._settle()

    def _play(self, path: Path, seed: int) -> None:
        try:
            with Store.open(path, console="you") as store:
                store.notice = self.tty.say
                play("penney", self.tty, store=store, seed=seed)
        except BaseException as failure:  # noqa: BLE001 - reported by the test
            self.failures.append(failure)

    def _settle(self) -> None:
        """Wait until the room waits at a prompt again, or has finished."""
        while not self.keys.waiting.wait(0.01) and self.thread.is_alive():
            pass

    @property
    def paper(self) -> str:
        return self.tty.outstream.getvalue()

    @property
    def prompt(self) -> str:
        return "" if not self.thread.is_alive() else self.paper.split("\n")[-1]

    def type(self, line: str | None) -> None:
        """Type `line` at the prompt (None: the input ends)."""
        if not self.thread.is_alive():
            return
        self.keys.waiting.clear()
        self.keys.lines.put("" if line is None else line + "\n")
        self._settle()

    def end(self) -> None:
        while self.thread.is_alive():
            self.type(None)
        self.thread.join()
        assert self.failures == []


def ledger(path: Path, papers: list[str]) -> tuple[int, list]:
    """The stored bankroll now, and every recorded bet checked against it."""
    with Store.open(path) as store:
        results = store.results("penney")
        now = store.get(penney.BANKROLL, penney.STAKE)
    level, moved = penney.STAKE, 0
    for result in results:
        change, after = re.fullmatch(r"([+-]\d+) to (\d+)", result.score).groups()
        change, after = int(change), int(after)
        before = after - change
        stake = result.detail["stake"]
        # no stake exceeds the stored bankroll, and none is clamped
        assert 1 <= stake <= before, result
        assert change == (stake if result.outcome == "win" else -stake), result
        # each bet starts where the last one left the store (or a fresh stake)
        assert before == level or (level == 0 and before == penney.STAKE)
        level, moved = after, moved + change
    fresh = sum(paper.count(f"Here are {penney.STAKE} pennies.")
                for paper in papers)
    # the recorded wins and losses (and fresh stakes) are the whole change
    assert now == penney.STAKE + moved + fresh * penney.STAKE
    return now, results


def test_a_stake_another_room_has_lost_meanwhile_is_not_taken(tmp_path):
    path = tmp_path / "retro.sqlite3"
    a, b = Room(path, seed=4), Room(path, seed=11)
    for line in ("y", "HHH"):  # B reaches its stake with 100 in the store
        b.type(line)
    assert b.prompt == "Your stake, up to 100 pennies? "
    for line in ("y", "HHH", "all"):  # seed 4: A loses all 100
        a.type(line)
    assert "I win 100 pennies." in a.paper
    b.type("100")  # won or lost, this stake is not there
    assert flat(b.paper).endswith(
        "Your stake, up to 100 pennies? 100 Another game has changed your "
        "bankroll: you have 0 pennies now, and nothing was taken. You are "
        "broke. Would you like a fresh stake of 100 pennies? (y/n)")
    assert "Tossing" not in b.paper
    b.type("y")
    a.type("y")  # A is offered one too, but B's has already been given
    assert "Another game has given you a stake already: you have 100 " \
           "pennies." in flat(a.paper)
    a.end(), b.end()
    now, results = ledger(path, [a.paper, b.paper])
    assert now == 100 and [r.score for r in results] == ["-100 to 0"]


def test_a_stake_larger_than_what_is_left_is_asked_again(tmp_path):
    path = tmp_path / "retro.sqlite3"
    a, b = Room(path, seed=4), Room(path, seed=11)
    for line in ("y", "HHH"):
        b.type(line)
    for line in ("y", "HHH", "60"):  # seed 4: A loses 60
        a.type(line)
    b.type("100")
    assert flat(b.paper).endswith(
        "Another game has changed your bankroll: you have 40 pennies now, and "
        "nothing was taken. Your stake, up to 40 pennies?")
    b.type("40")
    a.end(), b.end()
    now, results = ledger(path, [a.paper, b.paper])
    assert [r.detail["stake"] for r in results] == [60, 40]
    assert now in (0, 80)


ANSWERS = {
    "Do you want": st.sampled_from(["y", "n"]),
    "Your pattern": st.sampled_from(patterns(3)),
    "Your stake": st.one_of(st.sampled_from(["all", "1", "50", "100", "150"]),
                            st.integers(1, 300).map(str)),
    "Would you like": st.sampled_from(["y", "y", "n"]),
}


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(turns=st.lists(st.sampled_from([0, 1]), max_size=40),
       seeds=st.tuples(st.integers(0, 999), st.integers(0, 999)),
       data=st.data())
def test_two_rooms_in_any_interleaving_invent_and_lose_no_pennies(
        tmp_path_factory, turns, seeds, data):
    path = tmp_path_factory.mktemp("rooms") / "retro.sqlite3"
    rooms = [Room(path, seeds[0]), Room(path, seeds[1])]
    try:
        for turn in turns:
            room = rooms[turn]
            prompt = room.prompt
            answer = next((data.draw(answers)
                           for start, answers in ANSWERS.items()
                           if prompt.startswith(start)), None)
            room.type(answer)
    finally:  # hypothesis may stop an example in the middle of a draw
        for room in rooms:
            room.end()
    ledger(path, [room.paper for room in rooms])


# Anything typed at any question ------------------------------------------------

NASTY = ["²", "④", "٣", "1" * 5000, "9" * 19, "-1", "+5", "1e3", "x" * 100_000,
         "H" * 100_000, "h t h", "H,T,H", "\x00\x07\x1b[2J", "%s{}", "é̈",
         "שלום", "😀" * 50, "", " ", "help", "?", "y", "n", "all", "ALL",
         "10", "100", "t", "h", "hth", "HHHH"]
typed_lines = st.one_of(
    st.sampled_from(NASTY),
    st.sampled_from(patterns(3)),
    st.text(max_size=60),
    st.text(alphabet=st.characters(max_codepoint=0x1F), max_size=10),
).filter(lambda line: "\n" not in line and "\r" not in line)


@settings(max_examples=80, deadline=None)
@given(question=st.sampled_from(list(QUESTIONS)),
       typed=st.lists(typed_lines, max_size=25), length=st.integers(1, 8))
def test_anything_typed_at_any_question_gets_a_line_and_another_chance(
        question, typed, length):
    store = broke_if(question)
    before = store.get(penney.BANKROLL, penney.STAKE)
    answers = QUESTIONS[question].replace("HHH", penney.example(length))
    tty = StreamTeletype(io.StringIO(answers + "\n".join(typed) + "\n"),
                         out := io.StringIO())
    store.notice = tty.say
    play("penney", tty, store=store, seed=4, length=length)
    printed = out.getvalue()
    assert tty.paper() == printed  # the roll holds what was printed
    assert re.search(r"\nYou leave with \d+ penn(y|ies)\.\n\Z", printed)
    assert "Traceback" not in printed
    assert all(cells(line) <= 72 for line in printed.splitlines()  # columns
               if not line.startswith("Tossing:"))
    # every penny is accounted for by a recorded bet or a fresh stake
    moved = sum(int(r.score.split()[0]) for r in store.results("penney"))
    fresh = printed.count(f"Here are {penney.STAKE} pennies.")
    assert store.get(penney.BANKROLL, penney.STAKE) == \
        before + moved + fresh * penney.STAKE


def test_a_session_that_began_from_a_kept_bankroll_replays_with_from():
    """Game 2 began from the bankroll game 1 left: SCORES gives it a
    --from, which plays it again from there and keeps nothing."""
    from retro.rooms.reports import replay_command

    store, lines = Store.memory(), "y\nHTH\n10\nq\n"
    run(lines, seed=5, store=store)
    second = run(lines, seed=6, store=store)
    first, again = store.results("penney")
    assert "from" not in first.detail  # it began as a stranger begins
    assert replay_command(first) == "retro play penney --seed 5"
    began = first.detail["bankroll"]
    assert again.detail["from"] == began != penney.STAKE
    assert replay_command(again) == "retro play penney --seed 6 --from 2"
    kept = (store.get(penney.BANKROLL), store.counts())
    replayed = run(lines, seed=6, store=store, replay_of=2)
    heading, rest = replayed.split("\n", 2)[:2], replayed.split("\n", 2)[2]
    assert flat(" ".join(heading)) == (
        "Game 2 again, from the bankroll it began with. Nothing of it is "
        "kept: your own pennies are not touched.")
    assert rest == second
    assert (store.get(penney.BANKROLL), store.counts()) == kept


def test_a_session_opened_broke_replays_from_no_pennies():
    store = Store.memory()
    store.put(penney.BANKROLL, 0)
    lines = "y\ny\nHTH\n10\nq\n"
    played = run(lines, seed=7, store=store)
    assert "You were broke when you last left." in played
    (result,) = store.results("penney")
    assert result.detail["from"] == 0
    assert run(lines, seed=7, store=store, replay_of=1).endswith(played)


@pytest.mark.parametrize("number, refusal", [
    (3, "There is no game 3 of Penney's game to play again."),
    (1, "Game 1 of Penney's game did not keep the bankroll it began from.")])
def test_a_replay_of_no_such_session_is_refused_in_one_line(number, refusal):
    store = Store.memory()
    run("y\nHTH\n10\nq\n", seed=5, store=store)
    store.db.execute("UPDATE results SET detail = json_set(detail, "
                     "'$.from', 'lots')")
    played = run("", store=store, replay_of=number)
    assert flat(played).startswith(refusal)
