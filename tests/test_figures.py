"""The book's figures: drawn from the chapters' code, shown, cached, checked."""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from hooks import load_hook  # tests/hooks.py

pytestmark = pytest.mark.book  # builds the book: `pytest -m "not book"` skips it

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


hook = load_hook("figures")


def figure_names() -> dict[str, Path]:
    """Every figure the modules of docs/figures/ draw: name -> module."""
    names = {}
    for module in hook.figure_modules(DOCS):
        for name in hook.load(module).FIGURES:
            names[name] = module
    return names


class Images(HTMLParser):
    """The <img> tags of a page: (src, alt)."""

    def __init__(self):
        super().__init__()
        self.images: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            attrs = dict(attrs)
            self.images.append((attrs.get("src", ""), attrs.get("alt")))


def images(page: Path) -> list[tuple[str, str | None]]:
    parser = Images()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.images


# --- the built site ------------------------------------------------------------

def test_every_figure_is_in_the_site_as_an_svg_that_parses(site):
    names = figure_names()
    assert len(names) >= 5, sorted(names)
    for name in names:
        svg = site / "figures" / f"{name}.svg"
        assert svg.is_file(), name
        root = ElementTree.parse(svg).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg", name
        assert root.get("viewBox"), name
        # something was drawn: text and paths, not an empty canvas
        assert len(list(root.iter("{http://www.w3.org/2000/svg}path"))) > 10
        assert list(root.iter("{http://www.w3.org/2000/svg}text")), name


def test_every_figure_is_shown_in_its_chapter_with_alt_text(site):
    shown: dict[str, list[str]] = {}
    for page in sorted(site.rglob("index.html")):
        for src, alt in images(page):
            found = re.search(r"(?:^|/)figures/([a-z0-9-]+)\.svg$", src)
            if not found:
                continue
            assert alt and len(alt.split()) >= 8, (page, src, alt)
            shown.setdefault(found[1], []).append(
                str(page.parent.relative_to(site)))
            # the src, resolved from the page, is the figure's file
            assert (page.parent / src).resolve() == \
                (site / "figures" / f"{found[1]}.svg").resolve(), (page, src)
    for name, module in figure_names().items():
        chapter = f"book/{module.stem}"
        assert chapter in shown.get(name, []), (name, shown.get(name))


def test_the_figures_style_sheet_is_on_every_page(site):
    page = (site / "book" / "umpire" / "index.html").read_text()
    assert "stylesheets/figures.css" in page
    css = (site / "stylesheets" / "figures.css").read_text()
    assert 'data-md-color-scheme="slate"' in css and "invert(1)" in css


# --- the cache -----------------------------------------------------------------

FIGURE_MODULE = '''
CALLS = []


def draw_line(figure):
    CALLS.append("line")
    figure.subplots().plot([0, 1, 2], [{0}, 1, 0])


FIGURES = {{"test-line": draw_line}}
'''


@pytest.fixture
def book(tmp_path):
    """A project of its own: one figure module, its chapter, one engine."""
    (tmp_path / "docs" / "figures").mkdir(parents=True)
    (tmp_path / "retro" / "engines").mkdir(parents=True)
    (tmp_path / "literate").mkdir()
    (tmp_path / "retro" / "engines" / "thing.py").write_text("X = 1\n")
    (tmp_path / "literate" / "thing.md").write_text("# Thing\n")
    module = tmp_path / "docs" / "figures" / "thing.py"
    module.write_text(FIGURE_MODULE.format(0))
    return tmp_path


def draws(book: Path, monkeypatch) -> list[str]:
    """Run the hook's draw_all on `book`; the names of the figures drawn."""
    drawn = []
    real = hook.draw

    def counting(module, name, make, size, svg):
        drawn.append(name)
        return real(module, name, make, size, svg)

    monkeypatch.setattr(hook, "draw", counting)
    made = hook.draw_all(book / "docs", book / ".cache")
    assert set(made) == {"test-line"}
    for svg in made["test-line"][1:]:
        assert ElementTree.parse(svg).getroot().tag.endswith("svg")
    return drawn


BOTH = ["test-line", "test-line (narrow)"]  # drawn wide, then narrow


def test_an_unchanged_figure_is_not_drawn_again(book, monkeypatch):
    assert draws(book, monkeypatch) == BOTH
    cached = sorted(p.name for p in (book / ".cache").iterdir())
    assert draws(book, monkeypatch) == []
    assert sorted(p.name for p in (book / ".cache").iterdir()) == cached
    assert not list((book / "docs" / "figures").glob("__pycache__"))


@pytest.mark.parametrize("change", ["module", "chapter", "engine"])
def test_a_change_to_any_input_draws_it_again(book, monkeypatch, change):
    assert draws(book, monkeypatch) == BOTH
    if change == "module":
        (book / "docs" / "figures" / "thing.py").write_text(
            FIGURE_MODULE.format(2))
    elif change == "chapter":
        (book / "literate" / "thing.md").write_text("# Thing, revised\n")
    else:
        (book / "retro" / "engines" / "thing.py").write_text("X = 2\n")
    assert draws(book, monkeypatch) == BOTH
    # the older version is gone: one manifest and two SVGs are left
    assert len(list((book / ".cache").iterdir())) == 3


def test_a_figure_that_fails_stops_the_build_in_one_line(book):
    (book / "docs" / "figures" / "thing.py").write_text(
        'def broken(figure):\n    raise ValueError("no data")\n\n\n'
        'FIGURES = {"test-line": broken}\n')
    with pytest.raises(PluginError) as error:
        hook.draw_all(book / "docs", book / ".cache")
    assert "test-line" in str(error.value) and "no data" in str(error.value)
    assert "\n" not in str(error.value)
    assert not list((book / ".cache").glob("*.svg"))


@pytest.mark.parametrize("figures", ['{"Bad Name": lambda figure: None}',
                                     '{"ok": 3}', '[]'])
def test_a_module_without_a_proper_figures_mapping_stops_the_build(
        book, figures):
    (book / "docs" / "figures" / "thing.py").write_text(
        f"FIGURES = {figures}\n")
    with pytest.raises(PluginError, match="thing.py"):
        hook.draw_all(book / "docs", book / ".cache")


# --- the checks ----------------------------------------------------------------

@pytest.mark.parametrize("narrow", ['{"other": draw_line}',
                                    '{"test-line": 3}'])
def test_a_narrow_drawing_of_no_figure_stops_the_build(book, narrow):
    (book / "docs" / "figures" / "thing.py").write_text(
        FIGURE_MODULE.format(0) + f"NARROW = {narrow}\n")
    with pytest.raises(PluginError, match="thing.py: NARROW"):
        hook.draw_all(book / "docs", book / ".cache")


def test_a_narrow_drawing_is_drawn_by_its_own_function_at_its_size(
        book):
    (book / "docs" / "figures" / "thing.py").write_text(
        FIGURE_MODULE.format(0) + "\n\ndef draw_narrow(figure):\n"
        "    CALLS.append(('narrow', tuple(figure.get_size_inches())))\n"
        "    figure.subplots().plot([0, 1], [1, 0])\n\n\n"
        'NARROW = {"test-line": draw_narrow}\n'
        'NARROW_SIZES = {"test-line": (3.0, 2.5)}\n')
    _, wide, narrow = hook.draw_all(book / "docs", book / ".cache")[
        "test-line"]
    assert 'width="216pt" height="180pt"' in narrow.read_text()
    assert f'width="{hook.SIZE[0] * 72:g}pt"' in wide.read_text()


def test_a_figure_shown_but_not_drawn_stops_a_strict_build():
    with pytest.raises(PluginError) as error:
        hook.check({"her-learning": "docs/figures/matchbox.py"},
                   {"her-learning": ["book/matchbox.md"],
                    "her-lerning": ["book/hexapawn.md"]})
    assert "her-lerning (shown in book/hexapawn.md)" in str(error.value)
    assert "\n" not in str(error.value)


def test_a_figure_drawn_but_never_shown_stops_a_strict_build():
    with pytest.raises(PluginError, match=r"umpire-tables \(drawn by "
                                          r"docs/figures/umpire.py\)"):
        hook.check({"umpire-tables": "docs/figures/umpire.py",
                    "her-learning": "docs/figures/matchbox.py"},
                   {"her-learning": ["book/matchbox.md", "index.md"]})


def test_figures_drawn_and_shown_alike_pass():
    hook.check({"a": "docs/figures/x.py"}, {"a": ["book/x.md"]})
    hook.check({}, {})


def test_a_page_shows_the_figures_of_its_images_and_links_not_its_code():
    markdown = (
        "Prose ![HER's last defeats, over 120 seeds](../figures/a-b.svg)\n"
        "and [the same figure](../figures/c.svg), a `figures/code.svg`,\n\n"
        "```markdown\n![](../figures/example.svg)\n```\n\n"
        "![](figures/bare.svg) ![  ](figures/blank.svg) "
        "![x](notfigures/d.svg)\n")
    shown, bare = hook.figures_shown(markdown)
    assert shown == ["a-b", "c", "bare", "blank"]
    assert bare == ["bare", "blank"]


# --- what the chapters say about their figures ---------------------------------

def test_the_umpire_figure_reads_the_papers_three_tables_and_ours_fall_inside():
    from retro.engines.umpire import standings, tournament
    figure = hook.load(DOCS / "figures" / "umpire.py")
    tables = figure.papers_tables()
    assert [(n, a, b) for n, a, b, _ in tables] == [
        ("1", "seer", "mrm"), ("2", "scp", "seer"), ("3", "scp", "mrm")]
    for _, a, b, paper in tables:
        assert sorted(paper) == [50, 100, 200]
        ours = standings(tournament(a, b, games=figure.GAMES,
                                    plays=tuple(paper), seed=figure.SEED))
        # the chapter: "every one of our nine means falls inside the
        # paper's bars" (1.96 of its standard errors)
        for row in ours:
            mean, error = paper[row.plays]
            assert abs(row.a - mean) < 1.96 * error, (a, b, row)


def test_her_schooling_is_as_the_chapter_describes_its_figures():
    figure = hook.load(DOCS / "figures" / "matchbox.py")
    runs = figure.schoolings()
    lasts = sorted(record.rfind("L") + 1 for record, _ in runs)
    n = len(lasts)
    assert n == len(figure.SEEDS) == 120
    assert 75 <= lasts[n // 2] <= 95                  # "median near 85"
    assert 1 <= sum(last <= 36 for last in lasts) <= n // 10   # "a few"
    assert sum(50 <= last <= 150 for last in lasts) > n / 2    # "most"
    assert lasts[-1] > 200                            # "past two hundred"
    assert all(len(beads) == len(record) + 1 and beads[0] == 47
               for record, beads in runs)
    # each defeat takes one bead; every run ends with 35 to 37 beads
    for record, beads in runs:
        assert beads[-1] == 47 - record.count("L")
        assert 35 <= beads[-1] <= 37


# --- numbers, captions, and type a reader can read ----------------------------

def chapter_number(stem: str) -> int:
    from retro.book.parts import PARTS

    return [name for _, names in PARTS for name in names].index(stem) + 1


FIGURE_HTML = re.compile(
    r'<figure class="book-figure" id="figure-([a-z0-9-]+)">\s*'
    r'<div class="figure-frame"><picture><source [^>]*><img [^>]*>'
    r'</picture></div>\s*'
    r'<figcaption><a href="([^"]*)"><strong>Figure (\d+)\.(\d+)\.</strong></a>'
    r"(.*?)</figcaption>", re.S)


def test_every_figure_is_numbered_by_its_chapter_with_a_caption(site):
    numbered = {}
    for page in sorted((site / "book").glob("*/index.html")):
        html = page.read_text(encoding="utf-8")
        found = FIGURE_HTML.findall(html)
        assert len(found) == len(images(page)), page  # every image a figure
        for place, (name, href, chapter, nth, caption) in enumerate(found, 1):
            assert (int(chapter), int(nth)) == (
                chapter_number(page.parent.name), place), name
            assert href == f"#figure-{name}"
            assert len(caption.split()) >= 12, (name, caption)
            numbered[name] = f"{chapter}.{nth}"
    assert set(numbered) == set(figure_names())
    # the home page gives a figure its chapter's number, linked there
    home = (site / "index.html").read_text(encoding="utf-8")
    shown = FIGURE_HTML.findall(home)
    assert shown
    for name, href, chapter, nth, _ in shown:
        assert f"{chapter}.{nth}" == numbered[name]
        assert href.startswith("book/") and href.endswith(f"/#figure-{name}")


def smallest_type(svg: Path) -> tuple[float, float, float]:
    """An SVG's width in pixels, its viewBox's width, and its smallest
    font size in the viewBox's units."""
    text = svg.read_text(encoding="utf-8")
    width = float(re.search(r'<svg [^>]*width="([\d.]+)pt"', text)[1]) * 4 / 3
    view = float(re.search(r'viewBox="0 0 ([\d.]+)', text)[1])
    return width, view, min(float(size) for size in
                            re.findall(r"font-size: ([\d.]+)px", text))


def test_a_figure_is_never_shown_narrower_than_its_smallest_type_allows(site):
    phone = 400 - hook.GUTTER  # the column of a screen 400 pixels wide
    for svg in sorted((site / "figures").glob("*.svg")):
        _, view, smallest = smallest_type(svg)
        assert hook.legible_size(str(svg)).endswith(
            f'style="min-width: {math.ceil(9 * view / smallest)}px" }}')
        narrow = site / "figures" / "narrow" / svg.name
        thin_width, thin_view, thin_smallest = smallest_type(narrow)
        # the narrow drawing fits a phone's column at its drawn width,
        # with its type 9 pixels high or more
        assert thin_width <= phone and thin_smallest * thin_width / \
            thin_view >= 9, svg.name
        shown = 0
        for page in sorted(site.rglob("index.html")):
            for source, tag in re.findall(
                    rf'<picture>(<source [^>]*>)(<img [^>]*figures/'
                    rf'{svg.name}"[^>]*>)</picture>',
                    page.read_text(encoding="utf-8")):
                shown += 1
                assert f'figures/narrow/{svg.name}"' in source
                # the wide drawing only where the column holds its type
                screen = int(re.search(r"max-width: (\d+)px", source)[1])
                column = screen + 1 - hook.GUTTER
                assert smallest * column / view >= 9, (page, svg.name)
                # and the narrow one never shrunk past its own type
                width = int(re.search(r'min-width: (\d+)px', tag)[1])
                assert thin_smallest * width / thin_view >= 9, (page, svg)
                assert width <= thin_width
        assert shown, svg.name


def test_a_narrow_drawing_too_small_to_read_stops_the_build(tmp_path):
    wide, narrow = tmp_path / "wide.svg", tmp_path / "narrow.svg"
    for svg, size in ((wide, 10), (narrow, 6)):
        svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="270pt" '
                       'height="90pt" viewBox="0 0 270 90"><text style='
                       f'"font-size: {size}px">words</text></svg>')
    assert hook.legible_size(str(wide), str(wide)).endswith(
        'style="min-width: 243px" }')
    with pytest.raises(PluginError, match="narrow drawing"):
        hook.legible_size(str(wide), str(narrow))


def test_the_narrowest_width_is_read_from_the_svg(tmp_path):
    svg = tmp_path / "small.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="360pt" '
                   'height="90pt" viewBox="0 0 360 90"><text style="font-size:'
                   ' 10px">big</text><text style="font-size: 6px">small'
                   '</text></svg>')
    assert hook.legible_size(str(svg)) == (
        '{ width="480" height="120" style="min-width: 540px" }')


class Stub:
    """Just enough of mkdocs's page and files for as_figures."""

    def __init__(self, **fields):
        self.__dict__.update(fields)


def test_an_image_is_set_as_a_numbered_figure_and_its_title_captioned(
        tmp_path):
    svg = tmp_path / "her-learning.svg"
    svg.write_text('<svg width="432pt" height="201.6pt" viewBox="0 0 432 '
                   '201.6"><text style="font-size: 9.5px">x</text></svg>')
    page = Stub(file=Stub(src_uri="book/matchbox.md"))
    files = Stub(get_file_from_path=lambda uri: Stub(abs_src_path=str(svg)))
    config = {"docs_dir": str(DOCS)}
    number = f"{chapter_number('matchbox')}.1"
    titled = hook.as_figures(
        'Before.\n\n![What it\nshows](../figures/her-learning.svg "What a\n'
        'reader reads.")\n\n```markdown\n![x](../figures/her-learning.svg)'
        '\n```\n', page, config, files)
    assert (f'<figcaption markdown="span">[**Figure {number}.**]'
            "(#figure-her-learning) What a reader reads.</figcaption>"
            in titled)
    assert "![What it shows](../figures/her-learning.svg){ width=" in titled
    assert "```markdown\n![x](../figures/her-learning.svg)\n```" in titled
    # without a title, the alt text is the caption; elsewhere, a link home
    page.file.src_uri = "index.md"
    bare = hook.as_figures("![What it shows](figures/her-learning.svg)\n",
                           page, config, files)
    assert (f"[**Figure {number}.**](book/matchbox.md#figure-her-learning) "
            "What it shows</figcaption>" in bare)
