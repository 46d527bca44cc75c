"""The roster: several servers of one room on a real PostgreSQL, and one
server alone in its process."""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from datetime import datetime, timedelta, timezone

from retro.services.roster import LocalRoster, PostgresRoster, open_roster

PROMPT = 2.0  # seconds: the most a line proved elsewhere may stay open


class Server:
    """What a server keeps of what the roster told it."""

    def __init__(self, url: str, name: str, **options):
        self.heard: asyncio.Queue = asyncio.Queue()
        self.closed: asyncio.Queue = asyncio.Queue()
        self.roster = open_roster(url, name, heard=self.heard.put_nowait,
                                  close=self.closed.put_nowait, **options)

    async def next(self, queue: asyncio.Queue):
        return await asyncio.wait_for(queue.get(), PROMPT)


def run(test):
    return asyncio.run(asyncio.wait_for(test, 60))


def test_a_store_that_is_a_file_has_the_local_roster(tmp_path):
    roster = open_roster(tmp_path / "retro.sqlite3", "here")
    assert isinstance(roster, LocalRoster)
    assert isinstance(open_roster("postgresql://x@/y", "a"), PostgresRoster)


def test_one_server_alone():
    async def test():
        heard = []
        roster = open_roster(None, "here", heard=heard.append)
        await roster.start()
        assert await roster.claim("ada") is None
        assert await roster.claim("ada") == "here"  # the server's own affair
        await roster.claim("bob")
        assert await roster.who() == {"ada": "here", "bob": "here"}
        await roster.leave("ada")
        await roster.tell({"say": "RESET HER"})
        assert heard == [{"say": "RESET HER"}]
        assert await roster.who() == {"bob": "here"}
        await roster.stop()
        assert await roster.who() == {}
    run(test())


def test_two_servers_see_each_others_players(postgres):
    url = postgres.fresh_database()

    async def test():
        a, b = Server(url, "a"), Server(url, "b")
        await asyncio.gather(a.roster.start(), b.roster.start())
        await a.roster.claim("ada")
        await b.roster.claim("bob")
        assert await a.roster.who() == await b.roster.who() == {
            "ada": "a", "bob": "b"}
        await b.roster.leave("bob")
        await b.roster.leave("ada")  # not b's to leave: nothing happens
        assert await a.roster.who() == {"ada": "a"}
        await a.roster.stop()
        assert await b.roster.who() == {}  # a's names went with it
        await b.roster.stop()
    run(test())


def test_a_name_proved_on_one_server_is_closed_on_the_other(postgres):
    url = postgres.fresh_database()

    async def test():
        a, b = Server(url, "a"), Server(url, "b")
        await asyncio.gather(a.roster.start(), b.roster.start())
        assert await a.roster.claim("ada") is None
        assert await b.roster.claim("ada") == "a"
        assert await a.next(a.closed) == "ada"  # within PROMPT seconds
        assert b.closed.empty()
        assert await a.roster.who() == {"ada": "b"}
        await a.roster.leave("ada")  # a's session ends: b keeps the name
        assert await b.roster.who() == {"ada": "b"}
        await asyncio.gather(a.roster.stop(), b.roster.stop())
    run(test())


def test_a_message_reaches_every_server(postgres):
    url = postgres.fresh_database()

    async def test():
        servers = [Server(url, name) for name in "abc"]
        await asyncio.gather(*(server.roster.start() for server in servers))
        await servers[1].roster.tell({"say": "RESET HER: SHE FORGOT 3 GAMES."})
        await servers[2].roster.tell({"say": "GOING DOWN"})
        for server in servers:  # in the order told, this server's too
            assert await server.next(server.heard) == {
                "say": "RESET HER: SHE FORGOT 3 GAMES."}
            assert await server.next(server.heard) == {"say": "GOING DOWN"}
        await asyncio.gather(*(server.roster.stop() for server in servers))
    run(test())


KILLED = """
import asyncio, sys
from retro.services.roster import open_roster

async def main():
    roster = open_roster(sys.argv[1], "doomed")
    await roster.start()
    await roster.claim("carol")
    print("on line", flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def test_a_server_killed_drops_out_of_the_roster(postgres):
    url = postgres.fresh_database()
    doomed = subprocess.Popen([sys.executable, "-c", KILLED, url],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert doomed.stdout.readline() == "on line\n"
    finally:
        os.kill(doomed.pid, signal.SIGKILL)
        doomed.wait()
    now = [datetime.now(timezone.utc)]

    async def test():
        b = Server(url, "b", clock=lambda: now[0])
        await b.roster.start()
        assert await b.roster.who() == {"carol": "doomed"}
        now[0] += timedelta(seconds=15)  # a heartbeat late is not dead
        await b.roster.beat()
        assert await b.roster.who() == {"carol": "doomed"}
        now[0] += timedelta(seconds=11)  # 26 s without one is
        assert await b.roster.who() == {}
        await b.roster.beat()  # and its rows are gone
        assert await b.roster.claim("carol") is None
        await b.roster.stop()
    run(test())


def test_two_servers_claiming_one_name_at_once_leave_one(postgres):
    url = postgres.fresh_database()

    async def test():
        both = [Server(url, name) for name in "ab"]
        await asyncio.gather(*(server.roster.start() for server in both))
        before = await asyncio.gather(*(server.roster.claim("ada")
                                        for server in both))
        held = (await both[0].roster.who())["ada"]
        loser = both[0] if held == "b" else both[1]
        assert sorted(map(str, before)) == ["None", "a" if held == "b"
                                            else "b"]
        assert await loser.next(loser.closed) == "ada"
        await asyncio.gather(*(server.roster.stop() for server in both))
    run(test())


def test_the_roster_carries_on_after_postgresql_restarts(postgres):
    url = postgres.fresh_database()

    async def test():
        a, b = Server(url, "a"), Server(url, "b")
        await asyncio.gather(a.roster.start(), b.roster.start())
        await a.roster.claim("ada")
        await asyncio.to_thread(postgres.restart)
        await asyncio.wait_for(asyncio.gather(a.roster.reconnected.wait(),
                                              b.roster.reconnected.wait()),
                               30)  # the room promises 30 s
        assert await b.roster.who() == {"ada": "a"}  # claimed again
        await b.roster.tell({"say": "BACK"})
        assert await a.next(a.heard) == {"say": "BACK"}
        await asyncio.gather(a.roster.stop(), b.roster.stop())
    run(test())
