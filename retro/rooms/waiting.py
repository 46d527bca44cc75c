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
        self.at_work = False  # the server is working for it: not its wait


class Waiting:
    """The connections not yet logged in: how many, from where, and which
    one goes when there are too many."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.tickets: dict[Ticket, None] = {}  # oldest first

    def arrive(self, host: str,
               drop: Callable[[], object]) -> Ticket | None:
        """A place for a new connection from `host`, made if need be by
        dropping the oldest of the most crowded address; None if every
        place is one the server is working for."""
        same = [ticket for ticket in self.tickets if ticket.host == host]
        if len(same) >= self.limits.waiting_per_address:
            if not self.drop_oldest(same):
                return None
        elif len(self.tickets) >= self.limits.waiting:
            if not self.drop_oldest(self.most_crowded()):
                return None
        ticket = Ticket(host, drop)
        self.tickets[ticket] = None
        return ticket

    def drop_oldest(self, tickets: list[Ticket]) -> bool:
        """Drop the oldest of `tickets` the server is not working for."""
        ticket = next((ticket for ticket in tickets if not ticket.at_work),
                      None)
        if ticket is None:
            return False
        self.leave(ticket)
        ticket.drop()
        return True

    def most_crowded(self) -> list[Ticket]:
        """The waiting connections of the address that has the most, oldest
        first, those the server is working for left out."""
        by_host: dict[str, list[Ticket]] = {}
        for ticket in self.tickets:
            if not ticket.at_work:
                by_host.setdefault(ticket.host, []).append(ticket)
        return max(by_host.values(), key=len, default=[])

    def leave(self, ticket: Ticket | None) -> None:
        if ticket is not None:
            self.tickets.pop(ticket, None)

    def __len__(self) -> int:
        return len(self.tickets)
