"""The house: floors that import only downwards, and one registry of games."""
from __future__ import annotations

import ast
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from retro import cli
from retro.book.parts import PARTS
from retro.common import new_seed, next_seed, number_in, plural, quoted
from retro.games import registry
from retro.games.contract import FrontEnd

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "retro"

# What each floor of the package may import of Retro (prefixes of names),
# as literate/house.md's table of the layout says.
ALLOWED = {
    "retro.common": (),
    "retro.engines": ("retro.engines", "retro.common"),
    "retro.services": ("retro.common", "retro.services"),
    "retro.games": ("retro.engines", "retro.common", "retro.services",
                    "retro.games"),
    "retro.wires": ("retro.common", "retro.wires"),
    "retro.rooms": ("retro.common", "retro.games", "retro.services",
                    "retro.rooms", "retro.wires"),
    "retro.commands": ("retro.engines", "retro.common", "retro.services",
                       "retro.games"),
    "retro.book": (),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module of Retro that `path` imports, at the top or in a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.startswith("retro.")}


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_imports_point_only_down(path):
    name = module_name(path)
    rule = next((ALLOWED[prefix] for prefix in sorted(ALLOWED, key=len, reverse=True)
                 if name == prefix or name.startswith(prefix + ".")), None)
    if rule is None:
        assert name in {"retro", "retro.cli", "retro.__main__"}, \
            f"{name} is on no floor"
        return
    for imported in imports_of(path):
        assert imported.startswith(rule) or imported == "retro.__version__", \
            f"{name} imports {imported}"


def imported_on_loading(path: Path) -> set[str]:
    """The modules of Retro that loading `path` loads: its imports at the
    top level (not those in functions, or for a type checker only)."""
    names = {module_name(module) for module in MODULES}
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.update(f"{node.module}.{alias.name}"
                         if f"{node.module}.{alias.name}" in names
                         else node.module for alias in node.names)
    return found & names


def test_no_module_imports_itself_round_a_circle():
    loads = {module_name(path): imported_on_loading(path) for path in MODULES}
    assert "retro.services.teletype.paper" in loads["retro.services.teletype"]

    def circle_from(name: str, trail: tuple[str, ...]) -> tuple[str, ...]:
        if name in trail:
            return trail[trail.index(name):] + (name,)
        for imported in sorted(loads.get(name, ())):
            found = circle_from(imported, trail + (name,))
            if found:
                return found
        return ()

    for name in sorted(loads):
        assert not circle_from(name, ()), " -> ".join(circle_from(name, ()))


# A teletype's insides: what it keeps for itself, not what a host may use.
INSIDES = re.compile(r"\btty\.(?:_\w+|lines|pace|reading|interrupted|roll|"
                     r"carriage|printing|pausing|listening|typed|ended)\b"
                     r"|\b_(?:keep|print|strike|type|fold)\b")


@pytest.mark.parametrize("path", [
    path for path in MODULES if "services" not in path.parts],
    ids=lambda p: module_name(p))
def test_no_host_reaches_into_a_teletype(path):
    reaching = [f"{path.name}:{number}: {line.strip()}" for number, line
                in enumerate(path.read_text().splitlines(), 1)
                if INSIDES.search(line)]
    assert not reaching


def test_nothing_imports_the_command_line_but_the_entry_point():
    users = [module_name(p) for p in MODULES if any(
        i.startswith("retro.cli") for i in imports_of(p))]
    assert users == ["retro.__main__"]


def test_the_games_are_listed_in_one_place():
    names = [game.name for game in registry.GAMES]
    pattern = re.compile("|".join(rf"[\"']{name}[\"']" for name in names))
    for path in MODULES:
        if path.name in ("registry.py", "parts.py"):  # parts: chapters
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            assert len(pattern.findall(line)) < 2, f"{path}:{number}: {line}"
    mkdocs = (ROOT / "mkdocs.yml").read_text()
    assert not re.search(r"^\s*- (book/)?mindreader", mkdocs, re.M)


def test_every_game_and_command_in_the_registry_is_there():
    for game in registry.GAMES:
        front_end = game.front_end()
        assert isinstance(front_end, FrontEnd), game.name
        assert inspect.iscoroutinefunction(front_end.play), game.name
        for command in front_end.commands:
            assert inspect.iscoroutinefunction(command.action), command
            assert command.about.endswith("."), command
        assert registry.game_called(game.title) is game
        for alias in game.aliases:
            assert registry.game_called(alias) is game
    import argparse
    for command in cli.COMMANDS:
        parser = argparse.ArgumentParser()
        command.register(parser.add_subparsers())
        assert command.name in parser.format_help(), command.name
    chapters = {p.stem for p in (ROOT / "literate").glob("*.md")}
    placed = [name for _, names in PARTS for name in names]
    assert sorted(placed) == sorted(chapters)


def test_no_module_is_found_by_a_computed_name():
    """A reader follows a play from the prompt to the engine by reading."""
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                called = ast.unparse(node.func)
                assert called not in ("importlib.import_module",
                                      "import_module", "__import__"), \
                    f"{path}:{node.lineno}: {ast.unparse(node)}"


def test_a_name_means_one_thing():
    """No game answers to a machine's name, but Flip, which is both."""
    from retro.engines.entrants import MACHINES

    for game in registry.GAMES:
        for name in (game.name, *game.aliases):
            assert name not in MACHINES or name == "flip" == game.name, name


def test_retro_play_mrm_does_not_play_awk(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "retro", "play", "mrm", "--seed", "1"],
        capture_output=True, text=True, cwd=ROOT, input="h\n",
        env={**__import__("os").environ, "RETRO_HOME": str(tmp_path)})
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == ('retro: "mrm" is a machine, not a game; to face '
                             'it, type: retro play mindreader --opponent '
                             'mrm\n')


def test_titles_are_the_registrys_alone():
    for path in MODULES:
        assert not re.search(r"^TITLE\s*=", path.read_text(), re.M), path


def test_retro_help_imports_no_game():
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "retro", "--help"],
        capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0
    imported = re.findall(r"\|\s+(retro\.\S+)", result.stderr)
    assert imported and not [m for m in imported if m.startswith(
        ("retro.engines", "retro.rooms", "retro.services", "retro.commands",
         "retro.wires")) or m.startswith("retro.games.") and m not in (
        "retro.games.registry", "retro.games.contract")]
    for command in cli.COMMANDS:
        assert command.name in result.stdout


# -- the shared helpers -------------------------------------------------------

@given(st.text(max_size=40))
def test_a_game_is_called_by_its_number_only_in_ascii_digits(text):
    game = registry.game_called(text)  # never an exception, whatever the text
    digits = "".join(char for char in text if char.isalnum())
    if game is not None and digits.isdigit():
        assert digits.isascii()
        assert registry.GAMES[int(digits) - 1] is game


def test_a_game_is_called_by_its_number_in_the_menu():
    for number, game in enumerate(registry.GAMES, 1):
        assert registry.game_called(str(number)) is game
        assert registry.game_called(f" {number} ") is game
    for text in ("0", str(len(registry.GAMES) + 1), "\u00b2", "\u2463",
                 "\u0663", "1" * 4301, "-1"):
        assert registry.game_called(text) is None, text


@pytest.mark.parametrize("count, words, said", [
    (1, ("game",), "1 game"), (2, ("game",), "2 games"),
    (0, ("game",), "0 games"), (0, ("GAME",), "0 GAMES"),
    (1, ("BEAD",), "1 BEAD"), (47, ("BEAD",), "47 BEADS"),
    (19, ("MATCHBOX", "MATCHBOXES"), "19 MATCHBOXES"),
    (1, ("MATCHBOX", "MATCHBOXES"), "1 MATCHBOX"),
])
def test_plural_counts_in_words(count, words, said):
    assert plural(count, *words) == said


@given(st.integers(0, 10 ** 6), st.text(alphabet="abcxyzAXYZ", min_size=1,
                                          max_size=8))
def test_only_one_of_a_thing_is_said_without_a_plural(count, word):
    said = plural(count, word)
    assert said.startswith(f"{count} {word}")
    assert (said == f"{count} {word}") == (count == 1)


def test_plural_of_a_word_with_its_own_plural():
    assert plural(1, "penny", "pennies") == "1 penny"
    assert plural(0, "penny", "pennies") == "0 pennies"
    assert plural(0, "GAME") == "0 GAMES"


@given(st.integers(0, 2 ** 63 - 1))
def test_the_next_seed_depends_on_the_last_alone(seed):
    following = next_seed(seed)
    assert following == next_seed(seed)
    assert 0 <= following < 2 ** 32
    assert following != seed or next_seed(following) != following


def test_the_seeds_of_a_sitting_differ():
    seeds = [new_seed(__import__("random").Random(1))]
    for _ in range(1000):
        seeds.append(next_seed(seeds[-1]))
    assert len(set(seeds)) == len(seeds)


@given(st.text())
def test_typed_text_is_a_number_only_in_ascii_digits(text):
    number = number_in(text)
    assert number is None or text.strip().isascii()
    assert len(quoted(text)) <= 25


def test_the_linter_finds_nothing():
    """`ruff check` (pyflakes' mistakes, PEP 8's blank lines) over the whole
    project, tangled modules and tests alike, as pyproject.toml selects."""
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "."],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


# one planted fault for each of PEP 8's blank-line rules (ruff's E301-E306)
BLANK_LINE_FAULTS = {
    "E301": "class A:\n    x = 1\n    def a(self):\n        pass\n",
    "E302": "x = 1\ndef a():\n    pass\n",
    "E303": "x = 1\n\n\n\ny = 2\n",
    "E304": "def d(f):\n    return f\n\n\n@d\n\ndef a():\n    pass\n",
    "E305": "def a():\n    pass\nx = 1\n",
    "E306": "def a():\n    x = 1\n    def b():\n        pass\n    return x, b\n",
}


@pytest.mark.parametrize("code", sorted(BLANK_LINE_FAULTS))
def test_the_linter_checks_each_blank_line_rule(code):
    """The blank-line rules are preview rules, on only when selected by
    name: each finds its planted fault under the project's own settings."""
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--output-format", "json",
         "--stdin-filename", "planted.py", "-"],
        input=BLANK_LINE_FAULTS[code], capture_output=True, text=True,
        cwd=ROOT)
    assert [found["code"] for found in json.loads(result.stdout)] == [code]


def test_each_game_declares_its_options_once_for_every_host():
    """`retro play`'s parser, the room and a page of the book all take a
    game's options from its declarations, and agree with its `play`."""
    import argparse

    from retro.games.contract import add_options, defaults, in_the_room, typed

    for game in registry.GAMES:
        front_end = game.front_end()
        parser = argparse.ArgumentParser()
        add_options(parser, front_end.options)
        untyped = vars(parser.parse_args([]))
        assert untyped == {keyword: value for keyword, value
                           in defaults(front_end).items()
                           if keyword in typed(front_end.options)}
        keywords = inspect.signature(front_end.play).parameters
        for keyword, value in defaults(front_end).items():
            assert keywords[keyword].default == value, (game.name, keyword)
        room = in_the_room(front_end)
        changed = {k for k in room if room[k] != defaults(front_end)[k]}
        assert changed == ({"ask_opponent"} if game.name == "mindreader"
                           else set()), game.name
