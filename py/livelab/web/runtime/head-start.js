// What the worker starts before its boot's modules have loaded (worker.js imports nothing
// else up front): the manifest, a read of every entry stored by an earlier boot (stored.js
// readEarly), and Pyodide's pyodide.asm.js. On a reload the worker's thread is otherwise idle
// while the boot's modules arrive, and each of these waited for that thread later: the
// snapshot's bytes are handed over in chunks on it, and pyodide.asm.js (1.2 MB of script)
// is compiled and run on it before the interpreter can be restored.

import { fetchOk } from "./downloads.js";
import { readEarly } from "./stored.js";

const ASSETS = new URL("../", import.meta.url);
/** The worker's URL has ?snapshot=skip: the client wants a boot without what is stored. */
export const SKIP_STORED = new URL(self.location.href).searchParams.get("snapshot") === "skip";
let manifest = null;

/** Start it all; resolves to the manifest. */
export function headStart() {
  if (!SKIP_STORED) readEarly();
  manifest = fetchOk(new URL("manifest.json", ASSETS)).then((response) => response.json());
  // loadPyodide imports pyodide.asm.js only when it is not loaded yet; a failure here is
  // reported by that import.
  manifest
    .then((m) => import(new URL("pyodide.asm.js", new URL(m.pyodide, ASSETS)).href))
    .catch(() => {});
  return manifest;
}

/** The manifest headStart asked for (asked now if it has not run). */
export const earlyManifest = () => manifest ?? headStart();
