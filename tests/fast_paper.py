"""`python tests/fast_paper.py ARGS` is `retro ARGS` with its paper on a fast
clock: the teletype's pace is reckoned on a clock that runs FAST times
faster than the wall clock, and its pauses are that much shorter.

The console tests of a slow line (tests/test_console.py) run the room in a
real terminal at 110 or 300 baud. At those speeds the printing is what the
tests are about, a Ctrl-C or a line typed while the paper prints, and a
second of it takes a fifth of a second here. The paper is still printing
when the test types: the menu's last 112 characters, the shortest stretch a
test types into, take 0.75 s at 300 baud here, where pexpect types within
milliseconds of seeing the menu begin. Nothing of the room is changed: the
teletype takes its clock and its sleep as arguments (literate/teletype.md,
"The pace"), and the console's teletype is opened with them given.
"""
from __future__ import annotations

import asyncio
import functools
import sys
import time

FAST = 5  # the paper's seconds in one second of the wall clock


def main(argv: list[str]) -> int:
    from retro import cli
    from retro.services import teletype

    start = time.monotonic()

    def clock() -> float:
        return start + (time.monotonic() - start) * FAST

    async def sleep(seconds: float) -> None:
        await asyncio.sleep(seconds / FAST)

    # the console opens its teletype by this name, when it opens a session
    teletype.open_teletype = functools.partial(
        teletype.open_teletype, clock=clock, sleep=sleep)
    return cli.main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
