# Tangled from literate/page.md: edit the chapter, not this file, then run `retro tangle`.
"""A game inside a page of the book, run by Pyodide in the reader's browser.

Tangled from literate/page.md, which explains it.
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import itertools
import sqlite3
import unicodedata
from collections.abc import Callable

from retro.common import new_seed, whole_number
from retro.games.contract import defaults
from retro.games.registry import game_called
from retro.rooms.reports import replay_command
from retro.rooms.room import install, play_game
from retro.services.store import CONSOLE, Store
from retro.services.teletype import (WIDTH, LineTeletype, Signal,
                                     paper_width)


class PaperTeletype(LineTeletype):
    """A line teletype whose paper is the page: whatever goes on the roll,
    the lines typed among it, is shown, each time the teletype sends."""

    def __init__(self, show: Callable[[str], object],
                 waiting: Callable[[], object] = lambda: None, **options):
        super().__init__(send=self.sent, **options)
        self.show, self.waiting = show, waiting
        self.shown = 0  # pieces of the roll already shown

    async def ask(self, prompt: str, choices=(), history: str = "game") -> str:
        self.waiting()
        return await super().ask(prompt, choices, history)

    def sent(self, _printed: str = "") -> None:
        """Show what went on the roll since the last time: the lines
        printed and, among them, the lines typed."""
        new = list(itertools.islice(self.roll, self.shown, None))
        self.shown = len(self.roll)
        if new:
            self.show("".join(new))


SEED = whole_number(0, 2 ** 63 - 1)  # what `retro play --seed` takes


def seed_asked(game: str, text: str | None) -> list:
    """The seed a page's address asks for (?seed=N), or a fresh one when
    it asks for none, as text, which JavaScript cannot round: [seed, None];
    or [None, the terminal's refusal] for a seed the terminal refuses."""
    if text is None:
        return [str(new_seed()), None]
    try:
        return [str(SEED(text)), None]
    except argparse.ArgumentTypeError as refused:
        return [None, f"retro play {game}: error: argument --seed: {refused}"]


class Shelf:
    """Where a page keeps the store between visits: `load()` returns the
    kept text or None, `keep(text)` keeps it and says whether it could."""

    def __init__(self, load: Callable[[], str | None],
                 keep: Callable[[str], bool]):
        self.load, self.keep = load, keep

    def open(self, notice: Callable[[str], None]) -> Store:
        """The kept store, in memory; a fresh one if none is kept."""
        connection = fresh_database()
        kept = self.load()
        if kept:
            try:
                connection.deserialize(as_in_memory(
                base64.b64decode(kept, validate=True)))
                if connection.execute("PRAGMA quick_check").fetchone()[0] \
                        != "ok":
                    raise sqlite3.DatabaseError("damaged inside")
            except (ValueError, sqlite3.DatabaseError):
                connection.close()
                connection = fresh_database()
                notice("The store kept in this browser was damaged; a fresh "
                       "one is started.")
        # the reader is the one player at this store, its console
        return Store(connection, notice=notice, console=CONSOLE)

    def save(self, store: Store) -> bool:
        """Keep the store's bytes; whether the browser took them."""
        return bool(self.keep(base64.b64encode(store.db.serialize())
                              .decode("ascii")))


def fresh_database() -> sqlite3.Connection:
    return sqlite3.connect(":memory:", isolation_level=None)


WAL = b"\x02\x02"  # bytes 18 and 19 of a database kept with a write-ahead log


def as_in_memory(data: bytes) -> bytes:
    """A database file's bytes as a database in memory can read them: a
    terminal's store is kept with a write-ahead log, which memory has not."""
    if data[:16] == b"SQLite format 3\0" and data[18:20] == WAL:
        return data[:18] + b"\x01\x01" + data[20:]
    return data


NOT_SAVED = ("NOT SAVED: this browser would not keep the store (its storage "
             "is full or switched off).")


class PageGame:
    """One game of a chapter, played in its page."""

    def __init__(self, name: str, show: Callable[[str], object],
                 shelf: Shelf, columns: int = WIDTH):
        self.game = game_called(name)
        self.show, self.shelf = show, shelf
        self.width = paper_width(columns)
        self.tty: PaperTeletype | None = None
        self.refused = False  # the browser would not keep this game's store
        self.replay: str | None = None  # the last game's, as SCORES has it

    def hear(self, line: str) -> None:
        """A line the reader typed (dropped if no game is being played)."""
        if self.tty is not None:
            self.tty.hear(visible(line))

    def interrupt(self) -> None:
        """Ctrl-C: the game in progress is abandoned."""
        if self.tty is not None:
            self.tty.hear(Signal.INTERRUPT)

    def not_kept(self) -> None:
        """The browser refused to keep the store: said once a game."""
        if self.tty is not None and not self.refused:
            self.refused = True
            self.tty.say(NOT_SAVED)
            self.tty.sent()

    def play(self, seed: str) -> asyncio.Task:
        """Begin one game with `seed`: the task that plays it to its end
        and says how it ended. The teletype is in place when this returns,
        so a line typed at once is heard."""
        tty = self.tty = PaperTeletype(self.show, width=self.width)
        self.refused, self.replay = False, None
        return asyncio.ensure_future(self._play(tty, int(seed)))

    async def _play(self, tty: PaperTeletype, seed: int) -> str:
        front_end = install(self.game).front_end
        store = self.shelf.open(tty.say)
        kept = store.db.total_changes

        def keep() -> None:
            nonlocal kept
            if store.db.total_changes == kept:
                return
            kept = store.db.total_changes
            if not self.shelf.save(store):
                self.not_kept()

        tty.waiting = keep
        before = last_number(store)
        try:
            return await play_game(self.game, front_end.play, tty, store,
                                   seed=seed,
                                   options=defaults(front_end))
        finally:
            recorded = [result for result in store.results(self.game.name)
                        if result.number > before]
            if recorded:
                self.replay = replay_command(recorded[0])
            keep()
            store.close()
            tty.sent()
            if self.tty is tty:
                self.tty = None


def last_number(store: Store) -> int:
    """The number of the last game the store recorded; 0 for none."""
    return max((result.number for result in store.results()), default=0)


def visible(line: str) -> str:
    """`line` without the invisible and direction-turning characters
    (Unicode's formats, category Cf)."""
    return "".join(char for char in line
                   if unicodedata.category(char) != "Cf")
