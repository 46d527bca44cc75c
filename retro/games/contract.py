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


class RoomCommand(namedtuple("RoomCommand", "phrase about action")):
    """A command a game adds to the room: RESET HER, and what it does."""

    __slots__ = ()


class Sitting(namedtuple("Sitting", "game store seed")):
    """One player sat down at one game: what the game is handed."""

    __slots__ = ()


class Game(namedtuple("Game", "name title aliases description front_end "
                              "room_options", defaults=((),))):
    """One game in the room: what to call it, and how to reach it."""

    __slots__ = ()
