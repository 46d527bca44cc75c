# Tangled from literate/weave.md: edit the chapter, not this file, then run `retro tangle`.
"""mkdocs hook: the chapters of literate/ as a book with linked chunks.

Tangled from literate/weave.md, which explains it.
"""
from __future__ import annotations

import ast
import html
import re
from bisect import bisect_right
from collections import namedtuple
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from retro.book.tangle import REFERENCE, is_root, read_chapter, tangle


BOOK, INDEXES, MODULES = "book", "indexes", "modules"
INDEX_PAGES = (("Chunks", "chunks"), ("Identifiers", "identifiers"),
               ("Tangled files", "files"), ("Sources", "sources"))


def chapters_dir(config) -> Path:
    return Path(config["docs_dir"]).parent / "literate"


def module_uri(relative: str) -> str:
    """The page that shows the tangled file `relative`."""
    return f"{MODULES}/{relative}.md"


def on_files(files, config):
    global book
    book = Book(chapters_dir(config))
    for path in book.paths.values():
        files.append(File.generated(
            config, f"{BOOK}/{path.name}", abs_src_path=str(path)))
    for uri, text in book.pages():
        files.append(File.generated(config, uri, content=text))
    return files


class Book:
    """Every chapter, read once per build, and the files they tangle to."""

    def __init__(self, directory: Path):
        self.paths = {path.stem: path
                      for path in sorted(directory.glob("*.md"))}
        self.texts = {stem: path.read_text(encoding="utf-8")
                      for stem, path in self.paths.items()}
        self.chapters = {stem: read_chapter(str(self.paths[stem]), text)
                         for stem, text in self.texts.items()}
        self.ids = {stem: anchors(chapter.definitions)
                    for stem, chapter in self.chapters.items()}
        self.numbers = chapter_numbers()
        self.labels = {stem: labels(chapter.definitions, self.numbers[stem])
                       for stem, chapter in self.chapters.items()}
        self.uses = {stem: users(chapter)
                     for stem, chapter in self.chapters.items()}
        self.stem_of = {chapter.path: stem
                        for stem, chapter in self.chapters.items()}
        plan = tangle(list(self.chapters.values()),
                      str(directory.parent.resolve()))
        self.outputs = sorted(plan.outputs.values(),
                              key=lambda output: output.relative)
        self.parts: dict[str, list] = {}  # by book_part
        self.origin_lists: dict[str, list] = {}  # by origins
        self.named = None  # by names
        self.cache = directory.parent / ".cache" / "weave"  # by highlighted

    def title(self, stem: str) -> str:
        """A chapter's title: its first heading."""
        found = re.search(r"^# (.+)$", self.texts[stem], re.MULTILINE)
        return found[1].strip() if found else stem

    def origins(self, output) -> list:
        """Where each line of `output` came from: item 0 is line 1."""
        if output.relative not in self.origin_lists:
            self.origin_lists[output.relative] = [
                origin for _, origin in output.numbered()]
        return self.origin_lists[output.relative]

    def tangled_from(self, stem: str) -> list:
        return [output for output in self.outputs
                if self.stem_of[output.chapter] == stem]

    def chapter_line(self, output, lineno: int) -> tuple[str, int]:
        """The chapter, and its line, that line `lineno` of `output` is."""
        origin = self.origins(output)[lineno - 1]
        return self.stem_of[origin.chapter], origin.lineno

    def label_at(self, stem: str, line: int) -> str:
        """The label of the chunk that holds line `line` of a chapter."""
        return book_part(self, stem, line)[3]

    def names(self):
        """The names the book's modules define and use, read once."""
        if self.named is None:
            self.named = read_names(self)
        return self.named

    def pages(self):
        """The generated pages: the indexes, and one per tangled file."""
        yield f"{INDEXES}/chunks.md", chunk_index(self)
        yield f"{INDEXES}/identifiers.md", identifier_index(self)
        yield f"{INDEXES}/files.md", module_list(self)
        yield f"{INDEXES}/sources.md", bibliography(self)
        for output in self.outputs:
            yield module_uri(output.relative), module_page(self, output)


book: Book | None = None


def on_config(config):
    from retro.book.parts import PARTS

    present = {chapter.stem for chapter in chapters_dir(config).glob("*.md")}
    placed = [name for _, names in PARTS for name in names]
    if set(placed) != present or len(placed) != len(set(placed)):
        raise PluginError(
            f"the book's parts in retro/book/parts.py do not match literate/: "
            f"missing {sorted(present - set(placed))}, "
            f"unknown {sorted(set(placed) - present)}")
    nav = list(config["nav"] or [])
    for title, names in PARTS:
        nav.append({title: [f"{BOOK}/{name}.md" for name in names]})
    nav.append({"Indexes": [{title: f"{INDEXES}/{name}.md"}
                            for title, name in INDEX_PAGES]})
    config["nav"] = nav
    return config


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "chunk"


def anchors(definitions) -> dict[tuple[str, int], str]:
    """Map (chunk name, nth definition) to a unique HTML id."""
    seen: dict[str, int] = {}
    taken: set[str] = set()
    ids: dict[tuple[str, int], str] = {}
    for definition in definitions:
        nth = seen[definition.name] = seen.get(definition.name, 0) + 1
        base = f"chunk-{slug(definition.name)}"
        candidate = base if nth == 1 else f"{base}-{nth}"
        while candidate in taken:
            candidate += "-x"
        taken.add(candidate)
        ids[definition.name, nth] = candidate
    return ids


def chapter_numbers() -> dict[str, int]:
    """Each chapter's number in the reading order: 1 for the first."""
    from retro.book.parts import PARTS

    order = [name for _, names in PARTS for name in names]
    return {name: number for number, name in enumerate(order, 1)}


def labels(definitions, number: int) -> dict[tuple[str, int], str]:
    """Map (chunk name, nth definition) to its label: '9.4'."""
    seen: dict[str, int] = {}
    found: dict[tuple[str, int], str] = {}
    for place, definition in enumerate(definitions, 1):
        nth = seen[definition.name] = seen.get(definition.name, 0) + 1
        found[definition.name, nth] = f"{number}.{place}"
    return found


def label_order(label: str) -> tuple[int, ...]:
    """Labels in reading order: 9.4 before 9.10 before 10.1."""
    return tuple(int(part) for part in label.split("."))


def users(chapter) -> dict[str, list[tuple[tuple[str, int], int]]]:
    """Each chunk's name -> ((name, nth), line) of each line using it."""
    found: dict[str, list[tuple[tuple[str, int], int]]] = {}
    nth: dict[str, int] = {}
    for definition in chapter.definitions:
        k = nth[definition.name] = nth.get(definition.name, 0) + 1
        for line in definition.lines:
            reference = REFERENCE.match(line.text)
            if reference:
                found.setdefault(reference["name"].strip(), []).append(
                    ((definition.name, k), line.lineno))
    return found


def first_uses(uses) -> list[tuple[tuple[str, int], int]]:
    """Each using definition once, with the first line that uses."""
    first: dict[tuple[str, int], int] = {}
    for user, line in uses:
        first.setdefault(user, line)
    return list(first.items())


def on_page_markdown(markdown, page, config, files):
    if page.file.src_uri == "index.md":
        return home_page(markdown)
    if not page.file.src_uri.startswith(f"{BOOK}/"):
        return markdown
    chapter = read_chapter(page.file.abs_src_path, markdown)
    ids = anchors(chapter.definitions)
    number = book.numbers[Path(page.file.src_uri).stem]
    tags = labels(chapter.definitions, number)
    uses = users(chapter)
    lines = markdown.split("\n")
    prefix = unused_word(markdown)
    references: dict[str, str] = {}
    first_lines: dict[str, int] = {}
    nth: dict[str, int] = {}
    insert_before: dict[int, str] = {}
    insert_after: dict[int, str] = {}
    drop: set[int] = set()
    heading = next((index for index, line in enumerate(lines)
                    if line.startswith("# ")), None)
    if heading is not None:
        insert_after[heading] = chapter_head(Path(page.file.src_uri).stem)
    for definition in chapter.definitions:
        count = nth[definition.name] = nth.get(definition.name, 0) + 1
        anchor = ids[definition.name, count]
        sign = "=" if count == 1 else "+="
        name = html.escape(definition.name)
        insert_before[definition.fence - 1] = (
            f'<p class="chunk-title" id="{anchor}">'
            f'<a class="chunk-anchor" href="#{anchor}">'
            f'<span class="chunk-label">{tags[definition.name, count]}</span> '
            f'&lang;{name}&rang;&nbsp;{sign}</a></p>\n')
        drop.add(definition.lineno - 1)
        first_lines[anchor] = next(
            (line.lineno for line in definition.lines if line.text),
            definition.lineno + 1)
        for line in definition.lines:
            found = REFERENCE.match(line.text)
            if not found:
                continue
            target = found["name"].strip()
            placeholder = f"{prefix}{spell(len(references))}x"
            link = ids.get((target, 1))
            label = f"&lang;{html.escape(target)}&rang;"
            if link:  # noweb's ⟨name 12a⟩: where the chunk begins
                label = (f"&lang;{html.escape(target)}&nbsp;<span class="
                         f'"chunk-label">{tags[target, 1]}</span>&rang;')
            references[placeholder] = (
                f'<a class="chunk-ref" href="#{link}">{label}</a>' if link
                else f'<span class="chunk-ref chunk-undefined">{label}</span>')
            raw = lines[line.lineno - 1]
            lines[line.lineno - 1] = raw.replace(
                f"<<{found['name']}>>", placeholder, 1)
        links = []
        if count > 1:
            links.append(f"continues [{tags[definition.name, count - 1]}]"
                         f"(#{ids[definition.name, count - 1]})")
        if (definition.name, count + 1) in ids:
            links.append(f"continued in [{tags[definition.name, count + 1]}]"
                         f"(#{ids[definition.name, count + 1]})")
        if uses.get(definition.name):
            where = ", ".join(
                f'[{tags[user]}](#L{lineno} "{md_title(user[0])}")'
                for user, lineno in first_uses(uses[definition.name]))
            links.append(f"used in {where}")
        elif is_root(definition.name):
            links.append(f"root: tangled to [`{definition.name}`]"
                         f"(../{module_uri(definition.name)})")
        close = (definition.lines[-1].lineno if definition.lines
                 else definition.lineno) + 1
        if links:
            insert_after[close - 1] = (
                "\n" + "; ".join(links) + "\n{: .chunk-links }\n")
    rewritten = []
    for index, line in enumerate(lines):
        if index in insert_before:
            rewritten.append(insert_before[index])
        if index not in drop:
            rewritten.append(line)
        if index in insert_after:
            rewritten.append(insert_after[index])
    page.meta["retro_references"] = (prefix, references)
    page.meta["retro_lines"] = first_lines
    return "\n".join(rewritten)


def spell(number: int) -> str:
    return "".join("abcdefghij"[int(digit)] for digit in str(number))


def unused_word(text: str) -> str:
    """A placeholder prefix that occurs nowhere in `text`, in any case."""
    prefix, text = "xqxref", text.lower()
    while prefix in text:
        prefix += "q"
    return prefix


def on_page_content(content, page, config, files):
    if page.file.src_uri.startswith(f"{MODULES}/"):
        around = re.search(r'<p class="module-neighbours">.*?</p>', content,
                           re.DOTALL)
        return (content + file_listing(page, files)
                + (around[0] if around else ""))
    if not page.file.src_uri.startswith(f"{BOOK}/"):
        return content
    prefix, references = page.meta["retro_references"]
    if references:
        content = re.sub(rf"{prefix}[a-j]+x",
                         lambda m: references.get(m[0], m[0]), content)
    content = name_lines(content, page)
    content = link_names(content, page, files)
    return link_mentions(content, page, files)


TITLED_CODE = re.compile(
    r'<p class="chunk-title" id="([^"]+)"><a [^>]*>.*?</a></p>\s*'
    r'<div class="[^"]*highlight[^"]*"><pre>.*?</pre>', re.DOTALL)
LINE_SPAN = re.compile(r'<span id="__span-\d+-(\d+)">')


def name_lines(content: str, page) -> str:
    first_lines = page.meta["retro_lines"]
    named: set[str] = set()

    def name_block(block):
        first = first_lines[block[1]]

        def name_line(span):
            named.add(line_id := f"L{first + int(span[1]) - 1}")
            return f'<span id="{line_id}">'
        return LINE_SPAN.sub(name_line, block[0])

    content = TITLED_CODE.sub(name_block, content)
    if page.present_anchor_ids is not None:
        page.present_anchor_ids |= named
    return content


LINE = re.compile(r'(<span id="L(\d+)">)(.*?\n</span>)', re.DOTALL)
NAME_TOKEN = re.compile(r'<span class="n">(\w+)</span>')


def link_names(content: str, page, files) -> str:
    """Link each name in the page's code to the line defining it."""
    stem = Path(page.file.src_uri).stem
    named = book.names()
    words_on = named.words.get(stem, {})
    urls: dict[str, str] = {}

    def link(word, line: int) -> str:
        keys = words_on[line].get(word[1], ())
        if len(keys) != 1:
            return word[0]
        home = named.defined[next(iter(keys))]
        if home.stem not in urls:
            urls[home.stem] = "" if home.stem == stem else \
                files.get_file_from_path(f"{BOOK}/{home.stem}.md"
                                         ).url_relative_to(page.file)
        return (f'<a class="code-name" href="{urls[home.stem]}#L{home.line}"'
                f' title="{home.name}, {home.kind}, {home.label}">'
                f"{word[0]}</a>")

    def link_line(found) -> str:
        line = int(found[2])
        if line not in words_on:
            return found[0]
        return found[1] + NAME_TOKEN.sub(lambda word: link(word, line),
                                         found[3])
    return LINE.sub(link_line, content)


MENTION = re.compile(r"<code>&lt;&lt;([^<]+?)&gt;&gt;(?:\+?=)?</code>")


def chunk_home(name: str, stem: str) -> tuple[str, str] | None:
    """The chapter and anchor where chunk `name` begins, if one is clear."""
    if (name, 1) in book.ids[stem]:
        return stem, book.ids[stem][name, 1]
    homes = [other for other, ids in book.ids.items() if (name, 1) in ids]
    return (homes[0], book.ids[homes[0]][name, 1]) if len(homes) == 1 else None


def link_mentions(content: str, page, files) -> str:
    stem = Path(page.file.src_uri).stem

    def link(found):
        home = chunk_home(html.unescape(found[1]).strip(), stem)
        if home is None:
            return found[0]
        url = "" if home[0] == stem else files.get_file_from_path(
            f"{BOOK}/{home[0]}.md").url_relative_to(page.file)
        return (f'<a class="chunk-mention" href="{url}#{home[1]}">'
                f"{found[0]}</a>")
    return MENTION.sub(link, content)


def chapter_head(stem: str) -> str:
    """The line under a chapter's title: its files, and the indexes."""
    tangled = ", ".join(
        f"[`{output.relative}`](../{module_uri(output.relative)})"
        for output in book.tangled_from(stem)) or "nothing"
    indexes = ", ".join(f"[{title.lower()}](../{INDEXES}/{name}.md)"
                        for title, name in INDEX_PAGES)
    return (f"\nChapter {book.numbers[stem]}. Tangles to {tangled}. "
            f"Indexes: {indexes}.\n{{: .chapter-head }}\n")


CHAPTER_LIST = "<!-- the chapters, by part -->"


def home_page(markdown: str) -> str:
    from retro.book.parts import PARTS

    if CHAPTER_LIST not in markdown:
        raise PluginError(f"docs/index.md has no line {CHAPTER_LIST}, "
                          "where the list of chapters goes")
    parts = []
    for title, names in PARTS:
        parts.append(f"- **{md_text(title)}**")
        parts.extend(f"    - {book.numbers[name]}\\. "
                     f"[{md_text(book.title(name))}]({BOOK}/{name}.md)"
                     for name in names)
    indexes = ", ".join(f"[{title.lower()}]({INDEXES}/{name}.md)"
                        for title, name in INDEX_PAGES)
    parts.append(f"- **Indexes**: {indexes}.")
    return markdown.replace(CHAPTER_LIST, "\n".join(parts))


def md_text(text: str) -> str:
    """Markdown that shows `text` as it is, even inside a table cell."""
    escaped = re.sub(r"([\\`*_\[\]|])", r"\\\1", text)
    return html.escape(escaped, quote=False)


def md_title(name: str) -> str:
    """A chunk's name as a link's title, between markdown's quotes (a
    double quote would end the title, so it is shown as a single one)."""
    return "⟨" + name.replace('"', "'") + "⟩"


UNSEARCHED = "---\nsearch:\n  exclude: true\n---\n\n"  # front matter


INDEX_PAGE = "---\nsearch:\n  exclude: true\nhide:\n  - toc\n---\n\n"
ARTICLE = re.compile(r"(?:the|a|an) (?=.)")


def sort_key(name: str, article: bool = True) -> tuple[str, str]:
    """How an entry is filed: its words, and without an article if asked."""
    words = re.sub(r"[^a-z0-9]+", " ", name.lower()).strip()
    return (words if article else ARTICLE.sub("", words, count=1)), name


def by_letter(rows, heading: str, kind: str) -> str:
    """(key, row) pairs filed under a heading per letter, the bar above;
    `kind` names the index, for the style sheet."""
    letters: dict[str, list[str]] = {}
    for key, row in sorted(rows):
        first = key[0][:1].upper()
        letters.setdefault(first if first.isalpha() else "#", []).append(row)
    bar = " ".join(
        f"[{letter}](#{letter_id(letter)})" if letter in letters else letter
        for letter in ["#", *map(chr, range(ord("A"), ord("Z") + 1))]
        if letter != "#" or letter in letters)
    sections = [f"## {letter} {{: #{letter_id(letter)} }}\n\n{heading}\n"
                + "\n".join(entries) + "\n"
                for letter, entries in sorted(letters.items())]
    return (f"{bar}\n{{: .index-letters }}\n\n"
            f'<div class="book-index book-index--{kind}" markdown>\n\n'
            + "\n".join(sections) + "\n</div>\n")


def letter_id(letter: str) -> str:
    return "letter-" + ("digits" if letter == "#" else letter.lower())


def chunk_index(book: Book) -> str:
    rows = []
    for stem, chapter in book.chapters.items():
        ids, tags, uses = book.ids[stem], book.labels[stem], book.uses[stem]
        page = f"../{BOOK}/{stem}.md"
        for name in chapter.chunks:
            parts = ", ".join(f"[{tags[key]}]({page}#{ids[key]})"
                              for key in tags if key[0] == name)
            used = ", ".join(f"[{tags[user]}]({page}#L{line})"
                             for user, line in first_uses(uses.get(name, [])))
            if not used and is_root(name):
                used = f"the file [`{name}`](../{module_uri(name)})"
            rows.append((sort_key(name, article=False), (
                f"| [⟨{md_text(name)}⟩]({page}#{ids[name, 1]}) "
                f"| [{md_text(book.title(stem))}]({page}) | {parts} "
                f"| {used} |")))
    return (f"{INDEX_PAGE}# Chunks\n\nEvery chunk of the book, by name, "
            "filed without a leading article. A label such as 9.4 is the "
            "fourth chunk of chapter 9, and links to it; a label under "
            "*used in* links to the line that uses the chunk.\n\n"
            + by_letter(rows, "| chunk | chapter | defined in | used in |\n"
                              "| --- | --- | --- | --- |", "chunks"))


Defined = namedtuple("Defined", "name kind output lineno stem line label")
Names = namedtuple("Names", "defined used words")


def read_names(book: Book) -> Names:
    """Every indexed name: its definition, the chapter lines using it,
    and by chapter and line, the words on that line that stand for it."""
    modules = {dotted(output.relative): output for output in book.outputs
               if output.relative.endswith(".py")}
    trees = {name: ast.parse(output.text) for name, output in modules.items()}
    defined = {}
    for module, tree in trees.items():
        for name, kind, lineno in top_level(tree):
            stem, line = book.chapter_line(modules[module], lineno)
            defined[module, name] = Defined(name, kind, modules[module],
                                            lineno, stem, line,
                                            book.label_at(stem, line))
    used: dict[tuple[str, str], set[tuple[str, int]]] = {}
    words: dict[str, dict[int, dict[str, set]]] = {}
    for module, tree in trees.items():
        for key, lineno, word in uses_in(tree, module, defined, set(modules)):
            stem, line = book.chapter_line(modules[module], lineno)
            used.setdefault(key, set()).add((stem, line))
            words.setdefault(stem, {}).setdefault(line, {}).setdefault(
                word, set()).add(key)
    return Names(defined, used, words)


def identifier_index(book: Book) -> str:
    named = book.names()
    rows = []
    for key, home in named.defined.items():
        chapter = f"../{BOOK}/{home.stem}.md#L{home.line}"
        rows.append((sort_key(home.name), (
            f"| [`{home.name}`]({chapter}) | {home.kind} "
            f"| [{home.label}]({chapter}) "
            f"| [{md_text(home.output.relative)}]"
            f"(../{module_uri(home.output.relative)}#L{home.lineno}) "
            f"| {uses_cell(book, named.used.get(key, set()))} |")))
    return (f"{INDEX_PAGE}# Identifiers\n\nEvery function, class, method "
            "and constant defined at the top of a module the book tangles. "
            "The name and the label under *defined in* link to the line of "
            "the chapter that defines it, the module to the line of the "
            "file; the labels under *used in* link to the lines that use "
            "it.\n\n"
            + by_letter(rows, "| identifier | kind | defined in | module "
                              "| used in |\n| --- | --- | --- | --- | --- |",
                        "identifiers"))


def uses_cell(book: Book, lines: set[tuple[str, int]]) -> str:
    first: dict[str, tuple[str, int]] = {}
    for stem, line in sorted(lines):
        first.setdefault(book.label_at(stem, line), (stem, line))
    return ", ".join(
        f"[{label}](../{BOOK}/{stem}.md#L{line})"
        for label, (stem, line) in sorted(
            first.items(), key=lambda item: label_order(item[0])))


def dotted(relative: str) -> str:
    """retro/engines/flip.py -> retro.engines.flip (a package: its name)."""
    name = relative[:-len(".py")].replace("/", ".")
    return name[:-len(".__init__")] if name.endswith(".__init__") else name


def top_level(tree):
    """(name, kind, line) of each function, class, method and constant."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, "function", node.lineno
        elif isinstance(node, ast.ClassDef):
            yield node.name, "class", node.lineno
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield f"{node.name}.{item.name}", "method", item.lineno
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = getattr(node, "targets", [getattr(node, "target", None)])
            for name in [name for target in targets
                         for name in assigned(target)]:
                if name.lstrip("_")[:1].isupper():
                    yield name, "constant", node.lineno


def assigned(target):
    """The names an assignment's target binds: `A`, or `A, (B, *C)`."""
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from assigned(element)
    elif isinstance(target, ast.Starred):
        yield from assigned(target.value)


def uses_in(tree, module: str, defined, modules: set[str]):
    """((module, name), line, word) for each use of an indexed name."""
    names = {name: (module, name) for where, name in defined
             if where == module}
    packages: dict[str, str] = {}
    read = []  # the names and attributes, resolved once imports are known
    for node in ast.walk(tree):
        if isinstance(node, (ast.Name, ast.Attribute)):
            read.append(node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            follow(node, module, modules, names, packages)
    for node in read:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            key, word = names.get(node.id), node.id
        elif isinstance(node, ast.Attribute):
            key, word = attribute(node, names, packages), node.attr
        else:
            continue
        if key in defined:
            yield key, node.end_lineno, word
    yield from own_methods(tree, module, defined)


def attribute(node, names, packages) -> tuple[str, str] | None:
    """What an attribute reads: a module's name, or a class's method."""
    owner = packages.get(dotted_name(node.value))
    if owner:  # flip.Game, retro.registry.GAMES
        return owner, node.attr
    if isinstance(node.value, ast.Name) and node.value.id in names:
        where, name = names[node.value.id]  # Machine.choose
        return where, f"{name}.{node.attr}"
    return None


def own_methods(tree, module: str, defined):
    """Uses of a class's methods through self or cls, in the class."""
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef):
            continue
        for node in ast.walk(cls):
            if (isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id in ("self", "cls")
                    and (module, f"{cls.name}.{node.attr}") in defined):
                yield ((module, f"{cls.name}.{node.attr}"), node.end_lineno,
                       node.attr)


def follow(node, module: str, modules: set[str], names, packages) -> None:
    """Record what one import binds: a name of a module, or a module."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            packages[alias.asname or alias.name] = alias.name
        return
    source = node.module or ""
    if node.level:  # relative: from the importing module's package
        base = module.split(".")[:-node.level]
        source = ".".join([*base, source]).strip(".")
    for alias in node.names:
        bound = alias.asname or alias.name
        if f"{source}.{alias.name}" in modules:
            packages[bound] = f"{source}.{alias.name}"
        else:
            names[bound] = (source, alias.name)


def dotted_name(node) -> str | None:
    """`retro.registry` for the expression retro.registry; else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def module_list(book: Book) -> str:
    rows = [f"| [`{output.relative}`](../{module_uri(output.relative)}) "
            f"| [{md_text(book.title(stem))}](../{BOOK}/{stem}.md) "
            f"| {output.count} |"
            for output in book.outputs
            for stem in [book.stem_of[output.chapter]]]
    return ("# Tangled files\n\nEvery file the chapters tangle to, as "
            "`retro tangle` writes it. Each page shows the file whole, "
            "every line linked to the line of the chapter it came from.\n\n"
            "| file | tangled from | lines |\n| --- | --- | --- |\n"
            + "\n".join(rows) + "\n")


def module_page(book: Book, output) -> str:
    stem = book.stem_of[output.chapter]
    depth = "../" * output.relative.count("/")
    return (f"{UNSEARCHED}# {output.relative}\n\nTangled from "
            f"[{md_text(book.title(stem))}](../{depth}{BOOK}/{stem}.md), "
            f"`literate/{stem}.md`. Each line's number links to the "
            "line of the chapter it comes from; a name in angle brackets "
            "marks where a chunk begins.\n{: .chapter-head }\n\n"
            + neighbours(book, output, depth))


def neighbours(book: Book, output, depth: str) -> str:
    """The links to the tangled files before and after `output`."""
    at = book.outputs.index(output)
    links = []
    if at > 0:
        before = book.outputs[at - 1].relative
        links.append(f"[← `{before}`](../{depth}{module_uri(before)})"
                     "{: .module-previous }")
    links.append(f"[all tangled files](../{depth}{INDEXES}/files.md)")
    if at + 1 < len(book.outputs):
        after = book.outputs[at + 1].relative
        links.append(f"[`{after}` →](../{depth}{module_uri(after)})"
                     "{: .module-next }")
    return " · ".join(links) + "\n{: .module-neighbours }\n"


def file_listing(page, files) -> str:
    output = next(output for output in book.outputs
                  if module_uri(output.relative) == page.file.src_uri)
    width, shown, rows, urls = len(str(output.count)), None, [], {}
    lines = zip(highlighted(output), book.origins(output))
    for number, (text, origin) in enumerate(lines, 1):
        stem = book.stem_of[origin.chapter]
        if stem not in urls:
            urls[stem] = files.get_file_from_path(
                f"{BOOK}/{stem}.md").url_relative_to(page.file)
        url = urls[stem]
        part = book_part(book, stem, origin.lineno)
        target = f"L{origin.lineno}" if origin.lineno in part[2] else part[1]
        if (stem, part) != shown:
            shown = (stem, part)
            rows.append(f'<span class="module-chunk"><a href="{url}#{part[1]}"'
                        f">&lang;{html.escape(origin.chunk)}&rang;</a></span>")
        rows.append(f'<span id="L{number}"><a class="module-line" '
                    f'href="{url}#{target}" title="{stem}.md:{origin.lineno}">'
                    f"{number:>{width}}</a>  {text}\n</span>")
    if page.present_anchor_ids is not None:
        page.present_anchor_ids |= {
            f"L{n}" for n in range(1, output.count + 1)}
    return ('<div class="highlight module-listing"><pre><code>'
            + "".join(rows) + "</code></pre></div>")


def highlighted(output) -> list[str]:
    """The file's text as highlighted HTML, a line per item."""
    import hashlib

    import pygments
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_for_filename

    key = hashlib.sha256(f"{pygments.__version__}\n{output.relative}\n"
                         f"{output.text}".encode()).hexdigest()[:16]
    name = output.relative.replace("/", "_")
    kept = book.cache / f"{name}-{key}.html"
    if kept.exists():
        return kept.read_text(encoding="utf-8").split("\n")
    lexer = get_lexer_for_filename(output.relative, stripnl=False)
    code = pygments.highlight(output.text, lexer, HtmlFormatter(nowrap=True))
    book.cache.mkdir(parents=True, exist_ok=True)
    for older in book.cache.glob(f"{name}-*.html"):
        older.unlink()
    kept.write_text(code, encoding="utf-8")
    return code.split("\n")


def book_part(book: Book, stem: str,
              lineno: int) -> tuple[int, str, range, str]:
    """(heading, anchor, lines shown, label) of the definition holding
    a line."""
    parts = book.parts.get(stem)
    if parts is None:
        counted: dict[str, int] = {}
        parts = book.parts[stem] = []
        for definition in book.chapters[stem].definitions:
            name = definition.name
            nth = counted[name] = counted.get(name, 0) + 1
            shown = [line.lineno for line in definition.lines if line.text]
            lines = range(shown[0], shown[-1] + 1) if shown else range(0)
            parts.append((definition.lineno, book.ids[stem][name, nth], lines,
                          book.labels[stem][name, nth]))
    return parts[bisect_right(parts, (lineno, "\uffff")) - 1]


SOURCES = "Sources and further reading"
YEAR = re.compile(r"\b(?:1[6-9]|20)\d\d\b")


def sources(text: str) -> list[str]:
    """The items of a chapter's sources section, each joined into a line."""
    found = re.search(rf"^## {SOURCES}\n(.*?)(?=^#{{1,2}} |\Z)", text,
                      re.MULTILINE | re.DOTALL)
    items: list[list[str]] = []
    for line in (found[1] if found else "").split("\n"):
        if line.startswith("- "):
            items.append([line[2:].strip()])
        elif items and line.startswith("  ") and line.strip():
            items[-1].append(line.strip())
    return [" ".join(item) for item in items]


def work(entry: str) -> tuple[str, str]:
    """A cited work's key: its first word (the author's surname) and the
    first year the citation names; an undated work's, its whole entry."""
    year = YEAR.search(entry)
    if year is None:
        return entry, ""
    return entry.split()[0].strip(",.").lower(), year[0]


def bibliography(book: Book) -> str:
    from retro.book.parts import PARTS

    cited: dict[tuple[str, str], tuple[str, list[str]]] = {}
    for _, names in PARTS:
        for stem in names:
            for entry in sources(book.texts.get(stem, "")):
                text, citing = cited.setdefault(work(entry), (entry, []))
                if text != entry:
                    raise PluginError(
                        f"literate/{citing[0]}.md and literate/{stem}.md "
                        f"cite {' '.join(work(entry))} in different words")
                citing.append(stem)
    rows = [(sort_key(text), f"- {text}  \n  Cited in " + ", ".join(
                f"[{book.numbers[stem]}\\. {md_text(book.title(stem))}]"
                f"(../{BOOK}/{stem}.md#{slug(SOURCES)})" for stem in citing)
             + ".") for text, citing in cited.values()]
    return (f"{INDEX_PAGE}# Sources\n\nEvery work the book cites, gathered "
            f"from the *{SOURCES}* that end its chapters: {len(rows)} in "
            "all, filed by author, each with the chapters that cite it.\n\n"
            + by_letter(rows, "", "sources"))


SOURCE_MAP = re.compile(
    r"\n?(?://# sourceMappingURL=\S+|/\*# sourceMappingURL=[^*]*\*/)\s*$")


def on_post_build(config):
    site = Path(config["site_dir"])
    for path in site.rglob("*.map"):
        path.unlink()
    for path in [*site.rglob("*.js"), *site.rglob("*.css")]:
        if not path.is_file():  # a page: modules/docs/.../chunks.css/
            continue
        text = path.read_text(encoding="utf-8")
        trimmed = SOURCE_MAP.sub("", text)
        if trimmed != text:
            path.write_text(trimmed, encoding="utf-8")
