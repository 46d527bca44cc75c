# Tangled from literate/web.md: edit the chapter, not this file, then run `retro tangle`.
"""The web door: the room's paper in a page, and a WebSocket behind it.

Tangled from literate/web.md, which explains it.
"""
from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Sequence

from retro.wires.lines import Connect, Doors, keep_alive


LONGEST = 8 * 1024  # bytes of one message: a line is a line


def what_was_sent(message: str | bytes) -> tuple[str, str]:
    """A message from the page as (what, its text): ("line", "look"),
    ("key", "interrupt"), ("key", "end") or ("tab", "pla")."""
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
    return "line", ""


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
                                 host=str(host), peer=f"web {host}:{port}",
                                 ticket=self.socket.ticket)
        self.socket.ticket = None  # the line's now
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
        return None if request.path == "/room" else connection.respond(
            404, "The room is at /room.\n")
    if request.path not in ("/", "/index.html"):
        return connection.respond(404, "Nothing here but the room, at /.\n")
    body = PAGE.encode()
    return Response(200, "OK", Headers([
        ("Content-Type", "text/html; charset=utf-8"),
        ("Content-Length", str(len(body))),
        ("Content-Security-Policy", "default-src 'self'; style-src "
         "'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self' "
         "ws: wss:"),
        ("Cache-Control", "no-store")]), body)


async def open_web(connect: Connect, host: str, port: int, *, doors: Doors,
                   grace: float, closing: float = 5.0,
                   holding: int = 64 * 1024, origins: Sequence[str] = (),
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


LOOK = """
body { margin: 0; background: #f4f1e8; color: #222; }
main { max-width: 48rem; margin: 0 auto; padding: 1rem; }
#paper { font: 15px/1.35 monospace; white-space: pre-wrap;
         overflow-wrap: anywhere; margin: 0; }
#line { font: 15px monospace; width: 100%; box-sizing: border-box;
        border: 0; border-bottom: 1px solid #888; background: transparent;
        padding: .2rem 0; outline: none; }
#again { display: none; margin-top: .5rem; }
"""
PAPER = """
<pre id="paper" aria-live="polite"></pre>
<input id="line" autocomplete="off" autocapitalize="off" spellcheck="false"
       aria-label="What you type">
<button id="again" type="button">Connect again</button>
"""


PRINT = """
const paper = document.getElementById("paper");
const line = document.getElementById("line");
const again = document.getElementById("again");
const typed = [];
let back = 0, socket = null;
function print(text) {
  paper.append(text);
  line.scrollIntoView({block: "nearest"});
}
function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
  }
}
function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(scheme + "//" + location.host + "/room");
  again.style.display = "none";
  socket.onmessage = (event) => {
    const said = JSON.parse(event.data);
    if (typeof said.text === "string") print(said.text);
    if (typeof said.hidden === "boolean") {
      line.type = said.hidden ? "password" : "text";
    }
    if (typeof said.completed === "string") line.value = said.completed;
  };
  socket.onclose = () => {
    print("\\n[The line is closed.]\\n");
    line.type = "text";
    again.style.display = "block";
  };
}
"""


TYPE = """
line.addEventListener("keydown", (event) => {
  if (event.key === "Enter") {
    const text = line.value;
    line.value = "";
    print(line.type === "password" ? "\\n" : text + "\\n");
    if (line.type !== "password" && text.trim()) typed.push(text);
    back = typed.length;
    send({line: text});
  } else if (event.ctrlKey && event.key === "c" && !line.value) {
    event.preventDefault();
    send({key: "interrupt"});
  } else if (event.ctrlKey && event.key === "d" && !line.value) {
    event.preventDefault();
    send({key: "end"});
  } else if (event.key === "Tab") {
    event.preventDefault();
    send({tab: line.value});
  } else if (event.key === "ArrowUp" && line.type !== "password" && back) {
    event.preventDefault();
    line.value = typed[--back];
  } else if (event.key === "ArrowDown" && line.type !== "password") {
    event.preventDefault();
    back = Math.min(typed.length, back + 1);
    line.value = typed[back] || "";
  }
});
again.addEventListener("click", () => { connect(); line.focus(); });
connect();
line.focus();
"""


PAGE = ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, "
        "initial-scale=1\">\n<title>Retro: the machine room</title>\n"
        "<style>" + LOOK + "</style></head>\n<body><main>" + PAPER
        + "</main>\n<script>\n\"use strict\";" + PRINT + TYPE
        + "</script></body></html>\n")
