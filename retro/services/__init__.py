# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""What the games use: the teletype they talk through, the store they keep."""
