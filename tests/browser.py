"""The built site in a real browser: a local server, Chromium, and checks.

Each check takes a loaded Playwright page (or the site's directory) and
returns findings: one line each, naming the page and the element, so that a
test asserts the list is empty and a failure reads as a list of faults.

Nothing leaves the machine: the server listens on 127.0.0.1, and every
request for another host is recorded and aborted before it is sent.
"""
from __future__ import annotations

import contextlib
import functools
import http.server
import importlib.util
import json
import os
import re
import threading
import urllib.request
from pathlib import Path
from urllib.parse import unquote, urlsplit

CHROMIUM = os.environ.get("RETRO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu",
                 "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--disable-quic"]
# seconds: the server stops itself after this at most. Generous: the tests
# run beside others, a process a core, and a walk through the book that the
# server left half-way would wait for its pages for ever.
SERVER_LIFETIME = 1800


def missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if importlib.util.find_spec("playwright") is None:
        return ("Playwright is not installed (pip install -e '.[dev]' "
                "installs it)")
    if not os.access(CHROMIUM, os.X_OK):
        return (f"no Chromium at {CHROMIUM} (Debian: apt-get install "
                "chromium; or set RETRO_CHROMIUM to a Chromium binary)")
    return None


def site_pages(site: Path) -> list[str]:
    """Every page of the built site, as URL paths ('/', '/book/flip/')."""
    paths = []
    for index in sorted(site.rglob("index.html")):
        parent = index.parent.relative_to(site).as_posix()
        paths.append("/" if parent == "." else f"/{parent}/")
    return paths


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (the base's name)
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a browser that stops a load mid-file is no fault of the site


@contextlib.contextmanager
def serve(directory: Path):
    """Serve `directory` on 127.0.0.1 at a free port; yield the base URL.

    The server runs in a thread and shuts down when the block ends, or by
    itself after SERVER_LIFETIME seconds, whichever comes first.
    """
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever,
                              kwargs={"poll_interval": 0.1}, daemon=True)
    timer = threading.Timer(SERVER_LIFETIME, server.shutdown)
    timer.daemon = True
    thread.start()
    timer.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        timer.cancel()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextlib.contextmanager
def chromium():
    """One headless Chromium (the system's: Playwright cannot fetch its
    own here)."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM,
                                         args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class Reader:
    """One browser context at one width, one page reused for every visit,
    and what the page did: console errors, page errors, requests.

    Every page of mkdocs-material has its search worker fetch the whole
    search index and build it, a large part of a page's load. A reader
    made with `search=False` is served the index with its first document
    only (the same configuration, and a document, so the worker runs as
    ever): reading every page then takes about a third less time (66 pages
    at 400 px: 21 s against 32 s). The search itself is tried by a reader
    with the whole index."""

    def __init__(self, browser, base: str, width: int, height: int = 900,
                 search: bool = True):
        self.base = base.rstrip("/")
        self.width = width
        self.context = browser.new_context(
            viewport={"width": width, "height": height},
            service_workers="block")
        self.context.set_default_timeout(5000)
        # a page load, though, may wait longer: the tests run beside others,
        # a process a core, and on a busy machine a load of the book's
        # largest pages took more than five seconds (a fault, not a finding)
        self.context.set_default_navigation_timeout(20000)
        self.context.route(self._elsewhere, self._refuse)
        if not search:
            address = f"{self.base}/search/search_index.json"
            with urllib.request.urlopen(address, timeout=10) as answer:
                index = json.load(answer)
            index["docs"] = index["docs"][:1]
            small = json.dumps(index)
            self.context.route(address, lambda route: route.fulfill(
                body=small, content_type="application/json"))
        self.page = self.context.new_page()
        self.where = "?"
        self.errors: list[str] = []
        self.requests: list[tuple[str, str]] = []  # (page, url)
        self.page.on("console", self._console)
        self.page.on("pageerror", self._page_error)
        self.page.on("request",
                     lambda request: self.requests.append(
                         (self.where, request.url)))

    def _elsewhere(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in ("http", "https", "ws", "wss") and (
            f"{parts.scheme}://{parts.netloc}" != self.base)

    @staticmethod
    def _refuse(route):
        route.abort("blockedbyclient")

    def _console(self, message):
        if message.type == "error" and not (
                "ERR_BLOCKED_BY_CLIENT" in message.text
                and self._elsewhere(message.location.get("url", ""))):
            # (a request this reader refused is reported as a request)
            self.errors.append(f"{self.where} @{self.width}px: console "
                               f"error: {message.text[:200]}")

    def _page_error(self, error):
        self.errors.append(f"{self.where} @{self.width}px: page error: "
                           f"{str(error)[:200]}")

    def visit(self, path: str):
        """Load `path` (a URL path of the site) and wait for it to settle."""
        self.where = path
        self.page.goto(self.base + path, wait_until="load")
        return self.page

    def resize(self, width: int, height: int = 900, settle: bool = True):
        """Make the window `width` pixels wide, as a reader turning a
        tablet or narrowing a window does, and (unless `settle` is false,
        for a window about to load another page) wait until the page is
        laid out again at that width and its pictures show the source
        chosen for it."""
        self.width = width
        self.page.set_viewport_size({"width": width, "height": height})
        if settle:
            self.page.evaluate(_SETTLED)
        return self.page

    def close(self):
        self.context.unroute_all(behavior="ignoreErrors")
        self.context.close()


_SETTLED = """async () => {
  // the page laid out at its new width (media queries apply), then each
  // <picture> showing the source its media now choose, loaded: Chromium
  // changes a picture's source some frames after the window changes, and
  // later still on a busy machine (at most ten seconds: a picture that
  // never changes is what the checks then report)
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  await frame();
  await frame();
  const until = performance.now() + 10000;
  for (const img of document.querySelectorAll('picture > img')) {
    const source = [...img.parentElement.querySelectorAll('source')]
      .find((s) => !s.media || matchMedia(s.media).matches);
    const wanted = source
      ? new URL(source.srcset.trim().split(/\\s+/)[0], document.baseURI).href
      : img.src;
    while ((img.currentSrc !== wanted || !img.complete)
           && performance.now() < until)
      await frame();
  }
}"""


# -- the checks --------------------------------------------------------------

def foreign_requests(reader: Reader) -> list[str]:
    """Every address on another host than the test server that the pages
    asked for (refused before it was sent): one line per address, naming
    the first page that asked and how many page loads did."""
    asked: dict[str, list[str]] = {}
    for where, url in reader.requests:
        if reader._elsewhere(url):
            asked.setdefault(url, []).append(where)
    found = []
    for url, pages in asked.items():
        others = (f" (and {len(pages) - 1} more page loads)"
                  if len(pages) > 1 else "")
        found.append(f"{pages[0]} @{reader.width}px{others}: request to "
                     f"another host: {url[:160]}")
    return found


_OVERFLOWING_CODE = """() => {
  const found = [];
  document.querySelectorAll('.md-content pre').forEach((pre, n) => {
    for (const box of [pre, pre.querySelector(':scope > code')]) {
      if (box && box.scrollWidth > box.clientWidth + 1) {
        const text = (box.innerText || '').split('\\n');
        const longest = text.reduce(
          (a, b) => (b.length > a.length ? b : a), '');
        const fit = Math.floor(longest.length * box.clientWidth
                               / box.scrollWidth);
        const over = text.filter(line => line.length > fit).length;
        found.push(`code block ${n + 1}: ${box.scrollWidth}px of content `
                   + `in ${box.clientWidth}px, ${over} line(s) over about `
                   + `${fit} columns (longest ${longest.length} columns: `
                   + `${JSON.stringify(longest.trim().slice(0, 50))})`);
        break;
      }
    }
  });
  return found;
}"""


def overflowing_code(page, where: str) -> list[str]:
    """Code blocks whose lines run past their box (a sideways scroll)."""
    return [f"{where}: {line}" for line in page.evaluate(_OVERFLOWING_CODE)]


_OVERFLOWING_TABLES = """() => {
  const found = [];
  document.querySelectorAll('.md-content table').forEach((table, n) => {
    const wrap = table.closest('.md-typeset__scrollwrap')
      || table.parentElement;
    const wide = Math.max(table.scrollWidth, wrap.scrollWidth,
                          table.getBoundingClientRect().width);
    if (wide > wrap.clientWidth + 1) {
      const head = [...table.querySelectorAll('th')]
        .map(th => th.innerText.trim());
      found.push(`table ${n + 1} (${head.slice(0, 4).join(' | ')}`
                 + `${head.length > 4 ? ' ...' : ''}): ${Math.round(wide)}px `
                 + `in a ${wrap.clientWidth}px column`);
    }
  });
  return found;
}"""


def overflowing_tables(page, where: str) -> list[str]:
    """Tables wider than the column that holds them."""
    return [f"{where}: {line}" for line in page.evaluate(_OVERFLOWING_TABLES)]


_FIGURES = """async () => {
  const images = [...document.querySelectorAll('.md-content img')];
  for (const img of images) {
    if (img.complete && img.naturalWidth > 0) continue;
    img.loading = 'eager';
    try { await img.decode(); } catch (e) { /* reported below */ }
  }
  return images.map(img => ({src: img.getAttribute('src'),
                             url: img.currentSrc || img.src,
                             alt: img.alt, complete: img.complete,
                             width: img.naturalWidth}));
}"""


def figures(page) -> list[dict]:
    """The page's images (src, url, alt, complete, width), each waited for."""
    return page.evaluate(_FIGURES)


def unloaded_figures(page, where: str,
                     shown: set[str] | None = None) -> list[str]:
    """Images that did not load, or load as nothing, or say nothing. The
    URL paths of those that loaded are added to `shown` when it is given."""
    found = []
    for image in figures(page):
        if not (image["complete"] and image["width"] > 0):
            found.append(f"{where}: figure {image['src']} did not load")
            continue
        if shown is not None:
            shown.add(urlsplit(image["url"]).path)
        if not image["alt"].strip():
            found.append(f"{where}: figure {image['src']} has no alt text")
    return found


def unshown_figures(site: Path, shown: set[str]) -> list[str]:
    """The SVGs the build drew (figures/*.svg, and the narrow drawings,
    figures/narrow/*.svg) that no page showed loaded, at any width;
    `shown` holds the URL paths of images seen loaded."""
    drawn = [svg.relative_to(site).as_posix()
             for svg in sorted(site.glob("figures/**/*.svg"))]
    if not drawn:
        return ["site: no figures/*.svg at all: the book draws no figures"]
    return [f"site: {svg} is drawn but no page shows it loaded"
            for svg in drawn if f"/{svg}" not in shown]


# chunk references in code, chunk names in prose, "used in" links (those
# with a fragment: a root chunk's "tangled to" names a whole page)
CHUNK_LINKS = (".md-content a.chunk-ref, .md-content a.chunk-mention, "
               ".md-content .chunk-links a[href*='#']")

_LINKS = """(selector) => [...document.querySelectorAll(selector)]
  .map((a, n) => ({
  n, href: a.href, text: a.innerText.trim().slice(0, 60),
  kind: a.classList.contains('chunk-ref') ? 'chunk link'
    : a.classList.contains('chunk-mention') ? 'chunk named in prose'
    : 'used-in link'}))"""

_LANDED = """async (id) => {
  // where the jump landed: 'ok', or what is wrong; waits up to a second for
  // a smooth scroll to end
  const header = document.querySelector('.md-header');
  for (let tries = 0; ; tries++) {
    const target = document.getElementById(id);
    if (!target) return 'no element has that id';
    const box = target.getBoundingClientRect();
    const style = getComputedStyle(target);
    if (style.visibility === 'hidden' || style.display === 'none'
        || (box.width === 0 && box.height === 0))
      return 'the target is not displayed';
    const top = header ? header.getBoundingClientRect().bottom : 0;
    if (box.bottom > top && box.top < window.innerHeight
        && box.right > 0 && box.left < window.innerWidth) return 'ok';
    if (tries >= 20)
      return 'the target is out of view after the jump (top '
        + `${Math.round(box.top)}px)`;
    await new Promise(done => setTimeout(done, 50));
  }
}"""


def sample_of(links: list, per_kind: int) -> list:
    """A few links of each kind: always the first, then spread over the
    page."""
    chosen = []
    for kind in sorted({link["kind"] for link in links}):
        of_kind = [link for link in links if link["kind"] == kind]
        step = max(1, len(of_kind) // per_kind)
        chosen += of_kind[::step][:per_kind]
    return chosen


def chunk_links(page) -> list[dict]:
    """The page's chunk links and "used in" links: n, href, text, kind."""
    return page.evaluate(_LINKS, CHUNK_LINKS)


def broken_chunk_links(page, where: str, per_kind: int = 2,
                       followed: list | None = None) -> list[str]:
    """Click a sample of the page's chunk links and "used in" links; each
    must land on an element with the link's fragment id, in view. The links
    clicked are added to `followed` when it is given.

    Clicking may leave the page: visit it again before other checks."""
    found = []
    home = page.url.split("#")[0]
    for link in sample_of(chunk_links(page), per_kind):
        if followed is not None:
            followed.append(link)
        name = f"{where}: {link['kind']} {link['n'] + 1} ({link['text']!r} -> "
        target = urlsplit(link["href"])
        fragment = unquote(target.fragment)
        name += f"{target.path}#{fragment})"
        if not fragment:
            found.append(f"{name}: the link names no target")
            continue
        if urlsplit(page.url).path != urlsplit(home).path:
            page.goto(home, wait_until="load")  # the last click left it
        try:
            # a real mouse click where the link is drawn, once it is in the
            # middle of the window, where a reader would see it (a link
            # hidden under the header would click the header instead)
            locator = page.locator(CHUNK_LINKS).nth(link["n"])
            locator.evaluate("a => a.scrollIntoView({block: 'center', behavior: 'instant'})")
            click = locator.click
            if target.path == urlsplit(home).path:
                click(force=True)
            else:
                with page.expect_navigation(wait_until="load"):
                    click(force=True)
        except Exception as error:  # Playwright's timeouts and the like
            found.append(f"{name}: cannot follow it: "
                         f"{str(error).splitlines()[0][:120]}")
            continue
        landed = page.evaluate(_LANDED, fragment)
        if landed != "ok":
            found.append(f"{name}: {landed}")
            continue
        found += wrong_label(page, name, link["text"], fragment)
    return found


# a label: 9.4, alone or closing a reference, ⟨consult model 1.2⟩
LABEL = re.compile(r"(?:⟨.*\s)?(\d+\.\d+)⟩?")

_LABEL_AT = """(id) => {
  // the label of the chunk an element belongs to: a chunk's title, or a
  // line of its code (the title stands just before the code's block)
  let at = document.getElementById(id);
  if (!at) return null;
  if (!at.matches('p.chunk-title')) {
    at = at.closest('div.highlight');
    while (at && !at.matches('p.chunk-title')) at = at.previousElementSibling;
  }
  const label = at && at.querySelector('.chunk-label');
  return label ? label.innerText.trim() : null;
}"""


def wrong_label(page, name: str, text: str, fragment: str) -> list[str]:
    """If a link's text ends in a label, the chunk it landed in must show
    that label: one finding if not."""
    label = LABEL.fullmatch(text)
    if not label:
        return []
    shown = page.evaluate(_LABEL_AT, fragment)
    if shown == label[1]:
        return []
    return [f"{name}: the link says {label[1]}, the chunk it lands in shows "
            f"{shown or 'no label'}"]


_LABEL_LINKS = """(selector) => [...document.querySelectorAll(selector)]
  .map((a, n) => ({n, href: a.href, text: a.innerText.trim()}))
  .filter(a => /^\\d+\\.\\d+$/.test(a.text))"""

INDEX_LINKS = ".md-content .book-index td a"


def mislabelled_entries(page, where: str, count: int) -> list[str]:
    """Click `count` of an index page's labels, spread over the page; each
    must land, in view, in the chunk that shows the same label."""
    found = []
    home = page.url.split("#")[0]
    links = page.evaluate(_LABEL_LINKS, INDEX_LINKS)
    if not links:
        return [f"{where}: no label links at all"]
    step = max(1, len(links) // count)
    for link in links[::step][:count]:
        target = urlsplit(link["href"])
        fragment = unquote(target.fragment)
        name = (f"{where}: index label {link['text']} -> "
                f"{target.path}#{fragment}")
        if page.url.split("#")[0] != home:
            page.goto(home, wait_until="load")
        try:
            locator = page.locator(INDEX_LINKS).nth(link["n"])
            locator.evaluate("a => a.scrollIntoView({block: 'center', behavior: 'instant'})")
            with page.expect_navigation(wait_until="load"):
                locator.click(force=True)
        except Exception as error:  # Playwright's timeouts and the like
            found.append(f"{name}: cannot follow it: "
                         f"{str(error).splitlines()[0][:120]}")
            continue
        landed = page.evaluate(_LANDED, fragment)
        if landed != "ok":
            found.append(f"{name}: {landed}")
            continue
        found += wrong_label(page, name, link["text"], fragment)
    return found


_BROKEN_WORDS = """() => {
  // each word of an index's cells, and the lines it is drawn on
  const found = [];
  for (const cell of document.querySelectorAll('.md-content .book-index td')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set([...range.getClientRects()]
          .filter(box => box.width > 0).map(box => Math.round(box.top)));
        if (tops.size > 1) found.push(word[0]);
      }
    }
  }
  return found;
}"""


def broken_names(page, where: str) -> list[str]:
    """Words in an index's tables drawn over two lines (a name broken in
    the middle)."""
    words = page.evaluate(_BROKEN_WORDS)
    return [f"{where}: {len(words)} word(s) broken across lines, such as "
            + ", ".join(repr(word) for word in words[:5])] if words else []


_CAPTIONS = """() => [...document.querySelectorAll('.md-content img')]
  .filter(img => /(^|\\/)figures\\/[^/]+\\.svg$/.test(img.getAttribute('src')))
  .map(img => {
    const src = img.getAttribute('src');
    const caption = img.closest('figure')?.querySelector('figcaption');
    if (!caption) return `figure ${src} has no caption`;
    const box = caption.getBoundingClientRect();
    const style = getComputedStyle(caption);
    if (box.width < 1 || box.height < 1 || style.visibility === 'hidden'
        || style.display === 'none' || style.opacity === '0')
      return `figure ${src}: its caption is not displayed`;
    const text = caption.innerText.trim();
    if (!/^Figure \\d+\\.\\d+\\.\\s+\\S+(\\s+\\S+){7}/.test(text))
      return `figure ${src}: its caption is not a number and a sentence: `
        + JSON.stringify(text.slice(0, 60));
    return null;
  }).filter(Boolean)"""


def uncaptioned_figures(page, where: str) -> list[str]:
    """Figures without a visible caption that starts 'Figure 12.1.'."""
    return [f"{where}: {line}" for line in page.evaluate(_CAPTIONS)]


_TYPE_SIZES = """async () => {
  // the smallest type of each figure as drawn on the page, in pixels: its
  // smallest font size, scaled from the SVG's coordinates to the image
  const found = [];
  for (const img of document.querySelectorAll('.md-content img')) {
    const src = img.getAttribute('src');
    if (!/(^|\\/)figures\\/[^/]+\\.svg$/.test(src)) continue;
    const text = await (await fetch(img.currentSrc || img.src)).text();
    const svg = new DOMParser().parseFromString(text, 'image/svg+xml')
      .documentElement;
    const view = Number((svg.getAttribute('viewBox') || '').split(/\\s+/)[2]);
    const sizes = [...svg.querySelectorAll('text')].map(t => parseFloat(
      ((t.getAttribute('style') || '').match(/font-size:\\s*([\\d.]+)/)
       || [])[1] || t.getAttribute('font-size'))).filter(size => size > 0);
    if (!sizes.length || !view) continue;
    found.push({src, px: Math.min(...sizes) * img.getBoundingClientRect()
      .width / view});
  }
  return found;
}"""

SMALLEST_TYPE = 9  # pixels


def small_figure_type(page, where: str) -> list[str]:
    """Figures whose smallest type is drawn under SMALLEST_TYPE pixels."""
    return [f"{where}: figure {found['src']}: its smallest type is drawn "
            f"{found['px']:.1f} px high, under {SMALLEST_TYPE} px"
            for found in page.evaluate(_TYPE_SIZES)
            if found["px"] < SMALLEST_TYPE - 0.05]


_CUT_FIGURES = """async () => {
  // each figure as the page shows it: its frame must not scroll sideways,
  // nor the page, and no text of the drawing may run past its edges
  const found = [];
  const images = [...document.querySelectorAll('.md-content img')].filter(
    (img) => /(^|\\/)figures\\/[^/]+\\.svg$/.test(img.getAttribute('src')));
  const page = document.scrollingElement;
  if (images.length && page.scrollWidth > window.innerWidth + 1)
    found.push(`the page of a figure scrolls sideways: ${page.scrollWidth}px `
               + `wide in a window of ${window.innerWidth}px`);
  for (const img of images) {
    const src = img.getAttribute('src');
    const frame = img.closest('.figure-frame') || img.parentElement;
    const shown = Math.round(img.getBoundingClientRect().width);
    if (frame.scrollWidth > frame.clientWidth + 1)
      found.push(`figure ${src}: scrolls sideways, ${shown}px wide in a `
                 + `frame of ${frame.clientWidth}px, cut at its edge`);
    // the drawing itself: every text inside its viewBox
    const text = await (await fetch(img.currentSrc || img.src)).text();
    const holder = document.createElement('div');
    holder.style.cssText = 'position:absolute;left:0;top:0;visibility:hidden';
    holder.innerHTML = text;
    document.body.append(holder);
    const svg = holder.querySelector('svg');
    const [x, y, w, h] = (svg.getAttribute('viewBox') || '0 0 0 0')
      .split(/[\\s,]+/).map(Number);
    svg.setAttribute('width', w);
    svg.setAttribute('height', h);
    const box = svg.getBoundingClientRect();
    const out = [...svg.querySelectorAll('text')].filter((t) => {
      const r = t.getBoundingClientRect();
      return r.width > 0 && (r.left < box.left - 1 || r.top < box.top - 1
        || r.right > box.right + 1 || r.bottom > box.bottom + 1);
    }).map((t) => JSON.stringify(t.textContent.trim().slice(0, 30)));
    holder.remove();
    if (out.length)
      found.push(`figure ${img.currentSrc.split('/').slice(-2).join('/')}: `
                 + `text cut at the drawing's edge: ${out.join(', ')}`);
  }
  return found;
}"""


def cut_figures(page, where: str) -> list[str]:
    """Figures that scroll sideways in their frame (or whose page does),
    and drawings whose text (a legend, a label) runs past their edge, as
    the browser sets the text."""
    return [f"{where}: {line}" for line in page.evaluate(_CUT_FIGURES)]


_TRANSCRIPT = """(fold) => {
  const block = document.querySelector('.md-content .language-text pre');
  if (!block) return 'no transcript on the page';
  const box = block.getBoundingClientRect();
  return box.bottom <= fold ? null
    : `the transcript ends ${Math.round(box.bottom)}px down, below the fold `
      + `at ${fold}px`;
}"""


def transcript_below_the_fold(page, where: str, fold: int) -> list[str]:
    """The page's first transcript (a `text` block) must be wholly in view
    in the first `fold` pixels of the page."""
    found = page.evaluate(_TRANSCRIPT, fold)
    return [f"{where}: {found}"] if found else []


def search(page, home: str, word: str) -> None:
    """Type `word` into the site's search box (mkdocs-material), from the
    page `home`, and wait until its results are listed."""
    page.goto(home, wait_until="load")
    box = page.locator("input.md-search__input")
    if not box.is_visible():  # narrow: behind the header's button
        page.locator(".md-header label[for='__search']").click()
    box.click()
    box.press_sequentially(word, delay=20)
    # the count above the results: "No matching documents", "3
    # matching documents" once the index is built and searched
    page.wait_for_function(
        "() => /matching/i.test(document.querySelector("
        "'.md-search-result__meta')?.innerText || '')",
        timeout=10000)


def failed_searches(page, words) -> list[str]:
    """Type each word into the site's search box; each must list at least
    one result."""
    found = []
    home = page.url.split("#")[0]
    for word in words:
        try:
            search(page, home, word)
            shown = page.locator(".md-search-result__item:visible").count()
        except Exception as error:
            found.append(f"search {word!r}: no answer "
                         f"({str(error).splitlines()[0][:100]})")
            continue
        if not shown:
            found.append(f"search {word!r}: no results")
    return found


SOURCES = "Sources and further reading"

_SOURCES = """(title) => {
  // the chapter's last section: its heading, and the works listed under it
  const headings = [...document.querySelectorAll('.md-content article h2')];
  const last = headings[headings.length - 1];
  if (!last) return {heading: null, works: []};
  const works = [];
  for (let node = last.nextElementSibling; node; node = node.nextElementSibling)
    if (node.tagName === 'UL')
      for (const item of node.children) {
        const box = item.getBoundingClientRect();
        works.push({text: item.innerText.trim(), shown: box.height > 0});
      }
  const box = last.getBoundingClientRect();
  return {heading: last.innerText.replace(/\\u00b6$/, '').trim(),
          shown: box.height > 0, works};
}"""


def missing_sources(page, where: str) -> list[str]:
    """A chapter must end with a visible section of sources: a heading,
    and a list of works, each with a year or a link."""
    found = page.evaluate(_SOURCES, SOURCES)
    if found["heading"] != SOURCES or not found["shown"]:
        return [f"{where}: the last section is {found['heading']!r}, not "
                f"{SOURCES!r}"]
    if not found["works"]:
        return [f"{where}: {SOURCES!r} lists no work"]
    return [f"{where}: a work of its sources is not shown, or has neither "
            f"a year nor a link: {work['text'][:60]!r}"
            for work in found["works"]
            if not work["shown"] or not re.search(
                r"\b1[6-9]\d\d\b|\b20\d\d\b|https?:|\.org|\.com|\.io",
                work["text"])]


def unlinked_bibliography(page, where: str, least: int) -> list[str]:
    """The sources page lists at least `least` works, each cited in a
    chapter; the first and the last work's citing link each lead to a
    visible 'Sources and further reading' heading on its chapter."""
    items = page.locator(".md-content article li")
    if items.count() < least:
        return [f"{where}: {items.count()} works, fewer than {least}"]
    found = []
    for n in range(items.count()):
        if not items.nth(n).locator(
                "a[href*='#sources-and-further-reading']").count():
            found.append(f"{where}: work {n + 1} names no chapter that "
                         "cites it")
    for item in (items.first, items.last):
        link = item.locator("a[href*='#sources-and-further-reading']").first
        if not link.count():
            continue
        href = link.get_attribute("href")
        link.click()
        page.wait_for_load_state("load")
        heading = page.locator("#sources-and-further-reading")
        if not heading.count() or not heading.is_visible() or \
                SOURCES not in heading.inner_text():
            found.append(f"{where}: {href} does not land on a chapter's "
                         "sources")
        page.go_back(wait_until="load")
    return found


def missing_neighbours(page, where: str, first: bool, last: bool,
                       follow: bool = False) -> list[str]:
    """A tangled file's page links the files before and after it (but for
    the first and the last), above its listing and below it; followed,
    the next link leads to the page of the file it names."""
    found = []
    for kind, wanted in (("previous", not first), ("next", not last)):
        links = page.locator(f".md-content a.module-{kind}")
        shown = sum(links.nth(n).is_visible() for n in range(links.count()))
        if wanted and shown != 2:
            found.append(f"{where}: {shown} visible links to the {kind} "
                         "file, not 2 (above and below the listing)")
        if not wanted and links.count():
            found.append(f"{where}: a link to a {kind} file, but there is "
                         "none")
    if follow and not last and not found:
        link = page.locator(".md-content a.module-next").first
        name = link.inner_text().replace("→", "").strip()
        link.click()
        page.wait_for_load_state("load")
        title = page.locator(".md-content h1").first.inner_text()
        if name not in title:
            found.append(f"{where}: the next link names {name!r} but leads "
                         f"to {title!r}")
        page.go_back(wait_until="load")
    return found


def first_results(page, wanted: dict[str, str]) -> list[str]:
    """Each word searched, its first result must be on the page wanted
    (a URL path such as '/book/seer/')."""
    found = []
    home = page.url.split("#")[0]
    for word, path in wanted.items():
        try:
            search(page, home, word)
            href = page.locator(".md-search-result__item a").first \
                .get_attribute("href")
        except Exception as error:
            found.append(f"search {word!r}: no answer "
                         f"({str(error).splitlines()[0][:100]})")
            continue
        if path.strip("/") not in urlsplit(href or "").path:
            found.append(f"search {word!r}: the first result is {href}, "
                         f"not on {path}")
    return found
