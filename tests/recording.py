"""A stream teletype for the hostile-input tests of the games."""
from __future__ import annotations

import re

from hypothesis import strategies as st

from retro.services.teletype import StreamTeletype

# what any prompt may be sent: other scripts' digits, huge numbers and lines,
# control characters, format characters, words a game knows, format codes
HOSTILE_WORDS = ("\u0663", "\u00b2", "\u2463", "1" * 5000, "-" + "9" * 5000,
                 "x" * 100_000, "\x00\x07\x1b[2J\x7f", "\u202e\ufeff",
                 "help", "q", "quit", "", "%s{}")


def hostile_lines(*words: str):
    """A strategy for one line typed at a game: the hostile words, the
    game's own `words`, and any short text, never holding a line break."""
    return st.one_of(
        st.sampled_from(HOSTILE_WORDS + words),
        st.text(max_size=40),
        st.text(alphabet=st.characters(max_codepoint=0x9f), max_size=10),
    ).filter(lambda line: "\n" not in line and "\r" not in line)


class Recording(StreamTeletype):
    """A stream teletype that notes every question and the answer it got."""

    def __init__(self, *streams):
        super().__init__(*streams)
        self.asked: list[tuple[str, str]] = []

    def ask(self, prompt, choices=(), **options):
        answer = super().ask(prompt, choices, **options)
        self.asked.append((prompt, answer))
        return answer


def squashed(text: str) -> str:
    """Text without any whitespace, to compare across the teletype's folding."""
    return re.sub(r"\s", "", text)
