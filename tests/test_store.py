"""The store: scores and lasting state that survive sessions, damage and company."""
from __future__ import annotations

import io
import os
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from datetime import datetime, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from retro.services.store import (FILENAME, MIGRATIONS, SCHEMA_VERSION, Result, Store,
                              StoreError, console_player, data_dir, is_name,
                              saving)
from retro.services.teletype import StreamTeletype


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("RETRO_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def opened(place):
    """Open stores at `place` (refusing to fall back to memory), all closed
    when the test ends."""
    stores = []

    def open_store(**options):
        stores.append(Store.open(place, fallback=False, **options))
        return stores[-1]

    yield open_store
    for store in stores:
        store.close()


def fixed_clock():
    return datetime(1962, 3, 1, 12, 0, 0, tzinfo=timezone.utc)


# -- the API games use -----------------------------------------------------------

def test_contract_example(opened):
    store = opened()
    store.record("flip", score="27-23", outcome="win", seed=7)
    store.put("hexapawn/her", {"boxes": 24})
    assert store.get("hexapawn/her") == {"boxes": 24}
    assert store.results("flip")[-1].outcome == "win"


def test_results_come_back_oldest_first_and_by_game(opened):
    store = opened(clock=fixed_clock)
    store.record("flip", score="27-23", outcome="win", seed=7)
    store.record("penney", score="+3", outcome="loss", seed=None,
                 detail={"bankroll": 97})
    store.record("flip", score="20-30", outcome="loss", seed=2 ** 80)
    assert [r.score for r in store.results()] == ["27-23", "+3", "20-30"]
    assert [r.score for r in store.results("flip")] == ["27-23", "20-30"]
    assert store.results("hexapawn") == []
    penney = store.results("penney")[0]
    assert penney == Result("penney", "1962-03-01T12:00:00+00:00", "+3",
                            "loss", None, {"bankroll": 97},
                            "you", 2)  # the second recorded, nobody named
    assert penney["detail"] == {"bankroll": 97}
    assert store.result(2) == penney and store.result(4) is None
    assert [r.number for r in store.results()] == [1, 2, 3]
    assert store.results("flip")[-1].seed == 2 ** 80  # past SQLite's integers


def test_get_put_any_json_value(opened):
    store = opened()
    assert store.get("missing") is None
    assert store.get("missing", 42) == 42
    for value in (1, 2.5, "text", [1, [2, 3]], {"a": {"b": None}}, True, None):
        store.put("key", value)
        assert store.get("key") == value
    store.delete("key")
    assert store.get("key", "gone") == "gone"


def test_get_returns_a_copy(opened):
    store = opened()
    store.put("boxes", {"a": [1, 2]})
    boxes = store.get("boxes")
    boxes["a"].append(3)
    assert store.get("boxes") == {"a": [1, 2]}


def test_a_value_that_is_not_json_is_refused_before_writing(opened):
    store = opened()
    store.put("k", 1)
    with pytest.raises(TypeError):
        store.put("k", {1, 2})
    assert store.get("k") == 1


def test_a_transaction_keeps_all_or_nothing(opened):
    store = opened()
    with store.transaction():
        store.put("a", 1)
        store.put("b", 2)
        store.record("flip", score="1-0", outcome="win", seed=1)
    assert (store.get("a"), store.get("b")) == (1, 2)
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.put("a", 10)
            with store.transaction():  # nested: joins the outer one
                store.put("b", 20)
            raise RuntimeError("crash in the middle of a move")
    assert (store.get("a"), store.get("b")) == (1, 2)
    assert len(store.results()) == 1


def test_ctrl_c_in_a_transaction_rolls_it_back(opened):
    store = opened()
    store.put("beads", 3)
    with pytest.raises(KeyboardInterrupt):
        with store.transaction():
            store.put("beads", 2)
            raise KeyboardInterrupt
    assert store.get("beads") == 3
    store.put("beads", 1)  # and the store is still usable
    assert store.get("beads") == 1


# -- on disk -------------------------------------------------------------------

def test_retro_home_moves_the_store_and_it_lasts(home):
    assert data_dir() == home
    with Store.open() as store:
        store.record("flip", score="27-23", outcome="win", seed=7)
        store.put("penney/bankroll", 103)
    assert (home / FILENAME).exists()
    with Store.open() as store:
        assert store.results()[0].score == "27-23"
        assert store.get("penney/bankroll") == 103
        assert store.version == SCHEMA_VERSION


def test_without_retro_home_platformdirs_decides(monkeypatch):
    import platformdirs

    monkeypatch.delenv("RETRO_HOME", raising=False)
    assert str(data_dir()) == platformdirs.user_data_dir("retro",
                                                         appauthor=False)


def test_an_old_file_is_migrated_and_keeps_its_results(tmp_path):
    path = tmp_path / FILENAME
    old = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        old.execute(statement)
    old.execute("PRAGMA user_version = 1")
    old.execute("INSERT INTO results (game, played_at, score, outcome, seed)"
                " VALUES ('flip', '1979-01-01T00:00:00+00:00', '30-20', "
                "'win', '5')")
    old.commit()
    old.close()
    with Store.open(path) as store:
        assert store.version == SCHEMA_VERSION == 4
        assert store.results()[0].seed == 5
        assert store.results()[0].player == "you"  # nobody was named
        plan = store.db.execute(  # a player's scoreboard uses the index
            "EXPLAIN QUERY PLAN SELECT * FROM results WHERE player = 'x'"
            " ORDER BY id DESC").fetchall()
        assert "results_by_player" in str(plan)
        store.put("new", "works")
        assert store.get("new") == "works"


def test_a_file_from_a_newer_retro_is_left_alone(tmp_path):
    path = tmp_path / FILENAME
    newer = sqlite3.connect(path)
    newer.execute("PRAGMA user_version = 99")
    newer.commit()
    newer.close()
    messages = []
    store = Store.open(path, warn=messages.append)
    assert store.path is None  # a memory store for this session
    assert "schema version 99" in messages[0] and str(path) in messages[0]
    store.record("flip", score="1-0", outcome="win", seed=1)
    check = sqlite3.connect(path)
    assert check.execute("PRAGMA user_version").fetchone()[0] == 99
    check.close()


def test_a_garbage_file_is_set_aside_with_a_message(tmp_path):
    path = tmp_path / FILENAME
    garbage = b"this is not a database\x00\xff" * 500
    path.write_bytes(garbage)
    messages = []
    with Store.open(path, warn=messages.append) as store:
        store.record("flip", score="1-0", outcome="win", seed=1)
    assert len(messages) == 1
    assert "damaged" in messages[0] and "retro.sqlite3.damaged-1" in messages[0]
    assert (tmp_path / "retro.sqlite3.damaged-1").read_bytes() == garbage
    with Store.open(path, warn=messages.append) as store:
        assert len(store.results()) == 1
    assert len(messages) == 1  # the fresh file is fine
    path.write_bytes(garbage)  # damaged again: the first piece is kept
    Store.open(path, warn=messages.append).close()
    assert (tmp_path / "retro.sqlite3.damaged-2").exists()
    assert (tmp_path / "retro.sqlite3.damaged-1").exists()


def a_store_of_many_pages(tmp_path) -> Path:
    """A store file of 300 padded results: many pages to damage."""
    path = tmp_path / FILENAME
    with Store.open(path) as store:
        for n in range(300):
            store.record("flip", score=f"{n}-0", outcome="win", seed=n,
                         detail={"padding": "x" * 200})
    return path


def test_a_truncated_database_is_set_aside(tmp_path):
    path = a_store_of_many_pages(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2] + b"\x00" * 4096 + data[-4096:])
    for suffix in ("-wal", "-shm"):
        (tmp_path / (FILENAME + suffix)).unlink(missing_ok=True)
    messages = []
    with Store.open(path, warn=messages.append) as store:
        assert store.results() == []
    assert messages and "damaged" in messages[0]


def test_a_store_that_cannot_be_opened_lasts_the_session(tmp_path):
    path = tmp_path / FILENAME
    path.mkdir()  # a directory where the file should be
    messages = []
    store = Store.open(path, warn=messages.append)
    store.put("k", 1)
    assert store.get("k") == 1
    assert "cannot use the store" in messages[0]


# -- two rooms at once -----------------------------------------------------------

def test_two_stores_open_at_once_in_one_process(tmp_path):
    path = tmp_path / FILENAME
    first, second = Store.open(path), Store.open(path)
    for n in range(20):
        (first if n % 2 else second).record("flip", score=str(n),
                                            outcome="win", seed=n)
    first.put("a", 1)
    assert second.get("a") == 1
    assert [r.score for r in first.results()] == [str(n) for n in range(20)]
    first.close()
    second.close()


WORKER = textwrap.dedent("""
    import sys
    from retro.services.store import Store
    store = Store.open(sys.argv[1])
    for n in range(int(sys.argv[2])):
        with store.transaction():          # a read-modify-write
            store.put("count", store.get("count", 0) + 1)
        store.record("flip", score=str(n), outcome="win", seed=n)
    store.close()
""")


def test_two_processes_at_once_lose_nothing(tmp_path):
    path = tmp_path / FILENAME
    Store.open(path).close()
    rounds = 150
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, str(path),
                                 str(rounds)], stderr=subprocess.PIPE)
               for _ in range(2)]
    for worker in workers:
        _, errors = worker.communicate(timeout=60)
        assert worker.returncode == 0, errors.decode()
        assert not errors
    with Store.open(path) as store:
        assert store.get("count") == 2 * rounds
        assert len(store.results("flip")) == 2 * rounds


# -- after start-up: a held lock, a read-only file -------------------------------

BUSY = "the store is busy: another program is writing to it"
READ_ONLY = "the store is read-only"


@pytest.fixture
def filled(tmp_path):
    """A store file with one result and a bankroll in it."""
    path = tmp_path / "home" / FILENAME
    with Store.open(path) as store:
        store.record("flip", score="27-23", outcome="win", seed=7)
        store.put("penney.bankroll", 103)
    return path


def paper():
    out = io.StringIO()
    return StreamTeletype(io.StringIO(""), out, width=200), out


def test_a_lock_held_too_long_is_one_line_and_loses_nothing(filled):
    store = Store.open(filled, timeout=0.2)
    holder = sqlite3.connect(filled, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    tries = {
        "record": lambda: store.record("flip", score="1-0", outcome="win",
                                       seed=1),
        "put": lambda: store.put("penney.bankroll", 0),
        "delete": lambda: store.delete("penney.bankroll"),
        "transaction": lambda: store.transaction().__enter__(),
    }
    for name, attempt in tries.items():
        with pytest.raises(StoreError) as caught:
            attempt()
        assert str(caught.value) == BUSY, name
    # reading does not wait for a writer
    assert store.get("penney.bankroll") == 103
    assert [r.score for r in store.results()] == ["27-23"]
    tty, out = paper()
    with saving(tty, "the score"):
        store.record("flip", score="1-0", outcome="win", seed=1)
    assert out.getvalue() == f"NOT SAVED: the score ({BUSY}).\n"
    holder.execute("ROLLBACK")
    holder.close()
    store.put("penney.bankroll", 90)  # usable again once the lock is gone
    assert store.get("penney.bankroll") == 90
    assert [r.score for r in store.results()] == ["27-23"]
    store.close()


HOLDER = textwrap.dedent("""
    import sqlite3, sys, time
    holder = sqlite3.connect(sys.argv[1], isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    print("holding", flush=True)
    sys.stdin.readline()
    holder.execute("ROLLBACK")
""")


def test_a_lock_held_by_another_process(filled):
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(filled)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline() == "holding\n"
        with Store.open(filled, timeout=0.2) as store:
            with pytest.raises(StoreError, match=f"^{BUSY}$"):
                with store.transaction():  # a read-check-write, refused whole
                    store.put("penney.bankroll", store.get("penney.bankroll") - 10)
    finally:
        holder.communicate("\n", timeout=30)
    with Store.open(filled) as store:
        assert store.get("penney.bankroll") == 103


def read_only(path):
    """The store at `path`, opened from a file it cannot write.

    The file is made read-only (its directory stays writable, as SQLite
    needs it for the write-ahead log's index). Where permissions do not stop
    writes (as root), the connection itself is opened read-only instead."""
    path.chmod(stat.S_IRUSR)
    try:
        open(path, "ab").close()
    except PermissionError:
        return Store.open(path, timeout=0.2)
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True,
                                 isolation_level=None)
    return Store(connection, path)


def test_a_read_only_file_is_one_line_and_loses_nothing(filled):
    try:
        store = read_only(filled)
        assert store.path == filled  # really on the file, not in memory
        assert store.get("penney.bankroll") == 103
        for attempt in (
                lambda: store.record("flip", score="1-0", outcome="win", seed=1),
                lambda: store.put("penney.bankroll", 0),
                lambda: store.delete("penney.bankroll")):
            with pytest.raises(StoreError) as caught:
                attempt()
            assert str(caught.value) == READ_ONLY
        tty, out = paper()
        with saving(tty, "HER's lesson"):
            store.put("hexapawn.her", {"boxes": 19})
        tty.say("The game goes on.")
        assert out.getvalue() == (f"NOT SAVED: HER's lesson ({READ_ONLY}).\n"
                                  "The game goes on.\n")
        assert store.get("penney.bankroll") == 103
        assert [r.score for r in store.results()] == ["27-23"]
        store.close()
    finally:
        filled.chmod(0o644)


def test_a_commit_that_fails_leaves_the_store_usable():
    store = Store.memory()
    store.db.execute("PRAGMA query_only = 1")  # every write now fails
    with pytest.raises(StoreError, match=f"^{READ_ONLY}$"):
        with store.transaction():
            store.put("a", 1)
    store.db.execute("PRAGMA query_only = 0")
    store.put("a", 2)
    assert store.get("a") == 2


def test_a_closed_store_says_so_in_one_line(opened):
    store = opened()
    store.close()
    with pytest.raises(StoreError) as caught:
        store.get("a")
    assert str(caught.value).startswith("the store cannot be read: ")
    assert "\n" not in str(caught.value)


def test_saving_lets_other_errors_through():
    tty, out = paper()
    with pytest.raises(KeyError):
        with saving(tty, "the score"):
            raise KeyError("a bug is not a store error")
    assert out.getvalue() == ""


# -- bad values in a readable store ----------------------------------------------

def whole_pennies(value):
    return type(value) is int and 0 <= value <= 10 ** 6


def raw_state(path, key, text):
    """Write `text` into the state table as it is, JSON or not."""
    connection = sqlite3.connect(path)
    connection.execute("INSERT OR REPLACE INTO state VALUES (?, ?, 'now')",
                       (key, text))
    connection.commit()
    connection.close()


def stored(path, key):
    connection = sqlite3.connect(path)
    row = connection.execute("SELECT value FROM state WHERE key = ?",
                             (key,)).fetchone()
    connection.close()
    return None if row is None else row[0]


BAD_BANKROLLS = ["abc", '"x"', "null", "[]", "1e308", "true", "1e999", "NaN",
                 "-5", "2.5", "1" * 5000, "[" * 100000, "{\"a\": 1}", ""]


@pytest.mark.parametrize("text", BAD_BANKROLLS,
                         ids=[t[:12] or "empty" for t in BAD_BANKROLLS])
def test_a_bad_value_is_set_aside_and_told_once(filled, text):
    raw_state(filled, "penney.bankroll", text)
    told = []
    with Store.open(filled, notice=told.append) as store:
        assert store.get("penney.bankroll", 100, valid=whole_pennies) == 100
        assert store.get("penney.bankroll", 100, valid=whole_pennies) == 100
        store.put("penney.bankroll", 100)
    assert len(told) == 1 and "\n" not in told[0]
    assert told[0].startswith("The store's penney.bankroll was damaged (\"")
    assert told[0].endswith("it is kept as penney.bankroll.damaged-1, "
                            "and it is not used.")
    assert stored(filled, "penney.bankroll.damaged-1") == text  # nothing lost
    assert stored(filled, "penney.bankroll") == "100"


def test_damaged_values_are_numbered_and_none_overwritten(filled):
    with Store.open(filled, notice=lambda message: None) as store:
        for n, text in enumerate(["abc", "def", "ghi"], 1):
            raw_state(filled, "hexapawn.her", text)
            assert store.get("hexapawn.her", "fresh") == "fresh"
            assert stored(filled, f"hexapawn.her.damaged-{n}") == text


def test_a_value_valid_raises_on_is_refused(filled):
    raw_state(filled, "hexapawn.her", '{"boxes": 3}')
    told = []

    def has_boxes_list(value):
        return all(box["beads"] for box in value["boxes"])  # TypeError on 3

    with Store.open(filled, notice=told.append) as store:
        assert store.get("hexapawn.her", None, valid=has_boxes_list) is None
    assert told == ['The store\'s hexapawn.her was damaged ("{"boxes": 3}"); '
                    'it is kept as hexapawn.her.damaged-1, and it is not used.']


def test_a_bad_value_in_a_read_only_store_is_told_once(filled):
    raw_state(filled, "penney.bankroll", "abc")
    told = []
    try:
        store = read_only(filled)
        store.notice = told.append
        for _ in range(3):
            assert store.get("penney.bankroll", 100, valid=whole_pennies) == 100
        store.close()
    finally:
        filled.chmod(0o644)
    assert told == [f'The store\'s penney.bankroll was damaged ("abc"); '
                    f'it could not be set aside: {READ_ONLY}, '
                    f'and it is not used.']
    assert stored(filled, "penney.bankroll") == "abc"


def test_a_value_that_is_not_finite_json_is_refused_before_writing(opened):
    store = opened()
    store.put("k", 1)
    for value in (float("inf"), float("nan"), [1, {2}]):
        with pytest.raises(TypeError):
            store.put("k", value)
    loop = []
    loop.append(loop)
    with pytest.raises(TypeError):
        store.put("k", loop)
    assert store.get("k") == 1


@given(st.text())
@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_whatever_is_stored_get_returns_a_valid_value_or_the_default(text):
    store = Store.memory(notice=lambda message: None)
    store.db.execute("INSERT INTO state VALUES ('k', ?, 'now')", (text,))
    value = store.get("k", 7, valid=whole_pennies)
    assert whole_pennies(value)
    kept = [row[0] for row in store.db.execute(
        "SELECT value FROM state WHERE key IN ('k', 'k.damaged-1')")]
    assert kept == [text]  # under its key, or set aside: never lost


# -- damaged results --------------------------------------------------------------

def raw_result(store, seed, detail, score="1-0"):
    store.db.execute("INSERT INTO results (game, played_at, score, outcome,"
                     " seed, detail) VALUES ('flip', 'then', ?, 'win', ?, ?)",
                     (score, seed, detail))


def test_damaged_results_are_shown_blank_and_told_once():
    told = []
    store = Store.memory(notice=told.append)
    store.record("flip", score="27-23", outcome="win", seed=7,
                 detail={"a": 1})
    raw_result(store, "5", "abc")
    raw_result(store, "x", "{}")
    raw_result(store, "1" * 5000, "[]")
    raw_result(store, None, "1e999", score=b"\xff20-30")
    results = store.results()
    assert [(r.seed, r.detail) for r in results] == [
        (7, {"a": 1}), (5, {}), (None, {}), (None, {}), (None, {})]
    assert results[-1].score == "\ufffd20-30"
    assert told == ["The store's record of 4 games are damaged; "
                    "what cannot be read is left blank."]
    store.results("flip")
    assert len(told) == 1  # told once
    raw_result(store, "9", "null")
    store.results()
    assert told[1] == ("The store's record of 1 game is damaged; "
                       "what cannot be read is left blank.")


@given(st.one_of(st.none(), st.text(), st.integers(-2 ** 63, 2 ** 63 - 1)),
       st.text())
@settings(max_examples=200, deadline=None)
def test_results_never_raise_on_a_damaged_row(seed, detail):
    store = Store.memory(notice=lambda message: None)
    raw_result(store, seed, detail)
    [result] = store.results()
    assert isinstance(result.detail, dict)
    assert result.seed is None or isinstance(result.seed, int)


# -- opening: one clear line ------------------------------------------------------

def test_a_file_damaged_inside_is_told_in_one_line(tmp_path):
    path = a_store_of_many_pages(tmp_path)
    whole = path.read_bytes()
    for page in range(1, len(whole) // 4096):  # find a page quick_check misses
        damaged = bytearray(whole)
        damaged[page * 4096 + 3:page * 4096 + 5] = b"\xff\xff"
        path.write_bytes(damaged)
        check = sqlite3.connect(path)
        try:
            fault = check.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError:
            fault = "ok"
        check.close()
        if "\n" in fault:  # SQLite's own report is several lines
            break
    else:
        pytest.fail("no page gives a several-line quick_check report")
    messages = []
    Store.open(path, warn=messages.append).close()
    assert messages == [f"retro: the store {path} was damaged (damaged inside);"
                        f" it is kept as retro.sqlite3.damaged-1 and a fresh "
                        f"store is started"]


def test_a_garbage_file_is_told_in_one_line(tmp_path):
    path = tmp_path / FILENAME
    path.write_bytes(b"not a database at all " * 500)
    messages = []
    Store.open(path, warn=messages.append).close()
    assert messages == [f"retro: the store {path} was damaged (not a database);"
                        f" it is kept as retro.sqlite3.damaged-1 and a fresh "
                        f"store is started"]


def test_a_retro_home_that_is_a_file(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.write_text("I am a file")
    monkeypatch.setenv("RETRO_HOME", str(home))
    messages = []
    store = Store.open(warn=messages.append)
    assert messages == [f"retro: RETRO_HOME {home} is a file, not a directory;"
                        f" nothing will be kept after this session"]
    store.put("k", 1)  # the session goes on in memory
    assert home.read_text() == "I am a file"
    messages.clear()
    monkeypatch.delenv("RETRO_HOME")
    Store.open(home / "deeper" / FILENAME, warn=messages.append)
    assert messages == [f"retro: cannot use the store {home}/deeper/{FILENAME} "
                        f"({home} is a file, not a directory); nothing will be "
                        f"kept after this session"]


def test_retro_home_a_file_at_the_command_line(tmp_path):
    home = tmp_path / "home"
    home.write_text("")
    done = subprocess.run([sys.executable, "-m", "retro"], input="quit\n",
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "RETRO_HOME": str(home)})
    assert done.returncode == 0
    assert done.stderr == (f"retro: RETRO_HOME {home} is a file, not a "
                           f"directory; nothing will be kept after this "
                           f"session\n")


def test_a_store_opens_while_another_holds_the_lock(filled):
    holder = sqlite3.connect(filled, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    messages = []
    store = Store.open(filled, warn=messages.append, timeout=0.2)
    assert store.path == filled and messages == []  # up to date: no lock taken
    assert store.get("penney.bankroll") == 103
    holder.execute("ROLLBACK")
    holder.close()
    store.close()


# -- players -----------------------------------------------------------------------

def test_every_game_is_recorded_under_its_players_name(opened):
    ada, bob = opened(player="Ada"), opened(player="bob")
    if True:  # two connections to one store
        ada.record("flip", score="27-23", outcome="win", seed=1)
        bob.record("flip", score="20-30", outcome="loss", seed=2)
        bob.record("penney", score="+5 to 105", outcome="win", seed=3)
        assert [r.player for r in ada.results()] == ["ada", "bob", "bob"]
        assert [r.score for r in bob.results(player="ada")] == ["27-23"]
        assert [r.seed for r in ada.results("flip", player="bob")] == [2]


def test_a_players_own_state_is_theirs_and_the_labs_is_shared(opened):
    store = opened(player="ada")
    store.put(store.own("penney.bankroll"), 90)
    store.put("hexapawn/her", "shared")
    other = store.as_player("bob")
    assert other.get(other.own("penney.bankroll"), 100) == 100
    assert other.get("hexapawn/her") == "shared"
    assert store.get(store.own("penney.bankroll")) == 90
    console = opened(console="Ada")
    assert console.player == "ada"
    assert console.own("penney.bankroll") == "penney.bankroll"
    assert console.get(console.own("penney.bankroll")) is None  # not ada's


def test_the_console_player_is_whoever_the_opener_says(opened, monkeypatch):
    import getpass

    monkeypatch.setattr(getpass, "getuser", lambda: "ada")
    server = opened()  # a server's store: no console player
    assert (server.player, server.console) == ("you", None)
    for name in ("ada", "you"):  # the login's name is nobody special
        assert server.as_player(name).own("penney.bankroll") == \
            f"penney.bankroll/{name}"
    console = opened(console=console_player())
    assert console.own("penney.bankroll") == "penney.bankroll"


def test_the_console_player_is_the_login_name_when_it_is_a_name(monkeypatch):
    import getpass

    for login, expected in (("Ada", "ada"), ("j.doe", "you"),
                            ("x" * 17, "you"), ("bob_2-b", "bob_2-b")):
        monkeypatch.setattr(getpass, "getuser", lambda: login)
        assert console_player() == expected

    def nobody():
        raise OSError("no login")
    monkeypatch.setattr(getpass, "getuser", nobody)
    assert console_player() == "you"


def test_names_are_letters_digits_hyphens_and_underscores():
    for good in ("a", "Ada", "bob_2", "x-y", "z" * 16):
        assert is_name(good)
    for bad in ("", "z" * 17, "a b", "a.b", "é", "a/b", "a\n"):
        assert not is_name(bad)
    with pytest.raises(ValueError):
        Store.memory(player="no way")


def test_a_version_two_file_gives_its_games_and_bankroll_to_the_console(
        tmp_path, monkeypatch):
    import getpass

    monkeypatch.setattr(getpass, "getuser", lambda: "root")  # not asked
    path = tmp_path / FILENAME
    old = sqlite3.connect(path)
    for migration in MIGRATIONS[:2]:
        for statement in migration:
            old.execute(statement)
    old.execute("PRAGMA user_version = 2")
    old.execute("INSERT INTO results (game, played_at, score, outcome, seed)"
                " VALUES ('penney', '1969-01-01T00:00:00+00:00', '+5 to 105',"
                " 'win', '5')")
    old.execute("INSERT INTO state VALUES ('penney.bankroll', '105', 'x')")
    old.commit()
    old.close()
    with Store.open(path, player="bob", console="ada") as bob:
        assert [r.player for r in bob.results()] == ["ada"]
        assert bob.get(bob.own("penney.bankroll")) is None
    with Store.open(path, console="ada") as console:
        assert console.get(console.own("penney.bankroll")) == 105


# -- one door, one thread ------------------------------------------------------------

def test_the_store_refuses_work_from_another_thread():
    import threading

    store = Store.memory()
    caught = []
    worker = threading.Thread(target=lambda: caught.append(
        pytest.raises(RuntimeError, store.get, "k").value))
    worker.start()
    worker.join()
    assert "its work goes through store.run" in str(caught[0])
    assert store.get("k") is None  # its own thread is still welcome


def test_a_store_with_a_worker_is_made_and_used_in_the_worker(tmp_path):
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    worker = ThreadPoolExecutor(1, thread_name_prefix="retro store")
    store = Store.open(tmp_path / FILENAME, worker=worker)

    async def game():
        await store.run(Store.put, "k", 5)
        return await store.run(Store.get, "k")

    assert asyncio.run(game()) == 5
    with pytest.raises(RuntimeError, match="belongs to the thread 'retro store"):
        store.get("k")  # from the loop's thread, not through the door
    store.close()  # from here, handed to the worker
    worker.shutdown(wait=True)


def test_a_server_falling_back_to_memory_still_serves(tmp_path):
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    worker = ThreadPoolExecutor(1)
    warned = []
    store = Store.open(tmp_path, worker=worker, warn=warned.append)  # a dir
    assert "nothing will be kept" in warned[0]
    assert asyncio.run(store.run(lambda s: s.put_new("k", 1))) is True
    worker.shutdown(wait=True)
    store.close()  # its thread has ended: closed here


def test_a_server_can_refuse_a_store_in_memory(tmp_path):
    warned = []
    with pytest.raises(StoreError) as caught:
        Store.open(tmp_path, fallback=False, warn=warned.append)
    assert str(caught.value).startswith(f"cannot use the store {tmp_path}")
    assert "\n" not in str(caught.value) and warned == []
    with pytest.raises(StoreError) as caught:
        Store.open(f"postgresql://ada:secret@/retro?host={tmp_path}",
                   fallback=False, timeout=1)
    assert str(caught.value).startswith(
        "cannot reach the store postgresql://ada:***@/retro?host=")
    assert "secret" not in str(caught.value)
    assert "\n" not in str(caught.value)


# -- changing a value in place ---------------------------------------------------------

def test_a_number_and_a_string_change_in_place(opened):
    store = opened()
    assert store.put_new("her", {"beads": {"a.b/c": {"1-4": 1}}, "record": ""})
    assert not store.put_new("her", {"overwritten": True})
    path = ("beads", "a.b/c", "1-4")
    assert store.adjust("her", path, -1) == 0
    assert store.adjust("her", path, -1) is None  # no bead left to take
    assert store.adjust("her", path, +2) == 2
    assert store.append("her", ("record",), "W") == 1
    assert store.append("her", ("record",), "L") == 2
    assert store.get("her") == {"beads": {"a.b/c": {"1-4": 2}}, "record": "WL"}
    assert store.adjust("nobody", path, 1) is None
    assert store.append("her", ("beads",), "x") is None  # not a string


def test_two_programs_opening_a_new_store_at_once_both_open_it(tmp_path):
    import threading

    failed = []
    for attempt in range(20):
        path, start = tmp_path / f"new-{attempt}.sqlite3", threading.Barrier(2)

        def open_it(number: int) -> None:
            start.wait()
            try:
                Store.open(path, fallback=False, player=f"p{number}").close()
            except StoreError as error:
                failed.append(str(error))
        threads = [threading.Thread(target=open_it, args=(n,)) for n in (1, 2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert failed == []


def test_the_consoles_scoreboard_holds_the_games_played_as_you():
    """`you` (the book's reader, or a console without a login) and the
    console player share the bare keys, and so one scoreboard; no one
    else's scoreboard takes in `you`'s games."""
    store = Store.memory(player="ada", console="ada")
    store.as_player("you").record("penney", score="+10 to 110",
                                  outcome="win", seed=1)
    store.record("penney", score="-5 to 105", outcome="loss", seed=2)
    store.as_player("bob").record("penney", score="+1 to 101",
                                  outcome="win", seed=3)
    console = store.scoreboard("ada")
    assert [(t.played, t.won, t.lost) for t in console.tallies] == [(2, 1, 1)]
    assert [r.player for r in console.newest] == ["ada", "you"]
    assert console.players == 2
    assert [r.player for r in store.scoreboard("bob").newest] == ["bob"]
    assert store.scoreboard(None).players == 3


def test_a_store_without_a_console_keeps_you_apart():
    store = Store(sqlite3.connect(":memory:", isolation_level=None))
    assert store.console is None and store.player == "you"
    store.record("flip", score="30-20", outcome="win", seed=1)
    store.as_player("ada").record("flip", score="20-30", outcome="loss",
                                  seed=2)
    assert [r.player for r in store.scoreboard("ada").newest] == ["ada"]
