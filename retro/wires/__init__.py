# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""The served room's wire protocols: telnet and SSH, bytes in, lines out."""
