# Tangled from literate/tangle.md: edit the chapter, not this file, then run `retro tangle`.
"""Tangle Retro's literate chapters into Python modules.

Run `retro tangle --help`, or read literate/tangle.md, which this file is
tangled from.
"""
from __future__ import annotations

import bisect
import os
import re
import sys
from collections import namedtuple
from pathlib import Path, PurePosixPath

class Line(namedtuple("Line", "text lineno")):
    """One line of a chunk's body, and where it sits in its chapter."""

    __slots__ = ()


class Definition(namedtuple("Definition", "name chapter lineno fence code")):
    """One fenced block headed `<<name>>=`.

    `lineno` is the line of `<<name>>=`, `fence` the line of the opening
    fence, and `code` the lines after the heading, each ending in a newline.
    """

    __slots__ = ()

    @property
    def lines(self) -> tuple[Line, ...]:
        """The body's lines, each with its line number in the chapter."""
        return tuple(Line(text, self.lineno + 1 + offset)
                     for offset, text in enumerate(self.code.split("\n")[:-1]))


class Problem(namedtuple("Problem", "chapter lineno message warning",
                         defaults=(False,))):
    """An error or a warning, always tied to a place in a chapter."""

    __slots__ = ()

    def render(self) -> str:
        kind = "warning" if self.warning else "error"
        return f"{display(self.chapter)}:{self.lineno}: {kind}: {self.message}"


class Chapter(namedtuple("Chapter", "path definitions problems")):
    """A parsed chapter: its definitions in document order, and the problems
    found reading it."""

    __slots__ = ()

    def chunks(self) -> dict[str, list[Definition]]:
        """The definitions grouped by name, each group in document order."""
        named: dict[str, list[Definition]] = {}
        for definition in self.definitions:
            named.setdefault(definition.name, []).append(definition)
        return named


Origin = namedtuple("Origin", "chapter lineno chunk")
Origin.__doc__ = "Where one output line came from."


def display(path: Path) -> str:
    """A path as a person wants to read it: relative to here when possible."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)

NAME = r"(?P<name>(?!>>)[^<>\n]*(?:(?:<(?!<)|>(?!>))[^<>\n]*)*)"
BLOCK = re.compile(r"""
    \n (?P<indent>[ \t]*) (?:                   # a line that opens a fence,
        (?P<fence>(?P<mark>[`~])(?P=mark){2,}) .* \n
        (?: (?: (?P=indent) | (?!(?P=indent))[ \t]* )
            << NAME >>= [^\S\n]* \n )?          # a heading,
        (?P<code> (?:.*\n)*? )                  # the shortest code,
        [ \t]* (?P=fence)(?P=mark)* [^\S\n]* (?=\n|\Z)  # a closing line;
      | (?P<unclosed> `{3,} | ~{3,} )           # or a fence never closed
    )""".replace("NAME", NAME), re.VERBOSE)
DEFINITION = re.compile(rf"^<<{NAME}>>=\s*$")
REFERENCE = re.compile(rf"^(?P<indent>[ \t]*)<<{NAME}>>[^\S\n]*$",
                       re.MULTILINE)
BLANK = re.compile(r"\n[^\S\n]+(?=\n)")


def dedent(line: str, indent: str) -> str:
    """Remove a fence's own indentation from one of its lines."""
    if line.startswith(indent):
        return line[len(indent):]
    return line.lstrip(" \t")


def read_chapter(path: Path, text: str | None = None) -> Chapter:
    """Parse one chapter into its chunk definitions."""
    if text is None:
        text = path.read_text(encoding="utf-8")
    chapter = Chapter(path, [], [])
    text = BLANK.sub("\n", "\n" + text)
    lineno = counted = 0
    for block in BLOCK.finditer(text):
        start = block.start() + 1  # where the fence's own line starts
        lineno += text.count("\n", counted, start)
        counted = start
        indent, name, code, unclosed = block.group(
            "indent", "name", "code", "unclosed")
        if unclosed:
            chapter.problems.append(Problem(
                path, lineno, f"unterminated fence {unclosed!r}: "
                "add a closing fence line"))
            break
        if name is not None:
            if indent:
                code = "".join(dedent(line, indent) + "\n"
                               for line in code.split("\n")[:-1])
            chapter.definitions.append(
                Definition(name.strip(), path, lineno + 1, lineno, code))
    return chapter


SPACE = re.compile(r"\s")


def is_root(name: str) -> bool:
    """Is this chunk name a file to write?"""
    if SPACE.search(name):
        return False
    return "/" in name or "\\" in name or PurePosixPath(name).suffix != ""

INDENTABLE = re.compile(r"^(?!$)", re.MULTILINE)  # the start of a line with text


class Lines:
    """The lines of a tangled file, each remembering where it came from."""

    def __init__(self, chapter: Path):
        self.chapter = chapter
        self.count = 0
        self.stretches: list[str] = []
        self.starts: list[int] = []  # the output line of each stretch's first,
        self.linenos: list[int] = []  # its line in the chapter,
        self.chunks: list[str] = []  # and the chunk it belongs to

    def add(self, stretch: str, lineno: int, chunk: str, indent: str) -> int:
        """Append a stretch of lines that starts on `lineno` of the chapter;
        return how many lines it has."""
        count = stretch.count("\n")
        if count:
            self.stretches.append(
                INDENTABLE.sub(indent, stretch) if indent else stretch)
            self.starts.append(self.count)
            self.linenos.append(lineno)
            self.chunks.append(chunk)
            self.count += count
        return count

    def origin(self, index: int) -> Origin:
        """Where line `index` (from 0) came from."""
        found = bisect.bisect_right(self.starts, index) - 1
        return Origin(self.chapter, self.linenos[found] + index
                      - self.starts[found], self.chunks[found])


class Expander:
    """Expand the chunks of one chapter, remembering where each line came from."""

    def __init__(self, chapter: Chapter):
        self.chapter = chapter
        self.chunks = chapter.chunks()
        self.used: set[str] = set()
        self.problems: list[Problem] = []

    def expand(self, name: str) -> Lines:
        self.used.add(name)
        lines = Lines(self.chapter.path)
        self._expand(name, "", {}, lines)
        return lines

    def _expand(self, name: str, indent: str, path: dict[str, int],
                lines: Lines) -> None:
        for definition in self.chunks[name]:
            code, lineno = definition.code, definition.lineno + 1
            if ">>" not in code:
                lines.add(code, lineno, name, indent)
                continue
            start = 0
            for reference in REFERENCE.finditer(code):
                if reference.start() > start:
                    lineno += lines.add(code[start:reference.start()],
                                        lineno, name, indent)
                start = reference.end() + 1
                more, target = reference.group("indent", "name")
                target = target.strip()
                self.used.add(target)
                path[name] = lineno
                if target not in self.chunks:
                    self.problems.append(Problem(
                        self.chapter.path, lineno,
                        f"undefined chunk <<{target}>>{suggest(target, self.chunks)}"))
                elif target in path:
                    self.problems.append(cycle_problem(self.chapter.path, path, target))
                else:
                    self._expand(target, indent + more, path, lines)
                lineno += 1
            lines.add(code[start:], lineno, name, indent)
            path.pop(name, None)


def suggest(name: str, chunks: dict[str, list[Definition]]) -> str:
    """A did-you-mean hint for an undefined chunk name."""
    import difflib

    close = difflib.get_close_matches(name, list(chunks), n=1, cutoff=0.5)
    if close:
        where = chunks[close[0]][0]
        return f"; did you mean <<{close[0]}>> (line {where.lineno})?"
    return ""


def cycle_problem(chapter: Path, path: dict[str, int], target: str) -> Problem:
    """Describe a chunk that contains itself, one step per reference."""
    steps = list(path.items())
    start = next(i for i, (name, _) in enumerate(steps) if name == target)
    loop = steps[start:]
    following = [name for name, _ in loop[1:]] + [target]
    described = "; ".join(
        f"{display(chapter)}:{lineno}: <<{name}>> uses <<{used}>>"
        for (name, lineno), used in zip(loop, following))
    return Problem(chapter, loop[-1][1],
                   f"chunk <<{target}>> contains itself: {described}")

class Output:
    """One file the chapters produce."""

    def __init__(self, path: Path, relative: str, chapter: Path,
                 root: Definition, lines: Lines, header: str):
        self.path = path  # absolute
        self.relative = relative  # as named in the root chunk
        self.chapter = chapter
        self.root = root  # the root's first definition
        self.lines = lines
        self.count = lines.count + 1
        body = "".join(lines.stretches)
        self.header_at = 2 if body.startswith("#!") else 1
        if self.header_at == 2:
            first, _, rest = body.partition("\n")
            self.text = f"{first}\n{header}\n{rest}"
        else:
            self.text = f"{header}\n{body}"

    def line(self, number: int) -> tuple[str, Origin]:
        """Line `number` (from 1) of the file, and where it came from."""
        text = self.text.split("\n")[number - 1]
        if number == self.header_at:
            return text, Origin(self.chapter, self.root.lineno, self.relative)
        before = 1 if number < self.header_at else 2
        return text, self.lines.origin(number - before)


class Plan(namedtuple("Plan", "outputs problems")):
    """Every file to write, by absolute path, and every problem found."""

    __slots__ = ()

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.warning]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.warning]


def tangle(chapters: list[Chapter], project: Path) -> Plan:
    """Expand every root of every chapter; check everything; write nothing."""
    plan = Plan({}, [])
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
            plan.outputs[target] = Output(target, name, chapter.path, first, lines,
                                          header(chapter.path, project, name))
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


def header(chapter: Path, project: Path, name: str) -> str:
    """The generated-file comment that starts every tangled file."""
    try:
        source = chapter.resolve().relative_to(project).as_posix()
    except ValueError:
        source = chapter.name
    opening, closing = COMMENTS.get(PurePosixPath(name).suffix, ("# ", ""))
    return (f"{opening}Tangled from {source}: edit the chapter, not this "
            f"file, then run `retro tangle`.{closing}")

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
    named: dict[Path, Path] = {}
    for path in paths:
        named.setdefault(path.resolve(), path)
    chapters: list[Chapter] = []
    for path in named.values():
        if not path.is_file():
            raise UsageError(f"no such chapter: {path}")
        try:
            chapters.append(read_chapter(path))
        except UnicodeDecodeError as error:
            raise UsageError(f"{display(path)} is not UTF-8 text: {error.reason}")
    projects: dict[Path, Path] = {}
    by_directory: dict[Path, Path] = {}
    for chapter in chapters:
        directory = chapter.path.parent
        if directory not in by_directory:
            by_directory[directory] = project_for(chapter.path)
        projects[chapter.path] = by_directory[directory]
    plan = Plan({}, [])
    for project in dict.fromkeys(projects.values()):
        part = tangle([c for c in chapters if projects[c.path] == project],
                      project)
        plan.outputs.update(part.outputs)
        plan.problems.extend(part.problems)
    return plan, projects

def on_disk(path: Path) -> bytes | None:
    """The bytes of a file, or None if there is no file to read."""
    try:
        return path.read_bytes()
    except OSError:
        return None


def stale(plan: Plan) -> list[Output]:
    """The outputs whose file on disk differs from the tangled text."""
    return [output for output in plan.outputs.values()
            if on_disk(output.path) != output.text.encode("utf-8")]


def orphans(plan: Plan, project: Path) -> list[Path]:
    """Modules in retro/ that no chapter produces."""
    package = project / "retro"
    if not package.is_dir():
        return []
    return sorted(path for path in package.rglob("*.py")
                  if path.resolve() not in plan.outputs)


def write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tangle-{os.getpid()}")
    try:
        with open(temporary, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise

HELP = """\
usage: retro tangle [-h] [--check] [--where FILE:LINE] [PATH ...]

Tangle the literate chapters: pull the code out of each chapter's chunks,
expand the references, and write each root chunk to the file it names,
relative to the project (the nearest directory above the chapter with a
pyproject.toml). Only files whose text changes are written. Every error names
file.md:line and stops the tangle before anything is written.

positional arguments:
  PATH               chapters to tangle (default: every chapter in literate/)

options:
  -h, --help         show this help message and exit
  --check            write nothing; list the files that would change and the
                     modules in retro/ that no chapter produces, and exit 1
                     if there are any
  --where FILE:LINE  print the chapter, line and chunk that line LINE of the
                     tangled FILE came from, and write nothing
"""


class UsageError(Exception):
    """A mistake on the command line: exit status 2, one line."""


def parse(words: list[str]) -> tuple[list[Path], bool, str | None] | None:
    """The chapters, --check and --where of a command line; None for --help."""
    chapters, check, where = [], False, None
    words = iter(words)
    for word in words:
        if word in ("-h", "--help"):
            return None
        if word == "--check":
            check = True
        elif word == "--where" or word.startswith("--where="):
            where = word.partition("=")[2] or next(words, None)
            if where is None:
                raise UsageError("argument --where: expected FILE:LINE")
        elif word == "--":
            chapters.extend(Path(word) for word in words)
        elif word.startswith("-") and word != "-":
            raise UsageError(f"unrecognized arguments: {word}")
        else:
            chapters.append(Path(word))
    return chapters, check, where


def main(argv: list[str] | None = None) -> int:
    """`retro tangle ARGS`: tangle, and return the exit status."""
    try:
        options = parse(sys.argv[1:] if argv is None else argv)
        if options is None:
            print(HELP, end="")
            return 0
        return tangle_command(*options)
    except UsageError as error:
        print(f"retro tangle: error: {error}; try 'retro tangle --help'",
              file=sys.stderr)
        return 2


def register(subparsers) -> None:
    """Add `retro tangle` to the `retro` command's parser."""
    parser = subparsers.add_parser(
        "tangle", add_help=False, prefix_chars="\0",
        help="assemble the modules in retro/ from literate/")
    parser.add_argument("words", nargs="*")
    parser.set_defaults(func=lambda args: main(args.words))


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
    output = plan.outputs.get(Path(name).resolve())
    if output is None:
        raise UsageError(f"{name} is not produced by the chapters tangled")
    lineno = int(number)
    if not 1 <= lineno <= output.count:
        raise UsageError(f"{name} has {output.count} lines, not {lineno}")
    text, origin = output.line(lineno)
    print(f"{display(origin.chapter)}:{origin.lineno}: <<{origin.chunk}>>")
    print(f"    {text.strip() or '(a blank line)'}")
    if on_disk(output.path) != output.text.encode("utf-8"):
        print(f"note: {name} differs from its chapter; run retro tangle",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
