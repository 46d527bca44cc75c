# Tangled from literate/roster.md: edit the chapter, not this file, then run `retro tangle`.
"""The roster: a room's servers, who is on line on each, and messages
between them.

Tangled from literate/roster.md, which explains it.
"""
from __future__ import annotations

import asyncio
import json
import os
import socket
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

from retro.services.postgres import shown


EVERY = 5.0  # seconds between heartbeats
PATIENCE = 20.0  # seconds without a heartbeat before a server counts as dead
CHANNEL = "retro_roster"


def this_server() -> str:
    """A name for this server that no other living one has."""
    return f"{socket.gethostname()}:{os.getpid()}"


def open_roster(where: object, server: str | None = None, *,
                heard: Callable[[dict], object] = lambda message: None,
                close: Callable[[str], object] = lambda name: None,
                **options: Any) -> LocalRoster | PostgresRoster:
    """The roster for the store at `where`: shared through PostgreSQL for
    a postgresql:// URL, kept in this process for anything else."""
    name = server or this_server()
    if isinstance(where, str) and where.startswith(("postgresql://",
                                                    "postgres://")):
        return PostgresRoster(where, name, heard, close, **options)
    return LocalRoster(name, heard, close)


class LocalRoster:
    """The roster of a room with one server: kept in this process."""

    def __init__(self, server: str, heard: Callable[[dict], object],
                 close: Callable[[str], object]):
        self.server, self.heard, self.close = server, heard, close
        self.on_line: dict[str, str] = {}

    async def start(self) -> None:
        pass

    async def claim(self, name: str) -> str | None:
        before = self.on_line.get(name)
        self.on_line[name] = self.server
        return before

    async def leave(self, name: str) -> None:
        self.on_line.pop(name, None)

    async def who(self) -> dict[str, str]:
        return dict(self.on_line)

    async def tell(self, message: dict) -> None:
        self.heard(json.loads(json.dumps(message)))  # as a copy would come

    async def beat(self) -> None:
        pass

    async def stop(self) -> None:
        self.on_line.clear()


class PostgresRoster:
    """The roster of a room whose servers share one PostgreSQL database."""

    TABLES = (
        """CREATE TABLE IF NOT EXISTS roster_servers (
               server TEXT PRIMARY KEY,
               seen TIMESTAMPTZ NOT NULL)""",
        """CREATE TABLE IF NOT EXISTS roster (
               name TEXT PRIMARY KEY,
               server TEXT NOT NULL,
               since TIMESTAMPTZ NOT NULL)""",
    )

    def __init__(self, url: str, server: str,
                 heard: Callable[[dict], object],
                 close: Callable[[str], object], *,
                 clock: Callable[[], datetime] | None = None,
                 every: float = EVERY, patience: float = PATIENCE):
        self.url, self.server = url, server
        self.heard, self.close = heard, close
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.every, self.patience = every, patience
        self.mine: set[str] = set()  # the names on line here
        self.talk: Any = None  # the connection for statements
        self.ear: Any = None  # the connection that listens
        self.tasks: list[asyncio.Task] = []
        self.reconnected = asyncio.Event()  # set each time it connects again

    async def start(self) -> None:
        await self._connect()
        async with self.talk.transaction():
            await self.talk.execute("SELECT pg_advisory_xact_lock(%s)",
                                    (0x52455452,))
            for table in self.TABLES:
                await self.talk.execute(table)
        await self.talk.execute("DELETE FROM roster WHERE server = %s",
                                (self.server,))  # a restart's leftovers
        await self.beat()
        self.tasks = [asyncio.create_task(self._beating()),
                      asyncio.create_task(self._listening())]

    async def _connect(self) -> None:
        import psycopg

        self.talk = await psycopg.AsyncConnection.connect(self.url,
                                                          autocommit=True)
        self.ear = await psycopg.AsyncConnection.connect(self.url,
                                                         autocommit=True)
        await self.ear.execute(f"LISTEN {CHANNEL}")

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        try:
            await self.talk.execute("DELETE FROM roster WHERE server = %s",
                                    (self.server,))
            await self.talk.execute("DELETE FROM roster_servers WHERE server"
                                    " = %s", (self.server,))
        finally:
            await self.talk.close()
            await self.ear.close()

    async def beat(self) -> None:
        """Say this server is alive; forget the servers that are not."""
        now = self.clock()
        await self.talk.execute(
            "INSERT INTO roster_servers (server, seen) VALUES (%s, %s)"
            " ON CONFLICT (server) DO UPDATE SET seen = excluded.seen",
            (self.server, now))
        dead = now - timedelta(seconds=self.patience)
        await self.talk.execute(
            "DELETE FROM roster WHERE server IN (SELECT server FROM"
            " roster_servers WHERE seen < %s)", (dead,))
        await self.talk.execute("DELETE FROM roster_servers WHERE seen < %s",
                                (dead,))

    async def _beating(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.beat()
            except Exception:  # noqa: BLE001 - the listener reconnects
                pass

    NEW = """
        INSERT INTO roster (name, server, since)
        VALUES (%(name)s, %(server)s, %(now)s)
        ON CONFLICT (name) DO NOTHING RETURNING name"""
    TAKE = """
        UPDATE roster SET server = %(server)s, since = %(now)s
        FROM (SELECT server FROM roster WHERE name = %(name)s FOR UPDATE)
             AS before
        WHERE roster.name = %(name)s RETURNING before.server"""

    async def claim(self, name: str) -> str | None:
        """`name` is on line here now: the server that held it, told to close
        it if it is another; None if nobody held it."""
        mark = {"name": name, "server": self.server, "now": self.clock()}
        while True:
            cursor = await self.talk.execute(self.NEW, mark)
            if await cursor.fetchone() is not None:
                before = None
                break
            cursor = await self.talk.execute(self.TAKE, mark)
            row = await cursor.fetchone()
            if row is not None:  # (None if its holder left just now: again)
                before = row[0]
                break
        self.mine.add(name)
        if before is not None and before != self.server:
            await self._notify({"close": name, "server": before})
        return before

    async def leave(self, name: str) -> None:
        self.mine.discard(name)
        await self.talk.execute("DELETE FROM roster WHERE name = %s AND"
                                " server = %s", (name, self.server))

    async def who(self) -> dict[str, str]:
        """Everyone on line on a live server: name, and server."""
        alive = self.clock() - timedelta(seconds=self.patience)
        cursor = await self.talk.execute(
            "SELECT name, roster.server FROM roster JOIN roster_servers"
            " USING (server) WHERE seen >= %s ORDER BY name", (alive,))
        return dict(await cursor.fetchall())

    async def tell(self, message: dict) -> None:
        """`message` to every server of the room, this one too."""
        await self._notify({"from": self.server, "message": message})

    async def _notify(self, payload: dict) -> None:
        await self.talk.execute("SELECT pg_notify(%s, %s)",
                                (CHANNEL, json.dumps(payload)))

    async def _listening(self) -> None:
        wait = 0.25
        while True:
            try:
                async for notice in self.ear.notifies():
                    self._hear(json.loads(notice.payload))
                    wait = 0.25
            except Exception:  # noqa: BLE001 - the database went away
                await asyncio.sleep(wait)
                wait = min(5.0, wait * 2)
                await self._again()

    def _hear(self, payload: dict) -> None:
        if "close" in payload:
            if payload.get("server") == self.server:
                self.mine.discard(payload["close"])
                self.close(payload["close"])
        elif "message" in payload:
            self.heard(payload["message"])

    async def _again(self) -> None:
        """Connect again after the database went away, and claim our names."""
        try:
            for connection in (self.talk, self.ear):
                await connection.close()
            await self._connect()
            await self.beat()
            for name in sorted(self.mine):
                await self.talk.execute(
                    "INSERT INTO roster (name, server, since) VALUES (%s, %s, %s)"
                    " ON CONFLICT (name) DO NOTHING",
                    (name, self.server, self.clock()))
            self.reconnected.set()
        except Exception:  # noqa: BLE001 - tried again after the next wait
            pass

    def __repr__(self) -> str:
        return f"PostgresRoster({shown(self.url)!r}, {self.server!r})"
