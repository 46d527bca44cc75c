"""How long does a game take to start in its page, and what does it fetch?

    python benchmarks/page.py [--runs N] [--site DIR] [--path /book/flip/]

Builds the book (`mkdocs build --strict`, after `npm ci`) into a scratch
directory, unless --site names one already built, serves it on 127.0.0.1
and opens a chapter (the mind reader's, unless --path says another) in
headless Chromium (the system's, /usr/bin/chromium, or RETRO_CHROMIUM).
For each run it prints:

- the page only read: the bytes it transferred, and of them the panel's
  (its script, its style sheet and its markup), which is all the page
  carries beyond what it did before the games could be played in it;
- cold: a fresh browser profile, Play pressed, the seconds until the
  game's first question is on the page's paper, the bytes transferred
  from the press, and the longest task on the page's own thread between
  the two (a `PerformanceObserver` of long tasks, those over 50 ms; 0
  when there was none): the time the page could not answer a key;
- warm: the same browser, the page loaded again, Play pressed again: the
  same two figures, with the runtime in the browser's cache;
- restarted: the browser closed and started again on the same profile,
  as a reader comes back another day: the same two figures.

Bytes are those of the files the server sent (nothing for a file the
browser took from its cache), to the page and to Python's worker alike;
the panel's are Chromium's own count for its two files. The targets: the first question within
8 s cold and 2 s warm; no task over 200 ms on the page's thread; the
panel under 50 KB.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("RETRO_CHROMIUM", "/usr/bin/chromium")
COLD, WARM, PANEL = 8.0, 2.0, 50_000  # the targets: seconds, seconds, bytes
LONGEST = 200  # ms: the longest task the page's thread may run, the target
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update"]


def build(site: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
         "--site-dir", str(site)], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    if done.returncode != 0:
        sys.exit(f"page: the build failed:\n{done.stderr}")
    if not (site / "pyodide" / "pyodide.asm.wasm").is_file():
        sys.exit("page: the site has no Pyodide in it: run `npm ci` first")


SENT = [0]  # bytes of the files the server has sent, in all


class Quiet(http.server.SimpleHTTPRequestHandler):
    """Serves the site quietly, counting the bytes of the files it sends:
    what came over the wire to the page and to its worker alike (Chromium's
    own count, below, sees the page's requests only)."""

    def log_message(self, format, *args):  # noqa: A002 (the base's name)
        pass

    def send_header(self, keyword, value):
        if keyword.lower() == "content-length":
            SENT[0] += int(value)
        super().send_header(keyword, value)


@contextlib.contextmanager
def serve(site: Path):
    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class Wire:
    """Chromium's count of the bytes that came over the wire for a page,
    in all and by address."""

    def __init__(self, context, page):
        self.bytes = 0
        self.addresses: dict[str, str] = {}  # request id -> address
        self.by_address: dict[str, int] = {}
        session = context.new_cdp_session(page)
        session.on("Network.responseReceived", self._received)
        session.on("Network.loadingFinished", self._finished)
        session.send("Network.enable")

    def _received(self, event) -> None:
        self.addresses[event["requestId"]] = event["response"]["url"]

    def _finished(self, event) -> None:
        size = int(event["encodedDataLength"])
        self.bytes += size
        address = self.addresses.get(event["requestId"], "?")
        self.by_address[address] = self.by_address.get(address, 0) + size


WATCH_LONG_TASKS = """() => {
    window.longestTask = 0;
    new PerformanceObserver((found) => {
        for (const task of found.getEntries())
            window.longestTask = Math.max(window.longestTask, task.duration);
    }).observe({ type: 'longtask' });
}"""


def first_question(page, wire: Wire) -> tuple[float, int, float]:
    """Press Play; seconds until the paper holds a question, bytes since,
    and the longest task on the page's thread meanwhile, in ms."""
    page.evaluate(WATCH_LONG_TASKS)
    start, before = time.perf_counter(), SENT[0]
    page.click("button.retro-play")
    page.wait_for_function(
        "document.querySelector('.retro-paper').textContent.includes('?')",
        timeout=120_000, polling=20)
    seconds, sent = time.perf_counter() - start, SENT[0] - before
    # the observer is told of a task once it has ended: a moment's grace
    return seconds, sent, page.evaluate(
        "new Promise((then) => setTimeout(() => then(window.longestTask), 100))")


def panel_bytes(page, wire: Wire) -> int:
    """The bytes of the panel: its markup, its script, its style sheet."""
    markup = page.evaluate(
        "new Blob([document.querySelector('.retro-page').outerHTML]).size")
    return markup + sum(size for address, size in wire.by_address.items()
                        if address.endswith(("/page.js", "/page.css")))


def one_run(driver, base: str, path: str) -> dict[str, float]:
    """A fresh browser profile on disk, as a reader's browser keeps one:
    cold, then warm in the same browser, then warm in the browser started
    again on the same profile."""
    profile = tempfile.TemporaryDirectory()
    found: dict[str, float] = {}
    try:
        for start in ("cold", "warm", "restarted"):
            if start != "warm":
                context = driver.chromium.launch_persistent_context(
                    profile.name, executable_path=CHROMIUM, args=ARGS,
                    service_workers="block")
                page = context.new_page()
                wire = Wire(context, page)
            before = SENT[0]
            page.goto(base + path, wait_until="networkidle")
            if start == "cold":
                found["read"] = SENT[0] - before
                found["panel"] = panel_bytes(page, wire)
            (found[start], found[f"{start} bytes"],
             found[f"{start} longest"]) = first_question(page, wire)
            if start != "cold":
                context.close()
    finally:
        profile.cleanup()
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, help="a site already built")
    parser.add_argument("--path", default="/book/mindreader/")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        site = args.site
        if site is None:
            site = Path(scratch) / "site"
            build(site)
        with serve(site) as base, sync_playwright() as driver:
            runs = [one_run(driver, base, args.path)
                    for _ in range(args.runs)]
    print(f"{args.path}, {len(runs)} runs (median, then each run):")
    kb = lambda n: f"{n / 1000:,.0f} KB"
    ms = lambda n: f"{n:.0f} ms"
    for name, unit, target in (
            ("read", kb, None), ("panel", kb, PANEL),
            ("cold", lambda s: f"{s:.2f} s", COLD), ("cold bytes", kb, None),
            ("cold longest", ms, LONGEST),
            ("warm", lambda s: f"{s:.2f} s", WARM), ("warm bytes", kb, None),
            ("warm longest", ms, LONGEST),
            ("restarted", lambda s: f"{s:.2f} s", None),
            ("restarted bytes", kb, None),
            ("restarted longest", ms, LONGEST)):
        values = [run[name] for run in runs]
        middle = statistics.median(values)
        verdict = "" if target is None else (
            "  (target under " + unit(target) + ": "
            + ("met" if middle <= target else "MISSED") + ")")
        print(f"  {name:<18}{unit(middle):>10}   "
              + ", ".join(unit(value) for value in values) + verdict)
    return 0


if __name__ == "__main__":
    sys.exit(main())
