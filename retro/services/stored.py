# Tangled from literate/store.md: edit the chapter, not this file, then run `retro tangle`.
"""What the store keeps and says, apart from any connection to it.

Tangled from literate/store.md, which explains it.
"""
from __future__ import annotations

import getpass
import json
import math
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


FILENAME = "retro.sqlite3"
BUSY_TIMEOUT = 10.0  # seconds a writer waits for another before giving up


def data_dir() -> Path:
    """The directory for Retro's lasting files: RETRO_HOME, or
    platformdirs'."""
    home = os.environ.get("RETRO_HOME")
    if home:
        return Path(home).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("retro", appauthor=False))


def is_url(where: object) -> bool:
    """Whether `where` names a PostgreSQL database rather than a file."""
    return isinstance(where, str) and where.startswith(("postgresql://",
                                                        "postgres://"))


NAME = re.compile(r"[A-Za-z0-9_-]{1,16}")
CONSOLE = "you"  # the console player's name when the login will not do


def is_name(text: str) -> bool:
    """Whether `text` is a player's name: letters, digits, - and _."""
    return NAME.fullmatch(text) is not None


def console_player() -> str:
    """The name of the player at the console: the login name, if it will do."""
    try:
        login = getpass.getuser().lower()
    except (OSError, KeyError, ImportError):  # no login name at all
        return CONSOLE
    return login if is_name(login) else CONSOLE


MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: the record of finished games
    ("""CREATE TABLE results (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            played_at TEXT NOT NULL,
            score TEXT NOT NULL,
            outcome TEXT NOT NULL,
            seed TEXT,
            detail TEXT NOT NULL DEFAULT '{}')""",),
    # 2: the games' lasting state, and results found quickly by game
    ("""CREATE TABLE state (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL,
            updated_at TEXT NOT NULL)""",
     "CREATE INDEX results_by_game ON results (game, id)"),
    # 3: whose game each was; the older ones were the console player's
    ("ALTER TABLE results ADD COLUMN player TEXT NOT NULL DEFAULT ''",
     "UPDATE results SET player = :owner"),
    # 4: a player's results found quickly, for their own scoreboard
    ("CREATE INDEX results_by_player ON results (player, id)",),
)
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(Exception):
    """The store cannot be used (its message is for the player)."""


@dataclass(frozen=True)
class Result:
    """One finished game, as recorded."""

    game: str
    played_at: str
    score: str
    outcome: str
    seed: int | None = None
    detail: dict = field(default_factory=dict)
    player: str = ""
    number: int = 0  # its number in the store: the order it was recorded in

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)


@dataclass(frozen=True)
class Tally:
    """One game's line of the scoreboard: counts, and the last score."""

    game: str
    played: int
    won: int
    lost: int
    drawn: int
    last: str


@dataclass(frozen=True)
class Scoreboard:
    """What SCORES shows: a tally per game, the newest games in full."""

    tallies: tuple[Tally, ...]
    newest: tuple[Result, ...]  # newest first
    players: int  # how many players' games are in it


@contextmanager
def saving(tty, what: str) -> Iterator[None]:
    """Run a save; if the store fails, tell the player what was not saved."""
    try:
        yield
    except StoreError as error:
        tty.say(f"NOT SAVED: {what} ({error}).")


def _portable(stored: Any) -> str | None:
    """A stored field as either database can hold it: text, or nothing."""
    return None if stored is None else _text(stored).replace("\x00",
                                                             "\ufffd")


def _to_json(value: Any) -> str:
    """`value` as JSON text; TypeError if it is not a JSON value."""
    try:
        return json.dumps(value, sort_keys=True, allow_nan=False)
    except ValueError as error:  # an infinity, or a value inside itself
        raise TypeError(f"not a JSON value: {error}") from None


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"not a finite number: {text}")
    return number


def _refuse(name: str) -> None:
    raise ValueError(f"not JSON: {name}")


def _from_json(text: Any) -> Any:
    """The JSON value `text` holds; ValueError if it holds none."""
    if not isinstance(text, (str, bytes)):
        raise ValueError("not text")
    try:
        return json.loads(text, parse_float=_finite, parse_constant=_refuse)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _judge(text: Any,
           valid: Callable[[Any], object] | None) -> tuple[bool, Any]:
    """(True, value) if `text` is JSON that `valid` accepts, else
    (False, None)."""
    try:
        value = _from_json(text)
        if valid is None or valid(value):
            return True, value
    except (ValueError, TypeError, LookupError, AttributeError):
        pass
    return False, None


def _detail(text: Any) -> dict | None:
    try:
        value = _from_json(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


_WHOLE = re.compile(r"-?[0-9]{1,4000}")


def _seed(stored: Any) -> int | None:
    if isinstance(stored, int) and not isinstance(stored, bool):
        return stored
    if isinstance(stored, str) and _WHOLE.fullmatch(stored):
        return int(stored)
    return None


def _text(stored: Any) -> str:
    if isinstance(stored, bytes):
        return stored.decode("utf-8", errors="replace")
    return "" if stored is None else str(stored)
