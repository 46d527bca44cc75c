# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""The machines and games themselves: pure rules, no input or output."""
