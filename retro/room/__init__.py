# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""The house: the teletype, the store, and the room in front of the games."""
