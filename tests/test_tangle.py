"""The tangler: chunk syntax, errors, the command line, and its fixed point."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from retro.book import tangle

ROOT = Path(__file__).resolve().parent.parent
FENCE = "```"


def chunk(name: str, body: str, lang: str = "python") -> str:
    return f"{FENCE}{lang}\n<<{name}>>=\n{body}\n{FENCE}\n"


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("[project]\nname='x'\n")
    (tmp_path / "literate").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(project: Path, name: str, text: str) -> Path:
    path = project / "literate" / name
    path.write_text(text)
    return path


def run(*args: str) -> tuple[int, str, str]:
    """Run `retro tangle ARGS` in-process, capturing its output."""
    import contextlib
    import io
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = tangle.main(list(args))
    return status, out.getvalue(), err.getvalue()


def lines_of(output) -> list:
    """Every line of a planned output with its origin, header first."""
    return [output.line(number) for number in range(1, output.count + 1)]


def body_of(path: Path) -> str:
    """A tangled file without its one-line header."""
    return path.read_text().split("\n", 1)[1]


# --- the fixed point -------------------------------------------------------

def test_the_tangler_tangles_itself_byte_for_byte():
    plan, _ = tangle.load([ROOT / "literate" / "tangle.md"])
    assert not plan.errors
    output = plan.outputs[str((ROOT / "retro" / "book" / "tangle.py").resolve())]
    assert output.text.encode() == (ROOT / "retro" / "book" / "tangle.py").read_bytes()


def test_the_committed_modules_are_up_to_date():
    result = subprocess.run([sys.executable, "-m", "retro", "tangle", "--check"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "up to date" in result.stdout


# --- the chunk syntax ------------------------------------------------------

def test_names_with_spaces_appending_and_indentation(project):
    write(project, "a.md", "Prose.\n\n"
          + chunk("out/a.py", "def f():\n    <<the body of f>>\n\n<<tail>>")
          + "More prose.\n\n"
          + chunk("the body of f", "x = 1\n\nreturn x")
          + chunk("tail", "y = 2")
          + chunk("the body of f", "# appended"))
    assert run()[0] == 0
    assert body_of(project / "out/a.py") == (
        "def f():\n    x = 1\n\n    return x\n    # appended\n\ny = 2\n")


def test_shift_operators_and_inline_brackets_are_code(project):
    code = 'x = 1 << 2\ny = x >> 1\nprint("<<tail>>")\n# <<tail>> in a comment'
    write(project, "a.md", chunk("out/a.py", code))
    assert run()[0] == 0
    assert body_of(project / "out/a.py") == code + "\n"


def test_prose_fences_are_not_chunks_and_tildes_work(project):
    write(project, "a.md", "```python\nprint('example')\n```\n\n"
          "````markdown\n```python\n<<fake>>=\n```\n````\n\n"
          "~~~python\n<<out/a.py>>=\nz = 3\n~~~\n")
    status, _, err = run()
    assert status == 0 and "warning" not in err
    assert body_of(project / "out/a.py") == "z = 3\n"


def test_names_are_scoped_to_their_chapter(project):
    write(project, "a.md", chunk("out/a.py", "<<part>>") + chunk("part", "a = 1"))
    write(project, "b.md", chunk("out/b.py", "<<part>>") + chunk("part", "b = 2"))
    assert run()[0] == 0
    assert body_of(project / "out/a.py") == "a = 1\n"
    assert body_of(project / "out/b.py") == "b = 2\n"


def test_header_names_the_chapter_and_follows_a_shebang(project):
    write(project, "a.md", chunk("bin/run.sh", "#!/bin/sh\necho hi", "sh"))
    assert run()[0] == 0
    first, second, third = (project / "bin/run.sh").read_text().splitlines()
    assert first == "#!/bin/sh"
    assert "literate/a.md" in second and "retro tangle" in second
    assert third == "echo hi"


def test_writes_only_what_changed(project):
    write(project, "a.md", chunk("out/a.py", "a = 1") + chunk("out/b.py", "b = 1"))
    status, out, _ = run()
    assert status == 0 and "2 written" in out
    target = project / "out/a.py"
    os.utime(target, (1_000_000, 1_000_000))
    write(project, "a.md", chunk("out/a.py", "a = 1") + chunk("out/b.py", "b = 2"))
    status, out, _ = run()
    assert "wrote out/b.py" in out and "out/a.py" not in out
    assert target.stat().st_mtime == 1_000_000


# --- errors ----------------------------------------------------------------

ERROR_CASES = {
    "undefined": (chunk("out/a.py", "x = 1\n<<consult modle>>")
                  + chunk("consult model", "pass"),
                  ["literate/a.md:4: error: undefined chunk <<consult modle>>; "
                   "did you mean <<consult model>> (line 7)?",
                   "literate/a.md:7: warning: chunk <<consult model>> is never "
                   "used"]),
    "undefined, nothing close": (chunk("out/a.py", "<<zebra>>")
                                 + chunk("consult model", "pass"),
                                 ["literate/a.md:3: error: undefined chunk "
                                  "<<zebra>>\n", "literate/a.md:6: warning: "
                                  "chunk <<consult model>> is never used"]),
    "cycle": (chunk("out/a.py", "<<one>>") + chunk("one", "<<two>>")
              + chunk("two", "<<one>>"),
              ["literate/a.md:11: error: chunk <<one>> contains itself: "
               "literate/a.md:7: <<one>> uses <<two>>; "
               "literate/a.md:11: <<two>> uses <<one>>\n"]),
    "three-step cycle": (chunk("out/a.py", "<<one>>") + chunk("one", "<<two>>")
                         + chunk("two", "    <<three>>")
                         + chunk("three", "if x:\n    <<one>>"),
                         ["chunk <<one>> contains itself: "
                          "literate/a.md:7: <<one>> uses <<two>>; "
                          "literate/a.md:11: <<two>> uses <<three>>; "
                          "literate/a.md:16: <<three>> uses <<one>>\n"]),
    "chunk containing itself": (chunk("out/a.py", "<<me>>")
                                + chunk("me", "x = 1\n<<me>>"),
                                ["literate/a.md:8: error: chunk <<me>> contains "
                                 "itself: literate/a.md:8: <<me>> uses <<me>>"]),
    "unterminated": (chunk("out/a.py", "x = 1") + "\n```python\n<<more>>=\ny = 2\n",
                     ["literate/a.md:6: error: unterminated fence"]),
    "absolute": (chunk("/tmp/evil.py", "x = 1"),
                 ["literate/a.md:2: error: root <</tmp/evil.py>> would write "
                  "outside the project"]),
    "drive letter": (chunk("C:/evil.py", "x = 1"),
        ["literate/a.md:2: error: root <<C:/evil.py>> would write outside"]),
    "escape": (chunk("../evil.py", "x = 1"),
        ["literate/a.md:2: error: root <<../evil.py>> would write outside"]),
    "deep escape": (chunk("out/../../evil.py", "x = 1"),
        ["literate/a.md:2: error: root <<out/../../evil.py>> would write outside"]),
    "the project itself": (chunk("out/..", "x = 1"),
        ["literate/a.md:2: error: root <<out/..>> would write outside"]),
    "two chapters": (chunk("out/b.py", "b = 2"),
                     ["literate/b.md:2: error: two chapters write out/b.py: "
                      "this one and literate/a.md:2"]),
}


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_errors_name_the_line_and_write_nothing(project, case):
    # a project tangled once, so there are files an error must leave alone
    write(project, "a.md", chunk("out/a.py", "a = 1"))
    write(project, "b.md", chunk("out/b.py", "fine = True"))
    assert run()[0] == 0
    before = {path: (path.read_bytes(), path.stat().st_mtime_ns)
              for path in (project / "out").iterdir()}
    text, expected = ERROR_CASES[case]
    write(project, "a.md", text)
    (project / "literate" / "b.md").touch()
    status, out, err = run()
    assert status == 2 and out == ""
    for fragment in expected:
        assert fragment in err
    *problems, summary = err.splitlines()
    assert summary.endswith("; nothing written")
    assert all(re.match(r"literate/[ab]\.md:\d+: (error|warning): ", line)
               for line in problems)
    # one mistake, one error; a warning only where the case expects one
    assert len([line for line in problems if ": error: " in line]) == 1
    assert len(problems) == len(set(problems)) == len(expected)
    after = {path: (path.read_bytes(), path.stat().st_mtime_ns)
             for path in (project / "out").iterdir()}
    assert after == before
    assert not (project.parent / "evil.py").exists()
    assert not Path("/tmp/evil.py").exists()


def test_a_symlink_does_not_lead_a_root_out_of_the_project(project, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside")
    (project / "out").mkdir()
    (project / "out" / "door").symlink_to(outside, target_is_directory=True)
    write(project, "a.md", chunk("out/door/evil.py", "x = 1"))
    status, _, err = run()
    assert status == 2 and "literate/a.md:2: error:" in err
    assert list(outside.iterdir()) == []


def test_retro_tangle_itself_exits_2_naming_the_line(project):
    write(project, "a.md", "# A\n\n" + chunk("out/a.py", "<<nothing>>"))
    result = subprocess.run([sys.executable, "-m", "retro", "tangle"],
                            cwd=project, capture_output=True, text=True)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(
        "literate/a.md:5: error: undefined chunk <<nothing>>")
    assert not (project / "out").exists()


@pytest.mark.parametrize("command", [["-m", "retro", "tangle"],
                                     ["-m", "retro.book.tangle"]])
def test_a_reader_who_stops_listening_leaves_no_file_unwritten(project,
                                                                 command):
    write(project, "a.md", "# A\n\n" + chunk("out/a.py", "a = 1"))
    write(project, "b.md", "# B\n\n" + chunk("out/b.py", "b = 2"))
    read, closed = os.pipe()
    os.close(read)          # the reader has gone before the first word
    try:
        result = subprocess.run([sys.executable, *command], cwd=project,
                                stdout=closed, stderr=subprocess.PIPE,
                                text=True)
    finally:
        os.close(closed)
    assert result.returncode == 0 and result.stderr == ""
    assert body_of(project / "out/a.py") == "a = 1\n"
    assert body_of(project / "out/b.py") == "b = 2\n"


def test_a_mistake_in_a_chunk_used_twice_is_reported_once(project):
    write(project, "a.md", chunk("out/a.py", "<<twice>>\n<<twice>>")
          + chunk("twice", "<<missing>>"))
    status, _, err = run()
    assert status == 2
    assert err.count("undefined chunk <<missing>>") == 1


def test_the_same_chapter_named_twice_is_read_once(project):
    write(project, "a.md", chunk("out/a.py", "a = 1"))
    status, out, err = run("literate/a.md", "./literate/a.md")
    assert status == 0 and err == ""
    assert "1 written" in out


def test_two_chapters_writing_one_file(project):
    write(project, "a.md", chunk("out/a.py", "a = 1"))
    write(project, "b.md", "\n\n" + chunk("out/a.py", "a = 2"))
    status, _, err = run()
    assert status == 2
    assert "literate/b.md:4: error: two chapters write out/a.py" in err
    assert "literate/a.md:2" in err
    assert not (project / "out").exists()


def test_errors_leave_existing_files_untouched(project):
    write(project, "a.md", chunk("out/a.py", "a = 1"))
    assert run()[0] == 0
    before = (project / "out/a.py").read_bytes()
    write(project, "a.md", chunk("out/a.py", "a = 2\n<<missing>>"))
    assert run()[0] == 2
    assert (project / "out/a.py").read_bytes() == before


def test_warnings_for_unused_chunks_and_rootless_chapters(project):
    write(project, "a.md", chunk("out/a.py", "a = 1") + chunk("spare part", "b = 2"))
    write(project, "notes.md", "# Notes\n\nNo code here.\n")
    status, _, err = run()
    assert status == 0
    assert "literate/a.md:6: warning: chunk <<spare part>> is never used" in err
    assert "literate/notes.md:1: warning: chapter has no root chunk" in err


USAGE_ERRORS = {
    ("literate/missing.md",): "no such chapter: literate/missing.md",
    ("--bogus",): "unrecognized arguments: --bogus",
    ("--where",): "argument --where: expected one argument",
    ("--where", "out/a.py"): "--where wants FILE:LINE, not 'out/a.py'",
    ("--where", "out/a.py:99"): "out/a.py has 2 lines, not 99",
    ("--where", "out/b.py:1"): "out/b.py is not produced by the chapters tangled",
}


@pytest.mark.parametrize("args", sorted(USAGE_ERRORS))
def test_usage_errors_are_one_line_like_the_rest_of_retro(project, args):
    write(project, "a.md", chunk("out/a.py", "a = 1"))
    status, out, err = run(*args)
    assert status == 2 and out == ""
    assert err == (f"retro tangle: error: {USAGE_ERRORS[args]}; "
                   "try 'retro tangle --help'\n")


def test_help_says_what_tangling_does_and_lists_the_options():
    status, out, err = run("--help")
    assert status == 0 and err == ""
    assert out.startswith("usage: retro tangle [-h] [--check] [--where FILE:LINE]")
    for words in ("root chunk", "file.md:line", "PATH", "--check", "--where",
                  "-h, --help"):
        assert words in out


def test_options_of_retro_before_tangle_are_allowed(project):
    write(project, "a.md", chunk("out/a.py", "a = 1"))
    for args, status, said in (
            (["--check"], 1, "out/a.py would change"),
            ([], 0, "1 written"),
            (["--check"], 0, "1 file up to date"),
            (["--bogus"], 2, "error: unrecognized arguments: --bogus")):
        result = subprocess.run(
            [sys.executable, "-m", "retro", "--seed", "3", "tangle", *args],
            cwd=project, capture_output=True, text=True)
        assert result.returncode == status, result.stderr
        assert said in result.stdout + result.stderr


# --- --check and --where ---------------------------------------------------

def test_check_lists_stale_files_and_orphan_modules(project):
    write(project, "a.md", chunk("retro/a.py", "a = 1"))
    assert run()[0] == 0
    assert run("--check")[0] == 0
    (project / "retro/a.py").write_text("hand edited\n")
    (project / "retro/stray.py").write_text("x = 1\n")
    status, out, _ = run("--check")
    assert status == 1
    assert "retro/a.py would change" in out
    assert "retro/stray.py is not produced by any chapter" in out
    assert (project / "retro/a.py").read_text() == "hand edited\n"


def test_where_reports_chapter_line_and_chunk(project):
    write(project, "a.md", "# A\n\n" + chunk("out/a.py", "def f():\n    <<body>>")
          + "\nText.\n\n" + chunk("body", "return 42"))
    assert run()[0] == 0
    status, out, _ = run("--where", "out/a.py:3")
    assert status == 0
    assert out.splitlines() == ["literate/a.md:13: <<body>>", "    return 42"]


def test_every_line_of_a_module_names_the_chapter_line_it_came_from(project):
    write(project, "a.md", "# A\n\n" + chunk(
        "out/a.py", "#!/usr/bin/env python3\ndef f():\n    <<body>>\n")
          + "\nText.\n\n" + chunk("body", "x = 1\nreturn x"))
    plan, _ = tangle.load([str(project / "literate/a.md")])
    (output,) = plan.outputs.values()
    chapter = (project / "literate/a.md").read_text().split("\n")
    numbered = output.numbered()
    assert numbered == [output.line(n) for n in range(1, output.count + 1)]
    for text, origin in numbered[2:]:     # after the #! and header lines
        assert chapter[origin.lineno - 1].strip() == text.strip()
    assert [origin.chunk for _, origin in numbered] == [
        "out/a.py", "out/a.py", "out/a.py", "body", "body", "out/a.py"]


def test_command_line_exit_status_and_help():
    result = subprocess.run([sys.executable, "-m", "retro", "--help"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0 and "tangle" in result.stdout
    result = subprocess.run([sys.executable, "-m", "retro", "tangle", "--bogus"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2 and result.stderr == (
        "retro tangle: error: unrecognized arguments: --bogus; "
        "try 'retro tangle --help'\n")


# --- properties -------------------------------------------------------------

# A name, as the chunk syntax defines it: any text without << or >>. The
# tangler's patterns spell that another way, for speed; they must agree.
SPEC_NAME = r"(?:(?!<<|>>).)+"


@settings(max_examples=300)
@given(st.text(alphabet="<>= ab\t", max_size=14))
def test_the_quick_name_pattern_means_any_text_without_double_brackets(text):
    for line in (f"<<{text}>>=", f"  <<{text}>>", text):
        spec_definition = re.match(rf"^<<({SPEC_NAME})>>=[ \t]*$", line)
        block = f"```python\n{line}\nx = 1\n```\n"
        quick = tangle.read_chapter("x.md", block)
        thorough = tangle.Chapter("x.md")
        tangle.read_fences(thorough, "\n" + block)
        for chapter in (quick, thorough):
            names = [definition.name for definition in chapter.definitions]
            assert names == ([spec_definition[1].strip()] if spec_definition else [])
        spec_reference = re.match(rf"^[ \t]*<<({SPEC_NAME})>>\s*$", line)
        reference = tangle.REFERENCE.match(line)
        assert bool(reference) == bool(spec_reference)
        if reference:
            assert reference["name"] == spec_reference[1]


names = st.text(alphabet="abcdefghij klmnop", min_size=1, max_size=12).map(
    str.strip).filter(lambda n: n and " " in n or n.isalpha())
code_line = st.text(alphabet="abcxyz =+-*/()<>:'#", max_size=30).filter(
    lambda line: not tangle.REFERENCE.match(line)
    and not line.strip().startswith("<<"))
bodies = st.lists(code_line, min_size=1, max_size=8)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(bodies, min_size=1, max_size=5))
def test_a_chapter_without_references_tangles_to_its_chunks_text(tmp_path_factory, blocks):
    text = "".join(f"Para {i}.\n\n" + chunk("out/x.py", "\n".join(b))
                   for i, b in enumerate(blocks))
    path = tmp_path_factory.mktemp("p") / "x.md"
    plan = tangle.tangle([tangle.read_chapter(path, text)], path.parent)
    assert not plan.errors
    (output,) = plan.outputs.values()
    expected = [line if line.strip() else "" for b in blocks for line in b]
    assert [t for t, _ in lines_of(output)[1:]] == expected


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["", "  ", "    ", "\t"]), bodies),
                min_size=1, max_size=5))
def test_expansion_indents_every_nonblank_line_and_where_maps_back(tmp_path_factory, parts):
    root = "\n".join(f"{indent}<<part {i}>>" for i, (indent, _) in enumerate(parts))
    text = chunk("out/x.py", root) + "".join(
        f"\nAbout part {i}.\n\n" + chunk(f"part {i}", "\n".join(b))
        for i, (_, b) in enumerate(parts))
    path = tmp_path_factory.mktemp("p") / "x.md"
    plan = tangle.tangle([tangle.read_chapter(path, text)], path.parent)
    assert not plan.errors
    (output,) = plan.outputs.values()
    body = lines_of(output)[1:]
    expected = [(indent + line) if line.strip() else ""
                for indent, b in parts for line in b]
    assert [t for t, _ in body] == expected
    source = text.split("\n")
    for line, origin in body:
        markdown_line = source[origin.lineno - 1]
        if line:
            assert line.endswith(markdown_line) and line.strip() == markdown_line.strip()
        else:
            assert not markdown_line.strip()


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted((ROOT / "literate").glob("*.md"))))
def test_where_maps_every_line_of_the_real_chapters(chapter):
    plan, _ = tangle.load([chapter])
    for output in plan.outputs.values():
        source = chapter.read_text().split("\n")
        for text, origin in lines_of(output)[1:]:
            if text.startswith("#!"):
                continue
            assert source[origin.lineno - 1].strip() == text.strip()


# --- reading a chapter, fence by fence ---------------------------------------

# Each fragment of a chapter, with the chunks it defines, (name, code), as
# the chunk syntax says: what is blank is emptied, an indented fence loses
# its indentation, a heading is a whole line, a longer fence holds a shorter.
FRAGMENTS = [
    ("Prose.\n", []), ("\n", []),
    ("Some `inline` code and x << 1 >> 2.\n", []),
    ("```python\n<<a>>=\nx = 1\n```\n", [("a", "x = 1\n")]),
    ("```python\n<<a>>=\n```\n", [("a", "")]),
    ("```python\n<<a>>=\n\n```\n", [("a", "\n")]),
    ("```\n<<b c>>=\n  <<a>>\n\n   \ny\n```\n",
     [("b c", "  <<a>>\n\n\ny\n")]),
    ("```python\nprint('no heading')\n```\n", []),
    ("```python\n<<a>>= x\n```\n", []),  # not a heading: more after it
    ("```sh\n<<out/a.sh>>=\n#!/bin/sh\n<<b c>>\n```\n",
     [("out/a.sh", "#!/bin/sh\n<<b c>>\n")]),
    ("```\n```\n", []), ("<<a>>=\n", []),  # a heading outside a fence
    ("```python\n<<a>>>=\n```\n", []),
    ("```python\n<< spaced >>=  \nz\n```\n", [("spaced", "z\n")]),
    ("~~~python\n<<t>>=\nt = 1\n~~~\n", [("t", "t = 1\n")]),
    ("````markdown\n```python\n<<fake>>=\n```\n````\n", []),
    ("  ```python\n  <<ind>>=\n    deeper\n  ```\n", [("ind", "  deeper\n")]),
    ("```python\n<<c>>=\nc\n```  \n", [("c", "c\n")]),
    ("Text with ``` inside.\n", []),
]
UNCLOSED = "```python\n<<open>>=\nnever closed\n"


@pytest.mark.parametrize("fragment, chunks", FRAGMENTS)
def test_each_kind_of_fence_is_read_as_the_syntax_says(fragment, chunks):
    chapter = tangle.read_chapter(Path("x.md"), fragment)
    assert [(d.name, d.code) for d in chapter.definitions] == chunks
    assert chapter.problems == []


@settings(max_examples=300)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=8), st.booleans(),
       st.sampled_from(["", "\n", "  \n"]))
def test_a_chapter_defines_what_its_fragments_define_in_order(parts, unclosed,
                                                              end):
    text = "".join(fragment for fragment, _ in parts)
    text += UNCLOSED if unclosed else end
    chapter = tangle.read_chapter(Path("x.md"), text)
    expected = [chunk for _, chunks in parts for chunk in chunks]
    assert [(d.name, d.code) for d in chapter.definitions] == expected
    lines = [d.lineno for d in chapter.definitions]
    assert lines == sorted(lines)  # where each heading stands, in order
    for definition in chapter.definitions:
        heading = text.splitlines()[definition.lineno - 1]
        assert heading.strip().startswith("<<") and "=" in heading
    if unclosed:  # reported at the line that opened the fence
        (problem,) = chapter.problems
        assert problem.lineno == text.count("\n", 0, text.rindex("```")) + 1
        assert "unterminated fence" in problem.message
    else:
        assert chapter.problems == []


# --- --where takes a line number, and nothing else --------------------------

@pytest.mark.parametrize("line", ["٣", "²", "1٣", "", "-1", "+1", " 1", "1.0",
                                  "4" * 4301, "0" * 4301 + "1"])
def test_where_wants_ascii_digits_of_a_line_that_exists(project, line):
    write(project, "a.md", chunk("out/a.py", "a = 1"))
    status, out, err = run("--where", f"out/a.py:{line}")
    if line == "0" * 4301 + "1":  # line 1, with leading zeros
        assert status == 0 and out.startswith("literate/a.md:2: <<out/a.py>>")
        return
    assert status == 2 and out == ""
    assert err.startswith("retro tangle: error: ") and err.count("\n") == 1
    assert len(err) < 200  # a number too long to read is not echoed whole


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(alphabet=st.characters(blacklist_characters="\0"), max_size=12),
                 st.text(alphabet="0123456789٣²", max_size=5000),
                 st.integers(min_value=-3, max_value=5).map(str)))
def test_where_answers_or_refuses_in_one_line_whatever_the_line(project, line):
    if not (project / "literate" / "a.md").exists():
        write(project, "a.md", chunk("out/a.py", "a = 1\nb = 2"))
        assert run()[0] == 0
    status, out, err = run("--where", f"out/a.py:{line}")
    valid = line.isascii() and line.isdigit() and 1 <= int(line.lstrip("0") or "0") <= 3
    if valid:
        assert status == 0 and len(out.splitlines()) == 2 and err == ""
    else:
        assert status == 2 and out == ""
        assert err.startswith("retro tangle: error: ") and err.count("\n") == 1


def test_where_with_a_number_too_long_for_int_is_a_usage_error_not_a_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "retro", "tangle", "literate/tangle.md", "--where",
         "retro/book/tangle.py:" + "4" * 4301],
        cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("retro tangle: error: retro/book/tangle.py has ")
    assert "4301 digits" in result.stderr and result.stderr.count("\n") == 1
