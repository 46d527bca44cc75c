"""How fast does `retro tangle` run, and how quickly does `retro` start?

    python benchmarks/tangle.py [--runs N]

Prints, in memory (best of a few runs, as `retro tangle --check` does it):

- the time to tangle every chapter in literate/;
- the time to tangle a generated chapter of 10,000 chunks;
- the time to tangle a chain of 500 nested chunks.

And as whole processes, each figure the median of N rounds (after two warm-up
rounds; each round runs every command once, one after the other, so that the
load of a busy machine falls on all of them alike):

- `retro tangle` on the 10,000-chunk chapter, beside noweb's `notangle` on the
  same chunks in noweb's own syntax (when notangle is installed): target
  retro / notangle <= 1.5 in CPU time (user + system of every process: the
  wall clock is printed too, but a busy machine moves it most);
- `retro --help` (argparse's own help), beside a bare `python -c pass` of
  the same interpreter and beside `python -c "import argparse"`: what the
  help costs over starting Python, and how much of that is argparse.

Compiled bytecode is allowed and kept in a temporary PYTHONPYCACHEPREFIX for
every command alike (an installed package has its .pyc files; a
PYTHONDONTWRITEBYTECODE=1 environment would otherwise recompile Retro's
modules on every start).

With --phases it also shows where the time of one `retro tangle` process on
the 10,000-chunk chapter goes: each phase timed inside fresh processes (the
median of N), beside the cost of starting Python and importing what the
command imports.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from retro.book import tangle

ROOT = Path(__file__).resolve().parent.parent


def best_of(runs: int, work) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def retro_command() -> list[str]:
    found = shutil.which("retro")
    return [found] if found else [sys.executable, "-m", "retro"]


def generated_chapter(chunks: int) -> str:
    """A chapter whose root uses chunk 1, each chunk using the next; some
    definitions are continued, all are indented."""
    parts = ["# Generated\n\n```python\n<<out/big.py>>=\ndef main():\n    <<chunk 1>>\n```\n"]
    for n in range(1, chunks):
        parts.append(f"Prose about chunk {n}.\n\n```python\n<<chunk {n}>>=\n"
                     f"value_{n} = {n} << 2\nif value_{n}:\n    <<chunk {n + 1}>>\n```\n")
    parts.append(f"```python\n<<chunk {chunks}>>=\npass\n```\n")
    return "\n".join(parts)


def fan_out_chapter(chunks: int) -> str:
    """A root that uses each of `chunks` chunks in turn, each explained."""
    text = ["```python\n<<out/big.py>>=\n"
            + "\n".join(f"<<chunk {n}>>" for n in range(chunks)) + "\n```\n"]
    for n in range(chunks):
        text.append(f"\nChunk {n} explained.\n\n```python\n<<chunk {n}>>=\n"
                    f"def f_{n}(x):\n    return x << {n % 7}\n```\n")
    return "".join(text)


def noweb_chapter(text: str) -> str:
    """The same chunks in noweb's own syntax, for notangle."""
    out = []
    inside = False
    for line in text.split("\n"):
        if line.startswith("```"):
            inside = not inside
            if not inside:
                out.append("@")
            continue
        out.append(line)
    return "\n".join(out)


def timed(command: list[str], env: dict, cwd: Path) -> tuple[float, float]:
    """Wall-clock seconds of one run of `command`, and the CPU seconds (user
    and system) of it and every process it started (notangle is a shell
    script that runs two programs)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True, env=env, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime
                  + after.ru_stime - before.ru_stime)


def medians(commands: dict[str, list[str]], runs: int, env: dict,
            cwd: Path, cpu: bool = False) -> dict[str, float]:
    """Each command's median time (wall clock, or with `cpu` the CPU time),
    the commands taking turns round by round; the first two rounds warm the
    caches and are not counted."""
    rounds = [{name: timed(command, env, cwd)
               for name, command in commands.items()}
              for _ in range(runs + 2)][2:]
    return {name: statistics.median(r[name][cpu] for r in rounds)
            for name in commands}


def in_memory(project: Path, chapter: Path) -> None:
    chapters = sorted((ROOT / "literate").glob("*.md"))
    seconds = best_of(5, lambda: tangle.load(chapters))
    print(f"tangle all of literate/ ({len(chapters)} chapters): {seconds * 1000:.1f} ms")
    seconds = best_of(3, lambda: tangle.load([chapter]))
    plan, _ = tangle.load([chapter])
    lines = plan.outputs[str((project / "out/big.py").resolve())].count
    print(f"tangle a 10,000-chunk chapter ({lines} lines out): {seconds * 1000:.1f} ms")
    deep = project / "deep.md"
    deep.write_text(generated_chapter(500))
    seconds = best_of(3, lambda: tangle.load([deep]))
    print(f"tangle a chain of 500 nested chunks: {seconds * 1000:.1f} ms")


PHASES = """
import gc, sys, time
marks = [time.perf_counter()]
import re
from retro.cli import main
from retro.book import tangle
marks.append(time.perf_counter())
gc.disable()  # as `retro tangle` runs
path = sys.argv[1]
with open(path, encoding="utf-8") as stream:
    text = stream.read()
marks.append(time.perf_counter())
chapter = tangle.read_chapter(path, text)
marks.append(time.perf_counter())
plan = tangle.tangle([chapter], tangle.project_for(path))
marks.append(time.perf_counter())
changed = tangle.stale(plan)
marks.append(time.perf_counter())
del plan, chapter, changed
marks.append(time.perf_counter())
print(" ".join(str((b - a) * 1000) for a, b in zip(marks, marks[1:])))
"""
PHASE_NAMES = ["imports", "read", "parse", "expand and check", "compare", "free"]


def phases(chapter: Path, runs: int, env: dict, cwd: Path) -> None:
    """Where the time of one `retro tangle` process goes, phase by phase."""
    found = [dict(zip(PHASE_NAMES, map(float, subprocess.run(
        [sys.executable, "-c", PHASES, str(chapter)], capture_output=True,
        check=True, env=env, cwd=cwd, text=True).stdout.split())))
        for _ in range(runs + 2)][2:]
    times = {name: statistics.median(f[name] for f in found) for name in found[0]}
    processes = medians({"python -c pass": [sys.executable, "-c", "pass"],
                         "python, importing as retro tangle does": [
                             sys.executable, "-c",
                             "import re; import retro.cli, retro.book.tangle"]},
                        runs, env, cwd)
    print("inside one process (median of fresh processes, in ms): " + "; ".join(
        f"{name} {ms:.1f}" for name, ms in times.items()))
    work = sum(ms for name, ms in times.items() if name != "imports")
    print(f"the tangle itself: {work:.1f} ms; as processes: " + "; ".join(
        f"{name} {seconds * 1000:.1f} ms" for name, seconds in processes.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, metavar="N",
                        help="rounds per figure (default 15)")
    parser.add_argument("--phases", action="store_true",
                        help="also time the phases of one retro tangle process")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch)
        (project / "pyproject.toml").write_text("")
        chapter = project / "big.md"
        # a fan-out of 10,000 chunks used by the root; the nested chain, the
        # worst case for indentation, is timed separately at 500 deep
        chapter.write_text(fan_out_chapter(10_000))
        in_memory(project, chapter)

        env = dict(os.environ, PYTHONPYCACHEPREFIX=str(project / "pycache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        commands = {
            "retro tangle": retro_command() + ["tangle", str(chapter)],
            "retro --help": retro_command() + ["--help"],
            "python -c pass": [sys.executable, "-c", "pass"],
            "import argparse": [sys.executable, "-c", "import argparse"],
        }
        notangle = shutil.which("notangle")
        if notangle:
            nw = project / "big.nw"
            nw.write_text(noweb_chapter(chapter.read_text()))
            commands["notangle"] = [notangle, "-Rout/big.py", str(nw)]
        times = medians(commands, args.runs, env, project)
        cpu = medians(commands, args.runs, env, project, cpu=True)
        if args.phases:
            phases(chapter, args.runs, env, project)

    print(f"command: {' '.join(retro_command())}   rounds: {args.runs} "
          f"(median)   python {sys.version.split()[0]}   cores: {os.cpu_count()}")
    print(f"retro tangle, the same chapter, as a command: "
          f"{times['retro tangle'] * 1000:.1f} ms")
    if notangle:
        print(f"notangle, the same 10,000-chunk chapter: "
              f"{times['notangle'] * 1000:.1f} ms")
        ratio = times["retro tangle"] / times["notangle"]
        print(f"retro tangle / notangle = {ratio:.2f}  (target <= 1.5: "
              f"{'met' if ratio <= 1.5 else 'NOT met'})")
        print(f"the same in CPU time (user + system, every process; "
              f"steadier on a busy machine): {cpu['retro tangle'] * 1000:.1f}"
              f" ms / {cpu['notangle'] * 1000:.1f} ms = "
              f"{cpu['retro tangle'] / cpu['notangle']:.2f}")
    else:
        print("notangle: not installed (apt-get install noweb to compare)")
    print(f"retro --help: {times['retro --help'] * 1000:.1f} ms   "
          f"python -c pass: {times['python -c pass'] * 1000:.1f} ms   "
          f"python -c 'import argparse': "
          f"{times['import argparse'] * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
