// Tangled from literate/page.md: edit the chapter, not this file, then run `retro tangle`.
// The paper of the book's pages and of the room's web door: see "The
// teletype in the page". Nothing here runs a game: Python does, in a
// worker (python.js), or a room does, at its address.
"use strict";

const RECORDS = "retro", SHELF = "shelf";  // IndexedDB's database, table
const STORE = "store";  // the key the store is kept under
const EARLIER = "retro.store";  // where earlier books kept it

const shelf = {
  load: async () => (await onTheShelf("readonly", (table) =>
    table.get(STORE)).catch(() => undefined)) ?? earlier(),
  keep: (text) => onTheShelf("readwrite", (table) =>
    table.put(text, STORE)).then(() => true, () => false),
  forget: async () => {
    await onTheShelf("readwrite", (table) => table.delete(STORE))
      .catch(() => {});
    try { localStorage.removeItem(EARLIER); } catch (refused) { /* none */ }
  },
};

function earlier() {
  try { return localStorage.getItem(EARLIER); } catch (refused) {
    return null;
  }
}

function onTheShelf(mode, act) {
  return new Promise((done, failed) => {
    const opening = indexedDB.open(RECORDS, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(SHELF);
    opening.onerror = () => failed(opening.error);
    opening.onsuccess = () => {
      const records = opening.result;
      try {
        const doing = records.transaction(SHELF, mode);
        const asked = act(doing.objectStore(SHELF));
        doing.oncomplete = () => { records.close(); done(asked.result); };
        doing.onabort = () => { records.close(); failed(doing.error); };
      } catch (refused) {
        records.close();
        failed(refused);
      }
    };
  });
}

function pythonEngine(panel, side) {
  const root = new URL(panel.dataset.root, location.href);
  const total = Number(panel.dataset.bytes);
  let worker = null, running = false, inGame = false, games = 0;
  let seed = null, addressUsed = false;  // the address's: the first game's
  let early = null;  // what was typed before the worker was asked to play
  let watching = null, counted = 0;  // the watch; when bytes were last said
  let waiting = null, release = null;  // the turn asked for; the turn's end
  let keeping = Promise.resolve();  // the store's writes, in order

  function withTheStore(begin) {
    const holding = () => {
      waiting = null;
      if (!running) return null;  // given up while it waited
      begin();
      return new Promise((then) => { release = then; });
    };
    if (!navigator.locks) {
      begin();
      return;
    }
    navigator.locks.request(LOCK, { ifAvailable: true }, (free) => {
      if (free !== null) return holding();
      side.status("Waiting: a game of the book is being played in another " +
                  "tab; this one begins when that one ends.");
      waiting = new AbortController();
      return navigator.locks.request(LOCK, { signal: waiting.signal },
                                     holding).catch(() => {});
    });
  }

  function start({ columns }) {
    running = true;
    early = [];
    const asked = addressUsed ? null :
      new URLSearchParams(location.search).get("seed");
    addressUsed = true;
    withTheStore(async () => {
      const kept = await shelf.load();
      if (!running) {  // stopped while the store was read
        release?.();
        return;
      }
      if (worker === null) {
        worker = new Worker(new URL("javascripts/python.js", root),
                            { type: "module" });
        worker.onmessage = ({ data }) => heard(data);
        worker.onerror = (event) => {
          event.preventDefault();
          fail(event.message || "the worker could not be started");
        };
        side.status(`Loading Python (${megabytes(total)} MB the first ` +
                    "time)...");
      } else {
        side.status("Starting the game...");
      }
      worker.postMessage({ play: {
        name: panel.dataset.game, seed: asked, kept, columns,
        root: root.href, wheels: panel.dataset.wheels } });
      early.forEach((message) => worker.postMessage(message));
      early = null;
      watch(STALL);
    });
  }

  function heard(data) {
    if (data.received !== undefined) {
      const done = Math.min(data.received, total);
      if (done === total || Date.now() - counted >= 250) {
        counted = Date.now();
        side.status(`Loading Python: ${megabytes(done)} of ` +
                    `${megabytes(total)} MB...`);
      }
      watch(done < total ? STALL : STARTING);
    } else if (data.stage !== undefined) {
      side.status(data.stage);
      watch(STARTING);
    } else if (data.playing !== undefined) {
      clearTimeout(watching);
      [games, inGame, seed] = [games + 1, true, data.playing];
      side.replay(named(""), `retro play ${panel.dataset.game} --seed ${seed}`);
      side.asked();
    } else if (data.show !== undefined) {
      side.text(data.show);
    } else if (data.keep !== undefined) {
      keep(data.keep);
    } else if (data.ended !== undefined) {
      if (data.replay?.includes(" --from ")) {
        side.replay(named(", with this browser's records (Export them into " +
                          "a folder, then RETRO_HOME=that folder)"), data.replay);
      }
      finish(data.ended === "over" ? "The game is over." :
        "The game was left.");
    } else if (data.refused !== undefined) {
      finish(data.refused);
    } else if (data.failed !== undefined) {
      fail(data.failed);
    }
  }

  const named = (how) =>
    `Game ${games}, seed ${seed}. The same game at a terminal${how}: `;

  function keep(text) {
    keeping = keeping.then(() => shelf.keep(text)).then((kept) => {
      if (!kept) worker?.postMessage({ notKept: true });
    });
  }

  function fail(reason) {
    if (!running) return;
    const what = inGame ? "The game stopped" : "Python could not be started";
    worker?.terminate();
    worker = null;
    finish(`${what}: ${reason}`);
  }

  function watch(limit) {
    clearTimeout(watching);
    watching = setTimeout(() => fail(
      `nothing came for ${limit / 1000} s`), limit);
  }

  function finish(said) {
    clearTimeout(watching);
    waiting?.abort();
    waiting = null;
    running = inGame = false;
    early = null;
    keeping.then(() => {
      release?.();
      release = null;
      side.ended(said);
    });
  }

  const post = (message) => {
    if (early !== null) early.push(message);
    else worker?.postMessage(message);
  };
  return {
    start,
    send: (line) => post({ line }),
    interrupt: () => post({ interrupt: true }),
    stop: (reason) => (inGame ? post({ interrupt: true }) : fail(reason)),
  };
}

function roomEngine(panel, side) {
  const address = new URL(panel.dataset.room, location.href);
  address.protocol = address.protocol === "https:" ? "wss:" : "ws:";
  let socket = null, hiding = false, early = [];
  const post = (message) => {
    if (socket?.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
    } else if (socket?.readyState === WebSocket.CONNECTING) {
      early.push(message);
    }
  };

  function start({ columns }) {
    side.status("Joining the room...");
    address.searchParams.set("columns", columns);
    socket = new WebSocket(address);
    socket.onopen = () => {
      early.forEach((message) => socket.send(JSON.stringify(message)));
      early = [];
      side.asked();
    };
    socket.onmessage = ({ data }) => heard(JSON.parse(data));
    socket.onclose = () => {
      socket = null;
      early = [];
      if (hiding) side.hidden(hiding = false);
      side.ended("The line is closed.");
    };
  }

  function heard(said) {
    if (typeof said.text === "string") side.text(said.text);
    if (typeof said.hidden === "boolean") side.hidden(hiding = said.hidden);
    if (typeof said.completed === "string") side.completed(said.completed);
  }

  return {
    start,
    send: (line) => post({ line }),  // the room echoes it as it reads it
    interrupt: () => post({ key: "interrupt" }),
    stop: () => socket?.close(),
    end: () => post({ key: "end" }),
    complete: (typed) => post({ tab: typed }),
    resize: (columns) => post({ columns }),
  };
}

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
  const typed = [];  // the lines typed, for the arrow keys
  let back = 0;  // where the arrows are in them
  let busy = false;  // a game, or a visit to the room, starting or going on
  let ended = [];  // what waits for it to end
  const say = (text) => { status.textContent = text; };
  const show = (text) => {
    paper.append(text);
    paper.scrollTop = paper.scrollHeight;
    if (!typing.hidden) typing.scrollIntoView({ block: "nearest" });
  };

  const side = {
    text: show,
    status: say,
    asked: () => {
      say("Playing: type a line and press Enter.");
      typing.scrollIntoView({ block: "nearest" });
    },
    hidden: (yes) => { line.type = yes ? "password" : "text"; },
    completed: (text) => { line.value = text; },
    replay: (words, command) => {
      const code = document.createElement("code");
      code.textContent = command;
      seedLine.replaceChildren(words, code);
      seedLine.hidden = false;
    },
    ended: finished,
  };

  const engine = panel.dataset.room === undefined ?
    pythonEngine(panel, side) : roomEngine(panel, side);

  play.addEventListener("click", begin);

  function begin() {
    if (busy) return;  // a second click while a game starts or is played
    busy = true;
    play.disabled = true;
    if (paper.textContent !== "") show("\n");
    paper.hidden = typing.hidden = false;
    engine.start({ columns: told = columns() });
    line.focus({ preventScroll: true });
    typing.scrollIntoView({ block: "nearest" });
  }

  function finished(said) {
    say(said);
    busy = false;
    typing.hidden = true;
    line.type = "text";
    play.textContent = play.dataset.again ?? "Play again";
    play.disabled = false;
    play.focus({ preventScroll: true });
    ended.forEach((then) => then());
    ended = [];
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

  let told = 0;  // the width the engine was last told, in columns
  addEventListener("resize", () => {
    if (!busy || paper.hidden || !engine.resize) return;
    const now = columns();
    if (now !== told) engine.resize(told = now);
  });

  function send(text) {
    if (line.type !== "password") typed.push(text);
    back = typed.length;
    engine.send(text);
    typing.scrollIntoView({ block: "nearest" });
  }

  typing.addEventListener("submit", (event) => {
    event.preventDefault();
    send(line.value);
    line.value = "";
  });

  line.addEventListener("keydown", (event) => {
    const hiding = line.type === "password";
    if ((event.key === "ArrowUp" || event.key === "ArrowDown") && !hiding) {
      event.preventDefault();
      back = Math.max(0, Math.min(typed.length,
                                  back + (event.key === "ArrowUp" ? -1 : 1)));
      line.value = typed[back] ?? "";
    } else if (event.ctrlKey && event.key === "c" &&
               line.selectionStart === line.selectionEnd) {
      event.preventDefault();
      engine.interrupt();
    } else if (event.ctrlKey && event.key === "d" && engine.end &&
               line.value === "") {
      event.preventDefault();
      engine.end();
    } else if (event.key === "Tab" && engine.complete) {
      event.preventDefault();
      engine.complete(line.value);
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

  stopButton.addEventListener("click", () => engine.interrupt());

  if (forget !== null) {
    forget.addEventListener("click", async () => {
      if (!confirm(FORGETTING)) return;
      if (busy) {
        const over = new Promise((then) => ended.push(then));
        engine.stop("stopped, to forget");
        await over;
      }
      await shelf.forget();
      await self.caches?.delete(SNAPSHOTS).catch(() => false);
      say("Forgotten: the scores, HER's matchboxes, Flip's notes, the " +
          "bankroll, and the started Python (31 MB) this browser kept.");
    });

    const FILENAME = "retro.sqlite3";  // the name of the store at a terminal
    const HEADER = "SQLite format 3\0";
    const LARGEST = 64e6;  // bytes: held twice in memory, as bytes and text

    exportButton.addEventListener("click", async () => {
      const kept = await shelf.load();
      if (kept === null || kept === undefined) {
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
        say(`Not imported: ${chosen.name} is larger than this page holds.`);
      } else if (confirm(`Replace the records this browser keeps with ` +
                         `those of ${chosen.name}?`)) {
        let text = "";
        for (let at = 0; at < bytes.length; at += 8192) {
          text += String.fromCharCode(...bytes.subarray(at, at + 8192));
        }
        say(await shelf.keep(btoa(text)) ? `Imported ${chosen.name}.` :
          "Not imported: this browser would not keep it.");
      }
    });
  }
  if (panel.dataset.room !== undefined) begin();  // a room's page joins
}

document.querySelectorAll(".retro-page").forEach(setUp);
