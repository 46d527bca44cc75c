"""The served room attacked, as a hostile client would, on the loopback only.

Each test makes one attack against a real server and asserts the defended
outcome: who may be whom, what a silent, flooding or guessing client can
hold, what a signal does, what files the server leaves behind.
"""
from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from retro.games.hexapawn_her import Lesson, keep, load_her
from retro.engines.matchbox import Change, fresh, matchboxes
from retro.engines.hexapawn_rules import SECOND
from retro.rooms.serve import SERVED
from retro.rooms.limits import Limits
from retro.rooms.login import NAME_PROMPT, PASSWORD_PROMPT
from retro.services.accounts import account, hashed, matches
from retro.services.store import FILENAME, Store, console_player
from retro.wires.telnet import DO, IAC, TIMING_MARK, WILL
from served import (WAIT, Player, Running,  # tests/served.py, beside this
                    ask_are_you_there, bet, operator_resets_her)

ROOT = Path(__file__).resolve().parent.parent


class Process:
    """`retro serve` as a process of its own, telnet on a free port."""

    def __init__(self, home: Path, *options: str):
        env = dict(os.environ, RETRO_HOME=str(home))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "retro", "serve", "--telnet", "0",
             *options], cwd=ROOT, env=env, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        ready = self.process.stdout.readline()
        found = re.search(r"port (\d+)", ready)
        assert found, (ready, self.process.stderr.read()
                       if self.process.poll() is not None else "")
        self.port = int(found.group(1))

    def rss(self) -> int:
        """The server's resident memory, in bytes."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) * 1024

    def stop(self, number=signal.SIGTERM) -> int:
        self.process.send_signal(number)
        try:
            return self.process.wait(WAIT)
        finally:
            self.process.kill()
            self.process.wait()


# -- who may be whom ---------------------------------------------------------------

def test_a_claimed_name_cannot_be_entered_without_its_password(served):
    server = served(pause=0.05)
    ada = Player(server.port, "ada", "ada's own secret")
    ada.ask("quit", "dreams.")
    ada.closed()
    thief = Player(server.port)
    thief.expect("NAME")
    thief.say("ADA")
    thief.expect(PASSWORD_PROMPT)
    for guess in ("", "password", "ada's own secreT"):
        thief.say(guess)
    seen = thief.closed()
    assert seen.count("That is not the PASSWORD for ada.") == 3
    assert "3 WRONG PASSWORDS: DISCONNECTED" in seen
    assert "machine room" not in seen
    held = account(server.store(), "ada")
    assert held.failures == 3 and "own secret" not in held.password
    again = Player(server.port)
    told = again.log_in("ada", "ada's own secret")
    assert "3 wrong passwords tried at your NAME" in told + again.ask("look")
    assert account(server.store(), "ada").failures == 0


def test_wrong_passwords_are_slowed_whatever_the_connections(served):
    server = served(pause=0.5, tries=1)
    Player(server.port, "ada", "ada's own secret").close()
    thieves = [Player(server.port) for _ in range(4)]
    started = time.monotonic()
    for thief in thieves:
        thief.expect(NAME_PROMPT)
        thief.say("ada")
        thief.expect(PASSWORD_PROMPT)
        thief.say("guess")
    seen = [thief.closed() for thief in thieves]
    answered = [text for text in seen if "not the PASSWORD for ada" in text]
    refused = [text for text in seen if "Too many tries at ada" in text]
    queue = Limits().guarding.queue
    assert len(answered) == queue + 1 and len(refused) == 3 - queue
    assert time.monotonic() - started >= (queue + 1) * 0.5  # one at a time


def test_the_console_players_data_is_out_of_reach_of_every_name(tmp_path):
    home = tmp_path / "home"
    console = Store.open(home / FILENAME)
    console.put("penney.bankroll", 7)  # the console player's own pennies
    console.record("penney", score="0-1", outcome="loss", seed=1)
    console.close()
    server = Process(home)
    try:
        for name in {console_player(), "you", "root"}:
            player = Player(server.port, name)
            seen = player.ask("penney", "(y/n) ")
            assert "You have 100 pennies." in seen, name
            assert "No games played yet" in player.ask("q") + player.ask(
                "scores all")
            player.ask("quit", "dreams.")
    finally:
        assert server.stop() == 0
    assert Store.open(home / FILENAME).get("penney.bankroll") == 7


def test_a_guest_keeps_nothing(served):
    server = served()
    guest = Player(server.port, "gus", "")
    guest.ask("penney", "(y/n) ")
    bet(guest)
    guest.ask("q")
    guest.ask("quit", "dreams.")
    guest.closed()
    assert server.store().results() == []
    assert account(server.store(), "gus") is None
    again = Player(server.port, "gus", "")
    assert "You have 100 pennies." in again.ask("penney", "(y/n) ")


def test_the_owner_takes_a_name_back_from_a_silent_line(served):
    server = served()
    old = Player(server.port, "ada")
    old.ask("hexapawn", "MOVE? ")
    new = Player(server.port, "ada")  # the same password, from elsewhere
    assert "ADA HAS LOGGED IN FROM ANOTHER LINE" in old.closed()
    assert "ada (you)" in new.ask("who")
    assert "1 player on line" in new.ask("who")
    assert server.store().results() == []  # the old game was abandoned


def test_only_the_operator_resets_her_and_the_room_is_told(tmp_path):
    running = Running(tmp_path / "home", Limits(), operator="op")
    try:
        bob = Player(running.port, "bob")
        bob.ask("hexapawn", "MOVE? ")
        bob.ask("q")
        assert "Only the operator may RESET HER" in bob.ask("reset her")
        op = Player(running.port, "op")
        assert "HER HAS NOT PLAYED" in op.ask("reset her")
        told = operator_resets_her(running.store(), op, bob)
        assert "op RESET HER: SHE FORGOT WHAT SHE LEARNED IN 240 GAMES" in told
        assert "OP LAST RESET HER" in bob.ask("look at her")
        assert "OP LAST RESET HER" in bob.ask("hexapawn", "MOVE? ")
        [reset] = running.store().get("hexapawn.resets")
        assert reset["by"] == "op" and reset["games"] == 240
        assert "telnet 127.0.0.1:" in op.ask("who")
        assert "telnet 127.0.0.1:" not in bob.ask("q")
    finally:
        running.close()


# -- what a silent, flooding or greedy client can hold ------------------------------

def test_five_hundred_silent_sockets_do_not_keep_a_player_out(served):
    server = served(players=64)
    silent = []
    for _ in range(500):
        try:
            silent.append(socket.create_connection(("127.0.0.1", server.port),
                                                   timeout=WAIT))
        except OSError:
            break
    started = time.monotonic()
    ada = Player(server.port, "ada")
    assert "ada (you)" in ada.ask("who")
    assert time.monotonic() - started < 5.0
    server.until(lambda: len(server.server.waiting) <= Limits().waiting)
    for sock in silent:
        sock.close()


def test_a_flood_of_are_you_there_is_cut_off_and_costs_little(tmp_path):
    server = Process(tmp_path / "home")
    try:
        before = server.rss()
        floods = [socket.create_connection(("127.0.0.1", server.port))
                  for _ in range(60)]
        open_ones = ask_are_you_there(floods, 20.0)
        grown = server.rss() - before
        assert not open_ones, "a flood was never cut off"
        assert grown < 50 * 2 ** 20, f"grew {grown / 2 ** 20:.0f} MB"
        for sock in floods:
            sock.close()
    finally:
        assert server.stop() == 0


def test_tear_of_a_long_roll_does_not_hold_up_another_players_who(served):
    server = served()
    ada, bob = Player(server.port, "ada"), Player(server.port, "bob")
    for _ in range(5):  # 150 HELPs, thirty at a time: within the pending limit
        for _ in range(30):
            ada.say("help")
        for _ in range(30):
            ada.expect("starts again.\r\n> ")
    ada.say("tear")
    waits = []
    for _ in range(5):
        started = time.monotonic()
        bob.ask("who")
        waits.append(time.monotonic() - started)
    torn = ada.expect("yours to keep ---").split("torn off ---")[-1]
    assert "fell off" in torn and "last 2,000 lines" in torn
    assert 2000 <= torn.count("\n") < 2010
    assert max(waits) < 0.2, waits


def test_ssh_clients_that_prove_nothing_are_capped_and_closed(served):
    asyncssh = pytest.importorskip("asyncssh", reason="SSH needs asyncssh")
    server = served(ssh=True, name_wait=1.0, waiting=4, per_address=4)

    async def loiter() -> int:
        held = []
        for _ in range(8):
            try:
                held.append(await asyncssh.connect(
                    "127.0.0.1", server.ports[1], username="nobody",
                    known_hosts=None, client_keys=None))
            except (OSError, asyncssh.Error):
                pass
        await asyncio.sleep(2.0)  # past the grace time, opening no session
        alive = 0
        for connection in held:
            try:
                await asyncio.wait_for(connection.run("x", check=False), 1)
                alive += 1
            except (OSError, asyncssh.Error, asyncio.TimeoutError):
                pass
            connection.close()
        return alive
    assert asyncio.run(asyncio.wait_for(loiter(), 30)) == 0
    assert len(server.server.waiting) == 0


# -- signals and files ---------------------------------------------------------------

def test_sighup_goes_down_like_sigterm(tmp_path):
    server = Process(tmp_path / "home")
    ada = Player(server.port, "ada")
    ada.ask("hexapawn", "MOVE? ")
    assert server.stop(signal.SIGHUP) == 0
    seen = ada.closed()
    assert "THE SYSTEM IS GOING DOWN" in seen and "GAME ABANDONED" in seen


def test_the_store_and_its_directory_are_the_owners_alone(tmp_path):
    home = tmp_path / "new" / "home"
    server = Process(home)
    Player(server.port, "ada").close()
    assert server.stop() == 0
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    for path in home.iterdir():
        if path.name.startswith(SERVED):
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / FILENAME).touch(mode=0o644)
    Store.open(loose / FILENAME).close()
    assert stat.S_IMODE((loose / FILENAME).stat().st_mode) == 0o600


@pytest.mark.parametrize("key, why", [
    (b"-----BEGIN OPENSSH PRIVATE KEY-----\nnot a key\n", "cannot be read"),
    (None, "may be read by others"),
])
def test_a_host_key_others_can_read_or_a_damaged_one_is_one_line(
        tmp_path, key, why):
    pytest.importorskip("asyncssh", reason="SSH needs asyncssh")
    home = tmp_path / "home"
    home.mkdir()
    path = home / "ssh_host_key"
    if key is None:
        import asyncssh
        path.write_bytes(asyncssh.generate_private_key(
            "ssh-ed25519").export_private_key())
        path.chmod(0o644)
    else:
        path.write_bytes(key)
        path.chmod(0o600)
    done = subprocess.run(
        [sys.executable, "-m", "retro", "serve", "--telnet", "0", "--ssh",
         "0"], cwd=ROOT, env=dict(os.environ, RETRO_HOME=str(home)),
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert why in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_an_empty_host_is_refused_in_one_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "retro", "serve", "--host", ""], cwd=ROOT,
        env=dict(os.environ, RETRO_HOME=str(tmp_path)), capture_output=True,
        text=True, timeout=30)
    assert done.returncode == 2
    assert "0.0.0.0" in done.stderr and "Traceback" not in done.stderr


# -- the wire, as a player meets it --------------------------------------------------

def test_every_timing_mark_is_answered(served):
    server = served()
    ada = Player(server.port, "ada")
    ada.ask("hexapawn", "MOVE? ")
    for _ in range(3):
        ada.say(bytes([IAC, 244, IAC, DO, TIMING_MARK]), end=b"")
        ada.expect("ABANDONED")
        ada.expect("> ")
        ada.ask("hexapawn", "MOVE? ")
    assert ada.heard.count(bytes([IAC, WILL, TIMING_MARK])) == 3


def test_ctrl_d_leaves_the_game_then_the_room_and_controls_are_dropped(served):
    server = served()
    ada = Player(server.port, "ada")
    assert "The machines:" in ada.ask("\x0cmenu")
    assert "The machines:" in ada.ask("\x1b[Ahe\x7f\x7fmenu")
    ada.ask("hexapawn", "MOVE? ")
    assert "GAME ABANDONED" in ada.ask("\x04")
    ada.say("\x04")
    assert "dreams" in ada.closed()


def test_scores_are_the_players_own_and_all_on_request(served):
    server = served()
    for name in ("ada", "bob"):
        player = Player(server.port, name)
        player.ask("penney", "(y/n) ")
        bet(player)
        player.ask("q")
        player.ask("quit", "dreams.")
    ada = Player(server.port, "ada")
    own, everyone = ada.ask("scores"), ada.ask("scores all")
    assert re.search(r"Penney's Game\s+1\s", own)
    assert re.search(r"Penney's Game\s+2\s", everyone)
    assert "bob:" in everyone and "bob:" not in own


def test_ssh_proves_the_name_exits_0_completes_and_says_why(served):
    asyncssh = pytest.importorskip("asyncssh", reason="SSH needs asyncssh")
    server = served(ssh=True)
    Player(server.port, "ada", "ada's own secret").close()
    port = server.ports[1]

    async def attempts():
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncssh.connect("127.0.0.1", port, username="ada",
                                   known_hosts=None, client_keys=None,
                                   password="wrong one")
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with asyncssh.connect(
                "127.0.0.1", port, username="ada", known_hosts=None,
                client_keys=[key], password="ada's own secret") as connection:
            process = await connection.create_process(term_type="vt100")
            seen = await read_until(process, "> ")
            process.stdin.write("keys add\n")
            seen = await read_until(process, "> ")
            assert "The key is registered" in seen
            process.stdin.write("pla\t")
            seen = await read_until(process, "play ")
            process.stdin.write("\x15quit\n")
            await read_until(process, "dreams")
            await process.wait_closed()
            assert process.exit_status == 0
        async with asyncssh.connect(
                "127.0.0.1", port, username="ada", known_hosts=None,
                client_keys=[key]) as connection:  # the key alone will do
            process = await connection.create_process(term_type="vt100")
            await read_until(process, "> ")
            process.stdin.write("quit\n")
            await process.wait_closed()
        async with asyncssh.connect(
                "127.0.0.1", port, username="Not.A.Name", known_hosts=None,
                client_keys=None) as connection:
            process = await connection.create_process(term_type="vt100")
            seen = await read_until(process, "NAME (")
            assert '"Not.A.Name" will not do as a NAME' in seen
            process.stdin.write("\x04")
    asyncio.run(asyncio.wait_for(attempts(), 60))


async def read_until(process, text: str) -> str:
    seen = ""
    while text not in seen:
        piece = await process.stdout.read(4096)
        assert piece, seen
        seen += piece
    return seen


# -- HER, when two games share her -----------------------------------------------------

def test_two_lessons_for_one_bead_take_it_once():
    store = Store.memory()
    box = next(box for box in matchboxes() if box.side == SECOND)
    bead = box.arrows[0]
    lost = Lesson((Change(box, bead, -1),), False, "", "row", 1, {})
    memory, taken = keep(store, "hexapawn", [lost])
    assert taken == lost.changes
    memory, taken = keep(store, "hexapawn", [lost])  # the same bead again
    assert taken == ()
    first, second = [r.detail["beads_lost"] for r in store.results()]
    assert len(first) == 1 and second == []
    assert load_her(store).her.beads[box.key][str(bead)] == 0
    assert fresh("HER").beads[box.key][str(bead)] == 1


def test_a_password_is_kept_only_as_a_salted_hash():
    one, two = hashed("correct horse"), hashed("correct horse")
    assert one != two and "correct" not in one
    assert matches("correct horse", one) and not matches("correct horsE", one)
    assert not matches("x", "scrypt$1099511627776$8$1$00$00")  # too dear
    assert not matches("x", "not a hash")


def test_more_players_than_open_files_is_one_line_saying_what_fits(tmp_path):
    import resource

    from retro.rooms.serve import SPARE_FILES

    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (150, 150))
    done = subprocess.run(
        [sys.executable, "-m", "retro", "serve", "--max-players", "500"],
        cwd=ROOT, env=dict(os.environ, RETRO_HOME=str(tmp_path)),
        capture_output=True, text=True, timeout=30, preexec_fn=few_files)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    fits = int(re.search(r"--max-players (\d+) fits", done.stderr).group(1))
    assert fits + Limits().waiting + SPARE_FILES == 150


def test_openssh_in_a_real_terminal_asks_the_password_completes_and_exits_0(
        served):
    pexpect = pytest.importorskip("pexpect")
    pytest.importorskip("asyncssh", reason="SSH needs asyncssh")
    client = shutil.which("ssh")
    if client is None:
        pytest.skip("no OpenSSH client (apt-get install openssh-client)")
    server = served(ssh=True)
    Player(server.port, "ada", "ada's own secret").close()
    ssh = pexpect.spawn(
        client, ["-p", str(server.ports[1]), "-o",
                         "StrictHostKeyChecking=no", "-o",
                         "UserKnownHostsFile=/dev/null", "-o",
                         "PubkeyAuthentication=no", "-o", "LogLevel=ERROR",
                         "ada@127.0.0.1"],
        encoding="utf-8", timeout=WAIT, dimensions=(24, 80))
    ssh.expect("[Pp]assword:")
    ssh.sendline("ada's own secret")
    ssh.expect("> ")
    ssh.send("pla\t")
    ssh.expect("play ")
    ssh.send("\x15hexapawn\r")
    ssh.expect("MOVE\\? ")
    ssh.send("\x04")  # Ctrl-D on an empty line leaves the game
    ssh.expect("GAME ABANDONED")
    ssh.expect("> ")
    ssh.sendline("quit")
    ssh.expect(pexpect.EOF)
    ssh.close()
    assert ssh.exitstatus == 0


def test_a_store_that_cannot_be_used_turns_a_login_away_in_a_line(
        served, monkeypatch):
    import retro.rooms.server as room

    def locked(store, name):
        raise room.StoreError("the store is locked by another program")
    server = served()
    monkeypatch.setattr(room, "account", locked)
    player = Player(server.port)
    player.expect(NAME_PROMPT)
    player.say("ada")
    player.expect(PASSWORD_PROMPT)
    player.say("ada's own secret")
    seen = player.closed()
    assert "store cannot be used (the store is locked" in seen
    assert not any("Traceback" in line for line in server.logs)


LINE = st.lists(st.one_of(
    st.text(max_size=300),
    st.sampled_from(["ada", "\x04", "\x03", "", "٣٤٥", "9" * 5000,
                     "x" * 100_000, "\x1b[A\x7f", "\x00\r\x00"])),
    max_size=8)


def test_whatever_is_typed_at_the_login_the_server_answers_on(served):
    # every example, and hypothesis's replays of it, comes from one address
    # and names, probes and misses as it goes: the room's budgets for
    # guessing (tested on their own above) would refuse the address its
    # probe after some thirty, and fail the test by chance
    endless = 10 ** 6
    server = served(pause=0.0, name_wait=5.0, misses=endless, probes=endless,
                    claims=endless, room_misses=endless, room_claims=endless)

    @settings(max_examples=25, deadline=None)
    @given(lines=LINE)
    def typed_at_the_login(lines):
        sock = socket.create_connection(("127.0.0.1", server.port),
                                        timeout=WAIT)
        try:
            for line in lines:
                sock.sendall(line.encode("utf-8", "surrogatepass") + b"\r\n")
        except OSError:
            pass  # cut off for sending too much: that is an answer too
        sock.close()
        probe = Player(server.port)
        probe.log_in("probe", "")
        assert "probe (you)" in probe.ask("who")
        probe.close()
        server.until(lambda: "probe" not in server.server.players)
        assert not any("Traceback" in line or "broke" in line
                       for line in server.logs)
    typed_at_the_login()


@given(st.binary(max_size=200))
def test_a_typed_line_keeps_no_control_character_but_ctrl_c_and_ctrl_d(raw):
    from retro.wires.lines import typed

    kept = typed(raw)
    assert len(kept) <= len(raw)
    assert not [byte for byte in kept
                if (byte < 0x20 and byte not in (0x03, 0x04)) or byte == 0x7f]


def test_a_full_waiting_room_drops_the_oldest_of_the_most_crowded_address():
    from retro.rooms.waiting import Waiting

    dropped = []
    room = Waiting(Limits(waiting=4, waiting_per_address=3))
    flood = [room.arrive("10.0.0.1", lambda n=n: dropped.append(n))
             for n in range(3)]
    stranger = room.arrive("10.0.0.2", lambda: dropped.append("stranger"))
    assert None not in flood and stranger is not None
    room.arrive("10.0.0.3", lambda: None)
    assert dropped == [0]  # the flood's oldest, not the stranger
    room.arrive("10.0.0.1", lambda: None)  # its own place, from its own
    assert dropped == [0, 1] and len(room) == 4
    for ticket in room.tickets:  # the server is working for every one
        ticket.at_work = True
    assert room.arrive("10.0.0.5", lambda: None) is None
    assert dropped == [0, 1]


def test_a_login_that_breaks_ends_its_line_and_the_server_goes_on(
        served, monkeypatch):
    import retro.rooms.server as room

    def broken(store, name):
        raise RuntimeError("a bug")
    server = served()
    monkeypatch.setattr(room, "account", broken)
    player = Player(server.port)
    player.expect(NAME_PROMPT)
    player.say("ada")
    player.expect(PASSWORD_PROMPT)
    player.say("")
    assert "THE MACHINE HAS JAMMED" in player.closed()
    assert any("login broke" in line and "RuntimeError" in line
               for line in server.logs)
    monkeypatch.undo()
    assert "ada (you)" in Player(server.port, "ada").ask("who")
