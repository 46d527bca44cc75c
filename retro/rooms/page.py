# Tangled from literate/page.md: edit the chapter, not this file, then run `retro tangle`.
"""A game inside a page of the book, run by Pyodide in the reader's browser.

Tangled from literate/page.md, which explains it.
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import sqlite3
from collections.abc import Callable

from retro.common import new_seed, whole_number
from retro.games.contract import defaults
from retro.games.registry import game_called
from retro.rooms.room import install, play_game
from retro.services.store import Store
from retro.services.teletype import LineTeletype, Signal


class PaperTeletype(LineTeletype):
    """A line teletype whose paper is the page: whatever goes on the roll,
    the lines typed among it, is shown as it goes on."""

    def __init__(self, show: Callable[[str], object],
                 waiting: Callable[[], object] = lambda: None, **options):
        super().__init__(send=show, **options)
        self.waiting = waiting

    async def ask(self, prompt: str, choices=(), history: str = "game") -> str:
        self.waiting()
        return await super().ask(prompt, choices, history)

    def _keep(self, text: str) -> None:
        super()._keep(text)
        self.send(text)

    def _print(self, text: str) -> None:
        pass  # shown already, as it went on the roll


SEED = whole_number(0, 2 ** 63 - 1)  # what `retro play --seed` takes


def seed_from(text: str | None) -> str:
    """The seed a page's address asks for (?seed=N), or a fresh one; as
    text, which JavaScript cannot round."""
    try:
        return str(SEED(text or ""))
    except argparse.ArgumentTypeError:
        return str(new_seed())


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
                connection.deserialize(base64.b64decode(kept, validate=True))
                if connection.execute("PRAGMA quick_check").fetchone()[0] \
                        != "ok":
                    raise sqlite3.DatabaseError("damaged inside")
            except (ValueError, sqlite3.DatabaseError):
                connection.close()
                connection = fresh_database()
                notice("The store kept in this browser was damaged; a fresh "
                       "one is started.")
        return Store(connection, notice=notice)

    def save(self, store: Store) -> bool:
        """Keep the store's bytes; whether the browser took them."""
        return bool(self.keep(base64.b64encode(store.db.serialize())
                              .decode("ascii")))


def fresh_database() -> sqlite3.Connection:
    return sqlite3.connect(":memory:", isolation_level=None)


class PageGame:
    """One game of a chapter, played in its page."""

    def __init__(self, name: str, show: Callable[[str], object],
                 shelf: Shelf):
        self.game = game_called(name)
        self.show, self.shelf = show, shelf
        self.tty: PaperTeletype | None = None

    def hear(self, line: str) -> None:
        """A line the reader typed (dropped if no game is being played)."""
        if self.tty is not None:
            self.tty.hear(line)

    def interrupt(self) -> None:
        """Ctrl-C: the game in progress is abandoned."""
        if self.tty is not None:
            self.tty.hear(Signal.INTERRUPT)

    def play(self, seed: str) -> asyncio.Task:
        """Begin one game with `seed`: the task that plays it to its end
        and says how it ended. The teletype is in place when this returns,
        so a line typed at once is heard."""
        tty = self.tty = PaperTeletype(self.show)
        return asyncio.ensure_future(self._play(tty, int(seed)))

    async def _play(self, tty: PaperTeletype, seed: int) -> str:
        front_end = install(self.game).front_end
        store = self.shelf.open(tty.say)
        kept, refused = store.db.total_changes, False

        def keep() -> None:
            nonlocal kept, refused
            if store.db.total_changes == kept:
                return
            kept = store.db.total_changes
            if not self.shelf.save(store) and not refused:
                refused = True
                tty.say("NOT SAVED: this browser would not keep the store "
                        "(its storage is full or switched off).")

        tty.waiting = keep
        try:
            return await play_game(self.game, front_end.play, tty, store,
                                   seed=seed,
                                   options=defaults(front_end))
        finally:
            keep()
            store.close()
            if self.tty is tty:
                self.tty = None
