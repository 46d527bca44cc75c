# Tangled from literate/cli.md: edit the chapter, not this file, then run `retro tangle`.
"""`python -m retro` is the `retro` command."""
import sys

from retro.cli import main

sys.exit(main())
