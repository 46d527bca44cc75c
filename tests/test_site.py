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
        self.links: list[tuple[str, str]] = []  # (text before it, href)
        self._in_title = False
        self._in_links = False
        self._links_text = ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("class") == "chunk-ref":
            self.refs.append(attrs["href"])
        if tag == "p" and attrs.get("class") == "chunk-title":
            self._in_title = True
            self.titles.append("")
        if tag == "p" and attrs.get("class") == "chunk-links":
            self._in_links, self._links_text = True, ""
        if tag == "a" and self._in_links:
            kind = self._links_text.rsplit(";", 1)[-1].strip()
            self.links.append((kind.split(" <")[0], attrs["href"]))

    def handle_endtag(self, tag):
        if tag == "p":
            self._in_title = self._in_links = False

    def handle_data(self, data):
        if self._in_title:
            self.titles[-1] += data
        if self._in_links:
            self._links_text += data


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


def test_the_links_under_a_chunk_lead_to_its_other_parts_and_users(site):
    tangler = page(site, "tangle")
    kinds = {}
    for kind, href in tangler.links:
        kinds.setdefault(kind.split(",")[0].strip(), set()).add(href)
    # <<reading a chapter>> comes in three parts, all used by the root
    assert "#chunk-reading-a-chapter-2" in kinds["continued in"]
    assert "#chunk-reading-a-chapter" in kinds["continues"]
    assert "#chunk-retro-tangle-py" in kinds["used in"]
    # <<expand one reference>> is used inside <<expanding a chunk>>
    html = (site / "book" / "tangle" / "index.html").read_text()
    links = re.search(r'id="chunk-expand-one-reference".*?'
                      r'<p class="chunk-links">(.*?)</p>', html, re.S).group(1)
    assert links == ('used in <a href="#chunk-expanding-a-chunk">'
                     '&lang;expanding a chunk&rang;</a>')
    assert 'href="#chunk-expand-one-reference">&lt;&lt;expand one ' \
           'reference&gt;&gt;</a>' in html


def test_every_chunk_link_in_the_book_resolves(site):
    for chapter in (site / "book").iterdir():
        parsed = page(site, chapter.name)
        for href in parsed.refs + [href for _, href in parsed.links]:
            assert href.startswith("#") and href[1:] in parsed.ids, \
                f"{chapter.name}: {href}"


def test_ci_runs_the_readme_commands_word_for_word():
    readme = (ROOT / "README.md").read_text()
    commands = re.search(r"```sh\n(.*?)```", readme, re.S).group(1)
    install_and_play, install_and_test = [
        line for line in commands.splitlines()
        if line and not line.startswith("#")]
    assert install_and_play.endswith("pip install -e . && retro")
    assert install_and_test.endswith("pip install -e '.[dev]' && pytest")
    ci = (ROOT / ".ci" / "run").read_text()
    assert install_and_test in ci.splitlines()
