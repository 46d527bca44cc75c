# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""Each game's conversation at the teletype, and the registry of games."""
