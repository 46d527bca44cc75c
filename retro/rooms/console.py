# Tangled from literate/room.md: edit the chapter, not this file, then run `retro tangle`.
"""The room, or one game, at the console: one event loop, Ctrl-C handled.

Tangled from literate/room.md, which explains it.
"""
from __future__ import annotations

import asyncio
import signal
from collections.abc import Coroutine
from types import FrameType
from typing import Any

from retro.services.teletype import Teletype


def at_console(tty: Teletype, conversation: Coroutine[Any, Any, Any]) -> Any:
    """Run `conversation` to its end on a fresh loop; what it returns."""
    with asyncio.Runner() as runner:
        loop = runner.get_loop()

        def ctrl_c(number: int, frame: FrameType | None) -> None:
            if tty.blocking or not loop.is_running():
                raise KeyboardInterrupt
            tty.note_interrupt()  # heard now: this is the loop's thread
            loop.call_soon_threadsafe(tty.stop_printing)

        try:
            before = signal.signal(signal.SIGINT, ctrl_c)
        except ValueError:  # not the main thread: no signals here
            before = None
        try:
            return runner.run(conversation)
        finally:
            if before is not None:
                signal.signal(signal.SIGINT, before)
