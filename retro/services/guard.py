# Tangled from literate/accounts.md: edit the chapter, not this file, then run `retro tangle`.
"""The guard: what guessing costs, by name, by address and in all.

Tangled from literate/accounts.md, which explains it.
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class Guarding:
    """How much guessing the room allows, and for how long it refuses."""

    pause: float = 1.0  # seconds before a wrong password is answered
    queue: int = 2  # guesses that may wait behind the one being checked
    misses: int = 10  # wrong passwords an address may send a minute
    probes: int = 30  # tries that tell a name's state, an address, a minute
    claims: int = 10  # names an address may claim an hour
    room_misses: int = 120  # wrong passwords in the whole room, a minute
    room_claims: int = 60  # names claimed in the whole room, a minute
    penalty: float = 300.0  # seconds an address is refused once over


class Budget:
    """A bucket of `burst` that refills at `rate` a second: an allowance."""

    def __init__(self, burst: float, rate: float,
                 clock: Callable[[], float] = time.monotonic):
        self.burst, self.rate, self.clock = burst, rate, clock
        self.left, self.at = float(burst), clock()

    def spend(self, amount: float = 1) -> bool:
        """Take `amount` out; False if that overdraws the allowance."""
        self.refill()
        self.left -= amount
        return self.left >= 0

    def give_back(self, amount: float = 1) -> None:
        self.left = min(self.burst, self.left + amount)

    def refill(self) -> float:
        """What is left now."""
        now = self.clock()
        self.left = min(self.burst, self.left + (now - self.at) * self.rate)
        self.at = now
        return self.left


class Address:
    """One address's allowances, and whether it is refused."""

    def __init__(self, rules: Guarding, clock: Callable[[], float]):
        self.misses = Budget(rules.misses, rules.misses / 60, clock)
        self.probes = Budget(rules.probes, rules.probes / 60, clock)
        self.claims = Budget(rules.claims, rules.claims / 3600, clock)
        self.until = 0.0  # refused until then

    def idle(self) -> bool:
        """Nothing spent and nothing refused: the record can go."""
        return all(budget.refill() >= budget.burst
                   for budget in (self.misses, self.probes, self.claims))


class Refused(Exception):
    """A try refused before it is checked (the message says why, to the
    one who tried)."""


class Busy(Refused):
    """A try refused because too many wait at its name: another may do."""


class Guard:
    """Every door's budgets: turns by name, allowances by address and
    for the whole room."""

    def __init__(self, rules: Guarding = Guarding(),
                 clock: Callable[[], float] = time.monotonic):
        self.rules, self.clock = rules, clock
        self.addresses: dict[str, Address] = {}
        self.turns: dict[str, list] = {}  # a lock and how many hold it
        self.room_misses = Budget(rules.room_misses, rules.room_misses / 60,
                                  clock)
        self.room_claims = Budget(rules.room_claims, rules.room_claims / 60,
                                  clock)

    def address(self, host: str) -> Address:
        if host not in self.addresses:
            self.addresses[host] = Address(self.rules, self.clock)
        return self.addresses[host]

    def refusal(self, host: str) -> str | None:
        """Why `host` is refused now; None if it is not."""
        left = self.address(host).until - self.clock()
        if left <= 0:
            return None
        minutes = max(1, round(left / 60))
        return (f"Too many wrong passwords or tries from your address: it "
                f"is refused for {minutes} more minute"
                f"{'s' if minutes != 1 else ''}.")

    def over(self, host: str, budget: Budget) -> str | None:
        """Spend one of `host`'s `budget`; overdrawn, it is refused."""
        if budget.spend():
            return None
        self.address(host).until = self.clock() + self.rules.penalty
        return self.refusal(host)

    def guess(self, host: str) -> str | None:
        """A password has arrived from `host`: charge it (see `proved`)."""
        refused = self.refusal(host)
        if refused is not None:
            return refused
        if not self.room_misses.spend():
            self.room_misses.give_back()
            return ("The room takes no passwords for a minute: too many wrong "
                    "ones have been tried. An SSH key still logs you in.")
        return self.over(host, self.address(host).misses)

    def proved(self, host: str) -> None:
        """The password charged was right: it costs nothing."""
        self.address(host).misses.give_back()
        self.room_misses.give_back()

    def probe(self, host: str) -> str | None:
        """A try that tells a claimed name from an unclaimed one."""
        return self.refusal(host) or self.over(host, self.address(host).probes)

    def claim(self, host: str) -> str | None:
        """A name is about to be claimed from `host`."""
        refused = self.refusal(host) or self.over(host,
                                                  self.address(host).claims)
        if refused is None and not self.room_claims.spend():
            self.room_claims.give_back()
            refused = "The room takes no new names for a minute. Try again soon."
        return refused

    @asynccontextmanager
    async def turn(self, name: str) -> AsyncIterator[None]:
        """Wait for `name`'s turn to have a password checked; Refused if too
        many wait already. A wait abandoned leaves the queue."""
        held = self.turns.setdefault(name, [asyncio.Lock(), 0])
        if held[1] > self.rules.queue:
            raise Busy(f"Too many tries at {name} just now: try again in a "
                       f"moment.")
        held[1] += 1
        try:
            async with held[0]:
                yield
        finally:
            held[1] -= 1
            if not held[1]:
                del self.turns[name]

    def sweep(self) -> None:
        """Forget the addresses that have spent nothing for a while."""
        now = self.clock()
        for host in [host for host, seen in self.addresses.items()
                     if seen.until <= now and seen.idle()]:
            del self.addresses[host]
