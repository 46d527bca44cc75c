# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""The rooms that host the games: the room, at the console and served."""
