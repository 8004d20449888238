// Starting Pyodide's interpreter, the same way in the page's worker (boot.js) and in the
// snapshot helper (snapshot-worker.js), so that the snapshot is of the interpreter it is
// restored into, and both get the same watch on its WebAssembly.
//
// Pyodide only logs a failed pyodide.asm.wasm download and then waits forever; watching the
// instantiation ourselves turns that into an error (a boot error on the page). One watcher
// for the worker's life: a boot that falls back to a second loadPyodide is watched again.
let wasmFailed = () => {};
const instantiate = WebAssembly.instantiate.bind(WebAssembly);
const instantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);

/**
 * instantiateStreaming that also takes a file served under another MIME type than
 * application/wasm (some static hosts do): Pyodide has no fallback for that and would wait
 * forever. Such a response's body was not read, so it is compiled from its bytes instead.
 */
async function instantiateAnyType(source, imports) {
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
