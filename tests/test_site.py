"""The woven book: the site builds cleanly and its chunk links lead somewhere."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from html import escape as html_escape, unescape
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


def titles_and_ids(html: str) -> dict[str, list[str]]:
    """Each chunk's name -> the ids of its definitions, in page order."""
    found: dict[str, list[str]] = {}
    for anchor, name in re.findall(
            r'<p class="chunk-title" id="([^"]+)"><a[^>]*>&lang;(.*?)&rang;',
            html):
        found.setdefault(unescape(name), []).append(anchor)
    return found


def links_after(html: str, anchor: str) -> str:
    """The text of the chunk-links paragraph under the definition `anchor`."""
    found = re.search(rf'id="{re.escape(anchor)}".*?</pre>.*?'
                      r'(?:<p class="chunk-links">(.*?)</p>|<p class="chunk-title")',
                      html, re.S)
    return (found.group(1) or "") if found else ""


@pytest.mark.parametrize("chapter", ["tangle", "mindreader", "flip", "hexapawn",
                                     "penney", "room"])
def test_every_chunk_is_titled_and_linked_to_its_parts_and_users(site, chapter):
    from retro.book.tangle import REFERENCE, read_chapter

    source = read_chapter(ROOT / "literate" / f"{chapter}.md")
    html = (site / "book" / chapter / "index.html").read_text()
    ids = titles_and_ids(html)
    users: dict[str, list[tuple[str, int]]] = {}
    seen: dict[str, int] = {}
    for definition in source.definitions:
        nth = seen[definition.name] = seen.get(definition.name, 0) + 1
        for line in definition.lines:
            found = REFERENCE.match(line.text)
            if found:
                users.setdefault(found["name"].strip(), []).append(
                    (definition.name, nth))
    assert sorted(ids) == sorted(seen)
    for name, count in seen.items():
        assert len(ids[name]) == count, name
        for nth in range(1, count):  # each part links to the next
            assert f'href="#{ids[name][nth]}"' in links_after(html, ids[name][nth - 1])
        for user, nth in users.get(name, []):
            assert f'href="#{ids[user][nth - 1]}"' in links_after(html, ids[name][0]), \
                f"<<{name}>> is used in <<{user}>> part {nth}"
    refs = page(site, chapter).refs
    assert len(refs) == sum(len(u) for u in users.values())
    assert "xqxref" not in html


def test_the_book_is_in_reading_order(site):
    from retro.registry import book_parts

    home = (site / "index.html").read_text()
    order = list(dict.fromkeys(re.findall(r'href="book/([a-z_]+)/"', home)))
    expected = [name for _, names in book_parts() for name in names]
    assert order == expected
    assert order[0] == "mindreader" and order[-1] == "cli"
    for title, _ in book_parts():
        assert html_escape(title) in home


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
