// What the worker starts before its boot's modules have loaded (worker.js imports nothing
// else up front): the manifest, a read of every entry stored by an earlier boot (stored.js
// readEarly), Pyodide's pyodide.asm.js and its pyodide.asm.wasm. On a reload the worker's
// thread is otherwise idle while the boot's modules arrive, and each of these waited for that
// thread later: the snapshot's bytes are handed over in chunks on it, and pyodide.asm.js
// (1.2 MB of script) is compiled and run on it before the interpreter can be restored. The
// wasm (10 MB, from the service worker on a reload) was asked for only once loadPyodide ran.
// Asked for here, the gain is small: in bench/reload_ab.py (10 rounds of 2 reloads) a boot
// without this fetch took a median 24 ms longer (mean 14 ms), and was faster in 4 of 10
// rounds. (The 125 ms measured first came from two profiles per build; reload_ab.py says why
// that is too few.)

import { fetchOk, fileName } from "../shared/downloads.js";
import { readEarly } from "../shared/stored.js";

const ASSETS = new URL("../../", import.meta.url);
/** The worker's URL has ?snapshot=skip: the client wants a boot without what is stored. */
export const SKIP_STORED = new URL(self.location.href).searchParams.get("snapshot") === "skip";
let manifest = null;
let wasmFetch = null; // {url, pending}: pyodide.asm.wasm as headStart asked for it
let scriptFailed = null; // {file, damaged}: pyodide.asm.js did not load (nor will it later)

/** Start it all; resolves to the manifest. */
export function headStart() {
  if (!SKIP_STORED) readEarly();
  manifest = fetchOk(new URL("manifest.json", ASSETS)).then((response) => response.json());
  // loadPyodide imports pyodide.asm.js only when it is not loaded yet; a failure here is
  // reported by that import. pyodide.asm.wasm is asked for too, and handed to Pyodide when
  // it asks (takeWasmFetch); a failure here is reported there.
  manifest
    .then((m) => {
      const index = new URL(m.pyodide, ASSETS);
      const url = new URL("pyodide.asm.wasm", index).href;
      const pending = fetch(url, { credentials: "same-origin" });
      pending.catch(() => {});
      wasmFetch = { url, pending };
      const script = new URL("pyodide.asm.js", index).href;
      const failed = () => (scriptFailed = { file: fileName(script), damaged: false });
      return import(script).catch(failed);
    })
    .catch(() => {});
  return manifest;
}

/** {url, pending}: the fetch of pyodide.asm.wasm that headStart started, the first time it
 * is asked for; null after that, or when none was started. */
export function takeWasmFetch() {
  const taken = wasmFetch;
  wasmFetch = null;
  return taken;
}

/** {file, damaged} when the import of pyodide.asm.js that headStart started failed, else null
 * (a module that failed to load fails again in this worker, so Pyodide's own import did too). */
export const failedScript = () => scriptFailed;

/** The manifest headStart asked for (asked now if it has not run). */
export const earlyManifest = () => manifest ?? headStart();
