"""The store: scores and lasting state that survive sessions, damage and company."""
from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from datetime import datetime, timezone

import pytest

from retro.room.store import (FILENAME, MIGRATIONS, SCHEMA_VERSION, Result, Store,
                         data_dir)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("RETRO_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def fixed_clock():
    return datetime(1962, 3, 1, 12, 0, 0, tzinfo=timezone.utc)


# -- the API games use -----------------------------------------------------------

def test_contract_example():
    store = Store.memory()
    store.record("flip", score="27-23", outcome="win", seed=7)
    store.put("hexapawn/her", {"boxes": 24})
    assert store.get("hexapawn/her") == {"boxes": 24}
    assert store.results("flip")[-1].outcome == "win"


def test_results_come_back_oldest_first_and_by_game():
    store = Store.memory(clock=fixed_clock)
    store.record("flip", score="27-23", outcome="win", seed=7)
    store.record("penney", score="+3", outcome="loss", seed=None,
                 detail={"bankroll": 97})
    store.record("flip", score="20-30", outcome="loss", seed=2 ** 80)
    assert [r.score for r in store.results()] == ["27-23", "+3", "20-30"]
    assert [r.score for r in store.results("flip")] == ["27-23", "20-30"]
    assert store.results("hexapawn") == []
    penney = store.results("penney")[0]
    assert penney == Result("penney", "1962-03-01T12:00:00+00:00", "+3",
                            "loss", None, {"bankroll": 97})
    assert penney["detail"] == {"bankroll": 97}
    assert store.results("flip")[-1].seed == 2 ** 80  # past SQLite's integers


def test_get_put_any_json_value():
    store = Store.memory()
    assert store.get("missing") is None
    assert store.get("missing", 42) == 42
    for value in (1, 2.5, "text", [1, [2, 3]], {"a": {"b": None}}, True, None):
        store.put("key", value)
        assert store.get("key") == value
    store.delete("key")
    assert store.get("key", "gone") == "gone"


def test_get_returns_a_copy():
    store = Store.memory()
    store.put("boxes", {"a": [1, 2]})
    boxes = store.get("boxes")
    boxes["a"].append(3)
    assert store.get("boxes") == {"a": [1, 2]}


def test_a_value_that_is_not_json_is_refused_before_writing():
    store = Store.memory()
    store.put("k", 1)
    with pytest.raises(TypeError):
        store.put("k", {1, 2})
    assert store.get("k") == 1


def test_a_transaction_keeps_all_or_nothing():
    store = Store.memory()
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


def test_ctrl_c_in_a_transaction_rolls_it_back():
    store = Store.memory()
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
        assert store.version == SCHEMA_VERSION == 2
        assert store.results()[0].seed == 5
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


def test_a_truncated_database_is_set_aside(tmp_path):
    path = tmp_path / FILENAME
    with Store.open(path) as store:
        for n in range(300):
            store.record("flip", score=f"{n}-0", outcome="win", seed=n,
                         detail={"padding": "x" * 200})
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
    from retro.room.store import Store
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
