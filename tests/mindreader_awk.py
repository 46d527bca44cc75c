"""Run the original AWK mind reader beside the port, and compare them.

The original program is the AWK literate program on the LiteratePrograms
wiki, "Mind reading machine (AWK)". It is not part of the repository: the
tests assemble it at test time from the saved page among the source
documents (tests/sources.py, `source_text("001_")`), chunks in the order of
its root chunk <<mindreader.awk>>, and write it to a scratch directory
beside a one-line stand-in for its commented-out <<set seed>> chunk,
`BEGIN { srand(seed) }`, so that a run under mawk is reproducible. What is
kept in the repository are recordings of running it: the AWK's figures for
2000 seeds (tests/data/mindreader_awk_reference.json) and one match with its
random numbers (tests/transcripts/mindreader_awk_seed3.*,
tests/data/mindreader_awk_seed3.rand). Nothing in retro/ imports this file.

From the command line it finds the page the way the tests do (RETRO_SOURCES,
or ../shared/seeds beside the checkout):

    python tests/mindreader_awk.py lockstep --seeds 200
    python tests/mindreader_awk.py reference --seeds 2000 > tests/data/mindreader_awk_reference.json
    python tests/mindreader_awk.py compare --seeds 2000      # the chapter's table
    python tests/mindreader_awk.py sensitivity --seeds 2000  # broken ports, same check
    python tests/mindreader_awk.py fixture 3   # tests/transcripts/mindreader_awk_seed3.*
"""
from __future__ import annotations

import argparse
import json
import math
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from retro.engines import mindreader as mr
from retro.engines.machines import HEADS, TAILS
from retro.engines.mindreader import AwkMachine, Score, report, verdict

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
TRANSCRIPTS = HERE / "transcripts"
REFERENCE = DATA / "mindreader_awk_reference.json"
PAGE = "001_"  # the source document that holds the LiteratePrograms page

# Stands in for the listing's commented-out <<set seed>> chunk, run before
# the listing: it seeds rand() from `-v seed=N`.
SET_SEED = "BEGIN\t{ srand(seed) }\n"

REPORT = re.compile(r"You played (heads|tails); I guessed (heads|tails)\.  "
                    r"(I|You) win\. \((\d+)-(\d+)\)")


# --- the listing ------------------------------------------------------------

def extract_listing(page: str) -> str:
    """The AWK program in a LiteratePrograms page, chunks assembled.

    A chunk runs from its `<<name>>=` line to the next blank line; in the
    root chunk, a line that is exactly a chunk's name stands for that chunk
    (the page as saved lost the angle brackets of the references).
    """
    lines = page.replace("\u00a0", " ").splitlines()
    chunks: dict[str, list[str]] = {}
    i = 0
    while i < len(lines):
        match = re.fullmatch(r"<<(.+)>>=", lines[i].strip())
        i += 1
        if match:
            body = []
            while i < len(lines) and lines[i].strip() \
                    and lines[i].strip() != "Download code":
                body.append(lines[i])
                i += 1
            chunks.setdefault(match.group(1), []).extend(body)

    def expand(name: str) -> list[str]:
        out = []
        for line in chunks[name]:
            key = line.strip().strip("<>")
            out.extend(expand(key) if key in chunks and key != name else [line])
        return out

    return "\n".join(expand("mindreader.awk")) + "\n"


@dataclass(frozen=True)
class Original:
    """The original AWK program, written out where mawk can run it."""

    listing: Path    # the assembled listing
    set_seed: Path   # the stand-in for its <<set seed>>, run first

    def command(self, seed: int) -> list[str]:
        """mawk running the listing after srand(seed)."""
        return [mawk(), "-W", "interactive", "-v", f"seed={seed}",
                "-f", str(self.set_seed), "-f", str(self.listing)]


def assemble(page: str, directory: Path) -> Original:
    """Write the program on the LiteratePrograms page into `directory`."""
    listing = directory / "mindreader.awk"
    set_seed = directory / "set_seed.awk"
    listing.write_text(extract_listing(page), encoding="utf-8")
    set_seed.write_text(SET_SEED, encoding="utf-8")
    return Original(listing, set_seed)


# --- running mawk -----------------------------------------------------------

def mawk() -> str | None:
    """The mawk binary, if installed (its `-W interactive` is needed)."""
    return shutil.which("mawk")


def awk_version() -> str:
    out = subprocess.run([mawk(), "-W", "version"], capture_output=True,
                         text=True).stdout
    return out.splitlines()[0].strip() if out else "mawk"


def awk_uniforms(seed: int, count: int = 100) -> list[float]:
    """What mawk's rand() returns after srand(seed), exactly (17 digits)."""
    program = ("BEGIN { srand(seed); for (i = 0; i < n; i++) "
               'printf "%.17g\\n", rand() }')
    out = subprocess.run([mawk(), "-v", f"seed={seed}", "-v", f"n={count}",
                          program], capture_output=True, text=True, check=True)
    return [float(x) for x in out.stdout.split()]


def run_awk(original: Original, lines: Iterable[str], seed: int) -> str:
    """The AWK's whole output for these input lines, after srand(seed)."""
    text = "".join(line + "\n" for line in lines)
    return subprocess.run(original.command(seed), input=text,
                          capture_output=True, text=True, check=True).stdout


# --- players ----------------------------------------------------------------
# A player sees the rounds so far, as (play, guess) pairs, and plays 1 or 0.

Player = Callable[[Sequence[tuple[int, int]]], int]


def always_heads(seed: int) -> Player:
    return lambda rounds: HEADS


def alternating(seed: int) -> Player:
    return lambda rounds: (HEADS, TAILS)[len(rounds) % 2]


def pattern_hht(seed: int) -> Player:
    return lambda rounds: (HEADS, HEADS, TAILS)[len(rounds) % 3]


def coin_flipper(seed: int) -> Player:
    flips = random.Random(f"player {seed}")
    return lambda rounds: flips.getrandbits(1)


def win_stay_lose_shift(seed: int) -> Player:
    def player(rounds):
        if not rounds:
            return HEADS
        play, guess = rounds[-1]
        return play if play != guess else 1 - play
    return player


PLAYERS: dict[str, Callable[[int], Player]] = {
    "always heads": always_heads,
    "alternating": alternating,
    "h h t repeated": pattern_hht,
    "coin flipper": coin_flipper,
    "win-stay, lose-shift": win_stay_lose_shift,
}


# --- one match, either program -----------------------------------------------

@dataclass
class Match:
    """One finished match: its reported rounds, its score, its ending line."""

    reports: list[str] = field(default_factory=list)
    score: Score = Score()
    ending: str = ""


class Replay(random.Random):
    """A stand-in for random.Random that returns a recorded stream."""

    def __init__(self, uniforms: Sequence[float]):
        super().__init__(0)
        self.stream = list(uniforms)
        self.used = 0

    def random(self) -> float:
        if self.used >= len(self.stream):
            raise RuntimeError("the recorded random stream ran out")
        self.used += 1
        return self.stream[self.used - 1]


def play_port(player: Player, rng: random.Random,
              machine_factory=AwkMachine) -> Match:
    """A match between `player` and the port's engine (no teletype)."""
    machine = machine_factory(rng)
    match, rounds = Match(), []
    while not (ending := verdict(match.score)):
        guess = machine.choose()
        play = player(rounds)
        machine.learn(play)
        rounds.append((play, guess))
        match.score = match.score.after(play, guess)
        match.reports.append(report(play, guess, match.score))
    match.ending = ending
    return match


def play_awk(original: Original, player: Player, seed: int) -> Match:
    """A match between `player` and the original AWK, driven line by line."""
    process = subprocess.Popen(original.command(seed), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, bufsize=1)
    match, rounds = Match(), []
    try:
        while True:
            play = player(rounds)
            process.stdin.write("ht"[play == TAILS] + "\n")
            process.stdin.flush()
            while not (found := REPORT.search(line := process.stdout.readline())):
                if not line:
                    raise RuntimeError("the AWK stopped before the match ended")
            said, guessed, _, pw, cw = found.groups()
            guess = HEADS if guessed == "heads" else TAILS
            rounds.append((play, guess))
            match.reports.append(found.group(0))
            match.score = Score(int(pw), int(cw))
            if match.score.rounds == 100 or abs(int(pw) - int(cw)) == 20:
                break
        process.stdin.close()
        rest = process.stdout.read().splitlines()
        match.ending = rest[0].strip() if rest else ""
    finally:
        process.stdout.close()
        process.wait()
    return match


# --- statistics -------------------------------------------------------------

@dataclass(frozen=True)
class Summary:
    """Final scores of many matches, summarised."""

    n: int
    player: float          # mean rounds won by the player
    machine: float         # mean rounds won by the machine
    margin: float          # mean of machine - player
    margin_sd: float
    rounds: float          # mean length of a match
    rounds_sd: float
    draws: int             # matches that went the distance and ended 50-50

    @classmethod
    def of(cls, scores: Sequence[Score]) -> Summary:
        margins = [s.machine - s.player for s in scores]
        lengths = [s.rounds for s in scores]
        return cls(n=len(scores),
                   player=mean([s.player for s in scores]),
                   machine=mean([s.machine for s in scores]),
                   margin=mean(margins), margin_sd=sd(margins),
                   rounds=mean(lengths), rounds_sd=sd(lengths),
                   draws=sum(s.rounds == 100 and s.player == s.machine
                             for s in scores))


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def sd(xs: Sequence[float]) -> float:
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def z(a_mean, a_sd, a_n, b_mean, b_sd, b_n) -> float:
    """Difference of two means in units of its standard error."""
    se = math.sqrt(a_sd ** 2 / a_n + b_sd ** 2 / b_n)
    return (a_mean - b_mean) / se if se else 0.0


def port_scores(name: str, seeds: Iterable[int],
                machine_factory=AwkMachine) -> list[Score]:
    return [play_port(PLAYERS[name](s), random.Random(s), machine_factory).score
            for s in seeds]


def awk_scores(original: Original, name: str,
               seeds: Iterable[int]) -> list[Score]:
    return [play_awk(original, PLAYERS[name](s), s).score for s in seeds]


# --- command line -----------------------------------------------------------

def same_ending(awk: Match, port: Match) -> bool:
    """The same ending line, allowing for the AWK's 50-50 announcement."""
    if port.ending.startswith("We drew"):
        return awk.ending == "You won the match by 0 games."
    return awk.ending == port.ending


def lockstep(original: Original, seeds: Iterable[int],
             machine_factory=AwkMachine) -> dict[str, int]:
    """Matches whose every line the port reproduced from the AWK's stream."""
    same = {name: 0 for name in PLAYERS}
    for seed in seeds:
        uniforms = awk_uniforms(seed)
        for name, make in PLAYERS.items():
            awk = play_awk(original, make(seed), seed)
            port = play_port(make(seed), Replay(uniforms), machine_factory)
            if awk.reports == port.reports and same_ending(awk, port):
                same[name] += 1
    return same


def reference(original: Original, seeds: range) -> dict:
    return {"awk": awk_version(),
            "seeds": [seeds.start, seeds.stop - 1],
            "players": {name: vars(Summary.of(awk_scores(original, name, seeds)))
                        for name in PLAYERS}}


def compare(seeds: range, ref: dict) -> str:
    """The chapter's table: mean final scores of the AWK and the port."""
    n_awk = ref["seeds"][1] - ref["seeds"][0] + 1
    rows = [f"| player | AWK under mawk, {n_awk} matches | port, {len(seeds)} matches "
            "| z (margin) | z (length) | 50-50 finishes |",
            "| --- | --- | --- | --- | --- | --- |"]
    for name in PLAYERS:
        a = Summary(**ref["players"][name])
        p = Summary.of(port_scores(name, seeds))
        rows.append(
            f"| {name} | {a.player:.2f}-{a.machine:.2f} in {a.rounds:.1f} "
            f"| {p.player:.2f}-{p.machine:.2f} in {p.rounds:.1f} "
            f"| {z(p.margin, p.margin_sd, p.n, a.margin, a.margin_sd, a.n):+.2f} "
            f"| {z(p.rounds, p.rounds_sd, p.n, a.rounds, a.rounds_sd, a.n):+.2f} "
            f"| {a.draws} vs {p.draws} |")
    return "\n".join(rows)


def worst_z(name: str, seeds: Iterable[int], ref: dict,
            machine_factory=AwkMachine) -> float:
    """The larger |z| of margin and length, a machine's port vs the AWK."""
    p = Summary.of(port_scores(name, seeds, machine_factory))
    a = Summary(**ref["players"][name])
    return max(abs(z(p.margin, p.margin_sd, p.n, a.margin, a.margin_sd, a.n)),
               abs(z(p.rounds, p.rounds_sd, p.n, a.rounds, a.rounds_sd, a.n)))


# --- deliberately broken ports: what the comparison can see -----------------

def broken(*, lean: float | None = None, cap: int | None = None,
           blind: int = 0) -> type:
    """An AwkMachine with one rule changed.

    lean: the odds of following a tally of +-1 (the AWK: 0.75);
    cap: tallies clipped to +-cap (the AWK: unbounded);
    blind: situation bits ignored (4: whether the player won the round
    before last).
    """
    def case(mind):
        found = mr.situation(mind)
        return None if found is None else found & ~blind

    def consult(mind, rng):
        at = case(mind)
        t = 0 if at is None else mind.tally[at]
        if t == 0:
            return int(rng.random() + .5)
        last = mind.plays[-1]
        if abs(t) > 1:
            return last if t > 0 else 1 - last
        bias = last if t > 0 else 1 - last
        follow = rng.random() < lean if lean is not None \
            else int(rng.random() + .75)
        return bias if follow else 1 - bias

    def update(mind, play, guess):
        tally, at = list(mind.tally), case(mind)
        if at is not None:
            tally[at] += 1 if play == mind.plays[-1] else -1
            if cap is not None:
                tally[at] = max(-cap, min(cap, tally[at]))
        return mr.Mind(tuple(tally), (mind.plays + (play,))[-2:],
                       (mind.guesses + (guess,))[-2:])

    class Broken(AwkMachine):
        def choose(self):
            self.guess = consult(self.mind, self.rng)
            return self.guess

        def learn(self, opponent):
            self.mind = update(self.mind, opponent, self.guess)
            self.guess = None

    return Broken


BROKEN = {
    "follows a tally of +-1 at even odds": broken(lean=0.5),
    "follows a tally of +-1 always": broken(lean=1.0),
    "follows a tally of +-1 2 times in 3": broken(lean=2 / 3),
    "ignores whether you won the round before last": broken(blind=4),
    "clips its tallies at +-2": broken(cap=2),
}


def sensitivity(seeds: range, ref: dict) -> str:
    """How far each broken port lands from the AWK, in standard errors."""
    rows = ["| a port that ... | " + " | ".join(PLAYERS) + " |",
            "| --- |" + " --- |" * len(PLAYERS)]
    for label, factory in {"is the port itself": AwkMachine, **BROKEN}.items():
        cells = [f"{worst_z(name, seeds, ref, factory):.1f}" for name in PLAYERS]
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def write_fixture(original: Original, seed: int,
                  player: str = "coin flipper") -> None:
    """The AWK's own transcript of one match, with its random stream."""
    match = play_awk(original, PLAYERS[player](seed), seed)
    lines = [m.split()[2].rstrip(";") for m in match.reports]
    stem = TRANSCRIPTS / f"mindreader_awk_seed{seed}"
    stem.with_suffix(".in").write_text("".join(x + "\n" for x in lines))
    stem.with_suffix(".out").write_text(run_awk(original, lines, seed))
    (DATA / f"mindreader_awk_seed{seed}.rand").write_text(
        "".join(f"{u!r}\n" for u in awk_uniforms(seed)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("lockstep", "reference", "compare", "sensitivity"):
        p = sub.add_parser(name)
        p.add_argument("--seeds", type=int, default=200)
        p.add_argument("--first", type=int, default=1)
    for name in ("compare", "sensitivity"):
        sub.choices[name].add_argument(
            "--reference", type=Path, default=REFERENCE,
            help="AWK figures written by `reference` (default: %(default)s)")
    fixture = sub.add_parser("fixture")
    fixture.add_argument("seed", type=int)
    args = parser.parse_args(argv)
    seeds = range(getattr(args, "first", 1),
                  getattr(args, "first", 1) + getattr(args, "seeds", 0))
    if args.command in ("compare", "sensitivity"):
        ref = json.loads(args.reference.read_text())
        table = compare if args.command == "compare" else sensitivity
        print(table(seeds, ref))
        return 0
    if mawk() is None:
        print("mawk is not installed", file=sys.stderr)
        return 2
    page = page_from_sources()
    if page is None:
        print(f"the source document {PAGE}* is not on this machine "
              "(set RETRO_SOURCES)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        original = assemble(page, Path(scratch))
        if args.command == "fixture":
            write_fixture(original, args.seed)
        elif args.command == "lockstep":
            same = lockstep(original, seeds)
            for name, count in same.items():
                print(f"{name}: {count} of {len(seeds)} matches identical")
        else:
            print(json.dumps(reference(original, seeds), indent=1))
    return 0


def page_from_sources() -> str | None:
    """The LiteratePrograms page, found as tests/sources.py finds it."""
    from sources import sources_dir   # beside this file
    where = sources_dir()
    found = sorted(where.glob(f"{PAGE}*")) if where else []
    return found[0].read_text(encoding="utf-8") if found else None


if __name__ == "__main__":
    sys.exit(main())
