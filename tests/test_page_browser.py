"""The games in their pages, played in headless Chromium (literate/page.md).

For each game's chapter and the home page: a visit that only reads asks
for no part of the runtime; Play loads it from the site; a whole game typed
(the first line at the keyboard, the rest pasted) leaves on the page's
paper what `retro play GAME --seed N` prints for the same lines. HER's
matchboxes outlive a reload and are forgotten when asked; Ctrl-C abandons a
game; the arrows bring back the lines typed. No page writes a console
error or asks another host for anything.

The site must have been built after `npm ci`; without the runtime in it
these tests are skipped with that reason (and CI, with RETRO_NO_SKIPS=1,
counts the skip as a failure).
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

import browser as b  # tests/browser.py, beside this file
from test_page import WHOLE_GAMES, terminal

MISSING = b.missing_browser()
pytestmark = [pytest.mark.book,
              pytest.mark.skipif(MISSING is not None, reason=MISSING or "")]

PAGES = {"/": "mindreader", "/book/mindreader/": "mindreader",
         "/book/flip/": "flip", "/book/hexapawn/": "hexapawn",
         "/book/penney/": "penney"}
RUNTIME = ("/pyodide/", "/wheels/")  # what only Play may fetch
LOADING = 60_000  # ms: Python's first load on a busy machine, at the most
ADDED = 50_000  # bytes a page that is only read may carry for its panel


@pytest.fixture(scope="module")
def base(site):
    if not (site / "pyodide" / "pyodide.asm.wasm").is_file():
        pytest.skip("the site was built without Pyodide: run `npm ci`, "
                    "then build it again")
    with b.serve(site) as address:
        yield address


@pytest.fixture(scope="module")
def chromium():
    with b.chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def reader(base, chromium):
    """One browser context for the games, so that Python, once loaded
    into its cache, loads quickly for the games after the first."""
    reading = b.Reader(chromium, base, 1280, search=False)
    reading.context.set_default_timeout(LOADING)
    yield reading
    reading.close()


RECORDS = """(act) => new Promise((done, failed) => {
    const opening = indexedDB.open('retro', 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore('shelf');
    opening.onerror = () => failed(opening.error);
    opening.onsuccess = () => {
        const records = opening.result;
        const doing = records.transaction('shelf', 'readwrite');
        const table = doing.objectStore('shelf');
        const asked = act === 'clear' ? table.clear() : table.get('store');
        doing.oncomplete = () => {
            records.close();
            done(asked.result ?? null);
        };
        doing.onabort = () => failed(doing.error);
    };
})"""


def clear_records(page) -> None:
    """Forget the records the browser keeps for the book, as a fresh
    browser has none (the page keeps them in IndexedDB)."""
    page.evaluate(RECORDS, "clear")


def kept_records(page) -> str | None:
    """The store the browser keeps for the book, as base64 text; None."""
    return page.evaluate(RECORDS, "read")


def press_play(page) -> None:
    page.click("button.retro-play")
    page.wait_for_selector(".retro-line", state="visible")


def paper(page) -> str:
    return page.text_content(".retro-paper")


def type_lines(page, lines: list[str]) -> None:
    """The first line typed and sent with Enter; the others pasted at once,
    one to a line, as a reader pastes a list of answers."""
    page.fill(".retro-line", lines[0])
    page.press(".retro-line", "Enter")
    if lines[1:]:
        page.evaluate("""(text) => {
            const line = document.querySelector('.retro-line');
            const data = new DataTransfer();
            data.setData('text/plain', text);
            line.dispatchEvent(new ClipboardEvent('paste', {
                clipboardData: data, bubbles: true, cancelable: true}));
        }""", "\n".join(lines[1:]) + "\n")


def play_whole_game(page, lines: list[str]) -> str:
    """Play, wait for the first question, type `lines`, wait for the end;
    the paper."""
    press_play(page)
    page.wait_for_function(
        "document.querySelector('.retro-paper').textContent.includes('?')")
    type_lines(page, lines)
    page.wait_for_function(
        "document.querySelector('.retro-play').disabled === false")
    return paper(page)


@pytest.mark.parametrize("path", PAGES)
def test_a_whole_game_in_its_page_is_the_terminals(path, reader, tmp_path):
    game, seed = PAGES[path], 30 + len(path)
    page = reader.visit(f"{path}?seed={seed}")
    clear_records(page)
    before = len(reader.requests)
    shown = play_whole_game(page, WHOLE_GAMES[game])
    printed = terminal(game, seed, WHOLE_GAMES[game], tmp_path)
    assert "ABANDONED" not in printed
    assert shown.splitlines() == printed.splitlines()
    assert page.text_content(".retro-status") == "The game is over."
    command = f"retro play {game} --seed {seed}"
    assert page.text_content(".retro-seed") == (
        f"Game 1, seed {seed}. The same game at a terminal: {command}"
        if game != "hexapawn" else  # HER learns: her game has a number
        f"Game 1, seed {seed}. The same game at a terminal, with this "
        "browser's records (Export them into a folder, then "
        f"RETRO_HOME=that folder): {command} --from 1")
    assert page.text_content("button.retro-play") == "Play again"
    fetched = [url for _, url in reader.requests[before:]]
    assert any("/pyodide/pyodide.asm.wasm" in url for url in fetched)
    assert any("/wheels/retro-" in url for url in fetched)


def test_her_remembers_across_a_reload_until_forgotten(reader, tmp_path):
    her, lines = "/book/hexapawn/", WHOLE_GAMES["hexapawn"]
    page = reader.visit(f"{her}?seed=2")
    clear_records(page)
    first = play_whole_game(page, lines)
    assert first.splitlines() == terminal("hexapawn", 2, lines,
                                          tmp_path).splitlines()
    page = reader.visit(f"{her}?seed=3")  # a reload: Python starts afresh
    taught = play_whole_game(page, lines)
    assert taught.splitlines() == terminal("hexapawn", 3, lines,
                                           tmp_path).splitlines()
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button.retro-forget")
    page.wait_for_function("document.querySelector('.retro-status')"
                           ".textContent.startsWith('Forgotten:')")
    page = reader.visit(f"{her}?seed=3")
    untaught = play_whole_game(page, lines)
    assert untaught.splitlines() == terminal(
        "hexapawn", 3, lines, tmp_path / "fresh").splitlines()
    assert untaught != taught


def test_records_an_earlier_book_kept_in_local_storage_move_across(reader):
    page = reader.visit("/book/hexapawn/?seed=2")
    clear_records(page)
    play_whole_game(page, WHOLE_GAMES["hexapawn"])
    kept = kept_records(page)
    clear_records(page)  # as a browser of the earlier book has none there
    page.evaluate("(kept) => localStorage.setItem('retro.store', kept)", kept)
    page = reader.visit("/book/hexapawn/?seed=3")
    assert "HER HAS PLAYED 1 GAME" in play_whole_game(
        page, WHOLE_GAMES["hexapawn"])
    assert kept_records(page) not in (None, kept)  # kept where the book
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button.retro-forget")
    page.wait_for_function("document.querySelector('.retro-status')"
                           ".textContent.startsWith('Forgotten:')")
    assert kept_records(page) is None
    assert page.evaluate("localStorage.getItem('retro.store')") is None


def test_ctrl_c_abandons_the_game_and_the_arrows_bring_lines_back(reader):
    page = reader.visit("/book/mindreader/?seed=4")
    press_play(page)
    for line in ("h", "t"):
        page.fill(".retro-line", line)
        page.press(".retro-line", "Enter")
    page.wait_for_function(
        "document.querySelector('.retro-paper').textContent"
        ".split('\\n').filter(l => l.startsWith('You played')).length === 2")
    page.press(".retro-line", "ArrowUp")
    assert page.input_value(".retro-line") == "t"
    page.press(".retro-line", "ArrowUp")
    assert page.input_value(".retro-line") == "h"
    page.press(".retro-line", "ArrowDown")
    assert page.input_value(".retro-line") == "t"
    page.fill(".retro-line", "")
    page.press(".retro-line", "Control+c")
    page.wait_for_function(
        "document.querySelector('.retro-play').disabled === false")
    assert paper(page).rstrip().endswith("*** GAME ABANDONED ***")
    assert page.text_content(".retro-status") == "The game was left."
    press_play(page)  # the next game starts clean: no Ctrl-C left over
    page.wait_for_function(
        "document.querySelector('.retro-seed').textContent"
        ".startsWith('Game 2')")
    page.fill(".retro-line", "h")
    page.press(".retro-line", "Enter")
    page.wait_for_function(
        "document.querySelector('.retro-paper').textContent"
        ".split('\\n').filter(l => l.startsWith('You played')).length === 3")
    assert "seed 4." not in page.text_content(".retro-seed")  # a fresh seed


def test_a_runtime_that_will_not_load_is_said_and_play_offered_again(
        base, chromium):
    reading = b.Reader(chromium, base, 1280, search=False)
    reading.context.route("**/pyodide/pyodide.mjs",
                          lambda route: route.fulfill(status=404))
    try:
        page = reading.visit("/book/flip/")
        page.click("button.retro-play")
        page.wait_for_function(
            "document.querySelector('.retro-play').disabled === false")
        assert page.text_content(".retro-status").startswith(
            "Python could not be started: ")
        assert page.text_content("button.retro-play") == "Play again"
        assert not page.is_visible(".retro-typing")
    finally:
        reading.close()


def test_a_snapshot_that_will_not_load_is_replaced(base, chromium):
    reading = b.Reader(chromium, base, 1280, search=False)
    reading.context.set_default_timeout(LOADING)
    try:
        page = reading.visit("/book/penney/")
        page.evaluate("""async () => {
            const { version } = await import('/pyodide/pyodide.mjs');
            const key = `${location.origin}/pyodide/started-${version}`;
            const kept = await caches.open('retro-python');
            await kept.put(key, new Response(new Uint8Array(4096)));
        }""")
        press_play(page)
        page.wait_for_function(
            "document.querySelector('.retro-paper').textContent"
            ".includes('pick first?')")
        size = page.wait_for_function("""async () => {
            const kept = await caches.open('retro-python');
            const [key] = await kept.keys();
            const size = (await (await kept.match(key)).arrayBuffer())
              .byteLength;
            return size > 4096 ? size : null;
        }""").json_value()
        assert size > 1_000_000  # a whole interpreter's memory, kept anew
    finally:
        reading.close()


FIRST_QUESTION = ("document.querySelector('.retro-paper').textContent"
                  ".includes('?')")
WATCH_LONG_TASKS = """() => {
    window.longTasks = [];
    new PerformanceObserver((found) => {
        for (const task of found.getEntries()) {
            window.longTasks.push(Math.round(task.duration));
        }
    }).observe({ type: 'longtask' });
}"""


FROZEN = 1000  # ms: a task the reader would take for a page that froze


def start_and_type_at_once(page) -> list[int]:
    """Play pressed and two lines typed at once, before Python has
    started; the long tasks on the page's thread until the first question
    (in ms)."""
    page.evaluate(WATCH_LONG_TASKS)
    page.click("button.retro-play")
    for typed in ("7-4", "8-5"):
        page.fill(".retro-line", typed)
        page.press(".retro-line", "Enter")
    page.wait_for_function(FIRST_QUESTION)
    return page.evaluate("window.longTasks")


def test_python_starts_beside_the_page_and_lines_typed_at_once_are_kept(
        base, chromium, tmp_path):
    reading = b.Reader(chromium, base, 1280, search=False)
    reading.context.set_default_timeout(LOADING)
    try:
        for start in ("cold", "warm"):
            page = reading.visit("/book/hexapawn/?seed=3")
            clear_records(page)
            page.wait_for_load_state("networkidle")
            long_tasks = start_and_type_at_once(page)
            # Python is the worker's: the page never loads it, and never
            # freezes as it did (6 to 15 s) when it ran Python itself. The
            # 200 ms figure is a quiet machine's: benchmarks/page.py.
            assert page.evaluate("typeof loadPyodide") == "undefined", start
            assert [task for task in long_tasks if task > FROZEN] == [], start
            page.wait_for_function(
                "document.querySelector('.retro-paper').textContent"
                ".split('YOUR MOVE?').length === 4")  # two answered
            printed = terminal("hexapawn", 3, ["7-4", "8-5"], tmp_path / start)
            assert paper(page).splitlines() == \
                printed.splitlines()[:len(paper(page).splitlines())]
            assert "YOUR MOVE? 7-4" in paper(page) and "8-5" in paper(page)
        assert reading.errors == []
    finally:
        reading.close()


STALLED_FOR = 20_000  # ms: the page's own limit, page.js's STALL


def refused_start(base, chromium, answer) -> tuple[str, bool]:
    """Play pressed in a browser whose requests for the runtime's
    WebAssembly get `answer`; the status line once Play is offered again,
    and whether the line to type in is hidden."""
    reading = b.Reader(chromium, base, 1280, search=False)
    asked = []

    def wasm(route):
        asked.append(route)
        answer(route)

    reading.context.route("**/pyodide/pyodide.asm.wasm", wasm)
    try:
        page = reading.visit("/book/flip/")
        page.clock.install()
        page.click("button.retro-play")
        page.wait_for_function("document.querySelector('.retro-status')"
                               ".textContent.startsWith('Loading Python:')",
                               timeout=LOADING)
        page.wait_for_timeout(200)  # the refusal, if any, on its way
        for _ in range(5):
            if not page.is_disabled("button.retro-play"):
                break
            page.clock.run_for(STALLED_FOR // 4)
        assert asked, "the runtime's WebAssembly was never asked for"
        page.wait_for_function(
            "document.querySelector('.retro-play').disabled === false")
        status = page.text_content(".retro-status")
        assert page.text_content("button.retro-play") == "Play again"
        return status, page.is_hidden(".retro-typing")
    finally:
        reading.close()


def test_a_webassembly_refused_is_said_in_one_line_and_play_offered(
        base, chromium):
    status, hidden = refused_start(base, chromium,
                                   lambda route: route.fulfill(status=404))
    assert status == ("Python could not be started: pyodide.asm.wasm: "
                      "the site answered 404")
    assert hidden


def test_a_webassembly_that_never_comes_is_said_within_25_seconds(
        base, chromium):
    status, hidden = refused_start(base, chromium, lambda route: None)
    assert status == "Python could not be started: nothing came for 20 s"
    assert STALLED_FOR <= 25_000 and hidden


def test_a_double_click_on_play_forgets_nothing_and_forget_asks(reader):
    page = reader.visit("/book/hexapawn/?seed=2")
    clear_records(page)
    play_whole_game(page, WHOLE_GAMES["hexapawn"])
    kept = kept_records(page)
    assert kept
    asked, agree = [], [False]  # what Forget asked; whether to agree

    def answer(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept() if agree[0] else dialog.dismiss()

    page.on("dialog", answer)
    for _ in range(2):  # on Play, then on Play again
        page = reader.visit("/book/hexapawn/")
        page.dblclick("button.retro-play")
        page.wait_for_function(FIRST_QUESTION)
        page.fill(".retro-line", "quit")
        page.press(".retro-line", "Enter")
        page.wait_for_function(
            "document.querySelector('.retro-play').disabled === false")
        page.dblclick("button.retro-play")  # Play again
        page.wait_for_function(
            "document.querySelector('.retro-paper').textContent"
            ".split('HER HAS PLAYED 1 GAME').length === 3")
        assert page.text_content(".retro-seed").startswith("Game 2")
        assert asked == []
        page.press(".retro-line", "Control+c")
        page.wait_for_function(
            "document.querySelector('.retro-play').disabled === false")
        assert kept_records(page) == kept
    page.click("button.retro-forget")
    assert "HER's matchboxes" in asked[0] and "31 MB" in asked[0]
    assert kept_records(page) == kept
    agree[0] = True
    page.click("button.retro-forget")
    page.wait_for_function("document.querySelector('.retro-status')"
                           ".textContent.startsWith('Forgotten:')")
    page.remove_listener("dialog", answer)
    assert kept_records(page) is None
    assert page.evaluate("caches.has('retro-python')") is False


@pytest.mark.parametrize("asked", ["abc", "-5", "1e3", "3.5", "1" * 20])
def test_a_bad_seed_is_refused_in_the_terminals_words(asked, reader):
    page = reader.visit(f"/book/mindreader/?seed={asked}")
    page.click("button.retro-play")
    page.wait_for_function(
        "document.querySelector('.retro-play').disabled === false")
    said = page.text_content(".retro-status")
    done = subprocess.run(
        [sys.executable, "-m", "retro", "play", "mindreader", "--seed",
         asked], capture_output=True, text=True, timeout=60, input="")
    assert done.returncode != 0
    assert done.stderr.strip().startswith(said + "; try "), said
    assert said.startswith("retro play mindreader: error: argument --seed:")
    assert paper(page).strip() == ""
    press_play(page)  # Play again: a fresh seed
    page.wait_for_function(FIRST_QUESTION)
    assert "Game 1, seed" in page.text_content(".retro-seed")
    page.press(".retro-line", "Control+c")
    page.wait_for_function(
        "document.querySelector('.retro-play').disabled === false")


def test_at_400_px_the_paper_fits_and_the_game_is_in_view(base, chromium):
    reading = b.Reader(chromium, base, 400, height=740, search=False)
    reading.context.set_default_timeout(LOADING)
    try:
        for path in ("/", "/book/mindreader/", "/book/hexapawn/"):
            page = reading.visit(path + "?seed=5")
            page.click("button.retro-play")
            page.wait_for_function(FIRST_QUESTION)
            page.fill(".retro-line", "h" if "hexa" not in path else "7-4")
            page.press(".retro-line", "Enter")
            page.wait_for_timeout(300)
            box = page.locator(".retro-line").bounding_box()
            assert 0 <= box["y"] and box["y"] + box["height"] <= 740, path
            wide = page.evaluate("""() => {
                const paper = document.querySelector('.retro-paper');
                return [paper.scrollWidth, paper.clientWidth,
                        document.documentElement.scrollWidth];
            }""")
            assert wide[0] <= wide[1] and wide[2] <= 400, (path, wide)
            longest = max(len(line) for line in paper(page).splitlines())
            assert 30 <= longest <= 56, (path, longest)
            page.press(".retro-line", "Control+c")
            page.wait_for_function(
                "document.querySelector('.retro-play').disabled === false")
            assert page.evaluate(
                "document.activeElement.classList.contains('retro-play')")
        assert reading.errors == []
    finally:
        reading.close()


def test_two_tabs_play_on_one_store_and_a_third_sees_both(base, chromium):
    reading = b.Reader(chromium, base, 1280, search=False)
    reading.context.set_default_timeout(LOADING)
    try:
        first = reading.visit("/book/hexapawn/?seed=2")
        clear_records(first)
        second = reading.context.new_page()
        second.goto(f"{base}/book/hexapawn/?seed=3")
        press_play(first)
        first.wait_for_function(FIRST_QUESTION)
        second.click("button.retro-play")
        second.wait_for_function(
            "document.querySelector('.retro-status').textContent"
            ".startsWith('Waiting: a game of the book is being played in "
            "another tab')")
        type_lines(first, WHOLE_GAMES["hexapawn"])
        second.wait_for_function(FIRST_QUESTION)
        type_lines(second, WHOLE_GAMES["hexapawn"])
        for tab in (first, second):
            tab.wait_for_function(
                "document.querySelector('.retro-play').disabled === false")
            assert tab.text_content(".retro-status") == "The game is over."
        assert "HER HAS PLAYED 1 GAME:" in paper(second)
        second.close()
        third = reading.visit("/book/hexapawn/")
        press_play(third)
        third.wait_for_function(FIRST_QUESTION)
        assert "HER HAS PLAYED 2 GAMES:" in paper(third)
        assert reading.errors == []
    finally:
        reading.close()


def the_moves(paper_text: str) -> list[str]:
    """A HER game's moves and boards: from its first board to its end."""
    lines = paper_text.splitlines()
    first = next(at for at, line in enumerate(lines)
                 if line.startswith("    X  X  X"))
    last = next(at for at, line in enumerate(lines)
                if line.startswith("HER PUTS HER BEADS BACK")
                or line.startswith("HER LOSES THE"))
    return lines[first:last]


def exported(page, tmp_path):
    """The page's store, saved by its Export button as a terminal's home
    keeps it (retro.sqlite3) in a new directory; that directory."""
    home = tmp_path / "home"
    home.mkdir()
    with page.expect_download() as exporting:
        page.click("button.retro-export")
    assert exporting.value.suggested_filename == "retro.sqlite3"
    exporting.value.save_as(home / "retro.sqlite3")
    return home


def test_records_exported_play_on_at_a_terminal_and_come_back(reader,
                                                              tmp_path):
    page = reader.visit("/book/hexapawn/?seed=2")
    clear_records(page)
    play_whole_game(page, WHOLE_GAMES["hexapawn"])
    page.click("button.retro-play")  # game 2, from HER as game 1 left her
    page.wait_for_function("document.querySelector('.retro-seed')"
                           ".textContent.startsWith('Game 2')")
    seed = page.text_content(".retro-seed").split("seed ")[1].split(".")[0]
    type_lines(page, WHOLE_GAMES["hexapawn"])
    page.wait_for_function(
        "document.querySelector('.retro-play').disabled === false")
    second = paper(page).split("HEXAPAWN\n")[2]
    replay = f"retro play hexapawn --seed {seed} --from 2"
    assert page.text_content(".retro-seed").endswith(replay)
    home = exported(page, tmp_path)
    assert "SCORES ALL" in page.text_content(".retro-status")
    env = {**os.environ, "RETRO_HOME": str(home)}
    scores = subprocess.run(
        [sys.executable, "-m", "retro"], input="scores all\nquit\n", env=env,
        capture_output=True, text=True, timeout=60).stdout
    assert "Hexapawn                2 " in scores
    assert f"       {replay}" in scores.splitlines()
    again = subprocess.run(
        [sys.executable, "-m", "retro", *replay.split()[1:]], env=env,
        input="".join(f"{line}\n" for line in WHOLE_GAMES["hexapawn"]),
        capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and again.stderr == ""
    assert the_moves(again.stdout) == the_moves(second)
    terminal("hexapawn", 9, WHOLE_GAMES["hexapawn"], home)  # one more there
    clear_records(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.set_input_files(".retro-file", str(home / "retro.sqlite3"))
    page.wait_for_function("document.querySelector('.retro-status')"
                           ".textContent === 'Imported retro.sqlite3.'")
    press_play(page)
    page.wait_for_function(
        "document.querySelector('.retro-paper').textContent"
        ".includes('HER HAS PLAYED 3 GAMES')")
    page.press(".retro-line", "Control+c")
    page.wait_for_function(
        "document.querySelector('.retro-play').disabled === false")
    (tmp_path / "not-a-store.sqlite3").write_text("hello")
    page.set_input_files(".retro-file", str(tmp_path / "not-a-store.sqlite3"))
    page.wait_for_function("document.querySelector('.retro-status')"
                           ".textContent.startsWith('Not imported: ')")


def test_a_penney_game_from_a_kept_bankroll_replays_at_a_terminal(
        reader, tmp_path):
    """Game 2 of Penney's game began from the bankroll game 1 left: its
    line gives the --from form, plain SCORES at the terminal lists both
    games, and the command replays game 2 as the page played it."""
    lines = WHOLE_GAMES["penney"]
    page = reader.visit("/book/penney/?seed=4")
    clear_records(page)
    play_whole_game(page, lines)
    page.click("button.retro-play")  # game 2, from game 1's bankroll
    page.wait_for_function("document.querySelector('.retro-seed')"
                           ".textContent.startsWith('Game 2')")
    seed = page.text_content(".retro-seed").split("seed ")[1].split(".")[0]
    type_lines(page, lines)
    page.wait_for_function(
        "document.querySelector('.retro-play').disabled === false")
    second = "PENNEY'S GAME" + paper(page).split("PENNEY'S GAME")[2]
    opened = second.split("You have ")[1].split(" pennies.")[0]
    assert opened != "100"  # game 1 won or lost: game 2 began elsewhere
    replay = f"retro play penney --seed {seed} --from 2"
    assert page.text_content(".retro-seed").endswith(replay)
    home = exported(page, tmp_path)
    env = {**os.environ, "RETRO_HOME": str(home)}
    scores = subprocess.run(
        [sys.executable, "-m", "retro"], input="scores\nquit\n", env=env,
        capture_output=True, text=True, timeout=60).stdout
    assert "Penney's Game           2 " in scores, scores
    assert f"       {replay}" in scores.splitlines()
    again = subprocess.run(
        [sys.executable, "-m", "retro", *replay.split()[1:]], env=env,
        input="".join(f"{line}\n" for line in lines),
        capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and again.stderr == ""
    said, played = again.stdout.split("\n", 2)[:2], again.stdout.split(
        "\n", 2)[2]
    assert " ".join(said).startswith("Game 2 again, from the bankroll")
    assert played.splitlines() == second.splitlines()


def test_no_game_wrote_a_console_error_or_asked_another_host(reader):
    assert reader.requests  # the games above were played in this reader
    assert reader.errors == []
    assert b.foreign_requests(reader) == []


def test_a_page_only_read_fetches_no_runtime_and_little_more(base,
                                                             chromium):
    reading = b.Reader(chromium, base, 1280, search=False)
    sizes: dict[str, int] = {}  # the panel's script and style, by address

    def measure(answer) -> None:
        if answer.url.endswith(("/page.js", "/page.css")):
            sizes[answer.url] = len(answer.body())

    reading.page.on("response", measure)
    try:
        for path in PAGES:
            page = reading.visit(path)
            page.wait_for_load_state("networkidle")
            assert page.is_visible("button.retro-play")
            assert page.text_content("button.retro-play").startswith("Play")
            for unused in (".retro-paper", ".retro-typing", ".retro-seed"):
                assert not page.is_visible(unused), (path, unused)
            markup = page.evaluate(
                "document.querySelector('.retro-page').outerHTML.length")
            added = markup + sum(sizes.values())
            assert len(sizes) == 2 and added < ADDED, (path, sizes, added)
        fetched = [url for _, url in reading.requests]
        assert not [url for url in fetched
                    if any(part in url for part in RUNTIME)]
        assert reading.errors == []
        assert b.foreign_requests(reading) == []
    finally:
        reading.close()
