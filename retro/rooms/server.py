# Tangled from literate/serve.md: edit the chapter, not this file, then run `retro tangle`.
"""The server: who is on line, the doors, and going down.

Tangled from literate/serve.md, which explains it.
"""
from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from retro.common import plural
from retro.rooms.connection import Connection
from retro.rooms.limits import Chronicle, Limits
from retro.rooms.login import GREETING, Admission, Goodbye
from retro.rooms.session import Session
from retro.rooms.waiting import Ticket, Waiting
from retro.services.accounts import (LONGEST, account, claim, hashed,
                                     matches, tried)
from retro.services.guard import Guard, Refused
from retro.services.roster import open_roster
from retro.services.store import Store, StoreError, is_name
from retro.services.teletype import Signal, clean
from retro.wires.lines import Caller


class Server:
    """The players on line, the doors, the limits, and going down."""

    def __init__(self, where: Path | str, limits: Limits = Limits(),
                 log: Callable[[str], None] | None = None,
                 operator: str | None = None, name: str | None = None):
        self.where, self.limits, self.operator = where, limits, operator
        self.log = log or (lambda message: print(
            f"retro serve: {message}", file=sys.stderr, flush=True))
        self.loop = asyncio.get_running_loop()
        self.loop.set_default_executor(ThreadPoolExecutor(2))
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="retro store")
        self.store = Store.open(where, warn=self.log, worker=self.worker,
                                fallback=False)
        self.roster = open_roster(where, name, heard=self.heard,
                                  close=self.closed_elsewhere)
        self.guard = Guard(limits.guarding)
        self.chronicle = Chronicle(self.log)
        self.waiting = Waiting(limits)
        self.connections: set[Connection] = set()
        self.players: dict[str, Session] = {}
        self.reserved: set[str] = set()  # being claimed, or a guest's
        self.stopping = False
        self.empty = asyncio.Event()
        self.minute = self.loop.call_later(limits.summary, self.each_minute)

    async def start(self) -> None:
        """Join the room's other servers, if it has any."""
        await self.roster.start()

    def connect(self, **wire) -> Connection:
        """A new line for a wire: what the wires call for each connection."""
        return Connection(self, **wire)

    def each_minute(self) -> None:
        self.chronicle.write()
        self.guard.sweep()
        self.minute = self.loop.call_later(self.limits.summary,
                                           self.each_minute)

    async def admit(self, connection: Connection, admitted: Admission) -> None:
        """Put a player the login admitted on line, or say why not."""
        name, guest = admitted.name, admitted.how == "guest"
        if guest:
            if self.holds(name):
                raise Goodbye(said=f"{name} is on line already.")
            self.reserved.add(name)
            try:
                if await self.claimed(name):
                    raise Goodbye(said=f"{name} was claimed a moment ago.")
            finally:
                self.reserved.discard(name)
        elif name in self.players:
            await self.take_over(self.players[name], connection.peer)
            if name in self.players:
                raise Goodbye(said=f"{name} came in from another line.")
        operator = not guest and name == self.operator
        refused = None if operator else self.placement(connection.host)
        if refused is not None or connection.closed or self.stopping:
            raise Goodbye(said=refused or "")
        await self.on_line_in_the_room(name, guest)
        if connection.closed or self.stopping or name in self.players:
            raise Goodbye()
        session = Session(self, connection, name, guest=guest,
                          operator=operator, missed=admitted.missed)
        self.players[name] = session
        connection.seat(session)

    def placement(self, host: str) -> str | None:
        """Why a player from `host` (not the operator) finds no place."""
        same = sum(session.connection.host == host
                   for session in self.players.values())
        if same >= self.limits.per_address:
            return (f"{plural(same, 'player')} from your address "
                    f"{'is' if same == 1 else 'are'} on line, as many as the "
                    f"room takes from one. Try again later.")
        kept = int(self.operator is not None
                   and self.operator not in self.players)
        if len(self.players) >= self.limits.players - kept:
            return (f"The machine room is full: {len(self.players)} players "
                    f"are on line. Try again later.")
        return None

    def forget(self, connection: Connection) -> None:
        self.connections.discard(connection)
        self.waiting.leave(connection.ticket)
        connection.ticket = None

    def gone(self, session: Session) -> None:
        """A session's task has ended: its name is free again."""
        if self.players.get(session.name) is session:
            del self.players[session.name]
            if not self.stopping:
                self.loop.create_task(self.roster.leave(session.name))
        self.log(f"{session.name} off line")
        if not self.players and self.stopping:
            self.empty.set()

    def holds(self, name: str) -> bool:
        """Whether `name` is on line, or held while it is claimed."""
        return name in self.players or name in self.reserved

    def on_line(self) -> list[Session]:
        return sorted(self.players.values(), key=lambda s: s.name)

    def no_place(self) -> str:
        """What a connection that finds no place in the waiting room is told."""
        if self.stopping:
            return "The machine room is closing."
        return "Too many are logging in just now. Try again in a minute."

    def greeting(self) -> str:
        return (f"RETRO TIME-SHARING SYSTEM: the machine room is open, "
                f"{plural(len(self.players), 'player')} on line.\n{GREETING}\n")

    async def take_over(self, holder: Session, peer: str) -> None:
        """Close `holder`'s line for its owner, who has proved the name from
        `peer`, and wait for its session to end."""
        self.log(f"{holder.name} taken over from {peer}")
        holder.connection.close(f"{holder.name.upper()} HAS LOGGED IN FROM "
                                f"ANOTHER LINE")
        if holder.task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(holder.task),
                                       self.limits.take_over)
            except asyncio.TimeoutError:
                holder.task.cancel()
                await asyncio.gather(holder.task, return_exceptions=True)

    async def on_line_in_the_room(self, name: str, guest: bool) -> None:
        """Put `name` on line in the whole room: a guest only if no server
        has it; an owner wherever it was, whose old line there is closed."""
        self.reserved.add(name)
        try:
            if guest and name in await self.roster.who():
                raise Goodbye(said=f"{name} is on line already.")
            held = await self.roster.claim(name)
        finally:
            self.reserved.discard(name)
        if held is not None and held != self.roster.server:
            self.log(f"{name} taken over from {held}")

    def announce(self, text: str) -> None:
        """Tell everyone on line in the room (a shared command's report),
        through every server's roster, and the log."""
        self.log(text)
        self.loop.create_task(self.roster.tell({"announce": text}))

    def heard(self, message: dict) -> None:
        """A message to every server of the room, this one among them."""
        text = message.get("announce")
        if isinstance(text, str):
            for session in self.on_line():
                session.tty.say(f"*** {text} ***")
                session.tty.flush()

    def closed_elsewhere(self, name: str) -> None:
        """`name` was proved on another server: its line here closes."""
        session = self.players.get(name)
        if session is not None:
            session.connection.close(f"{name.upper()} HAS LOGGED IN FROM "
                                     f"ANOTHER LINE")

    async def everyone(self) -> list[Session | tuple[str, str]]:
        """Everyone on line in the room: this server's sessions, and the
        others' names with the server each is on."""
        here = self.on_line()
        others = [(name, server) for name, server
                  in sorted((await self.roster.who()).items())
                  if server != self.roster.server and name not in self.players]
        return [*here, *others]

    async def claimed(self, name: str) -> bool:
        return await self.store.run(account, name) is not None

    async def check(self, name: str, password: str,
                    caller: Caller) -> tuple[bool, int]:
        """Whether `password` proves `name`, and how many wrong passwords
        have been tried at it since its owner last came in."""
        refused = self.guard.guess(caller.host)
        if refused is not None:
            self.chronicle.note("passwords refused", caller.host)
            raise Refused(refused)
        password = clean(password)
        async with self.guard.turn(name):
            held = await self.store.run(account, name)
            proved = held is not None and len(password) <= LONGEST and \
                await self.loop.run_in_executor(None, matches, password,
                                                held.password)
            missed = await self.store.run(tried, name, proved)
            if proved:
                self.guard.proved(caller.host)
                return True, missed
            self.chronicle.note("wrong passwords", name)
            await asyncio.sleep(self.limits.guarding.pause)
            return False, missed

    def probe(self, caller: Caller) -> str | None:
        refused = self.guard.probe(caller.host)
        if refused is not None:
            self.chronicle.note("addresses refused", caller.host)
        return refused

    async def claim(self, name: str, password: str,
                    caller: Caller) -> str | None:
        """Claim `name` with `password`; None if claimed, else why not."""
        refused = self.guard.claim(caller.host)
        if refused is not None or self.holds(name):
            return refused or f"{name} is on line already."
        self.reserved.add(name)
        try:
            digest = await self.loop.run_in_executor(None, hashed, password)
            if not await self.store.run(claim, name, digest):
                return f"{name} was claimed a moment ago by someone else."
        finally:
            self.reserved.discard(name)
        self.log(f"{name} claimed ({caller.peer})")
        return None

    def refusal(self, host: str) -> str | None:
        return self.guard.refusal(host)

    def arrive(self, host: str,
               drop: Callable[[], object]) -> Ticket | None:
        if self.stopping:
            return None
        return self.waiting.arrive(host, lambda: self.pushed(drop, host))

    def pushed(self, drop: Callable[[], object], host: str) -> None:
        self.chronicle.note("connections dropped to make room", host)
        drop()

    def leave(self, ticket: Ticket | None) -> None:
        self.waiting.leave(ticket)

    async def needs_proof(self, name: str) -> bool:
        try:
            return is_name(name) and await self.claimed(name.lower())
        except StoreError:
            return True  # a locked door

    async def password_proves(self, name: str, password: str,
                              caller: Caller) -> bool:
        try:
            return is_name(name) and (await self.check(name.lower(), password,
                                                       caller))[0]
        except StoreError:
            return False

    async def key_proves(self, name: str, key: str) -> bool:
        try:
            held = await self.store.run(account, name.lower()) \
                if is_name(name) else None
        except StoreError:
            return False
        return held is not None and key in held.keys

    GOING_DOWN = "\n*** THE SYSTEM IS GOING DOWN. ***\n"

    async def go_down(self) -> None:
        """Tell every player, let the sessions end, then cut what is left."""
        self.stopping = True
        self.minute.cancel()
        for connection in list(self.connections):
            connection.send(self.GOING_DOWN)
            if connection.session is None:
                connection.close()
            else:
                connection.tty.hear(Signal.GOING_DOWN)
        if self.on_line():
            try:
                await asyncio.wait_for(self.empty.wait(),
                                       self.limits.going_down)
            except asyncio.TimeoutError:
                self.log("some sessions did not end in time; they are cut")
                for session in self.on_line():
                    if session.task is not None:
                        session.task.cancel()
        await asyncio.sleep(0.1)  # the last words on their way
        await self.roster.stop()
        self.chronicle.write()
        self.store.close()
        self.worker.shutdown(wait=True)
