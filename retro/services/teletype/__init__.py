# Tangled from literate/teletype.md: edit the chapter, not this file, then run `retro tangle`.
"""The teletype: the one object a game talks through (say, draw, ask, page).

Tangled from literate/teletype.md, which explains it. A module to a
concern: paper (the page, the carriage, the pace), choices (Tab), shared
(what every teletype shares), stream, line and terminal (the three
teletypes), history (the terminal's).
"""
from retro.services.teletype.choices import Choices, completer, completions
from retro.services.teletype.history import (LONGEST_REMEMBERED, REMEMBERED,
                                             bounded_history)
from retro.services.teletype.line import (GoingDown, LineTeletype, Signal,
                                          as_heard)
from retro.services.teletype.paper import (NARROWEST, WIDTH, Carriage, Pace,
                                           cells, characters_per_second,
                                           clean, graphemes, paper_width,
                                           printable)
from retro.services.teletype.shared import Teletype
from retro.services.teletype.stream import StreamTeletype, open_teletype
from retro.services.teletype.terminal import LONGEST_TYPED, TerminalTeletype

__all__ = [
    "Carriage", "Choices", "GoingDown", "LONGEST_REMEMBERED", "LONGEST_TYPED",
    "LineTeletype", "NARROWEST", "Pace", "REMEMBERED", "Signal",
    "StreamTeletype", "Teletype", "TerminalTeletype", "WIDTH", "as_heard",
    "bounded_history", "cells", "characters_per_second", "clean",
    "completer", "completions", "graphemes", "open_teletype", "paper_width",
    "printable",
]
