# Tangled from literate/serve.md: edit the chapter, not this file, then run `retro tangle`.
"""The served room: the machine room over telnet and SSH, many players.

Tangled from literate/serve.md, which explains it.
"""
from __future__ import annotations

import asyncio
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from retro.common import number_in, plural, quoted
from retro.rooms.room import Meaning, Room, Verb
from retro.services.accounts import (LONGEST, SHORTEST, account, add_key,
                                     claim, forget_key, hashed, key_list,
                                     matches, password_trouble, tried)
from retro.services.store import Store, StoreError, is_name
from retro.services.teletype import LineTeletype, Signal, clean
from retro.wires.lines import Lines, typed
from retro.wires.ssh import public_key


@dataclass(frozen=True)
class Limits:
    """What one connection may do, and how many there may be."""

    players: int = 64  # logged in at once
    waiting: int = 64  # connections not yet logged in
    per_address: int = 16  # of those, from one address
    idle: float = 15 * 60.0  # seconds without a line, once named
    name_wait: float = 60.0  # seconds to log in
    tries: int = 3  # wrong passwords before the line is cut
    pause: float = 1.0  # seconds before a wrong password is answered
    line: int = 256  # bytes kept of one line
    burst: int = 64 * 1024  # bytes a connection may send at once
    rate: int = 16 * 1024  # bytes a second it may send after that
    per_line: int = 16  # what a line costs beyond its bytes
    pending: int = 64  # lines waiting for the room before it is a flood
    output: int = 256 * 1024  # bytes waiting to be sent
    roll: int = 2000  # lines of paper kept for TEAR


class Budget:
    """A bucket of bytes that refills at `rate`: a connection's allowance."""

    def __init__(self, burst: int, rate: int,
                 clock: Callable[[], float] = time.monotonic):
        self.burst, self.rate, self.clock = burst, rate, clock
        self.left, self.at = float(burst), clock()

    def spend(self, amount: int) -> bool:
        """Take `amount` out; False if that overdraws the allowance."""
        now = self.clock()
        self.left = min(self.burst, self.left + (now - self.at) * self.rate)
        self.at = now
        self.left -= amount
        return self.left >= 0


class Ticket:
    """A place in the waiting room."""

    def __init__(self, host: str, drop: Callable[[], object]):
        self.host, self.drop, self.heard = host, drop, False


class Waiting:
    """The connections not yet logged in: how many, from where, and which
    one goes when there are too many."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.tickets: dict[Ticket, None] = {}  # oldest first

    def arrive(self, host: str, drop: Callable[[], object]) -> Ticket | None:
        """A place for a new connection from `host`; None if there is none."""
        same = [ticket for ticket in self.tickets if ticket.host == host]
        if len(same) >= self.limits.per_address:
            crowd = same
        elif len(self.tickets) >= self.limits.waiting:
            crowd = self.most_crowded()
        else:
            crowd = []
        if crowd:
            silent = next((ticket for ticket in crowd if not ticket.heard),
                          None)
            if silent is None:
                return None
            self.leave(silent)
            silent.drop()
        ticket = Ticket(host, drop)
        self.tickets[ticket] = None
        return ticket

    def most_crowded(self) -> list[Ticket]:
        """The waiting connections of the address that has the most."""
        by_host: dict[str, list[Ticket]] = {}
        for ticket in self.tickets:
            by_host.setdefault(ticket.host, []).append(ticket)
        return max(by_host.values(), key=len)

    def heard(self, ticket: Ticket | None) -> None:
        if ticket is not None:
            ticket.heard = True

    def leave(self, ticket: Ticket | None) -> None:
        if ticket is not None:
            self.tickets.pop(ticket, None)

    def __len__(self) -> int:
        return len(self.tickets)


NAME_PROMPT = "Your NAME (letters, digits, - and _, up to 16)? "
NAME_RULE = "A NAME is 1 to 16 letters, digits, - and _."
PASSWORD_PROMPT = "PASSWORD? "


def as_heard(line: bytes) -> bytes | Signal:
    """A typed line as the teletype hears it: Ctrl-C and Ctrl-D are signals."""
    if b"\x03" in line:
        return Signal.INTERRUPT
    if line.strip() == b"\x04":
        return Signal.END
    return line.replace(b"\x04", b"")


class Connection:
    """One player's line, as the event loop sees it."""

    def __init__(self, server: Server, *, write: Callable[[str], object],
                 close: Callable[[], object], waiting: Callable[[], int],
                 echo: Callable[[bool], object] = lambda hidden: None,
                 host: str = "?", peer: str = "", login: str = "",
                 proven: str = "", offered: str = "",
                 ticket: Ticket | None = None):
        self.server, self.limits = server, server.limits
        self.write, self.close, self.waiting = write, close, waiting
        self.echo, self.host, self.peer = echo, host, peer
        self.login, self.proven, self.offered = login, proven, offered
        self.ticket = ticket
        self.lines = Lines(self.limits.line)
        self.budget = Budget(self.limits.burst, self.limits.rate)
        self.heard: deque[bytes] = deque()  # lines for the login
        self.wake: asyncio.Future | None = None
        self.session: Session | None = None
        self.closed = self.ending = False
        self.timer: asyncio.TimerHandle | None = None

    def opened(self) -> None:
        if self.ticket is None:
            self.ticket = self.server.arrive(self.host, self.pushed)
        if self.ticket is None or self.server.stopping:
            self.write("Too many are logging in, from your address or in "
                       "all. Try again in a minute.\n")
            self.lost_place()
            return
        self.server.connections.add(self)
        self.write(self.server.greeting())
        self.timer = self.server.loop.call_later(
            self.limits.name_wait, self.kick, "NO NAME GIVEN")
        self.task = asyncio.create_task(self.log_in())

    def pushed(self) -> None:
        """Dropped from the waiting room to make room for a newcomer."""
        self.ticket = None
        self.kick("TOO MANY WAITING TO LOG IN")

    def lost_place(self) -> None:
        self.server.waiting.leave(self.ticket)
        self.ticket = None
        self.shut()

    def pays(self, data: bytes) -> bool:
        """Charge `data` to the allowance; False (and disconnected) if it
        overdraws it."""
        cost = len(data) + self.limits.per_line * max(data.count(b"\n"),
                                                      data.count(b"\r"))
        if self.closed or not self.budget.spend(cost):
            self.kick("TOO MUCH INPUT")
            return False
        self.server.waiting.heard(self.ticket)
        return True

    def answers(self, reply: bytes) -> bool:
        """May the wire send its protocol's own `reply`? It is paid for as
        input is, and must fit in what may wait unsent."""
        if not self.pays(reply):
            return False
        if self.waiting() + len(reply) > self.limits.output:
            self.kick("THE LINE IS NOT READING")
            return False
        return True

    def take(self, data: bytes) -> None:
        """Text from the player, cut into lines for the login or the room."""
        for line in self.lines.feed(data):
            if self.closed:
                return
            line = typed(line)
            held = self.heard if self.session is None else self.session.tty.lines
            if len(held) >= self.limits.pending:
                self.kick("TOO MANY LINES AHEAD OF THE ROOM")
            elif self.session is None:
                self.heard.append(line)
                self.rouse()
            else:
                self.session.tty.hear(as_heard(line))


    def rouse(self) -> None:
        """Wake the login, if it waits for a line."""
        if self.wake is not None and not self.wake.done():
            self.wake.set_result(None)

    def interrupted(self) -> None:
        """Ctrl-C, however the protocol said it."""
        if self.session is not None and not self.closed:
            self.session.tty.hear(Signal.INTERRUPT)

    def ended(self) -> None:
        """The player will send no more: the room ends after what was sent."""
        self.ending = True
        if self.session is None:
            self.rouse()
        else:
            self.session.tty.hear(Signal.HANG_UP)

    def lost(self) -> None:
        """The line has gone: the session, if any, is told."""
        self.closed = self.ending = True
        if self.timer is not None:
            self.timer.cancel()
        if self.session is not None:
            self.session.tty.hear(Signal.HANG_UP)
        self.rouse()
        self.server.forget(self)

    def complete(self, text: str) -> str:
        """Tab, after `text`: finished from what the room is asking."""
        if self.session is None:
            return text
        return self.session.tty.complete(text)

    async def hear(self, prompt: str, hidden: bool = False) -> str:
        """The player's next line, after `prompt`; EOFError if none comes."""
        if hidden:
            self.echo(True)  # before the prompt, which ends what is sent
        self.send(prompt)
        try:
            while not self.heard:
                if self.ending:
                    raise EOFError
                self.wake = self.server.loop.create_future()
                await self.wake
            line = self.heard.popleft()
        finally:
            if hidden and not self.closed:
                self.echo(False)
        if b"\x03" in line or line.strip() == b"\x04":
            raise EOFError
        return clean(line)

    async def identify(self) -> tuple[str, str, int]:
        """The name, how it came in ("proven", "claimed", "guest") and the
        wrong passwords tried at it since its owner last came in."""
        if self.proven:
            return self.proven.lower(), "proven", 0
        login = self.login
        if login and not is_name(login):
            self.send(f"Your SSH user name {quoted(login)} will not do as a "
                      f"NAME. {NAME_RULE}\n")
            login = ""
        while True:
            name, login = (login or await self.hear(NAME_PROMPT)).lower(), ""
            if not is_name(name):
                if name:
                    self.send(f"{NAME_RULE} Try again.\n")
                continue
            if await self.server.store.run(account, name) is not None:
                return name, "proven", await self.prove(name)
            if name in self.server.players:
                self.send(f"{name} is on line already. Choose another NAME.\n")
                continue
            how = await self.claim(name)
            if how:
                return name, how, 0

    async def prove(self, name: str) -> int:
        """Ask for `name`'s password until it is given; how many wrong ones
        were tried since its owner last came in."""
        for _ in range(self.limits.tries):
            password = await self.hear(PASSWORD_PROMPT, hidden=True)
            proved, missed = await self.server.check(name, password=password,
                                                     peer=self.peer)
            if proved:
                return missed
            self.send(f"That is not {name}'s password.\n")
        self.kick(f"{self.limits.tries} WRONG PASSWORDS")
        raise EOFError

    async def claim(self, name: str) -> str:
        """Claim `name`, or play it as a guest: "claimed", "guest", or ""
        to ask for a name again."""
        self.send(f"{name} is a new name. Give it a PASSWORD to keep it as "
                  f"yours ({SHORTEST} to {LONGEST} characters), or just press "
                  f"RETURN to play as a guest, who keeps nothing.\n")
        for _ in range(self.limits.tries):
            password = await self.hear(PASSWORD_PROMPT, hidden=True)
            if not password:
                self.send(f"You play as {name}, a guest: nothing of yours is "
                          f"kept.\n")
                return "guest"
            trouble = password_trouble(password)
            if trouble is None and await self.hear(
                    "THE SAME AGAIN? ", hidden=True) != password:
                trouble = "The two were not the same."
            if trouble is not None:
                self.send(trouble + "\n")
                continue
            digest = await self.server.loop.run_in_executor(None, hashed,
                                                            password)
            if await self.server.store.run(claim, name, digest):
                self.server.log(f"{name} claimed ({self.peer})")
                self.send(f"{name} is yours. Next time, give the same NAME and "
                          f"PASSWORD.\n")
                return "claimed"
            self.send(f"{name} was claimed a moment ago by someone else.\n")
            return ""
        self.send("No password was set.\n")
        return ""

    async def log_in(self) -> None:
        """The login, then the session; a line that ends before is closed."""
        try:
            name, how, missed = await self.identify()
            holder = self.server.players.get(name)
            if holder is not None:
                if how == "guest":
                    self.send(f"{name} is on line already.\n")
                    raise EOFError
                await self.server.take_over(holder, self.peer)
            elif len(self.server.players) >= self.limits.players:
                self.write(f"The machine room is full: {self.limits.players} "
                           f"players are on line. Try again later.\n")
                raise EOFError
        except EOFError:
            self.lost_place()
            return
        except StoreError as error:  # the accounts cannot be read or written
            self.server.log(f"{self.peer} could not log in: {error}")
            self.send(f"The machine room's store cannot be used ({error}). "
                      f"Try again later.\n")
            self.lost_place()
            return
        except Exception:  # a bug: this line's login ends, the server goes on
            self.server.log(f"{self.peer}'s login broke:\n"
                            f"{traceback.format_exc()}")
            self.send("*** THE MACHINE HAS JAMMED. TRY AGAIN LATER. ***\n")
            self.lost_place()
            return
        self.seat(Session(self.server, self, name, guest=how == "guest",
                          operator=how != "guest" and name == self.server.operator,
                          missed=missed))

    def seat(self, session: Session) -> None:
        """Out of the waiting room and into the machine room."""
        if self.closed or not self.server.enter(session):
            self.lost_place()
            return
        self.timer.cancel()
        self.server.waiting.leave(self.ticket)
        self.ticket, self.session = None, session
        while self.heard:  # typed ahead of the room
            session.tty.hear(as_heard(self.heard.popleft()))
        if self.ending:
            session.tty.hear(Signal.HANG_UP)
        session.start()

    def send(self, text: str) -> None:
        """Hand `text` to the player's line."""
        if self.closed:
            return
        if self.waiting() > self.limits.output:
            self.kick("THE LINE IS NOT READING")
            return
        self.write(text)

    async def drained(self, patience: float = 60.0) -> None:
        """Wait until what waits to be sent is small again (or the line is cut
        for not reading)."""
        deadline = self.server.loop.time() + patience
        while not self.closed and self.waiting() > self.limits.output // 4:
            if self.server.loop.time() > deadline:
                self.kick("THE LINE IS NOT READING")
                return
            await asyncio.sleep(0.02)
        await asyncio.sleep(0)  # the other players' turn

    def kick(self, why: str) -> None:
        """Disconnect the player, saying why."""
        if not self.closed:
            self.server.log(f"{self.session.name if self.session else self.peer}"
                            f" disconnected: {why.lower()}")
            self.write(f"\n*** {why}: DISCONNECTED ***\n")
            self.shut()

    def shut(self) -> None:
        if not self.closed:
            self.closed = True
            self.close()


class Session:
    """A named player's room, as a task on the server's event loop."""

    def __init__(self, server: Server, connection: Connection, name: str,
                 *, guest: bool = False, operator: bool = False,
                 missed: int = 0):
        self.server, self.connection, self.name = server, connection, name
        self.guest, self.operator, self.missed = guest, operator, missed
        self.tty = LineTeletype(connection.send, idle=server.limits.idle,
                                roll_lines=server.limits.roll)
        self.since = time.monotonic()
        self.room: Room | None = None
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.server.log(f"{self.name}{' (guest)' if self.guest else ''} on "
                        f"line ({self.connection.peer})")
        self.task = asyncio.create_task(self.run(), name=f"retro {self.name}")

    def store(self) -> Store:
        if self.guest:
            return Store.memory(player=self.name)
        store = self.server.store.as_player(self.name)
        loop = asyncio.get_running_loop()
        store.notice = lambda text: loop.call_soon_threadsafe(self.tty.say,
                                                              text)
        return store

    async def run(self) -> None:
        try:
            if self.missed:
                self.tty.say(f"*** {plural(self.missed, 'wrong password')} "
                             f"tried at your NAME since you last came in. ***")
            self.room = Room(self.tty, self.store(),
                             verbs=served_verbs(self, self.tty),
                             operator=self.operator,
                             announce=self.server.announce)
            await self.room.run()
        except KeyboardInterrupt:  # never out of the task: asyncio would
            pass                   # take it for the whole server's
        except Exception:
            self.server.log(f"{self.name}'s session broke:\n"
                            f"{traceback.format_exc()}")
            self.tty.say("*** THE MACHINE HAS JAMMED. YOUR SESSION IS "
                         "OVER. ***")
        finally:
            self.tty.flush()
            self.connection.shut()
            self.server.gone(self)

    def doing(self) -> str:
        """What WHO says this player is doing."""
        game = self.room.playing if self.room is not None else None
        return f"playing {game.title}" if game else "in the machine room"


BAUDS = (0, 50, 75, 110, 134, 150, 300, 600, 1200, 2400, 4800, 9600)


def served_verbs(session: Session, tty: LineTeletype) -> tuple[Verb, ...]:
    """WHO, BAUD, TEAR and KEYS, for one session's room."""
    def who(said: Meaning) -> None:
        tty.draw("\n".join(who_is_on(session.server.on_line(), session)))
    return (Verb("who", "WHO", "who is on line, and what each is doing",
                 who),
            Verb("baud", "BAUD [N]", "your paper's pace: BAUD 110 is a "
                 "Model 33, BAUD 0 prints at once",
                 lambda said: tty.say(set_baud(tty, said.rest))),
            Verb("tear", "TEAR", "tear off the paper: it is printed back "
                 "to you", lambda said: tear_back(session, tty)),
            Verb("keys", "KEYS [ADD|FORGET N]", "the SSH keys that log "
                 "you in", lambda said: keys(session, tty, said)))


def who_is_on(players: list[Session], me: Session) -> list[str]:
    """What WHO prints: a line per player on line."""
    now = time.monotonic()
    lines = [f"{plural(len(players), 'player')} on line:"]
    for player in players:
        name = player.name + (" (you)" if player is me else
                              " (guest)" if player.guest else "")
        minutes = int(now - player.since) // 60
        where = f"  {player.connection.peer}" if me.operator else ""
        lines.append(f"  {name:<22}{player.doing():<32}"
                     f"{minutes // 60}:{minutes % 60:02d}{where}")
    return lines


def set_baud(tty: LineTeletype, rest: tuple[str, ...]) -> str:
    """Set the pace of this player's paper; what BAUD answers."""
    if rest:
        wanted = number_in(rest[0]) if len(rest) == 1 else None
        if wanted not in BAUDS:
            return (f"BAUD takes one of {', '.join(map(str, BAUDS[1:]))}, "
                    f"or 0 to print at once.")
        tty.pace.baud = wanted
    if tty.pace.baud == 0:
        return "Your paper prints at once (BAUD 0)."
    return f"Your paper prints at {tty.pace.baud} baud."


PAGE = 100  # lines of the roll sent at once


async def tear_back(session: Session, tty: LineTeletype) -> None:
    """The served room's TEAR: the roll printed back, and a fresh one."""
    lines, fell_off = tty.paper().rstrip("\n").split("\n"), tty.fell_off
    tty.fresh_roll()
    tty.say("--- the paper roll, torn off ---")
    if fell_off:
        tty.say(f"(The roll keeps its last {session.server.limits.roll:,} "
                f"lines; {plural(fell_off, 'line')} before them fell off.)")
    for start in range(0, len(lines), PAGE):
        tty.draw("\n".join(lines[start:start + PAGE]))
        tty.flush()
        await session.connection.drained()
    tty.say("--- the end of the roll: it is yours to keep ---")
    tty.fresh_roll()


async def keys(session: Session, tty: LineTeletype, said: Meaning) -> None:
    """KEYS, KEYS ADD [KEY], KEYS FORGET N."""
    store, name = session.server.store, session.name
    rest = said.raw.split()  # as typed: a key's case matters
    if session.guest:
        tty.say("A guest has no keys: claim a NAME of your own first.")
    elif not rest:
        held = await store.run(account, name)
        tty.draw("\n".join(key_list(held)))
    elif rest[0].lower() == "add":
        key = (public_key(" ".join(rest[1:])) if rest[1:]
               else session.connection.offered or None)
        tty.say(await store.run(add_key, name, key) if key else
                "That is not a public key's line (ssh-ed25519 AAAA...)."
                if rest[1:] else "Your client offered no key: give the key's "
                "line after KEYS ADD.")
    elif rest[0].lower() == "forget" and len(rest) == 2 \
            and number_in(rest[1]) is not None:
        tty.say(await store.run(forget_key, name, number_in(rest[1])))
    else:
        tty.say("KEYS lists your keys; KEYS ADD registers one; KEYS FORGET "
                "N forgets one.")


class Server:
    """The players on line, the doors, the limits, and going down."""

    def __init__(self, path: Path, limits: Limits = Limits(),
                 log: Callable[[str], object] | None = None,
                 operator: str | None = None):
        self.path, self.limits, self.operator = path, limits, operator
        self.log = log or (lambda message: print(
            f"retro serve: {message}", file=sys.stderr, flush=True))
        self.loop = asyncio.get_running_loop()
        self.loop.set_default_executor(ThreadPoolExecutor(2))
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="retro store")
        self.store = Store.open(path, warn=self.log, worker=self.worker)
        self.waiting = Waiting(limits)
        self.connections: set[Connection] = set()
        self.players: dict[str, Session] = {}
        self.trying: dict[str, list] = {}  # a lock and its users, by name
        self.stopping = False
        self.empty = asyncio.Event()

    def connect(self, **wire) -> Connection:
        """A new line for a wire: what the wires call for each connection."""
        return Connection(self, **wire)

    def forget(self, connection: Connection) -> None:
        self.connections.discard(connection)
        self.waiting.leave(connection.ticket)
        connection.ticket = None

    def enter(self, session: Session) -> bool:
        """Put a named player on line; False if the name is on line already."""
        if session.name in self.players or self.stopping:
            return False
        self.players[session.name] = session
        return True

    def gone(self, session: Session) -> None:
        """A session's task has ended: its name is free again."""
        if self.players.get(session.name) is session:
            del self.players[session.name]
        self.log(f"{session.name} off line")
        if not self.players and self.stopping:
            self.empty.set()

    def on_line(self) -> list[Session]:
        return sorted(self.players.values(), key=lambda s: s.name)

    def greeting(self) -> str:
        return (f"RETRO TIME-SHARING SYSTEM: the machine room is open, "
                f"{plural(len(self.players), 'player')} on line.\n")

    def announce(self, text: str) -> None:
        """Tell everyone on line (a shared command's report), and the log."""
        self.log(text)
        for session in self.on_line():
            session.tty.say(f"*** {text} ***")
            session.tty.flush()

    async def take_over(self, holder: Session, peer: str) -> None:
        """Close `holder`'s line for its owner, who has proved the name from
        `peer`, and wait for its session to end."""
        self.log(f"{holder.name} taken over from {peer}")
        holder.connection.kick(f"{holder.name.upper()} HAS LOGGED IN FROM "
                               f"ANOTHER LINE")
        holder.tty.hear(Signal.HANG_UP)
        if holder.task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(holder.task), 5.0)
            except asyncio.TimeoutError:
                holder.task.cancel()
                await asyncio.gather(holder.task, return_exceptions=True)

    def arrive(self, host: str, drop: Callable[[], object]) -> Ticket | None:
        return None if self.stopping else self.waiting.arrive(host, drop)

    def heard(self, ticket: Ticket | None) -> None:
        self.waiting.heard(ticket)

    def leave(self, ticket: Ticket | None) -> None:
        self.waiting.leave(ticket)

    async def needs_proof(self, name: str) -> bool:
        try:
            return is_name(name) and await self.store.run(
                account, name.lower()) is not None
        except StoreError:
            return True  # a locked door: see above

    async def proves(self, name: str, *, password: str | None = None,
                     key: str | None = None, peer: str = "") -> bool:
        try:
            return (await self.check(name, password=password, key=key,
                                     peer=peer))[0]
        except StoreError:
            return False

    async def check(self, name: str, *, password: str | None = None,
                    key: str | None = None, peer: str = "") -> tuple[bool, int]:
        """Whether the password or key proves `name`, and how many wrong
        passwords have been tried at it (since its owner last came in)."""
        name = name.lower()
        if not is_name(name):
            return False, 0
        if password is not None:  # as a line is read, whichever wire brings it
            password = clean(password)
        lock = self.trying.setdefault(name, [asyncio.Lock(), 0])
        lock[1] += 1
        try:
            async with lock[0]:
                held = await self.store.run(account, name)
                if held is None or (key is not None and key not in held.keys):
                    return False, 0
                proved = key is not None or (
                    len(password or "") <= LONGEST and await self.loop.
                    run_in_executor(None, matches, password or "", held.password))
                missed = await self.store.run(tried, name, proved)
                if not proved:
                    self.log(f"wrong password for {name} from {peer} "
                             f"({missed} since its owner last came in)")
                    await asyncio.sleep(self.limits.pause)
                return proved, missed
        finally:
            lock[1] -= 1
            if not lock[1]:
                del self.trying[name]

    GOING_DOWN = "\n*** THE SYSTEM IS GOING DOWN. ***\n"

    async def go_down(self, grace: float = 5.0) -> None:
        """Tell every player, let the sessions end, then cut what is left."""
        self.stopping = True
        for connection in list(self.connections):
            connection.write(self.GOING_DOWN)
            if connection.session is None:
                connection.shut()
            else:
                connection.session.tty.hear(Signal.GOING_DOWN)
        if self.on_line():
            try:
                await asyncio.wait_for(self.empty.wait(), grace)
            except asyncio.TimeoutError:
                self.log("some sessions did not end in time; they are cut")
                for session in self.on_line():
                    session.task.cancel()
        await asyncio.sleep(0.1)  # the last words on their way
        self.worker.shutdown(wait=True)
        self.store.close()
