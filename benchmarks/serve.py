"""The served room under load: people, saturation, faults and SSH.

    python benchmarks/serve.py [--parts people,saturation,faults,ssh,shared]
                               [--people 10,100]
                               [--seconds 15] [--no-profile]

Everything talks to `retro serve` on 127.0.0.1 only, started as a
subprocess with a temporary RETRO_HOME; every loop is bounded in count and
in time. The clients are asyncio streams in this process.

- people: N players (100, 500, then 1,000) arrive, ARRIVALS a second (as
  fast as the server hashes the passwords they claim their names with),
  each from a loopback address of its own (127.0.0.2 and on, as people on
  many machines), log in at once and play a whole mind-reader match against
  Shannon's machine (random h/t), thinking 0.3-0.9 s before each line they
  type, as a person does: PLAY 1, the opponent and every play (the login's
  lines are not timed). Reported: how many finished, the
  p50 and p99 time from a line sent to the next prompt received, whether
  the store holds one result under each name, the server's peak resident
  memory (VmHWM) and the most threads it ran at once (sampled every 50 ms).
  Targets at 1,000: all finish, p99 < 100 ms, RSS < 200 MB, at most 8
  threads.
- saturation: 50 players answering as fast as the server does, for
  --seconds: lines per second, p50/p99, the server's CPU per line, split
  between the event loop's thread and any other threads (the store's
  worker); then the same run under cProfile (every thread), its top
  functions by own time.
- faults: (a) 20 fast players; `kill -9` of the server after 4 s; a
  restart on the same store: every match a client saw finish is in the
  store exactly once, nothing is recorded twice or for a name that never
  played, and the store passes SQLite's integrity check and opens without
  being set aside. (b) 10 players at a brisk pace (0.1-0.3 s), alone and
  then beside 20 silent clients (10 that never read, 10 that stop at the
  name prompt) and one that sends 10 MB of garbage: p99 with and without.
- ssh: one asyncssh client plays a Penney bet end to end.
- web (not run unless asked): --web N players at the web door (a
  WebSocket each, a JSON message a line, as the page sends them) at a
  person's pace, each a whole mind-reader match; then half at the web door
  and half over telnet at once (arriving ARRIVALS a second between them);
  then (or alone, as webcost) 50 players answering as fast as the server
  does for --seconds at each door: the event loop's CPU a line, web and
  telnet.
- shared (not run unless asked): two servers on one PostgreSQL (a real
  one, started as the tests start theirs), --shared N players split
  between them at a person's pace; then the same with the first server
  killed with SIGKILL mid-load, and with PostgreSQL restarted mid-load:
  how many finished on each, p99, each server's peak memory and threads,
  and whether every match a client saw finish is recorded once.

A whole default run takes about six minutes; --people 10,30 --seconds 5
is a quicker look.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
LIMIT = 600.0  # no part runs longer than this, in seconds
ARRIVALS = 10.0  # players arriving a second: well within what the server hashes

PROFILED = r"""
import cProfile, pstats, sys, threading, time
profiles, lock, plain_run = [], threading.Lock(), threading.Thread.run
def run(self):
    profile = cProfile.Profile(time.thread_time)  # CPU, not waiting
    profile.enable()
    try:
        plain_run(self)
    finally:
        profile.disable()
        with lock:
            profiles.append(profile)
threading.Thread.run = run
main_profile = cProfile.Profile(time.thread_time)
main_profile.enable()
from retro.cli import main
code = main(sys.argv[2:])
main_profile.disable()
with lock:
    stats = pstats.Stats(main_profile, *profiles)
stats.dump_stats(sys.argv[1])
sys.exit(code)
"""


class Served:
    """`retro serve` as a subprocess, on a free port."""

    def __init__(self, home: Path, *extra: str, profile: Path | None = None,
                 players: int = 500):
        self.home = home
        env = dict(os.environ, RETRO_HOME=str(home))
        command = [sys.executable, "-m", "retro"]
        if profile is not None:
            command = [sys.executable, "-c", PROFILED, str(profile)]
        self.process = subprocess.Popen(
            command + ["serve", "--telnet", "0", "--max-players",
                       str(players), "--claims", "100000", *extra],
            cwd=ROOT, env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True)
        self.ports = {}
        for _ in range(1 + ("--ssh" in extra) + ("--web" in extra)):
            line = self.process.stdout.readline()
            found = re.search(r"(telnet|ssh|web) on \S+ port (\d+)", line)
            assert found, f"no ready line: {line!r}"
            self.ports[found.group(1)] = int(found.group(2))
        self.port = self.ports["telnet"]

    def threads(self) -> int:
        """How many threads the server runs now."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"Threads:\s+(\d+)", status).group(1))

    async def most_threads(self, done: asyncio.Event) -> int:
        """The most threads seen, sampled every 50 ms until `done`."""
        most = 0
        while not done.is_set():
            try:
                most = max(most, self.threads())
            except (OSError, AttributeError):
                break
            await asyncio.sleep(0.05)
        return most

    def rss_peak_mb(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+)", status).group(1)) / 1024

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far: the main (event loop) thread, the others."""
        tick = os.sysconf("SC_CLK_TCK")
        loop = others = 0.0
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            seconds = (int(fields[11]) + int(fields[12])) / tick
            if task.name == str(self.process.pid):
                loop += seconds
            else:
                others += seconds
        return {"loop": loop, "others": others}

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(30)
        finally:
            self.process.kill()

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()


class Client:
    """One telnet player: lines out, prompts back, each wait timed."""

    PROMPTS = (b"? ", b"> ")

    def __init__(self, name: str):
        self.name, self.latencies, self.finished = name, [], []
        self.lines = self.unsaved = 0

    async def connect(self, port: int, source: str | None = None) -> None:
        self.reader, self.writer = await asyncio.open_connection(
            HOST, port, local_addr=(source, 0) if source else None)
        await self.until(b"? ")

    async def until(self, ending: bytes | tuple = PROMPTS) -> bytes:
        """Read until what has come ends with a prompt; the bytes (decoded
        only where they are read: the client must cost less than the
        server, or it is the client that is measured)."""
        got = b""
        while not got.endswith(ending):
            data = await self.reader.read(65536)
            if not data:
                raise ConnectionError(f"{self.name}: closed after {got[-200:]!r}")
            got += data
        return got

    async def log_in(self) -> None:
        """Claim the name (a first visit: the password typed twice) or give
        its password; not timed, since it is not a game's line."""
        password = f"{self.name} secret".encode()
        self.writer.write(self.name.encode() + b"\r\n")
        await self.until(b"PASSWORD? ")
        self.writer.write(password + b"\r\n")
        if (await self.until((b"AGAIN? ", b"> "))).endswith(b"AGAIN? "):
            self.writer.write(password + b"\r\n")
            await self.until(b"> ")

    async def send(self, line: str, ending=PROMPTS) -> bytes:
        sent = time.perf_counter()
        self.writer.write(line.encode() + b"\r\n")
        text = await self.until(ending)
        self.latencies.append(time.perf_counter() - sent)
        self.lines += 1
        return text

    async def match(self, rng: random.Random, think: tuple[float, float],
                    plays: str = "ht") -> str:
        """A whole mind-reader match against Shannon's machine; its score."""
        await self.think(rng, think)
        await self.send("play 1")
        await self.think(rng, think)
        text = await self.send("")  # the opponent: Shannon's, as the AWK
        for _ in range(400):  # a match is at most 100 rounds
            if text.endswith(b"> "):
                score = re.findall(r"\((\d+-\d+)\)", text.decode())[-1]
                self.finished.append(score)
                self.unsaved += b"NOT SAVED" in text
                return score
            await self.think(rng, think)
            text = await self.send(rng.choice(plays))
        raise RuntimeError("a match that never ended")

    @staticmethod
    async def think(rng: random.Random, think: tuple[float, float]) -> None:
        """A person's pause before typing a line (none for a program)."""
        if think[1]:
            await asyncio.sleep(rng.uniform(*think))

    def close(self) -> None:
        self.writer.close()


class WebClient(Client):
    """One player at the web door: the same lines, as its page sends them
    (a JSON message a line), and the paper's text back."""

    async def connect(self, port: int, source: str | None = None) -> None:
        from websockets.asyncio.client import connect

        self.socket = await connect(
            f"ws://{HOST}:{port}/room", compression=None, open_timeout=60,
            local_addr=(source, 0) if source else None)
        self.reader = self.writer = self
        self.last = ""
        await self.until(b"? ")

    async def read(self, size: int) -> bytes:
        """The next text the room sends (what a reader's read gives)."""
        import json

        while True:
            try:
                said = json.loads(await self.socket.recv())
            except Exception as closed:  # the line closed: say after what
                raise ConnectionError(f"{self.name}: closed ({closed!r}) "
                                      f"after {self.last[-200:]!r}") from None
            if said.get("text"):
                self.last = said["text"]
                return said["text"].encode()

    def write(self, data: bytes) -> None:
        import json

        for line in data.decode().split("\r\n")[:-1]:
            asyncio.ensure_future(self.sending(json.dumps({"line": line})))

    async def sending(self, message: str) -> None:
        """Send, or let a line the server closed say why where it is
        read (not as a task's unretrieved error)."""
        from websockets.exceptions import ConnectionClosed

        try:
            await self.socket.send(message)
        except ConnectionClosed:
            pass

    def close(self) -> None:
        asyncio.ensure_future(self.socket.close())


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def figures(latencies: list[float]) -> str:
    return (f"p50 {1000 * percentile(latencies, .5):6.1f} ms  "
            f"p99 {1000 * percentile(latencies, .99):6.1f} ms  "
            f"max {1000 * max(latencies):6.1f} ms  ({len(latencies)} lines)")


async def players(port: int, count: int, prefix: str, rng: random.Random,
                  think: tuple[float, float], matches: int = 1,
                  until: float | None = None, plays: str = "ht",
                  kind: type[Client] = Client,
                  rate: float = ARRIVALS) -> list:
    """`count` clients, each playing `matches` (or until the clock)."""
    async def one(number: int) -> Client:
        client = kind(f"{prefix}{number}")
        own = random.Random(rng.random())
        await asyncio.sleep(number / rate)
        await client.connect(port, f"127.0.{2 + number // 250}."
                                   f"{2 + number % 250}")
        await client.log_in()  # at once, as a client that logs itself in
        for _ in range(matches):
            if until is not None and time.time() > until:
                break
            await client.match(own, think, plays)
        return client
    return await asyncio.gather(*(one(n) for n in range(count)),
                                return_exceptions=True)


def results_by_player(home: Path) -> dict[str, int]:
    with sqlite3.connect(home / "served.sqlite3") as db:
        rows = db.execute("SELECT player, count(*) FROM results"
                          " WHERE game = 'mindreader' GROUP BY player")
        return dict(rows.fetchall())


def failures(clients: list) -> list:
    return [c for c in clients if isinstance(c, BaseException)]


async def people(counts: list[int], rounds_think) -> None:
    print("== people: a whole mind-reader match each, thinking 0.3-0.9 s")
    for count in counts:
        with tempfile.TemporaryDirectory() as home:
            served = Served(Path(home), players=count + 10)
            started, done_playing = time.monotonic(), asyncio.Event()
            sampling = asyncio.ensure_future(served.most_threads(done_playing))
            clients = await asyncio.wait_for(players(
                served.port, count, "p", random.Random(count), (0.3, 0.9)),
                LIMIT)
            took = time.monotonic() - started
            done_playing.set()
            threads = await sampling
            done = [c for c in clients if not isinstance(c, BaseException)
                    and c.finished]
            latencies = [t for c in done for t in c.latencies]
            stored = results_by_player(Path(home))
            right = sum(stored.get(c.name) == 1 for c in done)
            rss = served.rss_peak_mb()
            for c in done:
                c.close()
            status = served.stop()
        print(f"{count:4d} players: {len(done)}/{count} finished in "
              f"{took:5.1f} s; {figures(latencies)}")
        print(f"     store: {right} of {count} names hold their one result "
              f"({sum(stored.values())} results); server RSS peak "
              f"{rss:.0f} MB; threads at most {threads}; exit {status}")
        for error in failures(clients)[:3]:
            print(f"     failed: {error!r}")


def fast_players(port: int, count: int, prefix: str, seed: int,
                 until: float) -> tuple[int, list[float], int]:
    """`count` players as fast as the server answers, in this process: how
    many lines, their latencies, how many failed (for a pool of clients)."""
    clients = asyncio.run(asyncio.wait_for(players(
        port, count, prefix, random.Random(seed), (0, 0), matches=10 ** 6,
        until=until), LIMIT))
    done = [c for c in clients if not isinstance(c, BaseException)]
    return (sum(c.lines for c in done),
            [t for c in done for t in c.latencies], len(clients) - len(done))


async def saturation(count: int, seconds: float, profile: bool,
                     processes: int) -> None:
    print(f"== saturation: {count} players answering at once, {seconds:g} s,"
          f" the clients in {processes} process(es) of their own")
    from concurrent.futures import ProcessPoolExecutor

    loop = asyncio.get_running_loop()
    with tempfile.TemporaryDirectory() as home, \
            ProcessPoolExecutor(processes) as pool:
        served = Served(Path(home))
        before, started = served.cpu(), time.monotonic()
        until = time.time() + seconds
        shares = [count // processes + (n < count % processes)
                  for n in range(processes)]
        found = await asyncio.gather(*(
            loop.run_in_executor(pool, fast_players, served.port, share,
                                 f"s{n}-", 7 + n, until)
            for n, share in enumerate(shares)))
        took, after = time.monotonic() - started, served.cpu()
        served.stop()
    lines = sum(part[0] for part in found)
    latencies = [t for part in found for t in part[1]]
    failed = sum(part[2] for part in found)
    cpu = {part: after[part] - before[part] for part in after}
    print(f"  {lines / took:7.0f} lines/s; {figures(latencies)}; "
          f"{failed} failed")
    print(f"  server CPU per line: {1000 * sum(cpu.values()) / lines:.2f} ms"
          f" (event loop's thread {1000 * cpu['loop'] / lines:.2f} ms, "
          f"other threads {1000 * cpu['others'] / lines:.2f} ms)")
    if profile:
        await profiled(count, seconds)


async def profiled(count: int, seconds: float) -> None:
    import pstats

    with tempfile.TemporaryDirectory() as home:
        dump = Path(home) / "serve.prof"
        served = Served(Path(home) / "home", profile=dump)
        clients = await asyncio.wait_for(players(
            served.port, count, "s", random.Random(7), (0, 0), matches=10 ** 6,
            until=time.time() + seconds / 2), LIMIT)
        lines = sum(c.lines for c in clients
                    if not isinstance(c, BaseException))
        served.stop()
        stats = pstats.Stats(str(dump))
    total = sum(row[2] for row in stats.stats.values())
    print(f"  profile (cProfile, every thread; {lines} lines; own time, "
          f"share of {1000 * total / max(lines, 1):.2f} ms a line "
          f"under the profiler):")
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])
    for (path, line, name), (_, calls, own, _, _) in rows[:14]:
        where = f"{Path(path).name}:{line}" if line else path
        print(f"    {100 * own / total:5.1f}%  {name[:38]:<38} {where[:34]}")


async def kill_mid_load() -> None:
    print("== faults (a): kill -9 in the middle of 20 fast players, restart")
    with tempfile.TemporaryDirectory() as home:
        served = Served(Path(home))
        clients = [Client(f"k{n}") for n in range(20)]

        async def play(client: Client) -> None:
            await client.connect(served.port)
            await client.log_in()
            rng = random.Random(client.name)
            while True:  # until the server is killed under it
                await client.match(rng, (0, 0), plays="h")
        tasks = [asyncio.ensure_future(play(c)) for c in clients]
        await asyncio.sleep(4.0)
        served.kill()
        await asyncio.wait(tasks, timeout=30)
        for task in tasks:  # each ends as its connection drops: expected
            if task.done():
                task.exception()
            else:
                task.cancel()
        reported = {c.name: len(c.finished) for c in clients}
        warnings = []
        restarted = Served(Path(home))
        restarted.stop()
        from retro.services.store import Store

        store = Store.open(Path(home) / "served.sqlite3", warn=warnings.append)
        results = store.results("mindreader")
        check = store.db.execute("PRAGMA integrity_check").fetchone()[0]
        seeds = [(r.player, r.seed) for r in results]
        stored = {name: sum(r.player == name for r in results)
                  for name in reported}
        store.close()
    short = [n for n in reported if stored[n] < reported[n]]
    extra = [n for n in reported if stored[n] > reported[n] + 1]
    strangers = {r.player for r in results} - set(reported)
    print(f"  {sum(reported.values())} matches seen finished by the clients,"
          f" {len(results)} in the store after the restart")
    print(f"  missing for {len(short)} players; more than one unseen match "
          f"for {len(extra)}; unknown names {len(strangers)}; recorded twice "
          f"{len(seeds) - len(set(seeds))}; integrity_check {check}; "
          f"set aside on opening: {'yes' if warnings else 'no'}")


async def silent_and_garbage() -> None:
    print("== faults (b): 10 players at 0.1-0.3 s, alone and beside 20 "
          "silent clients and 10 MB of garbage")
    for company in (False, True):
        with tempfile.TemporaryDirectory() as home:
            served = Served(Path(home))
            others, garbage = [], None
            if company:
                others = [await asyncio.open_connection(HOST, served.port)
                          for _ in range(20)]
                for reader, _ in others[10:]:
                    await reader.readuntil(b"? ")  # read the prompt, no more
                garbage = asyncio.ensure_future(flood(served.port))
            clients = await asyncio.wait_for(players(
                served.port, 10, "b", random.Random(3), (0.1, 0.3),
                matches=1), LIMIT)
            latencies = [t for c in clients if not isinstance(c, BaseException)
                         for t in c.latencies]
            sent = await garbage if garbage else None
            for _, writer in others:
                writer.close()
            served.stop()
        print(f"  {'with' if company else 'alone'}: {figures(latencies)}; "
              f"{len(failures(clients))} failed"
              + (f"; the garbage client got {sent}" if company else ""))


async def flood(port: int) -> str:
    """Send 10 MB of random bytes; how far it got."""
    reader, writer = await asyncio.open_connection(HOST, port)
    garbage, sent = random.Random(1).randbytes(10 * 2 ** 20), 0
    try:
        for start in range(0, len(garbage), 65536):
            writer.write(garbage[start:start + 65536])
            await asyncio.wait_for(writer.drain(), 10)
            sent = start + 65536
    except (ConnectionError, asyncio.TimeoutError) as error:
        return f"cut off after {sent // 1024} KB ({type(error).__name__})"
    finally:
        writer.close()
    return f"all {sent // 2 ** 20} MB accepted"


async def ssh_bet() -> None:
    print("== ssh: one asyncssh client bets at Penney's game")
    import asyncssh

    with tempfile.TemporaryDirectory() as home:
        served = Served(Path(home), "--ssh", "0")
        started = time.monotonic()
        async with asyncssh.connect(HOST, served.ports["ssh"], username="sam",
                                    known_hosts=None,
                                    client_keys=None) as connection:
            process = await connection.create_process(term_type="vt100")
            seen = ""
            for answer, wanted in (("", "PASSWORD? "), ("sam secret", "AGAIN? "),
                                   ("sam secret", "> "), ("penney", "(y/n) "),
                                   ("y", "tosses? "), ("HHT", "pennies? "),
                                   ("10", "(y/n) "), ("q", "> ")):
                if answer:
                    process.stdin.write(answer + "\n")
                while not seen.endswith(wanted):
                    seen += await asyncio.wait_for(process.stdout.read(4096),
                                                   30)
            process.stdin.write("quit\n")
        took = time.monotonic() - started
        served.stop()
        with sqlite3.connect(Path(home) / "served.sqlite3") as db:
            rows = db.execute("SELECT player, score FROM results").fetchall()
    after = re.findall(r"You have (\d+) pennies", seen)[-1]
    print(f"  connected, claimed the SSH user's name, bet and left in {took:.2f} s;"
          f" {after} pennies; the store holds {rows}")


def pg_results(url: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(url) as db:
        rows = db.execute("SELECT player, count(*) FROM results"
                          " WHERE game = 'mindreader' GROUP BY player")
        return dict(rows.fetchall())


async def left_who(port: int, prefix: str) -> float:
    """Seconds until WHO on `port` lists no one whose name has `prefix`."""
    started = time.monotonic()
    watcher = Client("watcher")
    await watcher.connect(port, "127.0.9.9")
    watcher.writer.write(b"watcher\r\n")
    await watcher.until(b"PASSWORD? ")
    watcher.writer.write(b"\r\n")  # a guest
    await watcher.until(b"> ")
    while time.monotonic() - started < 120:
        seen = (await watcher.send("who")).decode()
        if not re.search(rf"^  {re.escape(prefix)}", seen, re.M):
            break
        await asyncio.sleep(1)
    watcher.close()
    return time.monotonic() - started


async def shared(count: int, fault: str) -> None:
    """Two servers on one PostgreSQL, `count` players split between them
    at a person's pace; `fault`: "" for none, "kill" to kill -9 the first
    server mid-load, "restart" to restart PostgreSQL mid-load."""
    sys.path.insert(0, str(ROOT / "tests"))
    from postgres import Server as Database  # tests/postgres.py

    print(f"== shared: {count} players on two servers, one PostgreSQL"
          + (f"; {fault} mid-load" if fault else ""))
    database = Database()
    try:
        url = database.fresh_database()
        with tempfile.TemporaryDirectory() as home:
            servers = [Served(Path(home) / name, "--store", url,
                              players=count // 2 + 10)
                       for name in ("one", "two")]
            done_playing = asyncio.Event()
            sampling = [asyncio.ensure_future(s.most_threads(done_playing))
                        for s in servers]
            started = time.monotonic()

            gone_in: list[float] = []

            async def strike() -> None:
                await asyncio.sleep(60 + 45)
                if fault == "kill":
                    servers[0].kill()
                    gone_in.append(await left_who(servers[1].port, "a-"))
                elif fault == "restart":
                    await asyncio.get_running_loop().run_in_executor(
                        None, database.restart)
            striking = asyncio.ensure_future(strike())
            halves = await asyncio.wait_for(asyncio.gather(*(
                players(server.port, count // 2, f"{name}-",
                        random.Random(count + n), (0.3, 0.9),
                        rate=count / 2 / 60)  # all of them over a minute
                for n, (name, server) in enumerate(zip("ab", servers)))),
                LIMIT)
            took = time.monotonic() - started
            await striking
            done_playing.set()
            threads = [await sample for sample in sampling]
            stored = pg_results(url)
            for n, (server, clients) in enumerate(zip(servers, halves)):
                done = [c for c in clients
                        if not isinstance(c, BaseException) and c.finished]
                seen = [c.name for c in done]
                once = sum(stored.get(name) == 1 for name in seen)
                told = sum(c.unsaved for c in done)
                alive = server.process.poll() is None
                rss = server.rss_peak_mb() if alive else float("nan")
                print(f"  server {n + 1}: {len(done)}/{len(clients)} finished"
                      f" in {took:5.1f} s; "
                      + (figures([x for c in done for x in c.latencies])
                         if done else "no lines"))
                print(f"     {once} of {len(done)} finished matches recorded "
                      f"once, {told} told NOT SAVED; RSS peak {rss:.0f} MB; "
                      f"threads at most {threads[n]}"
                      + ("" if alive else "; killed"))
                for error in failures(clients)[:2]:
                    print(f"     failed: {error!r}")
            if gone_in:
                print(f"  the killed server's players left WHO on the other "
                      f"{gone_in[0]:.1f} s after the kill")
            twice = sum(number > 1 for number in stored.values())
            print(f"  the store: {sum(stored.values())} results, "
                  f"{twice} names with more than one")
            for server in servers:
                if server.process.poll() is None:
                    server.stop()
    finally:
        database.stop()


async def web(count: int) -> None:
    """`count` players at the web door at a person's pace; then half of
    them at the web door and half over telnet, at once."""
    for mixed in (False, True):
        print(f"== web: {count} players at a person's pace, "
              + ("half at the web door, half over telnet" if mixed else
                 "all at the web door"))
        with tempfile.TemporaryDirectory() as home:
            served = Served(Path(home), "--web", "0", players=count + 10)
            done_playing = asyncio.Event()
            sampling = asyncio.ensure_future(served.most_threads(done_playing))
            started = time.monotonic()
            webbed = count // 2 if mixed else count
            # the two doors share the arrivals: ARRIVALS a second in all,
            # what the server hashes claims at (both at ARRIVALS each
            # filled the waiting room faster than the claims were hashed)
            rate = ARRIVALS / 2 if mixed else ARRIVALS
            groups = await asyncio.wait_for(asyncio.gather(
                players(served.ports["web"], webbed, "w",
                        random.Random(count), (0.3, 0.9), kind=WebClient,
                        rate=rate),
                players(served.port, count - webbed, "t",
                        random.Random(count + 1), (0.3, 0.9), rate=rate)),
                LIMIT)
            took = time.monotonic() - started
            done_playing.set()
            threads = await sampling
            clients = [c for group in groups for c in group]
            done = [c for c in clients if not isinstance(c, BaseException)
                    and c.finished]
            stored = results_by_player(Path(home))
            right = sum(stored.get(c.name) == 1 for c in done)
            rss = served.rss_peak_mb()
            for c in done:
                c.close()
            served.stop()
        print(f"{count:4d} players: {len(done)}/{count} finished in "
              f"{took:5.1f} s; "
              f"{figures([t for c in done for t in c.latencies])}")
        for door, kind in (("web", WebClient), ("telnet", Client)):
            lines = [t for c in done if type(c) is kind for t in c.latencies]
            if mixed and lines:  # each door's lines, in the same run
                print(f"     {door:>6}: {figures(lines)}")
        print(f"     store: {right} of {len(done)} finished matches recorded "
              f"once; server RSS peak {rss:.0f} MB; threads at most "
              f"{threads}")
        for error in failures(clients)[:3]:
            print(f"     failed: {error!r}")


async def door_cost(count: int, seconds: float) -> None:
    """`count` players answering as fast as the server does, at the web
    door and then over telnet: the event loop's CPU a line at each."""
    print(f"== web cost: {count} players answering at once, {seconds:g} s "
          f"at each door; the event loop's CPU a line")
    for door, kind in (("web", WebClient), ("telnet", Client)):
        with tempfile.TemporaryDirectory() as home:
            served = Served(Path(home), "--web", "0", players=count + 10)
            before = served.cpu()
            clients = await asyncio.wait_for(players(
                served.ports[door], count, "c", random.Random(7), (0, 0),
                matches=10 ** 6, until=time.time() + seconds, kind=kind,
                rate=count), LIMIT)
            loop = served.cpu()["loop"] - before["loop"]
            done = [c for c in clients if not isinstance(c, BaseException)]
            lines = sum(c.lines for c in done)
            for c in done:
                c.close()
            served.stop()
        print(f"  {door:>6}: {lines} lines; the loop's CPU "
              f"{1e6 * loop / max(lines, 1):.0f} us a line; "
              f"{len(failures(clients))} failed")


async def main(args) -> None:
    parts = args.parts.split(",")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
          f"(other programs share this machine's time)")
    if "people" in parts:
        await people([int(n) for n in args.people.split(",")], args)
    if "saturation" in parts:
        await saturation(50, args.seconds, not args.no_profile,
                         args.client_processes)
    if "faults" in parts:
        await kill_mid_load()
        await silent_and_garbage()
    if "ssh" in parts:
        await ssh_bet()
    if "web" in parts:
        await web(args.web)
    if "web" in parts or "webcost" in parts:
        await door_cost(50, args.seconds)
    if "shared" in parts:
        for fault in args.faults.split(","):
            await shared(args.shared, "" if fault == "none" else fault)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", default="people,saturation,faults,ssh",
                        help="which parts to run, separated by commas "
                             "(default: all four)")
    parser.add_argument("--people", default="100,500,1000",
                        help="the numbers of players at a person's pace "
                             "(default: 100,500,1000)")
    parser.add_argument("--seconds", type=float, default=15.0,
                        help="how long the saturation run lasts "
                             "(default: 15)")
    parser.add_argument("--client-processes", type=int, default=2,
                        metavar="N",
                        help="processes the saturation's clients run in "
                             "(default: 2, so that the server, not one "
                             "client process, is what saturates)")
    parser.add_argument("--web", type=int, default=1000, metavar="N",
                        help="players in the web part, at the web door "
                             "(default: 1000)")
    parser.add_argument("--faults", default="none,kill,restart",
                        help="the shared part's runs: none, kill (SIGKILL "
                             "one server), restart (PostgreSQL)")
    parser.add_argument("--shared", type=int, default=1000, metavar="N",
                        help="players in the shared part, split between two "
                             "servers on one PostgreSQL (default: 1000)")
    parser.add_argument("--no-profile", action="store_true",
                        help="skip the profiled saturation run")
    args = parser.parse_args()
    asyncio.run(asyncio.wait_for(main(args), 4 * LIMIT))
