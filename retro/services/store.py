# Tangled from literate/store.md: edit the chapter, not this file, then run `retro tangle`.
"""The store: scores and the games' lasting state, in SQLite or PostgreSQL.

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
import threading
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


class Store:
    """Scores and lasting game state in one database."""

    def __init__(self, connection: Any,
                 path: Path | None = None,
                 clock: Callable[[], datetime] | None = None,
                 notice: Callable[[str], None] | None = None,
                 player: str | None = None,
                 worker: Executor | None = None,
                 console: str | None = None):
        self.engine = (SQLite(connection)
                       if isinstance(connection, sqlite3.Connection)
                       else connection)
        self.path = path
        self.worker = worker
        self.console = None if console is None else console.lower()
        self.player = (player or self.console or CONSOLE).lower()
        for name in (self.player, self.console or CONSOLE):
            if not is_name(name):
                raise ValueError(f"not a player's name: {name!r}")
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.notice: Callable[[str], None] = notice or _warn
        self._noticed: set = set()  # damage already told, told only once
        self._depth, self._serial = 0, False
        self._thread = threading.current_thread()
        self._migrate()

    @property
    def db(self) -> Any:
        """The engine's connection (sqlite3's or psycopg's)."""
        return self.engine.connection

    def _sql(self, query: str, parameters: Any = ()) -> Any:
        """Send one statement, from the store's own thread only."""
        self._here()
        return self.engine.execute(query, parameters)

    def _here(self) -> None:
        """Refuse to go on outside the store's own thread."""
        here = threading.current_thread()
        if here is not self._thread:
            raise RuntimeError(f"the store belongs to the thread "
                               f"{self._thread.name!r}, not {here.name!r}: "
                               f"its work goes through store.run")

    @classmethod
    def memory(cls, **options) -> Store:
        """A store in memory: nothing is written to disk. It is one session's,
        so its player is its console player unless it is told otherwise."""
        options.setdefault("console", options.get("player") or CONSOLE)
        return cls(sqlite3.connect(":memory:", isolation_level=None,
                                   check_same_thread=False), **options)

    @classmethod
    def open(cls, where: str | Path | None = None, *,
             warn: Callable[[str], None] | None = None,
             timeout: float = BUSY_TIMEOUT, fallback: bool = True,
             **options) -> Store:
        """The store at `where`, a SQLite file (data_dir()'s unless given) or a
        postgresql:// URL; if it cannot be used, a warning and a store in memory,
        or with `fallback=False` a StoreError that says why, in one line."""
        opening = functools.partial(cls._open_here, where, warn or _warn,
                                    timeout, fallback, **options)
        worker = options.get("worker")
        return opening() if worker is None else worker.submit(opening).result()

    @classmethod
    def _open_here(cls, where: str | Path | None, warn: Callable[[str], None],
                   timeout: float, fallback: bool, **options) -> Store:
        try:
            if is_url(where):
                from retro.services.postgres import Unreachable, reach

                try:
                    return cls(reach(str(where), timeout), **options)
                except Unreachable as error:
                    raise StoreError(str(error)) from None
            path = Path(where) if where is not None else data_dir() / FILENAME
            return cls._open_file(path, timeout, warn, **options)
        except (sqlite3.Error, OSError, StoreError) as error:
            reason = (str(error) if is_url(where)
                      else _unusable(path, error))
            if not fallback:
                raise StoreError(reason) from None
            warn(f"retro: {reason}; nothing will be kept after this session")
            return cls.memory(**options)

    @classmethod
    def _open_file(cls, path: Path, timeout: float,
                   warn: Callable[[str], None], **options) -> Store:
        try:
            return cls._connect(path, timeout, **options)
        except sqlite3.DatabaseError as error:
            if not _damaged(error):
                raise
            aside = _set_aside(path)
            warn(f"retro: the store {path} was damaged ({_damage(error)}); "
                 f"it is kept as {aside.name} and a fresh store is started")
            return cls._connect(path, timeout, **options)

    @classmethod
    def _connect(cls, path: Path, timeout: float, **options) -> Store:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        _private(path)
        connection = sqlite3.connect(path, timeout=timeout, isolation_level=None,
                                     check_same_thread=False)  # the store checks
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
        if len(self.engine.migrations) != SCHEMA_VERSION:
            raise StoreError("this Retro's engines disagree on the schema")
        if self.version == SCHEMA_VERSION:
            return
        with self.transaction():
            version = self.version  # again: another room may have done it
            if version > SCHEMA_VERSION:
                raise StoreError(f"it has schema version {version}, newer than "
                                 f"this Retro's {SCHEMA_VERSION}")
            owner = {"owner": self.console or CONSOLE}
            for number in range(version + 1, SCHEMA_VERSION + 1):
                for statement in self.engine.migrations[number - 1]:
                    self._sql(statement, owner if ":owner" in statement else ())
                with self._guard("written"):
                    self.engine.set_version(number)

    @property
    def version(self) -> int:
        """The schema version of the open database."""
        self._here()
        with self._guard("read"):
            return self.engine.version()

    @contextmanager
    def transaction(self, serial: bool = True) -> Iterator[Store]:
        """Group changes: all of them are kept, or none. `serial`: no other
        serial transaction on the database runs beside this one."""
        self._here()
        if self._depth:
            if serial and not self._serial:
                with self._guard("written"):
                    self.engine.serialize()
                self._serial = True
            self._depth += 1
            try:
                yield self
            finally:
                self._depth -= 1
            return
        with self._guard("written"):
            self.engine.begin(serial)
        self._depth, self._serial = 1, serial
        try:
            yield self
        except BaseException:
            self._depth = 0
            self._roll_back()
            raise
        self._depth = 0
        try:
            with self._guard("written"):
                self.engine.commit()
        except StoreError:
            self._roll_back()
            raise

    def _roll_back(self) -> None:
        try:
            self.engine.rollback()
        except self.engine.errors:
            pass  # the database has rolled back already

    def record(self, game: str, *, score: str, outcome: str,
               seed: int | None, detail: dict | None = None) -> None:
        """Record one finished game."""
        when = self.clock().isoformat(timespec="seconds")
        row = (game, when, str(score), str(outcome),
               None if seed is None else str(seed), _to_json(detail or {}),
               self.player)
        with self.transaction(serial=False), self._guard("written"):
            self._sql(
                "INSERT INTO results (game, played_at, score, outcome, seed,"
                " detail, player) VALUES (?, ?, ?, ?, ?, ?, ?)", row)

    def results(self, game: str | None = None,
                player: str | None = None) -> list[Result]:
        """Finished games, oldest first; only `game`'s, `player`'s if given."""
        query = ("SELECT id, game, played_at, score, outcome, seed, detail,"
                 " player FROM results WHERE (CAST(:game AS TEXT) IS NULL"
                 " OR game = :game) AND (CAST(:player AS TEXT) IS NULL"
                 " OR player = :player) ORDER BY id")
        with self._guard("read"):
            rows = self._sql(query, {"game": game,
                                           "player": player}).fetchall()
        return self._read_results(rows)

    def result(self, number: int) -> Result | None:
        """The finished game recorded as `number`, or None if there is none."""
        with self._guard("read"):
            rows = self._sql(
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
        FROM (SELECT game, count(*) AS played,
                     sum(CASE WHEN outcome = 'win' THEN 1 ELSE 0 END) AS won,
                     sum(CASE WHEN outcome = 'loss' THEN 1 ELSE 0 END) AS lost,
                     sum(CASE WHEN outcome = 'draw' THEN 1 ELSE 0 END) AS drawn,
                     max(id) AS last
              FROM results WHERE CAST(:player AS TEXT) IS NULL
                                 OR player = :player
              GROUP BY game) AS t
        JOIN results AS r ON r.id = t.last ORDER BY t.last"""

    def scoreboard(self, player: str | None = None,
                   newest: int = 5) -> Scoreboard:
        """The tallies and the `newest` games: `player`'s, or everyone's."""
        chosen = {"player": player, "newest": newest}
        with self._guard("read"):
            tallies = self._sql(self.TALLIES, chosen).fetchall()
            rows = self._sql(
                "SELECT id, game, played_at, score, outcome, seed, detail, player"
                " FROM results WHERE CAST(:player AS TEXT) IS NULL"
                " OR player = :player ORDER BY id DESC LIMIT :newest",
                chosen).fetchall()
            players = self._sql(
                "SELECT count(DISTINCT player) FROM results WHERE"
                " CAST(:player AS TEXT) IS NULL OR player = :player",
                chosen).fetchone()[0]
        return Scoreboard(tuple(Tally(_text(game), int(played), int(won),
                                      int(lost), int(drawn), _text(last))
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
        with self._guard("read"):
            row = self._sql("SELECT value FROM state WHERE key = ?",
                                  (key,)).fetchone()
        return None if row is None else row[0]

    def _set_value_aside(self, key: str) -> str:
        """Move `key`'s value to the first free KEY.damaged-N; that key."""
        with self._guard("written"):
            number = 1
            while self._stored(f"{key}.damaged-{number}") is not None:
                number += 1
            aside = f"{key}.damaged-{number}"
            self._sql("UPDATE state SET key = ? WHERE key = ?", (aside, key))
        return aside

    def put(self, key: str, value: Any) -> None:
        """Store `value` (any JSON value) under `key`, in one transaction."""
        text = _to_json(value)
        when = self.clock().isoformat(timespec="seconds")
        with self.transaction(serial=False), self._guard("written"):
            self._sql(
                "INSERT INTO state (key, value, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value,"
                " updated_at = excluded.updated_at", (key, text, when))

    def delete(self, key: str) -> None:
        """Forget `key` (nothing happens if it was never stored)."""
        with self.transaction(serial=False), self._guard("written"):
            self._sql("DELETE FROM state WHERE key = ?", (key,))

    def own(self, key: str) -> str:
        """The key of this player's own copy of `key`."""
        if self.console is not None and self.player == self.console:
            return key  # as it was when the store had one player
        return f"{key}/{self.player}"

    def as_player(self, name: str) -> Store:
        """This store, as the player `name` sees it: the same file."""
        if not is_name(name):
            raise ValueError(f"not a player's name: {name!r}")
        view = copy.copy(self)
        view.player, view._noticed = name.lower(), set()
        view._depth, view._serial = 0, False
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

    def adjust(self, key: str, path: tuple[str, ...], by: int) -> int | None:
        """Add `by` to the whole number at `path` in `key`'s value, atomically,
        unless it would fall below zero: the number after, or None."""
        return self._in_place(self.engine.ADJUST, key, path, by=by)

    def append(self, key: str, path: tuple[str, ...], text: str) -> int | None:
        """Add `text` to the string at `path` in `key`'s value, atomically: its
        length after, or None if there is no string there."""
        return self._in_place(self.engine.APPEND, key, path, text=text)

    def _in_place(self, statement: str, key: str, path: tuple[str, ...],
                  **change: Any) -> int | None:
        when = self.clock().isoformat(timespec="seconds")
        with self.transaction(serial=False), self._guard("written"):
            row = self._sql(statement, {"key": key, "when": when,
                                        "path": self.engine.path(path),
                                        **change}).fetchone()
        return None if row is None else int(row[0])

    def put_new(self, key: str, value: Any) -> bool:
        """Store `value` under `key` if nothing is there: whether it was."""
        text = _to_json(value)
        when = self.clock().isoformat(timespec="seconds")
        with self.transaction(serial=False), self._guard("written"):
            return self._sql(
                "INSERT INTO state (key, value, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO NOTHING", (key, text, when)).rowcount == 1

    RESULT_COLUMNS = "id, game, played_at, score, outcome, seed, detail, player"

    def every_record(self) -> tuple[list[tuple], list[tuple]]:
        """Every row of results and of state, as stored."""
        with self._guard("read"):
            results = self._sql(f"SELECT {self.RESULT_COLUMNS} FROM results"
                                " ORDER BY id").fetchall()
            state = self._sql("SELECT key, value, updated_at FROM state"
                              " ORDER BY key").fetchall()
        return ([(number, *map(_portable, rest)) for number, *rest in results],
                [tuple(map(_portable, row)) for row in state])

    def take_in(self, results: list[tuple], state: list[tuple]) -> None:
        """Add rows from `every_record`, numbers and all, in one transaction."""
        with self.transaction(), self._guard("written"):
            self._here()
            self.engine.execute_many(f"INSERT INTO results ({self.RESULT_COLUMNS})"
                                     " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", results)
            self.engine.execute_many("INSERT INTO state (key, value, updated_at)"
                                     " VALUES (?, ?, ?)", state)
            self.engine.count_on()

    def counts(self) -> tuple[int, int]:
        """How many results, and how many values, the store holds."""
        with self._guard("read"):
            return (self._sql("SELECT count(*) FROM results").fetchone()[0],
                    self._sql("SELECT count(*) FROM state").fetchone()[0])

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """Turn the database's errors into a StoreError: the store cannot be
        `doing`."""
        try:
            yield
        except self.engine.errors as error:
            raise StoreError(self.engine.trouble(error, doing)) from None

    def close(self) -> None:
        """Close the connection, in its own thread (or after that has ended)."""
        if threading.current_thread() is self._thread \
                or not self._thread.is_alive():
            self.engine.close()
        elif self.worker is not None:
            self.worker.submit(self.engine.close).result()
        else:
            self._here()  # says whose it is

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class SQLite:
    """The embedded engine: a SQLite file, or memory."""

    errors: tuple[type[BaseException], ...] = (sqlite3.Error,)
    migrations = MIGRATIONS

    def __init__(self, connection: sqlite3.Connection):
        self.connection = connection

    def execute(self, query: str, parameters: Any = ()) -> Any:
        return self.connection.execute(query, parameters)

    def execute_many(self, query: str, rows: list) -> None:
        self.connection.executemany(query, rows)

    def begin(self, serial: bool) -> None:
        self.connection.execute("BEGIN IMMEDIATE")  # SQLite's are all serial

    def serialize(self) -> None:
        pass  # the transaction was serial from its beginning

    def commit(self) -> None:
        self.connection.execute("COMMIT")

    def rollback(self) -> None:
        self.connection.execute("ROLLBACK")

    def version(self) -> int:
        return self.connection.execute("PRAGMA user_version").fetchone()[0]

    def set_version(self, number: int) -> None:
        self.connection.execute(f"PRAGMA user_version = {int(number)}")

    def trouble(self, error: BaseException, doing: str) -> str:
        return _trouble(error, doing)

    def count_on(self) -> None:
        pass  # a new result is numbered one past the highest already

    def close(self) -> None:
        self.connection.close()

    ADJUST = """
        UPDATE state SET updated_at = :when,
            value = json_set(value, :path, json_extract(value, :path) + :by)
        WHERE key = :key AND json_type(value, :path) = 'integer'
          AND json_extract(value, :path) + :by >= 0
        RETURNING json_extract(value, :path)"""
    APPEND = """
        UPDATE state SET updated_at = :when,
            value = json_set(value, :path, json_extract(value, :path) || :text)
        WHERE key = :key AND json_type(value, :path) = 'text'
        RETURNING length(json_extract(value, :path))"""

    @staticmethod
    def path(keys: tuple[str, ...]) -> str:
        if any('"' in key for key in keys):
            raise ValueError(f"a key in a path has a quote in it: {keys!r}")
        return "$" + "".join(f'."{key}"' for key in keys)


def _trouble(error: BaseException, doing: str = "written") -> str:
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
