"""The served room: many players over telnet and SSH, on the loopback only."""
from __future__ import annotations

import asyncio
import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from retro.rooms.serve import SERVED
from retro.rooms.login import NAME_PROMPT, PASSWORD_PROMPT
from retro.services.guard import Budget
from retro.services.store import FILENAME, Store
from retro.wires.lines import Lines
from retro.wires.telnet import (AYT, DO, DONT, IAC, IP, SB, SE, WILL, WONT,
                                Telnet)
from served import WAIT, Player, bet, move  # tests/served.py, beside this

ROOT = Path(__file__).resolve().parent.parent


# -- telnet, lines and allowances, without a network ------------------------------

def test_telnet_refuses_every_option_once_and_keeps_the_text():
    telnet = Telnet()
    text, reply = telnet.feed(bytes([IAC, DO, 1, IAC, WILL, 31]) + b"ada"
                              + bytes([IAC, IAC]) + b"\r\n")
    assert text == b"ada\xff\r\n"
    assert reply == bytes([IAC, WONT, 1, IAC, DONT, 31])
    assert telnet.feed(bytes([IAC, DO, 1, IAC, WONT, 5])) == (b"", b"")


def test_telnet_skips_subnegotiation_and_turns_interrupt_into_ctrl_c():
    telnet = Telnet()
    pieces = [bytes([IAC, SB, 24, 0]) + b"VT100", bytes([IAC, SE]) + b"x",
              bytes([IAC, IP]), bytes([IAC, AYT])]
    results = [telnet.feed(piece) for piece in pieces]
    assert [text for text, _ in results] == [b"", b"x", b"\x03\n", b""]
    assert b"yes" in results[3][1]


def test_lines_end_at_crlf_cr_nul_cr_and_lf_even_split_across_pieces():
    lines = Lines(longest=8)
    assert lines.feed(b"one\r\ntwo\r\0three\rfour\nfi") == [
        b"one", b"two", b"three", b"four"]
    assert lines.feed(b"ve\r") == [b"five"]
    assert lines.feed(b"\nsix\n") == [b"six"]  # the CR LF was one ending
    assert lines.feed(b"x" * 100) == [] and len(lines.partial) == 8
    assert lines.feed(b"y" * 100 + b"\n") == [b"x" * 8]


def test_a_budget_refills_at_its_rate_and_no_higher_than_its_burst():
    now = [0.0]
    budget = Budget(100, 10, clock=lambda: now[0])
    assert budget.spend(100) and not budget.spend(1)
    now[0] = 1000.0
    assert budget.spend(100) and not budget.spend(1)
    now[0] += 2.0
    assert budget.spend(19) and not budget.spend(2)


# -- players on line ----------------------------------------------------------------

def test_a_name_is_asked_and_checked(served):
    server = served()
    player = Player(server.port)
    assert NAME_PROMPT in player.expect("NAME (letters, digits, - and _, up to 16)? ")
    for bad in ("bad name!", "x" * 17, "é"):
        player.say(bad)
        assert "A NAME is 1 to 16 letters" in player.expect("? ")
    player.say("")
    player.expect("NAME")
    player.say("Ada-1")
    player.expect(PASSWORD_PROMPT)
    player.say("")  # a guest
    seen = player.expect("> ")
    assert "You play as ada-1, a guest" in seen and "machine room" in seen
    other = Player(server.port)
    other.expect(NAME_PROMPT)
    other.say("ADA-1")
    other.expect(PASSWORD_PROMPT)
    other.say("")
    assert "ada-1 is on line already" in other.expect(NAME_PROMPT)
    player.ask("quit", "dreams.")
    player.closed()


def test_two_players_see_each_other_in_who(served):
    server = served()
    ada, bob = Player(server.port, "ada"), Player(server.port, "bob")
    bob.ask("play hexapawn", "YOUR MOVE? ")
    seen = ada.ask("who")
    assert "2 players on line:" in seen
    assert re.search(r"ada \(you\)\s+in the machine room", seen)
    assert re.search(r"bob\s+playing Hexapawn", seen)
    bob.ask("quit")
    assert re.search(r"bob \(you\)\s+in the machine room", bob.ask("w"))


def test_two_games_against_the_one_her_at_once_lose_no_bead(served):
    server = served()
    ada, bob = Player(server.port, "ada"), Player(server.port, "bob")
    fresh = [int(re.search(r"HOLD (\d+) BEADS", p.ask("hexapawn", "MOVE? "))
                 .group(1)) for p in (ada, bob)]
    assert fresh[0] == fresh[1]
    playing = [ada, bob]
    for _ in range(20):  # turns, both games interleaved
        for player in list(playing):
            if "ANOTHER GAME" in move(player):
                playing.remove(player)
        if not playing:
            break
    assert not playing
    for player in (ada, bob):
        player.ask("n")
    results = server.store().results("hexapawn")
    assert sorted(r.player for r in results) == ["ada", "bob"]
    taken = [(bead["box"], bead["bead"]) for r in results
             for bead in r.detail["beads_lost"]]
    lost = set(taken)
    assert len(taken) == len(lost)  # no lesson recorded for a bead gone
    seen = Player(server.port, "eve").ask("hexapawn", "MOVE? ")
    assert "HER HAS PLAYED 2 GAMES" in seen
    held = int(re.search(r"HOLD (\d+) BEADS", seen).group(1))
    assert held == fresh[0] - len(lost)


def test_the_bankroll_belongs_to_the_name_and_survives_reconnecting(served):
    server = served()
    ada = Player(server.port, "ada")
    assert "You have 100 pennies." in ada.ask("penney", "(y/n) ")
    after = bet(ada)
    assert after in (90, 110)
    ada.ask("q")
    ada.close()
    bob = Player(server.port, "bob")
    assert "You have 100 pennies." in bob.ask("penney", "(y/n) ")
    again = Player(server.port, "Ada")  # the same player, however spelled
    assert f"You have {after} pennies." in again.ask("penney", "(y/n) ")
    store = server.store("ada")
    assert store.get(store.own("penney.bankroll")) == after
    assert [r.player for r in store.results("penney")] == ["ada"]


def test_tear_prints_the_roll_back_and_writes_no_file(served, tmp_path,
                                                      monkeypatch):
    monkeypatch.chdir(tmp_path)
    server = served()
    ada = Player(server.port, "ada")
    ada.ask("menu")
    torn = ada.ask("tear", "yours to keep ---\r\n> ")
    assert "--- the paper roll, torn off ---" in torn
    assert "> menu\r\nThe machines:" in torn
    again = ada.ask("tear ../x.txt", "yours to keep ---\r\n> ")
    assert again.startswith("--- the paper roll, torn off ---\r\n"
                            "> tear ../x.txt\r\n--- the end")  # no more
    assert not list(tmp_path.rglob("*.txt"))


def test_one_more_than_the_most_players_is_told_the_room_is_full(served):
    server = served(players=2)
    first, _ = Player(server.port, "ada"), Player(server.port, "bob")
    waiting = Player(server.port)  # not logged in: no place taken
    waiting.expect("NAME")
    third = Player(server.port)
    third.expect("NAME")
    third.say("cy")
    third.expect(PASSWORD_PROMPT)
    third.say("")
    assert "The machine room is full: 2 players" in third.closed()
    first.ask("quit", "dreams.")
    first.closed()
    server.until(lambda: len(server.server.players) < 2)
    assert "machine room" in Player(server.port, "cy").ask("look")


def test_idle_players_and_nameless_lines_are_hung_up(served):
    server = served(idle=0.5, name_wait=3.0)
    nameless = Player(server.port)
    ada = Player(server.port, "ada")
    ada.ask("hexapawn", "MOVE? ")
    assert "NO NAME GIVEN: DISCONNECTED" in nameless.closed()
    seen = ada.closed()
    assert "NOTHING TYPED FOR 0.5 SECONDS" in seen
    assert server.store().results() == []  # the game was not half-recorded


def test_a_flood_and_garbage_are_cut_off_and_others_play_on(served):
    server = served()
    ada = Player(server.port, "ada")
    flood = Player(server.port, "flood")
    flood.say(b"look\r\n" * 2000, end=b"")
    assert "DISCONNECTED" in flood.closed()
    garbage = Player(server.port)
    try:
        garbage.say(os.urandom(1 << 20), end=b"")
    except (BrokenPipeError, ConnectionResetError):
        pass
    assert "TOO MUCH INPUT: DISCONNECTED" in garbage.closed()
    started = time.monotonic()
    assert "ada (you)" in ada.ask("who")
    assert time.monotonic() - started < 1.0


def test_telnet_negotiation_and_ctrl_c_over_the_wire(served):
    server = served()
    ada = Player(server.port)
    ada.say(bytes([IAC, DO, 1, IAC, WILL, 24, IAC, SB, 24, 0]) + b"XTERM"
            + bytes([IAC, SE]), end=b"")
    ada.expect("NAME")
    ada.say("ada", end=b"\r\0")
    ada.expect(PASSWORD_PROMPT)
    ada.say("", end=b"\r\0")
    ada.expect("> ")
    assert bytes([IAC, WONT, 1, IAC, DONT, 24]) in ada.heard
    ada.ask("hexapawn", "MOVE? ")
    ada.say(bytes([IAC, IP]), end=b"")
    assert "*** GAME ABANDONED ***" in ada.expect("> ")
    ada.say(b"look\x03")
    assert "*** GAME ABANDONED ***" not in ada.expect("QUIT.)")


# -- going down, and SSH ---------------------------------------------------------------

def test_sigterm_tells_every_player_abandons_the_game_and_exits_0(tmp_path):
    env = dict(os.environ, RETRO_HOME=str(tmp_path / "home"))
    server = subprocess.Popen(
        [sys.executable, "-m", "retro", "serve", "--telnet", "0"], cwd=ROOT,
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready = server.stdout.readline()
        port = int(re.fullmatch(r"retro serve: telnet on 127\.0\.0\.1 port "
                                r"(\d+)\n", ready).group(1))
        ada, eve = Player(port, "ada"), Player(port)
        ada.ask("penney", "(y/n) ")
        ada.ask("y", "tosses? ")
        ada.ask("HHT", "pennies? ")  # a bet half made
        eve.expect("NAME")
        server.send_signal(signal.SIGTERM)
        assert server.wait(WAIT) == 0
    finally:
        server.kill()
        server.wait()
    seen = ada.closed()
    assert "*** THE SYSTEM IS GOING DOWN. ***" in seen
    assert "You leave with 100 pennies." in seen  # as QUIT leaves the table
    assert "*** THE SYSTEM IS GOING DOWN. ***" in eve.closed()
    store = Store.open(tmp_path / "home" / SERVED)
    assert store.results() == []
    assert not (tmp_path / "home" / FILENAME).exists()  # the console's


def test_an_ssh_player_bets_at_penneys_game_end_to_end(served):
    asyncssh = pytest.importorskip("asyncssh", reason="SSH needs asyncssh")
    server = served(ssh=True)

    async def play() -> str:
        async with asyncssh.connect(
                "127.0.0.1", server.ports[1], username="sam",
                known_hosts=None, client_keys=None) as connection:
            process = await connection.create_process(term_type="vt100")
            seen = ""

            async def until(text: str) -> None:
                nonlocal seen
                while text not in seen:
                    seen += await process.stdout.read(4096)
            for answer, text in (("", PASSWORD_PROMPT),
                                 ("sam secret", "AGAIN? "),
                                 ("sam secret", "> "), ("penney", "(y/n) "),
                                 ("y", "tosses? "), ("HHT", "pennies? "),
                                 ("10", "(y/n) "), ("q", "> "),
                                 ("quit", "dreams.")):
                if answer:
                    process.stdin.write(answer + "\n")
                await until(text)
            return seen
    seen = asyncio.run(asyncio.wait_for(play(), WAIT))
    after = int(re.findall(r"You have (\d+) pennies", seen)[-1])
    store = server.store("sam")
    [result] = store.results("penney")
    assert result.player == "sam" and result.detail["bankroll"] == after
    key = server.path.parent / "ssh_host_key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
