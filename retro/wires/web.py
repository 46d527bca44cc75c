# Tangled from literate/web.md: edit the chapter, not this file, then run `retro tangle`.
"""The web door: the room's paper in a page, and a WebSocket behind it.

Tangled from literate/web.md, which explains it.
"""
from __future__ import annotations

import asyncio
import functools
import importlib.resources
import json
import re
import urllib.parse
from collections import deque
from collections.abc import Sequence

from retro.wires.lines import Connect, Doors, keep_alive
from retro.wires.panel import panel_markup


LONGEST = 8 * 1024  # bytes of one message: a line is a line


def what_was_sent(message: str | bytes) -> tuple[str, str]:
    """A message from the page as (what, its text): ("line", "look"),
    ("key", "interrupt"), ("key", "end"), ("tab", "pla") or ("columns",
    "40"), ("columns", "") for a width that is no width."""
    text = message.decode("utf-8", "replace") if isinstance(
        message, bytes) else message
    try:
        said = json.loads(text)
    except ValueError:
        said = None
    if not isinstance(said, dict):
        return "line", text
    for what in ("line", "key", "tab"):
        if isinstance(said.get(what), str):
            return what, said[what]
    if "columns" in said:
        return "columns", columns_in(said["columns"])
    return "line", ""


def columns_in(told: object) -> str:
    """A width told by the page (40, or "40" in an address), as digits;
    "" if it is no width."""
    if type(told) is int and 0 < told < 1000:
        return str(told)
    if isinstance(told, str) and re.fullmatch("[1-9][0-9]{0,2}", told):
        return told
    return ""


def columns_asked(path: str) -> str:
    """The width in the address the page joins at (`/room?columns=40`)."""
    asked = urllib.parse.parse_qs(urllib.parse.urlsplit(path).query)
    return columns_in(asked.get("columns", [""])[-1])


class WebLine:
    """One WebSocket: messages in and out for its line."""

    def __init__(self, socket, connect: Connect, *, closing: float,
                 holding: int):
        self.socket, self.connect = socket, connect
        self.closing, self.holding = closing, holding
        self.queue: deque[str] = deque()
        self.queued, self.paused, self.done = 0, False, False
        self.ready = asyncio.Event()

    async def run(self) -> None:
        """The line, from the handshake to the last message."""
        transport = self.socket.transport
        keep_alive(transport.get_extra_info("socket"))
        host, port, *_ = self.socket.remote_address or ("?", 0)
        self.line = self.connect(write=self.write, close=self.close,
                                 waiting=self.waiting, echo=self.echo,
                                 echoing=True, host=str(host),
                                 peer=f"web {host}:{port}",
                                 ticket=self.socket.ticket)
        self.socket.ticket = None  # the line's now
        told = columns_asked(self.socket.request.path)
        if told:
            self.line.resized(int(told))
        self.line.opened()
        writer = asyncio.create_task(self.writing())
        try:
            async for message in self.socket:
                self.heard(message)
        except Exception:  # the connection broke: it is lost all the same
            pass
        finally:
            self.line.lost()
            self.done = True
            self.ready.set()
            await asyncio.gather(writer, return_exceptions=True)

    def heard(self, message: str | bytes) -> None:
        raw = message.encode() if isinstance(message, str) else message
        if not self.line.pays(raw):
            return
        what, text = what_was_sent(message)
        if what == "line":
            self.line.take(text.encode("utf-8", "surrogatepass") + b"\n")
        elif what == "key" and text == "interrupt":
            self.line.interrupted()
        elif what == "key" and text == "end":
            self.line.take(b"\x04\n")
        elif what == "tab":
            self.send({"completed": self.line.complete(text)})
        elif what == "columns" and text:
            self.line.resized(int(text))

    def write(self, text: str) -> None:
        self.send({"text": text})

    def echo(self, hidden: bool) -> None:
        self.send({"hidden": hidden})

    def send(self, message: dict) -> None:
        if self.done:
            return
        data = json.dumps(message, ensure_ascii=False)
        self.queue.append(data)
        self.queued += len(data)
        if not self.paused and self.queued > self.holding:
            self.paused = True
            self.line.pause_writing()
        self.ready.set()

    def waiting(self) -> int:
        """Bytes not yet sent: the queue's, and the socket's own."""
        return self.queued + self.socket.transport.get_write_buffer_size()

    async def writing(self) -> None:
        """Send what is queued, in order, until the line is done."""
        while not (self.done and not self.queue):
            await self.ready.wait()
            self.ready.clear()
            while self.queue:
                data = self.queue.popleft()
                self.queued -= len(data)
                await self.socket.send(data)
                if self.paused and self.queued <= self.holding // 2:
                    self.paused = False
                    self.line.resume_writing()
        await self.socket.close()

    def close(self) -> None:
        """Send what waits, then close; cut the line `closing` seconds later
        if it will not take it."""
        self.done = True
        self.ready.set()
        asyncio.get_running_loop().call_later(self.closing,
                                              self.socket.transport.abort)


def allowed(origin: str | None, host: str | None,
            others: Sequence[str]) -> bool:
    """Whether a page from `origin` may open the door at `host`."""
    if origin is None:
        return True  # not a browser: nothing a telnet client cannot do
    if host and origin in (f"http://{host}", f"https://{host}"):
        return True
    return origin in others


def answer_request(connection, request, others: Sequence[str]):
    """The page, a refusal, or None to open the WebSocket."""
    from websockets.datastructures import Headers
    from websockets.http11 import Response

    headers = request.headers
    if not allowed(headers.get("Origin"), headers.get("Host"), others):
        return connection.respond(403, "This room takes no connections "
                                  "from other sites' pages.\n")
    if headers.get("Upgrade", "").lower() == "websocket":
        where = urllib.parse.urlsplit(request.path).path
        return None if where == "/room" else connection.respond(
            404, "The room is at /room.\n")
    if request.path in ("/", "/index.html"):
        body, kind = PAGE.encode(), "text/html; charset=utf-8"
    elif request.path in ASSETS:
        name, kind = ASSETS[request.path]
        body = asset(name)
    else:
        return connection.respond(404, "Nothing here but the room, at /.\n")
    return Response(200, "OK", Headers([
        ("Content-Type", kind), ("Content-Length", str(len(body))),
        ("Content-Security-Policy", "default-src 'self'; style-src 'self' "
         "'unsafe-inline'; connect-src 'self' ws: wss:"),
        ("Cache-Control", "no-cache")]), body)


async def open_web(connect: Connect, host: str, port: int, *, doors: Doors,
                   grace: float, closing: float, holding: int,
                   origins: Sequence[str] = (),
                   ssl=None):
    """Listen for the web door; the listener."""
    from websockets.asyncio.server import ServerConnection, serve

    class Placed(ServerConnection):
        """A WebSocket with a place in the waiting room from its accept."""

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            where = transport.get_extra_info("peername") or ("?",)
            self.ticket = doors.arrive(str(where[0]), transport.abort)
            if self.ticket is None:
                transport.abort()

        def connection_lost(self, error: Exception | None) -> None:
            doors.leave(self.ticket)
            self.ticket = None
            super().connection_lost(error)

    async def handler(socket) -> None:
        await WebLine(socket, connect, closing=closing,
                      holding=holding).run()
    return await serve(
        handler, host, port, ssl=ssl, max_size=LONGEST, max_queue=16,
        open_timeout=grace, ping_interval=30, ping_timeout=30,
        close_timeout=closing, compression=None, server_header=None,
        create_connection=Placed,
        process_request=lambda connection, request: answer_request(
            connection, request, tuple(origins)))


ASSETS = {"/page.js": ("page.js", "text/javascript; charset=utf-8"),
          "/page.css": ("page.css", "text/css; charset=utf-8")}


@functools.cache
def asset(name: str) -> bytes:
    """The paper's script or style sheet, as the package holds it."""
    return importlib.resources.files(__package__).joinpath(
        name).read_bytes()


LOOK = """
:root { --md-primary-fg-color: #4051b5; --md-code-bg-color: #f5f5f5;
        --md-default-bg-color: #fff; --md-code-fg-color: #36464e;
        --md-default-fg-color: rgba(0, 0, 0, .87);
        --md-default-fg-color--lighter: rgba(0, 0, 0, .32);
        --md-code-font-family: ui-monospace, monospace; }
body { margin: 0; background: #fff; color: #222;
       font: 16px/1.5 system-ui, sans-serif; }
main { max-width: 48rem; margin: 0 auto; padding: 1rem; }
.md-typeset .retro-paper { max-height: 70vh; }
.md-button { cursor: pointer; border-radius: .1rem;
             border: .1rem solid var(--md-primary-fg-color);
             color: var(--md-primary-fg-color); background: none; }
.md-button--primary { color: #fff;
                      background: var(--md-primary-fg-color); }
"""


PANEL = panel_markup({"data-room": "/room"}, "Join the room",
                     "Interrupt, as Ctrl-C does",
                     again="Join the room again", keeping=False)


PAGE = ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, "
        "initial-scale=1\">\n<title>Retro: the machine room</title>\n"
        "<link rel=\"stylesheet\" href=\"/page.css\">\n"
        "<style>" + LOOK + "</style></head>\n<body><main class=\"md-typeset\">"
        "<h1>The machine room</h1>" + PANEL + "</main>\n"
        "<script src=\"/page.js\" defer></script></body></html>\n")
