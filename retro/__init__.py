# Tangled from literate/cli.md: edit the chapter, not this file, then run `retro tangle`.
"""Retro: the machines that first learned to play games, as literate Python."""

__version__ = "0.1.0"
