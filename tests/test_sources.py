"""The book's sources: each chapter's "Sources and further reading", and the
bibliography the weave gathers from them (literate/weave.md)."""
from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from hooks import load_hook  # tests/hooks.py

ROOT = Path(__file__).resolve().parent.parent
LITERATE = ROOT / "literate"
HEADING = "## Sources and further reading"


@pytest.fixture(scope="module")
def hook():
    return load_hook("weave")


def game_chapters() -> list[str]:
    from retro.book.parts import PARTS

    return list(PARTS[0][1])


@pytest.mark.parametrize("stem", game_chapters())
def test_every_game_and_machine_chapter_ends_with_its_sources(stem, hook):
    text = (LITERATE / f"{stem}.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## .*$", text, re.MULTILINE)
    assert headings[-1] == HEADING, f"{stem}.md ends with {headings[-1]!r}"
    works = hook.sources(text)
    assert works, f"{stem}.md cites nothing under its sources"
    for work in works:
        # a full citation: an author, a title and a year, or a page's link
        assert hook.YEAR.search(work) or "](http" in work, work
        assert len(work.split()) >= 6, work


def test_a_citation_is_read_whole_and_only_from_its_section(hook):
    text = ("# A chapter\n\n- not a source, 1990\n\n"
            f"{HEADING}\n\nWhat each gives.\n\n"
            "- Penney, Walter. \"Problem 95: Penney-Ante.\" *Journal of\n"
            "  Recreational Mathematics* 2 (1969): 241.\n"
            "- Pyodide. Python in the browser. [pyodide.org](https://pyodide.org/).\n"
            "\n## After\n\n- not a source either, 2001\n")
    assert hook.sources(text) == [
        "Penney, Walter. \"Problem 95: Penney-Ante.\" *Journal of "
        "Recreational Mathematics* 2 (1969): 241.",
        "Pyodide. Python in the browser. [pyodide.org](https://pyodide.org/)."]
    assert hook.work(hook.sources(text)[0]) == ("penney", "1969")
    assert hook.sources("# A chapter without sources\n") == []


def fake_book(hook, texts: dict[str, str]):
    return SimpleNamespace(texts=texts,
                           numbers={stem: n for n, stem in enumerate(texts, 1)},
                           title=lambda stem: stem.title())


def test_the_bibliography_files_each_work_once_with_every_chapter(hook):
    shannon = ('Shannon, Claude E. "A Mind-Reading (?) Machine." Memorandum, '
               "Bell Telephone Laboratories, 18 March 1953.")
    hagelbarger = ('Hagelbarger, D. W. "SEER, A SEquence Extrapolating '
                   'Robot." *IRE Transactions on Electronic Computers* (1956).')
    book = fake_book(hook, {
        "mindreader": f"# M\n\n{HEADING}\n\n- {shannon}\n",
        "seer": f"# S\n\n{HEADING}\n\n- {hagelbarger}\n- {shannon}\n"})
    page = hook.bibliography(book)
    assert "2 in all" in page
    assert page.count("Shannon, Claude E.") == 1
    assert page.index("Hagelbarger") < page.index("Shannon")  # by author
    cited = page.split("Shannon, Claude E.", 1)[1].split("\n- ", 1)[0]
    assert "(../book/mindreader.md#sources-and-further-reading)" in cited
    assert "(../book/seer.md#sources-and-further-reading)" in cited


def test_a_work_cited_in_two_ways_stops_the_build(hook):
    from mkdocs.exceptions import PluginError

    book = fake_book(hook, {
        "mindreader": f"# M\n\n{HEADING}\n\n- Shannon, C. E. Memo, 1953.\n",
        "seer": f"# S\n\n{HEADING}\n\n- Shannon, Claude. Memo, 1953.\n"})
    with pytest.raises(PluginError, match="mindreader.md and .*seer.md cite "
                                          "shannon 1953 in different words"):
        hook.bibliography(book)


def test_the_books_citations_agree_wherever_they_are_cited(hook):
    from retro.book.parts import PARTS

    texts = {stem: (LITERATE / f"{stem}.md").read_text(encoding="utf-8")
             for _, names in PARTS for stem in names}
    works = {hook.work(entry) for text in texts.values()
             for entry in hook.sources(text)}
    page = hook.bibliography(fake_book(hook, texts))  # raises on a mismatch
    assert f"{len(works)} in all" in page and len(works) >= 30
