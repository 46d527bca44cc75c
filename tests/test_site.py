"""The woven book: the site builds cleanly and its chunk links lead somewhere."""
from __future__ import annotations

import os
import re
from html import escape as html_escape, unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytestmark = pytest.mark.book  # builds the book: `pytest -m "not book"` skips it

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
        seen[definition.name] = seen.get(definition.name, 0) + 1
        for line in definition.lines:
            found = REFERENCE.match(line.text)
            if found:
                users.setdefault(found["name"].strip(), []).append(
                    (definition.name, line.lineno))
    assert sorted(ids) == sorted(seen)
    for name, count in seen.items():
        assert len(ids[name]) == count, name
        for nth in range(1, count):  # each part links to the next
            assert f'href="#{ids[name][nth]}"' in links_after(html, ids[name][nth - 1])
        for user, lineno in users.get(name, []):
            # "used in" lands on the very line that uses the chunk
            assert f'href="#L{lineno}"' in links_after(html, ids[name][0]), \
                f"<<{name}>> is used in <<{user}>> at line {lineno}"
            line = line_html(html, f"L{lineno}")
            assert 'class="chunk-ref"' in line and f"&lang;{html_escape(name)}&rang;" in line
    refs = page(site, chapter).refs
    assert len(refs) == sum(len(u) for u in users.values())
    text = (ROOT / "literate" / f"{chapter}.md").read_text()
    # no reference placeholder is left, and none eats a word of the prose
    assert set(re.findall(r"xqxref\w*", html)) <= set(re.findall(r"xqxref\w*", text))


def line_html(html: str, line_id: str) -> str:
    """The HTML of the code line with id `line_id`."""
    found = re.search(rf'<span id="{line_id}">(.*?)\n</span>', html, re.S)
    assert found, f"no code line {line_id}"
    return found.group(1)


def test_the_book_is_in_reading_order(site):
    from retro.book.parts import PARTS

    home = (site / "index.html").read_text()
    order = list(dict.fromkeys(re.findall(r'href="book/([a-z_]+)/"', home)))
    expected = [name for _, names in PARTS for name in names]
    assert order == expected
    assert order[0] == "mindreader" and order[-1] == "cli"
    for title, _ in PARTS:
        assert html_escape(title) in home


def test_every_chunk_link_in_the_book_resolves(site):
    for chapter in (site / "book").iterdir():
        parsed = page(site, chapter.name)
        for href in parsed.refs + [href for _, href in parsed.links]:
            if href.startswith("#"):
                assert href[1:] in parsed.ids, f"{chapter.name}: {href}"
            else:  # a root's link to its file's page
                assert "/modules/" in href and resolve(chapter, href), href


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


# --- the indexes, the files' pages, and a site that stays at home -----------

ID = re.compile(r'\bid="([^"]+)"')
HREF = re.compile(r'<a [^>]*?href="([^"]*)"')


def ids_of(path: Path, cache: dict = {}) -> set[str]:
    if path not in cache:
        cache[path] = set(ID.findall(path.read_text()))
    return cache[path]


def resolve(page_dir: Path, href: str) -> bool:
    """Does `href`, on the page in `page_dir`, lead to a page and anchor?"""
    url, _, anchor = href.partition("#")
    target = (page_dir / url).resolve() if url else page_dir
    if target.is_dir():
        target = target / "index.html"
    return target.is_file() and (not anchor or anchor in ids_of(target))


def content(path: Path) -> str:
    """A page's article: what the page says, without the navigation."""
    html = path.read_text()
    return html[html.index("<article"):html.index("</article>")]


def plan():
    from retro.book.tangle import read_chapter, tangle

    chapters = [read_chapter(str(p)) for p in sorted((ROOT / "literate").glob("*.md"))]
    return tangle(chapters, str(ROOT.resolve()))


def test_every_chapter_names_its_files_and_the_indexes_at_its_top(site):
    outputs = plan().outputs.values()
    for chapter in sorted((ROOT / "literate").glob("*.md")):
        html = content(site / "book" / chapter.stem / "index.html")
        head = re.search(r'<p class="chapter-head">(.*?)</p>', html, re.S)
        assert head and html.index(head.group(0)) < html.index("<h2"), chapter.stem
        links = HREF.findall(head.group(1))
        for name in ("chunks", "identifiers", "files"):
            assert f"../../indexes/{name}/" in links, chapter.stem
        made = sorted(o.relative for o in outputs
                      if Path(o.chapter).stem == chapter.stem)
        assert [link.split("/modules/", 1)[1].rstrip("/") for link in links
                if "/modules/" in link] == made
        for link in links:
            assert resolve(site / "book" / chapter.stem, link), link


def test_the_chunk_index_lists_every_chunk_and_its_links_land(site):
    from retro.book.tangle import read_chapter

    index = site / "indexes" / "chunks"
    html = content(index / "index.html")
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)[1:]  # after the header
    expected = sorted((p.stem, name) for p in (ROOT / "literate").glob("*.md")
                      for name in read_chapter(str(p)).chunks)
    listed = sorted((re.search(r">(\w+)\.md<", row).group(1),
                     unescape(re.search(r"⟨(.*?)⟩", row).group(1)))
                    for row in rows)
    assert listed == expected
    for row in rows:
        for href in HREF.findall(row):
            assert resolve(index, href), href


def test_the_identifier_index_finds_definitions_and_uses(site):
    index = site / "indexes" / "identifiers"
    html = content(index / "index.html")
    rows = {re.search(r"<code>(.*?)</code>", row).group(1) + " "
            + re.search(r">(retro/[\w/]+\.py)<", row).group(1): row
            for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)[1:]}
    common = (ROOT / "retro" / "common.py").read_text()
    for name in re.findall(r"^def (\w+)", common, re.M):
        row = rows[f"{name} retro/common.py"]
        define = HREF.findall(row)[0]  # the chapter line that defines it
        assert resolve(index, define)
        chapter, line = re.search(r"book/(\w+)/#(L\d+)", define).groups()
        shown = line_html((site / "book" / chapter / "index.html").read_text(), line)
        assert f">{name}<" in shown and ">def<" in shown
    # whole_number is used in chapters other than its own; each use is a link
    uses = [href for href in HREF.findall(rows["whole_number retro/common.py"])
            if "/book/" in href][1:]
    callers = {Path(p).stem for p in (ROOT / "literate").glob("*.md")
               if "whole_number(" in Path(p).read_text() and Path(p).stem != "house"}
    assert callers and callers <= {re.search(r"book/(\w+)/", u).group(1) for u in uses}
    for href in HREF.findall(html):
        assert resolve(index, href), href


def test_each_tangled_file_has_a_page_whose_lines_lead_to_their_chapter(site):
    from retro.book.tangle import display

    for output in plan().outputs.values():
        folder = site / "modules" / output.relative
        html = (folder / "index.html").read_text()
        lines = output.text.split("\n")[:-1]
        for number, text in enumerate(lines, 1):
            found = re.search(rf'<span id="L{number}"><a class="module-line" '
                              r'href="([^"]+)"', html)
            assert found, f"{output.relative}:{number}"
            href = found.group(1)
            assert resolve(folder, href), f"{output.relative}:{number} {href}"
            if "#L" not in href:  # a line the chapter does not show: its chunk
                assert number == output.header_at or not text.strip(), number
                continue
            url, _, anchor = href.partition("#")
            shown = line_html(((folder / url).resolve() / "index.html").read_text(), anchor)
            plain = unescape(re.sub(r"<[^>]+>", "", shown))
            assert plain.strip() == text.strip(), \
                f"{output.relative}:{number} shows {display(url)}#{anchor}"


def test_chunk_names_in_prose_link_to_their_chunk(site):
    text = (ROOT / "literate" / "mindreader.md").read_text()
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    named = re.findall(r"`<<([^`>]+)>>`", prose)
    assert len(named) >= 6
    html = content(site / "book" / "mindreader" / "index.html")
    for name in named:
        link = re.search(r'<a class="chunk-mention" href="([^"]*)"><code>'
                         rf"&lt;&lt;{re.escape(html_escape(name))}&gt;&gt;", html)
        assert link and resolve(site / "book" / "mindreader", link.group(1)), name
    # a mention of another chapter's chunk leads to that chapter
    weave = content(site / "book" / "weave" / "index.html")
    assert 'href="../mindreader/#chunk-consult-model"' in weave


def test_the_weave_leaves_placeholder_shaped_prose_alone(site):
    text = (ROOT / "literate" / "weave.md").read_text()
    assert "`xqxrefbcx`" in text
    html = content(site / "book" / "weave" / "index.html")
    assert "<code>xqxrefbcx</code>" in html


def test_the_home_page_lists_the_chapters_by_part_and_shows_a_figure(site):
    from retro.book.parts import PARTS

    html = content(site / "index.html")
    listed = re.findall(r'href="book/(\w+)/"', html)
    expected = [name for _, names in PARTS for name in names]
    assert [name for name in dict.fromkeys(listed) if name in expected] == expected
    figures = re.findall(r'<img [^>]*src="(figures/[^"]+\.svg)"', html)
    assert figures and all((site / f).is_file() for f in figures)
    assert "<h1" in html and ">Retro</h1>" not in html


LOADED = re.compile(
    r"<(?:script|img|iframe|source|audio|video|embed)\b[^>]*?\bsrc=\"([^\"]+)\""
    r"|<link\b(?![^>]*\brel=\"(?:canonical|alternate)\")[^>]*?\bhref=\"([^\"]+)\"")


def test_no_page_asks_another_host_for_anything(site):
    """Every script, style, font, image and preconnect is the site's own."""
    outside = []
    for path in site.rglob("*.html"):
        for found in LOADED.finditer(path.read_text()):
            url = found.group(1) or found.group(2)
            if re.match(r"(https?:)?//", url):
                outside.append(f"{path.relative_to(site)}: {url}")
    for path in site.rglob("*.css"):
        if not path.is_file():  # the page of docs/stylesheets/chunks.css
            continue
        for url in re.findall(r"(?:url\(|@import)\s*['\"]?((?:https?:)?//[^'\")]+)",
                              path.read_text()):
            outside.append(f"{path.relative_to(site)}: {url}")
    assert not outside, outside[:10]


def test_no_source_maps_ship(site):
    assert not list(site.rglob("*.map"))
    for path in [*site.rglob("*.js"), *site.rglob("*.css")]:
        if path.is_file():
            assert "sourceMappingURL" not in path.read_text(), path


def test_the_site_map_and_the_error_page_know_the_address(site):
    import yaml

    class Loader(yaml.SafeLoader):
        pass
    Loader.add_constructor("!ENV", lambda loader, node: loader.construct_sequence(node)[-1])
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=Loader)
    address = os.environ.get("RETRO_SITE_URL", config["site_url"])
    sitemap = (site / "sitemap.xml").read_text()
    assert f"<loc>{address}book/flip/</loc>" in sitemap
    assert f"<loc>{address}indexes/chunks/</loc>" in sitemap
    error = (site / "404.html").read_text()
    path = re.sub(r"^https?://[^/]+", "", address)
    assert re.search(rf'href="{re.escape(path)}assets/stylesheets/main\.', error)


def test_the_placeholder_word_is_one_the_page_does_not_hold():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "weave_hook", ROOT / "docs" / "hooks" / "weave.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    assert hook.unused_word("a word xqxref and XQXREFQ") == "xqxrefqq"
