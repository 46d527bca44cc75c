// Tangled from literate/page.md: edit the chapter, not this file, then run `retro tangle`.
// The teletype in a page of the book: see its chapter, "The teletype in
// the page". Nothing here runs a game: Python does, when Play is pressed.
"use strict";

const SHELF = "retro.store";  // the key the store is kept under
let runtime = null;  // the promise of Retro's page module, once asked for

function loadRuntime(panel, say) {
  if (runtime === null) {
    runtime = (async () => {
      if (panel.dataset.absent !== undefined) {
        throw new Error("this copy of the book was built without Python " +
                        "for its pages (npm ci, then build it again)");
      }
      const root = new URL(panel.dataset.root, location.href);
      say(`Loading Python (${panel.dataset.size} the first time)...`);
      const wheels = panel.dataset.wheels.split(" ").map(async (wheel) => {
        const answer = await fetch(new URL(wheel, root));
        if (!answer.ok) throw new Error(`${wheel}: ${answer.status}`);
        return answer.arrayBuffer();
      });
      const { loadPyodide, version } = await import(
        new URL("pyodide/pyodide.mjs", root).href);
      const python = await startPython(
        loadPyodide, new URL("pyodide/", root).href, version);
      say("Unpacking Retro...");
      for (const wheel of wheels) {
        python.unpackArchive(await wheel, "wheel");
      }
      return python.pyimport("retro.rooms.page");
    })();
    runtime.catch(() => { runtime = null; });
  }
  return runtime;
}

const SNAPSHOTS = "retro-python";  // the Cache Storage of started Pythons

async function startPython(loadPyodide, indexURL, version) {
  const key = `${indexURL}started-${version}`;
  const store = self.caches ?
    await caches.open(SNAPSHOTS).catch(() => null) : null;
  const kept = store === null ? undefined : await store.match(key);
  if (kept !== undefined) {
    try {
      return await loadPyodide({ indexURL, _loadSnapshot:
        new Uint8Array(await kept.arrayBuffer()) });
    } catch (unusable) {
      await store.delete(key);
    }
  }
  const python = await loadPyodide({ indexURL,
                                     _makeSnapshot: store !== null });
  if (store !== null) {
    store.put(key, new Response(python.makeMemorySnapshot()))
      .catch(() => {});  // kept or not, this start goes on
  }
  return python;
}

const shelf = {
  load: () => localStorage.getItem(SHELF),
  keep: (text) => {
    try {
      localStorage.setItem(SHELF, text);
      return true;
    } catch (refused) {
      return false;
    }
  },
  forget: () => localStorage.removeItem(SHELF),
};

function setUp(panel) {
  const find = (selector) => panel.querySelector(selector);
  const play = find(".retro-play"), forget = find(".retro-forget");
  const status = find(".retro-status"), seedLine = find(".retro-seed");
  const paper = find(".retro-paper"), typing = find(".retro-typing");
  const line = find(".retro-line"), stopButton = find(".retro-stop");
  const typed = [];  // the lines typed, for the arrow keys
  let back = 0;  // where the arrows are in them
  let game = null, playing = null, games = 0;
  const say = (text) => { status.textContent = text; };
  const show = (text) => {
    paper.append(text);
    paper.scrollTop = paper.scrollHeight;
  };

  play.addEventListener("click", async () => {
    play.hidden = true;
    try {
      const page = await loadRuntime(panel, say);
      if (game === null) {
        game = page.PageGame(panel.dataset.game, show,
                             page.Shelf(shelf.load, shelf.keep));
      }
      const asked = games === 0 ?
        new URLSearchParams(location.search).get("seed") : null;
      const seed = page.seed_from(asked);
      games += 1;
      const command = document.createElement("code");
      command.textContent =
        `retro play ${panel.dataset.game} --seed ${seed}`;
      seedLine.replaceChildren(`Game ${games}, seed ${seed}. ` +
                               "The same game at a terminal: ", command);
      seedLine.hidden = paper.hidden = typing.hidden = false;
      if (games > 1) show("\n");
      say("Playing: type a line and press Enter.");
      line.focus({ preventScroll: true });
      playing = Promise.resolve(game.play(seed));  // awaited by forget too
      const ending = await playing;
      say(ending === "over" ? "The game is over." : "The game was left.");
    } catch (trouble) {
      const what = playing === null ? "Python could not be started" :
        "The game stopped";
      say(`${what}: ${trouble.message.trim().split("\n").pop()}`);
    } finally {
      playing = null;
      typing.hidden = true;
      play.textContent = "Play again";
      play.hidden = false;
    }
  });

  function send(text) {
    typed.push(text);
    back = typed.length;
    if (game !== null) game.hear(text);
  }

  typing.addEventListener("submit", (event) => {
    event.preventDefault();
    send(line.value);
    line.value = "";
  });

  line.addEventListener("keydown", (event) => {
    if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      event.preventDefault();
      back = Math.max(0, Math.min(typed.length,
                                  back + (event.key === "ArrowUp" ? -1 : 1)));
      line.value = typed[back] ?? "";
    } else if (event.ctrlKey && event.key === "c" &&
               line.selectionStart === line.selectionEnd) {
      event.preventDefault();
      stop();
    }
  });

  line.addEventListener("paste", (event) => {
    const text = event.clipboardData.getData("text");
    if (!/[\r\n]/.test(text)) return;
    event.preventDefault();
    const lines = (line.value + text).split(/\r\n|\r|\n/);
    line.value = lines.pop();
    lines.forEach(send);
  });

  function stop() {
    if (game !== null) game.interrupt();
  }
  stopButton.addEventListener("click", stop);

  forget.addEventListener("click", async () => {
    if (playing !== null) {
      stop();
      await playing;
    }
    shelf.forget();
    say("Forgotten: the scores, HER's matchboxes, Flip's notes and the " +
        "bankroll this browser kept.");
  });
}

document.querySelectorAll(".retro-page").forEach(setUp);
