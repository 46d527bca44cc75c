# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""The subcommands that print reports: the umpire, hexapawn's, Penney's."""
