// Two sources of the boot plan (shared/boot-plan.js) that need Pyodide itself: the
// interpreter, restored from the memory snapshot or started the normal way, and NumPy through
// Pyodide's own loader, for a Pyodide without the internals installWheel uses.

import { restoreOptions, wasRestored } from "../shared/pyodide-private.js";
import { AFTER_RESTORE_CODE, dropSnapshot } from "../shared/snapshot.js";
import { startPython } from "../shared/start.js";

/**
 * The interpreter, restored from the stored snapshot when there is a good one, else started
 * the normal way. Sets phases.snapshot ("restored", "deferred": a helper is to make one,
 * "none": no Cache Storage, "unsupported": this Pyodide ignored the snapshot) and, when a
 * restore failed, phases.snapshotError.
 */
export async function interpreter({ loadPyodide, indexURL, stored, phases, mark, restoring }) {
  const found = await stored;
  if (found) {
    restoring();
    try {
      // loadPyodide awaits the snapshot's bytes only after it has started fetching and
      // compiling pyodide.asm.wasm: reading and checking them overlaps that.
      found.bytes.then(() => mark("snapshotRead"), () => {});
      const options = { indexURL, ...restoreOptions(found.bytes) };
      const pyodide = await startPython(loadPyodide, options);
      if (!wasRestored(pyodide)) {
        // A Pyodide without _loadSnapshot started the normal way: go on with it, and make
        // no snapshot for it again.
        phases.snapshot = "unsupported";
        phases.snapshotError = "this Pyodide did not restore the snapshot";
        return pyodide;
      }
      pyodide.runPython(AFTER_RESTORE_CODE);
      phases.snapshot = "restored";
      return pyodide;
    } catch (err) {
      // A snapshot that cannot be restored is dropped; the normal boot below follows, and
      // the client has a new one made.
      phases.snapshotError = String(err && err.message ? err.message : err);
      await dropSnapshot().catch(() => {});
    }
  }
  // No snapshot is made here: the client has a helper worker make one once this boot is
  // live (snapshot-worker.js), so a cold visit boots like a bare Pyodide.
  const pyodide = await startPython(loadPyodide, { indexURL });
  phases.snapshot = globalThis.caches ? "deferred" : "none";
  return pyodide;
}

/** NumPy the way Pyodide loads a package, for a Pyodide without what installWheel uses. */
export async function loadNumpy(pyodide) {
  const errors = [];
  await pyodide.loadPackage("numpy", {
    messageCallback: () => {},
    errorCallback: (message) => errors.push(message),
  });
  if (!pyodide.loadedPackages.numpy) throw new Error(errors.join("; ") || "no reason given");
}
