# Tangled from literate/page.md: edit the chapter, not this file, then run `retro tangle`.
"""mkdocs hook: a teletype in the page of each game, and Python to run it.

Tangled from literate/page.md, which explains it.
"""
from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import io
import logging
import re
import zipfile
from pathlib import Path

from mkdocs.structure.files import File

from retro.games.contract import Game
from retro.games.registry import GAMES, game_called
from retro.wires.panel import panel_markup

log = logging.getLogger("mkdocs.hooks.page")


RUNTIME, WHEELS = "pyodide", "wheels"
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                 "python_stdlib.zip", "pyodide-lock.json")
FETCHED = tuple(f"{RUNTIME}/{name}" for name in RUNTIME_FILES
                if not name.endswith(".mjs"))  # the bytes a start counts
NEEDED = ("wcwidth",)  # the pure-Python packages the games import in a page
MAP_LINE = re.compile(r"^//# sourceMappingURL=.*$\n?", re.M)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def record_hash(data: bytes) -> str:
    """A file's hash as a wheel's RECORD writes it."""
    hashed = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return hashed.rstrip(b"=").decode("ascii")


def wheel(name: str, version: str, modules: dict[str, bytes]) -> tuple[
        str, bytes]:
    """A wheel's file name and bytes: `modules` (path -> bytes) and its
    metadata, every entry dated alike."""
    info = f"{name}-{version}.dist-info"
    entries = dict(modules)
    entries[f"{info}/METADATA"] = (f"Metadata-Version: 2.1\nName: {name}\n"
                                   f"Version: {version}\n").encode()
    entries[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: retro's "
                                b"book\nRoot-Is-Purelib: true\n"
                                b"Tag: py3-none-any\n")
    record = [f"{path},sha256={record_hash(data)},{len(data)}"
              for path, data in sorted(entries.items())]
    entries[f"{info}/RECORD"] = "\n".join(
        [*record, f"{info}/RECORD,,", ""]).encode()
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        for path in sorted(entries):
            entry = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, entries[path])
    return f"{name}-{version}-py3-none-any.whl", packed.getvalue()


def retro_wheel(root: Path) -> tuple[str, bytes]:
    from retro import __version__

    modules = {path.relative_to(root).as_posix(): path.read_bytes()
               for path in sorted((root / "retro").rglob("*.py"))}
    return wheel("retro", __version__, modules)


def installed_wheel(name: str) -> tuple[str, bytes]:
    found = importlib.metadata.distribution(name)
    modules = {str(path): path.locate().read_bytes() for path in found.files
               if str(path).startswith(f"{name}/")
               and "__pycache__" not in path.parts}
    return wheel(name, found.version, modules)


PAPER = {"retro/wires/page.js": "javascripts/page.js",
         "retro/wires/page.css": "stylesheets/page.css"}


def on_files(files, config):
    root = Path(config.config_file_path).parent
    for source, address in PAPER.items():
        files.append(File.generated(config, address,
                                    abs_src_path=str(root / source)))
    for name, data in (retro_wheel(root),
                       *(installed_wheel(name) for name in NEEDED)):
        files.append(File.generated(config, f"{WHEELS}/{name}",
                                    content=data))
    runtime = root / "node_modules" / "pyodide"
    missing = [name for name in RUNTIME_FILES
               if not (runtime / name).is_file()]
    if missing:
        log.info("the games' pages cannot play: %s is missing %s "
                 "(run `npm ci`, then build again)", runtime,
                 ", ".join(missing))
        return files
    for name in RUNTIME_FILES:
        source = runtime / name
        if name.endswith(".mjs"):  # without the source map it names
            text = MAP_LINE.sub("", source.read_text(encoding="utf-8"))
            files.append(File.generated(config, f"{RUNTIME}/{name}",
                                        content=text.encode("utf-8")))
        else:
            files.append(File.generated(config, f"{RUNTIME}/{name}",
                                        abs_src_path=str(source)))
    return files


GAME_PAGES = {"index.md": "mindreader",
              **{f"book/{game.name}.md": game.name for game in GAMES}}
TRANSCRIPT = re.compile(
    r'<div class="language-text highlight"><pre>.*?</pre></div>', re.S)


def panel(game: Game, root: str, files) -> str:
    """The panel of `game`, for a page `root` away from the site's top."""
    runtime = [file for file in files
               if file.dest_uri.startswith(f"{RUNTIME}/")]
    wheels = " ".join(f"{file.dest_uri}?v={digest(file.content_bytes)}"
                      for file in files
                      if file.dest_uri.startswith(f"{WHEELS}/"))
    fetched = sum(bytes_in(file) for file in files
                  if file.dest_uri.startswith(f"{WHEELS}/")
                  or file.dest_uri in FETCHED)
    absent = len(runtime) != len(RUNTIME_FILES)
    title = game.title if game.name != "mindreader" else "the mind reader"
    return panel_markup(
        {"data-game": game.name, "data-root": root, "data-wheels": wheels,
         "data-bytes": str(fetched), "data-absent": absent},
        f"Play {title} in this page", "Abandon the game, as Ctrl-C does") + (
        f'<link rel="stylesheet" href="{root}stylesheets/page.css">\n'
        f'<script src="{root}javascripts/page.js" defer></script>\n')


def bytes_in(file) -> int:
    if file.abs_src_path is not None:
        return Path(file.abs_src_path).stat().st_size
    return len(file.content_bytes)


def on_page_content(content, page, config, files):
    name = GAME_PAGES.get(page.file.src_uri)
    if name is None:
        return content
    root = "../" * page.url.count("/")
    here = panel(game_called(name), root, files)
    found = TRANSCRIPT.search(content)
    if found is None:
        return here + content
    return content[:found.end()] + here + content[found.end():]
