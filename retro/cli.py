# Tangled from literate/cli.md: edit the chapter, not this file, then run `retro tangle`.
"""The `retro` command: the room, `play`, and each module's subcommand."""
from __future__ import annotations

import argparse
import importlib
import sys

from retro import __version__

SUBCOMMAND_MODULES = ("retro.tangle", "retro.umpire", "retro.hexapawn",
                      "retro.penney")


def optional_module(name: str):
    """Import a module of Retro, or None if it is not written yet."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name == name:
            return None
        raise

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="retro",
        description="Play the machines that first learned to play games, "
                    "read how they work, and tangle the book into code.")
    parser.add_argument("--version", action="version",
                        version=f"retro {__version__}")
    parser.set_defaults(func=None)
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        module = optional_module(name)
        if module is not None and hasattr(module, "register"):
            module.register(subparsers)
    return parser

def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.func is None:
        room = optional_module("retro.room")
        if room is None:
            parser.print_help()
            return 0
        return room.main(args)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
