# Tangled from literate/teletype.md: edit the chapter, not this file, then run `retro tangle`.
"""The terminal's histories: the answers worth recalling, and no more.

Tangled from literate/teletype.md, which explains it.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # prompt_toolkit is imported only at a terminal
    from prompt_toolkit.history import History


LONGEST_REMEMBERED = 200  # characters; a longer answer is not kept
REMEMBERED = 500  # answers kept in a history file


def memorable(answer: str) -> bool:
    return 0 < len(answer) <= LONGEST_REMEMBERED and not answer.isspace()


def bounded_history(path: Path | None) -> History:
    """A prompt_toolkit history that keeps only what is worth recalling."""
    from prompt_toolkit.history import FileHistory, History, InMemoryHistory

    underneath: History = InMemoryHistory()
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass
        underneath = FileHistory(str(path))

    class Bounded(History):
        def append_string(self, string: str) -> None:
            if memorable(string):
                super().append_string(string)

        def store_string(self, string: str) -> None:
            try:
                underneath.store_string(string)
            except OSError:
                pass

        def load_history_strings(self) -> Iterator[str]:
            try:
                loaded = list(underneath.load_history_strings())
            except OSError:
                return iter(())
            kept = [answer for answer in loaded if memorable(answer)][:REMEMBERED]
            if path is not None and len(kept) < len(loaded):
                try:
                    fresh = path.with_name(path.name + ".new")
                    fresh.write_text("".join(f"\n# kept\n+{answer}\n"
                                             for answer in reversed(kept)),
                                     encoding="utf-8")
                    os.replace(fresh, path)
                except OSError:
                    pass
            return iter(kept)

    return Bounded()
