# Tangled from literate/weave.md: edit the chapter, not this file, then run `retro tangle`.
"""mkdocs hook: the chapters of literate/ as a book with linked chunks.

Tangled from literate/weave.md, which explains it.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

from mkdocs.structure.files import File
from mkdocs.exceptions import PluginError

from retro.book.tangle import REFERENCE, is_root, read_chapter

BOOK = "book"


def chapters_dir(config) -> Path:
    return Path(config["docs_dir"]).parent / "literate"


def on_files(files, config):
    for chapter in sorted(chapters_dir(config).glob("*.md")):
        files.append(File.generated(
            config, f"{BOOK}/{chapter.name}", abs_src_path=str(chapter)))
    return files

def on_config(config):
    from retro.registry import book_parts

    present = {chapter.stem for chapter in chapters_dir(config).glob("*.md")}
    placed = [name for _, names in book_parts() for name in names]
    if set(placed) != present or len(placed) != len(set(placed)):
        raise PluginError(
            f"the book's parts in retro/registry.py do not match literate/: "
            f"missing {sorted(present - set(placed))}, "
            f"unknown {sorted(set(placed) - present)}")
    nav = list(config["nav"] or [])
    for title, names in book_parts():
        nav.append({title: [f"{BOOK}/{name}.md" for name in names]})
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

def spell(number: int) -> str:
    digits = "abcdefghij"
    return "".join(digits[int(d)] for d in str(number))


def on_page_markdown(markdown, page, config, files):
    if not page.file.src_uri.startswith(f"{BOOK}/"):
        return markdown
    chapter = read_chapter(Path(page.file.abs_src_path), markdown)
    ids = anchors(chapter.definitions)
    users: dict[str, list[tuple[str, str]]] = {}
    count_of: dict[str, int] = {}
    for definition in chapter.definitions:
        k = count_of[definition.name] = count_of.get(definition.name, 0) + 1
        for line in definition.lines:
            found = REFERENCE.match(line.text)
            if found:
                anchor = ids[definition.name, k]
                users.setdefault(found["name"].strip(), []).append(
                    (anchor, definition.name))
    lines = markdown.split("\n")
    references: dict[str, str] = {}
    nth: dict[str, int] = {}
    insert_before: dict[int, str] = {}
    insert_after: dict[int, str] = {}
    drop: set[int] = set()
    for definition in chapter.definitions:
        count = nth[definition.name] = nth.get(definition.name, 0) + 1
        anchor = ids[definition.name, count]
        sign = "=" if count == 1 else "+="
        name = html.escape(definition.name)
        insert_before[definition.fence - 1] = (
            f'<p class="chunk-title" id="{anchor}">'
            f'<a class="chunk-anchor" href="#{anchor}">'
            f'&lang;{name}&rang;&nbsp;{sign}</a></p>\n')
        drop.add(definition.lineno - 1)
        for line in definition.lines:
            found = REFERENCE.match(line.text)
            if not found:
                continue
            target = found["name"].strip()
            placeholder = f"xqxref{spell(len(references))}x"
            link = ids.get((target, 1))
            label = html.escape(f"<<{target}>>")
            references[placeholder] = (
                f'<a class="chunk-ref" href="#{link}">{label}</a>' if link
                else f'<span class="chunk-ref chunk-undefined">{label}</span>')
            raw = lines[line.lineno - 1]
            lines[line.lineno - 1] = raw.replace(f"<<{found['name']}>>", placeholder, 1)
        links = []
        if count > 1:
            links.append(f'continues <a href="#{ids[definition.name, count - 1]}">'
                         f"part {count - 1}</a>")
        if (definition.name, count + 1) in ids:
            links.append(f'continued in <a href="#{ids[definition.name, count + 1]}">'
                         f"part {count + 1}</a>")
        if users.get(definition.name):
            uses = ", ".join(
                f'<a href="#{anchor}">&lang;{html.escape(user)}&rang;</a>'
                for anchor, user in dict.fromkeys(users[definition.name]))
            links.append(f"used in {uses}")
        elif is_root(definition.name):
            links.append(f"root: tangled to <code>{html.escape(definition.name)}</code>")
        close = (definition.lines[-1].lineno if definition.lines
                 else definition.lineno) + 1
        if links:
            insert_after[close - 1] = (
                '\n<p class="chunk-links">' + "; ".join(links) + "</p>\n")
    rewritten = []
    for index, line in enumerate(lines):
        if index in insert_before:
            rewritten.append(insert_before[index])
        if index not in drop:
            rewritten.append(line)
        if index in insert_after:
            rewritten.append(insert_after[index])
    page.meta["retro_references"] = references
    return "\n".join(rewritten)

def on_page_content(content, page, config, files):
    references = page.meta.get("retro_references")
    if not references:
        return content
    return re.sub(r"xqxref[a-j]+x",
                  lambda m: references.get(m.group(0), m.group(0)), content)
