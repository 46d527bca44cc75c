"""How fast does `retro tangle` run?

Prints the time to tangle every chapter in literate/ (in memory, as
`retro tangle --check` does), and a generated chapter of 10,000 chunks, beside
noweb's `notangle` on the same chapter when notangle is installed.

    python benchmarks/tangle.py
"""
from __future__ import annotations

import shutil
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


def generated_chapter(chunks: int) -> str:
    """A chapter whose root uses chunk 1, each chunk using the next; some
    definitions are continued, all are indented."""
    parts = ["# Generated\n\n```python\n<<out/big.py>>=\ndef main():\n    <<chunk 1>>\n```\n"]
    for n in range(1, chunks):
        parts.append(f"Prose about chunk {n}.\n\n```python\n<<chunk {n}>>=\n"
                     f"value_{n} = {n} << 2\nif value_{n}:\n    <<chunk {n + 1}>>\n```\n")
    parts.append(f"```python\n<<chunk {chunks}>>=\npass\n```\n")
    return "\n".join(parts)


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


def main() -> None:
    chapters = sorted((ROOT / "literate").glob("*.md"))
    seconds = best_of(5, lambda: tangle.load(chapters))
    print(f"tangle all of literate/ ({len(chapters)} chapters): {seconds * 1000:.1f} ms")

    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch)
        (project / "pyproject.toml").write_text("")
        chapter = project / "big.md"
        # a fan-out of 10,000 chunks used by the root; the nested chain, the
        # worst case for indentation, is timed separately at 500 deep
        text = ["```python\n<<out/big.py>>=\n"
                + "\n".join(f"<<chunk {n}>>" for n in range(10_000)) + "\n```\n"]
        for n in range(10_000):
            text.append(f"\nChunk {n} explained.\n\n```python\n<<chunk {n}>>=\n"
                        f"def f_{n}(x):\n    return x << {n % 7}\n```\n")
        chapter.write_text("".join(text))
        seconds = best_of(3, lambda: tangle.load([chapter]))
        lines = len(tangle.load([chapter])[0].outputs[(project / 'out/big.py').resolve()].lines)
        print(f"tangle a 10,000-chunk chapter ({lines} lines out): {seconds * 1000:.1f} ms")
        deep = project / "deep.md"
        deep.write_text(generated_chapter(500))
        seconds = best_of(3, lambda: tangle.load([deep]))
        print(f"tangle a chain of 500 nested chunks: {seconds * 1000:.1f} ms")

        # the command, as notangle is timed below: start-up and writing included
        command = [sys.executable, "-m", "retro", "tangle", str(chapter)]
        seconds = best_of(3, lambda: subprocess.run(
            command, capture_output=True, check=True, cwd=project))
        print(f"retro tangle, the same chapter, as a command: {seconds * 1000:.1f} ms")

        notangle = shutil.which("notangle")
        if notangle:
            nw = project / "big.nw"
            nw.write_text(noweb_chapter(chapter.read_text()))
            seconds = best_of(3, lambda: subprocess.run(
                [notangle, "-Rout/big.py", str(nw)], capture_output=True, check=True))
            print(f"notangle, the same 10,000-chunk chapter: {seconds * 1000:.1f} ms")
        else:
            print("notangle: not installed (apt-get install noweb to compare)")


if __name__ == "__main__":
    main()
