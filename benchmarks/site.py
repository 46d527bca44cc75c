"""How long does the site take to build, and how big is it?

    python benchmarks/site.py [--runs N] [--baseline SECONDS]

Copies the book's sources (this checkout without .git, .venv, the figure
cache .cache/ and other build output) into a scratch directory, so that
neither the checkout nor its figure cache is touched, and there times whole
`mkdocs build --strict` processes into a scratch site directory:

- from clean: the first build of the copy, with no figure cache, so every
  figure is drawn;
- unchanged: the same copy built again with its cache warm (one build
  first, then the best of N);

each as wall-clock time and as the processor time the build used (user
and system; a busy machine stretches the first, hardly the second). Then it
prints the built site's size: in all, its figures, its source maps, and
its five largest files. With --baseline (the unchanged build's time before
the figures, in seconds) it prints the ratio to it: the target is under 2x
for an unchanged tree, and under 30 s from clean.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LEFT_OUT = shutil.ignore_patterns(".git", ".venv", ".cache", "site", "build",
                                  "dist", "*.egg-info", "__pycache__",
                                  ".pytest_cache", ".hypothesis")
CLEAN_TARGET = 30.0  # seconds, from clean
UNCHANGED_FACTOR = 2.0  # times the baseline, unchanged tree


def build(tree: Path, site: Path) -> tuple[float, float]:
    """Seconds for one `mkdocs build --strict` of `tree` into `site`: wall
    clock, and the processor time the build used (on a busy machine the
    first grows, the second hardly)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
         "--site-dir", str(site)],
        cwd=tree, capture_output=True, text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"site: the build failed:\n{result.stderr}")
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, (now.ru_utime - used.ru_utime
                     + now.ru_stime - used.ru_stime)


def size(nbytes: int) -> str:
    return f"{nbytes / 1024:,.0f} KiB" if nbytes >= 1024 else f"{nbytes} B"


def report_size(site: Path) -> None:
    files = [f for f in site.rglob("*") if f.is_file()]
    total = sum(f.stat().st_size for f in files)
    figures = [f for f in files if f.parent == site / "figures"]
    maps = [f for f in files if f.suffix == ".map"]

    def weight(group):
        return size(sum(f.stat().st_size for f in group))
    print(f"site: {size(total)} in {len(files)} files; {len(figures)} "
          f"figures {weight(figures)}; {len(maps)} source maps {weight(maps)}")
    print("largest files:")
    for f in sorted(files, key=lambda f: -f.stat().st_size)[:5]:
        print(f"  {size(f.stat().st_size):>10}  "
              f"{f.relative_to(site).as_posix()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3,
                        help="timed builds of the unchanged tree (best kept)")
    parser.add_argument("--baseline", type=float,
                        help="the unchanged build's seconds before figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="retro-site-") as scratch:
        tree, site = Path(scratch) / "tree", Path(scratch) / "site"
        shutil.copytree(ROOT, tree, ignore=LEFT_OUT)
        clean, cpu = build(tree, site)
        print(f"from clean (no figure cache): {clean:.2f} s, "
              f"{cpu:.2f} s of processor (target under {CLEAN_TARGET:.0f} s)")
        shutil.rmtree(site)
        build(tree, site)
        times = []
        for _ in range(args.runs):
            shutil.rmtree(site)
            times.append(build(tree, site))
        best, cpu = min(times)
        print(f"unchanged tree (cache warm): {best:.2f} s, {cpu:.2f} s of "
              f"processor, best of {args.runs} ("
              + ", ".join(f"{wall:.2f}" for wall, _ in times) + ")")
        if args.baseline:
            print(f"  {best / args.baseline:.2f}x the baseline "
                  f"{args.baseline:.2f} s (target under "
                  f"{UNCHANGED_FACTOR:.0f}x)")
        report_size(site)


if __name__ == "__main__":
    main()
