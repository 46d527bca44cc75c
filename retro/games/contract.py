# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""What a game and its host agree on: a front end, a sitting, a command.

Tangled from literate/house.md, which explains it.
"""
from __future__ import annotations

from collections import namedtuple


class FrontEnd(namedtuple("FrontEnd", "play add_options commands",
                          defaults=(None, ()))):
    """A game's conversation, its options for `retro play`, its commands."""

    __slots__ = ()


class RoomCommand(namedtuple("RoomCommand", "phrase about action plays",
                             defaults=(False,))):
    """A command a game adds to the room: RESET HER, and what it does."""

    __slots__ = ()


class Sitting(namedtuple("Sitting", "game store seed")):
    """One player sat down at one game: what the game is handed."""

    __slots__ = ()


QUIT_WORDS = frozenset({"q", "quit", "leave", "exit", "stop"})


def is_quit(answer: str) -> bool:
    """Whether `answer` asks to leave the game, in any case."""
    return answer.strip().lower() in QUIT_WORDS


class Abandoned(Exception):
    """The player left a game before it ended: nothing of it is kept."""


class Game(namedtuple("Game", "name title aliases description front_end "
                              "room_options", defaults=((),))):
    """One game in the room: what to call it, and how to reach it."""

    __slots__ = ()
