# Tangled from literate/tangle.md: edit the chapter, not this file, then run `retro tangle`.
"""Tangle Retro's literate chapters into Python modules.

Run `retro tangle --help`, or read literate/tangle.md, which this file is
tangled from.
"""
from __future__ import annotations

import os
import re
import sys
from collections import namedtuple
from itertools import accumulate, repeat


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


class Chapter:
    """A parsed chapter: its chunks, and the problems found reading it."""

    def __init__(self, path: str):
        self.path = path
        # each name's definitions in document order, as (block, code, name)
        self.chunks: dict[str, list[tuple[int, str, str]]] = {}
        self.problems: list[Problem] = []
        self.fences: list[int] = []  # the line of each block's opening fence

    def start(self, block: int) -> int:
        """The line where the code of block number `block` begins."""
        return self.fences[block] + 2

    @property
    def definitions(self) -> list[Definition]:
        """Every definition, in document order."""
        found = sorted(part for parts in self.chunks.values()
                       for part in parts)
        return [Definition(name, self.path, self.start(block) - 1,
                           self.start(block) - 2, code)
                for block, code, name in found]


Origin = namedtuple("Origin", "chapter lineno chunk")
Origin.__doc__ = "Where one output line came from."


def display(path: str) -> str:
    """A path as a person wants to read it: relative to here when possible."""
    real, here = os.path.realpath(path), os.path.realpath(os.getcwd())
    if real == here or real.startswith(os.path.join(here, "")):
        return os.path.relpath(real, here)
    return os.fspath(path)


NAME = r"(?P<name>(?!>>)[^<>\n]*(?:(?:<(?!<)|>(?!>))[^<>\n]*)*)"
REFERENCE = re.compile(rf"^(?P<indent>[ \t]*)<<{NAME}>>[^\S\n]*$\n?",
                       re.MULTILINE)
BLANK = re.compile(r"\n[^\S\n]+(?=\n)")


BLOCK = r"""
    \n (?P<indent>[ \t]*) (?:                   # a line that opens a fence,
        (?P<fence>(?P<mark>[`~])(?P=mark){2,}) .* \n
        (?: (?: (?P=indent) | (?!(?P=indent))[ \t]* )
            << NAME >>= [^\S\n]* \n )?          # a heading,
        (?P<code> (?:.*\n)*? )                  # the shortest code,
        [ \t]* (?P=fence)(?P=mark)* [^\S\n]* (?=\n|\Z)  # a closing line;
      | (?P<unclosed> `{3,} | ~{3,} )           # or a fence never closed
    )""".replace("NAME", NAME)


def read_fences(chapter: Chapter, text: str) -> None:
    """Keep the chunks of any chapter, fence by fence."""
    lineno = counted = 0
    for block in re.compile(BLOCK, re.VERBOSE).finditer(text):
        start = block.start() + 1  # where the fence's own line starts
        lineno += text.count("\n", counted, start)
        counted = start
        indent, name, code, unclosed = block.group(
            "indent", "name", "code", "unclosed")
        if unclosed:
            chapter.problems.append(Problem(
                chapter.path, lineno, f"unterminated fence {unclosed!r}: "
                "add a closing fence line"))
            break
        if name is not None:
            if indent:
                code = "".join(dedent(line, indent) + "\n"
                               for line in code.split("\n")[:-1])
            name = name.strip()
            chapter.chunks.setdefault(name, []).append((len(chapter.fences), code, name))
            chapter.fences.append(lineno)


def dedent(line: str, indent: str) -> str:
    """Remove a fence's own indentation from one of its lines."""
    if line.startswith(indent):
        return line[len(indent):]
    return line.lstrip(" \t")


def read_chapter(path: str, text: str | None = None) -> Chapter:
    """Parse one chapter into its chunk definitions."""
    if text is None:
        with open(path, encoding="utf-8") as stream:
            text = stream.read()
    chapter = Chapter(path)
    read_fences(chapter, BLANK.sub("\n", "\n" + text))
    return chapter


SPACE = re.compile(r"\s")


def is_root(name: str) -> bool:
    """Is this chunk name a file to write?"""
    if SPACE.search(name):
        return False
    return "/" in name or "\\" in name or suffix(name) != ""


def suffix(name: str) -> str:
    """The extension of the file a slash-separated path names, or ''."""
    last = name.rstrip("/").rpartition("/")[2]
    dot = last.rfind(".")
    return last[dot:] if 0 < dot < len(last) - 1 else ""


INDENTABLE = re.compile(r"^(?!$)", re.MULTILINE)  # a line's start, if text


def indented(stretch: str, indent: str) -> str:
    """`stretch` with `indent` in front of each line that is not empty."""
    return INDENTABLE.sub(indent, stretch) if indent else stretch


class Lines:
    """The lines of a tangled file, each remembering where it came from."""

    def __init__(self, chapter: Chapter):
        self.chapter = chapter
        self.stretches: list[str] = []
        self.origins: list[tuple] = []  # (block, code, chunk[, lines before])
        self.starts: list[int] | None = None  # each stretch's first line out

    def origin(self, index: int) -> Origin:
        """Where line `index` (from 0) came from."""
        import bisect

        if self.starts is None:
            self.starts = [0, *accumulate(map(str.count, self.stretches,
                                              repeat("\n")))]
        found = bisect.bisect_right(self.starts, index) - 1
        origin = self.origins[found]
        before = origin[3] if len(origin) > 3 else 0
        lineno = (self.chapter.start(origin[0]) + before
                  + index - self.starts[found])
        return Origin(self.chapter.path, lineno, origin[2])


class Expander:
    """Expand the chunks of one chapter, remembering where each line came
    from."""

    def __init__(self, chapter: Chapter):
        self.chapter = chapter
        self.chunks = chapter.chunks
        self.used: set[str] = set()
        self.problems: list[Problem] = []

    def expand(self, name: str) -> Lines:
        self.used.add(name)
        lines = Lines(self.chapter)
        self._expand(name, "", {}, lines)
        return lines

    def _expand(self, name: str, indent: str, path: dict[str, int],
                lines: Lines) -> None:
        stretches, origins = lines.stretches, lines.origins
        for definition in self.chunks[name]:
            block, code, _ = definition
            if ">>" not in code:
                stretches.append(INDENTABLE.sub(indent, code) if indent else code)
                origins.append(definition)
                continue
            parts = REFERENCE.split(code)
            targets = list(map(str.strip, parts[2::3]))
            self.used.update(targets)
            before = 0  # the lines of this body passed so far
            for stretch, more, target in zip(parts[0::3], parts[1::3], targets):
                if stretch:
                    stretches.append(indented(stretch, indent))
                    origins.append((block, stretch, name, before))
                    before += stretch.count("\n")
                found = self.chunks.get(target)
                if found is None:
                    self.problems.append(Problem(
                        self.chapter.path, self.chapter.start(block) + before,
                        f"undefined chunk <<{target}>>{suggest(target, self.chapter)}"))
                elif len(found) == 1 and ">>" not in found[0][1]:
                    inner, code = indent + more, found[0][1]
                    stretches.append(INDENTABLE.sub(inner, code) if inner else code)
                    origins.append(found[0])
                else:
                    path[name] = self.chapter.start(block) + before
                    if target in path:
                        self.problems.append(cycle_problem(self.chapter.path, path, target))
                    else:
                        self._expand(target, indent + more, path, lines)
                before += 1
            if parts[-1]:
                stretches.append(indented(parts[-1], indent))
                origins.append((block, parts[-1], name, before))
            path.pop(name, None)


def suggest(name: str, chapter: Chapter) -> str:
    """A did-you-mean hint for an undefined chunk name."""
    import difflib

    close = difflib.get_close_matches(name, list(chapter.chunks), n=1,
                                      cutoff=0.5)
    if close:
        heading = chapter.start(chapter.chunks[close[0]][0][0]) - 1
        return f"; did you mean <<{close[0]}>> (line {heading})?"
    return ""


def cycle_problem(chapter: str, path: dict[str, int], target: str) -> Problem:
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

    def __init__(self, path: str, relative: str, lines: Lines, header: str):
        self.path = path  # absolute
        self.relative = relative  # as named in the root chunk
        self.chapter = lines.chapter.path
        self.lines = lines
        body = "".join(lines.stretches)
        self.header_at = 2 if body.startswith("#!") else 1
        if self.header_at == 2:
            first, _, rest = body.partition("\n")
            text = f"{first}\n{header}\n{rest}"
        else:
            text = f"{header}\n{body}"
        self.text = text

    @property
    def count(self) -> int:
        """How many lines the file has (every line ends in a newline)."""
        return self.text.count("\n")

    def line(self, number: int) -> tuple[str, Origin]:
        """Line `number` (from 1) of the file, and where it came from."""
        return self.text.split("\n")[number - 1], self.origin(number)

    def origin(self, number: int) -> Origin:
        """Where line `number` (from 1) of the file came from."""
        if number == self.header_at:
            return Origin(self.chapter, self.root.lineno, self.relative)
        before = 1 if number < self.header_at else 2
        return self.lines.origin(number - before)

    def numbered(self) -> list[tuple[str, Origin]]:
        """Every line of the file, in order, with where it came from."""
        texts = self.text.split("\n")[:self.count]
        return [(text, self.origin(number))
                for number, text in enumerate(texts, 1)]

    @property
    def root(self) -> Definition:
        """The root chunk's first definition."""
        return first_definition(self.lines.chapter, self.relative)


def first_definition(chapter: Chapter, name: str) -> Definition:
    """The first definition of chunk `name`, its lines counted."""
    block, code, _ = chapter.chunks[name][0]
    start = chapter.start(block)
    return Definition(name, chapter.path, start - 1, start - 2, code)


class Plan(namedtuple("Plan", "outputs problems")):
    """Every file to write, by absolute path, and every problem found."""

    __slots__ = ()

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.warning]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.warning]


def tangle(chapters: list[Chapter], project: str) -> Plan:
    """Expand every root of every chapter; check everything; write nothing."""
    project = os.fspath(project)
    plan = Plan({}, [])
    for chapter in chapters:
        plan.problems.extend(chapter.problems)
        expander = Expander(chapter)
        roots = [name for name in chapter.chunks
                 if " " not in name and is_root(name)]
        if not roots and not chapter.problems:
            plan.problems.append(Problem(
                chapter.path, 1, "chapter has no root chunk such as "
                "<<retro/name.py>>=, so it tangles to nothing", warning=True))
        for name in roots:
            try:
                lines = expander.expand(name)
            except RecursionError:
                plan.problems.append(Problem(
                    chapter.path, first_definition(chapter, name).lineno,
                    f"chunks nested too deeply under <<{name}>>"))
                continue
            target = safe_target(project, name)
            if target is None:
                plan.problems.append(Problem(
                    chapter.path, first_definition(chapter, name).lineno,
                    f"root <<{name}>> would write outside the project {project}; "
                    "name it by a path relative to the project, inside it"))
                continue
            if target in plan.outputs:
                other = plan.outputs[target]
                plan.problems.append(Problem(
                    chapter.path, first_definition(chapter, name).lineno,
                    f"two chapters write {name}: this one and "
                    f"{display(other.chapter)}:{other.root.lineno}"))
                continue
            plan.outputs[target] = Output(target, name, lines,
                                          header(chapter.path, project, name))
        plan.problems.extend(dict.fromkeys(expander.problems))
        unused = (() if not expander.problems
                  and len(expander.used) == len(chapter.chunks)
                  else chapter.chunks.keys() - expander.used)
        for _, name in sorted((chapter.chunks[name][0][0], name) for name in unused):
            plan.problems.append(Problem(
                chapter.path, first_definition(chapter, name).lineno,
                f"chunk <<{name}>> is never used", warning=True))
    return plan


def safe_target(project: str, name: str) -> str | None:
    """The absolute path a root names, or None if it leaves the project."""
    if name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name):
        return None
    target = os.path.realpath(os.path.join(project, name))
    if not target.startswith(os.path.join(project, "")):
        return None
    return target


COMMENTS = {".md": ("<!-- ", " -->"), ".html": ("<!-- ", " -->"),
            ".css": ("/* ", " */"), ".js": ("// ", "")}


def header(chapter: str, project: str, name: str) -> str:
    """The generated-file comment that starts every tangled file."""
    source = os.path.realpath(chapter)
    if source.startswith(os.path.join(project, "")):
        source = os.path.relpath(source, project).replace(os.sep, "/")
    else:
        source = os.path.basename(source)
    opening, closing = COMMENTS.get(suffix(name), ("# ", ""))
    return (f"{opening}Tangled from {source}: edit the chapter, not this "
            f"file, then run `retro tangle`.{closing}")


def find_project(start: str) -> str | None:
    """The nearest directory at or above `start` with a pyproject.toml."""
    directory = os.path.realpath(start)
    while not os.path.isfile(os.path.join(directory, "pyproject.toml")):
        directory, below = os.path.dirname(directory), directory
        if directory == below:  # the root, and no project
            return None
    return directory


def project_for(chapter: str) -> str:
    """The project a chapter belongs to (its directory's parent if none)."""
    found = find_project(os.path.dirname(chapter))
    if found is not None:
        return found
    return os.path.dirname(os.path.dirname(os.path.realpath(chapter)))


def default_chapters() -> tuple[str, list[str]]:
    project = find_project(os.getcwd())
    if project is None or not os.path.isdir(os.path.join(project, "literate")):
        raise UsageError("no literate/ directory here: run inside a Retro "
                         "checkout, or name the chapters to tangle")
    return project, files_in(os.path.join(project, "literate"), ".md")


def files_in(directory: str, ending: str) -> list[str]:
    """Every file under `directory` whose name ends in `ending`, sorted."""
    found = [os.path.join(folder, name)
             for folder, _, names in os.walk(directory)
             for name in names if name.endswith(ending)]
    return sorted(found, key=lambda path: path.split(os.sep))


def load(paths: list[str]) -> tuple[Plan, dict[str, str]]:
    """Read and tangle chapters, each against its own project."""
    named: dict[str, str] = {}
    for path in paths:
        named.setdefault(os.path.realpath(path), path)
    chapters: list[Chapter] = []
    for path in named.values():
        if not os.path.isfile(path):
            raise UsageError(f"no such chapter: {path}")
        try:
            chapters.append(read_chapter(path))
        except UnicodeDecodeError as error:
            raise UsageError(f"{display(path)} is not UTF-8 text: "
                             f"{error.reason}")
    projects: dict[str, str] = {}
    by_directory: dict[str, str] = {}
    for chapter in chapters:
        directory = os.path.dirname(chapter.path)
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


def on_disk(path: str) -> bytes | None:
    """The bytes of a file, or None if there is no file to read."""
    try:
        with open(path, "rb") as stream:
            return stream.read()
    except OSError:
        return None


def stale(plan: Plan) -> list[Output]:
    """The outputs whose file on disk differs from the tangled text."""
    return [output for output in plan.outputs.values()
            if on_disk(output.path) != output.text.encode("utf-8")]


def orphans(plan: Plan, project: str) -> list[str]:
    """Modules in retro/ that no chapter produces."""
    return [path for path in files_in(os.path.join(project, "retro"), ".py")
            if os.path.realpath(path) not in plan.outputs]


def write_atomically(path: str, text: str) -> None:
    directory, name = os.path.split(path)
    os.makedirs(directory, exist_ok=True)
    temporary = os.path.join(directory, f".{name}.tangle-{os.getpid()}")
    try:
        with open(temporary, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        mode = os.stat(path).st_mode & 0o777 if os.path.exists(path) else 0o644
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


DESCRIPTION = """\
Tangle the literate chapters: pull the code out of each chapter's chunks,
expand the references, and write each root chunk to the file it names,
relative to the project (the nearest directory above the chapter with a
pyproject.toml). Only files whose text changes are written. Every error names
file.md:line and stops the tangle before anything is written."""


def add_arguments(parser) -> None:
    """The options of `retro tangle`, on `parser`."""
    parser.add_argument(
        "chapters", nargs="*", metavar="PATH",
        help="chapters to tangle (default: every chapter in literate/)")
    parser.add_argument(
        "--check", action="store_true",
        help="write nothing; list the files that would change and the "
             "modules in retro/ that no chapter produces, and exit 1 if "
             "there are any")
    parser.add_argument(
        "--where", metavar="FILE:LINE",
        help="print the chapter, line and chunk that line LINE of the "
             "tangled FILE came from, and write nothing")


class UsageError(Exception):
    """A mistake on the command line: exit status 2, one line."""


def parser():
    """`retro tangle`'s own parser: its usage errors are `UsageError`s."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str):
            raise UsageError(message)

    tangler = Parser(prog="retro tangle", description=DESCRIPTION)
    add_arguments(tangler)
    return tangler


def main(argv: list[str] | None = None) -> int:
    """`retro tangle ARGS`: tangle, and return the exit status."""
    try:
        args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as done:  # --help, printed
        return done.code
    except UsageError as error:
        return usage(error)
    return run(args)


def run(args) -> int:
    """Tangle as the parsed command line `args` asks."""
    try:
        return tangle_command(args.chapters, args.check, args.where)
    except UsageError as error:
        return usage(error)
    except BrokenPipeError:   # the reader went away; the work is done
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def usage(error: UsageError) -> int:
    print(f"retro tangle: error: {error}; try 'retro tangle --help'",
          file=sys.stderr)
    return 2


def register(subparsers) -> None:
    """Add `retro tangle` to the `retro` command's parser."""
    command = subparsers.add_parser(
        "tangle", description=DESCRIPTION,
        help="assemble the modules in retro/ from literate/")
    add_arguments(command)
    command.set_defaults(func=run)


def tangle_command(chapters: list[str], check: bool, where: str | None) -> int:
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
    for output in written:
        print(f"wrote {display(output.path)} "
              f"(from {display(output.chapter)})")
    unchanged = len(plan.outputs) - len(written)
    print(f"retro tangle: {len(written)} written, {unchanged} unchanged")
    return 0


def where_command(plan: Plan, where: str) -> int:
    name, _, number = where.rpartition(":")
    if not name or not (number.isascii() and number.isdigit()):
        raise UsageError(f"--where wants FILE:LINE, not {where!r}")
    output = plan.outputs.get(os.path.realpath(name))
    if output is None:
        raise UsageError(f"{name} is not produced by the chapters tangled")
    digits = number.lstrip("0")
    if (len(digits) > len(str(output.count))
            or not 1 <= int(digits or "0") <= output.count):
        shown = number if len(number) <= 20 else f"{len(number)} digits"
        raise UsageError(f"{name} has {output.count} lines, not {shown}")
    text, origin = output.line(int(digits))
    print(f"{display(origin.chapter)}:{origin.lineno}: <<{origin.chunk}>>")
    print(f"    {text.strip() or '(a blank line)'}")
    if on_disk(output.path) != output.text.encode("utf-8"):
        print(f"note: {name} differs from its chapter; run retro tangle",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
