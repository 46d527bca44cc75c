"""The web door: a page and a WebSocket into the same room as telnet.

Each test starts a served room with its web door on the loopback and
checks what a player would notice, or makes one of the attacks a web door
must refuse, with the figure it must hold.
"""
from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import socket
import time

from pathlib import Path

import pytest

from served import WAIT, Player, Running, limits_of  # tests/served.py

ROOT = Path(__file__).resolve().parent.parent
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

    async def closed(self) -> str:
        """All the text that comes until the server closes the line."""
        try:
            while True:
                message = json.loads(await asyncio.wait_for(
                    self.socket.recv(), WAIT))
                self.seen += message.get("text", "")
        except websockets.exceptions.ConnectionClosed:
            return self.seen

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


def connect(room: Web, origin: str | None = None,
            source: str = "127.0.0.1", path: str = "/room"):
    from websockets.asyncio.client import connect as open_socket

    return open_socket(f"ws://127.0.0.1:{room.ports[1]}{path}",
                       origin=origin, open_timeout=WAIT,
                       local_addr=(source, 0))


async def honest(room: Web, name: str = "gus",
                 source: str = "127.0.0.1") -> float:
    """An honest web player logs in as a guest: how long it took, in
    seconds, measured here."""
    started = time.monotonic()
    async with connect(room, source=source) as socket:
        await Page(socket).log_in(name)
        took = time.monotonic() - started
        await Page(socket).say("quit")
    return took


def frame(payload: bytes, opcode: int = 0x1, fin: bool = True) -> bytes:
    """One WebSocket frame as a client sends it, masked (RFC 6455, 5.2)."""
    mask, size = os.urandom(4), len(payload)
    head = bytes([(0x80 if fin else 0) | opcode])
    if size < 126:
        head += bytes([0x80 | size])
    elif size < 2 ** 16:
        head += bytes([0x80 | 126]) + size.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + size.to_bytes(8, "big")
    return head + mask + bytes(byte ^ mask[at % 4]
                               for at, byte in enumerate(payload))


def line_frame(line: str) -> bytes:
    return frame(json.dumps({"line": line}).encode())


def opened(room: Web, source: str = "127.0.0.1",
           receiving: int | None = None) -> socket.socket:
    """A WebSocket opened by hand on a plain socket (its receive buffer
    `receiving` bytes, if given), read no further than the handshake."""
    sock = socket.socket()
    if receiving is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receiving)
    sock.settimeout(WAIT)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", room.ports[1]))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET /room HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 f"Upgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\n"
                 f"Sec-WebSocket-Version: 13\r\n\r\n".encode())
    answer = b""
    while not answer.endswith(b"\r\n\r\n"):  # a byte at a time: no more
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def closing_frame(sock: socket.socket) -> tuple[int, str]:
    """Read the server's frames until its Close: the code and reason."""
    def exactly(count: int) -> bytes:
        data = b""
        while len(data) < count:
            piece = sock.recv(count - len(data))
            assert piece, "closed without a Close frame"
            data += piece
        return data
    while True:
        first, second = exactly(2)
        size = second & 0x7F
        if size == 126:
            size = int.from_bytes(exactly(2), "big")
        elif size == 127:
            size = int.from_bytes(exactly(8), "big")
        payload = exactly(size)
        if first & 0x0F == 0x8:
            return (int.from_bytes(payload[:2], "big"),
                    payload[2:].decode("utf-8", "replace"))


def widest(text: str) -> int:
    """The longest line of `text`, in characters."""
    return max(len(line) for line in text.split("\n"))


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


def test_the_room_folds_at_the_width_the_page_tells(tmp_path):
    room = web_room(tmp_path)
    try:
        async def web() -> tuple[str, str, str, str]:
            async with connect(room) as socket:
                page = Page(socket)
                await page.log_in("wes")
                await page.say("who")
                wide = await page.until("\n> ")
                await page.say("help")
                wide_help = await page.until("\n> ")
                await socket.send(json.dumps({"columns": 40}))
                await page.say("who")
                narrow = await page.until("\n> ")
                await page.say("help")
                return wide, wide_help, narrow, await page.until("\n> ")
        wide, wide_help, narrow, narrow_help = asyncio.run(
            asyncio.wait_for(web(), 30))
        assert widest(wide) > 40 and widest(wide_help) > 40
        assert widest(narrow) <= 40 and widest(narrow_help) <= 40
        assert "  wes (you)\n    in the machine room  0:00" in narrow
        assert narrow_help.split() == wide_help.split()  # only folded
    finally:
        room.close()


def test_the_width_in_the_address_folds_the_greeting(tmp_path):
    room = web_room(tmp_path)
    try:
        async def greetings() -> list[str]:
            seen = []
            for path in ("/room", "/room?columns=40"):
                async with connect(room, path=path) as socket:
                    seen.append(await Page(socket).until("16)? "))
            return seen
        wide, narrow = asyncio.run(asyncio.wait_for(greetings(), 30))
        assert widest(wide) > 40 and widest(narrow) <= 40
        assert narrow.split() == wide.split()
    finally:
        room.close()


BIG = "9" * 4000  # a number JSON and Python read, and no width


@pytest.mark.parametrize("told, width", [
    ("40", "40"), ('"40"', "40"), ("1", "1"), ("999", "999"), ("0", ""),
    ("-40", ""), ("1000", ""), (BIG, ""), ("40.0", ""), ("true", ""),
    ('"wide"', ""), ('"040"', ""), ('"4 0"', ""), ("null", ""),
    ("[40]", "")])
def test_a_width_is_a_whole_number_of_columns_from_1_to_999(told, width):
    from retro.wires.web import columns_asked, what_was_sent

    said = what_was_sent('{"columns": ' + told + "}")
    assert said == ("columns", width)
    assert columns_asked("/room?columns=" + told.strip('"')) == width


def test_a_width_out_of_range_is_held_or_ignored(tmp_path):
    """A width under 16 folds at 16 and one over 72 at 72; a width that is
    no width changes nothing, and is no line typed."""
    room = web_room(tmp_path)
    try:
        async def web() -> list[str]:
            async with connect(room, path="/room?columns=5") as socket:
                page = Page(socket)
                seen = [await page.log_in("wes")]
                for told in (BIG, "true", '"wide"', "2.5", "0"):
                    await socket.send('{"columns": ' + told + "}")
                await page.say("who")
                seen.append(await page.until("\n> "))
                await socket.send(json.dumps({"columns": 500}))
                await page.say("help")
                seen.append(await page.until("\n> "))
                await page.say("help")  # the paper at 72: the same
                seen.append(await page.until("\n> "))
                return seen
        login, who, help_wide, again = asyncio.run(
            asyncio.wait_for(web(), 30))
        greeting = login.partition("PASSWORD? ")[0]
        assert widest(greeting) == 16 and widest(who) == 16
        assert who.startswith("who\n1 player on\nline:")  # nothing typed
        assert 40 < widest(help_wide) <= 72 and help_wide == again
    finally:
        room.close()


def test_a_page_from_another_site_is_refused(tmp_path):
    room = web_room(tmp_path)
    try:
        async def attempt(origin: str, source: str = "127.0.0.1") -> str:
            try:
                async with connect(room, origin, source) as socket:
                    await Page(socket).until("NAME")
                    return "open"
            except websockets.exceptions.InvalidStatus as refused:
                return str(refused.response.status_code)
            except (websockets.exceptions.InvalidMessage, OSError):
                return "cut"  # pushed out of the waiting room, unanswered

        async def attempts() -> tuple[list[str], list[str], float]:
            found = [await attempt(origin) for origin in (
                "http://evil.example", f"http://127.0.0.1:{room.ports[1]}",
                "https://friends.example")]
            stranger = asyncio.gather(*(attempt(  # a hundred at once
                "http://evil.example", "127.0.0.2") for _ in range(100)))
            took = await honest(room)  # while the stranger's pages knock
            return found, await stranger, took
        found, knocked, took = asyncio.run(asyncio.wait_for(attempts(), 30))
        assert found == ["403", "open", "open"]
        assert "403" in knocked and set(knocked) <= {"403", "cut"}
        assert took < 2.0
    finally:
        room.close()


def test_a_frame_of_ten_megabytes_is_refused_and_others_play_on(tmp_path):
    room = web_room(tmp_path)
    try:
        async def big() -> int | None:
            socket = await connect(room)
            await Page(socket).until("NAME")
            try:
                await socket.send("x" * (10 * 2 ** 20))
                while True:
                    await asyncio.wait_for(socket.recv(), WAIT)
            except websockets.exceptions.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None

        async def attack() -> tuple[list, float]:
            sending = asyncio.gather(*(big() for _ in range(4)))
            took = await honest(room)  # while 40 MB are on their way
            return await sending, took
        codes, took = asyncio.run(asyncio.wait_for(attack(), 60))
        assert codes == [1009] * 4  # "message too big"
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
        took = asyncio.run(asyncio.wait_for(honest(room, source="127.0.0.2"),
                                            30))
        assert took < 2.0  # from another address, while this one is refused
    finally:
        room.close()


def test_the_page_asks_nothing_of_any_other_host(tmp_path):
    import urllib.error
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
        assert "script-src" not in policy  # only the page's own script
        for name, kind in (("page.js", "text/javascript"),
                           ("page.css", "text/css")):
            with urllib.request.urlopen(
                    f"http://127.0.0.1:{room.ports[1]}/{name}",
                    timeout=WAIT) as served:
                assert served.headers["Content-Type"].startswith(kind)
                assert served.read() == (ROOT / "retro" / "wires" /
                                         name).read_bytes()
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(
                f"http://127.0.0.1:{room.ports[1]}/python.js", timeout=WAIT)
        assert missing.value.code == 404
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
            line = page.locator(".retro-line")
            page.wait_for_selector(".retro-paper:has-text('NAME')")
            line.fill("bea")
            line.press("Enter")
            page.wait_for_selector(".retro-line[type=password]")
            line.press("Enter")  # a guest
            page.wait_for_selector(".retro-line[type=text]")
            line.fill("who")
            line.press("Enter")
            page.wait_for_selector(
                ".retro-paper:has-text('2 players on line')")
            assert "bea" in ada.ask("who")
            line.press("Control+d")
            page.wait_for_selector(
                ".retro-status:has-text('The line is closed.')")
            assert "dreams" in page.inner_text(".retro-paper")
            assert page.text_content(".retro-play").strip() == (
                "Join the room again")
    finally:
        room.close()


@pytest.mark.book
def test_the_rooms_page_is_the_books_paper(tmp_path):
    """The page the door serves is the book's panel, with the room for its
    engine: the same script and style, the same keys (a paste of several
    lines, the arrows through the history), and a password unseen."""
    import browser as b  # tests/browser.py

    missing = b.missing_browser()
    if missing:
        pytest.skip(missing)
    from test_page_browser import type_lines  # as the book's pages are typed

    room = web_room(tmp_path)
    secret = "bea's own secret"
    try:
        with b.chromium() as launched:
            reading = b.Reader(launched, f"http://127.0.0.1:{room.ports[1]}",
                               1280)
            page = reading.visit("/")
            page.wait_for_selector(".retro-paper:has-text('NAME')")
            type_lines(page, ["bea"])
            page.wait_for_selector(".retro-line[type=password]")
            for _ in ("PASSWORD?", "THE SAME AGAIN?"):
                page.fill(".retro-line", secret)
                page.press(".retro-line", "Enter")
            page.wait_for_selector(".retro-paper:has-text('bea is yours')")
            page.wait_for_selector(".retro-line[type=text]")
            type_lines(page, ["who", "scores", "who"])  # 1 typed, 2 pasted
            page.wait_for_function(
                "() => document.querySelector('.retro-paper').textContent"
                ".split('player on line:').length === 3")
            history = []
            for _ in range(5):
                page.press(".retro-line", "ArrowUp")
                history.append(page.input_value(".retro-line"))
            assert history == ["who", "scores", "who", "bea", "bea"]
            page.press(".retro-line", "ArrowDown")
            assert page.input_value(".retro-line") == "who"
            shown = page.text_content(".retro-paper")
            assert secret not in shown
            assert "PASSWORD? \n" in shown  # the end of the line, unseen
            # each line after the question it answers, as the book's paper
            assert "> who\n1 player on line:" in shown
            assert "> scores\nNo games played yet." in shown
            fetched = [url for _, url in reading.requests]
            assert [url.rsplit("/", 1)[1] for url in fetched] == [
                "", "page.css", "page.js"]
            assert reading.errors == []
            assert b.foreign_requests(reading) == []
            reading.close()
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
        self.line, self.read = self.page.locator(".retro-line"), 0

    def expect(self, text: str) -> str:
        """The paper from where the last expect ended up to `text`."""
        end = self.page.wait_for_function(
            """([text, read]) => {
                 const at = document.querySelector(".retro-paper").textContent
                   .indexOf(text, read);
                 return at < 0 ? null : at + text.length;
               }""", arg=[text, self.read]).json_value()
        seen = self.page.evaluate(
            """([from, to]) => document.querySelector(".retro-paper").textContent
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
        self.page.wait_for_selector(".retro-line[type=password]")
        self.say(password)
        told += self.expect("AGAIN? ")
        self.say(password)
        told += self.expect("> ")
        self.page.wait_for_selector(".retro-line[type=text]")
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
            assert "dreams" in bea.ask("quit", "dreams")
            bea.page.wait_for_selector(  # said under the paper, not on it
                ".retro-status:has-text('The line is closed.')")
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


def test_a_web_client_that_never_reads_is_cut_and_others_play_on(tmp_path):
    room = web_room(tmp_path, closing=0.5)
    ada = Player(room.port, "ada")
    try:
        sock = opened(room, receiving=4096)  # and never read again
        sock.sendall(line_frame("nora") + line_frame(""))  # a guest
        room.until(lambda: "nora" in room.server.players)
        nora = room.server.players["nora"].connection
        heard, take = [0], nora.take

        def counted(data: bytes) -> None:  # the lines the room has heard
            heard[0] += data.count(b"\n")
            take(data)
        nora.take = counted
        most, sent, took = [0], 0, None
        holding = room.server.limits.output // 4  # as Web.listen gives it

        def taken_or_cut() -> bool:
            most[0] = max(most[0], nora.waiting())
            return nora.closed or (heard[0] >= sent and nora.tty.pending == 0)
        while not nora.closed:  # HELP in batches its allowance pays for
            try:
                sock.sendall(line_frame("help") * 20)
            except OSError:
                break  # cut off while sending: that is the answer
            sent += 20
            room.until(taken_or_cut)
            if took is None and most[0] > holding:  # the room holds output
                took = asyncio.run(asyncio.wait_for(honest(room), 30))
                assert "ada (you)" in ada.ask("who")
        room.until(lambda: "nora" not in room.server.players)
        why = room.server.chronicle.counts.get("lines closed", {})
        assert why.get("the line is not reading"), why
        output = room.server.limits.output
        assert most[0] <= output + 64 * 1024, most[0]  # nothing unbounded
        assert took is not None and took < 2.0, took
        assert "ada (you)" in ada.ask("who")
        sock.close()
    finally:
        room.close()


def test_a_message_in_endless_fragments_is_refused_at_8_kb(tmp_path):
    room = web_room(tmp_path)
    try:
        floods = [opened(room, source="127.0.0.2") for _ in range(10)]
        piece = b"x" * 1000
        for sock in floods:  # begun, and held just under the limit
            sock.sendall(frame(piece, fin=False) + b"".join(
                frame(piece, opcode=0x0, fin=False) for _ in range(7)))
        took = asyncio.run(asyncio.wait_for(honest(room), 30))
        refusals = []
        for sock in floods:  # fragments on and on: 100 KB, twelve limits
            try:
                sock.sendall(frame(piece, opcode=0x0, fin=False) * 92)
            except OSError:
                pass  # cut off while sending: the answer is on its way
            refusals.append(closing_frame(sock))
            sock.close()
        assert {code for code, _ in refusals} == {1009}  # "message too big"
        for _, reason in refusals:  # one line: the ninth fragment is refused
            assert "after reading 8000 bytes exceeds limit of 8192" in reason
            assert "\n" not in reason
        assert took < 2.0, took
        room.until(lambda: not room.server.waiting)
    finally:
        room.close()


def test_a_web_line_pushed_out_of_the_waiting_room_is_told_why(tmp_path):
    room = web_room(tmp_path, waiting=2)
    try:
        async def pushed() -> str:
            async with connect(room) as socket:
                page = Page(socket)
                await page.until("NAME")
                late = [Player(room.port),  # the same address; another
                        Player(room.port, source="127.0.0.2")]
                seen = await page.closed()
                for player in late:
                    player.close()
                return seen
        assert "TOO MANY WAITING TO LOG IN" in asyncio.run(
            asyncio.wait_for(pushed(), 30))
    finally:
        room.close()


_FIT = """() => {
  const paper = document.querySelector('.retro-paper');
  const probe = document.createElement('span');
  probe.textContent = '0'.repeat(100);
  paper.append(probe);
  const one = probe.getBoundingClientRect().width / 100;
  probe.remove();
  const style = getComputedStyle(paper);
  const inside = paper.clientWidth - parseFloat(style.paddingLeft)
    - parseFloat(style.paddingRight);
  const lines = paper.textContent.split('\\n');
  return {columns: Math.floor(inside / one),
          longest: Math.max(...lines.map((line) => line.length)),
          scroll: paper.scrollWidth, client: paper.clientWidth,
          page: document.documentElement.scrollWidth, view: innerWidth};
}"""


@pytest.mark.book
def test_the_rooms_page_fits_a_phone(tmp_path):
    """At 400 px the room folds at the panel's columns, so the paper never
    scrolls sideways; made wider, the page tells the room, and WHO is a
    table again."""
    import browser as b  # tests/browser.py

    missing = b.missing_browser()
    if missing:
        pytest.skip(missing)
    from test_page_browser import type_lines  # as the book's pages are typed

    room = web_room(tmp_path)
    try:
        ada = Player(room.port, "ada")  # WHO has two players' rows
        with b.chromium() as launched:
            reading = b.Reader(launched, f"http://127.0.0.1:{room.ports[1]}",
                               400)
            with reading.page.expect_websocket() as opened:
                page = reading.visit("/")
            socket = opened.value
            joined = socket.url.partition("/room?columns=")[2]
            page.wait_for_selector(".retro-paper:has-text('NAME')")
            type_lines(page, ["bea"])
            page.wait_for_selector(".retro-line[type=password]")
            page.press(".retro-line", "Enter")  # a guest
            page.wait_for_selector(".retro-paper:has-text('Type HELP')")
            type_lines(page, ["who", "help", "scores all"])
            page.wait_for_function(
                "() => document.querySelector('.retro-paper').textContent"
                ".includes('clean.\\n> ')")
            fit = page.evaluate(_FIT)
            assert 30 <= fit["columns"] < 72  # a phone's paper
            assert joined == str(fit["columns"])  # the room was told it
            assert fit["longest"] <= fit["columns"]
            assert fit["scroll"] <= fit["client"]  # no sideways scroll
            assert fit["page"] <= fit["view"]
            shown = page.text_content(".retro-paper")
            assert "  bea (you)\n    in the machine room" in shown
            with socket.expect_event("framesent", predicate=lambda sent:
                                     '"columns"' in sent) as told:
                page.set_viewport_size({"width": 1280, "height": 900})
            assert json.loads(told.value)["columns"] > 72  # held at 72
            type_lines(page, ["who"])
            page.wait_for_function(
                "() => /bea \\(you\\) +in the machine room/.test("
                "document.querySelector('.retro-paper').textContent)")
            assert "ada" in ada.ask("who")
            assert reading.errors == []
            reading.close()
    finally:
        room.close()
