"""The room and the command line, as a player meets them."""
from __future__ import annotations

import asyncio
import io
import os
import random
import re
import subprocess
import sys
import textwrap
import types
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from retro.common import plural
from retro.cli import COMMANDS
from retro.games.contract import FrontEnd, Game, Option, RoomCommand
from retro.games.registry import GAMES, game_called
from retro.rooms.reports import help_column, scores_report, shown, tear
from retro.rooms.room import FAREWELL, ROOM, FrontEnds, Room, Verb
from retro.rooms.words import game_named, parse
from retro.services.store import Store, StoreError
from retro.services.teletype import StreamTeletype, cells, graphemes


ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPTS = Path(__file__).resolve().parent / "transcripts"
REGENERATE = os.environ.get("RETRO_REGENERATE_TRANSCRIPTS") == "1"


def screen_width(line: str) -> int:
    """The cells a line takes, measured as the teletype's carriage does."""
    return sum(cells(grapheme) for grapheme in graphemes(line))


# -- fake machines, so the room can be tested apart from the real games -----

async def coin_game(tty, sitting, *, rounds=5):
    """Guess the machine's coin; the machine scores when you miss."""
    rng = random.Random(sitting.seed)
    yours = mine = 0
    for _ in range(rounds):
        answer = (await tty.ask("HEADS OR TAILS? ",
                                ["heads", "tails"])).lower()
        if answer[:1] not in ("h", "t"):
            tty.say("H OR T, PLEASE.")
            continue
        coin = rng.choice("ht")
        if answer[:1] == coin:
            yours += 1
        else:
            mine += 1
        tty.say(f"THE COIN SAYS {'HEADS' if coin == 'h' else 'TAILS'}.")
    outcome = "win" if yours > mine else "loss" if mine > yours else "draw"
    await sitting.store.run(Store.record, sitting.game.name,
                            score=f"{yours}-{mine}", outcome=outcome,
                            seed=sitting.seed)
    tty.say(f"YOU {yours}, ME {mine}.")


async def reset_coins(tty, sitting):
    if (await tty.ask("REALLY FORGET? ")).lower().startswith("y"):
        sitting.store.delete("coin/memory")
        tty.say("FORGOTTEN.")


async def interrupted_game(tty, sitting):
    await tty.ask("PRESS CTRL-C: ")
    raise KeyboardInterrupt


LOADED = []  # the front ends reached, in order, by the machines below


def reach(name, front_end):
    """A registry's loader for a fake game: notes each time it is called."""
    def load():
        LOADED.append(name)
        if isinstance(front_end, Exception):
            raise front_end
        return front_end
    return load


COIN = Game("fakecoin", "The Coin Machine", ("coin",),
            "A brass box with a coin slot: THE COIN MACHINE.",
            reach("fakecoin", FrontEnd(coin_game, commands=(
                RoomCommand("RESET COINS", "Forget every coin the machine "
                            "has tossed.", reset_coins),), options=(
                Option(("--rounds",), "rounds", read=int, default=5,
                       room=3),))))  # the room's games are short
SULKY = Game("fakesulky", "The Sulky Machine", ("sulky",),
             "A machine with its back to you.",
             reach("fakesulky", FrontEnd(interrupted_game)))
# The ghost's front end is missing, as from a damaged install: the room must
# keep working around it.
GHOST = Game("fakeghost", "The Ghost Machine", ("ghost",),
             "Nothing but four bolt holes in the floor.",
             reach("fakeghost", ModuleNotFoundError(
                 "No module named 'retro.games.fakeghost'")))
BROKEN = Game("fakebroken", "The Broken Machine", ("broken",),
              "A machine with smoke curling out of it.",
              reach("fakebroken", RuntimeError("a wire came\nloose")))


@pytest.fixture
def machines():
    LOADED.clear()
    return (COIN, SULKY, GHOST)


def run(room: Room) -> int:
    """A room's whole session, on an event loop of its own."""
    return asyncio.run(room.run())


def fixed_clock():
    return datetime(1962, 3, 1, 12, 0, 0, tzinfo=timezone.utc)


def session(lines, machines, *, store=None, seed=1):
    store = store or Store.memory(clock=fixed_clock)
    out = io.StringIO()
    tty = StreamTeletype(io.StringIO(lines), out)
    status = run(Room(tty, store, seed=seed, games=machines))
    return status, out.getvalue(), store


# -- understanding the player ------------------------------------------------

@pytest.mark.parametrize("line, verb, game", [
    ("look", "look", None),
    ("L", "look", None),
    ("look at the hexapawn", "look", "hexapawn"),
    ("x flip", "look", "flip"),
    ("PLAY THE MIND READER", "play", "mindreader"),
    ("play mind-reader", "play", "mindreader"),
    ("p 1", "play", "mindreader"),
    ("pla her", "play", "hexapawn"),
    ("2", "play", "flip"),
    ("flip", "play", "flip"),
    ("penney's game", "play", "penney"),
    ("Play Penney", "play", "penney"),
    ("hex", "play", "hexapawn"),
    ("menu", "menu", None),
    ("?", "help", None),
    ("h", "help", None),
    ("score", "scores", None),
    ("s", "scores", None),
    ("tear roll.txt", "tear", None),
    ("TEAR", "tear", None),
    ("t", "?", None),  # not "triplets", and a stray "t" writes no file
    ("b", "?", None),  # not "basic": an alias is never one letter's worth
    ("r", "?", None),  # nor "reader"
    ("f", "play", "flip"),  # a game's own name may be begun with one letter
    ("tr", "play", "penney"),  # two letters may begin an alias
    ("look around", "look", None),
    ("LOOK AT 1", "look", "mindreader"),
    ("look at \u2462", "look", None),  # a circled three is not a number
    ("PLAY \u2463", "play", None),
    ("\u00b2", "?", None),
    ("1" * 4301, "?", None),
    ("play " + "1" * 4301, "play", None),
    ("tea", "?", None),
    ("q", "quit", None),
    ("exit", "quit", None),
    ("bye", "quit", None),
    ("frobnicate", "?", None),
    ("co", "play", "penney"),  # Penney's coins: Flip is no longer "coin"
    ("play, the flip.", "play", "flip"),
    ("\ufffdQ\ufffdf\ufffdAN", "?", None),  # static, not the word "q"
    ("^F", "?", None),  # Ctrl-F is not the start of "flip"
    ("^Q", "?", None),  # nor Ctrl-Q a way to quit
    ("play 9", "play", None),
    ("play \u00b2", "play", None),  # a superscript two is not a number
    ("play " + "9" * 5000, "play", None),  # nor too many digits a crash
    ("\u0663", "?", None),  # an Arabic-Indic three is not PLAY 3
    ("", "", None),
    ("   \t ", "", None),
])
def test_the_parser_is_forgiving(line, verb, game):
    command = parse(line)
    assert command.verb == verb
    if game is not None:
        assert game_named(command.rest).name == game
    elif verb == "play":
        assert game_named(command.rest) is None


def test_tear_keeps_the_file_name_as_typed():
    assert parse("TEAR My Roll.txt").raw == "My Roll.txt"


# -- the room, with fake machines --------------------------------------------------

def transcript_case(name, machines, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    lines = (TRANSCRIPTS / f"{name}.in").read_text(encoding="utf-8")
    status, output, _ = session(lines, machines)
    assert status == 0
    expected = TRANSCRIPTS / f"{name}.txt"
    if REGENERATE:
        expected.write_text(output, encoding="utf-8")
    assert output == expected.read_text(encoding="utf-8")
    return output


def test_transcript_of_a_tour_of_the_room(machines, monkeypatch, tmp_path):
    output = transcript_case("room_tour", machines, monkeypatch, tmp_path)
    assert (tmp_path / "retro-roll-1.txt").exists()
    torn = (tmp_path / "retro-roll-1.txt").read_text(encoding="utf-8")
    assert output.startswith(torn)  # the roll as it was when torn


def test_transcript_of_a_puzzled_room(machines, monkeypatch, tmp_path):
    transcript_case("room_puzzled", machines, monkeypatch, tmp_path)


def test_same_seed_same_session_different_seed_different_coins(machines):
    answers = "play coin\nh\nh\nh\n" * 4 + "quit\n"
    _, once, _ = session(answers, machines, seed=5)
    _, twice, _ = session(answers, machines, seed=5)
    _, other, _ = session(answers, machines, seed=6)
    assert once == twice
    assert once != other


def test_each_game_in_a_session_gets_its_own_recorded_seed(machines):
    _, _, store = session("play coin\nh\nh\nh\n" * 3, machines, seed=1)
    seeds = [r.seed for r in store.results()]
    expected = random.Random(1)
    assert seeds == [expected.randrange(2 ** 32) for _ in range(3)]
    assert len(set(seeds)) == 3


def test_unknown_words_get_an_in_character_reply_mentioning_help(machines):
    _, output, _ = session("frobnicate\nxyzzy\nplugh\nfoo\n", machines)
    replies = [line for line in output.splitlines() if "HELP" in line.upper()
               and ("frobnicate" in line or "xyzzy" in line
                    or "plugh" in line or "foo" in line)]
    assert len(replies) == 4
    assert len(set(line.split('"')[0] for line in replies)) == 3  # they vary


def test_ctrl_c_in_a_game_returns_to_the_room(machines):
    status, output, _ = session("play sulky\nanything\nlook\nquit\n", machines)
    assert status == 0
    after = output.split("*** GAME ABANDONED ***", 1)[1]
    assert "You are back in the machine room." in after
    assert "You are in the machine room" in after  # the LOOK that followed


def test_ctrl_c_at_the_room_prompt_does_not_leave():
    class Impatient(StreamTeletype):
        pressed = False

        async def ask(self, prompt, choices=(), history="game"):
            if not self.pressed:
                self.pressed = True
                raise KeyboardInterrupt
            return await super().ask(prompt, choices, history)

    out = io.StringIO()
    tty = Impatient(io.StringIO("quit\n"), out)
    assert run(Room(tty, Store.memory(), games=(COIN,))) == 0
    assert "(To leave the room, type QUIT.)" in out.getvalue()


def test_end_of_input_inside_a_game_leaves_cleanly(machines):
    status, output, store = session("play coin\nh\n", machines)
    assert status == 0
    assert store.results() == []  # the game never finished
    assert output.rstrip().endswith("to their dreams.")


def test_a_broken_front_end_is_out_of_order_and_the_rest_plays(machines):
    _, output, store = session("menu\nplay broken\nplay coin\nh\nh\nh\n",
                               (BROKEN, COIN))
    assert "  1. The Broken Machine  (out of order)\n" in output
    assert "The Broken Machine is out of order (RuntimeError: a wire came " \
           "loose). Try another machine." in " ".join(output.split())
    assert "Traceback" not in output
    assert [r.game for r in store.results()] == ["fakecoin"]


def test_a_room_reaches_each_front_end_once(machines):
    front_ends = FrontEnds()
    for _ in range(3):
        assert front_ends[COIN].front_end.play is coin_game
        assert front_ends[GHOST].front_end is None
    assert LOADED == ["fakecoin", "fakeghost"]
    assert front_ends[GHOST].trouble.startswith("ModuleNotFoundError: ")


def test_the_room_reaches_no_game_before_the_first_line(machines):
    session("", machines)
    assert LOADED == []  # the banner and the description need no game


def test_the_room_plays_a_game_with_its_registry_options(machines):
    _, output, store = session("play coin\nh\nh\nh\nquit\n", machines)
    assert output.count("HEADS OR TAILS?") == 3  # rounds=3, not the default 5
    assert len(store.results()) == 1


def test_the_menu_is_the_registrys_titles_in_order():
    _, output, _ = session("menu\n", GAMES)
    menu = output.split("> menu\n", 1)[1].split("\nType PLAY", 1)[0]
    assert menu.splitlines() == ["The machines:"] + [
        f"  {number}. {game.title}" for number, game in enumerate(GAMES, 1)]


def test_the_rooms_words_for_the_games_are_the_registrys():
    for number, game in enumerate(GAMES, 1):
        for name in (str(number), game.name, game.title, *game.aliases):
            meaning = parse(f"play {name}")
            assert game_named(meaning.rest) is game, name
    tty = StreamTeletype(io.StringIO(), io.StringIO())
    offers = Room(tty, Store.memory()).choices()
    assert [name for name in offers[""] if name in {g.name for g in GAMES}] \
        == [game.name for game in GAMES]


def test_tab_after_play_offers_only_the_machines():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from retro.services.teletype import completer

    room = Room(StreamTeletype(io.StringIO(), io.StringIO()), Store.memory())
    offer = completer(room.choices)

    def tab(typed):
        return [c.text for c in offer.get_completions(Document(typed),
                                                      CompleteEvent())]

    machines = [game.name for game in GAMES]
    assert tab("play ") == tab("look at ") == machines
    assert tab("PLAY  ") == [name.upper() for name in machines]
    assert tab("play h") == ["hexapawn"]
    assert set(tab("")) >= {"look", "play", "scores", "tear", "quit"}
    assert tab("reset ") == ["her"] and tab("play flip with ") == ["memory"]


async def long_winded(tty, sitting):
    """A command that does nothing, whatever HELP says of it."""


def test_help_folds_long_descriptions_under_their_column(machines):
    doc = ("Wind the clock, oil the relays, sweep the floor, and then, "
           "if there is time, polish every brass number plate in the room.")
    tidy = FrontEnd(coin_game, commands=(
        RoomCommand("TIDY", doc, long_winded),
        RoomCommand("TIDY THE WHOLE ROOM AT ONCE",
                    "Do something that takes a great many words to "
                    "describe, far more than", long_winded)))
    tidy_machine = Game("faketidy", "The Tidy Machine", (), "A broom.",
                        lambda: tidy)
    _, output, _ = session("help\n", (tidy_machine,))
    added = output.split("The machines add:\n", 1)[1].split("> ")[0]
    assert added.splitlines() == [
        "  TIDY             Wind the clock, oil the relays, sweep the floor, and",
        "                   then, if there is time, polish every brass number",
        "                   plate in the room.",
        "  TIDY THE WHOLE ROOM AT ONCE",
        "                   Do something that takes a great many words to",
        "                   describe, far more than",
    ]


def test_room_commands_from_games_are_obeyed_and_listed(machines):
    store = Store.memory()
    store.put("coin/memory", [1, 2, 3])
    _, output, _ = session("help\nReset  the Coins\nno\nRESET COINS\nyes\n",
                           machines, store=store)
    assert "RESET COINS      Forget every coin the machine has tossed." \
        in output
    assert output.count("REALLY FORGET?") == 2
    assert store.get("coin/memory") is None


def test_play_flip_with_memory_follows_the_rooms_seed():
    """A command a game adds that plays is as reproducible as PLAY FLIP."""
    lines = "play flip with memory\nn\n" + "y\n" * 50 + "n\nquit\n"

    def flip_in_the_room(seed):
        _, output, store = session(lines, GAMES, seed=seed)
        (result,) = store.results("flip")
        return output.split("PLAY FLIP WITH MEMORY")[-1], result.seed

    once, again, other = (flip_in_the_room(1), flip_in_the_room(1),
                          flip_in_the_room(2))
    assert "YOU GOT" in once[0]
    assert once == again
    assert other[1] != once[1] and other[0] != once[0]


def test_scores_last_across_sessions(machines, tmp_path):
    path = tmp_path / "retro.sqlite3"
    with Store.open(path) as store:
        session("play coin\nh\nt\nh\nquit\n", machines, store=store)
    with Store.open(path) as store:
        _, output, _ = session("scores\nquit\n", machines, store=store)
    assert "The Coin Machine" in output
    scores = output.split("> scores\n", 1)[1]
    assert scores.splitlines()[0].split() == ["game", "played", "won", "lost",
                                              "drawn", "last"]


def test_tear_to_a_name_in_the_home_directory(machines, tmp_path,
                                             monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    _, output, _ = session("look\ntear ~/Roll One.txt\n", machines)
    # the path is long, and where the margin cuts it depends on the run's
    # temporary directory: the sentence is looked for as the paper folds it
    paper = StreamTeletype(io.StringIO(), io.StringIO())
    paper.say("You tear off the paper roll. "
              f"It is saved as {tmp_path}/Roll One.txt.")
    assert f"\n{paper.paper()}" in output
    assert (tmp_path / "Roll One.txt").read_text().endswith(
        "> tear ~/Roll One.txt\n")


def test_tear_into_a_directory_that_is_not_there(machines, tmp_path):
    _, output, _ = session(f"tear {tmp_path}/no/such/dir/roll.txt\n", machines)
    assert "The paper will not tear: No such file or directory." in output


# -- the command line, in pipes -------------------------------------------------

def retro(*args, input=b"", home, cwd=None, timeout=60):
    env = dict(os.environ, RETRO_HOME=str(home))
    env.pop("RETRO_REGENERATE_TRANSCRIPTS", None)
    return subprocess.run([sys.executable, "-m", "retro", *args], input=input,
                          capture_output=True, env=env, cwd=cwd or home.parent,
                          timeout=timeout)


def test_the_done_when_session_is_byte_identical_twice(tmp_path):
    tour = b"look\nhelp\nscores\nquit\n"
    first = retro("--seed", "1", input=tour, home=tmp_path / "home")
    second = retro("--seed", "1", input=tour, home=tmp_path / "home")
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout
    assert first.stderr == second.stderr == b""
    text = first.stdout.decode()
    assert text.count("You are in the machine room") == 2  # arrival, LOOK
    assert "> help\nYou can type:" in text
    assert "> scores\nNo games played yet." in text
    assert text.rstrip().endswith("to their dreams.")


def junk_lines(count: int, seed: int = 1962) -> bytes:
    """Lines a cat might type: control bytes, huge lines, broken UTF-8."""
    rng = random.Random(seed)
    lines = []
    for n in range(count):
        kind = n % 6
        if kind == 0:
            line = bytes(rng.randrange(0, 32) for _ in range(rng.randrange(1, 40)))
        elif kind == 1:
            line = bytes(rng.choice(b"\x80\xbf\xc0\xc3\xe2\xf0\xf8\xfe\xff")
                         for _ in range(rng.randrange(1, 30)))
        elif kind == 2 and n % 12 == 2:
            line = bytes(rng.randrange(14, 256) for _ in range(10_000))
        elif kind == 3:
            line = b"\x1b[2J\x1b[31m" + rng.choice([b"zz", b"\x00\x00", b"%s%n"])
        elif kind == 4:
            line = "".join(rng.choice("\u0000\u202e\u200b\ufeff\U0001f600\t x")
                           for _ in range(20)).encode("utf-8", "surrogatepass")
        else:
            line = b"z" * rng.randrange(1, 5000) + b"\r"
        lines.append(line.replace(b"\n", b""))
    return b"\n".join(lines) + b"\n"


def test_a_thousand_lines_of_junk_no_traceback_exit_0(tmp_path):
    junk = junk_lines(1000)
    assert junk.count(b"\n") == 1000
    result = retro("--seed", "1", input=junk, home=tmp_path / "home")
    assert result.returncode == 0
    assert b"Traceback" not in result.stderr and result.stderr == b""
    output = result.stdout.decode("utf-8")
    assert output.count("\n> ") >= 1000  # a prompt for every line
    assert max(map(screen_width, output.splitlines())) <= 72


@pytest.mark.parametrize("game", [game.name for game in GAMES])
def test_junk_inside_each_game(game, tmp_path):
    result = retro("play", game, "--seed", "1", input=junk_lines(300),
                   home=tmp_path / "home")
    assert b"Traceback" not in result.stderr, result.stderr.decode()[-2000:]
    assert result.returncode == 0


def test_piped_mode_does_not_import_prompt_toolkit(tmp_path):
    probe = textwrap.dedent("""
        import sys
        from retro.cli import main
        status = main(["--seed", "1"])
        assert "prompt_toolkit" not in sys.modules, "prompt_toolkit imported"
        sys.exit(status)
    """)
    env = dict(os.environ, RETRO_HOME=str(tmp_path / "home"))
    result = subprocess.run([sys.executable, "-c", probe], input=b"help\n",
                            capture_output=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr.decode()


def test_a_garbage_store_is_set_aside_and_the_room_opens(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "retro.sqlite3").write_bytes(b"\xde\xad\xbe\xef" * 1000)
    result = retro(input=b"scores\n", home=home)
    assert result.returncode == 0
    assert b"damaged" in result.stderr and b"Traceback" not in result.stderr
    assert len(result.stderr.decode().strip().splitlines()) == 1
    assert (home / "retro.sqlite3.damaged-1").exists()
    assert b"No games played yet." in result.stdout


def mind_reader_in_the_room(opponent: bytes, tmp_path):
    """Play the real mind reader from the room: always heads, until it ends."""
    home = tmp_path / "home"
    plays = b"play the mind reader\n" + opponent + b"\n" + b"h\n" * 100
    result = retro("--seed", "1", input=plays + b"scores\nquit\n", home=home)
    assert result.returncode == 0 and result.stderr == b""
    with Store.open(home / "retro.sqlite3") as store:
        (game,) = store.results()
    return result.stdout.decode(), game


def test_play_mind_reader_in_the_room_an_empty_answer_is_shannons(tmp_path):
    output, game = mind_reader_in_the_room(b"", tmp_path)
    assert "\nopponent (awk)? \n" in output  # the empty line, echoed
    assert game.game == "mindreader" and game.detail["opponent"] == "awk"
    assert set(game.detail["plays"]) == {"H"}
    assert "The Mind Reader" in output.split("> scores\n", 1)[1]


def test_play_mind_reader_in_the_room_against_seer(tmp_path):
    output, game = mind_reader_in_the_room(b"SEER", tmp_path)
    assert "\nopponent (awk)? SEER\n" in output
    assert game.detail["opponent"] == "seer"


def test_retro_play_mindreader_asks_no_questions(tmp_path):
    result = retro("play", "mindreader", "--seed", "1", input=b"h\n",
                   home=tmp_path / "home")
    assert result.returncode == 0
    assert b"opponent" not in result.stdout
    assert b"your play? h\n" in result.stdout


def test_scores_recorded_by_one_session_show_in_the_next(tmp_path):
    home = tmp_path / "home"
    record = ("from retro.services.store import Store, console_player\n"
              "Store.open(console=console_player()).record('flip', "
              "score='31-19', outcome='win', "
              "seed=77)\n")
    subprocess.run([sys.executable, "-c", record], check=True,
                   env=dict(os.environ, RETRO_HOME=str(home)))
    output = retro(input=b"scores\n", home=home).stdout.decode()
    assert "Flip" in output and "31-19" in output and "seed 77" in output


def test_transcript_option_keeps_the_paper(tmp_path):
    result = retro("--transcript", str(tmp_path / "paper.txt"),
                   input=b"look\nquit\n", home=tmp_path / "home")
    assert result.returncode == 0
    assert (tmp_path / "paper.txt").read_bytes() == result.stdout


def test_tear_saves_the_roll_in_the_current_directory(tmp_path):
    result = retro(input=b"help\ntear\ntear\n", home=tmp_path / "home",
                   cwd=tmp_path)
    assert b"saved as retro-roll-1.txt" in result.stdout
    assert b"saved as retro-roll-2.txt" in result.stdout
    assert (tmp_path / "retro-roll-1.txt").read_text().endswith("> tear\n")


def test_session_options_reach_the_teletype(tmp_path, monkeypatch):
    from retro.cli import build_parser, open_session

    monkeypatch.setenv("RETRO_HOME", str(tmp_path / "home"))
    for argv in (["--baud", "110", "--transcript", str(tmp_path / "t.txt")],
                 ["play", "flip", "--baud", "110",
                  "--transcript", str(tmp_path / "t.txt")]):
        store, tty, transcript = open_session(build_parser().parse_args(argv))
        try:
            assert tty.pace.baud == 110
            assert tty.transcript is transcript
            assert transcript.name == str(tmp_path / "t.txt")
        finally:
            store.close()
            transcript.close()


def test_the_room_folds_at_72_columns_whatever_the_input(tmp_path):
    words = b" ".join([b"word"] * 60)
    result = retro(input=b"help\nmenu\nlook\nplay " + words + b"\n"
                   + b"look at " + words + b"\n" + words + b"\n",
                   home=tmp_path / "home")
    lines = result.stdout.decode().splitlines()
    assert max(map(len, lines)) <= 72
    assert max(map(len, lines)) >= 70  # the fold is at the margin, not short


@pytest.mark.parametrize("args, message", [
    (["--baud", "fast"], 'argument --baud: not a whole number: "fast"'),
    (["--baud", "-3"], "argument --baud: must not be negative: -3"),
    (["--seed", "x"], "argument --seed: not a whole number: \"x\""),
    (["play"], "the following arguments are required: GAME"),
    (["play", "chess"], "invalid choice: 'chess'"),
    (["dance"], "invalid choice: 'dance'"),
    (["umpire"], "name two machines"),
    (["play", "mindreader", "--opponent", "hal"], "invalid choice: 'hal'"),
    (["tangle", "--where", "retro/rooms/room.py"], "--where wants FILE:LINE"),
    (["--transcript", "/no/such/dir/t.txt"],
     'cannot write the transcript "/no/such/dir/t.txt"'),
])
def test_usage_errors_exit_2_with_one_line(args, message, tmp_path):
    result = retro(*args, home=tmp_path / "home", cwd=ROOT)
    assert result.returncode == 2
    errors = result.stderr.decode()
    assert message in errors and "Traceback" not in errors
    assert len(errors.splitlines()) == 1 and errors.startswith("retro")
    assert result.stdout == b""


def test_version_and_help(tmp_path):
    from retro import __version__

    assert retro("--version", home=tmp_path).stdout.decode().strip() == \
        f"retro {__version__}"
    for args in (["--help"], ["play", "--help"], ["play", "flip", "--help"]):
        result = retro(*args, home=tmp_path)
        assert result.returncode == 0 and b"usage: retro" in result.stdout


def test_session_options_go_before_or_after_play(tmp_path):
    from retro.cli import build_parser

    parser = build_parser()
    before = parser.parse_args(["--seed", "3", "--baud", "110", "play",
                                "flip"])
    after = parser.parse_args(["play", "flip", "--seed", "3", "--baud",
                               "110"])
    assert (before.seed, before.baud) == (after.seed, after.baud) == (3, 110)


# -- the command line at a real terminal ------------------------------------

FAKE_FLIP = textwrap.dedent("""
    import importlib.machinery, sys, types
    fake = types.ModuleType("retro.games.flip")
    fake.__spec__ = importlib.machinery.ModuleSpec("retro.games.flip", None)
    from retro.games.contract import FrontEnd
    async def play(tty, sitting):
        while True:
            tty.say("You said "
                    + await tty.ask("HEADS OR TAILS? ", ["heads", "tails"]))
    fake.FRONT_END = FrontEnd(play)
    sys.modules["retro.games.flip"] = fake
    from retro.cli import main
    sys.exit(main())
""")


def test_at_a_real_terminal(tmp_path):
    import pexpect  # in the [dev] extras: CI runs this test, never skips it
    script = tmp_path / "fake_flip_room.py"
    script.write_text(FAKE_FLIP)
    env = dict(os.environ, RETRO_HOME=str(tmp_path / "home"), TERM="xterm",
               PROMPT_TOOLKIT_NO_CPR="1")
    child = pexpect.spawn(sys.executable, [str(script)], env=env,
                          timeout=20, dimensions=(40, 100), encoding="utf-8")
    waiting = "\x1b[?2004h"  # prompt_toolkit is ready for typing
    try:
        child.expect("Type HELP if you are lost")
        child.expect_exact(waiting)
        child.expect_exact(">")  # the prompt appears
        child.send("\t")  # completion offers the verbs
        for verb in ("look", "play", "menu", "help", "scores", "quit"):
            child.expect_exact(verb)
        child.sendcontrol("u")
        child.sendline("play flip")
        child.expect_exact("HEADS OR TAILS?")
        child.sendline("heads")
        child.expect_exact("You said heads")
        child.expect_exact("HEADS OR TAILS?")
        child.send("TA\t")  # completion offers the question's answers,
        child.expect_exact("TAILS")  # in the case the player types in
        child.sendline()
        child.expect_exact("You said TAILS")
        child.expect_exact("HEADS OR TAILS?")
        child.sendintr()  # Ctrl-C inside the game
        child.expect_exact("*** GAME ABANDONED ***")
        child.expect_exact("You are back in the machine room.")
        child.expect_exact(waiting)
        child.sendcontrol("d")  # Ctrl-D leaves
        child.expect_exact("to their dreams.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    room = (tmp_path / "home" / "history").read_text()
    game = (tmp_path / "home" / "history-game").read_text()
    assert "play flip" in room and "heads" not in room  # two histories
    assert "heads" in game and "play flip" not in game


def test_retro_play_of_a_broken_front_end_is_one_line_and_exit_1(
        monkeypatch, capsys):
    from retro.cli import main

    monkeypatch.setitem(sys.modules, "retro.games.hexapawn", None)
    assert main(["play", "hexapawn"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith("retro play: Hexapawn is out of order (")
    assert "retro.games.hexapawn" in line


def fake_module(name, **attributes):
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    return module


def test_retro_play_passes_the_seed_and_game_options(monkeypatch, tmp_path):
    from retro.cli import main

    seen = {}

    async def play(tty, sitting, **options):
        seen.update(seed=sitting.seed, options=options, game=sitting.game)
        tty.say("played")

    monkeypatch.setenv("RETRO_HOME", str(tmp_path))
    monkeypatch.setitem(sys.modules, "retro.games.mindreader", fake_module(
        "retro.games.mindreader",
        FRONT_END=FrontEnd(play, options=(
            Option(("--rounds",), "rounds", read=int, default=10),
            Option((), "ask_opponent", default=False, room=True)))))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert main(["play", "mindreader", "--seed", "42", "--rounds", "7"]) == 0
    assert seen["seed"] == 42
    assert seen["options"] == {"rounds": 7}
    assert seen["game"] is game_called("mindreader")  # its registry record


@pytest.mark.parametrize("typed, name", [
    ("her", "hexapawn"), ("Penney's game", "penney"), ("SHANNON", "mindreader"),
    ("1", "mindreader"), ("3", "hexapawn"), ("4", "penney"),
])
def test_retro_play_knows_the_registrys_other_names_and_the_menus_numbers(
        typed, name, tmp_path):
    by_other = retro("play", typed, "--seed", "5", input=b"",
                     home=tmp_path / "one")
    by_name = retro("play", name, "--seed", "5", input=b"",
                    home=tmp_path / "two")
    assert by_other.returncode == by_name.returncode == 0
    assert by_other.stderr == by_name.stderr == b""
    assert by_other.stdout == by_name.stdout and by_other.stdout


def test_retro_help_lists_every_command_of_the_registry(tmp_path):
    result = retro("--help", home=tmp_path)
    assert result.returncode == 0
    text = " ".join(result.stdout.decode().split())
    for command in COMMANDS:
        assert f"{command.name} {command.help}" in text, command.name
    assert "play play one game: " + ", ".join(g.name for g in GAMES) in text


# -- the reports, as functions ----------------------------------------------

def test_the_scoreboard_counts_each_game_and_lists_the_last_five():
    store = Store.memory(clock=fixed_clock)
    for outcome, score in [("win", "3-1"), ("loss", "1-3"), ("win", "2-1")]:
        store.record("fakecoin", score=score, outcome=outcome, seed=9)
    store.record("oldgame", score="7", outcome="draw", seed=None)
    store.record("fakesulky", score="0-0", outcome="draw", seed=4)
    store.record("fakecoin", score="0-3", outcome="loss", seed=11)
    lines = scores_report(store.scoreboard(), (COIN, SULKY, GHOST))
    rows = [line.split() for line in lines[1:lines.index("")]]
    assert rows == [["The", "Coin", "Machine", "4", "2", "2", "0", "0-3"],
                    ["The", "Sulky", "Machine", "1", "0", "0", "1", "0-0"],
                    ["oldgame", "1", "0", "0", "1", "7"]]
    last = lines[lines.index("The last games, newest first, and how to play "
                             "each again:") + 1:]
    assert last == ["  #6   1962-03-01  The Coin Machine: 0-3 (loss)",
                    "       retro play fakecoin --seed 11",
                    "  #5   1962-03-01  The Sulky Machine: 0-0 (draw)",
                    "       retro play fakesulky --seed 4",
                    "  #4   1962-03-01  oldgame: 7 (draw)",
                    "  #3   1962-03-01  The Coin Machine: 2-1 (win)",
                    "       retro play fakecoin --seed 9",
                    "  #2   1962-03-01  The Coin Machine: 1-3 (loss)",
                    "       retro play fakecoin --seed 9"]
    assert scores_report(Store.memory().scoreboard(), GAMES) == [
        "No games played yet. The scoreboard is clean."]


def test_a_scoreboard_narrower_than_its_table_tallies_in_words():
    store = Store.memory(clock=fixed_clock)
    for outcome, score in [("win", "3-1"), ("loss", "1-3")]:
        store.record("fakecoin", score=score, outcome=outcome, seed=9)
    wide = scores_report(store.scoreboard(), (COIN,), 72)
    narrow = scores_report(store.scoreboard(), (COIN,), 40)
    assert max(len(line) for line in wide[:wide.index("")]) == 50
    assert narrow[:narrow.index("")] == [
        "The Coin Machine: played 2, won 1, lost 1, drawn 0; last 1-3"]
    assert narrow[narrow.index(""):] == wide[wide.index(""):]
    assert scores_report(store.scoreboard(), (COIN,), 50) == wide
    assert scores_report(store.scoreboard(), (COIN,), 49) == narrow


def test_tear_saves_the_paper_and_never_overwrites(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tty = StreamTeletype(io.StringIO("hello\n"), io.StringIO())
    asyncio.run(tty.ask("> "))
    assert tear(tty) == ("You tear off the paper roll. It is saved as "
                         "retro-roll-1.txt.")
    assert tear(tty).endswith("saved as retro-roll-2.txt.")
    assert (tmp_path / "retro-roll-1.txt").read_text() == "> hello\n"
    assert tear(tty, "sub/roll.txt") == ("The paper will not tear: "
                                         "No such file or directory.")


# -- hardening: whatever is typed, whatever the store does -------------------


@given(st.sampled_from(["", " ", "play ", "PLAY "]), st.characters(),
       st.sampled_from(["", ".", "!", " "]))
def test_a_single_letter_starts_only_what_it_begins(before, letter, after):
    meaning = parse(before + letter + after)
    if meaning.verb == "play" and len(meaning.rest) == 1:
        game = game_named(meaning.rest)
        if game is not None and meaning.rest[0] == letter.lower() \
                and letter not in "123456789":  # the menu's numbers
            assert any(name.lower().removeprefix("the ").startswith(
                letter.lower()) for name in (game.name, game.title)), game
    if meaning.verb not in ("play", "?", ""):
        assert meaning.verb.startswith(letter.lower()) or \
            letter.lower() in ("x", "?")  # the one-letter synonyms


@given(st.text(alphabet=st.characters(categories=["Nd", "No", "Zs"]),
               max_size=8))
def test_only_ascii_digits_are_numbers(text):
    for line in (text, f"play {text}", f"look at {text}"):
        meaning = parse(line)  # never a ValueError from int()
        if meaning.verb in ("play", "look") and meaning.rest:
            game = game_named(meaning.rest)
            if game is not None:
                assert "".join(meaning.rest).isascii(), line
    game = game_called(text)
    assert game is None or text.strip().isascii()


def test_look_around_is_look(machines):
    _, output, _ = session("look around\nlook room\n", machines)
    for reply in output.split(f"{Room.PROMPT}look")[1:]:
        assert ROOM[:40] in reply


def test_a_closer_look_says_more_than_looking_around(machines):
    store = Store.memory(clock=fixed_clock)
    for outcome in ("win", "loss", "loss"):
        store.record("fakecoin", score="1-2", outcome=outcome, seed=3)
    _, output, _ = session("look\nLOOK AT 1\nlook at the ghost\n", machines,
                           store=store)
    closer = " ".join(output.split("> LOOK AT 1\n", 1)[1]
                      .split("> look at")[0].split())
    assert closer == (
        'A brass box with a coin slot: THE COIN MACHINE. Its brass plate '
        'reads "1. THE COIN MACHINE"; it also answers to COIN. You have '
        'played it 3 times and won 1. PLAY 1 sits you down at it.')
    ghost = " ".join(output.split("> look at the ghost\n", 1)[1].split())
    assert "A card on it says: OUT OF ORDER (ModuleNotFoundError:" in ghost
    assert "You have not played it yet. PLAY 3 sits you down at it." in ghost


def test_a_closer_look_at_every_real_machine():
    for number, game in enumerate(GAMES, 1):
        _, output, _ = session(f"look at {number}\n", GAMES)
        said = " ".join(output.split(f"> look at {number}\n", 1)[1]
                        .split("> ")[0].split())
        assert said.startswith(game.description), number
        assert f'"{number}. {game.title.upper()}"' in said
        assert said.endswith(f"PLAY {number} sits you down at it.")


def test_the_room_and_the_game_count_hers_matchboxes_alike(tmp_path):
    from retro.engines.matchbox import matchboxes

    hers = [box for box in matchboxes() if box.move % 2 == 0]
    words = {19: "nineteen", 24: "twenty-four"}
    hexapawn = game_called("her")
    assert words[len(hers)] in hexapawn.description
    assert "twenty-four" not in hexapawn.description
    output = retro("play", "hexapawn", "--seed", "1", input=b"",
                   home=tmp_path / "home").stdout.decode()
    assert re.search(rf"\b{len(hers)} MATCHBOXES\b", output), output


def test_help_keeps_every_phrase_in_its_column():
    _, output, _ = session("help\n", GAMES)
    rows = output.split("> help\n", 1)[1].split("\n> ")[0].splitlines()
    table = [row for row in rows if row.startswith("  ") and row.strip()]
    starts = {len(row) - len(row[2:].split("  ", 1)[1].lstrip())
              for row in table if "  " in row[2:].strip()}
    assert len(starts) == 1  # one description column, phrases and verbs alike
    (column,) = starts
    for phrase in ("PLAY FLIP WITH MEMORY", "FORGET FLIP", "RESET HER", "LOOK"):
        (row,) = [row for row in table if row.startswith(f"  {phrase} ")]
        assert len(row) > column  # its description is on the same line
    assert max(map(len, rows)) <= 72
    assert help_column(["X" * 30]) == 19  # too long: a line to itself


def test_single_letters_after_a_match_start_no_game(machines, tmp_path,
                                                    monkeypatch):
    monkeypatch.chdir(tmp_path)
    _, output, store = session("h\nt\nb\ntea\n", GAMES)
    assert "You sit down" not in output
    assert output.count("To tear off the paper roll, type TEAR in full.") == 2
    assert not list(tmp_path.iterdir())


def test_scores_list_the_newest_game_first_with_its_seed(machines):
    _, output, store = session("play coin\nh\nh\nh\nplay coin\nt\nt\nt\n"
                               "scores\n", machines)
    first, second = store.results()
    assert first.seed != second.seed
    last = output.split("how to play each again:\n", 1)[1].splitlines()
    assert last[0].startswith(f"  #{second.number} ")
    assert last[1] == f"       retro play fakecoin --seed {second.seed}"
    assert last[2].startswith(f"  #{first.number} ")
    assert last[3] == f"       retro play fakecoin --seed {first.seed}"


anything = st.one_of(st.text(), st.integers(-2 ** 63, 2 ** 63 - 1),
                     st.floats(allow_nan=False), st.binary())


@settings(deadline=None)
@given(st.lists(st.tuples(
    st.one_of(st.sampled_from([game.name for game in GAMES]), anything),
    anything, anything,
    st.one_of(st.sampled_from(["win", "loss", "draw"]), anything),
    st.one_of(st.none(), anything), anything,
    st.one_of(st.sampled_from(["ada", "bob"]), anything)), max_size=8))
def test_the_scoreboard_prints_whatever_a_results_table_holds(rows):
    store = Store.memory()
    store.db.executemany(
        "INSERT INTO results (game, played_at, score, outcome, seed, detail,"
        " player) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    store.notice = lambda message: None
    lines = scores_report(store.scoreboard(), GAMES)
    assert all(line.isprintable() for line in lines)
    if rows:  # a line for every game stored, whatever its name is
        games = store.db.execute(
            "SELECT count(DISTINCT game) FROM results").fetchone()[0]
        assert len(lines[1:lines.index("")]) == games


def test_shown_is_printable_and_cut():
    assert shown("x" * 100_000) == "x" * 17 + "..."
    assert shown("\x1b[2J") == "?[2J"
    assert shown(None) == "None" and shown(7) == "7"


def test_a_damaged_results_row_does_not_stop_scores(machines, tmp_path):
    with Store.open(tmp_path / "retro.sqlite3") as store:
        store.record("fakecoin", score="3-0", outcome="win", seed=5)
        store.db.execute("UPDATE results SET detail = 'abc', seed = 'x'")
        _, output, _ = session("scores\nlook\n", machines, store=store)
    assert "Traceback" not in output
    assert "The Coin Machine" in output.split("> scores\n", 1)[1]
    assert ROOM[:40] in output.split("> look\n", 1)[1]


class FailingStore:
    """A store whose every use fails the way a locked database does."""

    def __init__(self):
        self.real = Store.memory(clock=fixed_clock)

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise StoreError("the store is busy: another program is writing "
                             "to it")
        return fail if name in ("results", "scoreboard", "record", "get",
                                "put", "delete", "transaction") \
            else getattr(self.real, name)

    async def run(self, work, *args, **options):
        raise StoreError("the store is busy: another program is writing "
                         "to it")


def test_a_failing_store_is_one_line_and_the_room_goes_on(machines):
    _, output, _ = session("scores\nreset coins\nyes\nlook at 1\n"
                           "play coin\nh\nh\nh\nlook\n", machines,
                           store=FailingStore())
    lines = output.splitlines()
    assert "(SCORES failed: the store is busy: another program is writing " \
           "to it.)" in " ".join(lines)
    assert "(RESET COINS failed: the store is busy: another program is " \
           "writing to it.)" in " ".join(lines)
    assert "*** GAME STOPPED: the store is busy: another program is " \
           "writing to it ***" in " ".join(lines)
    assert "PLAY 1 sits you down at it." in " ".join(lines)  # LOOK AT, too
    assert ROOM[:40] in output.rsplit("> look\n", 1)[1]


def test_a_read_only_store_is_one_line_in_the_room(machines, tmp_path):
    with Store.open(tmp_path / "retro.sqlite3") as store:
        store.put("coin/memory", [1])
        store.db.execute("PRAGMA query_only = ON")  # as a read-only file
        _, output, _ = session("reset coins\nyes\nlook\n", machines,
                               store=store)
        assert store.get("coin/memory") == [1]
    said = " ".join(output.split())
    assert "(RESET COINS failed: the store is read-only.)" in said
    assert "Traceback" not in output


def test_retro_play_stopped_by_the_store_exits_1(monkeypatch, tmp_path,
                                                 capsys):
    from retro.cli import main

    async def play(tty, sitting, **options):
        raise StoreError("the store is read-only")

    monkeypatch.setenv("RETRO_HOME", str(tmp_path))
    monkeypatch.setitem(sys.modules, "retro.games.flip",
                        fake_module("retro.games.flip",
                                    FRONT_END=FrontEnd(play)))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert main(["play", "flip", "--seed", "1"]) == 1
    assert "*** GAME STOPPED: the store is read-only ***" in \
        capsys.readouterr().out


def test_the_store_speaks_on_the_paper_once_the_session_is_open(
        tmp_path, monkeypatch):
    from retro.cli import build_parser, open_session

    monkeypatch.setenv("RETRO_HOME", str(tmp_path / "home"))
    store, tty, _ = open_session(build_parser().parse_args([]))
    try:
        assert store.notice == tty.say
    finally:
        store.close()


@pytest.mark.parametrize("typed", ["0", "5", "\u00b2", "\u2463",
                                   "1" * 4301, "07x"])
def test_retro_play_of_no_such_number_is_one_line(typed, tmp_path):
    result = retro("play", typed, home=tmp_path / "home")
    assert result.returncode == 2
    assert len(result.stderr.decode().splitlines()) == 1
    assert b"Traceback" not in result.stderr


def test_room_messages_count_in_words(machines):
    store = Store.memory(clock=fixed_clock)
    store.record("fakecoin", score="1-2", outcome="loss", seed=3)
    _, output, _ = session("look at coin\n", machines, store=store)
    assert "You have played it 1 time and won 0." in " ".join(output.split())
    assert plural(1, "game") == "1 game" and plural(0, "GAME") == "0 GAMES"
    assert plural(2, "penny", "pennies") == "2 pennies"


def test_tear_never_overwrites_a_file_that_is_there(machines, tmp_path,
                                                    monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("precious\n")
    for n in (1, 2):
        (tmp_path / f"retro-roll-{n}.txt").write_text(f"roll {n}\n")
    # Even a file that looks absent when it is looked for (another room
    # creating it at that moment) is not overwritten: the file is created.
    monkeypatch.setattr(Path, "exists", lambda self: False)
    _, output, _ = session("look\ntear notes.txt\ntear\n", machines)
    said = " ".join(output.split())
    assert ('There is already a file "notes.txt", and TEAR never overwrites. '
            'Try another name.') in said
    assert "It is saved as retro-roll-3.txt." in said
    assert (tmp_path / "notes.txt").read_text() == "precious\n"
    for n in (1, 2):
        assert (tmp_path / f"retro-roll-{n}.txt").read_text() == f"roll {n}\n"
    assert "> look\n" in (tmp_path / "retro-roll-3.txt").read_text()


def test_each_tear_takes_the_paper_since_the_last(machines, tmp_path,
                                                  monkeypatch):
    monkeypatch.chdir(tmp_path)
    _, output, _ = session("look\ntear\nmenu\ntear\n", machines)
    first = (tmp_path / "retro-roll-1.txt").read_text()
    second = (tmp_path / "retro-roll-2.txt").read_text()
    assert "> look\n" in first and "> menu\n" not in first
    assert "> look\n" not in second and "The machines:" in second
    assert second.startswith("You tear off the paper roll.")
    assert output.startswith(first + second)  # nothing lost between them


def test_tear_to_a_home_that_is_not_there_is_one_line(machines):
    _, output, _ = session("tear ~nosuchuser/x.txt\nlook\n", machines)
    assert ('The paper will not tear: there is no home directory '
            '"~nosuchuser".') in " ".join(output.split())
    assert ROOM[:40] in output.split("> look\n", 1)[1]


# -- a host's room: verbs added, and the server going down ----------------------------

def served_session(machines, lines, going_down_after: int):
    """A room on a line teletype, as the served room runs it: `lines`
    typed one by one, and the server going down at the question after
    the last of them. What the host's WHEN verb was handed, and the paper."""
    from retro.services.teletype import LineTeletype, Signal

    tty = LineTeletype(lambda text: None, idle=5)
    heard: list[tuple[str, ...]] = []

    async def when(said) -> None:
        await asyncio.sleep(0)  # a verb may wait
        heard.append(said.rest)
        tty.say("It is the afternoon.")

    async def session() -> int:
        room = Room(tty, Store.memory(clock=fixed_clock), seed=1,
                    games=machines,
                    verbs=[Verb("when", "WHEN", "the time of day", when)])
        playing = asyncio.ensure_future(room.run())
        for line in lines:
            await asyncio.sleep(0)
            tty.hear(line)
        while tty.pending:
            await asyncio.sleep(0)
        for _ in range(going_down_after):
            await asyncio.sleep(0)
        tty.hear(Signal.GOING_DOWN)
        return await playing

    status = asyncio.run(session())
    return status, heard, tty.paper()


def test_a_hosts_verb_is_awaited_and_going_down_ends_the_room_at_once(
        machines):
    status, heard, paper = served_session(machines, ["when now"], 5)
    assert status == 0 and heard == [("now",)]
    assert "It is the afternoon." in paper
    assert paper.endswith("> \n" + FAREWELL + "\n")  # nothing more said
    assert "To leave the room" not in paper


def test_going_down_in_a_game_abandons_it_and_then_ends_the_room(machines):
    status, _, paper = served_session(machines, ["play coin"], 5)
    assert status == 0
    assert paper.endswith("HEADS OR TAILS? \n\n*** GAME ABANDONED ***\n\n"
                          "You are back in the machine room.\n"
                          + FAREWELL + "\n")
    assert "To leave the room" not in paper
