"""How long `retro` takes to show its first prompt, beside prompt_toolkit's import.

    python benchmarks/startup.py [--runs N]

The figures are each the median of N rounds (after two warm-up rounds; each
round measures all three, one after the other):

- terminal: `retro` started in a pseudo-terminal (pexpect) until prompt_toolkit
  is waiting for typing at the room's first prompt (it switches on bracketed
  paste, ESC [ ? 2004 h, when it starts reading);
- import: `python -c "import prompt_toolkit"` from start to exit, and from
  start to the end of the import (the stricter measure: it leaves out the
  interpreter's tidying up at exit);
- piped: `retro` with a pipe for standard input until "> " arrives on its
  standard output (this mode never imports prompt_toolkit).

The target is terminal / import <= 1.2. The store lives in a temporary
RETRO_HOME, so a player's own data is not touched. Compiled bytecode is
allowed and kept in a temporary PYTHONPYCACHEPREFIX for every command alike
(an installed package has its .pyc files; a PYTHONDONTWRITEBYTECODE=1
environment would otherwise recompile Retro's modules, but not
prompt_toolkit's, on every start).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def retro_command() -> list[str]:
    found = shutil.which("retro")
    return [found] if found else [sys.executable, "-m", "retro"]


def terminal_first_prompt(env: dict) -> float:
    import pexpect

    command = retro_command()
    start = time.perf_counter()
    child = pexpect.spawn(command[0], command[1:], env=env, timeout=30,
                          dimensions=(40, 100))
    child.expect_exact(b"\x1b[?2004h")
    elapsed = time.perf_counter() - start
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    return elapsed


def import_prompt_toolkit(env: dict) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import prompt_toolkit"], check=True,
                   env=env)
    return time.perf_counter() - start


def imported_prompt_toolkit(env: dict) -> float:
    """Until the import is done (not counting the interpreter's exit)."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", "import prompt_toolkit, sys; "
         "sys.stdout.write('ready'); sys.stdout.flush()"],
        stdout=subprocess.PIPE, env=env)
    if child.stdout.read(5) != b"ready":
        raise RuntimeError("python -c 'import prompt_toolkit' failed")
    elapsed = time.perf_counter() - start
    child.wait(timeout=30)
    child.stdout.close()
    return elapsed


def piped_first_prompt(env: dict) -> float:
    start = time.perf_counter()
    child = subprocess.Popen(retro_command(), stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, env=env)
    seen = b""
    while not seen.endswith(b"> "):
        byte = child.stdout.read(1)
        if not byte:
            raise RuntimeError("retro ended before its first prompt")
        seen += byte
    elapsed = time.perf_counter() - start
    child.stdin.close()
    child.wait(timeout=30)
    child.stdout.close()
    return elapsed


def medians(runs: int, env: dict) -> tuple[float, ...]:
    """Measure the three in turn, run after run, so that the load of a busy
    machine falls on all three alike; the first two rounds warm the caches."""
    rounds = [(terminal_first_prompt(env), import_prompt_toolkit(env),
               imported_prompt_toolkit(env), piped_first_prompt(env))
              for _ in range(runs + 2)][2:]
    return tuple(statistics.median(column) for column in zip(*rounds))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, metavar="N",
                        help="runs per figure (default 15)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, RETRO_HOME=home, TERM="xterm",
                   PROMPT_TOOLKIT_NO_CPR="1",
                   PYTHONPYCACHEPREFIX=os.path.join(home, "pycache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        terminal, imported, ready, piped = medians(args.runs, env)
    print(f"command: {' '.join(retro_command())}   runs: {args.runs} "
          f"(median)   python {sys.version.split()[0]}   cores: "
          f"{os.cpu_count()}")
    print(f"retro, terminal, to first prompt:   {terminal * 1000:7.1f} ms")
    print(f"python -c 'import prompt_toolkit':  {imported * 1000:7.1f} ms"
          f"   (to exit)")
    print(f"python -c 'import prompt_toolkit':  {ready * 1000:7.1f} ms"
          f"   (to the end of the import, without the exit)")
    print(f"retro, piped, to first prompt:      {piped * 1000:7.1f} ms")
    for ratio, against in ((terminal / imported, "to exit"),
                           (terminal / ready, "to the end of the import")):
        print(f"terminal / import ({against}) = {ratio:.2f}  (target <= 1.2: "
              f"{'met' if ratio <= 1.2 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
