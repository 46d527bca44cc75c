# Tangled from literate/mindreader.md: edit the chapter, not this file, then run `retro tangle`.
"""Shannon's mind-reading machine, ported from the AWK literate program.

Tangled from literate/mindreader.md, which explains it.
"""
from __future__ import annotations

import random
import textwrap
from dataclasses import dataclass

from retro.engines import machines

TITLE = "Mind Reader"
GAME = "mindreader"  # the name results are stored under

HEADS, TAILS = 1, 0
SITUATIONS = 8
ROUNDS = 100  # a match lasts this many rounds...
LEAD = 20     # ...unless one side gets this far ahead first


def seeded(seed: int | None = None) -> random.Random:
    """The machine's source of chance: from `seed`, or fresh if None."""
    return random.Random(seed)


@dataclass(frozen=True)
class Mind:
    """What the machine remembers between rounds."""

    tally: tuple[int, ...] = (0,) * SITUATIONS
    plays: tuple[int, ...] = ()    # the player's last two plays (hpa, hpb)
    guesses: tuple[int, ...] = ()  # the machine's last two guesses (hca, hcb)


def situation(mind: Mind) -> int | None:
    """The situation 0-7 the coming round is played in; None in rounds 1-2."""
    if len(mind.plays) < 2:
        return None
    (hpa, hpb), (hca, hcb) = mind.plays, mind.guesses
    won_before_last = hpa != hca
    changed = hpa != hpb
    won_last = hpb != hcb
    return 4 * won_before_last + 2 * changed + won_last


def consult(mind: Mind, rng: random.Random) -> int:
    """The machine's guess at the player's next play: HEADS or TAILS."""
    case = situation(mind)
    t = 0 if case is None else mind.tally[case]
    if t == 0:
        return int(rng.random() + .5)
    last = mind.plays[-1]
    if t < -1:
        return 1 - last
    if t == -1:
        return 1 - last if int(rng.random() + .75) else last
    if t == 1:
        return last if int(rng.random() + .75) else 1 - last
    return last


PLAYS = {"h": HEADS, "heads": HEADS, "t": TAILS, "tails": TAILS}
QUITS = {"q", "quit"}


def read_play(answer: str) -> int | None:
    """HEADS or TAILS for a typed play; None for anything else."""
    return PLAYS.get(answer.strip().lower())


def ask_play(tty, prompt: str) -> int | None:
    """Ask until the player gives a play; None if they quit."""
    while True:
        answer = tty.ask(prompt, choices=("heads", "tails", "quit"))
        play = read_play(answer)
        if play is not None:
            return play
        if answer.lower() in QUITS:
            return None
        tty.say("Please play heads or tails (h or t), or quit.")
        prompt = "heads or tails? "


@dataclass(frozen=True)
class Score:
    """Rounds won so far: the player's, then the machine's."""

    player: int = 0
    machine: int = 0

    @property
    def rounds(self) -> int:
        return self.player + self.machine

    def after(self, play: int, guess: int) -> Score:
        if play == guess:
            return Score(self.player, self.machine + 1)
        return Score(self.player + 1, self.machine)

    def __str__(self) -> str:
        return f"{self.player}-{self.machine}"


def face(side: int) -> str:
    return "heads" if side == HEADS else "tails"


def report(play: int, guess: int, score: Score) -> str:
    """The AWK's line about one round, e.g. '... You win. (1-0)'."""
    winner = "I" if play == guess else "You"
    return (f"You played {face(play)}; I guessed {face(guess)}.  "
            f"{winner} win. ({score})")


def update(mind: Mind, play: int, guess: int) -> Mind:
    """The memory after a round in which the player played `play`."""
    tally = mind.tally
    case = situation(mind)
    if case is not None:
        step = 1 if play == mind.plays[-1] else -1
        tally = tally[:case] + (tally[case] + step,) + tally[case + 1:]
    return Mind(tally=tally,
                plays=(mind.plays + (play,))[-2:],
                guesses=(mind.guesses + (guess,))[-2:])


def verdict(score: Score) -> str | None:
    """How the match ended, in the listing's words; None if it goes on."""
    lead = score.player - score.machine
    if score.rounds >= ROUNDS:
        if lead == 0:
            return f"We drew the match, {score.player} games each."
        winner = "You" if lead > 0 else "I"
        return f"{winner} won the match by {abs(lead)} games."
    if lead >= LEAD:
        return f"You win -- up by {LEAD}"
    if -lead >= LEAD:
        return f"I win -- up by {LEAD}"
    return None


def outcome(score: Score) -> str:
    """The match from the player's side, as the store records it."""
    if score.player == score.machine:
        return "draw"
    return "win" if score.player > score.machine else "loss"


class AwkMachine:
    """Shannon's mind-reading machine, as the AWK program plays it."""

    name = "awk"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.mind = Mind()
        self.guess: int | None = None

    def choose(self) -> int:
        self.guess = consult(self.mind, self.rng)
        return self.guess

    def learn(self, opponent: int) -> None:
        if self.guess is None:
            raise RuntimeError("learn() called before choose()")
        self.mind = update(self.mind, opponent, self.guess)
        self.guess = None


def opponents() -> dict[str, str]:
    """Every machine a player may face, AWK first: name -> description."""
    ordered = sorted(machines.MACHINES.items(),
                     key=lambda item: item[0] != "awk")
    return {name: description for name, (_, description) in ordered}


def choose_opponent(tty) -> str | None:
    """Ask which machine to face; an empty answer is awk, quit is None."""
    found = opponents()
    column = 2 + max(map(len, found)) + 2
    tty.say("Which machine shall read your mind?")
    for name, description in found.items():
        tty.say(textwrap.fill(description, width=70,
                              initial_indent=f"  {name}".ljust(column),
                              subsequent_indent=" " * column))
    while True:
        answer = tty.ask("opponent (awk)? ",
                         choices=(*found, "quit")).lower()
        if not answer:
            return "awk"
        if answer in found:
            return answer
        if answer in QUITS:
            return None
        tty.say(f"There is no machine called {answer[:20]!r}; "
                "pick one from the list.")


def meet_opponent(tty, name: str, rng: random.Random, *, ask: bool):
    """The machine the player faces, or None if there is to be no match."""
    while True:
        if ask:
            name = choose_opponent(tty)
            if name is None:
                return None
        try:
            return machines.make_machine(name, rng)
        except machines.MachineError as error:
            tty.say(f"Sorry: {error}.")
            if not ask:
                return None


def add_play_options(parser) -> None:
    """The options of `retro play mindreader`."""
    names = list(opponents())
    parser.add_argument(
        "--opponent", metavar="NAME", default="awk", choices=names,
        help=f"the machine to play against: {', '.join(names)} "
             "(default: awk, Shannon's machine as the AWK listing plays it)")


BANNER = """\
+--------------------------------------------------------------+
|  THE MIND READER                                             |
|     a paper-teletype game after C. E. Shannon's Bell Labs    |
|     memo of 1953, 'A Mind-Reading (?) Machine'               |
+--------------------------------------------------------------+
Let us match pennies.  Each round you pick heads or tails (h or t
will do), and I guess which.  If I guess right I win the round;
if I miss, you win it.  The match lasts 100 rounds, or until one
of us is 20 ahead.  Type quit to stop early."""

SIGN_OFF = " T H A N K   Y O U   F O R   P L A Y I N G "


def play(tty, *, rng: random.Random | None = None, store,
         seed: int | None = None, opponent: str = "awk",
         ask_opponent: bool = False, **options) -> None:
    """A match of matching pennies against a mind-reading machine."""
    if rng is None:
        rng = seeded(seed)
    ending = None
    try:
        machine = meet_opponent(tty, opponent, rng, ask=ask_opponent)
        if machine is None:
            tty.say(SIGN_OFF)
            return
        tty.say(BANNER)
        if machine.name != "awk":
            tty.say(f"Tonight your mind is read by {machine.name} -- "
                    f"{opponents()[machine.name]}.")
        score, plays, guesses = Score(), [], []
        prompt = "your play? "
        while (ending := verdict(score)) is None:
            guess = machine.choose()
            player = ask_play(tty, prompt)
            if player is None:
                break
            score = score.after(player, guess)
            tty.say(report(player, guess, score))
            machine.learn(player)
            plays.append(player)
            guesses.append(guess)
            prompt = "? "
    except EOFError:
        pass
    if ending is not None:
        tty.say(ending)
        store.record(GAME, score=str(score), outcome=outcome(score),
                     seed=seed,
                     detail={"opponent": machine.name,
                             "rounds": score.rounds,
                             "plays": "".join("TH"[p] for p in plays),
                             "guesses": "".join("TH"[g] for g in guesses)})
    tty.say(SIGN_OFF)
