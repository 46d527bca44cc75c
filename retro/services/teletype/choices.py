# Tangled from literate/teletype.md: edit the chapter, not this file, then run `retro tangle`.
"""What a question offers to complete, and how Tab completes it.

Tangled from literate/teletype.md, which explains it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Union


Listed = Union[Sequence[str], Mapping[str, Sequence[str]]]
Choices = Union[Listed, Callable[[], Listed]]


def completer(choices: Choices):
    """A prompt_toolkit completer for `choices`, or None for none."""
    from prompt_toolkit.completion import Completer, Completion

    if not callable(choices) and not isinstance(choices, Mapping) \
            and not list(choices):
        return None

    class Offer(Completer):
        def get_completions(self, document, complete_event):
            before = document.text_before_cursor
            typing = word_typed(before)
            for choice in completions(choices, before):
                yield Completion(choice, start_position=-len(typing))

    return Offer()


def completions(choices: Choices, before: str) -> list[str]:
    """The choices that finish the word at the end of `before`, each in
    the case it was typed in."""
    menu = choices() if callable(choices) else choices
    typing = word_typed(before)
    words = before.split()[:-1] if typing else before.split()
    offered = (menu.get(" ".join(words).lower(), ())
               if isinstance(menu, Mapping) else menu)
    return [in_the_case_of(typing or before, choice) for choice in offered
            if choice.lower().startswith(typing.lower())]


def word_typed(before: str) -> str:
    """The word being typed at the end of `before`; "" after a space."""
    return "" if not before or before[-1].isspace() else before.split()[-1]


def in_the_case_of(typed: str, choice: str) -> str:
    """`choice` in the case of `typed`: capitals, small letters, or its own."""
    if typed.isupper():
        return choice.upper()
    return choice.lower() if typed.islower() else choice
