# Tangled from literate/room.md: edit the chapter, not this file, then run `retro tangle`.
"""What a line typed at the room's prompt means: the room's parser.

Tangled from literate/room.md, which explains it.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from retro.common import number_in
from retro.games.contract import Game
from retro.games.registry import GAMES


VERBS = ("look", "play", "menu", "help", "scores", "tear", "quit")
WHOLE_WORDS = {"tear": "tear off the paper roll"}  # never abbreviated
AROUND = frozenset({"around", "round", "about", "here", "room", "everything"})
SYNONYMS = {"x": "look", "examine": "look", "describe": "look",
            "start": "play", "run": "play", "list": "menu", "machines": "menu",
            "?": "help", "score": "scores", "results": "scores",
            "exit": "quit", "bye": "quit", "leave": "quit", "logout": "quit"}
TRIMMED = ".,;:!?\"'()[]"
LITTLE_WORDS = frozenset({"the", "a", "an", "at", "to", "on", "with",
                          "machine", "game", "please"})


@dataclass(frozen=True)
class Meaning:
    """What a line means: a verb, and the rest of the words."""

    verb: str  # one of VERBS, "" for an empty line, "?" if not understood
    rest: tuple[str, ...] = ()
    raw: str = ""  # the words after the verb as typed (a file name for TEAR)


def words_of(line: str) -> list[str]:
    """The words of a line, lowercased, without articles and punctuation."""
    words = (token.strip(TRIMMED) or token for token in line.lower().split())
    return [word for word in words if word not in LITTLE_WORDS]


def squash(words: Sequence[str]) -> str:
    """Words run together without punctuation: 'mind-reader' becomes
    'mindreader'."""
    return re.sub(r"[\W_]", "", "".join(words))


def parse(line: str, games: Sequence[Game] = GAMES,
          verbs: Sequence[str] = VERBS) -> Meaning:
    """Work out what a line typed at the room's prompt means."""
    words = words_of(line)
    if not words:
        return Meaning("")
    first = words[0]
    verb = SYNONYMS.get(first) or next(
        (name for name in verbs if name == first or name.startswith(first)
         and name not in WHOLE_WORDS), None)
    if verb is None:
        if game_named(words, games) is not None:
            return Meaning("play", tuple(words), line.strip())
        return Meaning("?", tuple(words), line.strip())
    raw = line.strip().split(None, 1)
    return Meaning(verb, tuple(words[1:]), raw[1] if len(raw) > 1 else "")


NAMELIKE = re.compile(r"[^\W_]+(?:['\-.][^\W_]+)*")


def game_named(words: Sequence[str],
               games: Sequence[Game] = GAMES) -> Game | None:
    """The game these words name: a number, a name, or its beginning."""
    if not all(NAMELIKE.fullmatch(word) for word in words):
        return None
    key = squash(words)
    if not key:
        return None
    number = number_in(key)
    if number is not None:
        return games[number - 1] if 1 <= number <= len(games) else None
    names = [(squash(words_of(name)), game, name in game.aliases)
             for game in games
             for name in (game.name, game.title, *game.aliases)]
    for name, game, _ in names:
        if name == key:
            return game
    matches = {game for name, game, alias in names
               if name.startswith(key) and not (alias and len(key) == 1)}
    return matches.pop() if len(matches) == 1 else None


def names_of(names: Sequence[str]) -> str:
    """Names in a sentence: 'A', 'A and B', 'A, B and C', in capitals."""
    names = [name.upper() for name in names]
    return " and ".join(filter(None, [", ".join(names[:-1]), names[-1]]))
