// Starting Pyodide's interpreter, the same way in the page's worker (boot.js) and in the
// snapshot helper (snapshot-worker.js), so that the snapshot is of the interpreter it is
// restored into, and both get the same watch on its WebAssembly.
//
// Pyodide only logs a failed pyodide.asm.wasm download and then waits forever; watching the
// instantiation ourselves turns that into an error (a boot error on the page). One watcher
// for the worker's life: a boot that falls back to a second loadPyodide is watched again.
let wasmFailed = () => {};
let fromBytes = false;
// An empty custom section (id 0, size, name length, name) that compileFromBytes adds.
const NAME = new TextEncoder().encode("livelab-not-kept");
const SECTION = new Uint8Array([0, NAME.length + 1, NAME.length, ...NAME]);

/**
 * Compile pyodide.asm.wasm from its bytes, with SECTION added, not as it streams in: Chromium
 * then keeps no compiled code with the file, and since it shares a compiled module by its
 * bytes, the next worker that streams the file compiles it anew (snapshot-worker.js says why).
 */
export function compileFromBytes() {
  fromBytes = true;
}

async function bytesWithSection(source) {
  const bytes = new Uint8Array(await (await source).arrayBuffer());
  const all = new Uint8Array(bytes.length + SECTION.length);
  all.set(bytes);
  all.set(SECTION, bytes.length);
  return all;
}
const instantiate = WebAssembly.instantiate.bind(WebAssembly);
const instantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);

/**
 * instantiateStreaming that also takes a file served under another MIME type than
 * application/wasm (some static hosts do): Pyodide has no fallback for that and would wait
 * forever. Such a response's body was not read, so it is compiled from its bytes instead.
 */
async function instantiateAnyType(source, imports) {
  if (fromBytes) return instantiate(await bytesWithSection(source), imports);
  try {
    return await instantiateStreaming(source, imports);
  } catch (err) {
    const response = await source;
    if (!(err instanceof TypeError) || !response.ok || response.bodyUsed) throw err;
    return instantiate(await response.arrayBuffer(), imports);
  }
}

const WATCHED = { instantiateStreaming: instantiateAnyType, instantiate };
for (const [name, original] of Object.entries(WATCHED)) {
  WebAssembly[name] = (...args) => {
    const result = original(...args);
    result.catch((err) => wasmFailed(new Error(`pyodide.asm.wasm did not load (${err.message})`)));
    return result;
  };
}

/** Start the interpreter; rejects when its WebAssembly fails to load. */
export function startPython(loadPyodide, options) {
  const failure = new Promise((_, reject) => (wasmFailed = reject));
  // enableRunUntilComplete: false keeps Pyodide off its JSPI path, which crashes Safari.
  return Promise.race([loadPyodide({ ...options, enableRunUntilComplete: false }), failure]);
}
