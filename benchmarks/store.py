"""The store's two engines side by side, in figures.

    python benchmarks/store.py [--url postgresql://...] [--lessons 400]

Without --url it starts a PostgreSQL of its own from Debian's packages in a
temporary directory (as tests/postgres.py does), on a unix socket, with
fsync on, as a real room's would be. For each engine, a SQLite file in a
temporary directory and a fresh PostgreSQL database:

- HER's lessons kept by `hexapawn_her.keep` from two connections at once:
  lessons a second, and whether the beads equal a replay of the records;
- one recorded game (`store.record`), one at a time: the median and the
  99th percentile;
- SCORES over 100,000 recorded games (`store.scoreboard`): the time;
- and, on PostgreSQL, a name proved on one server until the roster of the
  server that held it hears it must close the line.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from retro.games import hexapawn_her  # noqa: E402
from retro.services.roster import open_roster  # noqa: E402
from retro.services.store import Store  # noqa: E402
from test_shared_room import lessons, teach  # noqa: E402


def lessons_a_second(where, count: int) -> tuple[float, bool]:
    halves = lessons(random.Random(1), count // 2), lessons(
        random.Random(2), count // 2)
    start, barrier = time.perf_counter(), threading.Barrier(2)

    def run(taught):
        with Store.open(where, fallback=False) as store:
            barrier.wait()
            teach(store, taught)

    threads = [threading.Thread(target=run, args=(half,)) for half in halves]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.perf_counter() - start
    with Store.open(where, fallback=False) as store:
        her = hexapawn_her.load_her(store)
        numbers = sorted(game.detail["her_game"]
                         for game in store.results("hexapawn"))
    return count / took, numbers == list(range(1, count + 1)) \
        and len(her.record) == count


def record_times(where, count: int = 300) -> tuple[float, float]:
    times = []
    with Store.open(where, fallback=False) as store:
        for seed in range(count):
            start = time.perf_counter()
            store.record("flip", score="27-23", outcome="win", seed=seed)
            times.append(time.perf_counter() - start)
    times.sort()
    return statistics.median(times) * 1000, times[int(count * .99)] * 1000


def scores_time(where, count: int = 100_000) -> float:
    with Store.open(where, fallback=False) as store:
        rows = [(number, "flip", "2026-01-01T00:00:00+00:00", "27-23",
                 ("win", "loss", "draw")[number % 3], str(number), "{}",
                 f"p{number % 50}") for number in range(1, count + 1)]
        store.take_in(rows, [])
        start = time.perf_counter()
        store.scoreboard(None, 5)
        return time.perf_counter() - start


async def close_after_claim(url: str) -> float:
    closed = asyncio.Event()
    a = open_roster(url, "a", close=lambda name: closed.set())
    b = open_roster(url, "b")
    await a.start()
    await b.start()
    await a.claim("ada")
    start = time.perf_counter()
    await b.claim("ada")
    await closed.wait()
    took = time.perf_counter() - start
    await a.stop()
    await b.stop()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a PostgreSQL to use (default: start "
                                      "one)")
    parser.add_argument("--lessons", type=int, default=400)
    args = parser.parse_args()
    server = None
    if args.url is None:
        from postgres import Server

        server = Server(fsync=True)
        fresh = server.fresh_database
    else:
        fresh = lambda: args.url  # noqa: E731
    scratch = Path(tempfile.mkdtemp())
    try:
        for engine, where in (("SQLite", lambda name: scratch / name),
                              ("PostgreSQL", lambda name: fresh())):
            rate, whole = lessons_a_second(where("lessons.sqlite3"),
                                           args.lessons)
            median, p99 = record_times(where("records.sqlite3"))
            scores = scores_time(where("scores.sqlite3"))
            print(f"{engine}: {rate:,.0f} lessons/s from 2 connections "
                  f"({'none lost or twice' if whole else 'LOST OR TWICE'}); "
                  f"a game recorded in {median:.2f} ms (p99 {p99:.2f} ms); "
                  f"SCORES over 100,000 games in {scores * 1000:.0f} ms")
        if server is not None or args.url:
            took = asyncio.run(close_after_claim(fresh()))
            print(f"a name proved on server b: server a told to close it "
                  f"{took * 1000:.1f} ms later")
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
