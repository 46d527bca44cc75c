# Tangled from literate/postgres.md: edit the chapter, not this file, then run `retro tangle`.
"""`retro store copy FROM TO`: a room's records, from one store to another.

Tangled from literate/postgres.md, which explains it.
"""
from __future__ import annotations

import sys
from pathlib import Path

from retro.services.postgres import shown
from retro.services.store import Store, StoreError, is_url


def register(subparsers) -> None:
    """Add `retro store copy FROM TO`."""
    store = subparsers.add_parser(
        "store", help="copy a room's records between SQLite and PostgreSQL",
        description="The records of a room: its accounts, games, bankrolls, "
                    "HER's matchboxes and Flip's notes.")
    actions = store.add_subparsers(title="actions", metavar="ACTION",
                                   required=True)
    copy = actions.add_parser(
        "copy", help="copy every record from one store to an empty one",
        description="Copy every record from FROM to TO, each a SQLite file "
                    "or a postgresql:// URL; TO must hold nothing yet.")
    copy.add_argument("source", metavar="FROM",
                      help="the store to copy: a SQLite file or a URL")
    copy.add_argument("target", metavar="TO",
                      help="an empty store: a SQLite file or a URL")
    copy.set_defaults(func=copy_command)


def copy_command(args) -> int:
    try:
        print(copy(args.source, args.target))
        return 0
    except StoreError as error:
        print(f"retro store copy: {error}", file=sys.stderr)
        return 1


def copy(source: str, target: str) -> str:
    """Copy every record from `source` to the empty `target`: what was."""
    if not is_url(source) and not Path(source).is_file():
        raise StoreError(f"there is no store at {source}")
    with opened(source) as origin:
        results, state = origin.every_record()
    with opened(target) as destination:
        held = destination.counts()
        if held != (0, 0):
            raise StoreError(f"{named(target)} holds {held[0]:,} results and "
                             f"{held[1]:,} values already: copy into an "
                             f"empty store")
        destination.take_in(results, state)
        again = destination.every_record()
        counted = destination.counts()
    if (by_number(again[0]), dict(row[:2] for row in again[1])) != (
            by_number(results), dict(row[:2] for row in state)) \
            or counted != (len(results), len(state)):
        raise StoreError(f"the copy in {named(target)} differs from "
                         f"{named(source)}")
    accounts = sum(key.startswith("account:") for key, *_ in state)
    return (f"copied {len(results):,} results and {len(state):,} values "
            f"({accounts:,} accounts) from {named(source)} to "
            f"{named(target)}; counted again there: {counted[0]:,} and "
            f"{counted[1]:,}")


def opened(where: str) -> Store:
    """The store at `where`, which must open as it is, or a StoreError."""
    warned: list[str] = []
    store = Store.open(where, fallback=False, warn=warned.append)
    if warned:  # a damaged file, set aside: nothing to copy, or into
        store.close()
        raise StoreError(warned[0].removeprefix("retro: "))
    return store


def named(where: str) -> str:
    return shown(where) if is_url(where) else str(Path(where).resolve())


def by_number(results: list[tuple]) -> dict:
    return {row[0]: row[1:] for row in results}
