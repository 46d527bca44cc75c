"""The browser's checks shown to fail: a copy of the built site is doctored
one fault a page (a figure removed, a chunk link broken, a code line of 200
columns, ...), and each check of tests/browser.py must find its fault.

These were the second half of tests/test_browser.py. They are a module of
their own so that they run beside the walk through the book, each on a
worker of its own (pytest-xdist runs a module whole on one worker).
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import browser as b  # tests/browser.py, beside this file
from test_browser import (FIRST_RESULTS, FOLD, LEAST_WORKS, MISSING, NARROW,
                          NEIGHBOURS_FOLLOWED, WIDE, chromium, report)

pytestmark = [pytest.mark.book,  # reads the built book: `pytest -m "not book"`
              pytest.mark.skipif(MISSING is not None, reason=MISSING or "")]

__all__ = ["chromium"]  # the fixture, shared with the walk's module


# -- showing that the checks can fail ----------------------------------------

OPENING = re.compile(r"<article\b[^>]*>")


def inject(html: Path, markup: str) -> None:
    """Put `markup` at the top of the page's article."""
    text = html.read_text(encoding="utf-8")
    opening = OPENING.search(text)
    assert opening, f"{html}: no <article> to doctor"
    html.write_text(text[:opening.end()] + markup + text[opening.end():],
                    encoding="utf-8")


def page_path(site: Path, html: Path) -> str:
    parent = html.parent.relative_to(site).as_posix()
    return "/" if parent == "." else f"/{parent}/"


def remove_a_figure(site: Path) -> tuple[str, str]:
    """Delete the SVG an image of some page points to; (page, svg name).
    While the book shows no figure, a page gets an image of a missing SVG."""
    for html in sorted(site.rglob("index.html")):
        for src in re.findall(r'<img\b[^>]*\bsrc="([^"#?]+\.svg)"',
                              html.read_text(encoding="utf-8")):
            svg = (html.parent / src).resolve()
            if svg.is_file() and site.resolve() in svg.parents:
                svg.unlink()
                return page_path(site, html), svg.name
    html = site / "play" / "index.html"
    inject(html, '<p><img alt="a doctored figure" '
                 'src="../figures/doctored.svg"></p>')
    return page_path(site, html), "doctored.svg"


def break_a_chunk_link(site: Path) -> tuple[str, str]:
    """Point a page's first chunk link at a fragment no element has."""
    missing = "chunk-no-such-chunk"
    for html in sorted(site.rglob("index.html")):
        text = html.read_text(encoding="utf-8")
        link = re.search(r'<a\b[^>]*\bclass="chunk-ref"[^>]*>', text)
        if link:
            doctored = re.sub(r'href="[^"]*"', f'href="#{missing}"',
                              link.group(), count=1)
            html.write_text(text[:link.start()] + doctored
                            + text[link.end():], encoding="utf-8")
            return page_path(site, html), missing
    raise AssertionError("no page has a chunk link to break")


def doctor(html: Path, pattern: str, replacement: str) -> None:
    """Replace every match of `pattern` in a page; there must be one."""
    text = html.read_text(encoding="utf-8")
    doctored, count = re.subn(pattern, replacement, text, flags=re.S)
    assert count, f"{html}: nothing matches {pattern!r} to doctor"
    html.write_text(doctored, encoding="utf-8")


def figure_pages(site: Path) -> list[Path]:
    """The pages that show a figure whose SVG is there."""
    return [html for html in sorted(site.rglob("index.html"))
            if any((html.parent / src).is_file() for src in re.findall(
                r'<img\b[^>]*\bsrc="([^"]*figures/[^"]+\.svg)"',
                html.read_text(encoding="utf-8")))]


@pytest.fixture(scope="module")
def doctored(site, chromium, tmp_path_factory):
    """A copy of the site with one page doctored each way, served, and a
    reader at 1280 pixels; yields (reader, {fault: (page, detail)})."""
    copy = tmp_path_factory.mktemp("doctored") / "site"
    shutil.copytree(site, copy)
    chapters = sorted(p for p in copy.glob("book/*/index.html"))
    assert len(chapters) >= 3, "too few chapters to doctor"
    faults = {"figure": remove_a_figure(copy),
              "link": break_a_chunk_link(copy)}
    long_line = "x = '" + "a" * 194 + "'"
    inject(chapters[0], f"<pre><code>{long_line}</code></pre>")
    faults["code"] = (page_path(copy, chapters[0]),
                      f"{len(long_line)} columns")
    columns = "".join(f"<th>column {n}</th>" for n in range(30))
    inject(chapters[1], f"<table><thead><tr>{columns}</tr></thead>"
                        f"<tbody><tr>{'<td>1234567</td>' * 30}</tr></tbody>"
                        "</table>")
    faults["table"] = (page_path(copy, chapters[1]), "column 0 | column 1")
    inject(chapters[2], '<link rel="stylesheet" '
                        'href="https://fonts.example.com/doctored.css">'
                        '<script>console.error("doctored error")</script>')
    faults["outside"] = (page_path(copy, chapters[2]),
                         "https://fonts.example.com/doctored.css")
    captioned, small, scrolled, cut = figure_pages(copy)[:4]
    doctor(captioned, r"<figcaption>.*?</figcaption>", "")
    faults["caption"] = (page_path(copy, captioned), "has no caption")
    # the wide drawing alone, let shrink: its type too small at 400
    doctor(small, r"<source\b[^>]*>", "")
    doctor(small, r'style="min-width: \d+px"', 'style="min-width: 0"')
    faults["type"] = (page_path(copy, small), "under 9 px")
    # the wide drawing alone, held at a width its type allows, as the
    # book's figures once were: wider than a phone's column
    doctor(scrolled, r"<source\b[^>]*>", "")
    doctor(scrolled, r'style="min-width: \d+px"', 'style="min-width: 600px"')
    faults["scroll"] = (page_path(copy, scrolled), "scrolls sideways")
    # a narrow drawing whose legend runs past its right edge
    narrow = re.search(r'srcset="([^"]+)"', cut.read_text(encoding="utf-8"))
    svg = (cut.parent / narrow[1]).resolve()
    svg.write_text(svg.read_text(encoding="utf-8").replace(
        "</svg>", '<text x="300" y="40" style="font-size: 12px">a legend '
        "doctored to run past the edge</text></svg>"), encoding="utf-8")
    faults["cut"] = (page_path(copy, cut), "text cut at the drawing's edge")
    labelled = copy / "book" / "mindreader" / "index.html"
    doctor(labelled, r'<span class="chunk-label">[\d.]+</span>',
           '<span class="chunk-label">0.0</span>')
    faults["label"] = (page_path(copy, labelled), "shows 0.0")
    chunks = copy / "indexes" / "chunks" / "index.html"
    doctor(chunks, r'(<td><a href="[^"]*">)\d+\.\d+</a>', r"\g<1>99.99</a>")
    faults["entry"] = (page_path(copy, chunks), "the link says 99.99")
    names = copy / "indexes" / "identifiers" / "index.html"
    inject(names, "<style>.md-typeset .book-index table:not([class]) "
                  "{ table-layout: fixed !important; width: 20rem "
                  "!important; } .md-typeset .book-index code, .md-typeset "
                  ".book-index td { white-space: normal !important; "
                  "word-break: break-all !important; }</style>")
    faults["names"] = (page_path(copy, names), "broken across lines")
    inject(copy / "index.html", '<div style="height: 900px"></div>')
    faults["transcript"] = ("/", "below the fold")
    unsourced = copy / "book" / "flip" / "index.html"
    doctor(unsourced, r'<h2 id="sources-and-further-reading".*?</ul>', "")
    faults["sources"] = (page_path(copy, unsourced), "the last section is")
    bibliography = copy / "indexes" / "sources" / "index.html"
    doctor(bibliography, r'(<li>.*?)#sources-and-further-reading',
           r"\g<1>#nowhere")
    faults["bibliography"] = (page_path(copy, bibliography),
                              "names no chapter")
    module = copy / NEIGHBOURS_FOLLOWED.strip("/") / "index.html"
    doctor(module, r'(</code></pre></div>)<p class="module-neighbours">.*?'
                   r'</p>', r"\g<1>")
    faults["neighbours"] = (NEIGHBOURS_FOLLOWED, "1 visible links")
    index = copy / "search" / "search_index.json"
    docs = json.loads(index.read_text(encoding="utf-8"))
    for doc in docs["docs"]:
        if doc["location"].startswith("book/umpire/"):
            doc["boost"] = 1000
    index.write_text(json.dumps(docs), encoding="utf-8")
    faults["ranking"] = ("/", "the first result is")
    with b.serve(copy) as base:
        reader = b.Reader(chromium, base, WIDE)
        try:
            yield reader, faults
        finally:
            reader.close()


def fault_found(doctored, kind: str, check, *args, **kwargs):
    """The fault planted for `kind`, and what `check` finds on its page."""
    reader, faults = doctored
    path, fault = faults[kind]
    return fault, check(reader.visit(path), path, *args, **kwargs)


def test_a_missing_figure_is_found(doctored):
    svg, found = fault_found(doctored, "figure", b.unloaded_figures)
    assert any(svg in line and "did not load" in line for line in found), \
        report(found)


def test_a_broken_chunk_link_is_found(doctored):
    fragment, found = fault_found(doctored, "link", b.broken_chunk_links)
    assert any(fragment in line and "no element has that id" in line
               for line in found), report(found)


def test_an_overflowing_code_block_is_found(doctored):
    columns, found = fault_found(doctored, "code", b.overflowing_code)
    assert any(f"(longest {columns}" in line for line in found), report(found)


def test_a_table_wider_than_its_column_is_found(doctored):
    head, found = fault_found(doctored, "table", b.overflowing_tables)
    assert any(head in line for line in found), report(found)


def test_a_request_elsewhere_and_a_console_error_are_found(doctored):
    reader, faults = doctored
    path, url = faults["outside"]
    reader.errors.clear()
    reader.visit(path)
    requests = b.foreign_requests(reader)
    assert any(url in line for line in requests), report(requests)
    assert any("doctored error" in line for line in reader.errors), \
        report(reader.errors)


def test_a_figure_without_a_caption_is_found(doctored):
    fault, found = fault_found(doctored, "caption", b.uncaptioned_figures)
    assert any(fault in line for line in found), report(found)


def narrowed(reader: b.Reader, path: str, check):
    """What `check` finds on the page at `path` read at 1280 wide, and on
    the same page once its window is narrowed to 400 (as the walk reads
    it: the narrow drawings are only seen if the page's pictures choose
    them as the window narrows)."""
    reader.resize(WIDE, settle=False)
    wide = check(reader.visit(path), path)
    try:
        return wide, check(reader.resize(NARROW), path)
    finally:
        reader.resize(WIDE, settle=False)


def test_figure_type_too_small_at_400_is_found(doctored):
    reader, faults = doctored
    path, fault = faults["type"]
    wide, found = narrowed(reader, path, b.small_figure_type)
    assert any(fault in line for line in found), report(found)
    assert not wide, report(wide)  # the same page at its full width is legible


@pytest.mark.parametrize("kind", ["scroll", "cut"])
def test_a_figure_cut_or_scrolling_sideways_at_400_is_found(doctored, kind):
    reader, faults = doctored
    path, fault = faults[kind]
    wide, found = narrowed(reader, path, b.cut_figures)
    assert any(fault in line for line in found), report(found)
    assert not wide, report(wide)  # the same page at its full width fits


def test_a_link_to_a_chunk_showing_another_label_is_found(doctored):
    fault, found = fault_found(doctored, "label", b.broken_chunk_links, per_kind=3)
    assert any(fault in line for line in found), report(found)


def test_an_index_entry_with_the_wrong_label_is_found(doctored):
    fault, found = fault_found(doctored, "entry", b.mislabelled_entries, 2)
    assert any(fault in line for line in found), report(found)


def test_a_name_broken_mid_word_is_found(doctored):
    fault, found = fault_found(doctored, "names", b.broken_names)
    assert any(fault in line for line in found), report(found)


def test_a_transcript_below_the_fold_is_found(doctored):
    fault, found = fault_found(doctored, "transcript", b.transcript_below_the_fold, FOLD)
    assert any(fault in line for line in found), report(found)


def test_a_chapter_without_sources_is_found(doctored):
    fault, found = fault_found(doctored, "sources", b.missing_sources)
    assert any(fault in line for line in found), report(found)


def test_a_work_that_names_no_chapter_is_found(doctored):
    fault, found = fault_found(doctored, "bibliography", b.unlinked_bibliography, LEAST_WORKS)
    assert any(fault in line for line in found), report(found)


def test_a_file_page_missing_a_neighbour_link_is_found(doctored):
    fault, found = fault_found(doctored, "neighbours", b.missing_neighbours, False, False)
    assert any(fault in line for line in found), report(found)


def test_a_search_that_ranks_the_umpire_first_is_found(doctored):
    reader, faults = doctored
    path, fault = faults["ranking"]
    reader.visit(path)
    found = b.first_results(reader.page, FIRST_RESULTS)
    assert any(fault in line for line in found), report(found)


def test_a_search_that_finds_nothing_is_found(doctored):
    reader, _ = doctored
    reader.visit("/")
    found = b.failed_searches(reader.page, ["SEER", "qzxjvwk"])
    assert found == ["search 'qzxjvwk': no results"], report(found)
