# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""Each game's front end: its conversation at the teletype, its commands."""
