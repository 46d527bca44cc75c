// Tangled from literate/page.md: edit the chapter, not this file, then run `retro tangle`.
// The teletype in a page of the book: see its chapter, "The teletype in
// the page". Nothing here runs a game: Python does, in a worker
// (python.js), when Play is pressed.
"use strict";

const SHELF = "retro.store";  // the key the store is kept under
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

const STALL = 20000;     // ms with nothing received while bytes are due
const STARTING = 60000;  // ms Python may take to start, all bytes in
const SNAPSHOTS = "retro-python";  // the worker's Cache Storage of Pythons
const FORGETTING = "Forget what this browser keeps for the book: the " +
  "scores, HER's matchboxes, Flip's notes and the Penney bankroll, and " +
  "the started Python (31 MB) kept to start the games quickly?";
const LOCK = "retro.store";  // the Web Lock a game holds on the store
const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

function setUp(panel) {
  const find = (selector) => panel.querySelector(selector);
  const play = find(".retro-play"), forget = find(".retro-forget");
  const status = find(".retro-status"), seedLine = find(".retro-seed");
  const paper = find(".retro-paper"), typing = find(".retro-typing");
  const line = find(".retro-line"), stopButton = find(".retro-stop");
  const exportButton = find(".retro-export");
  const importButton = find(".retro-import"), file = find(".retro-file");
  const root = new URL(panel.dataset.root, location.href);
  const total = Number(panel.dataset.bytes);
  const typed = [];  // the lines typed, for the arrow keys
  let back = 0;  // where the arrows are in them
  let worker = null, busy = false, inGame = false, games = 0;
  let addressUsed = false;  // the address's seed is for the first game
  let watching = null, ended = [], counted = 0;
  let waiting = null;  // the turn asked for while another tab plays
  const say = (text) => { status.textContent = text; };
  const show = (text) => {
    paper.append(text);
    paper.scrollTop = paper.scrollHeight;
    if (!typing.hidden) typing.scrollIntoView({ block: "nearest" });
  };

  play.addEventListener("click", () => {
    if (busy) return;  // a second click while a game starts or is played
    busy = true;
    play.disabled = true;
    withTheStore(begin);
  });

  function begin() {
    const asked = addressUsed ? null :
      new URLSearchParams(location.search).get("seed");
    addressUsed = true;
    paper.hidden = typing.hidden = false;
    if (games > 0) show("\n");
    if (worker === null) {
      worker = new Worker(new URL("javascripts/python.js", root),
                          { type: "module" });
      worker.onmessage = ({ data }) => heard(data);
      worker.onerror = (event) => {
        event.preventDefault();
        fail(event.message || "the worker could not be started");
      };
      say(`Loading Python (${megabytes(total)} MB the first time)...`);
    } else {
      say("Starting the game...");
    }
    worker.postMessage({ play: {
      name: panel.dataset.game, seed: asked, kept: shelf.load(),
      columns: columns(), root: root.href,
      wheels: panel.dataset.wheels } });
    watch(STALL);
    line.focus({ preventScroll: true });
    typing.scrollIntoView({ block: "nearest" });
  }

  function withTheStore(start) {
    if (!navigator.locks) {
      start();
      return;
    }
    const holding = () => {
      waiting = null;
      start();
      return new Promise((release) => ended.push(release));
    };
    navigator.locks.request(LOCK, { ifAvailable: true }, (free) => {
      if (free !== null) return holding();
      say("Waiting: a game of the book is being played in another tab; " +
          "this one begins when that one ends.");
      waiting = new AbortController();
      watch(null);
      return navigator.locks.request(LOCK, { signal: waiting.signal },
                                     holding).catch(() => {});
    });
  }

  function heard(data) {
    if (data.received !== undefined) {
      const done = Math.min(data.received, total);
      if (done === total || Date.now() - counted >= 250) {
        counted = Date.now();
        say(`Loading Python: ${megabytes(done)} of ${megabytes(total)} MB...`);
      }
      watch(done < total ? STALL : STARTING);
    } else if (data.stage !== undefined) {
      say(data.stage);
      watch(STARTING);
    } else if (data.playing !== undefined) {
      clearTimeout(watching);
      games += 1;
      inGame = true;
      started(data.playing);
    } else if (data.show !== undefined) {
      show(data.show);
    } else if (data.keep !== undefined) {
      if (!shelf.keep(data.keep)) worker.postMessage({ notKept: true });
    } else if (data.ended !== undefined) {
      say(data.ended === "over" ? "The game is over." : "The game was left.");
      if (data.replay?.includes(" --from ")) replayed(data.replay);
      finish();
    } else if (data.refused !== undefined) {
      say(data.refused);
      finish();
    } else if (data.failed !== undefined) {
      fail(data.failed);
    }
  }

  function fail(reason) {
    if (!busy) return;
    const what = games === 0 || seedLine.hidden ?
      "Python could not be started" : "The game stopped";
    worker?.terminate();
    worker = null;
    say(`${what}: ${reason}`);
    finish();
  }

  function watch(limit) {
    clearTimeout(watching);
    if (limit === null) return;  // no watch: waiting for another tab
    watching = setTimeout(() => fail(
      `nothing came for ${limit / 1000} s`), limit);
  }

  function finish() {
    clearTimeout(watching);
    waiting?.abort();
    waiting = null;
    busy = inGame = false;
    typing.hidden = true;
    play.textContent = "Play again";
    play.disabled = false;
    play.focus({ preventScroll: true });
    ended.forEach((then) => then());
    ended = [];
  }

  function started(seed) {
    const command = document.createElement("code");
    command.textContent = `retro play ${panel.dataset.game} --seed ${seed}`;
    seedLine.replaceChildren(`Game ${games}, seed ${seed}. ` +
                             "The same game at a terminal: ", command);
    seedLine.hidden = false;
    say("Playing: type a line and press Enter.");
    typing.scrollIntoView({ block: "nearest" });
  }

  function replayed(replay) {
    const command = document.createElement("code");
    command.textContent = replay;
    const seed = seedLine.textContent.split(". ")[0];
    seedLine.replaceChildren(
      `${seed}. The same game at a terminal, with this browser's records ` +
      "(Export them into a folder, then RETRO_HOME=that folder): ", command);
  }

  function columns() {
    const probe = document.createElement("span");
    probe.textContent = "0".repeat(100);
    paper.append(probe);
    const one = probe.getBoundingClientRect().width / 100;
    probe.remove();
    const style = getComputedStyle(paper);
    const inside = paper.clientWidth - parseFloat(style.paddingLeft) -
      parseFloat(style.paddingRight);
    return one > 0 ? Math.floor(inside / one) : 72;
  }

  function send(text) {
    typed.push(text);
    back = typed.length;
    worker?.postMessage({ line: text });
    typing.scrollIntoView({ block: "nearest" });
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
    worker?.postMessage({ interrupt: true });
  }
  stopButton.addEventListener("click", stop);

  forget.addEventListener("click", async () => {
    if (!confirm(FORGETTING)) return;
    if (busy) {
      const over = new Promise((then) => ended.push(then));
      if (inGame) stop();
      else fail("stopped, to forget");
      await over;
    }
    shelf.forget();
    await caches?.delete(SNAPSHOTS).catch(() => false);
    say("Forgotten: the scores, HER's matchboxes, Flip's notes, the " +
        "bankroll, and the started Python (31 MB) this browser kept.");
  });

  const FILENAME = "retro.sqlite3";  // the name of the store at a terminal
  const HEADER = "SQLite format 3\0";
  const LARGEST = 3_500_000;  // bytes: 4/3 of it in base64 fits 5 MB

  exportButton.addEventListener("click", () => {
    const kept = shelf.load();
    if (kept === null) {
      say("Nothing to export: this browser keeps no records yet.");
      return;
    }
    const bytes = Uint8Array.from(atob(kept), (char) => char.charCodeAt(0));
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([bytes],
      { type: "application/vnd.sqlite3" }));
    link.download = FILENAME;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 0);
    say(`Exported as ${FILENAME}: in a folder of its own, that folder is ` +
        "a terminal's data directory (RETRO_HOME); SCORES ALL lists the " +
        "page's games there.");
  });

  importButton.addEventListener("click", () => {
    if (busy) say("Import waits for the game to end.");
    else file.click();
  });

  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    file.value = "";
    if (chosen === undefined || busy) return;
    const bytes = new Uint8Array(await chosen.arrayBuffer());
    const head = String.fromCharCode(...bytes.subarray(0, HEADER.length));
    if (head !== HEADER) {
      say(`Not imported: ${chosen.name} is not a store (an SQLite file).`);
    } else if (bytes.length > LARGEST) {
      say(`Not imported: ${chosen.name} is larger than this browser keeps.`);
    } else if (confirm(`Replace the records this browser keeps with ` +
                       `those of ${chosen.name}?`)) {
      let text = "";
      for (let at = 0; at < bytes.length; at += 8192) {
        text += String.fromCharCode(...bytes.subarray(at, at + 8192));
      }
      say(shelf.keep(btoa(text)) ? `Imported ${chosen.name}.` :
        "Not imported: this browser would not keep it.");
    }
  });
}

document.querySelectorAll(".retro-page").forEach(setUp);
