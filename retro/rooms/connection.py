# Tangled from literate/serve.md: edit the chapter, not this file, then run `retro tangle`.
"""A connection: one player's line, from the first byte to the last.

Tangled from literate/serve.md, which explains it.
"""
from __future__ import annotations

import asyncio
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

from retro.rooms.limits import Chronicle
from retro.rooms.login import Admission, Doors, Goodbye, log_in
from retro.rooms.waiting import Ticket, Waiting
from retro.services.guard import Budget, Refused
from retro.services.store import StoreError
from retro.services.teletype import LineTeletype, Signal, paper_width
from retro.wires.lines import Caller, Lines, typed


class Seated(Protocol):
    """A session, as its connection sees it."""

    def start(self) -> None: ...


class Switchboard(Doors, Protocol):
    """What a connection asks of the server."""

    loop: asyncio.AbstractEventLoop
    chronicle: Chronicle
    connections: set
    waiting: Waiting

    def log(self, message: str) -> object: ...
    def refusal(self, host: str) -> str | None: ...
    def arrive(self, host: str,
               drop: Callable[[], object]) -> Ticket | None: ...
    def forget(self, connection: Connection) -> None: ...
    def greeting(self) -> str: ...
    def no_place(self) -> str: ...
    async def admit(self, connection: Connection,
                    admitted: Admission) -> None: ...


class AtWork:
    """The server's doors as one connection's login asks them: while the
    server checks a password or claims a name, the connection's place in
    the waiting room is held for it (the wait is the server's)."""

    def __init__(self, connection: Connection):
        self.connection, self.server = connection, connection.server
        self.limits = self.server.limits

    async def claimed(self, name: str) -> bool:
        return await self.server.claimed(name)

    async def check(self, name: str, password: str,
                    caller: Caller) -> tuple[bool, int]:
        with self.connection.at_work():
            return await self.server.check(name, password, caller)

    def probe(self, caller: Caller) -> str | None:
        return self.server.probe(caller)

    def holds(self, name: str) -> bool:
        return self.server.holds(name)

    async def claim(self, name: str, password: str,
                    caller: Caller) -> str | None:
        with self.connection.at_work():
            return await self.server.claim(name, password, caller)


class Connection:
    """One player's line, as the event loop sees it."""

    def __init__(self, server: Switchboard, *, write: Callable[[str], object],
                 close: Callable[[], object], waiting: Callable[[], int],
                 echo: Callable[[bool], object] = lambda hidden: None,
                 echoing: bool = False, host: str = "?", peer: str = "",
                 login: str = "", proven: str = "", offered: str = "",
                 ticket: Ticket | None = None):
        self.server, self.limits = server, server.limits
        self.write, self.hang_up, self.waiting = write, close, waiting
        self.caller = Caller(host, peer, login, proven)
        self.host, self.peer, self.offered = host, peer, offered
        self.ticket = ticket
        self.tty = LineTeletype(self.send, roll_lines=self.limits.roll,
                                echo=echo, echoing=echoing)
        self.lines = Lines(self.limits.line)
        self.budget = Budget(self.limits.burst, self.limits.rate)
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.session: Seated | None = None
        self.closed = False
        self.login: asyncio.Task | None = None
        self.timer: asyncio.TimerHandle | None = None

    def opened(self) -> None:
        refused = self.server.refusal(self.host)
        if refused is None and self.ticket is None:
            self.ticket = self.server.arrive(self.host, self.pushed)
        elif self.ticket is not None:  # the wire's place: pushed, say why
            self.ticket.drop = self.pushed
        if refused is not None or self.ticket is None:
            self.server.chronicle.note("connections refused", self.host)
            self.write((refused or self.server.no_place()) + "\n")
            self.close()
            return
        self.server.connections.add(self)
        self.tty.say(self.server.greeting().rstrip("\n"))
        self.tty.flush()
        self.timer = self.server.loop.call_later(
            self.limits.name_wait, self.close, "NO NAME GIVEN")
        self.login = asyncio.create_task(self.log_in())

    @contextmanager
    def at_work(self) -> Iterator[None]:
        """The server works for this line meanwhile: its place is kept."""
        if self.ticket is not None:
            self.ticket.at_work = True
        try:
            yield
        finally:
            if self.ticket is not None:
                self.ticket.at_work = False

    def pushed(self) -> None:
        """Dropped from the waiting room to make room for a newcomer."""
        self.ticket = None
        self.close("TOO MANY WAITING TO LOG IN")

    def pays(self, data: bytes) -> bool:
        """Charge `data` to the allowance; False (and disconnected) if it
        overdraws it."""
        cost = len(data) + self.limits.per_line * max(data.count(b"\n"),
                                                      data.count(b"\r"))
        if self.closed or not self.budget.spend(cost):
            self.close("TOO MUCH INPUT")
            return False
        return True

    def answers(self, reply: bytes) -> bool:
        """May the wire send its protocol's own `reply`? It is paid for as
        input is, and must fit in what may wait unsent."""
        if not self.pays(reply):
            return False
        if self.waiting() + len(reply) > self.limits.output:
            self.close("THE LINE IS NOT READING")
            return False
        return True

    def take(self, data: bytes) -> None:
        """Text from the player, cut into lines for the teletype."""
        for line in self.lines.feed(data):
            if self.closed:
                return
            if self.tty.pending >= self.limits.pending:
                self.close("TOO MANY LINES AHEAD OF THE ROOM")
                return
            self.tty.hear(typed(line))

    def interrupted(self) -> None:
        """Ctrl-C, however the protocol said it."""
        if not self.closed:
            self.tty.hear(Signal.INTERRUPT)

    def ended(self) -> None:
        """The player will send no more: what was sent is answered, then the
        room ends."""
        self.tty.hear(Signal.HANG_UP)

    def lost(self) -> None:
        """The line has gone."""
        self.close()

    def complete(self, text: str) -> str:
        """Tab, after `text`: finished from what the room is asking."""
        return self.tty.complete(text)

    def resized(self, columns: int) -> None:
        """The player's paper is `columns` wide: fold there from now on, at
        most a terminal's page and at least the narrowest."""
        self.tty.width = paper_width(columns)

    def pause_writing(self) -> None:
        """The wire's buffer is full: hold long output until it drains."""
        self.flowing.clear()

    def resume_writing(self) -> None:
        self.flowing.set()

    async def log_in(self) -> None:
        """The login, then the session; a line that ends before is closed."""
        why, said = "", ""
        try:
            admitted = await log_in(self.tty, AtWork(self), self.caller)
            await self.server.admit(self, admitted)
            return
        except (EOFError, KeyboardInterrupt):
            pass
        except Goodbye as goodbye:
            why, said = goodbye.why, goodbye.said
        except Refused as refused:
            said = str(refused)
        except StoreError as error:  # the accounts cannot be read or written
            self.server.log(f"{self.peer} could not log in: {error}")
            said = (f"The machine room's store cannot be used ({error}). Try "
                    f"again later.")
        except Exception:  # a bug: this line's login ends, the server goes on
            self.server.log(f"{self.peer}'s login broke:\n"
                            f"{traceback.format_exc()}")
            said = "*** THE MACHINE HAS JAMMED. TRY AGAIN LATER. ***"
        if said:
            self.tty.say(said)
        self.tty.flush()
        self.close(why)

    def seat(self, session: Seated) -> None:
        """Out of the waiting room and into the machine room."""
        if self.timer is not None:
            self.timer.cancel()
        self.server.waiting.leave(self.ticket)
        self.ticket, self.session = None, session
        self.tty.idle = self.limits.idle
        self.tty.fresh_roll()
        session.start()

    def send(self, text: str) -> None:
        """Hand `text` to the player's line."""
        if self.closed:
            return
        if self.waiting() > self.limits.output:
            self.close("THE LINE IS NOT READING")
            return
        self.write(text)

    async def drained(self) -> None:
        """Wait until the wire has room for more (or the line is cut for not
        reading)."""
        try:
            await asyncio.wait_for(self.flowing.wait(), self.limits.drain)
        except asyncio.TimeoutError:
            self.close("THE LINE IS NOT READING")
        await asyncio.sleep(0)  # the other players' turn

    def close(self, why: str = "") -> None:
        """End the line, saying `why` if there is a why: the one way out."""
        if self.closed:
            return
        self.closed = True
        if why:
            self.server.chronicle.note("lines closed", why.lower())
            self.write(f"\n*** {why}: DISCONNECTED ***\n")
        if self.timer is not None:
            self.timer.cancel()
        self.server.forget(self)
        if self.login is not None and self.login is not asyncio.current_task():
            self.login.cancel()
        self.tty.hear(Signal.HANG_UP)
        self.hang_up()
