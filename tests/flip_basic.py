"""A tiny BASIC interpreter: just enough BASIC to run tests/data/flip.bas.

The Flip chapter checks its port against "the BASIC program". No BASIC
interpreter is among Retro's dependencies, so the tests carry this one: about
two hundred lines for the subset that flip.bas uses, in the dialect of the
Microsoft BASICs the listing was written for.

    statements   REM  PRINT  INPUT  IF cond THEN line  GOTO  FOR/NEXT  DIM
                 END  and assignment (LET optional); several per line with ':'
    expressions  numbers, "strings", variables A, A1, A$, arrays A(I),
                 + - * / ^, = <> < > <= >=, AND, OR, parentheses,
                 RND(x), INT(x), LEFT$(s, n), TAB(n) (in PRINT only; the
                 leftmost column is 1, as in GW-BASIC and BASIC-80)
    PRINT        ';' joins, ',' moves to the next 14-column zone, a trailing
                 ';' or ',' keeps the line open; numbers print as Microsoft
                 BASIC prints them, with a sign place before and a space after
    INPUT        prints '? ' and reads one line

RND(x) draws from a `random.Random` handed in by the caller, so a seed that
drives the Python port drives this program through the same numbers.

Usage:

    transcript = run(source, answers, rng)

`answers` is an iterable of typed lines, or a callable that receives the
transcript so far and returns the next line (None ends the input); the run
stops at END, at the end of the program, or when the answers run out. The
transcript reads like a teletype's paper: each answer follows its prompt.
"""
from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Iterable

_TOKEN = re.compile(r"""
    \s*(?:
      (?P<number>\d+\.?\d*(?:E[-+]?\d+)?|\.\d+(?:E[-+]?\d+)?)
    | "(?P<string>[^"]*)"
    | (?P<name>[A-Z][A-Z0-9]*\$?)
    | (?P<op><>|<=|>=|[-+*/^=<>(),;:])
    )""", re.VERBOSE)

FUNCTIONS = ("RND", "INT", "LEFT$", "TAB", "ABS", "SGN")
KEYWORDS = ("THEN", "TO", "STEP", "AND", "OR")


class BasicError(Exception):
    """A mistake in the program, named by its line number."""


class _EndOfInput(Exception):
    pass


def tokenize(text: str) -> list[tuple[str, object]]:
    """Split one statement into (kind, value) tokens."""
    tokens, at = [], 0
    text = text.rstrip()
    while at < len(text):
        match = _TOKEN.match(text, at)
        if not match or match.end() == at:
            raise BasicError(f"cannot read {text[at:]!r}")
        at = match.end()
        kind = match.lastgroup
        value = match.group(kind)
        if kind == "number":
            tokens.append(("number", float(value)))
        elif kind == "name" and value in KEYWORDS:
            tokens.append(("op", value))
        else:
            tokens.append((kind, value))
    return tokens


def format_number(value: float) -> str:
    """A number as Microsoft BASIC prints it: ' 27 ', '-3 ', ' .5 '."""
    if value == int(value) and abs(value) < 1e9:
        text = str(int(value))
    else:
        text = f"{value:.9g}"
        if text.startswith("0."):
            text = text[1:]
        elif text.startswith("-0."):
            text = "-" + text[2:]
    return (text if value < 0 else " " + text) + " "


class Machine:
    """The state of a run: variables, arrays, the output and the input."""

    def __init__(self, rng: random.Random, answers):
        self.rng = rng
        self.scalars: dict[str, object] = {}
        self.arrays: dict[str, list] = {}
        self.out: list[str] = []
        self.column = 0
        if callable(answers):
            self.next_answer = lambda: answers("".join(self.out))
        else:
            feed = iter(answers)
            self.next_answer = lambda: next(feed, None)

    def write(self, text: str) -> None:
        self.out.append(text)
        tail = text.rsplit("\n", 1)
        self.column = len(tail[-1]) if len(tail) == 2 else \
            self.column + len(text)

    def array(self, name: str) -> list:
        if name not in self.arrays:  # an undeclared array has 11 places
            self.arrays[name] = [("" if name.endswith("$") else 0.0)] * 11
        return self.arrays[name]


class Parser:
    """Recursive descent over one statement's tokens, into closures."""

    def __init__(self, tokens):
        self.tokens, self.at = tokens, 0

    def peek(self):
        return self.tokens[self.at] if self.at < len(self.tokens) else (None, None)

    def take(self, value=None):
        token = self.peek()
        if value is not None and token[1] != value:
            raise BasicError(f"expected {value!r}, found {token[1]!r}")
        self.at += 1
        return token

    def done(self) -> bool:
        return self.at >= len(self.tokens)

    # expression := or ; or := and {OR and} ; and := comparison {AND comparison}
    def expression(self):
        left = self.conjunction()
        while self.peek() == ("op", "OR"):
            self.take()
            a, b = left, self.conjunction()
            left = lambda m, a=a, b=b: -1.0 if (a(m) or b(m)) else 0.0
        return left

    def conjunction(self):
        left = self.comparison()
        while self.peek() == ("op", "AND"):
            self.take()
            a, b = left, self.comparison()
            left = lambda m, a=a, b=b: -1.0 if (a(m) and b(m)) else 0.0
        return left

    _COMPARE = {"=": lambda a, b: a == b, "<>": lambda a, b: a != b,
                "<": lambda a, b: a < b, ">": lambda a, b: a > b,
                "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}

    def comparison(self):
        left = self.sum()
        kind, value = self.peek()
        if kind == "op" and value in self._COMPARE:
            self.take()
            test, right = self._COMPARE[value], self.sum()
            return lambda m, a=left, b=right, t=test: -1.0 if t(a(m), b(m)) else 0.0
        return left

    def sum(self):
        left = self.product()
        while self.peek()[1] in ("+", "-"):
            op = self.take()[1]
            a, b = left, self.product()
            left = (lambda m, a=a, b=b: a(m) + b(m)) if op == "+" else \
                (lambda m, a=a, b=b: a(m) - b(m))
        return left

    def product(self):
        left = self.power()
        while self.peek()[1] in ("*", "/"):
            op = self.take()[1]
            a, b = left, self.power()
            left = (lambda m, a=a, b=b: a(m) * b(m)) if op == "*" else \
                (lambda m, a=a, b=b: a(m) / b(m))
        return left

    def power(self):
        left = self.unary()
        while self.peek()[1] == "^":
            self.take()
            a, b = left, self.unary()
            left = lambda m, a=a, b=b: a(m) ** b(m)
        return left

    def unary(self):
        if self.peek()[1] == "-":
            self.take()
            inner = self.unary()
            return lambda m: -inner(m)
        if self.peek()[1] == "+":
            self.take()
        return self.primary()

    def primary(self):
        kind, value = self.take()
        if kind == "number":
            return lambda m, v=value: v
        if kind == "string":
            return lambda m, v=value: v
        if kind == "op" and value == "(":
            inner = self.expression()
            self.take(")")
            return inner
        if kind == "name" and value in FUNCTIONS:
            return self.function(value)
        if kind == "name":
            if self.peek()[1] == "(":
                index = self.subscript()
                return lambda m, n=value, i=index: m.array(n)[int(i(m))]
            default = "" if value.endswith("$") else 0.0
            return lambda m, n=value, d=default: m.scalars.get(n, d)
        raise BasicError(f"unexpected {value!r}")

    def subscript(self):
        self.take("(")
        index = self.expression()
        self.take(")")
        return index

    def function(self, name):
        self.take("(")
        args = [self.expression()]
        while self.peek()[1] == ",":
            self.take()
            args.append(self.expression())
        self.take(")")
        if name == "RND":
            return lambda m: m.rng.random()
        if name == "INT":
            return lambda m, a=args[0]: float(math.floor(a(m)))
        if name == "ABS":
            return lambda m, a=args[0]: abs(a(m))
        if name == "SGN":
            return lambda m, a=args[0]: float((a(m) > 0) - (a(m) < 0))
        if name == "LEFT$":
            return lambda m, s=args[0], n=args[1]: s(m)[:int(n(m))]
        if name == "TAB":
            return lambda m, a=args[0]: _Tab(int(a(m)))
        raise BasicError(f"no function {name}")

    def target(self):
        """A variable or array element to assign: returns a setter."""
        kind, name = self.take()
        if kind != "name" or name in FUNCTIONS:
            raise BasicError(f"cannot assign to {name!r}")
        if self.peek()[1] == "(":
            index = self.subscript()

            def store(m, value, n=name, i=index):
                m.array(n)[int(i(m))] = value
            return store

        def store(m, value, n=name):
            m.scalars[n] = value
        return store


class _Tab(int):
    """TAB(n) in a PRINT list: move to column n, the leftmost being 1."""


def _split_statements(text: str) -> list[str]:
    """Split a line at the colons that are not inside strings."""
    parts, current, quoted = [], [], False
    for char in text:
        if char == '"':
            quoted = not quoted
        if char == ":" and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return [part.strip() for part in parts if part.strip()]


class Program:
    """A parsed program: one flat list of statements, and where lines start."""

    def __init__(self, source: str):
        self.statements: list[Callable] = []
        self.where: list[int] = []  # the line number of each statement
        self.line_start: dict[int, int] = {}
        self.for_loops: dict[int, tuple] = {}
        for raw in source.splitlines():
            if not raw.strip():
                continue
            number, _, text = raw.strip().partition(" ")
            number = int(number)
            self.line_start[number] = len(self.statements)
            if text.upper().startswith("REM"):
                self._add(number, lambda m: None)
                continue
            for statement in _split_statements(text):
                try:
                    self._add(number, self._compile(statement))
                except BasicError as error:
                    raise BasicError(f"line {number}: {error}") from None

    def _add(self, number, action):
        self.where.append(number)
        self.statements.append(action)

    def _compile(self, text: str):
        tokens = tokenize(text.upper() if '"' not in text else
                          _upper_outside_strings(text))
        parser = Parser(tokens)
        kind, word = parser.peek()
        if word == "LET":
            parser.take()
            word = None
        if word == "REM":
            return lambda m: None
        if word == "END":
            return lambda m: "END"
        if word == "GOTO":
            parser.take()
            line = int(parser.take()[1])
            return lambda m: ("GOTO", line)
        if word == "IF":
            parser.take()
            condition = parser.expression()
            parser.take("THEN")
            line = int(parser.take()[1])
            return lambda m: ("GOTO", line) if condition(m) else None
        if word == "DIM":
            parser.take()
            dims = []
            while not parser.done():
                name = parser.take()[1]
                size = parser.subscript()
                dims.append((name, size))
                if not parser.done():
                    parser.take(",")

            def dim(m, dims=dims):
                for name, size in dims:
                    empty = "" if name.endswith("$") else 0.0
                    m.arrays[name] = [empty] * (int(size(m)) + 1)
            return dim
        if word == "PRINT":
            parser.take()
            return self._print(parser)
        if word == "INPUT":
            parser.take()
            store = parser.target()

            def read(m, store=store):
                m.write("? ")
                answer = m.next_answer()
                if answer is None:
                    raise _EndOfInput
                m.write(answer + "\n")
                store(m, answer.strip())
            return read
        if word == "FOR":
            parser.take()
            name = parser.take()[1]
            parser.take("=")
            start = parser.expression()
            parser.take("TO")
            stop = parser.expression()
            step = lambda m: 1.0
            if not parser.done():
                parser.take("STEP")
                step = parser.expression()
            return ("FOR", name, start, stop, step)
        if word == "NEXT":
            parser.take()
            name = parser.take()[1] if not parser.done() else None
            return ("NEXT", name)
        store = parser.target()
        parser.take("=")
        value = parser.expression()
        if not parser.done():
            raise BasicError(f"extra text in {text!r}")
        return lambda m: store(m, value(m))

    def _print(self, parser):
        items = []
        while not parser.done():
            if parser.peek()[1] in (";", ","):
                items.append(parser.take()[1])
            else:
                items.append(parser.expression())
        newline = not items or items[-1] not in (";", ",")

        def show(m, items=items, newline=newline):
            for item in items:
                if item == ";":
                    continue
                if item == ",":
                    m.write(" " * (14 - m.column % 14))
                    continue
                value = item(m)
                if isinstance(value, _Tab):
                    if value - 1 > m.column:
                        m.write(" " * (value - 1 - m.column))
                elif isinstance(value, str):
                    m.write(value)
                else:
                    m.write(format_number(value))
            if newline:
                m.write("\n")
        return show

    def run(self, rng: random.Random, answers) -> str:
        m = Machine(rng, answers)
        pc, loops = 0, {}
        try:
            while pc < len(self.statements):
                action = self.statements[pc]
                pc += 1
                if isinstance(action, tuple):
                    pc = self._loop(m, action, pc, loops)
                    continue
                outcome = action(m)
                if outcome is None:
                    continue
                if outcome == "END":
                    break
                if outcome[1] not in self.line_start:
                    raise BasicError(f"line {self.where[pc - 1]}: "
                                     f"no line {outcome[1]}")
                pc = self.line_start[outcome[1]]
        except _EndOfInput:
            pass
        return "".join(m.out)

    def _loop(self, m, action, pc, loops):
        if action[0] == "FOR":
            _, name, start, stop, step = action
            m.scalars[name] = start(m)
            loops[name] = (pc, stop(m), step(m))
            return pc
        _, name = action
        if name is None:
            name = next(reversed(loops))
        body, stop, step = loops[name]
        m.scalars[name] += step
        if (step >= 0 and m.scalars[name] <= stop) or \
                (step < 0 and m.scalars[name] >= stop):
            return body
        del loops[name]
        return pc


def _upper_outside_strings(text: str) -> str:
    pieces = text.split('"')
    return '"'.join(piece if i % 2 else piece.upper()
                    for i, piece in enumerate(pieces))


def run(source: str, answers: Iterable[str] | Callable[[str], str | None],
        rng: random.Random) -> str:
    """Run a BASIC program's text; return its transcript."""
    return Program(source).run(rng, answers)


# --- The players the Flip chapter measures, and the GW-BASIC reference ---

TURNS = 50
SOURCE = __import__("pathlib").Path(__file__).parent / "data" / "flip.bas"


def guesses(strategy: str, seed: int, turns: int = TURNS) -> list[str]:
    """A player's 50 guesses, 'Y' or 'N'; none of them looks at the computer.

    always Y; alternating (Y N Y N ...); YYN repeated; random: a fair coin
    from a generator of the player's own, seeded apart from the game's.
    """
    if strategy == "always Y":
        return ["Y"] * turns
    if strategy == "alternating":
        return ["YN"[turn % 2] for turn in range(turns)]
    if strategy == "YYN repeated":
        return ["YYN"[turn % 3] for turn in range(turns)]
    if strategy == "random":
        player = random.Random(f"flip player {seed}")
        return [player.choice("YN") for _ in range(turns)]
    raise ValueError(f"no strategy {strategy!r}")


STRATEGIES = ("always Y", "alternating", "YYN repeated", "random")


def basic_session(strategy: str, seeds: Iterable[int]) -> list[str]:
    """The typed lines of one run that plays a game for each seed in turn."""
    seeds = list(seeds)
    lines = ["N"]  # no explanation
    for number, seed in enumerate(seeds):
        lines += guesses(strategy, seed)
        lines.append("Y" if number < len(seeds) - 1 else "N")
    return lines


def scores(transcript: str) -> list[int]:
    """The scores in the YOU GOT lines of a transcript."""
    return [int(m) for m in re.findall(r"YOU GOT\s*(\d+)\s*OUT OF", transcript)]


def pcbasic() -> str | None:
    """The PC-BASIC command, if it is installed.

    Debian's python3-pcbasic (2.0.5) and `pip install pcbasic` (2.0.8) both
    provide it; both play flip.bas to the same scores.
    """
    import shutil
    return shutil.which("pcbasic")


def pcbasic_version() -> str:
    """'PC-BASIC 2.0.8', say: the first line of `pcbasic --version`."""
    import subprocess
    done = subprocess.run([pcbasic(), "--version"], capture_output=True,
                          text=True, timeout=60)
    return (done.stdout.strip().splitlines() or ["PC-BASIC"])[0]


def gwbasic_transcript(lines: list[str], randomize: int) -> str:
    """Run flip.bas under PC-BASIC, typing `lines`; return what it printed.

    PC-BASIC ends lines with CR LF and wants CR after each typed line; the
    transcript is given back with plain newlines, up to the program's end.
    """
    import os
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        program = os.path.join(folder, "flip.bas")
        text = SOURCE.read_text().replace(
            "80 T9=50", f"80 T9=50:RANDOMIZE {randomize}")
        with open(program, "w", newline="\r\n") as handle:
            handle.write(text)
        typed = "\r".join(lines) + "\r"
        done = subprocess.run(
            [pcbasic(), program, "--interface=none"], input=typed.encode(),
            capture_output=True, timeout=60 * 60, cwd=folder,
            env={**os.environ, "HOME": folder})
    printed = done.stdout.decode("latin-1").replace("\r\n", "\n")
    last = lines[-1]
    end = printed.rfind(f"PLAY AGAIN (Y OR N)? {last}\n")
    return printed[:end] + f"PLAY AGAIN (Y OR N)? {last}\n" if end >= 0 \
        else printed


def run_gwbasic(strategy: str, games: int, randomize: int) -> list[int]:
    """Play `games` games of flip.bas under PC-BASIC (a GW-BASIC emulator).

    One run plays them all (PLAY AGAIN answered Y), so GW-BASIC's own RND
    runs on from game to game; RANDOMIZE picks where it starts.
    """
    return scores(gwbasic_transcript(basic_session(strategy, range(games)),
                                     randomize))


def broken_game(guesses: Iterable[int], rng: random.Random, *,
                randomness: float = 0.3, memory: float = 0.8,
                typo: bool = False, blind: bool = False,
                one_draw: bool = False) -> int:
    """The score of one game against a port of Flip broken on purpose.

    With the defaults this is a plain re-implementation of the program
    (the tests check it scores like the port); each keyword breaks one rule:
    another randomness or old-memory factor, the `*` for `+` typo of some
    retyped listings, situations that ignore the computer's answers (blind),
    or a one-draw coin for an unvisited situation.
    """
    profile = [0.5] * 16
    x = [int(2 * rng.random()) for _ in range(4)]
    score = 0
    for guess in guesses:
        situation = (0 if blind else 8 * x[3]) + 4 * x[2] + \
            (0 if blind else 2 * x[1]) + x[0]
        z1 = profile[situation]
        if z1 == 0.5:
            z2 = 0.5 if one_draw else rng.random()
        elif z1 < 0.5:
            z2 = randomness * z1
        else:
            z2 = randomness * z1 + (1 - randomness)
        answer = 0 if rng.random() < z2 else 1
        score += guess == answer
        x = [x[2], x[3], guess, answer]
        if typo:
            profile[situation] = memory * z1 * (1 - memory) * guess
        else:
            profile[situation] = memory * z1 + (1 - memory) * guess
    return score


BROKEN = {
    "the randomness factor of the Java retelling, 0.06": {"randomness": 0.06},
    "an old-memory factor of 0.9": {"memory": 0.9},
    "the * for + typo": {"typo": True},
    "situations blind to the computer's answers": {"blind": True},
    "one draw for an unvisited situation": {"one_draw": True},
}


def main(argv=None) -> int:
    import argparse
    import json

    parser = argparse.ArgumentParser(
        description="Measure flip.bas under GW-BASIC (PC-BASIC) for the "
                    "Flip chapter's players; prints one JSON object.")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--randomize", type=int, default=1980)
    args = parser.parse_args(argv)
    if pcbasic() is None:
        parser.error("PC-BASIC is not installed: apt-get install "
                     "python3-pcbasic, or pip install pcbasic")
    figures = {}
    for strategy in STRATEGIES:
        got = run_gwbasic(strategy, args.games, args.randomize)
        figures[strategy] = got
    print(json.dumps({"interpreter": f"{pcbasic_version()} (GW-BASIC)",
                      "randomize": args.randomize, "scores": figures}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
