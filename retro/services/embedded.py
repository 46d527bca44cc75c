# Tangled from literate/store.md: edit the chapter, not this file, then run `retro tangle`.
"""The embedded engine: a SQLite file, or memory, for the store.

Tangled from literate/store.md, which explains it.
"""
from __future__ import annotations

import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from retro.services.stored import MIGRATIONS


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


def write_ahead(connection: sqlite3.Connection, timeout: float) -> None:
    """PRAGMA journal_mode=WAL, waiting up to `timeout` for the file."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            busy = getattr(error, "sqlite_errorname", "").startswith(
                ("SQLITE_BUSY", "SQLITE_LOCKED"))
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


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
