# Tangled from literate/store.md: edit the chapter, not this file, then run `retro tangle`.
"""The store: scores and the games' lasting state, in SQLite.

Tangled from literate/store.md, which explains it.
"""
from __future__ import annotations


import asyncio
import copy
import functools
import json
import math
import os
import getpass
import re
import sqlite3
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
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


class Store:
    """Scores and lasting game state in one SQLite database."""

    def __init__(self, connection: sqlite3.Connection,
                 path: Path | None = None,
                 clock: Callable[[], datetime] | None = None,
                 notice: Callable[[str], None] | None = None,
                 player: str | None = None,
                 worker: Executor | None = None):
        self.db = connection
        self.path = path
        self.worker = worker
        self.console = console_player()
        self.player = (player or self.console).lower()
        if not is_name(self.player):
            raise ValueError(f"not a player's name: {player!r}")
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.notice: Callable[[str], None] = notice or _warn
        self._noticed: set = set()  # damage already told, told only once
        self._depth = 0
        self._migrate()

    @classmethod
    def memory(cls, **options) -> Store:
        """A store in memory: nothing is written to disk."""
        return cls(sqlite3.connect(":memory:", isolation_level=None), **options)

    @classmethod
    def open(cls, path: str | Path | None = None, *,
             warn: Callable[[str], None] | None = None,
             timeout: float = BUSY_TIMEOUT, **options) -> Store:
        """The store on disk (in data_dir() unless `path` is given)."""
        path = Path(path) if path is not None else data_dir() / FILENAME
        warn = warn or _warn
        try:
            try:
                return cls._connect(path, timeout, **options)
            except sqlite3.DatabaseError as error:
                if not _damaged(error):
                    raise
                aside = _set_aside(path)
                warn(f"retro: the store {path} was damaged ({_damage(error)}); "
                     f"it is kept as {aside.name} and a fresh store is started")
                return cls._connect(path, timeout, **options)
        except (sqlite3.Error, OSError, StoreError) as error:
            warn(f"retro: {_unusable(path, error)}; "
                 f"nothing will be kept after this session")
            return cls.memory(**options)

    @classmethod
    def _connect(cls, path: Path, timeout: float, **options) -> Store:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        _private(path)
        connection = sqlite3.connect(
            path, timeout=timeout, isolation_level=None,
            check_same_thread=options.get("worker") is None)
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            fault = connection.execute("PRAGMA quick_check").fetchone()[0]
            if fault != "ok":
                raise _Corrupt(fault)
            return cls(connection, path, **options)
        except BaseException:
            connection.close()
            raise

    def _migrate(self) -> None:
        if self.version == SCHEMA_VERSION:
            return
        with self.transaction():
            version = self.version  # again: another room may have done it
            if version > SCHEMA_VERSION:
                raise StoreError(f"it has schema version {version}, newer than "
                                 f"this Retro's {SCHEMA_VERSION}")
            for number in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[number - 1]:
                    self.db.execute(statement, {"owner": console_player()})
                self.db.execute(f"PRAGMA user_version = {number}")

    @property
    def version(self) -> int:
        """The schema version of the open file."""
        with _guard("read"):
            return self.db.execute("PRAGMA user_version").fetchone()[0]

    @contextmanager
    def transaction(self) -> Iterator[Store]:
        """Group changes: all of them are kept, or none."""
        if self._depth:
            self._depth += 1
            try:
                yield self
            finally:
                self._depth -= 1
            return
        with _guard("written"):
            self.db.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield self
        except BaseException:
            self._depth = 0
            self._roll_back()
            raise
        self._depth = 0
        try:
            with _guard("written"):
                self.db.execute("COMMIT")
        except StoreError:
            self._roll_back()
            raise

    def _roll_back(self) -> None:
        try:
            self.db.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # SQLite has rolled back already

    def record(self, game: str, *, score: str, outcome: str,
               seed: int | None, detail: dict | None = None) -> None:
        """Record one finished game."""
        when = self.clock().isoformat(timespec="seconds")
        row = (game, when, str(score), str(outcome),
               None if seed is None else str(seed), _to_json(detail or {}),
               self.player)
        with self.transaction(), _guard("written"):
            self.db.execute(
                "INSERT INTO results (game, played_at, score, outcome, seed,"
                " detail, player) VALUES (?, ?, ?, ?, ?, ?, ?)", row)

    def results(self, game: str | None = None,
                player: str | None = None) -> list[Result]:
        """Finished games, oldest first; only `game`'s, `player`'s if given."""
        query = ("SELECT id, game, played_at, score, outcome, seed, detail,"
                 " player FROM results WHERE (:game IS NULL OR game = :game)"
                 " AND (:player IS NULL OR player = :player) ORDER BY id")
        with _guard("read"):
            rows = self.db.execute(query, {"game": game,
                                           "player": player}).fetchall()
        return self._read_results(rows)

    def result(self, number: int) -> Result | None:
        """The finished game recorded as `number`, or None if there is none."""
        with _guard("read"):
            rows = self.db.execute(
                "SELECT id, game, played_at, score, outcome, seed, detail, player"
                " FROM results WHERE id = ?", (number,)).fetchall()
        found = self._read_results(rows)
        return found[0] if found else None

    def _read_results(self, rows: list[tuple]) -> list[Result]:
        """Rows of the results table as Results, whatever is in them."""
        results, damaged = [], set()
        for number, name, when, score, outcome, seed, detail, whose in rows:
            readable_seed, readable_detail = _seed(seed), _detail(detail)
            if readable_detail is None or (seed is not None
                                           and readable_seed is None):
                damaged.add(("result", number))
            results.append(Result(_text(name), _text(when), _text(score),
                                  _text(outcome), readable_seed,
                                  readable_detail or {}, _text(whose), number))
        news = damaged - self._noticed
        if news:
            self._noticed |= news
            games = "1 game is" if len(news) == 1 else f"{len(news)} games are"
            self.notice(f"The store's record of {games} damaged; "
                        f"what cannot be read is left blank.")
        return results

    TALLIES = """
        SELECT t.game, t.played, t.won, t.lost, t.drawn, r.score
        FROM (SELECT game, count(*) AS played, sum(outcome = 'win') AS won,
                     sum(outcome = 'loss') AS lost, sum(outcome = 'draw') AS drawn,
                     max(id) AS last
              FROM results WHERE :player IS NULL OR player = :player
              GROUP BY game) AS t
        JOIN results AS r ON r.id = t.last ORDER BY t.last"""

    def scoreboard(self, player: str | None = None,
                   newest: int = 5) -> Scoreboard:
        """The tallies and the `newest` games: `player`'s, or everyone's."""
        chosen = {"player": player, "newest": newest}
        with _guard("read"):
            tallies = self.db.execute(self.TALLIES, chosen).fetchall()
            rows = self.db.execute(
                "SELECT id, game, played_at, score, outcome, seed, detail, player"
                " FROM results WHERE :player IS NULL OR player = :player"
                " ORDER BY id DESC LIMIT :newest", chosen).fetchall()
            players = self.db.execute(
                "SELECT count(DISTINCT player) FROM results WHERE :player IS NULL"
                " OR player = :player", chosen).fetchone()[0]
        return Scoreboard(tuple(Tally(_text(game), played, won, lost, drawn,
                                      _text(last))
                                for game, played, won, lost, drawn, last
                                in tallies),
                          tuple(self._read_results(rows)), players)

    def get(self, key: str, default: Any = None,
            valid: Callable[[Any], object] | None = None) -> Any:
        """The value stored under `key`, or `default` (also if it is damaged)."""
        text = self._stored(key)
        if text is None:
            return default
        ok, value = _judge(text, valid)
        if ok:
            return value
        try:
            with self.transaction():
                text = self._stored(key)
                if text is None:
                    return default
                ok, value = _judge(text, valid)
                if ok:
                    return value
                aside = self._set_value_aside(key)
            where = f"it is kept as {aside}"
        except StoreError as error:
            where = f"it could not be set aside: {error}"
        if (key, text) not in self._noticed:
            self._noticed.add((key, text))
            from retro.common import quoted

            self.notice(f"The store's {key} was damaged ({quoted(_text(text))}); "
                        f"{where}, and it is not used.")
        return default

    def _stored(self, key: str) -> Any:
        with _guard("read"):
            row = self.db.execute("SELECT value FROM state WHERE key = ?",
                                  (key,)).fetchone()
        return None if row is None else row[0]

    def _set_value_aside(self, key: str) -> str:
        """Move `key`'s value to the first free KEY.damaged-N; that key."""
        with _guard("written"):
            number = 1
            while self._stored(f"{key}.damaged-{number}") is not None:
                number += 1
            aside = f"{key}.damaged-{number}"
            self.db.execute("UPDATE state SET key = ? WHERE key = ?", (aside, key))
        return aside

    def put(self, key: str, value: Any) -> None:
        """Store `value` (any JSON value) under `key`, in one transaction."""
        text = _to_json(value)
        when = self.clock().isoformat(timespec="seconds")
        with self.transaction(), _guard("written"):
            self.db.execute(
                "INSERT INTO state (key, value, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value,"
                " updated_at = excluded.updated_at", (key, text, when))

    def delete(self, key: str) -> None:
        """Forget `key` (nothing happens if it was never stored)."""
        with self.transaction(), _guard("written"):
            self.db.execute("DELETE FROM state WHERE key = ?", (key,))

    def own(self, key: str) -> str:
        """The key of this player's own copy of `key`."""
        if self.player == self.console:
            return key  # as it was when the store had one player
        return f"{key}/{self.player}"

    def as_player(self, name: str) -> Store:
        """This store, as the player `name` sees it: the same file."""
        if not is_name(name):
            raise ValueError(f"not a player's name: {name!r}")
        view = copy.copy(self)
        view.player, view._noticed, view._depth = name.lower(), set(), 0
        return view

    async def run(self, work: Callable[..., Any], *args: Any,
                  **options: Any) -> Any:
        """`work(self, *args, **options)`, in the worker's thread if the store
        has one; here if not."""
        if self.worker is None:
            return work(self, *args, **options)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.worker, functools.partial(work, self, *args, **options))

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@contextmanager
def _guard(doing: str) -> Iterator[None]:
    """Turn SQLite's errors into a StoreError: the store cannot be `doing`."""
    try:
        yield
    except sqlite3.Error as error:
        raise StoreError(_trouble(error, doing)) from None


def _trouble(error: sqlite3.Error, doing: str = "written") -> str:
    name = getattr(error, "sqlite_errorname", None) or ""
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return "the store is busy: another program is writing to it"
    if name.startswith("SQLITE_READONLY"):
        return "the store is read-only"
    if name.startswith("SQLITE_FULL"):
        return "the store cannot be written: the disk is full"
    return f"the store cannot be {doing}: {_first_line(error)}"


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0][:100] if lines else type(error).__name__


def _unusable(path: Path, error: BaseException) -> str:
    """Why the store at `path` cannot be opened, in one line."""
    if isinstance(error, OSError):
        blocker = _file_in_the_way(path.parent)
        if blocker is None:
            return (f"cannot use the store {path} "
                    f"({error.strerror or _first_line(error)})")
        home = os.environ.get("RETRO_HOME")
        if home and Path(home).expanduser() == blocker:
            return f"RETRO_HOME {blocker} is a file, not a directory"
        return (f"cannot use the store {path} "
                f"({blocker} is a file, not a directory)")
    if isinstance(error, sqlite3.Error):
        return f"cannot use the store {path} ({_trouble(error, 'opened')})"
    return f"cannot use the store {path} ({_first_line(error)})"


def _file_in_the_way(directory: Path) -> Path | None:
    """The nearest existing path at or above `directory`, if it is not a
    directory."""
    for place in (directory, *directory.parents):
        if place.exists():
            return None if place.is_dir() else place
    return None


@contextmanager
def saving(tty, what: str) -> Iterator[None]:
    """Run a save; if the store fails, tell the player what was not saved."""
    try:
        yield
    except StoreError as error:
        tty.say(f"NOT SAVED: {what} ({error}).")


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


class _Corrupt(sqlite3.DatabaseError):
    sqlite_errorname = "SQLITE_CORRUPT"


def _damaged(error: sqlite3.DatabaseError) -> bool:
    return getattr(error, "sqlite_errorname", "") in (
        "SQLITE_NOTADB", "SQLITE_CORRUPT")


def _damage(error: sqlite3.DatabaseError) -> str:
    """How a damaged file is damaged, in words (not SQLite's page list)."""
    if error.sqlite_errorname == "SQLITE_NOTADB":
        return "not a database"
    return "damaged inside"


def _set_aside(path: Path) -> Path:
    number = 1
    while path.with_name(f"{path.name}.damaged-{number}").exists():
        number += 1
    aside = path.with_name(f"{path.name}.damaged-{number}")
    path.rename(aside)
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            companion.rename(aside.with_name(aside.name + suffix))
    return aside


def _private(path: Path) -> None:
    """Make `path` (and its log and index) its owner's alone."""
    try:
        os.close(os.open(path, os.O_RDONLY | os.O_CREAT, 0o600))
    except IsADirectoryError:
        return  # SQLite says what is wrong
    for each in (path, path.with_name(path.name + "-wal"),
                 path.with_name(path.name + "-shm")):
        try:
            if each.stat().st_mode & 0o077:
                each.chmod(0o600)
        except OSError:  # not there, or not ours: SQLite will say
            pass


def _warn(message: str) -> None:
    print(message, file=sys.stderr)
