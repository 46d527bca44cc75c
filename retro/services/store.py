# Tangled from literate/store.md: edit the chapter, not this file, then run `retro tangle`.
"""The store: scores and the games' lasting state, in SQLite or PostgreSQL.

Tangled from literate/store.md, which explains it.
"""
from __future__ import annotations

import copy
import functools
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Executor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from retro.services.door import Door
from retro.services.embedded import (SQLite, _Corrupt, _damage, _damaged,
                                     _private, _set_aside, _unusable, _warn,
                                     write_ahead)
from retro.services.stored import (BUSY_TIMEOUT, CONSOLE, FILENAME,
                                   MIGRATIONS, NAME, SCHEMA_VERSION, Result,
                                   Scoreboard, StoreError, Tally, _detail,
                                   _judge, _portable, _seed, _text, _to_json,
                                   console_player, data_dir, is_name, is_url,
                                   saving)

__all__ = ["BUSY_TIMEOUT", "CONSOLE", "FILENAME", "MIGRATIONS", "NAME",
           "SCHEMA_VERSION", "Result", "Scoreboard", "Store", "StoreError",
           "Tally", "console_player", "data_dir", "is_name", "is_url",
           "saving"]


class Store(Door):
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
            write_ahead(connection, timeout)
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
                                 OR player IN (:player, :alias)
              GROUP BY game) AS t
        JOIN results AS r ON r.id = t.last ORDER BY t.last"""

    def scoreboard(self, player: str | None = None,
                   newest: int = 5) -> Scoreboard:
        """The tallies and the `newest` games: `player`'s (the console's with
        `you`'s), or everyone's."""
        console = player is not None and player == self.console
        chosen = {"player": player, "alias": CONSOLE if console else player,
                  "newest": newest}
        with self._guard("read"):
            tallies = self._sql(self.TALLIES, chosen).fetchall()
            rows = self._sql(
                "SELECT id, game, played_at, score, outcome, seed, detail, player"
                " FROM results WHERE CAST(:player AS TEXT) IS NULL"
                " OR player IN (:player, :alias) ORDER BY id DESC LIMIT :newest",
                chosen).fetchall()
            players = self._sql(
                "SELECT count(DISTINCT player) FROM results WHERE"
                " CAST(:player AS TEXT) IS NULL OR player IN (:player, :alias)",
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
