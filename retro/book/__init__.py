# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""The literate toolchain: the tangler, which needs nothing else of Retro."""
