# Tangled from literate/serve.md: edit the chapter, not this file, then run `retro tangle`.
"""The waiting room: the connections not yet logged in.

Tangled from literate/serve.md, which explains it.
"""
from __future__ import annotations

from collections.abc import Callable

from retro.rooms.limits import Limits


class Ticket:
    """A place in the waiting room."""

    def __init__(self, host: str, drop: Callable[[], object]):
        self.host, self.drop = host, drop


class Waiting:
    """The connections not yet logged in: how many, from where, and which
    one goes when there are too many."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.tickets: dict[Ticket, None] = {}  # oldest first

    def arrive(self, host: str, drop: Callable[[], object]) -> Ticket:
        """A place for a new connection from `host`, made if need be by
        dropping the oldest of the most crowded address."""
        same = [ticket for ticket in self.tickets if ticket.host == host]
        if len(same) >= self.limits.waiting_per_address:
            self.drop(same[0])
        elif len(self.tickets) >= self.limits.waiting:
            self.drop(self.most_crowded()[0])
        ticket = Ticket(host, drop)
        self.tickets[ticket] = None
        return ticket

    def drop(self, ticket: Ticket) -> None:
        self.leave(ticket)
        ticket.drop()

    def most_crowded(self) -> list[Ticket]:
        """The waiting connections of the address that has the most,
        oldest first."""
        by_host: dict[str, list[Ticket]] = {}
        for ticket in self.tickets:
            by_host.setdefault(ticket.host, []).append(ticket)
        return max(by_host.values(), key=len)

    def leave(self, ticket: Ticket | None) -> None:
        if ticket is not None:
            self.tickets.pop(ticket, None)

    def __len__(self) -> int:
        return len(self.tickets)
