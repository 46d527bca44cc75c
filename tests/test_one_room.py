"""Several servers, one room: two `retro serve`s on one PostgreSQL.

Each test starts a real PostgreSQL database (tests/postgres.py) and two
served rooms on the loopback that keep their records in it, and checks
what a player on either would notice: who is on line, a name that is on
line once in the whole room, the room's announcements.
"""
from __future__ import annotations

import time

from served import (WAIT, Player, Running, limits_of,  # tests/served.py
                    operator_resets_her)


def two_servers(tmp_path, postgres, **options):
    url = postgres.fresh_database()
    return [Running(tmp_path / name, limits_of(), store=url, **options)
            for name in ("one", "two")]


def test_two_servers_on_one_database_list_everyone_in_who(tmp_path, postgres):
    one, two = two_servers(tmp_path, postgres)
    try:
        ada, bob = Player(one.port, "ada"), Player(two.port, "bob")
        seen = ada.ask("who")
        assert "2 players on line" in seen
        assert "ada (you)" in seen and "bob" in seen
        assert "on another server" in seen
        assert "ada" in bob.ask("who") and "bob (you)" in bob.ask("who")
        bob.ask("quit", "dreams.")
        bob.closed()
        deadline = time.monotonic() + WAIT
        while "1 player on line" not in ada.ask("who"):
            assert time.monotonic() < deadline
    finally:
        one.close()
        two.close()


def test_a_name_proved_on_one_server_closes_its_line_on_the_other(
        tmp_path, postgres):
    one, two = two_servers(tmp_path, postgres)
    try:
        old = Player(one.port, "ada")
        old.ask("hexapawn", "MOVE? ")
        started = time.monotonic()
        new = Player(two.port, "ada")  # the same password, on the other
        seen = old.closed()
        took = time.monotonic() - started
        assert "ADA HAS LOGGED IN FROM ANOTHER LINE" in seen
        assert took < 2.0 + 1.0, took  # the login itself, and the close
        assert "1 player on line" in new.ask("who")
        assert one.store().results() == []  # the old game was abandoned
    finally:
        one.close()
        two.close()


def test_the_operators_reset_is_announced_on_every_server(tmp_path,
                                                           postgres):
    one, two = two_servers(tmp_path, postgres, operator="op")
    try:
        op = Player(one.port, "op", "the operator's secret")
        bob = Player(two.port, "bob")
        told = operator_resets_her(one.store(), op, bob)
        assert "op RESET HER: SHE FORGOT WHAT SHE LEARNED IN 240 GAMES" in told
        assert "OP LAST RESET HER" in bob.ask("look at her")
    finally:
        one.close()
        two.close()


def test_a_database_that_cannot_be_reached_is_one_line_and_status_1(
        tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    nowhere = tmp_path / "no server here"
    nowhere.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "retro", "serve", "--telnet", "0", "--store",
         f"postgresql://retro@/room?host={nowhere}"],
        cwd=Path(__file__).resolve().parent.parent,
        env=dict(os.environ, RETRO_HOME=str(tmp_path / "home")),
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and done.stdout == ""
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
