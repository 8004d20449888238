// A short-lived worker that makes the memory snapshot later boots restore (snapshot.js). The
// client starts it once a boot that had no snapshot is live and the page has nothing waiting
// for Python, so making the snapshot never delays a visit: a boot with _makeSnapshot, then
// the preload's imports and the copy of the memory, then storing it, cost a cold visit
// 10-35 % of its time when the page's own worker did them before loading NumPy.
//
// It boots its own interpreter (the files come from the HTTP cache the first boot filled, and
// the compiled pyodide.asm.wasm is the page worker's: the browser shares a module by its
// bytes), stores the snapshot, reports, and is ended by the client.
// Out: {type: "snapshot-stored", bytes, stored, ms} | {type: "snapshot-stored", error}
//      (bytes: the memory's size; stored: the bytes stored, without zero pages; ms: from the
//      start of this worker until the snapshot was stored)

import { fetchOk } from "../shared/downloads.js";
import { makeSnapshot, snapshotKey, storeSnapshot } from "../shared/snapshot.js";
import { snapshotOptions } from "../shared/pyodide-private.js";
import { startPython } from "../shared/start.js";

const ASSETS = new URL("../../", import.meta.url);

async function make() {
  const started = performance.now();
  const manifest = await (await fetchOk(new URL("manifest.json", ASSETS))).json();
  const indexURL = new URL(manifest.pyodide, ASSETS).href;
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const pyodide = await startPython(loadPyodide, { indexURL, ...snapshotOptions() });
  const snapshot = makeSnapshot(pyodide, manifest.preload ?? []);
  const stored = await storeSnapshot(snapshotKey(manifest), snapshot);
  return { bytes: snapshot.byteLength, stored, ms: Math.round(performance.now() - started) };
}

make().then(
  (done) => postMessage({ type: "snapshot-stored", ...done }),
  (err) => postMessage({ type: "snapshot-stored", error: String(err?.message ?? err) }),
);
