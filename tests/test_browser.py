"""The site as a reader sees it: every page in headless Chromium.

Every page of the built site (the session's `site`, served on 127.0.0.1) is
read at 1280 and at 400 pixels wide, by two browsers side by side. The
checks live in tests/browser.py; each returns findings, one line naming the
page and the element, and each test here asserts one kind is
empty. tests/test_browser_faults.py doctors a copy of the site (a figure
removed, a chunk link broken, a code line of 200 columns, ...) and shows that
the same checks find each fault: a browser test that cannot fail proves
nothing.

Without Playwright or Chromium the tests are skipped with the reason (and CI,
with RETRO_NO_SKIPS=1, counts a skip as a failure).
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest

import browser as b  # tests/browser.py, beside this file

MISSING = b.missing_browser()
pytestmark = [pytest.mark.book,  # reads the built book: `pytest -m "not book"`
              pytest.mark.skipif(MISSING is not None, reason=MISSING or "")]

WIDTHS = (1280, 400)
WIDE, NARROW = WIDTHS
READERS = 2  # browsers reading the book's pages side by side
FOLD = 800  # pixels: the height of a laptop's window at 1280 wide
LINKS_PER_KIND = 1  # links followed of each kind, per page and width
INDEX_LABELS = 6  # labels clicked on each index page, at 1280
INDEXES = ("/indexes/chunks/", "/indexes/identifiers/")
SEARCHES = ("SEER", "matchbox", "Conway")
FIRST_RESULTS = {"Hagelbarger": "/book/seer/"}  # a word, the page it finds first
BIBLIOGRAPHY = "/indexes/sources/"
LEAST_WORKS = 30  # the works the bibliography lists, at least
NEIGHBOURS_FOLLOWED = "/modules/retro/engines/seer.py/"  # its next link is clicked
KINDS = ("console", "requests", "code", "tables", "figures", "links",
         "search", "captions", "type", "cut", "labels", "names",
         "transcript",
         "sources", "bibliography", "neighbours", "ranking")


def game_chapters() -> list[str]:
    """The pages of the book's first part: the games and their machines."""
    from retro.book.parts import PARTS

    return [f"/book/{name}/" for name in PARTS[0][1]]


def module_pages(pages: list[str]) -> list[str]:
    """The tangled files' pages, in the order of the list of files."""
    return [path for path in pages if path.startswith("/modules/")]


def report(findings: list[str]) -> str:
    return f"{len(findings)} finding(s):\n  " + "\n  ".join(findings)


@pytest.fixture(scope="module")
def chromium():
    with b.chromium() as launched:
        yield launched


def on(reader: b.Reader, path: str):
    """The page at `path`, loaded again if a click has left it."""
    if urlsplit(reader.page.url).path != path:
        return reader.visit(path)
    return reader.page


def read_figures(page, where: str, found: dict, shown: set[str]) -> None:
    """What is checked of the figures at every width: each loaded (and
    its address added to `shown`), each with its caption."""
    found["figures"] += b.unloaded_figures(page, where, shown)
    found["captions"] += b.uncaptioned_figures(page, where)


def read_wide(reader: b.Reader, path: str, found: dict, shown: set[str],
              games: list[str], modules: list[str]) -> None:
    """The checks of a page at 1280 wide, the page loaded at that width;
    those that only look come first, then those that click away."""
    page = reader.page
    where = f"{path} @{WIDE}px"
    read_figures(page, where, found, shown)
    found["code"] += b.overflowing_code(page, where)
    found["tables"] += b.overflowing_tables(page, where)
    if path == "/":
        found["transcript"] += b.transcript_below_the_fold(page, where, FOLD)
    if path in INDEXES:
        found["names"] += b.broken_names(page, where)
    if path in games:
        found["sources"] += b.missing_sources(page, where)
    if path in INDEXES:
        found["labels"] += b.mislabelled_entries(page, where, INDEX_LABELS)
    if path == BIBLIOGRAPHY:
        found["bibliography"] += b.unlinked_bibliography(
            on(reader, path), where, LEAST_WORKS)
    if path in modules:
        found["neighbours"] += b.missing_neighbours(
            on(reader, path), where, path == modules[0], path == modules[-1],
            follow=path == NEIGHBOURS_FOLLOWED)


def read_narrow(reader: b.Reader, path: str, found: dict,
                shown: set[str]) -> None:
    """The checks of a page at 400 wide: the page as it was read at 1280,
    its window narrowed (the figures' pictures choose their narrow
    drawings then, as on a phone)."""
    page = reader.page
    where = f"{path} @{NARROW}px"
    read_figures(page, where, found, shown)
    found["type"] += b.small_figure_type(page, where)
    found["cut"] += b.cut_figures(page, where)


def read_pages(base: str, pages: list[str], modules: list[str]) -> dict:
    """Some of the book's pages at both widths, in a browser of its own
    (this runs in a thread of its own); the findings of each check, by kind.
    `modules` lists every tangled file's page, in order.

    A page is loaded once, at 1280 wide, read, its window narrowed to 400
    and read again: what a page shows at a width is the same however the
    window came to it (CSS's media queries, a <picture>'s sources), and
    loading each page twice cost half the walk. The chunk links are then
    clicked at each width, and a link to another page loads that page at
    its width: so the book is loaded at 400 wide too, by whatever the links
    lead to."""
    found = {kind: [] for kind in KINDS}
    shown: set[str] = set()
    followed: list = []
    games = game_chapters()
    with b.chromium() as browser:
        reader = b.Reader(browser, base, WIDE, search=False)
        try:
            for path in pages:
                reader.resize(WIDE, settle=False)
                reader.visit(path)
                read_wide(reader, path, found, shown, games, modules)
                found["links"] += b.broken_chunk_links(
                    on(reader, path), f"{path} @{WIDE}px", LINKS_PER_KIND,
                    followed)
                on(reader, path)
                reader.resize(NARROW)
                read_narrow(reader, path, found, shown)
                found["links"] += b.broken_chunk_links(
                    reader.page, f"{path} @{NARROW}px", LINKS_PER_KIND,
                    followed)
            found["console"] += reader.errors
            found["requests"] += b.foreign_requests(reader)
        finally:
            reader.close()
    return {"found": found, "shown": shown, "followed": len(followed)}


@pytest.fixture(scope="module")
def walk(site, chromium):
    """Read every page at every width once; gather every check's findings.

    The pages are dealt to READERS threads, each with its own Playwright
    and browser (Playwright's sync API serves one thread), while this
    thread tries the search. Loading a page is mostly Chromium's work, in
    Chromium's processes: on two cores one reader already keeps about one
    and a half busy, and two read the book in about the time of one (69 s
    in `pytest -n 0 -s tests/test_browser.py`, where one reader took 72),
    but on a machine with cores to spare each reader has cores of its
    own."""
    start = time.perf_counter()
    pages = b.site_pages(site)
    found = {kind: [] for kind in KINDS}
    with b.serve(site) as base, ThreadPoolExecutor(READERS) as pool:
        readings = [pool.submit(read_pages, base, pages[n::READERS],
                                module_pages(pages))
                    for n in range(READERS)]
        reader = b.Reader(chromium, base, WIDE)
        try:
            reader.visit("/")
            found["search"] += b.failed_searches(reader.page, SEARCHES)
            found["ranking"] += b.first_results(reader.page, FIRST_RESULTS)
            found["console"] += reader.errors
            found["requests"] += b.foreign_requests(reader)
        finally:
            reader.close()
        readings = [reading.result() for reading in readings]
    shown = set().union(*(reading["shown"] for reading in readings))
    for reading in readings:
        for kind, lines in reading["found"].items():
            found[kind] += lines
    found["figures"] += b.unshown_figures(site, shown)
    followed = sum(reading["followed"] for reading in readings)
    seconds = time.perf_counter() - start
    print(f"\nbrowser walk: {len(pages)} pages x {len(WIDTHS)} widths, "
          f"{followed} chunk links followed, {len(shown)} figures seen, "
          f"in {seconds:.1f} s")
    return {"found": found, "pages": pages, "followed": followed}


def test_every_page_was_read_and_links_were_followed(walk, site):
    assert walk["pages"] == b.site_pages(site) and "/" in walk["pages"]
    assert walk["followed"] > 0, "no chunk link was found on any page"


def test_no_console_or_page_error(walk):
    assert not walk["found"]["console"], report(walk["found"]["console"])


def test_no_request_leaves_the_site(walk):
    assert not walk["found"]["requests"], report(walk["found"]["requests"])


def test_code_fits_its_column_at_1280(walk):
    assert not walk["found"]["code"], report(walk["found"]["code"])


def test_tables_fit_their_column_at_1280(walk):
    assert not walk["found"]["tables"], report(walk["found"]["tables"])


def test_every_figure_loads(walk):
    assert not walk["found"]["figures"], report(walk["found"]["figures"])


def test_chunk_links_land_on_a_visible_target(walk):
    assert not walk["found"]["links"], report(walk["found"]["links"])


def test_search_finds_the_books_words(walk):
    assert not walk["found"]["search"], report(walk["found"]["search"])


def test_every_figure_has_a_visible_numbered_caption(walk):
    assert not walk["found"]["captions"], report(walk["found"]["captions"])


def test_no_figure_type_under_9_px_at_400(walk):
    assert not walk["found"]["type"], report(walk["found"]["type"])


def test_no_figure_is_cut_or_scrolls_sideways_at_400(walk):
    assert not walk["found"]["cut"], report(walk["found"]["cut"])


def test_index_labels_land_on_the_chunk_with_that_label(walk):
    assert not walk["found"]["labels"], report(walk["found"]["labels"])


def test_no_name_in_an_index_breaks_mid_word_at_1280(walk):
    assert not walk["found"]["names"], report(walk["found"]["names"])


def test_every_game_chapter_ends_with_its_sources(walk, site):
    assert set(game_chapters()) <= set(walk["pages"])
    assert not walk["found"]["sources"], report(walk["found"]["sources"])


def test_the_bibliography_lists_the_works_and_leads_to_the_chapters(walk):
    assert BIBLIOGRAPHY in walk["pages"]
    found = walk["found"]["bibliography"]
    assert not found, report(found)


def test_each_tangled_files_page_links_its_neighbours(walk):
    assert NEIGHBOURS_FOLLOWED in module_pages(walk["pages"])
    found = walk["found"]["neighbours"]
    assert not found, report(found)


def test_hagelbarger_finds_seer_first(walk):
    assert not walk["found"]["ranking"], report(walk["found"]["ranking"])


def test_the_home_page_shows_a_transcript_above_the_fold(walk):
    assert not walk["found"]["transcript"], report(
        walk["found"]["transcript"])
