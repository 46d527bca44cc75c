"""The teletype: what a game (and a player) sees of say and ask."""
from __future__ import annotations

import asyncio
import io
import os
import select
import termios
import threading
import time

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from retro.services.teletype import (LONGEST_REMEMBERED, REMEMBERED, WIDTH,
                                 Carriage, Pace, StreamTeletype,
                                 TerminalTeletype, cells,
                                 characters_per_second, clean, completer,
                                 open_teletype, printable)


def ask(tty, *question, **options) -> str:
    """One question, asked and answered on an event loop of its own."""
    return asyncio.run(tty.ask(*question, **options))


def printed(tty) -> None:
    """Let the teletype print what was said, at its pace."""
    asyncio.run(tty.drain())


def stream(text: str | bytes, **options):
    source = io.BytesIO(text) if isinstance(text, bytes) else io.StringIO(text)
    out = io.StringIO()
    return StreamTeletype(source, out, **options), out


# -- the stream teletype -----------------------------------------------------

def test_contract_example_reads_as_a_transcript():
    tty, out = stream("h\nt\n")
    assert ask(tty, "HEADS OR TAILS? ") == "h"
    assert out.getvalue() == "HEADS OR TAILS? h\n"
    tty.say("I guessed heads.")
    assert ask(tty, "AGAIN? ", choices=("h", "t")) == "t"
    assert out.getvalue() == ("HEADS OR TAILS? h\nI guessed heads.\n"
                              "AGAIN? t\n")


def test_say_prints_lines_and_blank_lines():
    tty, out = stream("")
    tty.say("one\ntwo")
    tty.say()
    tty.say("")
    assert out.getvalue() == "one\ntwo\n\n\n"


def test_answers_are_stripped_and_echoed_stripped():
    tty, out = stream("   heads  \r\n")
    assert ask(tty, "? ") == "heads"
    assert out.getvalue() == "? heads\n"


def test_end_of_input_ends_the_prompt_line_and_stays_ended():
    tty, out = stream("h\n")
    ask(tty, "1? ")
    with pytest.raises(EOFError):
        ask(tty, "2? ")
    with pytest.raises(EOFError):
        ask(tty, "3? ")
    assert out.getvalue() == "1? h\n2? \n"


def test_bytes_that_are_not_utf8_and_control_characters_are_tamed():
    tty, out = stream(b"pl\x1b[Aay\xff\x00\x07\n\xe2\x82\xac\n")
    assert ask(tty, "> ") == "pl^[[Aay\ufffd^@^G"
    assert ask(tty, "> ") == "\u20ac"  # good UTF-8 survives
    assert "\x1b" not in out.getvalue() and "\x00" not in out.getvalue()


def test_clean_examples():
    assert clean(b"  pl\x1b[Aay\xff\r\n") == "pl^[[Aay\ufffd"
    assert clean("a\tb") == "a b"
    assert clean("\x00\x01\x02\x7f") == "^@^A^B^?"
    assert clean("T\x1b") == "T^["  # not a clean T: the game may refuse it
    assert clean("a\x85b\r\n") == "a\ufffdb"


def test_a_long_answer_is_folded_after_its_prompt():
    tty, out = stream("x" * 150 + "\n")
    ask(tty, "YOUR MOVE? ")
    lines = out.getvalue().splitlines()
    # the word does not fit after the prompt: it starts a line of its own,
    # and is cut at the margin because no line could hold it
    assert lines == ["YOUR MOVE? ", "x" * WIDTH, "x" * WIDTH, "x" * 6]


def test_paper_roll_and_tear(tmp_path):
    tty, out = stream("h\nt\n")
    tty.say("Welcome.")
    ask(tty, "? ")
    torn = tty.tear(tmp_path / "roll.txt")
    assert torn.read_text(encoding="utf-8") == out.getvalue()
    assert tty.paper() == ""  # torn off: the roll starts empty
    ask(tty, "again? ")
    tty.tear(tmp_path / "second.txt")
    assert (tmp_path / "second.txt").read_text() == "again? t\n"


def test_a_tear_never_overwrites_and_keeps_the_roll(tmp_path):
    (tmp_path / "notes.txt").write_text("precious")
    tty, _ = stream("")
    tty.say("Welcome.")
    with pytest.raises(FileExistsError):
        tty.tear(tmp_path / "notes.txt")
    assert (tmp_path / "notes.txt").read_text() == "precious"
    assert tty.paper() == "Welcome.\n"  # still on the machine
    with pytest.raises(FileNotFoundError):
        tty.tear(tmp_path / "no" / "such" / "dir.txt")
    assert tty.paper() == "Welcome.\n"


def test_a_tear_that_fails_half_way_leaves_no_file(tmp_path, monkeypatch):
    tty, _ = stream("")
    tty.say("Welcome.")
    monkeypatch.setattr(tty, "paper", lambda: 1 / 0)  # fails while writing
    with pytest.raises(ZeroDivisionError):
        tty.tear(tmp_path / "roll.txt")
    assert not (tmp_path / "roll.txt").exists()
    assert list(tty.roll) == ["Welcome.\n"]


def test_transcript_copies_the_roll_as_it_goes(tmp_path):
    with open(tmp_path / "t.txt", "w", encoding="utf-8") as copy:
        tty, out = stream("yes\n", transcript=copy)
        tty.say("Shall we play?")
        ask(tty, "? ")
        # flushed as printed: readable before the file is closed
        assert (tmp_path / "t.txt").read_text() == out.getvalue()


# -- the carriage --------------------------------------------------------------

def test_folding_keeps_indentation_and_drops_trailing_spaces():
    folded = Carriage().fold("    " + "abc " * 30 + "\n")
    lines = folded.splitlines()
    assert all(line.startswith("    abc") for line in lines)
    assert all(not line.endswith(" ") for line in lines)
    assert all(len(line) <= WIDTH for line in lines)


def test_a_prompt_keeps_its_trailing_space_until_the_answer():
    carriage = Carriage()
    assert carriage.fold("MOVE? ") + carriage.flush() == "MOVE? "
    assert carriage.fold("e2\n") == "e2\n"


words = st.text(alphabet="abcdefghij", min_size=1, max_size=WIDTH)
paragraphs = st.lists(st.tuples(words, st.sampled_from([" ", "  ", "\n"])),
                      max_size=60)


@given(paragraphs)
@settings(max_examples=200, deadline=None)
def test_folding_never_passes_the_margin_and_keeps_every_word(pieces):
    text = "".join(word + gap for word, gap in pieces)
    folded = Carriage().fold(text)
    assert all(len(line) <= WIDTH for line in folded.split("\n"))
    assert folded.split() == text.split()


@given(st.text(alphabet="ab \n", max_size=400), st.integers(1, 20))
@settings(max_examples=200, deadline=None)
def test_folding_in_pieces_is_folding_at_once(text, cut):
    whole = Carriage().fold(text)
    carriage = Carriage()
    parts = [text[i:i + cut] for i in range(0, len(text), cut)]
    assert "".join(carriage.fold(part) for part in parts) == whole


# -- the pace ------------------------------------------------------------------

class FakeClock:
    def __init__(self):
        self.now = 0.0

    def clock(self):
        return self.now

    async def sleep(self, seconds):
        self.now += seconds


@pytest.mark.parametrize("baud, cps", [(110, 10), (300, 30), (1200, 120)])
def test_characters_per_second(baud, cps):
    assert characters_per_second(baud) == pytest.approx(cps)


def test_a_model_33_prints_ten_characters_a_second():
    fake = FakeClock()
    tty, out = stream("", baud=110, clock=fake.clock, sleep=fake.sleep)
    tty.say("x" * 49)  # 50 characters with the line ending
    assert out.getvalue() == ""  # queued: said, not yet struck
    printed(tty)
    assert fake.now == pytest.approx(5.0)
    assert out.getvalue() == "x" * 49 + "\n"
    assert tty.paper() == "x" * 49 + "\n"


def test_time_spent_elsewhere_is_not_added_to_the_wait():
    fake = FakeClock()
    pace = Pace(110, clock=fake.clock)

    def strike(text: str) -> int:
        """Strike `text` at the pace, pausing as told; how many bursts."""
        bursts = list(pace.bursts(text))
        for burst in bursts:
            fake.now += pace.after(burst)
        return len(bursts)

    assert strike("x" * 10) > 1
    assert fake.now == pytest.approx(1.0)
    fake.now += 3.0  # the player thinks for three seconds
    strike("x" * 10)
    assert fake.now == pytest.approx(5.0)  # 1 + 3 + 1: no wait is owed


def test_baud_zero_prints_at_once():
    fake = FakeClock()
    tty, out = stream("", baud=0, clock=fake.clock, sleep=fake.sleep)
    tty.say("x" * 1000)
    assert out.getvalue().replace("\n", "") == "x" * 1000  # struck when said
    assert fake.now == 0.0


def test_ctrl_c_stops_the_printing_and_the_roll_holds_what_was_struck():
    fake = FakeClock()
    tty, out = stream("h\n", baud=110, clock=fake.clock)

    async def interrupted_at(seconds):
        fake.now += seconds
        if fake.now >= 2.0 and not pressed:
            pressed.append("Ctrl-C")
            tty.interrupt()

    pressed = []

    tty.sleep = interrupted_at
    tty.say("x" * 100)
    with pytest.raises(KeyboardInterrupt):
        printed(tty)
    assert 20 <= len(out.getvalue()) < 30  # two seconds' worth, no more
    assert tty.paper() == out.getvalue()
    assert not tty.printing  # what was not struck is dropped
    assert ask(tty, "? ") == "h"  # and the next question is asked as usual


# -- the terminal teletype, on prompt_toolkit's pipe input ---------------------

@pytest.fixture
def terminal(tmp_path):
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    with create_pipe_input() as keys:
        out = io.StringIO()
        tty = TerminalTeletype(history=tmp_path / "data" / "history",
                               stdout=out, input=keys, output=DummyOutput())
        yield tty, keys, out


def test_terminal_reads_a_line_and_keeps_it_on_the_roll(terminal):
    tty, keys, out = terminal
    tty.say("Hello.")
    keys.send_text("  Heads \r")
    assert ask(tty, "Above\nCALL IT? ") == "Heads"
    assert out.getvalue() == "Hello.\nAbove\n"  # prompt_toolkit drew the rest
    assert tty.paper() == "Hello.\nAbove\nCALL IT? Heads\n"


def type_then_enter(keys, text):
    """Type, press Enter a moment later: completion runs in the background."""
    keys.send_text(text)
    threading.Timer(0.3, keys.send_text, ["\r"]).start()


def test_terminal_tab_completes_the_choices(terminal):
    tty, keys, _ = terminal
    type_then_enter(keys, "sc\t")
    assert ask(tty, "> ", ["look", "scores", "play"]) == "scores"
    type_then_enter(keys, "PL\t")  # in the case the player types in
    assert ask(tty, "> ", lambda: ["look", "scores", "play"]) == "PLAY"


def test_terminal_at_a_slow_baud_types_the_prompt_then_returns(tmp_path):
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    fake = FakeClock()
    with create_pipe_input() as keys:
        out = io.StringIO()
        tty = TerminalTeletype(stdout=out, input=keys, output=DummyOutput(),
                               baud=110, clock=fake.clock, sleep=fake.sleep)
        keys.send_text("h\r")
        assert ask(tty, "Above\nCALL IT? ") == "h"
    # the prompt at ten characters a second, then back to the start of the
    # line, where prompt_toolkit draws it again (not "CALL IT? CALL IT? ")
    assert out.getvalue() == "Above\nCALL IT? \r"
    assert fake.now == pytest.approx(1.5)  # "Above\n" and "CALL IT? "
    assert tty.paper() == "Above\nCALL IT? h\n"


def test_terminal_history_is_kept_in_the_file(terminal, tmp_path):
    tty, keys, _ = terminal
    keys.send_text("first answer\r")
    ask(tty, "? ")
    assert "first answer" in (tmp_path / "data" / "history-game").read_text()


def test_terminal_ctrl_c_and_ctrl_d_reach_the_caller(terminal):
    tty, keys, _ = terminal
    keys.send_text("half typed\x03")
    with pytest.raises(KeyboardInterrupt):
        ask(tty, "? ")
    keys.send_text("\x04")
    with pytest.raises(EOFError):
        ask(tty, "? ")


def test_pipes_get_the_stream_teletype_reading_bytes():
    source = io.TextIOWrapper(io.BytesIO(b"\xffok\n"))
    tty = open_teletype(stdin=source, stdout=io.StringIO())
    assert isinstance(tty, StreamTeletype)
    assert ask(tty, "? ") == "\ufffdok"


def test_nothing_typed_reaches_the_output_as_a_control_character():
    tty, out = stream(bytes(range(256)) + b"\n")
    ask(tty, "? ")
    assert not any(ord(c) < 32 and c != "\n" or 0x7f <= ord(c) <= 0x9f
                   for c in out.getvalue())


# -- screen cells: wide characters, narrow terminals ---------------------------

def test_wide_characters_take_two_cells_when_folding():
    # A player's CJK answer quoted in a message: 30 characters, 60 cells.
    text = "一" * 30 + " is not a machine here; pick one from the list.\n"
    lines = Carriage().fold(text).splitlines()
    assert lines == ["一" * 30 + " is not a", "machine here; pick one from "
                     "the list."]
    assert [cells(line) for line in lines] == [69, 37]


def test_cells_of_what_a_terminal_shows():
    assert [cells(text) for text in ("abc", "选一个", "e\u0301", "👍",
                                     "^[")] == [3, 6, 1, 2, 2]


def test_a_word_too_long_is_cut_between_graphemes():
    word = "e\u0301" * 100  # every e with its accent
    lines = Carriage(width=20).fold(word).split("\n")
    assert [cells(line) for line in lines] == [20] * 5
    assert all(line.startswith("e\u0301") for line in lines)
    assert "".join(lines) == word


def said_at_a_terminal(columns, text):
    """What a terminal `columns` wide shows when the teletype says `text`."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    with create_pipe_input() as keys:
        out = io.StringIO()
        tty = TerminalTeletype(stdout=out, input=keys, output=DummyOutput(),
                               columns=lambda: columns)
        tty.say(text)
    return out.getvalue()


def test_a_narrow_terminal_folds_between_words_at_its_width():
    text = ("HER plays hexapawn against you, and learns from every game she "
            "loses by taking a bead out of the matchbox that led her there.")
    shown = said_at_a_terminal(40, text)
    assert max(cells(line) for line in shown.splitlines()) <= 40
    assert shown.split() == text.split()  # no word broken
    assert said_at_a_terminal(8, "a" * 20) == "a" * 16 + "\n" + "a" * 4 + "\n"


def test_a_wide_terminal_still_folds_at_seventy_two():
    shown = said_at_a_terminal(200, "word " * 40)
    assert max(map(len, shown.splitlines())) == 69


def test_say_shows_control_characters_instead_of_sending_them():
    tty, out = stream("")
    tty.say("red\x1b[31m bell\x07 \x9b \ud800")
    assert out.getvalue() == "red^[[31m bell^G \ufffd \ufffd\n"
    assert printable("a\nb\tc\rd") == "a\nb\tc^Md"


# -- whatever is said or typed: the property ----------------------------------

awkward = st.one_of(
    st.text(),  # any Unicode but surrogates, control characters included
    st.text(alphabet=st.characters(codec="utf-8", categories=(
        "Cc", "Cf", "Mn", "Me", "Zs", "Zl", "Zp", "So", "Lo"))),
    st.sampled_from(["选一个", "👨\u200d👩\u200d👧", "🇫🇷", "e\u0301\u0302",
                     "\x1b[2J", "\t", "\r\n", " " * 50, "\u3000", "\ufeff",
                     "❤\ufe0f", "\u1100\u1161\u11a8", "\u0301" * 300]),
    st.sampled_from(["x" * 100_000, "中" * 50_000, "a b " * 25_000]),
)
texts = st.lists(awkward, max_size=6).map("".join)


def without_spaces(text):
    return "".join(text.split())


def test_a_table_is_drawn_if_it_fits_and_said_if_it_does_not():
    table = ["name    doing      0:00", "a       b          1:00"]
    tty, out = stream("", width=23)
    tty.table(table)
    assert out.getvalue() == "\n".join(table) + "\n"  # drawn as laid out
    tty, out = stream("", width=22)
    tty.table(table)
    assert out.getvalue() == "name    doing\n0:00\na       b\n1:00\n"


@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@given(texts, st.integers(16, 100))
@example("0000000000\x1f\x1f\u1087\u2e80", 16)  # a mark widens what it follows
@settings(max_examples=150, deadline=None)
def test_anything_said_fits_the_page_and_loses_nothing(text, width):
    tty, out = stream("", width=width)
    tty.say(text)
    printed = out.getvalue()
    assert all(cells(line) <= width for line in printed.split("\n"))
    assert without_spaces(printed) == without_spaces(
        printable(text).expandtabs())
    assert tty.paper() == printed


@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@given(st.lists(st.binary(max_size=300) | st.sampled_from(
           ["x".encode() * 100_000, "中".encode() * 40_000,
            b"\xff\xfe\x00\x1b[A\r", "e\u0301".encode() * 500]),
           max_size=4),
       texts, st.integers(16, 100))
@settings(max_examples=100, deadline=None)
def test_anything_typed_is_answered_fits_the_page_and_loses_nothing(
        lines, prompt, width):
    typed = [line.replace(b"\n", b" ") for line in lines]
    tty, out = stream(b"".join(line + b"\n" for line in typed), width=width)
    answers = [ask(tty, prompt) for _ in typed]
    with pytest.raises(EOFError):
        ask(tty, prompt)
    assert answers == [clean(line) for line in typed]
    printed = out.getvalue()
    assert all(cells(line) <= width for line in printed.split("\n"))
    shown = printable(prompt).expandtabs()
    assert without_spaces(printed) == without_spaces(
        "".join(shown + answer for answer in answers) + shown)
    assert tty.paper() == printed


# -- histories: the room's and the games', bounded ----------------------------

def test_the_room_and_the_games_keep_separate_histories(terminal, tmp_path):
    tty, keys, _ = terminal
    keys.send_text("play flip\r")
    assert ask(tty, "> ", history="room") == "play flip"
    keys.send_text("heads\r")
    assert ask(tty, "HEADS OR TAILS? ") == "heads"  # a game's: the default
    keys.send_text("\x1b[A\r")  # the up arrow, at the room's prompt
    assert ask(tty, "> ", history="room") == "play flip"
    keys.send_text("\x1b[A\r")  # and in the game
    assert ask(tty, "HEADS OR TAILS? ") == "heads"
    data = tmp_path / "data"
    assert "+play flip" in (data / "history").read_text()
    assert "heads" not in (data / "history").read_text()
    assert "+heads" in (data / "history-game").read_text()
    assert "play" not in (data / "history-game").read_text()


def test_a_long_answer_is_not_remembered(terminal, tmp_path):
    tty, keys, _ = terminal
    keys.send_text("short\r")
    ask(tty, "? ")
    keys.send_text("x" * (LONGEST_REMEMBERED + 1) + "\r")
    assert len(ask(tty, "? ")) == LONGEST_REMEMBERED + 1
    keys.send_text("\x1b[A\r")  # recalls the last answer worth recalling
    assert ask(tty, "? ") == "short"
    assert "x" * (LONGEST_REMEMBERED + 1) not in (
        tmp_path / "data" / "history-game").read_text()


def test_a_history_file_is_trimmed_to_the_last_answers(tmp_path):
    from retro.services.teletype import bounded_history

    path = tmp_path / "history"
    answers = [f"answer {n}" for n in range(REMEMBERED + 200)]
    answers.insert(300, "y" * 100_000)
    path.write_text("".join(f"\n# then\n+{answer}\n" for answer in answers))
    loaded = list(bounded_history(path).load_history_strings())
    kept = [a for a in answers if len(a) <= LONGEST_REMEMBERED][-REMEMBERED:]
    assert loaded == kept[::-1]  # newest first, as prompt_toolkit wants
    assert len(path.read_text()) < 20_000
    assert list(bounded_history(path).load_history_strings()) == loaded


def test_a_history_that_cannot_be_written_is_passed_over(tmp_path):
    from retro.services.teletype import bounded_history

    (tmp_path / "a file").write_text("")
    history = bounded_history(tmp_path / "a file" / "history")
    history.append_string("heads")  # the directory is not there: no error
    assert list(history.load_history_strings()) == []


# -- completion ------------------------------------------------------------------

def offered(choices, text):
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    found = completer(choices)
    if found is None:
        return []
    return [c.text for c in found.get_completions(Document(text),
                                                  CompleteEvent())]


ROOM = {"": ["look", "play", "plan", "scores"],
        "play": ["penney", "flip", "hexapawn"],
        "look at": ["penney", "flip"]}


def test_a_choice_is_offered_in_the_case_being_typed():
    assert offered(ROOM, "PLAY F") == ["FLIP"]
    assert offered(ROOM, "play f") == ["flip"]
    assert offered(ROOM, "PLAY ") == ["PENNEY", "FLIP", "HEXAPAWN"]
    assert offered(["Y", "N", "HELP", "QUIT"], "h") == ["help"]
    assert offered(["Y", "N", "HELP", "QUIT"], "") == ["Y", "N", "HELP",
                                                      "QUIT"]
    assert offered(["heads", "Tails"], "Ta") == ["Tails"]  # its own case


def test_after_play_only_the_machines_are_offered():
    assert offered(ROOM, "p") == ["play", "plan"]
    assert offered(ROOM, "play ") == ["penney", "flip", "hexapawn"]
    assert offered(ROOM, "PLAY p") == ["penney"]
    assert offered(ROOM, "play  f") == ["flip"]
    assert offered(ROOM, "look at ") == ["penney", "flip"]
    assert offered(ROOM, "look ") == []
    assert offered(ROOM, "play flip ") == []
    assert offered(lambda: ROOM, "play h") == ["hexapawn"]
    # a list offers every word everywhere, as before
    assert offered(["play", "penney"], "play p") == ["play", "penney"]
    assert offered(lambda: ["play", "penney"], "pe") == ["penney"]
    assert offered([], "p") == []


def test_terminal_tab_completes_a_machine_after_play(terminal):
    tty, keys, _ = terminal
    type_then_enter(keys, "play p\t")
    assert ask(tty, "> ", ROOM, history="room") == "play penney"


# -- keys typed while the teletype prints at a pace ---------------------------

def test_keys_typed_while_printing_are_not_echoed_but_kept():
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    master, slave = os.openpty()
    keyboard = os.fdopen(slave, "rb", buffering=0)
    fake = FakeClock()

    async def sleep_while_typing(seconds):
        fake.now += seconds
        if fake.now < 0.2:  # the player types ahead, early in the line
            os.write(master, b"hjkl\n")
            time.sleep(0.05)  # the terminal takes the keys in meanwhile

    before = termios.tcgetattr(slave)
    with create_pipe_input() as keys:
        out = io.StringIO()
        tty = TerminalTeletype(stdout=out, input=keys, output=DummyOutput(),
                               keys=keyboard, baud=110, clock=fake.clock,
                               sleep=sleep_while_typing)
        tty.say("x" * 20)
        printed(tty)
    assert out.getvalue() == "x" * 20 + "\n"
    echoed = select.select([master], [], [], 0.2)[0]
    assert echoed == []  # nothing typed was echoed into the printing
    waiting = select.select([slave], [], [], 0.2)[0]
    assert waiting == [slave]  # and what was typed waits for the prompt
    assert os.read(slave, 1000).startswith(b"hjkl\n")
    assert termios.tcgetattr(slave) == before  # echo is back on
    keyboard.close()
    os.close(master)


# -- the line teletype (the served room's) -------------------------------------------

def test_the_line_teletype_sends_at_each_question_and_keeps_the_roll():
    from retro.services.teletype import LineTeletype, Signal

    sent = []
    tty = LineTeletype(sent.append, idle=0.05)
    tty.hear(b"  h\xff\r\n")
    tty.say("HELLO")
    assert sent == []  # nothing goes until a question is asked
    assert ask(tty, "YOUR PLAY? ") == "h\ufffd"
    assert sent == ["HELLO\nYOUR PLAY? "]  # the answer is not echoed
    assert tty.paper() == "HELLO\nYOUR PLAY? h\ufffd\n"
    tty.hear(Signal.INTERRUPT)
    with pytest.raises(KeyboardInterrupt):
        ask(tty, "? ")
    tty.hear(Signal.GOING_DOWN)
    with pytest.raises(KeyboardInterrupt):
        ask(tty, "? ")  # a game's question: the game is abandoned
    with pytest.raises(EOFError):
        ask(tty, "> ", history="room")
    quiet = LineTeletype(sent.append, idle=0.05)
    with pytest.raises(EOFError):
        ask(quiet, "> ")
    assert "NOTHING TYPED FOR 0.05 SECONDS" in sent[-1]


def test_the_line_teletype_answers_lines_typed_ahead_in_order():
    from retro.services.teletype import LineTeletype, Signal

    sent = []
    tty = LineTeletype(sent.append, idle=1)
    for line in (b"one", b"two", Signal.HANG_UP):
        tty.hear(line)
    assert ask(tty, "1? ") == "one"
    assert ask(tty, "2? ") == "two"
    with pytest.raises(EOFError):  # the hang-up comes after what was typed
        ask(tty, "3? ")
    with pytest.raises(EOFError):
        ask(tty, "4? ")
    tty = LineTeletype(sent.append, idle=1)
    tty.hear(b"typed before the Ctrl-C")
    tty.hear(Signal.INTERRUPT)
    tty.hear(b"typed after it")
    with pytest.raises(KeyboardInterrupt):
        ask(tty, "? ")
    assert ask(tty, "? ") == "typed after it"  # only what came before went


def test_a_line_heard_wakes_the_question_that_waits_for_it():
    from retro.services.teletype import LineTeletype, Signal

    async def conversation():
        tty = LineTeletype(lambda text: None, idle=5)
        waiting = asyncio.ensure_future(tty.ask("? "))
        await asyncio.sleep(0.01)
        assert not waiting.done()
        tty.hear(b"late")
        answer = await waiting
        # (a KeyboardInterrupt must not leave a task: asyncio would take it
        # for the process's own, so the game catches it, as the room does)
        interrupted = asyncio.ensure_future(abandoned(tty.ask("? ")))
        await asyncio.sleep(0.01)
        assert not interrupted.done()
        tty.hear(Signal.INTERRUPT)
        return answer, await interrupted

    async def abandoned(question) -> str:
        try:
            return await question
        except KeyboardInterrupt:
            return "abandoned"

    assert asyncio.run(conversation()) == ("late", "abandoned")


def test_the_line_teletype_sends_every_burst_at_a_slow_baud():
    from retro.services.teletype import LineTeletype

    sent = []

    async def no_wait(seconds):
        pass

    tty = LineTeletype(sent.append, baud=300, sleep=no_wait)
    tty.say("Your paper prints at 300 baud.")
    printed(tty)
    assert "".join(sent) == "Your paper prints at 300 baud.\n"
    assert len(sent) > 1


def test_a_password_asked_on_the_line_is_hidden_and_never_on_the_roll():
    from retro.services.teletype import LineTeletype

    sent, echoes = [], []
    tty = LineTeletype(sent.append, idle=1, echo=echoes.append)
    tty.hear(b"open sesame")
    tty.hear(b"look")
    assert tty.pending == 2
    assert ask(tty, "PASSWORD? ", hidden=True) == "open sesame"
    assert echoes == [True, False]  # hidden while typed, shown again after
    assert tty.pending == 1
    assert ask(tty, "> ") == "look"
    assert "sesame" not in tty.paper()
    assert tty.paper() == "PASSWORD? \n> look\n"
    tty.baud = 110
    assert tty.baud == 110 and tty.pace.baud == 110


def test_a_line_teletype_echoing_sends_each_answer_after_its_question():
    from retro.services.teletype import LineTeletype, Signal

    for echoing in (False, True):
        sent = []
        tty = LineTeletype(sent.append, idle=1, echoing=echoing)
        for typed_ahead in (b"open sesame", b"look", b"west"):
            tty.hear(typed_ahead)
        assert ask(tty, "PASSWORD? ", hidden=True) == "open sesame"
        assert ask(tty, "> ") == "look"
        tty.say("A dark corridor.")
        assert ask(tty, "> ") == "west"
        tty.hear(Signal.END)  # Ctrl-D: the end of the prompt's line
        with pytest.raises(EOFError):
            ask(tty, "> ")
        tty.flush()
        assert tty.paper() == ("PASSWORD? \n> look\nA dark corridor.\n"
                               "> west\n> \n")
        # a client that echoes nothing is sent the roll itself; others,
        # which showed their own typing, only what the teletype printed
        assert "".join(sent) == (tty.paper() if echoing else
                                 "PASSWORD? > A dark corridor.\n> > ")


def test_a_line_typed_at_the_terminal_is_kept_to_its_longest():
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from retro.services.teletype import LONGEST_TYPED, TerminalTeletype

    with create_pipe_input() as keys:
        tty = TerminalTeletype(stdout=io.StringIO(), input=keys,
                               output=DummyOutput())
        keys.send_text("y" * (3 * LONGEST_TYPED) + "\r")
        typed = asyncio.run(tty.ask("? "))
        keys.send_bytes(b"\x1b[200~" + b"p" * (2 * LONGEST_TYPED)
                        + b"\x1b[201~\r")
        pasted = asyncio.run(tty.ask("? "))
    assert typed == "y" * LONGEST_TYPED
    assert pasted == "p" * LONGEST_TYPED


def test_the_line_teletype_finds_ctrl_c_and_ctrl_d_in_what_was_typed():
    from retro.services.teletype import LineTeletype, Signal, as_heard

    assert as_heard(b"look\x03\r\n") is Signal.INTERRUPT
    assert as_heard(" \x04\r\n") is Signal.END
    assert as_heard(b"a\x04b\n") == b"ab\n"
    tty = LineTeletype(lambda text: None, idle=1)
    tty.hear(b"play fl\x03")
    with pytest.raises(KeyboardInterrupt):
        ask(tty, "> ")
    tty.hear(b"\x04\r\n")
    tty.hear(b"quit\n")
    with pytest.raises(EOFError):
        ask(tty, "? ")  # Ctrl-D, once, in its turn
    assert ask(tty, "> ") == "quit"  # and the line stays open


def test_going_down_is_a_ctrl_c_of_its_own_kind_wherever_the_player_waits():
    from retro.services.teletype import GoingDown, LineTeletype, Signal

    for history in ("game", "room"):
        tty = LineTeletype(lambda text: None, idle=1)
        tty.hear(b"typed ahead")
        tty.hear(Signal.GOING_DOWN)
        with pytest.raises(GoingDown):
            ask(tty, "> ", history=history)
        with pytest.raises(EOFError):
            ask(tty, "> ", history=history)

    async def asked(tty: LineTeletype) -> BaseException | str:
        try:  # a KeyboardInterrupt must not leave a task: asyncio's rule
            return await tty.ask("> ", history="room")
        except KeyboardInterrupt as interrupt:
            return interrupt

    async def waiting() -> None:
        tty = LineTeletype(lambda text: None, idle=5)
        question = asyncio.ensure_future(asked(tty))
        await asyncio.sleep(0)
        tty.hear(Signal.GOING_DOWN)
        assert isinstance(await question, GoingDown)
        assert tty.paper() == "> \n"

    asyncio.run(waiting())


def test_a_host_that_shows_the_roll_is_handed_each_piece_as_it_goes_on():
    from retro.services.teletype import LineTeletype

    shown: list[str] = []
    tty = LineTeletype(lambda text: None, idle=1, on_roll=shown.append)
    tty.say("HEADS OR TAILS")
    tty.hear("h")
    assert shown == ["HEADS OR TAILS\n"]  # at once, before any question
    assert ask(tty, "? ") == "h"
    assert "".join(shown) == tty.paper() == "HEADS OR TAILS\n? h\n"


def test_a_ctrl_c_noted_by_a_signal_handler_is_raised_at_the_next_wait():
    blocked: list[bool] = []

    class Keys(io.BytesIO):
        def readline(self, *size) -> bytes:
            blocked.append(tty.blocking)
            return super().readline(*size)

    tty = StreamTeletype(Keys(b"h\nt\n"), io.StringIO())
    assert not tty.blocking
    assert ask(tty, "? ") == "h"
    assert blocked == [True] and not tty.blocking  # only inside readline
    tty.note_interrupt()
    tty.stop_printing()
    with pytest.raises(KeyboardInterrupt):
        ask(tty, "? ")
    assert ask(tty, "? ") == "t"  # raised once, and the line was not read


def test_a_ctrl_c_while_the_pipe_is_read_ends_the_prompts_line():
    import io

    from retro.services.teletype import StreamTeletype

    class Interrupted(io.StringIO):
        def readline(self, *args):
            raise KeyboardInterrupt

    out = io.StringIO()
    tty = StreamTeletype(Interrupted(), out)
    with pytest.raises(KeyboardInterrupt):
        ask(tty, "YOUR MOVE? ")
    tty.say("HER BEADS ARE AS THEY WERE.")
    printed(tty)
    assert out.getvalue() == "YOUR MOVE? \nHER BEADS ARE AS THEY WERE.\n"
