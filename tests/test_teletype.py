"""The teletype: what a game (and a player) sees of say and ask."""
from __future__ import annotations

import io
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from retro.room.teletype import (WIDTH, Carriage, Pace, StreamTeletype,
                            TerminalTeletype, characters_per_second, clean,
                            open_teletype)


def stream(text: str | bytes, **options):
    source = io.BytesIO(text) if isinstance(text, bytes) else io.StringIO(text)
    out = io.StringIO()
    return StreamTeletype(source, out, **options), out


# -- the stream teletype -----------------------------------------------------

def test_contract_example_reads_as_a_transcript():
    tty, out = stream("h\nt\n")
    assert tty.ask("HEADS OR TAILS? ") == "h"
    assert out.getvalue() == "HEADS OR TAILS? h\n"
    tty.say("I guessed heads.")
    assert tty.ask("AGAIN? ", choices=("h", "t")) == "t"
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
    assert tty.ask("? ") == "heads"
    assert out.getvalue() == "? heads\n"


def test_end_of_input_ends_the_prompt_line_and_stays_ended():
    tty, out = stream("h\n")
    tty.ask("1? ")
    with pytest.raises(EOFError):
        tty.ask("2? ")
    with pytest.raises(EOFError):
        tty.ask("3? ")
    assert out.getvalue() == "1? h\n2? \n"


def test_bytes_that_are_not_utf8_and_control_characters_are_tamed():
    tty, out = stream(b"pl\x1b[Aay\xff\x00\x07\n\xe2\x82\xac\n")
    assert tty.ask("> ") == "pl^[[Aay\ufffd^@^G"
    assert tty.ask("> ") == "\u20ac"  # good UTF-8 survives
    assert "\x1b" not in out.getvalue() and "\x00" not in out.getvalue()


def test_clean_examples():
    assert clean(b"  pl\x1b[Aay\xff\r\n") == "pl^[[Aay\ufffd"
    assert clean("a\tb") == "a b"
    assert clean("\x00\x01\x02\x7f") == "^@^A^B^?"
    assert clean("T\x1b") == "T^["  # not a clean T: the game may refuse it
    assert clean("a\x85b\r\n") == "a\ufffdb"


def test_a_long_answer_is_folded_after_its_prompt():
    tty, out = stream("x" * 150 + "\n")
    tty.ask("YOUR MOVE? ")
    lines = out.getvalue().splitlines()
    # the word does not fit after the prompt: it starts a line of its own,
    # and is cut at the margin because no line could hold it
    assert lines == ["YOUR MOVE? ", "x" * WIDTH, "x" * WIDTH, "x" * 6]


def test_paper_roll_and_tear(tmp_path):
    tty, out = stream("h\n")
    tty.say("Welcome.")
    tty.ask("? ")
    torn = tty.tear(tmp_path / "roll.txt")
    assert torn.read_text(encoding="utf-8") == out.getvalue() == tty.paper()


def test_transcript_copies_the_roll_as_it_goes(tmp_path):
    with open(tmp_path / "t.txt", "w", encoding="utf-8") as copy:
        tty, out = stream("yes\n", transcript=copy)
        tty.say("Shall we play?")
        tty.ask("? ")
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

    def sleep(self, seconds):
        self.now += seconds


@pytest.mark.parametrize("baud, cps", [(110, 10), (300, 30), (1200, 120)])
def test_characters_per_second(baud, cps):
    assert characters_per_second(baud) == pytest.approx(cps)


def test_a_model_33_prints_ten_characters_a_second():
    fake = FakeClock()
    tty, out = stream("", baud=110, clock=fake.clock, sleep=fake.sleep)
    tty.say("x" * 49)  # 50 characters with the line ending
    assert fake.now == pytest.approx(5.0)
    assert out.getvalue() == "x" * 49 + "\n"


def test_time_spent_elsewhere_is_not_added_to_the_wait():
    fake = FakeClock()
    pace = Pace(110, clock=fake.clock, sleep=fake.sleep)
    pace.type("x" * 10, lambda text: None)
    assert fake.now == pytest.approx(1.0)
    fake.now += 3.0  # the player thinks for three seconds
    pace.type("x" * 10, lambda text: None)
    assert fake.now == pytest.approx(5.0)


def test_baud_zero_prints_at_once():
    fake = FakeClock()
    tty, _ = stream("", baud=0, clock=fake.clock, sleep=fake.sleep)
    tty.say("x" * 1000)
    assert fake.now == 0.0


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
    assert tty.ask("Above\nCALL IT? ") == "Heads"
    assert out.getvalue() == "Hello.\nAbove\n"  # prompt_toolkit drew the rest
    assert tty.paper() == "Hello.\nAbove\nCALL IT? Heads\n"


def type_then_enter(keys, text):
    """Type, press Enter a moment later: completion runs in the background."""
    keys.send_text(text)
    threading.Timer(0.3, keys.send_text, ["\r"]).start()


def test_terminal_tab_completes_the_choices(terminal):
    tty, keys, _ = terminal
    type_then_enter(keys, "sc\t")
    assert tty.ask("> ", ["look", "scores", "play"]) == "scores"
    type_then_enter(keys, "PL\t")
    assert tty.ask("> ", lambda: ["look", "scores", "play"]) == "play"


def test_terminal_at_a_slow_baud_types_the_prompt_then_returns(tmp_path):
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    fake = FakeClock()
    with create_pipe_input() as keys:
        out = io.StringIO()
        tty = TerminalTeletype(stdout=out, input=keys, output=DummyOutput(),
                               baud=110, clock=fake.clock, sleep=fake.sleep)
        keys.send_text("h\r")
        assert tty.ask("Above\nCALL IT? ") == "h"
    # the prompt at ten characters a second, then back to the start of the
    # line, where prompt_toolkit draws it again (not "CALL IT? CALL IT? ")
    assert out.getvalue() == "Above\nCALL IT? \r"
    assert fake.now == pytest.approx(1.5)  # "Above\n" and "CALL IT? "
    assert tty.paper() == "Above\nCALL IT? h\n"


def test_terminal_history_is_kept_in_the_file(terminal, tmp_path):
    tty, keys, _ = terminal
    keys.send_text("first answer\r")
    tty.ask("? ")
    assert "first answer" in (tmp_path / "data" / "history").read_text()


def test_terminal_ctrl_c_and_ctrl_d_reach_the_caller(terminal):
    tty, keys, _ = terminal
    keys.send_text("half typed\x03")
    with pytest.raises(KeyboardInterrupt):
        tty.ask("? ")
    keys.send_text("\x04")
    with pytest.raises(EOFError):
        tty.ask("? ")


def test_pipes_get_the_stream_teletype_reading_bytes():
    source = io.TextIOWrapper(io.BytesIO(b"\xffok\n"))
    tty = open_teletype(stdin=source, stdout=io.StringIO())
    assert isinstance(tty, StreamTeletype)
    assert tty.ask("? ") == "\ufffdok"


def test_nothing_typed_reaches_the_output_as_a_control_character():
    tty, out = stream(bytes(range(256)) + b"\n")
    tty.ask("? ")
    assert not any(ord(c) < 32 and c != "\n" or 0x7f <= ord(c) <= 0x9f
                   for c in out.getvalue())
