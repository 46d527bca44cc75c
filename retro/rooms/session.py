# Tangled from literate/serve.md: edit the chapter, not this file, then run `retro tangle`.
"""A session: a player's room as a task, and the served room's verbs.

Tangled from literate/serve.md, which explains it.
"""
from __future__ import annotations

import asyncio
import time
import traceback
from typing import Protocol

from retro.common import number_in, plural
from retro.rooms.limits import Limits
from retro.rooms.room import Meaning, Room, Verb
from retro.services.accounts import account, add_key, forget_key, key_list
from retro.services.store import Store
from retro.services.teletype import WIDTH, LineTeletype
from retro.wires.ssh import public_key


class Lobby(Protocol):
    """What a session asks of the server."""

    store: Store
    limits: Limits

    def log(self, message: str) -> object: ...
    def announce(self, text: str) -> None: ...
    async def everyone(self) -> list[Session | tuple[str, str]]: ...
    def gone(self, session: Session) -> None: ...


class Session:
    """A named player's room, as a task on the server's event loop."""

    def __init__(self, server: Lobby, connection: Line, name: str,
                 *, guest: bool = False, operator: bool = False,
                 missed: int = 0):
        self.server, self.connection, self.name = server, connection, name
        self.guest, self.operator, self.missed = guest, operator, missed
        self.tty = connection.tty
        self.since = time.monotonic()
        self.room: Room | None = None
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.server.log(f"{self.name}{' (guest)' if self.guest else ''} on "
                        f"line ({self.connection.peer})")
        self.task = asyncio.create_task(self.run(), name=f"retro {self.name}")

    def store(self) -> Store:
        if self.guest:
            return Store.memory(player=self.name)
        store = self.server.store.as_player(self.name)
        loop = asyncio.get_running_loop()

        def notice(text: str) -> None:
            loop.call_soon_threadsafe(self.tty.say, text)
        store.notice = notice
        return store

    async def run(self) -> None:
        try:
            if self.missed:
                self.tty.say(f"*** {plural(self.missed, 'wrong password')} "
                             f"tried at your NAME since you last came in. ***")
            self.room = Room(self.tty, self.store(),
                             verbs=served_verbs(self, self.tty),
                             operator=self.operator,
                             announce=self.server.announce)
            await self.room.run()
        except KeyboardInterrupt:  # never out of the task: asyncio would
            pass                   # take it for the whole server's
        except Exception:
            self.server.log(f"{self.name}'s session broke:\n"
                            f"{traceback.format_exc()}")
            self.tty.say("*** THE MACHINE HAS JAMMED. YOUR SESSION IS "
                         "OVER. ***")
        finally:
            self.tty.flush()
            self.connection.close()
            self.server.gone(self)

    def doing(self) -> str:
        """What WHO says this player is doing."""
        game = self.room.playing if self.room is not None else None
        return f"playing {game.title}" if game else "in the machine room"


class Line(Protocol):
    """A connection, as its session sees it."""

    tty: LineTeletype
    host: str
    peer: str
    offered: str

    async def drained(self) -> None: ...
    def close(self, why: str = "") -> None: ...


BAUDS = (0, 50, 75, 110, 134, 150, 300, 600, 1200, 2400, 4800, 9600)


def served_verbs(session: Session, tty: LineTeletype) -> tuple[Verb, ...]:
    """WHO, BAUD, TEAR and KEYS, for one session's room."""
    async def who(said: Meaning) -> None:
        tty.table(who_is_on(await session.server.everyone(), session,
                            tty.page()))

    async def baud(said: Meaning) -> None:
        tty.say(set_baud(tty, said.rest))

    async def tear(said: Meaning) -> None:
        await tear_back(session, tty)

    async def keys_verb(said: Meaning) -> None:
        await keys(session, tty, said)
    return (Verb("who", "WHO", "who is on line, and what each is doing",
                 who),
            Verb("baud", "BAUD [N]", "your paper's pace: BAUD 110 is a "
                 "Model 33, BAUD 0 prints at once", baud),
            Verb("tear", "TEAR", "tear off the paper: it is printed back "
                 "to you", tear),
            Verb("keys", "KEYS [ADD|FORGET N]", "the SSH keys that log "
                 "you in", keys_verb))


def who_is_on(players: list[Session | tuple[str, str]], me: Session,
              width: int = WIDTH) -> list[str]:
    """What WHO prints: a line per player on line, on this server and
    then on the room's others; two lines for a player whose one line
    is wider than `width`."""
    now = time.monotonic()
    lines = [f"{plural(len(players), 'player')} on line:"]
    for player in players:
        if isinstance(player, tuple):  # on another server of the room
            name, doing = player[0], "on another server"
            then = f"  {player[1]}" if me.operator else ""
        else:
            name = player.name + (" (you)" if player is me else
                                  " (guest)" if player.guest else "")
            minutes = int(now - player.since) // 60
            doing = player.doing()
            then = f"{minutes // 60}:{minutes % 60:02d}" + (
                f"  {player.connection.peer}" if me.operator else "")
        line = f"  {name:<22}{doing:<32}{then}"
        if len(line) <= width:
            lines.append(line)
        else:
            lines += [f"  {name}", f"    {doing}  {then.strip()}".rstrip()]
    return lines


def set_baud(tty: LineTeletype, rest: tuple[str, ...]) -> str:
    """Set the pace of this player's paper; what BAUD answers."""
    if rest:
        wanted = number_in(rest[0]) if len(rest) == 1 else None
        if wanted not in BAUDS:
            return (f"BAUD takes one of {', '.join(map(str, BAUDS[1:]))}, "
                    f"or 0 to print at once.")
        tty.baud = wanted
    if tty.baud == 0:
        return "Your paper prints at once (BAUD 0)."
    return f"Your paper prints at {tty.baud} baud."


PAGE = 100  # lines of the roll sent at once


async def tear_back(session: Session, tty: LineTeletype) -> None:
    """The served room's TEAR: the roll printed back, and a fresh one."""
    lines, fell_off = tty.paper().rstrip("\n").split("\n"), tty.fell_off
    tty.fresh_roll()
    tty.say("--- the paper roll, torn off ---")
    if fell_off:
        tty.say(f"(The roll keeps its last {session.server.limits.roll:,} "
                f"lines; {plural(fell_off, 'line')} before them fell off.)")
    for start in range(0, len(lines), PAGE):
        tty.draw("\n".join(lines[start:start + PAGE]))
        tty.flush()
        await session.connection.drained()
    tty.say("--- the end of the roll: it is yours to keep ---")
    tty.fresh_roll()


async def keys(session: Session, tty: LineTeletype, said: Meaning) -> None:
    """KEYS, KEYS ADD [KEY], KEYS FORGET N."""
    store, name = session.server.store, session.name
    rest = said.raw.split()  # as typed: a key's case matters
    if session.guest:
        tty.say("A guest has no keys: claim a NAME of your own first.")
    elif not rest:
        held = await store.run(account, name)
        tty.draw("\n".join(key_list(held)))
    elif rest[0].lower() == "add":
        key = (public_key(" ".join(rest[1:])) if rest[1:]
               else session.connection.offered or None)
        tty.say(await store.run(add_key, name, key) if key else
                "That is not a public key's line (ssh-ed25519 AAAA...)."
                if rest[1:] else "Your client offered no key: give the key's "
                "line after KEYS ADD.")
    elif rest[0].lower() == "forget" and len(rest) == 2 \
            and number_in(rest[1]) is not None:
        tty.say(await store.run(forget_key, name, number_in(rest[1])))
    else:
        tty.say("KEYS lists your keys; KEYS ADD registers one; KEYS FORGET "
                "N forgets one.")
