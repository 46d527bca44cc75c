"""The woven book: the site builds cleanly and its chunk links lead somewhere."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


class Anchors(HTMLParser):
    """Collect ids, chunk titles and chunk links of one page."""

    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()
        self.refs: list[str] = []
        self.titles: list[str] = []
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("class") == "chunk-ref":
            self.refs.append(attrs["href"])
        if tag == "p" and attrs.get("class") == "chunk-title":
            self._in_title = True
            self.titles.append("")

    def handle_endtag(self, tag):
        if tag == "p":
            self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.titles[-1] += data


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    target = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(target)],
        cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0, result.stderr
    return target


def page(site: Path, chapter: str) -> Anchors:
    parser = Anchors()
    parser.feed((site / "book" / chapter / "index.html").read_text())
    return parser


def test_every_chapter_is_in_the_book(site):
    chapters = sorted(p.stem for p in (ROOT / "literate").glob("*.md"))
    built = sorted(p.name for p in (site / "book").iterdir() if p.is_dir())
    assert built == chapters
    nav = (site / "index.html").read_text()
    for chapter in chapters:
        assert f"book/{chapter}/" in nav


def test_tangler_page_has_titles_and_working_chunk_links(site):
    tangler = page(site, "tangle")
    assert "\u27e8retro/tangle.py\u27e9\u00a0=" in tangler.titles
    assert "\u27e8reading a chapter\u27e9\u00a0+=" in tangler.titles
    assert len(tangler.refs) >= 10
    for href in tangler.refs:
        assert href.startswith("#") and href[1:] in tangler.ids, href
    html = (site / "book" / "tangle" / "index.html").read_text()
    # the root's first reference leads to the data model's definition...
    assert 'href="#chunk-the-data-model">&lt;&lt;the data model&gt;&gt;</a>' in html
    # ...whose links lead back to where it is used
    links = re.search(r'id="chunk-the-data-model".*?<p class="chunk-links">(.*?)</p>',
                      html, re.S).group(1)
    assert 'used in <a href="#chunk-retro-tangle-py">' in links
    assert "xqxref" not in html


def test_every_chunk_link_in_the_book_resolves(site):
    for chapter in (site / "book").iterdir():
        parsed = page(site, chapter.name)
        for href in parsed.refs:
            assert href[1:] in parsed.ids, f"{chapter.name}: {href}"
