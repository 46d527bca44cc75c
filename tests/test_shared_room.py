"""One store, many writers at once: HER's lessons and Penney's bets from
two connections, on SQLite and on a real PostgreSQL."""
from __future__ import annotations

import random
import threading

import pytest

from retro.engines.hexapawn_rules import SECOND
from retro.engines.matchbox import Change, fresh, matchboxes
from retro.games import hexapawn_her, penney
from retro.services.store import Store

from recording import sitting


def at_once(place, work, *arguments) -> list:
    """`work(store, *arguments[i])` in two threads at once, each on a store
    of its own (a connection of its own) at `place`: what each returned."""
    start, returned = threading.Barrier(len(arguments), timeout=60), {}

    def run(number: int) -> None:
        store = Store.open(place, fallback=False, player=f"p{number}")
        try:
            start.wait()
            returned[number] = work(store, *arguments[number])
        finally:
            store.close()

    threads = [threading.Thread(target=run, args=(number,))
               for number in range(len(arguments))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(returned) == len(arguments), "a writer failed"
    return [returned[number] for number in range(len(arguments))]


def lessons(rng: random.Random, count: int) -> list[hexapawn_her.Lesson]:
    """`count` lessons: a loss takes a bead from one of a few boxes (so that
    lessons collide), a win takes none."""
    boxes = [box for box in matchboxes() if box.side == SECOND][:4]
    taught = []
    for _ in range(count):
        box = rng.choice(boxes)
        her_won = rng.random() < 0.3
        changes = () if her_won else (
            Change(box, rng.choice(box.arrows), -1),)
        taught.append(hexapawn_her.Lesson(changes, her_won, "", "row",
                                      rng.randrange(10 ** 6), {}))
    return taught


def teach(store: Store, taught: list[hexapawn_her.Lesson]) -> list[int]:
    """Each lesson kept by hexapawn's `keep`, one game at a time."""
    took = []
    for lesson in taught:
        _, taken = hexapawn_her.keep(store, "hexapawn", [lesson])
        took.append(len(taken))
    return took


def test_200_lessons_at_once_equal_a_replay_of_the_recorded_ones(place):
    rng = random.Random(32)
    first, second = lessons(rng, 100), lessons(rng, 100)
    took = at_once(place, teach, (first,), (second,))
    with Store.open(place, fallback=False) as store:
        her = hexapawn_her.load_her(store)
        games = sorted(store.results("hexapawn"),
                       key=lambda game: game.detail["her_game"])
    # every game recorded once, numbered 1 to 200 in HER's record
    assert [game.detail["her_game"] for game in games] == list(range(1, 201))
    assert len(her.record) == 200
    assert her.record == "".join("W" if game.outcome == "loss" else "L"
                                 for game in games)
    # replayed in the order HER learned them, the recorded lessons make her
    replayed = fresh("HER").beads
    replayed = {key: dict(held) for key, held in replayed.items()}
    lost = 0
    for game in games:
        for bead in game.detail["beads_lost"]:
            box = next(box for box in matchboxes()
                       if box.side == SECOND and box.number == bead["box"])
            assert replayed[box.key][bead["bead"]] > 0  # never one bead twice
            replayed[box.key][bead["bead"]] -= 1
            lost += 1
    assert her.her.beads == replayed
    assert lost == sum(took[0]) + sum(took[1])  # what each game was told
    assert 0 < lost < sum(1 for lesson in first + second if lesson.changes)


def bets(rng: random.Random, count: int) -> list[penney.Bet]:
    return [penney.Bet("HHT", "THH", rng.randint(1, 20),
                       rng.choice(["THH", "HHT", "TTHHT"]), True)
            for _ in range(count)]


def wager(store: Store, placed: list[penney.Bet]) -> int:
    """Each bet settled by Penney's `settle`; how many were refused."""
    refused = 0
    for number, bet in enumerate(placed):
        try:
            penney.settle(store, sitting("penney", store), bet, number)
        except penney.Uncovered:
            refused += 1
    return refused


def test_one_players_bets_from_two_servers_are_settled_once(place):
    rng = random.Random(7)
    placed = (bets(rng, 60), bets(rng, 60))
    refused = at_once(place, lambda store, bets: wager(
        store.as_player("ada"), bets), (placed[0],), (placed[1],))
    with Store.open(place, fallback=False, player="ada") as store:
        results = store.results("penney")
        bankroll = store.get(store.own(penney.BANKROLL))
    assert len(results) == 120 - sum(refused)
    level = penney.STAKE
    for result in results:  # each bet paid against the one before it
        change, after = (int(part) for part in result.score.split(" to "))
        assert after - change == level and 1 <= result.detail["stake"] <= level
        level = after
    assert bankroll == level


# -- moving a room ------------------------------------------------------------------


def a_room(path) -> None:
    """A room that has been lived in: accounts, games, bankrolls, HER's
    lessons and a reset, Flip's notes, and one damaged value."""
    from retro.services.accounts import claim

    with Store.open(path, fallback=False) as store:
        claim(store, "ada", "scrypt$1$1$1$00$00")
        claim(store, "bob", "scrypt$1$1$1$00$00")
        wager(store.as_player("ada"), bets(random.Random(1), 15))
        wager(store.as_player("bob"), bets(random.Random(2), 15))
        teach(store.as_player("ada"), lessons(random.Random(3), 30))
        hexapawn_her.start_her_again(store.as_player("bob"), 30)
        teach(store.as_player("bob"), lessons(random.Random(4), 10))
        store.as_player("ada").put("flip.profile/ada", [3, 1, 4, 1, 5])
        store._sql("INSERT INTO state VALUES ('odd', 'not json', 'then')")


def what_a_room_shows(where) -> tuple:
    """SCORES, everyone's and each player's; the bankrolls; HER's beads,
    record and last reset; the accounts; Flip's notes."""
    from retro.services.accounts import account

    with Store.open(where, fallback=False, notice=lambda line: None) as store:
        return (store.scoreboard(newest=1000),
                [store.scoreboard(name, 5) for name in ("ada", "bob")],
                [penney.stored_bankroll(store.as_player(name))
                 for name in ("ada", "bob")],
                hexapawn_her.load_her(store),
                [account(store, name) for name in ("ada", "bob")],
                store.get("flip.profile/ada"), store.counts())


def test_a_room_goes_to_postgresql_and_back_unchanged(tmp_path, postgres,
                                                      capsys):
    from retro.cli import main

    first, back = tmp_path / "first.sqlite3", tmp_path / "back.sqlite3"
    a_room(first)
    url = postgres.fresh_database()
    assert main(["store", "copy", str(first), url]) == 0
    said = capsys.readouterr().out
    assert said.startswith("copied 70 results and 8 values (2 accounts) "
                           f"from {first} to postgresql://retro@/")
    assert said.endswith("; counted again there: 70 and 8\n")
    assert main(["store", "copy", url, str(back)]) == 0
    shown = what_a_room_shows(first)
    assert what_a_room_shows(url) == shown == what_a_room_shows(back)
    assert shown[3].reset["by"] == "bob" and len(shown[3].record) == 10
    with Store.open(back) as store:  # numbers go on from the last copied
        store.record("flip", score="1-0", outcome="win", seed=1)
        assert store.results()[-1].number == 71


def test_a_copy_never_mixes_two_rooms(tmp_path, postgres, capsys):
    from retro.cli import main

    first = tmp_path / "first.sqlite3"
    a_room(first)
    url = postgres.fresh_database()
    assert main(["store", "copy", str(first), url]) == 0
    assert main(["store", "copy", str(first), url]) == 1
    assert capsys.readouterr().err.endswith(
        "holds 70 results and 8 values already: copy into an empty store\n")
    assert main(["store", "copy", str(tmp_path / "nothing"), url]) == 1
    assert capsys.readouterr().err == (
        f"retro store copy: there is no store at {tmp_path / 'nothing'}\n")
    (tmp_path / "garbage").write_bytes(b"not a database" * 100)
    assert main(["store", "copy", str(tmp_path / "garbage"),
                 str(tmp_path / "to.sqlite3")]) == 1
    assert "was damaged (not a database)" in capsys.readouterr().err


def test_a_store_reconnects_after_postgresql_restarts(postgres):
    from retro.services.store import StoreError

    url = postgres.fresh_database()
    with Store.open(url, fallback=False) as store:
        store.put("her", {"record": ""})
        postgres.restart()
        with pytest.raises(StoreError) as lost:  # the line went: one line
            store.append("her", ("record",), "W")
        assert str(lost.value).startswith("the store cannot be reached: ")
        assert "\n" not in str(lost.value)
        assert store.append("her", ("record",), "L") == 1  # connected again
        assert store.get("her") == {"record": "L"}  # the lost one not kept
