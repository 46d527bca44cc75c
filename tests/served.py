"""A served room on the loopback, and telnet players for it: what the
served room's tests share (tests/test_serve.py, tests/test_attacks.py)."""
from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
from pathlib import Path

from retro.rooms.limits import Limits
from retro.rooms.login import NAME_PROMPT, PASSWORD_PROMPT
from retro.rooms.server import Server
from retro.services.guard import Guarding
from retro.services.store import FILENAME, Store
from retro.wires.ssh import open_ssh
from retro.wires.telnet import AYT, IAC, open_telnet

WAIT = 10.0  # the longest any one answer may take, in seconds


def limits_of(**given) -> Limits:
    """Limits with the fields `given`, the guard's among them (pause=...)."""
    guarding = {name: given.pop(name) for name in list(given)
                if name in Guarding.__dataclass_fields__}
    return Limits(**given, guarding=Guarding(**guarding))


class Player:
    """A telnet client on a real socket, reading until it sees something."""

    def __init__(self, port: int, name: str | None = None,
                 password: str | None = None, source: str = "127.0.0.1"):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT,
                                             source_address=(source, 0))
        self.seen = self.heard = b""  # not yet expected; everything
        if name is not None:
            self.log_in(name, f"{name.lower()} secret" if password is None
                        else password)

    def log_in(self, name: str, password: str = "") -> str:
        """Give `name` and `password` (claiming the name if it is new; an
        empty password is a guest's); what the login printed."""
        told = self.expect(NAME_PROMPT)
        self.say(name)
        told += self.expect(PASSWORD_PROMPT)
        self.say(password)
        seen, which = self.expect_either("AGAIN? ", "> ")
        if which == "AGAIN? ":
            self.say(password)
            seen += self.expect("> ")
        return told + seen

    def expect_either(self, *texts: str, wait: float = WAIT) -> tuple[str, str]:
        """Everything up to the first of `texts` to come, and which came."""
        deadline = time.monotonic() + wait
        while True:
            found = [(self.seen.find(text.encode()), text) for text in texts
                     if text.encode() in self.seen]
            if found:
                return self.expect(min(found)[1]), min(found)[1]
            left = deadline - time.monotonic()
            assert left > 0, f"none of {texts!r} in {self.seen[-400:]!r}"
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            assert data, f"closed before {texts!r}: {self.seen[-400:]!r}"
            self.seen += data
            self.heard += data

    def say(self, line: str | bytes, end: bytes = b"\r\n") -> None:
        self.sock.sendall((line.encode() if isinstance(line, str) else line)
                          + end)

    def expect(self, text: str, wait: float = WAIT) -> str:
        """Everything up to and including `text`; fails after `wait`."""
        wanted, deadline = text.encode(), time.monotonic() + wait
        while wanted not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"no {text!r} in {self.seen[-400:]!r}"
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            assert data, f"closed before {text!r}: {self.seen[-400:]!r}"
            self.seen += data
            self.heard += data
        before, _, self.seen = self.seen.partition(wanted)
        return (before + wanted).decode("utf-8", "replace")

    def ask(self, line: str, until: str = "> ") -> str:
        self.say(line)
        return self.expect(until)

    def closed(self, wait: float = WAIT) -> str:
        """All that arrives until the server closes the line."""
        deadline = time.monotonic() + wait
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"still open: {self.seen[-400:]!r}"
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except (socket.timeout, ConnectionResetError):
                if time.monotonic() < deadline:
                    return self.seen.decode("utf-8", "replace")
                continue
            if not data:
                return self.seen.decode("utf-8", "replace")
            self.seen += data

    def close(self) -> None:
        self.sock.close()


class Running:
    """A server in a thread of its own, with its own event loop."""

    def __init__(self, home: Path, limits: Limits, ssh: bool = False,
                 operator: str | None = None, store: str | None = None):
        self.operator = operator
        self.path, self.logs = home / FILENAME, []
        self.where = store or self.path  # a postgresql:// URL, or the file
        self.home = home
        home.mkdir(parents=True, exist_ok=True)
        Store.open(self.where).close()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=asyncio.run,
                                       args=(self.main(limits, ssh),),
                                       daemon=True)
        self.thread.start()
        assert self.ready.wait(WAIT)

    async def main(self, limits: Limits, ssh: bool) -> None:
        home = self.home
        self.loop = asyncio.get_running_loop()
        self.server = Server(self.where, limits, log=self.logs.append,
                             operator=self.operator, name=str(home))
        await self.server.start()
        listeners = [await open_telnet(self.server.connect, "127.0.0.1", 0,
                                       closing=limits.closing)]
        listeners += await self.listen(limits)
        if ssh:
            listeners.append(await open_ssh(
                self.server.connect, "127.0.0.1", 0, keys=self.path.parent,
                doors=self.server, grace=limits.name_wait, tries=limits.tries,
                closing=limits.closing))
        self.ports = [listener.sockets[0].getsockname()[1] for listener in listeners]
        self.port = self.ports[0]
        self.stop = asyncio.Event()
        self.ready.set()
        await self.stop.wait()
        for listener in listeners:
            listener.close()
        await self.server.go_down()

    async def listen(self, limits: Limits) -> list:
        """More doors than telnet (SSH, the web), for a kind of Running."""
        return []

    def store(self, player: str | None = None) -> Store:
        return Store.open(self.where, player=player)

    def until(self, condition, wait: float = WAIT) -> None:
        """Wait until `condition()` holds on the server's own loop (it is
        tried after every turn of the loop), or fail after `wait`."""
        async def holds() -> None:
            while not condition():
                await asyncio.sleep(0)
        asyncio.run_coroutine_threadsafe(
            asyncio.wait_for(holds(), wait), self.loop).result(wait + 1)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(WAIT)


def bet(player: Player) -> int:
    """Bet 10 pennies on HHT at Penney's game, picking first; the bankroll
    after."""
    player.ask("y", "tosses? ")
    player.ask("HHT", "pennies? ")
    seen = player.ask("10", "(y/n) ")
    return int(re.findall(r"You have (\d+) pennies", seen)[-1])


def ask_are_you_there(socks: list[socket.socket], seconds: float,
                      each=lambda: None) -> list[socket.socket]:
    """Flood telnet's "are you there?" down every socket, never reading,
    until the server has cut them all off or `seconds` have passed (calling
    `each` between rounds); the sockets still open."""
    question = bytes([IAC, AYT]) * 4096
    deadline, open_ones = time.monotonic() + seconds, list(socks)
    while open_ones and time.monotonic() < deadline:
        for sock in list(open_ones):
            try:
                sock.setblocking(False)
                sock.send(question)
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                open_ones.remove(sock)
        each()
        time.sleep(0.01)
    return open_ones


MOVES = ("7-4", "8-5", "9-6", "4-1", "5-2", "6-3", "7-5", "8-4", "8-6",
         "9-5", "4-2", "5-1", "5-3", "6-2")


def move(player) -> str:
    """Make the first legal move of MOVES at HER's board (`player` is
    anything with `ask`, a telnet player or a browser); what followed it."""
    for candidate in MOVES:
        seen = player.ask(candidate, "? ")
        if "ILLEGAL" not in seen and "TYPE A MOVE" not in seen:
            return seen
    raise AssertionError("no legal move")


def operator_resets_her(store, op: Player, other: Player) -> str:
    """HER as if she had played 240 games (put in `store`), then `op`
    resets her: what `other` is told."""
    from retro.engines.matchbox import fresh, robot_json
    from retro.games.hexapawn_her import HER_KEY

    with store:
        store.put(HER_KEY, {"robot": robot_json(fresh("HER")),
                            "record": "WL" * 120})
    op.ask("reset her", "(Y OR N)? ")
    op.ask("y")
    return other.expect("***\r\n")
