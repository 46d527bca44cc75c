// Tangled from literate/page.md: edit the chapter, not this file, then run `retro tangle`.
// The worker of the teletype in a page of the book: Python, started when
// Play is first pressed, plays the chapter's game; see "The teletype in
// the page".
const tell = (message) => postMessage(message);

const fetchItself = self.fetch.bind(self);
let received = 0;  // bytes of the runtime and the wheels, so far

self.fetch = async (address, ...options) => {
  const answer = await fetchItself(address, ...options);
  const name = String(address).split("?")[0].split("/").pop();
  if (!answer.ok) {
    tell({ failed: `${name}: the site answered ${answer.status}` });
    throw new Error(`${name}: ${answer.status}`);
  }
  count(answer.clone().body);
  return answer;  // itself: a compiled WebAssembly is cached by its address
};

async function count(body) {
  const reading = body.getReader();
  for (;;) {
    const { done, value } = await reading.read();
    if (done) return;
    received += value.byteLength;
    tell({ received });
  }
}

const failing = (trouble) => tell({
  failed: String(trouble?.message ?? trouble).trim().split("\n").pop() });
self.addEventListener("error", (event) => failing(event.message));
self.addEventListener("unhandledrejection",
                      (event) => failing(event.reason));

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

let runtime = null;  // the promise of Retro's page module, once asked for

function loadRuntime({ root, wheels }) {
  if (runtime === null) {
    runtime = (async () => {
      const top = new URL(root);
      const packed = wheels.split(" ").map(async (wheel) => {
        const answer = await fetch(new URL(wheel, top));
        return answer.arrayBuffer();
      });
      packed.forEach((wheel) => wheel.catch(() => {}));  // told already
      const { loadPyodide, version } = await import(
        new URL("pyodide/pyodide.mjs", top).href);
      const python = await startPython(
        loadPyodide, new URL("pyodide/", top).href, version);
      tell({ stage: "Unpacking Retro..." });
      for (const wheel of packed) {
        python.unpackArchive(await wheel, "wheel");
      }
      return python.pyimport("retro.rooms.page");
    })();
  }
  return runtime;
}

let game = null;  // the game being played, once its teletype is in place
let early = [];   // what was typed before it could hear

function hand(typed) {
  if (typed.interrupt) game.interrupt();
  else game.hear(typed.line);
}

async function play(asked) {
  early = [];
  const page = await loadRuntime(asked);
  const [seed, refusal] = page.seed_asked(
    asked.name, asked.seed ?? undefined).toJs();  // undefined: None
  if (refusal) {
    tell({ refused: refusal });
    return;
  }
  const shelf = page.Shelf(() => asked.kept ?? undefined,
                           (text) => { tell({ keep: text }); return true; });
  const here = page.PageGame(asked.name, (text) => tell({ show: text }),
                             shelf, asked.columns);
  const playing = here.play(seed);
  game = here;
  tell({ playing: seed });
  early.forEach(hand);
  early = [];
  try {
    const ending = await playing;
    tell({ ended: ending, replay: here.replay ?? null });
  } finally {
    game = null;
  }
}

self.onmessage = ({ data }) => {
  if (data.play) play(data.play).catch(failing);
  else if (data.notKept) game?.not_kept();
  else if (game !== null) hand(data);
  else early.push(data);
};
