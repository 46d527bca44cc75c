# Tangled from literate/people.md: edit the chapter, not this file, then run `retro tangle`.
"""Each machine's lead over the rounds against each kind of player like
a person: a figure of the people chapter.

Tangled from literate/people.md, which explains it.
"""
from __future__ import annotations

from functools import cache, partial

from retro.engines.entrants import MACHINES, PLAYERS, make_machine
from retro.engines.people import GuessSwitch, GuessSwitchWhileHalf, Mixed
from retro.engines.umpire import game_rngs, play_game

SEQUENCES, ROUNDS, SEED = 40, 100, 1
SIZES = {"people-leads": (7.2, 5.6)}


RULES = {"switch": GuessSwitch, "switch-half": GuessSwitchWhileHalf}
OWN = {**RULES, "human-mixed": Mixed}
NAMES = [name for name in MACHINES if name not in ("coin", *RULES)]
PEOPLE = [name for name in PLAYERS if name not in OWN] + ["human-mixed"]


def entrant(name: str, rng):
    """A machine or player by name: this chapter's own, or the registry's."""
    return OWN[name](rng) if name in OWN else make_machine(name, rng)


@cache
def leads(player: str) -> dict[str, list[float]]:
    """Each machine's mean lead (rounds won less rounds lost) after each
    round, over SEQUENCES sequences of ROUNDS rounds against `player`."""
    rounds = range(1, ROUNDS + 1)
    found = {}
    for name in [*NAMES, *RULES]:
        total = [0] * ROUNDS
        for game in range(SEQUENCES):   # a game as the umpire plays it
            a_rng, b_rng = game_rngs(SEED, game)
            wins = play_game(entrant(name, a_rng), entrant(player, b_rng),
                             rounds)
            for index, (won, played) in enumerate(zip(wins, rounds)):
                total[index] += 2 * won - played
        found[name] = [t / SEQUENCES for t in total]
    return found


LOOKS = {"seer": ("C4", "--", 1.0), "mrm": ("C3", "--", 1.0),
         "awk": ("C2", "-", 1.5), "scp": ("C4", ":", 1.0),
         "flip": ("C3", ":", 1.0), "mixer": ("C0", "-", 1.5),
         "augur": ("C1", "-", 2.5), "switch": ("black", ":", 1.5),
         "switch-half": ("black", "--", 1.5)}


def draw_people_leads(figure, columns: int = 4) -> None:
    panels = figure.subplots(-(-len(PEOPLE) // columns), columns,
                             sharex=True, sharey=True)
    for axes, player in zip(panels.flat, PEOPLE):
        for name, lead in leads(player).items():
            colour, line, width = LOOKS.get(name, ("C4", "-.", 1.0))
            axes.plot(range(1, ROUNDS + 1), lead, color=colour,
                      linestyle=line, linewidth=width, label=name)
        axes.axhline(0, color="C4", linewidth=0.5)
        axes.set_title(player.removeprefix("human-"))
    for axes in panels.flat[len(PEOPLE):]:
        axes.axis("off")
    for axes in panels.flat[len(PEOPLE) - columns:len(PEOPLE)]:  # lowest
        axes.set_xlabel("round")
        axes.xaxis.set_tick_params(labelbottom=True)
    for axes in panels[:, 0]:
        axes.set_ylabel("lead, rounds")
    figure.legend(*panels[0, 0].get_legend_handles_labels(),
                  loc="outside lower center", ncols=columns + 1)


FIGURES = {"people-leads": draw_people_leads}
NARROW = {"people-leads": partial(draw_people_leads, columns=2)}
NARROW_SIZES = {"people-leads": (3.8, 7.4)}
