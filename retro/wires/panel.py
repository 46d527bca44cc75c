# Tangled from literate/page.md: edit the chapter, not this file, then run `retro tangle`.
"""The paper's panel, as markup: the book's chapters and the room's web
door build theirs with the same function.

Tangled from literate/page.md, which explains it.
"""
from __future__ import annotations

import html


def panel_markup(data: dict[str, str | bool], play: str, stop: str, *,
                 again: str = "", keeping: bool = True) -> str:
    """A panel's markup: `data` its data attributes (True: present with
    no value), `play` the words on Play (`again` once a game has ended),
    `stop` the Ctrl-C button's title, `keeping` the records' buttons."""
    marks = "".join(f" {name}" if value is True else
                    f' {name}="{html.escape(value)}"'
                    for name, value in data.items() if value is not False)
    again_mark = f' data-again="{html.escape(again)}"' if again else ""
    records = KEEPING if keeping else ""
    return f"""
<div class="retro-page"{marks}>
<p class="retro-controls"><button type="button" class="md-button
 md-button--primary retro-play"{again_mark}>{html.escape(play)}</button>
</p>
<p class="retro-status" role="status"></p>
<p class="retro-seed" hidden></p>
<pre class="retro-paper" role="log" aria-live="polite"
 aria-label="the paper" tabindex="0" hidden></pre>
<form class="retro-typing" hidden><label>Your line
<input class="retro-line" type="text" autocomplete="off" autocapitalize="off"
 spellcheck="false" enterkeyhint="send"></label>
<button type="button" class="md-button retro-stop"
 title="{html.escape(stop)}">Ctrl-C</button></form>{records}
</div>
"""


KEEPING = """
<p class="retro-keeping"><button type="button" class="md-button
 retro-export">Export the records</button>
<button type="button" class="md-button retro-import">Import records</button>
<input class="retro-file" type="file" accept=".sqlite3,.db" hidden>
<button type="button" class="md-button retro-forget">Forget what this
 browser keeps</button></p>"""
