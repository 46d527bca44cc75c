# Tangled from literate/tangle.md: edit the chapter, not this file, then run `retro tangle`.
"""Tangle Retro's literate chapters into Python modules.

Run `retro tangle --help`, or read literate/tangle.md, which this file is
tangled from.
"""
from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

@dataclass(frozen=True)
class Line:
    """One line of a chunk's body, and where it sits in its chapter."""

    text: str
    lineno: int


@dataclass(frozen=True)
class Definition:
    """One fenced block headed `<<name>>=`."""

    name: str
    chapter: Path
    lineno: int  # the line of `<<name>>=`
    fence: int  # the line of the opening fence
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Problem:
    """An error or a warning, always tied to a place in a chapter."""

    chapter: Path
    lineno: int
    message: str
    warning: bool = False

    def render(self) -> str:
        kind = "warning" if self.warning else "error"
        return f"{display(self.chapter)}:{self.lineno}: {kind}: {self.message}"


@dataclass
class Chapter:
    """A parsed chapter: its definitions, grouped by name in document order."""

    path: Path
    definitions: list[Definition] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def chunks(self) -> dict[str, list[Definition]]:
        named: dict[str, list[Definition]] = {}
        for definition in self.definitions:
            named.setdefault(definition.name, []).append(definition)
        return named


@dataclass(frozen=True)
class Origin:
    """Where one output line came from."""

    chapter: Path
    lineno: int
    chunk: str


def display(path: Path) -> str:
    """A path as a person wants to read it: relative to here when possible."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
DEFINITION = re.compile(r"^<<(?P<name>(?:(?!<<|>>).)+)>>=\s*$")
REFERENCE = re.compile(r"^(?P<indent>[ \t]*)<<(?P<name>(?:(?!<<|>>).)+)>>\s*$")


def closes(line: str, fence: str) -> bool:
    """Does `line` close a block opened by `fence` (e.g. "```")?"""
    stripped = line.strip()
    return (
        len(stripped) >= len(fence)
        and set(stripped) == {fence[0]}
    )


def dedent(line: str, indent: str) -> str:
    """Remove a fence's own indentation from one of its lines."""
    if line.startswith(indent):
        return line[len(indent):]
    return line.lstrip(" \t")


def read_chapter(path: Path, text: str | None = None) -> Chapter:
    """Parse one chapter into its chunk definitions."""
    if text is None:
        text = path.read_text(encoding="utf-8")
    chapter = Chapter(path)
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        body: list[Line] = []
        close = index + 1
        while close < len(lines) and not closes(lines[close], fence):
            body.append(Line(dedent(lines[close], indent), close + 1))
            close += 1
        if close == len(lines):
            chapter.problems.append(Problem(
                path, index + 1, f"unterminated fence {fence!r}: "
                "add a closing fence line"))
            break
        heading = DEFINITION.match(body[0].text) if body else None
        if heading:
            chapter.definitions.append(Definition(
                name=heading["name"].strip(),
                chapter=path,
                lineno=body[0].lineno,
                fence=index + 1,
                lines=tuple(body[1:]),
            ))
        index = close + 1
    return chapter


def is_root(name: str) -> bool:
    """Is this chunk name a file to write?"""
    if any(char.isspace() for char in name):
        return False
    return "/" in name or "\\" in name or PurePosixPath(name).suffix != ""

class Expander:
    """Expand the chunks of one chapter, remembering where each line came from."""

    def __init__(self, chapter: Chapter):
        self.chapter = chapter
        self.chunks = chapter.chunks()
        self.used: set[str] = set()
        self.problems: list[Problem] = []

    def expand(self, name: str) -> list[tuple[str, Origin]]:
        self.used.add(name)
        return self._expand(name, "", [])

    def _expand(self, name: str, indent: str,
                path: list[tuple[str, Line]]) -> list[tuple[str, Origin]]:
        output: list[tuple[str, Origin]] = []
        for definition in self.chunks[name]:
            for line in definition.lines:
                reference = REFERENCE.match(line.text)
                if reference is None:
                    text = indent + line.text if line.text.strip() else ""
                    origin = Origin(self.chapter.path, line.lineno, name)
                    output.append((text, origin))
                    continue
                target = reference["name"].strip()
                self.used.add(target)
                if target not in self.chunks:
                    self.problems.append(Problem(
                        self.chapter.path, line.lineno,
                        f"undefined chunk <<{target}>>{suggest(target, self.chunks)}"))
                    continue
                steps = path + [(name, line)]
                if any(step_name == target for step_name, _ in steps):
                    self.problems.append(cycle_problem(self.chapter.path, steps, target))
                    continue
                output.extend(
                    self._expand(target, indent + reference["indent"], steps))
        return output


def suggest(name: str, chunks: dict[str, list[Definition]]) -> str:
    """A did-you-mean hint for an undefined chunk name."""
    close = difflib.get_close_matches(name, list(chunks), n=1, cutoff=0.5)
    if close:
        where = chunks[close[0]][0]
        return f"; did you mean <<{close[0]}>> (line {where.lineno})?"
    return ""


def cycle_problem(chapter: Path, steps: list[tuple[str, Line]],
                  target: str) -> Problem:
    """Describe a chunk that contains itself, one step per reference."""
    start = next(i for i, (name, _) in enumerate(steps) if name == target)
    loop = steps[start:]
    described = "; ".join(
        f"{display(chapter)}:{line.lineno}: <<{name}>> uses <<{nxt}>>"
        for (name, line), nxt in zip(
            loop, [n for n, _ in loop[1:]] + [target]))
    return Problem(chapter, loop[-1][1].lineno,
                   f"chunk <<{target}>> contains itself: {described}")

@dataclass
class Output:
    """One file the chapters produce."""

    path: Path  # absolute
    relative: str  # as named in the root chunk
    chapter: Path
    root: Definition
    lines: list[tuple[str, Origin]]

    @property
    def text(self) -> str:
        return "\n".join(text for text, _ in self.lines) + "\n"


@dataclass
class Plan:
    outputs: dict[Path, Output] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.warning]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.warning]


def tangle(chapters: list[Chapter], project: Path) -> Plan:
    """Expand every root of every chapter; check everything; write nothing."""
    plan = Plan()
    for chapter in chapters:
        plan.problems.extend(chapter.problems)
        expander = Expander(chapter)
        roots = [name for name in expander.chunks if is_root(name)]
        if not roots and not chapter.problems:
            plan.problems.append(Problem(
                chapter.path, 1, "chapter has no root chunk such as "
                "<<retro/name.py>>=, so it tangles to nothing", warning=True))
        for name in roots:
            first = expander.chunks[name][0]
            try:
                lines = expander.expand(name)
            except RecursionError:
                plan.problems.append(Problem(
                    chapter.path, first.lineno,
                    f"chunks nested too deeply under <<{name}>>"))
                continue
            target = safe_target(project, name)
            if target is None:
                plan.problems.append(Problem(
                    chapter.path, first.lineno,
                    f"root <<{name}>> would write outside the project {project}; "
                    "name it by a path relative to the project, inside it"))
                continue
            if target in plan.outputs:
                other = plan.outputs[target]
                plan.problems.append(Problem(
                    chapter.path, first.lineno,
                    f"two chapters write {name}: this one and "
                    f"{display(other.chapter)}:{other.root.lineno}"))
                continue
            shebang = bool(lines) and lines[0][0].startswith("#!")
            lines.insert(1 if shebang else 0, header(chapter, project, name))
            plan.outputs[target] = Output(target, name, chapter.path, first,
                                          lines)
        plan.problems.extend(dict.fromkeys(expander.problems))
        for name, definitions in expander.chunks.items():
            if name not in expander.used:
                plan.problems.append(Problem(
                    chapter.path, definitions[0].lineno,
                    f"chunk <<{name}>> is never used", warning=True))
    return plan


def safe_target(project: Path, name: str) -> Path | None:
    """The absolute path a root names, or None if it leaves the project."""
    if name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name):
        return None
    target = (project / name).resolve()
    if target == project or project not in target.parents:
        return None
    return target


COMMENTS = {".md": ("<!-- ", " -->"), ".html": ("<!-- ", " -->"),
            ".css": ("/* ", " */"), ".js": ("// ", "")}


def header(chapter: Chapter, project: Path, name: str) -> tuple[str, Origin]:
    """The generated-file comment that starts every tangled file."""
    try:
        source = chapter.path.resolve().relative_to(project).as_posix()
    except ValueError:
        source = chapter.path.name
    opening, closing = COMMENTS.get(PurePosixPath(name).suffix, ("# ", ""))
    text = (f"{opening}Tangled from {source}: edit the chapter, not this file, "
            f"then run `retro tangle`.{closing}")
    first = chapter.chunks()[name][0]
    return text, Origin(chapter.path, first.lineno, name)

class UsageError(Exception):
    """A mistake on the command line: exit status 2, one line."""


def find_project(start: Path) -> Path | None:
    """The nearest directory at or above `start` with a pyproject.toml."""
    start = start.resolve()
    for directory in [start, *start.parents]:
        if (directory / "pyproject.toml").is_file():
            return directory
    return None


def project_for(chapter: Path) -> Path:
    """The project a chapter belongs to (its directory's parent if none)."""
    found = find_project(chapter.parent)
    return found if found is not None else chapter.resolve().parent.parent


def default_chapters() -> tuple[Path, list[Path]]:
    project = find_project(Path.cwd())
    if project is None or not (project / "literate").is_dir():
        raise UsageError("no literate/ directory here: run inside a Retro "
                         "checkout, or name the chapters to tangle")
    return project, sorted((project / "literate").rglob("*.md"))


def load(paths: list[Path]) -> tuple[Plan, dict[Path, Path]]:
    """Read and tangle chapters, each against its own project."""
    chapters: list[Chapter] = []
    named: dict[Path, Path] = {}
    for path in paths:
        named.setdefault(path.resolve(), path)
    for path in named.values():
        if not path.is_file():
            raise UsageError(f"no such chapter: {path}")
        try:
            chapters.append(read_chapter(path))
        except UnicodeDecodeError as error:
            raise UsageError(f"{display(path)} is not UTF-8 text: {error.reason}")
    plan = Plan()
    projects: dict[Path, Path] = {}
    for chapter in chapters:
        project = project_for(chapter.path)
        projects[chapter.path] = project
    for project in dict.fromkeys(projects.values()):
        group = [c for c in chapters if projects[c.path] == project]
        part = tangle(group, project)
        plan.outputs.update(part.outputs)
        plan.problems.extend(part.problems)
    return plan, projects

def current_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        return None


def write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tangle-")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o777)
        else:
            os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def stale(plan: Plan) -> list[Output]:
    """The outputs whose file on disk differs from the tangled text."""
    return [output for output in plan.outputs.values()
            if current_text(output.path) != output.text]


def orphans(plan: Plan, project: Path) -> list[Path]:
    """Modules in retro/ that no chapter produces."""
    package = project / "retro"
    if not package.is_dir():
        return []
    produced = set(plan.outputs)
    return sorted(path for path in package.rglob("*.py")
                  if path.resolve() not in produced)

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "chapters", nargs="*", metavar="PATH", type=Path,
        help="chapters to tangle (default: every chapter in literate/)")
    parser.add_argument(
        "--check", action="store_true",
        help="write nothing; exit 1 if any file is stale or any module in "
             "retro/ comes from no chapter")
    parser.add_argument(
        "--where", metavar="FILE:LINE",
        help="print the chapter line and chunk that FILE:LINE came from")


def register(subparsers) -> None:
    """Add `retro tangle` to the `retro` command."""
    parser = subparsers.add_parser(
        "tangle", help="assemble the modules in retro/ from literate/",
        description="Tangle literate chapters into the files their root "
                    "chunks name. Errors name file.md:line and stop the "
                    "tangle before anything is written.")
    add_arguments(parser)
    parser.set_defaults(func=run)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="retro tangle", description="Tangle literate chapters.")
    add_arguments(parser)
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    try:
        return tangle_command(args.chapters, args.check, args.where)
    except UsageError as error:
        print(f"retro tangle: {error}", file=sys.stderr)
        return 2


def tangle_command(chapters: list[Path], check: bool, where: str | None) -> int:
    everything = not chapters
    if everything:
        project, chapters = default_chapters()
    plan, _ = load(chapters)
    for problem in plan.problems:
        print(problem.render(), file=sys.stderr)
    if plan.errors:
        count = len(plan.errors)
        print(f"retro tangle: {count} error{'s' * (count != 1)}; "
              "nothing written", file=sys.stderr)
        return 2
    if where is not None:
        return where_command(plan, where)
    if check:
        changes = stale(plan)
        for output in changes:
            print(f"{display(output.path)} would change "
                  f"(tangled from {display(output.chapter)})")
        strays = orphans(plan, project) if everything else []
        for path in strays:
            print(f"{display(path)} is not produced by any chapter")
        if changes or strays:
            return 1
        count = len(plan.outputs)
        print(f"retro tangle: {count} file{'s' * (count != 1)} up to date")
        return 0
    written = stale(plan)
    for output in written:
        write_atomically(output.path, output.text)
        print(f"wrote {display(output.path)} "
              f"(from {display(output.chapter)})")
    unchanged = len(plan.outputs) - len(written)
    print(f"retro tangle: {len(written)} written, {unchanged} unchanged")
    return 0


def where_command(plan: Plan, where: str) -> int:
    name, _, number = where.rpartition(":")
    if not name or not number.isdigit():
        raise UsageError(f"--where wants FILE:LINE, not {where!r}")
    path = Path(name).resolve()
    output = plan.outputs.get(path)
    if output is None:
        raise UsageError(f"{name} is not produced by the chapters tangled")
    lineno = int(number)
    if not 1 <= lineno <= len(output.lines):
        raise UsageError(f"{name} has {len(output.lines)} lines, not {lineno}")
    text, origin = output.lines[lineno - 1]
    print(f"{display(origin.chapter)}:{origin.lineno}: <<{origin.chunk}>>")
    print(f"    {text.strip() or '(a blank line)'}")
    if current_text(output.path) != output.text:
        print(f"note: {name} differs from its chapter; run retro tangle",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
