"""The web door: a page and a WebSocket into the same room as telnet.

Each test starts a served room with its web door on the loopback and
checks what a player would notice, or makes one of the attacks a web door
must refuse, with the figure it must hold.
"""
from __future__ import annotations

import asyncio
import json
import shutil
import socket
import time

import pytest

from served import WAIT, Player, Running, limits_of  # tests/served.py

websockets = pytest.importorskip("websockets", reason="the web door needs "
                                 "websockets (pip install -e '.[dev]')")


class Web(Running):
    """A served room with a web door as well as telnet."""

    async def listen(self, limits) -> list:
        from retro.wires.web import open_web

        return [await open_web(self.server.connect, "127.0.0.1", 0,
                               doors=self.server, grace=limits.name_wait,
                               closing=limits.closing,
                               holding=limits.output // 4,
                               origins=("https://friends.example",))]


def web_room(tmp_path, **limits) -> Web:
    return Web(tmp_path / "home", limits_of(**limits))


class Page:
    """A WebSocket client, as the room's page is one."""

    def __init__(self, socket):
        self.socket, self.seen = socket, ""
        self.hidden = False

    async def until(self, text: str, wait: float = WAIT) -> str:
        deadline = time.monotonic() + wait
        while text not in self.seen:
            message = json.loads(await asyncio.wait_for(
                self.socket.recv(), deadline - time.monotonic()))
            self.seen += message.get("text", "")
            self.hidden = message.get("hidden", self.hidden)
        before, _, self.seen = self.seen.partition(text)
        return before + text

    async def say(self, line: str) -> None:
        await self.socket.send(json.dumps({"line": line}))

    async def log_in(self, name: str, password: str = "") -> str:
        told = await self.until("NAME")
        await self.say(name)
        told += await self.until("PASSWORD? ")
        assert self.hidden  # the page is told to hide the password
        await self.say(password)
        if password:
            told += await self.until("AGAIN? ")
            await self.say(password)
        return told + await self.until("> ")


def connect(room: Web, origin: str | None = None):
    from websockets.asyncio.client import connect as open_socket

    return open_socket(f"ws://127.0.0.1:{room.ports[1]}/room",
                       origin=origin, open_timeout=WAIT)


def test_a_web_player_and_a_telnet_player_share_the_room(tmp_path):
    room = web_room(tmp_path)
    try:
        ada = Player(room.port, "ada")

        async def web() -> tuple[str, str]:
            async with connect(room, f"http://127.0.0.1:{room.ports[1]}") \
                    as socket:
                page = Page(socket)
                told = await page.log_in("wes", "wes's own secret")
                await page.say("who")
                seen = await page.until("> ")
                told_ada = ada.ask("who")
                await page.say("quit")
                await page.until("dreams")
                return told + seen, told_ada
        seen, told_ada = asyncio.run(asyncio.wait_for(web(), 30))
        assert "wes is yours" in seen
        assert "2 players on line" in seen and "ada" in seen
        assert "wes" in told_ada and "web 127.0.0.1:" not in told_ada
    finally:
        room.close()


def test_a_page_from_another_site_is_refused(tmp_path):
    room = web_room(tmp_path)
    try:
        async def attempts() -> list[str]:
            found = []
            for origin in ("http://evil.example",
                           f"http://127.0.0.1:{room.ports[1]}",
                           "https://friends.example"):
                try:
                    async with connect(room, origin) as socket:
                        await Page(socket).until("NAME")
                        found.append("open")
                except websockets.exceptions.InvalidStatus as refused:
                    found.append(str(refused.response.status_code))
            return found
        assert asyncio.run(asyncio.wait_for(attempts(), 30)) == [
            "403", "open", "open"]
    finally:
        room.close()


def test_a_frame_of_ten_megabytes_is_refused_and_others_play_on(tmp_path):
    room = web_room(tmp_path)
    try:
        async def attack() -> tuple[int | None, float]:
            socket = await connect(room)
            await Page(socket).until("NAME")
            try:
                await socket.send("x" * (10 * 2 ** 20))
                while True:
                    await asyncio.wait_for(socket.recv(), WAIT)
            except websockets.exceptions.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else None
            started = time.monotonic()
            async with connect(room) as socket:
                await Page(socket).log_in("gus")
            return code, time.monotonic() - started
        code, took = asyncio.run(asyncio.wait_for(attack(), 60))
        assert code == 1009  # "message too big"
        assert took < 2.0
    finally:
        room.close()


def test_half_open_handshakes_keep_no_web_player_out(tmp_path):
    room = web_room(tmp_path)
    held = []
    try:
        for _ in range(500):
            try:
                held.append(socket.create_connection(
                    ("127.0.0.1", room.ports[1]), timeout=WAIT))
                held[-1].sendall(b"GET /room HTTP/1.1\r\nHost: x\r\n")
            except OSError:
                break

        async def honest() -> float:
            started = time.monotonic()
            async with connect(room) as socket:
                await Page(socket).log_in("gus")
            return time.monotonic() - started
        assert asyncio.run(asyncio.wait_for(honest(), 30)) < 2.0
        # each held a place from its accept: the oldest made room, closed
        from retro.rooms.limits import Limits
        room.until(lambda: len(room.server.waiting)
                   <= Limits().waiting_per_address)
        cut = 0
        for sock in held:
            sock.settimeout(0.01)
            try:
                cut += sock.recv(1) == b""
            except ConnectionResetError:
                cut += 1
            except socket.timeout:
                pass  # still open
        assert cut >= len(held) - Limits().waiting_per_address
    finally:
        for sock in held:
            sock.close()
        room.close()


def test_guesses_over_the_web_count_with_the_other_doors(tmp_path):
    room = web_room(tmp_path, pause=0.0, misses=3)
    try:
        Player(room.port, "ada", "ada's own secret").close()

        async def guesses() -> str:
            for _ in range(3):
                async with connect(room) as socket:
                    page = Page(socket)
                    await page.until("NAME")
                    await page.say("ada")
                    await page.until("PASSWORD? ")
                    await page.say("a wrong guess")
                    await page.until("PASSWORD for ada")
            return "guessed"
        asyncio.run(asyncio.wait_for(guesses(), 30))
        thief = Player(room.port)  # telnet, from the same address
        thief.expect("NAME")
        thief.say("ada")
        thief.expect("PASSWORD? ")
        thief.say("one more guess")
        assert "refused for" in thief.closed()
    finally:
        room.close()


def test_the_page_asks_nothing_of_any_other_host(tmp_path):
    import urllib.request

    room = web_room(tmp_path)
    try:
        with urllib.request.urlopen(
                f"http://127.0.0.1:{room.ports[1]}/", timeout=WAIT) as page:
            html = page.read().decode()
            policy = page.headers["Content-Security-Policy"]
        assert "<input" in html and "/room" in html
        assert "http://" not in html and "https://" not in html
        assert "default-src 'self'" in policy
    finally:
        room.close()


@pytest.mark.book
def test_a_browser_plays_in_the_room_beside_a_telnet_player(tmp_path):
    from browser import chromium, missing_browser  # tests/browser.py

    missing = missing_browser()
    if missing:
        pytest.skip(missing)
    room = web_room(tmp_path)
    try:
        ada = Player(room.port, "ada")
        with chromium() as browser:
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{room.ports[1]}/")
            line = page.locator("#line")
            page.wait_for_selector("#paper:has-text('NAME')")
            line.fill("bea")
            line.press("Enter")
            page.wait_for_selector("#line[type=password]")
            line.press("Enter")  # a guest
            page.wait_for_selector("#line[type=text]")
            line.fill("who")
            line.press("Enter")
            page.wait_for_selector("#paper:has-text('2 players on line')")
            assert "bea" in ada.ask("who")
            line.press("Control+d")
            page.wait_for_selector("#paper:has-text('The line is closed')")
            assert "dreams" in page.inner_text("#paper")
    finally:
        room.close()


class Browser:
    """The web door's page in a browser context of its own (a browser of
    its own, as far as the room can tell), read as a telnet Player is: up
    to what is awaited on the paper, waiting on the page, never the clock."""

    def __init__(self, chromium, port: int):
        self.context = chromium.new_context()
        self.context.set_default_timeout(WAIT * 1000)
        self.page = self.context.new_page()
        self.page.goto(f"http://127.0.0.1:{port}/")
        self.line, self.read = self.page.locator("#line"), 0

    def expect(self, text: str) -> str:
        """The paper from where the last expect ended up to `text`."""
        end = self.page.wait_for_function(
            """([text, read]) => {
                 const at = document.getElementById("paper").textContent
                   .indexOf(text, read);
                 return at < 0 ? null : at + text.length;
               }""", arg=[text, self.read]).json_value()
        seen = self.page.evaluate(
            """([from, to]) => document.getElementById("paper").textContent
                 .slice(from, to)""", [self.read, end])
        self.read = end
        return seen

    def say(self, line: str) -> None:
        self.line.fill(line)
        self.line.press("Enter")

    def ask(self, line: str, until: str = "> ") -> str:
        self.say(line)
        return self.expect(until)

    def press(self, keys: str, until: str) -> str:
        self.line.press(keys)
        return self.expect(until)

    def log_in(self, name: str, password: str) -> str:
        """Claim `name`: the password typed twice, in a hidden line."""
        told = self.expect("NAME")
        self.say(name)
        told += self.expect("PASSWORD? ")
        self.page.wait_for_selector("#line[type=password]")
        self.say(password)
        told += self.expect("AGAIN? ")
        self.say(password)
        told += self.expect("> ")
        self.page.wait_for_selector("#line[type=text]")
        return told


class Terminal:
    """OpenSSH's client in a terminal of its own (pexpect), logged in."""

    def __init__(self, port: int, name: str):
        import pexpect

        self.ssh = pexpect.spawn(
            shutil.which("ssh"), ["-p", str(port), "-o",
                                  "StrictHostKeyChecking=no", "-o",
                                  "UserKnownHostsFile=/dev/null", "-o",
                                  "PubkeyAuthentication=no", "-o",
                                  "LogLevel=ERROR", f"{name}@127.0.0.1"],
            encoding="utf-8", timeout=WAIT, dimensions=(24, 80))
        self.ssh.expect_exact("PASSWORD? ")
        self.ssh.sendline("")  # a guest
        self.ssh.expect_exact("> ")

    def ask(self, line: str, until: str = "> ") -> str:
        self.ssh.sendline(line)
        self.ssh.expect_exact(until)
        return self.ssh.before + until


def test_two_browsers_a_telnet_and_an_ssh_player_share_one_room(tmp_path):
    from browser import chromium, missing_browser  # tests/browser.py
    from served import move

    missing = missing_browser()
    if missing:
        pytest.skip(missing)
    pytest.importorskip("asyncssh", reason="SSH needs asyncssh")
    pytest.importorskip("pexpect")
    if shutil.which("ssh") is None:
        pytest.skip("no OpenSSH client (apt-get install openssh-client)")
    room = Web(tmp_path / "home", limits_of(pause=0.0), ssh=True,
               operator="ada")
    try:
        ada = Player(room.port, "ada")  # telnet, and the operator
        sam = Terminal(room.ports[2], "sam")
        with chromium() as browsers:
            bea, cy = (Browser(browsers, room.ports[1]) for _ in range(2))
            bea.log_in("bea", "bea's own secret")
            cy.log_in("cy", "cy's own secret")
            seen = cy.ask("who")
            assert "4 players on line" in seen
            assert all(name in seen for name in ("ada", "bea", "sam"))
            assert "4 players on line" in sam.ask("who")
            doors = ada.ask("who")  # the operator's WHO names the doors
            assert doors.count("web 127.0.0.1:") == 2
            assert "telnet 127.0.0.1:" in doors and "ssh 127.0.0.1:" in doors

            bea.ask("hexapawn", "MOVE? ")  # a game in a browser teaches HER
            while "ANOTHER GAME" not in move(bea):
                pass
            bea.ask("n")
            assert "HER HAS PLAYED 1 GAME" in ada.ask("her", "MOVE? ")
            ada.ask("quit")

            ada.ask("reset her", "(Y OR N)? ")
            ada.ask("y")
            reset = "ada RESET HER: SHE FORGOT WHAT SHE LEARNED IN 1 GAME"
            for page in (bea, cy):
                assert reset in page.expect("***\n")

            bea.ask("hexapawn", "MOVE? ")  # Ctrl-C leaves the game
            assert "GAME ABANDONED" in bea.press("Control+c", "> ")
            assert "To leave the room, type QUIT." in bea.press(
                "Control+c", "> ")
            assert "dreams" in bea.ask("quit", "[The line is closed.]")
            room.until(lambda: "bea" not in room.server.players)
            assert "3 players on line" in ada.ask("who")

            cy.ask("hexapawn", "MOVE? ")
            cy.page.close()  # the tab, in the middle of a game
            room.until(lambda: "cy" not in room.server.players)
            seen = sam.ask("who")
            assert "2 players on line" in seen and "cy" not in seen
        assert [result.player for result in
                room.store().results("hexapawn")] == ["bea"]
        sam.ssh.sendline("quit")
        sam.ssh.expect(__import__("pexpect").EOF)
        sam.ssh.close()
        assert sam.ssh.exitstatus == 0
    finally:
        room.close()
