"""The served room under attack: what each attack costs it, in figures.

    python benchmarks/attacks.py

Starts `retro serve` on the loopback with a scratch RETRO_HOME and makes the
attacks tests/test_attacks.py makes, measuring instead of asserting:

- 500 silent sockets, then a player who claims a name: how long to the
  room's prompt;
- 60 connections flooding telnet's "are you there?" without reading: how
  long until each is cut off, and how much the server's memory grows;
- a player with 2,000 lines of roll tearing it off while another types
  WHO: the slowest WHO;
- guesses at a claimed name's password from 4 connections at once: how many
  a second get an answer;
- 150 guesses fired at a name from 15 addresses and abandoned at once: how
  long its owner takes to log in meanwhile;
- 64 sockets that each sent a byte and 64 slow guessers, from 8 addresses:
  how long an honest player takes to log in;
- 50,000 connections made and dropped from 4 addresses: how many lines
  the server's log grew by.
"""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from served import Player, ask_are_you_there  # noqa: E402  (tests/served.py)


def start(home: Path) -> tuple[subprocess.Popen, int]:
    log = open(home / "serve.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "retro", "serve", "--telnet", "0"], cwd=ROOT,
        env=dict(os.environ, RETRO_HOME=str(home)), stdout=subprocess.PIPE,
        stderr=log, stdin=subprocess.DEVNULL, text=True)
    port = int(re.search(r"port (\d+)", server.stdout.readline()).group(1))
    return server, port


def rss(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024


def silent_sockets(port: int) -> str:
    silent = []
    for _ in range(500):
        try:
            silent.append(socket.create_connection(("127.0.0.1", port), 5))
        except OSError:
            break
    started = time.monotonic()
    Player(port, "ada").ask("who")
    took = time.monotonic() - started
    for sock in silent:
        sock.close()
    return (f"500 silent sockets ({len(silent)} connected): a player claimed "
            f"a name and reached the room in {took * 1000:.0f} ms")


def are_you_there(pid: int, port: int) -> str:
    before = rss(pid)
    floods = [socket.create_connection(("127.0.0.1", port)) for _ in range(60)]
    started, peaks = time.monotonic(), [before]
    alive = ask_are_you_there(floods, 30.0, lambda: peaks.append(rss(pid)))
    peak = max(peaks)
    took = time.monotonic() - started
    for sock in floods:
        sock.close()
    return (f"60 connections flooding IAC AYT: all cut off in {took:.1f} s, "
            f"{len(alive)} left; server {before:.0f} -> peak {peak:.0f} MB "
            f"(+{peak - before:.0f} MB)")


def tear_and_who(port: int) -> str:
    ada, bob = Player(port, "tess"), Player(port, "bob")
    for _ in range(5):
        for _ in range(30):
            ada.say("help")
        for _ in range(30):
            ada.expect("starts again.\r\n> ")
    waits, done = [], threading.Event()

    def who() -> None:
        while not done.is_set():
            started = time.monotonic()
            bob.ask("who")
            waits.append(time.monotonic() - started)
    watcher = threading.Thread(target=who)
    watcher.start()
    time.sleep(0.2)
    started = time.monotonic()
    ada.ask("tear", "yours to keep ---")
    took = time.monotonic() - started
    done.set()
    watcher.join()
    return (f"TEAR of a full roll took {took * 1000:.0f} ms; {len(waits)} "
            f"WHOs meanwhile, the slowest {max(waits) * 1000:.0f} ms")


def guesses(port: int) -> str:
    Player(port, "vic", "vic's own secret").close()
    thieves = [Player(port, source="127.0.4.2") for _ in range(4)]
    for thief in thieves:
        thief.expect("Your NAME")
        thief.say("vic")
        thief.expect("PASSWORD? ")
    started, answered = time.monotonic(), 0
    for thief in thieves:
        for guess in ("a", "b", "c"):
            thief.say(f"guess {guess}")
    for thief in thieves:
        answered += thief.closed(60).count("not the PASSWORD for vic")
    took = time.monotonic() - started
    return (f"{answered} wrong passwords from 4 connections at once answered "
            f"in {took:.1f} s: {answered / took:.1f} a second")


def abandoned(port: int, source: str, name: str) -> None:
    """A guess fired and abandoned: the name and a password, then gone."""
    try:
        with socket.create_connection(("127.0.0.1", port), 5,
                                      source_address=(source, 0)) as sock:
            sock.sendall(f"{name}\r\na wrong guess\r\n".encode())
    except OSError:
        pass


def owner_under_rain(port: int) -> str:
    Player(port, "wes", "wes's own secret").close()
    stop = threading.Event()

    def rain() -> None:
        for number in range(150):
            if stop.is_set():
                return
            abandoned(port, f"127.0.1.{2 + number % 15}", "wes")
            time.sleep(0.02)
    raining = threading.Thread(target=rain)
    raining.start()
    time.sleep(0.5)
    started = time.monotonic()
    Player(port).log_in("wes", "wes's own secret")
    took = time.monotonic() - started
    stop.set()
    raining.join()
    return (f"the owner logged in {took:.2f} s after the first of 150 "
            f"abandoned guesses at the name (15 addresses)")


def held_waiting_room(port: int) -> str:
    held = []
    for number in range(128):
        sock = socket.create_connection(
            ("127.0.0.1", port), 5,
            source_address=(f"127.0.2.{2 + number % 8}", 0))
        sock.sendall(b"x" if number < 64 else b"wes\r\n")
        held.append(sock)
    started = time.monotonic()
    Player(port).log_in("wes", "wes's own secret")
    took = time.monotonic() - started
    for sock in held:
        sock.close()
    return (f"an honest player logged in {took:.2f} s while 64 sockets that "
            f"sent a byte and 64 slow guessers held the waiting room")


def dropped(port: int, log: Path) -> str:
    before = len(log.read_text().splitlines())
    started, made = time.monotonic(), 0
    for number in range(50_000):
        try:
            socket.create_connection(
                ("127.0.0.1", port), 5,
                source_address=(f"127.0.3.{2 + number % 4}", 0)).close()
            made += 1
        except OSError:
            pass
    took = time.monotonic() - started
    time.sleep(61)  # the log's summary comes once a minute
    grown = len(log.read_text().splitlines()) - before
    return (f"{made:,} connections made and dropped in {took:.0f} s: the "
            f"log grew by {grown} lines")


def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        server, port = start(Path(home))
        try:
            for line in (silent_sockets(port), are_you_there(server.pid, port),
                         tear_and_who(port), guesses(port),
                         owner_under_rain(port), held_waiting_room(port),
                         dropped(port, Path(home) / "serve.log")):
                print(line, flush=True)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(30)


if __name__ == "__main__":
    main()
