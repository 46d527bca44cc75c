# Tangled from literate/serve.md: edit the chapter, not this file, then run `retro tangle`.
"""The login: a short conversation on the player's teletype.

Tangled from literate/serve.md, which explains it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from retro.common import plural, quoted
from retro.rooms.limits import Limits
from retro.services.accounts import LONGEST, SHORTEST, password_trouble
from retro.services.guard import Busy
from retro.services.store import is_name
from retro.services.teletype import LineTeletype
from retro.wires.lines import Caller


NAME_PROMPT = "Your NAME (letters, digits, - and _, up to 16)? "
NAME_RULE = "A NAME is 1 to 16 letters, digits, - and _."
PASSWORD_PROMPT = "PASSWORD? "
GREETING = (f"Give your NAME and its PASSWORD. A NAME nobody has claimed "
            f"becomes yours with the PASSWORD you give it ({SHORTEST} to "
            f"{LONGEST} characters); RETURN alone at PASSWORD plays it as "
            f"a guest, who keeps nothing.")


@dataclass(frozen=True)
class Admission:
    """A player logged in: the name, and how."""

    name: str
    how: str  # "proven", "claimed" (just now) or "guest"
    missed: int = 0  # wrong passwords tried at it since its owner came in


class Goodbye(Exception):
    """The login ends and the line with it; `why` is said if given."""

    def __init__(self, why: str = "", said: str = ""):
        super().__init__(why or said)
        self.why, self.said = why, said


class Doors(Protocol):
    """What the login asks of the server."""

    limits: Limits

    async def claimed(self, name: str) -> bool: ...
    async def check(self, name: str, password: str,
                    caller: Caller) -> tuple[bool, int]: ...
    def probe(self, caller: Caller) -> str | None: ...
    def holds(self, name: str) -> bool: ...
    async def claim(self, name: str, password: str,
                    caller: Caller) -> str | None: ...


async def log_in(tty: LineTeletype, doors: Doors, caller: Caller) -> Admission:
    """The login: a name, then its password, a claim or a guest."""
    if caller.proven:
        return Admission(caller.proven.lower(), "proven")
    name, wrong = caller.login.lower(), 0
    if name and not is_name(name):
        tty.say(f"Your SSH user name {quoted(caller.login)} will not do as "
                f"a NAME. {NAME_RULE}")
        name = ""
    while True:
        if not name:
            name = (await tty.ask(NAME_PROMPT)).lower()
            if not is_name(name):
                if name:
                    tty.say(f"{NAME_RULE} Try again.")
                name = ""
                continue
        password = await tty.ask(PASSWORD_PROMPT, hidden=True)
        if await doors.claimed(name):
            try:
                proved, missed = await doors.check(name, password, caller)
                told = f"That is not the PASSWORD for {name}."
            except Busy as busy:  # a try all the same
                proved, told = False, str(busy)
            if proved:
                return Admission(name, "proven", missed)
            wrong += 1
            if wrong >= doors.limits.tries:
                raise Goodbye(plural(wrong, "WRONG PASSWORD"), said=told)
            tty.say(told)
            continue
        admitted = await unclaimed(tty, doors, caller, name, password)
        if admitted is not None:
            return admitted
        name = ""


async def unclaimed(tty: LineTeletype, doors: Doors, caller: Caller,
                    name: str, password: str) -> Admission | None:
    """A name nobody has claimed: a guest's, or claimed now; None to ask
    for a name again."""
    refused = doors.probe(caller)
    if refused is not None:
        raise Goodbye(said=refused)
    if doors.holds(name):
        tty.say(f"{name} is on line already. Choose another NAME.")
        return None
    if not password:
        tty.say(f"You play as {name}, a guest: nothing of yours is kept.")
        return Admission(name, "guest")
    trouble = password_trouble(password)
    if trouble is None:
        tty.say(f"{name} is a new NAME: the same PASSWORD again claims it.")
        if await tty.ask("THE SAME AGAIN? ", hidden=True) != password:
            trouble = "The two were not the same."
    if trouble is None:
        trouble = await doors.claim(name, password, caller)
    if trouble is not None:
        tty.say(f"{trouble} {name} is not claimed.")
        return None
    tty.say(f"{name} is yours. Next time, give the same NAME and PASSWORD.")
    return Admission(name, "claimed")
