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


TITLE = re.compile(r'<p class="chunk-title" id="([^"]+)"><a[^>]*>'
                   r'<span class="chunk-label">([^<]*)</span> &lang;(.*?)&rang;')


def titles_and_ids(html: str) -> dict[str, list[str]]:
    """Each chunk's name -> the ids of its definitions, in page order."""
    found: dict[str, list[str]] = {}
    for anchor, _, name in TITLE.findall(html):
        found.setdefault(unescape(name), []).append(anchor)
    return found


def labels_of(html: str) -> dict[str, str]:
    """Each chunk title's id, and each code line's id, -> the label the
    reader sees on that chunk's title."""
    found: dict[str, str] = {}
    label = None
    for piece in re.finditer(TITLE.pattern + r'|<span id="(L\d+)">', html):
        if piece[1]:
            label = found[piece[1]] = piece[2]
        elif label is not None:
            found[piece[4]] = label
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
    label_of: dict[str, str] = {}  # the label of each line's chunk
    for place, definition in enumerate(source.definitions, 1):
        seen[definition.name] = seen.get(definition.name, 0) + 1
        for line in definition.lines:
            label_of[f"L{line.lineno}"] = f"{number(chapter)}.{place}"
            found = REFERENCE.match(line.text)
            if found:
                users.setdefault(found["name"].strip(), []).append(
                    (definition.name, line.lineno))
    assert sorted(ids) == sorted(seen)
    for name, count in seen.items():
        assert len(ids[name]) == count, name
        for nth in range(1, count):  # each part links to the next
            assert f'href="#{ids[name][nth]}"' in links_after(html, ids[name][nth - 1])
        first = labels_of(html)[ids[name][0]]
        users_seen = set()
        for user, lineno in users.get(name, []):
            line = line_html(html, f"L{lineno}")
            assert 'class="chunk-ref"' in line and (
                f"&lang;{html_escape(name)}&nbsp;<span class=\"chunk-label\">"
                f"{first}</span>&rang;") in line
            if user in users_seen:
                continue  # a chunk that uses it twice is listed once
            users_seen.add(user)
            # "used in" names the using chunk by its label, and lands on
            # the very line that uses the chunk
            label = label_of[f"L{lineno}"]
            assert f'href="#L{lineno}" title="⟨{html_escape(user, quote=False)}⟩">{label}</a>' \
                in links_after(html, ids[name][0]).replace("&#x27;", "'"), \
                f"<<{name}>> is used in <<{user}>> at line {lineno}"
    refs = page(site, chapter).refs
    assert len(refs) == sum(len(u) for u in users.values())
    text = (ROOT / "literate" / f"{chapter}.md").read_text()
    # no reference placeholder is left, and none eats a word of the prose
    assert set(re.findall(r"xqxref\w*", html)) <= set(re.findall(r"xqxref\w*", text))


def number(chapter: str) -> int:
    """A chapter's number in the book's reading order."""
    from retro.book.parts import PARTS

    return [name for _, names in PARTS for name in names].index(chapter) + 1


def test_every_chunk_title_shows_its_chapter_and_place(site):
    from retro.book.tangle import read_chapter

    for path in sorted((ROOT / "literate").glob("*.md")):
        html = (site / "book" / path.stem / "index.html").read_text()
        shown = [label for _, label, _ in TITLE.findall(html)]
        count = len(read_chapter(str(path)).definitions)
        assert shown == [f"{number(path.stem)}.{n}"
                         for n in range(1, count + 1)], path.stem
        head = re.search(r'<p class="chapter-head">(.*?)</p>', html, re.S)
        assert head.group(1).startswith(f"Chapter {number(path.stem)}.")


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
    assert install_and_test.endswith(
        "pip install -e '.[dev]' && npm ci && pytest")
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
    rows = [row for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)
            if "<td" in row]
    expected = sorted((p.stem, name) for p in (ROOT / "literate").glob("*.md")
                      for name in read_chapter(str(p)).chunks)
    listed = sorted((re.search(r"/book/(\w+)/", row).group(1),
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
            + re.search(r">((?:retro|docs)/[\w/]+\.py)<", row).group(1): row
            for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)
            if "<td" in row}
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
            if "/book/" in href][2:]  # after the name's and the label's
    callers = {Path(p).stem for p in (ROOT / "literate").glob("*.md")
               if "whole_number(" in Path(p).read_text() and Path(p).stem != "house"}
    assert callers and callers <= {re.search(r"book/(\w+)/", u).group(1) for u in uses}
    for href in HREF.findall(html):
        assert resolve(index, href), href


def index_rows(site: Path, name: str) -> list[str]:
    html = content(site / "indexes" / name / "index.html")
    return [row for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)
            if "<td" in row]


def test_the_identifier_index_has_tuple_constants_and_methods(site):
    rows = {unescape(re.search(r"<code>(.*?)</code>", row).group(1)):
            re.findall(r"<td>(.*?)</td>", row)
            for row in index_rows(site, "identifiers")}
    for name in ("HEADS", "TAILS", "YES", "NO", "FIRST", "SECOND", "IAC",
                 "DONT", "SE"):
        assert rows[name][1] == "constant", name
    assert rows["Machine.choose"][1] == "method"
    assert re.search(r">\d+\.\d+</a>$", rows["Machine.choose"][2])
    # a method used through self, in its own class, is found used
    methods = [cells for name, cells in rows.items()
               if cells[1] == "method" and re.search(r">\d+\.\d+<", cells[4])]
    assert len(methods) > 30


def test_each_index_is_filed_from_a_to_z_without_articles(site):
    for name in ("chunks", "identifiers"):
        html = content(site / "indexes" / name / "index.html")
        bar = re.search(r'<p class="index-letters">(.*?)</p>', html, re.S)
        assert bar and html.index(bar.group(0)) < html.index("<table")
        letters = re.findall(r'<a href="#(letter-\w+)">(\w)</a>', bar.group(1))
        assert len(letters) >= 20
        for anchor, letter in letters:
            section = html.split(f'id="{anchor}"', 1)[1].split("<h2", 1)[0]
            filed = re.findall(r"<tr>\s*<td>.*?>(?:⟨|<code>)(.*?)(?:⟩|</code>)",
                               section, re.S)
            assert filed, anchor
            for entry in filed:
                words = re.sub(r"^(the|a|an) (?=.)", "", unescape(entry).lower()
                               ) if name == "chunks" else entry.lower()
                assert re.sub(r"[^a-z0-9]", "", words)[:1] == letter.lower(), \
                    (anchor, entry)
    chunks = content(site / "indexes" / "chunks" / "index.html")
    m = chunks.split('id="letter-m"', 1)[1].split("<h2", 1)[0]
    assert "⟨the machine interface⟩" in m


def test_every_label_link_names_the_chunk_it_lands_in(site):
    """Every "used in", "continues" and index label is the label the
    reader finds on the chunk it leads to."""
    labels: dict[Path, dict[str, str]] = {}
    checked = 0
    for page in [*sorted((site / "book").glob("*/index.html")),
                 site / "indexes" / "chunks" / "index.html",
                 site / "indexes" / "identifiers" / "index.html"]:
        html = content(page)
        links = re.findall(r'<a href="([^"]*#[^"]+)"[^>]*>(\d+\.\d+)</a>',
                           html)
        assert links, page
        for href, label in links:
            url, _, anchor = href.partition("#")
            target = (page.parent / url / "index.html").resolve() if url \
                else page
            if target not in labels:
                labels[target] = labels_of(target.read_text())
            assert labels[target].get(anchor) == label, \
                f"{page.parent.name}: {href} says {label}, lands in " \
                f"{labels[target].get(anchor)}"
            checked += 1
    assert checked > 3000


def test_names_in_code_link_to_their_definitions(site):
    html = (site / "book" / "mindreader" / "index.html").read_text()
    links = re.findall(r'<a class="code-name" href="([^"]*)" title="([^"]*)">'
                       r'<span class="n">(\w+)</span></a>', html)
    assert len(links) > 20
    for href, title, name in links:
        url, _, anchor = href.partition("#")
        target = (site / "book" / "mindreader" / url / "index.html").resolve() \
            if url else site / "book" / "mindreader" / "index.html"
        shown = unescape(re.sub(r"<[^>]+>", "", line_html(target.read_text(), anchor)))
        short = title.split(",")[0].rsplit(".", 1)[-1]
        assert short == name and re.search(
            rf"\b(def|class)\s+{name}\b|\b{name}\b.*=", shown), (name, shown)
    # a name another chapter defines leads there: plural, from the house
    assert any(url.startswith("../") and not url.startswith("../mindreader")
               for url, _, _ in links)


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


def test_the_home_page_opens_with_a_real_transcript(site, tmp_path):
    html = content(site / "index.html")
    block = re.search(r'<div class="language-text highlight"><pre>.*?<code>(.*?)</code>',
                      html, re.S)
    assert block and html.index(block.group(0)) < html.index("<h2"), \
        "the transcript comes before the first section"
    lines = unescape(re.sub(r"<[^>]+>", "", block.group(1))).strip("\n")
    assert len(lines.splitlines()) >= 6
    # a run of lines the game printed, as its replayed transcript holds them
    assert any(lines in transcript.read_text()
               for transcript in (ROOT / "tests" / "transcripts").glob("*.out")), lines
    # and the page says how to type it again: the command and its lines
    home = " ".join((ROOT / "docs" / "index.md").read_text().split())
    command, typed = re.search(
        r"`(retro play mindreader --seed \d+) < (tests/transcripts/\S+\.in)`",
        home).groups()
    played = subprocess.run(
        [sys.executable, "-m", "retro", *command.split()[1:]], cwd=ROOT,
        input=(ROOT / typed).read_text(), capture_output=True, text=True,
        timeout=60, env={**os.environ, "RETRO_HOME": str(tmp_path)})
    assert played.returncode == 0 and lines in played.stdout


def test_the_home_page_agrees_with_the_chapters(site):
    home = (ROOT / "docs" / "index.md").read_text()
    flip = (ROOT / "literate" / "flip.md").read_text()
    year = re.search(r"More BASIC Computer Games\* \((\d{4})\)", home).group(1)
    assert f"Creative Computing, {year})" in flip
    assert "nineteen" in home and "HER 19 MATCHBOXES" in (
        ROOT / "tests" / "transcripts" / "hexapawn_seed1962.out").read_text()
    # the example of a chunk's title is the chunk's title in chapter 1
    label, name = re.search(r"\*(\d+\.\d+) ⟨(.*?)⟩ =\*", home).groups()
    html = (site / "book" / "mindreader" / "index.html").read_text()
    assert (label, name) in [(found[1], unescape(found[2]))
                             for found in TITLE.findall(html)]


def test_the_home_page_lists_the_chapters_by_part_and_shows_a_figure(site):
    from retro.book.parts import PARTS

    html = content(site / "index.html")
    listed = re.findall(r'href="book/(\w+)/"', html.split('<h2 id="read"')[1])
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
    from hooks import load_hook  # tests/hooks.py

    hook = load_hook("weave")
    assert hook.unused_word("a word xqxref and XQXREFQ") == "xqxrefqq"
