# Tangled from literate/store.md: edit the chapter, not this file, then run `retro tangle`.
"""The door to the store's one connection, for its one thread.

Tangled from literate/store.md, which explains it.
"""
from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any, Self

from retro.services.stored import StoreError


class Door:
    """One connection, reached from one thread: statements, transactions,
    the engine's errors in one line, and closing."""

    engine: Any  # SQLite's (embedded.py) or PostgreSQL's
    worker: Executor | None  # the one thread's, if the store has a worker
    _thread: threading.Thread  # the thread the connection belongs to
    _depth: int  # how many transactions deep the store is
    _serial: bool  # whether the transaction it is in is serial

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

    @contextmanager
    def transaction(self, serial: bool = True) -> Iterator[Self]:
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

    async def run(self, work: Callable[..., Any], *args: Any,
                  **options: Any) -> Any:
        """`work(self, *args, **options)`, in the worker's thread if the store
        has one; here if not."""
        if self.worker is None:
            return work(self, *args, **options)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.worker, functools.partial(work, self, *args, **options))

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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
