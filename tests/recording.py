"""A stream teletype for the hostile-input tests of the games."""
from __future__ import annotations

import re

from retro.room.teletype import StreamTeletype


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
