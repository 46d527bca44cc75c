# Tangled from literate/serve.md: edit the chapter, not this file, then run `retro tangle`.
"""The served room: the machine room over telnet and SSH, many players.

Tangled from literate/serve.md, which explains it.
"""
from __future__ import annotations

import asyncio
import importlib.util
import signal
import sys
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from retro.common import UsageError, number_in, plural, whole_number
from retro.games.registry import GAMES
from retro.rooms.room import Meaning, Room, Verb, install
from retro.services.store import FILENAME, Store, data_dir, is_name
from retro.services.teletype import LineTeletype, Signal, clean
from retro.wires.lines import Lines
from retro.wires.ssh import SSH_MISSING, open_ssh
from retro.wires.telnet import open_telnet


@dataclass(frozen=True)
class Limits:
    """What one connection may do, and how many there may be."""

    players: int = 64
    idle: float = 15 * 60.0  # seconds without a line, once named
    name_wait: float = 60.0  # seconds to give a name
    line: int = 256  # bytes kept of one line
    burst: int = 64 * 1024  # bytes a connection may send at once
    rate: int = 16 * 1024  # bytes a second it may send after that
    per_line: int = 16  # what a line costs beyond its bytes
    pending: int = 64  # lines waiting for the room before it is a flood
    output: int = 256 * 1024  # bytes waiting to be sent


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


NAME_PROMPT = "Your NAME (letters, digits, - and _, up to 16)? "


class Connection:
    """One player's line, as the event loop sees it."""

    def __init__(self, server: Server, *, write: Callable[[str], object],
                 close: Callable[[], object], waiting: Callable[[], int],
                 peer: str = "", login: str = ""):
        self.server, self.limits = server, server.limits
        self.write, self.close, self.waiting = write, close, waiting
        self.peer, self.login = peer, login
        self.lines = Lines(self.limits.line)
        self.budget = Budget(self.limits.burst, self.limits.rate)
        self.session: Session | None = None
        self.closed = False
        self.timer: asyncio.TimerHandle | None = None

    def opened(self) -> None:
        if not self.server.admit(self):
            self.write(f"The machine room is full: {self.limits.players} "
                       f"players are on line. Try again later.\n")
            self.shut()
            return
        self.write(self.server.greeting())
        self.timer = self.server.loop.call_later(
            self.limits.name_wait, self.kick, "NO NAME GIVEN")
        if is_name(self.login):
            self.named(self.login.encode())
        else:
            self.write(NAME_PROMPT)

    def pays(self, data: bytes) -> bool:
        """Charge `data` to the allowance; False (and disconnected) if it
        overdraws it."""
        cost = len(data) + self.limits.per_line * max(data.count(b"\n"),
                                                      data.count(b"\r"))
        if self.closed or not self.budget.spend(cost):
            self.kick("TOO MUCH INPUT")
            return False
        return True

    def take(self, data: bytes) -> None:
        """Text from the player, cut into lines for the name or the room."""
        for line in self.lines.feed(data):
            if self.closed:
                return
            if self.session is None:
                self.named(line)
            elif len(self.session.tty.lines) >= self.limits.pending:
                self.kick("TOO MANY LINES AHEAD OF THE ROOM")
            else:
                self.session.tty.hear(Signal.INTERRUPT if b"\x03" in line
                                      else line)

    def interrupted(self) -> None:
        """Ctrl-C, however the protocol said it."""
        if self.session is not None and not self.closed:
            self.session.tty.hear(Signal.INTERRUPT)

    def ended(self) -> None:
        """The player will send no more: the room ends after what was sent."""
        if self.session is None:
            self.shut()
        else:
            self.session.tty.hear(Signal.HANG_UP)

    def lost(self) -> None:
        """The line has gone: the session, if any, is told."""
        self.closed = True
        if self.timer is not None:
            self.timer.cancel()
        if self.session is not None:
            self.session.tty.hear(Signal.HANG_UP)
        self.server.forget(self)

    def named(self, line: bytes) -> None:
        name = clean(line)
        if not name:
            self.write(NAME_PROMPT)
        elif not is_name(name):
            self.write("A NAME is 1 to 16 letters, digits, - and _. "
                       "Try again.\n" + NAME_PROMPT)
        else:
            session = Session(self.server, self, name.lower())
            if not self.server.enter(session):
                self.write(f"{session.name} is on line already. Choose another "
                           f"NAME.\n" + NAME_PROMPT)
                return
            self.timer.cancel()
            self.session = session
            session.start()

    def send(self, text: str) -> None:
        """Hand `text` to the player's line."""
        if self.closed:
            return
        if self.waiting() > self.limits.output:
            self.kick("THE LINE IS NOT READING")
            return
        self.write(text)

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

    def __init__(self, server: Server, connection: Connection, name: str):
        self.server, self.connection, self.name = server, connection, name
        self.tty = LineTeletype(connection.send, idle=server.limits.idle)
        self.since = time.monotonic()
        self.room: Room | None = None
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.server.log(f"{self.name} on line ({self.connection.peer})")
        self.task = asyncio.create_task(self.run(), name=f"retro {self.name}")

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        store = self.server.store.as_player(self.name)
        store.notice = lambda text: loop.call_soon_threadsafe(self.tty.say,
                                                              text)
        try:
            self.room = Room(self.tty, store,
                             verbs=served_verbs(self, self.tty))
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
    """WHO, BAUD and the served room's TEAR, for one session's room."""
    def who(said: Meaning) -> None:
        tty.draw("\n".join(who_is_on(session.server.on_line(), session)))
    return (Verb("who", "WHO", "who is on line, and what each is doing",
                 who),
            Verb("baud", "BAUD [N]", "your paper's pace: BAUD 110 is a "
                 "Model 33, BAUD 0 prints at once",
                 lambda said: tty.say(set_baud(tty, said.rest))),
            Verb("tear", "TEAR", "tear off the paper: it is printed back "
                 "to you", lambda said: tear_back(tty)))


def who_is_on(players: list[Session], me: Session) -> list[str]:
    """What WHO prints: a line per player on line."""
    now = time.monotonic()
    lines = [f"{plural(len(players), 'player')} on line:"]
    for player in players:
        name = player.name + (" (you)" if player is me else "")
        minutes = int(now - player.since) // 60
        lines.append(f"  {name:<22}{player.doing():<32}"
                     f"{minutes // 60}:{minutes % 60:02d}")
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


def tear_back(tty: LineTeletype) -> None:
    """The served room's TEAR: the roll printed back, and a fresh one."""
    paper = tty.paper()
    tty.say("--- the paper roll, torn off ---")
    tty.say(paper.rstrip("\n"))
    tty.say("--- the end of the roll: it is yours to keep ---")
    tty.roll.clear()


class Server:
    """The players on line, the limits, and going down."""

    def __init__(self, path: Path, limits: Limits = Limits(),
                 log: Callable[[str], object] | None = None):
        self.path, self.limits = path, limits
        self.log = log or (lambda message: print(
            f"retro serve: {message}", file=sys.stderr, flush=True))
        self.loop = asyncio.get_running_loop()
        self.loop.set_default_executor(ThreadPoolExecutor(2))
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="retro store")
        self.store = Store.open(path, warn=self.log, worker=self.worker)
        self.connections: set[Connection] = set()
        self.players: dict[str, Session] = {}
        self.stopping = False
        self.empty = asyncio.Event()

    def connect(self, **wire) -> Connection:
        """A new line for a wire: what the wires call for each connection."""
        return Connection(self, **wire)

    def admit(self, connection: Connection) -> bool:
        """Give a new connection a place, if there is one."""
        if self.stopping or len(self.connections) >= self.limits.players:
            return False
        self.connections.add(connection)
        return True

    def forget(self, connection: Connection) -> None:
        self.connections.discard(connection)

    def enter(self, session: Session) -> bool:
        """Put a named player on line; False if the name is on line already."""
        if session.name in self.players:
            return False
        self.players[session.name] = session
        return True

    def gone(self, session: Session) -> None:
        """A session's task has ended: its name is free again."""
        self.players.pop(session.name, None)
        self.log(f"{session.name} off line")
        if not self.players and self.stopping:
            self.empty.set()

    def on_line(self) -> list[Session]:
        return sorted(self.players.values(), key=lambda s: s.name)

    def greeting(self) -> str:
        return (f"RETRO TIME-SHARING SYSTEM: the machine room is open, "
                f"{plural(len(self.connections), 'player')} on line.\n")

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


async def serve(path: Path, limits: Limits, host: str, telnet: int,
                ssh: int | None) -> int:
    """Serve the room until Ctrl-C or SIGTERM; the exit status."""
    server = Server(path, limits)
    try:
        listeners = [("telnet", await open_telnet(server.connect, host,
                                                  telnet))]
        if ssh is not None:
            listeners.append(("ssh", await open_ssh(
                server.connect, host, ssh, keys=path.parent,
                login_timeout=limits.name_wait)))
    except OSError as error:
        server.log(f"cannot listen on {host}: "
                   f"{error.strerror or error}")
        return 1
    for protocol, listener in listeners:
        port = listener.sockets[0].getsockname()[1]
        print(f"retro serve: {protocol} on {host} port {port}", flush=True)
    stop = asyncio.Event()
    for number in (signal.SIGINT, signal.SIGTERM):
        try:
            server.loop.add_signal_handler(number, stop.set)
        except (NotImplementedError, RuntimeError):  # not on this system
            pass
    await stop.wait()
    for _, listener in listeners:
        listener.close()
    await server.go_down()
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve", help="open the machine room to many players, over telnet "
        "and SSH", description="Serve the machine room to many players at "
        "once, over telnet (and SSH if asked), until Ctrl-C or SIGTERM.")
    port = whole_number(0, 65535)
    parser.add_argument("--telnet", type=port, default=6400, metavar="PORT",
                        help="the telnet port (default 6400; 0: any free)")
    parser.add_argument("--ssh", type=port, metavar="PORT",
                        help="serve SSH too, on PORT (needs asyncssh)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--max-players", type=whole_number(1, 10000),
                        default=Limits.players, metavar="N",
                        help=f"players at once (default {Limits.players})")
    parser.add_argument("--idle", type=whole_number(1), metavar="SECONDS",
                        default=int(Limits.idle),
                        help="seconds a named player may be silent "
                        f"(default {int(Limits.idle)})")
    parser.add_argument("--name-wait", type=whole_number(1), metavar="SECONDS",
                        default=int(Limits.name_wait),
                        help="seconds to give a name "
                        f"(default {int(Limits.name_wait)})")
    parser.set_defaults(func=serve_command)


def serve_command(args) -> int:
    if args.ssh is not None and importlib.util.find_spec("asyncssh") is None:
        raise UsageError(SSH_MISSING)
    if not loopback(args.host):
        print(f"retro serve: warning: {args.host} is not the loopback "
              f"address; anyone who can reach it can play, without a "
              f"password", file=sys.stderr)
    path = data_dir() / FILENAME
    for game in GAMES:
        install(game)
    limits = Limits(players=args.max_players, idle=float(args.idle),
                    name_wait=float(args.name_wait))
    return asyncio.run(serve(path, limits, args.host, args.telnet,
                             args.ssh))


def loopback(host: str) -> bool:
    import ipaddress

    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
