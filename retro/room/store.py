# Tangled from literate/store.md: edit the chapter, not this file, then run `retro tangle`.
"""The store: scores and the games' lasting state, in SQLite.

Tangled from literate/store.md, which explains it.
"""
from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

FILENAME = "retro.sqlite3"


def data_dir() -> Path:
    """The directory for Retro's lasting files: RETRO_HOME, or platformdirs'."""
    home = os.environ.get("RETRO_HOME")
    if home:
        return Path(home).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("retro", appauthor=False))


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

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)


class Store:
    """Scores and lasting game state in one SQLite database."""

    def __init__(self, connection: sqlite3.Connection,
                 path: Path | None = None,
                 clock: Callable[[], datetime] | None = None):
        self.db = connection
        self.path = path
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self._depth = 0
        self._migrate()

    @classmethod
    def memory(cls, **options) -> Store:
        """A store in memory: nothing is written to disk."""
        return cls(sqlite3.connect(":memory:", isolation_level=None), **options)

    @classmethod
    def open(cls, path: str | Path | None = None, *,
             warn: Callable[[str], None] | None = None, **options) -> Store:
        """The store on disk (in data_dir() unless `path` is given)."""
        path = Path(path) if path is not None else data_dir() / FILENAME
        warn = warn or _warn
        try:
            try:
                return cls._connect(path, **options)
            except sqlite3.DatabaseError as error:
                if not _damaged(error):
                    raise
                aside = _set_aside(path)
                warn(f"retro: the store {path} was damaged ({error}); it is kept "
                     f"as {aside.name} and a fresh store is started")
                return cls._connect(path, **options)
        except (sqlite3.Error, OSError, StoreError) as error:
            warn(f"retro: cannot use the store {path} ({error}); "
                 f"nothing will be kept after this session")
            return cls.memory(**options)

    @classmethod
    def _connect(cls, path: Path, **options) -> Store:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(path, timeout=10.0, isolation_level=None)
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
        with self.transaction():
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"it has schema version {version}, newer than "
                                 f"this Retro's {SCHEMA_VERSION}")
            for number in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[number - 1]:
                    self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {number}")

    @property
    def version(self) -> int:
        """The schema version of the open file."""
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
        self.db.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield self
        except BaseException:
            self._depth = 0
            self.db.execute("ROLLBACK")
            raise
        self._depth = 0
        self.db.execute("COMMIT")

    def record(self, game: str, *, score: str, outcome: str,
               seed: int | None, detail: dict | None = None) -> None:
        """Record one finished game."""
        when = self.clock().isoformat(timespec="seconds")
        with self.transaction():
            self.db.execute(
                "INSERT INTO results (game, played_at, score, outcome, seed, detail)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game, when, str(score), str(outcome),
                 None if seed is None else str(seed),
                 json.dumps(detail or {}, sort_keys=True)))

    def results(self, game: str | None = None) -> list[Result]:
        """Finished games, oldest first; only `game`'s if it is given."""
        query = "SELECT game, played_at, score, outcome, seed, detail FROM results"
        rows = (self.db.execute(query + " WHERE game = ? ORDER BY id", (game,))
                if game is not None else
                self.db.execute(query + " ORDER BY id"))
        return [Result(name, when, score, outcome,
                       None if seed is None else int(seed), json.loads(detail))
                for name, when, score, outcome, seed, detail in rows]

    def get(self, key: str, default: Any = None) -> Any:
        """The value stored under `key`, or `default`."""
        row = self.db.execute("SELECT value FROM state WHERE key = ?",
                              (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def put(self, key: str, value: Any) -> None:
        """Store `value` (any JSON value) under `key`, in one transaction."""
        text = json.dumps(value, sort_keys=True)
        when = self.clock().isoformat(timespec="seconds")
        with self.transaction():
            self.db.execute(
                "INSERT INTO state (key, value, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value,"
                " updated_at = excluded.updated_at", (key, text, when))

    def delete(self, key: str) -> None:
        """Forget `key` (nothing happens if it was never stored)."""
        with self.transaction():
            self.db.execute("DELETE FROM state WHERE key = ?", (key,))

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _Corrupt(sqlite3.DatabaseError):
    sqlite_errorname = "SQLITE_CORRUPT"


def _damaged(error: sqlite3.DatabaseError) -> bool:
    return getattr(error, "sqlite_errorname", "") in (
        "SQLITE_NOTADB", "SQLITE_CORRUPT")


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


def _warn(message: str) -> None:
    print(message, file=sys.stderr)
