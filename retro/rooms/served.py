# Tangled from literate/serve.md: edit the chapter, not this file, then run `retro tangle`.
"""The served room: the machine room over telnet and SSH, many players.

Tangled from literate/serve.md, which explains it.
"""
from __future__ import annotations

import asyncio
import os
import queue
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from retro.common import UsageError, number_in, plural, whole_number
from retro.registry import GAMES
from retro.rooms.room import Meaning, Room, Verb, import_front_end
from retro.services.store import FILENAME, Store, data_dir, is_name
from retro.services.teletype import LineTeletype, Signal, clean


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


IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
IP, AYT = 244, 246
REFUSAL = {WILL: DONT, DO: WONT}


class Telnet:
    """Telnet's commands taken out of a stream of bytes, and answered."""

    def __init__(self) -> None:
        self.state = "text"
        self.verb = 0
        self.answered: set[tuple[int, int]] = set()

    def feed(self, data: bytes) -> tuple[bytes, bytes]:
        """The text in `data`, and what to send back to the client."""
        if self.state == "text" and IAC not in data:
            return data, b""
        text, reply = bytearray(), bytearray()
        for byte in data:
            if self.state == "text":
                if byte == IAC:
                    self.state = "command"
                else:
                    text.append(byte)
            elif self.state == "command":
                self.state = "text"
                if byte == IAC:
                    text.append(IAC)
                elif byte in (WILL, WONT, DO, DONT):
                    self.state, self.verb = "option", byte
                elif byte == SB:
                    self.state = "sub"
                elif byte == IP:
                    text += b"\x03\n"
                elif byte == AYT:
                    reply += b"\r\n[retro: yes, the room is here]\r\n"
            elif self.state == "option":
                self.state = "text"
                if self.verb in REFUSAL and (self.verb, byte) not in self.answered:
                    self.answered.add((self.verb, byte))
                    reply += bytes((IAC, REFUSAL[self.verb], byte))
            elif self.state == "sub":
                self.state = "sub end" if byte == IAC else "sub"
            else:  # "sub end": after an IAC inside a subnegotiation
                self.state = "text" if byte == SE else "sub"
        return bytes(text), bytes(reply)


class Lines:
    """Bytes cut into lines at CR LF, CR NUL, CR or LF; each line capped."""

    def __init__(self, longest: int):
        self.longest = longest
        self.partial = b""
        self.after_cr = False

    def feed(self, data: bytes) -> list[bytes]:
        """The lines `data` finishes (without their endings)."""
        if self.after_cr and data[:1] in (b"\n", b"\0"):
            data = data[1:]
        if data:
            self.after_cr = data.endswith(b"\r")
        data = (data.replace(b"\r\n", b"\n").replace(b"\r\0", b"\n")
                .replace(b"\r", b"\n").replace(b"\0", b""))
        *lines, rest = (self.partial + data).split(b"\n")
        self.partial = rest[:self.longest]
        return [line[:self.longest] for line in lines]


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
            elif self.session.lines.qsize() >= self.limits.pending:
                self.kick("TOO MANY LINES AHEAD OF THE ROOM")
            else:
                self.session.lines.put(Signal.INTERRUPT if b"\x03" in line
                                       else line)

    def interrupted(self) -> None:
        """Ctrl-C, however the protocol said it."""
        if self.session is not None and not self.closed:
            self.session.lines.put(Signal.INTERRUPT)

    def ended(self) -> None:
        """The player will send no more: the room ends after what was sent."""
        if self.session is None:
            self.shut()
        else:
            self.session.lines.put(Signal.HANG_UP)

    def lost(self) -> None:
        """The line has gone: the session, if any, is told."""
        self.closed = True
        if self.timer is not None:
            self.timer.cancel()
        if self.session is not None:
            self.session.lines.put(Signal.HANG_UP)
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
        """Hand `text` to the player's line (from any thread)."""
        self.server.loop.call_soon_threadsafe(self.deliver, text)

    def deliver(self, text: str) -> None:
        if self.closed:
            return
        if self.waiting() > self.limits.output:
            self.kick("THE LINE IS NOT READING")
            return
        self.write(text)

    def hang_up(self) -> None:
        """Close the line once what is waiting is sent (from any thread)."""
        self.server.loop.call_soon_threadsafe(self.shut)

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
    """A named player's room, in a thread of its own."""

    def __init__(self, server: Server, connection: Connection, name: str):
        self.server, self.connection, self.name = server, connection, name
        self.lines: queue.SimpleQueue = queue.SimpleQueue()
        self.since = time.monotonic()
        self.room: Room | None = None

    def start(self) -> None:
        self.server.log(f"{self.name} on line ({self.connection.peer})")
        threading.Thread(target=self.run, name=f"retro {self.name}",
                         daemon=True).start()

    def run(self) -> None:
        tty = LineTeletype(self.lines, self.connection.send,
                           idle=self.server.limits.idle)
        store = None
        try:
            store = Store.open(self.server.path, player=self.name,
                               warn=self.server.log)
            store.notice = tty.say
            self.room = Room(tty, store, verbs=served_verbs(self, tty))
            self.room.run()
        except Exception:
            self.server.log(f"{self.name}'s session broke:\n"
                            f"{traceback.format_exc()}")
            tty.say("*** THE MACHINE HAS JAMMED. YOUR SESSION IS OVER. ***")
        finally:
            tty.flush()
            if store is not None:
                store.close()
            self.connection.hang_up()
            self.server.loop.call_soon_threadsafe(self.server.gone, self)

    def doing(self) -> str:
        """What WHO says this player is doing."""
        game = self.room.playing if self.room is not None else None
        return f"playing {game.title}" if game else "in the machine room"


BAUDS = (0, 50, 75, 110, 134, 150, 300, 600, 1200, 2400, 4800, 9600)


def served_verbs(session: Session, tty: LineTeletype) -> tuple[Verb, ...]:
    """WHO, BAUD and the served room's TEAR, for one session's room."""
    def who(said: Meaning) -> None:
        for line in who_is_on(session.server.on_line(), session):
            tty.say(line)
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
        self.connections: set[Connection] = set()
        self.players: dict[str, Session] = {}
        self.lock = threading.Lock()
        self.stopping = False
        self.empty = asyncio.Event()

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
        with self.lock:
            if session.name in self.players:
                return False
            self.players[session.name] = session
            return True

    def gone(self, session: Session) -> None:
        """A session's thread has ended: its name is free again."""
        with self.lock:
            self.players.pop(session.name, None)
            empty = not self.players
        self.log(f"{session.name} off line")
        if empty and self.stopping:
            self.empty.set()

    def on_line(self) -> list[Session]:
        with self.lock:
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
                connection.session.lines.put(Signal.GOING_DOWN)
        if self.on_line():
            try:
                await asyncio.wait_for(self.empty.wait(), grace)
            except asyncio.TimeoutError:
                self.log("some sessions did not end in time; they are cut")
        await asyncio.sleep(0.1)  # the last words on their way


class TelnetLine(asyncio.Protocol):
    """One telnet connection: bytes in and out for its Connection."""

    def __init__(self, server: Server):
        self.server, self.telnet = server, Telnet()

    def connection_made(self, transport) -> None:
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        host, port, *_ = transport.get_extra_info("peername") or ("?", 0)
        self.line = Connection(self.server, write=self.write,
                               close=self.close,
                               waiting=transport.get_write_buffer_size,
                               peer=f"telnet {host}:{port}")
        self.line.opened()

    def write(self, text: str) -> None:
        self.transport.write(text.replace("\n", "\r\n").encode())

    def close(self) -> None:
        self.transport.close()
        self.server.loop.call_later(5.0, self.transport.abort)

    def data_received(self, data: bytes) -> None:
        if not self.line.pays(data):
            return
        text, reply = self.telnet.feed(data)
        if reply:
            self.transport.write(reply)
        if text:
            self.line.take(text)

    def eof_received(self) -> bool:
        self.line.ended()
        return True  # keep the line open for the answers

    def connection_lost(self, error: Exception | None) -> None:
        self.line.lost()


async def open_telnet(server: Server, host: str, port: int):
    """Listen for telnet; the listener."""
    return await server.loop.create_server(
        lambda: TelnetLine(server), host, port, backlog=512,
        reuse_address=True)


SSH_MISSING = "SSH needs asyncssh: pip install 'retro[ssh]'"


def host_key(directory: Path, asyncssh):
    """The server's SSH host key: made on first use, its owner's alone."""
    path = directory / "ssh_host_key"
    try:
        return asyncssh.read_private_key(path)
    except FileNotFoundError:
        pass
    key = asyncssh.generate_private_key("ssh-ed25519")
    directory.mkdir(parents=True, exist_ok=True)
    try:
        made = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another server made it a moment ago
        return asyncssh.read_private_key(path)
    with os.fdopen(made, "wb") as file:
        file.write(key.export_private_key())
    return key


async def open_ssh(server: Server, host: str, port: int):
    """Listen for SSH; the listener."""
    import asyncssh

    class Session(SSHLine, asyncssh.SSHServerSession):
        pass

    class Gate(asyncssh.SSHServer):
        def begin_auth(self, username: str) -> bool:
            return False  # no password: a name is all a player gives

        def session_requested(self):
            return Session(server)

    return await asyncssh.create_server(
        Gate, host, port, server_host_keys=[host_key(server.path.parent,
                                                     asyncssh)],
        backlog=512,
        encoding="utf-8", errors="replace", line_editor=True,
        login_timeout=server.limits.name_wait)


class SSHLine:
    """One SSH session: text in and out for its Connection."""

    def __init__(self, server: Server):
        self.server = server
        self.line: Connection | None = None

    def connection_made(self, channel) -> None:
        self.channel = channel

    def shell_requested(self) -> bool:
        return True

    def session_started(self) -> None:
        host, port, *_ = self.channel.get_extra_info("peername") or ("?", 0)
        self.line = Connection(
            self.server, write=self.channel.write, close=self.close,
            waiting=self.channel.get_write_buffer_size,
            peer=f"ssh {host}:{port}",
            login=self.channel.get_extra_info("username") or "")
        self.line.opened()

    def data_received(self, data: str, datatype) -> None:
        text = data.encode()
        if self.line is not None and self.line.pays(text):
            self.line.take(text)

    def break_received(self, msec: int) -> bool:
        if self.line is not None:
            self.line.interrupted()
        return True

    def eof_received(self) -> bool:
        if self.line is not None:
            self.line.ended()
        return True

    def connection_lost(self, error: Exception | None) -> None:
        if self.line is not None:
            self.line.lost()

    def close(self) -> None:
        self.channel.close()
        self.server.loop.call_later(5.0, self.channel.abort)


async def serve(path: Path, limits: Limits, host: str, telnet: int,
                ssh: int | None) -> int:
    """Serve the room until Ctrl-C or SIGTERM; the exit status."""
    server = Server(path, limits)
    try:
        listeners = [("telnet", await open_telnet(server, host, telnet))]
        if ssh is not None:
            listeners.append(("ssh", await open_ssh(server, host, ssh)))
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
    if args.ssh is not None:
        try:
            import asyncssh  # noqa: F401 (only to know it is there)
        except ImportError:
            raise UsageError(SSH_MISSING) from None
    if not loopback(args.host):
        print(f"retro serve: warning: {args.host} is not the loopback "
              f"address; anyone who can reach it can play, without a "
              f"password", file=sys.stderr)
    path = data_dir() / FILENAME
    Store.open(path).close()
    for game in GAMES:
        import_front_end(game)
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
