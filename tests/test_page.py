"""The page's room (literate/page.md), run here by CPython: the paper a page
shows is the paper `retro play GAME --seed N` prints for the same lines, and
the store kept on a page's shelf carries HER's lessons from game to game.

The same games are played in a real browser by tests/test_page_browser.py.
"""
from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from hooks import load_hook as load_hooks_file  # tests/hooks.py
from retro.rooms.page import PageGame, Shelf, seed_asked, visible

ROOT = Path(__file__).resolve().parent.parent

HER_MOVES = ("7-4 8-5 9-6 7-5 8-4 8-6 9-5 4-1 5-2 6-3 4-2 5-1 5-3 6-2 "
             "n").split()
# Lines that play one whole game of each, to its end, whatever the seed:
# the moves come round until one is legal, and "n" ends the sitting.
WHOLE_GAMES = {
    "mindreader": ["h"] * 100,
    "flip": ["n"] * 120,
    "hexapawn": HER_MOVES * 12,
    "penney": ["y", "HTH", "10", "q"],
}


def terminal(game: str, seed: int, lines: list[str], home: Path) -> str:
    """What `retro play GAME --seed N` prints with `lines` piped in."""
    done = subprocess.run(
        [sys.executable, "-m", "retro", "play", game, "--seed", str(seed)],
        cwd=ROOT, timeout=120, input="".join(f"{line}\n" for line in lines),
        capture_output=True, text=True,
        env={**os.environ, "RETRO_HOME": str(home)})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


class Drawer:
    """A shelf's two functions over a dict, as the browser's storage is."""

    def __init__(self, refuse: bool = False):
        self.kept: dict[str, str] = {}
        self.refuse = refuse
        self.keeps = 0

    def load(self):
        return self.kept.get("store")

    def keep(self, text: str) -> bool:
        self.keeps += 1
        if self.refuse:
            return False
        self.kept["store"] = text
        return True

    def shelf(self) -> Shelf:
        return Shelf(self.load, self.keep)


def in_the_page(game: str, seed: int, lines: list[str],
                drawer: Drawer) -> tuple[str, str]:
    """The paper a page shows for `lines` typed, and how the game ended."""
    paper: list[str] = []

    async def sit() -> str:
        page = PageGame(game, paper.append, drawer.shelf())
        playing = page.play(str(seed))
        for line in lines:  # typed ahead, as a paste of many lines is
            page.hear(line)
        return await playing

    ending = asyncio.run(sit())
    return "".join(paper), ending


@pytest.mark.parametrize("game", WHOLE_GAMES)
def test_a_whole_game_in_the_page_is_the_terminals_game(game, tmp_path):
    seed = 20 + len(game)
    lines = WHOLE_GAMES[game]
    paper, ending = in_the_page(game, seed, lines, Drawer())
    printed = terminal(game, seed, lines, tmp_path)
    assert ending == "over"
    assert "ABANDONED" not in printed
    assert paper.splitlines() == printed.splitlines()


def test_her_remembers_what_the_shelf_kept(tmp_path):
    drawer = Drawer()
    first, _ = in_the_page("hexapawn", 2, WHOLE_GAMES["hexapawn"], drawer)
    second, _ = in_the_page("hexapawn", 3, WHOLE_GAMES["hexapawn"], drawer)
    terminal("hexapawn", 2, WHOLE_GAMES["hexapawn"], tmp_path)
    assert second == terminal("hexapawn", 3, WHOLE_GAMES["hexapawn"],
                              tmp_path)
    fresh, _ = in_the_page("hexapawn", 3, WHOLE_GAMES["hexapawn"], Drawer())
    assert fresh != second  # she played the second game with her lessons


def test_a_game_that_changes_nothing_keeps_nothing():
    drawer = Drawer()
    in_the_page("hexapawn", 2, WHOLE_GAMES["hexapawn"], drawer)
    keeps = drawer.keeps
    assert keeps >= 1
    paper, ending = in_the_page("hexapawn", 2, ["quit"], drawer)
    assert ending == "left" and "ABANDONED" in paper
    assert drawer.keeps == keeps


@pytest.mark.parametrize("kept", ["not base64 at all!",
                                  "bm90IGEgZGF0YWJhc2U="])
def test_a_damaged_shelf_is_said_and_a_fresh_store_started(kept, tmp_path):
    drawer = Drawer()
    drawer.kept["store"] = kept
    lines = WHOLE_GAMES["penney"]
    paper, ending = in_the_page("penney", 5, lines, drawer)
    said, _, rest = paper.partition("\n")
    assert said == ("The store kept in this browser was damaged; a fresh one "
                    "is started.")
    assert rest.splitlines() == terminal("penney", 5, lines,
                                         tmp_path).splitlines()
    assert drawer.kept["store"] != kept  # the fresh store, kept in its place


def test_a_browser_that_will_not_keep_is_told_once(tmp_path):
    drawer = Drawer(refuse=True)
    paper, ending = in_the_page("hexapawn", 2, WHOLE_GAMES["hexapawn"] * 2,
                                drawer)
    assert ending == "over"
    assert paper.count("NOT SAVED: this browser would not keep the store") == 1
    assert "store" not in drawer.kept


def terminal_says(seed: str) -> tuple[int | None, str]:
    """What `retro play mindreader --seed SEED` makes of the seed: the
    seed taken (or None), and its one line of refusal (or "")."""
    done = subprocess.run(
        [sys.executable, "-m", "retro", "play", "mindreader", "--seed", seed],
        cwd=ROOT, timeout=60, input="", capture_output=True, text=True,
        env={**os.environ, "RETRO_HOME": "/nonexistent/retro-seed-test"})
    if done.returncode == 0:
        return int(seed), ""
    return None, done.stderr.strip()


@pytest.mark.parametrize("asked", [
    "12", " 7 ", "0", str(10 ** 18 - 1), str(2 ** 63 - 1), str(2 ** 63),
    "1" * 20, "", "x", "abc", "-3", "-5", "1e9", "1e3", "3.5", "\u0663",
    "12 13"])
def test_the_address_takes_the_seed_the_terminal_takes(asked):
    seed, refusal = seed_asked("mindreader", asked)
    taken, said = terminal_says(asked)
    if taken is not None:
        assert (seed, refusal) == (str(taken), None)
    else:
        assert seed is None
        assert said.startswith(refusal + "; try "), (said, refusal)


def test_no_seed_asked_gives_a_fresh_one_each_time():
    seeds = {seed_asked("flip", None)[0] for _ in range(20)}
    assert len(seeds) > 1 and all(seed.isdigit() for seed in seeds)


def test_invisible_and_direction_marks_are_dropped_from_a_line():
    typed = "\u200bh\u202e\u2066t\u2069\ufeff\u200f"
    assert visible(typed) == "ht"
    assert visible("caf\u00e9 \u4e00") == "caf\u00e9 \u4e00"
    paper, _ = in_the_page("mindreader", 7, [typed[:2]] + ["h"] * 99,
                           Drawer())
    assert "\u200b" not in paper
    assert paper.splitlines() == in_the_page(
        "mindreader", 7, ["h"] * 100, Drawer())[0].splitlines()


@pytest.mark.parametrize("columns", [44, 56])
def test_the_paper_folds_at_the_panels_width(columns):
    paper: list[str] = []

    async def sit() -> str:
        page = PageGame("hexapawn", paper.append, Drawer().shelf(),
                        columns=columns)
        playing = page.play("3")
        for line in WHOLE_GAMES["hexapawn"]:
            page.hear(line)
        return await playing

    assert asyncio.run(sit()) == "over"
    lines = "".join(paper).splitlines()
    assert max(len(line) for line in lines) <= columns
    wide, _ = in_the_page("hexapawn", 3, WHOLE_GAMES["hexapawn"], Drawer())
    assert max(len(line) for line in wide.splitlines()) > columns


def load_hook():
    """docs/hooks/page.py, the build's hook, as mkdocs loads it."""
    return load_hooks_file("page")


def test_retros_wheel_holds_the_tree_and_a_true_record():
    import base64
    import hashlib
    import io
    import zipfile

    from retro import __version__

    hook = load_hook()
    name, packed = hook.retro_wheel(ROOT)
    assert name == f"retro-{__version__}-py3-none-any.whl"
    assert hook.retro_wheel(ROOT)[1] == packed  # the same tree, the same bytes
    archive = zipfile.ZipFile(io.BytesIO(packed))
    info = f"retro-{__version__}.dist-info"
    modules = {path.relative_to(ROOT).as_posix()
               for path in (ROOT / "retro").rglob("*.py")}
    assert set(archive.namelist()) == modules | {
        f"{info}/{part}" for part in ("METADATA", "WHEEL", "RECORD")}
    for path in modules:
        assert archive.read(path) == (ROOT / path).read_bytes()
    record = archive.read(f"{info}/RECORD").decode().splitlines()
    assert len(record) == len(archive.namelist())
    for line in record:
        path, hashed, size = line.rsplit(",", 2)
        if path.endswith("RECORD"):
            assert hashed == size == ""
            continue
        data = archive.read(path)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
        assert hashed == "sha256=" + digest.rstrip(b"=").decode()
        assert int(size) == len(data)


def test_wcwidths_wheel_is_the_installed_package():
    import importlib.metadata
    import io
    import zipfile

    import wcwidth

    name, packed = load_hook().installed_wheel("wcwidth")
    version = importlib.metadata.version("wcwidth")
    assert name == f"wcwidth-{version}-py3-none-any.whl"
    archive = zipfile.ZipFile(io.BytesIO(packed))
    package = Path(wcwidth.__file__).parent
    assert archive.read("wcwidth/__init__.py") == \
        (package / "__init__.py").read_bytes()
    assert not [path for path in archive.namelist() if "__pycache__" in path]


class Elements(HTMLParser):
    """Each element of some markup, as (tag, classes, attributes named)."""

    def __init__(self, markup: str):
        super().__init__()
        self.found: list[tuple[str, str, tuple[str, ...]]] = []
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        named = dict(attrs)
        self.found.append((tag, " ".join(named.get("class", "").split()),
                           tuple(sorted(name for name in named
                                        if not name.startswith("data-")
                                        and name not in ("class", "title")))))


RECORDS = ("retro-keeping", "retro-export", "retro-import", "retro-file",
           "retro-forget")


def test_the_rooms_panel_and_the_books_are_one_markup():
    """The door's panel carries every element of a chapter's, in the same
    order, less the records' buttons; and every element the script finds
    by its class is in the chapter's."""
    from retro.games.registry import game_called
    from retro.wires.web import PAGE

    book = Elements(load_hook().panel(game_called("flip"), "../", [])).found
    door = Elements(PAGE[PAGE.index('<div class="retro-page"'):
                         PAGE.index("</main>")]).found
    panel = [element for element in book if element[0] not in (
        "link", "script")]
    assert door == [element for element in panel
                    if not any(name in element[1] for name in RECORDS)]
    assert len(door) == 10 and len(panel) == 15
    script = (ROOT / "retro" / "wires" / "page.js").read_text()
    found = set(re.findall(r'find\("\.(retro-[a-z]+)"\)', script))
    assert len(found) == 11
    assert found <= {name for _, classes, _ in panel
                     for name in classes.split()}
