// A short-lived worker that makes the memory snapshot later boots restore (snapshot.js). The
// client starts it once a boot that had no snapshot is live and the page has nothing waiting
// for Python, so making the snapshot never delays a visit: a boot with _makeSnapshot, then
// the preload's imports and the copy of the memory, then storing it, cost a cold visit
// 10-35 % of its time when the page's own worker did them before loading NumPy.
//
// It boots its own interpreter (the files come from the HTTP cache the first boot filled),
// stores the snapshot, reports, and is ended by the client. It compiles pyodide.asm.wasm from
// its bytes: Chromium keeps the compiled code of a streamed wasm file once, and this full
// start's code is not what a reload runs; the warm-up worker after it (warm-worker.js) boots
// as a reload does, and Chromium keeps that code instead.
// Out: {type: "snapshot-stored", bytes, stored, ms} | {type: "snapshot-stored", error}
//      (bytes: the memory's size; stored: the bytes stored, without zero pages; ms: from the
//      start of this worker until the snapshot was stored)

import { fetchOk } from "../shared/downloads.js";
import { makeSnapshot, snapshotKey, storeSnapshot } from "../shared/snapshot.js";
import { KEEPS_COMPILED_WASM } from "../shared/engine.js";
import { compileFromBytes, startPython } from "../shared/start.js";

const ASSETS = new URL("../../", import.meta.url);

async function make() {
  const started = performance.now();
  const manifest = await (await fetchOk(new URL("manifest.json", ASSETS))).json();
  const indexURL = new URL(manifest.pyodide, ASSETS).href;
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  if (KEEPS_COMPILED_WASM) compileFromBytes();
  const pyodide = await startPython(loadPyodide, { indexURL, _makeSnapshot: true });
  const snapshot = makeSnapshot(pyodide, manifest.preload ?? []);
  const stored = await storeSnapshot(snapshotKey(manifest), snapshot);
  return { bytes: snapshot.byteLength, stored, ms: Math.round(performance.now() - started) };
}

make().then(
  (done) => postMessage({ type: "snapshot-stored", ...done }),
  (err) => postMessage({ type: "snapshot-stored", error: String(err?.message ?? err) }),
);
