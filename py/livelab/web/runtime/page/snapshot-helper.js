// Starting the helper worker that makes and stores the memory snapshot
// (helper/snapshot-worker.js), for the client, once a boot that had none is live and the page
// is quiet (quiet.js); it ends once the snapshot is stored. It is the one interpreter a first
// visit starts besides the page's own, and a return visit starts none (README.md, "The boot
// plan").
//
// It compiles nothing of its own: Chromium and Firefox share a compiled WebAssembly module
// between the workers of a page by its bytes, and the helper's pyodide.asm.wasm is the page
// worker's file. (A warm-up worker that booted once more on a first visit, so that Chromium
// kept a reload's compiled code with the service worker's copy, bought about 46 ms on the
// first reload for a whole extra interpreter's CPU and memory: it was dropped.)

import { whenQuiet } from "./quiet.js";
import { started as noteInterpreter } from "./report.js";

const HELPER_URL = new URL("../helper/snapshot-worker.js", import.meta.url);
const GIVE_UP_MS = 120_000; // a helper that never reports is ended (no snapshot)

/**
 * Start a module worker that ends once: listen(data, end, worker) hears its messages, and
 * end(result) terminates it and resolves to result. It also ends with {error} when its script
 * does not load, or after GIVE_UP_MS (`late` is that error).
 */
function oneShotWorker({ url, name, what, late }, listen) {
  return new Promise((resolve) => {
    const worker = new Worker(url, { type: "module", name });
    const end = (result) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(() => end({ error: late }), GIVE_UP_MS);
    worker.onmessage = ({ data }) => listen(data, end, worker);
    worker.onerror = (event) => {
      event.preventDefault();
      end({ error: event.message || `${what} did not load` });
    };
  });
}

/**
 * Once the page is quiet (quiet.js), start the helper; resolves to what it reported,
 * {bytes, stored, ms} or {error}. `started()` is called when it starts.
 */
export function runSnapshotHelper(started) {
  const helper = {
    url: HELPER_URL,
    name: "livelab-snapshot",
    what: "the snapshot worker",
    late: "the snapshot was not made in time",
  };
  return new Promise((resolve) => {
    const start = () => {
      started();
      const report = ({ error, bytes, stored, ms }, end) =>
        end(error ? { error } : { bytes, stored, ms });
      oneShotWorker(helper, report).then(resolve);
    };
    whenQuiet(start);
  });
}

/** Have the helper make and store a snapshot for `runtime` (the page's main client), once. */
export function makeSnapshot(runtime) {
  runtime.snapshotWanted = false;
  runtime.snapshotHelper = true;
  runSnapshotHelper(() => noteInterpreter("snapshot")).then((result) => (runtime.snapshotStore ??= result));
}
