"""Hosts for the tests: a game or a room command run to its end, as the
room runs them; a stream teletype that notes what it was asked; the hostile
lines every game is sent."""
from __future__ import annotations

import asyncio
import io
import re

from hypothesis import strategies as st

from retro.games.contract import Abandoned, FrontEnd, Sitting
from retro.games.registry import game_called
from retro.services.store import Store
from retro.services.teletype import StreamTeletype


def front_end(name: str) -> FrontEnd:
    """The front end of the game `name`, reached through the registry."""
    return game_called(name).front_end()


def sitting(name: str, store: Store | None = None, seed: int = 0) -> Sitting:
    """A player sat down at the game `name`, with `store` and `seed`."""
    return Sitting(game_called(name), Store.memory() if store is None
                   else store, seed)


def play(name: str, tty, *, store: Store | None = None, seed: int = 0,
         **options) -> str:
    """Play the game `name` on `tty` to its end, on an event loop of its
    own; how it ended, as the room tells it: "over", "left" (abandoned with
    quit) or "eof" (abandoned at the end of the input). A Ctrl-C comes out
    as the KeyboardInterrupt the room gets."""
    return ending(front_end(name).play(tty, sitting(name, store, seed),
                                       **options))


def command(name: str, phrase: str, tty, *, store: Store | None = None,
            seed: int = 0) -> str:
    """Run the room command `phrase` of the game `name` on `tty`; how it
    ended, as `play` says."""
    found = {c.phrase: c for c in front_end(name).commands}[phrase]
    return ending(found.action(tty, sitting(name, store, seed)))


def ending(conversation) -> str:
    """Run `conversation` to its end: "over", "left" or "eof"."""
    try:
        asyncio.run(conversation)
    except Abandoned:
        return "left"
    except EOFError:
        return "eof"
    return "over"


# what any prompt may be sent: other scripts' digits, huge numbers and lines,
# control characters, format characters, words a game knows, format codes
HOSTILE_WORDS = ("\u0663", "\u00b2", "\u2463", "1" * 5000, "-" + "9" * 5000,
                 "x" * 100_000, "\x00\x07\x1b[2J\x7f", "\u202e\ufeff",
                 "help", "q", "quit", "", "%s{}")


def hostile_lines(*words: str):
    """A strategy for one line typed at a game: the hostile words, the
    game's own `words`, and any short text, never holding a line break."""
    return st.one_of(
        st.sampled_from(HOSTILE_WORDS + words),
        st.text(max_size=40),
        st.text(alphabet=st.characters(max_codepoint=0x9f), max_size=10),
    ).filter(lambda line: "\n" not in line and "\r" not in line)


class Recording(StreamTeletype):
    """A stream teletype that notes every question and the answer it got."""

    def __init__(self, *streams):
        super().__init__(*streams)
        self.asked: list[tuple[str, str]] = []

    async def ask(self, prompt, choices=(), history="game"):
        answer = await super().ask(prompt, choices, history)
        self.asked.append((prompt, answer))
        return answer


def squashed(text: str) -> str:
    """Text without any whitespace, to compare across the teletype's folding."""
    return re.sub(r"\s", "", text)


class RoomAndGames(Recording):
    """A piped teletype with two inputs: one for the room's prompt, one for
    every other question, so that whatever a game does with its answers, the
    next line typed at the room's prompt reaches the room."""

    def __init__(self, room_lines: list[str], game_lines: list[str], out):
        encode = lambda lines: io.BytesIO("".join(  # noqa: E731
            line + "\n" for line in lines).encode("utf-8", "surrogatepass"))
        super().__init__(encode(room_lines), out)
        self.room_lines = room_lines
        self.room_input, self.game_input = self.instream, encode(game_lines)
        self.room_ended = False

    async def ask(self, prompt, choices=(), history="game"):
        at_room = history == "room"
        self.instream = self.room_input if at_room else self.game_input
        self.ended = self.room_ended if at_room else False
        try:
            return await super().ask(prompt, choices, history)
        finally:
            if at_room:
                self.room_ended = self.ended
