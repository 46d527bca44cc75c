# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""The book's parts, and the chapters of each in reading order.

Tangled from literate/house.md, which explains it.
"""
PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("The games and their machines",
     ("mindreader", "machines", "seer", "mrm", "scp", "people", "umpire",
      "mixer", "reader", "flip", "hexapawn", "matchbox", "hexapawn_theory",
      "penney", "penney_odds")),
    ("The room", ("room", "teletype", "store", "postgres", "roster", "serve",
                  "accounts", "wire", "web", "page",
                  "house")),
    ("The toolchain", ("tangle", "weave", "figures", "cli")),
)
