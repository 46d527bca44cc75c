"""Every way of leaving a game says the same: QUIT typed at a question,
Ctrl-D (the end of the input) and Ctrl-C, as a player at the far end of a
line sees them."""
from __future__ import annotations

import asyncio

import pytest

from retro.games.registry import game_called
from retro.rooms.room import install, play_game
from retro.services.store import Store
from retro.services.teletype import LineTeletype, Signal

SIGN_OFF = " T H A N K   Y O U   F O R   P L A Y I N G\n"  # the AWK's END
BEADS = "HER BEADS ARE AS THEY WERE.\n"
ABANDONED = "\n*** GAME ABANDONED ***\n"  # the room's line

# what the player does at the question where they leave
LEAVING = {"QUIT": "quit", "Ctrl-D": Signal.END, "Ctrl-C": Signal.INTERRUPT}


class Player(LineTeletype):
    """A line teletype whose player types each of `keys` while a question
    waits for it: a line, or a key that a connection hands on as a signal."""

    def __init__(self, keys: list):
        self.sent: list[str] = []
        super().__init__(self.sent.append)
        self.keys = list(keys)

    async def ask(self, prompt, choices=(), history="game", **options):
        if self.keys:  # typed once the prompt is out and the line waits
            asyncio.get_running_loop().call_soon(self.hear, self.keys.pop(0))
        return await super().ask(prompt, choices, history, **options)


def leave(name: str, typed: list[str], way: str, seed: int = 0,
          **options) -> str:
    """What the player is sent, from sitting down at the game `name` in the
    room to the room's word on how it ended, when they answer `typed` and
    then leave `way`."""
    game = game_called(name)
    tty = Player([*typed, LEAVING[way]])
    asyncio.run(play_game(game, install(game).front_end.play, tty,
                          Store.memory(), seed=seed, options=options))
    tty.flush()
    return "".join(tty.sent)


# where a player leaves, what they answered before, and the last words
# each way of leaving must end with: the game's own, and the room's
PLACES = [
    ("mindreader", [], {}, "your play? " + SIGN_OFF + ABANDONED),
    ("mindreader", ["h", "t"], {}, "? " + SIGN_OFF + ABANDONED),
    ("mindreader", [], {"ask_opponent": True},       # as the room plays it
     "opponent (awk)? " + SIGN_OFF + ABANDONED),
    ("flip", [], {}, "EXPLANATION (Y OR N)? " + ABANDONED),
    ("flip", ["n", "y"], {}, "BEGIN.\n ?  ? " + ABANDONED),
    ("flip", ["n"] + ["y"] * 50, {}, "\n\nPLAY AGAIN (Y OR N)? "),
    ("hexapawn", [], {}, "YOUR MOVE? " + BEADS + ABANDONED),
    ("hexapawn", ["8-5"], {}, "YOUR MOVE? " + BEADS + ABANDONED),
    ("hexapawn", ["8-5", "7-4", "4-1"], {"seed": 1962},  # a game won
     "ANOTHER GAME (Y OR N)? "),
    ("penney", [], {}, "(y/n) You leave with 100 pennies.\n"),
    ("penney", ["y", "HHH"], {},                     # a bet not yet staked
     "up to 100 pennies? You leave with 100 pennies.\n"),
    ("penney", ["y", "HHH", "10"], {}, "You leave with 90 pennies.\n"),
]


@pytest.mark.parametrize("name, typed, options, last_words", PLACES)
def test_quit_ctrl_d_and_ctrl_c_say_the_same(name, typed, options,
                                             last_words):
    papers = {way: leave(name, typed, way, **options) for way in LEAVING}
    assert papers["Ctrl-C"] == papers["QUIT"] == papers["Ctrl-D"]
    assert papers["QUIT"].endswith(last_words)
