// What the worker starts before its boot's modules have loaded (worker.js imports nothing
// else up front): the manifest, a read of every entry stored by an earlier boot (stored.js
// readEarly), Pyodide's pyodide.asm.js and its pyodide.asm.wasm. On a reload the worker's
// thread is otherwise idle while the boot's modules arrive, and each of these waited for that
// thread later: the snapshot's bytes are handed over in chunks on it, and pyodide.asm.js
// (1.2 MB of script) is compiled and run on it before the interpreter can be restored. The
// wasm (10 MB, from the service worker on a reload) was asked for only once loadPyodide ran;
// asked for here, a reload's first lab view came sooner (two A/B runs of 8 reloads each:
// medians 1020 and 1023 ms against 1145 and 1146 ms).

import { fetchOk } from "./downloads.js";
import { readEarly } from "./stored.js";

const ASSETS = new URL("../", import.meta.url);
/** The worker's URL has ?snapshot=skip: the client wants a boot without what is stored. */
export const SKIP_STORED = new URL(self.location.href).searchParams.get("snapshot") === "skip";
let manifest = null;
const started = new Map(); // URL -> a fetch started by headStart

/** Start it all; resolves to the manifest. */
export function headStart() {
  if (!SKIP_STORED) readEarly();
  manifest = fetchOk(new URL("manifest.json", ASSETS)).then((response) => response.json());
  // loadPyodide imports pyodide.asm.js only when it is not loaded yet; a failure here is
  // reported by that import. pyodide.asm.wasm is asked for too, and handed to Pyodide when
  // it asks (takeFetch); a failure here is reported there.
  manifest
    .then((m) => {
      const index = new URL(m.pyodide, ASSETS);
      const wasm = new URL("pyodide.asm.wasm", index).href;
      const pending = fetch(wasm, { credentials: "same-origin" });
      pending.catch(() => {});
      started.set(wasm, pending);
      return import(new URL("pyodide.asm.js", index).href);
    })
    .catch(() => {});
  return manifest;
}

/** The fetch of url that headStart started, the first time; undefined after that. */
export function takeFetch(url) {
  const pending = started.get(url);
  started.delete(url);
  return pending;
}

/** The manifest headStart asked for (asked now if it has not run). */
export const earlyManifest = () => manifest ?? headStart();
