# Tangled from literate/figures.md: edit the chapter, not this file, then run `retro tangle`.
"""mkdocs hook: the book's figures, drawn from live runs as the site builds.

Tangled from literate/figures.md, which explains it.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import logging
import math
import posixpath
import re
import sys
import time
from pathlib import Path
from typing import NamedTuple

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.figures")

SIZE = (7.2, 3.6)      # inches: the width of the page's text column
NARROW_SIZE = (3.8, 3.0)  # inches: the width of a phone's, 365 pixels
PALETTE = ("#2b6cb0", "#d9480f", "#2f9e44", "#9c36b5", "#868e96")
STYLE = {
    "figure.facecolor": "none",
    "axes.facecolor": "none",
    "savefig.transparent": True,
    "font.family": "sans-serif",
    "font.size": 9.5,
    "axes.titlesize": 10,
    "axes.labelsize": 9.5,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": f"cycler('color', {list(PALETTE)!r})",
    "legend.frameon": False,
    "svg.fonttype": "none",
    "svg.hashsalt": "retro",
}


def figure_modules(docs: Path) -> list[Path]:
    """The figure modules, docs/figures/*.py, in name order."""
    return sorted((docs / "figures").glob("*.py"))


def load(path: Path):
    """Import the figure module at `path`, without leaving bytecode."""
    spec = importlib.util.spec_from_file_location(
        f"retro_figures_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    writing, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = writing
    return module


def code_digest(root: Path) -> bytes:
    """One digest of every module of retro/, and of this hook."""
    digest = hashlib.sha256()
    for path in [*sorted((root / "retro").rglob("*.py")), Path(__file__)]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(importlib.metadata.version("matplotlib").encode())
    return digest.digest()


def inputs_key(module: Path, chapter: Path, code: bytes) -> str:
    """The cache key of a module's figures: a hash of all they depend on."""
    digest = hashlib.sha256(code)
    for path in (module, chapter):
        text = path.read_bytes() if path.exists() else b""
        digest.update(path.name.encode() + b"\0" + text + b"\0")
    return digest.hexdigest()[:16]


def figures_of(module: Path, chapter: Path, cache: Path,
               code: bytes) -> dict[str, tuple[Path, Path]]:
    """Each figure of one module as two SVGs in the cache, as wide as the
    column and narrow: name -> (wide file, narrow file)."""
    key = inputs_key(module, chapter, code)
    manifest = cache / f"{module.stem}-{key}.json"
    svgs = {name: (cache / f"{module.stem}.{name}-{key}.svg",
                   cache / f"{module.stem}.{name}.narrow-{key}.svg")
            for name in (json.loads(manifest.read_text())
                         if manifest.exists() else [])}
    if svgs and all(svg.exists() for both in svgs.values() for svg in both):
        return svgs
    cache.mkdir(parents=True, exist_ok=True)
    loaded = load(module)
    sizes = getattr(loaded, "SIZES", {})
    narrow_sizes = getattr(loaded, "NARROW_SIZES", {})
    narrow = getattr(loaded, "NARROW", {})
    svgs = {}
    for name, make in drawings(loaded, module):
        wide, thin = (cache / f"{module.stem}.{name}-{key}.svg",
                      cache / f"{module.stem}.{name}.narrow-{key}.svg")
        svgs[name] = (
            draw(module, name, make, sizes.get(name, SIZE), wide),
            draw(module, f"{name} (narrow)", narrow.get(name, make),
                 narrow_sizes.get(name, NARROW_SIZE), thin))
    for old in [*cache.glob(f"{module.stem}.*.svg"),
                *cache.glob(f"{module.stem}-*.json")]:
        if not old.stem.endswith(f"-{key}"):
            old.unlink()
    for svg in (svg for both in svgs.values() for svg in both):
        svg.with_suffix(".tmp").replace(svg)
    manifest.write_text(json.dumps(sorted(svgs)))
    return svgs


NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def drawings(loaded, module: Path) -> list[tuple[str, object]]:
    """The (name, draw function) pairs of a figure module, checked."""
    figures = getattr(loaded, "FIGURES", None)
    if not isinstance(figures, dict) or not figures:
        raise PluginError(f"{module}: no FIGURES mapping of names to "
                          f"draw functions")
    for name, make in figures.items():
        if not (isinstance(name, str) and NAME.fullmatch(name)
                and callable(make)):
            raise PluginError(f"{module}: FIGURES[{name!r}] must map a "
                              f"lower-case-hyphenated name to a function")
    narrow = getattr(loaded, "NARROW", {})
    for name, make in narrow.items():
        if name not in figures or not callable(make):
            raise PluginError(f"{module}: NARROW[{name!r}] must map a name "
                              f"of FIGURES to a function")
    return list(figures.items())


def draw(module: Path, name: str, make, size: tuple[float, float],
         svg: Path) -> Path:
    """Draw one figure into `svg` (under a temporary name, .tmp)."""
    import matplotlib
    from matplotlib.figure import Figure

    began, cpu = time.perf_counter(), time.process_time()
    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=size, layout="constrained")
        try:
            make(figure)
        except Exception as error:
            raise PluginError(f"{module}: drawing {name} failed: "
                              f"{type(error).__name__}: {error}") from error
        figure.savefig(svg.with_suffix(".tmp"), format="svg",
                       metadata={"Date": None})
    log.info(f"figures: drew {name} in {time.process_time() - cpu:.2f} s "
             f"of CPU ({time.perf_counter() - began:.2f} s)")
    return svg


def draw_all(docs: Path, cache: Path) -> dict[str, tuple[Path, Path, Path]]:
    """Every figure of the book: name -> (its module, its SVG, its
    narrow SVG)."""
    root = docs.parent
    code = code_digest(root)
    drawn: dict[str, tuple[Path, Path, Path]] = {}
    for module in figure_modules(docs):
        chapter = root / "literate" / f"{module.stem}.md"
        for name, (wide, thin) in figures_of(module, chapter, cache,
                                             code).items():
            if name in drawn:
                raise PluginError(f"figure {name} is drawn by both "
                                  f"{drawn[name][0]} and {module}")
            drawn[name] = (module, wide, thin)
    return drawn


def on_files(files, config):
    docs = Path(config["docs_dir"])
    cache = docs.parent / ".cache" / "figures"
    for name, (_, wide, thin) in draw_all(docs, cache).items():
        files.append(File.generated(config, f"{FOLDER}/{name}.svg",
                                    abs_src_path=str(wide)))
        files.append(File.generated(
            config, f"{FOLDER}/{NARROW_FOLDER}/{name}.svg",
            abs_src_path=str(thin)))
    return files


BOOK, FOLDER, NARROW_FOLDER = "book", "figures", "narrow"
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]*)")
FIGURE = re.compile(rf"(?<![\w.-]){FOLDER}/([^/\s)\"']+)\.svg")
CODE = re.compile(r"^ {0,3}(`{3,}|~{3,}).*?^ {0,3}\1[ \t]*$|`[^`\n]*`",
                  re.MULTILINE | re.DOTALL)


def figures_shown(markdown: str) -> tuple[list[str], list[str]]:
    """The figures a page's markdown shows, and those shown without alt."""
    prose = CODE.sub("", markdown)
    shown = [found[1] for found in FIGURE.finditer(prose)]
    bare = [FIGURE.search(target)[1] for alt, target in IMAGE.findall(prose)
            if FIGURE.search(target) and not alt.strip()]
    return shown, bare


def on_page_markdown(markdown, page, config, files):
    shown, bare = figures_shown(markdown)
    if bare:
        raise PluginError(f"{page.file.src_uri} shows figures/{bare[0]}.svg "
                          f"with no alt text: say what the figure shows")
    page.meta["retro_figures"] = shown
    return as_figures(markdown, page, config, files) if shown else markdown


def check(drawn: dict[str, str], shown: dict[str, list[str]]) -> None:
    """Raise PluginError unless every figure drawn is shown, and back."""
    missing = [f"{name} (shown in {', '.join(shown[name])})"
               for name in sorted(set(shown) - set(drawn))]
    if missing:
        raise PluginError("figures shown but drawn by no module in "
                          "docs/figures/: " + "; ".join(missing))
    unshown = [f"{name} (drawn by {drawn[name]})"
               for name in sorted(set(drawn) - set(shown))]
    if unshown:
        raise PluginError("figures drawn but shown on no page: "
                          + "; ".join(unshown))


def on_env(env, config, files):
    drawn = {Path(file.src_uri).stem:
             f"docs/figures/{Path(file.abs_src_path).name.split('.')[0]}.py"
             for file in files if file.src_uri.startswith(f"{FOLDER}/")
             and file.src_uri.endswith(".svg")
             and "/" not in file.src_uri[len(FOLDER) + 1:]}
    shown: dict[str, list[str]] = {}
    for file in files.documentation_pages():
        for name in file.page.meta.get("retro_figures", []):
            shown.setdefault(name, []).append(file.src_uri)
    try:
        check(drawn, shown)
    except PluginError as error:
        if config["strict"]:
            raise
        log.warning(str(error))
    return env


def chapter_order() -> list[str]:
    """The chapters' names in reading order: chapter 1 first."""
    from retro.book.parts import PARTS

    return [name for _, names in PARTS for name in names]


def figure_numbers(root: Path) -> dict[str, tuple[str, str]]:
    """Each figure's number and the chapter that owns it: name ->
    ('12.2', 'matchbox')."""
    numbers: dict[str, tuple[str, str]] = {}
    for chapter, stem in enumerate(chapter_order(), 1):
        path = root / "literate" / f"{stem}.md"
        shown, _ = figures_shown(path.read_text(encoding="utf-8"))
        for name in dict.fromkeys(shown):
            if name not in numbers:
                count = sum(home == stem for _, home in numbers.values())
                numbers[name] = (f"{chapter}.{count + 1}", stem)
    return numbers


IMAGE_AND_TITLE = re.compile(r'!\[([^\]]*)\]\(([^)\s]*)(?:\s+"([^"]*)")?\)')


def as_figures(markdown: str, page, config, files) -> str:
    """The page's images of figures set as numbered, captioned figures."""
    numbers = figure_numbers(Path(config["docs_dir"]).parent)
    here = page.file.src_uri

    def figure(found) -> str:
        name = FIGURE.search(found[2])
        if name is None:
            return found[0]
        name = name[1]
        number, stem = numbers.get(name, ("", ""))
        owner = f"{BOOK}/{stem}.md"
        link = "" if here == owner else posixpath.relpath(
            owner, posixpath.dirname(here) or ".")
        size = legible_size(*(file.abs_src_path
                              for file in drawings_of(name, files)))
        alt, caption = " ".join(found[1].split()), found[3] or found[1]
        return (f'\n\n<figure class="book-figure" id="figure-{name}" '
                f'markdown>\n<div class="figure-frame" markdown="span">'
                f"![{alt}]({found[2]}){size}</div>\n"
                f'<figcaption markdown="span">[**Figure {number}.**]'
                f"({link}#figure-{name}) {' '.join(caption.split())}"
                "</figcaption>\n</figure>\n\n")
    return outside_code(markdown, lambda text: IMAGE_AND_TITLE.sub(
        figure, text))


def outside_code(markdown: str, change) -> str:
    """`markdown` with `change` applied to its prose, not to its code."""
    pieces, at = [], 0
    for code in CODE.finditer(markdown):
        pieces += [change(markdown[at:code.start()]), code[0]]
        at = code.end()
    return "".join(pieces) + change(markdown[at:])


LEGIBLE = 9  # pixels: the smallest type a figure may be shown with
GUTTER = 32  # pixels: the theme's margins beside its column, on a phone


class Drawn(NamedTuple):
    """An SVG's size as drawn, and the narrowest its type allows, in
    pixels."""

    width: int
    height: int
    narrowest: int


def drawn(svg: str) -> Drawn:
    """The size of the drawing in `svg`, and how narrow it may be shown
    with its smallest type still LEGIBLE."""
    text = Path(svg).read_text(encoding="utf-8")
    head = re.search(r"<svg\b[^>]*>", text)[0]
    width, height = (float(re.search(rf'\b{side}="([\d.]+)pt"', head)[1])
                     for side in ("width", "height"))
    view = float(re.search(r'viewBox="[\d.-]+ [\d.-]+ ([\d.]+)', head)[1])
    sizes = [float(size) for size in re.findall(
        r"font(?:-size)?:\s*([\d.]+)px", text)] or [LEGIBLE]
    return Drawn(round(width * 4 / 3), round(height * 4 / 3),
                 math.ceil(LEGIBLE * view / min(sizes)))


def legible_size(svg: str, narrow: str | None = None) -> str:
    """The image's attributes, for attr_list: its size as drawn, and the
    narrowest it may be shown, the narrow drawing's if there is one."""
    wide = drawn(svg)
    least = wide if narrow is None else drawn(narrow)
    if narrow is not None and least.narrowest > least.width:
        raise PluginError(f"{narrow}: the narrow drawing's smallest type is "
                          f"under {LEGIBLE} pixels even at its own width")
    return (f'{{ width="{wide.width}" height="{wide.height}" '
            f'style="min-width: {least.narrowest}px" }}')


FIGURE_IMAGE = re.compile(
    rf'<img\b[^>]*\bsrc="([^"]*?){FOLDER}/([a-z0-9-]+)\.svg"[^>]*>')


def drawings_of(name: str, files) -> tuple:
    """The site's files of a figure's two drawings, wide and narrow (None
    for one the site has not)."""
    return tuple(files.get_file_from_path(uri) for uri in (
        f"{FOLDER}/{name}.svg", f"{FOLDER}/{NARROW_FOLDER}/{name}.svg"))


def on_page_content(html, page, config, files):
    def picture(found) -> str:
        wide, narrow = drawings_of(found[2], files)
        if wide is None or narrow is None:
            return found[0]
        screen = drawn(wide.abs_src_path).narrowest + GUTTER - 1
        thin = drawn(narrow.abs_src_path)
        return (f'<picture><source media="(max-width: {screen}px)" '
                f'srcset="{found[1]}{narrow.src_uri}" width="{thin.width}" '
                f'height="{thin.height}">{found[0]}</picture>')
    if not page.meta.get("retro_figures"):
        return html
    return FIGURE_IMAGE.sub(picture, html)
