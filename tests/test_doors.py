"""The doors attacked: who may be whom over SSH, what guessing costs, who
can hold the waiting room and the places on line, and what the log says.

Every test makes one attack against a real server on the loopback (or,
for the guard's arithmetic, against the guard on an injected clock) and
asserts the figure the served room's chapter promises.
"""
from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from retro.rooms.login import NAME_PROMPT, PASSWORD_PROMPT
from retro.services.accounts import account
from retro.services.guard import Busy, Guard, Guarding
from served import WAIT, Player  # tests/served.py, beside this file

ROOT = Path(__file__).resolve().parent.parent
SECRET = "ada's own secret"


def guess(port: int, source: str, name: str = "ada",
          password: str = "a wrong guess") -> None:
    """A guess fired and abandoned: the name and a password, then gone."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=WAIT,
                                      source_address=(source, 0)) as sock:
            sock.sendall(f"{name}\r\n{password}\r\n".encode())
    except OSError:
        pass  # refused or cut off: that is an answer too


# -- SSH: only proof proves ---------------------------------------------------------

def test_a_key_offered_for_one_name_then_another_name_gets_nobody_in(served):
    asyncssh = pytest.importorskip("asyncssh", reason="SSH needs asyncssh")
    server = served(ssh=True)
    key = asyncssh.generate_private_key("ssh-ed25519")
    ada = Player(server.port, "ada", SECRET)
    line = key.export_public_key("openssh").decode().strip()
    assert "The key is registered" in ada.ask(f"keys add {line}")

    class Thief(asyncssh.SSHClient):
        """Offers ada's public key without its signature, then asks for a
        password as a stranger, on the same connection."""

        def connection_made(self, conn) -> None:
            self.conn, self.offered = conn, False

        async def public_key_auth_requested(self):
            if self.offered:
                return None
            self.offered = True
            pair = asyncssh.load_keypairs([key])[0]

            async def no_signature(data: bytes) -> bytes:
                return bytes(64)
            pair.sign_async = no_signature
            pair.sign = lambda data: bytes(64)
            return [pair]

        def password_auth_requested(self):
            self.conn._username = "stranger"  # the switch
            return "anything at all"

    async def attack() -> str:
        conn, _ = await asyncssh.create_connection(
            Thief, "127.0.0.1", server.ports[1], username="ada",
            known_hosts=None, client_keys=None)
        async with conn:
            process = await conn.create_process(term_type="vt100")
            seen = ""
            while PASSWORD_PROMPT not in seen and "> " not in seen:
                piece = await asyncio.wait_for(process.stdout.read(4096), WAIT)
                assert piece, seen
                seen += piece
            return seen
    seen = asyncio.run(asyncio.wait_for(attack(), 30))
    assert "old laboratory" not in seen and PASSWORD_PROMPT in seen
    assert "ada (you)" in ada.ask("who")  # the real ada is still on line
    assert "1 player on line" in ada.ask("who")


def test_ssh_passwords_count_as_they_are_sent_three_a_connection(served):
    asyncssh = pytest.importorskip("asyncssh", reason="SSH needs asyncssh")
    from asyncssh.packet import Boolean, String

    server = served(ssh=True, misses=1000, room_misses=1000)
    Player(server.port, "ada", SECRET).close()

    class Guesser(asyncssh.SSHClient):
        """Sends forty passwords back to back, never waiting for an
        answer, the right one last."""

        def connection_made(self, conn) -> None:
            self.conn, self.asked = conn, 0

        async def password_auth_requested(self):
            self.asked += 1
            if self.asked == 1:
                for number in range(40):
                    await self.conn.send_userauth_request(
                        b"password", Boolean(False), String(f"guess {number}"))
            return SECRET if self.asked <= 5 else None

    async def attack() -> bool:
        try:
            conn, _ = await asyncssh.create_connection(
                Guesser, "127.0.0.1", server.ports[1], username="ada",
                known_hosts=None, client_keys=None)
        except (OSError, asyncssh.Error):
            return False
        conn.close()
        return True
    started = time.monotonic()
    assert not asyncio.run(asyncio.wait_for(attack(), 30))
    assert time.monotonic() - started < 10
    assert account(server.store(), "ada").failures <= 3


def test_ssh_user_names_tried_one_after_another_are_a_budget(served):
    asyncssh = pytest.importorskip("asyncssh", reason="SSH needs asyncssh")
    server = served(ssh=True, probes=5)

    async def probe(name: str) -> str:
        try:
            async with asyncssh.connect(
                    "127.0.0.1", server.ports[1], username=name,
                    known_hosts=None, client_keys=None,
                    password="x") as conn:
                process = await conn.create_process(term_type="vt100")
                return await asyncio.wait_for(process.stdout.read(4096), WAIT)
        except (OSError, asyncssh.Error) as error:
            return f"refused: {error}"

    async def probes() -> list[str]:
        return [await probe(f"name{number}") for number in range(8)]
    seen = asyncio.run(asyncio.wait_for(probes(), 60))
    assert all("refused" not in answer for answer in seen[:5]), seen
    assert all("refused" in answer for answer in seen[5:]), seen
    assert "addresses refused" in "".join(run_summary(server))


def run_summary(server) -> list[str]:
    """The log, after the server has written its summary."""
    server.loop.call_soon_threadsafe(server.server.chronicle.write)
    server.until(lambda: True)
    return list(server.logs)


def test_ssh_without_a_terminal_plays_in_lines(served):
    server = served(ssh=True)
    client = shutil.which("ssh")
    if client is None:
        pytest.skip("no OpenSSH client (apt-get install openssh-client)")
    done = subprocess.run(
        [client, "-T", "-p", str(server.ports[1]), "-o",
         "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
         "-o", "PubkeyAuthentication=no", "-o", "LogLevel=ERROR",
         "-o", "BatchMode=yes", "gus@127.0.0.1"],
        input="\nlook\nquit\n", capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "You play as gus, a guest" in done.stdout
    assert "machine room" in done.stdout and "dreams" in done.stdout
    assert not any("broke" in line for line in server.logs)


# -- guessing ---------------------------------------------------------------------------

def test_the_owner_gets_in_while_abandoned_guesses_rain_on_the_name(served):
    server = served()
    Player(server.port, "ada", SECRET).close()
    sources = [f"127.0.0.{host}" for host in range(2, 17)]
    stop = threading.Event()

    def rain() -> None:
        for number in range(150):
            if stop.is_set():
                return
            guess(server.port, sources[number % len(sources)])
            time.sleep(0.02)
    raining = threading.Thread(target=rain)
    raining.start()
    try:
        time.sleep(0.5)  # the rain has begun
        started = time.monotonic()
        owner = Player(server.port)
        owner.log_in("ada", SECRET)
        took = time.monotonic() - started
        assert "ada (you)" in owner.ask("who")
    finally:
        stop.set()
        raining.join(WAIT)
    assert took < 5.0, took


def test_an_address_that_guesses_too_often_is_refused_in_a_line(served):
    server = served(pause=0.0, misses=4)
    Player(server.port, "ada", SECRET).close()
    for _ in range(4):
        thief = Player(server.port, source="127.0.0.2")
        thief.expect(NAME_PROMPT)
        thief.say("ada")
        thief.expect(PASSWORD_PROMPT)
        thief.say("a wrong guess")
        thief.expect("PASSWORD for ada")
        thief.close()
    thief = Player(server.port, source="127.0.0.2")
    thief.expect(NAME_PROMPT)
    thief.say("ada")
    thief.expect(PASSWORD_PROMPT)
    thief.say("another guess")
    seen = thief.closed()
    assert re.search(r"refused for 5\s+more minutes", seen)
    assert seen.count("refused") == 1
    late = Player(server.port, source="127.0.0.2").closed()
    assert "refused for" in late and NAME_PROMPT not in late
    owner = Player(server.port, source="127.0.0.3")
    assert "ada (you)" in (owner.log_in("ada", SECRET) + owner.ask("who"))


def test_the_guard_counts_on_its_own_clock():
    now = [0.0]
    guard = Guard(Guarding(misses=10, room_misses=1000),
                  clock=lambda: now[0])
    assert [guard.guess("10.0.0.1") for _ in range(10)] == [None] * 10
    assert "refused for 5 more minutes" in guard.guess("10.0.0.1")
    assert guard.guess("10.0.0.2") is None  # another address is not
    now[0] += 299.0
    assert "refused for 1 more minute" in guard.refusal("10.0.0.1")
    now[0] += 2.0
    assert guard.refusal("10.0.0.1") is None
    guard.sweep()
    now[0] += 3600
    guard.sweep()
    assert guard.addresses == {}  # nothing kept of the quiet ones

    async def queue() -> list[str]:
        held = []

        async def wait_turn(name: str) -> str:
            try:
                async with guard.turn(name):
                    held.append(name)
                    await asyncio.sleep(0.01)
                return "checked"
            except Busy:
                return "busy"
        return await asyncio.gather(*(wait_turn("ada") for _ in range(5)))
    assert asyncio.run(queue()) == ["checked"] * 3 + ["busy"] * 2


# -- the waiting room and the places on line ---------------------------------------

def test_sockets_that_sent_a_byte_do_not_hold_the_waiting_room(served):
    server = served(waiting=64, waiting_per_address=16, pause=0.5)
    Player(server.port, "ada", SECRET).close()
    held = []
    for number in range(64):
        source = f"127.0.0.{2 + number % 4}"
        sock = socket.create_connection(("127.0.0.1", server.port),
                                        timeout=WAIT,
                                        source_address=(source, 0))
        sock.sendall(b"x")
        held.append(sock)
    for number in range(64):  # and slow guessers, who send a name and stop
        source = f"127.0.0.{6 + number % 4}"
        sock = socket.create_connection(("127.0.0.1", server.port),
                                        timeout=WAIT,
                                        source_address=(source, 0))
        sock.sendall(b"ada\r\n")
        held.append(sock)
    try:
        started = time.monotonic()
        owner = Player(server.port)
        owner.log_in("ada", SECRET)
        assert "ada (you)" in owner.ask("who")
        assert time.monotonic() - started < 5.0
    finally:
        for sock in held:
            sock.close()


def test_one_address_full_of_guests_keeps_out_neither_stranger_nor_operator(
        tmp_path):
    from served import Running, limits_of

    running = Running(tmp_path / "home", limits_of(per_address=3, players=5),
                      operator="op")
    try:
        Player(running.port, "op", "the operator's secret").close()
        guests = [Player(running.port, f"gus{number}", "",
                         source="127.0.0.2") for number in range(3)]
        fourth = Player(running.port, source="127.0.0.2")
        fourth.expect(NAME_PROMPT)
        fourth.say("gus3")
        fourth.expect(PASSWORD_PROMPT)
        fourth.say("")
        assert "3 players from your address are on line" in fourth.closed()
        stranger = Player(running.port, "bob", source="127.0.0.3")
        assert "bob (you)" in stranger.ask("who")
        more = Player(running.port, source="127.0.0.4")
        more.expect(NAME_PROMPT)
        more.say("cy")
        more.expect(PASSWORD_PROMPT)
        more.say("")  # the fifth place is the operator's
        assert "The machine room is full" in more.closed()
        op = Player(running.port, "op", "the operator's secret",
                    source="127.0.0.2")
        assert "5 players on line" in op.ask("who")
        assert len(guests) == 3
    finally:
        running.close()


def test_a_guest_cannot_sit_down_under_a_name_claimed_meanwhile(served):
    server = served(pause=0.0)
    guest = Player(server.port)
    guest.expect(NAME_PROMPT)
    guest.say("ada")
    guest.expect(PASSWORD_PROMPT)
    Player(server.port, "ada", SECRET)  # claimed meanwhile, and on line
    guest.say("")
    seen = guest.expect("PASSWORD? ")
    assert "That is not the PASSWORD for ada" in seen
    assert "ada (you)" not in seen


def test_a_key_line_of_rsa_3072_can_be_pasted_over_telnet(served):
    asyncssh = pytest.importorskip("asyncssh", reason="SSH needs asyncssh")
    server = served()
    key = asyncssh.generate_private_key("ssh-rsa", key_size=3072)
    line = key.export_public_key("openssh").decode().strip()
    assert len(line) > 500
    ada = Player(server.port, "ada", SECRET)
    assert "The key is registered" in ada.ask(f"keys add {line}")
    assert account(server.store(), "ada").keys[0] == " ".join(
        line.split()[:2])


# -- the operator is the owner's ----------------------------------------------------------

def start_with_operator(home: Path, *, terminal: bool):
    env = dict(os.environ, RETRO_HOME=str(home))
    command = [sys.executable, "-m", "retro", "serve", "--telnet", "0",
               "--operator", "boss"]
    if not terminal:
        return subprocess.run(command, cwd=ROOT, env=env, text=True,
                              capture_output=True, timeout=30,
                              stdin=subprocess.DEVNULL)
    pexpect = pytest.importorskip("pexpect")
    return pexpect.spawn(command[0], command[1:], cwd=str(ROOT), env=env,
                         encoding="utf-8", timeout=WAIT)


def test_an_operator_name_claimed_by_a_stranger_must_be_proved(tmp_path):
    from retro.services.accounts import claim, hashed
    from retro.services.store import Store

    home = tmp_path / "home"
    home.mkdir()
    with Store.open(home / "served.sqlite3") as store:
        claim(store, "boss", hashed("the stranger's secret"))
    done = start_with_operator(home, terminal=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "must be proved with its password" in done.stderr
    wrong = start_with_operator(home, terminal=True)
    for _ in range(3):
        wrong.expect("PASSWORD, to be the operator: ")
        wrong.sendline("not the stranger's")
    wrong.expect("only its owner may be the operator")
    wrong.expect(__import__("pexpect").EOF)
    wrong.close()
    assert wrong.exitstatus == 2
    right = start_with_operator(home, terminal=True)
    right.expect("PASSWORD, to be the operator: ")
    right.sendline("the stranger's secret")
    right.expect(r"telnet on 127.0.0.1 port (\d+)")
    port = int(right.match.group(1))
    boss = Player(port, "boss", "the stranger's secret")
    assert "telnet 127.0.0.1:" in boss.ask("who")  # the operator's WHO
    right.sendintr()
    right.expect(__import__("pexpect").EOF)
    right.close()


# -- the log ----------------------------------------------------------------------------------

def test_thousands_of_dropped_connections_write_a_few_lines(served):
    server = served(waiting=8, waiting_per_address=4)
    before = len(server.logs)
    for number in range(3000):
        try:
            sock = socket.create_connection(
                ("127.0.0.1", server.port), timeout=WAIT,
                source_address=(f"127.0.0.{2 + number % 3}", 0))
            sock.close()
        except OSError:
            pass
    lines = run_summary(server)[before:]
    assert len(lines) <= 5, lines[:10]
    counted = sum(int(count.replace(",", "")) for count in re.findall(
        r"([\d,]+) (?:lines closed|connections dropped)", " ".join(lines)))
    assert counted >= 1000, lines


def test_a_store_that_cannot_be_used_stops_the_server_in_one_line(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the store's directory should be")
    done = subprocess.run(
        [sys.executable, "-m", "retro", "serve", "--telnet", "0"], cwd=ROOT,
        env=dict(os.environ, RETRO_HOME=str(blocker / "home")),
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and done.stdout == ""
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "is a file, not a directory" in done.stderr


def test_an_ssh_terminal_folds_the_room_at_its_width(served):
    """A 40-column terminal gets the room folded at 40, and once widened
    to 80, at a teletype's 72 again."""
    asyncssh = pytest.importorskip("asyncssh", reason="SSH needs asyncssh")
    server = served(ssh=True)

    async def until(process, text: str) -> str:
        seen = ""
        while not seen.endswith(text):
            piece = await asyncio.wait_for(process.stdout.read(4096), WAIT)
            assert piece, seen
            seen += piece
        return seen

    async def visit() -> tuple[str, str, str]:
        async with asyncssh.connect(
                "127.0.0.1", server.ports[1], username="sam",
                known_hosts=None, client_keys=None) as connection:
            process = await connection.create_process(
                term_type="vt100", term_size=(40, 24))
            await until(process, PASSWORD_PROMPT)
            process.stdin.write("\n")  # a guest
            greeting = await until(process, "\n> ")
            process.stdin.write("help\n")
            narrow = await until(process, "\n> ")
            process.change_terminal_size(80, 24)
            process.stdin.write("help\n")
            wide = await until(process, "\n> ")
            process.stdin.write("quit\n")
            await process.wait_closed()
            return greeting, narrow, wide

    def widest(text: str) -> int:
        return max(len(line) for line in text.replace("\r", "").split("\n"))

    greeting, narrow, wide = asyncio.run(asyncio.wait_for(visit(), 30))
    assert widest(greeting) <= 40 and widest(narrow) <= 40
    assert 40 < widest(wide) <= 72
    assert narrow.split()[1:] == wide.split()[1:]  # only folded
